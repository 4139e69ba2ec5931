//! The expectimax behind [`super::Solver`]: decisions, reveals and their bounds over the
//! solver's tables.

use crate::engine::graph::{self, PcGraph, suffix::SuffixMemo};
use crate::engine::known::{Goal, KnownSolver, pieces_in};
use crate::engine::layered;
use crate::error::SolverError;
use crate::field::PcField;
use crate::solver::{Engine, MAX_QUEUE};
use ahash::AHashMap;
use pc_bag::Ratio;
use pc_srs::{Piece, Placement};

/// The current piece and the preview, copied by value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Queue {
    pub(crate) pieces: [Piece; MAX_QUEUE],
    pub(crate) len: u8,
}

impl Queue {
    pub(crate) fn new(pieces: &[Piece]) -> Queue {
        let mut queue = Queue {
            pieces: [Piece::I; MAX_QUEUE],
            len: pieces.len() as u8,
        };
        queue.pieces[..pieces.len()].copy_from_slice(pieces);
        queue
    }

    pub(crate) fn as_slice(&self) -> &[Piece] {
        &self.pieces[..self.len as usize]
    }

    /// The queue without its first piece and with `next` revealed at the end.
    fn advance(&self, next: Piece) -> Queue {
        let mut queue = *self;
        queue.pieces.copy_within(1..self.len as usize, 0);
        queue.pieces[self.len as usize - 1] = next;
        queue
    }
}

/// A decision: the field, the hold slot, the pieces in view and the bag after them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub(crate) field: PcField,
    pub(crate) hold: Option<Piece>,
    pub(crate) queue: Queue,
    /// Pieces left in the current bag after the queue, as bits; 0 when a fresh bag follows.
    pub(crate) bag: u8,
    /// False right after holding into an empty slot: the new current piece must be placed.
    pub(crate) can_hold: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct NodeKey {
    pub(crate) field: u128,
    pub(crate) queue: u64,
    pub(crate) hold: u8,
    pub(crate) bag: u8,
}

impl Node {
    fn key(&self) -> NodeKey {
        NodeKey {
            field: self.field.key(),
            queue: crate::engine::known::queue_key(self.queue.as_slice()),
            hold: self.hold.map_or(7, |p| p.index() as u8) | (self.can_hold as u8) << 3,
            bag: self.bag,
        }
    }

    /// The pieces the next reveal can give.
    fn drawable(&self) -> u8 {
        crate::engine::known::drawable(self.bag)
    }
}

/// The bag after drawing `piece` from `drawable` (0 when that empties it).
fn bag_after(drawable: u8, piece: Piece) -> u8 {
    drawable & !(1 << piece.index())
}

/// The average if every piece still to try gave a PC: a move whose bound does not beat the
/// best move so far can be dropped.
fn upper_bound(sum: Ratio, left: u64, share: Ratio) -> Result<Ratio, SolverError> {
    sum.checked_add(Ratio::new(left, 1).expect("1 > 0"))
        .and_then(|s| s.checked_mul(share))
        .ok_or(SolverError::Overflow)
}

/// The recursive search over one solver's tables.
pub(crate) struct Expectimax<'a> {
    pub(crate) known: KnownSolver<'a>,
    pub(crate) values: &'a mut AHashMap<NodeKey, Ratio>,
    pub(crate) orders: &'a mut crate::engine::layered::OrderMemo,
    pub(crate) goal: Goal,
    pub(crate) hold: bool,
    /// States the tables may hold before they are emptied.
    pub(crate) budget: usize,
    /// New decisions the search may evaluate before it gives up.
    pub(crate) work_limit: Option<u64>,
    pub(crate) work_done: u64,
    /// Whether root decisions may go to the layered search.
    pub(crate) layered: bool,
    /// Threads a full ranking by the layered search may use.
    pub(crate) threads: usize,
    /// The graph of the rules' PC fields, when the solver has one: decisions on its
    /// fields are walked over it instead of searched.
    pub(crate) graph: Option<&'a PcGraph>,
    pub(crate) suffixes: &'a mut SuffixMemo,
    /// Which search valued the root's moves, once one has.
    pub(crate) answered: Option<Engine>,
}

