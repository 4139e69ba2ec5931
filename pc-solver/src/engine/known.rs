//! The known-queue core shared by [`crate::Searcher`] and the adaptive [`crate::Solver`]:
//! whether a (field, hold, pieces left) state can still make a perfect clear, remembered
//! per state, and the same question for a queue whose last piece is not known yet.

use crate::decision::{ALL_PIECES, Decision, MoveTo, hold_code, pieces_in, queue_key};
use crate::engine::answer::{Answerer, Ranking};
use crate::engine::context::Context;
use crate::engine::graph::PcGraph;
use crate::engine::kind::Engine;
use crate::error::SolverError;
use crate::field::{Goal, PcField};
use crate::options::SolverOptions;
use crate::position::Move;
use ahash::AHashMap;
use pc_bag::{Ratio, best_carry, carry_rank};
use pc_srs::{MoveGenerator, Piece, Placement};
use pc_zdd_graph::{BuildOptions, CoverCheck, FillGraph, PieceCounts, StateId};
use std::sync::{Arc, OnceLock};

/// In a set of pieces left in hold, the bit for an empty slot.
pub(crate) const NO_CARRY: u8 = 0x80;

/// A memo key: field, hold slot, and the pieces still to come.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    field: u128,
    queue: u64,
    held: u8,
}

impl Key {
    pub(crate) fn new(field: &PcField, held: Option<Piece>, queue: &[Piece]) -> Key {
        Key {
            field: field.key(),
            queue: queue_key(queue),
            held: hold_code(held),
        }
    }
}

/// The placements of `piece` on `field` that a perfect clear can go on from: every move
/// of the piece, except with two pieces left, where only those that leave the last
/// piece's shape ([`PcField::first_of_two`]) can. The candidates (placements resting on
/// empty cells) are found with bit operations; most are reached by a straight drop, and
/// the others are looked up in one move generation, made only if one is needed.
pub(crate) fn placements_toward_pc(
    generator: &MoveGenerator<'_>,
    field: &PcField,
    piece: Piece,
) -> Vec<Placement> {
    let candidates = if field.pieces_needed() == 2 {
        field.first_of_two(piece).into_vec()
    } else {
        field.resting(piece).into_vec()
    };
    let mut generated = None;
    candidates
        .into_iter()
        .filter(|p| {
            generator.drops_or_slides_in(field.board(), p, field.clear_line())
                || generated
                    .get_or_insert_with(|| {
                        generator
                            .placements(field.board(), piece, field.clear_line())
                            .expect("a valid field stays valid")
                    })
                    .contains(p)
        })
        .collect()
}

/// The cover check for fields of `height` rows (1 to 8), made once per height.
pub(crate) fn cover_check(height: u32) -> &'static CoverCheck {
    static CHECKS: [OnceLock<CoverCheck>; 8] = [const { OnceLock::new() }; 8];
    CHECKS[height as usize - 1]
        .get_or_init(|| CoverCheck::new(height).expect("a PC field has 1 to 8 rows"))
}

/// The choices of one turn: (piece played, hold afterwards, queue afterwards, from hold).
/// With the hold slot filled, the held piece is always offered first.
pub(crate) fn turns(
    held: Option<Piece>,
    queue: &[Piece],
) -> impl Iterator<Item = (Piece, Option<Piece>, &[Piece], bool)> {
    let next = queue.split_first();
    let rest = next.map_or(&[][..], |(_, r)| r);
    let from_hold = held.map(|h| (h, next.map(|(&n, _)| n), rest, true));
    let from_queue = next.and_then(|(&n, r)| (Some(n) != held).then_some((n, held, r, false)));
    from_hold.into_iter().chain(from_queue)
}

