//! The PC field graph: every field on the way from the start of a perfect clear to its end,
//! with the moves between them, built once per rule set and kept on disk.
//!
//! A [`PcGraph`] holds every field that the rules' placements reach from the empty field
//! (4 rows) and from which a 4-line PC can still be reached, layer by layer (the pieces
//! placed), and for each field and piece the fields one placement leads to. Rows cleared on
//! the way are dropped from a field, so equal situations are one field however they came
//! about. Every start of a PC in a game is the empty field, so one graph per rule set
//! serves every first decision of every PC. A 2-line PC on the way is one of its fields (two
//! rows cleared, nothing left), and every field that reaches it can go on to the 4-line
//! PC, so the same graph serves [`SolverOptions::two_line`](crate::SolverOptions::two_line).
//!
//! With a graph ([`SolverOptions::graph`](crate::SolverOptions::graph)), the solver answers
//! the first decisions of a PC on its fields without move generation or dead ends; the
//! values are the same as without it (`tests/graph.rs`).
//!
//! ```no_run
//! use pc_solver::{PcGraph, Piece, Position, Rules, Solver, SolverOptions};
//! use std::sync::Arc;
//!
//! let rules = Rules::default();
//! // The cached graph of the rules, built (minutes, once) when it is not there yet.
//! let path = PcGraph::cache_path(&rules).expect("a cache folder");
//! let graph = match PcGraph::load(&path, &rules) {
//!     Ok(graph) => graph,
//!     Err(_) => {
//!         let graph = PcGraph::build(&rules)?;
//!         graph.save(&path)?;
//!         graph
//!     }
//! };
//! let options = SolverOptions { graph: Some(Arc::new(graph)), ..SolverOptions::default() };
//! let mut solver = Solver::with_options(rules, options)?;
//! // I held, J L O S T Z in view, a fresh bag after: 419/420.
//! let position = Position::new(Default::default(), Piece::J)
//!     .with_hold(Some(Piece::I))
//!     .with_preview(&[Piece::L, Piece::O, Piece::S, Piece::T, Piece::Z]);
//! assert_eq!(solver.recommend(&position)?.chance.to_string(), "419/420");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A small graph, from any field of at most four rows, builds in a moment:
//!
//! ```
//! use pc_solver::{Engine, PcField, PcGraph, Piece, Position, Rules, Solver, SolverOptions};
//! use std::ops::ControlFlow;
//! use std::sync::Arc;
//!
//! let field = "##......../##......../##......../##........";
//! let start = PcField::new(field.parse()?, 4)?;
//! let graph = PcGraph::build_from(&start, &Rules::default(), &mut |_| ControlFlow::Continue(()))?;
//! let options = SolverOptions { graph: Some(Arc::new(graph)), ..SolverOptions::default() };
//! let mut solver = Solver::with_options(Rules::default(), options)?;
//! let position = Position::new(field.parse()?, Piece::T)
//!     .with_hold(Some(Piece::O))
//!     .with_preview(&[Piece::S, Piece::Z, Piece::I, Piece::L, Piece::J])
//!     .with_bag("IOSTZ".parse()?);
//! let ranking = solver.recommend(&position)?;
//! assert_eq!(ranking.engine, Engine::Graph);
//! assert!(ranking.chance.is_one());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## The file
//!
//! A graph file starts with the magic `PCGRAPH\0`, the format version
//! ([`FORMAT_VERSION`]), the rules it was built for ([`RulesId`]: a hash of the kick
//! table's offsets and the drop mode), the start field and a table of the layers' sections;
//! then per layer its fields' keys, their numbers of moves and the moves, each placement
//! named by its piece and a byte (the field it leads to follows from the key), each section
//! checked against its own XXH3-64 hash. Nothing is compressed: a browser's download is,
//! and a load reads the moves straight into place. The same sections can be laid out by
//! piece ([`PcGraph::to_bytes_by_piece`]), which compresses far better for a download;
//! [`PcGraph::reader`] reads either layout as its bytes arrive. [`PcGraph::save`] writes it to a
//! temporary file beside the path and renames it over the path once written, so a crash
//! or two builders at once never leave half a file. [`PcGraph::load`] tells a missing,
//! truncated, damaged, other-version or other-rules file apart ([`GraphError`]) and checks
//! that every layer is well formed, so a damaged file is an error, never a wrong answer.
//! Files live in [`PcGraph::cache_dir`] (`$PC_GRAPH_DIR` overrides it), one per rule set
//! ([`PcGraph::file_name`]).

mod build;
mod by_piece;
mod children;
mod edge;
mod encoder;
mod error;
mod file;
mod four_left;
mod key;
mod layer;
mod lookup;
mod memo;
mod moves;
mod parallel;
mod pc_graph;
mod prepared;
mod radix;
mod reader;
pub(crate) mod search;
mod starts;
pub(crate) mod suffix;
mod three_left;
pub(crate) mod window;

pub use build::{BuildProgress, BuildStage};
pub use encoder::GraphEncoder;
pub use error::GraphError;
pub use file::FORMAT_VERSION;
pub use file::GRAPH_DIR_VARIABLE;
pub(crate) use memo::GraphMemo;
pub use pc_graph::PcGraph;
pub use reader::GraphReader;
