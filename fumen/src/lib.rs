#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod action;
mod codec;
mod comment;
mod error;
mod field;

pub use error::FumenError;
pub use field::{Cell, ColoredField};

// The types of the crates below in this crate's API, so that a user needs no other
// dependency.
pub use pc_bitboard::{Board32, ParseBoardError};
pub use pc_srs::{Orientation, Piece, Placement};

use action::Action;
use codec::{Reader, Writer};
use core::fmt;
use core::str::FromStr;

/// A decoded fumen: its pages, in order.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Fumen {
    /// The pages. [`decode`] always gives at least one.
    pub pages: Vec<Page>,
}

/// One page of a fumen: a field, perhaps a piece, flags and perhaps a comment.
///
/// [`Page::new`] makes a page with no piece, the lock flag set and the others clear, the
/// way the fumen editor starts a page.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Page {
    field: ColoredField,
    piece: Option<Placement>,
    lock: bool,
    rise: bool,
    mirror: bool,
    colour: bool,
    comment: Option<String>,
}

impl Page {
    /// A page showing `field`, with no piece and no comment; lock set, rise, mirror and
    /// colour clear.
    pub fn new(field: ColoredField) -> Self {
        Page {
            field,
            piece: None,
            lock: true,
            rise: false,
            mirror: false,
            colour: false,
            comment: None,
        }
    }

    /// The field the page shows, before its piece locks.
    pub fn field(&self) -> &ColoredField {
        &self.field
    }

    /// The field, to change it.
    pub fn field_mut(&mut self) -> &mut ColoredField {
        &mut self.field
    }

    /// The filled cells of the page's 23 visible rows, before its piece locks.
    /// The garbage row is left out (fumen draws it under the field; it joins the field
    /// only when a page with the rise flag locks, see [`Page::next_field`]).
    pub fn field_board(&self) -> Board32 {
        self.field.to_board()
    }

    /// The page's piece, in the rotation-centre form.
    pub fn piece(&self) -> Option<Placement> {
        self.piece
    }

    /// Sets the page's piece.
    ///
    /// # Errors
    /// [`FumenError::PieceAboveField`] when a cell is above row 22: fumen cannot place it.
    pub fn set_piece(&mut self, piece: Option<Placement>) -> Result<(), FumenError> {
        if let Some(p) = piece {
            if p.rows().1 >= ColoredField::HEIGHT {
                return Err(FumenError::PieceAboveField { placement: p });
            }
        }
        self.piece = piece;
        Ok(())
    }

    /// Whether the piece locks when the viewer moves to the next page (fumen's default).
    /// Without it the piece is only shown, and the next page starts from this field.
    pub fn lock(&self) -> bool {
        self.lock
    }

    /// Sets the lock flag.
    pub fn set_lock(&mut self, lock: bool) {
        self.lock = lock;
    }

    /// Whether the garbage row rises into the field after the piece locks.
    pub fn rise(&self) -> bool {
        self.rise
    }

    /// Sets the rise flag.
    pub fn set_rise(&mut self, rise: bool) {
        self.rise = rise;
    }

    /// Whether the field is mirrored after the piece locks.
    pub fn mirror(&self) -> bool {
        self.mirror
    }

    /// Sets the mirror flag.
    pub fn set_mirror(&mut self, mirror: bool) {
        self.mirror = mirror;
    }

    /// Fumen's colour flag (set on the first page by the editor and by tetris-fumen:
    /// the fumen is drawn in guideline colours). Kept as read; it changes no cell.
    pub fn colour(&self) -> bool {
        self.colour
    }

    /// Sets the colour flag.
    pub fn set_colour(&mut self, colour: bool) {
        self.colour = colour;
    }

    /// The comment this page carries, as its raw text (unescaped), such as sfinder's
    /// options `4 -p *p7` or a quiz `#Q=[](L)TSJ`.
    ///
    /// `None` when the page carries no comment: viewers then show the last comment
    /// carried by an earlier page (a quiz comment advanced by the pieces locked since;
    /// this codec does not play quizzes). [`Fumen::comment_at`] finds that comment.
    pub fn comment(&self) -> Option<&str> {
        self.comment.as_deref()
    }

    /// Sets the comment. Comments longer than 4095 characters once escaped (about 4095
    /// ASCII or 682 other characters) are cut to fit when encoded.
    pub fn set_comment(&mut self, comment: Option<String>) {
        self.comment = comment;
    }

