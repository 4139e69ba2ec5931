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
//! and a load reads the moves straight into place. [`PcGraph::save`] writes it to a
//! temporary file beside the path and renames it over the path once written, so a crash
//! or two builders at once never leave half a file. [`PcGraph::load`] tells a missing,
//! truncated, damaged, other-version or other-rules file apart ([`GraphError`]) and checks
//! that every layer is well formed, so a damaged file is an error, never a wrong answer.
//! Files live in [`PcGraph::cache_dir`] (`$PC_GRAPH_DIR` overrides it), one per rule set
//! ([`PcGraph::file_name`]).

mod build;
mod children;
mod file;
mod key;
mod lookup;
mod moves;
mod radix;
pub(crate) mod search;
mod starts;
pub(crate) mod suffix;
mod three_left;

pub use build::{BuildProgress, BuildStage};
pub use file::FORMAT_VERSION;

use crate::field::PcField;
use crate::rules::{Rules, RulesId};
use pc_srs::Piece;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// The environment variable that names the folder graphs are kept in (see
/// [`PcGraph::cache_dir`]).
pub const GRAPH_DIR_VARIABLE: &str = "PC_GRAPH_DIR";

/// The platform's folder for caches.
#[cfg(not(target_family = "wasm"))]
fn platform_cache_dir() -> Option<PathBuf> {
    dirs::cache_dir()
}

/// A browser has no folders.
#[cfg(target_family = "wasm")]
fn platform_cache_dir() -> Option<PathBuf> {
    None
}

/// What can go wrong building, saving or loading a graph.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GraphError {
    /// The build was stopped by its progress callback.
    #[error("the build was cancelled")]
    Cancelled,
    /// No perfect clear can be reached from the start field: there is no graph.
    #[error("no perfect clear can be reached from the start field")]
    NoPerfectClear,
    /// A graph starts from a field of at most four rows.
    #[error("a graph starts from a field of at most 4 rows below the clear line, not {0}")]
    StartTooHigh(u32),
    /// There is no cache folder to find a graph in ([`PcGraph::cache_dir`]): no
    /// `$PC_GRAPH_DIR` and no platform cache folder (a browser has none).
    #[error("no cache folder for PC field graphs: set PC_GRAPH_DIR")]
    NoCacheFolder,
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file does not start as a graph file does.
    #[error("not a graph file")]
    NotAGraph,
    /// The file was written in another version of the format.
    #[error("a graph file of format version {found}; this version reads {expected}")]
    Version {
        /// The file's version.
        found: u32,
        /// The version this crate reads.
        expected: u32,
    },
    /// The file was built for other rules (another kick table or drop mode).
    #[error("a graph built for other rules (id {:016x}, these rules are {:016x})", found.value(), expected.value())]
    OtherRules {
        /// The rules of the file.
        found: RulesId,
        /// The rules asked for.
        expected: RulesId,
    },
    /// The file ends before its end.
    #[error("the graph file is truncated")]
    Truncated,
    /// The checksum does not match: the file was damaged.
    #[error("the graph file is damaged (checksum mismatch)")]
    Checksum,
    /// A layer has more fields, or a field more edges, than the format holds (2^24 and
    /// 255).
    #[error("the graph is too large for its format")]
    TooLarge,
    /// The file passed its checksum but does not describe a graph.
    #[error("the graph file is malformed: {0}")]
    Malformed(&'static str),
    /// The file at `path` could not be read as a graph: `error` says why (one of the
    /// errors of the bytes of a graph, such as [`GraphError::Truncated`] or
    /// [`GraphError::Checksum`]). [`PcGraph::load`] names its file this way;
    /// [`PcGraph::from_bytes`] has no file to name and answers `error` itself. Use
    /// [`GraphError::reason`] to match on what went wrong wherever the bytes came from.
    #[error("{}: {error}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it (never an `Io` or a `File`).
        error: Box<GraphError>,
    },
}

impl GraphError {
    /// What went wrong, without the file it happened in: the error a
    /// [`GraphError::File`] wraps, else this error.
    ///
    /// ```
    /// use pc_solver::{GraphError, PcGraph, Rules};
    ///
    /// let path = std::env::temp_dir().join(format!("not-a-graph-{}.bin", std::process::id()));
    /// std::fs::write(&path, b"hello, world")?;
    /// let error = PcGraph::load(&path, &Rules::default()).unwrap_err();
    /// assert!(matches!(error.reason(), GraphError::NotAGraph));
    /// assert_eq!(error.to_string(), format!("{}: not a graph file", path.display()));
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reason(&self) -> &GraphError {
        match self {
            GraphError::File { error, .. } => error,
            other => other,
        }
    }

    /// This error, met reading the file at `path`: wrapped in [`GraphError::File`] unless
    /// it names its file already.
    pub(crate) fn in_file(self, path: &std::path::Path) -> GraphError {
        match self {
            GraphError::Io { .. } | GraphError::File { .. } => self,
            error => GraphError::File {
                path: path.to_path_buf(),
                error: Box::new(error),
            },
        }
    }
}

