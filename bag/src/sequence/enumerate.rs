//! Lazy enumeration of the sequences a bag state can deal.

use crate::bag_state::BagState;
use crate::error::CapacityError;
use crate::ratio::Ratio;
use crate::sequence::Sequence;

const ALL_BITS: u8 = 0x7f;

/// Every continuation of a fixed length from a [`BagState`], with its probability, in
/// lexicographic order. Created by [`BagState::continuations`].
///
/// A depth-first walk over fixed-size arrays: no allocation, O(1) amortised per item.
#[derive(Clone, Debug)]
pub struct Continuations {
    len: usize,
    /// Level currently being advanced.
    depth: usize,
    /// Per level: pieces drawable at that level (bit mask, refilled when empty).
    drawable: [u8; Sequence::MAX_LEN],
    /// Per level: drawable pieces not yet tried at that level.
    untried: [u8; Sequence::MAX_LEN],
    bits: u64,
    probability: Ratio,
    /// The single empty continuation of length 0 is still to be yielded.
    pending_empty: bool,
}

impl Continuations {
    pub(crate) fn new(state: BagState, len: usize) -> Result<Continuations, CapacityError> {
        if len > Sequence::MAX_LEN {
            return Err(CapacityError);
        }
        let count = state
            .continuation_count(len)
            .expect("at most 7^21 continuations fit in u64");
        let first = state.drawable().bits();
        let mut drawable = [0; Sequence::MAX_LEN];
        let mut untried = [0; Sequence::MAX_LEN];
        if len > 0 {
            drawable[0] = first;
            untried[0] = first;
        }
        Ok(Continuations {
            len,
            depth: 0,
            drawable,
            untried,
            bits: 0,
            probability: Ratio::from_reduced(1, count),
            pending_empty: len == 0,
        })
    }

    /// The probability of each continuation (they are all equally likely).
    pub fn probability(&self) -> Ratio {
        self.probability
    }

    /// The length of the continuations.
    pub fn sequence_len(&self) -> usize {
        self.len
    }
}

impl Iterator for Continuations {
    type Item = (Sequence, Ratio);

    fn next(&mut self) -> Option<(Sequence, Ratio)> {
        if self.len == 0 {
            let yield_it = std::mem::take(&mut self.pending_empty);
            return yield_it.then_some((Sequence::EMPTY, self.probability));
        }
        loop {
            let d = self.depth;
            let untried = self.untried[d];
            if untried == 0 {
                if d == 0 {
                    return None;
                }
                self.depth -= 1;
                continue;
            }
            let index = untried.trailing_zeros();
            self.untried[d] = untried & (untried - 1);
            let shift = 60 - 3 * d as u32;
            // Deeper positions hold stale pieces, but they are rewritten before the next
            // yield, which happens only at the last level.
            self.bits = (self.bits & !(7 << shift)) | (index as u64) << shift;
            if d + 1 == self.len {
                return Some((Sequence::from_raw(self.bits, self.len), self.probability));
            }
            let left = self.drawable[d] & !(1 << index);
            let next = if left == 0 { ALL_BITS } else { left };
            self.drawable[d + 1] = next;
            self.untried[d + 1] = next;
            self.depth = d + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{BagState, Piece, PieceSet, Ratio, Sequence};

    #[test]
    fn fresh_bag_of_two() {
        let all: Vec<Sequence> = BagState::FRESH
            .continuations(2)
            .unwrap()
            .map(|(s, p)| {
                assert_eq!(p, Ratio::new(1, 42).unwrap());
                s
            })
            .collect();
        assert_eq!(all.len(), 42);
        assert!(all.windows(2).all(|w| w[0] < w[1]), "strictly increasing");
        assert_eq!(all[0].to_string(), "IJ");
        assert!(all.iter().all(|s| s.get(0) != s.get(1)));
    }

    #[test]
    fn crosses_the_bag_boundary() {
        let b = BagState::from_remaining(PieceSet::single(Piece::T));
        let all: Vec<String> = b
            .continuations(2)
            .unwrap()
            .map(|(s, _)| s.to_string())
            .collect();
        assert_eq!(all, ["TI", "TJ", "TL", "TO", "TS", "TT", "TZ"]);
    }

    #[test]
    fn zero_length_and_capacity() {
        let v: Vec<_> = BagState::FRESH.continuations(0).unwrap().collect();
        assert_eq!(v, [(Sequence::EMPTY, Ratio::ONE)]);
        assert!(BagState::FRESH.continuations(22).is_err());
        assert_eq!(
            BagState::FRESH
                .continuations(21)
                .unwrap()
                .next()
                .unwrap()
                .0
                .len(),
            21
        );
    }
}
