//! [`Position`]: what a player sees when a piece is about to be placed, and [`Move`]: what
//! the player does with it.

use crate::error::SolverError;
use pc_bag::{BagState, ParsePiecesError, PieceSet};
use pc_bitboard::Board32;
use pc_srs::{Piece, Placement};

/// One move of a turn: whether the hold key is pressed first, and where the piece played
/// locks.
///
/// With `hold`, the piece played is the one in the hold slot (the current piece goes
/// there), or with an empty slot the next piece of the queue. The placement is in the
/// field of the position the move is made in.
///
/// ```
/// use pc_solver::{Move, Orientation, Piece};
///
/// let mv = Move::place(Piece::O.with(Orientation::Spawn).at(4, 0)?);
/// assert!(!mv.hold);
/// assert_eq!(Move::hold_then(mv.placement).placement.piece(), Piece::O);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Move {
    /// Whether the hold key is pressed first.
    pub hold: bool,
    /// Where the piece locks.
    pub placement: Placement,
}

impl core::fmt::Display for Move {
    /// `[H]` + piece + orientation (`N E S W`) + `x,y` of the rotation centre, as game
    /// records write a move: `TS4,1`, `HIE0,1`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let p = &self.placement;
        let c = p.centre();
        let hold = if self.hold { "H" } else { "" };
        write!(
            f,
            "{hold}{}{}{},{}",
            p.piece(),
            p.orientation().compass(),
            c.x,
            c.y
        )
    }
}

impl core::str::FromStr for Move {
    type Err = ParseMoveError;

    /// The text form of [`Move`'s `Display`](#impl-Display-for-Move).
    ///
    /// ```
    /// use pc_solver::{Move, Orientation, ParseMoveError, Piece};
    ///
    /// let m: Move = "HTS4,1".parse()?;
    /// assert!(m.hold);
    /// assert_eq!(m.placement, Piece::T.with(Orientation::Reverse).at(4, 1)?);
    /// assert_eq!(m.to_string(), "HTS4,1");
    /// assert_eq!("TX4,1".parse::<Move>(), Err(ParseMoveError::Orientation('X')));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let (hold, rest) = match s.strip_prefix('H') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let mut chars = rest.chars();
        let pc = chars.next().ok_or(ParseMoveError::Missing)?;
        let piece = Piece::from_char(pc)
            .filter(|_| pc.is_ascii_uppercase())
            .ok_or(ParseMoveError::Piece(pc))?;
        let oc = chars.next().ok_or(ParseMoveError::Position)?;
        let orientation =
            pc_srs::Orientation::from_compass(oc).ok_or(ParseMoveError::Orientation(oc))?;
        let (x, y) = chars
            .as_str()
            .split_once(',')
            .ok_or(ParseMoveError::Position)?;
        let x: i32 = x.parse().map_err(|_| ParseMoveError::Position)?;
        let y: i32 = y.parse().map_err(|_| ParseMoveError::Position)?;
        let placement = piece.with(orientation).at(x, y)?;
        Ok(Move { hold, placement })
    }
}

/// What is wrong with the text of a [`Move`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// The move is empty, or has no piece letter.
    #[error("expected a move such as `TN4,0` or `HIE0,1`")]
    Missing,
    /// A character that names no piece.
    #[error("{0:?} is not a piece (expected one of I, J, L, O, S, T, Z)")]
    Piece(char),
    /// A character that names no orientation.
    #[error("{0:?} is not an orientation (expected N, E, S or W)")]
    Orientation(char),
    /// The position is not two integers separated by a comma.
    #[error("expected the rotation centre as two integers `x,y`")]
    Position,
    /// The position puts a cell off the board.
    #[error(transparent)]
    Placement(#[from] pc_srs::PlacementError),
}

impl Move {
    /// Places the current piece.
    pub fn place(placement: Placement) -> Move {
        Move {
            hold: false,
            placement,
        }
    }

    /// Presses hold, then places the piece that comes out.
    pub fn hold_then(placement: Placement) -> Move {
        Move {
            hold: true,
            placement,
        }
    }
}

