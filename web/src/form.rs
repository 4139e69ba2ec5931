//! The position as the page's inputs hold it ([`Form`]), read from and written to the URL
//! query, and checked into what the solver takes ([`Setup`]).

use crate::kicks::{KICK_NAMES, kick_table};
use pc_bag::{ParsePiecesError, PieceSet, Sequence};
use pc_bitboard::{Board32, ParseBoardError};
use pc_fumen::FumenError;
use pc_solver::{PcField, Piece, Position, Rules, SolverError};
use pc_srs::DropMode;
use serde::{Deserialize, Serialize};

/// Rows the page's field editor shows, so the most a field (and a clear line) can have.
pub const EDITOR_ROWS: u32 = 8;

/// The position as typed into the page, every part as text, the way the URL query carries
/// it: `?field=####......&hold=O&queue=TSZLJI&bag=OTSZLJ&kicks=srs`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Form {
    /// The field as `#`/`.` rows, top row first, separated by `/` (the examples' form).
    pub field: String,
    /// The clear line (the height of the PC).
    pub clear_line: u32,
    /// The held piece, or empty.
    pub hold: String,
    /// The current piece, then the preview.
    pub queue: String,
    /// The pieces still to come from the current bag after the queue (empty or all seven:
    /// a fresh bag).
    pub bag: String,
    /// A kick table name of [`KICK_NAMES`].
    pub kicks: String,
    /// Whether 2-line PCs count too.
    pub two_line: bool,
}

impl Default for Form {
    fn default() -> Self {
        Form {
            field: String::new(),
            clear_line: 4,
            hold: String::new(),
            queue: String::new(),
            bag: String::new(),
            kicks: "srs".to_string(),
            two_line: false,
        }
    }
}

/// What is wrong with a form or a query; the message is what the page shows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormError {
    /// The field's text does not parse.
    #[error("field: {0}")]
    Field(#[from] ParseBoardError),
    /// A fumen that does not decode.
    #[error("fumen: {0}")]
    Fumen(#[from] FumenError),
    /// A fumen whose field has no page.
    #[error("fumen: the fumen has no field")]
    FumenEmpty,
    /// A field taller than the editor.
    #[error(
        "field: {rows} rows high, but a PC field has at most {max} rows below the clear line",
        max = EDITOR_ROWS
    )]
    TooTall {
        /// The field's height.
        rows: u32,
    },
    /// Hold, queue or bag letters that do not parse.
    #[error("{part}: {error}")]
    Pieces {
        /// `hold`, `queue` or `bag`.
        part: &'static str,
        /// What is wrong.
        error: ParsePiecesError,
    },
    /// More than one piece in the hold slot.
    #[error("hold: one piece or none, not {0} pieces")]
    Hold(usize),
    /// No current piece.
    #[error("queue: give at least the current piece (then up to 6 preview pieces)")]
    EmptyQueue,
    /// An unknown kick table.
    #[error("kicks: {0:?} is not one of {names}", names = KICK_NAMES.join(", "))]
    Kicks(String),
    /// A query value that cannot be read.
    #[error("link: {key}: {message}")]
    Query {
        /// The query key.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// The solver refuses the position (bag contradiction, field above the clear line,
    /// empty cells not a multiple of 4, clear line out of range, preview too long).
    #[error("{0}")]
    Solver(#[from] SolverError),
}

impl FormError {
    /// The input the error is about, for the page to mark: `field`, `clear_line`, `hold`,
    /// `queue`, `bag`, `kicks` or `link`.
    pub fn input(&self) -> &'static str {
        match self {
            FormError::Field(_)
            | FormError::Fumen(_)
            | FormError::FumenEmpty
            | FormError::TooTall { .. } => "field",
            FormError::Pieces { part, .. } => part,
            FormError::Hold(_) => "hold",
            FormError::EmptyQueue => "queue",
            FormError::Kicks(_) => "kicks",
            FormError::Query { .. } => "link",
            FormError::Solver(e) => match e {
                SolverError::ClearLineOutOfRange(_) => "clear_line",
                SolverError::FieldAboveClearLine { .. }
                | SolverError::EmptyCellsNotMultipleOfFour { .. } => "field",
                SolverError::BagContradiction { .. } => "bag",
                SolverError::PreviewTooLong(_) | SolverError::PreviewLength { .. } => "queue",
                _ => "position",
            },
        }
    }
}

/// A checked form: what the solver takes.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The position.
    pub position: Position,
    /// SRS-style rules with the form's kick table, soft drop and hold.
    pub rules: Rules,
    /// Whether 2-line PCs count too.
    pub two_line: bool,
    /// The form as read back from the position (field rows from its top filled row, pieces
    /// in capitals).
    pub form: Form,
}

