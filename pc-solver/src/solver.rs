//! The exact chance of a perfect clear with a limited preview, and ranked moves.
//!
//! The value of a position is the chance of a PC under optimal play with the player's own
//! information: 1 at a PC, 0 when none can be reached, otherwise the best move's average
//! over the piece that the move reveals at the end of the preview (drawn uniformly from
//! what the bag has left). Once the pieces in view cover the rest of the PC, the value is
//! 0 or 1 and the known-queue search answers it; one move before that, a single search
//! answers it for every possible revealed piece at once.
//!
//! Below the root only the best move of a position matters, so a move is dropped as soon
//! as its revealed pieces cannot lift its average above the best move found so far (the
//! "Star1" cut of expectimax). Every value that is stored is exact.
//!
//! The first decisions of a PC (three or four pieces not revealed yet, the hold slot
//! filled) go to the layered search of [`crate::engine::layered`] instead, which values every move
//! in one walk over the states the pieces in view reach.

use crate::carry::{best_carry, cycle_phase, placed_mod_7};
use crate::engine::expectimax::{Expectimax, Node, NodeKey, Queue};
use crate::engine::graph::{GraphError, PcGraph, RulesId, suffix::SuffixMemo};
use crate::engine::known::{Goal, KnownMemo, KnownSolver};
use crate::error::SolverError;
use crate::fumen::Fumen;
use crate::position::Position;
use crate::problem::PcProblem;
use crate::rules::Rules;
use crate::search::Searcher;
use ahash::AHashMap;
use pc_bag::{BagState, Ratio};
use pc_srs::{Path, Piece, Placement};

/// Pieces visible at most: the current piece and six previews.
pub(crate) const MAX_QUEUE: usize = 7;

/// Bytes a remembered state costs, counted generously (key, value, table overhead).
const BYTES_PER_STATE: usize = 64;

/// One legal move of a position and its exact chance.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RankedMove {
    /// Whether the hold key is pressed first (the piece placed is then the held piece, or
    /// with an empty slot the next piece of the queue).
    pub hold: bool,
    /// Where the piece locks, in the position's field.
    pub placement: Placement,
    /// The chance of a perfect clear after this move with best play from there on. For a
    /// hold into an empty slot it is the chance when this placement is chosen whatever
    /// piece the hold reveals.
    pub chance: Ratio,
    /// The keys to press (in the perfect-clear model: the piece enters above the clear
    /// line).
    pub path: Option<Path>,
    /// When every piece this PC needs is in view after the move and the move keeps the
    /// PC possible: the piece it can leave in hold for the next PC, the one the next PC
    /// prefers ([`crate::carry::carry_rank`], at the bag phase the PC ends in). `None`
    /// otherwise, or when the hold slot ends empty.
    pub carry: Option<Piece>,
}

/// Every legal move of a position, best first, with the chance of the position.
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
    /// Every legal move, best first (ties: shorter input, then no hold).
    pub moves: Vec<RankedMove>,
    /// A perfect clear that starts with the best move, for one continuation of the bag
    /// that allows it (the placements in play order, each in the field of its moment);
    /// empty when the chance is 0.
    pub line: Vec<Placement>,
    /// Which search ranked the moves.
    pub engine: Engine,
}

/// Which search answered a question: the values are the same whichever did; the time is
/// not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Engine {
    /// The walk over the solver's PC field graph ([`Solver::with_graph`]): decisions on
    /// the graph's fields with the hold slot filled (or no hold) and one to four pieces
    /// not revealed yet.
    Graph,
    /// The layered search ([`Solver::with_layered`]): decisions with three or four pieces
    /// not revealed yet.
    Layered,
    /// The depth-first search over decisions and reveals, or the known-queue search once
    /// every piece the PC needs is in view.
    Search,
}

impl Engine {
    /// `"graph"`, `"layered"` or `"search"`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Graph => "graph",
            Engine::Layered => "layered",
            Engine::Search => "search",
        }
    }
}

