//! What a layer walk (the graph's or the layered search) is asked, and what it finds.

use crate::decision::State;
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
    /// The number of equally likely continuations: a value is a count of them.
    pub(crate) count: u64,
}

impl StateValues {
    /// The chance after a move to `state`, if it was valued.
    pub(crate) fn chance(&self, state: State) -> Option<Ratio> {
        let won = *self.values.get(&state)?;
        Ratio::new(won, self.count)
    }
}
