//! The move generator: every resting placement a piece can reach, computed for all
//! positions at once with bitboards.
//!
//! A position set holds, for each orientation, one word per column of rotation centres
//! (bit `y` of column `x`: the centre can be at `(x, y)`). Starting from where the piece
//! enters, the set grows by moving left, right and down inside the positions where the
//! piece fits, and by turning with kicks, until nothing new is reached.

use crate::error::SrsError;
use crate::kicks::{Kick, KickTable};
use crate::piece::{Orientation, Piece, Rotation};
use crate::placement::{CentrePos, Placement};
use crate::shape;
use pc_bitboard::{Board, WIDTH, Word};

/// One word per column: the rotation centres of a set of positions in one orientation.
pub(crate) type Columns<W> = [W; WIDTH];

/// How the piece may move before it locks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DropMode {
    /// Left, right, rotations with kicks and soft drop, at any height (sfinder's
    /// `softdrop`). Half turns are used when the kick table has them.
    #[default]
    Soft,
    /// Left, right and rotations above the field, then one hard drop (sfinder's `harddrop`).
    Hard,
}

/// Where the piece starts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Entry {
    /// Anywhere above the clear line, in any orientation: the perfect-clear model, where
    /// the rows above the clear line are empty. Placements must lock below the line.
    AboveClearLine(u32),
    /// At one position in spawn orientation (a game's spawn, see
    /// [`crate::guideline_spawn`]). Placements may lock anywhere on the board.
    Spawn(CentrePos),
}

/// The positions a piece can reach, one [`Columns`] per orientation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Reach<W: Word> {
    pub(crate) positions: [Columns<W>; 4],
    pub(crate) free: [Columns<W>; 4],
}

/// The placements found for one piece, as bit sets (no allocation). Iterate it, count it,
/// or ask whether it holds a placement. Every placement is reported once, in its canonical
/// orientation (spawn or right for I, S, Z; spawn for O).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveSet<W: Word = u32> {
    piece: Piece,
    sets: [Columns<W>; 4],
}

impl<W: Word> MoveSet<W> {
    /// The piece.
    pub fn piece(&self) -> Piece {
        self.piece
    }

    /// Number of placements.
    pub fn len(&self) -> usize {
        self.sets
            .iter()
            .flatten()
            .map(|c| c.count_ones() as usize)
            .sum()
    }

    /// Whether there is no placement.
    pub fn is_empty(&self) -> bool {
        self.sets.iter().flatten().all(|&c| c == W::ZERO)
    }

    /// Whether the placement (in any orientation covering the same cells) is in the set.
    pub fn contains(&self, placement: &Placement) -> bool {
        if placement.piece() != self.piece {
            return false;
        }
        let c = placement.canonical();
        let pos = c.centre();
        pos.y >= 0
            && (pos.y as u32) < W::BITS
            && self.sets[c.orientation() as usize][pos.x as usize].test(pos.y as u32)
    }

    /// The centres reachable in one orientation (bit `y` of word `x`); empty for
    /// orientations that are not canonical.
    pub fn centres(&self, orientation: Orientation) -> &[W; WIDTH] {
        &self.sets[orientation as usize]
    }

    /// The placements, by orientation, then column, then row.
    pub fn iter(&self) -> impl Iterator<Item = Placement> + '_ {
        let piece = self.piece;
        Orientation::ALL.into_iter().flat_map(move |o| {
            (0..WIDTH).flat_map(move |x| {
                let mut bits = self.sets[o as usize][x];
                core::iter::from_fn(move || {
                    if bits == W::ZERO {
                        return None;
                    }
                    let y = bits.trailing_zeros();
                    bits &= !W::bit(y);
                    Some(Placement::new_unchecked(piece, o, x as i32, y as i32))
                })
            })
        })
    }
}

