//! The engines behind [`Solver`](crate::Solver): each answers the same question (the
//! exact chance of the moves of a decision) for the decisions it applies to; the values
//! are the same whichever answers (tested engine against engine: `tests/graph.rs`,
//! `tests/adaptive.rs`), only the time differs. [`Engine`] names them; the solver alone
//! decides which one answers a decision, in the order of that enum.
//!
//! * [`graph`]: the walk over the PC field graph of a rule set, built once and kept on
//!   disk ([`PcGraph`](crate::PcGraph)); it reads the sets of queues that finish a field
//!   from [`graph::suffix`], shared by every decision.
//! * [`known`]: the known-queue search: does a queue (with hold) clear a field? The base
//!   of [`Searcher`](crate::Searcher), of the decisions whose pieces are all in view, and
//!   of the bounds the depth-first search cuts with ([`clairvoyant`]).
//! * [`layered`]: the first decisions of a PC without a graph: every state the pieces in
//!   view reach, layer by layer, with move generation, cover checks and fill orders of
//!   fields. Also answers many known queues sharing a prefix at once for `percent`.
//! * [`depth_first`]: the expectimax over decisions and reveals, for every other decision,
//!   with its own table of values.
//! * [`automaton`]: every piece word that clears a small field, shared between many
//!   sequences, for `percent`.

pub(crate) mod automaton;
pub(crate) mod clairvoyant;
pub(crate) mod depth_first;
pub(crate) mod graph;
pub(crate) mod kind;
pub(crate) mod known;
pub(crate) mod layered;

pub use kind::Engine;

use crate::decision::State;
use ahash::AHashMap;
use pc_bag::Ratio;

/// Which moves of a decision a layer walk (the graph's or the layered search) values.
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
        Some(Ratio::new(won, self.count).expect("a bag has a continuation"))
    }
}

/// What a solver remembers between questions, for all engines.
#[derive(Default)]
pub(crate) struct Tables {
    pub(crate) known: known::KnownMemo,
    pub(crate) values: depth_first::Values,
    pub(crate) orders: layered::OrderMemo,
    pub(crate) graph: graph::GraphMemo,
}

/// Bytes a remembered state costs, counted generously (key, value, table overhead).
const BYTES_PER_STATE: usize = 64;

impl Tables {
    /// An estimate of the bytes the tables hold.
    pub(crate) fn bytes(&self) -> usize {
        (self.known.len() + self.values.len() + self.orders.len()) * BYTES_PER_STATE
            + self.graph.bytes()
    }

    /// How many states the depth-first search may keep within `bytes`.
    pub(crate) fn states_within(bytes: usize) -> usize {
        bytes / BYTES_PER_STATE
    }

    pub(crate) fn clear(&mut self) {
        self.known.clear();
        self.values.clear();
        self.orders.clear();
        self.graph.clear();
    }
}
