//! Property tests of the board: text round-trips, line clears invert, the parser never panics.

use pc_bitboard::{Board, Board32, Board64, ParseBoardError, Word};
use proptest::prelude::*;

#[path = "support/edit.rs"]
mod edit;
use edit::edited;

fn board<W: Word>(rows: u32) -> impl Strategy<Value = Board<W>> {
    proptest::collection::vec(0u16..1024, rows as usize).prop_map(|rows| {
        let mut b = Board::<W>::new();
        for (y, bits) in rows.into_iter().enumerate() {
            b.set_row(y as u32, bits);
        }
        b
    })
}

/// Naive line clear over a row list, independent of the bit tricks.
fn clear_naive<W: Word>(b: &Board<W>) -> Board<W> {
    let kept: Vec<u16> = (0..W::BITS)
        .map(|y| b.row(y))
        .filter(|&r| r != 0x3ff)
        .collect();
    let mut out = Board::new();
    for (y, r) in kept.into_iter().enumerate() {
        out.set_row(y as u32, r);
    }
    out
}

proptest! {
    #[test]
    fn text_round_trips(b in board::<u32>(32)) {
        let text = b.to_string();
        prop_assert_eq!(text.parse::<Board32>().unwrap(), b);
        prop_assert_eq!(b.to_text(32, "/").parse::<Board32>().unwrap(), b);
    }

    #[test]
    fn text_round_trips_u64(b in board::<u64>(64)) {
        prop_assert_eq!(b.to_string().parse::<Board64>().unwrap(), b);
    }

    #[test]
    fn clear_matches_naive_and_reinsert_restores(
        mut b in board::<u32>(12),
        full in proptest::collection::vec(any::<bool>(), 12),
    ) {
        for (y, f) in full.iter().enumerate() {
            if *f { b.set_row(y as u32, 0x3ff); }
        }
        let before = b;
        let cleared = b.clear_full_rows();
        prop_assert_eq!(b, clear_naive(&before));
        prop_assert_eq!(cleared.count_ones() as usize, full.iter().filter(|f| **f).count()
            + (0..12).filter(|&y| !full[y] && before.row(y as u32) == 0x3ff).count());
        b.insert_rows(cleared, true);
        prop_assert_eq!(b, before);
    }

    #[test]
    fn remove_rows_then_insert_puts_rows_back(b in board::<u64>(20), mask in 0u64..(1 << 20)) {
        let mut c = b;
        c.remove_rows(mask);
        prop_assert!(c.height() <= b.height());
        c.insert_rows(mask, false);
        for y in 0..20 {
            if mask >> y & 1 == 1 {
                prop_assert_eq!(c.row(y), 0);
            } else {
                prop_assert_eq!(c.row(y), b.row(y));
            }
        }
    }

    #[test]
    fn parser_never_panics(s in "\\PC{0,200}") {
        let _ = s.parse::<Board32>();
    }

    #[test]
    fn parser_never_panics_on_board_like_text(s in "[#.X_/\n a]{0,400}") {
        if let Ok(b) = s.parse::<Board32>() {
            // Whatever parsed prints back to the same cells.
            prop_assert_eq!(b.to_string().parse::<Board32>().unwrap(), b);
        }
    }

    #[test]
    fn holes_match_naive(b in board::<u32>(8)) {
        let mut naive = 0;
        for x in 0..10 {
            let h = b.column_height(x);
            naive += (0..h).filter(|&y| !b.cell(x, y)).count() as u32;
        }
        prop_assert_eq!(b.holes(), naive);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A board's text with characters replaced, inserted or deleted: a board that prints
    /// back to itself, or an error whose row and column point at the offending row and
    /// character of the text.
    #[test]
    fn edited_text_parses_or_says_where(
        b in board::<u32>(8),
        separator in prop::sample::select(vec!["\n", "/", "\r\n", " / "]),
        edits in proptest::collection::vec(
            (0u8..3, any::<prop::sample::Index>(), prop::sample::select(vec!['#', '.', '/', '\n', ' ', 'X', '_', 'a', 'é'])),
            1..4,
        ),
    ) {
        let text = edited(&b.to_text(8, separator), &edits);
        // The rows as the parser sees them: split, trimmed, blank ones left out.
        let rows: Vec<&str> = text.split(['\n', '/']).map(str::trim).filter(|r| !r.is_empty()).collect();
        match text.parse::<Board32>() {
            Ok(parsed) => prop_assert_eq!(parsed.to_string().parse::<Board32>().unwrap(), parsed),
            Err(ParseBoardError::UnexpectedChar { row, column, found, .. }) => {
                prop_assert_eq!(rows[row - 1].chars().nth(column - 1), Some(found));
            }
            Err(ParseBoardError::WrongWidth { row, found }) => {
                prop_assert_eq!(rows[row - 1].chars().count(), found);
                prop_assert_ne!(found, 10);
            }
            Err(e) => prop_assert!(false, "{e}"),
        }
    }
}
