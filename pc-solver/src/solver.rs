//! [`Solver`]: the exact chance of a perfect clear with a limited preview, and ranked
//! moves. It checks a [`Position`] into a [`Decision`], chooses the [`Engine`] that
//! answers it, and turns what the engine found into moves with their keys.

use crate::decision::{Decision, DecisionKey, MAX_PREVIEW};
use crate::engine::Engine;
use crate::engine::answer::Answerer;
use crate::engine::context::Context;
use crate::engine::depth_first::DepthFirstSearch;
use crate::engine::graph::search::GraphWalk;
use crate::engine::graph::window;
use crate::engine::graph::{GraphError, PcGraph};
use crate::engine::known::{KnownQueue, KnownSolver};
use crate::engine::layered::LayeredSearch;
use crate::engine::tables::Tables;
use crate::error::SolverError;
use crate::field::{Goal, PcField};
use crate::options::SolverOptions;
use crate::position::{Move, Position};
use crate::rules::Rules;
use crate::search::Searcher;
use pc_bag::{BagState, Ratio, best_carry, cycle_phase, pieces_placed_mod_7};
use pc_srs::{Path, Piece, Placement};
use std::sync::Arc;

/// One legal move of a position and its exact chance.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RankedMove {
    /// The move: hold or not, and where the piece locks in the position's field.
    pub mv: Move,
    /// The chance of a perfect clear after this move with best play from there on. For a
    /// hold into an empty slot it is the chance when this placement is chosen whatever
    /// piece the hold reveals.
    pub chance: Ratio,
    /// The keys to press (in the perfect-clear model: the piece enters above the clear
    /// line); `None` when the generator finds no path (it finds one for every move it
    /// generated).
    pub path: Option<Path>,
    /// When every piece this PC needs is in view after the move and the move keeps the
    /// PC possible: the piece it can leave in hold for the next PC, the one the next PC
    /// prefers ([`pc_bag::carry_rank`], at the bag phase the PC ends in).
    /// `None` otherwise, or when the hold slot ends empty.
    pub carry: Option<Piece>,
}

impl From<&RankedMove> for Move {
    fn from(ranked: &RankedMove) -> Move {
        ranked.mv
    }
}

/// Every legal move of a position, best first, with the chance of the position
/// ([`Solver::recommend`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Recommendation {
    /// The chance of a perfect clear from the position with best play.
    pub chance: Ratio,
    /// With the hold slot empty (and hold allowed): the chance when the hold key is
    /// pressed first and the placement is chosen once the next piece shows. That is a
    /// move of its own, worth at least as much as any of the hold entries of `moves`
    /// (which fix the placement before the piece shows); `chance` is the larger of it and
    /// the best entry of `moves`.
    pub hold_first: Option<Ratio>,
    /// Every legal move, best first. Equal chances are ordered by the piece the move can
    /// leave in hold for the next PC ([`RankedMove::carry`]), then by the shorter input,
    /// then no hold first.
    pub moves: Vec<RankedMove>,
    /// A perfect clear that starts with the best move, for one continuation of the bag
    /// that allows it (the placements in play order, each in the field of its moment);
    /// empty when the chance is 0. `pc_fumen::Fumen::from_placements(&position.field,
    /// &line)` turns it into a fumen.
    pub line: Vec<Placement>,
    /// Which engine ranked the moves.
    pub engine: Engine,
}

/// What to do now ([`Solver::best_move`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BestMove {
    /// The chance of a perfect clear from the position with best play.
    pub chance: Ratio,
    /// Press hold into the empty slot first and ask again once the next piece shows
    /// ([`Position::after_hold`]): that is worth more than any placement chosen now.
    pub hold_first: bool,
    /// The best placement with its exact chance and keys; `None` when `hold_first`, and
    /// when no piece can be placed at all (the field has no room for the current piece
    /// or the held one). When nothing can clear, some legal move with chance 0.
    pub best: Option<RankedMove>,
    /// Which engine found it.
    pub engine: Engine,
}

