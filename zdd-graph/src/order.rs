//! A line-clear order for a fill: every piece placed after the rows it skips are full.

use crate::cells;
use crate::graph::FillGraph;
use crate::placements::PlacementId;

impl FillGraph {
    /// An order in which the pieces of `fill` can be placed so that every split piece
    /// comes after the rows it skips are full (rotation and gravity not considered), or
    /// `None` when there is none (the line-clear dependencies form a cycle), or when
    /// `fill` is not a set of disjoint placements of this graph.
    ///
    /// Greedy, which is exact here: placing a piece only ever fills more rows, so a
    /// piece that can be placed stays placeable. Among the pieces that can be placed it
    /// takes the first in `fill`.
    ///
    /// ```
    /// use pc_bitboard::Board32;
    /// use pc_zdd_graph::{BuildOptions, FillGraph};
    ///
    /// let graph = FillGraph::build(&Board32::new(), 4, BuildOptions::new())?;
    /// let fill = graph.fills().find(|f| f.iter().any(|&id| graph.placement(id).is_split())).unwrap();
    /// if let Some(order) = graph.line_clear_order(&fill) {
    ///     assert_eq!(order.len(), fill.len());
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn line_clear_order(&self, fill: &[PlacementId]) -> Option<Vec<PlacementId>> {
        let mut filled = cells::from_board(&self.field, self.clear_line);
        let mut union = 0u128;
        for &id in fill {
            let mask = self.get_placement(id)?.cell_mask();
            if union & mask != 0 || filled & mask != 0 {
                return None;
            }
            union |= mask;
        }
        let mut left: Vec<PlacementId> = fill.to_vec();
        let mut order = Vec::with_capacity(fill.len());
        while !left.is_empty() {
            let full = cells::full_rows(filled | !cells::rows_mask(self.clear_line));
            let i = left
                .iter()
                .position(|&id| self.placement(id).skipped_rows() & !full == 0)?;
            let id = left.remove(i);
            filled |= self.placement(id).cell_mask();
            order.push(id);
        }
        Some(order)
    }
}
