//! [`Engine`]: the name of each engine, as answers report it.

/// Which engine answered a question; the values are the same whichever did, the time is
/// not. [`Solver`](crate::Solver) tries them in this order and takes the first that
/// applies ([`Solver::engine_for`](crate::Solver::engine_for) tells which).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Engine {
    /// The walk over the solver's PC field graph
    /// ([`SolverOptions::graph`](crate::SolverOptions::graph)): decisions on the graph's
    /// fields with one to four of the pieces a PC may use not known yet, five with the hold
    /// rule (a piece the bag state forces counts as known), every one of them revealed
    /// before the first of them is placed, the hold slot filled or empty. The first
    /// decisions of every PC from an empty field with four or five previews are of this
    /// kind, the first of a game included (five unknown pieces cost the most: seconds).
    /// Also, a few pieces into a PC, decisions with one to four pieces in view and more
    /// unknown (up to five) than that, the hold slot filled (the window walk).
    Graph,
    /// The known-queue search: every piece the PC can use is in view (and the hold slot
    /// filled or no hold into an empty slot is possible), so each move's chance is 0 or 1.
    KnownQueue,
    /// The layered search: the decisions the graph's walk takes, without a graph, with
    /// three or four pieces not revealed yet (not with 2-line PCs, nor under a work
    /// limit).
    Layered,
    /// The depth-first search over decisions and reveals: every other decision. With a
    /// graph, it enters only the fields the graph has below one of the graph's own.
    DepthFirst,
}

impl Engine {
    /// `"graph"`, `"known-queue"`, `"layered"` or `"depth-first"`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Graph => "graph",
            Engine::KnownQueue => "known-queue",
            Engine::Layered => "layered",
            Engine::DepthFirst => "depth-first",
        }
    }
}

impl core::fmt::Display for Engine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
