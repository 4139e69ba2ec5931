//! Sets of distinct pieces as a 7-bit mask.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};
use std::str::FromStr;

use crate::Piece;
use crate::error::ParsePiecesError;

/// A set of distinct pieces: bit `i` is set when the piece with index `i` is in the set.
///
/// Iteration and `Display` follow the fixed order `IJLOSTZ`.
///
/// ```
/// use pc_bag::{Piece, PieceSet};
///
/// let s: PieceSet = "TSZ".parse()?;
/// assert_eq!(s.to_string(), "STZ");
/// assert!(s.contains(Piece::T));
/// assert_eq!((!s).to_string(), "IJLO");
/// assert_eq!((s - PieceSet::single(Piece::T)).len(), 2);
/// # Ok::<(), pc_bag::ParsePiecesError>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
pub struct PieceSet(u8);

impl PieceSet {
    /// The empty set.
    pub const EMPTY: PieceSet = PieceSet(0);
    /// All seven pieces.
    pub const ALL: PieceSet = PieceSet(0x7f);

    /// The set with bit mask `bits`, or `None` when a bit above bit 6 is set.
    pub const fn from_bits(bits: u8) -> Option<PieceSet> {
        if bits & !0x7f == 0 {
            Some(PieceSet(bits))
        } else {
            None
        }
    }

    /// The bit mask (bit `i` = piece with index `i`).
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The set holding only `piece`.
    #[inline]
    pub const fn single(piece: Piece) -> PieceSet {
        PieceSet(1 << piece as u8)
    }

    /// Number of pieces in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `piece` is in the set.
    #[inline]
    pub const fn contains(self, piece: Piece) -> bool {
        self.0 & (1 << piece as u8) != 0
    }

    /// Adds `piece`; returns whether it was absent.
    #[inline]
    pub fn insert(&mut self, piece: Piece) -> bool {
        let absent = !self.contains(piece);
        self.0 |= 1 << piece as u8;
        absent
    }

    /// Removes `piece`; returns whether it was present.
    #[inline]
    pub fn remove(&mut self, piece: Piece) -> bool {
        let present = self.contains(piece);
        self.0 &= !(1 << piece as u8);
        present
    }

    /// The set with `piece` added.
    #[inline]
    pub const fn with(self, piece: Piece) -> PieceSet {
        PieceSet(self.0 | 1 << piece as u8)
    }

    /// The set with `piece` removed.
    #[inline]
    pub const fn without(self, piece: Piece) -> PieceSet {
        PieceSet(self.0 & !(1 << piece as u8))
    }

    /// Pieces in either set.
    #[inline]
    pub const fn union(self, other: PieceSet) -> PieceSet {
        PieceSet(self.0 | other.0)
    }

    /// Pieces in both sets.
    #[inline]
    pub const fn intersection(self, other: PieceSet) -> PieceSet {
        PieceSet(self.0 & other.0)
    }

    /// Pieces in `self` but not in `other`.
    #[inline]
    pub const fn difference(self, other: PieceSet) -> PieceSet {
        PieceSet(self.0 & !other.0)
    }

    /// The pieces not in the set.
    #[inline]
    pub const fn complement(self) -> PieceSet {
        PieceSet(!self.0 & 0x7f)
    }

    /// Whether every piece of `self` is in `other`.
    #[inline]
    pub const fn is_subset(self, other: PieceSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The piece with the smallest index, if any.
    #[inline]
    pub const fn first(self) -> Option<Piece> {
        if self.0 == 0 {
            None
        } else {
            Some(Piece::ALL[self.0.trailing_zeros() as usize])
        }
    }

    /// The pieces in index order.
    #[inline]
    pub fn iter(self) -> Iter {
        Iter(self.0)
    }
}

/// Iterator over a [`PieceSet`] in index order.
#[derive(Clone, Debug)]
pub struct Iter(u8);

impl Iterator for Iter {
    type Item = Piece;

    #[inline]
    fn next(&mut self) -> Option<Piece> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Piece::ALL[i])
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter {}

impl IntoIterator for PieceSet {
    type Item = Piece;
    type IntoIter = Iter;

    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl FromIterator<Piece> for PieceSet {
    fn from_iter<I: IntoIterator<Item = Piece>>(iter: I) -> Self {
        let mut s = PieceSet::EMPTY;
        for p in iter {
            s.insert(p);
        }
        s
    }
}

impl Extend<Piece> for PieceSet {
    fn extend<I: IntoIterator<Item = Piece>>(&mut self, iter: I) {
        for p in iter {
            self.insert(p);
        }
    }
}

impl From<Piece> for PieceSet {
    fn from(piece: Piece) -> Self {
        PieceSet::single(piece)
    }
}

impl From<PieceSet> for u8 {
    fn from(set: PieceSet) -> u8 {
        set.0
    }
}

impl TryFrom<u8> for PieceSet {
    type Error = ParsePiecesError;

