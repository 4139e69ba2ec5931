//! The depth-first search: the expectimax over decisions and reveals, for the decisions
//! the other engines do not answer, with a table of the values of the decisions it met.
//!
//! The value of a decision is 1 at a PC, 0 when none can be reached, otherwise the best
//! move's average over the piece that the move reveals at the end of the preview (drawn
//! uniformly from what the bag has left). Once the pieces in view cover the rest of the
//! PC, the value is 0 or 1 and the known-queue search answers it; one move before that, a
//! single search answers it for every possible revealed piece at once.
//!
//! Below the root only the best move of a decision matters, so a move is dropped as soon
//! as its revealed pieces cannot lift its average above the best move found so far (the
//! "Star1" cut of expectimax). Every value that is stored is exact.

use crate::decision::{Decision, DecisionKey, Queue, bag_after, covers, pieces_in};
use crate::engine::answer::Ranking;
use crate::engine::answer::{Answerer, BestAtRoot};
use crate::engine::context::Context;
use crate::engine::kind::Engine;
use crate::engine::known::KnownSolver;
use crate::error::SolverError;
use crate::field::PcField;
use crate::options::SolverOptions;
use crate::position::Move;
use ahash::AHashMap;
use pc_bag::{PieceSet, Ratio};
use pc_srs::Piece;

/// The values of the decisions the search met, exact.
pub(crate) type Values = AHashMap<DecisionKey, Ratio>;

/// The average if every piece still to try gave a PC: a move whose bound does not beat the
/// best move so far can be dropped.
fn upper_bound(sum: Ratio, left: u64, share: Ratio) -> Result<Ratio, SolverError> {
    sum.checked_add(Ratio::new(left, 1).expect("1 > 0"))
        .and_then(|s| s.checked_mul(share))
        .ok_or(SolverError::Overflow)
}

/// The search over one solver's tables.
pub(crate) struct DepthFirst<'a> {
    known: KnownSolver<'a>,
    values: &'a mut Values,
    /// States the tables may hold before they are emptied.
    budget: usize,
    /// New decisions the search may evaluate before it gives up.
    work_limit: Option<u64>,
    work_done: u64,
    /// The flag that stops the search ([`SolverOptions::stop`](crate::SolverOptions::stop)).
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Where a move leads, before the revealed piece is known.
#[derive(Clone, Copy)]
struct Afterwards {
    field: PcField,
    hold: Option<Piece>,
    /// The queue after the move, still holding the piece that was played first (the
    /// reveal drops it and appends the new piece).
    queue: Queue,
    drawable: u8,
}

