//! When the heuristic hands the field back to the perfect-clear search.

use pc_bitboard::Board32;

/// Highest field [`handoff_clear_line`] hands back.
pub const HANDOFF_MAX_HEIGHT: u32 = 4;

/// Whether the field is low and clean enough for the perfect-clear search to take over,
/// and with which clear line.
///
/// The rule: no holes (no empty cell under a filled cell of its column), at most
/// [`HANDOFF_MAX_HEIGHT`] rows high, and a clear line `L` from the field's height (at
/// least 1) to 4 whose empty cells below it, `10 × L − filled cells`, are a positive
/// multiple of 4, so whole pieces can fill them. The lowest such `L` is returned: fewer
/// pieces to place. The search may also try `L + 2` while it stays at most 4 (the same
/// cell count works). Since every piece adds 4 cells and every cleared row removes 10, the
/// filled cells of a game's field are always even, so an `L` exists for any clean field at
/// most 3 rows high; a 4-row field needs a multiple of 4 filled cells.
///
/// ```
/// use pc_bot::{Board32, handoff_clear_line};
///
/// assert_eq!(handoff_clear_line(&Board32::new()), Some(2));
/// // 6 cells, 2 rows high: 14 empty below row 2 is no multiple of 4, 24 below row 3 is.
/// assert_eq!(handoff_clear_line(&"#.........\n#####.....".parse()?), Some(3));
/// // A hole: not clean.
/// assert_eq!(handoff_clear_line(&"##........\n.###......".parse()?), None);
/// // Five rows: too high.
/// assert_eq!(handoff_clear_line(&"#.........\n".repeat(5).trim_end().parse()?), None);
/// # Ok::<(), pc_bot::ParseBoardError>(())
/// ```
pub fn handoff_clear_line(board: &Board32) -> Option<u32> {
    let height = board.height();
    if height > HANDOFF_MAX_HEIGHT || board.holes() > 0 {
        return None;
    }
    let cells = board.cell_count();
    (height.max(1)..=HANDOFF_MAX_HEIGHT).find(|&line| {
        let empty = 10 * line - cells;
        empty > 0 && empty % 4 == 0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Option<u32> {
        handoff_clear_line(&text.parse().unwrap())
    }

    #[test]
    fn cell_parity_picks_the_line() {
        // 4 cells in one row: 16 empty below row 2.
        assert_eq!(line("####......"), Some(2));
        // 6 cells in one row: 4 empty below row 1, a single I finishes it.
        assert_eq!(line("######...."), Some(1));
        // 4 rows and 34 cells: 6 empty, not a multiple of 4.
        assert_eq!(line("###..#####\n###..#####\n###..#####\n##########"), None);
        // 4 rows and 32 cells: 8 empty.
        assert_eq!(
            line("###..#####\n###..#####\n###..#####\n###..#####"),
            Some(4)
        );
    }

    #[test]
    fn overhangs_are_holes() {
        assert_eq!(line("###.......\n#.#......."), None);
        assert_eq!(line("###.......\n###......."), Some(3));
    }
}
