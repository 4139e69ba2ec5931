//! TBP piece locations and pc-srs placements, and the spin a move reports.
//!
//! A TBP location is the piece's rotation centre `(x, y)` with x = 0 the leftmost column
//! and y = 0 the bottom row, y up, and its orientation (`north` = spawn, then clockwise
//! `east`, `south`, `west`): exactly [`CentrePos`](crate::CentrePos) and `Spawn`/`Right`/`Reverse`/
//! `Left`, so the mapping is the identity on numbers.

use pc_srs::{Placement, PlacementError};

use super::message::{PieceLocation, Spin, TbpOrientation, TbpPiece};
use crate::tspin::TSpin;

/// Rows of the board the bot plays on ([`Board32`](crate::Board32)): a TBP board has 40, and
/// cells at row 32 and up are not seen.
pub const BOARD_ROWS: u32 = 32;

/// Why a TBP location is no placement the bot can play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LocationError {
    /// The piece name is not one of `I O T L J S Z`.
    #[error("unknown piece")]
    UnknownPiece,
    /// The orientation is not `north`, `east`, `south` or `west`.
    #[error("unknown orientation")]
    UnknownOrientation,
    /// A cell would be outside the 10 columns or below row 0.
    #[error(transparent)]
    OffBoard(#[from] PlacementError),
    /// A cell would be at row [`BOARD_ROWS`] or above.
    #[error("the piece reaches row {0}; this bot plays rows 0 to 31 only")]
    TooHigh(u32),
}

/// The placement at a TBP location.
///
/// ```
/// use pc_bot::tbp::{PieceLocation, TbpOrientation, TbpPiece, placement_of};
///
/// // A flat I on the floor in columns 0 to 3.
/// let loc = PieceLocation { piece: TbpPiece::I, orientation: TbpOrientation::North, x: 1, y: 0 };
/// assert_eq!(placement_of(&loc)?.cells(), [(0, 0), (1, 0), (2, 0), (3, 0)]);
/// # Ok::<(), pc_bot::tbp::LocationError>(())
/// ```
pub fn placement_of(location: &PieceLocation) -> Result<Placement, LocationError> {
    let piece = location.piece.piece().ok_or(LocationError::UnknownPiece)?;
    let orientation = location
        .orientation
        .orientation()
        .ok_or(LocationError::UnknownOrientation)?;
    // Far off the board: refused before any arithmetic on the numbers.
    let (x, y) = (location.x, location.y);
    if !(-8..=72).contains(&x) || !(-8..=72).contains(&y) {
        return Err(LocationError::OffBoard(PlacementError::OffBoard {
            piece,
            orientation,
            x,
            y,
        }));
    }
    let placement = piece.with(orientation).at(x, y)?;
    let top = placement.rows().1;
    if top >= BOARD_ROWS {
        return Err(LocationError::TooHigh(top));
    }
    Ok(placement)
}

/// The TBP location of a placement (its own orientation, not a canonical one).
pub fn location_of(placement: &Placement) -> PieceLocation {
    let centre = placement.centre();
    PieceLocation {
        piece: TbpPiece::from(placement.piece()),
        orientation: TbpOrientation::from(placement.orientation()),
        x: centre.x,
        y: centre.y,
    }
}

