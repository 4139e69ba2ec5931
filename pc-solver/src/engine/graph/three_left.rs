//! The fields three pieces from a PC, in classes that finish alike.
//!
//! A full ranking's last layer places four unknown pieces. For each of its moves it needs
//! the queues of three pieces that finish the child, for the hold slot it has
//! ([`SuffixMemo`]'s sets, one size up). A layer of fields three pieces from a PC has far
//! more fields than ways to finish: a field's finishing queues depend only on its moves
//! and on which queues finish each child, and the children (two pieces from a PC) fall
//! into few classes themselves. So every field of that layer gets a class, and each class
//! its finishing queues for every hold slot, once, when the graph is read or built: a
//! move of the walk then costs two reads instead of a pass over the child's moves.
//!
//! A set of queues of three pieces has a word for each first piece `u`, and in it bit
//! `8a + b` for the queue `u a b` (base 8, as [`SuffixMemo`] lays out shorter ones).

use super::layer::{Layer, for_each_child};
use super::suffix::SuffixMemo;
use crate::decision::EMPTY_HOLD;
use ahash::AHashMap;

/// The queues of three pieces that finish a field, for each hold slot (slot
/// [`EMPTY_HOLD`]: no hold rule), word `u` for the queues starting with `u`.
pub(crate) type Finishes = [[u64; 8]; 8];

/// The classes of the fields three pieces from a PC, and what finishes each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ThreeLeft {
    /// The layer of those fields.
    pub(crate) layer: usize,
    /// Each field's class, by index.
    class_of: Vec<u32>,
    /// Each class's finishing queues.
    finishes: Vec<Finishes>,
}

impl ThreeLeft {
    /// The classes of the fields three pieces from a PC of a graph's `layers`, or `None` when it has no
    /// such layer; the fields are read in `runs` runs ([`super::by_runs`]), which number
    /// the classes the same way.
    pub(crate) fn in_runs(layers: &[Layer], runs: usize) -> Option<ThreeLeft> {
        let layer = layers.len().checked_sub(4)?;
        let two_left = layer + 1;
        // The fields two pieces from a PC, by what finishes them with each hold slot.
        let mut suffixes = SuffixMemo::default();
        let mut two_classes: AHashMap<[u64; 8], u32> = AHashMap::new();
        let mut two_finishes: Vec<[u64; 8]> = Vec::new();
        let two_class_of: Vec<u32> = (0..layers[two_left].len() as u32)
            .map(|field| {
                let mut sets = [0u64; 8];
                for (hold, set) in sets.iter_mut().enumerate() {
                    *set = suffixes.small(layers, two_left, field, hold as u8, 2);
                }
                *two_classes.entry(sets).or_insert_with(|| {
                    two_finishes.push(sets);
                    two_finishes.len() as u32 - 1
                })
            })
            .collect();
        // A field three pieces from a PC: its moves as (piece, child's class) name its class.
        let classes =
            super::parallel::classes_by_moves(layers[layer].len(), runs, |field, moves| {
                for_each_child(layers, layer, field, |piece, child| {
                    moves.push((piece as u8, two_class_of[child as usize]));
                });
            });
        let finishes: Vec<Finishes> = (0..classes.len() as u32)
            .map(|class| finish_three(classes.moves_of(class), &two_finishes))
            .collect();
        Some(ThreeLeft {
            layer,
            class_of: classes.class_of,
            finishes,
        })
    }

    /// The class of field `field` of [`ThreeLeft::layer`].
    #[inline]
    pub(crate) fn class(&self, field: u32) -> u32 {
        self.class_of[field as usize]
    }

    /// A hash of the classes and what finishes each: the classes three pieces from a PC
    /// that another layer's classes name ([`super::prepared`]).
    pub(crate) fn digest(&self) -> u64 {
        // In runs of bytes: the hasher is slow fed a word at a time.
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        let mut run: Vec<u8> = Vec::with_capacity(1 << 16);
        for classes in self.class_of.chunks(1 << 14) {
            run.clear();
            run.extend(classes.iter().flat_map(|class| class.to_le_bytes()));
            hasher.update(&run);
        }
        for finishes in self.finishes.chunks(1 << 7) {
            run.clear();
            let words = finishes.iter().flatten().flatten();
            run.extend(words.flat_map(|word| word.to_le_bytes()));
            hasher.update(&run);
        }
        hasher.digest()
    }

