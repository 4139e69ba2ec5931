//! T-spin detection by the guideline's three-corner rule.

use pc_bitboard::Board32;
use pc_srs::{CentrePos, MoveGenerator, Orientation, Piece, Placement, Turn};

/// The kind of T-spin a placement makes (ordered: none < mini < full).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TSpin {
    /// Not a T-spin.
    #[default]
    None,
    /// A T-spin mini: three corners filled, but only one of the two the T points to.
    Mini,
    /// A (full) T-spin: both corners the T points to filled, plus one behind; or a mini
    /// made with a kick that upgrades it (the guideline's 1-by-2 kick of the T).
    Full,
}

/// `(front, back)` corners of a T, as offsets from its rotation centre: the two on the
/// side the T points to, and the two behind.
const fn corners(o: Orientation) -> [[(i32, i32); 2]; 2] {
    match o {
        Orientation::Spawn => [[(-1, 1), (1, 1)], [(-1, -1), (1, -1)]],
        Orientation::Right => [[(1, 1), (1, -1)], [(-1, 1), (-1, -1)]],
        Orientation::Reverse => [[(-1, -1), (1, -1)], [(-1, 1), (1, 1)]],
        Orientation::Left => [[(-1, 1), (-1, -1)], [(1, 1), (1, -1)]],
    }
}

/// Filled corners `(front, back)` of a T placement; walls and floor count as filled.
fn filled_corners(board: &Board32, placement: &Placement) -> (u32, u32) {
    let CentrePos { x, y } = placement.centre();
    let [front, back] = corners(placement.orientation());
    let count = |cs: [(i32, i32); 2]| {
        cs.iter()
            .filter(|&&(dx, dy)| board.is_blocked(x + dx, y + dy))
            .count() as u32
    };
    (count(front), count(back))
}

/// The T-spin a placement makes on `board` (the field before it locks), given the
/// rotation that brought it there: `None` when the last move was not a rotation (a
/// shift or a drop), which is never a T-spin. Rows the T completes are counted on the
/// field with the T in place, before they clear.
///
/// ```
/// use pc_bot::{
///     Board32, DropMode, KickTable, MoveGenerator, Orientation, Piece, TSpin, guideline_spawn,
///     tspin,
/// };
///
/// // A T-spin double slot: the T turns clockwise from right into it.
/// let board: Board32 = "..#......./##...#####/###.######".parse()?;
/// let t = Piece::T.with(Orientation::Reverse).at(3, 1)?;
/// let srs = KickTable::srs();
/// let generator = MoveGenerator::new(&srs, DropMode::Soft);
/// let turn = generator.turns_into_from_spawn(&board, &t, guideline_spawn(20))?[0];
/// assert_eq!(tspin(&board, &t, Some(turn)), TSpin::Full);
/// assert_eq!(tspin(&board, &t, None), TSpin::None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn tspin(board: &Board32, placement: &Placement, last_turn: Option<Turn>) -> TSpin {
    let Some(turn) = last_turn else {
        return TSpin::None;
    };
    if placement.piece() != Piece::T {
        return TSpin::None;
    }
    let (front, back) = filled_corners(board, placement);
    if front + back < 3 {
        TSpin::None
    } else if front == 2 || turn.upgrades_mini {
        TSpin::Full
    } else {
        TSpin::Mini
    }
}