/// The TBP spin of a T-spin.
pub fn spin_of(tspin: TSpin) -> Spin {
    match tspin {
        TSpin::None => Spin::None,
        TSpin::Mini => Spin::Mini,
        TSpin::Full => Spin::Full,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pc_srs::{Orientation, Piece};

    /// The table of the TBP notes (from battletris's, dellacherie's and Cold Clear 2's
    /// piece data, which agree): each piece's cells as offsets from (x, y) per
    /// orientation, north, east, south, west.
    const TABLE: &str = "
        I  N (-1,0)(0,0)(1,0)(2,0)   E (0,-2)(0,-1)(0,0)(0,1)   S (-2,0)(-1,0)(0,0)(1,0)   W (0,-1)(0,0)(0,1)(0,2)
        O  N (0,0)(1,0)(0,1)(1,1)    E (0,-1)(1,-1)(0,0)(1,0)   S (-1,-1)(0,-1)(-1,0)(0,0) W (-1,0)(0,0)(-1,1)(0,1)
        T  N (-1,0)(0,0)(1,0)(0,1)   E (0,-1)(0,0)(1,0)(0,1)    S (0,-1)(-1,0)(0,0)(1,0)   W (0,-1)(-1,0)(0,0)(0,1)
        L  N (-1,0)(0,0)(1,0)(1,1)   E (0,-1)(1,-1)(0,0)(0,1)   S (-1,-1)(-1,0)(0,0)(1,0)  W (0,-1)(0,0)(-1,1)(0,1)
        J  N (-1,0)(0,0)(1,0)(-1,1)  E (0,-1)(0,0)(0,1)(1,1)    S (1,-1)(-1,0)(0,0)(1,0)   W (-1,-1)(0,-1)(0,0)(0,1)
        S  N (-1,0)(0,0)(0,1)(1,1)   E (1,-1)(0,0)(1,0)(0,1)    S (-1,-1)(0,-1)(0,0)(1,0)  W (0,-1)(-1,0)(0,0)(-1,1)
        Z  N (0,0)(1,0)(-1,1)(0,1)   E (0,-1)(0,0)(1,0)(1,1)    S (0,-1)(1,-1)(-1,0)(0,0)  W (-1,-1)(-1,0)(0,0)(0,1)";

    /// One entry of the table: piece, orientation letter, offsets.
    type Entry = (Piece, char, Vec<(i32, i32)>);

    /// Every row and column of the table.
    fn table() -> Vec<Entry> {
        let mut out = Vec::new();
        for line in TABLE.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let piece: Piece = line[..1].parse().unwrap();
            let mut rest = line[1..].trim();
            while !rest.is_empty() {
                let o = rest.chars().next().unwrap();
                let end = rest[1..]
                    .find(char::is_alphabetic)
                    .map_or(rest.len(), |i| i + 1);
                let offsets = rest[1..end]
                    .split(')')
                    .filter_map(|p| p.trim().strip_prefix('('))
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect();
                out.push((piece, o, offsets));
                rest = rest[end..].trim();
            }
        }
        out
    }

    #[test]
    fn every_piece_and_orientation_maps_as_the_table_says() {
        let table = table();
        assert_eq!(table.len(), 28);
        for (piece, letter, mut offsets) in table {
            let orientation = Orientation::from_compass(letter).unwrap();
            let tbp = TbpOrientation::from(orientation);
            let name = ['N', 'E', 'S', 'W'][orientation as usize];
            assert_eq!(
                letter, name,
                "north/east/south/west = spawn/right/reverse/left"
            );
            assert_eq!(tbp.orientation(), Some(orientation));
            let (x, y) = (5, 10);
            let location = PieceLocation {
                piece: TbpPiece::from(piece),
                orientation: tbp,
                x,
                y,
            };
            let placement = placement_of(&location).unwrap();
            assert_eq!(placement.piece(), piece);
            assert_eq!(placement.orientation(), orientation);
            let mut cells: Vec<(i32, i32)> = placement
                .cells()
                .iter()
                .map(|&(cx, cy)| (i32::from(cx) - x, i32::from(cy) - y))
                .collect();
            cells.sort();
            offsets.sort();
            assert_eq!(cells, offsets, "{piece} {letter}");
            assert_eq!(location_of(&placement), location);
        }
    }

    #[test]
    fn the_notes_examples() {
        let at = |piece, orientation, x, y| {
            placement_of(&PieceLocation {
                piece,
                orientation,
                x,
                y,
            })
        };
        let i_flat = at(TbpPiece::I, TbpOrientation::North, 1, 0).unwrap();
        assert_eq!(i_flat.cells(), [(0, 0), (1, 0), (2, 0), (3, 0)]);
        let t_flat = at(TbpPiece::T, TbpOrientation::North, 1, 0).unwrap();
        assert_eq!(t_flat.cells(), [(0, 0), (1, 0), (2, 0), (1, 1)]);
        // A vertical I in column 0 on the floor, both ways.
        let west = at(TbpPiece::I, TbpOrientation::West, 0, 1).unwrap();
        let east = at(TbpPiece::I, TbpOrientation::East, 0, 2).unwrap();
        assert_eq!(west.cells(), [(0, 0), (0, 1), (0, 2), (0, 3)]);
        assert!(west.same_cells(&east));
        // Off the board, too high, unknown names.
        assert!(matches!(
            at(TbpPiece::I, TbpOrientation::North, 0, 0),
            Err(LocationError::OffBoard(_))
        ));
        assert_eq!(
            at(TbpPiece::I, TbpOrientation::East, 0, 31),
            Err(LocationError::TooHigh(32))
        );
        assert_eq!(
            at(TbpPiece::Unknown, TbpOrientation::North, 4, 4),
            Err(LocationError::UnknownPiece)
        );
        assert_eq!(
            at(TbpPiece::T, TbpOrientation::Unknown, 4, 4),
            Err(LocationError::UnknownOrientation)
        );
    }
}
