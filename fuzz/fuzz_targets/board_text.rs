//! Board text of any kind: a board or a typed error, and a board's text parses back to
//! it, on both word sizes; the same for pc-fumen's coloured fields.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pc_bitboard::{Board32, Board64};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(board) = text.parse::<Board32>() {
        assert_eq!(board.to_string().parse::<Board32>(), Ok(board));
        assert_eq!(board.to_text(32, "/").parse::<Board32>(), Ok(board));
    }
    if let Ok(board) = text.parse::<Board64>() {
        assert_eq!(board.to_string().parse::<Board64>(), Ok(board));
    }
    if let Ok(field) = text.parse::<pc_fumen::ColoredField>() {
        assert_eq!(
            field.to_string().parse::<pc_fumen::ColoredField>(),
            Ok(field)
        );
    }
});