/// A position of a live game, as the player sees it: the field below the clear line, the
/// hold slot, the current piece, the preview, and the 7-bag state.
///
/// `bag` is the set of pieces still to come from the current bag **after** the last
/// preview piece; empty means the preview ends a bag and a fresh one follows, and so does
/// the full set (all seven still to come is a fresh bag). Everything that reads the bag
/// goes through [`Position::bag_state`], which makes the two the same; its
/// [`BagState::drawable`] is the set of pieces the next reveal can give.
///
/// ```
/// use pc_solver::PieceSet;
/// use pc_solver::{Piece, Position};
///
/// // The first piece of a game: nothing held, I then five previews, and the last piece
/// // of the first bag (Z) still to come.
/// let position = Position::new("".parse()?, Piece::I)
///     .with_preview(&[Piece::T, Piece::L, Piece::O, Piece::S, Piece::J])
///     .with_bag("Z".parse()?);
/// assert_eq!(position.clear_line, 4);
/// assert_eq!(position.queue().len(), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Position {
    /// The cells below the clear line.
    pub field: Board32,
    /// The clear line: the height of the perfect clear (1 to 8).
    pub clear_line: u32,
    /// The piece in the hold slot.
    pub hold: Option<Piece>,
    /// The piece to place now.
    pub current: Piece,
    /// The next pieces, nearest first.
    pub preview: Vec<Piece>,
    /// The pieces still to come from the current bag after the preview (empty or all
    /// seven: a fresh bag follows the preview).
    pub bag: PieceSet,
    /// Whether the hold key was already pressed for the current piece (it went into an
    /// empty slot and brought this one out), so this piece must be placed.
    pub hold_used: bool,
}

impl Position {
    /// A position with nothing held, no preview, a fresh bag after the current piece, and
    /// clear line 4.
    pub fn new(field: Board32, current: Piece) -> Position {
        Position {
            field,
            clear_line: 4,
            hold: None,
            current,
            preview: Vec::new(),
            bag: PieceSet::EMPTY,
            hold_used: false,
        }
    }

    /// The same position with another clear line.
    pub fn with_clear_line(mut self, clear_line: u32) -> Position {
        self.clear_line = clear_line;
        self
    }

    /// A position from its queue written as letters: the current piece, then the
    /// preview, nearest first (`"TLOSJZ"`; spaces are ignored). Nothing held, a fresh
    /// bag after the preview and clear line 4, as [`Position::new`]. Errors with
    /// [`SolverError::Queue`] that names the column of a letter that is not a piece, or
    /// when the queue is empty.
    ///
    /// ```
    /// use pc_solver::{Piece, Position, SolverError};
    ///
    /// let position = Position::from_queue("".parse()?, "TLOSJZ")?.with_hold(Some(Piece::I));
    /// assert_eq!(position.current, Piece::T);
    /// assert_eq!(position.preview.len(), 5);
    /// assert!(matches!(
    ///     Position::from_queue("".parse()?, "TLX"),
    ///     Err(SolverError::Queue(_))
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_queue(field: Board32, queue: &str) -> Result<Position, SolverError> {
        let mut pieces = Vec::new();
        for (i, c) in queue.chars().enumerate() {
            if c.is_whitespace() {
                continue;
            }
            let piece =
                Piece::from_char(c).ok_or(SolverError::Queue(ParsePiecesError::NotAPiece {
                    column: i + 1,
                    found: c,
                }))?;
            pieces.push(piece);
        }
        let (&current, preview) = pieces.split_first().ok_or(SolverError::EmptyQueue)?;
        Ok(Position::new(field, current).with_preview(preview))
    }

    /// The same position with a piece in the hold slot (or none).
    pub fn with_hold(mut self, hold: Option<Piece>) -> Position {
        self.hold = hold;
        self
    }

    /// The same position with this preview.
    pub fn with_preview(mut self, preview: &[Piece]) -> Position {
        self.preview = preview.to_vec();
        self
    }

