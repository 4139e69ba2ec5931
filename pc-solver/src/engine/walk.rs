//! What a layer walk (the graph's or the layered search) is asked, and what it finds.

use crate::decision::{Decision, MoveTo, State, pieces_in};
use crate::engine::answer::Ranking;
use crate::engine::context::Context;
use crate::engine::known::KnownSolver;
use crate::error::SolverError;
use crate::position::Move;
use ahash::AHashMap;
use pc_bag::Ratio;

/// Which moves of a decision a layer walk values.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ask<'s> {
    /// Every move.
    Every,
    /// Moves in order, stopping after the first that wins every continuation: the best
    /// value is exact, the moves not reached are missing.
    UntilCertain,
    /// These states after moves, in order, stopping after the first certain one, and
    /// (for the layered search) once `max_states` states below the root are valued.
    Only {
        states: &'s [State],
        max_states: Option<u64>,
    },
}

/// What a layer walk finds: the continuations each state after a move wins.
pub(crate) struct StateValues {
    pub(crate) values: AHashMap<State, u64>,
    /// What holding into the empty slot first wins, when it was valued.
    pub(crate) hold_first: Option<u64>,
    /// The number of equally likely continuations: a value is a count of them.
    pub(crate) count: u64,
    /// Whether the walk was stopped ([`SolverOptions::stop`](crate::SolverOptions::stop)):
    /// the values are then of no meaning.
    pub(crate) stopped: bool,
}

impl StateValues {
    /// The chance after a move to `state`, if it was valued.
    pub(crate) fn chance(&self, state: State) -> Option<Ratio> {
        let won = *self.values.get(&state)?;
        Ratio::new(won, self.count)
    }
}

/// A layer walk (the graph's or the layered search): the values of the states a
/// decision's moves lead to. Its engine's ranking and chances of given moves are
/// [`rank_by_walk`] and [`chances_by_walk`].
pub(crate) trait StateWalk {
    /// What the walk finds for the states `ask` names.
    fn walk(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        ask: Ask<'_>,
    ) -> Result<StateValues, SolverError>;
}

/// [`Answerer::rank`](crate::engine::answer::Answerer::rank) for a walk: every move of the
/// decision with the chance the walk found for the state it leads to, and of holding into
/// the empty slot first when it valued that. A state not valued cannot make a PC (or was
/// not reached after a certain move).
pub(crate) fn rank_by_walk(
    walk: &impl StateWalk,
    context: &mut Context<'_>,
    decision: &Decision,
    until_certain: bool,
) -> Result<Ranking, SolverError> {
    let ask = if until_certain {
        Ask::UntilCertain
    } else {
        Ask::Every
    };
    let values = walk.walk(context, decision, ask)?;
    // A state not valued cannot make a PC; no state at all is the PC itself.
    let chance = |to: &MoveTo| match to.state() {
        None => Ratio::ONE,
        Some(state) => values.chance(state).unwrap_or(Ratio::ZERO),
    };
    let mut moves: Vec<(Move, Ratio)> = KnownSolver::over(context)
        .moves(decision)
        .iter()
        .map(|to| (to.mv, chance(to)))
        .collect();
    let hold_first = values
        .hold_first
        .and_then(|won| Ratio::new(won, values.count));
    if hold_first.is_some() && !until_certain {
        // The placements after a hold into the empty slot, each fixed before the piece
        // the hold reveals shows: the states they lead to, whatever that piece is.
        if let Some(revealed) = pieces_in(decision.drawable()).next() {
            let after = decision.after_hold(revealed);
            for to in KnownSolver::over(context).moves(&after) {
                moves.push((Move::hold_then(to.mv.placement), chance(&to)));
            }
        }
    }
    Ok(Ranking { moves, hold_first })
}

/// [`Answerer::chances_of`](crate::engine::answer::Answerer::chances_of) for a walk: the
/// states the moves lead to are asked for.
pub(crate) fn chances_by_walk(
    walk: &impl StateWalk,
    context: &mut Context<'_>,
    decision: &Decision,
    moves: &[Move],
    max_states: Option<u64>,
) -> Result<Vec<Option<Ratio>>, SolverError> {
    let to: Vec<MoveTo> = KnownSolver::over(context).moves(decision);
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
    let values = walk.walk(context, decision, ask)?;
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