/// What the known-queue searches remember, kept apart from the rules so that a solver can
/// own it next to its kick table.
#[derive(Default)]
pub(crate) struct KnownMemo {
    memo: AHashMap<Key, bool>,
    masks: AHashMap<Key, u8>,
    /// For a field and a piece, the fields its placements lead to that can still be
    /// filled (as keys): move generation is most of the cost of a search, and the same
    /// fields come back with other queues.
    children: AHashMap<(u128, u8), Arc<[u128]>>,
    /// Whether a field has a fill with at most the pieces of a budget.
    tileable: AHashMap<(u128, PieceCounts), bool>,
    /// For a state whose queue ends before two unknown pieces x and y: for each x, the
    /// y that finish the PC.
    pairs: AHashMap<Key, ([u8; 7], bool)>,
    /// For a state that can make a PC, the pieces that can be left in hold at it
    /// (see [`KnownSolver::carries`]).
    carries: AHashMap<Key, u8>,
    /// For a state and a phase of the bag cycle, the best rank of the pieces a PC can
    /// leave in hold (see [`KnownSolver::best_carry_rank`]).
    carry_ranks: AHashMap<(Key, u8), Option<u16>>,
}

impl KnownMemo {
    /// States remembered.
    pub(crate) fn len(&self) -> usize {
        self.memo.len()
            + self.masks.len()
            + self.children.len() * 4
            + self.tileable.len()
            + self.pairs.len()
            + self.carries.len()
            + self.carry_ranks.len()
    }

    pub(crate) fn clear(&mut self) {
        self.memo.clear();
        self.masks.clear();
        self.children.clear();
        self.tileable.clear();
        self.pairs.clear();
        self.carries.clear();
        self.carry_ranks.clear();
    }
}

/// Known-queue perfect clears from any collapsed field, remembered per state.
pub(crate) struct KnownSolver<'a> {
    pub(crate) generator: MoveGenerator<'a>,
    /// Whether the rules have hold.
    pub(crate) hold: bool,
    pub(crate) goal: Goal,
    memo: &'a mut KnownMemo,
    /// Whether move generation results are kept (see [`KnownSolver::caching_children`]).
    cache_children: bool,
    /// States a budgeted search may still expand (see [`KnownSolver::solve_within`]).
    allowance: u64,
    /// Whether a budgeted search ran out: its failures are then not proofs.
    ran_out: bool,
    /// A PC field graph of the same rules: a child of one of its fields that it does not
    /// have cannot make a PC, so it is never entered.
    graph: Option<&'a PcGraph>,
}

impl<'a> KnownSolver<'a> {
    /// Every placement of the current piece and of the held piece (a hold into an empty
    /// slot is not among them), with where it leads.
    pub(crate) fn moves(&self, decision: &Decision) -> Vec<MoveTo> {
        let mut moves = Vec::new();
        for (piece, hold_after) in decision.choices() {
            let hold = hold_after != decision.hold;
            // A field already cleared (clear line 0) has no placements.
            let Ok(set) = self.generator.placements(
                decision.field.board(),
                piece,
                decision.field.clear_line(),
            ) else {
                continue;
            };
            for placement in set.iter() {
                let field = decision.field.place(&placement);
                moves.push(MoveTo {
                    mv: Move { hold, placement },
                    after: (!self.goal.reached(&field)).then_some((field, hold_after)),
                });
            }
        }
        moves
    }

    pub(crate) fn new(
        generator: MoveGenerator<'a>,
        hold: bool,
        goal: Goal,
        memo: &'a mut KnownMemo,
    ) -> Self {
        KnownSolver {
            generator,
            hold,
            goal,
            memo,
            cache_children: false,
            allowance: u64::MAX,
            ran_out: false,
            graph: None,
        }
    }

    /// Leaves out the children that a PC field graph of the same rules shows cannot make
    /// a PC (only below the graph's own fields; elsewhere it cannot tell).
    pub(crate) fn pruned_by(mut self, graph: Option<&'a PcGraph>) -> Self {
        self.graph = graph;
        self
    }