impl Form {
    /// Reads the URL query: everything after the `?`, the fragment included, since a field
    /// written with a raw `#` (`?field=####......`) puts the rest of the link there.
    ///
    /// Keys: `field` (or `fumen`, a fumen whose first page is the field), `clear`, `hold`,
    /// `queue`, `bag`, `kicks`, `two` (`1`/`0`). Values are percent-decoded, and `+` stays a
    /// `+` (for `kicks=srs+`). Keys the page does not know are ignored; values are only
    /// checked by [`Form::setup`], except numbers, flags and fumens.
    pub fn from_query(query: &str) -> Result<Form, FormError> {
        let query = query.strip_prefix('?').unwrap_or(query);
        let mut form = Form::default();
        let mut field_given = false;
        for part in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            let key = percent_decode(key).map_err(|message| FormError::Query {
                key: key.to_string(),
                message,
            })?;
            let value = percent_decode(value).map_err(|message| FormError::Query {
                key: key.clone(),
                message,
            })?;
            let value = value.trim();
            match key.as_str() {
                "field" => {
                    field_given = true;
                    form.field = value.to_string();
                }
                "fumen" => {
                    if field_given {
                        return Err(FormError::Query {
                            key,
                            message: "give the field or a fumen, not both".to_string(),
                        });
                    }
                    field_given = true;
                    form.field = field_from_fumen(value)?;
                }
                "clear" => {
                    form.clear_line = value.parse().map_err(|_| FormError::Query {
                        key,
                        message: format!("{value:?} is not a number"),
                    })?;
                }
                "hold" => form.hold = value.to_string(),
                "queue" => form.queue = value.to_string(),
                "bag" => form.bag = value.to_string(),
                "kicks" => form.kicks = value.to_string(),
                "two" => {
                    form.two_line = match value {
                        "1" | "true" | "on" | "yes" => true,
                        "0" | "false" | "off" | "no" | "" => false,
                        _ => {
                            return Err(FormError::Query {
                                key,
                                message: format!("{value:?} is not 1 or 0"),
                            });
                        }
                    };
                }
                _ => {}
            }
        }
        if form.hold == "none" || form.hold == "-" {
            form.hold.clear();
        }
        Ok(form)
    }

    /// The query of a link that opens the page on this form (without the `?`). `#` and
    /// `+` are percent-encoded (`%23`, `%2B`) so that the link survives any URL parser;
    /// the clear line and the 2-line flag are written when they are not the defaults.
    pub fn to_query(&self) -> String {
        let mut parts = vec![format!("field={}", percent_encode(&self.field))];
        if self.clear_line != 4 {
            parts.push(format!("clear={}", self.clear_line));
        }
        for (key, value) in [
            ("hold", &self.hold),
            ("queue", &self.queue),
            ("bag", &self.bag),
        ] {
            if !value.is_empty() {
                parts.push(format!("{key}={}", percent_encode(value)));
            }
        }
        parts.push(format!("kicks={}", percent_encode(&self.kicks)));
        if self.two_line {
            parts.push("two=1".to_string());
        }
        parts.join("&")
    }

    /// Checks every part and builds the position and the rules: the errors of the field
    /// text, the letters, the kick table, and the solver's own checks of the position
    /// (clear line 1 to 8, nothing at or above it, empty cells a multiple of 4, the queue
    /// possible from a 7-bag that leaves the bag state, a preview of at most 6).
    pub fn setup(&self) -> Result<Setup, FormError> {
        let field: Board32 = self.field.parse()?;
        let hold = pieces("hold", &self.hold)?;
        if hold.len() > 1 {
            return Err(FormError::Hold(hold.len()));
        }
        let queue = pieces("queue", &self.queue)?;
        let Some((&current, preview)) = queue.split_first() else {
            return Err(FormError::EmptyQueue);
        };
        let bag: PieceSet = self
            .bag
            .parse()
            .map_err(|error| FormError::Pieces { part: "bag", error })?;
        let kicks = kick_table(&self.kicks).ok_or_else(|| FormError::Kicks(self.kicks.clone()))?;
        let rules = Rules {
            kicks,
            drop: DropMode::Soft,
            hold: true,
        };
        let position = Position::new(field, current)
            .with_clear_line(self.clear_line)
            .with_hold(hold.first().copied())
            .with_preview(preview)
            .with_bag(bag);
        if preview.len() > 6 {
            return Err(SolverError::PreviewTooLong(preview.len()).into());
        }
        PcField::new(field, self.clear_line)?;
        position.check_bag()?;
        let letters = |pieces: &[Piece]| pieces.iter().map(|p| p.to_char()).collect::<String>();
        let form = Form {
            field: field_rows(&field),
            clear_line: self.clear_line,
            hold: letters(&hold),
            queue: letters(&queue),
            // The form's bag box is empty for a fresh bag.
            bag: if bag.is_empty() {
                String::new()
            } else {
                bag.to_string()
            },
            kicks: rules.kicks.name().to_string(),
            two_line: self.two_line,
        };
        Ok(Setup {
            position,
            rules,
            two_line: self.two_line,
            form,
        })
    }
}

