//! The errors of the solver.

use pc_srs::SrsError;

/// What is wrong with a perfect-clear problem or a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// The clear line is outside 1..=8.
    #[error("clear line {0} is out of range: the solver handles clear lines 1 to 8")]
    ClearLineOutOfRange(u32),
    /// The field has a filled cell at or above the clear line.
    #[error("the field has a filled cell in row {row}, at or above the clear line {clear_line}")]
    FieldAboveClearLine {
        /// Highest filled row (from 0 at the bottom).
        row: u32,
        /// The clear line.
        clear_line: u32,
    },
    /// The empty cells below the clear line cannot be covered by whole pieces.
    #[error(
        "{empty} empty cells below the clear line is not a multiple of 4, so no perfect clear exists"
    )]
    EmptyCellsNotMultipleOfFour {
        /// Empty cells counted.
        empty: u32,
    },
    /// A pattern gives fewer pieces than the perfect clear needs.
    #[error("the pattern gives {given} pieces but the perfect clear needs {needed}")]
    PatternTooShort {
        /// Pieces in each sequence of the pattern.
        given: usize,
        /// Pieces needed.
        needed: u32,
    },
    /// An error from the move generator.
    #[error(transparent)]
    Srs(#[from] SrsError),
}
