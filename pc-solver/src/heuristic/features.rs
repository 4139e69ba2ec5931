//! The ten board features of the evaluator, computed on column bitboards.

use pc_bitboard::{Board32, WIDTH, Word};
use pc_srs::Placement;

use crate::game::VISIBLE_ROWS;

/// The ten features of a placement, measured on the field after it locked and its full
/// rows cleared (landing height and eroded cells also look at the piece). Counts are
/// plain numbers: the [`super::Weights`] say how much each one matters.
///
/// Definitions (rows from 0 at the bottom; walls and floor count as filled):
///
/// | feature | definition |
/// | --- | --- |
/// | `landing_height` | middle row of the piece where it locked: (lowest + highest row) / 2 |
/// | `eroded_cells` | rows cleared × cells of the piece in those rows (Dellacherie) |
/// | `row_transitions` | filled/empty changes along each row, walls included, over rows 0 to 19 (or to the top of the stack if higher); an empty row counts 2 |
/// | `column_transitions` | filled/empty changes up each column, from the floor to above its top |
/// | `holes` | empty cells with a filled cell above them in their column |
/// | `well_sums` | for each open well (empty cells above a column's top whose two neighbours are filled), 1 + 2 + … + depth |
/// | `bumpiness` | sum of the height differences of neighbouring columns |
/// | `hole_depth` | for each hole, the filled cells above it in its column, summed |
/// | `aggregate_height` | sum of the column heights |
/// | `covered_cells` | filled cells with at least one hole below them in their column |
///
/// ```
/// use pc_bitboard::Board32;
/// use pc_solver::heuristic::Features;
///
/// let board: Board32 = "#.........\n.#.......#\n##.#######".parse()?;
/// let f = Features::of_board(&board);
/// assert_eq!(f.holes, 1); // under the block in column 0
/// assert_eq!(f.covered_cells, 1);
/// assert_eq!(f.aggregate_height, 3 + 2 + 0 + 1 * 6 + 2);
/// assert_eq!(f.bumpiness, 1 + 2 + 1 + 0 + 0 + 0 + 0 + 0 + 1);
/// # Ok::<(), pc_bitboard::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// Middle row of the locked piece.
    pub landing_height: f64,
    /// Rows cleared × the piece's cells in them.
    pub eroded_cells: u32,
    /// Filled/empty changes along the rows.
    pub row_transitions: u32,
    /// Filled/empty changes up the columns.
    pub column_transitions: u32,
    /// Empty cells under a filled cell of their column.
    pub holes: u32,
    /// Open wells, each counted 1 + 2 + … + depth.
    pub well_sums: u32,
    /// Sum of neighbouring columns' height differences.
    pub bumpiness: u32,
    /// Filled cells above each hole, summed over the holes.
    pub hole_depth: u32,
    /// Sum of the column heights.
    pub aggregate_height: u32,
    /// Filled cells with a hole below them.
    pub covered_cells: u32,
}

/// The rows below `height` (0 to 32) as a mask.
#[inline]
fn below(height: u32) -> u32 {
    ((1u64 << height) - 1) as u32
}

/// A placement locked on a field: the field after its full rows cleared, and what the
/// lock did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lock {
    /// The field after the clear.
    pub board: Board32,
    /// Rows cleared.
    pub lines: u32,
    /// Whether the field is empty after the clear.
    pub perfect_clear: bool,
    /// The features of the placement.
    pub features: Features,
}

