//! Exact non-negative fractions for probabilities.

use std::cmp::Ordering;
use std::fmt;
use std::iter::{Product, Sum};
use std::ops::{Add, Div, Mul, Sub};
use std::str::FromStr;

/// An exact non-negative fraction `numer / denom` in lowest terms, over `u64`.
///
/// 7-bag probabilities are products of `1/k` with `k <= 7`, so their denominators divide
/// `7!^n` and stay far inside `u64` for any sequence this crate handles (a
/// [`Sequence`](crate::Sequence) of 21 pieces has probability at least `1/7^21`).
///
/// Arithmetic works in `u128` and reduces before narrowing back to `u64`.
/// The `checked_*` methods return `None` when the reduced result does not fit in `u64`,
/// when a subtraction would go below zero, or on division by zero. The operators
/// (`+ - * /`) behave like the integer operators: they **panic** in those cases. Use the
/// checked methods on values that come from outside your program.
///
/// ```
/// use pc_bag::Ratio;
///
/// let a = Ratio::new(1, 7).unwrap();
/// let b = Ratio::new(2, 6).unwrap();
/// assert_eq!(b.to_string(), "1/3");
/// assert_eq!((a + b).to_string(), "10/21");
/// assert!(a < b);
/// assert_eq!(a.checked_sub(b), None);
/// assert_eq!((a * Ratio::new(7, 1).unwrap()), Ratio::ONE);
/// assert!((b.to_f64() - 1.0 / 3.0).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "RawRatio", into = "RawRatio"))]
pub struct Ratio {
    numer: u64,
    denom: u64,
}

/// Serde form of a ratio: validated (non-zero denominator) and reduced on the way in.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct RawRatio {
    numer: u64,
    denom: u64,
}

