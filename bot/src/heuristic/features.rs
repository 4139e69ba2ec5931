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
/// use pc_bot::{Board32, Features};
///
/// let board: Board32 = "#.........\n.#.......#\n##.#######".parse()?;
/// let f = Features::of_board(&board);
/// assert_eq!(f.holes, 1); // under the block in column 0
/// assert_eq!(f.covered_cells, 1);
/// assert_eq!(f.aggregate_height, 3 + 2 + 0 + 1 * 6 + 2);
/// assert_eq!(f.bumpiness, 1 + 2 + 1 + 0 + 0 + 0 + 0 + 0 + 1);
/// # Ok::<(), pc_bot::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

/// The features' terms of one column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Column {
    height: u32,
    holes: u32,
    hole_depth: u32,
    covered_cells: u32,
    /// Filled/empty changes up the column, from the floor.
    transitions: u32,
}

impl Column {
    #[inline]
    fn of(col: u32) -> Column {
        let height = u32::BITS - col.leading_zeros();
        let mut holes = !col & below(height);
        if holes == 0 {
            // Solid: one change, at its top (or at the floor when empty). Most columns
            // are solid, and their terms follow from the height alone.
            return Column {
                height,
                transitions: 1,
                ..Column::default()
            };
        }
        let mut c = Column {
            height,
            holes: holes.count_ones(),
            hole_depth: 0,
            covered_cells: (col >> holes.trailing_zeros()).count_ones(),
            // Bit y compares row y with row y - 1; the floor below row 0 is filled.
            transitions: (col ^ (col << 1 | 1)).count_ones(),
        };
        while holes != 0 {
            let y = holes.trailing_zeros();
            holes &= holes - 1;
            c.hole_depth += (col >> y).count_ones();
        }
        c
    }

    /// Replaces `old`'s terms in this sum by `new`'s.
    #[inline]
    fn replace(&mut self, old: &Column, new: &Column) {
        self.height = self.height - old.height + new.height;
        self.holes = self.holes - old.holes + new.holes;
        self.hole_depth = self.hole_depth - old.hole_depth + new.hole_depth;
        self.covered_cells = self.covered_cells - old.covered_cells + new.covered_cells;
        self.transitions = self.transitions - old.transitions + new.transitions;
    }
}

/// Bumpiness and row transitions between two neighbouring columns.
#[inline]
fn pair(a: u32, ta: &Column, b: u32, tb: &Column) -> (u32, u32) {
    let step = ta.height.abs_diff(tb.height);
    // Between two solid columns the rows that change are those between their heights.
    let rows = if ta.holes | tb.holes == 0 {
        step
    } else {
        (a ^ b).count_ones()
    };
    (step, rows)
}

/// 1 + 2 + … + depth of the open well above a column of `height` between `left` and
/// `right` (the walls are `u32::MAX`).
#[inline]
fn well(left: u32, height: u32, right: u32) -> u32 {
    let sides = u64::from(left & right) >> height;
    let depth = (!sides).trailing_zeros();
    depth * (depth + 1) / 2
}

/// The column left of `x`, or the (filled) wall.
#[inline]
fn left_of(cols: &[u32; WIDTH], x: usize) -> u32 {
    if x == 0 { u32::MAX } else { cols[x - 1] }
}

/// The column right of `x`, or the (filled) wall.
#[inline]
fn right_of(cols: &[u32; WIDTH], x: usize) -> u32 {
    if x + 1 == WIDTH {
        u32::MAX
    } else {
        cols[x + 1]
    }
}

/// The per-column terms of a field's features and their sums, so that the features after
/// a lock that clears no row are found by recomputing only the columns the piece touched
/// and their neighbours. Building it costs about one [`Features::of_board`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Profile {
    cols: [u32; WIDTH],
    columns: [Column; WIDTH],
    /// `(bumpiness, row transitions)` between columns `x` and `x + 1`.
    pairs: [(u32, u32); WIDTH - 1],
    wells: [u32; WIDTH],
    sum: Sums,
}

/// Sums of a profile's terms.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    columns: Column,
    bumpiness: u32,
    row_pairs: u32,
    wells: u32,
    top: u32,
}

impl Sums {
    fn features(&self, first: &Column, last: &Column) -> Features {
        // The walls are filled: an edge column changes against its wall in each of its
        // empty rows, counted up to row 20 or the top of the stack.
        let rows = VISIBLE_ROWS.max(self.top);
        let edge = |c: &Column| rows - c.height + c.holes;
        Features {
            landing_height: 0.0,
            eroded_cells: 0,
            row_transitions: self.row_pairs + edge(first) + edge(last),
            column_transitions: self.columns.transitions,
            holes: self.columns.holes,
            well_sums: self.wells,
            bumpiness: self.bumpiness,
            hole_depth: self.columns.hole_depth,
            aggregate_height: self.columns.height,
            covered_cells: self.columns.covered_cells,
        }
    }
}

impl Profile {
    pub(crate) fn new(board: &Board32) -> Profile {
        let cols = *board.columns();
        let columns = cols.map(Column::of);
        let pairs =
            core::array::from_fn(|x| pair(cols[x], &columns[x], cols[x + 1], &columns[x + 1]));
        let wells = core::array::from_fn(|x| {
            well(left_of(&cols, x), columns[x].height, right_of(&cols, x))
        });
        let mut sum = Sums::default();
        for c in &columns {
            sum.columns.replace(&Column::default(), c);
            sum.top = sum.top.max(c.height);
        }
        for &(bump, rows) in &pairs {
            sum.bumpiness += bump;
            sum.row_pairs += rows;
        }
        sum.wells = wells.iter().sum();
        Profile {
            cols,
            columns,
            pairs,
            wells,
            sum,
        }
    }

