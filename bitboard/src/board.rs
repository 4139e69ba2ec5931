//! [`Board`]: a 10-column field stored as one word per column.

use crate::word::Word;
use core::ops::{BitAnd, BitOr, Not};

/// Number of columns of every board.
pub const WIDTH: usize = 10;

/// A 10-column Tetris board, one [`Word`] per column (column-major).
///
/// Bit `y` of column `x` is the cell at column `x` (left to right, `0..10`) and row `y`
/// (bottom to top). This layout makes the hot operations of a move generator cheap:
/// dropping a piece is a shift, a collision test is one AND per column, and a row is full
/// when the AND of the ten columns has its bit set.
///
/// Which word to use:
/// - [`Board32`] (`Board<u32>`): up to 32 rows. Every perfect-clear field (clear line
///   1 to 8) and a 10×20 game with its spawn rows above. Start here: its documentation
///   describes the coordinates, the text form (`#`/`.` rows, top row first) and its
///   errors, and the main methods.
/// - [`Board64`] (`Board<u64>`): up to 64 rows, for tall analysis boards.
///
/// A board is `Copy` (ten words), compares and hashes by its cells, and its `Default` is
/// the empty board.
///
/// ```
/// use pc_bitboard::Board32;
///
/// let mut board: Board32 = "#########.\n##########".parse()?;
/// assert_eq!(board.full_rows(), 0b01);
/// let cleared = board.clear_full_rows();
/// assert_eq!(cleared, 0b01);
/// assert_eq!(board.to_string(), "#########.");
/// # Ok::<(), pc_bitboard::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Board<W: Word = u32> {
    cols: [W; WIDTH],
}

/// A board of up to 32 rows: the board type to start with.
///
/// `Board32` is [`Board<u32>`]: ten columns of one `u32` each. It holds every
/// perfect-clear field (clear line 1 to 8) and a 10×20 game with its spawn rows, and it
/// is the field type of the `pc` crates above this one. Use [`Board64`] for taller
/// boards; [`Board::convert`] moves a board between the two.
///
/// # Coordinates
///
/// Cell `(x, y)`: column `x` in `0..10` from left to right, row `y` from the bottom
/// (row 0 is the floor row) up to 31. Methods that read a cell treat cells off the board
/// as empty ([`Board::cell`]) or as walls and floor ([`Board::is_blocked`]); the methods
/// that write one say what they do with a cell off the board.
///
/// # Text form
///
/// A board reads from text with [`str::parse`] ([`FromStr`](core::str::FromStr)) and
/// writes with [`Display`](core::fmt::Display) (`to_string()`, `{}`) or
/// [`Board::to_text`]:
///
/// - rows are written **top row first**; the last row of the text is row 0;
/// - rows are separated by newlines (`\n`, `\r\n`) or `/`; spaces and tabs around a
///   row and blank rows are ignored, so indented string literals read as they look;
/// - each row has exactly ten cells: `#` is filled and `.` is empty (`X`, `G` and the
///   piece letters `IOTSZJL` also read as filled and `_` as empty, so coloured diagrams
///   from other tools paste unchanged);
/// - at most 32 rows (64 for a [`Board64`]); the empty string is the empty board.
///
/// A text that breaks a rule is a [`ParseBoardError`](crate::ParseBoardError) that says
/// where, rows counted from the top of the text and columns from the left, both from 1:
/// `"row 2 (from the top), column 4: expected '#' or '.', found 'x'"`,
/// `"row 1 (from the top) has 9 cells, expected 10"`, or
/// `"33 rows do not fit in a board of 32 rows"`.
///
/// `Display` writes the rows from [`Board::height`]` - 1` down to 0 as `#` and `.`,
/// separated by newlines (nothing for the empty board), and that text parses back to
/// the same board. [`Board::to_text`] writes a fixed number of rows with the separator
/// of your choice, and `{:?}` writes `Board("…/…")` on one line.
///
/// # Main methods
///
/// - cells: [`Board::cell`], [`Board::fill`] / [`Board::try_fill`],
///   [`Board::empty_cell`], [`Board::is_blocked`], [`Board::cells`];
/// - rows and masks (bit `y` = row `y`): [`Board::row`], [`Board::set_row`],
///   [`Board::full_rows`], [`Board::occupied_rows`], [`Board::below`],
///   [`Board::empty_cells_below`];
/// - line clears: [`Board::clear_full_rows`], [`Board::remove_rows`] and its inverse
///   [`Board::insert_rows`];
/// - measures: [`Board::height`], [`Board::column_height`], [`Board::heights`],
///   [`Board::holes`], [`Board::cell_count`];
/// - combining: [`Board::merge`], [`Board::intersects`], `|`, `&`, `!`,
///   [`Board::mirrored`].
///
/// Every method is a few word operations per column: no method allocates but
/// [`Board::to_text`] and the text form.
///
/// ```
/// use pc_bitboard::{Board32, ParseBoardError};
///
/// // Top row first: row 1 is the top row of the text, row 0 the bottom one.
/// let mut board: Board32 = "
///     #.........
///     ..########
/// ".parse()?;
/// assert!(board.cell(0, 1) && !board.cell(1, 1));
/// assert!(board.cell(2, 0) && !board.cell(1, 0));
/// assert_eq!(board.height(), 2);
///
/// // Fill the gap of row 0 and clear it: the row above falls.
/// board.fill(0, 0);
/// board.fill(1, 0);
/// assert_eq!(board.clear_full_rows(), 0b01);
/// assert_eq!(board.to_string(), "#.........");
///
/// // `/` separates rows too, and the text round-trips.
/// let field: Board32 = "##.....###/###....###".parse()?;
/// assert_eq!(field.to_string(), "##.....###\n###....###");
/// assert_eq!(field.to_string().parse::<Board32>()?, field);
///
/// // Errors say what and where.
/// let error = "##########/###x######".parse::<Board32>().unwrap_err();
/// assert_eq!(error, ParseBoardError::UnexpectedChar {
///     row: 2,
///     column: 4,
///     found: 'x',
///     expected: "'#' or '.'",
/// });
/// assert_eq!(error.to_string(), "row 2 (from the top), column 4: expected '#' or '.', found 'x'");
/// assert_eq!(
///     "#########".parse::<Board32>().unwrap_err().to_string(),
///     "row 1 (from the top) has 9 cells, expected 10",
/// );
/// # Ok::<(), ParseBoardError>(())
/// ```
pub type Board32 = Board<u32>;

