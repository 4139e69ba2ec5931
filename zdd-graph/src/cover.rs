//! [`CoverCheck`]: whether a field's empty cells can be covered at all by the pieces of a
//! budget, answered by a depth-first search that stops at the first cover instead of
//! building the whole graph.

use crate::cells;
use crate::error::FillGraphError;
use crate::pieces::PieceCounts;
use crate::placements::FillPlacement;
use ahash::AHashMap;
use pc_bitboard::Board32;
use pc_srs::Placement;

/// What [`CoverCheck::first_placements`] needs while it runs, kept per thread.
#[derive(Default)]
struct Scratch {
    /// Regions already searched: whether each has a cover.
    memo: AHashMap<u128, bool>,
    /// By table index: whether a cover uses the placement.
    used: Vec<bool>,
    /// The indices marked in `used`.
    marked: Vec<u32>,
}

/// Answers of [`CoverCheck::can_cover_remembered`] by region, in a table of fixed size
/// where a region takes the slot of whatever was there: memory stays as given however
/// many fields are checked.
#[derive(Clone, Debug)]
pub struct CoverMemo {
    /// (region, answer): 0 for an empty slot, 1 no cover, 2 a cover.
    slots: Vec<(u128, u8)>,
    shift: u32,
}

impl CoverMemo {
    /// A table of `2^bits` regions (`bits` from 4 to 30; about 32 bytes a region).
    pub fn new(bits: u32) -> CoverMemo {
        let bits = bits.clamp(4, 30);
        CoverMemo {
            slots: vec![(0, 0); 1 << bits],
            shift: 64 - bits,
        }
    }

    fn slot(&self, region: u128) -> usize {
        let folded = (region as u64) ^ ((region >> 64) as u64).rotate_left(29);
        (folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    fn get(&self, region: u128) -> Option<bool> {
        match self.slots[self.slot(region)] {
            (r, answer) if r == region && answer != 0 => Some(answer == 2),
            _ => None,
        }
    }

    fn insert(&mut self, region: u128, answer: bool) {
        let slot = self.slot(region);
        self.slots[slot] = (region, 1 + answer as u8);
    }
}

/// The most regions [`CoverCheck::first_placements`] keeps its memo's memory for.
const MEMO_KEPT: usize = 256;

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// A quick yes-or-no form of the fill graph: can the empty cells of a field below the
/// clear line be covered by at most the pieces of a budget?
///
/// Split pieces are allowed and line-clear order is not checked, so the answer is the
/// same as whether [`FillGraph::build`](crate::FillGraph::build) with that budget (and
/// neither `contiguous_only` nor `acyclic`) has a fill. A perfect-clear search can use it
/// to drop a field as soon as its pieces cannot even tile it: that is a necessary
/// condition for a PC, and a search proving it fails takes far longer.
///
/// The search looks for one cover only, placing a piece on the first empty cell in the
/// fill order each time; it needs no memory beyond the placement table made by
/// [`CoverCheck::new`].
///
/// ```
/// use pc_zdd_graph::{CoverCheck, PieceCounts};
///
/// let check = CoverCheck::new(4)?;
/// // A 4×4 well: two O pieces cover it, one O and one T cannot.
/// let well = "####....##/####....##/####....##/####....##".parse()?;
/// assert!(check.can_cover(&well, "OOOO".parse()?));
/// assert!(!check.can_cover(&well, "OTSZ".parse()?));
/// assert!(check.can_cover(&well, "IIII".parse()?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct CoverCheck {
    clear_line: u32,
    /// Placements whose first cell is `c` are `placements[first[c]..first[c + 1]]`.
    first: Vec<u16>,
    /// Each placement's cells (fill-order mask) and piece index.
    placements: Vec<(u128, u8)>,
    /// The same placements in full, for [`CoverCheck::first_placements`].
    table: Vec<FillPlacement>,
}

impl CoverCheck {
    /// The check for fields below `clear_line`.
    ///
    /// Errors when `clear_line` is not in `1..=8`.
    pub fn new(clear_line: u32) -> Result<Self, FillGraphError> {
        let mut table = FillPlacement::all(clear_line, true)?;
        // Placements by first cell (stable: the table's order otherwise).
        table.sort_by_key(|p| p.first_cell());
        let cells = (cells::STRIDE * pc_bitboard::WIDTH as u32) as usize;
        let mut first = vec![0u16; cells + 1];
        for p in &table {
            first[p.first_cell() as usize + 1] += 1;
        }
        for c in 0..cells {
            first[c + 1] += first[c];
        }
        let placements = table
            .iter()
            .map(|p| (p.cell_mask(), p.placement().piece().index() as u8))
            .collect();
        Ok(CoverCheck {
            clear_line,
            first,
            placements,
            table,
        })
    }

