//! The graph's file: a header saying what it is, what it was built for and where each
//! section is, then each layer's sections.
//!
//! ```text
//! magic        8 bytes   "PCGRAPH\0" ("PCGRAPHP" laid out by piece, see below)
//! version      u32       FORMAT_VERSION
//! rules        u64       RulesId of the kick table and drop mode
//! start        u64       the start field's key
//! layers       u32       the number of layers
//! per layer:   u64 fields, u64 edges, u64 bytes of its keys, u64 XXH3-64 of its keys and
//!              counts, u64 XXH3-64 of its moves
//! header hash  u64       XXH3-64 of every byte of the header before it
//! per layer, its keys:   ascending, as varint differences
//! per layer, its counts: a byte per field, its number of moves
//! per layer, its moves:  a u16 per edge, the piece in the high byte and the placement's id
//!                        (`moves.rs`) in the low one, by field, ascending
//! ```
//!
//! Laid out by piece (`by_piece.rs`), a layer's keys are followed instead by the byte
//! lengths of seven piece streams (u32 each), then the streams: for each piece, every
//! field's count of that piece's moves and their ids. The header is the same but for the
//! magic, its hashes those of the plain layout's sections, which a reader puts back.
//!
//! An edge names a placement, not the field it leads to: a byte whatever the size of the
//! next layer, and bytes that repeat from field to field, so that the file compresses
//! well for a browser to download (`gzip`). Nothing in it is compressed: a load reads each
//! layer's moves straight into their place in memory, checks every section against its
//! hash, and decodes the keys, layers side by side; then it makes each layer's lookup
//! table, those of the largest layers on a thread of their own after it returns.
//!
//! Integers are little-endian. A file is written to a temporary file beside its path and
//! renamed over it when complete, so a crash or two builders at once never leave half a
//! file. Loading checks the magic, the version, the rules and the hashes, then that every
//! layer is well formed (keys valid, ascending and of the layer's number of pieces, moves
//! of a piece and an id within the largest table, every field with a move but the last
//! layer's), so a damaged file is an error, never a wrong answer.

use super::by_piece::{self, Layout};
use super::error::GraphError;
use super::key::{is_valid, pieces_needed};
use super::layer::Layer;
use super::moves::MAX_IDS;
use super::parallel::in_parallel;
use super::pc_graph::PcGraph;
use crate::rules::{Rules, RulesId};
use pc_srs::Piece;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first bytes of a graph file whose moves are laid out plainly.
pub(super) const MAGIC: &[u8; 8] = b"PCGRAPH\0";

/// The first bytes of a graph file whose moves are laid out by piece
/// ([`Layout::ByPiece`]): the same header and sections otherwise.
pub(super) const MAGIC_BY_PIECE: &[u8; 8] = b"PCGRAPHP";

/// The layout a file's magic names, if it is a graph's.
fn layout_of(magic: &[u8]) -> Option<Layout> {
    match magic {
        m if m == MAGIC => Some(Layout::Plain),
        m if m == MAGIC_BY_PIECE => Some(Layout::ByPiece),
        _ => None,
    }
}

/// Whether `bytes` begin as a graph file of either layout does (for telling a file cut
/// short from one that is not a graph).
pub(super) fn starts_as_graph(bytes: &[u8]) -> bool {
    [MAGIC, MAGIC_BY_PIECE]
        .iter()
        .any(|m| bytes.len() >= m.len() && bytes[..m.len()] == m[..])
}

/// The version of the format written; files of another version are not read.
pub const FORMAT_VERSION: u32 = 3;

/// Bytes of the header before the layers' table.
pub(super) const FIXED: usize = 8 + 4 + 8 + 8 + 4;

/// Bytes of a layer's entry in the header's table.
pub(super) const ENTRY: usize = 5 * 8;

/// The most layers a graph has (a start of at most four rows needs at most ten pieces).
pub(super) const MAX_LAYERS: usize = 11;

/// What the header says of a layer.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) fields: usize,
    pub(super) edges: usize,
    /// Bytes of its keys.
    pub(super) keys: usize,
    /// The hash of its keys and counts.
    shape_hash: u64,
    moves_hash: u64,
    /// Where its keys start in the file (its numbers of moves and its moves follow).
    at: usize,
    /// Bytes of its numbers of moves and moves, in the file's layout (its body).
    pub(super) body: usize,
}