/// A board of up to 64 rows, for tall analysis boards: [`Board<u64>`], with the same
/// coordinates, text form and methods as [`Board32`] (whose documentation describes
/// them), rows `y` in `0..64`.
///
/// ```
/// use pc_bitboard::{Board32, Board64};
///
/// let mut tall = Board64::new();
/// tall.fill(0, 40);
/// assert_eq!(tall.height(), 41);
/// // A filled cell above row 31 does not fit a `Board32`.
/// assert_eq!(tall.convert::<u32>(), None::<Board32>);
/// ```
pub type Board64 = Board<u64>;

impl<W: Word> Board<W> {
    /// Number of rows this board type can hold: 32 for [`Board32`], 64 for [`Board64`].
    pub const HEIGHT: u32 = W::BITS;

    /// The empty board (the same as `Board::default()`).
    #[inline]
    pub fn new() -> Self {
        Board {
            cols: [W::ZERO; WIDTH],
        }
    }

    /// A board from its columns (bit `y` of `cols[x]` is cell `(x, y)`); every word is a
    /// valid column.
    #[inline]
    pub const fn from_columns(cols: [W; WIDTH]) -> Self {
        Board { cols }
    }

    /// The columns, left to right.
    #[inline]
    pub const fn columns(&self) -> &[W; WIDTH] {
        &self.cols
    }

    /// Column `x` as a word (bit `y` = row `y`).
    ///
    /// # Panics
    /// If `x >= 10`.
    #[inline]
    pub fn column(&self, x: usize) -> W {
        self.cols[x]
    }

    /// Whether cell `(x, y)` is filled; cells outside the board (`x >= 10` or
    /// `y >= HEIGHT`) read as empty.
    #[inline]
    pub fn cell(&self, x: usize, y: u32) -> bool {
        x < WIDTH && self.cols[x].test(y)
    }

