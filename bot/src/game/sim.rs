//! The simulator: a game's state, what a player sees, and how moves are checked.

use core::fmt;
use std::collections::VecDeque;

use pc_bag::BagState;
use pc_bitboard::Board32;
use pc_solver::{Move, Rules};
use pc_srs::{CentrePos, MoveSet, Orientation, Path, Piece, Placement, SrsError, guideline_spawn};

use super::error::{GameError, MoveError, PlayError};
use super::over::GameOver;
use super::random::SevenBag;
use crate::tspin::{TSpin, best_tspin, tspin};

/// Rows of the visible field. The board holds 32 rows: pieces spawn in rows 20 and 21,
/// and a stack may grow above row 20 as in guideline games.
pub const VISIBLE_ROWS: u32 = 20;

/// Longest preview the simulator shows. (The players decide with at most
/// [`MAX_PREVIEW`](crate::MAX_PREVIEW) of it.)
pub const MAX_GAME_PREVIEW: usize = 32;

/// The settings of a game: the randomizer's seed, the preview length and the rules
/// (kick table, drop mode, hold).
///
/// ```
/// use pc_bot::{GameConfig, KickTable, Rules};
///
/// let config = GameConfig::new(7).with_preview(3).with_rules(Rules {
///     kicks: KickTable::srs_plus(),
///     ..Rules::default()
/// });
/// assert_eq!(config.preview, 3);
/// assert_eq!(GameConfig::default().preview, 5);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameConfig {
    /// Seed of the 7-bag randomizer.
    pub seed: u64,
    /// Pieces shown after the current one (0 to [`MAX_GAME_PREVIEW`]).
    pub preview: usize,
    /// Kick table, drop mode and hold.
    pub rules: Rules,
}

impl Default for GameConfig {
    /// Seed 0, a preview of 5, SRS with soft drop and hold.
    fn default() -> Self {
        GameConfig {
            seed: 0,
            preview: 5,
            rules: Rules::default(),
        }
    }
}

impl GameConfig {
    /// The default settings with a seed.
    pub fn new(seed: u64) -> Self {
        GameConfig {
            seed,
            ..GameConfig::default()
        }
    }

    /// The same settings with another preview length.
    pub fn with_preview(mut self, preview: usize) -> Self {
        self.preview = preview;
        self
    }

    /// The same settings with other rules.
    pub fn with_rules(mut self, rules: Rules) -> Self {
        self.rules = rules;
        self
    }
}

/// What a player plays: a [`Move`](crate::Move) (hold or not, where the piece locks) and optionally the
/// keys that bring the piece there.
///
/// With `hold`, the piece played is the one in the hold slot (the current piece goes
/// there), or the next piece of the queue when the slot is empty. The placement is in the
/// rotation-centre form; any orientation covering the same cells is accepted. A path,
/// when given, must bring the piece from the spawn position to the placement. A game
/// record writes a play as its move's text (`HTS4,1`, see [`Move`](crate::Move)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Play {
    /// The move.
    pub mv: Move,
    /// The keys that bring the piece there, if the player gives them.
    pub path: Option<Path>,
}

impl Play {
    /// Places the current piece, without a path.
    pub fn place(placement: Placement) -> Play {
        Play::from(Move::place(placement))
    }

    /// Holds first, then places the piece that comes out (without a path).
    pub fn hold_then(placement: Placement) -> Play {
        Play::from(Move::hold_then(placement))
    }

    /// The same play with its input path.
    pub fn with_path(mut self, path: Path) -> Play {
        self.path = Some(path);
        self
    }
}

impl From<Move> for Play {
    fn from(mv: Move) -> Play {
        Play { mv, path: None }
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.mv.fmt(f)
    }
}

/// What a player sees before each move.
///
/// `bag` is the state of the randomizer after the last preview piece: the pieces still to
/// come from the current bag ([`BagState::FRESH`] when the preview ends a bag).
#[derive(Clone, Copy, Debug)]
pub struct GameView<'a> {
    /// The field (32 rows; row 20 and up are above the visible field).
    pub board: Board32,
    /// The piece to play.
    pub current: Piece,
    /// The piece in the hold slot.
    pub hold: Option<Piece>,
    /// The next pieces, in order.
    pub preview: &'a [Piece],
    /// The pieces left in the current bag after the preview.
    pub bag: BagState,
    /// Kick table, drop mode and whether hold may be used.
    pub rules: &'a Rules,
    /// Where pieces spawn (rotation centre, spawn orientation).
    pub spawn: CentrePos,
}

