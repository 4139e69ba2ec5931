//! The combinations of pieces a pattern deals, without their order: what sfinder's
//! `path -k use` lists a line for.

use super::PatternSet;
use crate::Piece;
use crate::multiset::PieceMultiset;
use std::collections::HashSet;

impl PatternSet {
    /// Each combination of `len` pieces (a multiset) found among the pieces some queue of
    /// the set deals: all of a queue's pieces when it deals `len` or fewer, else each
    /// choice of `len` of them. Each combination once, in the order first met (line by
    /// line, element by element).
    ///
    /// Cost: the choices of each element's pieces multiplied over the elements, times the
    /// choices of `len` of them: fine for the patterns of a perfect clear (`*p7,*p4` gives
    /// 35 queues' worth of pieces), large for many elements of several pieces each.
    ///
    /// ```
    /// use pc_bag::PatternSet;
    ///
    /// let set: PatternSet = "I,*p4".parse()?;
    /// let four = set.piece_combinations(4);
    /// // I and three of the other six (20), or four of the other six (15) with I or without.
    /// assert_eq!(four.len(), 50);
    /// assert_eq!(four[0].to_string(), "IJLO");
    /// assert_eq!(set.piece_combinations(5).len(), 35);
    /// # Ok::<(), pc_bag::PatternSetError>(())
    /// ```
    pub fn piece_combinations(&self, len: usize) -> Vec<PieceMultiset> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        for pattern in self.patterns() {
            let mut dealt = vec![PieceMultiset::default()];
            for element in pattern.elements() {
                let pieces: Vec<Piece> = element.set().iter().collect();
                let mut picks = Vec::new();
                choose(
                    &pieces,
                    element.pick(),
                    PieceMultiset::default(),
                    &mut picks,
                );
                dealt = dealt
                    .iter()
                    .flat_map(|d| picks.iter().filter_map(move |p| d.checked_sum(p)))
                    .collect();
            }
            for pieces in dealt {
                let mut kept = Vec::new();
                if pieces.len() > len {
                    within(&pieces, len, 0, PieceMultiset::default(), &mut kept);
                } else {
                    kept.push(pieces);
                }
                for combination in kept {
                    if seen.insert(combination) {
                        out.push(combination);
                    }
                }
            }
        }
        out
    }
}

/// Each choice of `pick` of `pieces` (distinct), added to `taken`.
fn choose(pieces: &[Piece], pick: usize, taken: PieceMultiset, out: &mut Vec<PieceMultiset>) {
    if pick == 0 {
        out.push(taken);
        return;
    }
    for (k, &piece) in pieces.iter().enumerate() {
        if let Some(more) = taken.checked_add(piece) {
            choose(&pieces[k + 1..], pick - 1, more, out);
        }
    }
}

/// Each multiset of `size` pieces within `pieces`, from piece index `from` on, added to
/// `taken`.
fn within(
    pieces: &PieceMultiset,
    size: usize,
    from: usize,
    taken: PieceMultiset,
    out: &mut Vec<PieceMultiset>,
) {
    if size == 0 {
        out.push(taken);
        return;
    }
    for index in from..Piece::ALL.len() {
        let piece = Piece::ALL[index];
        let mut more = taken;
        // One, two, … of this piece, then only pieces after it.
        for k in 1..=usize::from(pieces.count(piece)).min(size) {
            more = more
                .checked_add(piece)
                .expect("no more than `pieces` holds");
            within(pieces, size - k, index + 1, more, out);
        }
    }
}
