//! [`PcField`]: the field below the clear line, as it is while a perfect clear is built.

use crate::error::SolverError;
use pc_bitboard::{Board32, WIDTH, Word};
use pc_srs::{CentrePos, Orientation, Piece, Placement, shape};
use smallvec::SmallVec;
use std::sync::OnceLock;

/// The highest clear line the solver accepts.
pub const MAX_CLEAR_LINE: u32 = 8;

/// What counts as a perfect clear, and the fewest pieces that can still make one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Goal {
    /// Whether emptying the board below the clear line counts before every row up to the
    /// line is cleared (a 2-line PC while building a 4-line one).
    pub(crate) lower_clears: bool,
}

impl Goal {
    /// Whether the field is a perfect clear. A field met after a placement has no cells
    /// only when lines were cleared, so an empty board there is a PC.
    #[inline]
    pub(crate) fn reached(&self, field: &PcField) -> bool {
        field.is_clear() || (self.lower_clears && field.board().is_empty())
    }

    /// A lower bound on the pieces still needed.
    #[inline]
    pub(crate) fn min_pieces(&self, field: &PcField) -> u32 {
        if !self.lower_clears {
            return field.pieces_needed();
        }
        // The lowest clear line at or above every filled cell whose empty cells a whole
        // number of pieces can cover.
        let cells = field.board().cell_count();
        let top = field.board().height();
        (top.max(1)..=field.clear_line())
            .find(|h| (10 * h - cells) % 4 == 0)
            .map_or(field.pieces_needed(), |h| (10 * h - cells) / 4)
    }
}

/// A field in its collapsed form: the rows below the current clear line, after every
/// line clear so far. Placing a piece clears the rows it fills and lowers the line, so a
/// piece placed later can cover rows that were not adjacent in the original field.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PcField {
    board: Board32,
    clear_line: u32,
}

impl PcField {
    /// The field below `clear_line` (1 to [`MAX_CLEAR_LINE`]), checked: nothing may be at
    /// or above the clear line, and the empty cells below it must be a multiple of 4 (a
    /// PC places whole pieces). Rows that are already full count as cleared: they are
    /// removed and the clear line comes down with them.
    ///
    /// ```
    /// use pc_solver::{PcField, SolverError};
    ///
    /// let pco = PcField::new("##.....###/###....###/####...###/###....###".parse()?, 4)?;
    /// assert_eq!((pco.clear_line(), pco.pieces_needed()), (4, 4));
    /// // A full row is cleared at once.
    /// let lower = PcField::new("##########/######....".parse()?, 2)?;
    /// assert_eq!(lower.clear_line(), 1);
    /// assert_eq!(
    ///     PcField::new("#.........".parse()?, 1),
    ///     Err(SolverError::EmptyCellsNotMultipleOfFour { empty: 9 })
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(board: Board32, clear_line: u32) -> Result<PcField, SolverError> {
        if clear_line == 0 || clear_line > MAX_CLEAR_LINE {
            return Err(SolverError::ClearLineOutOfRange(clear_line));
        }
        if board.has_cells_at_or_above(clear_line) {
            return Err(SolverError::FieldAboveClearLine {
                row: board.height() - 1,
                clear_line,
            });
        }
        let mut board = board;
        let cleared = board.clear_full_rows().count_ones();
        let field = PcField::new_unchecked(board, clear_line - cleared);
        if field.empty_cells() % 4 != 0 {
            return Err(SolverError::EmptyCellsNotMultipleOfFour {
                empty: field.empty_cells(),
            });
        }
        Ok(field)
    }

    /// A field of `clear_line` rows. The caller has checked what [`PcField::new`] checks.
    pub(crate) fn new_unchecked(board: Board32, clear_line: u32) -> Self {
        PcField { board, clear_line }
    }

    /// The cells.
    pub fn board(&self) -> &Board32 {
        &self.board
    }

    /// The current clear line: the rows left to clear.
    pub fn clear_line(&self) -> u32 {
        self.clear_line
    }

    /// Whether every row has been cleared: a perfect clear.
    pub fn is_clear(&self) -> bool {
        self.clear_line == 0
    }

