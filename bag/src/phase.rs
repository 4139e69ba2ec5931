//! Where in the bag cycle each PC of a PC chain starts.

use crate::Piece;
use crate::bag_state::BagState;
use crate::error::{BagError, PhaseError};
use crate::set::PieceSet;

/// Where the next PC of a chain starts in the bag cycle.
///
/// # Convention
///
/// A game starts at a bag boundary with an empty hold. A PC of `lines` rows fills
/// `10 × lines` cells, i.e. `lines × 10 / 4` pieces (10 for 4 lines, 5 for 2 lines).
/// PCs follow one another with no other pieces placed in between.
///
/// * Without hold, the next PC after `k` PCs starts once `k × pieces` pieces have been
///   drawn and placed.
/// * With hold, every PC after the first starts with one piece carried in the hold slot:
///   `k × pieces + 1` pieces have been drawn (placed or held) for `k >= 1`; the first PC
///   (`k = 0`) starts with nothing drawn and an empty hold.
///
/// Pieces visible in the preview are not counted as drawn: the bag state describes the
/// stream from the next piece not yet placed or held, so a caller advances it by the
/// preview it knows. Only the *number* of pieces left in the current bag follows from `k`;
/// which pieces they are depends on the game, so [`PcPhase::bag_states`] lists every
/// possibility and [`PcPhase::bag_state`] computes the actual one from a history.
///
/// For 4-line PCs with hold the drawn count `10k + 1` runs through all residues mod 7,
/// so the phases repeat with period 7 (`k` and `k + 7` start alike for `k >= 1`: 70
/// pieces are exactly 10 bags).
///
/// ```
/// use pc_bag::PcPhase;
///
/// // The second 4-line PC, playing with hold: 11 pieces drawn, one of them in hold,
/// // 4 drawn from the second bag so 3 are left in it.
/// let second = PcPhase::after(1, 4, true)?;
/// assert_eq!(second.pieces_drawn(), 11);
/// assert!(second.holding());
/// assert_eq!(second.left_in_bag(), 3);
/// assert_eq!(second.bag_states().count(), 35); // any 3 of the 7
///
/// // The 9th PC starts in the same phase as the 2nd.
/// assert_eq!(PcPhase::after(8, 4, true)?.left_in_bag(), 3);
/// // The 1st starts on a fresh bag with nothing held.
/// assert_eq!(PcPhase::after(0, 4, true)?.left_in_bag(), 0);
/// # Ok::<(), pc_bag::PhaseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PcPhase {
    pcs_done: usize,
    pieces_per_pc: usize,
    drawn: usize,
    holding: bool,
}

impl PcPhase {
    /// The start of the PC that follows `pcs_done` consecutive PCs of `lines` rows from
    /// the start of a game, with or without hold.
    pub fn after(pcs_done: usize, lines: usize, hold: bool) -> Result<PcPhase, PhaseError> {
        let cells = lines.checked_mul(10).filter(|&c| c > 0 && c % 4 == 0);
        let Some(cells) = cells else {
            return Err(PhaseError::UnsupportedHeight { lines });
        };
        let pieces_per_pc = cells / 4;
        let placed = pcs_done
            .checked_mul(pieces_per_pc)
            .ok_or(PhaseError::Overflow {
                pcs: pcs_done,
                lines,
            })?;
        let holding = hold && pcs_done > 0;
        Ok(PcPhase {
            pcs_done,
            pieces_per_pc,
            drawn: placed + usize::from(holding),
            holding,
        })
    }

    /// PCs completed before this one.
    pub fn pcs_done(&self) -> usize {
        self.pcs_done
    }

    /// Pieces each PC places.
    pub fn pieces_per_pc(&self) -> usize {
        self.pieces_per_pc
    }

    /// Pieces placed so far.
    pub fn pieces_placed(&self) -> usize {
        self.drawn - usize::from(self.holding)
    }

    /// Pieces drawn from the stream so far (placed plus held).
    pub fn pieces_drawn(&self) -> usize {
        self.drawn
    }

    /// Whether a piece is carried in the hold slot.
    pub fn holding(&self) -> bool {
        self.holding
    }

    /// Pieces drawn from the current bag (`0..7`; 0 at a bag boundary).
    pub fn drawn_from_bag(&self) -> usize {
        self.drawn % Piece::COUNT
    }

    /// Pieces left in the current bag (`0..7`; 0 at a bag boundary, where the next draw
    /// opens a fresh bag).
    pub fn left_in_bag(&self) -> usize {
        (Piece::COUNT - self.drawn_from_bag()) % Piece::COUNT
    }

    /// Every bag state consistent with this phase: each set of [`left_in_bag`](Self::left_in_bag)
    /// pieces (just [`BagState::FRESH`] at a boundary), in increasing bit-mask order.
    pub fn bag_states(&self) -> impl Iterator<Item = BagState> + use<> {
        let left = self.left_in_bag();
        (0u8..0x80)
            .filter_map(PieceSet::from_bits)
            .filter(move |s| s.len() == left)
            .map(BagState::from_remaining)
    }

    /// The actual bag state, from the pieces drawn since the game began (at least
    /// [`pieces_drawn`](Self::pieces_drawn) of them; only that many are used).
    pub fn bag_state(&self, history: &[Piece]) -> Result<BagState, BagError> {
        if history.len() < self.drawn {
            return Err(BagError::QueueTooShort {
                len: history.len(),
                drawn: self.drawn,
            });
        }
        BagState::from_history(&history[..self.drawn])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_line_chain_with_hold_cycles_every_seven() {
        let left: Vec<usize> = (0..15)
            .map(|k| PcPhase::after(k, 4, true).unwrap().left_in_bag())
            .collect();
        // drawn = 0, 11, 21, 31, 41, 51, 61, 71, ...
        assert_eq!(left, [0, 3, 0, 4, 1, 5, 2, 6, 3, 0, 4, 1, 5, 2, 6]);
        let firsts: std::collections::BTreeSet<usize> = (1..8)
            .map(|k| PcPhase::after(k, 4, true).unwrap().drawn_from_bag())
            .collect();
        assert_eq!(firsts.len(), 7, "the 7 phases are all distinct");
    }

    #[test]
    fn two_line_and_no_hold() {
        let p = PcPhase::after(3, 2, false).unwrap();
        assert_eq!(p.pieces_drawn(), 15);
        assert_eq!(p.left_in_bag(), 6);
        assert!(!p.holding());
        let p = PcPhase::after(3, 2, true).unwrap();
        assert_eq!(p.pieces_drawn(), 16);
        assert_eq!(p.pieces_placed(), 15);
        assert_eq!(p.left_in_bag(), 5);
        assert_eq!(p.bag_states().count(), 21);
    }

    #[test]
    fn unsupported_heights() {
        assert_eq!(
            PcPhase::after(1, 3, true),
            Err(PhaseError::UnsupportedHeight { lines: 3 })
        );
        assert!(PcPhase::after(1, 0, true).is_err());
        assert!(PcPhase::after(usize::MAX, 4, true).is_err());
        assert!(PcPhase::after(1, usize::MAX, true).is_err());
    }

    #[test]
    fn actual_state_from_history() {
        let history: Vec<Piece> = "IJLOSTZTSZO"
            .chars()
            .map(|c| Piece::try_from(c).unwrap())
            .collect();
        let p = PcPhase::after(1, 4, true).unwrap();
        assert_eq!(
            p.bag_state(&history).unwrap().remaining().to_string(),
            "IJL"
        );
        assert!(p.bag_state(&history[..5]).is_err());
    }
}
