//! [`GraphReader`]: a graph file read as its bytes arrive, never whole in memory.
//!
//! A browser downloads a graph in chunks. Gathering the file before reading it keeps its
//! bytes and the graph made from them in memory at once, and a WebAssembly module's memory
//! never shrinks, so that peak stays for the life of the page. This reader puts each
//! layer's moves straight into their place as they arrive and keeps only the current
//! layer's keys and counts aside until the layer is complete; it checks what
//! [`PcGraph::from_bytes`] checks, in the same order of the file.

use super::by_piece::Layout;
use super::error::GraphError;
use super::file::{
    ENTRY, Entry, FIXED, Parts, TABLE_LATER, check_fixed, finish, read_body, read_header,
    read_layer,
};
use super::key::pieces_needed;
use super::pc_graph::PcGraph;
use crate::rules::{Rules, RulesId};

/// Reads a graph file from its bytes in order, in chunks of any size, as they arrive (a
/// download): [`GraphReader::push`] each chunk, then [`GraphReader::finish`].
///
/// The checks are those of [`PcGraph::from_bytes`] (magic, version, rules, the header's
/// and every section's hash, the structure of every layer), made as soon as the bytes they
/// need are in: a damaged file is an error, never a graph. The file's length is given
/// first, so a header that does not add up to it is an error before anything of the size
/// it claims is allocated. Memory: the graph's own, plus one layer's keys as the file has
/// them; laid out by piece, one layer's body too, while it is put back in the plain
/// layout.
///
/// ```
/// use pc_solver::{PcField, PcGraph, Rules};
/// use std::ops::ControlFlow;
///
/// let field = PcField::new("######..../######....".parse()?, 2)?;
/// let graph = PcGraph::build_from(&field, &Rules::default(), &mut |_| ControlFlow::Continue(()))?;
/// let bytes = graph.to_bytes();
///
/// let mut reader = PcGraph::reader(&Rules::default(), bytes.len() as u64);
/// for chunk in bytes.chunks(1000) {
///     reader.push(chunk)?;
/// }
/// assert_eq!(reader.finish()?, graph);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct GraphReader {
    rules: RulesId,
    /// The file's length, as given.
    length: u64,
    /// Bytes pushed so far.
    read: u64,
    stage: Stage,
    /// The file's layout, once its magic is read.
    layout: Layout,
    /// The header's bytes while it is read, then the current layer's keys.
    pending: Vec<u8>,
    /// The start field's key and the layers' entries, once the header is read.
    start: u64,
    entries: Vec<Entry>,
    /// The current layer's body: how many of its bytes are in; in the plain layout its
    /// numbers of moves and its moves, put in place as they come; laid out by piece, its
    /// bytes as they come, put in the plain layout once all are in.
    body_read: usize,
    counts: Vec<u8>,
    edges: Vec<u16>,
    by_piece: Vec<u8>,
    /// The layers read, in order.
    parts: Vec<Parts>,
    /// The first error met: every later call answers it.
    failed: Option<GraphError>,
    /// Whether to make the lookup tables of the largest layers.
    large_tables: bool,
}

/// What the next bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The header (`pending` holds what arrived of it).
    Header,
    /// The keys of the layer `parts.len()`.
    Keys,
    /// The body of that layer.
    Body,
    /// Nothing: every layer is in.
    Done,
}

impl PcGraph {
    /// A reader of a graph file of `length` bytes built for `rules`, in either layout
    /// ([`PcGraph::to_bytes`], [`PcGraph::to_bytes_by_piece`]), for bytes that arrive in
    /// chunks (see [`GraphReader`]).
    pub fn reader(rules: &Rules, length: u64) -> GraphReader {
        GraphReader {
            rules: RulesId::of(rules),
            length,
            read: 0,
            stage: Stage::Header,
            layout: Layout::Plain,
            pending: Vec::new(),
            start: 0,
            entries: Vec::new(),
            body_read: 0,
            counts: Vec::new(),
            edges: Vec::new(),
            by_piece: Vec::new(),
            parts: Vec::new(),
            failed: None,
            large_tables: true,
        }
    }
}