    /// Whether cell `(x, y)` is blocked for a piece: filled, or outside the walls (`x < 0`
    /// or `x >= 10`) or below the floor (`y < 0`). Cells above the top of the word read as
    /// free. Takes signed coordinates so that a piece's cells can be tested before they are
    /// known to be on the board.
    #[inline]
    pub fn is_blocked(&self, x: i32, y: i32) -> bool {
        if !(0..WIDTH as i32).contains(&x) || y < 0 {
            return true;
        }
        self.cols[x as usize].test(y as u32)
    }

    /// Fills cell `(x, y)`.
    ///
    /// # Panics
    /// If `x >= 10` or `y >= HEIGHT`; use [`Board::try_fill`] for input you do not control.
    #[inline]
    pub fn fill(&mut self, x: usize, y: u32) {
        assert!(y < W::BITS, "row {y} is above the board's {} rows", W::BITS);
        self.cols[x] |= W::bit(y);
    }

    /// Fills cell `(x, y)`, or returns `false` (changing nothing) when it is off the board.
    #[inline]
    pub fn try_fill(&mut self, x: usize, y: u32) -> bool {
        if x < WIDTH && y < W::BITS {
            self.cols[x] |= W::bit(y);
            true
        } else {
            false
        }
    }

    /// Empties cell `(x, y)`; a cell off the board is left alone (it is empty already).
    #[inline]
    pub fn empty_cell(&mut self, x: usize, y: u32) {
        if x < WIDTH {
            self.cols[x] &= !W::bit(y);
        }
    }

    /// Row `y` as 10 bits (bit `x` = column `x`); rows off the board are empty. Reads ten
    /// words: prefer the row masks ([`Board::full_rows`], [`Board::occupied_rows`]) in hot
    /// loops.
    #[inline]
    pub fn row(&self, y: u32) -> u16 {
        let mut bits = 0u16;
        for (x, col) in self.cols.iter().enumerate() {
            bits |= (col.test(y) as u16) << x;
        }
        bits
    }

    /// Sets row `y` from 10 bits (bit `x` = column `x`; higher bits are ignored). The
    /// inverse of [`Board::row`].
    ///
    /// # Panics
    /// If `y >= HEIGHT`.
    pub fn set_row(&mut self, y: u32, bits: u16) {
        assert!(y < W::BITS, "row {y} is above the board's {} rows", W::BITS);
        for (x, col) in self.cols.iter_mut().enumerate() {
            if bits >> x & 1 == 1 {
                *col |= W::bit(y);
            } else {
                *col &= !W::bit(y);
            }
        }
    }

    /// Mask of the rows whose ten cells are all filled (bit `y` = row `y`).
    #[inline]
    pub fn full_rows(&self) -> W {
        self.cols.iter().fold(W::ONES, |acc, &c| acc & c)
    }

    /// Mask of the rows with at least one filled cell (bit `y` = row `y`).
    #[inline]
    pub fn occupied_rows(&self) -> W {
        self.cols.iter().fold(W::ZERO, |acc, &c| acc | c)
    }

    /// Clears the full rows, lets the rows above fall, and returns the mask of the rows
    /// that were cleared (in the coordinates before the clear).
    #[inline]
    pub fn clear_full_rows(&mut self) -> W {
        let full = self.full_rows();
        if full != W::ZERO {
            self.remove_rows(full);
        }
        full
    }

    /// Removes the rows in `mask` (whatever they hold) and lets the rows above fall; empty
    /// rows come in at the top. The inverse of [`Board::insert_rows`]. Costs a few word
    /// operations per column and per row of `mask`.
    pub fn remove_rows(&mut self, mask: W) {
        for col in &mut self.cols {
            *col = compress(*col, mask);
        }
    }