impl Entry {
    /// Bytes of all its sections.
    fn size(&self) -> usize {
        self.keys + self.body
    }
}

/// The bytes of a graph in the file format, its moves laid out as `layout` says. The
/// header's hashes are the same in both layouts: the moves' hash is that of the plain
/// layout's bytes, which a reader of either layout puts back together.
pub(crate) fn encode(graph: &PcGraph, layout: Layout) -> Vec<u8> {
    let magic = match layout {
        Layout::Plain => MAGIC,
        Layout::ByPiece => MAGIC_BY_PIECE,
    };
    let (mut out, _) = super::encoder::header(graph, magic);
    for layer in &graph.layers {
        let (shape, keys) = write_shape(layer);
        match layout {
            Layout::Plain => {
                out.extend_from_slice(&shape);
                out.extend(layer.edges.iter().flat_map(|e| e.to_le_bytes()));
            }
            Layout::ByPiece => {
                out.extend_from_slice(&shape[..keys]);
                by_piece::write(layer, &mut out);
            }
        }
    }
    out
}

/// A layer's keys (varint differences) and counts (a byte per field), and the bytes of the
/// keys.
fn write_shape(layer: &Layer) -> (Vec<u8>, usize) {
    let mut shape = Vec::new();
    let mut previous = 0;
    for &key in layer.keys.iter() {
        put_varint(&mut shape, key - previous);
        previous = key;
    }
    let keys = shape.len();
    shape.extend_from_slice(layer.starts.counts());
    (shape, keys)
}

/// Writes `graph` to `path` whole or not at all ([`write_whole`]).
pub(crate) fn save(graph: &PcGraph, path: &Path, layout: Layout) -> Result<(), GraphError> {
    write_whole(path, &encode(graph, layout))
}

