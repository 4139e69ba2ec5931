//! The graph's file: a header saying what it is and what it was built for, the layers,
//! and a checksum of everything before it.
//!
//! ```text
//! magic        8 bytes   "PCGRAPH\0"
//! version      u32       FORMAT_VERSION
//! rules        u64       RulesId of the kick table and drop mode
//! start        u64       the start field's key
//! layers       u32       the number of layers
//! per layer:   u64 fields, u64 edges, and for its shape and its children each: u64 bytes,
//!              u64 bytes compressed
//! per layer, its shape: the keys, ascending, as varint differences; then per field a
//!              byte with a bit per piece that has children and the number of children of
//!              each such piece in half-bytes (count - 1; 15 escapes to a varint of
//!              count - 16; the half-byte after an odd last one is 0)
//! per layer, its children: per field, by piece, ascending
//! checksum     u64       XXH3-64 of every byte before it
//! ```
//!
//! Each section (a layer's shape, a layer's children) is compressed on its own as an LZ4
//! block (`lz4_flex`): neighbouring fields repeat each other's children, which takes the
//! SRS graph from 258 to about 190 MB. A layer's two sections are read side by side, one
//! field at a time, and the layers on whichever thread is free, the largest first: a
//! child is named by its index, so a layer needs nothing of the next but its size.
//!
//! A child is the index of a field of the next layer, written as a zigzag varint
//! difference from a guess: the child at the same place in the previous field's list for
//! the same piece (neighbouring fields differ in a few cells, so their children are
//! neighbours too), else the child before it in the list. Measured on the SRS graph,
//! this takes the children from 287 to 195 MB.
//!
//! Integers are little-endian. A file is written to a temporary file beside its path and
//! renamed over it when complete, so a crash or two builders at once never leave half a
//! file. Loading checks the magic, the version, the rules and the checksum, then that
//! every layer is well formed (keys valid, ascending and of the layer's number of pieces,
//! children within the next layer, every field with a child but the last layer's), so a
//! damaged file is an error, never a wrong answer.

use super::key::{is_valid, pieces_needed};
use super::{GraphError, Layer, PcGraph, RulesId, edge_child, edge_piece};
use std::io::Write;
use std::path::Path;

/// The first bytes of a graph file.
const MAGIC: &[u8; 8] = b"PCGRAPH\0";

/// The version of the format written; files of another version are not read.
pub const FORMAT_VERSION: u32 = 1;

