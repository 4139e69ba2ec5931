//! The PC field graph in the page, streamed in: the page starts a load ([`begin`]), writes
//! each chunk of the file as it arrives into a buffer of the module ([`chunk`]) and hands
//! it over ([`push`]); the module reads the chunks as they come
//! ([`pc_solver::GraphReader`]), so the file is never whole in memory beside the graph,
//! and keeps the graph when the last is in ([`finish`]); solves with the graph's rules
//! answer from it.
//!
//! The site serves the file zstd-compressed, its moves laid out by piece (what compresses
//! best, see `web/build-graphs.sh`); the module decompresses it as it comes. The page keeps
//! the download in the browser's cache, and a later visit streams it in the same way.
//!
//! A plain layout loads faster than the layout by piece, which must be put back together:
//! once a graph is in, the page may ask for its file in the plain layout a chunk at a time
//! ([`plain_begin`], [`plain_next`]) and keep that in the cache instead.
//!
//! What [`prepare`] makes takes seconds in the module and a read from a file: the site
//! serves a copy beside the graph (zstd-compressed), and the page may keep it beside the
//! graph ([`prepared_save`]); either is given back after a load ([`prepared_load`]).
//!
//! One graph at a time: starting a load lets the loaded graph go first, so the module's
//! memory never holds two.

use crate::form::{Form, FormError, drop_name};
use pc_solver::{GraphEncoder, GraphError, GraphReader, PcGraph, Rules, RulesId};
use ruzstd::decoding::FrameDecoder;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    static LOADING: RefCell<Option<Loading>> = const { RefCell::new(None) };
    /// Where the page writes the next chunk.
    static CHUNK: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static GRAPH: RefCell<Option<Arc<PcGraph>>> = const { RefCell::new(None) };
    /// The loaded graph's file in the plain layout, being made for the page's cache.
    static PLAIN: RefCell<Option<GraphEncoder>> = const { RefCell::new(None) };
    /// Bytes of what a walk of five unknown pieces reads, on their way to or from the
    /// page's file beside the graph ([`prepared_save`], [`prepared_load`]).
    static PREPARED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// Where the last chunk of [`PLAIN`] is.
    static PLAIN_CHUNK: std::cell::Cell<*const u8> = const { std::cell::Cell::new(std::ptr::null()) };
}

/// How the bytes of a graph file come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Coding {
    /// As the file is (the browser's cache keeps them so).
    #[default]
    None,
    /// One zstd frame (the site serves them so).
    Zstd,
}

/// A load under way.
struct Loading {
    rules: Rules,
    reader: GraphReader,
    /// The decompressor, for zstd.
    unpack: Option<Unpack>,
    /// The first error met: the load is over, and [`finish`] answers it.
    failed: Option<LoadError>,
}

/// A zstd frame decompressed as it arrives.
struct Unpack {
    frame: Frame,
    /// Compressed bytes not yet decompressed (less than a block, between pushes).
    input: Vec<u8>,
}

/// The decompressor, and where it drains to.
struct Frame {
    decoder: FrameDecoder,
    scratch: Vec<u8>,
}

/// The most bytes one zstd block takes, with its header: with this many bytes at hand the
/// decompressor can always go on, and it needs a frame's header whole to start.
const BLOCK: usize = (128 << 10) + 64;

/// What was loaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Loaded {
    /// The kick table's name.
    pub kicks: String,
    /// The drop mode's name.
    pub drop: String,
    /// Fields of the graph.
    pub fields: u64,
    /// Fields per layer (pieces placed since its start).
    pub layers: Vec<u64>,
    /// The start field, as rows.
    pub start: String,
    /// Bytes of the file read (decompressed).
    pub bytes: u64,
}