/// Writes `bytes` to `path` whole or not at all: to a temporary file in the same folder,
/// renamed over `path` once written and synced.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), GraphError> {
    let io = |source| GraphError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(io)?;
    }
    // A name of its own per process and call, so that two writers never share one.
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file_name = path
        .file_name()
        .map_or("graph".into(), |n| n.to_string_lossy());
    let temporary = path.with_file_name(format!(".{file_name}.{}.{call}.tmp", std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(bytes)?;
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

/// Reads the graph in `path`, built for `rules`: the header, then each layer's sections
/// on whichever thread is free, the largest layers first, then each layer's index
/// ([`finish`]). Every error names the file ([`GraphError::in_file`]).
pub(crate) fn load(path: &Path, rules: RulesId, large_tables: bool) -> Result<PcGraph, GraphError> {
    load_with(path, rules, TABLE_LATER, large_tables).map_err(|error| error.in_file(path))
}

/// [`load`], the tables of layers of more than `later` fields made as [`finish`] says, its
/// errors of the file's bytes not yet naming the file.
fn load_with(
    path: &Path,
    rules: RulesId,
    later: usize,
    large_tables: bool,
) -> Result<PcGraph, GraphError> {
    let io = |source| GraphError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let length = file.metadata().map_err(io)?.len();
    if length < FIXED as u64 {
        // Too short for a header: what `decode` says of these few bytes (not a graph, or
        // a truncated one).
        let mut bytes = vec![0u8; length as usize];
        read_at(&file, &mut bytes, 0).map_err(|e| short(e, io))?;
        return decode(&bytes, rules);
    }
    let mut fixed = [0u8; FIXED];
    read_at(&file, &mut fixed, 0).map_err(|e| short(e, io))?;
    let layout = check_fixed(&fixed, rules)?;
    let count = u32::from_le_bytes(fixed[FIXED - 4..].try_into().expect("4 bytes")) as usize;
    if count == 0 || count > MAX_LAYERS {
        return Err(GraphError::Malformed("the number of layers"));
    }
    let mut header = vec![0u8; FIXED + count * ENTRY + 8];
    read_at(&file, &mut header, 0).map_err(|e| short(e, io))?;
    let (start, entries) = read_header(&header, length, layout)?;
    let order = largest_first(&entries);
    let parts = in_parallel(&order, |k| {
        let e = entries[k];
        let mut keys = vec![0u8; e.keys];
        read_at(&file, &mut keys, e.at as u64).map_err(|source| short(source, io))?;
        let body = (e.at + e.keys) as u64;
        let (counts, edges) = match layout {
            Layout::Plain => {
                // The counts and moves straight into their place.
                let mut counts = vec![0u8; e.fields];
                read_at(&file, &mut counts, body).map_err(|source| short(source, io))?;
                let mut edges = vec![0u16; e.edges];
                let at = body + e.fields as u64;
                read_at(&file, bytemuck::cast_slice_mut(&mut edges), at)
                    .map_err(|source| short(source, io))?;
                (counts, edges)
            }
            Layout::ByPiece => {
                let mut section = vec![0u8; e.body];
                read_at(&file, &mut section, body).map_err(|source| short(source, io))?;
                by_piece::read(&section, e.fields, e.edges)?
            }
        };
        read_layer(&keys, counts, edges, &e, pieces_needed(start) - k as u32)
    })?;
    finish(start, rules, parts, later, large_tables)
}

/// Reads exactly `buffer.len()` bytes at `offset`.
fn read_at(file: &std::fs::File, buffer: &mut [u8], offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(buffer, offset)
    }
    #[cfg(not(unix))]
    {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = file;
        file.seek(SeekFrom::Start(offset))?;
        file.read_exact(buffer)
    }
}

/// A read that ended early is a truncated file; other errors are the system's.
fn short(error: std::io::Error, io: impl Fn(std::io::Error) -> GraphError) -> GraphError {
    if error.kind() == std::io::ErrorKind::UnexpectedEof {
        GraphError::Truncated
    } else {
        io(error)
    }
}

/// The graph in `bytes` (the file format), built for `rules`.
pub(crate) fn decode(bytes: &[u8], rules: RulesId) -> Result<PcGraph, GraphError> {
    decode_with(bytes, rules, TABLE_LATER, true)
}

/// [`decode`], the tables of layers of more than `later` fields made on another thread (or,
/// when not `large_tables`, by the lookups once they are many: `Layer::table_when_needed`).
fn decode_with(
    bytes: &[u8],
    rules: RulesId,
    later: usize,
    large_tables: bool,
) -> Result<PcGraph, GraphError> {
    let fixed: &[u8; FIXED] = bytes
        .get(..FIXED)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| {
            if starts_as_graph(bytes) {
                GraphError::Truncated
            } else {
                GraphError::NotAGraph
            }
        })?;
    let layout = check_fixed(fixed, rules)?;
    let (start, entries) = read_header(bytes, bytes.len() as u64, layout)?;
    let order = largest_first(&entries);
    let parts = in_parallel(&order, |k| {
        let e = entries[k];
        let (keys, body) = bytes[e.at..e.at + e.size()].split_at(e.keys);
        let (counts, edges) = read_body(body, &e, layout)?;
        read_layer(
            keys,
            counts.to_vec(),
            edges,
            &e,
            pieces_needed(start) - k as u32,
        )
    })?;
    finish(start, rules, parts, later, large_tables)
}

/// A layer's numbers of moves and moves (little-endian, as the plain layout has them)
/// from its body in the file's layout.
pub(super) fn read_body(
    body: &[u8],
    entry: &Entry,
    layout: Layout,
) -> Result<(Vec<u8>, Vec<u16>), GraphError> {
    match layout {
        Layout::Plain => {
            let (counts, moves) = body.split_at(entry.fields);
            let mut edges = vec![0u16; entry.edges];
            bytemuck::cast_slice_mut::<u16, u8>(&mut edges).copy_from_slice(moves);
            Ok((counts.to_vec(), edges))
        }
        Layout::ByPiece => by_piece::read(body, entry.fields, entry.edges),
    }
}