impl Recommendation {
    /// The sample line as a fumen, one page per placement, starting from the position's
    /// field (paste `v115@…` into a fumen viewer to step through it).
    ///
    /// ```
    /// # use pc_solver::{Position, Rules, Solver};
    /// # use pc_solver::Piece::*;
    /// let field = "##.....###/###....###/####...###/###....###".parse()?;
    /// let position = Position::new(field, T).with_hold(Some(I)).with_preview(&[L, O, S, J, Z]);
    /// let recommendation = Solver::new(Rules::default()).recommend(&position)?;
    /// let fumen = recommendation.line_fumen(&position);
    /// assert_eq!(fumen.pages.len(), 4);
    /// assert!(fumen.to_string().starts_with("v115@"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn line_fumen(&self, position: &Position) -> Fumen {
        // Positions are checked against the clear line (at most 8 rows), so the field
        // and every placement of a line fit in a fumen's 23 rows.
        Fumen::from_placements(&position.field, &self.line)
    }
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
    /// The best placement with its exact chance and keys, unless `hold_first`; `None`
    /// also when no piece can be placed. When nothing can clear, some legal move with
    /// chance 0.
    pub best: Option<RankedMove>,
    /// Which search found it.
    pub engine: Engine,
}

/// The exact-chance solver. Keeps what it learned between calls (positions of the same
/// game share most of their states) within a memory budget.
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
    preview: usize,
    goal: Goal,
    memory_limit: usize,
    work_limit: Option<u64>,
    layered: bool,
    threads: usize,
    known: KnownMemo,
    values: AHashMap<NodeKey, Ratio>,
    orders: crate::engine::layered::OrderMemo,
    graph: Option<std::sync::Arc<PcGraph>>,
    suffixes: SuffixMemo,
}

impl Solver {
    /// A solver for the rules, with five previews, 4-line (or the position's) PCs only,
    /// and a 256 MiB memory budget.
    pub fn new(rules: Rules) -> Solver {
        Solver {
            rules,
            preview: 5,
            goal: Goal {
                lower_clears: false,
            },
            memory_limit: 256 << 20,
            work_limit: None,
            layered: true,
            threads: crate::default_threads(),
            known: KnownMemo::default(),
            values: AHashMap::new(),
            orders: crate::engine::layered::OrderMemo::default(),
            graph: None,
            suffixes: SuffixMemo::default(),
        }
    }

    /// The same solver answering from `graph` the decisions on its fields (the first
    /// decisions of a PC among them) whose shape the graph's walk takes: a filled hold
    /// slot (or no hold rule) and one to four pieces not revealed yet. The values are the
    /// same; only the time differs. The graph must have been built for these rules.
    pub fn with_graph(mut self, graph: std::sync::Arc<PcGraph>) -> Result<Solver, GraphError> {
        let id = RulesId::of(&self.rules);
        if graph.rules_id() != id {
            return Err(GraphError::OtherRules {
                found: graph.rules_id(),
                expected: id,
            });
        }
        self.graph = Some(graph);
        self.clear();
        Ok(self)
    }

    /// The graph the solver answers from, if any.
    pub fn graph(&self) -> Option<&PcGraph> {
        self.graph.as_deref()
    }

    /// The same solver with `preview` pieces shown after the current one (0 to 6).
    pub fn with_preview(mut self, preview: usize) -> Result<Solver, SolverError> {
        if preview > MAX_QUEUE - 1 {
            return Err(SolverError::PreviewTooLong(preview));
        }
        self.preview = preview;
        self.clear();
        Ok(self)
    }

    /// The same solver counting a PC of fewer lines than the clear line (a 2-line PC while
    /// building a 4-line one) as a success.
    pub fn with_two_line(mut self, two_line: bool) -> Solver {
        self.goal.lower_clears = two_line;
        self.clear();
        self
    }

    /// The same solver with another memory budget in bytes for what it remembers; when a
    /// search passes it, the solver forgets everything and goes on.
    pub fn with_memory_limit(mut self, bytes: usize) -> Solver {
        self.memory_limit = bytes;
        self
    }

