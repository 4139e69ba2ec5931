//! The 7-bag state and the probabilities of what comes next.

use std::borrow::Borrow;

use crate::Piece;
use crate::error::{BagError, CapacityError};
use crate::ratio::Ratio;
use crate::sequence::Sequence;
use crate::sequence::enumerate::Continuations;
use crate::set::PieceSet;

/// The pieces still to come from the current bag.
///
/// Pieces are dealt in bags: each bag is a uniformly random permutation of the seven
/// pieces. Drawing from a state with pieces `S` left gives each piece of `S` with
/// probability `1/|S|`; when nothing is left the next draw opens a fresh bag of seven.
///
/// The state is stored normalised: a bag with all seven pieces left is the same state as
/// a finished bag (both deal the next piece from a full bag), so it is stored as the empty
/// set and compares equal to [`BagState::FRESH`]. [`BagState::remaining`] is the stored
/// set, [`BagState::drawable`] the pieces the next draw can give.
///
/// ```
/// use pc_bag::{BagState, Piece, Ratio};
///
/// let bag = BagState::FRESH.draw(Piece::T)?.draw(Piece::I)?;
/// assert_eq!(bag.remaining().to_string(), "JLOSZ");
/// assert_eq!(bag.next_probability(Piece::O), Ratio::new(1, 5).unwrap());
/// assert_eq!(bag.next_probability(Piece::T), Ratio::ZERO);
/// assert_eq!(bag.probability(&"SZJLO".parse()?), Ratio::new(1, 120).unwrap());
/// assert!(bag.draw(Piece::T).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(from = "PieceSet", into = "PieceSet"))]
pub struct BagState {
    // Invariant: never `PieceSet::ALL` (normalised to empty).
    remaining: PieceSet,
}

impl From<PieceSet> for BagState {
    fn from(set: PieceSet) -> Self {
        BagState::from_remaining(set)
    }
}

impl From<BagState> for PieceSet {
    fn from(state: BagState) -> Self {
        state.remaining
    }
}

/// The pieces drawable from `remaining`: a finished bag refills to all seven.
#[inline]
const fn refill(remaining: PieceSet) -> PieceSet {
    if remaining.is_empty() {
        PieceSet::ALL
    } else {
        remaining
    }
}

impl BagState {
    /// At a bag boundary: the next draw opens a fresh bag of seven.
    pub const FRESH: BagState = BagState {
        remaining: PieceSet::EMPTY,
    };

    /// The start of a game (same as [`BagState::FRESH`]).
    pub const fn new() -> BagState {
        BagState::FRESH
    }

    /// The state with `remaining` pieces left in the current bag. Both the empty set and
    /// the full set mean "the next draw is from a full bag" and give [`BagState::FRESH`].
    pub const fn from_remaining(remaining: PieceSet) -> BagState {
        if remaining.len() == Piece::COUNT {
            BagState::FRESH
        } else {
            BagState { remaining }
        }
    }

    /// The state after the pieces seen since the game began (the first piece opened the
    /// first bag). Every run of 7 pieces aligned to the start must be a permutation.
    ///
    /// ```
    /// use pc_bag::{BagState, BagError, Piece};
    ///
    /// let seen: Vec<Piece> = "IJLOSTZTS".chars().map(|c| Piece::try_from(c).unwrap()).collect();
    /// assert_eq!(BagState::from_history(&seen)?.remaining().to_string(), "IJLOZ");
    ///
    /// let bad: Vec<Piece> = "TIT".chars().map(|c| Piece::try_from(c).unwrap()).collect();
    /// assert_eq!(
    ///     BagState::from_history(&bad),
    ///     Err(BagError::RepeatedInBag { piece: Piece::T, position: 2, first: 0 })
    /// );
    /// # Ok::<(), BagError>(())
    /// ```
    pub fn from_history<I>(seen: I) -> Result<BagState, BagError>
    where
        I: IntoIterator,
        I::Item: Borrow<Piece>,
    {
        let mut state = BagState::FRESH;
        let mut first_in_bag = [0usize; 7];
        for (position, p) in seen.into_iter().enumerate() {
            let p = *p.borrow();
            let drawable = refill(state.remaining);
            if !drawable.contains(p) {
                return Err(BagError::RepeatedInBag {
                    piece: p,
                    position,
                    first: first_in_bag[p.index()],
                });
            }
            first_in_bag[p.index()] = position;
            state.remaining = drawable.without(p);
        }
        Ok(state)
    }