    /// The search over a solver's tables, keeping children (see
    /// [`KnownSolver::caching_children`]).
    pub(crate) fn over<'c>(context: &'c mut Context<'_>) -> KnownSolver<'c> {
        let goal = context.goal();
        KnownSolver::new(
            context.rules.generator(),
            context.rules.hold,
            goal,
            &mut context.tables.known,
        )
        .caching_children()
        .pruned_by(context.options.graph.as_deref())
    }

    /// Keeps the children of every (field, piece) met. The adaptive solver meets the same
    /// fields with many queues, where this halves the time; one search over a long queue
    /// rarely does, and there the table only costs.
    pub(crate) fn caching_children(mut self) -> Self {
        self.cache_children = true;
        self
    }

    /// States remembered.
    pub(crate) fn len(&self) -> usize {
        self.memo.len()
    }

    /// Forgets every remembered state.
    pub(crate) fn clear(&mut self) {
        self.memo.clear();
    }

    /// The fields that placing `piece` on `field` leads to and that can still be filled
    /// (a PC, with the goal's lower clears, counts as fillable).
    pub(crate) fn children(&mut self, field: &PcField, piece: Piece) -> Arc<[u128]> {
        let key = (field.key(), piece.index() as u8);
        if let Some(children) = self.memo.children.get(&key) {
            return children.clone();
        }
        let children: Arc<[u128]> = self.fresh_children(field, piece).into();
        if self.cache_children {
            self.memo.children.insert(key, children.clone());
        }
        children
    }

    /// As [`KnownSolver::children`], never remembered: for searches that meet each
    /// (field, piece) once.
    pub(crate) fn fresh_children(&self, field: &PcField, piece: Piece) -> Vec<u128> {
        if let Some(children) = self.graph.and_then(|g| g.children_by_piece(field, piece)) {
            return children;
        }
        placements_toward_pc(&self.generator, field, piece)
            .into_iter()
            .map(|p| field.place(&p))
            .filter(|f| f.can_be_filled())
            .map(|f| f.key())
            .collect()
    }

    /// Whether the empty cells of `field` can be covered by at most the pieces of
    /// `budget`, ignoring order, rotation and gravity: a necessary condition for a PC
    /// that the fill graph settles far faster than a search proves a failure.
    fn tileable(&mut self, field: &PcField, budget: PieceCounts) -> bool {
        if self.goal.lower_clears || field.is_clear() {
            return true;
        }
        let key = (field.key(), budget);
        if let Some(&t) = self.memo.tileable.get(&key) {
            return t;
        }
        let options = BuildOptions::new().piece_budget(budget).acyclic(true);
        let t = FillGraph::build(field.board(), field.clear_line(), options)
            .map_or(true, |g| g.root() != StateId::DEAD);
        self.memo.tileable.insert(key, t);
        t
    }

    /// Whether the pieces left (hold, the queue, then `unknown` pieces not revealed yet)
    /// can at least tile the empty cells of the field, ignoring order, rotation and
    /// gravity: a necessary condition for a PC that fails for most dead states of a
    /// search long before the search would.
    fn coverable(
        &self,
        field: &PcField,
        held: Option<Piece>,
        queue: &[Piece],
        unknown: u32,
    ) -> bool {
        if self.goal.lower_clears {
            return true;
        }
        // Only the pieces the next turns can play: the held one and as many after it as
        // pieces are needed.
        let needed = field.pieces_needed() as usize;
        let known = needed.min(queue.len());
        let budget =
            PieceCounts::from_pieces(held.into_iter().chain(queue[..known].iter().copied()));
        let any = (unknown as usize).min(needed - known) as u32;
        cover_check(field.clear_line()).can_cover_with_any(field.board(), budget, any)
    }

