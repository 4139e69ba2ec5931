#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Column loops index several parallel per-column arrays at once; iterators would hide that.
#![allow(clippy::needless_range_loop)]

mod error;
mod kicks;
mod movegen;
mod path;
mod piece;
mod placement;
pub mod shape;

pub use error::{ParsePieceError, SrsError, UnknownKickTable};
pub use kicks::{Kick, KickFileError, KickList, KickTable, MAX_KICKS};
pub use movegen::{DropMode, Entry, MoveGenerator, MoveSet, drops_straight};
pub use path::{Input, Path, Turn, guideline_spawn, pc_spawn};
pub use piece::{Orientation, OrientedPiece, Piece, Rotation};
pub use placement::{CentrePos, CornerPos, Placement, PlacementError};
