//! [`FillPlacement`]: one way a piece covers four cells below the clear line, possibly
//! split by line clears, and the table of all of them.

use crate::cells;
use crate::error::FillGraphError;
use core::fmt;
use pc_bitboard::{Board32, WIDTH};
use pc_srs::{Orientation, Piece, Placement, shape};

/// Highest clear line a fill graph supports (80 cells fit a `u128`).
pub const MAX_CLEAR_LINE: u32 = 8;

/// Identifies a placement in the table of one [`FillGraph`](crate::FillGraph); decode it
/// with [`FillGraph::placement`](crate::FillGraph::placement).
///
/// Ids are numbered in the fill order of the placements' first cells, so they are only
/// meaningful for the graph that gave them out.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlacementId(pub(crate) u16);

impl PlacementId {
    /// The position in [`FillGraph::placements`](crate::FillGraph::placements).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece covering four cells of the **uncollapsed** field below the clear line.
///
/// A piece whose shape spans `k` rows may cover any `k` rows `r0 < r1 < …` of the field,
/// row `j` of its shape on row `r_j`, columns unchanged: when the rows between were
/// cleared before the piece was placed, they are gone and the piece lands on the
/// collapsed field in one piece. Such a placement [`is_split`](Self::is_split); the rows it
/// skips ([`skipped_rows`](Self::skipped_rows)) must be full before it is placed.
///
/// Its piece and orientation are those of [`FillPlacement::placement`]: the `pc-srs`
/// placement it is once the rows it skips are cleared, in the canonical orientation of
/// `pc_srs::shape::canonical` (spawn or right for I, S, Z; spawn for O), so two placements
/// covering the same cells are the same placement.
///
/// ```
/// use pc_srs::{Orientation, Piece};
/// use pc_zdd_graph::FillPlacement;
///
/// let table = FillPlacement::all(4, true)?;
/// assert_eq!(table.len(), 764);
/// // A T pointing right, centre in column 0, split across rows 0, 2 and 3.
/// let right_t = Piece::T.with(Orientation::Right).at(0, 1)?;
/// let t = table
///     .iter()
///     .find(|p| p.placement() == right_t && p.rows() == 0b1101)
///     .unwrap();
/// assert!(t.is_split());
/// assert_eq!(t.skipped_rows(), 0b0010);
/// assert_eq!(t.centre_row(), 2);
/// assert_eq!(t.cells(), [(0, 0), (0, 2), (0, 3), (1, 2)]);
/// assert_eq!(t.to_string(), "T-E x=0 rows 0,2,3");
/// // After row 1 is cleared it is that ordinary T on the collapsed field.
/// assert_eq!(t.placement_after_clears(0b0010), Some(right_t));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FillPlacement {
    mask: u128,
    /// The piece on the field with the rows it skips cleared.
    placement: Placement,
    centre_row: u8,
    rows: u8,
}

impl FillPlacement {
    /// Every placement below `clear_line` on an empty 10-wide field, split ones included
    /// when `split`, in the order of their ids in a graph of an empty field (by first cell
    /// in the fill order, then piece, orientation, column, rows).
    ///
    /// Errors when `clear_line` is not in `1..=8`.
    pub fn all(clear_line: u32, split: bool) -> Result<Vec<FillPlacement>, FillGraphError> {
        if !(1..=MAX_CLEAR_LINE).contains(&clear_line) {
            return Err(FillGraphError::ClearLineOutOfRange { clear_line });
        }
        let mut out = Vec::new();
        for piece in Piece::ALL {
            for &orientation in shape::canonical_orientations(piece) {
                push_placements(&mut out, piece, orientation, clear_line, split);
            }
        }
        out.sort_by_key(|p| {
            let shape = p.placement;
            (
                p.first_cell(),
                shape.piece(),
                shape.orientation(),
                shape.centre().x,
                p.rows,
            )
        });
        Ok(out)
    }

    /// The `pc-srs` placement this is on the field collapsed by the clears of the rows it
    /// skips ([`FillPlacement::skipped_rows`]; itself when it skips none): its piece, its
    /// canonical orientation, and in its centre's `x` the column of the rotation centre.
    #[inline]
    pub const fn placement(&self) -> Placement {
        self.placement
    }

    /// Row of the uncollapsed field the rotation centre's cell lies on.
    #[inline]
    pub const fn centre_row(&self) -> u32 {
        self.centre_row as u32
    }

    /// The rows of the uncollapsed field the piece covers, bit `y` for row `y`.
    #[inline]
    pub const fn rows(&self) -> u8 {
        self.rows
    }

    /// The rows strictly between the lowest and highest covered row that the piece does
    /// not cover: they must be cleared before it is placed.
    #[inline]
    pub const fn skipped_rows(&self) -> u8 {
        let lo = self.rows.trailing_zeros();
        let hi = 7 - self.rows.leading_zeros();
        let span = ((1u16 << (hi + 1)) - (1u16 << lo)) as u8;
        span & !self.rows
    }

    /// Whether the piece covers non-adjacent rows (rows between were cleared before it).
    #[inline]
    pub const fn is_split(&self) -> bool {
        self.skipped_rows() != 0
    }

    /// The four cells `(x, y)` in the fill order (left column first, bottom to top).
    pub fn cells(&self) -> [(usize, u32); 4] {
        let mut out = [(0usize, 0u32); 4];
        let mut m = self.mask;
        for cell in &mut out {
            let i = m.trailing_zeros();
            m &= m - 1;
            *cell = ((i / cells::STRIDE) as usize, i % cells::STRIDE);
        }
        out
    }

