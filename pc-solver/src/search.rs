//! [`Searcher`]: perfect clears for a known queue, a depth-first search over collapsed
//! fields with hold, remembering the outcome of every (field, hold, pieces left) state it
//! met so that many queues share the work.

use crate::decision::MAX_UNKNOWN;
use crate::engine::known::{KnownMemo, KnownSolver, placements_toward_pc, turns};
use crate::error::SolverError;
use crate::field::Goal;
use crate::field::PcField;
use crate::rules::Rules;
use pc_bag::BagState;
use pc_bitboard::Board32;
use pc_srs::{Piece, Placement};

/// One move of a solution.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Step {
    /// Where the piece locks, in the field as it is at that moment (rows cleared by
    /// earlier steps removed).
    pub placement: Placement,
    /// Whether the piece came out of the hold slot (it was held earlier).
    pub from_hold: bool,
    /// The same cells in the coordinates of the starting field (a piece placed after a
    /// line clear may cover non-adjacent rows there).
    pub cells: Board32,
}

/// A perfect clear: the moves in play order.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Solution {
    /// The moves, in order.
    pub steps: Vec<Step>,
}

impl Solution {
    /// The pieces in the order they are played.
    pub fn pieces(&self) -> Vec<Piece> {
        self.steps.iter().map(|s| s.placement.piece()).collect()
    }

    /// The placements in the order they are played (each in the field of its moment).
    pub fn placements(&self) -> Vec<Placement> {
        self.steps.iter().map(|s| s.placement).collect()
    }
}

/// Which rows of the starting field the rows of a collapsed field are.
#[derive(Clone, Copy, Debug)]
struct RowMap {
    rows: [u8; 8],
}

impl RowMap {
    fn identity() -> Self {
        RowMap {
            rows: [0, 1, 2, 3, 4, 5, 6, 7],
        }
    }

    /// The map after the rows in `cleared` (current coordinates) were removed.
    fn after_clear(&self, cleared: u32) -> RowMap {
        let mut rows = [0u8; 8];
        let mut n = 0;
        for (y, &r) in self.rows.iter().enumerate() {
            if cleared >> y & 1 == 0 {
                rows[n] = r;
                n += 1;
            }
        }
        RowMap { rows }
    }

    fn original_cells(&self, placement: &Placement) -> Board32 {
        let mut b = Board32::new();
        for (x, y) in placement.cells() {
            b.fill(x as usize, self.rows[y as usize] as u32);
        }
        b
    }
}

/// Perfect clears for known queues, on any field, with hold as the rules say: whether a
/// queue clears, one solution, every distinct one, how many, and what a PC can leave in
/// hold. It remembers what it learned (per field, hold slot and pieces left), so that
/// many queues and fields asked in turn share the work; [`Searcher::memo_len`] and
/// [`Searcher::clear`] bound that memory.
///
/// A queue is the pieces after the one in hold, in order; with hold, one piece may be
/// left over, and an empty slot takes the first piece of the queue for free.
///
/// ```
/// use pc_solver::{PcField, Piece::*, Rules, Searcher};
///
/// let pco = PcField::new("##.....###/###....###/####...###/###....###".parse()?, 4)?;
/// let mut searcher = Searcher::new(Rules::default());
/// assert!(searcher.has_solution(&pco, None, &[I, J, L, O, T]));
/// let solution = searcher.solution(&pco, None, &[I, J, L, O, T]).expect("it clears");
/// assert_eq!(solution.steps.len(), 4);
/// assert!(!searcher.has_solution(&pco, None, &[O, O, O, O, O]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Searcher {
    rules: Rules,
    memo: KnownMemo,
    /// States a search may still expand (see [`Searcher::set_state_limit`]).
    allowance: u64,
    /// Whether a search ran out of states since [`Searcher::take_ran_out`].
    ran_out: bool,
}

