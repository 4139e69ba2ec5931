//! The compact form of a field of at most four rows: the graph's key.

use crate::field::PcField;
use pc_bitboard::{Board32, WIDTH};

/// The most rows a graph's fields have: the clear line of the PCs it is built for.
pub(crate) const MAX_ROWS: u32 = 4;

/// The bits of a key ([`pack`]).
pub(crate) const KEY_BITS: u32 = 43;

/// A field of at most [`MAX_ROWS`] rows in [`KEY_BITS`] bits: four bits per column (bit `4x + y`
/// is the cell `(x, y)`), then the height (the clear line after the rows cleared so far).
/// Two fields with the same rows left are the same key however they were made.
pub(crate) fn pack(field: &PcField) -> u64 {
    debug_assert!(field.clear_line() <= MAX_ROWS);
    let mut key = u64::from(field.clear_line()) << 40;
    for x in 0..WIDTH {
        key |= u64::from(field.board().column(x) & 0xf) << (4 * x);
    }
    key
}

/// The field of a key made by [`pack`].
pub(crate) fn unpack(key: u64) -> PcField {
    let columns = core::array::from_fn(|x| (key >> (4 * x) & 0xf) as u32);
    PcField::new_unchecked(Board32::from_columns(columns), (key >> 40 & 0x7) as u32)
}

/// The pieces a key's field still needs: its empty cells over four (a key made by
/// [`pack`] has a multiple of four).
pub(crate) fn pieces_needed(key: u64) -> u32 {
    let height = (key >> 40 & 0x7) as u32;
    (10 * height - (key & ((1 << 40) - 1)).count_ones()) / 4
}

/// Whether a key is one [`pack`] can make: a height of at most four and no cell at or above
/// it. A file's keys are checked with this before any is unpacked.
pub(crate) fn is_valid(key: u64) -> bool {
    // The cells below each height, in every column.
    const BELOW: [u64; 5] = {
        let mut masks = [0u64; 5];
        let mut height = 0;
        while height < 5 {
            let mut x = 0;
            while x < WIDTH {
                masks[height] |= ((1 << height) - 1) << (4 * x);
                x += 1;
            }
            height += 1;
        }
        masks
    };
    let height = (key >> 40) as usize;
    height <= MAX_ROWS as usize && key & ((1 << 40) - 1) & !BELOW[height] == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_are_valid() {
        for (text, height) in [
            ("", 4),
            ("", 2),
            ("", 0),
            ("#.######../##.#######/###....###", 3),
            ("#########./#########./#########./#########.", 4),
        ] {
            let field = PcField::new_unchecked(text.parse().unwrap(), height);
            let key = pack(&field);
            assert_eq!(unpack(key), field);
            assert!(is_valid(key));
        }
        // A cell at the height, a height above four.
        assert!(!is_valid(1 << 40 | 0b10));
        assert!(!is_valid(5 << 40));
        assert!(!is_valid(1 << 43));
    }
}
