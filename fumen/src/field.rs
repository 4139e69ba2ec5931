//! Coloured fields and their run-length page diffs.

use super::FumenError;
use super::codec::{Reader, Writer};
use core::fmt;
use core::str::FromStr;
use pc_bitboard::{Board32, ParseBoardError, WIDTH, parse_rows};
use pc_srs::{Piece, Placement};

/// What a cell of a fumen field holds: nothing, a block of a piece's colour, or gray.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Cell {
    /// An empty cell.
    #[default]
    Empty,
    /// A block in the colour of a piece.
    Piece(Piece),
    /// A gray (garbage) block.
    Gray,
}

/// Cell kinds in fumen's numbering: 0 empty, 1 I, 2 L, 3 O, 4 Z, 5 T, 6 J, 7 S, 8 gray.
const KINDS: [Cell; 9] = [
    Cell::Empty,
    Cell::Piece(Piece::I),
    Cell::Piece(Piece::L),
    Cell::Piece(Piece::O),
    Cell::Piece(Piece::Z),
    Cell::Piece(Piece::T),
    Cell::Piece(Piece::J),
    Cell::Piece(Piece::S),
    Cell::Gray,
];

impl Cell {
    /// The number fumen writes for this cell (and, for a piece, in the action):
    /// 0 empty, 1 I, 2 L, 3 O, 4 Z, 5 T, 6 J, 7 S, 8 gray.
    pub const fn fumen_id(self) -> u8 {
        match self {
            Cell::Empty => 0,
            Cell::Piece(Piece::I) => 1,
            Cell::Piece(Piece::L) => 2,
            Cell::Piece(Piece::O) => 3,
            Cell::Piece(Piece::Z) => 4,
            Cell::Piece(Piece::T) => 5,
            Cell::Piece(Piece::J) => 6,
            Cell::Piece(Piece::S) => 7,
            Cell::Gray => 8,
        }
    }

    /// The cell of a fumen number, or `None` above 8.
    pub const fn from_fumen_id(id: u8) -> Option<Cell> {
        if (id as usize) < KINDS.len() {
            Some(KINDS[id as usize])
        } else {
            None
        }
    }

    /// Whether the cell holds a block.
    pub const fn is_filled(self) -> bool {
        !matches!(self, Cell::Empty)
    }

    /// `.` for empty, the piece's letter, `X` for gray.
    pub const fn to_char(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Piece(p) => p.to_char(),
            Cell::Gray => 'X',
        }
    }
}

/// A fumen field: 23 visible rows of 10 coloured cells, and the garbage row below them.
///
/// Rows are numbered from the bottom, 0 to 22. The garbage row is fumen's staging row
/// under the field: a page with the rise flag pushes it up into row 0 when the page's
/// piece locks. sfinder and most users leave it empty.
///
/// The text form (for [`FromStr`] and [`Display`](fmt::Display)) is the visible rows,
/// top first, one letter per cell: `.` empty, `IJLOSTZ` a piece's colour, `X` gray
/// (also `#` and `G` when reading). Rows are separated by newlines or `/`.
///
/// ```
/// use pc_fumen::{Cell, ColoredField};
/// use pc_fumen::Piece;
///
/// let field: ColoredField = "ZZ......XX\nLZZ....IXX\nLLL....IXX".parse()?;
/// assert_eq!(field.cell(0, 2), Cell::Piece(Piece::Z));
/// assert_eq!(field.cell(9, 0), Cell::Gray);
/// assert_eq!(field.to_board().to_string(), "##......##\n###....###\n###....###");
/// # Ok::<(), pc_bitboard::ParseBoardError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ColoredField {
    rows: [[Cell; WIDTH]; ColoredField::HEIGHT as usize],
    garbage: [Cell; WIDTH],
}

impl ColoredField {
    /// Number of visible rows.
    pub const HEIGHT: u32 = 23;
    /// Number of cells fumen codes per page: the visible rows and the garbage row.
    pub(crate) const CELLS: usize = (Self::HEIGHT as usize + 1) * WIDTH;

    /// The empty field.
    pub fn new() -> Self {
        Self::default()
    }

