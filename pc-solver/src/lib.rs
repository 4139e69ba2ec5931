#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod decision;
mod engine;
mod error;
mod estimate;
mod field;
mod options;
mod path;
mod percent;
mod position;
mod rules;
mod search;
mod solver;

pub use decision::MAX_PREVIEW;
pub use engine::Engine;
pub use engine::graph::{
    BuildProgress, BuildStage, FORMAT_VERSION, GRAPH_DIR_VARIABLE, GraphEncoder, GraphError,
    GraphReader, PcGraph,
};
pub use error::SolverError;
pub use estimate::{Estimate, EstimateOptions, EstimatedMove, Mean};
pub use field::{MAX_CLEAR_LINE, PcField};
pub use options::SolverOptions;
pub use path::{
    CoverResult, PathResult, PathSolution, PathStage, PathSummary, PlacingOrders, cover, path,
    path_summary, path_with_progress, placing_orders,
};
pub use percent::{PercentResult, TreeNode, percent, percent_with_progress};
pub use position::{Move, ParseMoveError, Position};
pub use rules::{Rules, RulesId};
pub use search::{Searcher, Solution, Step};
pub use solver::{BestMove, RankedMove, Recommendation, Solver};

// The types of the crates below that this crate's API takes and gives, so that a user
// needs no other dependency.
pub use pc_bag::{BagState, ParsePiecesError, PatternSet, PatternSetError, PieceSet, Ratio};
pub use pc_bitboard::{Board32, ParseBoardError};
pub use pc_srs::{
    CentrePos, DropMode, Input, KickFileError, KickTable, Orientation, ParsePieceError, Path,
    Piece, Placement, PlacementError, SrsError, Turn, UnknownKickTable,
};
