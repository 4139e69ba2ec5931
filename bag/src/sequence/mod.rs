//! Piece sequences packed into one machine word, and enumeration of the sequences a bag
//! can produce.

pub(crate) mod enumerate;

use std::fmt;
use std::str::FromStr;

use crate::Piece;
use crate::error::{CapacityError, ParsePiecesError};
use crate::multiset::PieceMultiset;
use crate::set::PieceSet;

/// Bits per piece in the packed form.
const BITS: u32 = 3;
/// Shift of the first piece: pieces are packed from the top so that comparing the words
/// compares sequences lexicographically.
const TOP: u32 = 60;

/// A sequence of up to [`Sequence::MAX_LEN`] pieces, packed 3 bits per piece into a `u64`.
///
/// `Copy`, 16 bytes, no heap: hot paths (pattern expansion, enumeration, hold orders)
/// produce millions of these. The derived order is lexicographic in piece index order
/// (`I < J < … < Z`), with a proper prefix before its extensions, and equal sequences
/// have equal hashes.
///
/// 21 pieces cover an 8-line PC (20 pieces) plus one in hold.
///
/// ```
/// use pc_bag::{Piece, Sequence};
///
/// let mut s: Sequence = "TIO".parse()?;
/// s.push(Piece::S)?;
/// assert_eq!(s.to_string(), "TIOS");
/// assert_eq!(s.get(1), Some(Piece::I));
/// assert_eq!(s.iter().collect::<Vec<_>>(), [Piece::T, Piece::I, Piece::O, Piece::S]);
/// assert!("TI".parse::<Sequence>()? < s);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct Sequence {
    // Field order matters for the derived `Ord`: bits first, then length.
    bits: u64,
    len: u8,
}

impl Sequence {
    /// Most pieces a sequence holds.
    pub const MAX_LEN: usize = 21;

    /// The empty sequence.
    pub const EMPTY: Sequence = Sequence { bits: 0, len: 0 };

    #[inline]
    const fn shift(i: usize) -> u32 {
        TOP - BITS * i as u32
    }

    /// The packed bits of a piece placed at position `i` (`i < MAX_LEN`).
    #[inline]
    pub(crate) const fn piece_bits(piece: Piece, i: usize) -> u64 {
        (piece as u64) << Self::shift(i)
    }

    /// Builds from packed bits; the caller guarantees `len <= MAX_LEN`, 3-bit fields below
    /// 7, and zero bits past `len`.
    #[inline]
    pub(crate) const fn from_raw(bits: u64, len: usize) -> Sequence {
        Sequence {
            bits,
            len: len as u8,
        }
    }

    /// The packed bits (piece `i` at bits `60 - 3i .. 63 - 3i`).
    #[inline]
    pub(crate) const fn raw_bits(&self) -> u64 {
        self.bits
    }

    /// The sequence of these pieces, or an error if there are more than [`Self::MAX_LEN`].
    pub fn from_pieces(pieces: &[Piece]) -> Result<Sequence, CapacityError> {
        if pieces.len() > Self::MAX_LEN {
            return Err(CapacityError);
        }
        let mut bits = 0;
        for (i, &p) in pieces.iter().enumerate() {
            bits |= Self::piece_bits(p, i);
        }
        Ok(Sequence::from_raw(bits, pieces.len()))
    }

    /// Number of pieces.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are no pieces.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The piece at position `i`, or `None` past the end.
    #[inline]
    pub const fn get(&self, i: usize) -> Option<Piece> {
        if i < self.len as usize {
            Some(Piece::ALL[((self.bits >> Self::shift(i)) & 7) as usize])
        } else {
            None
        }
    }

    /// The first piece.
    pub const fn first(&self) -> Option<Piece> {
        self.get(0)
    }

    /// The last piece.
    pub const fn last(&self) -> Option<Piece> {
        if self.len == 0 {
            None
        } else {
            self.get(self.len as usize - 1)
        }
    }

    /// Appends `piece`, or returns an error if the sequence is full.
    #[inline]
    pub fn push(&mut self, piece: Piece) -> Result<(), CapacityError> {
        let n = self.len as usize;
        if n >= Self::MAX_LEN {
            return Err(CapacityError);
        }
        self.bits |= Self::piece_bits(piece, n);
        self.len += 1;
        Ok(())
    }

    /// Removes and returns the last piece.
    pub fn pop(&mut self) -> Option<Piece> {
        let last = self.last()?;
        self.len -= 1;
        self.bits &= !(7 << Self::shift(self.len as usize));
        Some(last)
    }