    /// A field whose filled cells are those of `board`, all of kind `cell`.
    ///
    /// # Panics
    /// If `board` has a filled cell at row 23 or above; use
    /// [`ColoredField::try_from_board`] for a board you do not control.
    pub fn from_board(board: &Board32, cell: Cell) -> Self {
        Self::try_from_board(board, cell).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A field whose filled cells are those of `board`, all of kind `cell`.
    ///
    /// # Errors
    /// [`FumenError::BoardTooTall`] when `board` has a filled cell at row 23 or above.
    ///
    /// ```
    /// use pc_fumen::{Board32, Cell, ColoredField, FumenError};
    ///
    /// let board: Board32 = "#########.".parse()?;
    /// assert_eq!(ColoredField::try_from_board(&board, Cell::Gray)?.height(), 1);
    /// let tall: Board32 = vec!["#........."; 24].join("/").parse()?;
    /// assert_eq!(
    ///     ColoredField::try_from_board(&tall, Cell::Gray),
    ///     Err(FumenError::BoardTooTall { height: 24 })
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_from_board(board: &Board32, cell: Cell) -> Result<Self, FumenError> {
        if board.has_cells_at_or_above(Self::HEIGHT) {
            return Err(FumenError::BoardTooTall {
                height: board.height(),
            });
        }
        let mut field = Self::new();
        for (x, y) in board.cells() {
            field.rows[y as usize][x] = cell;
        }
        Ok(field)
    }

    /// Cell `(x, y)` of the visible rows; cells off the field read as empty.
    pub fn cell(&self, x: usize, y: u32) -> Cell {
        self.rows
            .get(y as usize)
            .and_then(|row| row.get(x))
            .copied()
            .unwrap_or_default()
    }

    /// Sets cell `(x, y)` of the visible rows.
    ///
    /// # Panics
    /// If `x >= 10` or `y >= 23`.
    pub fn set_cell(&mut self, x: usize, y: u32, cell: Cell) {
        self.rows[y as usize][x] = cell;
    }

    /// Cell `x` of the garbage row; columns off the field read as empty.
    pub fn garbage(&self, x: usize) -> Cell {
        self.garbage.get(x).copied().unwrap_or_default()
    }

    /// Sets cell `x` of the garbage row.
    ///
    /// # Panics
    /// If `x >= 10`.
    pub fn set_garbage(&mut self, x: usize, cell: Cell) {
        self.garbage[x] = cell;
    }

    /// The filled cells of the visible rows as a board; the garbage row is left out.
    pub fn to_board(&self) -> Board32 {
        let mut board = Board32::new();
        for (y, row) in self.rows.iter().enumerate() {
            for (x, cell) in row.iter().enumerate() {
                if cell.is_filled() {
                    board.fill(x, y as u32);
                }
            }
        }
        board
    }

    /// One more than the highest visible row with a filled cell; 0 when they are empty.
    pub fn height(&self) -> u32 {
        self.rows
            .iter()
            .rposition(|row| row.iter().any(|c| c.is_filled()))
            .map_or(0, |y| y as u32 + 1)
    }

    /// Fills the cells of `placement` with its piece's colour (overwriting whatever is
    /// there). Cells above the visible rows are dropped.
    pub fn lock(&mut self, placement: &Placement) {
        for (x, y) in placement.cells() {
            if let Some(row) = self.rows.get_mut(y as usize) {
                row[x as usize] = Cell::Piece(placement.piece());
            }
        }
    }

    /// Removes the visible rows with no empty cell, lets the rows above fall, and
    /// returns how many were removed. The garbage row never clears.
    pub fn clear_full_rows(&mut self) -> u32 {
        let mut kept = 0;
        for y in 0..self.rows.len() {
            if self.rows[y].iter().any(|c| !c.is_filled()) {
                self.rows[kept] = self.rows[y];
                kept += 1;
            }
        }
        let cleared = self.rows.len() - kept;
        for row in &mut self.rows[kept..] {
            *row = [Cell::Empty; WIDTH];
        }
        cleared as u32
    }

    /// Pushes the garbage row up into row 0 (the top row is lost) and empties it.
    pub fn rise(&mut self) {
        self.rows.copy_within(0..Self::HEIGHT as usize - 1, 1);
        self.rows[0] = core::mem::take(&mut self.garbage);
    }

    /// Mirrors the visible rows left to right (the garbage row stays as it is).
    /// Cell colours are kept, as fumen does: an L block stays an L block.
    pub fn mirror(&mut self) {
        for row in &mut self.rows {
            row.reverse();
        }
    }

    /// Cell `index` in fumen's order: the top visible row left to right first, then the
    /// rows below, the garbage row last.
    fn at_index(&self, index: usize) -> Cell {
        let (row, x) = (index / WIDTH, index % WIDTH);
        match (Self::HEIGHT as usize - 1).checked_sub(row) {
            Some(y) => self.rows[y][x],
            None => self.garbage[x],
        }
    }

    /// The cell [`at_index`](Self::at_index) reads, for writing.
    fn at_index_mut(&mut self, index: usize) -> &mut Cell {
        let (row, x) = (index / WIDTH, index % WIDTH);
        match (Self::HEIGHT as usize - 1).checked_sub(row) {
            Some(y) => &mut self.rows[y][x],
            None => &mut self.garbage[x],
        }
    }
}

/// Applies one page's field diff to `field`; returns whether it was a single run over
/// the whole field (then a repeat count follows in the data).
pub(crate) fn read_diff(
    r: &mut Reader,
    field: &mut ColoredField,
    page: usize,
) -> Result<bool, FumenError> {
    let cells = ColoredField::CELLS;
    let mut index = 0;
    let mut runs = 0;
    while index < cells {
        let value = r.read(2).ok_or(FumenError::Truncated {
            page,
            part: "field",
        })? as usize;
        let (diff, run) = (value / cells, value % cells + 1);
        runs += 1;
        if index + run > cells {
            return Err(FumenError::FieldOverflow {
                page,
                cells: index + run,
            });
        }
        for i in index..index + run {
            let cell = field.at_index_mut(i);
            let kind = cell.fumen_id() as i32 + diff as i32 - 8;
            *cell = u8::try_from(kind)
                .ok()
                .and_then(Cell::from_fumen_id)
                .ok_or(FumenError::BadCell {
                    page,
                    x: i % WIDTH,
                    y: ColoredField::HEIGHT as i32 - 1 - (i / WIDTH) as i32,
                    value: kind,
                })?;
        }
        index += run;
    }
    Ok(runs == 1)
}

/// Writes the diff from `prev` to `current`; returns whether it was a single run over the
/// whole field (the caller then writes or extends a repeat count).
pub(crate) fn write_diff(w: &mut Writer, prev: &ColoredField, current: &ColoredField) -> bool {
    let cells = ColoredField::CELLS;
    let diffs: Vec<u32> = (0..cells)
        .map(|i| current.at_index(i).fumen_id() as u32 + 8 - prev.at_index(i).fumen_id() as u32)
        .collect();
    let mut runs = 0;
    let mut start = 0;
    for i in 1..=cells {
        if i == cells || diffs[i] != diffs[start] {
            // The diff is 0..=16 and the run 1..=240: at most 16 * 240 + 239 < 64^2.
            w.push(diffs[start] * cells as u32 + (i - start - 1) as u32, 2);
            runs += 1;
            start = i;
        }
    }
    runs == 1
}

/// Reads the visible rows, top first (see [`ColoredField`] for the letters).
impl FromStr for ColoredField {
    type Err = ParseBoardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut field = Self::new();
        let cell = |ch: char| match ch {
            '.' | '_' => Some(Cell::Empty),
            '#' | 'X' | 'G' => Some(Cell::Gray),
            _ => Piece::from_char(ch)
                .filter(|_| ch.is_ascii_uppercase())
                .map(Cell::Piece),
        };
        let expected = "'.', 'X' or a piece letter";
        parse_rows(s, Self::HEIGHT, expected, cell, |x, y, c| {
            field.rows[y as usize][x] = c;
        })?;
        Ok(field)
    }
}

/// Writes the visible rows up to [`ColoredField::height`], top first, separated by
/// newlines (nothing for an empty field). The garbage row is not written.
impl fmt::Display for ColoredField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (0..self.height() as usize).rev() {
            for cell in self.rows[y] {
                write!(f, "{}", cell.to_char())?;
            }
            if y > 0 {
                f.write_str("\n")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for ColoredField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.to_string().replace('\n', "/");
        let garbage: String = self.garbage.iter().map(|c| c.to_char()).collect();
        write!(f, "ColoredField({rows:?}, garbage: {garbage:?})")
    }
}