    /// The number of classes.
    pub(crate) fn classes(&self) -> usize {
        self.finishes.len()
    }

    /// What finishes the fields of class `class` (from [`ThreeLeft::class`]).
    #[inline]
    pub(crate) fn finishes(&self, class: u32) -> &Finishes {
        &self.finishes[class as usize]
    }
}

/// The queues of three pieces that finish a field whose moves are `moves` (piece, class of
/// the child among `two_finishes`): with `hold` in the slot, the queue `u a b` is finished
/// by placing `u` (the hold kept) where the child is finished by `a b` with `hold`, or by
/// placing the held piece (`u` held instead) where the child is finished by `a b` with `u`.
fn finish_three(moves: &[(u8, u32)], two_finishes: &[[u64; 8]]) -> Finishes {
    let mut finishes = [[0u64; 8]; 8];
    for &(piece, class) in moves {
        let piece = usize::from(piece);
        let two = &two_finishes[class as usize];
        for (by_first, &set) in finishes.iter_mut().zip(two) {
            by_first[piece] |= set;
        }
        for (u, &set) in two.iter().enumerate().take(usize::from(EMPTY_HOLD)) {
            if u != piece {
                finishes[piece][u] |= set;
            }
        }
    }
    finishes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::graph::pc_graph::PcGraph;
    use crate::field::PcField;
    use crate::rules::Rules;
    use std::ops::ControlFlow;

    /// Whether `queue` finishes field `field` of `layer` with `hold` in the slot, by
    /// trying every way to place it.
    fn finishes_by_search(
        graph: &PcGraph,
        layer: usize,
        field: u32,
        hold: u8,
        queue: &[u8],
    ) -> bool {
        let Some((&first, rest)) = queue.split_first() else {
            return layer + 1 == graph.layers.len();
        };
        let mut found = false;
        for_each_child(&graph.layers, layer, field, |piece, child| {
            let piece = piece as u8;
            found |= piece == first && finishes_by_search(graph, layer + 1, child, hold, rest);
            found |= hold != EMPTY_HOLD
                && piece == hold
                && finishes_by_search(graph, layer + 1, child, first, rest);
        });
        found
    }

    #[test]
    fn every_field_three_pieces_from_a_pc_finishes_as_its_class_says() {
        // Slot `EMPTY_HOLD` is the no-hold rule's; the graph is the same either way.
        {
            let rules = Rules::default();
            let field = PcField::new(
                "##......../##......../##......../##........"
                    .parse()
                    .unwrap(),
                4,
            )
            .unwrap();
            let graph =
                PcGraph::build_from(&field, &rules, &mut |_| ControlFlow::Continue(())).unwrap();
            let three = graph
                .three_left
                .as_ref()
                .expect("a layer three pieces from a PC");
            assert_eq!(three.layer, graph.layers.len() - 4);
            assert!(three.finishes.len() < graph.layers[three.layer].len());
            let mut won = 0;
            for field in 0..graph.layers[three.layer].len() as u32 {
                let finishes = three.finishes(three.class(field));
                for hold in 0..8u8 {
                    for queue in 0..7u16 * 64 {
                        let queue = [queue / 64, queue / 8 % 8, queue % 8].map(|p| p as u8);
                        if queue[1] == 7 || queue[2] == 7 {
                            continue;
                        }
                        let bit = finishes[usize::from(hold)][usize::from(queue[0])]
                            >> (8 * queue[1] + queue[2])
                            & 1;
                        let expected = finishes_by_search(&graph, three.layer, field, hold, &queue);
                        assert_eq!(
                            bit == 1,
                            expected,
                            "field {field} hold {hold} queue {queue:?}"
                        );
                        won += u32::from(expected);
                    }
                }
            }
            assert!(won > 0);
        }
    }
}
