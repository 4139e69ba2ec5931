//! The evaluator: scores placements with [`Weights`] and picks a move, looking one piece
//! ahead.

use pc_bitboard::{Board32, WIDTH};
use pc_srs::{CentrePos, MoveGenerator, Orientation, Piece, Placement};
use smallvec::SmallVec;

use super::features::{Features, Lock, Profile};
use super::weights::{Preset, Weights};
use crate::game::{GameView, HoldChoice, Play, Player, VISIBLE_ROWS};
use crate::tspin::{TSpin, best_tspin};
use pc_solver::Move;

/// Subtracted from the score of a placement that ends the game or leaves a cell where
/// pieces spawn, so it is chosen only when every move does.
pub const TOP_OUT_PENALTY: f64 = 1e9;

/// Columns 3 to 6 of rows 20 and 21: where every piece spawns.
const SPAWN_COLUMNS: core::ops::RangeInclusive<usize> = 3..=6;
const SPAWN_ROWS: u32 = 0b11 << VISIBLE_ROWS;

/// The heuristic player: scores every placement of the current piece, and of the piece
/// hold brings out, with [`Weights`] (every placement the move generator reaches from the
/// spawn, tucks and spins included; T-spins by [`best_tspin`](crate::best_tspin)), and with lookahead
/// adds the best score of the next piece on the field each one leaves, times a discount.
///
/// Lookahead is over the preview: after a move, the next piece to play is the first one
/// left in the queue, or with hold the held piece (the second queue piece when the slot is
/// empty); both are tried. Only the `beam` best moves by their own score are looked ahead
/// from, and the next piece is only dropped straight down from above the stack in each
/// orientation and column (no move generation): an estimate that costs a fraction of a
/// full search and plays as well (`CHANGELOG.md`).
///
/// ```
/// use pc_bot::{Game, GameConfig, Limits};
/// use pc_bot::{Evaluator, Preset};
///
/// let mut evaluator = Evaluator::from_preset(Preset::Balanced);
/// let mut game = Game::new(GameConfig::new(3))?;
/// let decision = evaluator.decide(&game.view()).expect("the first piece has moves");
/// game.play(&decision.mv.into())?;
///
/// game.run(&mut evaluator, Limits { lines: Some(40), ..Limits::default() })?;
/// assert!(game.stats().lines >= 40);
/// assert!(game.board().height() <= 8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluator {
    /// The weights.
    pub weights: Weights,
    /// Whether to look one piece ahead.
    pub lookahead: bool,
    /// Weight of the next piece's best score in a move's value (0 to 1 is sensible).
    pub discount: f64,
    /// How many of the best moves (by their own score) are looked ahead from.
    pub beam: usize,
}

impl Default for Evaluator {
    /// [`Preset::Balanced`] with lookahead.
    fn default() -> Self {
        Evaluator::new(Weights::default())
    }
}

/// A scored placement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// The field after the lock and its clears, the rows cleared and the features.
    pub lock: Lock,
    /// The T-spin counted.
    pub tspin: TSpin,
    /// The score: weighted features, clear bonuses, minus [`TOP_OUT_PENALTY`] if it tops out.
    pub score: f64,
}

/// The move an evaluator chose, and its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// Hold or not, and where the piece goes.
    pub mv: Move,
    /// The move's own score, plus the discounted best score of the next piece with
    /// lookahead.
    pub value: f64,
}

#[derive(Clone, Copy)]
struct Candidate {
    turn: HoldChoice,
    placement: Placement,
    score: f64,
    board: Board32,
}

/// What scoring needs besides the weights.
struct Rules<'a> {
    generator: MoveGenerator<'a>,
    spawn: CentrePos,
}

impl Evaluator {
    /// An evaluator with these weights, one-piece lookahead, discount 0.9 and beam 4.
    pub fn new(weights: Weights) -> Self {
        Evaluator {
            weights,
            lookahead: true,
            discount: 0.9,
            beam: 4,
        }
    }