/// An edge: the piece in the high byte, the placement's id among the piece's
/// ([`moves::Moves`]) in the low one.
#[inline]
pub(crate) fn edge(piece: Piece, id: u8) -> u16 {
    (piece.index() as u16) << 8 | u16::from(id)
}

/// The piece of an edge.
#[inline]
pub(crate) fn edge_piece(edge: u16) -> usize {
    usize::from(edge >> 8)
}

/// The placement of an edge; `None` for an id past its piece's table (a forged file).
#[inline]
pub(crate) fn edge_move(edge: u16) -> Option<&'static moves::Move> {
    moves::moves()
        .of(*Piece::ALL.get(edge_piece(edge))?)
        .get(usize::from(edge & 0xff))
}

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

/// The most fields a layer may have (a limit of the format).
pub(crate) const MAX_FIELDS: usize = 1 << 28;

/// The most edges one field may have (a limit of the format).
pub(crate) const MAX_EDGES: usize = 255;

/// How many keys one sample of a layer's index covers (see [`Layer::find`]).
const SAMPLE: usize = 64;

/// The fields with a given number of pieces placed, and their edges into the next layer.
///
/// A field is named by its key ([`key::pack`]) and by its index in its layer, the order
/// of the keys. An edge names a placement: the child's key follows from the field's key
/// ([`moves::child`]), and its index from the next layer's keys ([`Layer::find`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Layer {
    /// The fields' keys ([`key::pack`]), ascending, by index (shared with a thread that
    /// makes the table, [`Layer::table_later`]).
    pub(crate) keys: Arc<Vec<u64>>,
    /// Where each field's edges are in `edges`.
    pub(crate) starts: starts::Starts,
    /// Every field's edges ([`edge`]), by piece, then id.
    pub(crate) edges: Vec<u16>,
    /// Every [`SAMPLE`]-th key: a small index over `keys` that stays in cache, for
    /// [`Layer::find`] without the table.
    samples: Vec<u64>,
    /// The keys' indices by hash, for [`Layer::find`], once made; never for a layer too
    /// large for one.
    table: Arc<OnceLock<lookup::KeyTable>>,
    /// For a layer whose next layer is small (at most [`SMALL_NEXT`] fields): each edge's
    /// child index, found once (the suffix tables read these edges millions of times).
    /// Empty otherwise.
    children: Vec<u32>,
    /// For the same layers: where each field's moves start in `links` (one more entry than
    /// fields), and each move that leads somewhere as a [`link`], so that a field's moves
    /// are two reads ([`PcGraph::for_each_child`]).
    link_starts: Vec<u32>,
    links: Vec<u32>,
}

/// Where a [`link`]'s piece is.
const LINK_SHIFT: u32 = 29;

/// A link's child bits; all set: no child.
const LINK_CHILD: u32 = (1 << LINK_SHIFT) - 1;

/// A move as one word: its piece, and the index of the field it leads to in the next
/// layer (below [`MAX_FIELDS`]), all ones for [`NO_CHILD`].
#[inline]
pub(crate) fn link(piece: u8, child: u32) -> u32 {
    u32::from(piece) << LINK_SHIFT | child.min(LINK_CHILD)
}

/// A [`link`]'s piece and child, `None` when it has no child.
#[inline]
pub(crate) fn unlink(link: u32) -> Option<(u8, u32)> {
    let child = link & LINK_CHILD;
    (child != LINK_CHILD).then_some(((link >> LINK_SHIFT) as u8, child))
}

/// The threads a build or a load may use: the machine's (one in a browser).
pub(crate) fn threads() -> usize {
    if cfg!(target_family = "wasm") {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// How many runs [`by_runs`] cuts a layer of `fields` fields into: one per thread
/// ([`threads`]), one for a small layer (a thread would cost more than it saves).
pub(crate) fn runs_for(fields: usize) -> usize {
    const SMALLEST_RUN: usize = 1 << 14;
    threads().min(fields / SMALLEST_RUN).max(1)
}

/// `work` over `0..fields` cut into `runs` runs of consecutive fields, on the machine's
/// threads ([`in_parallel`]), the results in the order of the runs.
pub(crate) fn by_runs<T: Send>(
    fields: usize,
    runs: usize,
    work: impl Fn(std::ops::Range<u32>) -> T + Sync,
) -> Vec<T> {
    let runs = runs.max(1);
    let bounds: Vec<u32> = (0..=runs).map(|r| (fields * r / runs) as u32).collect();
    let order: Vec<usize> = (0..runs).collect();
    match in_parallel(&order, |r| {
        Ok::<T, std::convert::Infallible>(work(bounds[r]..bounds[r + 1]))
    }) {
        Ok(results) => results,
        Err(never) => match never {},
    }
}

/// `work(k)` for each `k` of `order`, on the machine's threads (a thread takes the next
/// `k` when it is done), the results in order of `k`; the first error of any.
pub(crate) fn in_parallel<T: Send, E: Send>(
    order: &[usize],
    work: impl Fn(usize) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E> {
    let threads = threads().min(order.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let run = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&k) = order.get(i) else {
                return done;
            };
            done.push((k, work(k)));
        }
    };
    let mut results: Vec<(usize, Result<T, E>)> = if threads <= 1 {
        run()
    } else {
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .filter_map(|_| std::thread::Builder::new().spawn_scoped(scope, run).ok())
                .collect();
            let mut all = run();
            for helper in helpers {
                all.extend(
                    helper
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                );
            }
            all
        })
    };
    results.sort_by_key(|(k, _)| *k);
    results.into_iter().map(|(_, r)| r).collect()
}

