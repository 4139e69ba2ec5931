//! The action of a page: its piece and flags, packed in one 3-digit value.
//!
//! `value = piece + 8 * (rotation + 4 * (location + 240 * flags))`, where
//! - `piece` is the fumen cell kind (0 = no piece, 1 I, 2 L, 3 O, 4 Z, 5 T, 6 J, 7 S);
//! - `rotation` is 0 reverse, 1 right, 2 spawn, 3 left;
//! - `location` is `x + 10 * (22 - y)` for the piece's position `(x, y)` in fumen's
//!   convention (see [`FUMEN_TO_CENTRE`]);
//! - `flags` is, from the lowest bit: rise, mirror, colour, comment, and *no* lock (the
//!   bit is set when the piece does **not** lock).

use super::field::Cell;
use super::{ColoredField, FumenError};
use pc_bitboard::WIDTH;
use pc_srs::{CentrePos, Orientation, Placement};

/// Rotation centre (sfinder's and SRS's form) = fumen location + this offset, by
/// piece (in [`Piece::index`] order: I J L O S T Z) and orientation (spawn, right,
/// reverse, left).
///
/// Fumen gives one location to the orientations of a piece that cover the same cells:
/// I spawn and reverse share one, as do I right and left, S and Z spawn and reverse,
/// S and Z right and left, and all four O. The location is the rotation centre of one
/// of them (I spawn and right; S reverse and left; Z reverse and right; O right), so
/// the others are corrected here. J, L and T use the rotation centre as it is.
/// The same table is in tetris-fumen's and sfinder's decoders; the tests check that
/// it gives equal locations to equal cells.
pub(crate) const FUMEN_TO_CENTRE: [[(i8, i8); 4]; 7] = [
    [(0, 0), (0, 0), (1, 0), (0, -1)],  // I
    [(0, 0); 4],                        // J
    [(0, 0); 4],                        // L
    [(0, -1), (0, 0), (1, 0), (1, -1)], // O
    [(0, -1), (-1, 0), (0, 0), (0, 0)], // S
    [(0, 0); 4],                        // T
    [(0, -1), (0, 0), (0, 0), (1, 0)],  // Z
];

/// Number of locations: every cell of the field and the garbage row.
const LOCATIONS: u32 = ColoredField::CELLS as u32;
/// Number of flag combinations (five flags).
const FLAG_VALUES: u32 = 32;

/// A page's action, unpacked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Action {
    pub(crate) piece: Option<Placement>,
    pub(crate) rise: bool,
    pub(crate) mirror: bool,
    pub(crate) colour: bool,
    pub(crate) comment: bool,
    pub(crate) lock: bool,
}

/// Fumen's rotation number of an orientation.
const fn rotation_id(o: Orientation) -> u32 {
    match o {
        Orientation::Reverse => 0,
        Orientation::Right => 1,
        Orientation::Spawn => 2,
        Orientation::Left => 3,
    }
}

const ROTATIONS: [Orientation; 4] = [
    Orientation::Reverse,
    Orientation::Right,
    Orientation::Spawn,
    Orientation::Left,
];

/// The location fumen writes for a placement whose cells are all in rows 0 to 22.
pub(crate) fn location(p: &Placement) -> u32 {
    let (dx, dy) = FUMEN_TO_CENTRE[p.piece().index()][p.orientation().index()];
    let c = p.centre();
    let (x, y) = (c.x - dx as i32, c.y - dy as i32);
    debug_assert!((0..WIDTH as i32).contains(&x) && (0..ColoredField::HEIGHT as i32).contains(&y));
    (x + WIDTH as i32 * (ColoredField::HEIGHT as i32 - 1 - y)) as u32
}

/// Packs an action. Its piece must lie in rows 0 to 22 (pages check this).
pub(crate) fn pack(a: &Action) -> u32 {
    let flags = a.rise as u32
        | (a.mirror as u32) << 1
        | (a.colour as u32) << 2
        | (a.comment as u32) << 3
        | (!a.lock as u32) << 4;
    // A page without a piece writes kind 0, rotation 0 (reverse), location 0.
    let (kind, rotation, loc) = match &a.piece {
        Some(p) => (
            Cell::Piece(p.piece()).fumen_id() as u32,
            rotation_id(p.orientation()),
            location(p),
        ),
        None => (0, 0, 0),
    };
    kind + 8 * (rotation + 4 * (loc + LOCATIONS * flags))
}

