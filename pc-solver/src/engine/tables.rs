//! [`Tables`]: what a solver remembers between questions, for all engines.

use crate::engine::graph::GraphMemo;
use crate::engine::{depth_first, known, layered};

/// What a solver remembers between questions, for all engines.
#[derive(Default)]
pub(crate) struct Tables {
    pub(crate) known: known::KnownMemo,
    pub(crate) values: depth_first::Values,
    pub(crate) orders: layered::OrderMemo,
    pub(crate) graph: GraphMemo,
}

/// Bytes a remembered state costs, counted generously (key, value, table overhead).
const BYTES_PER_STATE: usize = 64;

impl Tables {
    /// An estimate of the bytes the tables hold.
    pub(crate) fn bytes(&self) -> usize {
        (self.known.len() + self.values.len() + self.orders.len()) * BYTES_PER_STATE
            + self.graph.bytes()
    }

    /// How many states the depth-first search may keep within `bytes`.
    pub(crate) fn states_within(bytes: usize) -> usize {
        bytes / BYTES_PER_STATE
    }

    pub(crate) fn clear(&mut self) {
        self.known.clear();
        self.values.clear();
        self.orders.clear();
        self.graph.clear();
    }
}
