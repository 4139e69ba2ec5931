//! Multisets of pieces: how many of each kind.

use std::fmt;
use std::str::FromStr;

use crate::Piece;
use crate::error::ParsePiecesError;
use crate::set::PieceSet;

/// How many of each piece, e.g. the pieces a PC solution uses regardless of order.
///
/// Counts are `u8`; operations that could overflow or go below zero are `checked_*`
/// and return `None` instead. Iteration and `Display` list each piece as many times as
/// it occurs, in the order `IJLOSTZ`.
///
/// ```
/// use pc_bag::{Piece, PieceMultiset};
///
/// let m: PieceMultiset = "TILTI".parse()?;
/// assert_eq!(m.to_string(), "IILTT");
/// assert_eq!(m.count(Piece::T), 2);
/// assert_eq!(m.len(), 5);
/// let fewer = m.checked_remove(Piece::T).unwrap();
/// assert!(fewer.is_subset(&m));
/// # Ok::<(), pc_bag::ParsePiecesError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PieceMultiset {
    counts: [u8; 7],
}

impl PieceMultiset {
    /// The empty multiset.
    pub const EMPTY: PieceMultiset = PieceMultiset { counts: [0; 7] };

    /// The multiset with these counts, indexed by [`Piece::index`].
    pub const fn from_counts(counts: [u8; 7]) -> PieceMultiset {
        PieceMultiset { counts }
    }

    /// The counts, indexed by [`Piece::index`].
    pub const fn counts(&self) -> [u8; 7] {
        self.counts
    }

    /// How many of `piece`.
    #[inline]
    pub const fn count(&self, piece: Piece) -> u8 {
        self.counts[piece as usize]
    }

    /// Total number of pieces.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum()
    }

    /// Whether there are no pieces.
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 7]
    }

    /// The distinct pieces present.
    pub fn support(&self) -> PieceSet {
        Piece::ALL
            .into_iter()
            .filter(|&p| self.count(p) > 0)
            .collect()
    }

    /// One more `piece`, or `None` if its count would exceed 255.
    pub fn checked_add(mut self, piece: Piece) -> Option<PieceMultiset> {
        let c = &mut self.counts[piece.index()];
        *c = c.checked_add(1)?;
        Some(self)
    }

    /// One fewer `piece`, or `None` if there is none.
    pub fn checked_remove(mut self, piece: Piece) -> Option<PieceMultiset> {
        let c = &mut self.counts[piece.index()];
        *c = c.checked_sub(1)?;
        Some(self)
    }

    /// Adds one `piece`; returns `false` (and changes nothing) if its count is already 255.
    pub fn insert(&mut self, piece: Piece) -> bool {
        match self.checked_add(piece) {
            Some(m) => {
                *self = m;
                true
            }
            None => false,
        }
    }

    /// Removes one `piece`; returns `false` (and changes nothing) if there is none.
    pub fn remove(&mut self, piece: Piece) -> bool {
        match self.checked_remove(piece) {
            Some(m) => {
                *self = m;
                true
            }
            None => false,
        }
    }

    /// The sum (counts added), or `None` on overflow.
    pub fn checked_sum(&self, other: &PieceMultiset) -> Option<PieceMultiset> {
        let mut out = *self;
        for (o, &c) in out.counts.iter_mut().zip(&other.counts) {
            *o = o.checked_add(c)?;
        }
        Some(out)
    }

    /// `self` minus `other`, or `None` if `other` is not a sub-multiset of `self`.
    pub fn checked_difference(&self, other: &PieceMultiset) -> Option<PieceMultiset> {
        let mut out = *self;
        for (o, &c) in out.counts.iter_mut().zip(&other.counts) {
            *o = o.checked_sub(c)?;
        }
        Some(out)
    }

    /// The union (larger count of each piece).
    pub fn union(&self, other: &PieceMultiset) -> PieceMultiset {
        let mut out = *self;
        for (o, &c) in out.counts.iter_mut().zip(&other.counts) {
            *o = (*o).max(c);
        }
        out
    }

    /// The intersection (smaller count of each piece).
    pub fn intersection(&self, other: &PieceMultiset) -> PieceMultiset {
        let mut out = *self;
        for (o, &c) in out.counts.iter_mut().zip(&other.counts) {
            *o = (*o).min(c);
        }
        out
    }

    /// Whether every count of `self` is at most the count in `other`.
    pub fn is_subset(&self, other: &PieceMultiset) -> bool {
        self.counts.iter().zip(&other.counts).all(|(a, b)| a <= b)
    }

    /// Every piece, repeated by its count, in index order.
    pub fn iter(&self) -> impl Iterator<Item = Piece> + '_ {
        Piece::ALL
            .into_iter()
            .flat_map(|p| std::iter::repeat_n(p, self.count(p) as usize))
    }
}

impl From<PieceSet> for PieceMultiset {
    fn from(set: PieceSet) -> Self {
        let mut m = PieceMultiset::EMPTY;
        for p in set {
            m.counts[p.index()] = 1;
        }
        m
    }
}

impl FromStr for PieceMultiset {
    type Err = ParsePiecesError;

    /// Parses letters in any order and either case; whitespace and commas are ignored.
    /// The empty string and `-` are the empty multiset.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::piece::parse_into(
            s,
            PieceMultiset::EMPTY,
            PieceMultiset::insert,
            |column, piece| ParsePiecesError::TooMany { column, piece },
        )
    }
}

impl fmt::Display for PieceMultiset {
    /// The letters in index order, each as often as it is counted; `-` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::piece::write_letters(f, self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_operations() {
        let a: PieceMultiset = "IIT".parse().unwrap();
        let b: PieceMultiset = "ITTS".parse().unwrap();
        assert_eq!(a.union(&b).to_string(), "IISTT");
        assert_eq!(a.intersection(&b).to_string(), "IT");
        assert_eq!(a.checked_sum(&b).unwrap().to_string(), "IIISTTT");
        assert_eq!(a.checked_difference(&b), None);
        assert_eq!(
            a.checked_difference(&"I".parse().unwrap())
                .unwrap()
                .to_string(),
            "IT"
        );
        assert_eq!(a.support().to_string(), "IT");
        assert!(!a.is_subset(&b));
        assert_eq!(PieceMultiset::EMPTY.checked_remove(Piece::T), None);
        assert_eq!(PieceMultiset::from(PieceSet::ALL).len(), 7);
    }

    #[test]
    fn counts_saturate_with_an_error_not_a_wrap() {
        let mut m = PieceMultiset::from_counts([255, 0, 0, 0, 0, 0, 0]);
        assert!(!m.insert(Piece::I));
        assert_eq!(m.count(Piece::I), 255);
        let long = "I".repeat(256);
        assert!(long.parse::<PieceMultiset>().is_err());
    }
}