/// What [`Engine::best`] finds.
pub(crate) struct BestAtRoot {
    /// The exact value of the best placement.
    pub(crate) value: Ratio,
    /// The best placement (hold or not), if any is legal.
    pub(crate) chosen: Option<(bool, Placement)>,
    /// The value of holding into an empty slot first, when it beats every placement.
    pub(crate) hold_first: Option<Ratio>,
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
    can_hold: bool,
}

impl Afterwards {
    /// The state of the layered search the move leads to.
    fn state(&self) -> layered::State {
        (self.field.key(), self.hold.map_or(7, |p| p.index() as u8))
    }
}

/// The node as the layered search and the graph's walk take a decision.
fn as_decision(node: &Node) -> layered::Decision<'_> {
    layered::Decision {
        field: node.field,
        hold: node.hold,
        queue: node.queue.as_slice(),
        bag: node.bag,
        can_hold: node.can_hold,
    }
}

impl<'a> Expectimax<'a> {
    /// Which search valued the root: the graph's walk, the layered search, or (when
    /// neither did) the depth-first search.
    pub(crate) fn answered_by(&self) -> Engine {
        self.answered.unwrap_or(Engine::Search)
    }

    /// The exact value of a decision whose field is not a PC.
    pub(crate) fn value(&mut self, node: &Node) -> Result<Ratio, SolverError> {
        if self.fully_known(node) {
            let ok = self
                .known
                .solve(node.field, node.hold, node.queue.as_slice());
            return Ok(if ok { Ratio::ONE } else { Ratio::ZERO });
        }
        let key = node.key();
        if let Some(&v) = self.values.get(&key) {
            return Ok(v);
        }
        if let Some(limit) = self.work_limit {
            if self.work_done >= limit {
                return Err(SolverError::WorkLimit(limit));
            }
            self.work_done += 1;
        }
        let (wanted, ceiling) = self.winnable(node);
        let mut best = Ratio::ZERO;
        'moves: for (piece, hold_after) in self.choices(node) {
            if best >= ceiling {
                break;
            }
            for &child in self.known.children(&node.field, piece).iter() {
                let field = PcField::from_key(child);
                if self.goal.reached(&field) {
                    best = Ratio::ONE;
                    break 'moves;
                }
                let afterwards = Afterwards {
                    field,
                    hold: hold_after,
                    queue: node.queue,
                    drawable: node.drawable(),
                    can_hold: true,
                };
                if let Some(v) = self.reveal(&afterwards, Some(best), wanted)? {
                    best = best.max(v);
                    if best >= ceiling {
                        break 'moves;
                    }
                }
            }
        }
        if self.holds_into_empty(node) && best < ceiling {
            if let Some(v) = self.hold_into_empty(node, Some(best))? {
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

    /// The pieces that may be revealed next and can still end in a PC, and the chance
    /// that bounds the node's value. One placement before everything is in view, the
    /// clairvoyant chance is one search (which next pieces let the known queue clear)
    /// and no move can do better: a piece that fails with the whole queue known fails
    /// after every move, so moves search only for the others, and once a move reaches
    /// the bound the rest need not be tried. Elsewhere: every piece, and 1.
    fn winnable(&mut self, node: &Node) -> (u8, Ratio) {
        let drawable = node.drawable();
        // One more piece in view would cover the PC.
        let in_view = node.queue.len as usize + 1;
        if !self.covers(&node.field, in_view, node.hold.is_some()) {
            return (drawable, Ratio::ONE);
        }
        // Siblings (the same move, another revealed piece) differ only in the queue's
        // last piece: one search with two unknown pieces serves them all.
        let (&last, before) = node
            .queue
            .as_slice()
            .split_last()
            .expect("a decision has a current piece");
        let wanted = self
            .known
            .solve_last_two_unknown(node.field, node.hold, before)[last.index()]
            & drawable;
        let ceiling = Ratio::new(wanted.count_ones() as u64, drawable.count_ones() as u64)
            .expect("a bag has a piece");
        (wanted, ceiling)
    }

    /// Every move at the root with its exact value. A hold into an empty slot reveals a
    /// piece before the placement is chosen; its entries give the value of each placement
    /// chosen blind.
    pub(crate) fn rank(
        &mut self,
        node: &Node,
    ) -> Result<Vec<(bool, Placement, Ratio)>, SolverError> {
        let mut ranked = Vec::new();
        let (wanted, _) = self.winnable(node);
        for (hold, placement, afterwards) in self.moves(node) {
            let v = match afterwards {
                None => Ratio::ONE,
                Some(a) => self.reveal(&a, None, wanted)?.unwrap_or(Ratio::ZERO),
            };
            ranked.push((hold, placement, v));
        }
        // With no preview the held-into piece is unknown, so no placement can be named.
        if self.holds_into_empty(node) && node.queue.len > 1 {
            self.rank_hold_into_empty(node, &mut ranked)?;
        }
        Ok(ranked)
    }

    /// Every move at the root with its exact value by the layered search (see
    /// [`super::layered`]), when it applies to the node.
    /// With `best_only`, only the best value is exact: the search stops at the first move
    /// that is certain to make the PC, and the moves it did not reach get 0.
    pub(crate) fn rank_layered(
        &mut self,
        node: &Node,
        best_only: bool,
    ) -> Option<Vec<(bool, Placement, Ratio)>> {
        let decision = self.layered_decision(node)?;
        let values = self.layered_values(&decision, best_only, None, None)?;
        let ranked = self
            .moves(node)
            .into_iter()
            .map(|(hold, placement, afterwards)| {
                let v = match afterwards {
                    None => Ratio::ONE,
                    Some(a) => Ratio::new(values.value(&a.field, a.hold), values.count)
                        .expect("a bag has a continuation"),
                };
                (hold, placement, v)
            })
            .collect();
        Some(ranked)
    }

    /// Whether the graph's walk answers this node's decision.
    pub(crate) fn walks(&self, node: &Node) -> bool {
        self.graph_root(&as_decision(node)).is_some()
    }

    /// The node as the layered search sees it, when the graph's walk or the layered
    /// search (when it is on) answers it.
    fn layered_decision<'n>(&self, node: &'n Node) -> Option<layered::Decision<'n>> {
        let decision = as_decision(node);
        let walked = self.graph_root(&decision).is_some();
        (walked || (self.layered && layered::applies(&decision, self.hold, self.goal.lower_clears)))
            .then_some(decision)
    }