/// The most fields a next layer may have for a layer to keep its edges' child indices.
const SMALL_NEXT: usize = 1 << 16;

use children::NO_CHILD;

/// Two layers are equal when their fields and edges are: the rest is found from them.
impl PartialEq for Layer {
    fn eq(&self, other: &Self) -> bool {
        self.keys == other.keys && self.starts == other.starts && self.edges == other.edges
    }
}

impl Eq for Layer {}

impl Layer {
    /// A layer of these fields, their numbers of edges and the edges (checked by the
    /// caller: keys ascending, as many counts, counts adding up to the edges).
    pub(crate) fn new(keys: Vec<u64>, counts: Vec<u8>, edges: Vec<u16>) -> Layer {
        let mut layer = Layer::without_table(keys, counts, edges);
        layer.index();
        layer
    }

    /// [`Layer::new`] but for the table, which [`Layer::table_later`] makes.
    pub(crate) fn without_table(keys: Vec<u64>, counts: Vec<u8>, edges: Vec<u16>) -> Layer {
        let samples = keys.iter().step_by(SAMPLE).copied().collect();
        Layer {
            keys: Arc::new(keys),
            starts: starts::Starts::from_counts(counts),
            edges,
            samples,
            table: Arc::default(),
            children: Vec::new(),
            link_starts: Vec::new(),
            links: Vec::new(),
        }
    }

    /// Makes the table and the samples of [`Layer::find`] once the keys are all in.
    pub(crate) fn index(&mut self) {
        self.samples = self.keys.iter().step_by(SAMPLE).copied().collect();
        self.table = Arc::default();
        self.table_later()();
    }

    /// The work of making the layer's table, to be done on another thread: until it is
    /// done, [`Layer::find`] searches the keys (the same answers, found more slowly).
    pub(crate) fn table_later(&self) -> impl FnOnce() + Send + 'static {
        let (keys, cell) = (self.keys.clone(), self.table.clone());
        move || {
            if let Some(table) = lookup::KeyTable::new(&keys) {
                let _ = cell.set(table);
            }
        }
    }

    /// Whether the layer's table is made.
    pub(crate) fn has_table(&self) -> bool {
        self.table.get().is_some()
    }

    /// The edges of field `index`.
    #[inline]
    pub(crate) fn edges(&self, index: u32) -> &[u16] {
        &self.edges[self.starts.range(index as usize)]
    }

    /// The child indices of the edges of field `index`, when the layer keeps them
    /// ([`Layer::children`]).
    #[inline]
    pub(crate) fn children_of(&self, index: u32) -> Option<&[u32]> {
        if self.children.is_empty() {
            return None;
        }
        Some(&self.children[self.starts.range(index as usize)])
    }

    /// The index of the field with this key, if the layer has it: by the hash table once it
    /// is made, else by a binary search of the samples (in cache), then of one block of
    /// keys.
    #[inline]
    pub(crate) fn find(&self, key: u64) -> Option<u32> {
        if let Some(table) = self.table.get() {
            return table.find(&self.keys, key);
        }
        let block = self.samples.partition_point(|&s| s <= key).checked_sub(1)?;
        let start = block * SAMPLE;
        let end = (start + SAMPLE).min(self.keys.len());
        let at = self.keys[start..end].binary_search(&key).ok()?;
        Some((start + at) as u32)
    }

    /// Where `key` is among the keys from index `from` on (all keys before `from` being
    /// smaller): `Ok` with its index, or `Err` with where it would be. A search that goes
    /// through keys in ascending order this way reads the keys in order, each cache line
    /// about once, where [`Layer::find`] reads two lines at random per key.
    #[inline]
    pub(crate) fn find_from(&self, key: u64, from: usize) -> Result<usize, usize> {
        // A few keys one by one (the next key is most often near), then galloping: double
        // the step until past the key, then a binary search.
        let keys = &self.keys;
        let near = keys.len().min(from + 32);
        let mut low = from;
        while low < near && keys[low] < key {
            low += 1;
        }
        if low < near {
            return if keys[low] == key { Ok(low) } else { Err(low) };
        }
        let mut step = 1;
        while low + step < keys.len() && keys[low + step] < key {
            low += step;
            step *= 2;
        }
        let high = (low + step + 1).min(keys.len());
        match keys[low.min(high)..high].binary_search(&key) {
            Ok(i) => Ok(low + i),
            Err(i) => Err(low + i),
        }
    }

    /// [`Layer::find`] of several keys, into `out` ([`NO_CHILD`] for a key that is not
    /// there), their cache misses overlapping.
    pub(crate) fn find_many(&self, wanted: &[u64], out: &mut [u32]) {
        match self.table.get() {
            Some(table) => table.find_many(&self.keys, wanted, out),
            None => {
                for (&key, out) in wanted.iter().zip(out) {
                    *out = self.find(key).unwrap_or(NO_CHILD);
                }
            }
        }
    }

    /// The number of fields.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The number of edges.
    pub(crate) fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Adds a field (keys must come in ascending order) with its edges; the index of
    /// [`Layer::find`] is made by [`Layer::index`] once every field is in.
    pub(crate) fn push(&mut self, key: u64, edges: &[u16]) {
        debug_assert!(edges.len() <= MAX_EDGES);
        Arc::make_mut(&mut self.keys).push(key);
        self.edges.extend_from_slice(edges);
        self.starts.push(edges.len() as u8);
    }
}