impl<'a> DepthFirst<'a> {
    /// The search over `values` with the known-queue search `known`; the tables hold at
    /// most `budget` states (then they are emptied), and with a `work_limit` it gives up
    /// after that many new decisions.
    pub(crate) fn new(
        known: KnownSolver<'a>,
        values: &'a mut Values,
        budget: usize,
        work_limit: Option<u64>,
    ) -> DepthFirst<'a> {
        DepthFirst {
            known,
            values,
            budget,
            work_limit,
            work_done: 0,
            stop: None,
        }
    }

    /// The search over a solver's tables, within its memory and work limits.
    pub(crate) fn over<'c>(context: &'c mut Context<'_>) -> DepthFirst<'c> {
        let budget = context.states_within_memory_limit();
        let work_limit = context.options.work_limit;
        let goal = context.goal();
        let known = KnownSolver::new(
            context.rules.generator(),
            context.rules.hold,
            goal,
            &mut context.tables.known,
        )
        .caching_children()
        .pruned_by(context.options.graph.as_deref());
        let mut search = DepthFirst::new(known, &mut context.tables.values, budget, work_limit);
        search.stop = context.options.stop.clone();
        search
    }

    /// The exact value of a decision whose field is not a PC.
    pub(crate) fn value(&mut self, decision: &Decision) -> Result<Ratio, SolverError> {
        if decision.fully_known() {
            let ok = self
                .known
                .solve(decision.field, decision.hold, decision.queue.as_slice());
            return Ok(if ok { Ratio::ONE } else { Ratio::ZERO });
        }
        let key = decision.key();
        if let Some(&v) = self.values.get(&key) {
            return Ok(v);
        }
        self.spend_work()?;
        let (wanted, ceiling) = self.winnable(decision);
        let mut best = Ratio::ZERO;
        'moves: for (piece, hold_after) in decision.choices() {
            if best >= ceiling {
                break;
            }
            for &child in self.known.children(&decision.field, piece).iter() {
                let field = PcField::from_key(child);
                if self.known.goal.reached(&field) {
                    best = Ratio::ONE;
                    break 'moves;
                }
                let afterwards = Afterwards {
                    field,
                    hold: hold_after,
                    queue: decision.queue,
                    drawable: decision.drawable(),
                };
                if let Some(v) = self.reveal(&afterwards, Some(best), wanted)? {
                    best = best.max(v);
                    if best >= ceiling {
                        break 'moves;
                    }
                }
            }
        }
        if decision.holds_into_empty() && best < ceiling {
            if let Some(v) = self.hold_into_empty(decision, Some(best))? {
                best = best.max(v);
            }
        }
        if self.values.len() + self.known.len() > self.budget {
            // Over budget: forget everything (values are a cache) and go on.
            self.values.clear();
            self.known.clear();
        }
        self.values.insert(key, best);
        Ok(best)
    }

    /// Counts one more decision against the work limit; stops when the stop flag is set.
    fn spend_work(&mut self) -> Result<(), SolverError> {
        if self
            .stop
            .as_ref()
            .is_some_and(|stop| stop.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Err(SolverError::Stopped);
        }
        if let Some(limit) = self.work_limit {
            if self.work_done >= limit {
                return Err(SolverError::WorkLimit(limit));
            }
            self.work_done += 1;
        }
        Ok(())
    }

    /// The pieces that may be revealed next and can still end in a PC, and the chance
    /// that bounds the decision's value. One placement before everything is in view, the
    /// clairvoyant chance is one search (which next pieces let the known queue clear)
    /// and no move can do better: a piece that fails with the whole queue known fails
    /// after every move, so moves search only for the others, and once a move reaches
    /// the bound the rest need not be tried. Elsewhere: every piece, and 1.
    fn winnable(&mut self, decision: &Decision) -> (u8, Ratio) {
        let drawable = decision.drawable();
        // One more piece in view would cover the PC.
        let in_view = decision.queue.len() + 1;
        if !covers(
            &decision.field,
            in_view,
            decision.hold.is_some(),
            self.known.hold,
        ) {
            return (drawable, Ratio::ONE);
        }
        // Siblings (the same move, another revealed piece) differ only in the queue's
        // last piece: one search with two unknown pieces serves them all.
        let (&last, before) = decision
            .queue
            .as_slice()
            .split_last()
            .expect("a decision has a current piece");
        let wanted = self
            .known
            .solve_last_two_unknown(decision.field, decision.hold, before)[last.index()]
            & drawable;
        let ceiling = Ratio::new(wanted.count_ones() as u64, drawable.count_ones() as u64)
            .expect("a bag has a piece");
        (wanted, ceiling)
    }

    /// Every move of the decision with its exact value. A hold into an empty slot reveals
    /// a piece before the placement is chosen; its entries give the value of each
    /// placement chosen blind.
    pub(crate) fn rank(&mut self, decision: &Decision) -> Result<Vec<(Move, Ratio)>, SolverError> {
        let mut ranked = Vec::new();
        let (wanted, _) = self.winnable(decision);
        for to in self.known.moves(decision) {
            let v = match self.afterwards(decision, to.after) {
                None => Ratio::ONE,
                Some(a) => self.reveal(&a, None, wanted)?.unwrap_or(Ratio::ZERO),
            };
            ranked.push((to.mv, v));
        }
        // With no preview the held-into piece is unknown, so no placement can be named.
        if decision.holds_into_empty() && decision.queue.len() > 1 {
            self.rank_hold_into_empty(decision, &mut ranked)?;
        }
        Ok(ranked)
    }

    /// The exact values of the given moves, tried in that order and stopping after the
    /// first certain one (the moves after it, and moves the decision does not have, get
    /// `None`); with `max_decisions`, the moves not valued within that many new decisions
    /// get `None` too.
    pub(crate) fn values_of(
        &mut self,
        decision: &Decision,
        wanted: &[Move],
        max_decisions: Option<u64>,
    ) -> Result<Vec<Option<Ratio>>, SolverError> {
        let moves = self.known.moves(decision);
        let (pieces, _) = self.winnable(decision);
        let limit = self.work_limit;
        self.work_limit = match (limit, max_decisions) {
            (Some(a), Some(b)) => Some(a.min(self.work_done.saturating_add(b))),
            (a, b) => a.or(b.map(|b| self.work_done.saturating_add(b))),
        };
        let mut out = Vec::with_capacity(wanted.len());
        let mut stopped = false;
        for mv in wanted {
            let Some(to) = moves.iter().find(|to| to.mv == *mv).filter(|_| !stopped) else {
                out.push(None);
                continue;
            };
            let v = match self.afterwards(decision, to.after) {
                None => Ok(Some(Ratio::ONE)),
                Some(a) => self.reveal(&a, None, pieces),
            };
            match v {
                Ok(v) => {
                    let v = v.unwrap_or(Ratio::ZERO);
                    stopped = v.is_one();
                    out.push(Some(v));
                }
                // Out of budget: this move and the rest are not valued.
                Err(SolverError::WorkLimit(_)) if limit.is_none_or(|l| self.work_done < l) => {
                    stopped = true;
                    out.push(None);
                }
                Err(e) => {
                    self.work_limit = limit;
                    return Err(e);
                }
            }
        }
        self.work_limit = limit;
        Ok(out)
    }

    /// Where a move leads, before the piece it reveals is known.
    fn afterwards(
        &self,
        decision: &Decision,
        after: Option<(PcField, Option<Piece>)>,
    ) -> Option<Afterwards> {
        after.map(|(field, hold)| Afterwards {
            field,
            hold,
            queue: decision.queue,
            drawable: decision.drawable(),
        })
    }

    /// The best placement found with the same cut-offs as below the root (only the
    /// winner's value is exact; `None` when there is no legal move), and the value of
    /// holding into an empty slot first when that is better still.
    pub(crate) fn best(&mut self, decision: &Decision) -> Result<BestAtRoot, SolverError> {
        let (wanted, ceiling) = self.winnable(decision);
        let mut value = Ratio::ZERO;
        let mut chosen = None;
        for to in self.known.moves(decision) {
            if chosen.is_none() {
                // Some legal move, even when none can clear.
                chosen = Some(to.mv);
            }
            if value >= ceiling {
                break;
            }
            let v = match self.afterwards(decision, to.after) {
                None => Some(Ratio::ONE),
                Some(a) => self.reveal(&a, Some(value), wanted)?,
            };
            if let Some(v) = v.filter(|&v| v > value) {
                value = v;
                chosen = Some(to.mv);
            }
        }
        let hold_first = if decision.holds_into_empty() && value < ceiling {
            // The average may come back equal to the bound; only a better one counts.
            self.hold_into_empty(decision, Some(value))?
                .filter(|&h| h > value)
        } else {
            None
        };
        Ok(BestAtRoot {
            value,
            chosen,
            hold_first,
        })
    }

    fn rank_hold_into_empty(
        &mut self,
        decision: &Decision,
        ranked: &mut Vec<(Move, Ratio)>,
    ) -> Result<(), SolverError> {
        let drawable = decision.drawable();
        let n = drawable.count_ones() as u64;
        let mut sums: Vec<(Move, Ratio)> = Vec::new();
        for piece in pieces_in(drawable) {
            let child = decision.after_hold(piece);
            let (wanted, _) = self.winnable(&child);
            for (i, to) in self.known.moves(&child).into_iter().enumerate() {
                let v = match self.afterwards(&child, to.after) {
                    None => Ratio::ONE,
                    Some(a) => self.reveal(&a, None, wanted)?.unwrap_or(Ratio::ZERO),
                };
                if sums.len() <= i {
                    sums.push((Move::hold_then(to.mv.placement), Ratio::ZERO));
                }
                sums[i].1 = sums[i].1.checked_add(v).ok_or(SolverError::Overflow)?;
            }
        }
        let share = Ratio::new(1, n).expect("a bag has a piece");
        for (mv, sum) in sums {
            let v = sum.checked_mul(share).ok_or(SolverError::Overflow)?;
            ranked.push((mv, v));
        }
        Ok(())
    }

    /// The value of holding into an empty slot: the average over the revealed piece of the
    /// best placement of the new current piece; `None` when it cannot beat `alpha`.
    pub(crate) fn hold_into_empty(
        &mut self,
        decision: &Decision,
        alpha: Option<Ratio>,
    ) -> Result<Option<Ratio>, SolverError> {
        self.average(decision.drawable(), alpha, |piece, _| {
            decision.after_hold(piece)
        })
    }

    /// The average of the children's values over the pieces that can be revealed (each
    /// equally likely); `None` as soon as it cannot beat `alpha`.
    fn average(
        &mut self,
        drawable: u8,
        alpha: Option<Ratio>,
        child: impl Fn(Piece, u8) -> Decision,
    ) -> Result<Option<Ratio>, SolverError> {
        let n = drawable.count_ones() as u64;
        let share = Ratio::new(1, n).expect("a bag has a piece");
        let mut sum = Ratio::ZERO;
        let mut left = n;
        for piece in pieces_in(drawable) {
            if let Some(a) = alpha {
                if upper_bound(sum, left, share)? <= a {
                    return Ok(None);
                }
            }
            let v = self.value(&child(piece, bag_after(drawable, piece)))?;
            sum = sum.checked_add(v).ok_or(SolverError::Overflow)?;
            left -= 1;
        }
        Ok(Some(sum.checked_mul(share).ok_or(SolverError::Overflow)?))
    }

    /// The average over the revealed piece after a move; `None` when it cannot beat
    /// `alpha`. Only the pieces of `wanted` can finish a PC when the move's children
    /// are fully known (see [`DepthFirst::winnable`]).
    fn reveal(
        &mut self,
        afterwards: &Afterwards,
        alpha: Option<Ratio>,
        wanted: u8,
    ) -> Result<Option<Ratio>, SolverError> {
        if !afterwards.field.can_be_filled() {
            return Ok(alpha.is_none().then_some(Ratio::ZERO));
        }
        let drawable = afterwards.drawable;
        let n = drawable.count_ones() as u64;
        let rest = &afterwards.queue.as_slice()[1..];
        // One search answers every revealed piece when the children are fully known.
        let children_known = covers(
            &afterwards.field,
            rest.len() + 1,
            afterwards.hold.is_some(),
            self.known.hold,
        );
        if children_known {
            let mask = match rest.split_last() {
                // The move's siblings share the queue up to its last piece (see
                // `winnable`).
                Some((&last, before)) => {
                    // Only the row of the last piece is asked for: the search stops once
                    // it is settled, and what it found stays for the siblings.
                    let mut pairs = [0; 7];
                    pairs[last.index()] = drawable & wanted;
                    self.known.solve_last_two_wanted(
                        afterwards.field,
                        afterwards.hold,
                        before,
                        pairs,
                    )[last.index()]
                        & drawable
                        & wanted
                }
                _ => self.known.solve_last_unknown(
                    afterwards.field,
                    afterwards.hold,
                    rest,
                    drawable & wanted,
                ),
            };
            let v = Ratio::new(mask.count_ones() as u64, n).expect("n > 0");
            return Ok(match alpha {
                Some(a) if v <= a => None,
                _ => Some(v),
            });
        }
        let hold_rule = self.known.hold;
        self.average(drawable, alpha, |piece, bag| Decision {
            field: afterwards.field,
            hold: afterwards.hold,
            queue: afterwards.queue.advance(piece),
            bag: PieceSet::from_bits(bag).unwrap_or(PieceSet::EMPTY),
            hold_rule,
            hold_used: false,
        })
    }
}