/// Generates placements under one set of rules: a kick table and a drop mode.
///
/// ```
/// use pc_bitboard::Board32;
/// use pc_srs::{DropMode, KickTable, MoveGenerator, Piece};
///
/// let field: Board32 = "##.....###/###....###/####...###/###....###".parse().unwrap();
/// let srs = KickTable::srs();
/// let generator = MoveGenerator::new(&srs, DropMode::Soft);
/// let moves = generator.placements(&field, Piece::T, 4)?;
/// assert!(moves.len() > 0);
/// for placement in moves.iter() {
///     // Every placement rests below the clear line.
///     assert!(placement.rows().1 < 4);
///     assert!(placement.rests_on(&field));
/// }
/// # Ok::<(), pc_srs::SrsError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct MoveGenerator<'k> {
    kicks: &'k KickTable,
    drop: DropMode,
    /// Bit `p` set: piece `p` turns in place under this table ([`turns_in_place`]).
    in_place: u8,
}

impl<'k> MoveGenerator<'k> {
    /// A generator for a kick table and a drop mode.
    pub fn new(kicks: &'k KickTable, drop: DropMode) -> Self {
        let in_place = Piece::ALL
            .iter()
            .filter(|&&p| turns_in_place(kicks, p))
            .fold(0, |bits, &p| bits | 1 << p as u8);
        MoveGenerator {
            kicks,
            drop,
            in_place,
        }
    }