/// The exact-chance solver. Keeps what it learned between calls (positions of the same
/// game share most of their states) within [`SolverOptions::memory_limit`].
///
/// The value of a position is 1 at a PC, 0 when none can be reached, and otherwise the
/// best move's average over the piece the move reveals (see the crate README). Which
/// engine answers a position is the solver's choice ([`Solver::engine_for`]); the values
/// are the same whichever does. The last answers are kept too: a decision asked again, or
/// reached again by other moves, is answered at once.
///
/// ```
/// use pc_solver::{Position, Rules, Solver};
/// use pc_solver::Piece::*;
///
/// // PCO: I held, T L O S J in view, Z the last piece of the bag. Every piece needed
/// // is known, so the chance is 0 or 1.
/// let field = "##.....###/###....###/####...###/###....###".parse()?;
/// let position = Position::new(field, T)
///     .with_hold(Some(I))
///     .with_preview(&[L, O, S, J, Z]);
/// let mut solver = Solver::new(Rules::default());
/// let recommendation = solver.recommend(&position)?;
/// assert!(recommendation.chance.is_one());
/// assert!(recommendation.moves[0].chance.is_one());
/// assert_eq!(recommendation.line.len(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Solver {
    rules: Rules,
    options: SolverOptions,
    tables: Tables,
    /// The last answers, so that a decision asked again (or reached again by other
    /// moves) is answered at once.
    answers: Answers,
}

/// How many recent answers a solver keeps ([`Answers`]).
const ANSWERS_KEPT: usize = 64;

/// The last [`ANSWERS_KEPT`] rankings and best moves, by decision: the most recent last.
#[derive(Default)]
struct Answers {
    recent: std::collections::VecDeque<(DecisionKey, Answer)>,
}

/// A remembered answer.
#[derive(Clone)]
enum Answer {
    Ranking(Recommendation),
    Best(BestMove),
}

impl Answers {
    fn ranking(&self, key: &DecisionKey) -> Option<&Recommendation> {
        self.recent.iter().rev().find_map(|(k, a)| match a {
            Answer::Ranking(r) if k == key => Some(r),
            _ => None,
        })
    }

    fn best(&self, key: &DecisionKey) -> Option<&BestMove> {
        self.recent.iter().rev().find_map(|(k, a)| match a {
            Answer::Best(b) if k == key => Some(b),
            _ => None,
        })
    }

    fn keep(&mut self, key: DecisionKey, answer: Answer) {
        if self.recent.len() == ANSWERS_KEPT {
            self.recent.pop_front();
        }
        self.recent.push_back((key, answer));
    }
}

impl Solver {
    /// A solver for the rules with the default options ([`SolverOptions::default`]).
    pub fn new(rules: Rules) -> Solver {
        Solver {
            rules,
            options: SolverOptions::default(),
            tables: Tables::default(),
            answers: Answers::default(),
        }
    }

    /// A solver for the rules with these options. Errors when the preview is longer
    /// than 6 ([`SolverError::PreviewTooLong`]) or the graph was built for other rules
    /// ([`SolverError::GraphRules`]).
    pub fn with_options(rules: Rules, options: SolverOptions) -> Result<Solver, SolverError> {
        if options.preview > MAX_PREVIEW {
            return Err(SolverError::PreviewTooLong(options.preview));
        }
        if let Some(graph) = &options.graph {
            let expected = crate::RulesId::of(&rules);
            if graph.rules_id() != expected {
                return Err(SolverError::GraphRules {
                    found: graph.rules_id(),
                    expected,
                });
            }
        }
        Ok(Solver {
            rules,
            options,
            tables: Tables::default(),
            answers: Answers::default(),
        })
    }

    /// A solver with the default options and the PC field graph of its rules from the
    /// cache folder ([`PcGraph::load_cached`]): the first decisions of every PC answered
    /// from the graph ([`Engine::Graph`]). Errors when the graph is not there (build it
    /// once with `cargo run --release --example graph -- build`, or
    /// [`PcGraph::build`] and [`PcGraph::save`]) or cannot be read.
    ///
    /// ```no_run
    /// use pc_solver::{Engine, Piece, Position, Rules, Solver};
    ///
    /// let mut solver = Solver::with_cached_graph(Rules::default())?;
    /// let start = Position::from_queue("".parse()?, "JLOSTZ")?.with_hold(Some(Piece::I));
    /// let ranking = solver.recommend(&start)?;
    /// assert_eq!(ranking.engine, Engine::Graph);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_cached_graph(rules: Rules) -> Result<Solver, GraphError> {
        let graph = PcGraph::load_cached(&rules)?;
        let options = SolverOptions {
            graph: Some(Arc::new(graph)),
            ..SolverOptions::default()
        };
        // The graph was read for these rules, so they match.
        Ok(Solver {
            rules,
            options,
            tables: Tables::default(),
            answers: Answers::default(),
        })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The options.
    pub fn options(&self) -> &SolverOptions {
        &self.options
    }

