//! The queues that finish a field: for a field with `p` pieces left and a piece in hold
//! (or none, without the hold rule), the set of every queue of `p` pieces that makes a PC.
//!
//! Queues are indexed in base 8, first piece most significant, so the queues starting
//! with a given piece are an aligned block of the set: for `p = 1` bit `u`; for `p = 2`
//! byte `u`; for `p = 3` word `u` (those are kept by class, [`super::three_left`]). With hold, the first piece placed is the queue's first
//! (the held one stays) or the held one (the queue's first goes to hold):
//!
//! ```text
//! finish(f, h)[u, rest] = some child c of f by u with finish(c, h)[rest]
//!                      or some child c of f by h with finish(c, u)[rest]
//! ```
//!
//! These sets depend on the field and the hold alone (not on the bag or the pieces in
//! view), so one table serves every decision on the graph. The tables are dense, by
//! field index and hold slot, and filled as fields are met.

use super::edge::edge_piece;
use super::layer::{Layer, for_each_child};
use crate::decision::EMPTY_HOLD;

/// A slot of a table of sets of one or two pieces that is not filled yet (no real set
/// has bit 63: piece indices stop at 6).
const UNKNOWN: u64 = u64::MAX;

/// Remembered sets of queues of one or two pieces, for the fields of one graph.
#[derive(Default)]
pub(crate) struct SuffixMemo {
    /// By layer: for each field and hold slot (`8 * field + hold`), the set of queues of
    /// one or two pieces, or [`UNKNOWN`].
    small: Vec<Vec<u64>>,
}

impl SuffixMemo {
    /// Forgets every set.
    pub(crate) fn clear(&mut self) {
        *self = SuffixMemo::default();
    }

    /// Bytes the tables take.
    pub(crate) fn bytes(&self) -> usize {
        8 * self.small.iter().map(Vec::len).sum::<usize>()
    }

    /// The queues of one or two pieces that finish field `field` of layer `layer` (with
    /// `p` pieces left) with `hold` in the slot ([`EMPTY_HOLD`] without the hold rule).
    pub(crate) fn small(
        &mut self,
        layers: &[Layer],
        layer: usize,
        field: u32,
        hold: u8,
        p: usize,
    ) -> u64 {
        debug_assert!(p == 1 || p == 2);
        let slot = 8 * field as usize + hold as usize;
        if let Some(&set) = self.small.get(layer).and_then(|t| t.get(slot)) {
            if set != UNKNOWN {
                return set;
            }
        }
        let set = if p == 1 {
            let mut fits = 0u64;
            for &e in layers[layer].edges(field) {
                fits |= 1 << edge_piece(e);
            }
            if hold != EMPTY_HOLD && fits >> hold & 1 == 1 {
                0x7f
            } else {
                fits
            }
        } else {
            let mut set = 0u64;
            for_each_child(layers, layer, field, |piece, child| {
                let piece = piece as u8;
                // Placing the queue's first piece `piece` keeps the hold; placing the held
                // piece holds the queue's first, whatever it is.
                set |= self.small(layers, layer + 1, child, hold, 1) << (8 * piece);
                if hold != EMPTY_HOLD && piece == hold {
                    for u in 0..7u8 {
                        if u != hold {
                            set |= self.small(layers, layer + 1, child, u, 1) << (8 * u);
                        }
                    }
                }
            });
            set
        };
        let table = table_for(&mut self.small, layer, layers, UNKNOWN);
        table[slot] = set;
        set
    }
}

/// The dense table of layer `layer` (eight slots a field), made on first use.
fn table_for<'t, T: Clone>(
    tables: &'t mut Vec<Vec<T>>,
    layer: usize,
    layers: &[Layer],
    empty: T,
) -> &'t mut Vec<T> {
    if tables.len() <= layer {
        tables.resize_with(layer + 1, Vec::new);
    }
    let table = &mut tables[layer];
    if table.is_empty() {
        *table = vec![empty; 8 * layers[layer].len()];
    }
    table
}
