//! The errors of this crate.

/// Why a fill graph could not be built, or a piece list could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FillGraphError {
    /// The clear line is 0 or above 8.
    #[error("clear line {clear_line} is out of range: it must be 1 to 8")]
    ClearLineOutOfRange {
        /// The clear line given.
        clear_line: u32,
    },
    /// The field has a filled cell at or above the clear line.
    #[error(
        "the field has a filled cell at column {column}, row {row}, at or above the clear line {clear_line}"
    )]
    CellAboveClearLine {
        /// Column of the lowest such cell (leftmost when several share its row).
        column: usize,
        /// Row of that cell.
        row: u32,
        /// The clear line.
        clear_line: u32,
    },
    /// Tetrominoes cannot fill a number of empty cells that is not a multiple of 4.
    #[error(
        "the field has {empty} empty cells below the clear line {clear_line}, not a multiple of 4 (remainder {})",
        empty % 4
    )]
    EmptyCellsNotMultipleOfFour {
        /// Number of empty cells below the clear line.
        empty: u32,
        /// The clear line.
        clear_line: u32,
    },
    /// A character of a piece list names no piece.
    #[error(
        "{found:?} at position {position} is not a piece (expected one of I, J, L, O, S, T, Z)"
    )]
    UnknownPiece {
        /// The character found.
        found: char,
        /// Its position in the text, from 0, in characters.
        position: usize,
    },
}
