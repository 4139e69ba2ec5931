//! PC field graph files from bytes (`PcGraph::from_bytes`): a graph or a typed error.
//!
//! The first byte chooses what the rest is:
//! - `0 mod 3`: the bytes of a file, as they are;
//! - `1 mod 3`: changes to a small valid graph's file, three bytes each (where, as a
//!   little-endian `u16` taken modulo the length, and what to XOR there), the file then
//!   cut when the first byte has bit 2 set: every change must be an error;
//! - `2 mod 3`: the same, then every hash made right again, so that the changes reach the
//!   checks behind the hashes: an error, or a graph other than the one changed, which a
//!   solver then uses to rank a position on the graph's start field (its answer may be
//!   wrong, since no hash catches a forgery, but it must come without a panic).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pc_solver::{PcField, PcGraph, Piece, Position, Rules, Solver, SolverOptions};
use std::ops::ControlFlow;
use std::sync::{Arc, OnceLock};

/// The start field of the small graph.
const FIELD: &str = "######..../######..../######..../######....";

/// A small graph (four pieces from a field of four rows) and its file's bytes.
fn small() -> &'static (PcGraph, Vec<u8>) {
    static GRAPH: OnceLock<(PcGraph, Vec<u8>)> = OnceLock::new();
    GRAPH.get_or_init(|| {
        let field = PcField::new(FIELD.parse().unwrap(), 4).unwrap();
        let graph =
            PcGraph::build_from(
                &field,
                &Rules::default(),
                &mut |_| ControlFlow::Continue(()),
            )
            .unwrap();
        let bytes = graph.to_bytes();
        (graph, bytes)
    })
}

fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
}

fn put_u64(bytes: &mut [u8], at: usize, value: u64) {
    bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
}

/// Every section's hash and the header's hash computed again from the bytes, as far as
/// the layers' table describes sections inside the file (the file's layout: a fixed part
/// of 32 bytes ending with the number of layers, 40 bytes per layer of fields, edges, key
/// bytes, keys-and-counts hash and moves hash, the header's hash, then the sections).
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    const FIXED: usize = 32;
    const ENTRY: usize = 40;
    let Some(count) = bytes.get(FIXED - 4..FIXED) else {
        return bytes;
    };
    let count = u32::from_le_bytes(count.try_into().unwrap()) as usize;
    if !(1..=11).contains(&count) || bytes.len() < FIXED + count * ENTRY + 8 {
        return bytes;
    }
    let table = FIXED + count * ENTRY;
    let mut section = table + 8;
    for entry in (FIXED..table).step_by(ENTRY) {
        let sizes = [0, 8, 16].map(|i| u64_at(&bytes, entry + i).unwrap());
        let [fields, edges, keys] = sizes.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
        let shape_end = section.saturating_add(keys).saturating_add(fields);
        let moves_end = shape_end.saturating_add(edges.saturating_mul(2));
        if moves_end > bytes.len() {
            break;
        }
        let shape_hash = xxhash_rust::xxh3::xxh3_64(&bytes[section..shape_end]);
        let moves_hash = xxhash_rust::xxh3::xxh3_64(&bytes[shape_end..moves_end]);
        put_u64(&mut bytes, entry + 24, shape_hash);
        put_u64(&mut bytes, entry + 32, moves_hash);
        section = moves_end;
    }
    let header_hash = xxhash_rust::xxh3::xxh3_64(&bytes[..table]);
    put_u64(&mut bytes, table, header_hash);
    bytes
}

/// Ranks the moves of a position on the start field with `graph`.
fn use_graph(graph: PcGraph) {
    let options = SolverOptions {
        graph: Some(Arc::new(graph)),
        ..SolverOptions::default()
    };
    let Ok(mut solver) = Solver::with_options(Rules::default(), options) else {
        return;
    };
    let position = Position::new(FIELD.parse().unwrap(), Piece::T)
        .with_hold(Some(Piece::O))
        .with_preview(&[Piece::S, Piece::Z, Piece::I, Piece::L, Piece::J])
        .with_bag("IOSTZ".parse().unwrap());
    let _ = solver.recommend(&position);
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let rules = Rules::default();
    if mode % 3 == 0 {
        let _ = PcGraph::from_bytes(rest, &rules);
        return;
    }
    let (graph, valid) = small();
    let mut bytes = valid.clone();
    let mut changes = rest.chunks_exact(3);
    for change in &mut changes {
        let at = usize::from(u16::from_le_bytes([change[0], change[1]])) % bytes.len();
        bytes[at] ^= change[2];
    }
    if mode & 4 != 0 {
        let cut = changes.remainder().first().map_or(0, |&b| usize::from(b));
        bytes.truncate(bytes.len().saturating_sub(cut + 1));
    }
    if mode % 3 == 1 {
        if bytes != *valid {
            assert!(PcGraph::from_bytes(&bytes, &rules).is_err());
        }
    } else {
        let forged = resealed(bytes);
        if let Ok(read) = PcGraph::from_bytes(&forged, &rules)
            && forged != *valid
        {
            assert!(read != *graph, "a changed file reads as the graph");
            use_graph(read);
        }
    }
});
