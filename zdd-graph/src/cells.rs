//! The cell masks the graph is built on: bit `8 * x + y` is cell `(x, y)`.
//!
//! Cells are numbered in the fill order, column by column from the left, bottom to top
//! in a column, so "the first empty cell" is the lowest zero bit. Column-major keeps the
//! frontier of a partial fill narrow (a piece spans at most 4 columns, whatever rows it
//! covers), which is what makes so many partial fills merge. One byte per column, so
//! the same mask serves every clear line up to 8 (80 bits, hence `u128`).

use pc_bitboard::{Board32, WIDTH};

/// Bits per column in a mask.
pub(crate) const STRIDE: u32 = 8;

/// Number of the cell `(x, y)` in the fill order.
#[inline]
pub(crate) const fn index(x: usize, y: u32) -> u32 {
    x as u32 * STRIDE + y
}

/// Every cell of the 10×8 area.
pub(crate) const ALL: u128 = (1u128 << (WIDTH as u32 * STRIDE)) - 1;

/// The mask of every cell of rows `0..rows`.
#[inline]
pub(crate) const fn rows_mask(rows: u32) -> u128 {
    let column = ((1u16 << rows) - 1) as u128;
    column * 0x0101_0101_0101_0101_0101u128
}

/// The filled cells of rows `0..rows` of `board` as a mask.
pub(crate) fn from_board(board: &Board32, rows: u32) -> u128 {
    let column = (1u32 << rows) - 1;
    board
        .columns()
        .iter()
        .enumerate()
        .fold(0u128, |acc, (x, &c)| {
            acc | ((c & column) as u128) << (x as u32 * STRIDE)
        })
}

/// The cells of a mask as a board.
pub(crate) fn to_board(mask: u128) -> Board32 {
    Board32::from_columns(core::array::from_fn(|x| {
        (mask >> (x as u32 * STRIDE)) as u32 & 0xff
    }))
}

/// Mask of the rows (bit `y`) whose ten cells are all set in `mask`.
#[inline]
pub(crate) fn full_rows(mask: u128) -> u8 {
    (0..WIDTH as u32).fold(0xff, |acc, x| acc & (mask >> (x * STRIDE)) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_round_trip() {
        let b: Board32 = "#........#/.#.......#".parse().unwrap();
        let m = from_board(&b, 2);
        assert_eq!(m, 1 << 1 | 1 << 72 | 1 << 73 | 1 << 8);
        assert_eq!(to_board(m), b);
        assert_eq!(full_rows(rows_mask(2) & !(1 << 8)), 0b10);
        assert_eq!(rows_mask(8), ALL);
        assert_eq!(rows_mask(4).count_ones(), 40);
    }
}