/// Where the reading is, not the layers read (millions of keys).
impl std::fmt::Debug for GraphReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GraphReader")
            .field("length", &self.length)
            .field("read", &self.read)
            .field("layers_read", &self.parts.len())
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl GraphReader {
    /// Reads the next bytes of the file. An error is the file's (what
    /// [`PcGraph::from_bytes`] would say of it, [`GraphError::Malformed`] for bytes past
    /// the length given) and ends the reading: every later call answers the same error.
    /// Cost: linear in the bytes, each layer's checks when its last byte arrives.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), GraphError> {
        if let Some(error) = &self.failed {
            return Err(error.again());
        }
        let result = self.take(bytes);
        if let Err(error) = &result {
            self.failed = Some(error.again());
            // What was read is of no use any more.
            self.parts = Vec::new();
            self.pending = Vec::new();
            self.counts = Vec::new();
            self.edges = Vec::new();
            self.by_piece = Vec::new();
        }
        result
    }

    /// Leaves the lookup tables of the largest layers (those of more than 2^20 fields, most
    /// of the tables' memory) to the lookups that need each, instead of making them at the
    /// end of the load: for a reader short of memory. A full ranking's walk finds most
    /// children by going through a layer's keys in order; fields looked up one at a time
    /// are found by binary search until a layer has been looked up as many times as it
    /// has fields, then its table is made, once. The answers are the same either way.
    pub fn large_tables_when_needed(mut self) -> GraphReader {
        self.large_tables = false;
        self
    }

    /// Bytes pushed so far.
    pub fn bytes_read(&self) -> u64 {
        self.read
    }

    /// The graph, once every byte is in: [`GraphError::Truncated`] when some are missing,
    /// or the error a [`GraphReader::push`] met. The lookup tables are made as
    /// [`PcGraph::load`] makes them.
    pub fn finish(self) -> Result<PcGraph, GraphError> {
        if let Some(error) = self.failed {
            return Err(error);
        }
        if self.stage != Stage::Done {
            // The length said more bytes would come; a file shorter than its fixed
            // header is not yet known to be a graph at all.
            if self.stage == Stage::Header
                && self.pending.len() < FIXED
                && !super::file::starts_as_graph(&self.pending)
            {
                return Err(GraphError::NotAGraph);
            }
            return Err(GraphError::Truncated);
        }
        finish(
            self.start,
            self.rules,
            self.parts,
            TABLE_LATER,
            self.large_tables,
        )
    }

    fn take(&mut self, mut bytes: &[u8]) -> Result<(), GraphError> {
        self.read += bytes.len() as u64;
        if self.read > self.length {
            return Err(GraphError::Malformed("bytes after the length given"));
        }
        while !bytes.is_empty() {
            bytes = match self.stage {
                Stage::Header => self.header(bytes)?,
                Stage::Keys => self.keys(bytes)?,
                Stage::Body => self.body(bytes)?,
                Stage::Done => return Err(GraphError::Malformed("bytes after the last layer")),
            };
        }
        Ok(())
    }

    /// Gathers the header; once whole, checks it and starts the first layer.
    fn header<'b>(&mut self, bytes: &'b [u8]) -> Result<&'b [u8], GraphError> {
        // The fixed part says how long the rest is.
        let wanted = if self.pending.len() < FIXED {
            FIXED
        } else {
            FIXED + self.layer_count() * ENTRY + 8
        };
        let (now, rest) = bytes.split_at(bytes.len().min(wanted - self.pending.len()));
        self.pending.extend_from_slice(now);
        if self.pending.len() < wanted {
            return Ok(rest);
        }
        if wanted == FIXED {
            let fixed = self.pending[..].try_into().expect("the fixed part");
            self.layout = check_fixed(fixed, self.rules)?;
            if self.layer_count() == 0 || self.layer_count() > super::file::MAX_LAYERS {
                return Err(GraphError::Malformed("the number of layers"));
            }
            return Ok(rest);
        }
        let (start, entries) = read_header(&self.pending, self.length, self.layout)?;
        self.start = start;
        self.entries = entries;
        self.start_layer()?;
        Ok(rest)
    }

    /// The number of layers the fixed part of the header says.
    fn layer_count(&self) -> usize {
        let count = self.pending[FIXED - 4..FIXED]
            .try_into()
            .expect("four bytes");
        u32::from_le_bytes(count) as usize
    }

    /// Gathers the current layer's keys.
    fn keys<'b>(&mut self, bytes: &'b [u8]) -> Result<&'b [u8], GraphError> {
        let entry = self.entries[self.parts.len()];
        let (now, rest) = bytes.split_at(bytes.len().min(entry.keys - self.pending.len()));
        self.pending.extend_from_slice(now);
        self.advance()?;
        Ok(rest)
    }

    /// Takes the current layer's body: in the plain layout, its numbers of moves, then its
    /// moves straight into their place; laid out by piece, gathered.
    fn body<'b>(&mut self, bytes: &'b [u8]) -> Result<&'b [u8], GraphError> {
        let entry = self.entries[self.parts.len()];
        let (mut now, rest) = bytes.split_at(bytes.len().min(entry.body - self.body_read));
        self.body_read += now.len();
        match self.layout {
            Layout::ByPiece => self.by_piece.extend_from_slice(now),
            Layout::Plain => {
                let counts = now.len().min(entry.fields - self.counts.len());
                self.counts.extend_from_slice(&now[..counts]);
                now = &now[counts..];
                if !now.is_empty() {
                    // The moves of this chunk end where the body read so far does.
                    let target: &mut [u8] = bytemuck::cast_slice_mut(&mut self.edges);
                    let at = self.body_read - entry.fields - now.len();
                    target[at..at + now.len()].copy_from_slice(now);
                }
            }
        }
        self.advance()?;
        Ok(rest)
    }

    /// Goes past every section whose bytes are all in (an empty one at once): from the
    /// keys to the body, from the body to the layer's checks and the next layer.
    fn advance(&mut self) -> Result<(), GraphError> {
        loop {
            let Some(&entry) = self.entries.get(self.parts.len()) else {
                self.stage = Stage::Done;
                return Ok(());
            };
            match self.stage {
                Stage::Keys if self.pending.len() == entry.keys => {
                    self.stage = Stage::Body;
                    self.body_read = 0;
                    match self.layout {
                        Layout::Plain => {
                            self.counts = Vec::with_capacity(entry.fields);
                            self.edges = vec![0u16; entry.edges];
                        }
                        Layout::ByPiece => self.by_piece = Vec::with_capacity(entry.body),
                    }
                }
                Stage::Body if self.body_read == entry.body => self.end_layer()?,
                _ => return Ok(()),
            }
        }
    }

    /// Checks the layer whose bytes are all in, and starts the next.
    fn end_layer(&mut self) -> Result<(), GraphError> {
        let k = self.parts.len();
        let entry = self.entries[k];
        let keys = std::mem::take(&mut self.pending);
        let (counts, edges) = match self.layout {
            Layout::Plain => (
                std::mem::take(&mut self.counts),
                std::mem::take(&mut self.edges),
            ),
            Layout::ByPiece => {
                let body = std::mem::take(&mut self.by_piece);
                read_body(&body, &entry, self.layout)?
            }
        };
        let pieces = pieces_needed(self.start) - k as u32;
        self.parts
            .push(read_layer(&keys, counts, edges, &entry, pieces)?);
        self.start_layer()
    }

    /// Starts the layer after those read (or ends the file).
    fn start_layer(&mut self) -> Result<(), GraphError> {
        self.pending = Vec::new();
        if let Some(next) = self.entries.get(self.parts.len()) {
            self.pending.reserve_exact(next.keys);
        }
        self.stage = Stage::Keys;
        self.advance()
    }
}

