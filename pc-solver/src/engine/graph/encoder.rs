//! A graph's file in the plain layout, made a chunk at a time: for a page that keeps the
//! graph it loaded in the layout that loads fastest, without ever holding the whole file.

use super::file::{FORMAT_VERSION, MAGIC, put_varint};
use super::layer::Layer;
use super::pc_graph::PcGraph;
use std::sync::Arc;
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

/// The bytes of a graph's file, plain layout (those of [`PcGraph::to_bytes`]), made a
/// chunk at a time by [`GraphEncoder::next_chunk`]. It keeps the graph alive and at most a
/// chunk of the file besides.
///
/// ```
/// use pc_solver::{GraphEncoder, PcField, PcGraph, Rules};
/// use std::ops::ControlFlow;
/// use std::sync::Arc;
///
/// let field = PcField::new("######..../######....".parse()?, 2)?;
/// let graph = PcGraph::build_from(&field, &Rules::default(), &mut |_| ControlFlow::Continue(()))?;
/// let mut encoder = GraphEncoder::new(Arc::new(graph.clone()));
/// let mut file = Vec::new();
/// while let Some(chunk) = encoder.next_chunk() {
///     file.extend_from_slice(chunk);
/// }
/// assert_eq!(file.len() as u64, encoder.len());
/// assert_eq!(file, graph.to_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct GraphEncoder {
    graph: Arc<PcGraph>,
    header: Vec<u8>,
    len: u64,
    part: Part,
    chunk: Vec<u8>,
    chunk_size: usize,
}

/// Where the encoder is in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// The header from byte `at` on.
    Header {
        at: usize,
    },
    /// Layer `layer`'s keys from `index` on, the key before `previous`.
    Keys {
        layer: usize,
        index: usize,
        previous: u64,
    },
    /// Layer `layer`'s counts of moves from field `at` on.
    Counts {
        layer: usize,
        at: usize,
    },
    /// Layer `layer`'s moves from edge `at` on.
    Moves {
        layer: usize,
        at: usize,
    },
    Done,
}

/// The bytes of a chunk (the last may be shorter).
const CHUNK_BYTES: usize = 1 << 20;

impl GraphEncoder {
    /// An encoder of `graph`'s file. Cost: it reads the whole graph once before it returns
    /// (for the header's hashes), and once more over the chunks.
    pub fn new(graph: Arc<PcGraph>) -> GraphEncoder {
        GraphEncoder::with_chunk_size(graph, CHUNK_BYTES)
    }

    fn with_chunk_size(graph: Arc<PcGraph>, chunk_size: usize) -> GraphEncoder {
        let (header, body) = header(&graph, MAGIC);
        GraphEncoder {
            graph,
            len: header.len() as u64 + body,
            header,
            part: Part::Header { at: 0 },
            chunk: Vec::with_capacity(chunk_size + 16),
            chunk_size: chunk_size.max(1),
        }
    }

    /// The file's length in bytes.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// The next chunk of the file (about a mebibyte), or `None` once it is all given.
    pub fn next_chunk(&mut self) -> Option<&[u8]> {
        self.chunk.clear();
        while self.chunk.len() < self.chunk_size && self.part != Part::Done {
            self.part = self.fill();
        }
        (!self.chunk.is_empty()).then_some(self.chunk.as_slice())
    }

    /// The chunk the last [`GraphEncoder::next_chunk`] made (empty before the first and
    /// after the last).
    pub fn chunk(&self) -> &[u8] {
        &self.chunk
    }

