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

use super::key::{MAX_ROWS, pack, unpack};
use super::{GraphError, Layer, PcGraph, RulesId};
use crate::engine::known::{cover_check, placements_toward_pc};
use crate::field::PcField;
use crate::rules::Rules;
use ahash::{AHashMap, AHashSet};
use pc_srs::{MoveGenerator, Piece};
use pc_zdd_graph::CoverMemo;
use std::ops::ControlFlow;

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

/// How often, in fields, a build reports its progress.
const REPORT_EVERY: u64 = 1 << 16;

/// Regions the cover check remembers per clear line (`2^MEMO_BITS`, 32 bytes each).
const MEMO_BITS: u32 = 20;

/// Builds the graph of the perfect clears of `start` (at most four rows) under `rules`.
/// `progress` sees the build's progress and may stop it ([`GraphError::Cancelled`]).
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
    built.push(last);
    for k in (0..layers - 1).rev() {
        let next = &built[built.len() - 1];
        let at: AHashMap<u64, u32> = next
            .keys
            .iter()
            .enumerate()
            .map(|(index, &key)| (key, index as u32))
            .collect();
        let layer = live_layer(&generator, &forward[k], &at, k, layers, progress)?;
        built.push(layer);
    }
    built.reverse();
    if built[0].len() == 0 {
        return Err(GraphError::NoPerfectClear);
    }
    Ok(PcGraph {
        rules: RulesId::of(rules),
        start: pack(&start),
        layers: built,
    })
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
    let mut memos: Vec<CoverMemo> = (0..=MAX_ROWS).map(|_| CoverMemo::new(MEMO_BITS)).collect();
    for k in 0..layers - 1 {
        let mut kept: AHashSet<u64> = AHashSet::new();
        let mut dropped: AHashSet<u64> = AHashSet::new();
        let fields = &out[k];
        for (done, &key) in fields.iter().enumerate() {
            report(progress, BuildStage::Forward, k, layers, done, fields.len())?;
            let field = unpack(key);
            for piece in Piece::ALL {
                for placement in placements_toward_pc(generator, &field, piece) {
                    let child = field.place(&placement);
                    if !child.can_be_filled() {
                        continue;
                    }
                    let child_key = pack(&child);
                    if kept.contains(&child_key) || dropped.contains(&child_key) {
                        continue;
                    }
                    if coverable(&child, &mut memos[child.clear_line() as usize]) {
                        kept.insert(child_key);
                    } else {
                        dropped.insert(child_key);
                    }
                }
            }
        }
        let mut next: Vec<u64> = kept.into_iter().collect();
        next.sort_unstable();
        out.push(next);
    }
    Ok(out)
}

/// Whether some pieces could at least cover the empty cells of a field.
fn coverable(field: &PcField, memo: &mut CoverMemo) -> bool {
    field.is_clear() || cover_check(field.clear_line()).can_cover_remembered(field.board(), memo)
}

/// The live fields of layer `k` among `fields` (sorted) and their edges into the next
/// layer, whose live fields are `next` (key to index).
fn live_layer(
    generator: &MoveGenerator<'_>,
    fields: &[u64],
    next: &AHashMap<u64, u32>,
    k: usize,
    layers: usize,
    progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
) -> Result<Layer, GraphError> {
    let mut layer = Layer::default();
    let mut children: Vec<u32> = Vec::new();
    let mut edges: Vec<u32> = Vec::new();
    for (done, &key) in fields.iter().enumerate() {
        report(
            progress,
            BuildStage::Backward,
            k,
            layers,
            done,
            fields.len(),
        )?;
        let field = unpack(key);
        edges.clear();
        for piece in Piece::ALL {
            children.clear();
            for placement in placements_toward_pc(generator, &field, piece) {
                if let Some(&at) = next.get(&pack(&field.place(&placement))) {
                    children.push(at);
                }
            }
            children.sort_unstable();
            children.dedup();
            edges.extend(children.iter().map(|&at| super::edge(piece, at)));
        }
        if !edges.is_empty() {
            if layer.len() == super::MAX_FIELDS || edges.len() > super::MAX_EDGES {
                return Err(GraphError::TooLarge);
            }
            layer.push(key, &edges);
        }
    }
    Ok(layer)
}

/// Calls `progress` every [`REPORT_EVERY`] fields and at the start of a layer.
fn report(
    progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
    stage: BuildStage,
    layer: usize,
    layers: usize,
    done: usize,
    total: usize,
) -> Result<(), GraphError> {
    if done as u64 % REPORT_EVERY != 0 {
        return Ok(());
    }
    let seen = BuildProgress {
        stage,
        layer,
        layers,
        done: done as u64,
        total: total as u64,
    };
    match progress(&seen) {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(()) => Err(GraphError::Cancelled),
    }
}
