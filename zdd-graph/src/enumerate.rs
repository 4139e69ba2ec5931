//! Lazy enumeration of the fills, depth first with an explicit stack.

use crate::graph::{FillGraph, StateId};
use crate::placements::PlacementId;
use core::iter::FusedIterator;

/// The fills of a [`FillGraph`], one at a time, each as its placement ids in the fill
/// order (by first cell). Made by [`FillGraph::fills`].
///
/// The order is deterministic: depth first, transitions in the order the graph stores
/// them. [`Fills::next_fill`] lends each fill without allocating; the [`Iterator`]
/// implementation copies it into a `Vec`.
#[derive(Clone, Debug)]
pub struct Fills<'a> {
    graph: &'a FillGraph,
    /// States being walked and the position of the next transition to take in each.
    stack: Vec<(StateId, u32)>,
    path: Vec<PlacementId>,
    /// The last fill's final placement is still on `path`.
    yielded: bool,
    /// The root is already filled: one empty fill is still to come.
    empty_fill: bool,
}

impl FillGraph {
    /// The fills, lazily, in a deterministic order.
    ///
    /// ```
    /// use pc_bitboard::Board32;
    /// use pc_zdd_graph::{BuildOptions, FillGraph};
    ///
    /// let field: Board32 = "######..../######....".parse()?;
    /// let graph = FillGraph::build(&field, 2, BuildOptions::new())?;
    /// for fill in graph.fills() {
    ///     let names: Vec<String> = fill.iter().map(|&id| graph.placement(id).to_string()).collect();
    ///     println!("{}", names.join(" + "));
    /// }
    /// assert_eq!(graph.fills().count() as u128, graph.count());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fills(&self) -> Fills<'_> {
        let mut stack = Vec::with_capacity(24);
        if !self.root.is_terminal() {
            stack.push((self.root, 0));
        }
        Fills {
            graph: self,
            stack,
            path: Vec::with_capacity(24),
            yielded: false,
            empty_fill: self.root == StateId::FILLED,
        }
    }
}

impl Fills<'_> {
    /// The next fill, lent until the next call; `None` when all have been given.
    pub fn next_fill(&mut self) -> Option<&[PlacementId]> {
        if self.yielded {
            self.path.pop();
            self.yielded = false;
        }
        if self.empty_fill {
            self.empty_fill = false;
            return Some(&[]);
        }
        let graph = self.graph;
        loop {
            let (state, next) = self.stack.last_mut()?;
            let transitions = graph.transitions(*state);
            let Some(&t) = transitions.get(*next as usize) else {
                // Done with this state: back to its parent.
                self.stack.pop();
                self.path.pop();
                continue;
            };
            *next += 1;
            self.path.push(t.placement());
            if t.target() == StateId::FILLED {
                self.yielded = true;
                return Some(&self.path);
            }
            self.stack.push((t.target(), 0));
        }
    }
}

impl Iterator for Fills<'_> {
    type Item = Vec<PlacementId>;

    fn next(&mut self) -> Option<Vec<PlacementId>> {
        self.next_fill().map(<[PlacementId]>::to_vec)
    }
}

impl FusedIterator for Fills<'_> {}
