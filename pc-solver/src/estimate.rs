//! An estimate of every move's chance for the positions whose exact chance takes too long
//! (one to three previews at the start of a PC): the exact chances with a few more pieces in
//! view, averaged over draws of those pieces from the bag.
//!
//! A move's estimate is the mean over the draws of its exact chance in the position with the
//! drawn pieces in view: the move is the same in every draw, so it is chosen without them,
//! but the decisions after it see them a few turns early. Seeing more pieces never lowers a
//! chance (a player who sees them can still play as one who does not), so each move's
//! estimate is of an upper bound of its chance. Each draw's chances are exact; only the
//! draws are random, so the standard error of their mean is the whole sampling error.

use crate::decision::{Decision, MAX_PREVIEW};
use crate::engine::Engine;
use crate::engine::graph::window;
use crate::error::SolverError;
use crate::options::SolverOptions;
use crate::position::{Move, Position};
use crate::solver::Solver;
use pc_bag::BagState;
use pc_srs::{Path, Piece};

/// How [`Solver::estimate`] draws the pieces it adds to the preview.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EstimateOptions {
    /// How many draws (at least 2 for a sampling error; 32 by default).
    pub samples: usize,
    /// The seed of the draws (the same seed, the same estimate).
    pub seed: u64,
}

impl Default for EstimateOptions {
    fn default() -> Self {
        EstimateOptions {
            samples: 32,
            seed: 0,
        }
    }
}

/// A mean over the draws and its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mean {
    /// The mean, from 0 to 1.
    pub value: f64,
    /// The standard error of the mean (the draws' standard deviation over the square root
    /// of their count); 0 when the value is exact.
    pub std_error: f64,
}

/// One move of an [`Estimate`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EstimatedMove {
    /// The move.
    pub mv: Move,
    /// Its chance of a PC with [`Estimate::revealed`] more pieces in view, estimated.
    pub chance: Mean,
    /// The keys to press, as [`RankedMove::path`](crate::RankedMove::path).
    pub path: Option<Path>,
}

/// What [`Solver::estimate`] finds: every move with its estimated chance, best first.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Estimate {
    /// The position's chance: the best move's (or holding first, when that is better).
    pub chance: Mean,
    /// Holding into the empty slot first, when the position may.
    pub hold_first: Option<Mean>,
    /// Every move, best first (for a hold into the empty slot with nothing in view, the
    /// placement is not named: see `hold_first`).
    pub moves: Vec<EstimatedMove>,
    /// How many pieces each draw adds to the preview; 0 when the exact answer was quick,
    /// and then the chances are exact (one draw, no error).
    pub revealed: usize,
    /// How many draws were made.
    pub samples: usize,
    /// The engine that answered the draws.
    pub engine: Engine,
}

/// Pieces unknown at most for an answer to count as quick: four (the graph's walk and the
/// layered search take them in a fraction of a second; five take seconds).
const QUICK_UNKNOWN: usize = 4;

/// A small seeded generator for the draws (xorshift64*).
struct Draws(u64);

