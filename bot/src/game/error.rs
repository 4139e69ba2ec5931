//! The errors of the game simulator and of game records.

use pc_solver::ParseMoveError;
use pc_srs::{Piece, Placement};

use super::over::GameOver;

/// What is wrong with a game's settings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The preview shows more pieces than the simulator supports.
    #[error("a preview of {preview} pieces is too long: at most {max} are supported")]
    PreviewTooLong {
        /// The preview asked for.
        preview: usize,
        /// The longest preview supported.
        max: usize,
    },
}

/// Why the simulator refused a move. A refused move changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game is already over.
    #[error("the game is over ({0})")]
    GameOver(GameOver),
    /// The move holds, but the rules have no hold.
    #[error("the move uses hold, but hold is off in this game")]
    HoldDisabled,
    /// The placement is of another piece than the one this move plays.
    #[error("the move places {found}, but the piece to play is {expected}")]
    WrongPiece {
        /// The piece the move plays (the current piece, or the one hold brings in).
        expected: Piece,
        /// The piece of the placement given.
        found: Piece,
    },
    /// The placement cannot be reached from the spawn position with the kick table and
    /// drop mode, or does not rest on the stack.
    #[error("{0} cannot be reached from the spawn position")]
    Unreachable(Placement),
    /// The move's input path does not bring the piece to its placement.
    #[error("the input path does not end in {0}")]
    PathMismatch(Placement),
}

/// Why a player's game stopped with an error: the move the player gave was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {index} was refused: {error}")]
pub struct PlayError {
    /// Number of the refused move (the first move is 1).
    pub index: u64,
    /// Why it was refused.
    pub error: MoveError,
}

/// What is wrong with a game record (see [`GameRecord`](crate::GameRecord) for the format).
/// Line numbers start at 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The first line is not `pc-game 1`.
    #[error("line {line}: expected the header `pc-game 1`")]
    MissingHeader {
        /// The line read instead.
        line: usize,
    },
    /// A setting this format does not have.
    #[error("line {line}: unknown setting {key:?} (expected seed, preview, hold, kicks or drop)")]
    UnknownKey {
        /// Line of the setting.
        line: usize,
        /// The setting's name.
        key: String,
    },
    /// A setting given twice.
    #[error("line {line}: {key} is given twice")]
    DuplicateKey {
        /// Line of the second one.
        line: usize,
        /// The setting's name.
        key: String,
    },
    /// A setting whose value cannot be read.
    #[error("line {line}: bad value {value:?} for {key} (expected {expected})")]
    BadValue {
        /// Line of the setting.
        line: usize,
        /// The setting's name.
        key: String,
        /// The value given.
        value: String,
        /// What the value may be.
        expected: &'static str,
    },
    /// The record has no `seed` line.
    #[error("the record has no seed")]
    MissingSeed,
    /// The record has no `moves` line.
    #[error("the record has no `moves` section")]
    MissingMoves,
    /// Text after the `result` line.
    #[error("line {line}: nothing may follow the result line")]
    AfterResult {
        /// The line.
        line: usize,
    },
    /// A move that cannot be read.
    #[error("line {line}, move {index} ({token:?}): {error}")]
    BadMove {
        /// Line of the move.
        line: usize,
        /// Number of the move (the first is 1).
        index: usize,
        /// The move as written.
        token: String,
        /// What is wrong with it.
        error: ParseMoveError,
    },
    /// The settings cannot start a game.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A move the simulator refuses at that point of the game.
    #[error("move {index} ({token}) is illegal: {error}")]
    IllegalMove {
        /// Number of the move (the first is 1).
        index: usize,
        /// The move, as it is written in a record.
        token: String,
        /// Why the simulator refused it.
        error: MoveError,
    },
    /// The replayed game does not end as the record's `result` line says.
    #[error("the record says {what} {recorded}, the replay gives {replayed}")]
    ResultMismatch {
        /// Which figure differs (`pieces`, `lines`, `pcs` or `status`).
        what: &'static str,
        /// The recorded figure.
        recorded: String,
        /// The replayed figure.
        replayed: String,
    },
}
