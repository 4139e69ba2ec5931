#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod build;
mod cells;
mod count;
mod cover;
mod dot;
mod enumerate;
mod error;
mod graph;
mod order;
mod pieces;
mod placements;

pub use build::BuildOptions;
pub use cover::{CoverCheck, CoverMemo};
pub use enumerate::Fills;
pub use error::FillGraphError;
pub use graph::{FillGraph, State, StateId, Transition};
pub use pieces::PieceCounts;
pub use placements::{FillPlacement, MAX_CLEAR_LINE, PlacementId};
