//! [`Answerer`]: the one shape of every engine. Each says whether it answers a decision
//! and, when it does, the exact chances of its moves; [`Context`] is what they work with
//! besides the decision (the rules, the solver's options and tables). The solver keeps
//! the engines in one list, in the order it tries them.

use crate::decision::{Decision, MoveTo};
use crate::engine::depth_first::{BestAtRoot, DepthFirst};
use crate::engine::kind::Engine;
use crate::engine::known::{Goal, KnownSolver};
use crate::engine::tables::Tables;
use crate::engine::walk::{Ask, StateValues};
use crate::engine::{graph, layered};
use crate::error::SolverError;
use crate::options::SolverOptions;
use crate::position::Move;
use crate::rules::Rules;
use pc_bag::Ratio;

/// What an engine works with besides the decision.
pub(crate) struct Context<'s> {
    pub(crate) rules: &'s Rules,
    pub(crate) options: &'s SolverOptions,
    pub(crate) tables: &'s mut Tables,
}

impl Context<'_> {
    /// What counts as a PC under the options.
    pub(crate) fn goal(&self) -> Goal {
        Goal {
            lower_clears: self.options.two_line,
        }
    }

    /// The known-queue search over the solver's tables.
    pub(crate) fn known(&mut self) -> KnownSolver<'_> {
        KnownSolver::new(
            self.rules.generator(),
            self.rules.hold,
            self.goal(),
            &mut self.tables.known,
        )
        .caching_children()
    }

    /// The depth-first search over the solver's tables.
    pub(crate) fn depth_first(&mut self) -> DepthFirst<'_> {
        let budget = Tables::states_within(self.options.memory_limit);
        let known = KnownSolver::new(
            self.rules.generator(),
            self.rules.hold,
            self.goal(),
            &mut self.tables.known,
        )
        .caching_children();
        DepthFirst::new(
            known,
            &mut self.tables.values,
            budget,
            self.options.work_limit,
        )
    }
}

/// An engine: whether it answers a decision, and its answers. The values are the same
/// whichever engine answers (the tests check engine against engine); only the time
/// differs. Every method but [`Answerer::applies`] may be called only for a decision the
/// engine applies to, whose field is not a PC yet.
pub(crate) trait Answerer: Sync {
    /// Which engine this is.
    fn name(&self) -> Engine;

    /// Whether it answers the decision.
    fn applies(&self, options: &SolverOptions, decision: &Decision) -> bool;

    /// The decision's moves (placements, a hold into an empty slot aside) with their
    /// exact chances, in the order of [`KnownSolver::moves`]. With `until_certain`, the
    /// moves after the first certain one may be left out or valued 0: the best chance is
    /// still exact.
    fn rank(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        until_certain: bool,
    ) -> Result<Vec<(Move, Ratio)>, SolverError>;

    /// The exact chances of `moves`, tried in that order and stopping after the first
    /// certain one: the moves after it, moves the decision does not have and (with
    /// `max_states`) moves not valued within that many states below the decision get
    /// `None`.
    fn chances_of(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        moves: &[Move],
        max_states: Option<u64>,
    ) -> Result<Vec<Option<Ratio>>, SolverError>;

    /// The chance of the decision with best play.
    fn value(&self, context: &mut Context<'_>, decision: &Decision) -> Result<Ratio, SolverError> {
        let ranked = self.rank(context, decision, true)?;
        Ok(ranked.iter().map(|r| r.1).max().unwrap_or(Ratio::ZERO))
    }

    /// The best placement (the first of the best in move order) and its chance, and the
    /// chance of a hold into the empty slot when that is better.
    fn best(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
    ) -> Result<BestAtRoot, SolverError> {
        let ranked = self.rank(context, decision, true)?;
        let chosen = ranked
            .iter()
            .fold(None, |best: Option<&(Move, Ratio)>, m| match best {
                Some(b) if b.1 >= m.1 => Some(b),
                _ => Some(m),
            });
        let hold_first = hold_first(context, decision, chosen.map(|c| c.1))?;
        Ok(BestAtRoot {
            value: chosen.map_or(Ratio::ZERO, |c| c.1),
            chosen: chosen.map(|c| c.0),
            hold_first,
        })
    }
}

