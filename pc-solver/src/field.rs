//! [`PcField`]: the field below the clear line, as it is while a perfect clear is built.

use pc_bitboard::{Board32, WIDTH, Word};
use pc_srs::Placement;

/// The highest clear line the solver accepts.
pub const MAX_CLEAR_LINE: u32 = 8;

/// A field in its collapsed form: the rows below the current clear line, after every
/// line clear so far. Placing a piece clears the rows it fills and lowers the line, so a
/// piece placed later can cover rows that were not adjacent in the original field.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PcField {
    board: Board32,
    height: u32,
}

impl PcField {
    /// A field of `height` rows (the clear line). The caller has checked that nothing is
    /// at or above it and that the height is at most [`MAX_CLEAR_LINE`].
    pub(crate) fn new_unchecked(board: Board32, height: u32) -> Self {
        PcField { board, height }
    }

    /// The cells.
    pub fn board(&self) -> &Board32 {
        &self.board
    }

    /// The current clear line (rows left to clear).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether every row has been cleared: a perfect clear.
    pub fn is_clear(&self) -> bool {
        self.height == 0
    }

    /// Empty cells below the clear line.
    pub fn empty_cells(&self) -> u32 {
        WIDTH as u32 * self.height - self.board.cell_count()
    }

    /// Pieces still needed for the perfect clear.
    pub fn pieces_needed(&self) -> u32 {
        self.empty_cells() / 4
    }

    /// The field after locking `placement` (which must fit) and clearing full rows.
    #[inline]
    pub fn place(&self, placement: &Placement) -> PcField {
        let mut board = self.board;
        for (x, y) in placement.cells() {
            board.fill(x as usize, y as u32);
        }
        let cleared = board.clear_full_rows();
        PcField {
            board,
            height: self.height - cleared.count_ones(),
        }
    }

    /// A necessary condition for a perfect clear: every stretch of columns between
    /// completely filled columns has a multiple of 4 empty cells (no piece can cross a
    /// filled column, even with line clears).
    #[inline]
    pub fn can_be_filled(&self) -> bool {
        let full = u32::low_mask(self.height);
        let mut empty_in_stretch = 0;
        for x in 0..WIDTH {
            let col = self.board.column(x) & full;
            if col == full {
                if empty_in_stretch % 4 != 0 {
                    return false;
                }
                empty_in_stretch = 0;
            } else {
                empty_in_stretch += self.height - col.count_ones();
            }
        }
        empty_in_stretch % 4 == 0
    }

    /// A compact key: 8 bits per column and the height (fields of at most 8 rows).
    #[inline]
    pub(crate) fn key(&self) -> u128 {
        let mut k = self.height as u128;
        for x in 0..WIDTH {
            k = (k << 8) | (self.board.column(x) & 0xff) as u128;
        }
        k
    }
}
