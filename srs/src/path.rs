//! Input paths: the keys that bring a piece from its spawn to a placement, and the
//! rotations that can end in a placement (what the T-spin rule asks).

use crate::error::SrsError;
use crate::kicks::KickTable;
use crate::movegen::{
    Columns, DropMode, Entry, MoveGenerator, check_field, check_spawn, free_positions,
};
use crate::piece::{Orientation, Piece, Rotation};
use crate::placement::{CentrePos, Placement};
use crate::shape;
use core::fmt;
use pc_bitboard::{Board, WIDTH, Word};
use smallvec::SmallVec;

/// One key press.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Input {
    /// Move one column left.
    Left,
    /// Move one column right.
    Right,
    /// Turn clockwise.
    Cw,
    /// Turn counter-clockwise.
    Ccw,
    /// Turn 180°.
    Half,
    /// Soft drop by one row.
    Down,
    /// Soft drop to the lowest reachable row without locking.
    SoftDrop,
    /// Drop to the lowest row and lock.
    HardDrop,
}

impl Input {
    /// A short name: `L`, `R`, `cw`, `ccw`, `180`, `d`, `sd`, `hd`.
    pub const fn short_name(self) -> &'static str {
        match self {
            Input::Left => "L",
            Input::Right => "R",
            Input::Cw => "cw",
            Input::Ccw => "ccw",
            Input::Half => "180",
            Input::Down => "d",
            Input::SoftDrop => "sd",
            Input::HardDrop => "hd",
        }
    }

    const fn rotation(self) -> Option<Rotation> {
        match self {
            Input::Cw => Some(Rotation::Cw),
            Input::Ccw => Some(Rotation::Ccw),
            Input::Half => Some(Rotation::Half),
            _ => None,
        }
    }
}

/// A rotation that ends in a placement: which turn, and which offset of the kick list
/// (0 is the first offset tried).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Turn {
    /// The rotation made.
    pub rotation: Rotation,
    /// The orientation turned from.
    pub from: Orientation,
    /// Index of the offset used in the kick list.
    pub kick_index: u8,
    /// Whether that offset makes a T-spin mini count as full.
    pub upgrades_mini: bool,
}

/// The keys for one placement, ending with [`Input::HardDrop`].
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Path {
    inputs: SmallVec<[Input; 16]>,
    last_turn: Option<Turn>,
}

impl Path {
    /// The keys, in order; the last is always [`Input::HardDrop`].
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// The rotation just before the hard drop, when the piece did not move after it.
    pub fn last_turn(&self) -> Option<Turn> {
        self.last_turn
    }

    /// Plays the keys from `spawn` (in spawn orientation) and returns where the piece locks,
    /// or `None` if a key is impossible (a move into a block, a turn no offset allows).
    pub fn replay<W: Word>(
        &self,
        board: &Board<W>,
        piece: Piece,
        kicks: &KickTable,
        spawn: CentrePos,
    ) -> Option<Placement> {
        replay(&self.inputs, board, piece, kicks, spawn)
    }
}

impl fmt::Display for Path {
    /// The keys separated by spaces: `L L cw sd hd`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, input) in self.inputs.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(input.short_name())?;
        }
        Ok(())
    }
}

/// Where the guideline spawns pieces on a board with `visible_rows` rows (20 in modern
/// games): rotation centre at column 4, row `visible_rows`, in spawn orientation, so every
/// piece spawns in the two rows above the visible field.
pub const fn guideline_spawn(visible_rows: u32) -> CentrePos {
    CentrePos {
        x: 4,
        y: visible_rows as i32,
    }
}

/// The spawn used for paths in the perfect-clear model: the guideline spawn of a 20-row
/// board, raised if needed to stay two rows above the clear line.
pub const fn pc_spawn(clear_line: u32) -> CentrePos {
    let y = if clear_line + 2 > 20 {
        clear_line + 2
    } else {
        20
    };
    guideline_spawn(y)
}

/// A piece state during a search: orientation and rotation centre.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct State {
    o: Orientation,
    x: i32,
    y: i32,
}