    /// The state after a queue, given how many pieces of the current bag are still to
    /// come after the queue's last piece (`left_in_bag`, 0 to 7; 0 and 7 both mean the
    /// queue ends exactly at a bag boundary).
    ///
    /// The bags are aligned from the end of the queue: its last `7 - left_in_bag` pieces
    /// belong to the current bag, the 7 before them to the previous bag, and so on. Each
    /// bag's part of the queue must hold distinct pieces. When `left_in_bag` is between 1
    /// and 6 the queue must reach back to the start of the current bag, since the pieces
    /// drawn before the queue are unknown.
    ///
    /// ```
    /// use pc_bag::{BagState, BagError, Piece};
    ///
    /// let queue: Vec<Piece> = "SZTIO".chars().map(|c| Piece::try_from(c).unwrap()).collect();
    /// // The last 4 pieces (ZTIO) come from the current bag, 3 are left.
    /// assert_eq!(BagState::from_queue(&queue, 3)?.remaining().to_string(), "JLS");
    /// assert_eq!(
    ///     BagState::from_queue(&queue, 0)?,
    ///     BagState::FRESH
    /// );
    /// assert_eq!(
    ///     BagState::from_queue(&queue[2..], 3),
    ///     Err(BagError::QueueTooShort { len: 3, drawn: 4 })
    /// );
    /// # Ok::<(), BagError>(())
    /// ```
    pub fn from_queue(queue: &[Piece], left_in_bag: usize) -> Result<BagState, BagError> {
        if left_in_bag > Piece::COUNT {
            return Err(BagError::InvalidLeft { left: left_in_bag });
        }
        let drawn = (Piece::COUNT - left_in_bag) % Piece::COUNT;
        if queue.len() < drawn {
            return Err(BagError::QueueTooShort {
                len: queue.len(),
                drawn,
            });
        }
        // Index where the current bag's part starts; earlier bags end there.
        let current_start = queue.len() - drawn;
        // Offset of the first piece of the queue within its bag.
        let lead = current_start % Piece::COUNT;
        let mut seen = PieceSet::EMPTY;
        let mut first_in_bag = [0usize; 7];
        for (position, &p) in queue.iter().enumerate() {
            // A new bag starts at every position congruent to `lead` mod 7.
            if position % Piece::COUNT == lead {
                seen = PieceSet::EMPTY;
            }
            if !seen.insert(p) {
                return Err(BagError::RepeatedInBag {
                    piece: p,
                    position,
                    first: first_in_bag[p.index()],
                });
            }
            first_in_bag[p.index()] = position;
        }
        if drawn == 0 {
            return Ok(BagState::FRESH);
        }
        let current: PieceSet = queue[current_start..].iter().copied().collect();
        Ok(BagState::from_remaining(!current))
    }

    /// The pieces left in the current bag; empty at a bag boundary.
    #[inline]
    pub const fn remaining(&self) -> PieceSet {
        self.remaining
    }

    /// The pieces the next draw can give (all seven at a bag boundary).
    #[inline]
    pub const fn drawable(&self) -> PieceSet {
        refill(self.remaining)
    }

    /// Whether the next draw opens a fresh bag.
    #[inline]
    pub const fn is_fresh(&self) -> bool {
        self.remaining.is_empty()
    }

    /// The state after drawing `piece`, or [`BagError::NotInBag`] (position 0) if the bag
    /// cannot deal it.
    #[inline]
    pub fn draw(self, piece: Piece) -> Result<BagState, BagError> {
        let drawable = self.drawable();
        if drawable.contains(piece) {
            Ok(BagState {
                remaining: drawable.without(piece),
            })
        } else {
            Err(BagError::NotInBag {
                piece,
                position: 0,
                left: drawable,
            })
        }
    }