/// Checks the magic, the version and the rules; the layout the magic names.
pub(super) fn check_fixed(fixed: &[u8; FIXED], rules: RulesId) -> Result<Layout, GraphError> {
    let layout = layout_of(&fixed[..MAGIC.len()]).ok_or(GraphError::NotAGraph)?;
    let mut reader = Reader {
        bytes: fixed,
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
    Ok(layout)
}

/// The start field and the layers' entries, from a header whose fixed part was checked,
/// in a file of `length` bytes laid out as `layout` says.
pub(super) fn read_header(
    bytes: &[u8],
    length: u64,
    layout: Layout,
) -> Result<(u64, Vec<Entry>), GraphError> {
    let mut reader = Reader {
        bytes,
        at: MAGIC.len() + 4 + 8,
    };
    let start = reader.u64()?;
    let count = reader.u32()? as usize;
    if count == 0 || count > MAX_LAYERS {
        return Err(GraphError::Malformed("the number of layers"));
    }
    let end = FIXED + count * ENTRY;
    let stored = u64::from_le_bytes(
        bytes
            .get(end..end + 8)
            .ok_or(GraphError::Truncated)?
            .try_into()
            .expect("8 bytes"),
    );
    if xxhash_rust::xxh3::xxh3_64(&bytes[..end]) != stored {
        return Err(GraphError::Checksum);
    }
    if !is_valid(start) || pieces_needed(start) as usize + 1 != count {
        return Err(GraphError::Malformed("the start field"));
    }
    let mut at = end as u64 + 8;
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        let [fields, edges, keys, shape_hash, moves_hash] =
            [(); 5].map(|()| reader.u64().expect("the header was read whole"));
        // Every field takes a byte of the keys: larger counts cannot be right.
        if fields > keys || fields > super::layer::MAX_FIELDS as u64 || edges > u64::from(u32::MAX)
        {
            return Err(GraphError::Malformed("a layer's size"));
        }
        // The header passed its hash, so a section past the file's end is a file cut
        // short (and its size is not allocated).
        if keys > length || edges > length {
            return Err(GraphError::Truncated);
        }
        let entry = Entry {
            fields: fields as usize,
            edges: edges as usize,
            keys: keys as usize,
            shape_hash,
            moves_hash,
            at: at as usize,
            body: usize::try_from(layout.body_bytes(fields, edges))
                .map_err(|_| GraphError::Truncated)?,
        };
        entries.push(entry);
        at = at
            .checked_add(entry.size() as u64)
            .ok_or(GraphError::Malformed("a layer's size"))?;
    }
    match at.cmp(&length) {
        std::cmp::Ordering::Greater => Err(GraphError::Truncated),
        std::cmp::Ordering::Less => Err(GraphError::Malformed("bytes after the last layer")),
        std::cmp::Ordering::Equal => Ok((start, entries)),
    }
}

/// The layers in the order they are best read: the largest first, so that the threads
/// end together.
fn largest_first(entries: &[Entry]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(entries[k].size()));
    order
}

/// The graph of the decoded layers, checked to start where the header says: each layer's
/// index made on whichever thread is free, the largest first, but the tables of layers of
/// more than `later` fields, which a thread of their own makes after, or, when not
/// `large_tables`, the lookups once they are many.
pub(super) fn finish(
    start: u64,
    rules: RulesId,
    parts: Vec<Parts>,
    later: usize,
    large_tables: bool,
) -> Result<PcGraph, GraphError> {
    if parts[0].keys != [start] {
        return Err(GraphError::Malformed("the first layer"));
    }
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(parts[k].keys.len()));
    let parts: Vec<std::sync::Mutex<Option<Parts>>> = parts
        .into_iter()
        .map(|p| std::sync::Mutex::new(Some(p)))
        .collect();
    let layers = in_parallel(&order, |k| {
        let taken = parts[k].lock().ok().and_then(|mut p| p.take());
        let Parts {
            keys,
            counts,
            edges,
        } = taken.expect("each layer is taken once");
        Ok(if keys.len() <= later {
            Layer::new(keys, counts, edges)
        } else if !large_tables {
            let mut layer = Layer::without_table(keys, counts, edges);
            layer.table_when_needed();
            layer
        } else if super::parallel::threads() > 1 {
            Layer::without_table(keys, counts, edges)
        } else {
            Layer::new(keys, counts, edges)
        })
    })?;
    let mut graph = PcGraph {
        rules,
        start,
        layers,
        three_left: None,
        four_left: Default::default(),
    };
    graph.index_small_layers();
    if !large_tables {
        return Ok(graph);
    }
    // The large layers' tables on another thread, the smallest first (each is of use as
    // soon as it is made); if no thread can be had, here.
    let mut large: Vec<&Layer> = graph
        .layers
        .iter()
        .filter(|l| !l.has_table() && super::lookup::KeyTable::fits(l.len()))
        .collect();
    large.sort_by_key(|l| l.len());
    let jobs: Vec<_> = large.iter().map(|l| l.table_later()).collect();
    if !jobs.is_empty() {
        let spawned = std::thread::Builder::new()
            .name("pc-graph-tables".into())
            .spawn(move || jobs.into_iter().for_each(|job| job()));
        if spawned.is_err() {
            large.iter().for_each(|l| l.table_later()());
        }
    }
    Ok(graph)
}