struct Rules<'a, W: Word> {
    piece: Piece,
    kicks: &'a KickTable,
    free: [Columns<W>; 4],
}

impl<W: Word> Rules<'_, W> {
    fn fits(&self, o: Orientation, x: i32, y: i32) -> bool {
        (0..WIDTH as i32).contains(&x)
            && y >= 0
            && (y as u32) < W::BITS
            && self.free[o as usize][x as usize].test(y as u32)
    }

    /// The state after one key, or `None` when it cannot be pressed there.
    fn step(&self, s: State, input: Input) -> Option<(State, Option<Turn>)> {
        let moved = |x: i32, y: i32| self.fits(s.o, x, y).then_some((State { x, y, ..s }, None));
        match input {
            Input::Left => moved(s.x - 1, s.y),
            Input::Right => moved(s.x + 1, s.y),
            Input::Down => moved(s.x, s.y - 1),
            Input::SoftDrop | Input::HardDrop => {
                let y = self.drop_row(s);
                (y != s.y || input == Input::HardDrop).then_some((State { y, ..s }, None))
            }
            Input::Cw | Input::Ccw | Input::Half => {
                let rotation = input.rotation()?;
                let to = s.o.rotate(rotation);
                for (i, k) in self.kicks.kicks(self.piece, s.o, to).iter().enumerate() {
                    let (x, y) = (s.x + k.x as i32, s.y + k.y as i32);
                    if self.fits(to, x, y) {
                        let turn = Turn {
                            rotation,
                            from: s.o,
                            kick_index: i as u8,
                            upgrades_mini: k.upgrades_mini,
                        };
                        return Some((State { o: to, x, y }, Some(turn)));
                    }
                }
                None
            }
        }
    }

    fn drop_row(&self, s: State) -> i32 {
        let mut y = s.y;
        while self.fits(s.o, s.x, y - 1) {
            y -= 1;
        }
        y
    }

    fn placement(&self, s: State) -> Placement {
        Placement::new_unchecked(self.piece, s.o, s.x, s.y)
    }
}

fn rules<'a, W: Word>(board: &Board<W>, piece: Piece, kicks: &'a KickTable) -> Rules<'a, W> {
    Rules {
        piece,
        kicks,
        free: Orientation::ALL.map(|o| free_positions(board, piece, o)),
    }
}

fn replay<W: Word>(
    inputs: &[Input],
    board: &Board<W>,
    piece: Piece,
    kicks: &KickTable,
    spawn: CentrePos,
) -> Option<Placement> {
    let rules = rules(board, piece, kicks);
    let mut s = State {
        o: Orientation::Spawn,
        x: spawn.x,
        y: spawn.y,
    };
    if !rules.fits(s.o, s.x, s.y) {
        return None;
    }
    for (i, &input) in inputs.iter().enumerate() {
        s = rules.step(s, input)?.0;
        if input == Input::HardDrop {
            return (i + 1 == inputs.len()).then(|| rules.placement(s));
        }
    }
    None
}

