//! The errors of this crate.

/// What is wrong with the text of one [`Piece`](crate::Piece) (its `FromStr` and
/// `TryFrom<char>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ParsePieceError {
    /// Nothing but whitespace.
    #[error("expected a piece (one of I, J, L, O, S, T, Z), found nothing")]
    Empty,
    /// A character that names no piece.
    #[error("{found:?} is not a piece (expected one of I, J, L, O, S, T, Z)")]
    NotAPiece {
        /// The character.
        found: char,
    },
    /// More text after the piece letter.
    #[error("unexpected {found:?} at column {column}: a piece is one letter")]
    Trailing {
        /// The first character after the letter that is not whitespace.
        found: char,
        /// Its column in the text, counting characters from 1.
        column: usize,
    },
}

/// What is wrong with a request to the move generator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SrsError {
    /// The clear line is 0, or too high for the board's word (a piece must fit above it).
    #[error("clear line {clear_line} is out of range: it must be 1 to {max} for this board")]
    ClearLineOutOfRange {
        /// The clear line given.
        clear_line: u32,
        /// The highest one this board type allows.
        max: u32,
    },
    /// The field has a filled cell at or above the clear line.
    #[error("the field has a filled cell in row {row}, at or above the clear line {clear_line}")]
    FieldAboveClearLine {
        /// Highest filled row.
        row: u32,
        /// The clear line.
        clear_line: u32,
    },
    /// The spawn position puts a cell outside the board.
    #[error("a piece spawned at centre ({x}, {y}) would leave the board")]
    SpawnOffBoard {
        /// Centre column.
        x: i32,
        /// Centre row.
        y: i32,
    },
}

/// A kick table name that is not built in ([`KickTable::by_name`](crate::KickTable::by_name)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown kick table {name:?} (built in: {})", known.join(", "))]
pub struct UnknownKickTable {
    /// The name given.
    pub name: String,
    /// The names that are built in ([`KickTable::BUILTIN_NAMES`](crate::KickTable::BUILTIN_NAMES)).
    pub known: &'static [&'static str],
}