    /// The features of the field itself.
    pub(crate) fn features(&self) -> Features {
        self.sum
            .features(&self.columns[0], &self.columns[WIDTH - 1])
    }

    /// The features of `cols`, which differ from this profile's field only in columns
    /// `first..=last`.
    // The loops index several per-column arrays at once.
    #[allow(clippy::needless_range_loop)]
    fn changed(&self, cols: &[u32; WIDTH], first: usize, last: usize) -> Features {
        let mut sum = self.sum;
        let mut columns = self.columns;
        for x in first..=last {
            let new = Column::of(cols[x]);
            sum.columns.replace(&columns[x], &new);
            sum.top = sum.top.max(new.height);
            columns[x] = new;
        }
        for x in first.saturating_sub(1)..last.min(WIDTH - 2) + 1 {
            let (bump, rows) = pair(cols[x], &columns[x], cols[x + 1], &columns[x + 1]);
            let (old_bump, old_rows) = self.pairs[x];
            sum.bumpiness = sum.bumpiness - old_bump + bump;
            sum.row_pairs = sum.row_pairs - old_rows + rows;
        }
        for x in first.saturating_sub(1)..=(last + 1).min(WIDTH - 1) {
            let new = well(left_of(cols, x), columns[x].height, right_of(cols, x));
            sum.wells = sum.wells - self.wells[x] + new;
        }
        sum.features(&columns[0], &columns[WIDTH - 1])
    }

    /// [`Features::lock`] on this profile's field.
    pub(crate) fn lock(&self, placement: &Placement) -> Option<Lock> {
        let placed = Placed::new(&self.cols, placement)?;
        let features = if placed.full == 0 {
            self.changed(&placed.cols, placed.first, placed.last)
        } else {
            Features::of_board(&placed.cleared())
        };
        Some(placed.finish(features))
    }
}

/// A piece's cells merged into a field, before its full rows clear.
struct Placed {
    cols: [u32; WIDTH],
    full: u32,
    eroded_cells: u32,
    /// Lowest and highest row of the piece.
    rows: (u32, u32),
    /// Leftmost and rightmost column of the piece.
    first: usize,
    last: usize,
}

impl Placed {
    #[inline]
    fn new(cols: &[u32; WIDTH], placement: &Placement) -> Option<Placed> {
        let centre = placement.centre();
        let mut placed = Placed {
            cols: *cols,
            full: 0,
            eroded_cells: 0,
            rows: (u32::MAX, 0),
            first: WIDTH,
            last: 0,
        };
        let cells = placement.piece().with(placement.orientation()).cells();
        for (dx, dy) in cells {
            // A placement's cells are on the board's columns and above the floor.
            let x = (centre.x + i32::from(dx)) as usize;
            let y = (centre.y + i32::from(dy)) as u32;
            let bit = u32::bit(y);
            if bit == 0 || placed.cols[x] & bit != 0 {
                return None;
            }
            placed.cols[x] |= bit;
            placed.rows = (placed.rows.0.min(y), placed.rows.1.max(y));
            placed.first = placed.first.min(x);
            placed.last = placed.last.max(x);
        }
        placed.full = placed.cols.iter().fold(u32::MAX, |acc, &c| acc & c);
        if placed.full != 0 {
            let in_full: u32 = cells
                .iter()
                .map(|&(_, dy)| placed.full >> (centre.y + i32::from(dy)) & 1)
                .sum();
            placed.eroded_cells = placed.full.count_ones() * in_full;
        }
        Some(placed)
    }

    /// The field after the clear.
    fn cleared(&self) -> Board32 {
        let mut board = Board32::from_columns(self.cols);
        if self.full != 0 {
            board.remove_rows(self.full);
        }
        board
    }

    fn finish(&self, mut features: Features) -> Lock {
        features.landing_height = f64::from(self.rows.0 + self.rows.1) / 2.0;
        features.eroded_cells = self.eroded_cells;
        let board = self.cleared();
        Lock {
            board,
            lines: self.full.count_ones(),
            perfect_clear: self.full != 0 && board.is_empty(),
            features,
        }
    }
}

impl Features {
    /// The features of a field on its own (landing height and eroded cells are 0).
    pub fn of_board(board: &Board32) -> Features {
        Profile::new(board).features()
    }

    /// Locks `placement` on `board`, clears the full rows and measures the result; `None`
    /// when the piece overlaps a filled cell or does not fit in the board's 32 rows.
    ///
    /// ```
    /// use pc_bot::{Board32, Features, Orientation, Piece};
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
        let placed = Placed::new(board.columns(), placement)?;
        Some(placed.finish(Features::of_board(&placed.cleared())))
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

    proptest::proptest! {
        #[test]
        fn profile_updates_match_a_full_count(
            cols in proptest::collection::vec(0u32..1 << 22, 10),
            holes in proptest::collection::vec(0u32..1 << 22, 10),
            (p, o, x, y) in (0usize..7, 0usize..4, 0i32..10, 0i32..24),
        ) {
            // Solid columns of random heights, a few with random holes.
            let columns: [u32; WIDTH] = core::array::from_fn(|i| {
                let solid = below(32 - cols[i].leading_zeros());
                if i % 3 == 0 { solid & !holes[i] } else { solid }
            });
            let board = Board32::from_columns(columns);
            let profile = Profile::new(&board);
            proptest::prop_assert_eq!(profile.features(), Features::of_board(&board));
            if let Ok(placement) = Piece::ALL[p].with(Orientation::ALL[o]).at(x, y) {
                proptest::prop_assert_eq!(profile.lock(&placement), Features::lock(&board, &placement));
            }
        }
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
