//! Error types, one enum per fallible area. Columns are 1-based character columns of the
//! text being parsed; positions are 0-based indices into a piece sequence.

use std::fmt;

use crate::Piece;
use crate::set::PieceSet;

/// Parsing piece sets, multisets and sequences from text (one [`Piece`] parses with
/// [`pc_srs::ParsePieceError`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePiecesError {
    /// A character that is not a piece letter.
    #[error("column {column}: '{found}' is not a piece (expected one of IJLOSTZ)")]
    NotAPiece {
        /// 1-based column of the character.
        column: usize,
        /// The character found.
        found: char,
    },
    /// A piece repeated in a set.
    #[error("column {column}: {piece} is already in the set")]
    Repeated {
        /// 1-based column of the repeat.
        column: usize,
        /// The repeated piece.
        piece: Piece,
    },
    /// A count above 255 in a multiset.
    #[error("column {column}: more than 255 of {piece}")]
    TooMany {
        /// 1-based column where the count overflowed.
        column: usize,
        /// The piece.
        piece: Piece,
    },
    /// More pieces than a [`Sequence`](crate::Sequence) holds.
    #[error("{len} pieces do not fit in a sequence (at most {max})", max = crate::Sequence::MAX_LEN)]
    TooLong {
        /// Number of pieces given.
        len: usize,
    },
    /// A bit mask with bits above bit 6.
    #[error("bit mask {bits:#04x} has bits beyond the seven pieces")]
    InvalidBits {
        /// The rejected mask.
        bits: u8,
    },
}

/// A [`Sequence`](crate::Sequence) is full.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a sequence holds at most {max} pieces", max = crate::Sequence::MAX_LEN)]
pub struct CapacityError;

/// Contradictions between pieces and the 7-bag rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BagError {
    /// A piece that cannot be drawn from the current bag.
    #[error("piece {piece} at position {position} cannot be drawn: the bag only has {left} left")]
    NotInBag {
        /// The piece drawn.
        piece: Piece,
        /// 0-based position of the draw in the sequence given.
        position: usize,
        /// The pieces the bag still held.
        left: PieceSet,
    },
    /// A piece that occurs twice within one bag of a stream.
    #[error(
        "piece {piece} at position {position} repeats the {piece} at position {first}, in the same bag"
    )]
    RepeatedInBag {
        /// The repeated piece.
        piece: Piece,
        /// 0-based position of the second occurrence.
        position: usize,
        /// 0-based position of the first occurrence.
        first: usize,
    },
    /// A count of pieces left in a bag above 7.
    #[error("{left} pieces left in the bag is impossible: a bag holds 7")]
    InvalidLeft {
        /// The count given.
        left: usize,
    },
    /// The queue does not reach back to the start of the current bag, so the bag state
    /// depends on pieces that are not known.
    #[error(
        "the queue has {len} pieces but {drawn} have been drawn from the current bag; \
         the ones drawn before the queue are unknown"
    )]
    QueueTooShort {
        /// Length of the queue.
        len: usize,
        /// Pieces drawn from the current bag (7 minus the number left).
        drawn: usize,
    },
}

/// What a pattern parser expected at an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The start of an element.
    Element,
    /// A piece letter or the closing bracket inside `[...]`.
    PieceOrClose,
    /// Digits of a pick count after `p`.
    Count,
    /// A separator between elements.
    CommaOrEnd,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Element => "a piece (IJLOSTZ), '*' or '['",
            Expected::PieceOrClose => "a piece (IJLOSTZ) or ']'",
            Expected::Count => "a number of pieces to pick after 'p'",
            Expected::CommaOrEnd => "',' or the end of the pattern",
        })
    }
}

/// What a pattern parser found at an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// The text ended.
    End,
    /// This character.
    Char(char),
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::End => f.write_str("the end of the pattern"),
            Found::Char(c) => write!(f, "'{}'", c.escape_debug()),
        }
    }
}