impl Draws {
    fn new(seed: u64) -> Draws {
        Draws(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// A piece drawn uniformly from what the bag can deal next.
    fn piece(&mut self, bag: BagState) -> Piece {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let r = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32;
        let drawable: Vec<Piece> = bag.drawable().iter().collect();
        drawable[(r % drawable.len() as u64) as usize]
    }
}

/// The position with `pieces` added to its preview and the bag after them.
fn with_more(position: &Position, pieces: &[Piece]) -> Result<Position, SolverError> {
    let bag = position
        .bag_state()
        .draw_all(pieces)
        .map_err(|_| SolverError::IllegalMove("a drawn piece the bag cannot deal"))?;
    let mut preview = position.preview.clone();
    preview.extend_from_slice(pieces);
    Ok(position
        .clone()
        .with_preview(&preview)
        .with_bag(bag.remaining()))
}

/// Running sums of one value over the draws.
#[derive(Clone, Copy, Default)]
struct Sums {
    n: f64,
    sum: f64,
    squares: f64,
}

impl Sums {
    fn add(&mut self, x: f64) {
        self.n += 1.0;
        self.sum += x;
        self.squares += x * x;
    }

    fn mean(&self) -> Mean {
        let value = self.sum / self.n.max(1.0);
        let variance = if self.n > 1.0 {
            ((self.squares - self.n * value * value) / (self.n - 1.0)).max(0.0)
        } else {
            0.0
        };
        Mean {
            value,
            std_error: (variance / self.n.max(1.0)).sqrt(),
        }
    }
}

impl Solver {
    /// Every move of the position with an estimate of its chance, for positions whose
    /// exact chance takes too long: the exact chances with `revealed` more pieces in view
    /// (the fewest that make the answer quick: at most four pieces a PC may use unknown,
    /// answered by the graph's walk, the layered search or the known-queue search),
    /// averaged over `options.samples` draws of those pieces from the bag, with the
    /// standard error of each mean. Each move is chosen without the drawn pieces, but the
    /// decisions after it see them early, and more pieces in view never lower a chance:
    /// each move's estimate is of an upper bound of its exact chance. When the exact answer
    /// is quick already, it is that answer (`revealed` 0, errors 0).
    ///
    /// Errors as [`Solver::recommend`]. Cost: `samples` rankings of the position with the
    /// longer preview, on a solver of its own, each answered by the graph's walk, the layered
    /// search or the known-queue search (the crate README has figures).
    ///
    /// ```
    /// use pc_solver::{EstimateOptions, Position, Rules, Solver, SolverOptions};
    /// use pc_solver::Piece::*;
    ///
    /// // Four pieces into a PC, one preview: four of the pieces it may use are not known,
    /// // the second placed before the last is revealed.
    /// let position = Position::new("####....../####....../####....../####......".parse()?, T)
    ///     .with_hold(Some(O))
    ///     .with_preview(&[S])
    ///     .with_bag("IJLZ".parse()?);
    /// let options = SolverOptions { preview: 1, ..SolverOptions::default() };
    /// let mut solver = Solver::with_options(Rules::default(), options)?;
    /// let estimate = solver.estimate(&position, EstimateOptions { samples: 8, seed: 1 })?;
    /// assert!(estimate.revealed >= 1);
    /// assert!(estimate.chance.value >= estimate.moves[0].chance.value);
    /// assert!(estimate.chance.std_error < 0.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn estimate(
        &mut self,
        position: &Position,
        options: EstimateOptions,
    ) -> Result<Estimate, SolverError> {
        let decision = self.decision(position)?;
        let revealed = self.pieces_to_reveal(position, &decision)?;
        if revealed == 0 {
            return Ok(exact(self.recommend(position)?));
        }
        let mut inner = Solver::with_options(
            self.rules().clone(),
            SolverOptions {
                preview: position.preview.len() + revealed,
                ..self.options().clone()
            },
        )?;
        // A hold into the empty slot with nothing in view places a piece no one has seen:
        // only its value (holding first) is estimated, not its placements.
        let blind_hold = position.hold.is_none() && position.preview.is_empty();
        let mut draws = Draws::new(options.seed);
        let mut moves: Vec<(EstimatedMove, Sums)> = Vec::new();
        let mut hold_first = Sums::default();
        let mut engine = Engine::DepthFirst;
        for _ in 0..options.samples.max(1) {
            let mut bag = position.bag_state();
            let mut pieces = Vec::with_capacity(revealed);
            for _ in 0..revealed {
                let piece = draws.piece(bag);
                bag = bag.draw(piece).expect("drawn from what the bag can deal");
                pieces.push(piece);
            }
            let ranking = inner.recommend(&with_more(position, &pieces)?)?;
            engine = ranking.engine;
            if let Some(h) = ranking.hold_first {
                hold_first.add(h.to_f64());
            }
            for m in ranking.moves {
                if blind_hold && m.mv.hold {
                    continue;
                }
                match moves.iter_mut().find(|(e, _)| e.mv == m.mv) {
                    Some((_, sums)) => sums.add(m.chance.to_f64()),
                    None => {
                        let mut sums = Sums::default();
                        sums.add(m.chance.to_f64());
                        let estimated = EstimatedMove {
                            mv: m.mv,
                            chance: sums.mean(),
                            path: m.path,
                        };
                        moves.push((estimated, sums));
                    }
                }
            }
        }
        let mut moves: Vec<EstimatedMove> = moves
            .into_iter()
            .map(|(mut m, sums)| {
                m.chance = sums.mean();
                m
            })
            .collect();
        moves.sort_by(|a, b| b.chance.value.total_cmp(&a.chance.value));
        let hold_first = (hold_first.n > 0.0).then(|| hold_first.mean());
        let chance = moves
            .first()
            .map(|m| m.chance)
            .into_iter()
            .chain(hold_first)
            .max_by(|a, b| a.value.total_cmp(&b.value))
            .unwrap_or(Mean {
                value: 0.0,
                std_error: 0.0,
            });
        Ok(Estimate {
            chance,
            hold_first,
            moves,
            revealed,
            samples: options.samples.max(1),
            engine,
        })
    }

    /// Whether the exact answer of the position may take minutes to hours, so that
    /// [`Solver::estimate`] is the one to ask: the depth-first search answers it with six
    /// or more of the pieces a PC may use unknown, or five with nine placements or more to
    /// go (one piece into a PC with three previews). Errors as [`Solver::recommend`].
    ///
    /// ```
    /// use pc_solver::{Position, Rules, Solver, SolverOptions};
    /// use pc_solver::Piece::*;
    ///
    /// let options = SolverOptions { preview: 3, ..SolverOptions::default() };
    /// let solver = Solver::with_options(Rules::default(), options)?;
    /// // The start of a PC with three previews: six unknown.
    /// let start = Position::new(Default::default(), J).with_hold(Some(I)).with_preview(&[L, O, S]);
    /// assert!(solver.slow_to_answer(&start)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slow_to_answer(&self, position: &Position) -> Result<bool, SolverError> {
        let decision = self.decision(position)?;
        let unknown = decision.unknown_pieces();
        let placements = decision.field.pieces_needed();
        Ok(self.engine(&decision).name() == Engine::DepthFirst
            && (unknown >= 6 || (unknown == 5 && placements >= 9)))
    }

