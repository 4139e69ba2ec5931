//! The position as the page's inputs hold it ([`Form`]), read from and written to the URL
//! query ([`Link`]), and checked into what the solver takes ([`Setup`]).

use crate::kicks::{KICK_NAMES, kick_table};
use pc_bag::{ParsePiecesError, PatternSet, PatternSetError, PieceSet, Sequence};
use pc_bitboard::{Board32, ParseBoardError};
use pc_fumen::FumenError;
use pc_solver::{MAX_PREVIEW, PcField, Piece, Position, Rules, SolverError};
use pc_srs::DropMode;
use serde::{Deserialize, Serialize};

/// Rows the page's field editor shows, so the most a field (and a clear line) can have.
pub const EDITOR_ROWS: u32 = 8;

/// The drop modes by the names the page and the link use: soft drop (any move at any
/// height) and hard drop only.
pub const DROP_NAMES: [&str; 2] = ["softdrop", "harddrop"];

/// The link parameters the page reads, in the order the messages list them.
pub const LINK_KEYS: [&str; 13] = [
    "field", "fumen", "clear", "hold", "queue", "bag", "kicks", "drop", "two", "play", "seed",
    "preview", "pattern",
];

/// The most queues a pattern may give, cut to the pieces a PC can use: past it the
/// solutions of a field take more memory and time than a page should.
pub const MAX_QUEUES: u64 = 1_000_000;

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
    /// A drop mode of [`DROP_NAMES`] (`soft` and `hard` too, in any case).
    pub drop: String,
    /// Whether 2-line PCs count too.
    pub two_line: bool,
    /// Whether hold was pressed for the current piece already (it went into the empty
    /// slot and brought this one out): a state of Play mode, never in a link.
    pub hold_used: bool,
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
            drop: "softdrop".to_string(),
            two_line: false,
            hold_used: false,
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
    /// A filled cell at or above the clear line.
    #[error(
        "field: row {row} (counting from 1 at the bottom) has a filled cell, but the clear \
         line is {clear_line}: a PC of {clear_line} lines keeps rows 1 to {clear_line}"
    )]
    AboveClearLine {
        /// The highest filled row, counting from 1 at the bottom (as the editor numbers
        /// them).
        row: u32,
        /// The clear line.
        clear_line: u32,
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
    #[error("queue: give at least the current piece (then up to {MAX_PREVIEW} preview pieces)")]
    EmptyQueue,
    /// More than the current piece and [`MAX_PREVIEW`] previews.
    #[error(
        "queue: {0} pieces, but the queue is the current piece and at most {MAX_PREVIEW} preview pieces"
    )]
    LongQueue(usize),
    /// An unknown kick table.
    #[error("kicks: {0:?} is not one of {names}", names = KICK_NAMES.join(", "))]
    Kicks(String),
    /// An unknown drop mode.
    #[error("drop: {0:?} is not one of {names}", names = DROP_NAMES.join(", "))]
    Drop(String),
    /// A pattern (sfinder's language: `I,*p4`) that does not parse.
    #[error("pattern: {0}")]
    Pattern(#[from] PatternSetError),
    /// A pattern that gives more queues than the page searches.
    #[error(
        "pattern: {queues} queues of {pieces} pieces, more than the {MAX_QUEUES} the page searches: \
         give fewer pieces or fixed ones (I,*p4)"
    )]
    TooManyQueues {
        /// The queues, cut to the pieces the PC can use.
        queues: u128,
        /// Pieces in each.
        pieces: usize,
    },
    /// The solver refuses the position (bag contradiction, empty cells not a multiple of
    /// 4, clear line out of range, preview too long, a pattern too short for the PC).
    #[error("{input}: {error}", input = solver_input(.0), error = .0)]
    Solver(#[from] SolverError),
}