    /// The decision as a root of the graph's walk, when there is a graph, the field is
    /// one of its fields and the walk answers the decision.
    fn graph_root<'q>(
        &self,
        decision: &layered::Decision<'q>,
    ) -> Option<(&'a PcGraph, graph::search::Root<'q>)> {
        let graph = self.graph?;
        let root = graph::search::Root {
            at: graph.find(&decision.field)?,
            hold: decision
                .hold
                .map_or(graph::suffix::NO_HOLD, |p| p.index() as u8),
            queue: decision.queue,
            bag: decision.bag,
            hold_rule: self.hold,
            can_hold: decision.can_hold,
            two_line: self.goal.lower_clears,
        };
        graph::search::applies(graph, &root).then_some((graph, root))
    }

    /// [`layered::root_values`] with this engine's tables and rules.
    fn layered_values(
        &mut self,
        decision: &layered::Decision<'_>,
        stop_when_certain: bool,
        only: Option<&[layered::State]>,
        max_states: Option<u64>,
    ) -> Option<layered::RootValues> {
        if let Some((graph, root)) = self.graph_root(decision) {
            self.answered = Some(Engine::Graph);
            // The states asked for, as the graph names them (a state not in the graph
            // cannot make a PC: it is left out, valued 0).
            let states: Option<Vec<(u32, u8)>> = only.map(|states| {
                states
                    .iter()
                    .filter_map(|&(key, hold)| {
                        let (layer, at) = graph.find(&PcField::from_key(key))?;
                        (layer == root.at.0 + 1).then_some((at, hold))
                    })
                    .collect()
            });
            let walked = graph::search::move_values(
                graph,
                self.suffixes,
                &root,
                states.as_deref(),
                stop_when_certain,
            )?;
            let next = root.at.0 + 1;
            let mut values: ahash::AHashMap<layered::State, u32> = walked
                .values
                .into_iter()
                .map(|((child, hold), won)| ((graph.field(next, child).key(), hold), won as u32))
                .collect();
            // A state the graph does not have cannot make a PC.
            for &state in only.unwrap_or_default() {
                values.entry(state).or_insert(0);
            }
            return Some(layered::RootValues::from_states(values, walked.count));
        }
        self.answered = Some(Engine::Layered);
        layered::root_values(
            &self.known,
            self.orders,
            decision,
            self.hold,
            self.goal.lower_clears,
            stop_when_certain,
            only,
            max_states,
            self.threads,
        )
    }

    /// The exact values of the given moves of the node by the layered search, tried in
    /// that order and stopping after the first certain one (the moves after it, and moves
    /// the node does not have, get `None`); `None` when the layered search does not apply.
    /// With `max_states`, the moves not valued within that many search states get `None`
    /// too.
    pub(crate) fn values_of(
        &mut self,
        node: &Node,
        wanted: &[(bool, Placement)],
        max_states: Option<u64>,
    ) -> Option<Vec<Option<Ratio>>> {
        let decision = self.layered_decision(node)?;
        let moves = self.moves(node);
        let after = |m: &(bool, Placement)| {
            moves
                .iter()
                .find(|(hold, placement, _)| (*hold, *placement) == *m)
                .map(|(_, _, a)| a.as_ref().map(|a| a.state()))
        };
        // A move that makes the PC at once is certain: nothing after it is tried.
        let mut states = Vec::new();
        for m in wanted {
            match after(m) {
                Some(None) => break,
                Some(Some(state)) => states.push(state),
                None => {}
            }
        }
        let values = self.layered_values(&decision, true, Some(&states), max_states)?;
        let mut certain = false;
        let out = wanted
            .iter()
            .map(|m| {
                if certain {
                    return None;
                }
                let v = match after(m)? {
                    None => Ratio::ONE,
                    Some(state) => {
                        let v = values.get(state)?;
                        Ratio::new(v, values.count).expect("a bag has a continuation")
                    }
                };
                certain = v == Ratio::ONE;
                Some(v)
            })
            .collect();
        Some(out)
    }

    /// The best placement at the root found with the same cut-offs as below it (only the
    /// winner's value is exact; `None` when there is no legal move), and the value of
    /// holding into an empty slot first when that is better still.
    pub(crate) fn best(&mut self, node: &Node) -> Result<BestAtRoot, SolverError> {
        let (wanted, ceiling) = self.winnable(node);
        let mut value = Ratio::ZERO;
        let mut chosen = None;
        for (hold, placement, afterwards) in self.moves(node) {
            if chosen.is_none() {
                // Some legal move, even when none can clear.
                chosen = Some((hold, placement));
            }
            if value >= ceiling {
                break;
            }
            let v = match afterwards {
                None => Some(Ratio::ONE),
                Some(a) => self.reveal(&a, Some(value), wanted)?,
            };
            if let Some(v) = v.filter(|&v| v > value) {
                value = v;
                chosen = Some((hold, placement));
            }
        }
        let hold_first = if self.holds_into_empty(node) && value < ceiling {
            // The average may come back equal to the bound; only a better one counts.
            self.hold_into_empty(node, Some(value))?
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
        node: &Node,
        ranked: &mut Vec<(bool, Placement, Ratio)>,
    ) -> Result<(), SolverError> {
        let drawable = node.drawable();
        let n = drawable.count_ones() as u64;
        let mut sums: Vec<(Placement, Ratio)> = Vec::new();
        for piece in pieces_in(drawable) {
            let child = Node {
                field: node.field,
                hold: Some(node.queue.pieces[0]),
                queue: node.queue.advance(piece),
                bag: bag_after(drawable, piece),
                can_hold: false,
            };
            let (wanted, _) = self.winnable(&child);
            for (i, (_, placement, afterwards)) in self.moves(&child).into_iter().enumerate() {
                let v = match afterwards {
                    None => Ratio::ONE,
                    Some(a) => self.reveal(&a, None, wanted)?.unwrap_or(Ratio::ZERO),
                };
                if sums.len() <= i {
                    sums.push((placement, Ratio::ZERO));
                }
                sums[i].1 = sums[i].1.checked_add(v).ok_or(SolverError::Overflow)?;
            }
        }
        let share = Ratio::new(1, n).expect("a bag has a piece");
        for (placement, sum) in sums {
            let v = sum.checked_mul(share).ok_or(SolverError::Overflow)?;
            ranked.push((true, placement, v));
        }
        Ok(())
    }

    /// Whether the node can hold into an empty slot (which reveals a piece first).
    pub(crate) fn holds_into_empty(&self, node: &Node) -> bool {
        self.hold && node.can_hold && node.hold.is_none()
    }

    /// The value of holding into an empty slot: the average over the revealed piece of the
    /// best placement of the new current piece; `None` when it cannot beat `alpha`.
    pub(crate) fn hold_into_empty(
        &mut self,
        node: &Node,
        alpha: Option<Ratio>,
    ) -> Result<Option<Ratio>, SolverError> {
        self.average(node.drawable(), alpha, |piece, bag| Node {
            field: node.field,
            hold: Some(node.queue.pieces[0]),
            queue: node.queue.advance(piece),
            bag,
            can_hold: false,
        })
    }

    /// The average of the children's values over the pieces that can be revealed (each
    /// equally likely); `None` as soon as it cannot beat `alpha`.
    fn average(
        &mut self,
        drawable: u8,
        alpha: Option<Ratio>,
        child: impl Fn(Piece, u8) -> Node,
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

    /// Whether every piece the PC can use is in view, so that the value is known-queue
    /// solvability.
    fn fully_known(&self, node: &Node) -> bool {
        if !node.can_hold && self.hold {
            return false;
        }
        self.covers(&node.field, node.queue.len as usize, node.hold.is_some())
    }

    /// Whether `in_view` queue pieces (and the held one) are every piece a PC of `field`
    /// can use: with hold, one more piece could still be reached by holding.
    fn covers(&self, field: &PcField, in_view: usize, held: bool) -> bool {
        let needed = field.pieces_needed() as usize;
        if self.hold {
            needed < in_view + held as usize
        } else {
            needed <= in_view
        }
    }

    /// The pieces that can be placed (the current one, and the held one when it differs)
    /// with the hold slot after each. A hold into an empty slot is handled apart.
    fn choices(&self, node: &Node) -> impl Iterator<Item = (Piece, Option<Piece>)> + use<> {
        let current = node.queue.pieces[0];
        let swap = match node.hold {
            Some(h) if self.hold && node.can_hold && h != current => Some((h, Some(current))),
            _ => None,
        };
        core::iter::once((current, node.hold)).chain(swap)
    }

    /// The placements of the current piece and of the held piece (a hold into an empty
    /// slot is handled apart): (hold pressed, placement, where it leads; `None` for a PC).
    fn moves(&mut self, node: &Node) -> Vec<(bool, Placement, Option<Afterwards>)> {
        let queue = node.queue;
        let drawable = node.drawable();
        let mut moves = Vec::new();
        for (piece, hold_after) in self.choices(node) {
            let hold = hold_after != node.hold;
            let set = self
                .known
                .generator
                .placements(node.field.board(), piece, node.field.height())
                .expect("a valid field stays valid");
            for placement in set.iter() {
                let field = node.field.place(&placement);
                let afterwards = if self.goal.reached(&field) {
                    None
                } else {
                    Some(Afterwards {
                        field,
                        hold: hold_after,
                        queue,
                        drawable,
                        can_hold: true,
                    })
                };
                moves.push((hold, placement, afterwards));
            }
        }
        moves
    }

    /// The average over the revealed piece after a move; `None` when it cannot beat
    /// `alpha`. Only the pieces of `wanted` can finish a PC when the move's children
    /// are fully known (see [`Engine::winnable`]).
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
        let children_known = afterwards.can_hold
            && self.covers(&afterwards.field, rest.len() + 1, afterwards.hold.is_some());
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
        self.average(drawable, alpha, |piece, bag| Node {
            field: afterwards.field,
            hold: afterwards.hold,
            queue: afterwards.queue.advance(piece),
            bag,
            can_hold: afterwards.can_hold,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(crate) fn queue_advances_by_one() {
        let q = Queue::new(&[Piece::I, Piece::T, Piece::L]);
        assert_eq!(
            q.advance(Piece::O).as_slice(),
            &[Piece::T, Piece::L, Piece::O]
        );
    }
}
