//! The moves of a layer by piece: the layout of a graph file made to be downloaded
//! ([`Layout::ByPiece`]).
//!
//! The plain file keeps a field's moves together, every piece's in turn, as a walk reads
//! them, after the fields' numbers of moves. Compressors find far more repeats when the
//! moves of one piece are together: the placements of a T in fields that differ in a few
//! cells are the same bytes, where the fields' whole lists seldom are. So this layout
//! writes, after a layer's keys, for each piece in turn and each field in order, the
//! number of that piece's moves and their placement ids; the fields' numbers of moves are
//! the sums. A reader puts the section back into the plain layout ([`read`]), which is
//! checked against the plain file's hashes.

use super::edge::edge;
use super::error::GraphError;
use super::layer::Layer;
use pc_srs::Piece;

/// How a graph file lays out each layer's numbers of moves and moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// A byte per field, its number of moves; then a field's moves together, two bytes
    /// each (the piece and the id), as in memory.
    Plain,
    /// Each piece's moves of every field together, a count a field and a byte an id.
    ByPiece,
}

impl Layout {
    /// Bytes of a layer's sections after its keys, for `fields` fields and `edges` moves
    /// (each below 2^32, so the sum cannot overflow).
    pub(crate) fn body_bytes(self, fields: u64, edges: u64) -> u64 {
        match self {
            Layout::Plain => fields + 2 * edges,
            Layout::ByPiece => Piece::COUNT as u64 * fields + edges,
        }
    }
}

/// Appends the layer's moves by piece: for each piece, each field's count of that piece's
/// moves and their ids.
pub(crate) fn write(layer: &Layer, out: &mut Vec<u8>) {
    for piece in 0..Piece::COUNT {
        for field in 0..layer.len() {
            let moves = &layer.edges[layer.starts.range(field)];
            let at = out.len();
            out.push(0);
            out.extend(
                moves
                    .iter()
                    .filter(|&&e| usize::from(e >> 8) == piece)
                    .map(|&e| e as u8),
            );
            out[at] = (out.len() - at - 1) as u8;
        }
    }
}

/// A layer's numbers of moves and its moves (little-endian, as the plain file has them)
/// from its section laid out by piece, of `fields` fields and `edges` moves. A section
/// that does not add up (counts past its end or past 255 moves a field, bytes left over,
/// another number of moves) is [`GraphError::Checksum`]: the hashes are those of the plain
/// layout, which no such section can make, so it is damaged. Cost: two passes over the
/// section, and a word per field beside it.
pub(crate) fn read(
    section: &[u8],
    fields: usize,
    edges: usize,
) -> Result<(Vec<u8>, Vec<u16>), GraphError> {
    let damaged = GraphError::Checksum;
    // The numbers of moves: the sums of the pieces' counts.
    let mut counts = vec![0u8; fields];
    let mut at = 0;
    for _ in 0..Piece::COUNT {
        for count in counts.iter_mut() {
            let n = *section.get(at).ok_or(GraphError::Checksum)?;
            *count = count.checked_add(n).ok_or(GraphError::Checksum)?;
            at += 1 + usize::from(n);
        }
    }
    let total: usize = counts.iter().map(|&c| usize::from(c)).sum();
    if at != section.len() || total != edges {
        return Err(damaged);
    }
    // Each field's next free place among the moves, then each id into it.
    let mut next = Vec::with_capacity(fields);
    let mut start = 0u32;
    for &count in &counts {
        next.push(start);
        start += u32::from(count);
    }
    let mut out = vec![0u16; edges];
    let mut at = 0;
    for piece in Piece::ALL {
        for place in next.iter_mut() {
            let n = usize::from(section[at]);
            let ids = &section[at + 1..at + 1 + n];
            let to = *place as usize;
            for (slot, &id) in out[to..to + n].iter_mut().zip(ids) {
                *slot = edge(piece, id).to_le();
            }
            *place += n as u32;
            at += 1 + n;
        }
    }
    Ok((counts, out))
}
