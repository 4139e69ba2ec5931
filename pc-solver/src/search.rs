//! Perfect clears for a known queue: a depth-first search over collapsed fields, with
//! hold, remembering the outcome of every (field, hold, pieces left) state it met so
//! that many queues searched from one field share the work.

use crate::engine::known::{Goal, KnownMemo, KnownSolver, placements_toward_pc, turns};
use crate::field::PcField;
use crate::problem::PcProblem;
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

/// A search over one problem; keeps what it learned for later queues.
pub struct Searcher<'p> {
    problem: &'p PcProblem,
    memo: KnownMemo,
}

impl<'p> Searcher<'p> {
    /// A searcher for a problem.
    pub fn new(problem: &'p PcProblem) -> Self {
        Searcher {
            problem,
            memo: KnownMemo::default(),
        }
    }

    /// Number of states remembered.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// Forgets every remembered state (to bound memory between unrelated searches).
    pub fn clear_memo(&mut self) {
        self.memo.clear();
    }

    /// The known-queue core over this searcher's memo.
    fn known(&mut self) -> KnownSolver<'_> {
        let rules = self.problem.rules();
        let goal = Goal {
            lower_clears: false,
        };
        KnownSolver::new(rules.generator(), rules.hold, goal, &mut self.memo)
    }

    /// Whether the queue (after `hold`, if any) can make a perfect clear.
    pub fn has_solution(&mut self, hold: Option<Piece>, queue: &[Piece]) -> bool {
        let field = *self.problem.field();
        self.known().solve(field, hold, queue)
    }

    /// One perfect clear for the queue, if there is one.
    pub fn solution(&mut self, hold: Option<Piece>, queue: &[Piece]) -> Option<Solution> {
        let mut found = None;
        self.solutions(hold, queue, |s| {
            found = Some(s.clone());
            false
        });
        found
    }

    /// Calls `visit` with every distinct perfect clear (distinct move sequences, with
    /// hold use) until it returns `false`.
    pub fn solutions(
        &mut self,
        hold: Option<Piece>,
        queue: &[Piece],
        mut visit: impl FnMut(&Solution) -> bool,
    ) {
        let field = *self.problem.field();
        let (held, queue) = self.known().normalise(hold, queue);
        let mut current = Solution::default();
        self.enumerate(
            field,
            RowMap::identity(),
            held,
            queue,
            &mut current,
            &mut visit,
        );
    }

    /// Number of distinct perfect clears (move sequences with hold use) for the queue.
    pub fn count_solutions(&mut self, hold: Option<Piece>, queue: &[Piece]) -> u64 {
        let mut n = 0;
        self.solutions(hold, queue, |_| {
            n += 1;
            true
        });
        n
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
        if !self.known().solve(field, held, queue) {
            return true;
        }
        let turns: Vec<_> = turns(held, queue).collect();
        for (piece, held_after, rest, from_hold) in turns {
            let generator = self.problem.rules().generator();
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
    use crate::rules::Rules;

    fn pieces(s: &str) -> Vec<Piece> {
        s.chars().map(|c| Piece::from_char(c).unwrap()).collect()
    }

    #[test]
    fn pco_with_i_first() {
        let p = PcProblem::new(
            "##.....###/###....###/####...###/###....###"
                .parse()
                .unwrap(),
            4,
            Rules::default(),
        )
        .unwrap();
        let mut s = Searcher::new(&p);
        assert!(s.has_solution(None, &pieces("IJLOT")));
        let sol = s.solution(None, &pieces("IJLOT")).unwrap();
        assert_eq!(sol.steps.len(), 4);
        // Replaying the cells on the starting field fills every row.
        let mut b = *p.field().board();
        for step in &sol.steps {
            assert!(!b.intersects(&step.cells));
            b.merge(&step.cells);
        }
        assert_eq!(b.full_rows(), 0b1111);
        assert!(!s.has_solution(None, &pieces("OOOOO")));
    }
}
