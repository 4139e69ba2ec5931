//! Building the graph: every field the rules' placements reach from the start field, then
//! only those from which a perfect clear can still be reached, with their moves.
//!
//! 1. Forward, layer by layer: the fields one placement of any piece makes from the fields
//!    of the layer before. A field whose empty cells no pieces can even cover is dropped
//!    at once ([`pc_zdd_graph::CoverCheck`]), which keeps the layers near the live ones.
//! 2. Backward, from the last layer (the cleared field) to the first: a field is live when
//!    one of its placements leads to a live field of the next layer. The placements that do
//!    are the field's edges.
//!
//! Every field the forward pass keeps is reached from the start, and every field the
//! backward pass keeps can finish, so the graph holds exactly the fields on the way from
//! the start to a perfect clear. A field's edges depend on the field alone, not on how it
//! was reached.

use super::edge::NO_CHILD;
use super::error::GraphError;
use super::key::{MAX_ROWS, pack, unpack};
use super::layer::Layer;
use super::moves::{Moves, moves};
use super::pc_graph::PcGraph;
use crate::engine::known::{cover_check, placements_toward_pc};
use crate::field::PcField;
use crate::rules::{Rules, RulesId};
use pc_srs::{MoveGenerator, Piece, Placement};
use pc_zdd_graph::CoverMemo;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Which pass of the build a [`BuildProgress`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildStage {
    /// Finding the fields each layer's placements reach.
    Forward,
    /// Keeping the fields that can still finish, with their edges.
    Backward,
}

/// How far a build has come, reported as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    /// The pass.
    pub stage: BuildStage,
    /// The layer being worked on (its fields have this many pieces placed).
    pub layer: usize,
    /// The layers of the graph (pieces of a perfect clear, plus one).
    pub layers: usize,
    /// Fields of the layer done so far.
    pub done: u64,
    /// Fields in the layer.
    pub total: u64,
}

/// Regions the cover check remembers per clear line (`2^MEMO_BITS`, 32 bytes each).
const MEMO_BITS: u32 = 20;

/// Builds the graph of the perfect clears of `start` (at most four rows) under `rules`.
/// `progress` sees the build's progress and may stop it ([`GraphError::Cancelled`]). The
/// work of each layer is shared out among the machine's threads (the graph is the same).
pub(crate) fn build(
    rules: &Rules,
    start: PcField,
    progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
) -> Result<PcGraph, GraphError> {
    let generator = rules.generator();
    let layers = start.pieces_needed() as usize + 1;
    let forward = forward_fields(&generator, start, layers, progress)?;
    let mut built: Vec<Layer> = Vec::with_capacity(layers);
    // The last layer is the cleared field, with no moves.
    let mut last = Layer::default();
    for &key in &forward[layers - 1] {
        last.push(key, &[]);
    }
    last.index();
    built.push(last);
    for k in (0..layers - 1).rev() {
        let next = &built[built.len() - 1];
        let layer = live_layer(&generator, &forward[k], next, k, layers, progress)?;
        built.push(layer);
    }
    built.reverse();
    if built[0].len() == 0 {
        return Err(GraphError::NoPerfectClear);
    }
    let mut graph = PcGraph {
        rules: RulesId::of(rules),
        start: pack(&start),
        layers: built,
        three_left: None,
        four_left: Default::default(),
    };
    graph.index_small_layers();
    Ok(graph)
}

/// How the workers of one step of a build tell the calling thread how far they are,
/// and learn that it was cancelled.
struct Shared {
    done: AtomicUsize,
    stop: AtomicBool,
}

impl Shared {
    /// Counts one more item done; false once the build is cancelled.
    #[inline]
    fn tick(&self) -> bool {
        self.done.fetch_add(1, Ordering::Relaxed);
        !self.stop.load(Ordering::Relaxed)
    }
}

/// `work` on consecutive parts of `0..len`, one per build thread; the results in the
/// parts' order. Meanwhile the calling thread reports the items done (counted by
/// [`Shared::tick`]) to `report` every 100 ms, and a `Break` from it stops the workers.
fn in_parts<T: Send>(
    len: usize,
    work: &(dyn Fn(std::ops::Range<usize>, &Shared) -> T + Sync),
    report: &mut dyn FnMut(usize) -> ControlFlow<()>,
) -> Result<Vec<T>, GraphError> {
    let threads = super::parallel::threads().min(len.max(1));
    let part = len.div_ceil(threads).max(1);
    let shared = Shared {
        done: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let results = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let range = (t * part).min(len)..((t + 1) * part).min(len);
                let shared = &shared;
                scope.spawn(move || work(range, shared))
            })
            .collect();
        while !handles.iter().all(|h| h.is_finished()) {
            if report(shared.done.load(Ordering::Relaxed)).is_break() {
                shared.stop.store(true, Ordering::Relaxed);
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect::<Vec<T>>()
    });
    if shared.stop.load(Ordering::Relaxed) {
        return Err(GraphError::Cancelled);
    }
    Ok(results)
}