/// Why a graph was not loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Unknown kicks or drop mode.
    #[error(transparent)]
    Rules(#[from] FormError),
    /// No load was started, or it was finished already.
    #[error("graph: no load was started")]
    NotStarted,
    /// The compressed bytes are not a zstd frame, or are damaged, or end early.
    #[error("graph: the download does not decompress ({0})")]
    Unpack(String),
    /// The file fails the graph's checks (never used then).
    #[error("graph: {0}")]
    Graph(#[from] GraphError),
}

/// Starts reading a graph file of `length` bytes (decompressed) built for the rules of
/// `kicks` and `drop`, its bytes coming as `coding` says. Lets the loaded graph, and any
/// load under way, go first.
pub fn begin(kicks: &str, drop: &str, length: u64, coding: Coding) -> Result<(), LoadError> {
    unload();
    let rules = Form {
        kicks: kicks.to_string(),
        drop: drop.to_string(),
        ..Form::default()
    }
    .rules()?;
    let unpack = (coding == Coding::Zstd).then(|| Unpack {
        frame: Frame {
            decoder: FrameDecoder::new(),
            scratch: vec![0; 1 << 20],
        },
        input: Vec::new(),
    });
    // The tables of the largest layers would take most of the tables' memory and of the
    // load's time, for lookups most of the page's solves never make (web/README.md).
    let reader = PcGraph::reader(&rules, length).large_tables_when_needed();
    LOADING.with(|l| {
        *l.borrow_mut() = Some(Loading {
            rules,
            reader,
            unpack,
            failed: None,
        })
    });
    Ok(())
}

/// Makes the chunk buffer `len` bytes long (zeros) and returns where it starts: the page
/// writes the next chunk of the file there, then calls [`push`].
pub fn chunk(len: usize) -> *mut u8 {
    CHUNK.with(|chunk| {
        let mut chunk = chunk.borrow_mut();
        chunk.clear();
        chunk.resize(len, 0);
        chunk.as_mut_ptr()
    })
}

/// Reads the chunk in the buffer (`last`: no more will come). Returns how many bytes it
/// decompressed (none for a file that comes uncompressed), or `None` when the load has
/// failed: [`finish`] says why.
pub fn push(last: bool) -> Option<usize> {
    let bytes = CHUNK.with(|c| std::mem::take(&mut *c.borrow_mut()));
    LOADING.with(|l| {
        let mut l = l.borrow_mut();
        let loading = l.as_mut()?;
        if loading.failed.is_some() {
            return None;
        }
        let read = match &mut loading.unpack {
            None => loading
                .reader
                .push(&bytes)
                .map(|()| 0)
                .map_err(LoadError::from),
            Some(unpack) => unpack.take(&bytes, last, &mut loading.reader),
        };
        match read {
            Ok(n) => Some(n),
            Err(e) => {
                loading.failed = Some(e);
                // The layers read so far are of no use any more.
                loading.reader = PcGraph::reader(&loading.rules, 0);
                None
            }
        }
    })
}

impl Unpack {
    /// Decompresses what it can of the bytes so far into `reader`; returns how many bytes
    /// it decompressed.
    fn take(
        &mut self,
        bytes: &[u8],
        last: bool,
        reader: &mut GraphReader,
    ) -> Result<usize, LoadError> {
        self.input.extend_from_slice(bytes);
        let mut at = 0;
        let mut given = 0;
        // Short of a whole block the decompressor may make no progress: wait for more,
        // unless no more will come.
        while (last && at < self.input.len()) || self.input.len() - at >= BLOCK {
            let end = self.input.len().min(at + 4 * BLOCK);
            let (read, written) = self.frame.decode(&self.input[at..end], reader)?;
            given += written;
            at += read;
            if read == 0 && written == 0 {
                break;
            }
        }
        self.input.drain(..at);
        if last {
            given += self.frame.decode(&[], reader)?.1;
            if !self.frame.decoder.is_finished() {
                return Err(LoadError::Unpack("it ends early".into()));
            }
            if !self.input.is_empty() {
                return Err(LoadError::Unpack("bytes after its end".into()));
            }
        }
        Ok(given)
    }
}

impl Frame {
    /// Decompresses the blocks whole in `source`, then takes out every byte the
    /// decompressor can give (all but the window it may still copy from, until the frame
    /// ends), so that it never holds more than a window and those blocks. Returns the
    /// bytes of `source` read and the bytes given.
    fn decode(
        &mut self,
        source: &[u8],
        reader: &mut GraphReader,
    ) -> Result<(usize, usize), LoadError> {
        let broken =
            |e: ruzstd::decoding::errors::FrameDecoderError| LoadError::Unpack(e.to_string());
        let (read, mut written) = self
            .decoder
            .decode_from_to(source, &mut self.scratch)
            .map_err(broken)?;
        let mut given = 0;
        while written > 0 {
            reader.push(&self.scratch[..written])?;
            given += written;
            written = self
                .decoder
                .decode_from_to(&[], &mut self.scratch)
                .map_err(broken)?
                .1;
        }
        Ok((read, given))
    }
}

/// Ends the load: the graph, kept for the solves with its rules, or why there is none
/// (the first error met; nothing is kept then).
pub fn finish() -> Result<Loaded, LoadError> {
    let loading = LOADING
        .with(|l| l.borrow_mut().take())
        .ok_or(LoadError::NotStarted)?;
    CHUNK.with(|c| *c.borrow_mut() = Vec::new());
    if let Some(error) = loading.failed {
        return Err(error);
    }
    if let Some(unpack) = &loading.unpack
        && (!unpack.frame.decoder.is_finished() || !unpack.input.is_empty())
    {
        return Err(LoadError::Unpack("it ends early".into()));
    }
    let bytes = loading.reader.bytes_read();
    let graph = loading.reader.finish()?;
    let start = graph.start();
    let loaded = Loaded {
        kicks: loading.rules.kicks.name().to_string(),
        drop: drop_name(loading.rules.drop).to_string(),
        fields: graph.fields(),
        layers: graph.fields_per_layer(),
        start: crate::form::field_rows(start.board()),
        bytes,
    };
    PLAIN.with(|p| p.borrow_mut().take());
    GRAPH.with(|g| *g.borrow_mut() = Some(Arc::new(graph)));
    Ok(loaded)
}

/// The loaded graph, when it was built for `rules`.
pub fn for_rules(rules: &Rules) -> Option<Arc<PcGraph>> {
    let id = RulesId::of(rules);
    GRAPH.with(|g| g.borrow().as_ref().filter(|g| g.rules_id() == id).cloned())
}

/// Makes what a walk of five unknown pieces reads on the loaded graph
/// ([`PcGraph::prepare_five_unknown`]); whether a graph is loaded.
pub fn prepare() -> bool {
    let Some(graph) = GRAPH.with(|g| g.borrow().clone()) else {
        return false;
    };
    graph.prepare_five_unknown();
    true
}

/// The prepared buffer made `len` bytes long (zeros; 0 lets its memory go): the page
/// writes a kept file there before [`prepared_load`]. Where it starts; null, the buffer
/// empty, when the module's memory cannot grow that far (a file too large to be one).
pub fn prepared_buffer(len: usize) -> *mut u8 {
    PREPARED.with(|p| {
        let mut p = p.borrow_mut();
        *p = Vec::new();
        if p.try_reserve_exact(len).is_err() {
            return std::ptr::null_mut();
        }
        p.resize(len, 0);
        p.as_mut_ptr()
    })
}

/// Puts what [`prepare`] made on the loaded graph in the buffer
/// ([`PcGraph::prepared_five_unknown`]), for the page to keep; its length, `None` when no
/// graph is loaded or it has not made them.
pub fn prepared_save() -> Option<usize> {
    let graph = GRAPH.with(|g| g.borrow().clone())?;
    let bytes = graph.prepared_five_unknown()?;
    let len = bytes.len();
    PREPARED.with(|p| *p.borrow_mut() = bytes);
    Some(len)
}

/// Where the prepared buffer starts.
pub fn prepared_bytes() -> *const u8 {
    PREPARED.with(|p| p.borrow().as_ptr())
}

/// Takes what a walk of five unknown pieces reads from the buffer, which the page filled
/// from the file it kept or with the site's copy ([`PcGraph::prepare_five_unknown_from`]),
/// and lets the buffer go. The site's copy comes as `coding` says; compressed, it must
/// decompress to `length` bytes (the site's index says how many), and never more is made.
pub fn prepared_load(coding: Coding, length: Option<u64>) -> Result<(), PreparedError> {
    let bytes = PREPARED.with(|p| std::mem::take(&mut *p.borrow_mut()));
    let graph = GRAPH
        .with(|g| g.borrow().clone())
        .ok_or(PreparedError::NoGraph)?;
    let bytes = match coding {
        Coding::None => bytes,
        Coding::Zstd => unpack_whole(&bytes, length.ok_or(PreparedError::NoLength)?)?,
    };
    Ok(graph.prepare_five_unknown_from(&bytes)?)
}

/// The zstd frame `packed` decompressed, which must be `length` bytes.
fn unpack_whole(packed: &[u8], length: u64) -> Result<Vec<u8>, PreparedError> {
    use std::io::Read;
    let broken = |e: String| PreparedError::Unpack(e);
    let mut decoder =
        ruzstd::decoding::StreamingDecoder::new(packed).map_err(|e| broken(e.to_string()))?;
    let mut out = Vec::new();
    out.try_reserve_exact(usize::try_from(length).unwrap_or(usize::MAX))
        .map_err(|_| broken(format!("no memory for {length} bytes")))?;
    // One byte more than promised tells a frame that goes on.
    (&mut decoder)
        .take(length.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| broken(e.to_string()))?;
    let got = out.len() as u64;
    if got > length {
        return Err(broken(format!(
            "more than the {length} bytes the site's index gives"
        )));
    }
    if got < length {
        return Err(broken(format!(
            "{got} bytes, not the {length} the site's index gives"
        )));
    }
    Ok(out)
}

/// Why [`prepared_load`] took nothing.
#[derive(Debug, thiserror::Error)]
pub enum PreparedError {
    /// No graph is loaded.
    #[error("prepared: no graph is loaded")]
    NoGraph,
    /// The bytes are not for the loaded graph, or damaged.
    #[error("prepared: {0}")]
    Bytes(#[from] GraphError),
    /// Compressed bytes without the length they decompress to.
    #[error("prepared: zstd bytes need their length decompressed (`bytes`)")]
    NoLength,
    /// The compressed bytes do not decompress, or not to the length given.
    #[error("prepared: the site's copy does not decompress ({0})")]
    Unpack(String),
}

/// Starts making the loaded graph's file in the plain layout ([`plain_next`]); its length
/// in bytes, or `None` when no graph is loaded.
pub fn plain_begin() -> Option<u64> {
    let graph = GRAPH.with(|g| g.borrow().clone())?;
    let encoder = GraphEncoder::new(graph);
    let len = encoder.len();
    PLAIN.with(|p| *p.borrow_mut() = Some(encoder));
    Some(len)
}

/// The next chunk of the file [`plain_begin`] started: its length (at [`plain_chunk`]), 0
/// once the file is all given (the encoder then lets the graph go), `None` when none was
/// started or a load since let it go.
pub fn plain_next() -> Option<usize> {
    PLAIN.with(|p| {
        let mut plain = p.borrow_mut();
        let encoder = plain.as_mut()?;
        match encoder.next_chunk() {
            Some(chunk) => {
                PLAIN_CHUNK.with(|at| at.set(chunk.as_ptr()));
                Some(chunk.len())
            }
            None => {
                *plain = None;
                Some(0)
            }
        }
    })
}

/// Where the last chunk [`plain_next`] made is: valid until the next call into the module.
pub fn plain_chunk() -> *const u8 {
    PLAIN_CHUNK.with(|at| at.get())
}

/// Lets the loaded graph, and any load under way, go.
pub fn unload() {
    PLAIN.with(|p| p.borrow_mut().take());
    prepared_buffer(0);
    GRAPH.with(|g| g.borrow_mut().take());
    LOADING.with(|l| l.borrow_mut().take());
    CHUNK.with(|c| *c.borrow_mut() = Vec::new());
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// What the page does after [`chunk`]: writes the chunk where the module said.
    pub(crate) fn write_chunk(at: *mut u8, bytes: &[u8]) {
        CHUNK.with(|c| {
            let mut c = c.borrow_mut();
            assert_eq!(c.as_mut_ptr(), at);
            c.copy_from_slice(bytes);
        });
    }

    /// What the page does after [`prepared_buffer`]: writes the kept file where the module said.
    pub(crate) fn write_prepared(at: *mut u8, bytes: &[u8]) {
        PREPARED.with(|p| {
            let mut p = p.borrow_mut();
            assert_eq!(p.as_mut_ptr(), at);
            p.copy_from_slice(bytes);
        });
    }

    /// What the page reads after [`prepared_save`]: the `len` bytes at [`prepared_bytes`].
    pub(crate) fn prepared_bytes_at(at: *const u8, len: usize) -> Vec<u8> {
        PREPARED.with(|p| {
            let p = p.borrow();
            assert_eq!((p.as_ptr(), p.len()), (at, len));
            p.clone()
        })
    }

    /// What the page reads after a [`plain_next`]: the `len` bytes at [`plain_chunk`].
    pub(crate) fn plain_chunk_bytes(at: *const u8, len: usize) -> Vec<u8> {
        PLAIN.with(|p| {
            let plain = p.borrow();
            let chunk = plain.as_ref().map_or(&[][..], |e| e.chunk());
            assert_eq!((chunk.as_ptr(), chunk.len()), (at, len));
            chunk.to_vec()
        })
    }
}