    /// The clear line this check was made for.
    pub fn clear_line(&self) -> u32 {
        self.clear_line
    }

    /// Whether the empty cells of `field` below the clear line can be covered by at most
    /// the pieces of `budget` (cells at or above the clear line are ignored).
    pub fn can_cover(&self, field: &Board32, budget: PieceCounts) -> bool {
        self.can_cover_with_any(field, budget, 0)
    }

    /// As [`CoverCheck::can_cover`], with up to `any` more pieces that may each be any
    /// piece: the question for a queue whose last pieces are not known yet.
    ///
    /// ```
    /// use pc_zdd_graph::{CoverCheck, PieceCounts};
    ///
    /// let check = CoverCheck::new(4)?;
    /// let well = "####....##/####....##/####....##/####....##".parse()?;
    /// // Two I pieces and a J leave a 2×4 hole for an L, whatever comes.
    /// assert!(!check.can_cover(&well, "IIJ".parse()?));
    /// assert!(check.can_cover_with_any(&well, "IIJ".parse()?, 1));
    /// assert!(check.can_cover_with_any(&well, PieceCounts::ZERO, 4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn can_cover_with_any(&self, field: &Board32, budget: PieceCounts, any: u32) -> bool {
        self.can_cover_with_drawn(field, budget, any, PieceCounts::UNLIMITED)
    }

