#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod game;
mod heuristic;
mod player;
#[cfg(feature = "tbp")]
pub mod tbp;
mod tspin;

pub use game::{
    Game, GameConfig, GameError, GameOver, GameRecord, GameView, Limits, MAX_PREVIEW, MoveError,
    MoveResult, Outcome, Play, PlayError, Player, RecordError, Rng, SevenBag, Stats, Stop, Turn,
    VISIBLE_ROWS,
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
