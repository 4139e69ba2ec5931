//! [`GraphMemo`]: what the walks learn of a graph, kept from one decision to the next.

use super::{children, suffix};

/// What the walks learn of a graph, kept from one decision to the next: the sets of
/// queues that finish its fields, and the child indices found.
#[derive(Default)]
pub(crate) struct GraphMemo {
    pub(crate) suffixes: suffix::SuffixMemo,
    pub(crate) children: children::ChildMemo,
}

impl GraphMemo {
    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.suffixes.clear();
        self.children.clear();
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.suffixes.bytes() + self.children.bytes()
    }
}