/// The chance of holding into the empty slot first, when hold may be pressed into it and
/// that beats `beat` (every chance, without `beat`).
pub(crate) fn hold_first(
    context: &mut Context<'_>,
    decision: &Decision,
    beat: Option<Ratio>,
) -> Result<Option<Ratio>, SolverError> {
    if !decision.holds_into_empty() {
        return Ok(None);
    }
    let found = DepthFirst::over(context).hold_into_empty(decision, beat)?;
    Ok(found.filter(|&h| beat.is_none_or(|b| h > b)))
}

/// The depth-first search over decisions and reveals: every decision.
pub(crate) struct DepthFirstSearch;

impl Answerer for DepthFirstSearch {
    fn name(&self) -> Engine {
        Engine::DepthFirst
    }

    fn applies(&self, _: &SolverOptions, _: &Decision) -> bool {
        true
    }

    fn rank(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        _: bool,
    ) -> Result<Ranking, SolverError> {
        let moves = DepthFirst::over(context).rank(decision)?;
        let hold_first = hold_first(context, decision, None)?;
        Ok(Ranking { moves, hold_first })
    }

    fn chances_of(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        moves: &[Move],
        max_states: Option<u64>,
    ) -> Result<Vec<Option<Ratio>>, SolverError> {
        DepthFirst::over(context).values_of(decision, moves, max_states)
    }

    fn value(&self, context: &mut Context<'_>, decision: &Decision) -> Result<Ratio, SolverError> {
        DepthFirst::over(context).value(decision)
    }

    fn best(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
    ) -> Result<BestAtRoot, SolverError> {
        DepthFirst::over(context).best(decision)
    }
}