    /// An evaluator with a preset's weights (see [`Evaluator::new`]).
    pub fn from_preset(preset: Preset) -> Self {
        Evaluator::new(preset.weights())
    }

    /// The same evaluator with lookahead on or off.
    pub fn with_lookahead(mut self, lookahead: bool) -> Self {
        self.lookahead = lookahead;
        self
    }

    /// The same evaluator with another discount.
    pub fn with_discount(mut self, discount: f64) -> Self {
        self.discount = discount;
        self
    }

    /// The same evaluator with another beam width (at least 1 is used).
    pub fn with_beam(mut self, beam: usize) -> Self {
        self.beam = beam;
        self
    }

    /// Scores one placement on `board` (the field before it locks) given the T-spin it
    /// makes ([`best_tspin`](crate::best_tspin) finds it); `None` when it overlaps the field or leaves
    /// the 32 rows. A placement that locks entirely above row 20 without clearing, or
    /// leaves a cell in rows 20–21 of columns 3–6 where pieces spawn, loses
    /// [`TOP_OUT_PENALTY`].
    ///
    /// ```
    /// use pc_bot::{Board32, Evaluator, Orientation, Piece, TSpin, Weights};
    ///
    /// let board: Board32 = "####.#####".parse()?;
    /// let evaluator = Evaluator::new(Weights::DELLACHERIE);
    /// let fill = Piece::I.with(Orientation::Right).at(4, 2)?; // upright into the gap
    /// let flat = Piece::I.with(Orientation::Spawn).at(5, 1)?; // flat over it: a hole
    /// let a = evaluator.evaluate(&board, &fill, TSpin::None).unwrap();
    /// let b = evaluator.evaluate(&board, &flat, TSpin::None).unwrap();
    /// assert_eq!(a.lock.lines, 1);
    /// assert_eq!(b.lock.features.holes, 1);
    /// assert!(a.score > b.score);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn evaluate(
        &self,
        board: &Board32,
        placement: &Placement,
        tspin: TSpin,
    ) -> Option<Evaluation> {
        Some(self.scored(Features::lock(board, placement)?, placement, tspin))
    }

    /// The evaluation of a lock.
    fn scored(&self, lock: Lock, placement: &Placement, tspin: TSpin) -> Evaluation {
        let mut score = self.weights.features_score(&lock.features)
            + self
                .weights
                .clear_bonus(lock.lines, tspin, lock.perfect_clear);
        let cols = lock.board.columns();
        let blocks_spawn = SPAWN_COLUMNS.into_iter().any(|x| cols[x] & SPAWN_ROWS != 0);
        let locks_out = lock.lines == 0
            && lock.board.height() > VISIBLE_ROWS
            && placement.rows().0 >= VISIBLE_ROWS;
        if blocks_spawn || locks_out {
            score -= TOP_OUT_PENALTY;
        }
        Evaluation { lock, tspin, score }
    }

    /// Whether T-spins change any score (skips their detection when not).
    fn rewards_tspins(&self) -> bool {
        let w = &self.weights;
        // A mini clears 0 to 2 rows, a full T-spin 0 to 3.
        w.line_clears[..3].iter().any(|&l| l != w.tspin_mini)
            || w.tspin.iter().zip(&w.line_clears).any(|(t, l)| t != l)
    }

    /// Calls `f` with every placement of `piece` on `board` and its score.
    fn for_each_scored(
        &self,
        rules: &Rules<'_>,
        board: &Board32,
        piece: Piece,
        mut f: impl FnMut(Placement, &Evaluation),
    ) {
        let Ok(moves) = rules
            .generator
            .placements_from_spawn(board, piece, rules.spawn)
        else {
            return;
        };
        let spins = piece == Piece::T && self.rewards_tspins();
        let profile = Profile::new(board);
        for placement in moves.iter() {
            let tspin = if spins {
                best_tspin(board, &placement, &rules.generator, rules.spawn)
            } else {
                TSpin::None
            };
            if let Some(lock) = profile.lock(&placement) {
                f(placement, &self.scored(lock, &placement, tspin));
            }
        }
    }

    /// The best score of the pieces on `board`, each dropped straight down from above the
    /// stack (the lookahead's estimate: no tucks or spins, so no move generation).
    fn best_drop_score(&self, board: &Board32, pieces: &[Piece]) -> Option<f64> {
        let mut best: Option<f64> = None;
        let profile = Profile::new(board);
        for &piece in pieces {
            for placement in drops_from_above(board, piece) {
                if let Some(lock) = profile.lock(&placement) {
                    let score = self.scored(lock, &placement, TSpin::None).score;
                    if best.is_none_or(|b| score > b) {
                        best = Some(score);
                    }
                }
            }
        }
        best
    }

    /// The move to play in `view`, or `None` when no piece can be placed.
    pub fn decide(&self, view: &GameView<'_>) -> Option<Decision> {
        let rules = Rules {
            generator: view.rules.generator(),
            spawn: view.spawn,
        };
        let mut candidates: SmallVec<[Candidate; 96]> = SmallVec::new();
        for turn in view.turns() {
            self.for_each_scored(&rules, &view.board, turn.piece, |placement, e| {
                candidates.push(Candidate {
                    turn,
                    placement,
                    score: e.score,
                    board: e.lock.board,
                });
            });
        }
        // Best first; the sort is stable, so ties keep the generator's order.
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
        let first = candidates.first()?;
        let mut best = Decision {
            mv: Move {
                hold: first.turn.hold,
                placement: first.placement,
            },
            value: first.score,
        };
        if !self.lookahead {
            return Some(best);
        }
        best.value = f64::NEG_INFINITY;
        for c in candidates.iter().take(self.beam.max(1)) {
            let queue = view.preview.get(c.turn.queue_used..).unwrap_or(&[]);
            let mut next: SmallVec<[Piece; 2]> = SmallVec::new();
            next.extend(queue.first().copied());
            if view.rules.hold {
                let via_hold = c.turn.hold_after.or_else(|| queue.get(1).copied());
                if let Some(p) = via_hold.filter(|p| !next.contains(p)) {
                    next.push(p);
                }
            }
            let ahead = self.best_drop_score(&c.board, &next).unwrap_or(c.score);
            let value = c.score + self.discount * ahead;
            if value > best.value {
                best = Decision {
                    mv: Move {
                        hold: c.turn.hold,
                        placement: c.placement,
                    },
                    value,
                };
            }
        }
        Some(best)
    }
}

