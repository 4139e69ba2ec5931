//! [`PcProblem`]: a field, its clear line and the rules; what every search starts from.

use crate::error::SolverError;
use crate::field::{MAX_CLEAR_LINE, PcField};
use crate::rules::Rules;
use pc_bitboard::Board32;

/// A perfect-clear problem: a field below a clear line, and the rules.
///
/// ```
/// use pc_solver::{PcProblem, Rules};
///
/// let pco = PcProblem::new("##.....###/###....###/####...###/###....###".parse()?, 4, Rules::default())?;
/// assert_eq!(pco.pieces_needed(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct PcProblem {
    field: PcField,
    rules: Rules,
}

impl PcProblem {
    /// Checks the field: clear line 1 to 8, nothing at or above it, and a multiple of 4
    /// empty cells below it.
    pub fn new(board: Board32, clear_line: u32, rules: Rules) -> Result<Self, SolverError> {
        if clear_line == 0 || clear_line > MAX_CLEAR_LINE {
            return Err(SolverError::ClearLineOutOfRange(clear_line));
        }
        if board.has_cells_at_or_above(clear_line) {
            return Err(SolverError::FieldAboveClearLine {
                row: board.height() - 1,
                clear_line,
            });
        }
        // Rows that are already full count as cleared.
        let mut board = board;
        let cleared = board.clear_full_rows().count_ones();
        let field = PcField::new_unchecked(board, clear_line - cleared);
        if field.empty_cells() % 4 != 0 {
            return Err(SolverError::EmptyCellsNotMultipleOfFour {
                empty: field.empty_cells(),
            });
        }
        Ok(PcProblem { field, rules })
    }

    /// The field, with rows that were already full cleared.
    pub fn field(&self) -> &PcField {
        &self.field
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Pieces a perfect clear places.
    pub fn pieces_needed(&self) -> u32 {
        self.field.pieces_needed()
    }
}
