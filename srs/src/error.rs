//! The errors of this crate.

/// What is wrong with a request to the move generator, or with a piece letter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SrsError {
    /// A character that names no piece.
    #[error("{0:?} is not a piece (expected one of I, J, L, O, S, T, Z)")]
    UnknownPiece(char),
    /// The clear line is 0, or too high for the board's word (a piece must fit above it).
    #[error("clear line {clear_line} is out of range: it must be 1 to {max} for this board")]
    ClearLineOutOfRange {
        /// The clear line given.
        clear_line: u32,
        /// The highest one this board type allows.
        max: u32,
    },
    /// The field has a filled cell at or above the clear line.
    #[error("the field has a filled cell in row {row}, at or above the clear line {clear_line}")]
    FieldAboveClearLine {
        /// Highest filled row.
        row: u32,
        /// The clear line.
        clear_line: u32,
    },
    /// The spawn position puts a cell outside the board.
    #[error("a piece spawned at centre ({x}, {y}) would leave the board")]
    SpawnOffBoard {
        /// Centre column.
        x: i32,
        /// Centre row.
        y: i32,
    },
}