    /// Whether decisions with three or four pieces not revealed yet (the first decisions
    /// of a PC) are answered by the layered search (see the crate README): every state
    /// the pieces in view reach is enumerated once and every move's value comes out of
    /// one backward pass. On by default; off, the depth-first search answers every
    /// decision, as it does anyway while a work limit is set. Values are the same either
    /// way (tested); only the time differs: from the empty field with the hold and six
    /// pieces in view, about 7.5 s against over two minutes for the best move alone. Its
    /// tables of states live for one call (the fills of fields it finds are kept with the
    /// solver's other tables, within [`Solver::with_memory_limit`]); that call peaked at
    /// 281 MB of resident memory for the whole process.
    ///
    /// ```
    /// use pc_bag::PieceSet;
    /// use pc_solver::{Engine, Position, Rules, Solver};
    /// use pc_solver::Piece::*;
    ///
    /// // 7 pieces left, 3 in view after the hold: 3 pieces unknown.
    /// let field = "###......./####....../###......./##........".parse()?;
    /// let position = Position::new(field, T)
    ///     .with_hold(Some(I))
    ///     .with_preview(&[L, J, O])
    ///     .with_bag("SZ".parse::<PieceSet>()?);
    /// let layered = Solver::new(Rules::default()).with_preview(3)?.recommend(&position)?;
    /// let depth_first = Solver::new(Rules::default())
    ///     .with_preview(3)?
    ///     .with_layered(false)
    ///     .recommend(&position)?;
    /// assert_eq!((layered.chance, &layered.moves), (depth_first.chance, &depth_first.moves));
    /// assert_eq!((layered.engine, depth_first.engine), (Engine::Layered, Engine::Search));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_layered(mut self, layered: bool) -> Solver {
        self.layered = layered;
        self
    }

    /// The same solver giving up on a question (with [`SolverError::WorkLimit`]) once it
    /// has evaluated `decisions` decisions it did not know from earlier questions; `None`
    /// (the default) for no limit. Only finished decisions are remembered, so the tables
    /// stay exact and asking again goes on where the search stopped. A count of decisions
    /// rather than a clock keeps answers the same on every machine; on the 2-core VM of
    /// the README a decision cost 1.7 ms on average with 9 pieces left (3,954 in 6.8 s)
    /// and 2.9 ms with 8 (166 in 0.48 s), in the two positions measured.
    ///
    /// ```
    /// use pc_bag::PieceSet;
    /// use pc_solver::{Position, Rules, Solver, SolverError};
    /// use pc_solver::Piece::*;
    ///
    /// let position = Position::new("##......../##......../##......../##........".parse()?, T)
    ///     .with_hold(Some(O))
    ///     .with_preview(&[S, Z, I, L, J])
    ///     .with_bag("IOSTZ".parse::<PieceSet>()?);
    /// // Ranking every move needs more than 10 decisions.
    /// let mut solver = Solver::new(Rules::default()).with_work_limit(Some(10));
    /// assert_eq!(solver.recommend(&position).unwrap_err(), SolverError::WorkLimit(10));
    /// solver.set_work_limit(None);
    /// assert!(solver.recommend(&position)?.chance.is_one());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_work_limit(mut self, decisions: Option<u64>) -> Solver {
        self.work_limit = decisions;
        self
    }

    /// The same solver ranking the moves of a layered search (see
    /// [`Solver::with_layered`]) with `threads` threads (0 counts as 1). Without the
    /// `parallel` feature the default is 1, this thread alone; with it, the machine's
    /// threads. Only [`Solver::recommend`] uses them, and only when the layered search
    /// answers. Each thread takes every n-th move; it reads the fill orders the solver has
    /// and keeps the rest of its tables to itself (not counted in
    /// [`Solver::with_memory_limit`]), so threads repeat some work and take more memory.
    /// The fill orders they find join the solver's at the end. The values are the same.
    /// On the 2-core VM of the README, the first decision from the empty field (I held,
    /// `TSZLJO` in view) takes 6.75 s with one thread and 4.27 s with two (criterion
    /// medians, `cargo bench -p pc-benches --features parallel --bench threads`).
    ///
    /// ```
    /// use pc_solver::{Position, Rules, Solver};
    /// use pc_solver::Piece::*;
    ///
    /// // 9 pieces left (an I down), O held: three pieces unknown.
    /// let position = Position::new("####......".parse()?, T)
    ///     .with_hold(Some(O))
    ///     .with_preview(&[S, Z, L, J, I]);
    /// let one = Solver::new(Rules::default()).with_threads(1).recommend(&position)?;
    /// let two = Solver::new(Rules::default()).with_threads(2).recommend(&position)?;
    /// assert_eq!(one, two);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "parallel")]
    pub fn with_threads(mut self, threads: usize) -> Solver {
        self.threads = threads.max(1);
        self
    }

    /// Sets the work limit of [`Solver::with_work_limit`] on a solver in use.
    pub fn set_work_limit(&mut self, decisions: Option<u64>) {
        self.work_limit = decisions;
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The preview length.
    pub fn preview(&self) -> usize {
        self.preview
    }

    /// An estimate of the bytes held by remembered states.
    pub fn memory_used(&self) -> usize {
        (self.known.len() + self.values.len() + self.orders.len()) * BYTES_PER_STATE
            + self.suffixes.bytes()
    }

    /// Forgets every remembered state.
    pub fn clear(&mut self) {
        self.known.clear();
        self.values.clear();
        self.orders.clear();
        self.suffixes.clear();
    }

    /// The exact chances of some of the position's moves (hold pressed, placement), tried
    /// in the order given and stopping after the first one that is certain: the moves
    /// after it, and moves the position does not have, get `None`. `Ok(None)` when the
    /// layered search does not answer the position (see [`Solver::with_layered`]). One
    /// move costs a fraction of [`Solver::recommend`]'s full ranking. With `max_states`,
    /// the moves not valued within that many search states get `None` too.
    pub(crate) fn chances_of(
        &mut self,
        position: &Position,
        moves: &[(bool, Placement)],
        max_states: Option<u64>,
    ) -> Result<Option<Vec<Option<Ratio>>>, SolverError> {
        let node = self.root(position)?;
        Ok(self.engine().values_of(&node, moves, max_states))
    }

    /// Whether the solver's graph ([`Solver::with_graph`]) answers the decision of this
    /// position: `false` without a graph, for a position that is not valid, or one whose
    /// field or shape the graph's walk does not take.
    pub(crate) fn graph_answers(&mut self, position: &Position) -> bool {
        if self.graph.is_none() {
            return false;
        }
        match self.root(position) {
            Ok(node) => self.engine().walks(&node),
            Err(_) => false,
        }
    }

    /// The chance of a perfect clear from the position with best play.
    pub fn chance(&mut self, position: &Position) -> Result<Ratio, SolverError> {
        let node = self.root(position)?;
        let mut engine = self.engine();
        if engine.goal.reached(&node.field) {
            return Ok(Ratio::ONE);
        }
        match engine.rank_layered(&node, true) {
            Some(ranked) => Ok(best_of(&ranked)),
            None => engine.value(&node),
        }
    }

    /// What to do now, without the exact value of every other move: moves that cannot
    /// beat the best one found are dropped early, as below the root, so this is several
    /// times faster than [`Solver::recommend`] on hard positions (9.5 s against 26 s with 9
    /// pieces left, measured once) and gives the same chance and a best move.
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
        let node = self.root(position)?;
        let board = *node.field.board();
        let clear_line = node.field.height();
        let mut engine = self.engine();
        let found = match engine.rank_layered(&node, true) {
            Some(ranked) => crate::engine::expectimax::BestAtRoot {
                value: best_of(&ranked),
                chosen: ranked
                    .iter()
                    .fold(
                        None,
                        |best: Option<&(bool, Placement, Ratio)>, m| match best {
                            Some(b) if b.2 >= m.2 => Some(b),
                            _ => Some(m),
                        },
                    )
                    .map(|&(hold, placement, _)| (hold, placement)),
                hold_first: None,
            },
            None => engine.best(&node)?,
        };
        let answered_by = engine.answered_by();
        let generator = self.rules.generator();
        let best = found.chosen.map(|(hold, placement)| RankedMove {
            hold,
            placement,
            chance: found.value,
            path: generator
                .path(&board, &placement, clear_line)
                .ok()
                .flatten(),
            carry: None,
        });
        Ok(BestMove {
            chance: found.hold_first.unwrap_or(found.value),
            hold_first: found.hold_first.is_some(),
            best: best.filter(|_| found.hold_first.is_none()),
            engine: answered_by,
        })
    }

    /// Every legal move of the position with its exact chance, best first, and a sample
    /// perfect clear for the best move.
    pub fn recommend(&mut self, position: &Position) -> Result<Recommendation, SolverError> {
        let node = self.root(position)?;
        let board = *node.field.board();
        let clear_line = node.field.height();
        let carries = Carries::new(&node, position, self.rules.hold);
        let mut engine = self.engine();
        let (mut ranked, chance) = match engine.rank_layered(&node, false) {
            Some(ranked) => {
                let best = best_of(&ranked);
                (ranked, best)
            }
            None => (engine.rank(&node)?, engine.value(&node)?),
        };
        let answered_by = engine.answered_by();
        let hold_first = if engine.holds_into_empty(&node) {
            engine.hold_into_empty(&node, None)?
        } else {
            None
        };
        // What each move can leave for the next PC (moves with a chance only).
        let carried: Vec<Option<(Option<Piece>, u16)>> = ranked
            .iter()
            .map(|(hold, placement, chance)| {
                (!chance.is_zero())
                    .then(|| carries.best(&mut engine.known, &node, *hold, placement))
                    .flatten()
            })
            .collect();
        let generator = self.rules.generator();
        let mut moves: Vec<(Option<u16>, RankedMove)> = ranked
            .drain(..)
            .zip(carried)
            .map(|((hold, placement, chance), carried)| {
                let ranked = RankedMove {
                    hold,
                    placement,
                    chance,
                    path: generator
                        .path(&board, &placement, clear_line)
                        .ok()
                        .flatten(),
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
                .then_with(|| a.hold.cmp(&b.hold))
        });
        let moves: Vec<RankedMove> = moves.into_iter().map(|(_, m)| m).collect();
        let line = match moves.first() {
            Some(best) if !best.chance.is_zero() => self.sample_line(&node, best),
            _ => Vec::new(),
        };
        Ok(Recommendation {
            chance,
            hold_first,
            moves,
            line,
            engine: answered_by,
        })
    }

    /// Validates a position and turns it into a search node.
    fn root(&mut self, position: &Position) -> Result<Node, SolverError> {
        if position.preview.len() > MAX_QUEUE - 1 {
            return Err(SolverError::PreviewTooLong(position.preview.len()));
        }
        if position.preview.len() != self.preview {
            return Err(SolverError::PreviewLength {
                expected: self.preview,
                given: position.preview.len(),
            });
        }
        position.check_bag()?;
        let problem = PcProblem::new(position.field, position.clear_line, self.rules.clone())?;
        if self.memory_used() > self.memory_limit {
            self.clear();
        }
        Ok(Node {
            field: *problem.field(),
            hold: if self.rules.hold { position.hold } else { None },
            queue: Queue::new(&position.queue()),
            bag: position.bag_state().remaining().bits(),
            can_hold: self.rules.hold && !position.hold_used,
        })
    }

    fn engine(&mut self) -> Expectimax<'_> {
        let budget = self.memory_limit / BYTES_PER_STATE;
        Expectimax {
            known: KnownSolver::new(
                self.rules.generator(),
                self.rules.hold,
                self.goal,
                &mut self.known,
            )
            .caching_children(),
            values: &mut self.values,
            orders: &mut self.orders,
            goal: self.goal,
            hold: self.rules.hold,
            budget,
            work_limit: self.work_limit,
            layered: self.layered && self.work_limit.is_none(),
            threads: self.threads,
            work_done: 0,
            graph: self.graph.as_deref(),
            suffixes: &mut self.suffixes,
            answered: None,
        }
    }

    /// One perfect clear starting with `best`, for the first continuation of the bag that
    /// allows one.
    fn sample_line(&self, node: &Node, best: &RankedMove) -> Vec<Placement> {
        let queue = node.queue.as_slice();
        // The pieces after the move, in play order, and what is in hold.
        let (hold_after, rest): (Option<Piece>, &[Piece]) = match (best.hold, node.hold) {
            (false, _) => (node.hold, &queue[1..]),
            (true, Some(_)) => (Some(queue[0]), &queue[1..]),
            (true, None) => (Some(queue[0]), &queue[2.min(queue.len())..]),
        };
        let after = node.field.place(&best.placement);
        let mut line = vec![best.placement];
        if self.goal.reached(&after) {
            return line;
        }
        let Ok(problem) = PcProblem::new(*after.board(), after.height(), self.rules.clone()) else {
            return Vec::new();
        };
        let mut searcher = Searcher::new(&problem);
        let known = rest.len() + hold_after.is_some() as usize;
        let wanted = after.pieces_needed() as usize + self.rules.hold as usize;
        let unknown = wanted.saturating_sub(known);
        let bag = BagState::from_remaining(
            pc_bag::PieceSet::from_bits(node.bag).unwrap_or(pc_bag::PieceSet::EMPTY),
        );
        let Ok(continuations) = bag.continuations(unknown) else {
            return Vec::new();
        };
        for (sequence, _) in continuations {
            let mut pieces = rest.to_vec();
            pieces.extend(sequence);
            if let Some(solution) = searcher.solution(hold_after, &pieces) {
                line.extend(solution.placements());
                return line;
            }
        }
        Vec::new()
    }
}

