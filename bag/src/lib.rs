#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bag_state;
mod cycle;
mod error;
mod hold;
mod multiset;
mod pattern;
mod phase;
mod piece;
mod ratio;
mod sequence;
mod set;

pub use bag_state::BagState;
pub use cycle::{best_carry, carry_rank, cycle_phase, pieces_placed_mod_7};
pub use error::{
    BagError, CapacityError, Expected, Found, HoldError, ParsePiecesError, PatternError,
    PatternSetError, PhaseError, TooFewPieces,
};
pub use hold::{SourceQueue, can_play, play_orders, play_orders_into, source_queues};
pub use multiset::PieceMultiset;
pub use pattern::{
    Element, Expansion, Pattern, PatternSet, search_length, searching_sequences, truncate_dedup,
};
pub use pc_srs::Piece;
pub use phase::PcPhase;
pub use ratio::{ParseRatioError, Ratio};
pub use sequence::Sequence;
pub use sequence::enumerate::Continuations;
pub use set::PieceSet;

/// Iterators over the pieces of a [`PieceSet`] and a [`Sequence`].
pub mod iter {
    pub use crate::sequence::Iter as SequenceIter;
    pub use crate::set::Iter as PieceSetIter;
}