/// The input a solver error is about.
fn solver_input(e: &SolverError) -> &'static str {
    match e {
        SolverError::ClearLineOutOfRange(_) => "clear line",
        SolverError::FieldAboveClearLine { .. }
        | SolverError::EmptyCellsNotMultipleOfFour { .. } => "field",
        SolverError::BagContradiction { .. } => "bag",
        SolverError::PreviewTooLong(_) | SolverError::PreviewLength { .. } => "queue",
        SolverError::PatternTooShort { .. } => "pattern",
        _ => "position",
    }
}

impl FormError {
    /// The input the error is about, for the page to mark: `field`, `clear_line`, `hold`,
    /// `queue`, `bag`, `kicks`, `drop`, `pattern` or `position`.
    pub fn input(&self) -> &'static str {
        match self {
            FormError::Field(_)
            | FormError::Fumen(_)
            | FormError::FumenEmpty
            | FormError::TooTall { .. }
            | FormError::AboveClearLine { .. } => "field",
            FormError::Pieces { part, .. } => part,
            FormError::Hold(_) => "hold",
            FormError::EmptyQueue | FormError::LongQueue(_) => "queue",
            FormError::Kicks(_) => "kicks",
            FormError::Drop(_) => "drop",
            FormError::Pattern(_) | FormError::TooManyQueues { .. } => "pattern",
            FormError::Solver(e) => match solver_input(e) {
                "clear line" => "clear_line",
                input => input,
            },
        }
    }
}

/// A link parameter that cannot be used: its key, the input it is about, and a message
/// that names it (`link: hold: column 1: 'X' is not a piece …`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LinkError {
    /// The parameter as written.
    pub key: String,
    /// The input to mark: as [`FormError::input`], `play` for Play mode's parameters,
    /// `link` for a parameter the page does not know.
    pub input: &'static str,
    /// The message.
    pub error: String,
}

/// What a link asks of Play mode: `?play=1&seed=S&preview=N`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayLink {
    /// `play=1`: open Play mode.
    pub play: bool,
    /// `seed=S`: the game's seed (the page draws one when the link has none).
    pub seed: Option<u64>,
    /// `preview=N`: preview pieces, 1 to [`MAX_PREVIEW`].
    pub preview: Option<usize>,
}

/// A link read: the form with every parameter that could be used, what it asks of Play
/// mode, and a message for each parameter that could not (which leaves that part of the
/// form as it is by default, and the others in place).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Link {
    /// The position.
    pub form: Form,
    /// Whether the link gives a queue (the page then solves at once).
    pub solve: bool,
    /// Play mode's parameters.
    pub play: PlayLink,
    /// `pattern=I,*p4`: the solutions of the field for this pattern are shown (as typed,
    /// checked by [`parse_pattern`]).
    pub pattern: Option<String>,
    /// The parameters that could not be used, in the order of the link.
    pub errors: Vec<LinkError>,
}

/// A checked form: what the solver takes.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The position.
    pub position: Position,
    /// SRS-style rules with the form's kick table, drop mode and hold.
    pub rules: Rules,
    /// Whether 2-line PCs count too.
    pub two_line: bool,
    /// The form as read back from the position (field rows from its top filled row, pieces
    /// in capitals, the kick table's and drop mode's own names).
    pub form: Form,
}

/// The drop mode of a name of [`DROP_NAMES`] (`soft`, `hard` too), in any case.
pub fn drop_mode(name: &str) -> Option<DropMode> {
    match name.trim().to_ascii_lowercase().as_str() {
        "softdrop" | "soft" => Some(DropMode::Soft),
        "harddrop" | "hard" => Some(DropMode::Hard),
        _ => None,
    }
}

/// The page's name of a drop mode.
pub fn drop_name(drop: DropMode) -> &'static str {
    match drop {
        DropMode::Soft => "softdrop",
        DropMode::Hard => "harddrop",
    }
}

/// Link parameters that trackers add to shared links: never a message.
fn tracking(key: &str) -> bool {
    key.starts_with("utm_") || matches!(key, "fbclid" | "gclid")
}