    /// The kick table.
    pub fn kicks(&self) -> &'k KickTable {
        self.kicks
    }

    /// The drop mode.
    pub fn drop_mode(&self) -> DropMode {
        self.drop
    }

    /// Every placement of `piece` that can be reached from above `clear_line` and locks
    /// entirely below it (the perfect-clear model).
    ///
    /// Errors when the clear line is 0 or leaves no room above it in the word
    /// (`clear_line + 4 > W::BITS`), or when the field has cells at or above the line.
    pub fn placements<W: Word>(
        &self,
        field: &Board<W>,
        piece: Piece,
        clear_line: u32,
    ) -> Result<MoveSet<W>, SrsError> {
        check_field(field, clear_line)?;
        Ok(self.generate(field, piece, Entry::AboveClearLine(clear_line)))
    }

    /// Every placement of `piece` reachable from a spawn position, locking anywhere on the
    /// board (the model of a game). Empty when the piece cannot spawn there.
    pub fn placements_from_spawn<W: Word>(
        &self,
        board: &Board<W>,
        piece: Piece,
        spawn: CentrePos,
    ) -> Result<MoveSet<W>, SrsError> {
        check_spawn::<W>(piece, spawn)?;
        Ok(self.generate(board, piece, Entry::Spawn(spawn)))
    }

    /// Whether one placement can be reached and locks (perfect-clear model).
    pub fn is_reachable<W: Word>(
        &self,
        field: &Board<W>,
        placement: &Placement,
        clear_line: u32,
    ) -> Result<bool, SrsError> {
        check_field(field, clear_line)?;
        if self.drops_or_slides_in(field, placement, clear_line) {
            return Ok(true);
        }
        Ok(self
            .placements(field, placement.piece(), clear_line)?
            .contains(placement))
    }

    /// Whether a placement below the clear line is reached without a turn near the
    /// stack: by a straight drop ([`drops_straight`]), or, with [`DropMode::Soft`], by a
    /// straight drop next to it and a slide along its rows (a tuck under an overhang).
    /// Either path is a real one, so `true` means reachable; `false` says nothing about
    /// paths with turns or kicks. It takes a few bit operations and no move generation.
    ///
    /// ```
    /// use pc_bitboard::Board32;
    /// use pc_srs::{DropMode, KickTable, MoveGenerator, Orientation, Piece};
    ///
    /// let field: Board32 = "##......../........../........../#########.".parse()?;
    /// let srs = KickTable::srs();
    /// let soft = MoveGenerator::new(&srs, DropMode::Soft);
    /// let tucked = Piece::O.with(Orientation::Spawn).at(0, 1)?;
    /// // Dropped at columns 2 and 3, then slid left under the overhang.
    /// assert!(soft.drops_or_slides_in(&field, &tucked, 4));
    /// assert!(soft.is_reachable(&field, &tucked, 4)?);
    /// // A hard drop cannot slide.
    /// assert!(!MoveGenerator::new(&srs, DropMode::Hard).drops_or_slides_in(&field, &tucked, 4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn drops_or_slides_in<W: Word>(
        &self,
        field: &Board<W>,
        placement: &Placement,
        clear_line: u32,
    ) -> bool {
        if drops_straight(field, placement, clear_line) {
            return true;
        }
        if self.drop != DropMode::Soft || !placement.rests_on(field) {
            return false;
        }
        let cells = placement.cells();
        if cells.iter().any(|&(_, y)| u32::from(y) >= clear_line) {
            return false;
        }
        let below_line = W::low_mask(clear_line);
        // Every cell of the piece shifted by `dx` is on the board and empty; `open`: and
        // nothing is above any of them below the line, so the piece can drop there.
        let at = |dx: i32| -> (bool, bool) {
            let mut open = true;
            for &(x, y) in &cells {
                let cx = i32::from(x) + dx;
                if !(0..WIDTH as i32).contains(&cx) {
                    return (false, false);
                }
                let column = field.column(cx as usize);
                if column & W::bit(u32::from(y)) != W::ZERO {
                    return (false, false);
                }
                open &= column & below_line & !W::low_mask(u32::from(y) + 1) == W::ZERO;
            }
            (true, open)
        };
        for step in [-1, 1] {
            let mut dx = step;
            loop {
                match at(dx) {
                    (false, _) => break,
                    (true, true) => return true,
                    (true, false) => dx += step,
                }
            }
        }
        false
    }

    /// The generator for already validated input.
    pub(crate) fn generate<W: Word>(
        &self,
        board: &Board<W>,
        piece: Piece,
        entry: Entry,
    ) -> MoveSet<W> {
        if let Entry::AboveClearLine(line) = entry {
            if self.in_place & (1 << piece as u8) != 0 {
                return self.in_place_placements(board, piece, line);
            }
        }
        let reach = self.reach(board, piece, entry);
        let mut sets = [[W::ZERO; WIDTH]; 4];
        let orientations: &[Orientation] = if self.in_place & (1 << piece as u8) != 0 {
            // Only the spawn orientation is searched (see `reach`).
            &[Orientation::Spawn]
        } else {
            &Orientation::ALL
        };
        for &o in orientations {
            let r = o as usize;
            let mut rest = [W::ZERO; WIDTH];
            let lock = match entry {
                Entry::AboveClearLine(line) => {
                    let (_, _, _, max_dy) = shape::bounds(piece, o);
                    W::low_mask((line as i32 - max_dy as i32).max(0) as u32)
                }
                Entry::Spawn(_) => W::ONES,
            };
            for x in 0..WIDTH {
                // A position rests when the one below it is not free (block or floor).
                rest[x] = reach.positions[r][x] & !(reach.free[r][x] << 1) & lock;
            }
            let (co, (dx, dy)) = shape::canonical(piece, o);
            merge_shifted(&mut sets[co as usize], &rest, dx as i32, dy as i32);
        }
        MoveSet { piece, sets }
    }

    /// [`MoveGenerator::generate`] from above the clear line for a piece that turns in
    /// place (O): one orientation, straight drops from the open space and, with soft drop,
    /// slides; no turn adds anything, so no rotation search.
    fn in_place_placements<W: Word>(
        &self,
        board: &Board<W>,
        piece: Piece,
        line: u32,
    ) -> MoveSet<W> {
        let o = Orientation::Spawn;
        let free = free_in(&Walled::new(board), piece, o);
        let (_, _, min_dy, max_dy) = shape::bounds(piece, o);
        let open = (line as i32 - min_dy as i32).max(0) as u32;
        let mut positions = drop_from_above(&free, open);
        if self.drop == DropMode::Soft {
            spread(&mut positions, &free, true, open, true);
        }
        let lock = W::low_mask((line as i32 - max_dy as i32).max(0) as u32);
        let mut rest = [W::ZERO; WIDTH];
        for x in 0..WIDTH {
            rest[x] = positions[x] & !(free[x] << 1) & lock;
        }
        let mut sets = [[W::ZERO; WIDTH]; 4];
        let (co, (dx, dy)) = shape::canonical(piece, o);
        merge_shifted(&mut sets[co as usize], &rest, dx as i32, dy as i32);
        MoveSet { piece, sets }
    }

    /// All positions (resting or not) the piece can reach.
    pub(crate) fn reach<W: Word>(&self, board: &Board<W>, piece: Piece, entry: Entry) -> Reach<W> {
        let in_place = self.in_place & (1 << piece as u8) != 0;
        let orientations: &[Orientation] = if in_place {
            // O turns in place: one orientation holds every placement, turning adds none.
            &[Orientation::Spawn]
        } else {
            &Orientation::ALL
        };
        // Built in place and returned as it is.
        let mut reach = Reach {
            positions: [[W::ZERO; WIDTH]; 4],
            free: [[W::ZERO; WIDTH]; 4],
        };
        let Reach { positions, free } = &mut reach;
        let walled = Walled::new(board);
        for &o in orientations {
            free[o as usize] = free_in(&walled, piece, o);
        }
        let soft = self.drop == DropMode::Soft;
        // Per orientation, the lowest centre row whose cells are all at or above the clear
        // line (perfect-clear entry): every free position from there up is known at once.
        let mut open_from: Option<[u32; 4]> = None;
        // How far down a newly reached position may fall: with the perfect-clear entry every
        // new one is below the open space.
        let mut fall = W::BITS;
        match entry {
            Entry::AboveClearLine(line) => {
                let mut rows = [0; 4];
                for &o in orientations {
                    let (_, _, min_dy, _) = shape::bounds(piece, o);
                    // The open space, and a straight drop from it.
                    let open = (line as i32 - min_dy as i32).max(0) as u32;
                    rows[o as usize] = open;
                    positions[o as usize] = drop_from_above(&free[o as usize], open);
                }
                open_from = Some(rows);
                fall = rows.into_iter().max().unwrap_or(0);
                if !soft || in_place {
                    // Hard drop: turned and shifted high above the field, then dropped
                    // straight down. A piece that turns in place only slides further.
                    if soft {
                        spread(&mut positions[0], &free[0], true, fall, true);
                    }
                    return reach;
                }
            }
            Entry::Spawn(pos) => {
                let (x, y) = (pos.x as usize, pos.y as u32);
                positions[0][x] = W::bit(y) & free[0][x];
            }
        }
        let mut turned = [[W::ZERO; WIDTH]; 4];
        let mut dirty = [true; 4];
        // The perfect-clear entry starts from positions that have fallen already.
        let mut fallen = open_from.is_some();
        while dirty.iter().any(|&d| d) {
            for &o in orientations {
                if dirty[o as usize] {
                    let r = o as usize;
                    spread(&mut positions[r], &free[r], soft, fall, fallen);
                }
            }
            fallen = false;
            let todo = dirty;
            dirty = [false; 4];
            for &o in orientations {
                let r = o as usize;
                if !todo[r] {
                    continue;
                }
                let mut fresh = [W::ZERO; WIDTH];
                let mut any = W::ZERO;
                for x in 0..WIDTH {
                    fresh[x] = positions[r][x] & !turned[r][x];
                    turned[r][x] |= fresh[x];
                    any |= fresh[x];
                }
                if any == W::ZERO || in_place {
                    continue;
                }
                for rotation in Rotation::ALL {
                    let to = o.rotate(rotation);
                    let kicks = self.kicks.kicks(piece, o, to);
                    if kicks.is_empty() {
                        continue;
                    }
                    // A position at or above row `open - lowest kick` turns into the open
                    // space whatever offset it takes: nothing new.
                    let band = open_from.map_or(W::ONES, |rows| {
                        let low = kicks.iter().map(|k| i32::from(k.y)).min().unwrap_or(0);
                        W::low_mask((rows[to as usize] as i32 - low).max(0) as u32)
                    });
                    if turn(
                        &fresh,
                        band,
                        kicks,
                        &free[to as usize],
                        &mut positions[to as usize],
                    ) {
                        dirty[to as usize] = true;
                    }
                }
            }
        }
        if !soft {
            // Hard drop from wherever the piece was turned and shifted to.
            for r in 0..4 {
                for x in 0..WIDTH {
                    positions[r][x] = fill_down(positions[r][x], free[r][x]);
                }
            }
        }
        reach
    }
}