impl GameView<'_> {
    /// Every placement `piece` can reach from the spawn position on this field (empty
    /// when it cannot spawn). Errors only when `spawn` puts the piece off the board.
    pub fn placements(&self, piece: Piece) -> Result<MoveSet<u32>, SrsError> {
        self.rules
            .generator()
            .placements_from_spawn(&self.board, piece, self.spawn)
    }

    /// The ways to play this turn: the current piece, then (with hold, when it changes
    /// anything) the piece a hold brings out.
    ///
    /// ```
    /// use pc_bot::{Game, GameConfig};
    ///
    /// let game = Game::new(GameConfig::new(1))?;
    /// let view = game.view();
    /// let turns: Vec<_> = view.turns().collect();
    /// // Nothing held yet: hold takes the first preview piece and keeps the current one.
    /// assert_eq!(turns.len(), 2);
    /// assert_eq!((turns[1].piece, turns[1].hold_after), (view.preview[0], Some(view.current)));
    /// assert_eq!(turns[1].queue_used, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn turns(&self) -> impl Iterator<Item = HoldChoice> + use<> {
        let play = HoldChoice {
            hold: false,
            piece: self.current,
            hold_after: self.hold,
            queue_used: 0,
        };
        let swap = match (self.rules.hold, self.hold, self.preview.first()) {
            (false, ..) => None,
            // Holding the same piece changes nothing.
            (true, Some(held), _) if held != self.current => Some((held, 0)),
            (true, None, Some(&next)) => Some((next, 1)),
            _ => None,
        }
        .map(|(piece, queue_used)| HoldChoice {
            hold: true,
            piece,
            hold_after: Some(self.current),
            queue_used,
        });
        core::iter::once(play).chain(swap)
    }

    /// The piece a hold would bring out: the held piece, or the first preview piece when
    /// the slot is empty; `None` without hold, or when that piece is not shown.
    pub fn hold_piece(&self) -> Option<Piece> {
        if !self.rules.hold {
            return None;
        }
        self.hold.or_else(|| self.preview.first().copied())
    }
}

/// One way to play a turn ([`GameView::turns`]): hold or not, which piece is placed, and
/// what hold and preview are left after it. (A [`Turn`](crate::Turn) is a rotation in an
/// input path.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldChoice {
    /// Whether the hold key is pressed first.
    pub hold: bool,
    /// The piece placed.
    pub piece: Piece,
    /// The hold slot afterwards.
    pub hold_after: Option<Piece>,
    /// Preview pieces used up by the turn (1 when hold took the next piece out).
    pub queue_used: usize,
}

/// Something that plays: given what it sees, it returns a play, or `None` to resign.
///
/// ```
/// use pc_bot::{Game, GameConfig, GameView, Limits, Play, Player, Stop};
///
/// /// Drops every piece straight down from where it spawns.
/// struct Dropper;
/// impl Player for Dropper {
///     fn choose(&mut self, view: &GameView<'_>) -> Option<Play> {
///         let moves = view.placements(view.current).ok()?;
///         let spawn_column = moves.iter().filter(|p| p.centre().x == view.spawn.x);
///         spawn_column.min_by_key(|p| p.centre().y).map(Play::place)
///     }
/// }
///
/// let mut game = Game::new(GameConfig::new(1))?;
/// let stop = game.run(&mut Dropper, Limits::default())?;
/// assert!(matches!(stop, Stop::GameOver(_)));
/// assert!(game.stats().pieces < 20);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Player {
    /// The play in this position, or `None` to resign.
    fn choose(&mut self, view: &GameView<'_>) -> Option<Play>;
}

impl<P: Player + ?Sized> Player for &mut P {
    fn choose(&mut self, view: &GameView<'_>) -> Option<Play> {
        (**self).choose(view)
    }
}

