//! The child indices the depth-first walk has found, kept from one decision to the next.
//!
//! An edge names a placement; the index of the field it leads to is a search of the next
//! layer ([`super::Layer::find_many`]). A depth-first walk meets the same fields again
//! and again, within a decision and across the decisions of a game (every PC starts from
//! the same field), so each field's children are found once, for the pieces asked, and
//! remembered.

use super::edge::{NO_CHILD, edge_move};
use super::moves;
use super::pc_graph::PcGraph;
use ahash::AHashMap;

/// A child not looked for yet.
const UNSEEN: u32 = u32::MAX - 1;

/// The children found, by field: for each field met, a slot per edge.
#[derive(Default)]
pub(crate) struct ChildMemo {
    /// Where each field's slots start in `slots`, by (layer, field).
    starts: AHashMap<(usize, u32), usize>,
    /// A child index per edge of the fields met, [`UNSEEN`] until found.
    slots: Vec<u32>,
}

impl ChildMemo {
    /// Forgets every child.
    pub(crate) fn clear(&mut self) {
        *self = ChildMemo::default();
    }

    /// Bytes held (the map's entries counted at 32 bytes).
    pub(crate) fn bytes(&self) -> usize {
        4 * self.slots.capacity() + 32 * self.starts.capacity()
    }

    /// The children of the moves of field `field` of layer `layer` for which `wanted`
    /// holds (given the move's index and edge), found now if they were not yet: a slot
    /// per edge of the field, the others maybe [`UNSEEN`], [`NO_CHILD`] where there is
    /// none.
    pub(crate) fn of<'a>(
        &'a mut self,
        graph: &'a PcGraph,
        layer: usize,
        field: u32,
        wanted: impl Fn(usize, u16) -> bool,
    ) -> &'a [u32] {
        let this = &graph.layers[layer];
        let edges = this.edges(field);
        if let Some(children) = this.children_of(field) {
            return children;
        }
        let slots = match self.starts.get(&(layer, field)) {
            Some(&start) => start..start + edges.len(),
            None => {
                let start = self.slots.len();
                self.slots.resize(start + edges.len(), UNSEEN);
                self.starts.insert((layer, field), start);
                start..start + edges.len()
            }
        };
        self.find(graph, layer, field, slots.start, wanted);
        &self.slots[slots]
    }

    /// Finds, at once, the children of the wanted moves whose slots are [`UNSEEN`].
    fn find(
        &mut self,
        graph: &PcGraph,
        layer: usize,
        field: u32,
        start: usize,
        wanted: impl Fn(usize, u16) -> bool,
    ) {
        let this = &graph.layers[layer];
        let key = this.keys[field as usize];
        let edges = this.edges(field);
        let mut at: Vec<usize> = Vec::new();
        let mut keys: Vec<u64> = Vec::new();
        let slots = &mut self.slots[start..start + edges.len()];
        for (j, (&e, slot)) in edges.iter().zip(slots).enumerate() {
            if *slot != UNSEEN || !wanted(j, e) {
                continue;
            }
            match edge_move(e).and_then(|m| moves::child(key, m)) {
                Some(child) => {
                    at.push(j);
                    keys.push(child);
                }
                None => *slot = NO_CHILD,
            }
        }
        if keys.is_empty() {
            return;
        }
        let mut found = vec![NO_CHILD; keys.len()];
        if let Some(next) = graph.layers.get(layer + 1) {
            next.find_many(&keys, &mut found);
        }
        for (j, child) in at.into_iter().zip(found) {
            self.slots[start + j] = child;
        }
    }
}