    /// The field with the page's piece locked and full rows cleared, when the page has
    /// a piece and the lock flag; else the field as it is (full rows included). This is
    /// what sfinder reads from a page given with `-t`.
    pub fn locked_field(&self) -> ColoredField {
        let mut field = self.field.clone();
        if let (true, Some(p)) = (self.lock, &self.piece) {
            field.lock(p);
            field.clear_full_rows();
        }
        field
    }

    /// The field the next page starts from. When the lock flag is set: the piece (if
    /// any) locked, full rows cleared (even without a piece), then the garbage row risen
    /// (rise flag) and the field mirrored (mirror flag). Else the field as it is.
    pub fn next_field(&self) -> ColoredField {
        let mut field = self.field.clone();
        if self.lock {
            if let Some(p) = &self.piece {
                field.lock(p);
            }
            field.clear_full_rows();
            if self.rise {
                field.rise();
            }
            if self.mirror {
                field.mirror();
            }
        }
        field
    }

    fn action(&self, comment: bool) -> Action {
        Action {
            piece: self.piece,
            rise: self.rise,
            mirror: self.mirror,
            colour: self.colour,
            comment,
            lock: self.lock,
        }
    }
}

impl Fumen {
    /// A fumen of these pages.
    pub fn new(pages: Vec<Page>) -> Self {
        Fumen { pages }
    }

    /// The first page's field with its piece locked and full rows cleared when it has one
    /// and the lock flag is set ([`Page::locked_field`]), as a board of the 23 visible
    /// rows: the field sfinder solves when given this fumen with `-t`. A field without a
    /// piece keeps its full rows, as sfinder keeps them. `None` when there are no pages.
    pub fn first_field(&self) -> Option<Board32> {
        self.pages.first().map(|p| p.locked_field().to_board())
    }

    /// The comment a viewer shows on page `index` (from 0): that page's own, else the
    /// last one carried by an earlier page. Quiz comments are returned as written, not
    /// advanced.
    pub fn comment_at(&self, index: usize) -> Option<&str> {
        self.pages
            .get(..=index)?
            .iter()
            .rev()
            .find_map(Page::comment)
    }

