//! Pieces, orientations and rotations.

use core::fmt;
use core::str::FromStr;

use crate::ParsePieceError;

/// One of the seven tetrominoes, in alphabetical order; the discriminant is the index
/// (`I` = 0 … `Z` = 6) that every table of the workspace uses. `pc-bag` and `pc-solver`
/// re-export this type.
///
/// ```
/// use pc_srs::{Orientation, Piece};
///
/// assert_eq!(Piece::T.index(), 5);
/// assert_eq!("t".parse::<Piece>(), Ok(Piece::T));
/// assert_eq!(Piece::T.to_string(), "T");
/// let t = Piece::T.with(Orientation::Right).at(4, 1)?;
/// assert_eq!(t.piece(), Piece::T);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum Piece {
    /// The I piece.
    I = 0,
    /// The J piece.
    J = 1,
    /// The L piece.
    L = 2,
    /// The O piece.
    O = 3,
    /// The S piece.
    S = 4,
    /// The T piece.
    T = 5,
    /// The Z piece.
    Z = 6,
}

impl Piece {
    /// The number of distinct pieces (the size of one 7-bag).
    ///
    /// ```
    /// assert_eq!(pc_srs::Piece::COUNT, pc_srs::Piece::ALL.len());
    /// ```
    pub const COUNT: usize = 7;

    /// All seven pieces, in index order.
    ///
    /// ```
    /// use pc_srs::Piece;
    /// let letters: String = Piece::ALL.iter().map(|p| p.to_char()).collect();
    /// assert_eq!(letters, "IJLOSTZ");
    /// ```
    pub const ALL: [Piece; Piece::COUNT] = [
        Piece::I,
        Piece::J,
        Piece::L,
        Piece::O,
        Piece::S,
        Piece::T,
        Piece::Z,
    ];

    /// Index `0..7` in alphabetical order.
    ///
    /// ```
    /// assert_eq!(pc_srs::Piece::I.index(), 0);
    /// assert_eq!(pc_srs::Piece::Z.index(), 6);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece of index `i`, or `None` when `i >= 7`.
    ///
    /// ```
    /// use pc_srs::Piece;
    /// assert_eq!(Piece::from_index(3), Some(Piece::O));
    /// assert_eq!(Piece::from_index(7), None);
    /// ```
    #[inline]
    pub const fn from_index(i: usize) -> Option<Piece> {
        if i < Piece::COUNT {
            Some(Piece::ALL[i])
        } else {
            None
        }
    }

    /// The piece's letter, upper case.
    ///
    /// ```
    /// assert_eq!(pc_srs::Piece::S.to_char(), 'S');
    /// ```
    #[inline]
    pub const fn to_char(self) -> char {
        ['I', 'J', 'L', 'O', 'S', 'T', 'Z'][self as usize]
    }

    /// The piece of a letter (upper or lower case), or `None`. [`TryFrom<char>`] does
    /// the same with an error, [`str::parse`] reads a piece from text.
    ///
    /// ```
    /// use pc_srs::Piece;
    /// assert_eq!(Piece::from_char('j'), Some(Piece::J));
    /// assert_eq!(Piece::from_char('X'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Piece> {
        Some(match c.to_ascii_uppercase() {
            'I' => Piece::I,
            'J' => Piece::J,
            'L' => Piece::L,
            'O' => Piece::O,
            'S' => Piece::S,
            'T' => Piece::T,
            'Z' => Piece::Z,
            _ => return None,
        })
    }

    /// The piece seen in a mirror (left and right swapped): J↔L, S↔Z.
    ///
    /// ```
    /// use pc_srs::Piece;
    /// assert_eq!(Piece::S.mirrored(), Piece::Z);
    /// assert_eq!(Piece::T.mirrored(), Piece::T);
    /// ```
    #[inline]
    pub const fn mirrored(self) -> Piece {
        match self {
            Piece::J => Piece::L,
            Piece::L => Piece::J,
            Piece::S => Piece::Z,
            Piece::Z => Piece::S,
            p => p,
        }
    }

    /// The piece in an orientation, ready to be put at a position:
    /// `Piece::T.with(Orientation::Right).at(4, 1)`.
    ///
    /// ```
    /// use pc_srs::{Orientation, Piece};
    /// let oriented = Piece::L.with(Orientation::Left);
    /// assert_eq!((oriented.piece, oriented.orientation), (Piece::L, Orientation::Left));
    /// ```
    #[inline]
    pub const fn with(self, orientation: Orientation) -> OrientedPiece {
        OrientedPiece {
            piece: self,
            orientation,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(self.to_char())
    }
}

