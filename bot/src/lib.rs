#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "cli")]
pub mod cli;
mod game;
mod heuristic;
mod player;
#[cfg(feature = "tbp")]
pub mod tbp;
mod tspin;

pub use game::{
    Game, GameConfig, GameError, GameOver, GameRecord, GameView, HoldChoice, Limits,
    MAX_GAME_PREVIEW, MoveError, MoveResult, Outcome, Play, PlayError, Player, RecordError, Rng,
    SevenBag, Stats, Stop, VISIBLE_ROWS,
};
pub use heuristic::{
    Decision, Evaluation, Evaluator, Features, HANDOFF_MAX_HEIGHT, Lock, Preset, TOP_OUT_PENALTY,
    UnknownPreset, Weights, handoff_clear_line,
};
pub use player::{
    DEFAULT_CLAIRVOYANT, DEFAULT_EXACT_FROM, DEFAULT_GUIDED, DEFAULT_GUIDED_STATES,
    DEFAULT_LAYERED_FROM, DecisionKind, PC_CLEAR_LINE, PcPlayer, PlayerStats,
};
pub use tspin::{TSpin, best_tspin, tspin};

// The types of the crates below that this crate's API takes and gives, so that a user
// needs no other dependency: pc-solver's (it re-exports those of pc-srs, pc-bag and
// pc-bitboard that its own API uses), then the few of pc-srs and pc-bitboard that only
// this crate's API uses (move generation for T-spins, a game's placements, board text).
pub use pc_bitboard::ParseBoardError;
pub use pc_solver::{
    BagState, Board32, CentrePos, DropMode, Input, KickTable, MAX_PREVIEW, Move, Orientation,
    ParseMoveError, Path, PcGraph, Piece, PieceSet, Placement, Ratio, Rules, SolverError,
};
pub use pc_srs::{
    MoveGenerator, MoveSet, PlacementError, Rotation, SrsError, Turn, guideline_spawn,
};
