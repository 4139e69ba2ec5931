//! The clairvoyant chance of a state whose queue ends in pieces not revealed yet: the
//! share of the bag's possible continuations for which a perfect clear exists when the
//! whole queue is known. One search answers every continuation at once (a set of them per
//! state, remembered), so the states before a reveal are shared by all continuations.
//!
//! It bounds the exact chance a player has from above and is close to it when the preview
//! is long; a player can rank moves by it where the exact chance costs too much
//! ([`Searcher::clairvoyant_count`](crate::Searcher::clairvoyant_count)).

use crate::decision::MAX_UNKNOWN;
use crate::decision::{drawable, pieces_in};
use crate::engine::known::KnownSolver;
use crate::field::PcField;
use pc_srs::Piece;

/// A set of continuations of `k` unknown pieces, as bits indexed by the pieces in base 7
/// (first piece most significant).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Continuations {
    words: Box<[u64]>,
}

impl Continuations {
    fn empty(k: u32) -> Continuations {
        let bits = 7usize.pow(k);
        Continuations {
            words: vec![0; bits.div_ceil(64)].into_boxed_slice(),
        }
    }

    fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    fn contains(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Adds `child` (a set over one piece fewer) as the continuations starting with `x`.
    fn add_after(&mut self, x: Piece, child: &Continuations, child_bits: usize) {
        let offset = x.index() * child_bits;
        for i in 0..child_bits {
            if child.contains(i) {
                self.insert(offset + i);
            }
        }
    }

    /// How many continuations the set has.
    pub(crate) fn len(&self) -> u64 {
        self.words.iter().map(|w| w.count_ones() as u64).sum()
    }
}

/// How many continuations of `k` pieces the bag allows.
pub(crate) fn possible_count(bag: u8, k: u32) -> u64 {
    let mut left = drawable(bag).count_ones() as u64;
    let mut count = 1;
    for _ in 0..k {
        count *= left;
        left = if left == 1 { 7 } else { left - 1 };
    }
    count
}

impl KnownSolver<'_> {
    /// For the state (hold, then `queue`, then `k` unknown pieces drawn from `bag`), the
    /// continuations for which a perfect clear exists; `None` as soon as they cannot
    /// number more than `beat`. `k` at most [`MAX_UNKNOWN`]. The last two unknown
    /// pieces are settled by one search (which shares its states with every other
    /// question of this solver); the ones before them are tried in turn.
    pub(crate) fn clairvoyant(
        &mut self,
        field: PcField,
        held: Option<Piece>,
        queue: &[Piece],
        bag: u8,
        k: u32,
        beat: Option<u64>,
    ) -> Option<Continuations> {
        assert!(
            k as usize <= MAX_UNKNOWN,
            "at most {MAX_UNKNOWN} unknown pieces"
        );
        let mut found = Continuations::empty(k);
        let drawable = drawable(bag);
        // What can follow x.
        let then = |x: Piece| crate::decision::drawable(drawable & !(1 << x.index()));
        let mut count = 0;
        match k {
            0 => {
                if self.solve(field, held, queue) {
                    found.insert(0);
                    count = 1;
                }
            }
            1 => {
                let mask = self.solve_last_unknown(field, held, queue, drawable) & drawable;
                for x in pieces_in(mask) {
                    found.insert(x.index());
                }
                count = mask.count_ones() as u64;
            }
            2 => {
                let mut wanted = [0; 7];
                for x in pieces_in(drawable) {
                    wanted[x.index()] = then(x);
                }
                let pairs = self.solve_last_two_wanted(field, held, queue, wanted);
                for x in pieces_in(drawable) {
                    for y in pieces_in(pairs[x.index()] & then(x)) {
                        found.insert(x.index() * 7 + y.index());
                        count += 1;
                    }
                }
            }
            _ => {
                let mut longer = queue.to_vec();
                let child_bits = 7usize.pow(k - 1);
                let mut left = possible_count(bag, k);
                for x in pieces_in(drawable) {
                    if beat.is_some_and(|b| count + left <= b) {
                        return None;
                    }
                    let after = drawable & !(1 << x.index());
                    left -= possible_count(after, k - 1);
                    longer.push(x);
                    let child = self
                        .clairvoyant(field, held, &longer, after, k - 1, None)
                        .expect("no bound, an answer");
                    longer.pop();
                    count += child.len();
                    found.add_after(x, &child, child_bits);
                }
            }
        }
        (beat.is_none_or(|b| count > b)).then_some(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;
    use crate::engine::known::KnownMemo;
    use crate::field::Goal;
    use pc_bitboard::Board32;

    fn queue(text: &str) -> Vec<Piece> {
        text.chars().map(|c| Piece::from_char(c).unwrap()).collect()
    }

    /// Every continuation the bag allows, as pieces.
    fn sequences(bag: u8, k: u32) -> Vec<Vec<Piece>> {
        if k == 0 {
            return vec![Vec::new()];
        }
        let drawable = drawable(bag);
        let mut all = Vec::new();
        for x in pieces_in(drawable) {
            for mut rest in sequences(drawable & !(1 << x.index()), k - 1) {
                rest.insert(0, x);
                all.push(rest);
            }
        }
        all
    }

    fn index(seq: &[Piece]) -> usize {
        seq.iter().fold(0, |i, p| i * 7 + p.index())
    }

    /// One search per continuation with the whole queue known gives the same answers.
    #[test]
    fn the_set_agrees_with_a_search_per_continuation() {
        let rules = Rules::default();
        let goal = Goal {
            lower_clears: false,
        };
        let cases = [
            // Grace system, T held, a fresh bag after L O: 3 unknown pieces.
            (
                "######..../######..../######..../######....",
                Some(Piece::T),
                "LO",
                0,
                3,
            ),
            // Four pieces left, hold empty, two in view and two to come from I J S Z.
            (
                "######..../######..../######..../######....",
                None,
                "TI",
                0b1100110,
                2,
            ),
            // Four unknown pieces after L, T held.
            (
                "######..../######..../######..../######....",
                Some(Piece::T),
                "L",
                0,
                4,
            ),
            // Five pieces left, I held, three in view, three from a fresh bag.
            (
                "####....../####....../######..../######....",
                Some(Piece::I),
                "TSZ",
                0,
                3,
            ),
        ];
        let mut some_fail = false;
        let mut some_clear = false;
        for (board, held, known, bag, k) in cases {
            let field = PcField::new_unchecked(board.parse::<Board32>().unwrap(), 4);
            let known = queue(known);
            let mut memo = KnownMemo::default();
            let mut solver = KnownSolver::new(rules.generator(), true, goal, &mut memo);
            let set = solver
                .clairvoyant(field, held, &known, bag, k, None)
                .unwrap();
            let all = sequences(bag, k);
            assert_eq!(possible_count(bag, k), all.len() as u64);
            let mut cleared = 0;
            for seq in &all {
                let mut whole = known.clone();
                whole.extend_from_slice(seq);
                let mut fresh = KnownMemo::default();
                let mut check = KnownSolver::new(rules.generator(), true, goal, &mut fresh);
                let ok = check.solve(field, held, &whole);
                assert_eq!(set.contains(index(seq)), ok, "{seq:?}");
                cleared += ok as u64;
                some_fail |= !ok;
                some_clear |= ok;
            }
            // Nothing outside the bag's continuations is counted.
            assert_eq!(set.len(), cleared);
        }
        assert!(some_fail && some_clear);
    }
}