    /// Inserts rows so that they end up at the positions in `mask` (coordinates after
    /// the insertion), pushing the rows at and above each position up. Inserted rows
    /// are full when `filled`, else empty. Rows pushed past the top are lost.
    ///
    /// This re-creates the rows a line clear removed, which is how a piece split by an
    /// earlier clear is placed back into the uncollapsed field.
    ///
    /// ```
    /// use pc_bitboard::Board32;
    ///
    /// let before: Board32 = "#.........\n##########\n.........#".parse().unwrap();
    /// let mut board = before;
    /// let cleared = board.clear_full_rows();
    /// board.insert_rows(cleared, true);
    /// assert_eq!(board, before);
    /// ```
    pub fn insert_rows(&mut self, mask: W, filled: bool) {
        for col in &mut self.cols {
            *col = expand(*col, mask, filled);
        }
    }

    /// Whether the board has no filled cell.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.occupied_rows() == W::ZERO
    }

    /// Number of filled cells (a population count per column).
    #[inline]
    pub fn cell_count(&self) -> u32 {
        self.cols.iter().map(|c| c.count_ones()).sum()
    }

    /// Height of column `x`: one more than its highest filled row, 0 when empty.
    ///
    /// # Panics
    /// If `x >= 10`.
    #[inline]
    pub fn column_height(&self, x: usize) -> u32 {
        W::BITS - self.cols[x].leading_zeros()
    }

    /// The ten column heights, left to right (see [`Board::column_height`]).
    pub fn heights(&self) -> [u32; WIDTH] {
        core::array::from_fn(|x| self.column_height(x))
    }

    /// Height of the board: one more than its highest filled row, 0 when empty.
    #[inline]
    pub fn height(&self) -> u32 {
        W::BITS - self.occupied_rows().leading_zeros()
    }

    /// Number of holes: empty cells below the top filled cell of their column.
    pub fn holes(&self) -> u32 {
        self.cols
            .iter()
            .map(|&c| {
                let h = W::BITS - c.leading_zeros();
                h - c.count_ones()
            })
            .sum()
    }

    /// Whether any cell at row `line` or above is filled (`false` when `line >= HEIGHT`):
    /// whether a field sticks out above a clear line.
    #[inline]
    pub fn has_cells_at_or_above(&self, line: u32) -> bool {
        self.occupied_rows().shr_or_zero(line) != W::ZERO
    }

    /// The board with only rows `0..rows` kept (the whole board when `rows >= HEIGHT`).
    #[inline]
    pub fn below(&self, rows: u32) -> Self {
        let m = W::low_mask(rows);
        self.map(|c| c & m)
    }

    /// Whether the two boards share a filled cell.
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        self.cols
            .iter()
            .zip(other.cols.iter())
            .any(|(&a, &b)| a & b != W::ZERO)
    }

    /// Fills every cell filled in `other`.
    #[inline]
    pub fn merge(&mut self, other: &Self) {
        for (a, &b) in self.cols.iter_mut().zip(other.cols.iter()) {
            *a |= b;
        }
    }

    /// The board mirrored left to right: cell `(x, y)` moves to `(9 - x, y)`.
    pub fn mirrored(&self) -> Self {
        let mut cols = self.cols;
        cols.reverse();
        Board { cols }
    }

    /// The same cells on a board of another word, or `None` if a filled cell does not fit.
    pub fn convert<V: Word>(&self) -> Option<Board<V>> {
        if self.height() > V::BITS {
            return None;
        }
        Some(Board {
            cols: self.cols.map(|c| V::from_u64_truncate(c.to_u64())),
        })
    }

    /// The empty cells of rows `0..rows` as a board (its complement below a clear line;
    /// the whole height when `rows >= HEIGHT`).
    #[inline]
    pub fn empty_cells_below(&self, rows: u32) -> Self {
        let m = W::low_mask(rows);
        self.map(|c| !c & m)
    }

    /// Iterates over the filled cells as `(x, y)`, column by column (left to right), each
    /// bottom to top. Costs a step per filled cell.
    pub fn cells(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.cols.iter().enumerate().flat_map(|(x, &c)| {
            let mut bits = c;
            core::iter::from_fn(move || {
                if bits == W::ZERO {
                    return None;
                }
                let y = bits.trailing_zeros();
                bits &= !W::bit(y);
                Some((x, y))
            })
        })
    }

    #[inline]
    fn map(&self, f: impl Fn(W) -> W) -> Self {
        Board {
            cols: self.cols.map(f),
        }
    }
}

