//! Graphviz DOT output, to look at small graphs.

use crate::graph::{FillGraph, StateId};
use core::fmt::Write;

impl FillGraph {
    /// The graph in Graphviz DOT: one node per state, labelled with its id and its cells
    /// (rows below the clear line, top row first), one edge per transition labelled with
    /// its placement (`T-E x=3 rows 0,1,2`: piece, orientation, centre column, rows).
    ///
    /// Meant for small graphs (a few hundred states); render with
    /// `dot -Tsvg graph.dot -o graph.svg`.
    ///
    /// ```
    /// use pc_bitboard::Board32;
    /// use pc_zdd_graph::{BuildOptions, FillGraph};
    ///
    /// let field: Board32 = "######..../######....".parse()?;
    /// let dot = FillGraph::build(&field, 2, BuildOptions::new())?.to_dot();
    /// assert!(dot.starts_with("digraph fill_graph {"));
    /// assert!(dot.contains("label=\"I-N x=7 rows 0\""));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_dot(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_dot(&mut out);
        out
    }

    fn write_dot(&self, out: &mut String) -> core::fmt::Result {
        writeln!(out, "digraph fill_graph {{")?;
        writeln!(out, "  node [shape=box, fontname=\"monospace\"];")?;
        writeln!(out, "  edge [fontname=\"monospace\", fontsize=10];")?;
        for (i, state) in self.states.iter().enumerate() {
            let id = StateId(i as u32);
            if id == StateId::DEAD && self.root != StateId::DEAD {
                continue;
            }
            let name = match id {
                StateId::FILLED => "filled".to_string(),
                StateId::DEAD => "dead".to_string(),
                _ => format!("#{i}"),
            };
            let rows: String = (0..self.clear_line)
                .rev()
                .map(|y| {
                    (0..10)
                        .map(|x| {
                            if state.cell_mask() >> (8 * x + y) & 1 == 1 {
                                '#'
                            } else {
                                '.'
                            }
                        })
                        .collect::<String>()
                        + "\\l"
                })
                .collect();
            let style = if id == self.root { ", style=bold" } else { "" };
            if id.is_terminal() {
                writeln!(out, "  s{i} [label=\"{name}\", shape=doublecircle{style}];")?;
            } else {
                writeln!(out, "  s{i} [label=\"{name}\\n{rows}\"{style}];")?;
            }
        }
        for (i, state) in self.states.iter().enumerate() {
            for t in &self.transitions[state.transition_range()] {
                writeln!(
                    out,
                    "  s{i} -> s{} [label=\"{}\"];",
                    t.target().index(),
                    self.placement(t.placement())
                )?;
            }
        }
        writeln!(out, "}}")
    }
}