impl Form {
    /// Reads the URL query: everything after the `?`, the fragment included, since a field
    /// written with a raw `#` (`?field=####......`) puts the rest of the link there.
    ///
    /// Keys ([`LINK_KEYS`]): `field` (or `fumen`, a fumen whose first page is the field),
    /// `clear`, `hold`, `queue`, `bag`, `kicks`, `drop`, `two` (`1`/`0`), and Play mode's
    /// `play`, `seed` and `preview`, and `pattern` (sfinder's, for the solutions of the
    /// field: [`Link::pattern`]). Values are percent-decoded, and `+` stays a `+` (for
    /// `kicks=srs+`). Every value is checked on its own: one that cannot be used is a
    /// [`LinkError`] naming it and leaves that part of the form at its default, the others
    /// in place. A key the page does not know is a message too (trackers' `utm_…`,
    /// `fbclid` and `gclid` are ignored). Checks between parts (the queue against the
    /// bag, the field against the clear line) are [`Form::setup`]'s.
    pub fn from_query(query: &str) -> Link {
        let query = query.strip_prefix('?').unwrap_or(query);
        let mut link = Link::default();
        let mut field_key: Option<String> = None;
        for part in query.split('&').filter(|p| !p.is_empty()) {
            let (raw_key, raw_value) = part.split_once('=').unwrap_or((part, ""));
            let key = match percent_decode(raw_key) {
                Ok(key) => key,
                Err(message) => {
                    link.errors.push(LinkError {
                        key: raw_key.to_string(),
                        input: "link",
                        error: format!("link: {raw_key}: {message}"),
                    });
                    continue;
                }
            };
            if tracking(&key) {
                continue;
            }
            let input = match key.as_str() {
                "field" | "fumen" => "field",
                "clear" => "clear_line",
                "two" => "two_line",
                "play" | "seed" | "preview" => "play",
                "hold" => "hold",
                "queue" => "queue",
                "bag" => "bag",
                "kicks" => "kicks",
                "drop" => "drop",
                "pattern" => "pattern",
                _ => "link",
            };
            let mut fail = |message: String| {
                link.errors.push(LinkError {
                    key: key.clone(),
                    input,
                    error: format!("link: {key}: {message}"),
                })
            };
            let value = match percent_decode(raw_value) {
                Ok(value) => value,
                Err(message) => {
                    fail(message);
                    continue;
                }
            };
            let value = value.trim();
            // The message of a form error without the input's name it starts with (the
            // link's message names the parameter).
            let bare = |e: FormError| {
                let text = e.to_string();
                match text.split_once(": ") {
                    Some((_, rest)) => rest.to_string(),
                    None => text,
                }
            };
            match key.as_str() {
                "field" | "fumen" => {
                    if let Some(first) = &field_key {
                        fail(format!(
                            "the link gives the field already ({first}=…): give the field or \
                             a fumen, not both"
                        ));
                        continue;
                    }
                    let read = if key == "field" {
                        check_field_text(value)
                    } else {
                        field_from_fumen(value)
                    };
                    match read {
                        Ok(rows) => {
                            link.form.field = rows;
                            field_key = Some(key.clone());
                        }
                        Err(e) => fail(bare(e)),
                    }
                }
                "clear" => match value.parse::<u32>() {
                    Ok(n) if (1..=EDITOR_ROWS).contains(&n) => link.form.clear_line = n,
                    _ => fail(format!(
                        "{value:?} is not a clear line: a number from 1 to {EDITOR_ROWS}"
                    )),
                },
                "hold" => match check_hold(value) {
                    Ok(hold) => link.form.hold = hold,
                    Err(e) => fail(bare(e)),
                },
                "queue" => match check_queue(value) {
                    Ok(queue) => link.form.queue = queue,
                    Err(e) => fail(bare(e)),
                },
                "bag" => match value.parse::<PieceSet>() {
                    Ok(bag) if bag.is_empty() || bag.len() == Piece::COUNT => link.form.bag.clear(),
                    Ok(bag) => link.form.bag = bag.to_string(),
                    Err(error) => fail(bare(FormError::Pieces { part: "bag", error })),
                },
                "kicks" => match kick_table(value) {
                    Some(table) => link.form.kicks = table.name().to_string(),
                    None => fail(bare(FormError::Kicks(value.to_string()))),
                },
                "drop" => match drop_mode(value) {
                    Some(drop) => link.form.drop = drop_name(drop).to_string(),
                    None => fail(bare(FormError::Drop(value.to_string()))),
                },
                "two" => match flag(value) {
                    Some(on) => link.form.two_line = on,
                    None => fail(format!("{value:?} is not 1 or 0")),
                },
                "play" => match flag(value) {
                    Some(on) => link.play.play = on,
                    None => fail(format!("{value:?} is not 1 or 0")),
                },
                "seed" => match value.parse::<u64>() {
                    Ok(seed) => link.play.seed = Some(seed),
                    Err(_) => fail(format!(
                        "{value:?} is not a seed: a whole number from 0 to {}",
                        u64::MAX
                    )),
                },
                "pattern" => match parse_pattern(value) {
                    Ok(_) => link.pattern = Some(value.to_string()),
                    Err(e) => fail(bare(e)),
                },
                "preview" => match value.parse::<usize>() {
                    Ok(n) if (1..=MAX_PREVIEW).contains(&n) => link.play.preview = Some(n),
                    _ => fail(format!(
                        "{value:?} is not a preview length: a number from 1 to {MAX_PREVIEW}"
                    )),
                },
                _ => fail(format!(
                    "the page does not know this parameter (it reads {})",
                    LINK_KEYS.join(", ")
                )),
            }
        }
        link.solve = !link.form.queue.is_empty();
        link
    }