    /// Appends to the chunk from where the encoder is, up to the chunk's size or the end
    /// of the part; where it is then.
    fn fill(&mut self) -> Part {
        let room = self.chunk_size.saturating_sub(self.chunk.len());
        let layers = &self.graph.layers;
        let first_of = |layer: usize| match layers.get(layer) {
            Some(_) => Part::Keys {
                layer,
                index: 0,
                previous: 0,
            },
            None => Part::Done,
        };
        match self.part {
            Part::Header { at } => {
                let end = (at + room).min(self.header.len());
                self.chunk.extend_from_slice(&self.header[at..end]);
                if end == self.header.len() {
                    first_of(0)
                } else {
                    Part::Header { at: end }
                }
            }
            Part::Keys {
                layer,
                mut index,
                mut previous,
            } => {
                let keys = &layers[layer].keys;
                // A varint is at most 10 bytes: stop before the chunk would overflow.
                let end = (index + room.div_ceil(10)).min(keys.len());
                for &key in &keys[index..end] {
                    put_varint(&mut self.chunk, key - previous);
                    previous = key;
                }
                index = end;
                if index == keys.len() {
                    Part::Counts { layer, at: 0 }
                } else {
                    Part::Keys {
                        layer,
                        index,
                        previous,
                    }
                }
            }
            Part::Counts { layer, at } => {
                let counts = layers[layer].starts.counts();
                let end = (at + room).min(counts.len());
                self.chunk.extend_from_slice(&counts[at..end]);
                if end == counts.len() {
                    Part::Moves { layer, at: 0 }
                } else {
                    Part::Counts { layer, at: end }
                }
            }
            Part::Moves { layer, at } => {
                let edges = &layers[layer].edges;
                let end = (at + room.div_ceil(2)).min(edges.len());
                self.chunk
                    .extend(edges[at..end].iter().flat_map(|e| e.to_le_bytes()));
                if end == edges.len() {
                    first_of(layer + 1)
                } else {
                    Part::Moves { layer, at: end }
                }
            }
            Part::Done => Part::Done,
        }
    }
}

/// A graph file's header, `magic` naming its layout (what it is, the rules, the start and
/// each layer's sizes and hashes, those of the plain layout's sections in either layout,
/// then its own hash), and the bytes of the plain layout's sections after it. The sections
/// are made a block at a time for their hashes, never whole.
pub(super) fn header(graph: &PcGraph, magic: &[u8; 8]) -> (Vec<u8>, u64) {
    let mut body = 0;
    let mut out = Vec::new();
    out.extend_from_slice(magic);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&graph.rules.value().to_le_bytes());
    out.extend_from_slice(&graph.start.to_le_bytes());
    out.extend_from_slice(&(graph.layers.len() as u32).to_le_bytes());
    for layer in &graph.layers {
        let (keys, shape) = shape_hash(layer);
        body += (keys + layer.len() + 2 * layer.edges.len()) as u64;
        for n in [
            layer.len() as u64,
            layer.edge_count() as u64,
            keys as u64,
            shape,
            moves_hash(layer),
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
    }
    let hash = xxh3_64(&out);
    out.extend_from_slice(&hash.to_le_bytes());
    (out, body)
}

/// The bytes of a layer's keys (varint differences) and the hash of its keys and counts,
/// made a block at a time.
fn shape_hash(layer: &Layer) -> (usize, u64) {
    let mut hasher = Xxh3::new();
    let mut block = Vec::with_capacity(CHUNK_BYTES);
    let mut bytes = 0;
    let mut previous = 0;
    for keys in layer.keys.chunks(CHUNK_BYTES / 10) {
        block.clear();
        for &key in keys {
            put_varint(&mut block, key - previous);
            previous = key;
        }
        bytes += block.len();
        hasher.update(&block);
    }
    hasher.update(layer.starts.counts());
    (bytes, hasher.digest())
}

/// The hash of a layer's moves as the file has them (little-endian).
fn moves_hash(layer: &Layer) -> u64 {
    let mut hasher = Xxh3::new();
    let mut block = Vec::with_capacity(CHUNK_BYTES);
    for edges in layer.edges.chunks(CHUNK_BYTES / 2) {
        block.clear();
        block.extend(edges.iter().flat_map(|e| e.to_le_bytes()));
        hasher.update(&block);
    }
    hasher.digest()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::graph::file::tests::two_line;

    #[test]
    fn chunks_of_any_size_make_the_file() {
        let graph = Arc::new(two_line().0.clone());
        let file = graph.to_bytes();
        for size in [1, 2, 3, 7, 10, 11, 64, 1000, file.len(), file.len() + 1] {
            let mut encoder = GraphEncoder::with_chunk_size(graph.clone(), size);
            assert_eq!(encoder.len(), file.len() as u64);
            let mut made = Vec::new();
            while let Some(chunk) = encoder.next_chunk() {
                assert!(
                    chunk.len() <= size + 9,
                    "size {size}: a chunk of {}",
                    chunk.len()
                );
                made.extend_from_slice(chunk);
            }
            assert!(made == file, "size {size}: not the file");
            assert!(encoder.next_chunk().is_none());
        }
    }
}