/// The graph of perfect clears from one start field under one rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PcGraph {
    pub(crate) rules: RulesId,
    /// The start field's key.
    pub(crate) start: u64,
    /// Layer `k`: the fields with `k` pieces placed since the start.
    pub(crate) layers: Vec<Layer>,
    /// The fields three pieces from a PC in classes, once the graph is indexed
    /// ([`PcGraph::index_small_layers`]).
    pub(crate) three_left: Option<three_left::ThreeLeft>,
}

impl PcGraph {
    /// Builds the graph of the 4-line perfect clears from the empty field under `rules`
    /// (minutes: see the crate README for the time and size).
    pub fn build(rules: &Rules) -> Result<PcGraph, GraphError> {
        PcGraph::build_with(rules, &mut |_| ControlFlow::Continue(()))
    }

    /// As [`PcGraph::build`], telling `progress` how far it is; the callback may stop the
    /// build by returning [`ControlFlow::Break`] ([`GraphError::Cancelled`]).
    pub fn build_with(
        rules: &Rules,
        progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
    ) -> Result<PcGraph, GraphError> {
        let empty = PcField::new_unchecked(Default::default(), key::MAX_ROWS);
        build::build(rules, empty, progress)
    }

    /// The graph of the perfect clears of a field of at most four rows below its clear
    /// line, under `rules`: a small graph, for tests and for positions whose field the
    /// graph of the empty field does not reach.
    ///
    /// ```
    /// use pc_solver::{PcField, PcGraph, Rules};
    ///
    /// // The 2-line PCs from the empty field (five pieces).
    /// let field = PcField::new(Default::default(), 2)?;
    /// let graph = PcGraph::build_from(&field, &Rules::default(), &mut |_| std::ops::ControlFlow::Continue(()))?;
    /// assert_eq!(graph.fields_per_layer().len(), 6);
    /// assert_eq!(graph.fields_per_layer()[5], 1); // the cleared field
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build_from(
        start: &PcField,
        rules: &Rules,
        progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
    ) -> Result<PcGraph, GraphError> {
        if start.clear_line() > key::MAX_ROWS {
            return Err(GraphError::StartTooHigh(start.clear_line()));
        }
        build::build(rules, *start, progress)
    }

    /// The name of the file of the graph of `rules` (4-line PCs from the empty field):
    /// the format version and the rules' id, so that other rules or versions never meet
    /// each other's files.
    pub fn file_name(rules: &Rules) -> String {
        format!(
            "pc-graph-v{FORMAT_VERSION}-{:016x}.bin",
            RulesId::of(rules).value()
        )
    }

    /// The folder graphs are kept in: `$PC_GRAPH_DIR` when set, else `pc` in the
    /// platform's cache folder (`$XDG_CACHE_HOME` or `~/.cache` on Linux,
    /// `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows); `None` when there is
    /// none.
    pub fn cache_dir() -> Option<PathBuf> {
        if let Some(dir) = std::env::var_os(GRAPH_DIR_VARIABLE).filter(|d| !d.is_empty()) {
            return Some(PathBuf::from(dir));
        }
        platform_cache_dir().map(|dir| dir.join("pc"))
    }

    /// Where the graph of `rules` is kept: [`PcGraph::file_name`] in
    /// [`PcGraph::cache_dir`].
    pub fn cache_path(rules: &Rules) -> Option<PathBuf> {
        PcGraph::cache_dir().map(|dir| dir.join(PcGraph::file_name(rules)))
    }

    /// The number of fields.
    pub fn fields(&self) -> u64 {
        self.layers.iter().map(|l| l.len() as u64).sum()
    }

    /// The number of edges (a field, a piece and a field one placement of it makes).
    pub fn transitions(&self) -> u64 {
        self.layers.iter().map(|l| l.edge_count() as u64).sum()
    }

    /// The fields of each layer (pieces placed since the start).
    pub fn fields_per_layer(&self) -> Vec<u64> {
        self.layers.iter().map(|l| l.len() as u64).collect()
    }