    /// Sets [`SolverOptions::work_limit`] on a solver in use (what it learned stays).
    pub fn set_work_limit(&mut self, decisions: Option<u64>) {
        self.options.work_limit = decisions;
    }

    /// Sets [`SolverOptions::stop`] on a solver in use: the flag that stops a question
    /// under way from another thread (what it learned stays).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use pc_solver::{Position, Rules, Solver, SolverError};
    /// use pc_solver::Piece::*;
    ///
    /// let position = Position::new("####......".parse()?, T)
    ///     .with_hold(Some(O))
    ///     .with_preview(&[S, Z, L, J, I]);
    /// let mut solver = Solver::new(Rules::default());
    /// let stop = Arc::new(AtomicBool::new(true));
    /// solver.set_stop(Some(stop.clone()));
    /// // Set before a question the depth-first search answers: stopped at once.
    /// assert_eq!(
    ///     solver.recommend_by(&position, pc_solver::Engine::DepthFirst),
    ///     Err(SolverError::Stopped)
    /// );
    /// stop.store(false, Ordering::Relaxed);
    /// assert!(solver.recommend(&position)?.chance.numer() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_stop(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.options.stop = flag;
    }

    /// An estimate of the bytes held by what the solver remembers.
    pub fn memory_used(&self) -> usize {
        self.tables.bytes()
    }

    /// Forgets everything the solver remembers.
    pub fn clear(&mut self) {
        self.tables.clear();
        self.answers = Answers::default();
    }

    /// Which engine answers the position, after the checks every question makes.
    ///
    /// ```
    /// use pc_solver::{Engine, Position, Rules, Solver};
    /// use pc_solver::Piece::*;
    ///
    /// let pco = "##.....###/###....###/####...###/###....###".parse()?;
    /// let known = Position::new(pco, T).with_hold(Some(I)).with_preview(&[L, O, S, J, Z]);
    /// let solver = Solver::new(Rules::default());
    /// assert_eq!(solver.engine_for(&known)?, Engine::KnownQueue);
    /// // The first decision of a game, without a graph.
    /// let start = Position::new(Default::default(), T).with_hold(Some(I)).with_preview(&[L, O, S, J, Z]);
    /// assert_eq!(solver.engine_for(&start)?, Engine::Layered);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn engine_for(&self, position: &Position) -> Result<Engine, SolverError> {
        let decision = self.decision(position)?;
        Ok(self.engine(&decision).name())
    }

    /// How many of the pieces a PC from the position may use are not known yet: the
    /// placements it needs, one more with the hold rule (one may stay held), less the
    /// pieces in view (the held one, the current one, the preview, and a piece the bag
    /// state forces). Errors as [`Solver::recommend`].
    ///
    /// ```
    /// use pc_solver::{Position, Rules, Solver, SolverOptions};
    /// use pc_solver::Piece::*;
    ///
    /// // The first decision of a game with five previews, the last piece of the bag forced:
    /// // ten placements, eleven pieces.
    /// let solver = Solver::new(Rules::default());
    /// let five = Position::new(Default::default(), L).with_preview(&[S, I, T, J, O]).with_bag("Z".parse()?);
    /// assert_eq!(solver.unknown_pieces(&five)?, 4);
    /// // With four previews.
    /// let options = SolverOptions { preview: 4, ..SolverOptions::default() };
    /// let solver = Solver::with_options(Rules::default(), options)?;
    /// let four = Position::new(Default::default(), L).with_preview(&[S, I, T, J]).with_bag("OZ".parse()?);
    /// assert_eq!(solver.unknown_pieces(&four)?, 6);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn unknown_pieces(&self, position: &Position) -> Result<usize, SolverError> {
        Ok(self.decision(position)?.unknown_pieces())
    }

    /// Whether a PC field graph of the solver's rules built from the empty field could
    /// answer the position ([`Engine::Graph`]): its clear line is at most 4 and its
    /// pieces lie as the graph's walks take them: one to four of the pieces a PC may use
    /// are not known yet, or five with the hold rule (a piece the bag state forces counts
    /// as known), and the preview shows that many pieces at least, with the hold slot
    /// filled or empty; or, a few pieces into a PC with the hold slot filled (or no hold
    /// rule), one to four pieces in view and up to five unknown. Only the graph knows
    /// whether the field is one of its own; this tells, without one, whether loading it
    /// can help.
    ///
    /// ```
    /// use pc_solver::{Position, Rules, Solver, SolverOptions};
    /// use pc_solver::Piece::*;
    ///
    /// let solver = Solver::new(Rules::default());
    /// let start = Position::new(Default::default(), J).with_hold(Some(I)).with_preview(&[L, O, S, T, Z]);
    /// assert!(solver.graph_could_answer(&start)?);
    /// // The first piece of a game: the hold slot empty, the last piece of the bag forced.
    /// let first = Position::new(Default::default(), L).with_preview(&[S, I, T, J, O]).with_bag("Z".parse()?);
    /// assert!(solver.graph_could_answer(&first)?);
    /// // Every piece in view: the known-queue search answers at once.
    /// let pco = Position::new("##.....###/###....###/####...###/###....###".parse()?, T)
    ///     .with_hold(Some(I))
    ///     .with_preview(&[L, O, S, J, Z]);
    /// assert!(!solver.graph_could_answer(&pco)?);
    /// // Two pieces into a PC, two previews: five unknown, some placed before the last
    /// // of them shows.
    /// let options = SolverOptions { preview: 2, ..SolverOptions::default() };
    /// let two_previews = Solver::with_options(Rules::default(), options)?;
    /// let two_in = Position::new("........../........../#........#/###....###".parse()?, O)
    ///     .with_hold(Some(I))
    ///     .with_preview(&[S, T])
    ///     .with_bag("JLZ".parse()?);
    /// assert!(two_previews.graph_could_answer(&two_in)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn graph_could_answer(&self, position: &Position) -> Result<bool, SolverError> {
        let decision = self.decision(position)?;
        Ok(decision.field.clear_line() <= 4
            && (decision.walks().is_some() || window::takes(&decision)))
    }

    /// Whether a PC field graph of the solver's rules built from the empty field could
    /// speed up the position: [`Solver::graph_could_answer`], or its clear line is at most 4
    /// and some piece of the PC is not in view, so that the depth-first search goes, from a
    /// field of the graph, only into the fields the graph has (the others cannot make a PC).
    /// Only the graph knows whether the field is one of its own.
    ///
    /// ```
    /// use pc_solver::{Position, Rules, Solver, SolverOptions};
    /// use pc_solver::Piece::*;
    ///
    /// let options = SolverOptions { preview: 3, ..SolverOptions::default() };
    /// let solver = Solver::with_options(Rules::default(), options)?;
    /// // The start of a PC with three previews: six pieces not known yet, more than the
    /// // graph's walks take, so the depth-first search answers (it takes hours).
    /// let start = Position::new(Default::default(), J).with_hold(Some(I)).with_preview(&[L, O, S]);
    /// assert!(!solver.graph_could_answer(&start)?);
    /// assert!(solver.graph_could_help(&start)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn graph_could_help(&self, position: &Position) -> Result<bool, SolverError> {
        let decision = self.decision(position)?;
        Ok(decision.field.clear_line() <= 4 && !decision.fully_known())
    }

    /// The chance of a perfect clear from the position with best play.
    pub fn chance(&mut self, position: &Position) -> Result<Ratio, SolverError> {
        let decision = self.decision(position)?;
        let key = decision.key();
        if let Some(known) = self.answers.ranking(&key) {
            return Ok(known.chance);
        }
        if let Some(known) = self.answers.best(&key) {
            return Ok(known.chance);
        }
        if self.goal().reached(&decision.field) {
            return Ok(Ratio::ONE);
        }
        self.forget_if_full();
        let engine = self.engine(&decision);
        engine.value(&mut self.context(), &decision)
    }

    /// What to do now, without the exact value of every other move: moves that cannot
    /// beat the best one found are dropped early, so this is the cheaper question where
    /// one move is certain (the depth-first engine's decisions, or the walks' when a
    /// certain move is found among the first few), and costs about a full ranking
    /// otherwise. Gives the same chance as [`Solver::recommend`] and one of its best
    /// moves: after `recommend` answered the position (the solver keeps its recent
    /// answers), exactly its first move, read from that answer; asked first, the first of
    /// the best moves in move order, which may be another of equal chance.
    ///
    /// ```
    /// use pc_solver::{Position, Rules, Solver};
    /// use pc_solver::Piece::*;
    ///
    /// let field = "#.......##/#.......##/##......##/###....###".parse()?;
    /// let position = Position::new(field, Z)
    ///     .with_hold(Some(I))
    ///     .with_preview(&[S, T, L, J, I])
    ///     .with_bag("JLOSTZ".parse()?);
    /// let mut solver = Solver::new(Rules::default());
    /// let best = solver.best_move(&position)?;
    /// assert!(best.chance.is_one() && !best.hold_first);
    /// let chosen = best.best.expect("a move clears");
    /// assert!(chosen.chance.is_one());
    /// let next = position.after(&chosen, &[O])?;
    /// assert!(solver.chance(&next)?.is_one());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn best_move(&mut self, position: &Position) -> Result<BestMove, SolverError> {
        let decision = self.decision(position)?;
        let key = decision.key();
        if let Some(known) = self.answers.best(&key) {
            return Ok(known.clone());
        }
        if let Some(ranking) = self.answers.ranking(&key) {
            return Ok(BestMove::from(ranking));
        }
        let engine = self.engine(&decision);
        if self.goal().reached(&decision.field) {
            return Ok(BestMove::from(&Recommendation::cleared(engine.name())));
        }
        self.forget_if_full();
        let found = engine.best(&mut self.context(), &decision)?;
        let best = found
            .chosen
            .filter(|_| found.hold_first.is_none())
            .map(|mv| RankedMove {
                mv,
                chance: found.value,
                path: self.path(&decision.field, &mv.placement),
                carry: None,
            });
        let found = BestMove {
            chance: found.hold_first.unwrap_or(found.value),
            hold_first: found.hold_first.is_some(),
            best,
            engine: engine.name(),
        };
        self.answers.keep(key, Answer::Best(found.clone()));
        Ok(found)
    }

    /// Every legal move of the position with its exact chance, best first, and a sample
    /// perfect clear for the best move.
    pub fn recommend(&mut self, position: &Position) -> Result<Recommendation, SolverError> {
        let decision = self.decision(position)?;
        let key = decision.key();
        if let Some(known) = self.answers.ranking(&key) {
            return Ok(known.clone());
        }
        let found = self.recommend_decision(&decision, self.engine(&decision))?;
        self.answers.keep(key, Answer::Ranking(found.clone()));
        Ok(found)
    }

    /// As [`Solver::recommend`], answered by `engine` rather than the solver's choice:
    /// for checking one engine against another (the values are the same) and for
    /// comparing their times. Errors with [`SolverError::EngineDoesNotApply`] when the
    /// engine does not answer the position (see [`Engine`]).
    ///
    /// ```
    /// use pc_solver::{Engine, Position, Rules, Solver};
    /// use pc_solver::Piece::*;
    ///
    /// // 9 pieces left, O held: the layered search's decision.
    /// let position = Position::new("####......".parse()?, T)
    ///     .with_hold(Some(O))
    ///     .with_preview(&[S, Z, L, J, I]);
    /// let mut solver = Solver::new(Rules::default());
    /// let layered = solver.recommend(&position)?;
    /// assert_eq!(layered.engine, Engine::Layered);
    /// let depth_first = solver.recommend_by(&position, Engine::DepthFirst)?;
    /// assert_eq!((layered.chance, &layered.moves), (depth_first.chance, &depth_first.moves));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn recommend_by(
        &mut self,
        position: &Position,
        engine: Engine,
    ) -> Result<Recommendation, SolverError> {
        let decision = self.decision(position)?;
        let answerer = ENGINES
            .into_iter()
            .find(|e| e.name() == engine)
            .filter(|e| e.applies(&self.options, &decision))
            .ok_or(SolverError::EngineDoesNotApply(engine))?;
        self.recommend_decision(&decision, answerer)
    }

    /// The exact chances of some of the position's moves, tried in the order given and
    /// stopping after the first that is certain: the moves after it, and moves the
    /// position does not have, get `None`. One move costs a fraction of
    /// [`Solver::recommend`]'s full ranking. With `max_states`, the moves not valued
    /// within that many states below the position (decisions, for the depth-first
    /// engine; the graph's walk takes no budget) get `None` too, so that a caller can
    /// bound the time of a question and play what was valued.
    ///
    /// ```
    /// use pc_solver::{Position, Rules, Solver};
    /// use pc_solver::Piece::*;
    ///
    /// let position = Position::new("####......".parse()?, T)
    ///     .with_hold(Some(O))
    ///     .with_preview(&[S, Z, L, J, I]);
    /// let mut solver = Solver::new(Rules::default());
    /// let ranking = solver.recommend(&position)?;
    /// let worst: Vec<_> = ranking.moves.iter().rev().take(3).map(|m| m.mv).collect();
    /// let chances = solver.chances_of(&position, &worst, None)?;
    /// let expected: Vec<_> = ranking.moves.iter().rev().take(3).map(|m| Some(m.chance)).collect();
    /// assert_eq!(chances, expected);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn chances_of(
        &mut self,
        position: &Position,
        moves: &[Move],
        max_states: Option<u64>,
    ) -> Result<Vec<Option<Ratio>>, SolverError> {
        let decision = self.decision(position)?;
        if self.goal().reached(&decision.field) {
            // Already a PC: the position has no moves.
            return Ok(vec![None; moves.len()]);
        }
        self.forget_if_full();
        let engine = self.engine(&decision);
        engine.chances_of(&mut self.context(), &decision, moves, max_states)
    }

    /// The decision of a position, checked.
    pub(crate) fn decision(&self, position: &Position) -> Result<Decision, SolverError> {
        Decision::from_position(position, self.rules.hold, self.options.preview)
    }

    /// What the engines work with.
    fn context(&mut self) -> Context<'_> {
        Context {
            rules: &self.rules,
            options: &self.options,
            tables: &mut self.tables,
        }
    }

    fn goal(&self) -> Goal {
        Goal {
            lower_clears: self.options.two_line,
        }
    }

    /// Past the memory limit, forgets everything before a question.
    fn forget_if_full(&mut self) {
        if self.memory_used() > self.options.memory_limit {
            self.clear();
        }
    }

    /// The engine that answers a decision: the first of [`ENGINES`] that applies.
    pub(crate) fn engine(&self, decision: &Decision) -> &'static dyn Answerer {
        ENGINES
            .into_iter()
            .find(|engine| engine.applies(&self.options, decision))
            .unwrap_or(&DepthFirstSearch)
    }

    fn recommend_decision(
        &mut self,
        decision: &Decision,
        engine: &dyn Answerer,
    ) -> Result<Recommendation, SolverError> {
        if self.goal().reached(&decision.field) {
            return Ok(Recommendation::cleared(engine.name()));
        }
        self.forget_if_full();
        let mut context = self.context();
        let ranking = engine.rank(&mut context, decision, false)?;
        // The best of the placements and of holding first.
        let chance = ranking.chance();
        let (ranked, hold_first) = (ranking.moves, ranking.hold_first);
        // What each move can leave for the next PC (moves with a chance only).
        let carries = Carries::new(decision);
        let mut known = KnownSolver::over(&mut context);
        let carried: Vec<Option<(Option<Piece>, u16)>> = ranked
            .iter()
            .map(|(mv, chance)| {
                (!chance.is_zero())
                    .then(|| carries.best(&mut known, decision, mv))
                    .flatten()
            })
            .collect();
        let mut moves: Vec<(Option<u16>, RankedMove)> = ranked
            .into_iter()
            .zip(carried)
            .map(|((mv, chance), carried)| {
                let ranked = RankedMove {
                    mv,
                    chance,
                    path: self.path(&decision.field, &mv.placement),
                    carry: carried.and_then(|(piece, _)| piece),
                };
                (carried.map(|(_, rank)| rank), ranked)
            })
            .collect();
        moves.sort_by(|(rank_a, a), (rank_b, b)| {
            b.chance
                .cmp(&a.chance)
                .then_with(|| rank_b.cmp(rank_a))
                .then_with(|| path_len(a).cmp(&path_len(b)))
                .then_with(|| a.mv.hold.cmp(&b.mv.hold))
        });
        let moves: Vec<RankedMove> = moves.into_iter().map(|(_, m)| m).collect();
        let line = match moves.first() {
            Some(best) if !best.chance.is_zero() => self.sample_line(decision, best.mv),
            _ => Vec::new(),
        };
        Ok(Recommendation {
            chance,
            hold_first,
            moves,
            line,
            engine: engine.name(),
        })
    }

    /// The keys to a placement in the perfect-clear model.
    fn path(&self, field: &PcField, placement: &Placement) -> Option<Path> {
        self.rules
            .generator()
            .path(field.board(), placement, field.clear_line())
            .ok()
            .flatten()
    }

    /// One perfect clear starting with `best`, for the first continuation of the bag that
    /// allows one.
    fn sample_line(&self, decision: &Decision, best: Move) -> Vec<Placement> {
        let (hold_after, rest) = pieces_after(decision, best.hold);
        let after = decision.field.place(&best.placement);
        let mut line = vec![best.placement];
        if self.goal().reached(&after) {
            return line;
        }
        let mut searcher = Searcher::new(self.rules.clone());
        let known = rest.len() + hold_after.is_some() as usize;
        let wanted = after.pieces_needed() as usize + self.rules.hold as usize;
        let unknown = wanted.saturating_sub(known);
        let Ok(continuations) = BagState::from_remaining(decision.bag).continuations(unknown)
        else {
            return Vec::new();
        };
        for (sequence, _) in continuations {
            let mut pieces = rest.to_vec();
            pieces.extend(sequence);
            if let Some(solution) = searcher.solution(&after, hold_after, &pieces) {
                line.extend(solution.placements());
                return line;
            }
        }
        Vec::new()
    }
}

