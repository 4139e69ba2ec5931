//! The graph's moves: every placement of a piece in a field of at most four rows, by a
//! small id, and the field a placement leads to, computed on the keys.
//!
//! A graph stores a field's moves as (piece, id) pairs instead of the index of the field
//! each leads to: an id is a byte whatever the size of the next layer, and the child's key
//! is a few bit operations away ([`child`]). The ids of a piece number its placements in
//! the canonical orientations (`pc_srs::shape::canonical_orientations`, so that I, S, Z
//! and O placements covering the same cells are one id) by orientation, then row, then
//! column.

use super::key::MAX_ROWS;
#[cfg(test)]
use super::key::{pack, unpack};
use pc_bitboard::WIDTH;
use pc_srs::{CentrePos, Piece, Placement, shape};
use std::sync::OnceLock;

/// One placement of the table: its cells in the key's layout (bit `4x + y`), the highest
/// row it covers, and the placement itself.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Move {
    pub(crate) cells: u64,
    /// One more than the highest row covered: the field must have at least this many rows.
    pub(crate) rows: u32,
    pub(crate) placement: Placement,
}

/// Every placement of each piece in a field of [`MAX_ROWS`] rows, by id.
pub(crate) struct Moves {
    by_piece: [Vec<Move>; 7],
    /// The id of each canonical placement by piece, orientation, row and column of its
    /// rotation centre (`NONE` where there is none).
    ids: [[[[u8; WIDTH]; MAX_ROWS as usize]; 4]; 7],
}

/// No id.
const NONE: u8 = u8::MAX;

/// The most ids a piece has (T, J and L: 84).
pub(crate) const MAX_IDS: usize = 84;

/// The table, made once.
pub(crate) fn moves() -> &'static Moves {
    static TABLE: OnceLock<Moves> = OnceLock::new();
    TABLE.get_or_init(Moves::new)
}

impl Moves {
    fn new() -> Moves {
        let by_piece = Piece::ALL.map(|piece| {
            let mut list = Vec::new();
            for &orientation in shape::canonical_orientations(piece) {
                for y in 0..MAX_ROWS as i32 {
                    for x in 0..WIDTH as i32 {
                        let Ok(placement) = Placement::new(piece, orientation, CentrePos { x, y })
                        else {
                            continue;
                        };
                        let rows = placement.rows().1 + 1;
                        if rows > MAX_ROWS {
                            continue;
                        }
                        let cells = placement
                            .cells()
                            .iter()
                            .fold(0u64, |m, &(x, y)| m | 1 << (4 * x + y));
                        list.push(Move {
                            cells,
                            rows,
                            placement,
                        });
                    }
                }
            }
            debug_assert!(list.len() <= MAX_IDS);
            list
        });
        let mut ids = [[[[NONE; WIDTH]; MAX_ROWS as usize]; 4]; 7];
        for (piece, list) in by_piece.iter().enumerate() {
            for (id, m) in list.iter().enumerate() {
                let c = m.placement.centre();
                ids[piece][m.placement.orientation() as usize][c.y as usize][c.x as usize] =
                    id as u8;
            }
        }
        Moves { by_piece, ids }
    }

    /// The placements of a piece, by id.
    pub(crate) fn of(&self, piece: Piece) -> &[Move] {
        &self.by_piece[piece.index()]
    }

    /// The id of a placement (in any orientation covering the same cells), when it lies
    /// in the first [`MAX_ROWS`] rows.
    pub(crate) fn id(&self, placement: &Placement) -> Option<u8> {
        let canonical = placement.canonical();
        let c = canonical.centre();
        let (x, y) = (usize::try_from(c.x).ok()?, usize::try_from(c.y).ok()?);
        let id = *self.ids[canonical.piece().index()][canonical.orientation() as usize]
            .get(y)?
            .get(x)?;
        (id != NONE).then_some(id)
    }
}

/// The cells of row `y` in every column, in the key's layout.
const fn row_mask(y: u32) -> u64 {
    let mut mask = 0;
    let mut x = 0;
    while x < WIDTH as u32 {
        mask |= 1 << (4 * x + y);
        x += 1;
    }
    mask
}

const ROWS: [u64; 4] = [row_mask(0), row_mask(1), row_mask(2), row_mask(3)];