/// The bytes of a graph in the file format.
pub(crate) fn encode(graph: &PcGraph) -> Vec<u8> {
    let sections: Vec<(Vec<u8>, Vec<u8>)> = graph.layers.iter().map(write_layer).collect();
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&graph.rules.value().to_le_bytes());
    out.extend_from_slice(&graph.start.to_le_bytes());
    out.extend_from_slice(&(graph.layers.len() as u32).to_le_bytes());
    let packed: Vec<(Vec<u8>, Vec<u8>)> = sections
        .iter()
        .map(|(shape, children)| {
            (
                lz4_flex::block::compress(shape),
                lz4_flex::block::compress(children),
            )
        })
        .collect();
    for ((layer, (shape, children)), (packed_shape, packed_children)) in
        graph.layers.iter().zip(&sections).zip(&packed)
    {
        for n in [
            layer.len(),
            layer.edge_count(),
            shape.len(),
            packed_shape.len(),
            children.len(),
            packed_children.len(),
        ] {
            out.extend_from_slice(&(n as u64).to_le_bytes());
        }
    }
    for (shape, _) in &packed {
        out.extend_from_slice(shape);
    }
    for (_, children) in &packed {
        out.extend_from_slice(children);
    }
    let checksum = xxhash_rust::xxh3::xxh3_64(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

/// A layer's shape (keys, pieces and counts) and its children (indices of fields of the
/// next layer).
fn write_layer(layer: &Layer) -> (Vec<u8>, Vec<u8>) {
    let mut shape = Vec::new();
    let mut children = Vec::new();
    let mut previous = 0;
    for &key in &layer.keys {
        put_varint(&mut shape, key - previous);
        previous = key;
    }
    let mut guesses: [Vec<u32>; 7] = Default::default();
    let mut lists: [Vec<u32>; 7] = Default::default();
    for index in 0..layer.len() as u32 {
        for list in &mut lists {
            list.clear();
        }
        for &e in layer.edges(index) {
            lists[edge_piece(e)].push(edge_child(e));
        }
        let mask = lists
            .iter()
            .enumerate()
            .fold(0u8, |m, (p, l)| m | ((!l.is_empty()) as u8) << p);
        shape.push(mask);
        let mut nibbles = Nibbles::default();
        let mut escapes = Vec::new();
        for list in lists.iter().filter(|l| !l.is_empty()) {
            let count = list.len() - 1;
            nibbles.push(&mut shape, count.min(15) as u8);
            if count >= 15 {
                escapes.push(count - 15);
            }
        }
        nibbles.finish(&mut shape);
        for count in escapes {
            put_varint(&mut shape, count as u64);
        }
        for (list, guess) in lists.iter_mut().zip(&mut guesses) {
            if list.is_empty() {
                continue;
            }
            for (j, &child) in list.iter().enumerate() {
                let g = guess_at(guess, list, j);
                put_varint(&mut children, zigzag(i64::from(child) - i64::from(g)));
            }
            std::mem::swap(guess, list);
        }
    }
    (shape, children)
}

/// The guess for child `j` of a list: the child at the same place in the previous list
/// for the piece, else the child before it, else 0.
#[inline]
fn guess_at(previous: &[u32], list: &[u32], j: usize) -> u32 {
    match previous.get(j) {
        Some(&g) => g,
        None if j > 0 => list[j - 1],
        None => 0,
    }
}

/// Half-bytes written two to a byte.
#[derive(Default)]
struct Nibbles {
    low: Option<u8>,
}

impl Nibbles {
    fn push(&mut self, out: &mut Vec<u8>, value: u8) {
        match self.low.take() {
            None => self.low = Some(value),
            Some(low) => out.push(low | value << 4),
        }
    }

    fn finish(self, out: &mut Vec<u8>) {
        if let Some(low) = self.low {
            out.push(low);
        }
    }
}

fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

fn unzigzag(value: u64) -> i64 {
    (value >> 1) as i64 ^ -((value & 1) as i64)
}

/// Writes `graph` to `path` whole or not at all: to a temporary file in the same folder,
/// renamed over `path` once written and synced.
pub(crate) fn save(graph: &PcGraph, path: &Path) -> Result<(), GraphError> {
    let bytes = encode(graph);
    let io = |source| GraphError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(io)?;
    }
    // A name of its own per process and call, so that two builders never share one.
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file_name = path
        .file_name()
        .map_or("graph".into(), |n| n.to_string_lossy());
    let temporary = path.with_file_name(format!(".{file_name}.{}.{call}.tmp", std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(&bytes)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    if let Err(source) = written {
        // Leave nothing behind; the error that matters is the write's.
        let _ = std::fs::remove_file(&temporary);
        return Err(io(source));
    }
    Ok(())
}

/// Reads the graph in `path`, built for `rules`.
pub(crate) fn load(path: &Path, rules: RulesId) -> Result<PcGraph, GraphError> {
    let bytes = read_file(path).map_err(|source| GraphError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    decode(&bytes, rules)
}

/// The bytes of a file, its two halves read side by side (copying a file of hundreds of
/// megabytes out of the system's cache is a tenth of the load on one thread).
#[cfg(unix)]
fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let file = std::fs::File::open(path)?;
    let length = usize::try_from(file.metadata()?.len()).map_err(std::io::Error::other)?;
    let mut bytes = vec![0u8; length];
    let (first, second) = bytes.split_at_mut(length / 2);
    let file = &file;
    let side_by_side = std::thread::scope(|scope| {
        let half = (length / 2) as u64;
        let Ok(helper) = std::thread::Builder::new()
            .spawn_scoped(scope, move || file.read_exact_at(second, half))
        else {
            return Ok(false);
        };
        let read = file.read_exact_at(first, 0);
        let other = helper
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        read.and(other).map(|()| true)
    })?;
    if !side_by_side {
        return std::fs::read(path);
    }
    Ok(bytes)
}

/// The bytes of a file.
#[cfg(not(unix))]
fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    std::fs::read(path)
}

/// The graph in `bytes` (the file format), built for `rules`.
pub(crate) fn decode(bytes: &[u8], rules: RulesId) -> Result<PcGraph, GraphError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(GraphError::NotAGraph);
    }
    let mut reader = Reader {
        bytes,
        at: MAGIC.len(),
    };
    let version = reader.u32()?;
    if version != FORMAT_VERSION {
        return Err(GraphError::Version {
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    let built_for = RulesId(reader.u64()?);
    if built_for != rules {
        return Err(GraphError::OtherRules {
            found: built_for,
            expected: rules,
        });
    }
    // The checksum covers everything, so check it before trusting any count; the
    // length the header gives only tells a cut file from a damaged one.
    if bytes.len() < reader.at + 8 || declared_length(bytes).is_some_and(|n| n > bytes.len() as u64)
    {
        return Err(GraphError::Truncated);
    }
    let body = &bytes[..bytes.len() - 8];
    let stored = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
    if xxhash_rust::xxh3::xxh3_64(body) != stored {
        return Err(GraphError::Checksum);
    }
    reader.bytes = body;
    let start = reader.u64()?;
    if !is_valid(start) {
        return Err(GraphError::Malformed("the start field"));
    }
    // Layer `k` holds the fields `k` pieces after the start, down to the cleared field.
    let count = reader.u32()? as usize;
    if count != pieces_needed(start) as usize + 1 {
        return Err(GraphError::Malformed("the number of layers"));
    }
    let mut sizes = Vec::with_capacity(count);
    for _ in 0..count {
        let mut size = [0u64; 6];
        for n in &mut size {
            *n = reader.u64()?;
        }
        let [
            fields,
            edges,
            shape,
            packed_shape,
            children,
            packed_children,
        ] = size;
        // Every field and edge takes a byte at least, a compressed byte stands for at most
        // 255, and the format holds no more than so many fields: larger sizes cannot be
        // right (and are not allocated).
        let bytes = body.len() as u64;
        let unpacked = |n: u64, packed: u64| packed <= bytes && n <= packed.saturating_mul(255);
        if fields > shape
            || fields > super::MAX_FIELDS as u64
            || edges > u64::from(u32::MAX)
            || edges > children
            || !unpacked(shape, packed_shape)
            || !unpacked(children, packed_children)
        {
            return Err(GraphError::Malformed("a layer's size"));
        }
        sizes.push(size.map(|n| n as usize));
    }
    // Where each compressed section is: every shape, then every children.
    let mut at = reader.at;
    let mut sections = Vec::with_capacity(2 * count);
    for part in [2, 4] {
        for size in &sizes {
            sections.push((at..at + size[part + 1], size[part]));
            at += size[part + 1];
        }
    }
    if at != body.len() {
        return Err(GraphError::Malformed("the sections' lengths"));
    }
    // Each layer's shape and children, on whichever thread is free (edges name their
    // children by index, so a layer needs nothing of the next but its number of fields);
    // a section is unpacked where it is read and let go after, so that few are in memory
    // at once.
    let unpack = |i: usize| {
        let (range, size) = sections[i].clone();
        lz4_flex::block::decompress(&body[range], size)
            .ok()
            .filter(|out| out.len() == size)
            .ok_or(GraphError::Malformed("a compressed section"))
    };
    // The largest layers first, so that the threads end together.
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(sizes[k][1]));
    let layers: Vec<Layer> = in_parallel(&order, |k| {
        let [fields, edges, ..] = sizes[k];
        let next_fields = sizes.get(k + 1).map_or(0, |size| size[0]);
        let pieces = (count - 1 - k) as u32;
        read_layer(
            &unpack(k)?,
            &unpack(count + k)?,
            fields,
            edges,
            pieces,
            next_fields,
        )
    })?;
    if layers[0].keys != [start] {
        return Err(GraphError::Malformed("the first layer"));
    }
    let graph = PcGraph {
        rules,
        start,
        layers,
    };
    Ok(graph)
}

/// `work(k)` for each `k` of `order`, on the machine's threads (a thread takes the next
/// `k` when it is done), the results in order of `k`; the
/// first error of any.
fn in_parallel<T: Send>(
    order: &[usize],
    work: impl Fn(usize) -> Result<T, GraphError> + Sync,
) -> Result<Vec<T>, GraphError> {
    let threads = if cfg!(target_family = "wasm") {
        1
    } else {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(order.len())
    };
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
    let mut results: Vec<(usize, Result<T, GraphError>)> = if threads <= 1 {
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

/// The length of the file its header declares, if the header can be read: the header, the
/// compressed sections and the checksum.
fn declared_length(bytes: &[u8]) -> Option<u64> {
    let mut reader = Reader {
        bytes,
        at: MAGIC.len() + 4 + 8 + 8,
    };
    let count = u64::from(reader.u32().ok()?);
    if count > 64 {
        return None;
    }
    let mut total = reader.at as u64 + 48 * count + 8;
    for _ in 0..count {
        let size: Vec<u64> = (0..6)
            .map(|_| reader.u64())
            .collect::<Result<_, _>>()
            .ok()?;
        total = total.checked_add(size[3])?.checked_add(size[5])?;
    }
    Some(total)
}

/// A layer of `fields` fields and `edges` edges from its two sections: the shape (keys,
/// then each field's pieces and counts) and the children, read side by side, one field
/// at a time. Every key must be a field that needs `pieces` pieces, every child one of
/// the `next_fields` fields of the next layer, and every field must have children but in
/// the last layer (`pieces = 0`).
fn read_layer(
    shape: &[u8],
    children: &[u8],
    fields: usize,
    edges: usize,
    pieces: u32,
    next_fields: usize,
) -> Result<Layer, GraphError> {
    let malformed = GraphError::Malformed;
    let mut shape = Reader {
        bytes: shape,
        at: 0,
    };
    let keys = read_keys(&mut shape, fields, pieces)?;
    let mut children = Reader {
        bytes: children,
        at: 0,
    };
    let mut starts = Vec::with_capacity(fields + 1);
    starts.push(0u32);
    // Every edge takes a byte of the children at least: the section, not the header,
    // bounds what is reserved.
    let mut out: Vec<u32> = Vec::with_capacity(edges.min(children.bytes.len()));
    let next_len = next_fields as i64;
    // Per piece: its previous list of children (the encoder's guesses, see `guess_at`),
    // rewritten in place: entry `j` is read as the guess before the new child takes its
    // place, and past the old list's end the child before serves. No list is longer than
    // a field's edges.
    let mut guesses = [[0u32; super::MAX_EDGES + 1]; 7];
    let mut known = [0usize; 7];
    for _ in 0..fields {
        let mask = shape.byte()?;
        if mask >> 7 != 0 {
            return Err(malformed("a field's pieces"));
        }
        if (mask == 0) != (pieces == 0) {
            return Err(malformed("a field's edges"));
        }
        // The counts of the pieces with children: half-bytes, then the escapes.
        let present = mask.count_ones() as usize;
        let mut counts = [0usize; 7];
        for pair in 0..present.div_ceil(2) {
            let byte = shape.byte()?;
            counts[2 * pair] = usize::from(byte & 0xf) + 1;
            if 2 * pair + 1 < present {
                counts[2 * pair + 1] = usize::from(byte >> 4) + 1;
            } else if byte >> 4 != 0 {
                return Err(malformed("a field's counts"));
            }
        }
        let mut total = 0;
        for count in counts[..present].iter_mut() {
            if *count == 16 {
                let extra = shape.varint()?;
                if extra > super::MAX_EDGES as u64 {
                    return Err(malformed("a count"));
                }
                *count = 16 + extra as usize;
            }
            total += *count;
        }
        if total > super::MAX_EDGES || out.len() + total > edges {
            return Err(malformed("a field's edges"));
        }
        let mut counts = counts.iter();
        for piece in (0..7).filter(|p| mask >> p & 1 == 1) {
            let count = *counts.next().expect("a count per piece present");
            let tag = (piece as u32) << 29;
            let guess = &mut guesses[piece];
            let old = known[piece];
            let mut before = -1i64;
            for j in 0..count {
                let g = if j < old {
                    guess[j]
                } else if j > 0 {
                    guess[j - 1]
                } else {
                    0
                };
                let child = i64::from(g) + unzigzag(children.varint()?);
                if child <= before || child >= next_len {
                    return Err(malformed("a child"));
                }
                before = child;
                guess[j] = child as u32;
                out.push(tag | child as u32);
            }
            known[piece] = count;
        }
        starts.push(out.len() as u32);
    }
    if shape.at != shape.bytes.len() || out.len() != edges {
        return Err(malformed("a layer's shape"));
    }
    if children.at != children.bytes.len() {
        return Err(malformed("a layer's children"));
    }
    Ok(Layer {
        keys,
        starts,
        edges: out,
    })
}

/// A layer's keys, ascending varint differences, each a field needing `pieces` pieces.
fn read_keys(reader: &mut Reader<'_>, fields: usize, pieces: u32) -> Result<Vec<u64>, GraphError> {
    let malformed = GraphError::Malformed;
    let mut keys = Vec::with_capacity(fields);
    let mut key = 0u64;
    for i in 0..fields {
        let delta = reader.varint()?;
        if i > 0 && delta == 0 {
            return Err(malformed("keys not ascending"));
        }
        key = key.checked_add(delta).ok_or(malformed("a key"))?;
        if !is_valid(key) {
            return Err(malformed("a key"));
        }
        if pieces_needed(key) != pieces {
            return Err(malformed("a field in the wrong layer"));
        }
        keys.push(key);
    }
    Ok(keys)
}

/// Reads the integers of a file, every read checked against its end.
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], GraphError> {
        let end = self.at.checked_add(N).ok_or(GraphError::Truncated)?;
        let slice = self.bytes.get(self.at..end).ok_or(GraphError::Truncated)?;
        self.at = end;
        Ok(slice.try_into().expect("N bytes"))
    }

    #[inline]
    fn byte(&mut self) -> Result<u8, GraphError> {
        let byte = *self.bytes.get(self.at).ok_or(GraphError::Truncated)?;
        self.at += 1;
        Ok(byte)
    }

    fn u32(&mut self) -> Result<u32, GraphError> {
        self.take::<4>().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, GraphError> {
        self.take::<8>().map(u64::from_le_bytes)
    }

    #[inline(always)]
    fn varint(&mut self) -> Result<u64, GraphError> {
        // With eight bytes at hand, a number of up to eight bytes is read without a branch
        // per byte: the first byte without its top bit ends it, and the seven-bit groups
        // are packed together pairwise in three steps.
        if let Some(eight) = self.bytes.get(self.at..self.at + 8) {
            let word = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
            let ends = !word & 0x8080_8080_8080_8080;
            if ends != 0 {
                let bits = ends.trailing_zeros() + 1;
                // The number's bytes (all eight when `bits` is 64), without their top bits.
                let x = word & (u64::MAX >> (64 - bits)) & 0x7f7f_7f7f_7f7f_7f7f;
                let x = (x & 0x00ff_00ff_00ff_00ff) | (x >> 1 & 0x3f80_3f80_3f80_3f80);
                let x = (x & 0x0000_ffff_0000_ffff) | (x >> 2 & 0x0fff_c000_0fff_c000);
                let x = (x & 0x0000_0000_ffff_ffff) | (x >> 4 & 0x00ff_ffff_f000_0000);
                self.at += bits as usize / 8;
                return Ok(x);
            }
        }
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(GraphError::Malformed("a number"))
    }
}

/// Appends `value` as a varint: seven bits a byte, low first, the top bit set on all but
/// the last byte.
fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use proptest::prelude::*;
    use std::ops::ControlFlow;
    use std::sync::OnceLock;

    /// The graph of 2-line PCs from the empty field, built once.
    fn two_line() -> &'static (PcGraph, Vec<u8>) {
        static GRAPH: OnceLock<(PcGraph, Vec<u8>)> = OnceLock::new();
        GRAPH.get_or_init(|| {
            let field = crate::PcField::new(Default::default(), 2).unwrap();
            let graph =
                PcGraph::build_from(
                    &field,
                    &Rules::default(),
                    &mut |_| ControlFlow::Continue(()),
                )
                .unwrap();
            let bytes = encode(&graph);
            (graph, bytes)
        })
    }

    fn id() -> RulesId {
        RulesId::of(&Rules::default())
    }

    /// The bytes with the checksum made right again after a change.
    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let end = bytes.len() - 8;
        let checksum = xxhash_rust::xxh3::xxh3_64(&bytes[..end]);
        bytes[end..].copy_from_slice(&checksum.to_le_bytes());
        bytes
    }

    #[test]
    fn a_graph_reads_back_as_written() {
        let (graph, bytes) = two_line();
        assert!(
            graph.fields() > 200 && graph.transitions() > graph.fields(),
            "{} {}",
            graph.fields(),
            graph.transitions()
        );
        assert_eq!(&decode(bytes, id()).unwrap(), graph);
    }

    #[test]
    fn a_file_is_written_whole_and_read_back() {
        let (graph, bytes) = two_line();
        let folder = std::env::temp_dir().join(format!("pc-graph-test-{}", std::process::id()));
        let path = folder.join("nested").join("graph.bin");
        graph.save(&path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), *bytes);
        // Nothing but the file is left in its folder.
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1);
        assert_eq!(&PcGraph::load(&path, &Rules::default()).unwrap(), graph);
        let missing = PcGraph::load(&folder.join("none.bin"), &Rules::default());
        assert!(matches!(missing, Err(GraphError::Io { .. })));
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn bad_files_are_errors_that_say_why() {
        let (_, bytes) = two_line();
        assert!(matches!(decode(b"", id()), Err(GraphError::NotAGraph)));
        assert!(matches!(
            decode(b"PNG\r\n\x1a\n....", id()),
            Err(GraphError::NotAGraph)
        ));
        let mut other_version = bytes.clone();
        other_version[8] = 9;
        assert!(matches!(
            decode(&other_version, id()),
            Err(GraphError::Version {
                found: 9,
                expected: FORMAT_VERSION
            })
        ));
        let srs_plus = RulesId::of(&Rules {
            kicks: pc_srs::KickTable::srs_plus(),
            ..Rules::default()
        });
        assert!(matches!(
            decode(bytes, srs_plus),
            Err(GraphError::OtherRules { .. })
        ));
        for cut in [20, bytes.len() / 2, bytes.len() - 1] {
            assert!(
                matches!(decode(&bytes[..cut], id()), Err(GraphError::Truncated)),
                "{cut}"
            );
        }
        let mut flipped = bytes.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 0x10;
        assert!(matches!(decode(&flipped, id()), Err(GraphError::Checksum)));
        // A change the checksum was made to match is still caught by the checks.
        let mut forged = bytes.clone();
        let layers_at = 8 + 4 + 8 + 8;
        forged[layers_at] = 0;
        assert!(matches!(
            decode(&resealed(forged), id()),
            Err(GraphError::Malformed(_))
        ));
        let mut extra = bytes[..bytes.len() - 8].to_vec();
        extra.push(0);
        extra.extend_from_slice(&[0; 8]);
        assert!(matches!(
            decode(&resealed(extra), id()),
            Err(GraphError::Malformed(_))
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Numbers of every length read back as written, alone and one after another
        /// (the fast path reads eight bytes at once, the slow one the last few).
        #[test]
        fn varints_read_back(numbers in proptest::collection::vec(
            prop_oneof![any::<u64>(), 0u64..128, 0u64..1 << 14, 0u64..1 << 35, (1u64 << 55)..1 << 57],
            1..40,
        )) {
            let mut bytes = Vec::new();
            for &n in &numbers {
                put_varint(&mut bytes, n);
            }
            let mut reader = Reader { bytes: &bytes, at: 0 };
            for &n in &numbers {
                prop_assert_eq!(reader.varint().unwrap(), n);
            }
            prop_assert_eq!(reader.at, bytes.len());
            prop_assert!(reader.varint().is_err());
        }

        /// Any damage is an error; damage the checksum was made to match never panics.
        #[test]
        fn damaged_files_are_errors(at in 0usize..1 << 20, change in 1u8..=255) {
            let (graph, bytes) = two_line();
            let mut damaged = bytes.clone();
            let at = at % damaged.len();
            damaged[at] ^= change;
            prop_assert!(decode(&damaged, id()).is_err());
            if at + 8 < damaged.len() {
                if let Ok(read) = decode(&resealed(damaged), id()) {
                    // A change the checksum was made to match can pass the checks: LZ4
                    // writes the same bytes in more than one way (this test found a
                    // changed byte in a layer's compressed shape that unpacks the same),
                    // and a forged section can describe another well-formed graph. A
                    // change in the header never reads back as the same graph.
                    let sections_start = 8 + 4 + 8 + 8 + 4 + 48 * graph.layers.len();
                    if read == *graph {
                        prop_assert!(at >= sections_start, "{at}");
                    }
                }
            }
        }
    }
}
