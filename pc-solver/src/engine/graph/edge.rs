//! Edges and links: a move of the graph as the file keeps it (the piece and the
//! placement's id) and as the walks keep it (the piece and the child's index).

use super::moves;
use pc_srs::Piece;

/// An edge: the piece in the high byte, the placement's id among the piece's
/// ([`moves::Moves`]) in the low one.
#[inline]
pub(crate) fn edge(piece: Piece, id: u8) -> u16 {
    (piece.index() as u16) << 8 | u16::from(id)
}

/// The piece of an edge.
#[inline]
pub(crate) fn edge_piece(edge: u16) -> usize {
    usize::from(edge >> 8)
}

/// The placement of an edge; `None` for an id past its piece's table (a forged file).
#[inline]
pub(crate) fn edge_move(edge: u16) -> Option<&'static moves::Move> {
    moves::moves()
        .of(*Piece::ALL.get(edge_piece(edge))?)
        .get(usize::from(edge & 0xff))
}

/// Where a [`link`]'s piece is.
const LINK_SHIFT: u32 = 29;

/// A link's child bits; all set: no child.
const LINK_CHILD: u32 = (1 << LINK_SHIFT) - 1;

/// A move as one word: its piece, and the index of the field it leads to in the next
/// layer (below [`MAX_FIELDS`](super::layer::MAX_FIELDS)), all ones for [`NO_CHILD`].
#[inline]
pub(crate) fn link(piece: u8, child: u32) -> u32 {
    u32::from(piece) << LINK_SHIFT | child.min(LINK_CHILD)
}

/// A [`link`]'s piece and child, `None` when it has no child.
#[inline]
pub(crate) fn unlink(link: u32) -> Option<(u8, u32)> {
    let child = link & LINK_CHILD;
    (child != LINK_CHILD).then_some(((link >> LINK_SHIFT) as u8, child))
}

/// A child that is not there (a damaged graph).
pub(crate) const NO_CHILD: u32 = u32::MAX;
