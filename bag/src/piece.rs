//! The seven tetrominoes.

use std::fmt;
use std::str::FromStr;

use crate::error::ParsePiecesError;

/// One of the seven tetrominoes, in alphabetical order.
///
/// The discriminant is the piece's index (`I` = 0 … `Z` = 6); every table in the
/// workspace is indexed this way, so other crates convert with [`Piece::index`] and
/// [`Piece::from_index`].
///
/// ```
/// use pc_bag::Piece;
///
/// assert_eq!(Piece::T.index(), 5);
/// assert_eq!(Piece::try_from('t'), Ok(Piece::T));
/// assert_eq!("Z".parse::<Piece>(), Ok(Piece::Z));
/// assert_eq!(Piece::from_index(0), Some(Piece::I));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum Piece {
    /// The I piece (four in a row).
    I = 0,
    /// The J piece.
    J = 1,
    /// The L piece.
    L = 2,
    /// The O piece (square).
    O = 3,
    /// The S piece.
    S = 4,
    /// The T piece.
    T = 5,
    /// The Z piece.
    Z = 6,
}

impl Piece {
    /// Number of distinct pieces (the size of one bag).
    pub const COUNT: usize = 7;

    /// All pieces in index order.
    pub const ALL: [Piece; 7] = [
        Piece::I,
        Piece::J,
        Piece::L,
        Piece::O,
        Piece::S,
        Piece::T,
        Piece::Z,
    ];

    /// The piece's index, `0..7`, in the order of [`Piece::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece with this index, or `None` when `index >= 7`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Piece> {
        if index < Self::COUNT {
            Some(Self::ALL[index])
        } else {
            None
        }
    }

    /// The piece's letter, upper case.
    pub const fn to_char(self) -> char {
        match self {
            Piece::I => 'I',
            Piece::J => 'J',
            Piece::L => 'L',
            Piece::O => 'O',
            Piece::S => 'S',
            Piece::T => 'T',
            Piece::Z => 'Z',
        }
    }

    /// The piece named by `c` (either case), or `None`.
    pub const fn from_char(c: char) -> Option<Piece> {
        match c.to_ascii_uppercase() {
            'I' => Some(Piece::I),
            'J' => Some(Piece::J),
            'L' => Some(Piece::L),
            'O' => Some(Piece::O),
            'S' => Some(Piece::S),
            'T' => Some(Piece::T),
            'Z' => Some(Piece::Z),
            _ => None,
        }
    }

    /// Piece from its index, for callers that already know `index < 7`
    /// (packed representations store 3-bit indices that are valid by construction).
    #[inline]
    pub(crate) const fn from_index_unchecked(index: usize) -> Piece {
        Self::ALL[index]
    }
}

impl TryFrom<char> for Piece {
    type Error = ParsePiecesError;

    fn try_from(c: char) -> Result<Self, Self::Error> {
        Piece::from_char(c).ok_or(ParsePiecesError::NotAPiece {
            column: 1,
            found: c,
        })
    }
}

impl FromStr for Piece {
    type Err = ParsePiecesError;

    /// Parses exactly one letter (either case), surrounding whitespace ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.trim().chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Piece::try_from(c),
            (None, _) => Err(ParsePiecesError::Empty),
            (Some(_), Some(extra)) => Err(ParsePiecesError::Trailing {
                column: 2,
                found: extra,
            }),
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(self.to_char())
    }
}

/// The pieces written in `s`, each with its column (from 1); whitespace and commas are
/// skipped, any other character that is not a piece letter is an error naming its column.
pub(crate) fn letters(
    s: &str,
) -> impl Iterator<Item = Result<(usize, Piece), crate::ParsePiecesError>> + '_ {
    s.chars()
        .enumerate()
        .filter(|&(_, c)| !(c.is_whitespace() || c == ','))
        .map(|(position, c)| {
            Piece::from_char(c)
                .map(|piece| (position + 1, piece))
                .ok_or(crate::ParsePiecesError::NotAPiece {
                    column: position + 1,
                    found: c,
                })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips_and_order_is_alphabetical() {
        for (i, p) in Piece::ALL.iter().enumerate() {
            assert_eq!(p.index(), i);
            assert_eq!(Piece::from_index(i), Some(*p));
            assert_eq!(Piece::try_from(p.to_char()), Ok(*p));
        }
        assert_eq!(Piece::from_index(7), None);
        let letters: String = Piece::ALL.iter().map(|p| p.to_char()).collect();
        assert_eq!(letters, "IJLOSTZ");
    }

    #[test]
    fn parse_errors_say_what() {
        assert_eq!(
            Piece::try_from('x'),
            Err(ParsePiecesError::NotAPiece {
                column: 1,
                found: 'x'
            })
        );
        assert!("".parse::<Piece>().is_err());
        assert!("TI".parse::<Piece>().is_err());
        assert_eq!(" s ".parse::<Piece>(), Ok(Piece::S));
    }
}
