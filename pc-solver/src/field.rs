//! [`PcField`]: the field below the clear line, as it is while a perfect clear is built.

use pc_bitboard::{Board32, WIDTH, Word};
use pc_srs::{CentrePos, Piece, Placement, shape};

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
        self.place_and_clear(placement).0
    }

    /// As [`PcField::place`], also returning the mask of the rows cleared (in this
    /// field's coordinates).
    #[inline]
    pub fn place_and_clear(&self, placement: &Placement) -> (PcField, u32) {
        let mut board = self.board;
        for (x, y) in placement.cells() {
            board.fill(x as usize, y as u32);
        }
        let cleared = board.clear_full_rows();
        let next = PcField {
            board,
            height: self.height - cleared.count_ones(),
        };
        (next, cleared)
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

    /// When exactly one piece is missing: the only placement that can finish the field
    /// (the four empty cells must be one piece; no row in between can clear first, as a
    /// collapsed field has no full row). `None` when they are no piece's shape.
    pub fn last_placement(&self) -> Option<Placement> {
        if self.pieces_needed() != 1 {
            return None;
        }
        let empty = self.board.empty_cells_below(self.height);
        let mut cells = [(0i32, 0i32); 4];
        for (slot, (x, y)) in cells.iter_mut().zip(empty.cells()) {
            *slot = (x as i32, y as i32);
        }
        cells.sort_unstable();
        for piece in Piece::ALL {
            for &o in shape::canonical_orientations(piece) {
                let mut shape_cells = shape::cells(piece, o).map(|(x, y)| (x as i32, y as i32));
                shape_cells.sort_unstable();
                // Translate the shape so its first cell lands on the first empty cell.
                let (dx, dy) = (cells[0].0 - shape_cells[0].0, cells[0].1 - shape_cells[0].1);
                if shape_cells
                    .iter()
                    .zip(&cells)
                    .all(|(&(x, y), &c)| (x + dx, y + dy) == c)
                {
                    return Placement::new(piece, o, CentrePos { x: dx, y: dy }).ok();
                }
            }
        }
        None
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

    /// The field of a [`PcField::key`].
    #[inline]
    pub(crate) fn from_key(key: u128) -> PcField {
        let mut columns = [0u32; WIDTH];
        for (x, column) in columns.iter_mut().enumerate() {
            *column = (key >> (8 * (WIDTH - 1 - x)) & 0xff) as u32;
        }
        PcField {
            board: Board32::from_columns(columns),
            height: (key >> (8 * WIDTH)) as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pc_srs::Orientation;

    fn field(text: &str, height: u32) -> PcField {
        PcField::new_unchecked(text.parse().unwrap(), height)
    }

    #[test]
    fn last_placement_reads_the_shape_of_the_hole() {
        let t = field("####.#####/###...####", 2).last_placement().unwrap();
        assert_eq!(t, Piece::T.with(Orientation::Spawn).at(4, 0).unwrap());
        let i = field("#########./#########./#########./#########.", 4)
            .last_placement()
            .unwrap();
        assert_eq!(i.cells(), [(9, 0), (9, 1), (9, 2), (9, 3)]);
        assert_eq!(i.piece(), Piece::I);
        // Four cells that are no piece, and a field needing two pieces.
        assert_eq!(field("#.##.#####/###..#####", 2).last_placement(), None);
        assert_eq!(field("....######/....######", 2).last_placement(), None);
    }

    #[test]
    fn keys_round_trip() {
        let f = field("#.######../##.#######/###....###", 3);
        assert_eq!(PcField::from_key(f.key()), f);
        let g = field("", 8);
        assert_eq!(PcField::from_key(g.key()), g);
    }

    #[test]
    fn filled_columns_split_the_parity_check() {
        assert!(!field("#...######/#...######", 2).can_be_filled());
        assert!(field("....######/....######", 2).can_be_filled());
        assert!(!field("..#.######/..#.######", 2).can_be_filled());
    }
}
