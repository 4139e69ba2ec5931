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
}

impl<'k> MoveGenerator<'k> {
    /// A generator for a kick table and a drop mode.
    pub fn new(kicks: &'k KickTable, drop: DropMode) -> Self {
        MoveGenerator { kicks, drop }
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
        let reach = self.reach(board, piece, entry);
        let mut sets = [[W::ZERO; WIDTH]; 4];
        for o in Orientation::ALL {
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

    /// All positions (resting or not) the piece can reach.
    pub(crate) fn reach<W: Word>(&self, board: &Board<W>, piece: Piece, entry: Entry) -> Reach<W> {
        let in_place = self.turns_in_place(piece);
        let free: [Columns<W>; 4] = Orientation::ALL.map(|o| {
            if in_place && o != Orientation::Spawn {
                [W::ZERO; WIDTH]
            } else {
                free_positions(board, piece, o)
            }
        });
        let mut positions = [[W::ZERO; WIDTH]; 4];
        match entry {
            Entry::AboveClearLine(line) => {
                for o in Orientation::ALL {
                    let (_, _, min_dy, _) = shape::bounds(piece, o);
                    // Centres whose lowest cell is at or above the line: the open space.
                    let above = !W::low_mask((line as i32 - min_dy as i32).max(0) as u32);
                    for x in 0..WIDTH {
                        positions[o as usize][x] = free[o as usize][x] & above;
                    }
                }
                if self.drop == DropMode::Hard {
                    // Turned and shifted high above the field, then dropped straight down.
                    for r in 0..4 {
                        for x in 0..WIDTH {
                            positions[r][x] = fill_down(positions[r][x], free[r][x]);
                        }
                    }
                    return Reach { positions, free };
                }
            }
            Entry::Spawn(pos) => {
                let (x, y) = (pos.x as usize, pos.y as u32);
                positions[0][x] = W::bit(y) & free[0][x];
            }
        }
        let soft = self.drop == DropMode::Soft;
        let orientations: &[Orientation] = if in_place {
            // O turns in place: one orientation holds every placement, turning adds none.
            &[Orientation::Spawn]
        } else {
            &Orientation::ALL
        };
        let mut turned = [[W::ZERO; WIDTH]; 4];
        let mut dirty = [true; 4];
        while dirty.iter().any(|&d| d) {
            for &o in orientations {
                if dirty[o as usize] {
                    spread(&mut positions[o as usize], &free[o as usize], soft);
                }
            }
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
                if any == W::ZERO || orientations.len() == 1 {
                    continue;
                }
                for rotation in Rotation::ALL {
                    let to = o.rotate(rotation);
                    let kicks = self.kicks.kicks(piece, o, to);
                    if !kicks.is_empty()
                        && turn(
                            &fresh,
                            kicks,
                            &free[to as usize],
                            &mut positions[to as usize],
                        )
                    {
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
        Reach { positions, free }
    }
}

impl MoveGenerator<'_> {
    /// Whether every turn of `piece` keeps its cells where they are (O under SRS and
    /// most tables): then one orientation is enough to find every placement.
    fn turns_in_place(&self, piece: Piece) -> bool {
        piece == Piece::O
            && Orientation::ALL.iter().all(|&from| {
                Orientation::ALL.iter().all(|&to| {
                    let kicks = self.kicks.kicks(piece, from, to);
                    let (_, (fx, fy)) = shape::canonical(piece, from);
                    let (_, (tx, ty)) = shape::canonical(piece, to);
                    // Turning in place: the first offset maps `from` onto the same cells.
                    from == to || kicks.is_empty() || (kicks[0].x, kicks[0].y) == (fx - tx, fy - ty)
                })
            })
    }
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
    let cells = shape::cells(piece, o);
    let (_, _, _, max_dy) = shape::bounds(piece, o);
    let inside = W::low_mask(W::BITS - max_dy.max(0) as u32);
    let mut out = [W::ZERO; WIDTH];
    for (x, slot) in out.iter_mut().enumerate() {
        let mut fits = inside;
        for &(dx, dy) in &cells {
            let cx = x as i32 + dx as i32;
            if !(0..WIDTH as i32).contains(&cx) {
                fits = W::ZERO;
                break;
            }
            let col = board.column(cx as usize);
            // Bit y of `blocked` is the cell (cx, y + dy); below the floor counts as blocked.
            let blocked = if dy >= 0 {
                col.shr_or_zero(dy as u32)
            } else {
                let d = (-dy) as u32;
                col.shl_or_zero(d) | W::low_mask(d)
            };
            fits &= !blocked;
        }
        *slot = fits;
    }
    out
}

/// Every position below a seed that the piece can fall to without leaving `free`
/// (a log-step occluded fill).
#[inline]
pub(crate) fn fill_down<W: Word>(seed: W, free: W) -> W {
    let mut reached = seed & free;
    let mut open = free;
    let mut step = 1;
    while step < W::BITS {
        reached |= open & (reached >> step);
        open &= open >> step;
        step <<= 1;
    }
    reached
}

/// Grows a position set by left, right (and down when `soft`) moves inside `free`.
#[inline]
fn spread<W: Word>(positions: &mut Columns<W>, free: &Columns<W>, soft: bool) {
    if soft {
        for x in 0..WIDTH {
            positions[x] = fill_down(positions[x], free[x]);
        }
    }
    loop {
        let mut changed = false;
        let mut grow = |positions: &mut Columns<W>, from: usize, to: usize| {
            let new = positions[from] & free[to] & !positions[to];
            if new != W::ZERO {
                let grown = positions[to] | new;
                positions[to] = if soft {
                    fill_down(grown, free[to])
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

/// Turns every position of `from` with the kick list, trying each offset in order and
/// stopping at the first that fits; adds the results to `to`. Returns whether `to` grew.
#[inline]
fn turn<W: Word>(
    from: &Columns<W>,
    kicks: &[Kick],
    free_to: &Columns<W>,
    to: &mut Columns<W>,
) -> bool {
    let mut trying = *from;
    let mut grew = false;
    for kick in kicks {
        let mut left = W::ZERO;
        for x in 0..WIDTH {
            let tx = x as i32 + kick.x as i32;
            if trying[x] == W::ZERO || !(0..WIDTH as i32).contains(&tx) {
                left |= trying[x];
                continue;
            }
            let tx = tx as usize;
            let moved = shift(trying[x], kick.y as i32);
            let fits = moved & free_to[tx];
            if fits & !to[tx] != W::ZERO {
                to[tx] |= fits;
                grew = true;
            }
            // Positions whose turn succeeded stop trying further offsets.
            trying[x] &= !shift(fits, -(kick.y as i32));
            left |= trying[x];
        }
        if left == W::ZERO {
            break;
        }
    }
    grew
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