    /// With hold, an empty slot takes the first piece at once: holding it or playing it
    /// and holding the next leave the same choices.
    pub(crate) fn normalise<'q>(
        &self,
        held: Option<Piece>,
        queue: &'q [Piece],
    ) -> (Option<Piece>, &'q [Piece]) {
        if !self.hold {
            return (None, queue);
        }
        match (held, queue.split_first()) {
            (None, Some((&first, rest))) => (Some(first), rest),
            _ => (held, queue),
        }
    }

    /// Whether the pieces (hold, then the queue) can make a perfect clear of the field.
    pub(crate) fn solve(&mut self, field: PcField, held: Option<Piece>, queue: &[Piece]) -> bool {
        let (held, queue) = self.normalise(held, queue);
        self.solve_normalised(field, held, queue)
    }

    /// Takes one state from the allowance; false (and remembered) when there is none.
    fn spend(&mut self) -> bool {
        if self.allowance == 0 {
            self.ran_out = true;
            return false;
        }
        self.allowance -= 1;
        true
    }

    /// From now on at most `states` states not met before are expanded (`None`: no
    /// limit); answers found after running out are subsets of the truth, never
    /// remembered as complete (see [`KnownSolver::take_ran_out`]).
    pub(crate) fn set_allowance(&mut self, states: Option<u64>) {
        self.allowance = states.unwrap_or(u64::MAX);
    }

    /// The states the allowance has left.
    pub(crate) fn allowance(&self) -> u64 {
        self.allowance
    }

    /// Whether the allowance ran out since the last call.
    pub(crate) fn take_ran_out(&mut self) -> bool {
        std::mem::take(&mut self.ran_out)
    }

    fn solve_normalised(&mut self, field: PcField, held: Option<Piece>, queue: &[Piece]) -> bool {
        if self.goal.reached(&field) {
            return true;
        }
        let available = queue.len() as u32 + held.is_some() as u32;
        if available < self.goal.min_pieces(&field) {
            return false;
        }
        let key = Key::new(&field, held, queue);
        if let Some(&known) = self.memo.memo.get(&key) {
            return known;
        }
        // Settled without expanding a state: the pieces cannot even cover the cells.
        if field.pieces_needed() > 1 && !self.coverable(&field, held, queue, 0) {
            self.memo.memo.insert(key, false);
            return false;
        }
        if !self.spend() {
            return false;
        }
        let mut ok = false;
        if field.pieces_needed() == 1 {
            // One piece left: its placement is fixed by the empty cells.
            if let Some(last) = field.last_placement() {
                let offered = turns(held, queue).any(|(piece, ..)| piece == last.piece());
                ok = offered
                    && self
                        .generator
                        .is_reachable(field.board(), &last, field.clear_line())
                        .unwrap_or(false);
            }
            self.memo.memo.insert(key, ok);
            return ok;
        }
        'turns: for (piece, held_after, rest, _) in turns(held, queue) {
            for &next in self.children(&field, piece).iter() {
                if self.solve_normalised(PcField::from_key(next), held_after, rest) {
                    ok = true;
                    break 'turns;
                }
            }
        }
        // A failure after running out proves nothing; a PC found is one.
        if ok || !self.ran_out {
            self.memo.memo.insert(key, ok);
        }
        ok
    }

    /// The pieces that can be in the hold slot when the PC is made with hold, then the
    /// queue (bits over [`Piece::index`]; [`NO_CARRY`] when the slot can be empty): what
    /// the next PC starts with besides the rest of the queue. 0 when there is no PC. An
    /// empty slot with pieces left in the queue counts as holding the first of them, as
    /// in [`KnownSolver::normalise`]: the player can hold it for free.
    pub(crate) fn carries(&mut self, field: PcField, held: Option<Piece>, queue: &[Piece]) -> u8 {
        let (held, queue) = self.normalise(held, queue);
        self.carries_normalised(field, held, queue)
    }

    fn carries_normalised(&mut self, field: PcField, held: Option<Piece>, queue: &[Piece]) -> u8 {
        if self.goal.reached(&field) {
            return held.map_or(NO_CARRY, |p| 1 << p.index());
        }
        // Only states with a PC are explored (their answer is remembered).
        if !self.solve_normalised(field, held, queue) {
            return 0;
        }
        let key = Key::new(&field, held, queue);
        if let Some(&carries) = self.memo.carries.get(&key) {
            return carries;
        }
        let mut carries = 0;
        for (piece, held_after, rest, _) in turns(held, queue) {
            for &next in self.children(&field, piece).iter() {
                carries |= self.carries_normalised(PcField::from_key(next), held_after, rest);
            }
        }
        self.memo.carries.insert(key, carries);
        carries
    }

    /// The best rank ([`pc_bag::carry_rank`] at `phase`) of the pieces a PC can leave
    /// in the hold slot, `None` when there is no PC: the best of
    /// [`KnownSolver::carries`], by a search that stops once the best piece on hand is
    /// found to be left.
    pub(crate) fn best_carry_rank(
        &mut self,
        field: PcField,
        held: Option<Piece>,
        queue: &[Piece],
        phase: usize,
    ) -> Option<u16> {
        let (held, queue) = self.normalise(held, queue);
        self.best_carry_rank_normalised(field, held, queue, phase)
    }

    fn best_carry_rank_normalised(
        &mut self,
        field: PcField,
        held: Option<Piece>,
        queue: &[Piece],
        phase: usize,
    ) -> Option<u16> {
        if self.goal.reached(&field) {
            return Some(carry_rank(phase, held));
        }
        if !self.solve_normalised(field, held, queue) {
            return None;
        }
        let key = Key::new(&field, held, queue);
        if let Some(&carries) = self.memo.carries.get(&key) {
            return best_carry(phase, carries).map(|(_, rank)| rank);
        }
        if let Some(&rank) = self.memo.carry_ranks.get(&(key, phase as u8)) {
            return rank;
        }
        // No PC leaves a piece better than the best one held or to come.
        let on_hand = held
            .into_iter()
            .chain(queue.iter().copied())
            .map(|p| carry_rank(phase, Some(p)))
            .max();
        let mut best: Option<u16> = None;
        'turns: for (piece, held_after, rest, _) in turns(held, queue) {
            for &next in self.children(&field, piece).iter() {
                let below = self.best_carry_rank_normalised(
                    PcField::from_key(next),
                    held_after,
                    rest,
                    phase,
                );
                best = best.max(below);
                if best.is_some() && best >= on_hand {
                    break 'turns;
                }
            }
        }
        self.memo.carry_ranks.insert((key, phase as u8), best);
        best
    }

    /// Of the pieces `x` in `wanted` (bits over [`Piece::index`]), those for which hold,
    /// then the queue, then `x` can make a perfect clear: one search for a queue whose
    /// last piece is not revealed yet.
    pub(crate) fn solve_last_unknown(
        &mut self,
        field: PcField,
        held: Option<Piece>,
        queue: &[Piece],
        wanted: u8,
    ) -> u8 {
        let (held, queue) = self.normalise(held, queue);
        // Pieces whose multiset cannot even tile the field are out at once.
        let budget = PieceCounts::from_pieces(held.into_iter().chain(queue.iter().copied()));
        let mut tiling = 0;
        for x in pieces_in(wanted) {
            let mut with_x = budget;
            with_x.add(x);
            if self.tileable(&field, with_x) {
                tiling |= 1 << x.index();
            }
        }
        if tiling == 0 {
            return 0;
        }
        self.last_unknown(field, held, queue, tiling) & tiling
    }

    /// For each piece `x` (by [`Piece::index`]), the pieces `y` for which hold, then the
    /// queue, then `x`, then `y` can make a perfect clear: one search for a queue whose
    /// last two pieces are not revealed yet, sharing every state before `x` is played.
    pub(crate) fn solve_last_two_unknown(
        &mut self,
        field: PcField,
        held: Option<Piece>,
        queue: &[Piece],
    ) -> [u8; 7] {
        self.solve_last_two_wanted(field, held, queue, [ALL_PIECES; 7])
    }

    /// As [`KnownSolver::solve_last_two_unknown`], settling only the pairs of `wanted`
    /// (`y` in `wanted[x]`): every pair of it that finishes a PC is in the answer, and
    /// the answer has only pairs that do.
    pub(crate) fn solve_last_two_wanted(
        &mut self,
        field: PcField,
        held: Option<Piece>,
        queue: &[Piece],
        wanted: [u8; 7],
    ) -> [u8; 7] {
        let (held, queue) = self.normalise(held, queue);
        self.last_two_unknown(field, held, queue, wanted)
    }

    fn last_two_unknown(
        &mut self,
        field: PcField,
        held: Option<Piece>,
        queue: &[Piece],
        wanted: [u8; 7],
    ) -> [u8; 7] {
        const NONE: [u8; 7] = [0; 7];
        const EVERY: [u8; 7] = [ALL_PIECES; 7];
        if self.goal.reached(&field) {
            return EVERY;
        }
        let available = queue.len() as u32 + held.is_some() as u32 + 2;
        if available < self.goal.min_pieces(&field) {
            return NONE;
        }
        if queue.is_empty() {
            // x comes next: a search with one unknown piece for each.
            let mut found = NONE;
            for x in Piece::ALL {
                let want = wanted[x.index()];
                if want == 0 {
                    continue;
                }
                found[x.index()] = match held {
                    None if self.hold => self.last_unknown(field, Some(x), &[], want),
                    _ => self.last_unknown(field, held, &[x], want),
                };
            }
            return found;
        }
        let covers = |found: &[u8; 7]| found.iter().zip(wanted).all(|(f, w)| f & w == w);
        let key = Key::new(&field, held, queue);
        // What an earlier search found, and whether it tried every move for every pair.
        let (mut found, complete) = match self.memo.pairs.get(&key) {
            Some(&known) => known,
            // No pair finishes when the pieces cannot even cover the cells.
            None if !self.coverable(&field, held, queue, 2) => {
                self.memo.pairs.insert(key, (NONE, true));
                return NONE;
            }
            None => (NONE, false),
        };
        if complete || covers(&found) || !self.spend() {
            return found;
        }
        // Children are asked only for what is still missing, so the result is the whole
        // truth only when every pair was wanted.
        let mut complete = wanted == EVERY;
        'turns: for (piece, held_after, rest, _) in turns(held, queue) {
            for &next in self.children(&field, piece).iter() {
                let mut missing = wanted;
                for (m, f) in missing.iter_mut().zip(found) {
                    *m &= !f;
                }
                let below =
                    self.last_two_unknown(PcField::from_key(next), held_after, rest, missing);
                for (f, b) in found.iter_mut().zip(below) {
                    *f |= b;
                }
                if covers(&found) {
                    complete = found == EVERY;
                    break 'turns;
                }
            }
        }
        self.memo
            .pairs
            .insert(key, (found, complete && !self.ran_out));
        found
    }

    /// A set of pieces that can end the PC: all that can among `wanted`, maybe more.
    fn last_unknown(
        &mut self,
        field: PcField,
        held: Option<Piece>,
        queue: &[Piece],
        wanted: u8,
    ) -> u8 {
        if self.goal.reached(&field) {
            return ALL_PIECES;
        }
        let available = queue.len() as u32 + held.is_some() as u32 + 1;
        if available < self.goal.min_pieces(&field) {
            return 0;
        }
        if queue.is_empty() {
            // The unknown piece comes next: try each.
            let mut found = 0;
            for x in Piece::ALL {
                if wanted >> x.index() & 1 == 1 && self.solve_normalised(field, held, &[x]) {
                    found |= 1 << x.index();
                }
            }
            return found;
        }
        let key = Key::new(&field, held, queue);
        // What an earlier search found, and whether it tried every move.
        let (mut found, complete) = match self.memo.masks.get(&key) {
            Some(&m) => (m & ALL_PIECES, m >> 7 == 1),
            // No piece finishes when the pieces cannot even cover the cells.
            None if !self.coverable(&field, held, queue, 1) => {
                self.memo.masks.insert(key, 1 << 7);
                return 0;
            }
            None => (0, false),
        };
        if complete || found & wanted == wanted || !self.spend() {
            return found;
        }
        // Children are asked only for what is still missing, so the result is the whole
        // truth only when every piece was wanted.
        let mut complete = wanted == ALL_PIECES;
        'turns: for (piece, held_after, rest, _) in turns(held, queue) {
            for &next in self.children(&field, piece).iter() {
                let missing = wanted & !found;
                found |= self.last_unknown(PcField::from_key(next), held_after, rest, missing);
                if found & wanted == wanted {
                    complete = found == ALL_PIECES;
                    break 'turns;
                }
            }
        }
        let complete = complete && !self.ran_out;
        self.memo.masks.insert(key, found | (complete as u8) << 7);
        found
    }
}