    /// The field the graph starts from (the empty field of four rows for
    /// [`PcGraph::build`]).
    pub fn start(&self) -> PcField {
        key::unpack(self.start)
    }

    /// The rules the graph was built for.
    pub fn rules_id(&self) -> RulesId {
        self.rules
    }

    /// Writes the graph to `path`, whole or not at all (a temporary file beside it is
    /// renamed over it once complete).
    pub fn save(&self, path: &std::path::Path) -> Result<(), GraphError> {
        file::save(self, path)
    }

    /// Reads the graph of `rules` from the cache folder ([`PcGraph::cache_path`]), where
    /// the `graph` example's `build` keeps it. Errors as [`PcGraph::load`] does (a
    /// missing file is [`GraphError::Io`] naming it), or with
    /// [`GraphError::NoCacheFolder`].
    pub fn load_cached(rules: &Rules) -> Result<PcGraph, GraphError> {
        let path = PcGraph::cache_path(rules).ok_or(GraphError::NoCacheFolder)?;
        PcGraph::load(&path, rules)
    }

    /// Reads a graph written by [`PcGraph::save`] for `rules`. A missing, truncated,
    /// damaged, other-version or other-rules file is an error that names the file: an
    /// [`GraphError::Io`] when the system could not read it, else a [`GraphError::File`]
    /// whose [`GraphError::reason`] says what is wrong with its bytes.
    ///
    /// The graph answers at once. On a machine of more than one thread, the lookup tables
    /// of its largest layers are made after this returns, on a thread of their own; until
    /// they are ([`PcGraph::is_indexed`]), a walk that looks fields up one at a time (the
    /// best move's first moves) finds them by binary search, more slowly, with the same
    /// answers. A full ranking does not use these tables. Before it returns, the load also
    /// sorts the fields three pieces from a PC into classes that finish alike, which a
    /// full ranking reads instead of those fields' moves.
    pub fn load(path: &std::path::Path, rules: &Rules) -> Result<PcGraph, GraphError> {
        file::load(path, RulesId::of(rules))
    }

    /// Whether every layer's lookup table is made (see [`PcGraph::load`]); always true of a
    /// graph built in this process.
    pub fn is_indexed(&self) -> bool {
        self.layers
            .iter()
            .all(|l| l.has_table() || !lookup::KeyTable::fits(l.len()))
    }

    /// The graph in the bytes of a graph file (as [`PcGraph::to_bytes`] makes them and
    /// [`PcGraph::save`] writes them), for `rules`: for a graph that does not come from
    /// a file, such as one a browser downloaded. The same checks and tables as
    /// [`PcGraph::load`].
    pub fn from_bytes(bytes: &[u8], rules: &Rules) -> Result<PcGraph, GraphError> {
        file::decode(bytes, RulesId::of(rules))
    }