    /// The fewest pieces to add to the position's preview for a quick exact answer (0: it
    /// is quick already), at most up to the longest preview.
    fn pieces_to_reveal(
        &self,
        position: &Position,
        decision: &Decision,
    ) -> Result<usize, SolverError> {
        if self.is_quick(decision) {
            return Ok(0);
        }
        let room = MAX_PREVIEW.saturating_sub(position.preview.len());
        // Any continuation of the bag tells how many: the count does not depend on which.
        let mut bag = position.bag_state();
        let mut pieces = Vec::new();
        for more in 1..=room {
            let piece = bag.drawable().first().expect("a bag can always deal");
            bag = bag.draw(piece).expect("drawable");
            pieces.push(piece);
            let longer = with_more(position, &pieces)?;
            let inner = Decision::from_position(&longer, self.rules().hold, longer.preview.len())?;
            if self.is_quick(&inner) {
                return Ok(more);
            }
        }
        Ok(room)
    }

    /// Whether the solver answers a decision quickly: every piece in view, at most
    /// [`QUICK_UNKNOWN`] unknown for the graph's walk or the layered search, or the graph's
    /// window walk (a few pieces into a PC, a fraction of a second).
    fn is_quick(&self, decision: &Decision) -> bool {
        match self.engine(decision).name() {
            Engine::KnownQueue => true,
            Engine::Graph => decision.unknown_pieces() <= QUICK_UNKNOWN || window::takes(decision),
            Engine::Layered => decision.unknown_pieces() <= QUICK_UNKNOWN,
            Engine::DepthFirst => decision.fully_known() || decision.unknown_pieces() <= 2,
        }
    }
}