    /// The query of a link that opens the page on this form (without the `?`). `#` and
    /// `+` are percent-encoded (`%23`, `%2B`) so that the link survives any URL parser;
    /// the clear line, the drop mode and the 2-line flag are written when they are not the
    /// defaults.
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
        if drop_mode(&self.drop) == Some(DropMode::Hard) {
            parts.push("drop=harddrop".to_string());
        }
        if self.two_line {
            parts.push("two=1".to_string());
        }
        parts.join("&")
    }

    /// The rules of the form: its kick table and drop mode, with hold.
    pub fn rules(&self) -> Result<Rules, FormError> {
        let kicks = kick_table(&self.kicks).ok_or_else(|| FormError::Kicks(self.kicks.clone()))?;
        let drop = drop_mode(&self.drop).ok_or_else(|| FormError::Drop(self.drop.clone()))?;
        Ok(Rules {
            kicks,
            drop,
            hold: true,
        })
    }

    /// Checks every part and builds the position and the rules: the errors of the field
    /// text, the letters, the kick table and drop mode, and the solver's own checks of
    /// the position (clear line 1 to 8, nothing at or above it, empty cells a multiple of
    /// 4, the queue possible from a 7-bag that leaves the bag state, a preview of at most
    /// 6).
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
        let rules = self.rules()?;
        let position = Position::new(field, current)
            .with_clear_line(self.clear_line)
            .with_hold(hold.first().copied())
            .with_preview(preview)
            .with_bag(bag)
            .with_hold_used(self.hold_used && hold.len() == 1);
        if preview.len() > MAX_PREVIEW {
            return Err(SolverError::PreviewTooLong(preview.len()).into());
        }
        pc_field(field, self.clear_line)?;
        position.check_bag()?;
        let form = Form {
            field: field_rows(&field),
            clear_line: self.clear_line,
            hold: letters(&hold),
            queue: letters(&queue),
            // The form's bag box is empty for a fresh bag.
            bag: if bag.is_empty() || bag.len() == Piece::COUNT {
                String::new()
            } else {
                bag.to_string()
            },
            kicks: rules.kicks.name().to_string(),
            drop: drop_name(rules.drop).to_string(),
            two_line: self.two_line,
            hold_used: position.hold_used,
        };
        Ok(Setup {
            position,
            rules,
            two_line: self.two_line,
            form,
        })
    }
}