#[cfg(feature = "serde")]
impl From<Ratio> for RawRatio {
    fn from(r: Ratio) -> Self {
        RawRatio {
            numer: r.numer,
            denom: r.denom,
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<RawRatio> for Ratio {
    type Error = &'static str;

    fn try_from(r: RawRatio) -> Result<Self, Self::Error> {
        Ratio::new(r.numer, r.denom).ok_or("a ratio's denominator must not be zero")
    }
}

#[inline]
const fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

#[inline]
const fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Ratio {
    /// Zero (`0/1`).
    pub const ZERO: Ratio = Ratio { numer: 0, denom: 1 };
    /// One (`1/1`).
    pub const ONE: Ratio = Ratio { numer: 1, denom: 1 };

    /// `numer / denom` in lowest terms, or `None` when `denom` is zero.
    pub const fn new(numer: u64, denom: u64) -> Option<Ratio> {
        if denom == 0 {
            return None;
        }
        let g = gcd_u64(numer, denom);
        Some(Ratio {
            numer: numer / g,
            denom: denom / g,
        })
    }

    /// `1 / denom`, or `None` when `denom` is zero.
    pub const fn recip_of(denom: u64) -> Option<Ratio> {
        if denom == 0 {
            None
        } else {
            Some(Ratio { numer: 1, denom })
        }
    }

    /// Builds a ratio already known to be in lowest terms with a non-zero denominator.
    #[inline]
    pub(crate) const fn from_reduced(numer: u64, denom: u64) -> Ratio {
        Ratio { numer, denom }
    }

    /// Reduces a `u128` fraction and narrows it to `u64`, or `None` if it does not fit.
    fn from_u128(numer: u128, denom: u128) -> Option<Ratio> {
        if denom == 0 {
            return None;
        }
        let g = gcd_u128(numer, denom);
        Some(Ratio {
            numer: u64::try_from(numer / g).ok()?,
            denom: u64::try_from(denom / g).ok()?,
        })
    }

    /// The numerator (lowest terms).
    #[inline]
    pub const fn numer(self) -> u64 {
        self.numer
    }

    /// The denominator (lowest terms, never zero).
    #[inline]
    pub const fn denom(self) -> u64 {
        self.denom
    }

    /// Whether the value is zero.
    #[inline]
    pub const fn is_zero(self) -> bool {
        self.numer == 0
    }

    /// Whether the value is one.
    #[inline]
    pub const fn is_one(self) -> bool {
        self.numer == 1 && self.denom == 1
    }

    /// The nearest `f64`. Exactly the correctly rounded quotient whenever numerator and
    /// denominator are below 2^53 (true for every probability of up to 18 draws, as
    /// `7^18 < 2^53`); otherwise within a few units in the last place.
    pub fn to_f64(self) -> f64 {
        const EXACT: u64 = 1 << 53;
        if self.numer <= EXACT && self.denom <= EXACT {
            // Both operands are exact, so IEEE division rounds once, correctly.
            return self.numer as f64 / self.denom as f64;
        }
        let int = self.numer / self.denom;
        let rem = self.numer % self.denom;
        int as f64 + rem as f64 / self.denom as f64
    }

    /// `self + rhs`, or `None` if the reduced result does not fit in `u64`.
    pub fn checked_add(self, rhs: Ratio) -> Option<Ratio> {
        let g = gcd_u64(self.denom, rhs.denom) as u128;
        let (a, b, c, d) = (
            self.numer as u128,
            self.denom as u128,
            rhs.numer as u128,
            rhs.denom as u128,
        );
        // Products of u64 values and quotients by the gcd stay below 2^128.
        let numer = a * (d / g) + c * (b / g);
        Ratio::from_u128(numer, b / g * d)
    }

    /// `self - rhs`, or `None` if the result would be negative or does not fit.
    pub fn checked_sub(self, rhs: Ratio) -> Option<Ratio> {
        let g = gcd_u64(self.denom, rhs.denom) as u128;
        let (a, b, c, d) = (
            self.numer as u128,
            self.denom as u128,
            rhs.numer as u128,
            rhs.denom as u128,
        );
        let numer = (a * (d / g)).checked_sub(c * (b / g))?;
        Ratio::from_u128(numer, b / g * d)
    }

    /// `self * rhs`, or `None` if the reduced result does not fit in `u64`.
    pub fn checked_mul(self, rhs: Ratio) -> Option<Ratio> {
        Ratio::from_u128(
            self.numer as u128 * rhs.numer as u128,
            self.denom as u128 * rhs.denom as u128,
        )
    }

    /// `self / rhs`, or `None` if `rhs` is zero or the result does not fit in `u64`.
    pub fn checked_div(self, rhs: Ratio) -> Option<Ratio> {
        Ratio::from_u128(
            self.numer as u128 * rhs.denom as u128,
            self.denom as u128 * rhs.numer as u128,
        )
    }

    /// `1 / self`, or `None` if `self` is zero.
    pub fn checked_recip(self) -> Option<Ratio> {
        if self.numer == 0 {
            None
        } else {
            Some(Ratio {
                numer: self.denom,
                denom: self.numer,
            })
        }
    }

    /// The sum of `values`, or `None` if an intermediate sum does not fit in `u64`.
    pub fn checked_sum<I: IntoIterator<Item = Ratio>>(values: I) -> Option<Ratio> {
        values
            .into_iter()
            .try_fold(Ratio::ZERO, |acc, r| acc.checked_add(r))
    }
}

impl Default for Ratio {
    fn default() -> Self {
        Ratio::ZERO
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Self) -> Ordering {
        // Cross multiplication is exact in u128.
        (self.numer as u128 * other.denom as u128).cmp(&(other.numer as u128 * self.denom as u128))
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Ratio {
    type Output = Ratio;
    /// # Panics
    /// If the reduced sum does not fit in `u64`; see [`Ratio::checked_add`].
    fn add(self, rhs: Ratio) -> Ratio {
        self.checked_add(rhs)
            .expect("Ratio addition overflowed u64")
    }
}

impl Sub for Ratio {
    type Output = Ratio;
    /// # Panics
    /// If the result is negative or does not fit; see [`Ratio::checked_sub`].
    fn sub(self, rhs: Ratio) -> Ratio {
        self.checked_sub(rhs)
            .expect("Ratio subtraction went below zero or overflowed u64")
    }
}

impl Mul for Ratio {
    type Output = Ratio;
    /// # Panics
    /// If the reduced product does not fit in `u64`; see [`Ratio::checked_mul`].
    fn mul(self, rhs: Ratio) -> Ratio {
        self.checked_mul(rhs)
            .expect("Ratio multiplication overflowed u64")
    }
}

impl Div for Ratio {
    type Output = Ratio;
    /// # Panics
    /// On division by zero or overflow; see [`Ratio::checked_div`].
    fn div(self, rhs: Ratio) -> Ratio {
        self.checked_div(rhs)
            .expect("Ratio division by zero or overflow of u64")
    }
}

impl Sum for Ratio {
    /// # Panics
    /// If a partial sum overflows; see [`Ratio::checked_sum`].
    fn sum<I: Iterator<Item = Ratio>>(iter: I) -> Ratio {
        iter.fold(Ratio::ZERO, |a, b| a + b)
    }
}

impl Product for Ratio {
    /// # Panics
    /// If a partial product overflows; see [`Ratio::checked_mul`].
    fn product<I: Iterator<Item = Ratio>>(iter: I) -> Ratio {
        iter.fold(Ratio::ONE, |a, b| a * b)
    }
}

impl fmt::Display for Ratio {
    /// `numer/denom`, always with the slash: `0/1`, `1/1`, `2/7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.numer, self.denom)
    }
}

/// Error parsing a [`Ratio`] from `"n/d"` or `"n"`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a fraction: expected n/d with a non-zero d, both fitting in u64")]
pub struct ParseRatioError {
    text: String,
}

impl FromStr for Ratio {
    type Err = ParseRatioError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseRatioError { text: s.to_owned() };
        let (n, d) = match s.split_once('/') {
            Some((n, d)) => (n.trim(), d.trim()),
            None => (s.trim(), "1"),
        };
        let numer: u64 = n.parse().map_err(|_| err())?;
        let denom: u64 = d.parse().map_err(|_| err())?;
        Ratio::new(numer, denom).ok_or_else(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Ratio {
        s.parse().unwrap()
    }

    #[test]
    fn reduces_and_prints() {
        assert_eq!(r("6/8").to_string(), "3/4");
        assert_eq!(r("0/5"), Ratio::ZERO);
        assert_eq!(r("4"), r("8/2"));
        assert_eq!(Ratio::new(1, 0), None);
        assert!("1/0".parse::<Ratio>().is_err());
        assert!("x/2".parse::<Ratio>().is_err());
    }

    #[test]
    fn arithmetic() {
        assert_eq!(r("1/6") + r("1/3"), r("1/2"));
        assert_eq!(r("1/2") - r("1/3"), r("1/6"));
        assert_eq!(r("2/3") * r("3/4"), r("1/2"));
        assert_eq!(r("1/2") / r("1/4"), r("2"));
        assert_eq!(r("1/2").checked_div(Ratio::ZERO), None);
        assert_eq!(r("1/3").checked_sub(r("1/2")), None);
        assert_eq!(Ratio::ZERO.checked_recip(), None);
        let sum: Ratio = (0..7).map(|_| r("1/7")).sum();
        assert_eq!(sum, Ratio::ONE);
    }

    #[test]
    fn overflow_is_reported_not_wrapped() {
        let big = Ratio::new(u64::MAX, 1).unwrap();
        assert_eq!(big.checked_add(Ratio::ONE), None);
        assert_eq!(big.checked_mul(r("2")), None);
        // Large intermediates that reduce back into range are fine.
        let a = Ratio::new(1, u64::MAX).unwrap();
        assert_eq!(a.checked_add(a), Ratio::new(2, u64::MAX));
        assert_eq!(big.checked_mul(a), Some(Ratio::ONE));
    }

    #[test]
    fn ordering_by_cross_multiplication() {
        let mut v = [r("1/2"), r("1/3"), r("2/3"), Ratio::ZERO, Ratio::ONE];
        v.sort();
        assert_eq!(
            v.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
            ["0/1", "1/3", "1/2", "2/3", "1/1"]
        );
        let tiny = Ratio::new(1, u64::MAX).unwrap();
        let tinier = Ratio::new(1, u64::MAX - 1).unwrap();
        assert!(tiny < tinier);
    }

    #[test]
    fn to_f64_is_close() {
        assert_eq!(r("1/4").to_f64(), 0.25);
        assert_eq!(r("514/840").to_f64(), 514.0 / 840.0);
        let huge = Ratio::new(u64::MAX, 3).unwrap();
        assert!((huge.to_f64() - u64::MAX as f64 / 3.0).abs() / huge.to_f64() < 1e-15);
    }
}