/// An exact ranking as an estimate with no error.
fn exact(ranking: crate::Recommendation) -> Estimate {
    let exact = |r: pc_bag::Ratio| Mean {
        value: r.to_f64(),
        std_error: 0.0,
    };
    Estimate {
        chance: exact(ranking.chance),
        hold_first: ranking.hold_first.map(exact),
        moves: ranking
            .moves
            .into_iter()
            .map(|m| EstimatedMove {
                mv: m.mv,
                chance: exact(m.chance),
                path: m.path,
            })
            .collect(),
        revealed: 0,
        samples: 1,
        engine: ranking.engine,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn the_mean_and_its_error_are_those_of_the_draws() {
        let mut sums = Sums::default();
        for x in [0.0, 1.0, 1.0, 0.0] {
            sums.add(x);
        }
        let mean = sums.mean();
        assert_eq!(mean.value, 0.5);
        // Sample variance 1/3, over 4 draws.
        assert!((mean.std_error - (1.0f64 / 12.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn draws_deal_only_what_the_bag_can() {
        let mut draws = Draws::new(7);
        let bag = BagState::from_remaining("SZ".parse::<pc_bag::PieceSet>().unwrap());
        for _ in 0..50 {
            let piece = draws.piece(bag);
            assert!(piece == Piece::S || piece == Piece::Z);
        }
    }

    #[test]
    fn a_quick_position_is_answered_exactly() {
        // Every piece of the PC in view: the known-queue search.
        let position = Position::new(
            "##.....###/###....###/####...###/###....###"
                .parse()
                .unwrap(),
            Piece::T,
        )
        .with_hold(Some(Piece::I))
        .with_preview(&[Piece::L, Piece::O, Piece::S, Piece::J, Piece::Z]);
        let mut solver = Solver::new(Rules::default());
        let estimate = solver
            .estimate(&position, EstimateOptions::default())
            .unwrap();
        let ranking = solver.recommend(&position).unwrap();
        assert_eq!(estimate.revealed, 0);
        assert_eq!(estimate.chance.value, ranking.chance.to_f64());
        assert_eq!(estimate.moves.len(), ranking.moves.len());
        assert_eq!(estimate.chance.std_error, 0.0);
    }

    #[test]
    fn more_pieces_in_view_are_drawn_until_the_answer_is_quick() {
        // Four pieces into a PC with one preview: four of the pieces it may use unknown,
        // the second placed before the last is revealed (the depth-first search); with one
        // more in view, three, revealed before they are placed (the layered search).
        let position = Position::new(
            "#........#/##......##/##......##/###....###"
                .parse()
                .unwrap(),
            Piece::T,
        )
        .with_hold(Some(Piece::O))
        .with_preview(&[Piece::S])
        .with_bag("IJLZ".parse().unwrap());
        let options = SolverOptions {
            preview: 1,
            ..SolverOptions::default()
        };
        let mut solver = Solver::with_options(Rules::default(), options.clone()).unwrap();
        let asked = EstimateOptions {
            samples: 5,
            seed: 3,
        };
        let estimate = solver.estimate(&position, asked).unwrap();
        assert_eq!(estimate.revealed, 1);
        assert_eq!(estimate.samples, 5);
        assert_eq!(estimate.engine, Engine::Layered);
        // The mean of exact rankings with the drawn piece in view.
        let two = SolverOptions {
            preview: 2,
            ..options
        };
        let mut longer = Solver::with_options(Rules::default(), two).unwrap();
        let mut draws = Draws::new(asked.seed);
        let drawn: Vec<Piece> = (0..asked.samples)
            .map(|_| draws.piece(position.bag_state()))
            .collect();
        let rankings: Vec<_> = drawn
            .iter()
            .map(|&piece| {
                longer
                    .recommend(&with_more(&position, &[piece]).unwrap())
                    .unwrap()
            })
            .collect();
        let mut worth_of_each = Vec::new();
        for m in &estimate.moves {
            let mut sums = Sums::default();
            for ranking in &rankings {
                let same = ranking.moves.iter().find(|r| r.mv == m.mv).unwrap();
                sums.add(same.chance.to_f64());
            }
            assert_eq!(m.chance, sums.mean(), "{:?}", m.mv);
            worth_of_each.push(sums.mean().value);
        }
        // Best first, and the position's chance is the best move's.
        assert!(worth_of_each.windows(2).all(|w| w[0] >= w[1]));
        assert_eq!(estimate.chance, estimate.moves[0].chance);
        // What the draws estimate: over every piece the bag can deal, each move's chance
        // with it in view is at least its exact chance with one preview.
        let exact = solver.recommend(&position).unwrap();
        for m in &exact.moves {
            let mut all = Sums::default();
            for piece in position.bag_state().drawable().iter() {
                let more = with_more(&position, &[piece]).unwrap();
                let ranking = longer.recommend(&more).unwrap();
                let same = ranking.moves.iter().find(|r| r.mv == m.mv).unwrap();
                all.add(same.chance.to_f64());
            }
            assert!(all.mean().value + 1e-12 >= m.chance.to_f64(), "{:?}", m.mv);
        }
        eprintln!(
            "{:?} {:?} {:?} {}",
            position,
            exact.engine,
            exact.moves.len(),
            exact.chance
        );
        eprintln!(
            "estimate {:?} against exact {}",
            estimate.chance,
            exact.chance.to_f64()
        );
        // The same seed, the same estimate.
        assert_eq!(solver.estimate(&position, asked).unwrap(), estimate);
    }
}