impl Features {
    /// The features of a field on its own (landing height and eroded cells are 0).
    pub fn of_board(board: &Board32) -> Features {
        // A column without holes is `low_mask(height)`, and its transitions follow from
        // the heights alone; bits are counted only in columns with holes.
        let c = board.columns();
        let heights = c.map(|col| u32::BITS - col.leading_zeros());
        let holes = core::array::from_fn::<u32, WIDTH, _>(|x| !c[x] & below(heights[x]));
        let top = heights.iter().copied().max().unwrap_or(0);
        let rows = VISIBLE_ROWS.max(top);
        let mut f = Features::default();
        let mut wall_sides = u32::MAX;
        for x in 0..WIDTH {
            let h = heights[x];
            f.aggregate_height += h;
            let right = if x + 1 == WIDTH { u32::MAX } else { c[x + 1] };
            // Rows from h up where both neighbours are filled: the open well's depth.
            let sides = u64::from(wall_sides & right) >> h;
            let depth = (!sides).trailing_zeros();
            f.well_sums += depth * (depth + 1) / 2;
            wall_sides = c[x];
            if x + 1 < WIDTH {
                f.bumpiness += h.abs_diff(heights[x + 1]);
            }
        }
        // The walls are filled: an edge column changes against its wall in each of its
        // empty rows up to `rows`.
        f.row_transitions = f.bumpiness + 2 * rows - heights[0] - heights[WIDTH - 1];
        f.column_transitions = WIDTH as u32;
        if holes.iter().all(|&h| h == 0) {
            return f;
        }
        for x in 0..WIDTH {
            let col = c[x];
            if x + 1 < WIDTH && holes[x] | holes[x + 1] != 0 {
                // Replace the height difference by the rows that really change.
                f.row_transitions -= heights[x].abs_diff(heights[x + 1]);
                f.row_transitions += (col ^ c[x + 1]).count_ones();
            }
            let mut column_holes = holes[x];
            if column_holes == 0 {
                continue;
            }
            let count = column_holes.count_ones();
            if x == 0 || x + 1 == WIDTH {
                f.row_transitions += count;
            }
            // Bit y compares row y with row y - 1; the floor below row 0 is filled.
            f.column_transitions += (col ^ (col << 1 | 1)).count_ones() - 1;
            f.holes += count;
            f.covered_cells += (col >> column_holes.trailing_zeros()).count_ones();
            while column_holes != 0 {
                let y = column_holes.trailing_zeros();
                column_holes &= column_holes - 1;
                f.hole_depth += (col >> y).count_ones();
            }
        }
        f
    }

