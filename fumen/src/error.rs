//! What can go wrong reading a fumen.

use pc_srs::{Orientation, Piece, Placement};

/// Why a fumen string could not be decoded, or a page could not hold a piece.
///
/// Pages are counted from 1, as the fumen editor and sfinder's `--page` count them.
/// Positions are character indices into the string given to [`decode`](super::decode),
/// counted from 0.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FumenError {
    /// No `v115@`, `m115@` or `d115@` in the string.
    #[error("not a fumen: expected data after `v115@` (or `m115@`, `d115@`)")]
    MissingPrefix,
    /// A fumen of another version (`v110@` is the only other one in use).
    #[error("fumen version {version} is not supported: only v115 is")]
    UnsupportedVersion {
        /// The three version digits found, such as `"110"`.
        version: String,
    },
    /// A character that is not a base-64 digit (nor a `?` break or white space).
    #[error("invalid character {found:?} at position {position}")]
    InvalidChar {
        /// Character index of the character in the input.
        position: usize,
        /// The character.
        found: char,
    },
    /// The prefix is followed by no data at all, so there is no page.
    #[error("the fumen has no pages")]
    NoPages,
    /// The data ends in the middle of a page.
    #[error("the data ends in the middle of page {page}, in its {part}")]
    Truncated {
        /// The page being read.
        page: usize,
        /// What was being read: `"field"`, `"repeat count"`, `"action"` or `"comment"`.
        part: &'static str,
    },
    /// The field's runs cover more than the 240 cells of a field.
    #[error("page {page}: the field's runs cover {cells} cells, more than the 240 of a field")]
    FieldOverflow {
        /// The page being read.
        page: usize,
        /// Cells covered when the overflowing run ends.
        cells: usize,
    },
    /// A field run changes a cell to a kind outside 0 (empty) to 8 (gray).
    #[error("page {page}: cell ({x}, {y}) would hold kind {value}, outside 0..=8")]
    BadCell {
        /// The page being read.
        page: usize,
        /// Column, from the left.
        x: usize,
        /// Row from the bottom; `-1` is the garbage row.
        y: i32,
        /// The kind the run would give the cell.
        value: i32,
    },
    /// The action value sets bits above the lock flag (its 3 digits allow values up to
    /// 262,143, the action only up to 245,759).
    #[error("page {page}: action value {value} has bits above the lock flag")]
    BadAction {
        /// The page being read.
        page: usize,
        /// The action value.
        value: u32,
    },
    /// The action's piece does not fit in the 23 visible rows at its location.
    #[error(
        "page {page}: {piece} {orientation} at centre ({x}, {y}) does not fit in the field's 23 rows"
    )]
    BadLocation {
        /// The page being read.
        page: usize,
        /// The piece.
        piece: Piece,
        /// Its orientation.
        orientation: Orientation,
        /// Column of the rotation centre (after the fumen correction).
        x: i32,
        /// Row of the rotation centre (after the fumen correction).
        y: i32,
    },
    /// A comment character or escape that is not valid.
    #[error("page {page}: bad comment at character {position} of its escaped text: {reason}")]
    BadComment {
        /// The page being read.
        page: usize,
        /// Index into the comment's escaped text.
        position: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// A board given to a fumen field has a filled cell above row 22, the top of a fumen
    /// field ([`ColoredField::try_from_board`](super::ColoredField::try_from_board),
    /// [`Fumen::try_from_placements`](super::Fumen::try_from_placements)).
    #[error("the board is {height} rows high: a fumen field has 23 rows")]
    BoardTooTall {
        /// The board's height (one more than its highest filled row).
        height: u32,
    },
    /// A piece given to a [`Page`](super::Page) reaches above row 22, the top of a
    /// fumen field.
    #[error("{placement} reaches above row 22, the top of a fumen field")]
    PieceAboveField {
        /// The placement.
        placement: Placement,
    },
}
