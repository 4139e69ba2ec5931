//! A Tetris game simulator for players and bots: a seeded 7-bag, a 10×20 field, preview and
//! hold as in modern games, the guideline spawn, any kick table and a
//! drop mode, every move checked for legality, and game records that replay exactly.
//!
//! ```
//! use pc_bot::{Game, GameConfig, GameRecord, Limits, Stop};
//! use pc_bot::Evaluator;
//!
//! // A heuristic player, 100 pieces of a seeded game.
//! let mut game = Game::new(GameConfig::new(1))?;
//! let limits = Limits { pieces: Some(100), ..Limits::default() };
//! assert_eq!(game.run(&mut Evaluator::default(), limits)?, Stop::PieceCap);
//! assert!(game.stats().lines >= 30);
//!
//! // The record replays to the same game.
//! let record: GameRecord = game.record().to_string().parse()?;
//! assert_eq!(record.replay()?.board(), game.board());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The rules:
//!
//! - **Randomizer**: [`SevenBag`], the seven pieces in a shuffled bag, a new bag when one
//!   runs out, from a seeded [`Rng`] (xoshiro256**).
//! - **Field**: 10 columns, 20 visible rows; [`Board32`](crate::Board32) stores 32 so
//!   pieces may stick out above row 20.
//! - **Spawn**: [`guideline_spawn`](crate::guideline_spawn): rotation centre at column 4,
//!   row 20, spawn orientation (the piece fills rows 20–21).
//! - **Moves**: a [`Play`] = a [`Move`](crate::Move) (hold or not + the placement where the
//!   piece locks) and optionally its input path. It must be reachable from the spawn with
//!   the game's kick table and drop mode
//!   ([`MoveGenerator::placements_from_spawn`](crate::MoveGenerator::placements_from_spawn))
//!   and rest on the stack; otherwise [`Game::play`] refuses it with a [`MoveError`] and
//!   the game is unchanged.
//! - **Hold**: once per piece (each move is one placement). Holding with an empty slot
//!   plays the next piece of the queue.
//! - **Line clears**: full rows clear at once; a placement after which the field is empty
//!   is a perfect clear.
//! - **Game over**: a new piece overlaps the stack at the spawn (block out), or a piece
//!   locks entirely above row 20 without clearing a row (lock out).

mod error;
mod over;
mod random;
mod record;
mod sim;

pub use error::{GameError, MoveError, PlayError, RecordError};
pub use over::GameOver;
pub use random::{Rng, SevenBag};
pub use record::{GameRecord, Outcome};
pub use sim::{
    Game, GameConfig, GameView, HoldChoice, Limits, MAX_GAME_PREVIEW, MoveResult, Play, Player,
    Stats, Stop, VISIBLE_ROWS,
};