/// The chance of holding into the empty slot first, when hold may be pressed into it and
/// that beats `beat` (every chance, without `beat`).
pub(crate) fn hold_first(
    context: &mut Context<'_>,
    decision: &Decision,
    beat: Option<Ratio>,
) -> Result<Option<Ratio>, SolverError> {
    if !decision.holds_into_empty() {
        return Ok(None);
    }
    let found = context.depth_first().hold_into_empty(decision, beat)?;
    Ok(found.filter(|&h| beat.is_none_or(|b| h > b)))
}

/// The known-queue search: every piece the PC can use is in view.
pub(crate) struct KnownQueue;

impl Answerer for KnownQueue {
    fn name(&self) -> Engine {
        Engine::KnownQueue
    }

    fn applies(&self, _: &SolverOptions, decision: &Decision) -> bool {
        decision.fully_known() && !decision.holds_into_empty()
    }

    fn rank(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        until_certain: bool,
    ) -> Result<Vec<(Move, Ratio)>, SolverError> {
        let mut known = context.known();
        let rest = &decision.queue.as_slice()[1..];
        let mut ranked = Vec::new();
        for to in known.moves(decision) {
            let clears = match to.after {
                None => true,
                Some((field, hold)) => known.solve(field, hold, rest),
            };
            ranked.push((to.mv, if clears { Ratio::ONE } else { Ratio::ZERO }));
            if clears && until_certain {
                break;
            }
        }
        Ok(ranked)
    }

    fn chances_of(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        moves: &[Move],
        _: Option<u64>,
    ) -> Result<Vec<Option<Ratio>>, SolverError> {
        let ranked = self.rank(context, decision, false)?;
        let mut certain = false;
        Ok(moves
            .iter()
            .map(|mv| {
                let (_, chance) = ranked.iter().find(|(m, _)| m == mv).filter(|_| !certain)?;
                certain = chance.is_one();
                Some(*chance)
            })
            .collect())
    }
}

/// The depth-first search over decisions and reveals: every decision.
pub(crate) struct DepthFirstSearch;

impl Answerer for DepthFirstSearch {
    fn name(&self) -> Engine {
        Engine::DepthFirst
    }

    fn applies(&self, _: &SolverOptions, _: &Decision) -> bool {
        true
    }

    fn rank(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        _: bool,
    ) -> Result<Vec<(Move, Ratio)>, SolverError> {
        context.depth_first().rank(decision)
    }

    fn chances_of(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        moves: &[Move],
        max_states: Option<u64>,
    ) -> Result<Vec<Option<Ratio>>, SolverError> {
        context.depth_first().values_of(decision, moves, max_states)
    }

    fn value(&self, context: &mut Context<'_>, decision: &Decision) -> Result<Ratio, SolverError> {
        context.depth_first().value(decision)
    }

    fn best(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
    ) -> Result<BestAtRoot, SolverError> {
        context.depth_first().best(decision)
    }
}

/// The walk over the solver's PC field graph.
pub(crate) struct GraphWalk;

impl Answerer for GraphWalk {
    fn name(&self) -> Engine {
        Engine::Graph
    }

    fn applies(&self, options: &SolverOptions, decision: &Decision) -> bool {
        options
            .graph
            .as_deref()
            .is_some_and(|g| graph::search::applies(g, decision))
    }

    fn rank(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        until_certain: bool,
    ) -> Result<Vec<(Move, Ratio)>, SolverError> {
        let ask = if until_certain {
            Ask::UntilCertain
        } else {
            Ask::Every
        };
        let values = self.walk(context, decision, ask)?;
        Ok(rank_by_states(context, decision, &values))
    }