/// What one accepted move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveResult {
    /// Rows cleared by the placement.
    pub lines: u32,
    /// Whether the field was empty after the clear (a perfect clear).
    pub perfect_clear: bool,
    /// The T-spin the placement made (see [`Game::play`]).
    pub tspin: TSpin,
    /// Whether the game ended with this move.
    pub game_over: Option<GameOver>,
}

/// The running totals of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Stats {
    /// Pieces placed.
    pub pieces: u64,
    /// Rows cleared.
    pub lines: u64,
    /// Perfect clears: placements after which the field was empty.
    pub perfect_clears: u64,
    /// Moves that used hold.
    pub holds: u64,
    /// Placements by rows cleared: `clears[n]` placements cleared `n` rows.
    pub clears: [u64; 5],
    /// T-spins by rows cleared: `tspins[n]` full T-spins cleared `n` rows.
    pub tspins: [u64; 4],
    /// T-spin minis by rows cleared (`tspin_minis[n]`).
    pub tspin_minis: [u64; 4],
}

/// When [`Game::run`] stops a game that is not over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Limits {
    /// Stop once this many rows are cleared.
    pub lines: Option<u64>,
    /// Stop once this many pieces are placed.
    pub pieces: Option<u64>,
}

/// Why [`Game::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Stop {
    /// The game is over.
    GameOver(GameOver),
    /// The line limit was reached.
    LineCap,
    /// The piece limit was reached.
    PieceCap,
}

/// A game in progress: a 10×20 field (32 rows stored) fed by a seeded 7-bag, with a
/// preview, hold and the guideline spawn (rotation centre at column 4, row 20).
///
/// Every move is checked: the piece must be the one to play, reachable from the spawn
/// position with the kick table and drop mode, and resting on the stack. Full rows clear
/// at once. The game ends when a new piece overlaps the stack at its spawn position
/// (block out) or a piece locks entirely above row 20 (lock out).
///
/// ```
/// use pc_bot::{Game, GameConfig, MoveError, Orientation, Play};
///
/// let mut game = Game::new(GameConfig::new(1))?;
/// let piece = game.view().current;
/// // Every piece in spawn orientation with its centre at (1, 0) lies flat on the floor
/// // against the left wall.
/// let placement = piece.with(Orientation::Spawn).at(1, 0)?;
/// game.play(&Play::place(placement))?;
/// assert_eq!(game.stats().pieces, 1);
///
/// // A placement in mid-air is refused, and the game is unchanged.
/// let next = game.view().current;
/// let floating = next.with(Orientation::Spawn).at(5, 10)?;
/// assert_eq!(game.play(&Play::place(floating)), Err(MoveError::Unreachable(floating)));
/// assert_eq!(game.stats().pieces, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    config: GameConfig,
    randomizer: SevenBag,
    board: Board32,
    current: Piece,
    hold: Option<Piece>,
    queue: VecDeque<Piece>,
    stats: Stats,
    over: Option<GameOver>,
    moves: Vec<Move>,
}

impl Game {
    /// A new game; errors when the preview is longer than [`MAX_GAME_PREVIEW`].
    pub fn new(config: GameConfig) -> Result<Game, GameError> {
        if config.preview > MAX_GAME_PREVIEW {
            return Err(GameError::PreviewTooLong {
                preview: config.preview,
                max: MAX_GAME_PREVIEW,
            });
        }
        let mut randomizer = SevenBag::new(config.seed);
        let current = randomizer.next_piece();
        let mut queue = VecDeque::with_capacity(config.preview + 1);
        queue.extend((0..config.preview).map(|_| randomizer.next_piece()));
        queue.make_contiguous();
        Ok(Game {
            config,
            randomizer,
            board: Board32::new(),
            current,
            hold: None,
            queue,
            stats: Stats::default(),
            over: None,
            moves: Vec::new(),
        })
    }

    /// The settings.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// Where pieces spawn: [`guideline_spawn`] of the 20-row field.
    pub fn spawn(&self) -> CentrePos {
        guideline_spawn(VISIBLE_ROWS)
    }