/// Whether every turn of `piece` keeps its cells where they are (O under SRS and most
/// tables): then one orientation is enough to find every placement.
fn turns_in_place(kicks: &KickTable, piece: Piece) -> bool {
    Orientation::ALL.iter().all(|&from| {
        Orientation::ALL.iter().all(|&to| {
            let list = kicks.kicks(piece, from, to);
            let (fc, (fx, fy)) = shape::canonical(piece, from);
            let (tc, (tx, ty)) = shape::canonical(piece, to);
            // Turning in place: the first offset maps `from` onto the same cells (and then
            // always fits).
            from == to
                || list.is_empty()
                || (fc == tc && (list[0].x, list[0].y) == (fx - tx, fy - ty))
        })
    })
}

pub(crate) fn check_field<W: Word>(field: &Board<W>, clear_line: u32) -> Result<(), SrsError> {
    let max = W::BITS - 4;
    if clear_line == 0 || clear_line > max {
        return Err(SrsError::ClearLineOutOfRange { clear_line, max });
    }
    if field.has_cells_at_or_above(clear_line) {
        return Err(SrsError::FieldAboveClearLine {
            row: field.height() - 1,
            clear_line,
        });
    }
    Ok(())
}

pub(crate) fn check_spawn<W: Word>(piece: Piece, spawn: CentrePos) -> Result<(), SrsError> {
    let (x0, x1, y0, y1) = shape::bounds(piece, Orientation::Spawn);
    let ok = spawn.x + x0 as i32 >= 0
        && spawn.x + (x1 as i32) < WIDTH as i32
        && spawn.y + y0 as i32 >= 0
        && ((spawn.y + y1 as i32) as u32) < W::BITS;
    if ok {
        Ok(())
    } else {
        Err(SrsError::SpawnOffBoard {
            x: spawn.x,
            y: spawn.y,
        })
    }
}

