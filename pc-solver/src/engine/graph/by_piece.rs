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
            Layout::ByPiece => LENGTHS as u64 + Piece::COUNT as u64 * fields + edges,
        }
    }
}

/// Bytes before a layer's piece streams: each stream's length, a `u32` each.
const LENGTHS: usize = 4 * Piece::COUNT;

/// Appends the layer's moves by piece: each piece's stream's length, then the streams,
/// each piece's in turn: every field's count of that piece's moves and their ids.
pub(crate) fn write(layer: &Layer, out: &mut Vec<u8>) {
    let lengths = out.len();
    out.extend_from_slice(&[0; LENGTHS]);
    for piece in 0..Piece::COUNT {
        let stream = out.len();
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
        let length = (out.len() - stream) as u32;
        out[lengths + 4 * piece..lengths + 4 * piece + 4].copy_from_slice(&length.to_le_bytes());
    }
}

/// A layer's numbers of moves and its moves (little-endian, as the plain file has them)
/// from its section laid out by piece, of `fields` fields and `edges` moves, field by
/// field, each piece's stream read from where the last field left it. A section that
/// does not add up (streams of other lengths, counts past a stream's end or past 255 moves
/// a field, another number of moves) is [`GraphError::Checksum`]: the hashes are those of
/// the plain layout, which no such section can make, so it is damaged. Cost: one pass over
/// the section.
pub(crate) fn read(
    section: &[u8],
    fields: usize,
    edges: usize,
) -> Result<(Vec<u8>, Vec<u16>), GraphError> {
    let damaged = || GraphError::Checksum;
    let lengths = section.get(..LENGTHS).ok_or_else(damaged)?;
    // Where each piece's stream starts and ends in the section.
    let mut pos = [0usize; Piece::COUNT];
    let mut ends = [0usize; Piece::COUNT];
    // Summed as u64 (seven u32 overflow a 32-bit usize); every end is then within the
    // section, as the last is its end.
    let mut end = LENGTHS as u64;
    for (piece, length) in lengths.chunks_exact(4).enumerate() {
        pos[piece] = end as usize;
        end += u64::from(u32::from_le_bytes(length.try_into().expect("four bytes")));
        ends[piece] = end.min(section.len() as u64) as usize;
    }
    if end != section.len() as u64 {
        return Err(damaged());
    }
    let mut counts = vec![0u8; fields];
    let mut out = vec![0u16; edges + AT_ONCE];
    let mut at = 0;
    // The seven pieces written out, so that each stream's place stays in a register
    // rather than in an array in memory, stored and loaded again for every field.
    const _: () = assert!(Piece::COUNT == 7);
    macro_rules! piece {
        ($p:literal) => {
            take_piece(
                section,
                &mut pos[$p],
                ends[$p],
                $p << 8,
                &mut out,
                &mut at,
                edges,
            )?
        };
    }
    for count in counts.iter_mut() {
        let before = at;
        piece!(0);
        piece!(1);
        piece!(2);
        piece!(3);
        piece!(4);
        piece!(5);
        piece!(6);
        *count = u8::try_from(at - before).map_err(|_| damaged())?;
    }
    if at != edges || pos != ends {
        return Err(damaged());
    }
    out.truncate(edges);
    Ok((counts, out))
}

/// Most fields have a few moves of a piece: eight ids are copied at once, whatever their
/// number, over the places the next ones take (a loop of a field's own length mispredicts
/// its end about once a field and piece, which took most of the time).
const AT_ONCE: usize = 8;

/// Copies one field's moves of one piece (`high`: the piece in the high byte) from its
/// stream at `*pos` (the stream ending at `end`) to `out` at `*at`, and moves both on.
#[inline(always)]
fn take_piece(
    section: &[u8],
    pos: &mut usize,
    end: usize,
    high: u16,
    out: &mut [u16],
    at: &mut usize,
    edges: usize,
) -> Result<(), GraphError> {
    let p = *pos;
    if p >= end {
        return Err(GraphError::Checksum);
    }
    let n = usize::from(section[p]);
    let (first, a) = (p + 1, *at);
    if first + n > end || a + n > edges {
        return Err(GraphError::Checksum);
    }
    if n <= AT_ONCE && first + AT_ONCE <= section.len() {
        let ids: &[u8; AT_ONCE] = section[first..first + AT_ONCE].try_into().expect("eight");
        let slots: &mut [u16; AT_ONCE] = (&mut out[a..a + AT_ONCE]).try_into().expect("eight");
        for (slot, &id) in slots.iter_mut().zip(ids) {
            *slot = (high | u16::from(id)).to_le();
        }
    } else {
        for (slot, &id) in out[a..a + n].iter_mut().zip(&section[first..first + n]) {
            *slot = (high | u16::from(id)).to_le();
        }
    }
    *pos = first + n;
    *at = a + n;
    Ok(())
}
