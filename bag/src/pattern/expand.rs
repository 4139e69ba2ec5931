//! Lazy expansion of a pattern into its sequences.

use smallvec::SmallVec;

use super::{Element, Pattern};
use crate::Piece;
use crate::sequence::Sequence;

/// The sequences of a [`Pattern`], in lexicographic order. Created by
/// [`Pattern::expand`].
///
/// Each element's orders are listed once, already shifted to the element's position
/// in the packed [`Sequence`]; the iterator is then an odometer over those lists, so
/// most steps are one OR of two words. Memory is the sum of the element counts
/// (at most 5,040 words per element), never the product.
#[derive(Clone, Debug)]
pub struct Expansion {
    /// Per element, its orders as packed bits at the element's offset.
    tables: SmallVec<[Vec<u64>; 8]>,
    /// Per element, the index of its current order.
    index: SmallVec<[usize; 8]>,
    /// Per element, the OR of the current orders of the elements before it.
    prefix: SmallVec<[u64; 8]>,
    len: usize,
    started: bool,
    done: bool,
}

/// Appends every ordered pick of `pick` distinct pieces of `set` (lexicographic), each
/// packed from position `offset`.
fn orders(element: &Element, offset: usize, out: &mut Vec<u64>) {
    fn walk(left: u8, pick: usize, pos: usize, bits: u64, out: &mut Vec<u64>) {
        if pick == 0 {
            out.push(bits);
            return;
        }
        let mut rest = left;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let piece = Piece::ALL[i];
            walk(
                left & !(1 << i),
                pick - 1,
                pos + 1,
                bits | Sequence::piece_bits(piece, pos),
                out,
            );
        }
    }
    out.reserve(element.count() as usize);
    walk(element.set().bits(), element.pick(), offset, 0, out);
}

impl Expansion {
    pub(super) fn new(pattern: &Pattern) -> Expansion {
        let mut tables = SmallVec::new();
        let mut offset = 0;
        for e in pattern.elements() {
            let mut t = Vec::new();
            orders(e, offset, &mut t);
            offset += e.pick();
            tables.push(t);
        }
        let n = pattern.elements().len();
        Expansion {
            tables,
            index: SmallVec::from_elem(0, n),
            prefix: SmallVec::from_elem(0, n),
            len: pattern.len(),
            started: false,
            done: false,
        }
    }

    /// Recomputes the prefixes of the elements after `from`.
    #[inline]
    fn refresh_prefixes(&mut self, from: usize) {
        for j in from + 1..self.tables.len() {
            self.prefix[j] = self.prefix[j - 1] | self.tables[j - 1][self.index[j - 1]];
        }
    }
}

impl Iterator for Expansion {
    type Item = Sequence;

    #[inline]
    fn next(&mut self) -> Option<Sequence> {
        let Some(last) = self.tables.len().checked_sub(1) else {
            // No element: the single empty sequence.
            let first = !std::mem::replace(&mut self.started, true);
            return first.then_some(Sequence::EMPTY);
        };
        if self.done {
            return None;
        }
        if !self.started {
            self.started = true;
            self.refresh_prefixes(0);
            return Some(Sequence::from_raw(
                self.prefix[last] | self.tables[last][0],
                self.len,
            ));
        }
        // Fast path: advance the last element.
        let i = self.index[last] + 1;
        if let Some(&bits) = self.tables[last].get(i) {
            self.index[last] = i;
            return Some(Sequence::from_raw(self.prefix[last] | bits, self.len));
        }
        // Carry into earlier elements.
        let mut e = last;
        loop {
            self.index[e] = 0;
            if e == 0 {
                self.done = true;
                return None;
            }
            e -= 1;
            self.index[e] += 1;
            if self.index[e] < self.tables[e].len() {
                break;
            }
        }
        self.refresh_prefixes(e);
        Some(Sequence::from_raw(
            self.prefix[last] | self.tables[last][0],
            self.len,
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Pattern, Sequence};

    fn expand(s: &str) -> Vec<String> {
        s.parse::<Pattern>()
            .unwrap()
            .expand()
            .map(|q| q.to_string())
            .collect()
    }

    #[test]
    fn small_expansions_in_order() {
        assert_eq!(expand("T"), ["T"]);
        assert_eq!(expand("[SZ],T"), ["ST", "ZT"]);
        assert_eq!(expand("[SZ]p2,[IO]"), ["SZI", "SZO", "ZSI", "ZSO"]);
        assert_eq!(expand("[TIO]!").len(), 6);
        let big: Pattern = "*p7,*p4".parse().unwrap();
        assert_eq!(big.expand().count(), 4_233_600);
    }

    #[test]
    fn empty_pattern_has_one_empty_sequence() {
        let p = Pattern::new([]).unwrap();
        assert_eq!(p.expand().collect::<Vec<_>>(), [Sequence::EMPTY]);
        assert_eq!(p.count(), 1);
    }

    #[test]
    fn expansion_is_sorted_and_matches_contains() {
        let p: Pattern = "[^T],*p2,[JL]".parse().unwrap();
        let all: Vec<Sequence> = p.expand().collect();
        assert_eq!(all.len() as u64, p.count());
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert!(all.iter().all(|s| p.contains(s)));
        assert!(!p.contains(&"TIJJ".parse().unwrap()));
        assert!(!p.contains(&"IIIJ".parse().unwrap()));
        assert!(!p.contains(&"IIJ".parse().unwrap()));
    }
}