/// Whether a placement below the clear line rests and every column above its cells is
/// open up to the line: then the piece, turned above the line, falls straight into it,
/// whatever the kick table or drop mode (perfect-clear model), so it is reachable. Most
/// placements of a perfect clear are like this, and the test is a few bit operations
/// instead of a move generation; `false` says nothing about other ways in.
///
/// ```
/// use pc_bitboard::Board32;
/// use pc_srs::{Orientation, Piece, drops_straight};
///
/// let field: Board32 = "#........./#.#.######".parse()?;
/// let flat = Piece::T.with(Orientation::Reverse).at(3, 1)?;
/// assert!(drops_straight(&field, &flat, 4));
/// // Under the overhang at the top left: only a slide gets there.
/// let tucked = Piece::T.with(Orientation::Spawn).at(1, 1)?;
/// assert!(!drops_straight(&field, &tucked, 4));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn drops_straight<W: Word>(field: &Board<W>, placement: &Placement, clear_line: u32) -> bool {
    let below_line = W::low_mask(clear_line);
    placement.rests_on(field)
        && placement.cells().iter().all(|&(x, y)| {
            let above = below_line & !W::low_mask(u32::from(y) + 1);
            u32::from(y) < clear_line && field.column(usize::from(x)) & above == W::ZERO
        })
}

/// The centres where the piece fits in one orientation, with every cell inside the
/// board's columns, above the floor and below the top of the word.
pub(crate) fn free_positions<W: Word>(
    board: &Board<W>,
    piece: Piece,
    o: Orientation,
) -> Columns<W> {
    free_in(&Walled::new(board), piece, o)
}

