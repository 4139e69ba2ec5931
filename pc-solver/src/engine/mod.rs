//! The engines behind [`Solver`](crate::Solver): each answers the same question (the
//! exact chance of the moves of a decision) for the decisions it applies to; the values
//! are the same whichever answers (tested engine against engine: `tests/graph.rs`,
//! `tests/adaptive.rs`), only the time differs. Each is an [`answer::Answerer`]; [`Engine`]
//! names them; the solver alone decides which one answers a decision, the first of its
//! list that applies.
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

pub(crate) mod answer;
pub(crate) mod automaton;
pub(crate) mod clairvoyant;
pub(crate) mod context;
pub(crate) mod depth_first;
pub(crate) mod graph;
pub(crate) mod kind;
pub(crate) mod known;
pub(crate) mod layered;
pub(crate) mod tables;
pub(crate) mod walk;

pub use kind::Engine;