/// The known-queue search: every piece the PC can use is in view.
pub(crate) struct KnownQueue;

impl Answerer for KnownQueue {
    fn name(&self) -> Engine {
        Engine::KnownQueue
    }

    fn applies(&self, _: &SolverOptions, decision: &Decision) -> bool {
        decision.fully_known() && !decision.holds_into_empty()
    }

    fn rank(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        until_certain: bool,
    ) -> Result<Ranking, SolverError> {
        let mut known = KnownSolver::over(context);
        let rest = &decision.queue.as_slice()[1..];
        let mut ranked = Vec::new();
        for to in known.moves(decision) {
            let clears = match to.after {
                None => true,
                Some((field, hold)) => known.solve(field, hold, rest),
            };
            ranked.push((to.mv, if clears { Ratio::ONE } else { Ratio::ZERO }));
            if clears && until_certain {
                break;
            }
        }
        // This engine never answers a decision that may hold into the empty slot
        // (`applies`): holding first would reveal a piece.
        Ok(Ranking {
            moves: ranked,
            hold_first: None,
        })
    }

    fn chances_of(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        moves: &[Move],
        _: Option<u64>,
    ) -> Result<Vec<Option<Ratio>>, SolverError> {
        let ranked = self.rank(context, decision, false)?.moves;
        let mut certain = false;
        Ok(moves
            .iter()
            .map(|mv| {
                let (_, chance) = ranked.iter().find(|(m, _)| m == mv).filter(|_| !certain)?;
                certain = chance.is_one();
                Some(*chance)
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;
    use pc_bitboard::Board32;
    use pc_srs::KickTable;

    fn queue(text: &str) -> Vec<Piece> {
        text.chars().map(|c| Piece::from_char(c).unwrap()).collect()
    }

    #[test]
    fn the_pieces_left_in_hold_are_those_of_the_solutions_and_the_best_is_found() {
        let rules = Rules::default();
        let goal = Goal {
            lower_clears: false,
        };
        let fields = [
            ("##.....###/###....###/####...###/###....###", 4),
            ("######..../######..../######..../######....", 4),
            ("##......../##......../##......../##........", 4),
        ];
        let queues = [
            "ILOSJZT",
            "TIOSZLJ",
            "TLJSZIO",
            "IJLTOSZ",
            "TSZILJOTI",
            "OTISZLJ",
        ];
        let (mut with_pc, mut several) = (0, 0);
        for (text, line) in fields {
            let board: Board32 = text.parse().unwrap();
            let field = PcField::new_unchecked(board, line);
            for q in queues {
                let pieces = queue(q);
                let (held, rest) = (Some(pieces[0]), &pieces[1..]);
                // From the solutions: what is left of hold, then the queue, after the
                // pieces played (one piece when the queue is longer than needed).
                let mut expected = 0u8;
                crate::Searcher::new(rules.clone()).solutions(&field, held, rest, |solution| {
                    let mut left = [0u8; 7];
                    for p in &pieces[..(solution.steps.len() + 1).min(pieces.len())] {
                        left[p.index()] += 1;
                    }
                    for p in solution.pieces() {
                        left[p.index()] -= 1;
                    }
                    let bits = (0..7).filter(|&i| left[i] > 0).fold(0u8, |b, i| b | 1 << i);
                    expected |= if bits == 0 { NO_CARRY } else { bits };
                    true
                });
                let mut memo = KnownMemo::default();
                let mut solver = KnownSolver::new(rules.generator(), true, goal, &mut memo);
                assert_eq!(solver.carries(field, held, rest), expected, "{text} {q}");
                // The best of them at each phase, by its own search.
                for phase in 0..7 {
                    let mut memo = KnownMemo::default();
                    let mut solver = KnownSolver::new(rules.generator(), true, goal, &mut memo);
                    let best = best_carry(phase, expected).map(|(_, rank)| rank);
                    assert_eq!(
                        solver.best_carry_rank(field, held, rest, phase),
                        best,
                        "{text} {q} {phase}"
                    );
                }
                with_pc += usize::from(expected != 0);
                several += usize::from(expected.count_ones() > 1);
            }
        }
        // Queues with a PC are met, some with a choice of what to carry.
        assert!(with_pc > several && several > 0, "{with_pc} {several}");
    }

    #[test]
    fn the_moves_toward_a_pc_are_the_generated_moves() {
        // Fields of 3 to 6 pieces left: every move; of 2 left: those that leave a piece.
        let fields = [
            ("##.....###/###....###/####...###/###....###", 4),
            ("######..../######..../######..../######....", 4),
            ("#.......##/#.......##/##......##/###....###", 4),
            ("#...######/....######/#.#.######/#...######", 4),
            ("##.#....../#....##.../##..#....#", 3),
        ];
        let tables = [
            (KickTable::srs(), pc_srs::DropMode::Soft),
            (KickTable::srs_plus(), pc_srs::DropMode::Soft),
            (KickTable::srs(), pc_srs::DropMode::Hard),
            (KickTable::none(), pc_srs::DropMode::Soft),
        ];
        let mut checked = [0usize; 2];
        for (kicks, drop) in &tables {
            let generator = MoveGenerator::new(kicks, *drop);
            let mut seen = std::collections::BTreeSet::new();
            let mut todo: Vec<PcField> = fields
                .iter()
                .map(|&(t, h)| PcField::new_unchecked(t.parse().unwrap(), h))
                .collect();
            // The fields themselves and every field one placement makes from them.
            for f in todo.clone() {
                for piece in Piece::ALL {
                    for p in generator
                        .placements(f.board(), piece, f.clear_line())
                        .unwrap()
                        .iter()
                    {
                        let child = f.place(&p);
                        if !child.is_clear() && child.can_be_filled() {
                            todo.push(child);
                        }
                    }
                }
            }
            for f in todo {
                if !seen.insert(f.key()) || f.pieces_needed() < 2 {
                    continue;
                }
                for piece in Piece::ALL {
                    let mut expected: Vec<Placement> = generator
                        .placements(f.board(), piece, f.clear_line())
                        .unwrap()
                        .iter()
                        .filter(|p| f.pieces_needed() > 2 || f.place(p).last_placement().is_some())
                        .collect();
                    let mut found = placements_toward_pc(&generator, &f, piece);
                    expected.sort_by_key(|p| format!("{p:?}"));
                    found.sort_by_key(|p| format!("{p:?}"));
                    assert_eq!(found, expected, "{piece:?} on\n{}", f.board());
                    checked[usize::from(f.pieces_needed() > 2)] += 1;
                }
            }
        }
        assert!(checked[0] > 500 && checked[1] > 5000, "{checked:?}");
    }
}