/// Cells of a piece reach at most this many columns left or right of its centre.
const REACH_X: usize = 2;

const _: () = {
    // Every window of a walled board stays inside it.
    let mut p = 0;
    while p < 7 {
        let mut o = 0;
        while o < 4 {
            let (min_dx, max_dx, _, _) = shape::bounds(Piece::ALL[p], Orientation::ALL[o]);
            assert!(-min_dx as usize <= REACH_X && max_dx as usize <= REACH_X);
            o += 1;
        }
        p += 1;
    }
};

/// A board's columns with [`REACH_X`] filled columns on each side, so that the columns a
/// cell covers are a fixed-length window whatever its offset.
struct Walled<W: Word>([W; WIDTH + 2 * REACH_X]);

impl<W: Word> Walled<W> {
    fn new(board: &Board<W>) -> Self {
        let mut cols = [W::ONES; WIDTH + 2 * REACH_X];
        cols[REACH_X..REACH_X + WIDTH].copy_from_slice(board.columns());
        Walled(cols)
    }

    /// The columns `x + dx` for `x` in `0..WIDTH`.
    #[inline]
    fn window(&self, dx: i8) -> &[W; WIDTH] {
        let start = (REACH_X as isize + dx as isize) as usize;
        self.0[start..start + WIDTH]
            .try_into()
            .expect("a window is WIDTH columns")
    }
}

/// [`free_positions`] on a walled board.
#[inline]
fn free_in<W: Word>(board: &Walled<W>, piece: Piece, o: Orientation) -> Columns<W> {
    let (_, _, _, max_dy) = shape::bounds(piece, o);
    // Rows from which every cell stays below the top of the word. Outside the walls the
    // filled columns block every row below that.
    let mut out = [W::low_mask(W::BITS - max_dy.max(0) as u32); WIDTH];
    for (dx, dy) in shape::cells(piece, o) {
        let src = board.window(dx);
        // Bit y of the blocked word is the cell (x + dx, y + dy); below the floor counts
        // as blocked.
        if dy >= 0 {
            let up = dy as u32;
            for x in 0..WIDTH {
                out[x] &= !(src[x] >> up);
            }
        } else {
            let down = (-dy) as u32;
            let floor = W::low_mask(down);
            for x in 0..WIDTH {
                out[x] &= !((src[x] << down) | floor);
            }
        }
    }
    out
}

/// What a straight drop from every free position at or above row `open` reaches: those
/// positions and the free runs below them.
#[inline]
fn drop_from_above<W: Word>(free: &Columns<W>, open: u32) -> Columns<W> {
    let above = !W::low_mask(open);
    let mut reached = free.map(|f| f & above);
    let mut room = *free;
    // A log-step fill, one step for all columns at a time: falls of up to `open` rows.
    let mut step = 1;
    while step <= open {
        for x in 0..WIDTH {
            reached[x] |= room[x] & (reached[x] >> step);
            room[x] &= room[x] >> step;
        }
        step <<= 1;
    }
    reached
}

/// Every position below a seed that the piece can fall to without leaving `free`
/// (a log-step occluded fill).
#[inline]
pub(crate) fn fill_down<W: Word>(seed: W, free: W) -> W {
    fall_within(seed, free, W::BITS)
}

/// [`fill_down`] for seeds that fall fewer than `rows` rows (fewer steps).
#[inline]
fn fall_within<W: Word>(seed: W, free: W, rows: u32) -> W {
    let mut reached = seed & free;
    let mut open = free;
    let mut step = 1;
    while step < rows {
        reached |= open & (reached >> step);
        open &= open >> step;
        step <<= 1;
    }
    reached
}