    /// Empty cells below the clear line.
    pub fn empty_cells(&self) -> u32 {
        WIDTH as u32 * self.clear_line - self.board.cell_count()
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
            clear_line: self.clear_line - cleared.count_ones(),
        };
        (next, cleared)
    }

    /// A necessary condition for a perfect clear: every stretch of columns between
    /// completely filled columns has a multiple of 4 empty cells (no piece can cross a
    /// filled column, even with line clears).
    #[inline]
    pub fn can_be_filled(&self) -> bool {
        let full = u32::low_mask(self.clear_line);
        let mut empty_in_stretch = 0;
        for x in 0..WIDTH {
            let col = self.board.column(x) & full;
            if col == full {
                if empty_in_stretch % 4 != 0 {
                    return false;
                }
                empty_in_stretch = 0;
            } else {
                empty_in_stretch += self.clear_line - col.count_ones();
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
        let empty = self.board.empty_cells_below(self.clear_line);
        let mut cells = [(0i32, 0i32); 4];
        for (slot, (x, y)) in cells.iter_mut().zip(empty.cells()) {
            *slot = (x as i32, y as i32);
        }
        placement_of(cells)
    }

    /// When exactly two pieces are missing: every placement of `piece` that covers four
    /// of the eight empty cells and leaves the shape of a piece for the last one (after
    /// the rows it completes clear), whether or not it can be reached. Placing the first
    /// piece anywhere else cannot finish the field, so a search needs no move
    /// generation here, only a reachability test of these few. Empty unless two pieces
    /// are missing.
    pub(crate) fn first_of_two(&self, piece: Piece) -> SmallVec<[Placement; 8]> {
        let mut out = SmallVec::new();
        if self.pieces_needed() == 2 {
            self.lying_on_empty(piece, false, |candidate| {
                if self.place(&candidate).last_placement().is_some() {
                    out.push(candidate);
                }
            });
        }
        out
    }

    /// Every placement of `piece` that lies on empty cells and rests on a block or the
    /// floor, whether or not it can be reached: a superset of the moves, found without a
    /// move generation.
    pub(crate) fn resting(&self, piece: Piece) -> SmallVec<[Placement; 32]> {
        let mut out = SmallVec::new();
        self.lying_on_empty(piece, true, |candidate| out.push(candidate));
        out
    }

    /// Calls `visit` with every placement of `piece` (canonical orientations) whose cells
    /// are all empty and below the clear line; with `resting`, only those that rest on a
    /// block or the floor ([`Placement::rests_on`]).
    fn lying_on_empty(&self, piece: Piece, resting: bool, mut visit: impl FnMut(Placement)) {
        let empty = self.board.empty_cells_below(self.clear_line);
        let columns: [u32; WIDTH] = core::array::from_fn(|x| empty.column(x));
        // Bit y: the cell (x, y) is on the floor or on a block.
        let supported: [u32; WIDTH] = core::array::from_fn(|x| self.board.column(x) << 1 | 1);
        let shifted = |column: u32, dy: i8| if dy >= 0 { column >> dy } else { column << -dy };
        for &orientation in shape::canonical_orientations(piece) {
            let cells = shape::cells(piece, orientation);
            for x in 0..WIDTH as i32 {
                // Bit y: the shape with its centre at (x, y) lies on empty cells, and one
                // of its cells is supported.
                let mut fits = u32::MAX;
                let mut rests = 0;
                for &(dx, dy) in &cells {
                    let cx = x + i32::from(dx);
                    if !(0..WIDTH as i32).contains(&cx) {
                        fits = 0;
                        break;
                    }
                    fits &= shifted(columns[cx as usize], dy);
                    rests |= shifted(supported[cx as usize], dy);
                }
                if resting {
                    fits &= rests;
                }
                while fits != 0 {
                    let y = fits.trailing_zeros() as i32;
                    fits &= fits - 1;
                    if let Ok(candidate) = Placement::new(piece, orientation, CentrePos { x, y }) {
                        visit(candidate);
                    }
                }
            }
        }
    }

    /// A compact key: 8 bits per column and the height (fields of at most 8 rows).
    #[inline]
    pub(crate) fn key(&self) -> u128 {
        let mut k = self.clear_line as u128;
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
            clear_line: (key >> (8 * WIDTH)) as u32,
        }
    }
}

/// A piece shape as a pattern of bits in a 4×4 box from the lower left corner of its
/// cells (bit 4·row + column), with the rotation centre relative to that corner.
struct Shape {
    pattern: u16,
    piece: Piece,
    orientation: Orientation,
    centre: (i32, i32),
}