    fn try_from(bits: u8) -> Result<Self, Self::Error> {
        PieceSet::from_bits(bits).ok_or(ParsePiecesError::InvalidBits { bits })
    }
}

impl BitOr for PieceSet {
    type Output = PieceSet;
    fn bitor(self, rhs: PieceSet) -> PieceSet {
        self.union(rhs)
    }
}

impl BitOrAssign for PieceSet {
    fn bitor_assign(&mut self, rhs: PieceSet) {
        *self = self.union(rhs);
    }
}

impl BitAnd for PieceSet {
    type Output = PieceSet;
    fn bitand(self, rhs: PieceSet) -> PieceSet {
        self.intersection(rhs)
    }
}

impl BitAndAssign for PieceSet {
    fn bitand_assign(&mut self, rhs: PieceSet) {
        *self = self.intersection(rhs);
    }
}

impl Sub for PieceSet {
    type Output = PieceSet;
    fn sub(self, rhs: PieceSet) -> PieceSet {
        self.difference(rhs)
    }
}

impl SubAssign for PieceSet {
    fn sub_assign(&mut self, rhs: PieceSet) {
        *self = self.difference(rhs);
    }
}

impl Not for PieceSet {
    type Output = PieceSet;
    fn not(self) -> PieceSet {
        self.complement()
    }
}

impl FromStr for PieceSet {
    type Err = ParsePiecesError;

    /// Parses letters in any order and either case (`"TSZ"`); whitespace and commas are
    /// ignored, a repeated piece is an error. The empty string and `-` are the empty set.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::piece::parse_into(s, PieceSet::EMPTY, PieceSet::insert, |column, piece| {
            ParsePiecesError::Repeated { column, piece }
        })
    }
}

impl fmt::Display for PieceSet {
    /// The letters in index order, e.g. `"IJLOSTZ"`; `-` for the empty set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::piece::write_letters(f, self.iter())
    }
}

impl fmt::Debug for PieceSet {
    /// `PieceSet(IJT)`, `PieceSet(-)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PieceSet({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_set_shows_and_reads_back() {
        assert_eq!(PieceSet::EMPTY.to_string(), "-");
        assert_eq!("-".parse::<PieceSet>(), Ok(PieceSet::EMPTY));
        assert_eq!("".parse::<PieceSet>(), Ok(PieceSet::EMPTY));
        assert_eq!(
            format!("{:?}", "TI".parse::<PieceSet>().unwrap()),
            "PieceSet(IT)"
        );
        assert_eq!(format!("{:?}", PieceSet::EMPTY), "PieceSet(-)");
        // A dash among letters is no piece.
        assert!("I-".parse::<PieceSet>().is_err());
    }

    #[test]
    fn set_operations() {
        let a: PieceSet = "IJT".parse().unwrap();
        let b: PieceSet = "TSZ".parse().unwrap();
        assert_eq!((a | b).to_string(), "IJSTZ");
        assert_eq!((a & b).to_string(), "T");
        assert_eq!((a - b).to_string(), "IJ");
        assert_eq!((!a).to_string(), "LOSZ");
        assert_eq!(PieceSet::ALL.len(), 7);
        assert!(PieceSet::EMPTY.is_empty());
        assert!((a & b).is_subset(a));
        assert!(!a.is_subset(b));
        assert_eq!(a.first(), Some(Piece::I));
        assert_eq!(PieceSet::EMPTY.first(), None);
    }

    #[test]
    fn iteration_is_in_index_order() {
        let s: PieceSet = "ZTSOLJI".parse().unwrap();
        assert_eq!(s.iter().collect::<Vec<_>>(), Piece::ALL.to_vec());
        assert_eq!(s.iter().len(), 7);
    }

    #[test]
    fn parse_rejects_repeats_and_non_pieces() {
        assert_eq!(
            "TIT".parse::<PieceSet>(),
            Err(ParsePiecesError::Repeated {
                column: 3,
                piece: Piece::T
            })
        );
        assert_eq!(
            "TQ".parse::<PieceSet>(),
            Err(ParsePiecesError::NotAPiece {
                column: 2,
                found: 'Q'
            })
        );
        assert_eq!(PieceSet::from_bits(0x80), None);
    }
}