/// Grows a position set by left, right (and down when `soft`) moves inside `free`. A new
/// position falls fewer than `fall` rows; `fallen`: the set has fallen as far as it can.
#[inline]
fn spread<W: Word>(
    positions: &mut Columns<W>,
    free: &Columns<W>,
    soft: bool,
    fall: u32,
    fallen: bool,
) {
    if soft && !fallen {
        // One log step for all columns at a time.
        let mut room = *free;
        for x in 0..WIDTH {
            positions[x] &= free[x];
        }
        let mut step = 1;
        while step < fall {
            for x in 0..WIDTH {
                positions[x] |= room[x] & (positions[x] >> step);
                room[x] &= room[x] >> step;
            }
            step <<= 1;
        }
    }
    // Often nothing slides anywhere (every position is reached by a straight drop): one
    // test of all columns at once instead of the sweeps.
    let mut slides = W::ZERO;
    for x in 0..WIDTH {
        let left = if x > 0 { positions[x - 1] } else { W::ZERO };
        let right = if x + 1 < WIDTH {
            positions[x + 1]
        } else {
            W::ZERO
        };
        slides |= (left | right) & free[x] & !positions[x];
    }
    if slides == W::ZERO {
        return;
    }
    loop {
        let mut changed = false;
        let mut grow = |positions: &mut Columns<W>, from: usize, to: usize| {
            let new = positions[from] & free[to] & !positions[to];
            if new != W::ZERO {
                let grown = positions[to] | new;
                positions[to] = if soft {
                    fall_within(grown, free[to], fall)
                } else {
                    grown
                };
                changed = true;
            }
        };
        for x in 1..WIDTH {
            grow(positions, x - 1, x);
        }
        for x in (0..WIDTH - 1).rev() {
            grow(positions, x + 1, x);
        }
        if !changed {
            break;
        }
    }
}

/// Turns every position of `from` below `band` with the kick list, trying each offset
/// in order and stopping at the first that fits; adds the results to `to`. Returns whether
/// `to` grew.
#[inline]
fn turn<W: Word>(
    from: &Columns<W>,
    band: W,
    kicks: &[Kick],
    free_to: &Columns<W>,
    to: &mut Columns<W>,
) -> bool {
    // Free positions not reached yet: the only ones a turn can add.
    let mut unknown = W::ZERO;
    for x in 0..WIDTH {
        unknown |= free_to[x] & !to[x];
    }
    if unknown == W::ZERO {
        return false;
    }
    let mut trying = from.map(|c| c & band);
    let mut grew = W::ZERO;
    for kick in kicks {
        let (kx, ky) = (i32::from(kick.x), i32::from(kick.y));
        if kx.unsigned_abs() as usize >= WIDTH || ky.unsigned_abs() >= W::BITS {
            // Nothing fits this far away.
            continue;
        }
        // Source columns whose target column is on the board.
        let lo = (-kx).max(0) as usize;
        let hi = (WIDTH as i32 - kx.max(0)) as usize;
        let tlo = (lo as i32 + kx) as usize;
        let (src, dst, free) = (
            &mut trying[lo..hi],
            &mut to[tlo..tlo + (hi - lo)],
            &free_to[tlo..tlo + (hi - lo)],
        );
        if ky >= 0 {
            let up = ky as u32;
            for ((t, d), &f) in src.iter_mut().zip(dst.iter_mut()).zip(free) {
                let fits = (*t << up) & f;
                grew |= fits & !*d;
                *d |= fits;
                // Positions whose turn succeeded stop trying further offsets.
                *t &= !(fits >> up);
            }
        } else {
            let down = (-ky) as u32;
            for ((t, d), &f) in src.iter_mut().zip(dst.iter_mut()).zip(free) {
                let fits = (*t >> down) & f;
                grew |= fits & !*d;
                *d |= fits;
                *t &= !(fits << down);
            }
        }
        if trying.iter().fold(W::ZERO, |a, &t| a | t) == W::ZERO {
            break;
        }
    }
    grew != W::ZERO
}

#[inline]
pub(crate) fn shift<W: Word>(w: W, dy: i32) -> W {
    if dy >= 0 {
        w.shl_or_zero(dy as u32)
    } else {
        w.shr_or_zero((-dy) as u32)
    }
}