/// The engines in the order the solver tries them: the first that applies answers.
const ENGINES: [&dyn Answerer; 4] = [&GraphWalk, &KnownQueue, &LayeredSearch, &DepthFirstSearch];

impl Recommendation {
    /// The answer for a field that is already a PC: nothing to place.
    fn cleared(engine: Engine) -> Recommendation {
        Recommendation {
            chance: Ratio::ONE,
            hold_first: None,
            moves: Vec::new(),
            line: Vec::new(),
            engine,
        }
    }
}

impl From<&Recommendation> for BestMove {
    /// The first move of a ranking, or holding first when that is worth more.
    fn from(ranking: &Recommendation) -> BestMove {
        let best = ranking.moves.first();
        let hold_first = ranking
            .hold_first
            .is_some_and(|h| best.is_none_or(|b| h > b.chance));
        BestMove {
            chance: ranking.chance,
            hold_first,
            best: best.filter(|_| !hold_first).cloned(),
            engine: ranking.engine,
        }
    }
}

/// The hold slot after a move (hold pressed or not) and the pieces of the queue after
/// the one it plays.
fn pieces_after(decision: &Decision, hold: bool) -> (Option<Piece>, &[Piece]) {
    let queue = decision.queue.as_slice();
    match (hold, decision.hold) {
        (false, _) => (decision.hold, &queue[1..]),
        (true, Some(_)) => (Some(queue[0]), &queue[1..]),
        (true, None) => (Some(queue[0]), &queue[2.min(queue.len())..]),
    }
}

