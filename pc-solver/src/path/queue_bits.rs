//! The queues that build a set, as bits of their ranks, for the greedy choice of a minimal
//! set over patterns with millions of queues.
//!
//! A walk over the queues' prefixes one by one visits every prefix that builds part of the
//! set, up to one for each of the millions of queues of a large pattern. But the queues
//! going on from a node of the automaton ([`QueueDag`]) that build the set from the same
//! (placed, piece in hand) are the same, ranked from the node's first queue, whichever
//! prefix led there: so they are made once as bits, and only the few prefixes above the
//! nodes with small counts are walked one by one.

use super::queue_dag::QueueDag;
use super::{Configs, EMPTY_HAND, NONE, Orders};
use ahash::AHashMap;
use smallvec::smallvec;

/// Nodes with at most this many queues going on from them have their bits made once for
/// each (placed, piece in hand) that reaches them; above, prefixes are walked one by one.
const MOST_BITS_KEPT: u64 = 1 << 14;

/// Some of the ranks of a set's queues.
pub(super) enum Window<'a> {
    /// Every rank `from..to`.
    Range(u64, u64),
    /// The ranks `base + k` for each bit `k` of the words (bit `k % 64` of word `k / 64`).
    Bits(u64, &'a [u64]),
}

/// Makes the windows of ranks of the queues of an automaton that build a set.
pub(super) struct QueueBits<'d> {
    dag: &'d QueueDag,
    hold: bool,
    /// Nodes with at most this many queues have their bits made once.
    kept_below: u64,
    /// For each (node, what its prefixes leave), where its bits are in `words`.
    made: AHashMap<(u32, Configs), (usize, usize)>,
    words: Vec<u64>,
}

impl<'d> QueueBits<'d> {
    pub(super) fn new(dag: &'d QueueDag, hold: bool) -> QueueBits<'d> {
        QueueBits {
            dag,
            hold,
            kept_below: MOST_BITS_KEPT,
            made: AHashMap::new(),
            words: Vec::new(),
        }
    }

    /// The same, with bits made once for the nodes with at most `most` queues.
    #[cfg(test)]
    pub(super) fn keeping_bits_below(mut self, most: u64) -> QueueBits<'d> {
        self.kept_below = most;
        self
    }

    /// Calls `visit` with windows that together hold exactly the ranks of the queues that
    /// build the set of `orders` (each rank in one window), passing over the prefixes
    /// whose ranks `from..to` `wanted` refuses.
    pub(super) fn windows(
        &mut self,
        orders: &Orders,
        wanted: &dyn Fn(u64, u64) -> bool,
        visit: &mut dyn FnMut(Window<'_>),
    ) {
        self.made.clear();
        self.words.clear();
        let dag = self.dag;
        let root = dag.root;
        if self.hold {
            for (piece, &child) in dag.children[root as usize].iter().enumerate() {
                if child != NONE {
                    let base = dag.first_rank(root, 0, piece);
                    if wanted(base, base + dag.below[child as usize]) {
                        let start = smallvec![(0, piece as u8)];
                        self.walk(orders, child, base, start, wanted, visit);
                    }
                }
            }
        } else {
            let start = smallvec![(0, EMPTY_HAND)];
            self.walk(orders, root, 0, start, wanted, visit);
        }
    }

    /// The windows of the queues going on from `node` (its first rank `base`) that build
    /// the set from any of `configs`.
    fn walk(
        &mut self,
        orders: &Orders,
        node: u32,
        base: u64,
        configs: Configs,
        wanted: &dyn Fn(u64, u64) -> bool,
        visit: &mut dyn FnMut(Window<'_>),
    ) {
        let dag = self.dag;
        let below = dag.below[node as usize];
        if configs.iter().any(|&(placed, _)| placed == orders.full) {
            visit(Window::Range(base, base + below));
            return;
        }
        if below <= self.kept_below {
            let (from, len) = self.bits(orders, node, configs);
            visit(Window::Bits(base, &self.words[from..from + len]));
            return;
        }
        let open = |piece, child: u32| {
            let first = dag.first_rank(node, base, piece);
            wanted(first, first + dag.below[child as usize])
        };
        let (ends_here, next) = orders.next_nodes(dag, node, &configs, open);
        if ends_here {
            visit(Window::Range(base, base + 1));
        }
        for (piece, child, configs) in next {
            let first = dag.first_rank(node, base, piece);
            self.walk(orders, child, first, configs, wanted, visit);
        }
    }

    /// The bits of the queues going on from `node` that build the set from any of
    /// `configs`, bit `k` for the node's `k`th queue: where they are in `words`.
    fn bits(&mut self, orders: &Orders, node: u32, configs: Configs) -> (usize, usize) {
        let key = (node, configs);
        if let Some(&made) = self.made.get(&key) {
            return made;
        }
        let dag = self.dag;
        let below = dag.below[node as usize];
        let mut bits = vec![0u64; below.div_ceil(64) as usize];
        if key.1.iter().any(|&(placed, _)| placed == orders.full) {
            bits.fill(u64::MAX);
            if below % 64 != 0 {
                *bits.last_mut().expect("a node has a queue") = (1 << (below % 64)) - 1;
            }
        } else {
            let (ends_here, next) = orders.next_nodes(dag, node, &key.1, |_, _| true);
            if ends_here {
                bits[0] |= 1;
            }
            for (piece, child, configs) in next {
                let (from, len) = self.bits(orders, child, configs);
                let offset = dag.first_rank(node, 0, piece);
                or_shifted(&mut bits, &self.words[from..from + len], offset);
            }
        }
        let made = (self.words.len(), bits.len());
        self.words.extend_from_slice(&bits);
        self.made.insert(key, made);
        made
    }
}

/// Sets in `to` the bits of `from` moved up by `offset` bits (`to` long enough for them).
fn or_shifted(to: &mut [u64], from: &[u64], offset: u64) {
    let (word, shift) = ((offset / 64) as usize, offset % 64);
    for (i, &bits) in from.iter().enumerate() {
        if bits == 0 {
            continue;
        }
        to[word + i] |= bits << shift;
        if shift > 0 {
            let high = bits >> (64 - shift);
            if high != 0 {
                to[word + i + 1] |= high;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_moved_up_land_across_words() {
        let mut to = [0u64; 3];
        or_shifted(&mut to, &[1 | 1 << 63, 1], 70);
        assert_eq!(to, [0, 1 << 6, 1 << 5 | 1 << 6]);
        let mut to = [0u64; 2];
        or_shifted(&mut to, &[u64::MAX], 64);
        assert_eq!(to, [0, u64::MAX]);
    }
}