    /// What the player sees now.
    pub fn view(&self) -> GameView<'_> {
        GameView {
            board: self.board,
            current: self.current,
            hold: self.hold,
            preview: self.queue.as_slices().0,
            bag: self.randomizer.bag_state(),
            rules: &self.config.rules,
            spawn: self.spawn(),
        }
    }

    /// The field.
    pub fn board(&self) -> &Board32 {
        &self.board
    }

    /// The running totals.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Why the game ended, or `None` while it goes on.
    pub fn game_over(&self) -> Option<GameOver> {
        self.over
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Ends the game as resigned (nothing happens when it is already over).
    pub fn resign(&mut self) {
        self.over.get_or_insert(GameOver::Resigned);
    }

    /// The piece `mv` plays, checking the hold rules.
    fn piece_played(&self, hold: bool) -> Result<Piece, MoveError> {
        if !hold {
            return Ok(self.current);
        }
        if !self.config.rules.hold {
            return Err(MoveError::HoldDisabled);
        }
        Ok(self
            .hold
            .or_else(|| self.queue.front().copied())
            .unwrap_or_else(|| self.randomizer.peek()))
    }

    /// Checks a play without playing it.
    pub fn check(&self, play: &Play) -> Result<(), MoveError> {
        if let Some(over) = self.over {
            return Err(MoveError::GameOver(over));
        }
        let expected = self.piece_played(play.mv.hold)?;
        let target = play.mv.placement;
        if target.piece() != expected {
            return Err(MoveError::WrongPiece {
                expected,
                found: target.piece(),
            });
        }
        let reachable = self
            .config
            .rules
            .generator()
            .placements_from_spawn(&self.board, expected, self.spawn())
            .is_ok_and(|set| set.contains(&target));
        if !reachable {
            return Err(MoveError::Unreachable(target));
        }
        if let Some(path) = &play.path {
            let end = path.replay(
                &self.board,
                expected,
                &self.config.rules.kicks,
                self.spawn(),
            );
            if !end.is_some_and(|p| p.same_cells(&target)) {
                return Err(MoveError::PathMismatch(target));
            }
        }
        Ok(())
    }

    /// Plays after checking the play ([`Game::check`]); a refused play changes nothing.
    ///
    /// T-spins follow the guideline's three-corner rule with a rotation as the last move
    /// ([`crate::tspin`]), rows counted before they clear: a move with keys
    /// counts the rotation its keys end with; a move without keys counts the best T-spin
    /// some key sequence from the spawn makes ([`crate::best_tspin`]).
    ///
    /// ```
    /// use pc_bot::{Game, GameConfig, Play, TSpin};
    ///
    /// let mut game = Game::new(GameConfig::new(1))?;
    /// let piece = game.view().current;
    /// let placement = piece.with(pc_bot::Orientation::Spawn).at(1, 0)?;
    /// let result = game.play(&Play::place(placement))?;
    /// assert_eq!((result.lines, result.tspin), (0, TSpin::None));
    /// assert_eq!(game.stats().tspins, [0; 4]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&mut self, play: &Play) -> Result<MoveResult, MoveError> {
        self.check(play)?;
        let mv = play.mv;
        if mv.hold {
            let previous = self.hold.replace(self.current);
            if previous.is_none() {
                // The next piece came out of the queue to be played.
                self.take_next();
            }
            self.stats.holds += 1;
        }
        let placement = mv.placement;
        let tspin = match &play.path {
            Some(path) => tspin(&self.board, &placement, path.last_turn()),
            None => best_tspin(
                &self.board,
                &placement,
                &self.config.rules.generator(),
                self.spawn(),
            ),
        };
        for (x, y) in placement.cells() {
            self.board.fill(usize::from(x), u32::from(y));
        }
        self.moves.push(mv);
        self.stats.pieces += 1;
        let lines = self.board.clear_full_rows().count_ones();
        let perfect_clear = lines > 0 && self.board.is_empty();
        self.stats.lines += u64::from(lines);
        self.stats.clears[lines as usize] += 1;
        match tspin {
            TSpin::Full => self.stats.tspins[lines.min(3) as usize] += 1,
            TSpin::Mini => self.stats.tspin_minis[lines.min(3) as usize] += 1,
            TSpin::None => {}
        }
        self.stats.perfect_clears += u64::from(perfect_clear);
        self.current = self.take_next();
        if lines == 0 && placement.rows().0 >= VISIBLE_ROWS {
            self.over = Some(GameOver::LockOut);
        } else if !self.fits_at_spawn(self.current) {
            self.over = Some(GameOver::BlockOut);
        }
        Ok(MoveResult {
            lines,
            perfect_clear,
            tspin,
            game_over: self.over,
        })
    }

    /// Plays moves from `player` until the game is over or a limit is reached. A refused
    /// move stops the run with an error and leaves the game as it was before that move.
    pub fn run<P: Player + ?Sized>(
        &mut self,
        player: &mut P,
        limits: Limits,
    ) -> Result<Stop, PlayError> {
        loop {
            if let Some(over) = self.over {
                return Ok(Stop::GameOver(over));
            }
            if limits.lines.is_some_and(|cap| self.stats.lines >= cap) {
                return Ok(Stop::LineCap);
            }
            if limits.pieces.is_some_and(|cap| self.stats.pieces >= cap) {
                return Ok(Stop::PieceCap);
            }
            let chosen = player.choose(&self.view());
            match chosen {
                None => self.resign(),
                Some(play) => {
                    self.play(&play).map_err(|error| PlayError {
                        index: self.stats.pieces + 1,
                        error,
                    })?;
                }
            }
        }
    }

    /// Takes the first queue piece and refills the preview from the randomizer.
    fn take_next(&mut self) -> Piece {
        let next = self
            .queue
            .pop_front()
            .unwrap_or_else(|| self.randomizer.next_piece());
        while self.queue.len() < self.config.preview {
            self.queue.push_back(self.randomizer.next_piece());
        }
        self.queue.make_contiguous();
        next
    }

    fn fits_at_spawn(&self, piece: Piece) -> bool {
        let spawn = self.spawn();
        piece
            .with(Orientation::Spawn)
            .at(spawn.x, spawn.y)
            .is_ok_and(|p| p.fits(&self.board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game on `field` whose current piece is a T.
    fn t_to_play(field: &str) -> Game {
        let mut game = Game::new(GameConfig::new(1)).unwrap();
        game.board = field.parse().unwrap();
        game.current = Piece::T;
        game
    }

    /// A game whose field is a T-spin double slot and whose current piece is a T.
    fn tsd_slot() -> (Game, Placement) {
        let game = t_to_play("..#......./##...#####/###.######");
        let t = Piece::T.with(Orientation::Reverse).at(3, 1).unwrap();
        (game, t)
    }

    /// The shortest keys from the spawn to the placement.
    fn keys(game: &Game, placement: &Placement) -> Path {
        let generator = game.config.rules.generator();
        let path = generator.path_from_spawn(&game.board, placement, game.spawn());
        path.unwrap().expect("reachable")
    }

    #[test]
    fn a_tspin_double_is_counted_from_its_keys_or_from_the_best_keys() {
        let (mut game, t) = tsd_slot();
        let path = keys(&game, &t);
        assert!(path.last_turn().is_some(), "the slot is entered by a turn");
        let result = game.play(&Play::place(t).with_path(path)).unwrap();
        assert_eq!((result.lines, result.tspin), (2, TSpin::Full));
        assert_eq!(game.stats().tspins, [0, 0, 1, 0]);
        assert_eq!(game.stats().clears[2], 1);

        let (mut game, t) = tsd_slot();
        let result = game.play(&Play::place(t)).unwrap();
        assert_eq!(result.tspin, TSpin::Full);
        assert_eq!(game.stats().tspins[2], 1);
    }

    #[test]
    fn three_corners_without_a_last_turn_are_no_tspin() {
        // The T slides under the overhang: three corners filled, last move a shift.
        let mut game = t_to_play("#........./........../#.#.######");
        let t = Piece::T.with(Orientation::Spawn).at(1, 1).unwrap();
        let path = keys(&game, &t);
        assert_eq!(path.last_turn(), None);
        let result = game.play(&Play::place(t).with_path(path)).unwrap();
        assert_eq!(result.tspin, TSpin::None);
        assert_eq!(game.stats().tspins, [0; 4]);
        assert_eq!(game.stats().tspin_minis, [0; 4]);
    }
}
