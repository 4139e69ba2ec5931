//! The small word trait that every board is generic over.

use core::fmt::{Binary, Debug};
use core::hash::Hash;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// An unsigned machine word holding one column of a board (bit `y` = row `y`).
///
/// Implemented for [`u32`] (boards up to 32 rows: every perfect-clear field and a
/// standard 10×20 game with its spawn rows) and [`u64`] (up to 64 rows). All board
/// code is written once against this trait.
pub trait Word:
    Copy
    + Eq
    + Ord
    + Hash
    + Default
    + Debug
    + Binary
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// Number of bits, which is the number of rows a board of this word can hold.
    const BITS: u32;
    /// No bit set.
    const ZERO: Self;
    /// Every bit set.
    const ONES: Self;

    /// The word with only bit `i` set; `ZERO` when `i >= BITS`.
    fn bit(i: u32) -> Self;
    /// The word with bits `0..n` set (`ONES` when `n >= BITS`).
    fn low_mask(n: u32) -> Self;
    /// Number of set bits.
    fn count_ones(self) -> u32;
    /// Index of the lowest set bit (`BITS` when zero).
    fn trailing_zeros(self) -> u32;
    /// Number of leading zero bits (`BITS` when zero).
    fn leading_zeros(self) -> u32;
    /// Shift left that yields `ZERO` instead of overflowing when `n >= BITS`.
    fn shl_or_zero(self, n: u32) -> Self;
    /// Shift right that yields `ZERO` instead of overflowing when `n >= BITS`.
    fn shr_or_zero(self, n: u32) -> Self;
    /// Widen to `u64` (lossless for both implementations).
    fn to_u64(self) -> u64;
    /// Truncate a `u64` to this word.
    fn from_u64_truncate(v: u64) -> Self;

    /// Whether bit `i` is set (`false` when `i >= BITS`).
    #[inline]
    fn test(self, i: u32) -> bool {
        self & Self::bit(i) != Self::ZERO
    }
}

macro_rules! impl_word {
    ($t:ty) => {
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONES: Self = <$t>::MAX;

            #[inline]
            fn bit(i: u32) -> Self {
                (1 as $t).checked_shl(i).unwrap_or(0)
            }
            #[inline]
            fn low_mask(n: u32) -> Self {
                if n >= <$t>::BITS {
                    <$t>::MAX
                } else {
                    ((1 as $t) << n) - 1
                }
            }
            #[inline]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline]
            fn shl_or_zero(self, n: u32) -> Self {
                self.checked_shl(n).unwrap_or(0)
            }
            #[inline]
            fn shr_or_zero(self, n: u32) -> Self {
                self.checked_shr(n).unwrap_or(0)
            }
            #[inline]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline]
            fn from_u64_truncate(v: u64) -> Self {
                v as $t
            }
        }
    };
}

impl_word!(u32);
impl_word!(u64);

#[cfg(test)]
mod tests {
    use super::*;

    fn masks<W: Word>() {
        assert_eq!(W::low_mask(0), W::ZERO);
        assert_eq!(W::low_mask(3).count_ones(), 3);
        assert_eq!(W::low_mask(W::BITS), W::ONES);
        assert_eq!(W::bit(W::BITS), W::ZERO);
        assert!(W::bit(5).test(5));
        assert!(!W::bit(5).test(4));
        assert_eq!(W::ONES.shl_or_zero(W::BITS), W::ZERO);
        assert_eq!(W::ONES.shr_or_zero(W::BITS - 1), W::bit(0));
    }

    #[test]
    fn masks_u32() {
        masks::<u32>();
    }

    #[test]
    fn masks_u64() {
        masks::<u64>();
    }
}
