//! The queues of a pattern as a small automaton: the tree of their prefixes with the
//! prefixes that are followed by the same rests merged into one node.
//!
//! A pattern's queues share their rests: after `TIJ` and after `IJT` of `*p7,*p4` come the
//! same pieces, so the tree's 5.5 million prefixes of that pattern are 192 nodes here (a
//! node for each set of pieces dealt from the current bag). A walk over (placements
//! placed, node, piece in hand) then has few states however many queues there are. A
//! queue is still found by its rank: the queues below a node are counted, and the sorted
//! queues are numbered in the order of the pieces.

use super::{NONE, QueueTree, Queues};
use ahash::AHashMap;

/// The queues as an acyclic automaton, every node reached from the root by some prefix.
pub(super) struct QueueDag {
    /// Each node's child for each piece ([`NONE`] for none).
    pub(super) children: Vec<[u32; 7]>,
    /// Whether a queue ends at the node.
    pub(super) ends: Vec<bool>,
    /// How many queues go on from the node (itself included when one ends there).
    pub(super) below: Vec<u64>,
    pub(super) root: u32,
}

impl QueueDag {
    /// The tree's queues, equal rests merged. Ranks ([`QueueDag::first_rank`]) number the
    /// queues as the tree's sorted queues are numbered.
    pub(super) fn new(tree: &QueueTree) -> QueueDag {
        let mut dag = QueueDag {
            children: Vec::new(),
            ends: Vec::new(),
            below: Vec::new(),
            root: NONE,
        };
        let mut ids: AHashMap<([u32; 7], bool), u32> = AHashMap::new();
        // A tree node's children come after it, so from the last node back every child
        // has its id when its parent is looked at.
        let mut id_of = vec![NONE; tree.children.len()];
        for node in (0..tree.children.len()).rev() {
            let children =
                tree.children[node].map(|c| if c == NONE { NONE } else { id_of[c as usize] });
            let ends = tree.queue[node] != NONE;
            let id = *ids.entry((children, ends)).or_insert_with(|| {
                let below = u64::from(ends)
                    + children
                        .iter()
                        .filter(|&&c| c != NONE)
                        .map(|&c| dag.below[c as usize])
                        .sum::<u64>();
                dag.children.push(children);
                dag.ends.push(ends);
                dag.below.push(below);
                dag.children.len() as u32 - 1
            });
            id_of[node] = id;
        }
        dag.root = id_of[0];
        dag
    }

    /// The rank of the first queue that goes on from `node` through `piece`, given the rank
    /// `base` of the first queue that goes on from `node`: queues ending at the node come
    /// first, then those of each piece in order.
    pub(super) fn first_rank(&self, node: u32, base: u64, piece: usize) -> u64 {
        let children = &self.children[node as usize];
        base + u64::from(self.ends[node as usize])
            + children[..piece]
                .iter()
                .filter(|&&c| c != NONE)
                .map(|&c| self.below[c as usize])
                .sum::<u64>()
    }
}

impl Queues for QueueDag {
    fn root(&self) -> u32 {
        self.root
    }

    #[inline]
    fn child(&self, node: u32, piece: usize) -> u32 {
        self.children[node as usize][piece]
    }

    #[inline]
    fn ends(&self, node: u32) -> bool {
        self.ends[node as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pc_bag::PatternSet;
    use pc_srs::Piece;

    fn queues(pattern: &str) -> Vec<Vec<Piece>> {
        let patterns: PatternSet = pattern.parse().unwrap();
        let mut queues: Vec<Vec<Piece>> = patterns
            .distinct()
            .iter()
            .map(|s| s.iter().collect())
            .collect();
        queues.sort();
        queues
    }

    /// The rank of a queue, read off the automaton.
    fn rank(dag: &QueueDag, queue: &[Piece]) -> Option<u64> {
        let (mut node, mut base) = (dag.root, 0);
        for &piece in queue {
            let child = dag.children[node as usize][piece.index()];
            if child == NONE {
                return None;
            }
            base = dag.first_rank(node, base, piece.index());
            node = child;
        }
        dag.ends[node as usize].then_some(base)
    }

    #[test]
    fn ranks_number_the_sorted_queues_and_equal_rests_share_a_node() {
        // A node is how many of each bag are dealt: the pieces of the bag not dealt yet,
        // and one node where the queues end.
        let cases = [
            ("*p7", 127 + 1),
            ("I,*p4", 1 + (1 + 7 + 21 + 35) + 1),
            ("*p7,*p2", 127 + (1 + 7) + 1),
        ];
        for (pattern, nodes) in cases {
            let queues = queues(pattern);
            let tree = QueueTree::new(queues.iter().map(|q| q.iter().copied()));
            let dag = QueueDag::new(&tree);
            assert_eq!(dag.below[dag.root as usize], queues.len() as u64);
            for (q, queue) in queues.iter().enumerate() {
                assert_eq!(rank(&dag, queue), Some(q as u64), "{pattern}: {queue:?}");
            }
            // A queue not in the pattern has no rank.
            let other = vec![Piece::Z; queues[0].len()];
            assert_eq!(rank(&dag, &other), None, "{pattern}");
            assert_eq!(dag.children.len(), nodes, "{pattern}");
            assert!(dag.children.len() < tree.children.len() / 10, "{pattern}");
        }
    }
}
