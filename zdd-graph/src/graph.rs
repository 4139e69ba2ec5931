//! [`FillGraph`]: the states and transitions, stored as two flat arrays.

use crate::build::BuildOptions;
use crate::cells;
use crate::placements::{FillPlacement, PlacementId};
use core::ops::Range;
use pc_bitboard::Board32;

/// Identifies a state of one [`FillGraph`].
///
/// [`StateId::FILLED`] and [`StateId::DEAD`] are the two shared terminals of every graph.
/// The other ids are given in post-order while building: every transition goes from a
/// higher id to a lower one, and the root has the highest id.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StateId(pub(crate) u32);

impl StateId {
    /// The terminal "every cell filled": the end of every fill.
    pub const FILLED: StateId = StateId(0);
    /// The terminal "no fill from here". Dead branches are pruned while building, so no
    /// transition leads here; it is the root of a graph whose field has no fill.
    pub const DEAD: StateId = StateId(1);

    /// The position in [`FillGraph::states`].
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is [`StateId::FILLED`] or [`StateId::DEAD`].
    #[inline]
    pub const fn is_terminal(self) -> bool {
        self.0 < 2
    }
}

/// A state: the cells filled so far (every cell before the first empty one in the fill
/// order, column by column from the left, and some after it), plus the range of its
/// outgoing transitions.
///
/// 16 bytes. Two partial fills with the same cells (and, when a constraint is on, the
/// same remaining budget and line-clear dependencies) lead to the same state.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct State {
    cells_low: u64,
    cells_high: u16,
    len: u16,
    start: u32,
}

impl State {
    pub(crate) fn new(cells: u128, start: u32, len: u16) -> Self {
        State {
            cells_low: cells as u64,
            cells_high: (cells >> 64) as u16,
            len,
            start,
        }
    }

    /// The filled cells below the clear line, bit `8 * x + y` for cell `(x, y)`.
    /// [`StateId::FILLED`] has every cell, [`StateId::DEAD`] none.
    #[inline]
    pub const fn cell_mask(&self) -> u128 {
        self.cells_low as u128 | (self.cells_high as u128) << 64
    }

    /// The filled cells below the clear line as a board.
    pub fn cells(&self) -> Board32 {
        cells::to_board(self.cell_mask())
    }

    /// The range of this state's transitions in [`FillGraph::all_transitions`].
    #[inline]
    pub const fn transition_range(&self) -> Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }

    /// The number of transitions out of this state.
    #[inline]
    pub const fn transition_count(&self) -> usize {
        self.len as usize
    }
}

/// An edge of the graph: place one piece, covering the first empty cell, and go to
/// `target`. 8 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Transition {
    target: u32,
    placement: u16,
}

impl Transition {
    pub(crate) const fn new(placement: u16, target: u32) -> Self {
        Transition { target, placement }
    }

    /// The placement; decode it with [`FillGraph::placement`].
    #[inline]
    pub const fn placement(self) -> PlacementId {
        PlacementId(self.placement)
    }

    /// The state reached.
    #[inline]
    pub const fn target(self) -> StateId {
        StateId(self.target)
    }
}

/// The fill graph of a field: every way to fill the empty cells below the clear line
/// with tetromino placements, as a DAG from [`FillGraph::root`] to
/// [`StateId::FILLED`] whose paths are the fills.
///
/// Build it with [`FillGraph::build`]. See the crate docs for how it is built.
#[derive(Clone, Debug)]
pub struct FillGraph {
    pub(crate) field: Board32,
    pub(crate) clear_line: u32,
    pub(crate) options: BuildOptions,
    pub(crate) placements: Vec<FillPlacement>,
    pub(crate) states: Vec<State>,
    pub(crate) transitions: Vec<Transition>,
    pub(crate) root: StateId,
    pub(crate) explored: usize,
}

impl FillGraph {
    /// The field the graph was built for (rows below the clear line).
    #[inline]
    pub fn field(&self) -> &Board32 {
        &self.field
    }

    /// The clear line (number of rows to fill).
    #[inline]
    pub fn clear_line(&self) -> u32 {
        self.clear_line
    }

    /// The options the graph was built with.
    #[inline]
    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    /// The start state (the field as given): [`StateId::FILLED`] when the field has no
    /// empty cell below the clear line, [`StateId::DEAD`] when it has no fill.
    #[inline]
    pub fn root(&self) -> StateId {
        self.root
    }

    /// All states, indexed by [`StateId::index`]; the two terminals included.
    #[inline]
    pub fn states(&self) -> &[State] {
        &self.states
    }

    /// One state, or `None` for an id of another graph.
    #[inline]
    pub fn state(&self, id: StateId) -> Option<&State> {
        self.states.get(id.index())
    }

    /// Number of states, the two terminals included.
    #[inline]
    pub fn state_count(&self) -> usize {
        self.states.len()
    }

    /// Number of transitions.
    #[inline]
    pub fn transition_count(&self) -> usize {
        self.transitions.len()
    }

    /// All transitions; those of a state are [`State::transition_range`].
    #[inline]
    pub fn all_transitions(&self) -> &[Transition] {
        &self.transitions
    }

    /// The transitions out of a state (empty for the terminals and for an id of another
    /// graph).
    #[inline]
    pub fn transitions(&self, id: StateId) -> &[Transition] {
        match self.states.get(id.index()) {
            Some(s) => self
                .transitions
                .get(s.transition_range())
                .unwrap_or_default(),
            None => &[],
        }
    }

    /// Every placement that fits the field (empty cells only, split ones unless
    /// contiguous-only), indexed by [`PlacementId::index`]. Transitions use a subset.
    #[inline]
    pub fn placements(&self) -> &[FillPlacement] {
        &self.placements
    }

    /// Decodes a placement id.
    ///
    /// # Panics
    /// When `id` comes from another graph with a larger table; see
    /// [`FillGraph::get_placement`].
    #[inline]
    pub fn placement(&self, id: PlacementId) -> &FillPlacement {
        &self.placements[id.index()]
    }

    /// Decodes a placement id, or `None` when it is out of this graph's table.
    #[inline]
    pub fn get_placement(&self, id: PlacementId) -> Option<&FillPlacement> {
        self.placements.get(id.index())
    }

    /// Number of partial fills the build looked at after merging, dead ones (pruned from
    /// the graph) included; the terminals are not counted.
    #[inline]
    pub fn explored_states(&self) -> usize {
        self.explored
    }

    /// Bytes held by the three arrays (states, transitions, placements), capacity
    /// included; the struct itself and the field are not counted.
    pub fn memory_bytes(&self) -> usize {
        self.states.capacity() * size_of::<State>()
            + self.transitions.capacity() * size_of::<Transition>()
            + self.placements.capacity() * size_of::<FillPlacement>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_sizes() {
        assert_eq!(size_of::<State>(), 16);
        assert_eq!(size_of::<Transition>(), 8);
        let s = State::new(u128::MAX >> 48, 7, 3);
        assert_eq!(s.cell_mask(), u128::MAX >> 48);
        assert_eq!(s.transition_range(), 7..10);
    }
}