impl Searcher {
    /// A searcher for the rules, remembering nothing yet.
    pub fn new(rules: Rules) -> Self {
        Searcher {
            rules,
            memo: KnownMemo::default(),
            allowance: u64::MAX,
            ran_out: false,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// How many states are remembered (a measure of the memory held, tens of bytes each).
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// Forgets every remembered state.
    pub fn clear(&mut self) {
        self.memo.clear();
    }

    /// From now on, at most `states` states not met before are expanded in all (`None`:
    /// no limit, the default). Past it, a `false` answer proves nothing:
    /// [`Searcher::take_ran_out`] says whether that happened. A `true` answer is always
    /// a proof, and only proven answers are remembered.
    pub fn set_state_limit(&mut self, states: Option<u64>) {
        self.allowance = states.unwrap_or(u64::MAX);
    }

    /// Whether a search ran out of states ([`Searcher::set_state_limit`]) since the last
    /// call.
    pub fn take_ran_out(&mut self) -> bool {
        std::mem::take(&mut self.ran_out)
    }

    /// Runs `search` on the known-queue core over this searcher's memo and allowance.
    fn with_known<T>(
        &mut self,
        cache_children: bool,
        search: impl FnOnce(&mut KnownSolver<'_>) -> T,
    ) -> T {
        let goal = Goal {
            lower_clears: false,
        };
        let mut known = KnownSolver::new(
            self.rules.generator(),
            self.rules.hold,
            goal,
            &mut self.memo,
        );
        if cache_children {
            known = known.caching_children();
        }
        known.set_allowance(Some(self.allowance));
        let found = search(&mut known);
        self.allowance = known.allowance();
        self.ran_out |= known.take_ran_out();
        found
    }

    /// Whether hold, then the queue, can make a perfect clear of the field.
    pub fn has_solution(&mut self, field: &PcField, hold: Option<Piece>, queue: &[Piece]) -> bool {
        self.with_known(false, |known| known.solve(*field, hold, queue))
    }

    /// As [`Searcher::has_solution`], expanding at most `states` states not met before;
    /// `None` when that was not enough to find a PC or prove there is none. The answer
    /// depends on what is remembered (remembered states cost nothing).
    pub fn has_solution_within(
        &mut self,
        field: &PcField,
        hold: Option<Piece>,
        queue: &[Piece],
        states: u64,
    ) -> Option<bool> {
        let before = (self.allowance, self.ran_out);
        self.allowance = states;
        self.ran_out = false;
        let ok = self.has_solution(field, hold, queue);
        let proven = ok || !self.ran_out;
        (self.allowance, self.ran_out) = before;
        proven.then_some(ok)
    }

    /// One perfect clear for the queue, if there is one.
    pub fn solution(
        &mut self,
        field: &PcField,
        hold: Option<Piece>,
        queue: &[Piece],
    ) -> Option<Solution> {
        let mut found = None;
        self.solutions(field, hold, queue, |s| {
            found = Some(s.clone());
            false
        });
        found
    }

    /// Calls `visit` with every distinct perfect clear (distinct move sequences, with
    /// hold use) until it returns `false`.
    pub fn solutions(
        &mut self,
        field: &PcField,
        hold: Option<Piece>,
        queue: &[Piece],
        mut visit: impl FnMut(&Solution) -> bool,
    ) {
        let (held, queue) = self.with_known(false, |known| known.normalise(hold, queue));
        let mut current = Solution::default();
        self.enumerate(
            *field,
            RowMap::identity(),
            held,
            queue,
            &mut current,
            &mut visit,
        );
    }

    /// Number of distinct perfect clears (move sequences with hold use) for the queue.
    pub fn count_solutions(
        &mut self,
        field: &PcField,
        hold: Option<Piece>,
        queue: &[Piece],
    ) -> u64 {
        let mut n = 0;
        self.solutions(field, hold, queue, |_| {
            n += 1;
            true
        });
        n
    }

    /// The best rank ([`pc_bag::carry_rank`] at `phase`) of the pieces a PC
    /// of hold, then the queue, can leave in the hold slot for the next PC (an empty slot
    /// counts too); `None` when there is no PC.
    ///
    /// ```
    /// use pc_solver::{PcField, Piece::*, Rules, Searcher};
    ///
    /// let pco = PcField::new("##.....###/###....###/####...###/###....###".parse()?, 4)?;
    /// let mut searcher = Searcher::new(Rules::default());
    /// // A PC of I J L O T places four of them; the fifth stays in hold.
    /// let best = searcher.best_carry_rank(&pco, Some(I), &[J, L, O, T], 0);
    /// assert!(best.is_some());
    /// assert_eq!(searcher.best_carry_rank(&pco, Some(O), &[O, O, O, O], 0), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn best_carry_rank(
        &mut self,
        field: &PcField,
        hold: Option<Piece>,
        queue: &[Piece],
        phase: usize,
    ) -> Option<u16> {
        self.with_known(false, |known| {
            known.best_carry_rank(*field, hold, queue, phase)
        })
    }

    /// The clairvoyant count: of the sequences of `unknown` pieces (at most 4) the bag
    /// `bag` can deal after the queue, how many let hold, then the queue, then the
    /// sequence, make a perfect clear when the whole queue is known. `Ok(None)` as soon as
    /// they cannot number more than `beat`. A search for a decision with pieces not seen
    /// yet; the share of the count in [`BagState::continuation_count`] is an upper bound
    /// of the exact chance.
    ///
    /// ```
    /// use pc_solver::{BagState, PcField, Piece::*, Rules, Searcher};
    ///
    /// // Grace system, T held, L and O known, three pieces of a fresh bag to come.
    /// let field = PcField::new("######..../######..../######..../######....".parse()?, 4)?;
    /// let mut searcher = Searcher::new(Rules::default());
    /// let count = searcher.clairvoyant_count(&field, Some(T), &[L, O], BagState::FRESH, 3, None)?;
    /// assert!(count.is_some_and(|c| c > 0 && c < BagState::FRESH.continuation_count(3).unwrap()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clairvoyant_count(
        &mut self,
        field: &PcField,
        hold: Option<Piece>,
        queue: &[Piece],
        bag: BagState,
        unknown: usize,
        beat: Option<u64>,
    ) -> Result<Option<u64>, SolverError> {
        if unknown > MAX_UNKNOWN {
            return Err(SolverError::TooManyUnknown(unknown));
        }
        let bits = bag.remaining().bits();
        // The same fields come back with many queues here: their moves are kept.
        Ok(self.with_known(true, |known| {
            known
                .clairvoyant(*field, hold, queue, bits, unknown as u32, beat)
                .map(|set| set.len())
        }))
    }

    /// Depth-first enumeration; returns `false` when the visitor asked to stop.
    fn enumerate(
        &mut self,
        field: PcField,
        rows: RowMap,
        held: Option<Piece>,
        queue: &[Piece],
        current: &mut Solution,
        visit: &mut impl FnMut(&Solution) -> bool,
    ) -> bool {
        if field.is_clear() {
            return visit(current);
        }
        if !self.has_solution(&field, held, queue) {
            return true;
        }
        let turns: Vec<_> = turns(held, queue).collect();
        for (piece, held_after, rest, from_hold) in turns {
            let generator = self.rules.generator();
            for placement in placements_toward_pc(&generator, &field, piece) {
                let (next, cleared) = field.place_and_clear(&placement);
                if !next.can_be_filled() {
                    continue;
                }
                current.steps.push(Step {
                    placement,
                    from_hold,
                    cells: rows.original_cells(&placement),
                });
                let go_on = self.enumerate(
                    next,
                    rows.after_clear(cleared),
                    held_after,
                    rest,
                    current,
                    visit,
                );
                current.steps.pop();
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(s: &str) -> Vec<Piece> {
        s.chars().map(|c| Piece::from_char(c).unwrap()).collect()
    }

    #[test]
    fn pco_with_i_first() {
        let field = PcField::new(
            "##.....###/###....###/####...###/###....###"
                .parse()
                .unwrap(),
            4,
        )
        .unwrap();
        let mut s = Searcher::new(Rules::default());
        assert!(s.has_solution(&field, None, &pieces("IJLOT")));
        let sol = s.solution(&field, None, &pieces("IJLOT")).unwrap();
        assert_eq!(sol.steps.len(), 4);
        // Replaying the cells on the starting field fills every row.
        let mut b = *field.board();
        for step in &sol.steps {
            assert!(!b.intersects(&step.cells));
            b.merge(&step.cells);
        }
        assert_eq!(b.full_rows(), 0b1111);
        assert!(!s.has_solution(&field, None, &pieces("OOOOO")));
    }

    #[test]
    fn a_search_out_of_states_proves_nothing_and_leaves_no_trace() {
        let field = PcField::new(
            "##......../##......../##......../##........"
                .parse()
                .unwrap(),
            4,
        )
        .unwrap();
        let mut s = Searcher::new(Rules::default());
        // These pieces can cover the empty cells, but no order of them makes a PC: only
        // a search proves it (S pieces alone, which cannot even cover them, are settled
        // without one).
        let no_pc = pieces("JSZJJZOTS");
        assert_eq!(
            s.has_solution_within(&field, None, &pieces("SSSSSSSSS"), 0),
            Some(false)
        );
        assert_eq!(s.has_solution_within(&field, None, &no_pc, 5), None);
        assert_eq!(
            s.has_solution_within(&field, None, &no_pc, u64::MAX),
            Some(false)
        );
        // A queue with a PC, first with too few states: the states that failed for
        // want of states must not be remembered as failures.
        let pc = pieces("TSZILJOT");
        assert_eq!(s.has_solution_within(&field, None, &pc, 3), None);
        assert_eq!(
            s.has_solution_within(&field, None, &pc, u64::MAX),
            Some(true)
        );
        // Remembered: no state is needed the second time.
        assert_eq!(s.has_solution_within(&field, None, &pc, 0), Some(true));
        assert!(s.has_solution(&field, None, &pc));
        assert!(!s.has_solution(&field, None, &no_pc));
        // A limit set for several questions runs out across them, and says so once.
        s.clear();
        s.set_state_limit(Some(5));
        assert!(!s.has_solution(&field, None, &no_pc));
        assert!(s.take_ran_out());
        assert!(!s.take_ran_out());
        s.set_state_limit(None);
        assert!(!s.has_solution(&field, None, &no_pc));
        assert!(!s.take_ran_out());
    }
}