impl MoveGenerator<'_> {
    /// The shortest key sequence (fewest presses; ties broken by the order left, right,
    /// cw, ccw, 180, soft drop, down) that brings `placement` from the perfect-clear spawn
    /// ([`pc_spawn`]) into place and locks it; `None` when it cannot be reached.
    ///
    /// ```
    /// use pc_bitboard::Board32;
    /// use pc_srs::{DropMode, KickTable, MoveGenerator, Orientation, Piece, pc_spawn};
    ///
    /// // A T-spin double slot under an overhang: the T must turn into it.
    /// let field: Board32 = "..#......./##...#####/###.######".parse().unwrap();
    /// let srs = KickTable::srs();
    /// let generator = MoveGenerator::new(&srs, DropMode::Soft);
    /// let tsd = Piece::T.with(Orientation::Reverse).at(3, 1).unwrap();
    /// let path = generator.path(&field, &tsd, 3)?.expect("reachable");
    /// assert_eq!(path.inputs().last(), Some(&pc_srs::Input::HardDrop));
    /// assert!(path.last_turn().is_some()); // it ends with a spin
    /// assert_eq!(path.replay(&field, Piece::T, &srs, pc_spawn(3)), Some(tsd));
    /// # Ok::<(), pc_srs::SrsError>(())
    /// ```
    pub fn path<W: Word>(
        &self,
        field: &Board<W>,
        placement: &Placement,
        clear_line: u32,
    ) -> Result<Option<Path>, SrsError> {
        check_field(field, clear_line)?;
        let (_, top) = placement.rows();
        if top >= clear_line || !placement.rests_on(field) {
            return Ok(None);
        }
        Ok(self.path_from(field, placement, pc_spawn(clear_line)))
    }

    /// The shortest key sequence from a spawn position, as [`MoveGenerator::path`].
    pub fn path_from_spawn<W: Word>(
        &self,
        board: &Board<W>,
        placement: &Placement,
        spawn: CentrePos,
    ) -> Result<Option<Path>, SrsError> {
        check_spawn::<W>(placement.piece(), spawn)?;
        if !placement.rests_on(board) {
            return Ok(None);
        }
        Ok(self.path_from(board, placement, spawn))
    }

    fn path_from<W: Word>(
        &self,
        board: &Board<W>,
        target: &Placement,
        spawn: CentrePos,
    ) -> Option<Path> {
        let rules = rules(board, target.piece(), self.kicks());
        let start = State {
            o: Orientation::Spawn,
            x: spawn.x,
            y: spawn.y,
        };
        if !rules.fits(start.o, start.x, start.y) {
            return None;
        }
        let rows = W::BITS as usize;
        let index = |s: State| (s.o as usize * WIDTH + s.x as usize) * rows + s.y as usize;
        // parent[i] = (index of the previous state + 1, input, turn); 0 = not seen.
        let mut parent: Vec<(u32, Input, Option<Turn>)> =
            vec![(0, Input::HardDrop, None); 4 * WIDTH * rows];
        parent[index(start)] = (u32::MAX, Input::HardDrop, None);
        let mut queue = std::collections::VecDeque::from([start]);
        let moves: &[Input] = match self.drop_mode() {
            DropMode::Soft => &[
                Input::Left,
                Input::Right,
                Input::Cw,
                Input::Ccw,
                Input::Half,
                Input::SoftDrop,
                Input::Down,
            ],
            DropMode::Hard => &[
                Input::Left,
                Input::Right,
                Input::Cw,
                Input::Ccw,
                Input::Half,
            ],
        };
        while let Some(s) = queue.pop_front() {
            let landed = State {
                y: rules.drop_row(s),
                ..s
            };
            if rules.placement(landed).same_cells(target) {
                let mut inputs: SmallVec<[Input; 16]> = SmallVec::new();
                let mut last_turn = None;
                let mut i = index(s);
                let mut first = true;
                while parent[i].0 != u32::MAX {
                    let (prev, input, turn) = parent[i];
                    if first && landed.y == s.y {
                        last_turn = turn;
                    }
                    first = false;
                    inputs.push(input);
                    i = prev as usize - 1;
                }
                inputs.reverse();
                inputs.push(Input::HardDrop);
                return Some(Path { inputs, last_turn });
            }
            for &input in moves {
                if let Some((next, turn)) = rules.step(s, input) {
                    let j = index(next);
                    if parent[j].0 == 0 {
                        parent[j] = (index(s) as u32 + 1, input, turn);
                        queue.push_back(next);
                    }
                }
            }
        }
        None
    }

    /// Every rotation that ends exactly in `placement` from a position the piece can
    /// reach (perfect-clear model): what the T-spin rule asks of the last move.
    ///
    /// ```
    /// use pc_bitboard::Board32;
    /// use pc_srs::{DropMode, KickTable, MoveGenerator, Orientation, Piece};
    ///
    /// let field: Board32 = "..#......./##...#####/###.######".parse().unwrap();
    /// let srs = KickTable::srs();
    /// let generator = MoveGenerator::new(&srs, DropMode::Soft);
    /// let tsd = Piece::T.with(Orientation::Reverse).at(3, 1).unwrap();
    /// let turns = generator.turns_into(&field, &tsd, 3)?;
    /// // Turned clockwise from right with the first offset.
    /// assert!(turns.iter().any(|t| t.from == Orientation::Right && t.kick_index == 0));
    /// # Ok::<(), pc_srs::SrsError>(())
    /// ```
    pub fn turns_into<W: Word>(
        &self,
        field: &Board<W>,
        placement: &Placement,
        clear_line: u32,
    ) -> Result<SmallVec<[Turn; 4]>, SrsError> {
        check_field(field, clear_line)?;
        Ok(self.turns_into_with(field, placement, Entry::AboveClearLine(clear_line)))
    }

    /// Every rotation that ends exactly in `placement` from a position the piece can
    /// reach from a spawn position (the game model of
    /// [`MoveGenerator::placements_from_spawn`]); empty in hard-drop mode, where a drop
    /// always follows the last turn.
    ///
    /// ```
    /// use pc_bitboard::Board32;
    /// use pc_srs::{DropMode, KickTable, MoveGenerator, Orientation, Piece, guideline_spawn};
    ///
    /// let field: Board32 = "..#......./##...#####/###.######".parse().unwrap();
    /// let srs = KickTable::srs();
    /// let generator = MoveGenerator::new(&srs, DropMode::Soft);
    /// let tsd = Piece::T.with(Orientation::Reverse).at(3, 1).unwrap();
    /// let turns = generator.turns_into_from_spawn(&field, &tsd, guideline_spawn(20))?;
    /// assert!(turns.iter().any(|t| t.from == Orientation::Right && t.kick_index == 0));
    /// # Ok::<(), pc_srs::SrsError>(())
    /// ```
    pub fn turns_into_from_spawn<W: Word>(
        &self,
        board: &Board<W>,
        placement: &Placement,
        spawn: CentrePos,
    ) -> Result<SmallVec<[Turn; 4]>, SrsError> {
        check_spawn::<W>(placement.piece(), spawn)?;
        Ok(self.turns_into_with(board, placement, Entry::Spawn(spawn)))
    }

    pub(crate) fn turns_into_with<W: Word>(
        &self,
        board: &Board<W>,
        placement: &Placement,
        entry: Entry,
    ) -> SmallVec<[Turn; 4]> {
        let piece = placement.piece();
        let reach = self.reach(board, piece, entry);
        let mut out = SmallVec::new();
        if self.drop_mode() == DropMode::Hard {
            return out;
        }
        let canon = placement.canonical();
        for to in Orientation::ALL {
            // The centre at which `to` covers the placement's cells, if it can.
            let (co, (dx, dy)) = shape::canonical(piece, to);
            if co != canon.orientation() {
                continue;
            }
            let (tx, ty) = (canon.centre().x - dx as i32, canon.centre().y - dy as i32);
            for from in Orientation::ALL {
                let Some(rotation) = Rotation::between(from, to) else {
                    continue;
                };
                let kicks = self.kicks().kicks(piece, from, to);
                for (i, k) in kicks.iter().enumerate() {
                    let (sx, sy) = (tx - k.x as i32, ty - k.y as i32);
                    let at = |o: Orientation, x: i32, y: i32, sets: &[Columns<W>; 4]| {
                        (0..WIDTH as i32).contains(&x)
                            && y >= 0
                            && (y as u32) < W::BITS
                            && sets[o as usize][x as usize].test(y as u32)
                    };
                    if !at(from, sx, sy, &reach.positions) || !at(to, tx, ty, &reach.free) {
                        continue;
                    }
                    // Earlier offsets must all fail, or the turn would stop there.
                    let earlier_fail = kicks[..i]
                        .iter()
                        .all(|e| !at(to, sx + e.x as i32, sy + e.y as i32, &reach.free));
                    if earlier_fail {
                        out.push(Turn {
                            rotation,
                            from,
                            kick_index: i as u8,
                            upgrades_mini: k.upgrades_mini,
                        });
                    }
                }
            }
        }
        out
    }
}