/// `dst[x + dx] |= src[x] shifted by dy`.
#[inline]
fn merge_shifted<W: Word>(dst: &mut Columns<W>, src: &Columns<W>, dx: i32, dy: i32) {
    if (dx, dy) == (0, 0) {
        for x in 0..WIDTH {
            dst[x] |= src[x];
        }
        return;
    }
    for x in 0..WIDTH {
        let tx = x as i32 + dx;
        if (0..WIDTH as i32).contains(&tx) {
            dst[tx as usize] |= shift(src[x], dy);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pc_bitboard::Board32;

    #[test]
    fn fill_down_stops_at_blocks() {
        let free: u32 = 0b1110_1111;
        assert_eq!(fill_down(0b1000_0000u32, free), 0b1110_0000);
        assert_eq!(fill_down(0b0000_1000u32, free), 0b0000_1111);
        assert_eq!(fill_down(0u32, free), 0);
    }

    #[test]
    fn empty_field_counts() {
        let srs = KickTable::srs();
        let g = MoveGenerator::new(&srs, DropMode::Soft);
        let b = Board32::new();
        let counts: Vec<usize> = Piece::ALL
            .iter()
            .map(|&p| g.placements(&b, p, 4).unwrap().len())
            .collect();
        // I: 7 flat + 10 upright; J, L, T: 8 + 9 + 8 + 9; O: 9; S, Z: 8 + 9.
        assert_eq!(counts, vec![17, 34, 34, 9, 17, 34, 17]);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        /// The in-place shortcut (O: one orientation, no rotation search) finds what the
        /// full search over four orientations and every turn finds.
        #[test]
        fn in_place_shortcut_equals_full_search(
            rows in proptest::collection::vec(0u16..1024, 1..8),
            extra in 0u32..3,
            table in 0usize..5,
            hard in proptest::bool::ANY,
        ) {
            let mut board = Board32::new();
            for (y, &r) in rows.iter().enumerate() {
                board.set_row(y as u32, r);
            }
            let line = rows.len() as u32 + extra;
            let kicks = KickTable::by_name(KickTable::BUILTIN_NAMES[table]).unwrap();
            let drop = if hard { DropMode::Hard } else { DropMode::Soft };
            let fast = MoveGenerator::new(&kicks, drop);
            proptest::prop_assert!(fast.in_place & 1 << Piece::O as u8 != 0);
            let full = MoveGenerator { in_place: 0, ..fast };
            let a = fast.placements(&board, Piece::O, line).unwrap();
            let b = full.placements(&board, Piece::O, line).unwrap();
            proptest::prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn only_o_turns_in_place() {
        for name in KickTable::BUILTIN_NAMES {
            let kicks = KickTable::by_name(name).unwrap();
            let g = MoveGenerator::new(&kicks, DropMode::Soft);
            assert_eq!(g.in_place, 1 << Piece::O as u8, "{name}");
        }
        // A table that moves O when it turns needs the search.
        let mut moved = KickTable::srs();
        let kick = Kick {
            x: 1,
            y: 0,
            upgrades_mini: false,
        };
        moved.set(
            Piece::O,
            Orientation::Spawn,
            Orientation::Right,
            crate::KickList::new(&[kick]).unwrap(),
        );
        assert_eq!(MoveGenerator::new(&moved, DropMode::Soft).in_place, 0);
    }

    #[test]
    fn errors() {
        let srs = KickTable::srs();
        let g = MoveGenerator::new(&srs, DropMode::Soft);
        let b: Board32 = "#.........\n..........".parse().unwrap();
        assert_eq!(
            g.placements(&b, Piece::T, 1),
            Err(SrsError::FieldAboveClearLine {
                row: 1,
                clear_line: 1
            })
        );
        assert!(matches!(
            g.placements(&b, Piece::T, 0),
            Err(SrsError::ClearLineOutOfRange { .. })
        ));
        assert!(matches!(
            g.placements(&b, Piece::T, 29),
            Err(SrsError::ClearLineOutOfRange { max: 28, .. })
        ));
        assert!(g.placements(&b, Piece::T, 28).is_ok());
    }
}