/// Layers of more fields than this get their lookup table after the load returns, on
/// another thread ([`Layer::table_later`]): the three largest of a full graph, whose
/// tables take most of a load's time and which a full ranking does not use.
pub(super) const TABLE_LATER: usize = 1 << 20;

/// A layer's keys, counts and moves, decoded and checked, before its index is made.
pub(super) struct Parts {
    keys: Vec<u64>,
    counts: Vec<u8>,
    edges: Vec<u16>,
}

/// A layer's parts from its sections (`keys` as in the file; `counts` and `edges` as read),
/// checked against their hashes: every key a field that needs `pieces` pieces, ascending,
/// every move of a piece and an id within the largest table, and every field with a move
/// but in the last layer (`pieces = 0`).
pub(super) fn read_layer(
    keys: &[u8],
    counts: Vec<u8>,
    mut edges: Vec<u16>,
    entry: &Entry,
    pieces: u32,
) -> Result<Parts, GraphError> {
    let malformed = GraphError::Malformed;
    // The keys and counts are one section with one hash.
    let mut shape = xxhash_rust::xxh3::Xxh3Default::new();
    shape.update(keys);
    shape.update(&counts);
    if shape.digest() != entry.shape_hash
        || xxhash_rust::xxh3::xxh3_64(bytemuck::cast_slice(&edges)) != entry.moves_hash
    {
        return Err(GraphError::Checksum);
    }
    // The file is little-endian.
    for e in edges.iter_mut() {
        *e = u16::from_le(*e);
    }
    let mut reader = Reader { bytes: keys, at: 0 };
    let keys = read_keys(&mut reader, entry.fields, pieces)?;
    if reader.at != entry.keys {
        return Err(malformed("a layer's keys"));
    }
    let mut at = 0usize;
    for &count in &counts {
        if (count == 0) != (pieces == 0) {
            return Err(malformed("a field's moves"));
        }
        at += usize::from(count);
    }
    if at != edges.len() {
        return Err(malformed("a layer's moves"));
    }
    // Every move of a piece and within the largest table (a move past its own piece's
    // table, which only a forged file has, leads nowhere: see `edge_move`).
    let (pieces_seen, ids_seen) = edges
        .iter()
        .fold((0u16, 0u16), |(p, i), &e| (p.max(e >> 8), i.max(e & 0xff)));
    if pieces_seen >= Piece::COUNT as u16 || usize::from(ids_seen) >= MAX_IDS {
        return Err(malformed("a move"));
    }
    Ok(Parts {
        keys,
        counts,
        edges,
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
        key = key.checked_add(delta).ok_or_else(|| malformed("a key"))?;
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
pub(super) fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

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

/// Where graphs are kept, and reading and writing them.
impl PcGraph {
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

    /// Where what a walk of five unknown pieces reads on the graph of `rules` in the cache
    /// folder is kept ([`PcGraph::save_prepared_five_unknown`]): beside the graph, with the
    /// extension `five`.
    pub fn prepared_cache_path(rules: &Rules) -> Option<PathBuf> {
        PcGraph::cache_path(rules).map(|path| path.with_extension("five"))
    }

    /// Writes the graph to `path`, whole or not at all (a temporary file beside it is
    /// renamed over it once complete).
    pub fn save(&self, path: &std::path::Path) -> Result<(), GraphError> {
        save(self, path, Layout::Plain)
    }

    /// Writes the graph to `path` as [`PcGraph::save`] does, its moves laid out for a
    /// download ([`PcGraph::to_bytes_by_piece`]).
    pub fn save_by_piece(&self, path: &std::path::Path) -> Result<(), GraphError> {
        save(self, path, Layout::ByPiece)
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
        load(path, RulesId::of(rules), true)
    }

    /// [`PcGraph::load`], but the lookup tables of the largest layers are left to the
    /// lookups that need them instead of made after the load: a layer's table is made (on
    /// the caller's thread) once it has been looked up as many times as it has fields,
    /// and until then fields are found by binary search. Tens of megabytes less for a
    /// process that answers one position or a few: the graph's walks look up few fields
    /// or none. Errors as [`PcGraph::load`].
    pub fn load_large_tables_when_needed(
        path: &std::path::Path,
        rules: &Rules,
    ) -> Result<PcGraph, GraphError> {
        load(path, RulesId::of(rules), false)
    }

    /// The graph in the bytes of a graph file (as [`PcGraph::to_bytes`] makes them and
    /// [`PcGraph::save`] writes them), for `rules`: for a graph that does not come from
    /// a file, such as one a browser downloaded. The same checks and tables as
    /// [`PcGraph::load`].
    pub fn from_bytes(bytes: &[u8], rules: &Rules) -> Result<PcGraph, GraphError> {
        decode(bytes, RulesId::of(rules))
    }

    /// The bytes of the graph's file (see [`PcGraph::save`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        encode(self, Layout::Plain)
    }

    /// The bytes of the graph's file with its moves laid out for a download: for each
    /// piece, every field's moves of that piece, instead of each field's moves together.
    /// A compressor packs it far smaller than the plain layout (the crate's README has the
    /// figures), since one piece's placements repeat from field to field. [`PcGraph::from_bytes`], [`PcGraph::load`] and [`PcGraph::reader`]
    /// read either layout, with the same checks; the plain one loads faster (its moves are
    /// read straight into place), so keep that one on disk.
    ///
    /// ```
    /// use pc_solver::{PcField, PcGraph, Rules};
    /// use std::ops::ControlFlow;
    ///
    /// let field = PcField::new("######..../######....".parse()?, 2)?;
    /// let graph = PcGraph::build_from(&field, &Rules::default(), &mut |_| ControlFlow::Continue(()))?;
    /// let bytes = graph.to_bytes_by_piece();
    /// assert_ne!(bytes, graph.to_bytes());
    /// assert_eq!(PcGraph::from_bytes(&bytes, &Rules::default())?, graph);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_bytes_by_piece(&self) -> Vec<u8> {
        encode(self, Layout::ByPiece)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::rules::Rules;
    use proptest::prelude::*;
    use std::ops::ControlFlow;
    use std::sync::OnceLock;

    /// The graph of 2-line PCs from the empty field, built once.
    pub(crate) fn two_line() -> &'static (PcGraph, Vec<u8>) {
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
            let bytes = encode(&graph, Layout::Plain);
            (graph, bytes)
        })
    }

    /// The same graph's file laid out by piece, made once.
    pub(crate) fn two_line_by_piece() -> &'static Vec<u8> {
        static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
        BYTES.get_or_init(|| encode(&two_line().0, Layout::ByPiece))
    }

    /// The file of the 2-line graph in either layout, and a copy with one byte changed
    /// (`at` taken modulo its length).
    pub(crate) fn two_line_damaged(
        by_piece: bool,
        at: usize,
        change: u8,
    ) -> (&'static [u8], Vec<u8>) {
        let bytes = if by_piece {
            two_line_by_piece()
        } else {
            &two_line().1
        };
        let mut damaged = bytes.clone();
        damaged[at % bytes.len()] ^= change;
        (bytes, damaged)
    }

    pub(crate) fn id() -> RulesId {
        RulesId::of(&Rules::default())
    }

    /// The bytes with every hash made right again after a change (when the header can
    /// still be read).
    pub(crate) fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let Some(count) = bytes.get(FIXED - 4..FIXED) else {
            return bytes;
        };
        let count = u32::from_le_bytes(count.try_into().unwrap()) as usize;
        if count == 0 || count > MAX_LAYERS || bytes.len() < FIXED + count * ENTRY + 8 {
            return bytes;
        }
        let mut at = FIXED + count * ENTRY + 8;
        for k in 0..count {
            let entry = FIXED + k * ENTRY;
            let word = |i: usize| {
                u64::from_le_bytes(bytes[entry + 8 * i..entry + 8 * i + 8].try_into().unwrap())
                    as usize
            };
            let (fields, edges, keys) = (word(0), word(1), word(2));
            let layout = layout_of(&bytes[..8]).unwrap_or(Layout::Plain);
            let body = layout.body_bytes(fields as u64, edges as u64);
            let Some(end) = usize::try_from(body)
                .ok()
                .and_then(|b| b.checked_add(keys))
                .and_then(|n| n.checked_add(at))
            else {
                return bytes;
            };
            if end > bytes.len() {
                return bytes;
            }
            // The hashes are those of the plain layout's sections: of the body put back
            // together, when it can be.
            let layer = Entry {
                fields,
                edges,
                keys,
                shape_hash: 0,
                moves_hash: 0,
                at,
                body: end - at - keys,
            };
            if let Ok((counts, moves)) = read_body(&bytes[at + keys..end], &layer, layout) {
                let mut shape = bytes[at..at + keys].to_vec();
                shape.extend_from_slice(&counts);
                let shape_hash = xxhash_rust::xxh3::xxh3_64(&shape);
                let moves_hash = xxhash_rust::xxh3::xxh3_64(bytemuck::cast_slice(&moves));
                bytes[entry + 24..entry + 32].copy_from_slice(&shape_hash.to_le_bytes());
                bytes[entry + 32..entry + 40].copy_from_slice(&moves_hash.to_le_bytes());
            }
            at = end;
        }
        let end = FIXED + count * ENTRY;
        let header_hash = xxhash_rust::xxh3::xxh3_64(&bytes[..end]);
        bytes[end..end + 8].copy_from_slice(&header_hash.to_le_bytes());
        bytes
    }

    #[test]
    fn tables_made_after_the_load_find_the_same_fields() {
        let (graph, bytes) = two_line();
        let later = decode_with(bytes, id(), 0, true).unwrap();
        assert_eq!(&later, graph);
        // Whether or not each table is made yet, then once they all are.
        let check = |later: &PcGraph| {
            for (layer, built) in later.layers.iter().zip(&graph.layers) {
                for (i, &key) in built.keys.iter().enumerate() {
                    assert_eq!(layer.find(key), Some(i as u32));
                    assert_eq!(layer.find(key + 1), built.find(key + 1));
                }
            }
        };
        check(&later);
        let waited = std::time::Instant::now();
        while !later.is_indexed() {
            assert!(waited.elapsed().as_secs() < 60, "the tables are never made");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        check(&later);
    }

    #[test]
    fn tables_left_to_the_lookups_find_the_same_fields() {
        let (graph, bytes) = two_line();
        let lazy = decode_with(bytes, id(), 0, false).unwrap();
        assert_eq!(&lazy, graph);
        assert!(!lazy.is_indexed(), "no table is made by the load");
        for (layer, built) in lazy.layers.iter().zip(&graph.layers) {
            let keys: Vec<u64> = built.keys.iter().flat_map(|&k| [k, k + 1]).collect();
            let mut many = vec![0; keys.len()];
            layer.find_many(&keys, &mut many);
            for (&key, &found) in keys.iter().zip(&many) {
                assert_eq!(layer.find(key), built.find(key));
                assert_eq!(
                    Some(found).filter(|&f| f != super::super::edge::NO_CHILD),
                    built.find(key)
                );
            }
        }
        assert!(lazy.is_indexed(), "the lookups made each layer's table");
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
    fn a_file_laid_out_by_piece_reads_back_as_the_same_graph() {
        let (graph, plain) = two_line();
        let bytes = two_line_by_piece();
        assert_eq!(&bytes[..8], MAGIC_BY_PIECE);
        // The same header but for the magic (and the header's own hash): the sections'
        // hashes are those of the plain moves.
        let header = FIXED + graph.layers.len() * ENTRY + 8;
        assert_eq!(bytes[8..header - 8], plain[8..header - 8]);
        // The lengths of a layer's seven streams, a count a field and piece and a byte a
        // move, against a count a field and two bytes a move.
        let (fields, moves) = (graph.fields() as usize, graph.transitions() as usize);
        let lengths = 28 * graph.layers.len();
        assert_eq!(
            bytes.len() + fields + 2 * moves,
            plain.len() + lengths + 7 * fields + moves
        );
        assert_eq!(&decode(bytes, id()).unwrap(), graph);
        let path =
            std::env::temp_dir().join(format!("pc-graph-by-piece-{}.bin", std::process::id()));
        graph.save_by_piece(&path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), *bytes);
        assert_eq!(&PcGraph::load(&path, &Rules::default()).unwrap(), graph);
        // Every layer's table left to the lookups: the same graph, no table made.
        let lazy = load_with(&path, id(), 0, false).unwrap();
        assert_eq!(&lazy, graph);
        assert!(!lazy.is_indexed());
        assert_eq!(
            &PcGraph::load_large_tables_when_needed(&path, &Rules::default()).unwrap(),
            graph
        );
        std::fs::remove_file(&path).unwrap();
        // Counts of a piece's moves that do not add up: nothing put back together from
        // them matches the hashes.
        let first_count = header + write_shape(&graph.layers[0]).1 + 28;
        for count in [0, 200, 255] {
            let mut forged = bytes.clone();
            forged[first_count] = count;
            assert!(
                matches!(decode(&forged, id()), Err(GraphError::Checksum)),
                "{count}"
            );
        }
        // Streams' lengths past the section, even summing past 2^32.
        for length in [u32::MAX, 1 << 31, 1] {
            let mut forged = bytes.clone();
            for piece in 0..7 {
                let at = first_count - 28 + 4 * piece;
                forged[at..at + 4].copy_from_slice(&length.to_le_bytes());
            }
            assert!(
                matches!(decode(&forged, id()), Err(GraphError::Checksum)),
                "{length}"
            );
        }
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
        // An error of the bytes names the file, and the same as the bytes' error.
        let damaged = folder.join("damaged.bin");
        for (bytes, reason) in [
            (&bytes[..bytes.len() - 1], GraphError::Truncated),
            (&bytes[..40], GraphError::Truncated),
            (&bytes[..20], GraphError::Truncated),
            (&b"PNG"[..], GraphError::NotAGraph),
            (&[][..], GraphError::NotAGraph),
        ] {
            std::fs::write(&damaged, bytes).unwrap();
            let error = PcGraph::load(&damaged, &Rules::default()).unwrap_err();
            let GraphError::File { path, error: inner } = &error else {
                panic!("{error:?}");
            };
            assert_eq!(path, &damaged);
            assert_eq!(inner.to_string(), reason.to_string());
            assert_eq!(
                decode(bytes, id()).unwrap_err().to_string(),
                reason.to_string()
            );
            assert_eq!(
                error.to_string(),
                format!("{}: {reason}", damaged.display())
            );
        }
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn bad_files_are_errors_that_say_why() {
        let (graph, bytes) = two_line();
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
        for cut in [10, 60, bytes.len() / 2, bytes.len() - 1] {
            assert!(
                matches!(decode(&bytes[..cut], id()), Err(GraphError::Truncated)),
                "{cut}"
            );
        }
        let mut flipped = bytes.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 0x10;
        assert!(matches!(decode(&flipped, id()), Err(GraphError::Checksum)));
        // A change the hashes were made to match is still caught by the checks.
        let mut forged = bytes.clone();
        forged[FIXED - 4] = 0;
        assert!(matches!(
            decode(&resealed(forged), id()),
            Err(GraphError::Malformed(_))
        ));
        let mut forged = bytes.clone();
        // The last layer's only field is the cleared one, with no moves: give it one.
        let last = FIXED + (graph.layers.len() - 1) * ENTRY;
        forged[last + 8] = 1;
        forged.extend_from_slice(&[0, 0]);
        assert!(matches!(
            decode(&resealed(forged), id()),
            Err(GraphError::Malformed(_))
        ));
        let mut extra = bytes.clone();
        extra.push(0);
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

        /// Any damage is an error; damage the hashes were made to match never panics and
        /// never reads back as the same graph.
        #[test]
        fn damaged_files_are_errors(
            at in 0usize..1 << 20,
            change in 1u8..=255,
            by_piece: bool,
        ) {
            let graph = &two_line().0;
            let (bytes, damaged) = two_line_damaged(by_piece, at, change);
            prop_assert!(decode(&damaged, id()).is_err());
            let forged = resealed(damaged);
            // Resealing undoes a change to a hash.
            if forged != *bytes {
                if let Ok(read) = decode(&forged, id()) {
                    // A forged section can describe another well-formed graph, never this one.
                    prop_assert!(read != *graph, "{at}");
                }
            }
        }
    }
}
