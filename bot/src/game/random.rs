//! The seeded randomizer: a small PRNG and the 7-bag built on it.

use pc_bag::{BagState, PieceSet};
use pc_srs::Piece;

/// A small, fast, seedable pseudo-random generator: xoshiro256** (Blackman and Vigna),
/// with its state filled from the seed by splitmix64. Not for cryptography; the same
/// seed gives the same numbers on every platform, which is what replayable games need.
///
/// ```
/// use pc_bot::Rng;
///
/// let mut a = Rng::new(42);
/// let mut b = Rng::new(42);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(7) < 7);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

/// One step of splitmix64: advances `state` and returns the next output.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    /// The generator for a seed (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        let mut state = seed;
        Rng {
            s: core::array::from_fn(|_| splitmix64(&mut state)),
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform number in `0..n` without bias (Lemire's multiply-and-reject); 0 when
    /// `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }
}

/// The modern randomizer: the seven pieces are dealt in a shuffled bag, and a new bag is
/// shuffled when one runs out. Deterministic for a seed.
///
/// ```
/// use pc_bot::SevenBag;
///
/// let mut bag = SevenBag::new(7);
/// let first: Vec<_> = (0..7).map(|_| bag.next_piece()).collect();
/// let mut sorted = first.clone();
/// sorted.sort();
/// assert_eq!(sorted, pc_bot::Piece::ALL); // one of each
/// assert!(bag.bag_state().is_fresh()); // the next draw opens a new bag
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SevenBag {
    rng: Rng,
    bag: [Piece; 7],
    /// Index in `bag` of the next piece; 7 when the bag is used up.
    next: usize,
}

impl SevenBag {
    /// A randomizer for a seed; the first draw opens the first bag.
    pub fn new(seed: u64) -> SevenBag {
        SevenBag {
            rng: Rng::new(seed),
            bag: Piece::ALL,
            next: 7,
        }
    }

    /// A randomizer for a seed whose first bag is already partly dealt: the pieces of
    /// `state` come first, shuffled, then whole bags. A fresh `state` gives
    /// [`SevenBag::new`]'s pieces. For games that start from a position whose queue has
    /// used part of a bag.
    ///
    /// ```
    /// use pc_bot::{BagState, PieceSet, SevenBag};
    ///
    /// let left: PieceSet = "IJ".parse()?;
    /// let mut bag = SevenBag::from_bag_state(7, BagState::from_remaining(left));
    /// assert_eq!(bag.bag_state().remaining(), left);
    /// let first: PieceSet = (0..2).map(|_| bag.next_piece()).collect();
    /// assert_eq!(first, left);
    /// assert!(bag.bag_state().is_fresh()); // then whole bags
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_bag_state(seed: u64, state: BagState) -> SevenBag {
        let mut bag = SevenBag::new(seed);
        let left = state.remaining();
        if !left.is_empty() {
            bag.next = 7 - left.len();
            for (slot, piece) in bag.bag[bag.next..].iter_mut().zip(left.iter()) {
                *slot = piece;
            }
            bag.shuffle_rest();
        }
        bag
    }

    /// Deals the next piece, shuffling a new bag when the last one is used up.
    pub fn next_piece(&mut self) -> Piece {
        if self.next == 7 {
            self.bag = Piece::ALL;
            self.next = 0;
            self.shuffle_rest();
        }
        let piece = self.bag[self.next];
        self.next += 1;
        piece
    }

    /// Shuffles the pieces still to come (Fisher–Yates, from the last).
    fn shuffle_rest(&mut self) {
        let rest = &mut self.bag[self.next..];
        for i in (1..rest.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            rest.swap(i, j);
        }
    }

    /// The piece the next draw will deal, without dealing it.
    pub fn peek(&self) -> Piece {
        self.clone().next_piece()
    }

    /// The pieces still to come from the current bag ([`BagState::FRESH`] at a bag boundary).
    pub fn bag_state(&self) -> BagState {
        let left: PieceSet = self.bag[self.next..].iter().copied().collect();
        BagState::from_remaining(left)
    }
}

impl Iterator for SevenBag {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        Some(self.next_piece())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // The first outputs of splitmix64 from state 0, as published with the algorithm.
        let mut state = 0;
        assert_eq!(splitmix64(&mut state), 0xe220_a839_7b1d_cdaf);
        assert_eq!(splitmix64(&mut state), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(splitmix64(&mut state), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn xoshiro_reference_values() {
        // The reference implementation started from the state [1, 2, 3, 4].
        let mut rng = Rng { s: [1, 2, 3, 4] };
        let out: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
        assert_eq!(out, [11520, 0, 1_509_978_240, 1_215_971_899_390_074_240]);
        // Seeded through splitmix64 (values from an independent implementation).
        let mut rng = Rng::new(42);
        assert_eq!(rng.next_u64(), 0x1578_0b2e_0c2e_c716);
        assert_eq!(rng.next_u64(), 0x6104_d986_6d11_3a7e);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7_000 {
            seen[rng.below(7) as usize] += 1;
        }
        // Each value about 1,000 times; 5 sigma is about 150.
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.below(1), 0);
    }

    #[test]
    fn a_partly_dealt_bag_deals_its_rest_then_whole_bags() {
        for seed in [0, 1, 42, u64::MAX] {
            let fresh = SevenBag::from_bag_state(seed, BagState::FRESH);
            assert_eq!(fresh, SevenBag::new(seed));
            let all = SevenBag::from_bag_state(seed, BagState::from_remaining(PieceSet::ALL));
            assert_eq!(all, SevenBag::new(seed));
            for left in ["T", "IJ", "SZL", "IOTLJS"] {
                let left: PieceSet = left.parse().unwrap();
                let state = BagState::from_remaining(left);
                let mut bag = SevenBag::from_bag_state(seed, state);
                assert_eq!(bag.bag_state(), state);
                let pieces: Vec<Piece> = bag.by_ref().take(left.len() + 14).collect();
                let rest: PieceSet = pieces[..left.len()].iter().copied().collect();
                assert_eq!(rest, left, "seed {seed}");
                for whole in pieces[left.len()..].chunks(7) {
                    assert_eq!(whole.iter().copied().collect::<PieceSet>(), PieceSet::ALL);
                }
                // Deterministic for the seed.
                let again = SevenBag::from_bag_state(seed, state).take(pieces.len());
                assert!(again.eq(pieces.iter().copied()));
            }
        }
        // The sequence of a seed, as web/'s Play mode deals it from a start position.
        let state = BagState::from_remaining("IJS".parse().unwrap());
        let dealt: String = SevenBag::from_bag_state(7, state)
            .take(10)
            .map(Piece::to_char)
            .collect();
        assert_eq!(dealt, "JISJLIOSZT");
    }

    #[test]
    fn peek_and_bag_state_follow_the_draws() {
        let mut bag = SevenBag::new(3);
        assert!(bag.bag_state().is_fresh());
        let first = bag.peek();
        assert_eq!(bag.next_piece(), first);
        assert_eq!(bag.bag_state().remaining().len(), 6);
        assert!(!bag.bag_state().remaining().contains(first));
    }
}
