//! What one perfect clear hands the next: the piece left in hold and the phase of the
//! 7-bag. Moves that tie on the chance of this PC are ordered by how well the next PC
//! starts with what they leave ([`carry_rank`]).

use crate::Piece;

/// The PC of the 7-bag cycle, 0 to 6, that starts once `placed` pieces are placed in the
/// game: a 4-line PC takes 10 pieces, so the k-th PC of an unbroken run (counting from 0)
/// starts after 10·k pieces, and 10·k ≡ `placed` (mod 7) gives k (5 is the inverse of 10
/// modulo 7). PC 0 starts on a fresh bag.
///
/// ```
/// use pc_bag::cycle_phase;
///
/// assert_eq!(cycle_phase(0), 0);
/// assert_eq!(cycle_phase(10), 1);
/// assert_eq!(cycle_phase(70), 0); // seven PCs use exactly ten bags
/// ```
pub fn cycle_phase(placed: u64) -> usize {
    (placed % 7 * 5 % 7) as usize
}

/// The pieces placed so far in a game, modulo 7, read off what is in view: `bag_left`
/// pieces of the current bag are still to come after the preview (0: a fresh bag
/// follows) and `in_view` pieces were drawn but not placed (the current piece, the
/// preview and the piece in hold). With [`cycle_phase`], the phase a PC starts at.
///
/// ```
/// use pc_bag::{cycle_phase, pieces_placed_mod_7};
///
/// // The first piece of a game, five previews: six drawn, one left in the bag.
/// assert_eq!(pieces_placed_mod_7(1, 6), 0);
/// // That PC needs 10 pieces: the next one starts at phase 1.
/// assert_eq!(cycle_phase(pieces_placed_mod_7(1, 6) + 10), 1);
/// ```
pub fn pieces_placed_mod_7(bag_left: usize, in_view: usize) -> u64 {
    let drawn = (7 - bag_left % 7) % 7;
    ((drawn + 7 * 7 - in_view % 49) % 7) as u64
}

/// How much the next PC, starting at `phase` of the cycle ([`cycle_phase`]), likes to
/// start with `carry` in hold (`None`: an empty slot), in thousandths: the share of PCs
/// that `pc-bot`'s 10-PC player made from an empty field at that phase with that piece in
/// hold, smoothed toward the piece's share over all phases (`pc-solver`'s README says how
/// it was measured). Only the order of pieces within a phase counts: it breaks ties between
/// moves of equal chance ([`Recommendation::moves`](https://docs.rs/pc-solver)).
///
/// ```
/// use pc_bag::carry_rank;
/// use pc_bag::Piece;
///
/// // The first PC of the cycle: an I in hold beats an S.
/// assert!(carry_rank(0, Some(Piece::I)) > carry_rank(0, Some(Piece::S)));
/// ```
pub fn carry_rank(phase: usize, carry: Option<Piece>) -> u16 {
    let index = carry.map_or(7, |p| p.index());
    CARRY_RANK[phase % 7][index]
}

/// Of the pieces a PC can leave in hold (bits over [`Piece::index`], bit 7 for an empty
/// slot), the one the next PC prefers, with its rank; `None` for no piece at all.
///
/// ```
/// use pc_bag::{Piece, best_carry};
///
/// let carries = 1 << Piece::I.index() | 1 << Piece::S.index();
/// assert_eq!(best_carry(0, carries), Some((Some(Piece::I), 990)));
/// ```
pub fn best_carry(phase: usize, carries: u8) -> Option<(Option<Piece>, u16)> {
    (0..8)
        .filter(|&i| carries >> i & 1 == 1)
        .map(|i| {
            let piece = Piece::ALL.get(i).copied();
            (piece, carry_rank(phase, piece))
        })
        // The higher rank; among equals, the first piece.
        .max_by_key(|&(piece, rank)| (rank, std::cmp::Reverse(piece.map_or(7, |p| p.index()))))
}

/// [`carry_rank`] per phase and piece, in [`Piece::ALL`] order (I J L O S T Z), then an
/// empty slot.
const CARRY_RANK: [[u16; 8]; 7] = [
    [990, 912, 988, 942, 819, 944, 812, 950],
    [985, 978, 990, 983, 933, 983, 984, 956],
    [949, 938, 952, 981, 817, 986, 831, 951],
    [991, 935, 988, 924, 935, 991, 956, 951],
    [872, 912, 924, 869, 917, 955, 983, 951],
    [991, 909, 916, 818, 929, 941, 921, 951],
    [985, 978, 987, 975, 946, 988, 952, 951],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_phase_follows_the_pieces_placed() {
        // An unbroken run of 4-line PCs meets every phase once in 70 pieces.
        let phases: Vec<usize> = (0..7).map(|k| cycle_phase(10 * k)).collect();
        assert_eq!(phases, [0, 1, 2, 3, 4, 5, 6]);
        // A 2-line PC (5 pieces) moves the cycle on by 4 PCs.
        assert_eq!(cycle_phase(5), 4);
    }

    #[test]
    fn pieces_placed_are_read_off_the_view() {
        // Game start, five previews: 6 pieces drawn, one left in the bag, none placed.
        assert_eq!(pieces_placed_mod_7(1, 6), 0);
        // Three placed, hold used: current + 5 previews + hold = 7 in view, 10 drawn.
        assert_eq!(pieces_placed_mod_7(4, 7), 3);
        // The preview ends a bag: 14 drawn, 7 in view, 7 placed.
        assert_eq!(pieces_placed_mod_7(0, 7), 0);
    }

    #[test]
    fn the_best_carry_is_the_highest_ranked_piece_on_offer() {
        let bit = |p: Piece| 1u8 << p.index();
        // Phase 0 (a fresh bag): I rates 990, S 819.
        assert_eq!(
            best_carry(0, bit(Piece::I) | bit(Piece::S)),
            Some((Some(Piece::I), 990))
        );
        assert_eq!(best_carry(0, bit(Piece::S)), Some((Some(Piece::S), 819)));
        assert_eq!(best_carry(0, 0x80), Some((None, 950)));
        assert_eq!(best_carry(3, 0), None);
        // Every rate is a share in thousandths.
        assert!(
            CARRY_RANK
                .iter()
                .flatten()
                .all(|&r| (500..=1000).contains(&r))
        );
    }
}