    fn chances_of(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        moves: &[Move],
        max_states: Option<u64>,
    ) -> Result<Vec<Option<Ratio>>, SolverError> {
        chances_by_states(context, decision, moves, max_states, |context, ask| {
            self.walk(context, decision, ask)
        })
    }
}

impl GraphWalk {
    fn walk(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        ask: Ask<'_>,
    ) -> Result<StateValues, SolverError> {
        let graph = context.options.graph.as_deref();
        let two_line = context.options.two_line;
        graph
            .and_then(|graph| {
                graph::search::values(graph, &mut context.tables.graph, decision, two_line, ask)
            })
            .ok_or(SolverError::EngineDoesNotApply(Engine::Graph))
    }
}

/// The layered search: the graph's walk without a graph.
pub(crate) struct LayeredSearch;

impl Answerer for LayeredSearch {
    fn name(&self) -> Engine {
        Engine::Layered
    }

    fn applies(&self, options: &SolverOptions, decision: &Decision) -> bool {
        options.work_limit.is_none() && layered::applies(decision, options.two_line)
    }

    fn rank(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        until_certain: bool,
    ) -> Result<Vec<(Move, Ratio)>, SolverError> {
        let ask = if until_certain {
            Ask::UntilCertain
        } else {
            Ask::Every
        };
        let values = self.walk(context, decision, ask)?;
        Ok(rank_by_states(context, decision, &values))
    }

    fn chances_of(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        moves: &[Move],
        max_states: Option<u64>,
    ) -> Result<Vec<Option<Ratio>>, SolverError> {
        chances_by_states(context, decision, moves, max_states, |context, ask| {
            self.walk(context, decision, ask)
        })
    }
}

impl LayeredSearch {
    fn walk(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        ask: Ask<'_>,
    ) -> Result<StateValues, SolverError> {
        let threads = context.options.threads;
        let goal = context.goal();
        let tables = &mut *context.tables;
        let known = KnownSolver::new(
            context.rules.generator(),
            context.rules.hold,
            goal,
            &mut tables.known,
        )
        .caching_children();
        layered::values(&known, &mut tables.orders, decision, ask, threads)
            .ok_or(SolverError::EngineDoesNotApply(Engine::Layered))
    }
}

/// Every move of the decision with the chance a walk found for the state it leads to.
/// A state not valued cannot make a PC (or was not reached after a certain move).
fn rank_by_states(
    context: &mut Context<'_>,
    decision: &Decision,
    values: &StateValues,
) -> Vec<(Move, Ratio)> {
    context
        .known()
        .moves(decision)
        .into_iter()
        .map(|to| {
            let chance = match to.state() {
                None => Ratio::ONE,
                Some(state) => values.chance(state).unwrap_or(Ratio::ZERO),
            };
            (to.mv, chance)
        })
        .collect()
}

/// [`Answerer::chances_of`] for a walk: the states the moves lead to are asked for.
fn chances_by_states(
    context: &mut Context<'_>,
    decision: &Decision,
    moves: &[Move],
    max_states: Option<u64>,
    walk: impl FnOnce(&mut Context<'_>, Ask<'_>) -> Result<StateValues, SolverError>,
) -> Result<Vec<Option<Ratio>>, SolverError> {
    let to: Vec<MoveTo> = context.known().moves(decision);
    let after = |mv: &Move| to.iter().find(|t| t.mv == *mv).map(MoveTo::state);
    // A move that makes the PC at once is certain: nothing after it is tried.
    let mut states = Vec::new();
    for mv in moves {
        match after(mv) {
            Some(None) => break,
            Some(Some(state)) => states.push(state),
            None => {}
        }
    }
    let ask = Ask::Only {
        states: &states,
        max_states,
    };
    let values = walk(context, ask)?;
    let mut certain = false;
    Ok(moves
        .iter()
        .map(|mv| {
            if certain {
                return None;
            }
            let chance = match after(mv)? {
                None => Ratio::ONE,
                Some(state) => values.chance(state)?,
            };
            certain = chance.is_one();
            Some(chance)
        })
        .collect())
}