/// The field of a fumen's first page as rows (its piece locked, as sfinder reads `-t`).
pub fn field_from_fumen(text: &str) -> Result<String, FormError> {
    let board = pc_fumen::decode(text)?
        .first_field()
        .ok_or(FormError::FumenEmpty)?;
    if board.height() > EDITOR_ROWS {
        return Err(FormError::TooTall {
            rows: board.height(),
        });
    }
    Ok(field_rows(&board))
}

/// A board as `#`/`.` rows from its top filled row, top first, separated by `/`; an empty
/// board is one empty row.
pub fn field_rows(board: &Board32) -> String {
    board.to_text(board.height().max(1), "/")
}

/// The pieces of a hold or queue text (letters in either case; spaces and commas ignored).
fn pieces(part: &'static str, text: &str) -> Result<Vec<Piece>, FormError> {
    let sequence: Sequence = text
        .parse()
        .map_err(|error| FormError::Pieces { part, error })?;
    Ok(sequence.to_vec())
}

/// Decodes `%XX` escapes (as UTF-8); every other character stands for itself.
fn percent_decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| {
                    format!(
                        "'%' at character {} is not followed by two hex digits",
                        i + 1
                    )
                })?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "the escapes do not spell UTF-8 text".to_string())
}

/// Percent-encodes everything but letters, digits, `-._~` and `/`.
fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for &byte in text.as_bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(field: &str, hold: &str, queue: &str, bag: &str) -> Form {
        Form {
            field: field.to_string(),
            hold: hold.to_string(),
            queue: queue.to_string(),
            bag: bag.to_string(),
            ..Form::default()
        }
    }

    #[test]
    fn the_issue_link_reads_with_a_raw_hash() {
        // What the page passes: everything after '?', fragment included.
        let raw = "field=####....../..........&hold=O&queue=TSZLJI&bag=OTSZLJ&kicks=srs";
        let read = Form::from_query(raw).unwrap();
        assert_eq!(
            read,
            Form {
                field: "####....../..........".to_string(),
                ..form("", "O", "TSZLJI", "OTSZLJ")
            }
        );
        assert_eq!(Form::from_query(&format!("?{raw}")).unwrap(), read);
        let encoded = raw.replace('#', "%23");
        assert_eq!(Form::from_query(&encoded).unwrap(), read);
    }

    #[test]
    fn query_values() {
        let read = Form::from_query("kicks=srs+&clear=2&two=1&hold=none&utm_source=x").unwrap();
        assert_eq!(read.kicks, "srs+");
        assert_eq!(read.clear_line, 2);
        assert!(read.two_line);
        assert_eq!(read.hold, "");
        assert_eq!(Form::from_query("kicks=srs%2B").unwrap().kicks, "srs+");
        assert_eq!(Form::from_query("").unwrap(), Form::default());
        assert_eq!(
            Form::from_query("clear=four").unwrap_err().to_string(),
            "link: clear: \"four\" is not a number"
        );
        assert!(matches!(
            Form::from_query("queue=%T"),
            Err(FormError::Query { .. })
        ));
        assert!(matches!(
            Form::from_query("two=maybe"),
            Err(FormError::Query { .. })
        ));
    }

    #[test]
    fn a_fumen_in_the_query_is_the_field() {
        let pco = "v115@9gB8EeF8DeG8CeF8DeC8JeAgH";
        let read = Form::from_query(&format!("fumen={pco}&queue=TLOSJZ&hold=I")).unwrap();
        assert_eq!(read.field, "##.....###/###....###/####...###/###....###");
        assert!(matches!(
            Form::from_query("fumen=v115@&queue=T"),
            Err(FormError::Fumen(_))
        ));
        assert!(matches!(
            Form::from_query(&format!("field=..........&fumen={pco}")),
            Err(FormError::Query { .. })
        ));
    }

    #[test]
    fn links_read_back_the_same() {
        let cases = [
            form("####....../..........", "O", "TSZLJI", "OTSZLJ"),
            Form {
                kicks: "srs+".to_string(),
                clear_line: 2,
                two_line: true,
                ..form("", "", "I", "")
            },
            Form {
                kicks: "nullpomino180".to_string(),
                ..form("#.......##", "T", "ZS", "IJLO")
            },
        ];
        for case in cases {
            let query = case.to_query();
            assert!(!query.contains('#') && !query.contains('+'), "{query}");
            assert_eq!(Form::from_query(&query).unwrap(), case, "{query}");
        }
        assert_eq!(
            form("####......", "O", "TSZLJI", "OTSZLJ").to_query(),
            "field=%23%23%23%23......&hold=O&queue=TSZLJI&bag=OTSZLJ&kicks=srs"
        );
    }

    #[test]
    fn setup_builds_the_position() {
        let setup = form("...../####......", "o", "t s z l j i", "otszlj")
            .setup()
            .unwrap_err();
        // Five cells in a row: the field's own error, naming the row.
        assert_eq!(setup.input(), "field");
        assert_eq!(
            setup.to_string(),
            "field: row 1 (from the top) has 5 cells, expected 10"
        );

        let setup = form("####......", "o", "t s z l j i", "otszlj")
            .setup()
            .unwrap();
        let p = &setup.position;
        assert_eq!(p.field, "####......".parse().unwrap());
        assert_eq!(
            (p.clear_line, p.hold, p.current, p.preview.len()),
            (4, Some(Piece::O), Piece::T, 5)
        );
        assert_eq!(p.bag, "JLOSTZ".parse().unwrap());
        assert_eq!(setup.form.queue, "TSZLJI");
        assert_eq!(setup.form.bag, "JLOSTZ");
        assert_eq!(setup.form.field, "####......");
        assert!(!setup.rules.kicks.has_half_turns());
        let srs_plus = Form {
            kicks: "srsplus".to_string(),
            ..form("", "", "I", "")
        };
        assert_eq!(srs_plus.setup().unwrap().form.kicks, "srs+");
        assert_eq!(
            form("", "", "I", "").setup().unwrap().form.field,
            ".........."
        );
    }

    #[test]
    fn setup_errors_name_the_input() {
        let cases = [
            (
                form("", "", "", ""),
                "queue",
                "queue: give at least the current piece",
            ),
            (form("", "IO", "T", ""), "hold", "hold: one piece or none"),
            (
                form("", "", "TX", ""),
                "queue",
                "queue: column 2: 'X' is not a piece",
            ),
            (
                form("", "", "T", "TT"),
                "bag",
                "bag: column 2: T is already in the set",
            ),
            (
                form("", "", "TSZLJIOT", ""),
                "queue",
                "a preview of 7 pieces",
            ),
            // Six to come after TSZLJI: I opened the bag, so it cannot be still to come.
            (
                form("####......", "O", "TSZLJI", "ISZLJO"),
                "bag",
                "preview piece 5 (I) contradicts the bag state",
            ),
            (
                form("###.......", "", "T", ""),
                "field",
                "37 empty cells below the clear line is not a multiple of 4",
            ),
            (
                form(
                    "#........./........../........../........../..........",
                    "",
                    "T",
                    "",
                ),
                "field",
                "filled cell in row 4, at or above the clear line 4",
            ),
            (
                Form {
                    clear_line: 9,
                    ..form("", "", "T", "")
                },
                "clear_line",
                "clear line 9 is out of range",
            ),
            (
                Form {
                    kicks: "tgm".to_string(),
                    ..form("", "", "T", "")
                },
                "kicks",
                "kicks: \"tgm\" is not one of srs, srs+, jstris180, nullpomino180, none",
            ),
        ];
        for (case, input, message) in cases {
            let error = case.setup().unwrap_err();
            assert_eq!(error.input(), input, "{case:?}");
            assert!(
                error.to_string().contains(message),
                "{case:?}: {error} should say {message}"
            );
        }
    }

    #[test]
    fn fumen_fields() {
        assert_eq!(
            field_from_fumen("https://harddrop.com/fumen/?v115@9gF8DeF8DeF8DeF8NeAgH").unwrap(),
            "######..../######..../######..../######...."
        );
        let error = field_from_fumen("v115@9gF8DeF8DeF8DeF8Ne!gH").unwrap_err();
        assert_eq!(error.input(), "field");
        assert!(
            error
                .to_string()
                .starts_with("fumen: invalid character '!'")
        );
        assert_eq!(
            field_from_fumen("hello").unwrap_err(),
            FormError::Fumen(FumenError::MissingPrefix)
        );
        // Ten filled rows of gray: taller than a PC field.
        let tall = pc_fumen::Fumen::from_placements(
            &"#########./"
                .repeat(10)
                .trim_end_matches('/')
                .parse()
                .unwrap(),
            &[],
        );
        assert_eq!(
            field_from_fumen(&tall.to_string()).unwrap_err(),
            FormError::TooTall { rows: 10 }
        );
    }
}