/// The fields of each layer that placements reach from `start`, sorted, leaving out the
/// fields no pieces can cover.
fn forward_fields(
    generator: &MoveGenerator<'_>,
    start: PcField,
    layers: usize,
    progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
) -> Result<Vec<Vec<u64>>, GraphError> {
    let mut out = vec![vec![pack(&start)]];
    for k in 0..layers - 1 {
        let fields = &out[k];
        // Every child of every field, in parts; then each distinct one checked once.
        let mut tell = |done| {
            report(
                progress,
                BuildStage::Forward,
                k,
                layers,
                done / 2,
                fields.len(),
            )
        };
        let parts = in_parts(
            fields.len(),
            &|range, shared| {
                let table = moves();
                let mut children = Vec::new();
                for &key in &fields[range] {
                    if !shared.tick() {
                        break;
                    }
                    let field = unpack(key);
                    for piece in Piece::ALL {
                        for placement in placements_toward_pc(generator, &field, piece) {
                            let Some((_, child)) = child_key(table, key, &placement) else {
                                continue;
                            };
                            if unpack(child).can_be_filled() {
                                children.push(child);
                            }
                        }
                    }
                }
                children.sort_unstable();
                children.dedup();
                children
            },
            &mut tell,
        )?;
        let mut candidates: Vec<u64> = parts.into_iter().flatten().collect();
        candidates.sort_unstable();
        candidates.dedup();
        let share = fields.len() as f64 / candidates.len().max(1) as f64;
        let mut tell = |done| {
            let done = fields.len() / 2 + (done as f64 * share / 2.0) as usize;
            report(progress, BuildStage::Forward, k, layers, done, fields.len())
        };
        let kept = in_parts(
            candidates.len(),
            &|range, shared| {
                let mut memos: Vec<CoverMemo> =
                    (0..=MAX_ROWS).map(|_| CoverMemo::new(MEMO_BITS)).collect();
                candidates[range]
                    .iter()
                    .copied()
                    .filter(|&key| {
                        shared.tick();
                        let child = unpack(key);
                        coverable(&child, &mut memos[child.clear_line() as usize])
                    })
                    .collect::<Vec<u64>>()
            },
            &mut tell,
        )?;
        out.push(kept.into_iter().flatten().collect());
    }
    Ok(out)
}

/// Whether some pieces could at least cover the empty cells of a field.
fn coverable(field: &PcField, memo: &mut CoverMemo) -> bool {
    field.is_clear() || cover_check(field.clear_line()).can_cover_remembered(field.board(), memo)
}

/// The live fields of layer `k` among `fields` (sorted) and their edges into the next
/// layer, whose live fields are `next`.
fn live_layer(
    generator: &MoveGenerator<'_>,
    fields: &[u64],
    next: &Layer,
    k: usize,
    layers: usize,
    progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
) -> Result<Layer, GraphError> {
    let table = moves();
    let mut tell = |done| {
        report(
            progress,
            BuildStage::Backward,
            k,
            layers,
            done,
            fields.len(),
        )
    };
    let parts = in_parts(
        fields.len(),
        &|range, shared| {
            let mut layer = Layer::default();
            // A field's moves and the keys of the fields they leave, then which of those
            // are live, looked up at once (their cache misses overlap).
            let mut moves: Vec<u16> = Vec::new();
            let mut children: Vec<u64> = Vec::new();
            let mut found: Vec<u32> = Vec::new();
            let mut edges: Vec<u16> = Vec::new();
            for &key in &fields[range] {
                if !shared.tick() {
                    break;
                }
                let field = unpack(key);
                moves.clear();
                children.clear();
                for piece in Piece::ALL {
                    for placement in placements_toward_pc(generator, &field, piece) {
                        if let Some((id, child)) = child_key(table, key, &placement) {
                            moves.push(super::edge::edge(piece, id));
                            children.push(child);
                        }
                    }
                }
                found.clear();
                found.resize(children.len(), NO_CHILD);
                next.find_many(&children, &mut found);
                edges.clear();
                edges.extend(
                    moves
                        .iter()
                        .zip(&found)
                        .filter(|&(_, &child)| child != NO_CHILD)
                        .map(|(&e, _)| e),
                );
                // By piece, then id; two placements of one id (other orientations of
                // the same cells) are one move.
                edges.sort_unstable();
                edges.dedup();
                if !edges.is_empty() {
                    layer.push(key, &edges);
                }
            }
            layer
        },
        &mut tell,
    )?;
    // The parts' fields in order, their edges after one another.
    let mut layer = Layer::default();
    for part in parts {
        for i in 0..part.len() as u32 {
            layer.push(part.keys[i as usize], part.edges(i));
        }
    }
    if layer.len() > super::layer::MAX_FIELDS
        || (0..layer.len() as u32).any(|i| layer.edges(i).len() > super::layer::MAX_EDGES)
    {
        return Err(GraphError::TooLarge);
    }
    layer.index();
    Ok(layer)
}

/// The id of `placement` (one the move generator found in the field of `key`) and the key
/// of the field it leaves, its full rows cleared: computed on the keys
/// ([`super::moves::child`]), as `pack(&unpack(key).place(placement))` would; `None` for a
/// placement outside four rows or that does not fit (which the generator never gives).
fn child_key(table: &Moves, key: u64, placement: &Placement) -> Option<(u8, u64)> {
    let id = table.id(placement)?;
    let child = super::moves::child(key, &table.of(placement.piece())[usize::from(id)])?;
    Some((id, child))
}

/// Tells `progress` how far a step of the build is.
fn report(
    progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
    stage: BuildStage,
    layer: usize,
    layers: usize,
    done: usize,
    total: usize,
) -> ControlFlow<()> {
    let seen = BuildProgress {
        stage,
        layer,
        layers,
        done: done as u64,
        total: total as u64,
    };
    progress(&seen)
}

/// Building a graph.
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
        let empty = PcField::new_unchecked(Default::default(), MAX_ROWS);
        build(rules, empty, progress)
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
        if start.clear_line() > MAX_ROWS {
            return Err(GraphError::StartTooHigh(start.clear_line()));
        }
        build(rules, *start, progress)
    }
}