    /// The state after drawing `pieces` in order; the error names the first piece the bag
    /// cannot deal and its position.
    pub fn draw_all<I>(self, pieces: I) -> Result<BagState, BagError>
    where
        I: IntoIterator,
        I::Item: Borrow<Piece>,
    {
        let mut state = self;
        for (position, p) in pieces.into_iter().enumerate() {
            state = state.draw(*p.borrow()).map_err(|e| match e {
                BagError::NotInBag { piece, left, .. } => BagError::NotInBag {
                    piece,
                    position,
                    left,
                },
                other => other,
            })?;
        }
        Ok(state)
    }

    /// The probability that the next piece is `piece`.
    #[inline]
    pub const fn next_probability(&self, piece: Piece) -> Ratio {
        let drawable = self.drawable();
        if drawable.contains(piece) {
            Ratio::from_reduced(1, drawable.len() as u64)
        } else {
            Ratio::ZERO
        }
    }

    /// The probability that the next pieces are exactly `sequence`: the product of
    /// `1/|drawable|` over its draws, or zero if some draw is impossible.
    ///
    /// Never overflows: a sequence holds at most 21 pieces and `7^21 < 2^64`.
    #[inline]
    pub fn probability(&self, sequence: &Sequence) -> Ratio {
        let mut left = self.remaining;
        let mut denom: u64 = 1;
        let mut bits = sequence.raw_bits();
        for _ in 0..sequence.len() {
            let drawable = refill(left);
            let piece = Piece::ALL[(bits >> 60) as usize & 7];
            bits <<= 3;
            if !drawable.contains(piece) {
                return Ratio::ZERO;
            }
            denom *= drawable.len() as u64;
            left = drawable.without(piece);
        }
        // The numerator is 1, so the fraction is already in lowest terms.
        Ratio::from_reduced(1, denom)
    }

    /// The probability of `pieces` of any length, or `None` if the denominator exceeds
    /// `u64` (possible from 23 draws on).
    pub fn checked_probability<I>(&self, pieces: I) -> Option<Ratio>
    where
        I: IntoIterator,
        I::Item: Borrow<Piece>,
    {
        let mut left = self.remaining;
        let mut denom: u64 = 1;
        for p in pieces {
            let drawable = refill(left);
            let p = *p.borrow();
            if !drawable.contains(p) {
                return Some(Ratio::ZERO);
            }
            denom = denom.checked_mul(drawable.len() as u64)?;
            left = drawable.without(p);
        }
        Some(Ratio::from_reduced(1, denom))
    }

    /// Whether the bag can deal `pieces` next (probability above zero).
    pub fn can_produce<I>(&self, pieces: I) -> bool
    where
        I: IntoIterator,
        I::Item: Borrow<Piece>,
    {
        self.draw_all(pieces).is_ok()
    }

