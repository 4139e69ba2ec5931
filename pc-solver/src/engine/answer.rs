//! [`Answerer`]: the one shape of every engine. Each says whether it answers a decision
//! and, when it does, the exact chances of its moves. Each engine's file implements it;
//! the solver keeps the engines in one list, in the order it tries them.

use crate::decision::Decision;
use crate::engine::context::Context;
use crate::engine::kind::Engine;
use crate::error::SolverError;
use crate::options::SolverOptions;
use crate::position::Move;
use pc_bag::Ratio;

/// What [`Answerer::rank`] finds.
pub(crate) struct Ranking {
    /// The placements with their chances, in the order of [`KnownSolver::moves`](crate::engine::known::KnownSolver::moves).
    pub(crate) moves: Vec<(Move, Ratio)>,
    /// The chance of holding into the empty slot first, when the decision may (`None`
    /// otherwise, and when a certain placement stopped the ranking first).
    pub(crate) hold_first: Option<Ratio>,
}

impl Ranking {
    /// The chance of the decision with best play: its best placement or holding first.
    pub(crate) fn chance(&self) -> Ratio {
        self.moves
            .iter()
            .map(|m| m.1)
            .chain(self.hold_first)
            .max()
            .unwrap_or(Ratio::ZERO)
    }
}

/// What [`Answerer::best`] finds.
pub(crate) struct BestAtRoot {
    /// The exact value of the best placement.
    pub(crate) value: Ratio,
    /// The best placement (hold or not), if any is legal.
    pub(crate) chosen: Option<Move>,
    /// The value of holding into an empty slot first, when it beats every placement.
    pub(crate) hold_first: Option<Ratio>,
}

/// An engine: whether it answers a decision, and its answers. The values are the same
/// whichever engine answers (the tests check engine against engine); only the time
/// differs. Every method but [`Answerer::applies`] may be called only for a decision the
/// engine applies to, whose field is not a PC yet. Only the depth-first search applies
/// (besides the graph's walk) to a decision where hold may be pressed into the empty slot.
pub(crate) trait Answerer: Sync {
    /// Which engine this is.
    fn name(&self) -> Engine;

    /// Whether it answers the decision.
    fn applies(&self, options: &SolverOptions, decision: &Decision) -> bool;

    /// The decision's placements with their exact chances, in the order of
    /// [`KnownSolver::moves`](crate::engine::known::KnownSolver::moves), and the chance of a
    /// hold into the empty slot first when the decision may. With `until_certain`, the moves
    /// after the first certain one may be left out or valued 0: the best chance is still
    /// exact.
    fn rank(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        until_certain: bool,
    ) -> Result<Ranking, SolverError>;

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
        Ok(self.rank(context, decision, true)?.chance())
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
            .moves
            .iter()
            .fold(None, |best: Option<&(Move, Ratio)>, m| match best {
                Some(b) if b.1 >= m.1 => Some(b),
                _ => Some(m),
            });
        let value = chosen.map_or(Ratio::ZERO, |c| c.1);
        Ok(BestAtRoot {
            value,
            chosen: chosen.map(|c| c.0),
            hold_first: ranked.hold_first.filter(|&h| h > value),
        })
    }
}