    /// The bytes of the graph's file (see [`PcGraph::save`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        file::encode(self)
    }

    /// The 2-line PC on the way to a 4-line one (two rows cleared, nothing left), when
    /// the graph has it.
    pub(crate) fn two_line_field(&self) -> Option<(usize, u32)> {
        self.find(&PcField::new_unchecked(Default::default(), 2))
    }

    /// Field `index` of layer `layer`.
    pub(crate) fn field(&self, layer: usize, index: u32) -> PcField {
        key::unpack(self.layers[layer].keys[index as usize])
    }

    /// The index in layer `layer + 1` of the field that move `j` of field `index` of
    /// layer `layer` leads to; `None` when the graph does not have it (never, for a graph
    /// built by this crate).
    #[inline]
    pub(crate) fn child(&self, layer: usize, index: u32, j: usize) -> Option<u32> {
        let this = &self.layers[layer];
        let at = this.starts.range(index as usize).start + j;
        if !this.children.is_empty() {
            return Some(this.children[at]).filter(|&c| c != NO_CHILD);
        }
        let key = moves::child(this.keys[index as usize], edge_move(this.edges[at])?)?;
        self.layers.get(layer + 1)?.find(key)
    }

    /// Calls `f` with each move of field `index` of layer `layer` and the index in layer
    /// `layer + 1` of the field it leads to, in the order of the moves; a move whose
    /// field the graph does not have (never, for a graph built by this crate) is passed
    /// over. The same as [`PcGraph::child`] for each move, with the field's edges found once;
    /// `f` gets the move's piece (its index) and the child.
    #[inline]
    pub(crate) fn for_each_child(&self, layer: usize, index: u32, mut f: impl FnMut(usize, u32)) {
        let this = &self.layers[layer];
        if !this.link_starts.is_empty() {
            let (start, end) = (
                this.link_starts[index as usize] as usize,
                this.link_starts[index as usize + 1] as usize,
            );
            for (piece, child) in this.links[start..end].iter().filter_map(|&l| unlink(l)) {
                f(usize::from(piece), child);
            }
            return;
        }
        let range = this.starts.range(index as usize);
        let edges = &this.edges[range.clone()];
        let (key, next) = (this.keys[index as usize], self.layers.get(layer + 1));
        for &e in edges {
            let child = edge_move(e)
                .and_then(|m| moves::child(key, m))
                .and_then(|c| next?.find(c));
            if let Some(child) = child {
                f(edge_piece(e), child);
            }
        }
    }

    /// Finds the child indices of the layers whose next layer is small (see
    /// [`Layer::children`]), and the classes of the fields three pieces from a PC
    /// ([`three_left`]), once a graph is built or read.
    pub(crate) fn index_small_layers(&mut self) {
        self.index_small_layers_in(None);
    }

    /// [`PcGraph::index_small_layers`], each layer in `runs` runs ([`by_runs`]) if given,
    /// else in as many as [`runs_for`] says.
    fn index_small_layers_in(&mut self, runs: Option<usize>) {
        for k in 0..self.layers.len().saturating_sub(1) {
            if self.layers[k + 1].len() > SMALL_NEXT {
                continue;
            }
            let (this, rest) = self.layers.split_at_mut(k + 1);
            let (layer, next) = (&mut this[k], &rest[0]);
            // Each run of fields: its edges' children, and its moves as links with where
            // each field's start (from the run's first).
            let runs = by_runs(layer.len(), runs.unwrap_or(runs_for(layer.len())), |run| {
                let mut children = Vec::new();
                let mut link_starts = Vec::with_capacity(run.len());
                let mut links = Vec::new();
                for index in run {
                    link_starts.push(links.len() as u32);
                    let key = layer.keys[index as usize];
                    for &e in layer.edges(index) {
                        let child = edge_move(e)
                            .and_then(|m| moves::child(key, m))
                            .and_then(|c| next.find(c));
                        children.push(child.unwrap_or(NO_CHILD));
                        if let Some(child) = child {
                            links.push(link(edge_piece(e) as u8, child));
                        }
                    }
                }
                (children, link_starts, links)
            });
            let mut children = Vec::with_capacity(layer.edges.len());
            let mut link_starts = Vec::with_capacity(layer.len() + 1);
            let mut links = Vec::new();
            for (run_children, run_starts, run_links) in runs {
                let before = links.len() as u32;
                children.extend(run_children);
                link_starts.extend(run_starts.iter().map(|&s| before + s));
                links.extend(run_links);
            }
            link_starts.push(links.len() as u32);
            layer.children = children;
            layer.link_starts = link_starts;
            layer.links = links;
        }
        let three_runs = self
            .layers
            .len()
            .checked_sub(4)
            .map_or(1, |at| runs_for(self.layers[at].len()));
        self.three_left = three_left::ThreeLeft::in_runs(self, runs.unwrap_or(three_runs));
    }

    /// Where a field is: its layer and its index there, when the graph has it.
    pub(crate) fn find(&self, field: &PcField) -> Option<(usize, u32)> {
        if field.clear_line() > key::MAX_ROWS {
            return None;
        }
        let key = key::pack(field);
        let layer = key::pieces_needed(self.start).checked_sub(field.pieces_needed())? as usize;
        let index = self.layers.get(layer)?.find(key)?;
        Some((layer, index))
    }
}