/// The field below a clear line as the solver takes it, with the editor's row numbers in
/// the message of a cell at or above the line.
pub fn pc_field(field: Board32, clear_line: u32) -> Result<PcField, FormError> {
    PcField::new(field, clear_line).map_err(|e| match e {
        SolverError::FieldAboveClearLine { row, clear_line } => FormError::AboveClearLine {
            row: row + 1,
            clear_line,
        },
        e => e.into(),
    })
}

/// A pattern in sfinder's language (`I,*p4`, `[SZ]p2,*p4`; lines separated by `;` or
/// line breaks).
pub fn parse_pattern(text: &str) -> Result<PatternSet, FormError> {
    Ok(text.replace(';', "\n").parse::<PatternSet>()?)
}

/// The form of a position (the kick table, drop mode and 2-line flag given apart).
pub fn form_of(position: &Position, rules: &Rules, two_line: bool) -> Form {
    Form {
        field: field_rows(&position.field),
        clear_line: position.clear_line,
        hold: position.hold.map(|p| p.to_string()).unwrap_or_default(),
        queue: letters(&position.queue()),
        bag: if position.bag_state().is_fresh() {
            String::new()
        } else {
            position.bag.to_string()
        },
        kicks: rules.kicks.name().to_string(),
        drop: drop_name(rules.drop).to_string(),
        two_line,
        hold_used: position.hold_used,
    }
}

/// Pieces as letters.
pub fn letters(pieces: &[Piece]) -> String {
    pieces.iter().map(|p| p.to_char()).collect()
}

/// `1`/`0` and their words.
fn flag(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "1" | "true" | "on" | "yes" => Some(true),
        "0" | "false" | "off" | "no" | "" => Some(false),
        _ => None,
    }
}

/// A field's text as the editor can show it: rows of ten cells, at most [`EDITOR_ROWS`].
fn check_field_text(text: &str) -> Result<String, FormError> {
    let _: Board32 = text.parse()?;
    let rows = text
        .split(['/', '\n'])
        .filter(|r| !r.trim().is_empty())
        .count() as u32;
    if rows > EDITOR_ROWS {
        return Err(FormError::TooTall { rows });
    }
    Ok(text.to_string())
}

/// A hold slot's text: one piece, or none (empty, `none` or `-`), as a capital letter.
fn check_hold(text: &str) -> Result<String, FormError> {
    if matches!(text.to_ascii_lowercase().as_str(), "" | "none" | "-") {
        return Ok(String::new());
    }
    let hold = pieces("hold", text)?;
    if hold.len() > 1 {
        return Err(FormError::Hold(hold.len()));
    }
    Ok(letters(&hold))
}