    /// A fumen showing a sequence of placements, one page per placement, as the solver
    /// exports a solution.
    ///
    /// The first page shows `field` in gray; every page carries its placement, coloured
    /// by piece, with the lock flag set; each next page starts from the previous page's
    /// field with the piece locked and full rows cleared, as the fumen viewer plays it.
    /// So each placement is in the coordinates of the field at the time it is placed,
    /// after the clears of the earlier ones. The first page has the colour flag set, as
    /// the fumen editor writes it. With no placements, the fumen is one page showing the
    /// field.
    ///
    /// # Panics
    /// If `field` or a placement reaches above row 22 (a fumen field has 23 rows); use
    /// [`Fumen::try_from_placements`] for a field or placements you do not control.
    pub fn from_placements(field: &Board32, placements: &[Placement]) -> Fumen {
        Fumen::try_from_placements(field, placements).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Fumen::from_placements`], with an error where it panics.
    ///
    /// # Errors
    /// [`FumenError::BoardTooTall`] when `field` has a filled cell above row 22, and
    /// [`FumenError::PieceAboveField`] when a placement reaches above it (in the field of
    /// its page, after the clears of the placements before it).
    ///
    /// ```
    /// use pc_fumen::{Board32, Fumen, FumenError, Orientation, Piece};
    ///
    /// let field: Board32 = "######..../######....".parse()?;
    /// let o = Piece::O.with(Orientation::Spawn).at(6, 0)?;
    /// assert_eq!(Fumen::try_from_placements(&field, &[o])?.pages.len(), 1);
    /// let high = Piece::O.with(Orientation::Spawn).at(6, 22)?;
    /// assert!(matches!(
    ///     Fumen::try_from_placements(&field, &[high]),
    ///     Err(FumenError::PieceAboveField { .. })
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_from_placements(
        field: &Board32,
        placements: &[Placement],
    ) -> Result<Fumen, FumenError> {
        let mut current = ColoredField::try_from_board(field, Cell::Gray)?;
        let mut pages = Vec::with_capacity(placements.len().max(1));
        for (i, p) in placements.iter().enumerate() {
            let mut page = Page::new(current);
            page.set_piece(Some(*p))?;
            page.set_colour(i == 0);
            current = page.next_field();
            pages.push(page);
        }
        if pages.is_empty() {
            let mut page = Page::new(current);
            page.set_colour(true);
            pages.push(page);
        }
        Ok(Fumen { pages })
    }
}

/// Decodes a fumen string: `v115@…`, `m115@…` or `d115@…`, alone or inside a URL
/// (such as `https://harddrop.com/fumen/?v115@…` or `http://fumen.zui.jp/?v115@…`).
/// The data ends at the end of the string or at a `&`; `?` breaks and white space in it
/// are ignored.
///
/// Never panics, whatever the input.
///
/// # Errors
/// A [`FumenError`] saying what is wrong and where: no prefix, another version, a
/// character that is not a digit, data ending inside a page, a field run past the end of
/// the field or giving a cell an unknown kind, an action with unknown flags or a piece
/// off the field, or a bad comment escape.
pub fn decode(s: &str) -> Result<Fumen, FumenError> {
    let mut r = Reader::new(extract(s)?);
    if r.is_empty() {
        return Err(FumenError::NoPages);
    }
    let mut pages: Vec<Page> = Vec::new();
    let mut start = ColoredField::new();
    let mut repeat = 0;
    while !r.is_empty() {
        let page = pages.len() + 1;
        let mut field = start.clone();
        if repeat > 0 {
            repeat -= 1;
        } else if field::read_diff(&mut r, &mut field, page)? {
            repeat = r.read(1).ok_or(FumenError::Truncated {
                page,
                part: "repeat count",
            })?;
        }
        let value = r.read(3).ok_or(FumenError::Truncated {
            page,
            part: "action",
        })?;
        let a = action::unpack(value, page)?;
        let comment = match a.comment {
            true => Some(comment::read(&mut r, page)?),
            false => None,
        };
        let p = Page {
            field,
            piece: a.piece,
            lock: a.lock,
            rise: a.rise,
            mirror: a.mirror,
            colour: a.colour,
            comment,
        };
        start = p.next_field();
        pages.push(p);
    }
    Ok(Fumen { pages })
}

/// Encodes a fumen as `v115@…`, with no `?` breaks (the fumen editor, sfinder and
/// tetris-fumen read it either way).
///
/// Field changes are written as [`decode`] reads them, with unchanged fields folded into
/// repeat counts; a page's comment is written when it has one. A comment longer than
/// 4095 escaped characters is cut to fit. `decode(&encode(f)) == f` for every fumen with
/// at least one page whose comments fit.
pub fn encode(f: &Fumen) -> String {
    let mut w = Writer::default();
    let mut start = ColoredField::new();
    // The repeat-count digit of the current run of unchanged fields, if any.
    let mut repeat_at: Option<usize> = None;
    for page in &f.pages {
        let extend = repeat_at.filter(|&at| page.field == start && w.get(at) < 63);
        if let Some(at) = extend {
            // Unchanged again: one more page the decoder copies without reading a field.
            w.set(at, w.get(at) + 1);
        } else if field::write_diff(&mut w, &start, &page.field) {
            // One run over the whole field: a repeat count follows, 0 for now. Only an
            // unchanged field is folded into it later, whatever the run changed here.
            w.push(0, 1);
            repeat_at = Some(w.len() - 1);
        } else {
            repeat_at = None;
        }
        w.push(action::pack(&page.action(page.comment.is_some())), 3);
        if let Some(text) = &page.comment {
            comment::write(&mut w, text);
        }
        start = page.next_field();
    }
    format!("v115@{}", w.finish())
}

/// The digits after the prefix.
fn extract(s: &str) -> Result<Vec<u8>, FumenError> {
    let chars: Vec<(usize, char)> = s.chars().enumerate().collect();
    let prefix = chars.windows(5).position(|w| {
        matches!(w[0].1, 'v' | 'm' | 'd')
            && w[1..4].iter().all(|c| c.1.is_ascii_digit())
            && w[4].1 == '@'
    });
    let Some(at) = prefix else {
        return Err(FumenError::MissingPrefix);
    };
    let version: String = chars[at + 1..at + 4].iter().map(|c| c.1).collect();
    if version != "115" {
        return Err(FumenError::UnsupportedVersion { version });
    }
    let mut digits = Vec::new();
    for &(position, c) in chars[at + 5..].iter() {
        match c {
            '&' => break,
            '?' => {}
            c if c.is_whitespace() => {}
            c => {
                digits.push(codec::digit(c).ok_or(FumenError::InvalidChar { position, found: c })?)
            }
        }
    }
    Ok(digits)
}

/// Reads a fumen with [`decode`].
impl FromStr for Fumen {
    type Err = FumenError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        decode(s)
    }
}

/// Writes the fumen with [`encode`].
impl fmt::Display for Fumen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&encode(self))
    }
}