    /// The same position with this bag state (pieces to come after the preview; empty or
    /// all seven for a fresh bag).
    pub fn with_bag(mut self, bag: PieceSet) -> Position {
        self.bag = bag;
        self
    }

    /// The bag state after the preview, as `pc-bag` keeps it: a full [`Position::bag`] is
    /// a fresh bag, like an empty one.
    ///
    /// ```
    /// use pc_solver::{BagState, PieceSet, Piece, Position};
    ///
    /// let position = Position::new("".parse()?, Piece::T);
    /// assert_eq!(position.clone().with_bag(PieceSet::ALL).bag_state(), BagState::FRESH);
    /// assert_eq!(position.with_bag("IJ".parse()?).bag_state().remaining().len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bag_state(&self) -> BagState {
        BagState::from_remaining(self.bag)
    }

    /// The current piece followed by the preview.
    pub fn queue(&self) -> Vec<Piece> {
        let mut queue = Vec::with_capacity(self.preview.len() + 1);
        queue.push(self.current);
        queue.extend_from_slice(&self.preview);
        queue
    }

    /// Sets whether the hold key was already used for the current piece.
    pub fn with_hold_used(mut self, hold_used: bool) -> Position {
        self.hold_used = hold_used;
        self
    }

    /// The position after pressing hold with an empty slot, before placing anything: the
    /// current piece goes to the hold slot, the next one comes out (and must be placed),
    /// and `revealed` appears at the end of the preview. [`crate::Recommendation::hold_first`]
    /// is the chance of doing this.
    ///
    /// ```
    /// use pc_solver::Position;
    /// use pc_solver::Piece::*;
    ///
    /// let position = Position::new("".parse()?, T).with_preview(&[L, O]).with_bag("IJSZ".parse()?);
    /// let held = position.after_hold(S)?;
    /// assert_eq!((held.hold, held.current, held.preview.clone()), (Some(T), L, vec![O, S]));
    /// assert!(held.hold_used);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn after_hold(&self, revealed: Piece) -> Result<Position, SolverError> {
        if self.hold.is_some() || self.hold_used {
            return Err(SolverError::IllegalMove(
                "only an empty hold slot can be filled this way, once per piece",
            ));
        }
        let Some((&next, rest)) = self.preview.split_first() else {
            return Err(SolverError::IllegalMove(
                "holding into an empty slot needs a preview",
            ));
        };
        let bag = self
            .bag_state()
            .draw(revealed)
            .map_err(|_| SolverError::BagContradiction {
                piece: revealed,
                position: self.preview.len() + 1,
                reason: REVEALED_BUT_DRAWN,
            })?;
        let mut preview = rest.to_vec();
        preview.push(revealed);
        Ok(Position {
            field: self.field,
            clear_line: self.clear_line,
            hold: Some(self.current),
            current: next,
            preview,
            bag: bag.remaining(),
            hold_used: true,
        })
    }

    /// The position after playing `mv` (a [`Move`], or a move of
    /// [`Solver::recommend`](crate::Solver::recommend) for this position) when the
    /// pieces `revealed` appear at the end of the preview: one piece, or two for a hold
    /// into an empty slot (that turn uses the current piece and the next one). Full rows
    /// clear and the clear line comes down with them; after a perfect clear (the field
    /// is empty) the next one has the same clear line as this one.
    ///
    /// The move is checked against the pieces it may use and the field, not for
    /// reachability (the solver's moves are reachable).
    ///
    /// ```
    /// use pc_solver::{Position, Rules, Solver};
    /// use pc_solver::Piece::*;
    ///
    /// let field = "##.....###/###....###/####...###/###....###".parse()?;
    /// let position = Position::new(field, T)
    ///     .with_hold(Some(I))
    ///     .with_preview(&[L, O, S, J, Z]);
    /// let mut solver = Solver::new(Rules::default());
    /// let best = &solver.recommend(&position)?.moves[0];
    /// // A fresh bag follows Z: say T shows up.
    /// let next = position.after(best, &[T])?;
    /// assert_eq!(next.preview.last(), Some(&T));
    /// assert_eq!(next.bag.len(), 6);
    /// assert!(solver.chance(&next)?.is_one());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn after(&self, mv: impl Into<Move>, revealed: &[Piece]) -> Result<Position, SolverError> {
        let mv: Move = mv.into();
        let mut queue = self.queue();
        if mv.hold && self.hold_used {
            return Err(SolverError::IllegalMove(
                "the hold key was already used for this piece",
            ));
        }
        let (placed, hold, used) = match (mv.hold, self.hold) {
            (false, _) => (self.current, self.hold, 1),
            (true, Some(h)) => (h, Some(self.current), 1),
            (true, None) => match queue.get(1) {
                Some(&next) => (next, Some(self.current), 2),
                None => {
                    return Err(SolverError::IllegalMove(
                        "holding into an empty slot needs a preview",
                    ));
                }
            },
        };
        if revealed.len() != used {
            return Err(SolverError::RevealCount {
                expected: used,
                given: revealed.len(),
            });
        }
        if mv.placement.piece() != placed {
            return Err(SolverError::IllegalMove(
                "the placement is not of the piece the move plays",
            ));
        }
        if !mv.placement.fits(&self.field) {
            return Err(SolverError::IllegalMove("the placement overlaps the field"));
        }
        let mut bag = self.bag_state();
        for &piece in revealed {
            bag = bag.draw(piece).map_err(|_| SolverError::BagContradiction {
                piece,
                position: queue.len(),
                reason: REVEALED_BUT_DRAWN,
            })?;
            queue.push(piece);
        }
        let mut field = self.field;
        for (x, y) in mv.placement.cells() {
            field.fill(x as usize, y as u32);
        }
        let cleared = field.clear_full_rows().count_ones();
        let clear_line = if field.is_empty() {
            self.clear_line
        } else {
            self.clear_line.saturating_sub(cleared)
        };
        let rest = &queue[used..];
        Ok(Position {
            field,
            clear_line,
            hold,
            current: rest[0],
            preview: rest[1..].to_vec(),
            bag: bag.remaining(),
            hold_used: false,
        })
    }

    /// Checks that the queue can come from a 7-bag that leaves [`Position::bag_state`]
    /// after it: bags are aligned from the end of the queue, the pieces of the current bag
    /// within the queue are distinct and not still to come, and each earlier bag's pieces
    /// are distinct. An error names the first piece, in queue order, that cannot be there.
    pub fn check_bag(&self) -> Result<(), SolverError> {
        self.checked_queue().map(|_| ())
    }

    /// The queue and the pieces still to come from the current bag after it, once
    /// [`Position::check_bag`]'s checks pass.
    pub(crate) fn checked_queue(&self) -> Result<(Vec<Piece>, PieceSet), SolverError> {
        let queue = self.queue();
        let left = self.bag_state().remaining();
        // The last `drawn` pieces of the queue are the current bag's (all 7 when it ended).
        let drawn = Piece::COUNT - left.len() % Piece::COUNT;
        let start = queue.len().saturating_sub(drawn);
        let mut seen = PieceSet::EMPTY;
        for (position, &piece) in queue.iter().enumerate() {
            if position <= start && (start - position) % Piece::COUNT == 0 {
                seen = PieceSet::EMPTY;
            }
            if position >= start && left.contains(piece) {
                return Err(SolverError::BagContradiction {
                    piece,
                    position,
                    reason: "the bag state says it is still to come",
                });
            }
            if !seen.insert(piece) {
                return Err(SolverError::BagContradiction {
                    piece,
                    position,
                    reason: "the same bag already gave it earlier in the queue",
                });
            }
        }
        Ok((queue, left))
    }
}

