#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod carry;
mod engine;
mod error;
pub mod field;
pub mod fumen;
pub mod game;
pub mod heuristic;
pub mod percent;
pub mod player;
mod position;
mod problem;
mod rules;
pub mod search;
mod solver;

pub use engine::{automaton, graph};
pub use error::SolverError;
pub use field::PcField;
pub use pc_srs::{Orientation, Piece};
pub use percent::{PercentResult, TreeNode, percent, percent_with_progress};
pub use player::{DecisionKind, PcPlayer, PlayerStats};
pub use position::Position;
pub use problem::PcProblem;
pub use rules::Rules;
pub use search::{Searcher, Solution, Step};
pub use solver::{BestMove, Engine, RankedMove, Recommendation, Solver};

/// The threads a search splits its work into unless told otherwise: the machine's with
/// the `parallel` feature, else one (the default build stays single-threaded, as wasm
/// needs).
pub(crate) fn default_threads() -> usize {
    if cfg!(feature = "parallel") {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        1
    }
}