impl PcGraph {
    /// Per layer: its fields, its distinct (field, piece, child) edges, and an XXH3-64 of
    /// them (field key, piece, child key) in order of field, piece and child key: what the
    /// graph says, whatever the format (for checking one build against another; two
    /// placements of a piece that leave the same field are one such edge).
    #[cfg(test)]
    pub(crate) fn digest(&self) -> Vec<(usize, usize, u64)> {
        let mut out = Vec::new();
        for (k, layer) in self.layers.iter().enumerate() {
            let mut bytes: Vec<u8> = Vec::new();
            let mut edges = 0;
            for i in 0..layer.len() as u32 {
                let key = layer.keys[i as usize];
                let mut by_piece: [Vec<u64>; 7] = Default::default();
                for (j, &e) in layer.edges(i).iter().enumerate() {
                    let child = self.child(k, i, j).expect("a child in the next layer");
                    by_piece[edge_piece(e)].push(self.layers[k + 1].keys[child as usize]);
                }
                for (p, list) in by_piece.iter_mut().enumerate() {
                    list.sort_unstable();
                    list.dedup();
                    edges += list.len();
                    for &c in list.iter() {
                        bytes.extend_from_slice(&key.to_le_bytes());
                        bytes.push(p as u8);
                        bytes.extend_from_slice(&c.to_le_bytes());
                    }
                }
                if layer.edges(i).is_empty() {
                    bytes.extend_from_slice(&key.to_le_bytes());
                }
            }
            out.push((layer.len(), edges, xxhash_rust::xxh3::xxh3_64(&bytes)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::{Decision, Queue};
    use crate::engine::known::{KnownMemo, KnownSolver};
    use crate::engine::layered::{self, OrderMemo};
    use crate::engine::walk::{Ask, StateValues};
    use crate::field::Goal;
    use pc_bag::BagState;

    fn small_graph(rules: &Rules, text: &str, height: u32) -> PcGraph {
        let field = PcField::new(text.parse().unwrap(), height).unwrap();
        PcGraph::build_from(&field, rules, &mut |_| ControlFlow::Continue(())).unwrap()
    }

    /// `n` pieces of a 7-bag stream after skipping `skip`, drawn by a seeded generator,
    /// and the bag state after them.
    fn seeded_pieces(seed: u64, skip: u64, n: usize) -> (Vec<Piece>, BagState) {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut bag = BagState::FRESH;
        let mut out = Vec::new();
        for i in 0..skip as usize + n {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let drawable: Vec<Piece> = bag.drawable().iter().collect();
            let piece = drawable[(state % drawable.len() as u64) as usize];
            bag = bag.draw(piece).expect("a drawable piece");
            if i >= skip as usize {
                out.push(piece);
            }
        }
        (out, bag)
    }

    /// The values of the states with a chance, by field key and hold.
    fn won(values: &StateValues) -> std::collections::BTreeMap<(u128, u8), u64> {
        values
            .values
            .iter()
            .filter(|&(_, &v)| v > 0)
            .map(|(&state, &v)| (state, v))
            .collect()
    }

    /// Every move's value by the graph and by the layered search, on seeded positions
    /// reached from the graph's start field; returns how many moves were compared.
    fn compare_with_layered(
        graph: &PcGraph,
        rules: &Rules,
        in_view: usize,
        seeds: std::ops::Range<u64>,
    ) -> usize {
        let mut compared = 0;
        let start = key::unpack(graph.start);
        for seed in seeds {
            // A seeded number of pieces skipped, so that bag states vary.
            let (pieces, bag) = seeded_pieces(seed, seed % 7, in_view + 1);
            let (hold, queue) = if rules.hold {
                (Some(pieces[0]), &pieces[1..])
            } else {
                (None, &pieces[..in_view])
            };
            let decision = Decision {
                field: start,
                hold,
                queue: Queue::new(queue),
                bag: bag.remaining(),
                hold_rule: rules.hold,
                hold_used: false,
            };
            let mut memo = GraphMemo::default();
            let by_graph = search::values(graph, &mut memo, &decision, false, Ask::Every)
                .expect("the walk applies");
            // Stopping at the first certain move (depth first for the first moves, then
            // layer by layer) gives the same values, and at most one certain move.
            let stopping = search::values(graph, &mut memo, &decision, false, Ask::UntilCertain)
                .expect("the walk applies");
            let certain = stopping.values.values().filter(|&&v| v == by_graph.count);
            assert!(certain.count() <= 1);
            if !stopping.values.values().any(|&v| v == by_graph.count) {
                assert_eq!(stopping.values.len(), by_graph.values.len());
            }
            for (state, value) in &stopping.values {
                assert_eq!(by_graph.values.get(state), Some(value), "seed {seed}");
            }
            let mut known_memo = KnownMemo::default();
            let goal = Goal {
                lower_clears: false,
            };
            let known = KnownSolver::new(rules.generator(), rules.hold, goal, &mut known_memo);
            let mut orders = OrderMemo::default();
            let by_layers = layered::values(&known, &mut orders, &decision, Ask::Every, 1)
                .expect("the layered search applies");
            assert_eq!(by_graph.count, by_layers.count);
            let graph_values = won(&by_graph);
            assert_eq!(graph_values, won(&by_layers), "seed {seed}: {pieces:?}");
            compared += graph_values.len();
        }
        compared
    }

    proptest::proptest! {
        /// Finding a key, one or several at a time, by the table or by the samples (before
        /// the table is made), or searching on in ascending order, is a binary search of
        /// the keys.
        #[test]
        fn finding_a_key_is_a_binary_search(
            keys in proptest::collection::btree_set(0u64..1000, 0..300),
            wanted in proptest::collection::vec(0u64..1000, 0..80),
        ) {
            let mut layer = Layer::new(keys.iter().copied().collect(), vec![0; keys.len()], Vec::new());
            let expected: Vec<u32> = wanted
                .iter()
                .map(|key| layer.keys.binary_search(key).map_or(NO_CHILD, |i| i as u32))
                .collect();
            for by_samples in [false, true] {
                if by_samples {
                    layer.table = Default::default();
                }
                let one: Vec<u32> = wanted.iter().map(|&key| layer.find(key).unwrap_or(NO_CHILD)).collect();
                proptest::prop_assert_eq!(&one, &expected);
                let mut many = vec![0; wanted.len()];
                layer.find_many(&wanted, &mut many);
                proptest::prop_assert_eq!(&many, &expected);
            }
            // In ascending order, each search going on from where the last one ended.
            let mut ascending = wanted.clone();
            ascending.sort_unstable();
            let mut from = 0;
            for key in ascending {
                let found = layer.find_from(key, from);
                proptest::prop_assert_eq!(found, layer.keys.binary_search(&key));
                from = found.unwrap_or_else(|at| at);
            }
        }
    }

    proptest::proptest! {
        /// Searching on through many keys for few (gallops past the keys between).
        #[test]
        fn searching_on_through_many_keys_is_a_binary_search(
            keys in proptest::collection::btree_set(0u64..1_000_000, 0..5000),
            wanted in proptest::collection::btree_set(0u64..1_000_000, 0..20),
        ) {
            let layer = Layer::new(keys.iter().copied().collect(), vec![0; keys.len()], Vec::new());
            let mut from = 0;
            for key in wanted {
                let found = layer.find_from(key, from);
                proptest::prop_assert_eq!(found, layer.keys.binary_search(&key));
                from = found.unwrap_or_else(|at| at);
            }
        }
    }

    #[test]
    fn indexing_in_runs_is_indexing_at_once() {
        let rules = Rules::default();
        let graph = small_graph(&rules, "##......../##......../##......../##........", 4);
        for runs in [2, 3, 7] {
            let mut in_runs = graph.clone();
            in_runs.index_small_layers_in(Some(runs));
            let mut at_once = graph.clone();
            at_once.index_small_layers_in(Some(1));
            assert_eq!(in_runs.three_left, at_once.three_left);
            for (a, b) in in_runs.layers.iter().zip(&at_once.layers) {
                assert_eq!(
                    (&a.children, &a.link_starts, &a.links),
                    (&b.children, &b.link_starts, &b.links)
                );
            }
            assert!(at_once.layers.iter().any(|l| !l.links.is_empty()));
        }
    }

    #[test]
    fn runs_cover_the_fields_in_order() {
        for (fields, runs) in [(0, 1), (1, 3), (10, 3), (100, 7), (5, 8)] {
            let covered: Vec<u32> = by_runs(fields, runs, |run| run.collect::<Vec<u32>>()).concat();
            assert_eq!(covered, (0..fields as u32).collect::<Vec<_>>());
        }
    }

    #[test]
    fn the_walk_equals_the_layered_search() {
        let rules = Rules::default();
        let graph = small_graph(&rules, "##......../##......../##......../##........", 4);
        let mut compared = 0;
        for in_view in [4, 5] {
            compared += compare_with_layered(&graph, &rules, in_view, 0..20);
        }
        assert!(compared > 100, "{compared}");
    }

    /// A layer's fields, edges and digest.
    type LayerDigest = (usize, usize, u64);

    /// Per layer: fields, edges and [`PcGraph::digest`] of the graphs of format 1 (which
    /// named children by index), measured on them: a graph of this format built for the
    /// same rules must say the same, field for field and move for move.
    const V1_DIGESTS: [(&str, [LayerDigest; 11]); 2] = [
        (
            "srs",
            [
                (1, 162, 0x32726ef5681a3c79),
                (162, 19162, 0x2e67d86c75de0d32),
                (10181, 745904, 0x0c5bbd623f84349c),
                (269260, 9433796, 0x582dcec81c854f0b),
                (2438591, 35620262, 0xebf09069e9695f91),
                (6333803, 40788659, 0xddab9cb40f05b0e6),
                (4423633, 14077778, 0x59e3d6b835aad27d),
                (718155, 1292114, 0xb6c1279e2c668179),
                (19129, 24149, 0xe4c052247b163304),
                (100, 100, 0x6729a46fa8ed6e5e),
                (1, 0, 0xc77b3abb6f87acd9),
            ],
        ),
        (
            "srs+",
            [
                (1, 162, 0x32726ef5681a3c79),
                (162, 19182, 0x7f4f227f11a87517),
                (10191, 756076, 0x7c6d1c3194882c6f),
                (273489, 9850986, 0x20a6068772e55c60),
                (2557506, 38271746, 0x15bfcd32c6c3cfe4),
                (6830860, 44397828, 0x922d9e5a53d16735),
                (4796285, 15198475, 0x366bced9d3366306),
                (754994, 1362394, 0x62a3040072d40a4c),
                (19412, 24685, 0x197c1d21e839d0e2),
                (100, 100, 0x6729a46fa8ed6e5e),
                (1, 0, 0xc77b3abb6f87acd9),
            ],
        ),
    ];

    /// The full graphs of SRS and SRS+ (read from the cache folder, `PC_GRAPH_DIR`, or
    /// built there) hold the same fields and moves as the graphs of format 1 did.
    ///
    /// `PC_GRAPH_DIR=DIR cargo test -p pc-solver --release --lib -- --ignored full_graphs`
    #[test]
    #[ignore]
    fn the_full_graphs_are_those_of_format_1() {
        for (kicks, digests) in V1_DIGESTS {
            let rules = Rules {
                kicks: pc_srs::KickTable::by_name(kicks).unwrap(),
                ..Rules::default()
            };
            let path = PcGraph::cache_path(&rules).expect("a cache folder (set PC_GRAPH_DIR)");
            let graph = PcGraph::load(&path, &rules).unwrap_or_else(|_| {
                let graph = PcGraph::build(&rules).unwrap();
                graph.save(&path).unwrap();
                graph
            });
            assert_eq!(graph.digest(), digests, "{kicks}");
        }
    }
}
