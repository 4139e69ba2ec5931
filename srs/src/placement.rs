//! Placements and the two coordinate forms.

use crate::piece::{Orientation, Piece};
use crate::shape;
use core::fmt;
use pc_bitboard::{Board, WIDTH, Word};

/// A position in the **rotation-centre form** used by guideline games, fumen and sfinder:
/// the cell the piece turns about (always one of its cells).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CentrePos {
    /// Column of the centre.
    pub x: i32,
    /// Row of the centre.
    pub y: i32,
}

/// A position in the **bounding-box form**: the bottom-left corner of the piece's SRS
/// bounding box (3×3 for JLSTZ, 4×4 for I, 2×2 for O). May lie outside the board
/// (a vertical I against the left wall has its box corner at `x = -2` or `-1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CornerPos {
    /// Column of the box's left edge.
    pub x: i32,
    /// Row of the box's bottom edge.
    pub y: i32,
}

impl CornerPos {
    /// The same position of `piece` in `orientation`, in the rotation-centre form.
    #[inline]
    pub const fn to_centre(self, piece: Piece, orientation: Orientation) -> CentrePos {
        let (dx, dy) = shape::CORNER_TO_CENTRE[piece as usize][orientation as usize];
        CentrePos {
            x: self.x + dx as i32,
            y: self.y + dy as i32,
        }
    }
}

impl CentrePos {
    /// The same position of `piece` in `orientation`, in the bounding-box form.
    #[inline]
    pub const fn to_corner(self, piece: Piece, orientation: Orientation) -> CornerPos {
        let (dx, dy) = shape::CORNER_TO_CENTRE[piece as usize][orientation as usize];
        CornerPos {
            x: self.x - dx as i32,
            y: self.y - dy as i32,
        }
    }
}

/// Why a placement could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    /// A cell of the piece would be outside columns 0..10 or below row 0.
    #[error("{piece} {orientation} at centre ({x}, {y}) leaves the board")]
    OffBoard {
        /// The piece.
        piece: Piece,
        /// Its orientation.
        orientation: Orientation,
        /// Centre column.
        x: i32,
        /// Centre row.
        y: i32,
    },
}

/// Highest row a placement may reach (the tallest board is 64 rows).
const MAX_ROW: i32 = 63;

/// A piece locked at a position: valid by construction (every cell is on a board of
/// 10 columns and at most 64 rows).
///
/// Two placements are equal when piece, orientation and position are equal; use
/// [`Placement::canonical`] (or compare [`Placement::cells`]) to treat I, S, Z and O
/// placements that cover the same cells as one.
///
/// ```
/// use pc_srs::{CornerPos, Orientation, Piece, Placement};
///
/// // A vertical I against the left wall, in both coordinate forms.
/// let i = Piece::I.with(Orientation::Left).at(0, 2)?;
/// assert_eq!(i.corner(), CornerPos { x: -1, y: 1 });
/// assert_eq!(Placement::from_corner(Piece::I, Orientation::Left, i.corner())?, i);
/// assert_eq!(i.cells(), [(0, 1), (0, 2), (0, 3), (0, 4)]);
/// // The same cells reported in the canonical orientation (right for I):
/// assert_eq!(i.canonical().orientation(), Orientation::Right);
/// assert_eq!(i.canonical().cells(), i.cells());
/// # Ok::<(), pc_srs::PlacementError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Placement {
    piece: Piece,
    orientation: Orientation,
    x: i8,
    y: i8,
}

impl Placement {
    /// The placement with its rotation centre at `pos`, if every cell is on the board.
    pub fn new(
        piece: Piece,
        orientation: Orientation,
        pos: CentrePos,
    ) -> Result<Self, PlacementError> {
        let (x0, x1, y0, y1) = shape::bounds(piece, orientation);
        let ok = pos.x + (x0 as i32) >= 0
            && pos.x + (x1 as i32) < WIDTH as i32
            && pos.y + (y0 as i32) >= 0
            && pos.y + (y1 as i32) <= MAX_ROW;
        if ok {
            Ok(Placement {
                piece,
                orientation,
                x: pos.x as i8,
                y: pos.y as i8,
            })
        } else {
            Err(PlacementError::OffBoard {
                piece,
                orientation,
                x: pos.x,
                y: pos.y,
            })
        }
    }

    /// The placement whose bounding box has its bottom-left corner at `corner`.
    pub fn from_corner(
        piece: Piece,
        orientation: Orientation,
        corner: CornerPos,
    ) -> Result<Self, PlacementError> {
        Placement::new(piece, orientation, corner.to_centre(piece, orientation))
    }

    /// Internal constructor for positions already known to be on the board.
    #[inline]
    pub(crate) const fn new_unchecked(
        piece: Piece,
        orientation: Orientation,
        x: i32,
        y: i32,
    ) -> Self {
        Placement {
            piece,
            orientation,
            x: x as i8,
            y: y as i8,
        }
    }

    /// The piece.
    #[inline]
    pub const fn piece(&self) -> Piece {
        self.piece
    }

    /// The orientation.
    #[inline]
    pub const fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// The rotation centre.
    #[inline]
    pub const fn centre(&self) -> CentrePos {
        CentrePos {
            x: self.x as i32,
            y: self.y as i32,
        }
    }