    /// Every sequence of `len` pieces the bag can deal next, each with its probability,
    /// lazily, in lexicographic order (`I < J < … < Z` at each position).
    ///
    /// All continuations of one length have the same probability
    /// (`1 / continuation_count(len)`), because the bag sizes met along the way do not
    /// depend on which pieces are drawn.
    ///
    /// ```
    /// use pc_bag::{BagState, Piece, Ratio};
    ///
    /// let bag = BagState::from_remaining("TS".parse()?);
    /// let all: Vec<String> = bag
    ///     .continuations(3)?
    ///     .map(|(s, p)| format!("{s} {p}"))
    ///     .collect();
    /// assert_eq!(all.len(), 14);
    /// assert_eq!(all[0], "STI 1/14");
    /// assert_eq!(all[13], "TSZ 1/14");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn continuations(&self, len: usize) -> Result<Continuations, CapacityError> {
        Continuations::new(*self, len)
    }

    /// How many sequences of `len` pieces the bag can deal next, without enumerating
    /// them, or `None` if the count exceeds `u64` (from about 35 pieces on).
    pub fn continuation_count(&self, len: usize) -> Option<u64> {
        let mut size = self.drawable().len() as u64;
        let mut count: u64 = 1;
        for _ in 0..len {
            count = count.checked_mul(size)?;
            size = if size == 1 { 7 } else { size - 1 };
        }
        Some(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(s: &str) -> Vec<Piece> {
        s.chars().map(|c| Piece::try_from(c).unwrap()).collect()
    }

    #[test]
    fn fresh_and_full_are_the_same_state() {
        assert_eq!(BagState::from_remaining(PieceSet::ALL), BagState::FRESH);
        assert_eq!(BagState::FRESH.drawable(), PieceSet::ALL);
        assert!(BagState::FRESH.is_fresh());
    }

    #[test]
    fn drawing_through_a_bag_boundary() {
        let mut b = BagState::FRESH;
        for p in pieces("ZTSOLJ") {
            b = b.draw(p).unwrap();
        }
        assert_eq!(b.remaining().to_string(), "I");
        assert_eq!(b.next_probability(Piece::I), Ratio::ONE);
        b = b.draw(Piece::I).unwrap();
        assert!(b.is_fresh());
        assert_eq!(b.next_probability(Piece::I), Ratio::new(1, 7).unwrap());
    }

    #[test]
    fn draw_all_reports_position() {
        let err = BagState::FRESH.draw_all(pieces("TIOT")).unwrap_err();
        assert_eq!(
            err,
            BagError::NotInBag {
                piece: Piece::T,
                position: 3,
                left: "JLSZ".parse().unwrap()
            }
        );
        assert!(err.to_string().contains("position 3"));
    }

    #[test]
    fn history_aligns_from_the_start() {
        let b = BagState::from_history(pieces("IJLOSTZ")).unwrap();
        assert!(b.is_fresh());
        let b = BagState::from_history(pieces("IJLOSTZIJ")).unwrap();
        assert_eq!(b.remaining().to_string(), "LOSTZ");
        assert_eq!(
            BagState::from_history(pieces("IJLOSTZIJI")),
            Err(BagError::RepeatedInBag {
                piece: Piece::I,
                position: 9,
                first: 7
            })
        );
    }

    #[test]
    fn queue_aligns_from_the_end() {
        // ...T | IJLOSZ T | S Z with 5 left: current bag has S,Z drawn.
        let q = pieces("TIJLOSZTSZ");
        assert_eq!(
            BagState::from_queue(&q, 5).unwrap().remaining().to_string(),
            "IJLOT"
        );
        // Bags TIJLOSZ | TSZ.
        assert_eq!(
            BagState::from_queue(&q, 4).unwrap().remaining().to_string(),
            "IJLO"
        );
        // Bags TI | JLOSZTS | Z: S twice.
        assert_eq!(
            BagState::from_queue(&q, 6),
            Err(BagError::RepeatedInBag {
                piece: Piece::S,
                position: 8,
                first: 5
            })
        );
        assert_eq!(
            BagState::from_queue(&q, 8),
            Err(BagError::InvalidLeft { left: 8 })
        );
        assert_eq!(BagState::from_queue(&[], 0), Ok(BagState::FRESH));
        assert_eq!(BagState::from_queue(&[], 7), Ok(BagState::FRESH));
    }

    #[test]
    fn probabilities() {
        let b = BagState::from_remaining("TS".parse().unwrap());
        let s: Sequence = "STI".parse().unwrap();
        assert_eq!(b.probability(&s), Ratio::new(1, 14).unwrap());
        assert_eq!(
            b.checked_probability(s.iter()),
            Some(Ratio::new(1, 14).unwrap())
        );
        assert_eq!(b.probability(&"SI".parse().unwrap()), Ratio::ZERO);
        assert_eq!(b.probability(&Sequence::EMPTY), Ratio::ONE);
        let long = vec![Piece::I; 30];
        assert_eq!(
            BagState::FRESH.checked_probability(&long),
            Some(Ratio::ZERO)
        );
        let ok_long: Vec<Piece> = Piece::ALL.iter().copied().cycle().take(70).collect();
        assert_eq!(BagState::FRESH.checked_probability(&ok_long), None);
        assert_eq!(b.continuation_count(3), Some(14));
        assert_eq!(BagState::FRESH.continuation_count(7), Some(5040));
        assert_eq!(BagState::FRESH.continuation_count(200), None);
    }
}
