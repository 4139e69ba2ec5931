//! The engines behind the API: what answers which question, on what it stands.
//!
//! * [`graph`]: the PC field graph of a rule set, built once and kept on disk
//!   ([`graph::PcGraph`]). When the solver has one and a decision's field is one of its
//!   fields, the graph answers the first decisions of a PC (the hold slot filled, or no
//!   hold; one to four pieces not revealed yet): its walk follows the graph's edges
//!   instead of generating moves, and reads the sets of queues that finish a field from
//!   [`graph::suffix`], shared by every decision. Where it applies, it is what the others
//!   stand on.
//! * [`layered`]: the same question without a graph, for the first decisions of a PC
//!   with the hold slot filled: every state the pieces in view reach, layer by layer, with
//!   move generation, cover checks and fill orders of fields. Also answers many known
//!   queues sharing a prefix at once for `percent`.
//! * [`expectimax`]: the depth-first expectimax over decisions and reveals, for every
//!   other decision (fewer unknown pieces, an empty hold slot), with its own table of
//!   values; it hands the decisions the layered search or the graph answer to them.
//! * [`known`]: the known-queue search: does a queue (with hold) clear a field? The
//!   base of `Searcher`, of the last decisions of a PC once every piece is in view, and
//!   of the bounds the expectimax cuts with ([`clairvoyant`]).
//! * [`automaton`]: every piece word that clears a small field, shared between many
//!   sequences, for `percent`.
//!
//! The values are the same whichever engine answers (tested engine against engine:
//! `tests/graph.rs`, `tests/adaptive.rs`); only the time differs.

pub mod automaton;
pub(crate) mod clairvoyant;
pub(crate) mod expectimax;
pub mod graph;
pub(crate) mod known;
pub(crate) mod layered;