    /// The bottom-left corner of the SRS bounding box.
    #[inline]
    pub const fn corner(&self) -> CornerPos {
        self.centre().to_corner(self.piece, self.orientation)
    }

    /// The four cells `(x, y)`, sorted bottom to top, then left to right.
    pub fn cells(&self) -> [(u8, u8); 4] {
        shape::sorted_cells(self.piece, self.orientation)
            .map(|(dx, dy)| ((self.x + dx) as u8, (self.y + dy) as u8))
    }

    /// The cells as a board, or `None` when a cell is above the board's rows.
    pub fn to_board<W: Word>(&self) -> Option<Board<W>> {
        let mut b = Board::new();
        for (x, y) in self.cells() {
            if !b.try_fill(x as usize, y as u32) {
                return None;
            }
        }
        Some(b)
    }

    /// Lowest and highest row covered.
    pub const fn rows(&self) -> (u32, u32) {
        let (_, _, y0, y1) = shape::bounds(self.piece, self.orientation);
        ((self.y + y0) as u32, (self.y + y1) as u32)
    }

    /// The same cells in the canonical orientation (see the crate docs: spawn or right
    /// for I, S and Z; spawn for O; J, L and T unchanged).
    pub const fn canonical(&self) -> Placement {
        let (o, (dx, dy)) = shape::canonical(self.piece, self.orientation);
        Placement {
            piece: self.piece,
            orientation: o,
            x: self.x + dx,
            y: self.y + dy,
        }
    }

    /// Whether the two placements cover the same cells with the same piece.
    pub const fn same_cells(&self, other: &Placement) -> bool {
        let a = self.canonical();
        let b = other.canonical();
        a.piece as u8 == b.piece as u8
            && a.orientation as u8 == b.orientation as u8
            && a.x == b.x
            && a.y == b.y
    }

    /// Whether the piece fits at this position of `board` (no filled cell under it).
    pub fn fits<W: Word>(&self, board: &Board<W>) -> bool {
        self.cells()
            .iter()
            .all(|&(x, y)| !board.cell(x as usize, y as u32))
    }

    /// Whether the piece fits and cannot move down (rests on the floor or a block).
    pub fn rests_on<W: Word>(&self, board: &Board<W>) -> bool {
        self.fits(board)
            && self
                .cells()
                .iter()
                .any(|&(x, y)| y == 0 || board.cell(x as usize, y as u32 - 1))
    }

    /// The placement mirrored left to right on a 10-wide board (J↔L, S↔Z, right↔left).
    pub fn mirrored(&self) -> Placement {
        let piece = self.piece.mirrored();
        let orientation = self.orientation.mirrored();
        // The mirrored cells are a translate of the mirrored piece's shape; match the
        // lowest-leftmost cells to find the translation.
        let target = self.cells().map(|(x, y)| (9 - x as i32, y as i32));
        let target_min = target.iter().min().copied().unwrap_or((0, 0));
        let shape_min = shape::cells(piece, orientation)
            .iter()
            .map(|&(dx, dy)| (dx as i32, dy as i32))
            .min()
            .unwrap_or((0, 0));
        Placement::new_unchecked(
            piece,
            orientation,
            target_min.0 - shape_min.0,
            target_min.1 - shape_min.1,
        )
    }
}

impl fmt::Debug for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-{}@({},{})",
            self.piece,
            self.orientation.compass(),
            self.x,
            self.y
        )
    }
}

impl fmt::Display for Placement {
    /// `T right at (4, 1)`, in the rotation-centre form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} at ({}, {})",
            self.piece, self.orientation, self.x, self.y
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_board_is_an_error() {
        assert!(Piece::I.with(Orientation::Spawn).at(0, 0).is_err());
        assert!(Piece::I.with(Orientation::Spawn).at(1, 0).is_ok());
        assert!(Piece::I.with(Orientation::Spawn).at(7, 0).is_ok());
        assert!(Piece::I.with(Orientation::Spawn).at(8, 0).is_err());
        assert!(Piece::I.with(Orientation::Right).at(0, 1).is_err());
        assert!(Piece::T.with(Orientation::Spawn).at(4, 63).is_err());
        let e = Piece::T.with(Orientation::Reverse).at(4, 0).unwrap_err();
        assert_eq!(e.to_string(), "T reverse at centre (4, 0) leaves the board");
    }

    #[test]
    fn corner_round_trip() {
        for p in Piece::ALL {
            for o in Orientation::ALL {
                let c = CentrePos { x: 4, y: 5 };
                assert_eq!(c.to_corner(p, o).to_centre(p, o), c);
            }
        }
    }

    #[test]
    fn mirror_is_an_involution_and_mirrors_cells() {
        for p in Piece::ALL {
            for o in Orientation::ALL {
                for x in 0..10 {
                    if let Ok(pl) = p.with(o).at(x, 3) {
                        let m = pl.mirrored();
                        assert_eq!(m.mirrored(), pl, "{pl:?}");
                        let mut want: Vec<_> =
                            pl.cells().iter().map(|&(x, y)| (9 - x, y)).collect();
                        want.sort_by_key(|&(x, y)| (y, x));
                        assert_eq!(m.cells().to_vec(), want);
                    }
                }
            }
        }
    }
}