/// A syntax error in one pattern such as `T,*p4`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// The text holds no element.
    #[error("the pattern is empty")]
    Empty,
    /// Something other than what the grammar allows here.
    #[error("column {column}: expected {expected}, found {found}")]
    Unexpected {
        /// 1-based column.
        column: usize,
        /// What would have been accepted.
        expected: Expected,
        /// What was there.
        found: Found,
    },
    /// A piece listed twice inside brackets.
    #[error("column {column}: {piece} appears twice inside [...]")]
    RepeatedInBracket {
        /// 1-based column of the second occurrence.
        column: usize,
        /// The piece.
        piece: Piece,
    },
    /// Brackets that leave no piece to choose from (`[]`, `[^IJLOSTZ]`).
    #[error("column {column}: the brackets leave no piece to choose from")]
    EmptyBracket {
        /// 1-based column of the opening bracket.
        column: usize,
    },
    /// `p0`, or a number too large to read.
    #[error("column {column}: cannot pick {count} pieces; a pick count is 1 or more")]
    BadCount {
        /// 1-based column of the number.
        column: usize,
        /// The number as written, clamped to `u32::MAX`.
        count: u32,
    },
    /// `pN` with N larger than the set it picks from.
    #[error("column {column}: cannot pick {count} distinct pieces from a set of {available}")]
    PickTooMany {
        /// 1-based column of the number.
        column: usize,
        /// The pick count.
        count: u32,
        /// The size of the set.
        available: usize,
    },
    /// More pieces in total than a [`Sequence`](crate::Sequence) holds.
    #[error(
        "column {column}: the pattern reaches {len} pieces here, more than the {max} supported",
        max = crate::Sequence::MAX_LEN
    )]
    TooLong {
        /// 1-based column of the element that goes past the limit.
        column: usize,
        /// Pieces up to and including that element.
        len: usize,
    },
}

/// An error in a pattern file (one pattern per line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternSetError {
    /// A syntax error on one line.
    #[error("line {line}, {error}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// The error within the line.
        #[source]
        error: PatternError,
    },
    /// A line whose pattern length differs from the first pattern's (as in sfinder, all
    /// lines of a file must have the same number of pieces).
    #[error(
        "line {line}: {found} pieces, but the first pattern has {expected}; every line must have the same number"
    )]
    MixedLengths {
        /// 1-based line number.
        line: usize,
        /// Length of the first pattern.
        expected: usize,
        /// Length of this line's pattern.
        found: usize,
    },
    /// Every line is blank or a comment.
    #[error("no pattern: every line is blank or a comment")]
    NoPattern,
}

/// A pattern shorter than the number of pieces a PC needs (sfinder refuses these too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the pattern has {available} pieces but the PC needs {needed}")]
pub struct TooFewPieces {
    /// Pieces the PC needs.
    pub needed: usize,
    /// Pieces in the pattern.
    pub available: usize,
}

/// Impossible requests for hold orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HoldError {
    /// More pieces to play than hold plus queue offer.
    #[error("cannot play {len} pieces: hold and queue hold only {available}")]
    NotEnoughPieces {
        /// Pieces requested.
        len: usize,
        /// Hold plus queue length.
        available: usize,
    },
    /// A play order longer than a [`Sequence`](crate::Sequence) holds.
    #[error("cannot play {len} pieces: a sequence holds at most {max}", max = crate::Sequence::MAX_LEN)]
    TooLong {
        /// Pieces requested.
        len: usize,
    },
}

/// Impossible requests for the PC phase helper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PhaseError {
    /// A PC height whose cells are not a whole number of pieces.
    #[error(
        "a {lines}-line PC fills {cells} cells, not a whole number of pieces; use 2, 4, 6 or 8 lines",
        cells = lines.saturating_mul(10)
    )]
    UnsupportedHeight {
        /// The height given.
        lines: usize,
    },
    /// So many PCs that the piece count overflows.
    #[error("{pcs} PCs of {lines} lines overflow the piece count")]
    Overflow {
        /// The number of PCs.
        pcs: usize,
        /// The height.
        lines: usize,
    },
}