/// What a move can leave in hold for the next PC, when the pieces in view decide it.
struct Carries {
    /// The phase of the 7-bag cycle the next PC starts at, when every piece of this PC
    /// is in view.
    phase: Option<usize>,
}

impl Carries {
    fn new(node: &Node, position: &Position, hold: bool) -> Carries {
        let in_view = node.queue.as_slice().len() + node.hold.is_some() as usize;
        let needed = node.field.pieces_needed();
        let known = hold && in_view > needed as usize;
        let placed = placed_mod_7(position.bag_state().remaining().len(), in_view);
        Carries {
            phase: known.then(|| cycle_phase(placed + u64::from(needed))),
        }
    }

    /// The best piece (and its rank) that the move can leave in hold at the PC.
    fn best(
        &self,
        known: &mut KnownSolver<'_>,
        node: &Node,
        hold: bool,
        placement: &Placement,
    ) -> Option<(Option<Piece>, u16)> {
        let phase = self.phase?;
        let queue = node.queue.as_slice();
        let (held, rest): (Option<Piece>, &[Piece]) = match (hold, node.hold) {
            (false, _) => (node.hold, &queue[1..]),
            (true, Some(_)) => (Some(queue[0]), &queue[1..]),
            (true, None) => (Some(queue[0]), &queue[2.min(queue.len())..]),
        };
        let child = node.field.place(placement);
        best_carry(phase, known.carries(child, held, rest))
    }
}