/// For each set of cleared rows (bit `y`) and each column of four cells, the column with
/// those rows taken out and the rows above moved down.
const SQUEEZE: [[u8; 16]; 16] = {
    let mut table = [[0u8; 16]; 16];
    let mut cleared = 0;
    while cleared < 16 {
        let mut column = 0;
        while column < 16 {
            let mut out = 0u8;
            let mut to = 0;
            let mut y = 0;
            while y < 4 {
                if cleared >> y & 1 == 0 {
                    out |= ((column >> y & 1) << to) as u8;
                    to += 1;
                }
                y += 1;
            }
            table[cleared][column] = out;
            column += 1;
        }
        cleared += 1;
    }
    table
};

/// The key of the field that placing `m` on the field of `key` leaves, its full rows
/// cleared; `None` when the placement overlaps the field or sticks out above it.
#[inline]
pub(crate) fn child(key: u64, m: &Move) -> Option<u64> {
    let height = (key >> 40) as u32;
    let cells = key & ((1 << 40) - 1);
    if cells & m.cells != 0 || m.rows > height {
        return None;
    }
    let filled = cells | m.cells;
    let mut cleared = 0usize;
    for (y, &row) in ROWS.iter().enumerate().take(height as usize) {
        if filled & row == row {
            cleared |= 1 << y;
        }
    }
    if cleared == 0 {
        return Some(u64::from(height) << 40 | filled);
    }
    let squeeze = &SQUEEZE[cleared];
    let mut out = 0u64;
    for x in 0..WIDTH {
        let column = (filled >> (4 * x) & 0xf) as usize;
        out |= u64::from(squeeze[column]) << (4 * x);
    }
    Some(u64::from(height - cleared.count_ones()) << 40 | out)
}

/// [`child`], the slow way: through the field and its placement (for tests).
#[cfg(test)]
pub(crate) fn child_by_field(key: u64, m: &Move) -> Option<u64> {
    let field = unpack(key);
    (m.placement.fits(field.board()) && m.rows <= field.clear_line())
        .then(|| pack(&field.place(&m.placement)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_piece_has_its_placements_once() {
        let table = moves();
        let counts: Vec<usize> = Piece::ALL.iter().map(|&p| table.of(p).len()).collect();
        // I J L O S T Z in a 4-row field: I 10 upright + 28 flat; O 27; J L T 2·24 + 2·27;
        // S Z 24 flat + 18 upright.
        assert_eq!(counts, [38, 84, 84, 27, 42, 84, 42]);
        for piece in Piece::ALL {
            for (i, m) in table.of(piece).iter().enumerate() {
                assert_eq!(table.id(&m.placement), Some(i as u8));
                assert_eq!(m.cells.count_ones(), 4);
            }
        }
    }

    fn any_key() -> impl Strategy<Value = u64> {
        (0u64..1 << 40, 0u32..=4).prop_map(|(cells, height)| {
            // Only the cells below the height.
            let below: u64 = ROWS[..height as usize].iter().fold(0, |m, r| m | r);
            u64::from(height) << 40 | cells & below
        })
    }

    proptest! {
        #[test]
        fn a_child_is_the_field_after_the_placement(key in any_key(), piece in 0usize..7, id in 0usize..MAX_IDS) {
            let list = moves().of(Piece::ALL[piece]);
            let m = &list[id % list.len()];
            // Fields with full rows do not occur in a graph.
            let field = unpack(key);
            prop_assume!(field.board().full_rows() == 0);
            prop_assert_eq!(child(key, m), child_by_field(key, m));
        }
    }

    #[test]
    fn clearing_rows_drops_them() {
        // Rows 0 and 2 full but for one cell each, an upright I fills both.
        let field = "###......./#########./###......./#########.";
        let key = pack(&crate::PcField::new(field.parse().unwrap(), 4).unwrap());
        let m = *moves()
            .of(Piece::I)
            .iter()
            .find(|m| m.cells == 0xf << 36)
            .expect("an upright I in the last column");
        let after = unpack(child(key, &m).unwrap());
        assert_eq!(after.clear_line(), 2);
        assert_eq!(after.board().to_text(2, "/"), "###......#/###......#");
    }
}