/// Unpacks an action value of page `page`.
pub(crate) fn unpack(value: u32, page: usize) -> Result<Action, FumenError> {
    let kind = value % 8;
    let rotation = ROTATIONS[(value / 8 % 4) as usize];
    let loc = value / 32 % LOCATIONS;
    let flags = value / 32 / LOCATIONS;
    if flags >= FLAG_VALUES {
        return Err(FumenError::BadAction { page, value });
    }
    let piece = match Cell::from_fumen_id(kind as u8) {
        Some(Cell::Piece(piece)) => {
            let (dx, dy) = FUMEN_TO_CENTRE[piece.index()][rotation.index()];
            let x = (loc % WIDTH as u32) as i32 + dx as i32;
            let y = ColoredField::HEIGHT as i32 - 1 - (loc / WIDTH as u32) as i32 + dy as i32;
            let bad = FumenError::BadLocation {
                page,
                piece,
                orientation: rotation,
                x,
                y,
            };
            let p = Placement::new(piece, rotation, CentrePos { x, y }).map_err(|_| bad.clone())?;
            if p.rows().1 >= ColoredField::HEIGHT {
                return Err(bad);
            }
            Some(p)
        }
        _ => None,
    };
    Ok(Action {
        piece,
        rise: flags & 1 != 0,
        mirror: flags & 2 != 0,
        colour: flags & 4 != 0,
        comment: flags & 8 != 0,
        lock: flags & 16 == 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pc_srs::Piece;

    /// Every placement in the 23 rows, in every orientation.
    fn all_placements() -> impl Iterator<Item = Placement> {
        Piece::ALL.into_iter().flat_map(|p| {
            Orientation::ALL.into_iter().flat_map(move |o| {
                (-2..12).flat_map(move |x| {
                    (-2..25).filter_map(move |y| {
                        p.with(o)
                            .at(x, y)
                            .ok()
                            .filter(|pl| pl.rows().1 < ColoredField::HEIGHT)
                    })
                })
            })
        })
    }

    #[test]
    fn every_placement_round_trips() {
        let mut count = 0;
        for p in all_placements() {
            let a = Action {
                piece: Some(p),
                rise: false,
                mirror: true,
                colour: false,
                comment: true,
                lock: false,
            };
            let v = pack(&a);
            assert!(v < 64 * 64 * 64);
            assert!(location(&p) < 230, "{p:?}");
            assert_eq!(unpack(v, 1), Ok(a), "{p:?}");
            count += 1;
        }
        // 7 pieces x 4 orientations, minus what leaves a 10 x 23 field.
        assert!(count > 4000);
    }

    /// The independent statement of the correction: orientations covering the same cells
    /// share a location, and J, L, T (and I spawn, whose centre tetris-fumen's test
    /// `v115@vhARQJ` places at (4, 0)) use the rotation centre itself.
    #[test]
    fn equal_cells_share_a_location() {
        let all: Vec<Placement> = all_placements().collect();
        for a in &all {
            for b in &all {
                if a.piece() == b.piece() && a.cells() == b.cells() {
                    assert_eq!(location(a), location(b), "{a:?} {b:?}");
                }
            }
            if matches!(a.piece(), Piece::J | Piece::L | Piece::T)
                || (a.piece(), a.orientation()) == (Piece::I, Orientation::Spawn)
            {
                let c = a.centre();
                assert_eq!(location(a) as i32, c.x + 10 * (22 - c.y));
            }
        }
    }

    #[test]
    fn flags_and_errors() {
        // "AgH": no piece, colour set, lock.
        let v = 32 * 64 + 7 * 64 * 64;
        let a = unpack(v, 1).unwrap();
        assert_eq!(a.piece, None);
        assert!(a.colour && a.lock && !a.rise && !a.mirror && !a.comment);
        assert_eq!(pack(&a), v);
        // Flags above the lock bit.
        let v = 32 * LOCATIONS * 32;
        assert_eq!(
            unpack(v, 3),
            Err(FumenError::BadAction { page: 3, value: v })
        );
        // A vertical I (right) covers rows y-2..=y+1: at row 22 it pokes out of the top.
        let v = 1 + 8 * (1 + 4 * 9);
        assert!(matches!(
            unpack(v, 2),
            Err(FumenError::BadLocation { page: 2, .. })
        ));
        // A horizontal I at x = 0 leaves the wall.
        let v = 1 + 8 * (2 + 4 * 220);
        assert!(matches!(
            unpack(v, 2),
            Err(FumenError::BadLocation { x: 0, y: 0, .. })
        ));
    }
}