/// Removes the bits of `mask` from `word`, shifting the bits above each one down.
#[inline]
fn compress<W: Word>(word: W, mask: W) -> W {
    let mut out = word;
    let mut m = mask;
    // Highest row first, so the positions of the lower rows stay valid.
    while m != W::ZERO {
        let y = W::BITS - 1 - m.leading_zeros();
        m &= !W::bit(y);
        let below = W::low_mask(y);
        out = (out & below) | (out.shr_or_zero(y + 1) << y);
    }
    out
}

/// Opens a gap at each bit of `mask` (final coordinates), filling it with `filled`.
#[inline]
fn expand<W: Word>(word: W, mask: W, filled: bool) -> W {
    let mut out = word;
    let mut m = mask;
    // Lowest row first: each insertion is in final coordinates.
    while m != W::ZERO {
        let y = m.trailing_zeros();
        m &= !W::bit(y);
        let below = W::low_mask(y);
        let gap = if filled { W::bit(y) } else { W::ZERO };
        out = (out & below) | ((out & !below).shl_or_zero(1)) | gap;
    }
    out
}

impl<W: Word> BitOr for Board<W> {
    type Output = Self;
    #[inline]
    fn bitor(mut self, rhs: Self) -> Self {
        self.merge(&rhs);
        self
    }
}

impl<W: Word> BitAnd for Board<W> {
    type Output = Self;
    #[inline]
    fn bitand(self, rhs: Self) -> Self {
        Board {
            cols: core::array::from_fn(|x| self.cols[x] & rhs.cols[x]),
        }
    }
}

impl<W: Word> Not for Board<W> {
    type Output = Self;
    /// Complements every cell of the word's full height.
    #[inline]
    fn not(self) -> Self {
        self.map(|c| !c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clear_reports_and_collapses() {
        let mut b: Board32 = "#.........\n##########\n#########.\n##########"
            .parse()
            .unwrap();
        assert_eq!(b.clear_full_rows(), 0b0101);
        assert_eq!(b.to_string(), "#.........\n#########.");
        assert_eq!(b.clear_full_rows(), 0);
    }

    #[test]
    fn remove_then_insert_empty_rows() {
        let mut b: Board64 = "#.#.......\n.#.#......\n..#.#.....".parse().unwrap();
        let orig = b;
        b.remove_rows(0b010);
        assert_eq!(b.to_string(), "#.#.......\n..#.#.....");
        b.insert_rows(0b010, false);
        assert_ne!(b, orig);
        b.set_row(1, orig.row(1));
        assert_eq!(b, orig);
    }

    #[test]
    fn heights_and_holes() {
        let b: Board32 = "#.........\n..........\n##.......#".parse().unwrap();
        assert_eq!(b.column_height(0), 3);
        assert_eq!(b.column_height(1), 1);
        assert_eq!(b.column_height(2), 0);
        assert_eq!(b.height(), 3);
        assert_eq!(b.holes(), 1);
        assert_eq!(b.cell_count(), 4);
        assert!(b.has_cells_at_or_above(2));
        assert!(!b.has_cells_at_or_above(3));
    }

    #[test]
    fn blocked_outside() {
        let b = Board32::new();
        assert!(b.is_blocked(-1, 0));
        assert!(b.is_blocked(10, 0));
        assert!(b.is_blocked(0, -1));
        assert!(!b.is_blocked(0, 0));
        assert!(!b.is_blocked(9, 40));
    }

    #[test]
    fn rows_and_mirror() {
        let mut b = Board32::new();
        b.set_row(2, 0b11_0000_0001);
        assert_eq!(b.row(2), 0b11_0000_0001);
        assert_eq!(b.mirrored().row(2), 0b10_0000_0011);
        assert_eq!(b.cells().collect::<Vec<_>>(), vec![(0, 2), (8, 2), (9, 2)]);
    }

    #[test]
    fn convert_checks_height() {
        let mut b = Board64::new();
        b.fill(3, 40);
        assert!(b.convert::<u32>().is_none());
        b.empty_cell(3, 40);
        b.fill(3, 31);
        assert_eq!(b.convert::<u32>().unwrap().column(3), 1 << 31);
    }
}