/// The best value among ranked moves (0 without moves).
fn best_of(ranked: &[(bool, Placement, Ratio)]) -> Ratio {
    ranked.iter().map(|r| r.2).max().unwrap_or(Ratio::ZERO)
}

fn path_len(m: &RankedMove) -> usize {
    m.path.as_ref().map_or(usize::MAX, |p| p.inputs().len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;
    use crate::engine::layered::MOVES_BY_HELPERS;

    /// 9 pieces left with O held: the layered search values the moves.
    fn nine_left() -> Position {
        let queue: Vec<Piece> = "TSZLJI".chars().filter_map(Piece::from_char).collect();
        Position::new("####......".parse().unwrap(), queue[0])
            .with_hold(Some(Piece::O))
            .with_preview(&queue[1..])
            .with_bag("OTSZLJ".parse().unwrap())
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
            let solver = |threads: usize| {
                let mut solver = Solver::new(rules.clone()).with_preview(preview).unwrap();
                solver.threads = threads;
                solver
            };
            let mut one = solver(1);
            let alone = one.recommend(&position).unwrap();
            let mut two = solver(2);
            let helped = || MOVES_BY_HELPERS.load(std::sync::atomic::Ordering::Relaxed);
            let before = helped();
            let shared = two.recommend(&position).unwrap();
            assert_eq!(shared, alone, "{position:?}");
            // The second thread valued some of the moves (the first takes many ms each).
            assert!(helped() > before);
            // Values differ from move to move, so a move valued wrongly would show.
            assert!(alone.moves.iter().any(|m| m.chance != alone.chance));
            // Asked again, with the fill orders every thread found in the solver's memo.
            assert_eq!(two.recommend(&position).unwrap(), alone);
        }
    }

    #[test]
    fn a_state_budget_leaves_moves_unvalued_never_misvalued() {
        let position = nine_left();
        let solver = || Solver::new(Rules::default()).with_preview(5).unwrap();
        // The worst moves first, so that no certain move stops the valuing early.
        let mut ranked = solver().recommend(&position).unwrap().moves;
        ranked.reverse();
        let moves: Vec<(bool, Placement)> = ranked.iter().map(|m| (m.hold, m.placement)).collect();
        let exact = solver()
            .chances_of(&position, &moves, None)
            .unwrap()
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
            let values = solver()
                .chances_of(&position, &moves, Some(budget))
                .unwrap()
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
}