    /// The four cells as a board of the uncollapsed field.
    pub fn board(&self) -> Board32 {
        cells::to_board(self.mask)
    }

    /// The four cells as a mask, bit `8 * x + y` for cell `(x, y)` (the fill order).
    #[inline]
    pub const fn cell_mask(&self) -> u128 {
        self.mask
    }

    /// Number of the first cell in the fill order (`8 * x + y`: the lowest cell of the
    /// leftmost column): the cell whose turn it is when this piece is placed while
    /// building the graph.
    #[inline]
    pub const fn first_cell(&self) -> u32 {
        self.mask.trailing_zeros()
    }

    /// The `pc-srs` placement on the field collapsed by the clears of `cleared` (bit `y`
    /// for uncollapsed row `y`), or `None` when `cleared` misses a row the piece skips or
    /// clears a row it covers.
    pub fn placement_after_clears(&self, cleared: u8) -> Option<Placement> {
        if cleared & self.rows != 0 || self.skipped_rows() & !cleared != 0 {
            return None;
        }
        let below = (cleared as u32 & ((1u32 << self.centre_row) - 1)).count_ones();
        let centre = self.placement.centre();
        Placement::new(
            self.placement.piece(),
            self.placement.orientation(),
            pc_srs::CentrePos {
                x: centre.x,
                y: self.centre_row as i32 - below as i32,
            },
        )
        .ok()
    }
}

impl fmt::Display for FillPlacement {
    /// `T-E x=3 rows 0,1,2`: piece, compass orientation, centre column, rows covered.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shape = self.placement;
        write!(
            f,
            "{}-{} x={} rows ",
            shape.piece(),
            shape.orientation().compass(),
            shape.centre().x
        )?;
        let mut first = true;
        for y in 0..8 {
            if self.rows >> y & 1 == 1 {
                if !first {
                    f.write_str(",")?;
                }
                write!(f, "{y}")?;
                first = false;
            }
        }
        Ok(())
    }
}

/// Adds every placement of one piece orientation: each choice of field rows for the
/// shape's rows, each column.
fn push_placements(
    out: &mut Vec<FillPlacement>,
    piece: Piece,
    orientation: Orientation,
    clear_line: u32,
    split: bool,
) {
    let shape = shape::cells(piece, orientation);
    let (min_dx, max_dx, min_dy, max_dy) = shape::bounds(piece, orientation);
    // Every tetromino covers each row of its bounding box.
    let k = (max_dy - min_dy + 1) as u32;
    for rows in 1u16..(1 << clear_line) {
        if rows.count_ones() != k {
            continue;
        }
        let rows = rows as u8;
        let lo = rows.trailing_zeros();
        if !split && rows >> lo != (1u8 << k) - 1 {
            continue;
        }
        // Field row of each shape row, lowest first.
        let mut field_row = [0u32; 4];
        let mut m = rows;
        for r in field_row.iter_mut().take(k as usize) {
            *r = m.trailing_zeros();
            m &= m - 1;
        }
        let row_of = |dy: i8| field_row[(dy - min_dy) as usize];
        for cx in (-min_dx as i32)..(WIDTH as i32 - max_dx as i32) {
            let mut mask = 0u128;
            for &(dx, dy) in &shape {
                mask |= 1u128 << cells::index((cx + dx as i32) as usize, row_of(dy));
            }
            // On the collapsed field the rows skipped below the centre are gone.
            let skipped_below = (lo..row_of(0)).filter(|y| rows >> y & 1 == 0).count() as i32;
            let centre = pc_srs::CentrePos {
                x: cx,
                y: row_of(0) as i32 - skipped_below,
            };
            out.push(FillPlacement {
                mask,
                placement: Placement::new(piece, orientation, centre)
                    .expect("the shape lies inside the field"),
                centre_row: row_of(0) as u8,
                rows,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_counts_for_four_rows() {
        assert_eq!(FillPlacement::all(4, false).unwrap().len(), 401);
        assert_eq!(FillPlacement::all(4, true).unwrap().len(), 764);
        assert!(FillPlacement::all(0, true).is_err());
        assert!(FillPlacement::all(9, true).is_err());
    }

    #[test]
    fn contiguous_placements_match_pc_srs() {
        for p in FillPlacement::all(6, false).unwrap() {
            assert!(!p.is_split());
            let srs = p.placement_after_clears(0).unwrap();
            let mut want: Vec<(usize, u32)> = srs
                .cells()
                .iter()
                .map(|&(x, y)| (x as usize, y as u32))
                .collect();
            want.sort();
            assert_eq!(p.cells().to_vec(), want, "{p}");
        }
    }

    #[test]
    fn split_placements_collapse_to_pc_srs() {
        for p in FillPlacement::all(8, true).unwrap() {
            let skipped = p.skipped_rows();
            assert_eq!(p.is_split(), skipped != 0);
            let srs = p.placement_after_clears(skipped).unwrap();
            assert_eq!(p.placement(), srs, "{p}");
            let mut board = p.board();
            board.remove_rows(skipped as u32);
            assert_eq!(Some(board), srs.to_board::<u32>(), "{p}");
            assert!(p.placement_after_clears(skipped | p.rows()).is_none());
        }
    }
}
