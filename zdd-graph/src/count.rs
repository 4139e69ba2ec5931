//! Counting fills: in total, from every state, and per piece multiset.

use crate::graph::{FillGraph, StateId};
use crate::pieces::PieceCounts;
use ahash::AHashMap;
use std::collections::BTreeMap;

impl FillGraph {
    /// The number of fills (paths from the root to [`StateId::FILLED`]).
    ///
    /// Exact, in `u128`: the empty 8×10 field with split pieces has
    /// 8,189,171,634,721,501,016,162,387,071 fills (beyond `u64`), far below `u128::MAX`.
    /// Sums saturate rather than wrap, so an impossible overflow could never panic.
    pub fn count(&self) -> u128 {
        self.path_counts()[self.root.index()]
    }

    /// The number of fills from each state to [`StateId::FILLED`], indexed by
    /// [`StateId::index`] (1 for `FILLED`, 0 for `DEAD`).
    pub fn path_counts(&self) -> Vec<u128> {
        let mut counts = vec![0u128; self.states.len()];
        counts[StateId::FILLED.index()] = 1;
        // Children have lower ids than their parents: one pass upwards.
        for (i, state) in self.states.iter().enumerate().skip(2) {
            counts[i] = self.transitions[state.transition_range()]
                .iter()
                .fold(0u128, |acc, t| {
                    acc.saturating_add(counts[t.target().index()])
                });
        }
        counts
    }

    /// The number of fills per piece multiset (how many of each piece a fill uses), in
    /// the order of [`PieceCounts`].
    ///
    /// A forward pass from the root carries, per state, the multisets of the partial
    /// fills reaching it; a state's table is dropped once passed on.
    ///
    /// ```
    /// use pc_bitboard::Board32;
    /// use pc_zdd_graph::{BuildOptions, FillGraph, PieceCounts};
    ///
    /// let field: Board32 = "######..../######....".parse()?;
    /// let graph = FillGraph::build(&field, 2, BuildOptions::new())?;
    /// let by_pieces = graph.count_by_pieces();
    /// assert_eq!(by_pieces[&"II".parse::<PieceCounts>()?], 1);
    /// assert_eq!(by_pieces[&"OO".parse::<PieceCounts>()?], 1);
    /// assert_eq!(by_pieces[&"JJ".parse::<PieceCounts>()?], 1);
    /// assert_eq!(by_pieces[&"LL".parse::<PieceCounts>()?], 1);
    /// assert_eq!(by_pieces.values().sum::<u128>(), graph.count());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count_by_pieces(&self) -> BTreeMap<PieceCounts, u128> {
        let mut out = BTreeMap::new();
        if self.root == StateId::FILLED {
            out.insert(PieceCounts::ZERO, 1);
        }
        if self.root.is_terminal() {
            return out;
        }
        let mut tables: Vec<AHashMap<u64, u128>> = vec![AHashMap::new(); self.states.len()];
        tables[self.root.index()].insert(0, 1);
        // Parents have higher ids than their children: one pass downwards.
        for i in (2..=self.root.index()).rev() {
            let table = core::mem::take(&mut tables[i]);
            if table.is_empty() {
                continue;
            }
            for t in &self.transitions[self.states[i].transition_range()] {
                let piece = self.placements[t.placement().index()].placement().piece();
                let one = 1u64 << (8 * piece.index());
                let target = &mut tables[t.target().index()];
                target.reserve(table.len());
                for (&multiset, &n) in &table {
                    let e = target.entry(multiset + one).or_insert(0);
                    *e = e.saturating_add(n);
                }
            }
        }
        for (multiset, n) in core::mem::take(&mut tables[StateId::FILLED.index()]) {
            out.insert(PieceCounts::unpack(multiset), n);
        }
        out
    }
}