/// Why a revealed piece contradicts the bag state.
const REVEALED_BUT_DRAWN: &str = "it is revealed, but the bag state says it was already drawn";

#[cfg(test)]
mod tests {
    use super::*;

    fn position(queue: &str, bag: &str) -> Position {
        let pieces: Vec<Piece> = queue
            .chars()
            .map(|c| Piece::from_char(c).unwrap())
            .collect();
        Position::new(Board32::new(), pieces[0])
            .with_preview(&pieces[1..])
            .with_bag(bag.parse().unwrap())
    }

    #[test]
    fn bag_states_that_fit_the_queue() {
        assert!(position("ITLOSJ", "Z").check_bag().is_ok());
        assert!(position("ITLOSJZ", "").check_bag().is_ok());
        // Z ends the first bag; T I start the next, five to come.
        assert!(position("ITLOSJZTI", "JLOSZ").check_bag().is_ok());
        // Only part of the current bag is in view: the rest may have come before.
        assert!(position("TI", "JLOSZ").check_bag().is_ok());
    }

    #[test]
    fn contradictions_name_the_piece_and_position() {
        let err = position("ITLOSJ", "I").check_bag().unwrap_err();
        assert_eq!(
            err,
            SolverError::BagContradiction {
                piece: Piece::I,
                position: 0,
                reason: "the bag state says it is still to come"
            }
        );
        // The later of the two T's of one bag is the one named.
        let err = position("ITLOSJT", "").check_bag().unwrap_err();
        assert!(matches!(
            err,
            SolverError::BagContradiction {
                piece: Piece::T,
                position: 6,
                ..
            }
        ));
        assert!(matches!(
            position("IOTLOS", "JZ").check_bag(),
            Err(SolverError::BagContradiction {
                piece: Piece::O,
                position: 4,
                ..
            })
        ));
        // A bag boundary before the current bag's part starts a new set.
        assert!(position("IITLOS", "JZ").check_bag().is_ok());
    }