    /// As [`CoverCheck::can_cover_with_any`], with at most `each[p]` of the `any` pieces
    /// being piece `p`: the question for pieces still to be drawn from a 7-bag, where
    /// the draws of one bag are all different.
    ///
    /// ```
    /// use pc_zdd_graph::{CoverCheck, PieceCounts};
    ///
    /// let check = CoverCheck::new(4)?;
    /// // Two wells one cell wide take two I pieces: two draws from a fresh bag (two
    /// // different pieces) cannot cover them, an I known and one draw can.
    /// let well = "#.#.######/#.#.######/#.#.######/#.#.######".parse()?;
    /// assert!(check.can_cover_with_any(&well, PieceCounts::ZERO, 2));
    /// let one_each = PieceCounts::new([1; 7]);
    /// assert!(!check.can_cover_with_drawn(&well, PieceCounts::ZERO, 2, one_each));
    /// assert!(check.can_cover_with_drawn(&well, "I".parse()?, 1, one_each));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn can_cover_with_drawn(
        &self,
        field: &Board32,
        budget: PieceCounts,
        any: u32,
        each: PieceCounts,
    ) -> bool {
        let empty = cells::rows_mask(self.clear_line) & !cells::from_board(field, self.clear_line);
        let cells = empty.count_ones();
        if cells % 4 != 0 || budget.total() + any < cells / 4 {
            return false;
        }
        self.cover(empty, budget.to_array(), any, each.to_array())
    }

    /// As [`CoverCheck::can_cover_with_any`] with as many pieces of any kind as the cells
    /// need, remembering in `memo` whether each region met (the whole and what is left of
    /// it as pieces are put down) has a cover. Regions recur across fields, so a caller
    /// checking many fields of one clear line (a graph builder) shares most of the work.
    ///
    /// ```
    /// use pc_zdd_graph::{CoverCheck, CoverMemo};
    ///
    /// let check = CoverCheck::new(4)?;
    /// let mut memo = CoverMemo::new(12);
    /// let well = "####....##/####....##/####....##/####....##".parse()?;
    /// assert!(check.can_cover_remembered(&well, &mut memo));
    /// // One cell short of a cover: 15 cells in a 16-cell well plus one on the right.
    /// let odd = "####....##/####....##/####....##/####...###".parse()?;
    /// assert!(!check.can_cover_remembered(&odd, &mut memo));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn can_cover_remembered(&self, field: &Board32, memo: &mut CoverMemo) -> bool {
        let empty = cells::rows_mask(self.clear_line) & !cells::from_board(field, self.clear_line);
        empty.count_ones() % 4 == 0 && self.cover_remembered(empty, memo)
    }

    fn cover_remembered(&self, empty: u128, memo: &mut CoverMemo) -> bool {
        if empty == 0 {
            return true;
        }
        if let Some(known) = memo.get(empty) {
            return known;
        }
        let cell = empty.trailing_zeros() as usize;
        let range = self.first[cell] as usize..self.first[cell + 1] as usize;
        let found = self.placements[range]
            .iter()
            .any(|&(mask, _)| mask & !empty == 0 && self.cover_remembered(empty & !mask, memo));
        memo.insert(empty, found);
        found
    }

    /// The placements that some cover of the empty cells below the clear line (with any
    /// pieces) uses and that no line clear has to split first: the only placements a
    /// perfect clear can put down next. Whether they rest on something and can be
    /// reached is not checked. Empty when the cells have no cover.
    ///
    /// ```
    /// use pc_zdd_graph::CoverCheck;
    ///
    /// let check = CoverCheck::new(2)?;
    /// // A square hole only an O covers, and a row of four only an I covers.
    /// let field = "##..######/##..##....".parse()?;
    /// let first = check.first_placements(&field);
    /// let pieces: Vec<char> = first.iter().map(|p| p.piece().to_char()).collect();
    /// assert_eq!(pieces, ['O', 'I']);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn first_placements(&self, field: &Board32) -> Vec<Placement> {
        let empty = cells::rows_mask(self.clear_line) & !cells::from_board(field, self.clear_line);
        if empty.count_ones() % 4 != 0 {
            return Vec::new();
        }
        // The scratch space of one thread, reused: this runs millions of times a search.
        // Between calls the memo is empty and `used` all false, so that a call costs what
        // it touches, not the size of the table or of the largest memo met before.
        SCRATCH.with_borrow_mut(|scratch| {
            if scratch.used.len() < self.placements.len() {
                scratch.used.resize(self.placements.len(), false);
            }
            scratch.marked.clear();
            self.mark(empty, scratch);
            scratch.marked.sort_unstable();
            let first = scratch
                .marked
                .iter()
                .map(|&i| &self.table[i as usize])
                .filter(|p| !p.is_split())
                .filter_map(|p| p.placement_after_clears(0))
                .collect();
            for &i in &scratch.marked {
                scratch.used[i as usize] = false;
            }
            // Clearing a map costs its capacity: a large one is dropped instead.
            if scratch.memo.len() > MEMO_KEPT {
                scratch.memo = AHashMap::default();
            } else {
                scratch.memo.clear();
            }
            first
        })
    }

    /// Whether `empty` has a cover, marking every placement of every cover. A
    /// sub-region met again is answered from the memo: its placements were marked the
    /// first time, and every region searched is reached from the whole by placements
    /// of a cover, so they belong to covers of the whole too.
    fn mark(&self, empty: u128, scratch: &mut Scratch) -> bool {
        if empty == 0 {
            return true;
        }
        if let Some(&known) = scratch.memo.get(&empty) {
            return known;
        }
        let cell = empty.trailing_zeros() as usize;
        let mut any = false;
        for i in self.first[cell] as usize..self.first[cell + 1] as usize {
            let mask = self.placements[i].0;
            if mask & !empty == 0 && self.mark(empty & !mask, scratch) {
                if !scratch.used[i] {
                    scratch.used[i] = true;
                    scratch.marked.push(i as u32);
                }
                any = true;
            }
        }
        scratch.memo.insert(empty, any);
        any
    }

    /// Covers the first empty cell and the rest. A piece of the budget is used before a
    /// wildcard: a cover that spends a wildcard where the budget still had that piece
    /// stays a cover when the two are swapped, so nothing is missed.
    /// `each` caps the wildcards per piece.
    fn cover(&self, empty: u128, budget: [u8; 7], any: u32, each: [u8; 7]) -> bool {
        if empty == 0 {
            return true;
        }
        let cell = empty.trailing_zeros() as usize;
        let range = self.first[cell] as usize..self.first[cell + 1] as usize;
        self.placements[range].iter().any(|&(mask, piece)| {
            let p = piece as usize;
            mask & !empty == 0
                && if budget[p] > 0 {
                    let mut rest = budget;
                    rest[p] -= 1;
                    self.cover(empty & !mask, rest, any, each)
                } else if any > 0 && each[p] > 0 {
                    let mut each = each;
                    each[p] -= 1;
                    self.cover(empty & !mask, budget, any - 1, each)
                } else {
                    false
                }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BuildOptions, FillGraph, StateId};

    fn has_fill(field: &Board32, clear_line: u32, budget: PieceCounts) -> bool {
        let options = BuildOptions::new().piece_budget(budget);
        FillGraph::build(field, clear_line, options).is_ok_and(|g| g.root() != StateId::DEAD)
    }

    #[test]
    fn agrees_with_the_fill_graph_on_fixed_fields() {
        let fields = [
            ("##......../##......../##......../##........", 4),
            ("######..../######..../######..../######....", 4),
            ("#.......##/#.......##/##......##/###....###", 4),
            ("..........", 2),
            ("####......", 2),
            ("#########./#########./########../#######...", 4),
        ];
        for (text, clear_line) in fields {
            let field: Board32 = text.parse().unwrap();
            let check = CoverCheck::new(clear_line).unwrap();
            for budget in [
                "IIIIIIII", "OOOOOOOO", "TTTTTTTT", "IJLOSTZ", "SZSZSZ", "LJLJ", "TI",
            ] {
                let budget: PieceCounts = budget.parse().unwrap();
                assert_eq!(
                    check.can_cover(&field, budget),
                    has_fill(&field, clear_line, budget),
                    "{text} with {budget}"
                );
            }
        }
    }

    #[test]
    fn drawn_pieces_are_every_draw_of_at_most_so_many_of_each() {
        // `can_cover_with_drawn` is the union, over every multiset of at most `any`
        // pieces within `each`, of `can_cover` with the budget plus that multiset.
        fn multisets(each: [u8; 7], any: u32, from: usize, acc: [u8; 7], out: &mut Vec<[u8; 7]>) {
            out.push(acc);
            if any == 0 {
                return;
            }
            for p in from..7 {
                if acc[p] < each[p] {
                    let mut next = acc;
                    next[p] += 1;
                    multisets(each, any - 1, p, next, out);
                }
            }
        }
        let fields = [
            ("########../########../########../########..", 4),
            ("######..../######..../######..../######....", 4),
            ("#.......##/#.......##/##......##/###....###", 4),
            ("....######/....######", 2),
            ("##......../##......../##......../##........", 4),
        ];
        let mut outcomes = [0; 2];
        for (text, clear_line) in fields {
            let field: Board32 = text.parse().unwrap();
            let check = CoverCheck::new(clear_line).unwrap();
            for (budget, any, each) in [
                ("", 2, [1u8; 7]),
                ("I", 1, [1; 7]),
                ("TI", 4, [1; 7]),
                ("OO", 3, [2, 0, 1, 1, 1, 0, 1]),
                ("SZ", 4, [1; 7]),
                ("", 6, [1; 7]),
            ] {
                let budget: PieceCounts = budget.parse().unwrap();
                let mut draws = Vec::new();
                multisets(each, any, 0, [0; 7], &mut draws);
                let brute = draws.iter().any(|d| {
                    let mut b = budget.to_array();
                    for (b, d) in b.iter_mut().zip(d) {
                        *b += d;
                    }
                    check.can_cover(&field, PieceCounts::new(b))
                });
                let drawn = check.can_cover_with_drawn(&field, budget, any, PieceCounts::new(each));
                assert_eq!(drawn, brute, "{text} with {budget} and {any} of {each:?}");
                outcomes[drawn as usize] += 1;
            }
            // Without a cap per piece, the same as any pieces.
            for any in 0..=10 {
                assert_eq!(
                    check.can_cover_with_drawn(
                        &field,
                        PieceCounts::ZERO,
                        any,
                        PieceCounts::UNLIMITED
                    ),
                    check.can_cover_with_any(&field, PieceCounts::ZERO, any)
                );
            }
        }
        // Both answers occur, so the comparison says something.
        assert!(outcomes[0] > 3 && outcomes[1] > 3, "{outcomes:?}");
    }

    #[test]
    fn remembered_answers_equal_the_plain_check() {
        // Random fields of 2 to 4 rows with a multiple of 4 empty cells, through one
        // small memo (collisions overwrite) and a large one.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut small = CoverMemo::new(4);
        let mut large = CoverMemo::new(16);
        let mut outcomes = [0; 2];
        for _ in 0..2_000 {
            let rows = 2 + (next() % 3) as u32;
            let mut field = Board32::new();
            // Columns filled from the floor, with a hole now and then.
            for x in 0..10 {
                let height = (next() % u64::from(rows + 1)) as u32;
                for y in 0..height {
                    if next() % 8 != 0 {
                        field.fill(x, y);
                    }
                }
            }
            field.clear_full_rows();
            let empty = 10 * rows - field.cell_count();
            if empty % 4 != 0 || field.has_cells_at_or_above(rows) {
                continue;
            }
            let check = CoverCheck::new(rows).unwrap();
            let plain = check.can_cover_with_any(&field, PieceCounts::ZERO, empty / 4);
            assert_eq!(check.can_cover_remembered(&field, &mut small), plain);
            assert_eq!(check.can_cover_remembered(&field, &mut large), plain);
            outcomes[plain as usize] += 1;
        }
        assert!(outcomes[0] > 50 && outcomes[1] > 50, "{outcomes:?}");
    }

    #[test]
    fn a_split_piece_counts() {
        // Row 1 is full: the four empty cells are an O split across it.
        let field: Board32 = "########../##########/########..".parse().unwrap();
        let check = CoverCheck::new(3).unwrap();
        assert!(check.can_cover(&field, "O".parse().unwrap()));
        assert!(!check.can_cover(&field, "IJLSTZ".parse().unwrap()));
        assert!(check.can_cover_with_any(&field, "IJLSTZ".parse().unwrap(), 1));
    }

    #[test]
    fn too_few_pieces_or_cells_fail_at_once() {
        let check = CoverCheck::new(4).unwrap();
        assert!(!check.can_cover(&Board32::new(), "IJLOSTZ".parse().unwrap()));
        let odd: Board32 = "#.........".parse().unwrap();
        assert!(!check.can_cover(&odd, PieceCounts::UNLIMITED));
        assert!(CoverCheck::new(0).is_err());
        assert!(CoverCheck::new(9).is_err());
    }
}