impl Player for Evaluator {
    fn choose(&mut self, view: &GameView<'_>) -> Option<Play> {
        self.decide(view).map(|d| Play::from(d.mv))
    }
}

/// The placements of `piece` dropped straight down from above the stack, one per column
/// and distinct orientation: what a hard drop from high above reaches, without tucks or
/// spins. On a field below the spawn every one of them is reachable from the spawn.
fn drops_from_above(board: &Board32, piece: Piece) -> impl Iterator<Item = Placement> {
    let heights = board.heights();
    // Orientations covering the same cells as another (I, S, Z, O) are dropped once, in
    // their canonical orientation; a placement in mid-board tells which ones those are.
    let canonical = move |o: Orientation| {
        piece
            .with(o)
            .at(4, 10)
            .is_ok_and(|p| p.canonical().orientation() == o)
    };
    Orientation::ALL
        .into_iter()
        .filter(move |&o| canonical(o))
        .flat_map(move |o| {
            let cells = piece.with(o).cells();
            (0..WIDTH as i32).filter_map(move |x| {
                // The centre row where every cell is at or above its column's height.
                let mut y = i32::MIN;
                for &(dx, dy) in &cells {
                    let cx = x + i32::from(dx);
                    if !(0..WIDTH as i32).contains(&cx) {
                        return None;
                    }
                    y = y.max(heights[cx as usize] as i32 - i32::from(dy));
                }
                piece.with(o).at(x, y).ok()
            })
        })
}