    #[test]
    fn the_error_names_the_repeated_piece_in_words() {
        // `--queue TTT` of the recommend example: the second T repeats the first.
        let err = position("TTT", "").check_bag().unwrap_err();
        assert!(matches!(
            err,
            SolverError::BagContradiction {
                piece: Piece::T,
                position: 1,
                ..
            }
        ));
        assert_eq!(
            err.to_string(),
            "preview piece 1 (T) contradicts the bag state: \
             the same bag already gave it earlier in the queue"
        );
        let err = position("TI", "TJ").check_bag().unwrap_err();
        assert_eq!(
            err.to_string(),
            "the current piece (T) contradicts the bag state: \
             the bag state says it is still to come"
        );
    }

    #[test]
    fn a_full_bag_is_a_fresh_bag() {
        let full = position("JLOSTZ", "IJLOSTZ").with_hold(Some(Piece::I));
        let fresh = position("JLOSTZ", "").with_hold(Some(Piece::I));
        assert_eq!(full.bag, PieceSet::ALL);
        assert_eq!(full.check_bag(), Ok(()));
        assert_eq!(full.bag_state(), fresh.bag_state());
        for queue in ["ITLOSJ", "ITLOSJZ", "ITLOSJT", "TT", "IOTLOS", "SZ"] {
            assert_eq!(
                position(queue, "IJLOSTZ").check_bag(),
                position(queue, "").check_bag(),
                "{queue}"
            );
        }
        let no_hold = |bag| position("JLOSTZ", bag);
        assert_eq!(
            no_hold("IJLOSTZ").after_hold(Piece::T),
            no_hold("").after_hold(Piece::T)
        );

        // The same recommendation, on a field with 8 pieces left (fast): the pieces after
        // the preview count.
        let field: Board32 = "...#.....#/...#.....#/...#.....#/...#.....#"
            .parse()
            .unwrap();
        let (full, fresh) = (Position { field, ..full }, Position { field, ..fresh });
        let rules = crate::Rules::default();
        let with_full = crate::Solver::new(rules.clone()).recommend(&full).unwrap();
        let with_fresh = crate::Solver::new(rules).recommend(&fresh).unwrap();
        assert!(!with_fresh.chance.is_zero() && !with_fresh.chance.is_one());
        assert_eq!(with_full, with_fresh);
        let best = with_fresh.moves[0].mv;
        assert_eq!(
            full.after(best, &[Piece::T]),
            fresh.after(best, &[Piece::T])
        );
    }
}