impl TryFrom<char> for Piece {
    type Error = ParsePieceError;

    /// The piece of a letter (upper or lower case).
    ///
    /// ```
    /// use pc_srs::{ParsePieceError, Piece};
    /// assert_eq!(Piece::try_from('t'), Ok(Piece::T));
    /// assert_eq!(Piece::try_from('x'), Err(ParsePieceError::NotAPiece { found: 'x' }));
    /// ```
    fn try_from(c: char) -> Result<Self, Self::Error> {
        Piece::from_char(c).ok_or(ParsePieceError::NotAPiece { found: c })
    }
}

impl FromStr for Piece {
    type Err = ParsePieceError;

    /// Exactly one piece letter, either case; whitespace around it is ignored.
    ///
    /// ```
    /// use pc_srs::{ParsePieceError, Piece};
    /// assert_eq!(" s ".parse::<Piece>(), Ok(Piece::S));
    /// assert_eq!("".parse::<Piece>(), Err(ParsePieceError::Empty));
    /// assert_eq!("Q".parse::<Piece>(), Err(ParsePieceError::NotAPiece { found: 'Q' }));
    /// assert_eq!(
    ///     "T I".parse::<Piece>(),
    ///     Err(ParsePieceError::Trailing { found: 'I', column: 3 })
    /// );
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut letters = s.chars().enumerate().filter(|(_, c)| !c.is_whitespace());
        let (_, first) = letters.next().ok_or(ParsePieceError::Empty)?;
        let piece = Piece::try_from(first)?;
        match letters.next() {
            None => Ok(piece),
            Some((i, found)) => Err(ParsePieceError::Trailing {
                found,
                column: i + 1,
            }),
        }
    }
}

/// A piece's orientation: spawn (N), right (E), reverse (S), left (W).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Orientation {
    /// As the piece spawns (N, `0`).
    Spawn = 0,
    /// One clockwise turn from spawn (E, `R`).
    Right = 1,
    /// Two turns from spawn (S, `2`).
    Reverse = 2,
    /// One counter-clockwise turn from spawn (W, `L`).
    Left = 3,
}

impl Orientation {
    /// The four orientations, clockwise from spawn.
    pub const ALL: [Orientation; 4] = [
        Orientation::Spawn,
        Orientation::Right,
        Orientation::Reverse,
        Orientation::Left,
    ];

    /// Index `0..4`, clockwise from spawn.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The orientation of index `i % 4`.
    #[inline]
    pub const fn from_index(i: usize) -> Orientation {
        Orientation::ALL[i % 4]
    }

    /// After a clockwise turn.
    #[inline]
    pub const fn cw(self) -> Orientation {
        Orientation::from_index(self as usize + 1)
    }

    /// After a counter-clockwise turn.
    #[inline]
    pub const fn ccw(self) -> Orientation {
        Orientation::from_index(self as usize + 3)
    }

    /// After a half turn.
    #[inline]
    pub const fn r180(self) -> Orientation {
        Orientation::from_index(self as usize + 2)
    }

    /// After `rotation`.
    #[inline]
    pub const fn rotate(self, rotation: Rotation) -> Orientation {
        match rotation {
            Rotation::Cw => self.cw(),
            Rotation::Ccw => self.ccw(),
            Rotation::Half => self.r180(),
        }
    }

    /// The compass letter sfinder's kick files use: `N`, `E`, `S`, `W`.
    #[inline]
    pub const fn compass(self) -> char {
        ['N', 'E', 'S', 'W'][self as usize]
    }

    /// The orientation of a compass letter `N`, `E`, `S`, `W`.
    pub const fn from_compass(c: char) -> Option<Orientation> {
        Some(match c {
            'N' => Orientation::Spawn,
            'E' => Orientation::Right,
            'S' => Orientation::Reverse,
            'W' => Orientation::Left,
            _ => return None,
        })
    }