    /// Keeps the first `len` pieces (no effect if `len >= self.len()`).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        *self = self.prefix(len);
    }

    /// The first `len` pieces (the whole sequence if `len >= self.len()`).
    #[inline]
    pub const fn prefix(&self, len: usize) -> Sequence {
        if len >= self.len as usize {
            return *self;
        }
        if len == 0 {
            return Sequence::EMPTY;
        }
        // Keep the top 3*len bits of the 63 used.
        let keep = !0u64 << (Self::shift(len - 1));
        Sequence {
            bits: self.bits & keep,
            len: len as u8,
        }
    }

    /// Whether `prefix` is a prefix of this sequence.
    pub const fn starts_with(&self, prefix: &Sequence) -> bool {
        prefix.len <= self.len && self.prefix(prefix.len as usize).bits == prefix.bits
    }

    /// `self` followed by `other`, or an error if the result is too long.
    pub fn concat(&self, other: &Sequence) -> Result<Sequence, CapacityError> {
        let n = self.len() + other.len();
        if n > Self::MAX_LEN {
            return Err(CapacityError);
        }
        Ok(Sequence {
            bits: self.bits | other.bits >> (BITS * self.len as u32),
            len: n as u8,
        })
    }

    /// The pieces in order.
    #[inline]
    pub fn iter(&self) -> Iter {
        Iter {
            bits: self.bits,
            left: self.len,
        }
    }

    /// The pieces as a `Vec`.
    pub fn to_vec(&self) -> Vec<Piece> {
        self.iter().collect()
    }

    /// How many of each piece.
    pub fn multiset(&self) -> PieceMultiset {
        let mut counts = [0u8; 7];
        for p in self.iter() {
            counts[p.index()] += 1;
        }
        PieceMultiset::from_counts(counts)
    }

    /// The distinct pieces.
    pub fn piece_set(&self) -> PieceSet {
        self.iter().collect()
    }
}

/// Iterator over the pieces of a [`Sequence`].
#[derive(Clone, Debug)]
pub struct Iter {
    bits: u64,
    left: u8,
}

impl Iterator for Iter {
    type Item = Piece;

    #[inline]
    fn next(&mut self) -> Option<Piece> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let p = Piece::ALL[((self.bits >> TOP) & 7) as usize];
        self.bits <<= BITS;
        Some(p)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for Iter {}

impl IntoIterator for Sequence {
    type Item = Piece;
    type IntoIter = Iter;
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl IntoIterator for &Sequence {
    type Item = Piece;
    type IntoIter = Iter;
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl TryFrom<&[Piece]> for Sequence {
    type Error = CapacityError;
    fn try_from(pieces: &[Piece]) -> Result<Self, Self::Error> {
        Sequence::from_pieces(pieces)
    }
}

impl From<Sequence> for Vec<Piece> {
    fn from(s: Sequence) -> Self {
        s.to_vec()
    }
}

impl FromStr for Sequence {
    type Err = ParsePiecesError;

    /// Parses piece letters in either case, e.g. `"TIOS"`; commas and whitespace between
    /// pieces are ignored, so sfinder's `"T,I,O,S"` works too.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut seq = Sequence::EMPTY;
        let mut count = 0;
        for item in crate::piece::letters(s) {
            let (_, piece) = item?;
            count += 1;
            // Keep counting after the limit so the error reports the real length.
            let _ = seq.push(piece);
        }
        if count > Self::MAX_LEN {
            return Err(ParsePiecesError::TooLong { len: count });
        }
        Ok(seq)
    }
}

impl TryFrom<String> for Sequence {
    type Error = ParsePiecesError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<Sequence> for String {
    fn from(s: Sequence) -> Self {
        s.to_string()
    }
}

impl fmt::Display for Sequence {
    /// The letters without separators, e.g. `TIOS`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in self.iter() {
            fmt::Display::fmt(&p, f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Sequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sequence(\"{self}\")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Sequence {
        text.parse().unwrap()
    }

    #[test]
    fn push_pop_get() {
        let mut q = Sequence::EMPTY;
        for p in Piece::ALL {
            q.push(p).unwrap();
        }
        assert_eq!(q.to_string(), "IJLOSTZ");
        assert_eq!(q.len(), 7);
        assert_eq!(q.get(6), Some(Piece::Z));
        assert_eq!(q.get(7), None);
        assert_eq!(q.pop(), Some(Piece::Z));
        assert_eq!(q, s("IJLOST"));
        assert_eq!(q.last(), Some(Piece::T));
    }

    #[test]
    fn capacity_is_enforced() {
        let mut q = s(&"Z".repeat(Sequence::MAX_LEN));
        assert_eq!(q.len(), 21);
        assert_eq!(q.get(20), Some(Piece::Z));
        assert_eq!(q.push(Piece::T), Err(CapacityError));
        assert_eq!(
            "Z".repeat(22).parse::<Sequence>(),
            Err(ParsePiecesError::TooLong { len: 22 })
        );
        assert!(q.concat(&s("T")).is_err());
    }

    #[test]
    fn order_is_lexicographic() {
        let mut v = [s("J"), s("IZ"), s("I"), s(""), s("II"), s("ZZ"), s("IJ")];
        v.sort();
        let text: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        assert_eq!(text, ["", "I", "II", "IJ", "IZ", "J", "ZZ"]);
    }

    #[test]
    fn prefix_concat_and_parse_forms() {
        let q = s("T,I,O, S");
        assert_eq!(q, s("TIOS"));
        assert_eq!(q.prefix(2), s("TI"));
        assert_eq!(q.prefix(0), Sequence::EMPTY);
        assert_eq!(q.prefix(9), q);
        assert!(q.starts_with(&s("TIO")));
        assert!(!q.starts_with(&s("TO")));
        assert_eq!(s("TI").concat(&s("OS")).unwrap(), q);
        assert_eq!(q.multiset().to_string(), "IOST");
        assert_eq!(q.piece_set().to_string(), "IOST");
        assert_eq!(
            "TX".parse::<Sequence>(),
            Err(ParsePiecesError::NotAPiece {
                column: 2,
                found: 'X'
            })
        );
        assert_eq!(format!("{q:?}"), "Sequence(\"TIOS\")");
    }
}