    /// Locks `placement` on `board`, clears the full rows and measures the result; `None`
    /// when the piece overlaps a filled cell or does not fit in the board's 32 rows.
    ///
    /// ```
    /// use pc_bitboard::Board32;
    /// use pc_solver::heuristic::Features;
    /// use pc_srs::{Orientation, Piece};
    ///
    /// // A vertical I into a well of depth 4 clears four rows: a perfect clear.
    /// let board: Board32 = "#########.\n#########.\n#########.\n#########.".parse()?;
    /// let i = Piece::I.with(Orientation::Right).at(9, 2)?;
    /// let lock = Features::lock(&board, &i).unwrap();
    /// assert_eq!((lock.lines, lock.perfect_clear), (4, true));
    /// assert_eq!(lock.features.eroded_cells, 4 * 4);
    /// assert_eq!(lock.features.landing_height, 1.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lock(board: &Board32, placement: &Placement) -> Option<Lock> {
        let centre = placement.centre();
        let cells = placement
            .piece()
            .with(placement.orientation())
            .cells()
            .map(|(dx, dy)| {
                (
                    (centre.x + i32::from(dx)) as usize,
                    centre.y + i32::from(dy),
                )
            });
        let mut cols = *board.columns();
        for &(x, y) in &cells {
            // A placement's cells are on the board's columns and above the floor.
            let bit = u32::bit(y as u32);
            if bit == 0 || cols[x] & bit != 0 {
                return None;
            }
            cols[x] |= bit;
        }
        let mut after = Board32::from_columns(cols);
        let full = after.full_rows();
        let lines = full.count_ones();
        let mut eroded_cells = 0;
        if lines > 0 {
            let piece_cells: u32 = cells.iter().map(|&(_, y)| full >> y & 1).sum();
            eroded_cells = lines * piece_cells;
            after.remove_rows(full);
        }
        let (low, high) = cells
            .iter()
            .fold((i32::MAX, 0), |(lo, hi), &(_, y)| (lo.min(y), hi.max(y)));
        let mut features = Features::of_board(&after);
        features.landing_height = f64::from(low + high) / 2.0;
        features.eroded_cells = eroded_cells;
        Some(Lock {
            board: after,
            lines,
            perfect_clear: lines > 0 && after.is_empty(),
            features,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pc_srs::{Orientation, Piece};

    fn board(text: &str) -> Board32 {
        text.parse().unwrap()
    }

    #[test]
    fn empty_board() {
        let f = Features::of_board(&Board32::new());
        // 20 empty rows, 2 wall transitions each; every column has one floor transition.
        assert_eq!(f.row_transitions, 40);
        assert_eq!(f.column_transitions, 10);
        assert_eq!(f.aggregate_height, 0);
        assert_eq!(f.well_sums, 0);
        assert_eq!((f.holes, f.hole_depth, f.covered_cells), (0, 0, 0));
    }

    #[test]
    fn row_transitions_count_walls_and_gaps() {
        // Row 0 between the walls, `|##..#.....|`: # to . twice, . to # once, . to the wall.
        let f = Features::of_board(&board("##..#....."));
        assert_eq!(f.row_transitions, 4 + 19 * 2);
        let full_but_one = Features::of_board(&board("####.#####"));
        assert_eq!(full_but_one.row_transitions, 2 + 19 * 2);
    }

    #[test]
    fn row_transitions_extend_above_twenty_rows() {
        let mut b = Board32::new();
        for y in 0..22 {
            b.set_row(y, 0b11_1111_1110);
        }
        let f = Features::of_board(&b);
        // Each of the 22 rows: wall|. and .|# (the right wall is after a filled cell).
        assert_eq!(f.row_transitions, 22 * 2);
    }

    #[test]
    fn column_transitions_include_the_floor_and_the_top() {
        // Column 0: filled, empty, filled (from the bottom): changes at rows 1, 2 and 3.
        // Column 1: empty at the floor: floor→empty at row 0, then empty above: 1.
        let f = Features::of_board(&board("#.........\n..........\n#........."));
        assert_eq!(f.column_transitions, 3 + 9);
        let g = Features::of_board(&board("##########\n##########"));
        assert_eq!(g.column_transitions, 10);
    }

    #[test]
    fn holes_depth_and_covered_cells() {
        // Column 2, bottom to top: empty, filled, empty, filled, filled.
        let b = board("..#.......\n..#.......\n..........\n..#.......\n.........#");
        let f = Features::of_board(&b);
        assert_eq!(f.holes, 2);
        // The hole at row 0 has 3 filled cells above, the one at row 2 has 2.
        assert_eq!(f.hole_depth, 5);
        // Every filled cell of column 2 is above the lowest hole.
        assert_eq!(f.covered_cells, 3);
    }

    #[test]
    fn wells_are_open_and_cumulative() {
        // Column 9 beside the wall, depth 3: 1 + 2 + 3; column 4, depth 1 between blocks.
        let b = board("####.####.\n#########.\n#########.");
        let f = Features::of_board(&b);
        assert_eq!(f.well_sums, 6 + 1);
        // A covered empty cell is a hole, not a well.
        let c = board("##########\n####.#####");
        assert_eq!(Features::of_board(&c).well_sums, 0);
        // A column next to the wall with the neighbour lower is no well above it.
        let d = board("#.........\n##........");
        assert_eq!(Features::of_board(&d).well_sums, 0);
    }

    #[test]
    fn heights_and_bumpiness() {
        let f = Features::of_board(&board("...#......\n...#......\n#..#.....#"));
        assert_eq!(f.aggregate_height, 1 + 3 + 1);
        // Differences 1, 0, 3, 3, 0, 0, 0, 0, 1.
        assert_eq!(f.bumpiness, 8);
    }

    #[test]
    fn lock_measures_erosion_and_landing() {
        // A T pointing down fills the gap of the bottom row: one row, one cell of the T.
        let b = board("####.#####");
        let t = Piece::T.with(Orientation::Reverse).at(4, 1).unwrap();
        let lock = Features::lock(&b, &t).unwrap();
        assert_eq!(lock.lines, 1);
        assert_eq!(lock.features.eroded_cells, 1);
        assert_eq!(lock.features.landing_height, 0.5);
        assert_eq!(lock.board.to_string(), "...###....");
        assert!(!lock.perfect_clear);
        // Overlapping a block is no lock.
        let overlapping = Piece::T.with(Orientation::Spawn).at(4, 0).unwrap();
        assert!(Features::lock(&b, &overlapping).is_none());
        // A placement above the 32 rows does not fit either.
        let high = Piece::T.with(Orientation::Spawn).at(4, 40).unwrap();
        assert!(Features::lock(&b, &high).is_none());
    }
}