/// A queue's text: the current piece and at most six preview pieces, in capitals.
fn check_queue(text: &str) -> Result<String, FormError> {
    let queue = pieces("queue", text)?;
    match queue.len() {
        0 => Err(FormError::EmptyQueue),
        n if n > MAX_PREVIEW + 1 => Err(FormError::LongQueue(n)),
        _ => Ok(letters(&queue)),
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
pub fn percent_encode(text: &str) -> String {
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

    /// A link's form, with no parameter refused.
    fn read(query: &str) -> Form {
        let link = Form::from_query(query);
        assert_eq!(link.errors, [], "{query}");
        link.form
    }

    #[test]
    fn the_issue_link_reads_with_a_raw_hash() {
        // What the page passes: everything after '?', fragment included.
        let raw = "field=####....../..........&hold=O&queue=TSZLJI&bag=OTSZLJ&kicks=srs";
        let link = Form::from_query(raw);
        assert_eq!(
            link.form,
            Form {
                field: "####....../..........".to_string(),
                ..form("", "O", "TSZLJI", "JLOSTZ")
            }
        );
        assert!(link.solve);
        assert_eq!(Form::from_query(&format!("?{raw}")), link);
        let encoded = raw.replace('#', "%23");
        assert_eq!(Form::from_query(&encoded), link);
    }

    #[test]
    fn query_values() {
        let form = read("kicks=srs+&clear=2&two=1&hold=none&utm_source=x&drop=HARD");
        assert_eq!(form.kicks, "srs+");
        assert_eq!(form.clear_line, 2);
        assert!(form.two_line);
        assert_eq!(form.hold, "");
        assert_eq!(form.drop, "harddrop");
        assert_eq!(read("kicks=srs%2B").kicks, "srs+");
        // Names in any case, pieces in either case.
        assert_eq!(read("kicks=SRS").kicks, "srs");
        assert_eq!(read("kicks=SRSPlus").kicks, "srs+");
        assert_eq!(read("hold=t&queue=szl&bag=ijo").queue, "SZL");
        assert_eq!(read("hold=t").hold, "T");
        assert_eq!(read("bag=ijo").bag, "IJO");
        assert_eq!(read("bag=IJLOSTZ").bag, "");
        assert_eq!(Form::from_query(""), Link::default());
        let link = Form::from_query("play=1&seed=42&preview=3");
        assert_eq!(
            link.play,
            PlayLink {
                play: true,
                seed: Some(42),
                preview: Some(3),
            }
        );
        assert!(!link.solve);
    }

    #[test]
    fn every_bad_parameter_is_named_and_leaves_the_others() {
        let cases = [
            (
                "clear=four",
                "clear",
                "clear_line",
                "link: clear: \"four\" is not a clear line",
            ),
            ("clear=9", "clear", "clear_line", "a number from 1 to 8"),
            (
                "hold=X",
                "hold",
                "hold",
                "link: hold: column 1: 'X' is not a piece",
            ),
            (
                "hold=OO",
                "hold",
                "hold",
                "link: hold: one piece or none, not 2 pieces",
            ),
            (
                "queue=T%",
                "queue",
                "queue",
                "link: queue: '%' at character 2",
            ),
            ("queue=TSZLJIOT", "queue", "queue", "link: queue: 8 pieces"),
            (
                "queue=TQ",
                "queue",
                "queue",
                "link: queue: column 2: 'Q' is not a piece",
            ),
            (
                "bag=TT",
                "bag",
                "bag",
                "link: bag: column 2: T is already in the set",
            ),
            (
                "kicks=tgm",
                "kicks",
                "kicks",
                "link: kicks: \"tgm\" is not one of srs, srs+",
            ),
            (
                "drop=sonic",
                "drop",
                "drop",
                "link: drop: \"sonic\" is not one of softdrop, harddrop",
            ),
            (
                "two=maybe",
                "two",
                "two_line",
                "link: two: \"maybe\" is not 1 or 0",
            ),
            (
                "play=yes%21",
                "play",
                "play",
                "link: play: \"yes!\" is not 1 or 0",
            ),
            (
                "seed=-1",
                "seed",
                "play",
                "link: seed: \"-1\" is not a seed",
            ),
            (
                "preview=7",
                "preview",
                "play",
                "link: preview: \"7\" is not a preview length",
            ),
            (
                "fumen=v115@vh!",
                "fumen",
                "field",
                "link: fumen: invalid character '!'",
            ),
            ("fumen=v115@", "fumen", "field", "link: fumen:"),
            (
                "field=#####",
                "field",
                "field",
                "link: field: row 1 (from the top) has 5 cells",
            ),
            (
                "field=%23%23",
                "field",
                "field",
                "link: field: row 1 (from the top) has 2 cells",
            ),
            (
                "queu=TSZ",
                "queu",
                "link",
                "link: queu: the page does not know this parameter",
            ),
        ];
        let good = "hold=O&queue=TSZLJI&bag=OTSZLJ&kicks=srs%2B";
        for (bad, key, input, message) in cases {
            let link = Form::from_query(&format!("{bad}&{good}"));
            assert_eq!(link.errors.len(), 1, "{bad}: {:?}", link.errors);
            let error = &link.errors[0];
            assert_eq!((error.key.as_str(), error.input), (key, input), "{bad}");
            assert!(error.error.contains(message), "{bad}: {}", error.error);
            // The other parameters are in place.
            assert_eq!(
                (
                    link.form.hold.as_str(),
                    link.form.queue.as_str(),
                    link.form.kicks.as_str()
                ),
                ("O", "TSZLJI", "srs+"),
                "{bad}"
            );
        }
        // Both a field and a fumen: the second is refused, the first kept.
        let link = Form::from_query("field=..........&fumen=v115@9gF8DeF8DeF8DeF8NeAgH&queue=T");
        assert_eq!(link.form.field, "..........");
        assert_eq!(link.errors[0].key, "fumen");
        assert!(
            link.errors[0].error.contains("not both"),
            "{:?}",
            link.errors
        );
        // Several at once, each named.
        let link = Form::from_query("hold=X&queue=T&kicks=nope&two=2");
        let keys: Vec<&str> = link.errors.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["hold", "kicks", "two"]);
        assert_eq!(link.form.queue, "T");
    }

    #[test]
    fn a_fumen_in_the_query_is_the_field() {
        let pco = "v115@9gB8EeF8DeG8CeF8DeC8JeAgH";
        let form = read(&format!("fumen={pco}&queue=TLOSJZ&hold=I"));
        assert_eq!(form.field, "##.....###/###....###/####...###/###....###");
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
                drop: "harddrop".to_string(),
                ..form("#.......##", "T", "ZS", "IJLO")
            },
        ];
        for case in cases {
            let query = case.to_query();
            assert!(!query.contains('#') && !query.contains('+'), "{query}");
            let mut back = read(&query);
            if case.field.is_empty() {
                back.field.clear();
            }
            let expected = Form {
                bag: case
                    .bag
                    .parse::<PieceSet>()
                    .unwrap()
                    .to_string()
                    .replace('-', ""),
                ..case.clone()
            };
            assert_eq!(back, expected, "{query}");
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
        assert_eq!(setup.form.drop, "softdrop");
        assert!(!setup.rules.kicks.has_half_turns());
        let srs_plus = Form {
            kicks: "srsplus".to_string(),
            drop: "Hard".to_string(),
            ..form("", "", "I", "")
        };
        let setup = srs_plus.setup().unwrap();
        assert_eq!(setup.form.kicks, "srs+");
        assert_eq!(setup.form.drop, "harddrop");
        assert_eq!(setup.rules.drop, DropMode::Hard);
        assert_eq!(
            form("", "", "I", "").setup().unwrap().form.field,
            ".........."
        );
        // Hold used for the current piece: only with a piece in the slot.
        let used = Form {
            hold_used: true,
            ..form("", "T", "IO", "")
        };
        assert!(used.setup().unwrap().position.hold_used);
        assert!(form_of(&used.setup().unwrap().position, &Rules::default(), false).hold_used);
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
                "queue: a preview of 7 pieces",
            ),
            // Six to come after TSZLJI: I opened the bag, so it cannot be still to come.
            (
                form("####......", "O", "TSZLJI", "ISZLJO"),
                "bag",
                "bag: preview piece 5 (I) contradicts the bag state",
            ),
            (
                form("###.......", "", "T", ""),
                "field",
                "field: 37 empty cells below the clear line is not a multiple of 4",
            ),
            (
                form(
                    "#........./........../........../........../..........",
                    "",
                    "T",
                    "",
                ),
                "field",
                "field: row 5 (counting from 1 at the bottom) has a filled cell, but the clear line is 4",
            ),
            (
                Form {
                    clear_line: 9,
                    ..form("", "", "T", "")
                },
                "clear_line",
                "clear line: clear line 9 is out of range",
            ),
            (
                Form {
                    kicks: "tgm".to_string(),
                    ..form("", "", "T", "")
                },
                "kicks",
                "kicks: \"tgm\" is not one of srs, srs+, jstris180, nullpomino180, none",
            ),
            (
                Form {
                    drop: "sonic".to_string(),
                    ..form("", "", "T", "")
                },
                "drop",
                "drop: \"sonic\" is not one of softdrop, harddrop",
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