/// The best T-spin a placement can make when the piece comes from `spawn`: the best of
/// [`tspin`] over every rotation that ends in it from a position the piece can reach
/// ([`MoveGenerator::turns_into_from_spawn`]). This is what an evaluator assumes when it
/// does not know the keys the player will press.
///
/// ```
/// use pc_bot::{
///     Board32, DropMode, KickTable, MoveGenerator, Orientation, Piece, TSpin, best_tspin,
///     guideline_spawn,
/// };
///
/// let board: Board32 = "..#......./##...#####/###.######".parse()?;
/// let srs = KickTable::srs();
/// let generator = MoveGenerator::new(&srs, DropMode::Soft);
/// let t = Piece::T.with(Orientation::Reverse).at(3, 1)?;
/// assert_eq!(best_tspin(&board, &t, &generator, guideline_spawn(20)), TSpin::Full);
/// // Hard drop only: the last move is always the drop.
/// let hard = MoveGenerator::new(&srs, DropMode::Hard);
/// assert_eq!(best_tspin(&board, &t, &hard, guideline_spawn(20)), TSpin::None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn best_tspin(
    board: &Board32,
    placement: &Placement,
    generator: &MoveGenerator<'_>,
    spawn: CentrePos,
) -> TSpin {
    if placement.piece() != Piece::T {
        return TSpin::None;
    }
    let (front, back) = filled_corners(board, placement);
    if front + back < 3 {
        return TSpin::None;
    }
    generator
        .turns_into_from_spawn(board, placement, spawn)
        .map(|turns| {
            turns
                .iter()
                .map(|&turn| tspin(board, placement, Some(turn)))
                .max()
                .unwrap_or(TSpin::None)
        })
        .unwrap_or(TSpin::None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pc_srs::{DropMode, KickTable, Rotation, guideline_spawn};

    fn turn(upgrades_mini: bool) -> Turn {
        Turn {
            rotation: Rotation::Cw,
            from: Orientation::Spawn,
            kick_index: 0,
            upgrades_mini,
        }
    }

    #[test]
    fn tsd_slot_is_a_full_tspin_only_after_a_rotation() {
        let board: Board32 = "..#......./##...#####/###.######".parse().unwrap();
        let t = Piece::T.with(Orientation::Reverse).at(3, 1).unwrap();
        assert_eq!(filled_corners(&board, &t), (2, 1));
        assert_eq!(tspin(&board, &t, Some(turn(false))), TSpin::Full);
        assert_eq!(tspin(&board, &t, None), TSpin::None);
    }

    #[test]
    fn one_front_corner_is_a_mini_unless_the_kick_upgrades_it() {
        // Column 0 three high, one block at (2, 0): a T pointing right at (1, 1) has
        // both back corners and one front corner filled.
        let board: Board32 = "#........./#........./#.#.......".parse().unwrap();
        let t = Piece::T.with(Orientation::Right).at(1, 1).unwrap();
        assert!(t.rests_on(&board));
        assert_eq!(filled_corners(&board, &t), (1, 2));
        assert_eq!(tspin(&board, &t, Some(turn(false))), TSpin::Mini);
        assert_eq!(tspin(&board, &t, Some(turn(true))), TSpin::Full);
        // It can also be dropped straight in: without a rotation it is no T-spin.
        assert_eq!(tspin(&board, &t, None), TSpin::None);
        // From the spawn it can be turned in (spawn, one column right, second kick).
        let srs = KickTable::srs();
        let generator = MoveGenerator::new(&srs, DropMode::Soft);
        assert_eq!(
            best_tspin(&board, &t, &generator, guideline_spawn(20)),
            TSpin::Mini
        );
    }

    #[test]
    fn two_corners_or_another_piece_is_no_tspin() {
        let board: Board32 = "#.#.......".parse().unwrap();
        // A T flat on the floor: the floor gives two corners, nothing above.
        let t = Piece::T.with(Orientation::Spawn).at(5, 0).unwrap();
        assert_eq!(tspin(&board, &t, Some(turn(true))), TSpin::None);
        // An L in a T's place is never a T-spin.
        let full: Board32 = "..#......./##...#####/###.######".parse().unwrap();
        let l = Piece::L.with(Orientation::Reverse).at(3, 1).unwrap();
        assert_eq!(tspin(&full, &l, Some(turn(false))), TSpin::None);
    }

    #[test]
    fn walls_count_as_filled_corners() {
        // A T pointing right against the left wall: both back corners are the wall.
        let board = Board32::new();
        let t = Piece::T.with(Orientation::Right).at(0, 1).unwrap();
        assert_eq!(filled_corners(&board, &t), (0, 2));
        let low = Piece::T.with(Orientation::Spawn).at(1, 0).unwrap();
        // Spawn at (1, 0): back corners are the floor, front corners empty.
        assert_eq!(filled_corners(&board, &low), (0, 2));
    }
}