/// The shapes of every piece in its canonical orientations.
fn shapes() -> &'static [Shape] {
    static SHAPES: OnceLock<Vec<Shape>> = OnceLock::new();
    SHAPES.get_or_init(|| {
        let mut out = Vec::new();
        for piece in Piece::ALL {
            for &orientation in shape::canonical_orientations(piece) {
                let cells = shape::cells(piece, orientation);
                let min_x = cells.iter().map(|c| i32::from(c.0)).min().unwrap_or(0);
                let min_y = cells.iter().map(|c| i32::from(c.1)).min().unwrap_or(0);
                let pattern = cells.iter().fold(0u16, |p, &(x, y)| {
                    p | 1 << ((i32::from(y) - min_y) * 4 + i32::from(x) - min_x)
                });
                out.push(Shape {
                    pattern,
                    piece,
                    orientation,
                    centre: (-min_x, -min_y),
                });
            }
        }
        out
    })
}

/// The placement covering exactly these four cells, in the canonical orientation of its
/// piece; `None` when they are no piece's shape.
fn placement_of(cells: [(i32, i32); 4]) -> Option<Placement> {
    let min_x = cells.iter().map(|c| c.0).min()?;
    let min_y = cells.iter().map(|c| c.1).min()?;
    let mut pattern = 0u16;
    for (x, y) in cells {
        let (dx, dy) = (x - min_x, y - min_y);
        if dx > 3 || dy > 3 {
            return None;
        }
        pattern |= 1 << (dy * 4 + dx);
    }
    let shape = shapes().iter().find(|s| s.pattern == pattern)?;
    let centre = CentrePos {
        x: min_x + shape.centre.0,
        y: min_y + shape.centre.1,
    };
    Placement::new(shape.piece, shape.orientation, centre).ok()
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

    proptest::proptest! {
        /// The resting placements are those that lie on empty cells and rest on a block or
        /// the floor, cell by cell.
        #[test]
        fn resting_placements_rest_cell_by_cell(
            rows in proptest::collection::vec(0u32..1 << 10, 4),
            height in 1u32..=4,
            piece in 0usize..7,
        ) {
            let mut board = Board32::new();
            for (y, &row) in rows.iter().enumerate().take(height as usize) {
                for x in 0..WIDTH {
                    if row >> x & 1 == 1 {
                        board.fill(x, y as u32);
                    }
                }
            }
            let field = PcField::new_unchecked(board, height);
            let piece = Piece::ALL[piece];
            let mut expected = Vec::new();
            field.lying_on_empty(piece, false, |p| {
                if p.rests_on(field.board()) {
                    expected.push(p);
                }
            });
            proptest::prop_assert_eq!(field.resting(piece).into_vec(), expected);
        }
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

    #[test]
    fn the_first_of_two_pieces_are_the_generated_moves_that_leave_a_piece() {
        let rules = crate::Rules::default();
        let generator = rules.generator();
        let moves = |f: &PcField, piece: Piece| -> Vec<Placement> {
            generator
                .placements(f.board(), piece, f.clear_line())
                .unwrap()
                .iter()
                .collect()
        };
        // Every field two pieces short of a PC that two placements make from these.
        let mut fields = std::collections::BTreeSet::new();
        for (text, height) in [
            ("##.....###/###....###/####...###/###....###", 4),
            ("######..../######..../######..../######....", 4),
            ("#.......##/#.......##/##......##/###....###", 4),
        ] {
            let start = field(text, height);
            for a in Piece::ALL {
                for pa in moves(&start, a) {
                    let mid = start.place(&pa);
                    for b in Piece::ALL {
                        for pb in moves(&mid, b) {
                            let f = mid.place(&pb);
                            if f.pieces_needed() == 2 {
                                fields.insert(f.key());
                            }
                        }
                    }
                }
            }
        }
        let mut cut_by_a_clear = 0;
        for key in &fields {
            let f = PcField::from_key(*key);
            let mut expected: Vec<Placement> = Piece::ALL
                .into_iter()
                .flat_map(|p| moves(&f, p))
                .filter(|p| f.place(p).last_placement().is_some())
                .collect();
            let mut found: Vec<Placement> = Piece::ALL
                .into_iter()
                .flat_map(|p| f.first_of_two(p))
                .filter(|p| {
                    generator
                        .is_reachable(f.board(), p, f.clear_line())
                        .unwrap()
                })
                .collect();
            expected.sort_by_key(|p| format!("{p:?}"));
            found.sort_by_key(|p| format!("{p:?}"));
            assert_eq!(found, expected, "\n{}", f.board());
            // Some last pieces lie across a row the first one clears.
            cut_by_a_clear += expected
                .iter()
                .filter(|p| f.place_and_clear(p).1 != 0)
                .count();
        }
        assert!(
            fields.len() > 500 && cut_by_a_clear > 0,
            "{} {cut_by_a_clear}",
            fields.len()
        );
    }
}