    /// The orientation seen in a mirror: right and left swap.
    #[inline]
    pub const fn mirrored(self) -> Orientation {
        match self {
            Orientation::Right => Orientation::Left,
            Orientation::Left => Orientation::Right,
            o => o,
        }
    }
}

impl fmt::Display for Orientation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Orientation::Spawn => "spawn",
            Orientation::Right => "right",
            Orientation::Reverse => "reverse",
            Orientation::Left => "left",
        })
    }
}

/// A rotation input.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Rotation {
    /// Clockwise.
    Cw,
    /// Counter-clockwise.
    Ccw,
    /// Half turn (180°), where the kick table has it.
    Half,
}

impl Rotation {
    /// The three rotations.
    pub const ALL: [Rotation; 3] = [Rotation::Cw, Rotation::Ccw, Rotation::Half];

    /// The rotation that turns `from` into `to`, or `None` when they are equal.
    pub const fn between(from: Orientation, to: Orientation) -> Option<Rotation> {
        match (to as usize + 4 - from as usize) % 4 {
            1 => Some(Rotation::Cw),
            2 => Some(Rotation::Half),
            3 => Some(Rotation::Ccw),
            _ => None,
        }
    }
}

/// A piece in an orientation, not yet placed. Made by [`Piece::with`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct OrientedPiece {
    /// The piece.
    pub piece: Piece,
    /// Its orientation.
    pub orientation: Orientation,
}

impl OrientedPiece {
    /// The placement with the rotation centre at `(x, y)` (the form guideline games,
    /// fumen and sfinder use), or an error when a cell would leave the board.
    ///
    /// ```
    /// use pc_srs::{Orientation, Piece};
    /// let t = Piece::T.with(Orientation::Right).at(0, 1)?;
    /// assert_eq!(t.cells(), [(0, 0), (0, 1), (1, 1), (0, 2)]);
    /// # Ok::<(), pc_srs::PlacementError>(())
    /// ```
    pub fn at(self, x: i32, y: i32) -> Result<crate::Placement, crate::PlacementError> {
        crate::Placement::new(self.piece, self.orientation, crate::CentrePos { x, y })
    }

    /// The cells relative to the rotation centre.
    #[inline]
    pub const fn cells(self) -> [(i8, i8); 4] {
        crate::shape::cells(self.piece, self.orientation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_compose() {
        for o in Orientation::ALL {
            assert_eq!(o.cw().ccw(), o);
            assert_eq!(o.r180().r180(), o);
            assert_eq!(o.cw().cw(), o.r180());
            for r in Rotation::ALL {
                assert_eq!(Rotation::between(o, o.rotate(r)), Some(r));
            }
            assert_eq!(Orientation::from_compass(o.compass()), Some(o));
        }
    }

    #[test]
    fn piece_letters() {
        for p in Piece::ALL {
            assert_eq!(Piece::from_char(p.to_char()), Some(p));
            assert_eq!(Piece::from_index(p.index()), Some(p));
            assert_eq!(p.mirrored().mirrored(), p);
        }
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(Piece::from_index(7), None);
        assert!(Piece::try_from('q').is_err());
    }

    #[test]
    fn parsing_one_piece() {
        for p in Piece::ALL {
            assert_eq!(p.to_string().parse(), Ok(p));
            assert_eq!(p.to_char().to_ascii_lowercase().to_string().parse(), Ok(p));
            assert_eq!(format!("\t{p}\n").parse(), Ok(p));
        }
        assert_eq!(" \n".parse::<Piece>(), Err(ParsePieceError::Empty));
        assert_eq!(
            " x".parse::<Piece>(),
            Err(ParsePieceError::NotAPiece { found: 'x' })
        );
        assert_eq!(
            "TI".parse::<Piece>(),
            Err(ParsePieceError::Trailing {
                found: 'I',
                column: 2
            })
        );
        assert_eq!(
            ParsePieceError::Trailing {
                found: 'I',
                column: 2
            }
            .to_string(),
            "unexpected 'I' at column 2: a piece is one letter"
        );
    }
}
