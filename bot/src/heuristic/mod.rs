//! The heuristic fallback: when no perfect clear is in reach, play on with a board
//! evaluator until the field is low and clean again ([`handoff_clear_line`]).
//!
//! - [`Features`]: the ten features of a placement (landing height, eroded cells, row and
//!   column transitions, holes, well sums, bumpiness, hole depth, aggregate height,
//!   covered cells), kept apart from
//! - [`Weights`]: what each feature counts, with bonuses for clears, T-spins and perfect
//!   clears; named [`Preset`]s (balanced, conservative, aggressive, and Dellacherie's
//!   published weights).
//! - [`Evaluator`]: scores every placement of the current and the hold piece and looks one
//!   piece ahead over the preview (discounted); it is a [`Player`](crate::Player).
//!
//! ```
//! use pc_bot::{Game, GameConfig, Limits};
//! use pc_bot::{Evaluator, Preset, handoff_clear_line};
//!
//! let mut game = Game::new(GameConfig::new(9))?;
//! let mut evaluator = Evaluator::from_preset(Preset::Conservative);
//! game.run(&mut evaluator, Limits { pieces: Some(70), ..Limits::default() })?;
//! assert!(game.game_over().is_none());
//! // How often was the field ready for a perfect-clear search again?
//! let ready = handoff_clear_line(game.board());
//! assert!(ready.is_none_or(|line| (1..=4).contains(&line)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The crate README compares the presets over seeded games.

mod evaluator;
mod features;
mod handoff;
mod weights;

pub use evaluator::{Decision, Evaluation, Evaluator, TOP_OUT_PENALTY};
pub use features::{Features, Lock};
pub use handoff::{HANDOFF_MAX_HEIGHT, handoff_clear_line};
pub use weights::{Preset, UnknownPreset, Weights};
