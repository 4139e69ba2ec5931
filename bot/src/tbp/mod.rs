//! The Tetris Bot Protocol (TBP): pc's player as a bot that game frontends launch.
//!
//! TBP (spec: `tetris-bot-protocol/tbp-spec`) is JSON lines over a bot's stdin and stdout:
//! the frontend sends `rules`, `start`, `suggest`, `play`, `new_piece`, `stop`, `quit`; the
//! bot sends `info` at launch, `ready`, and a `suggestion` for each `suggest`. The
//! `pc-tbp` binary of this crate reads and writes the lines; [`TbpBot`] is the state
//! machine behind it, with no I/O, and [`FrontendMessage`] and [`BotMessage`] are the
//! messages as serde types.
//!
//! Conventions (the spec's, and battletris's, dellacherie's and Cold Clear 2's):
//!
//! - A location's `(x, y)` is the piece's rotation centre, x = 0 the leftmost column,
//!   y = 0 the bottom row, y up: [`CentrePos`](crate::CentrePos) as it is. `north`, `east`,
//!   `south`, `west` are `Spawn`, `Right`, `Reverse`, `Left` ([`placement_of`],
//!   [`location_of`]).
//! - The board is 40 rows of 10 cells, bottom row first; the bot keeps rows 0 to 31.
//! - `queue[0]` is the current piece. Hold is inferred from the piece played
//!   ([`TbpState::play`]).
//! - The randomizer extension's `seven_bag` state is the bag after the queue; the bot
//!   follows it through `new_piece` ([`BagKnowledge`]). Any other randomizer, or a state
//!   the queue contradicts, is unknown: the player then assumes a fresh bag follows the
//!   preview.

mod bot;
mod location;
mod message;
mod state;

pub use bot::{
    DEFAULT_SPAWN_ROW, DEFAULT_THINK_TIME, GameStats, GraphSource, Response, SuggestionSource,
    TbpBot, TbpConfig,
};
pub use location::{BOARD_ROWS, LocationError, location_of, placement_of, spin_of};
pub use message::{
    BotMessage, Cell, FrontendMessage, MoveInfo, PieceLocation, RandomizerRule, RandomizerState,
    Spin, Start, TbpMove, TbpOrientation, TbpPiece,
};
pub use state::{BagKnowledge, Played, StateError, TBP_ROWS, TbpState};