#[cfg(test)]
mod tests {
    use super::super::file::decode;
    use super::super::file::tests::{id, resealed, two_line, two_line_by_piece, two_line_damaged};
    use super::*;
    use proptest::prelude::*;

    /// Reads `bytes` pushed in chunks of the sizes given, in turn (the last size again
    /// when they run out), with `length` as the file's length.
    fn read_in(bytes: &[u8], sizes: &[usize], length: u64) -> Result<PcGraph, GraphError> {
        let mut reader = PcGraph::reader(&Rules::default(), length);
        let mut rest = bytes;
        for k in 0.. {
            if rest.is_empty() {
                break;
            }
            let size = sizes[k.min(sizes.len() - 1)].clamp(1, rest.len());
            let (chunk, after) = rest.split_at(size);
            reader.push(chunk)?;
            rest = after;
        }
        assert_eq!(reader.bytes_read(), bytes.len() as u64);
        reader.finish()
    }

    #[test]
    fn a_file_cut_short_or_too_long_is_an_error() {
        let (graph, bytes) = two_line();
        let length = bytes.len() as u64;
        assert_eq!(&read_in(bytes, &[4096], length).unwrap(), graph);
        for cut in [0, 10, 20, 60, bytes.len() / 2, bytes.len() - 1] {
            let error = read_in(&bytes[..cut], &[7], length).unwrap_err();
            let expected = if cut < 8 {
                "not a graph file"
            } else {
                "the graph file is truncated"
            };
            assert_eq!(error.to_string(), expected, "{cut}");
        }
        // A length that is not the header's: the header says so; more bytes than the
        // length are an error at once, and every later push answers it again.
        assert!(matches!(
            read_in(bytes, &[100], length + 1),
            Err(GraphError::Malformed(_))
        ));
        assert!(matches!(
            read_in(bytes, &[100], length - 1),
            Err(GraphError::Truncated)
        ));
        let mut reader = PcGraph::reader(&Rules::default(), 3);
        assert!(reader.push(b"PCGRAPH").is_err());
        assert_eq!(
            reader.push(b"").unwrap_err().to_string(),
            "the graph file is malformed: bytes after the length given"
        );
        assert!(reader.finish().is_err());
        // Another version or other rules, as soon as the fixed header is in.
        let mut reader = PcGraph::reader(
            &Rules {
                kicks: pc_srs::KickTable::srs_plus(),
                ..Rules::default()
            },
            length,
        );
        assert!(matches!(
            reader.push(&bytes[..40]),
            Err(GraphError::OtherRules { .. })
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Chunks of any sizes read back the graph.
        #[test]
        fn chunks_of_any_size_read_back_the_graph(
            sizes in proptest::collection::vec(prop_oneof![1usize..16, 1usize..70_000], 1..40),
            by_piece: bool,
        ) {
            let (graph, plain) = two_line();
            let bytes = if by_piece { two_line_by_piece() } else { plain };
            prop_assert_eq!(&read_in(bytes, &sizes, bytes.len() as u64).unwrap(), graph);
        }

        /// Damage is the error `from_bytes` finds, whatever the chunks; damage the hashes
        /// were made to match is an error for both or for neither, and never this graph.
        #[test]
        fn damage_is_the_same_error_as_from_bytes(
            at in 0usize..1 << 20,
            change in 1u8..=255,
            size in 1usize..100_000,
            by_piece: bool,
        ) {
            let graph = &two_line().0;
            let (bytes, damaged) = two_line_damaged(by_piece, at, change);
            let length = damaged.len() as u64;
            let read = read_in(&damaged, &[size], length).map(|_| ());
            let decoded = decode(&damaged, id()).map(|_| ());
            prop_assert_eq!(read.unwrap_err().to_string(), decoded.unwrap_err().to_string());
            let forged = resealed(damaged);
            let read = read_in(&forged, &[size], length);
            prop_assert_eq!(read.is_err(), decode(&forged, id()).is_err(), "{}", at);
            if let Ok(read) = read {
                prop_assert!(forged == *bytes || read != *graph, "{}", at);
            }
        }
    }
}
