//! The solution automaton of a field: every sequence of pieces that, played in that order
//! without hold, can reach a perfect clear, as a shared acyclic graph.
//!
//! A node stands for the set of piece words that finish the PC from some field; its
//! child for piece `p` is the node of the words after `p`. Equal nodes are stored once,
//! so fields that finish with the same words share one node. A queue with hold is
//! checked by walking its hold orders through the graph ([`Automaton::accepts_with_hold`]).

use crate::engine::known::placements_toward_pc;
use crate::field::PcField;
use ahash::AHashMap;
use pc_srs::{MoveGenerator, Piece};

/// Index of a node. [`DEAD`] and [`ACCEPT`] are the two terminals.
pub type NodeId = u32;

/// No word: the field cannot be cleared.
pub const DEAD: NodeId = 0;
/// The empty word: the field is already clear.
pub const ACCEPT: NodeId = 1;

/// The words that clear a field, with every intermediate field's words shared.
#[derive(Debug)]
pub struct Automaton {
    nodes: Vec<[NodeId; 7]>,
    unique: AHashMap<[NodeId; 7], NodeId>,
    unions: AHashMap<(NodeId, NodeId), NodeId>,
    fields: AHashMap<u128, NodeId>,
    root: NodeId,
}

impl Automaton {
    /// Builds the automaton of `field` under the generator's move rules.
    pub fn build(field: &PcField, generator: &MoveGenerator) -> Automaton {
        let mut a = Automaton {
            nodes: vec![[DEAD; 7], [DEAD; 7]],
            unique: AHashMap::new(),
            unions: AHashMap::new(),
            fields: AHashMap::new(),
            root: DEAD,
        };
        a.root = a.explore(field, generator);
        a
    }

    /// The node reached from `node` by `piece` ([`DEAD`] when none).
    #[inline]
    pub fn child(&self, node: NodeId, piece: Piece) -> NodeId {
        self.nodes[node as usize][piece.index()]
    }

    /// Whether playing `word` in order (no hold) can clear the field.
    pub fn accepts(&self, word: &[Piece]) -> bool {
        let mut n = self.root;
        for &p in word {
            if n == DEAD || n == ACCEPT {
                return false;
            }
            n = self.child(n, p);
        }
        n == ACCEPT
    }

    /// Whether some play order that `queue` allows with hold (starting with `hold` in
    /// the hold slot, possibly empty) clears the field. Pieces left over at the end are
    /// fine.
    pub fn accepts_with_hold(&self, hold: Option<Piece>, queue: &[Piece]) -> bool {
        match hold {
            Some(h) => self.walk_hold(self.root, h, queue),
            None => match queue.split_first() {
                // The first piece may go straight into the empty hold slot.
                Some((&first, rest)) => self.walk_hold(self.root, first, rest),
                None => self.root == ACCEPT,
            },
        }
    }

    /// `held` is in the hold slot; `rest` are the pieces still to come.
    fn walk_hold(&self, node: NodeId, held: Piece, rest: &[Piece]) -> bool {
        if node == ACCEPT {
            return true;
        }
        if node == DEAD {
            return false;
        }
        // Play the held piece: the next piece takes its place in the slot.
        let via_hold = self.child(node, held);
        if via_hold != DEAD {
            match rest.split_first() {
                Some((&next, tail)) => {
                    if self.walk_hold(via_hold, next, tail) {
                        return true;
                    }
                }
                None => {
                    if via_hold == ACCEPT {
                        return true;
                    }
                }
            }
        }
        // Play the next piece and keep the held one.
        match rest.split_first() {
            Some((&next, tail)) => {
                let n = self.child(node, next);
                n != DEAD && self.walk_hold(n, held, tail)
            }
            None => false,
        }
    }

    fn explore(&mut self, field: &PcField, generator: &MoveGenerator) -> NodeId {
        if field.is_clear() {
            return ACCEPT;
        }
        let key = field.key();
        if let Some(&n) = self.fields.get(&key) {
            return n;
        }
        let mut children = [DEAD; 7];
        if field.pieces_needed() == 1 {
            // One piece left: its placement is fixed by the empty cells.
            if let Some(last) = field.last_placement() {
                let reachable = generator
                    .is_reachable(field.board(), &last, field.clear_line())
                    .unwrap_or(false);
                if reachable {
                    children[last.piece().index()] = ACCEPT;
                }
            }
            let node = self.intern(children);
            self.fields.insert(key, node);
            return node;
        }
        for piece in Piece::ALL {
            for placement in placements_toward_pc(generator, field, piece) {
                let next = field.place(&placement);
                if !next.can_be_filled() {
                    continue;
                }
                let child = self.explore(&next, generator);
                children[piece.index()] = self.union(children[piece.index()], child);
            }
        }
        let node = self.intern(children);
        self.fields.insert(key, node);
        node
    }

    fn intern(&mut self, children: [NodeId; 7]) -> NodeId {
        if children == [DEAD; 7] {
            return DEAD;
        }
        if let Some(&n) = self.unique.get(&children) {
            return n;
        }
        let n = self.nodes.len() as NodeId;
        self.nodes.push(children);
        self.unique.insert(children, n);
        n
    }

    /// The node of the union of two word sets of the same length.
    fn union(&mut self, a: NodeId, b: NodeId) -> NodeId {
        if a == DEAD || a == b {
            return b;
        }
        if b == DEAD {
            return a;
        }
        let key = (a.min(b), a.max(b));
        if let Some(&n) = self.unions.get(&key) {
            return n;
        }
        let (ca, cb) = (self.nodes[a as usize], self.nodes[b as usize]);
        let mut children = [DEAD; 7];
        for i in 0..7 {
            children[i] = self.union(ca[i], cb[i]);
        }
        let n = self.intern(children);
        self.unions.insert(key, n);
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PcField, Rules, Searcher};
    use pc_bitboard::Board32;

    /// Every queue of distinct pieces of length `n`, in order.
    fn queues(n: usize) -> Vec<Vec<Piece>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = vec![];
        for q in queues(n - 1) {
            for p in Piece::ALL {
                if !q.contains(&p) {
                    let mut q = q.clone();
                    q.push(p);
                    out.push(q);
                }
            }
        }
        out
    }

    #[test]
    fn automaton_agrees_with_the_search_on_pco() {
        let board: Board32 = "##.....###/###....###/####...###/###....###"
            .parse()
            .unwrap();
        for rules in [Rules::default(), Rules::without_hold()] {
            let field = PcField::new(board, 4).unwrap();
            let a = Automaton::build(&field, &rules.generator());
            let mut search = Searcher::new(rules.clone());
            let (mut yes, mut no) = (0, 0);
            for tail in queues(4) {
                let queue: Vec<Piece> = if rules.hold {
                    [vec![Piece::I], tail].concat()
                } else {
                    tail
                };
                let by_automaton = if rules.hold {
                    a.accepts_with_hold(None, &queue)
                } else {
                    a.accepts(&queue)
                };
                assert_eq!(
                    by_automaton,
                    search.has_solution(&field, None, &queue),
                    "{queue:?} hold {}",
                    rules.hold
                );
                if by_automaton { yes += 1 } else { no += 1 }
            }
            // Both outcomes occur, so the comparison is not vacuous.
            assert!(yes > 0 && no > 0, "yes {yes} no {no}");
        }
    }
}
