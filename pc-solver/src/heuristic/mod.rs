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
//!   piece ahead over the preview (discounted); it is a [`crate::game::Player`].
//! - [`tspin`] / [`best_tspin`]: the guideline three-corner rule, after a rotation.
//!
//! ```
//! use pc_solver::game::{Game, GameConfig, Limits};
//! use pc_solver::heuristic::{Evaluator, Preset, handoff_clear_line};
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
//! # The presets compared
//!
//! 100 seeded games each (seeds 1 to 100), every one reaching the 10,000-line cap:
//! `cargo run --release --example heuristic -- --games 100 --seed 1 --cap 10000` with the
//! settings of each row (preview 5, hold, SRS and soft drop unless a row says otherwise), on a
//! 2-core AMD EPYC VM (Rust 1.95, single-threaded, other jobs sharing the machine). "Ready"
//! is the share of pieces after which [`handoff_clear_line`] accepts the field.
//!
//! | settings | PCs | ready | highest stack (mean) | decisions/s |
//! | --- | --- | --- | --- | --- |
//! | balanced | 10,764 | 86.6% | 10 (8.3) | 31,934 |
//! | balanced, `--no-lookahead` | 6,215 | 81.1% | 10 (8.5) | 102,164 |
//! | balanced, `--kicks srs+` | 10,788 | 86.6% | 10 (8.4) | 31,827 |
//! | `--preset conservative` | 9,877 | 90.6% | 9 (7.5) | 32,565 |
//! | `--preset aggressive` | 14,549 | 71.7% | 12 (9.5) | 31,778 |
//! | `--preset dellacherie` | 10,556 | 80.7% | 11 (8.5) | 29,536 |
//! | `--preset dellacherie --no-lookahead` | 6,239 | 76.9% | 10 (8.7) | 101,950 |
//! | balanced, `--no-hold --preview 0` | 1,078 | 50.0% | 18 (12.2) | 147,552 |
//! | dellacherie, `--no-hold --preview 0` | 982 | 42.4% | 17 (12.1) | 151,472 |

mod evaluator;
mod features;
mod handoff;
mod tspin;
mod weights;

pub use evaluator::{Decision, Evaluation, Evaluator, TOP_OUT_PENALTY};
pub use features::{Features, Lock};
pub use handoff::{HANDOFF_MAX_HEIGHT, handoff_clear_line};
pub use tspin::{TSpin, best_tspin, tspin};
pub use weights::{Preset, UnknownPreset, Weights};
