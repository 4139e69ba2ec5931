//! [`PieceCounts`]: how many of each piece, for piece budgets and piece multisets.

use crate::error::FillGraphError;
use core::fmt;
use core::ops::Index;
use core::str::FromStr;
use pc_srs::Piece;

/// A count per piece, indexed by [`Piece::index`] (`I J L O S T Z`).
///
/// Used both as a **piece budget** (at most this many of each piece in a fill, e.g. the
/// pieces of a known queue plus hold) and as the **piece multiset** of a fill.
///
/// ```
/// use pc_srs::Piece;
/// use pc_zdd_graph::PieceCounts;
///
/// let budget: PieceCounts = "TIOLJSZT".parse()?;
/// assert_eq!(budget.get(Piece::T), 2);
/// assert_eq!(budget.total(), 8);
/// assert_eq!(budget.to_string(), "IJLOSTTZ");
/// # Ok::<(), pc_zdd_graph::FillGraphError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PieceCounts([u8; 7]);

impl PieceCounts {
    /// No piece at all.
    pub const ZERO: PieceCounts = PieceCounts([0; 7]);
    /// As many of every piece as a count can hold (255): no limit for any field.
    pub const UNLIMITED: PieceCounts = PieceCounts([u8::MAX; 7]);

    /// Counts from an array indexed by [`Piece::index`].
    #[inline]
    pub const fn new(counts: [u8; 7]) -> Self {
        PieceCounts(counts)
    }

    /// Counts of the pieces of a sequence (saturating at 255 per piece).
    pub fn from_pieces<I: IntoIterator<Item = Piece>>(pieces: I) -> Self {
        let mut c = PieceCounts::ZERO;
        for p in pieces {
            c.add(p);
        }
        c
    }

    /// The count of `piece`.
    #[inline]
    pub const fn get(self, piece: Piece) -> u8 {
        self.0[piece.index()]
    }

    /// Sets the count of `piece`.
    #[inline]
    pub fn set(&mut self, piece: Piece, count: u8) {
        self.0[piece.index()] = count;
    }

    /// Adds one `piece` (saturating at 255).
    #[inline]
    pub fn add(&mut self, piece: Piece) {
        let c = &mut self.0[piece.index()];
        *c = c.saturating_add(1);
    }

    /// The counts as an array indexed by [`Piece::index`].
    #[inline]
    pub const fn to_array(self) -> [u8; 7] {
        self.0
    }

    /// Total number of pieces.
    pub fn total(self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }

    /// Whether every count is at most the one in `budget`.
    pub fn fits_in(self, budget: PieceCounts) -> bool {
        self.0.iter().zip(budget.0.iter()).all(|(a, b)| a <= b)
    }

    /// The counts packed one byte per piece (byte `i` = piece of index `i`), each
    /// clamped to 255.
    #[inline]
    pub(crate) fn pack(self) -> u64 {
        let mut b = [0u8; 8];
        b[..7].copy_from_slice(&self.0);
        u64::from_le_bytes(b)
    }

    /// The inverse of [`PieceCounts::pack`].
    #[inline]
    pub(crate) fn unpack(packed: u64) -> Self {
        let b = packed.to_le_bytes();
        let mut c = [0u8; 7];
        c.copy_from_slice(&b[..7]);
        PieceCounts(c)
    }
}

impl From<[u8; 7]> for PieceCounts {
    fn from(counts: [u8; 7]) -> Self {
        PieceCounts(counts)
    }
}

impl Index<Piece> for PieceCounts {
    type Output = u8;
    fn index(&self, piece: Piece) -> &u8 {
        &self.0[piece.index()]
    }
}

impl fmt::Display for PieceCounts {
    /// The pieces as letters in index order, each repeated by its count: `IJLOSTTZ`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in Piece::ALL {
            for _ in 0..self.get(p) {
                write!(f, "{}", p.to_char())?;
            }
        }
        Ok(())
    }
}

impl FromStr for PieceCounts {
    type Err = FillGraphError;

    /// Reads a list of piece letters in any order and case (`"TIOLJSZ"`); spaces and
    /// commas are ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut c = PieceCounts::ZERO;
        for (position, ch) in s.chars().enumerate() {
            if ch.is_whitespace() || ch == ',' {
                continue;
            }
            let p = Piece::from_char(ch).ok_or(FillGraphError::UnknownPiece {
                found: ch,
                position,
            })?;
            c.add(p);
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_pack_and_display() {
        let c: PieceCounts = "t, i o".parse().unwrap();
        assert_eq!(c.to_string(), "IOT");
        assert_eq!(PieceCounts::unpack(c.pack()), c);
        assert!(c.fits_in(PieceCounts::UNLIMITED));
        assert!(!c.fits_in(PieceCounts::ZERO));
        let e = "TIX".parse::<PieceCounts>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "'X' at position 2 is not a piece (expected one of I, J, L, O, S, T, Z)"
        );
    }
}