/// What a move can leave in hold for the next PC, when the pieces in view decide it.
struct Carries {
    /// The phase of the 7-bag cycle the next PC starts at, when every piece of this PC
    /// is in view.
    phase: Option<usize>,
}

impl Carries {
    fn new(decision: &Decision) -> Carries {
        let hold = decision.hold_rule;
        let in_view = decision.queue.len() + decision.hold.is_some() as usize;
        let needed = decision.field.pieces_needed();
        let known = hold && in_view > needed as usize;
        let bag_left = decision.bag.len();
        let placed = pieces_placed_mod_7(bag_left, in_view);
        Carries {
            phase: known.then(|| cycle_phase(placed + u64::from(needed))),
        }
    }

    /// The best piece (and its rank) that the move can leave in hold at the PC.
    fn best(
        &self,
        known: &mut KnownSolver<'_>,
        decision: &Decision,
        mv: &Move,
    ) -> Option<(Option<Piece>, u16)> {
        let phase = self.phase?;
        let (held, rest) = pieces_after(decision, mv.hold);
        let child = decision.field.place(&mv.placement);
        best_carry(phase, known.carries(child, held, rest))
    }
}

fn path_len(m: &RankedMove) -> usize {
    m.path.as_ref().map_or(usize::MAX, |p| p.inputs().len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::layered::MOVES_BY_HELPERS;

    /// 9 pieces left with O held: the layered search values the moves.
    fn nine_left() -> Position {
        let queue: Vec<Piece> = "TSZLJI".chars().filter_map(Piece::from_char).collect();
        Position::new("####......".parse().unwrap(), queue[0])
            .with_hold(Some(Piece::O))
            .with_preview(&queue[1..])
            .with_bag("OTSZLJ".parse().unwrap())
    }

    fn solver(rules: Rules, preview: usize, threads: usize) -> Solver {
        let options = SolverOptions {
            preview,
            threads,
            ..SolverOptions::default()
        };
        Solver::with_options(rules, options).unwrap()
    }

    /// Threads share out the moves of a layered search: every move keeps its value, with
    /// and without hold.
    #[test]
    fn threads_rank_the_moves_as_one_thread_does() {
        let no_hold = Position::new(
            "####....../####....../####....../####......"
                .parse()
                .unwrap(),
            Piece::T,
        )
        .with_preview(&[Piece::S, Piece::Z])
        .with_bag("IOLJ".parse().unwrap());
        let cases = [
            (Rules::default(), 5, nine_left()),
            (Rules::without_hold(), 2, no_hold),
        ];
        for (rules, preview, position) in cases {
            let mut one = solver(rules.clone(), preview, 1);
            let alone = one.recommend(&position).unwrap();
            assert_eq!(alone.engine, Engine::Layered);
            let mut two = solver(rules, preview, 2);
            let helped = || MOVES_BY_HELPERS.load(std::sync::atomic::Ordering::Relaxed);
            let before = helped();
            let shared = two.recommend(&position).unwrap();
            assert_eq!(shared, alone, "{position:?}");
            // The second thread valued some of the moves (the first takes many ms each).
            assert!(helped() > before);
            // Values differ from move to move, so a move valued wrongly would show.
            assert!(alone.moves.iter().any(|m| m.chance != alone.chance));
            // Asked again, with the fill orders every thread found in the solver's memo.
            two.answers = Answers::default();
            assert_eq!(two.recommend(&position).unwrap(), alone);
        }
    }

    #[test]
    fn a_state_budget_leaves_moves_unvalued_never_misvalued() {
        let position = nine_left();
        // The worst moves first, so that no certain move stops the valuing early.
        let mut ranked = solver(Rules::default(), 5, 1)
            .recommend(&position)
            .unwrap()
            .moves;
        ranked.reverse();
        let moves: Vec<Move> = ranked.iter().map(|m| m.mv).collect();
        let exact = solver(Rules::default(), 5, 1)
            .chances_of(&position, &moves, None)
            .unwrap();
        let expected: Vec<Option<Ratio>> = ranked.iter().map(|m| Some(m.chance)).collect();
        // Every move up to the first certain one (if any) is valued, as `recommend` values
        // it.
        let all = expected
            .iter()
            .position(|v| *v == Some(Ratio::ONE))
            .map_or(expected.len(), |c| c + 1);
        assert_eq!(exact[..all], expected[..all]);
        assert!(all > 10);
        let mut cut_short = 0;
        for budget in [0, 100, 2_000, 10_000, 40_000, u64::MAX] {
            let values = solver(Rules::default(), 5, 1)
                .chances_of(&position, &moves, Some(budget))
                .unwrap();
            // A prefix of the moves is valued, each exactly; the rest are not.
            let valued = values.iter().take_while(|v| v.is_some()).count();
            assert_eq!(values[..valued], exact[..valued], "budget {budget}");
            assert!(
                values[valued..].iter().all(Option::is_none),
                "budget {budget}"
            );
            if 0 < valued && valued < all {
                cut_short += 1;
            }
            if budget == 0 {
                assert_eq!(valued, 0);
            }
            if budget == u64::MAX {
                assert_eq!(values, exact);
            }
        }
        // Some budgets in between cut the valuing short after some moves.
        assert!(cut_short >= 2, "{cut_short}");
    }

    /// A decision asked again, or reached again, is answered from the solver's recent
    /// answers, whatever its tables hold.
    #[test]
    fn a_decision_asked_again_is_answered_at_once() {
        let position = nine_left();
        let mut solver = solver(Rules::default(), 5, 1);
        let ranking = solver.recommend(&position).unwrap();
        let best = solver.best_move(&position).unwrap();
        // Without the tables the layered search would have to walk again.
        solver.tables.clear();
        assert_eq!(solver.recommend(&position).unwrap(), ranking);
        assert_eq!(solver.best_move(&position).unwrap(), best);
        assert_eq!(solver.chance(&position).unwrap(), ranking.chance);
        assert_eq!(solver.memory_used(), 0);
        // Past its size the oldest answers go.
        for k in 0..ANSWERS_KEPT {
            solver.answers.keep(
                Decision::from_position(
                    &Position::new(Default::default(), Piece::ALL[k % 7]),
                    true,
                    0,
                )
                .unwrap()
                .key(),
                Answer::Best(best.clone()),
            );
        }
        assert!(
            solver
                .answers
                .ranking(&Decision::from_position(&position, true, 5).unwrap().key())
                .is_none()
        );
    }
}
