//! The layered search: the value of every move at once for a decision whose pieces in view
//! last until the last unknown piece is revealed, and the clairvoyant answer for every queue
//! that shares a known prefix.
//!
//! With the hold slot filled, placement `k` uses the held piece or piece `k + 1` of the
//! sequence (hold, current, preview, then the unknown pieces `u1..um`), and piece `k + 1` is
//! in view from the start while `k + 1 < K` (the pieces in view). So the first `L = K - 1`
//! placements use known pieces only: the states they reach (field, hold) do not depend on the
//! unknown pieces at all, only the choice among them does. The search therefore
//!
//! 1. walks the states of layers `0..=L` depth first, each state once per layer (a state is
//!    dropped when its pieces cannot even cover its empty cells);
//! 2. at layer `L`, where the hold and the `m` unknown pieces are all that is left, finds for
//!    each state the continuations `u1..um` that make a PC: from the orders of pieces that
//!    fill its field (remembered per field) and the queues that hold turns into each order;
//! 3. on the way back, a decision that has seen every unknown piece (layer `k >= m`) wins a
//!    continuation when some move does; one that has seen `u1..uk` takes, for each such
//!    prefix, the move with the best count over the next pieces.
//!
//! The continuations of a bag are equally likely (a bag hands out its pieces uniformly and
//! the number of choices at each draw does not depend on the pieces drawn), so every value
//! is a count of continuations, with no fraction until the end. Without hold the same holds
//! with `L = K` and piece `k` at placement `k`.
//!
//! The clairvoyant question (sfinder's `percent`: is there a PC with the whole queue known?)
//! is the same walk with every layer taking the union, over any set of continuations.

use crate::decision::drawable;
use crate::decision::{Decision, EMPTY_HOLD, MAX_UNKNOWN, State, hold_code, hold_of};
use crate::engine::answer::{Answerer, Ranking};
use crate::engine::context::Context;
use crate::engine::kind::Engine;
use crate::engine::known::{KnownSolver, cover_check};
use crate::engine::walk::{Ask, StateValues, StateWalk, chances_by_walk, rank_by_walk};
use crate::error::SolverError;
use crate::field::PcField;
use crate::options::SolverOptions;
use crate::position::Move;
use ahash::AHashMap;
use pc_bag::Ratio;
use pc_srs::Piece;
use pc_zdd_graph::PieceCounts;
use std::rc::Rc;

/// Words of a set of continuations: 840 bits at most.
const WORDS: usize = 14;

/// The most continuations a set holds.
const MAX_CONTINUATIONS: usize = WORDS * 64;

/// A set of continuations, as bits over their index in [`Continuations`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct ContSet([u64; WORDS]);

impl ContSet {
    const EMPTY: ContSet = ContSet([0; WORDS]);

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// The continuations `0..count`: every one of a set of `count`.
    fn first(count: usize) -> ContSet {
        let mut set = ContSet::EMPTY;
        for i in 0..count {
            set.insert(i);
        }
        set
    }

    fn union_with(&mut self, other: &ContSet) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    /// How many continuations of `start..start + len` the set has.
    fn count_range(&self, start: usize, len: usize) -> u32 {
        let end = start + len;
        let mut count = 0;
        let mut i = start;
        while i < end {
            let word = i / 64;
            let lo = i % 64;
            let hi = (end - word * 64).min(64);
            let mask = if hi - lo == 64 {
                u64::MAX
            } else {
                ((1u64 << (hi - lo)) - 1) << lo
            };
            count += (self.0[word] & mask).count_ones();
            i = word * 64 + hi;
        }
        count
    }
}

/// The possible sequences `u1..um` of the unknown pieces, in lexicographic order of
/// their piece indices. A prefix of `j` pieces is followed by the same number of
/// continuations whatever its pieces (`span[j]`), so the prefixes of length `j` are
/// consecutive blocks of that size.
struct Continuations {
    count: usize,
    /// `span[j]`: the continuations sharing a prefix of `j` pieces (`span[0] = count`).
    span: Vec<usize>,
    /// The index of each sequence by its base-8 code (first piece most significant);
    /// `u16::MAX` for a sequence the bag cannot give.
    index_of: Vec<u16>,
    /// The most of each piece one sequence has: what a cover may draw.
    draw_caps: PieceCounts,
}

impl Continuations {
    /// Any set of sequences of `m` pieces, by their base-8 codes (at most
    /// [`MAX_CONTINUATIONS`]); `span` is left empty (no expectation is taken over them).
    fn from_codes(codes: &[usize], m: usize) -> Continuations {
        let mut index_of = vec![u16::MAX; 1 << (3 * m)];
        for (i, &code) in codes.iter().enumerate() {
            index_of[code] = i as u16;
        }
        Continuations {
            count: codes.len(),
            span: Vec::new(),
            index_of,
            draw_caps: most_of_each(codes, m),
        }
    }

    fn new(bag: u8, m: usize) -> Continuations {
        let mut codes = Vec::new();
        fn walk(bag: u8, left: usize, code: usize, codes: &mut Vec<usize>) {
            if left == 0 {
                codes.push(code);
                return;
            }
            let drawable = drawable(bag);
            for p in 0..7 {
                if drawable >> p & 1 == 1 {
                    walk(drawable & !(1 << p), left - 1, code * 8 + p, codes);
                }
            }
        }
        walk(bag, m, 0, &mut codes);
        let mut index_of = vec![u16::MAX; 1 << (3 * m)];
        for (i, &code) in codes.iter().enumerate() {
            index_of[code] = i as u16;
        }
        // The choices at each draw: the bag's pieces, then a fresh bag's as it empties.
        let mut choices = Vec::new();
        let mut left = drawable(bag).count_ones() as usize;
        for _ in 0..m {
            choices.push(left);
            left = if left == 1 { 7 } else { left - 1 };
        }
        let mut span = vec![1; m + 1];
        for j in (0..m).rev() {
            span[j] = span[j + 1] * choices[j];
        }
        Continuations {
            count: codes.len(),
            span,
            index_of,
            draw_caps: most_of_each(&codes, m),
        }
    }
}

/// The most of each piece any of the sequences (base-8 codes of `m` pieces) has.
fn most_of_each(codes: &[usize], m: usize) -> PieceCounts {
    let mut most = [0u8; 7];
    for &code in codes {
        let mut counts = [0u8; 7];
        for j in 0..m {
            counts[code >> (3 * j) & 7] += 1;
        }
        for (a, c) in most.iter_mut().zip(counts) {
            *a = (*a).max(c);
        }
    }
    PieceCounts::new(most)
}

/// The orders of pieces that fill a field (no hold), remembered per field: each field's
/// orders are a run of one shared list, so that millions of fields cost no allocation.
#[derive(Default)]
pub(crate) struct OrderMemo {
    runs: AHashMap<u128, (u32, u32)>,
    orders: Vec<u16>,
}

/// Whether the layered search answers a decision: a walk applies
/// ([`Decision::layers`]), 2-line PCs do not count, and at least three pieces are not
/// revealed yet. With two, the layered search alone is faster, but it leaves no tables
/// for the later decisions of the PC, which the depth-first search does (`CHANGELOG.md`).
pub(crate) fn applies(decision: &Decision, two_line: bool) -> bool {
    !two_line && decision.layers().is_some_and(|layers| layers.unknown >= 3)
}

/// The values of the states the decision's moves lead to, or `None` when no walk applies
/// ([`Decision::layers`]); `ask` says which (see [`Ask`]). With `threads` above 1 and
/// every move asked for, the moves are valued by that many threads (the values are the
/// same).
pub(crate) fn values(
    known: &KnownSolver<'_>,
    orders: &mut OrderMemo,
    decision: &Decision,
    ask: Ask<'_>,
    threads: usize,
) -> Option<StateValues> {
    let layers = decision.layers()?;
    let (m, last) = (layers.unknown, layers.last_known);
    let mut search = Search::for_decision(known, orders, None, decision, m, last);
    let (only, max_states, stop_when_certain) = match ask {
        Ask::Every => (None, None, false),
        Ask::UntilCertain => (None, None, true),
        Ask::Only { states, max_states } => (Some(states), max_states, true),
    };
    search.states_left = max_states.unwrap_or(u64::MAX);
    let count = search.conts.count as u64;
    let root = (decision.field.key(), hold_code(decision.hold));
    let children = match only {
        Some(states) => states.to_vec(),
        // A swap changes the piece in the slot (the held piece is never the current one
        // when a swap is offered).
        None => search
            .children(0, root)
            .into_iter()
            .filter(|&(_, held)| decision.may_hold() || held == root.1)
            .collect(),
    };
    // Threads share nothing but the moves to value: only when every move is valued
    // whatever the others give (no stop at a certain move, no budget) are they split.
    if threads > 1 && children.len() > 1 && !stop_when_certain && max_states.is_none() {
        drop(search);
        let values = values_in_threads(known, orders, decision, (m, last), &children, threads);
        return Some(StateValues {
            values,
            hold_first: None,
            count,
            stopped: false,
        });
    }
    let mut values = AHashMap::new();
    for child in children {
        let won = u64::from(search.move_value(child));
        if search.states_left == 0 {
            // Cut short: this move's value is not known.
            break;
        }
        values.insert(child, won);
        if stop_when_certain && won == count {
            break;
        }
    }
    Some(StateValues {
        values,
        hold_first: None,
        count,
        stopped: false,
    })
}

/// Moves valued by helper threads, so that the tests can see the threads at work.
/// The layered search: the graph's walk without a graph.
pub(crate) struct LayeredSearch;

impl Answerer for LayeredSearch {
    fn name(&self) -> Engine {
        Engine::Layered
    }

    fn applies(&self, options: &SolverOptions, decision: &Decision) -> bool {
        options.work_limit.is_none() && applies(decision, options.two_line)
    }

    fn rank(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        until_certain: bool,
    ) -> Result<Ranking, SolverError> {
        rank_by_walk(self, context, decision, until_certain)
    }

    fn chances_of(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        moves: &[Move],
        max_states: Option<u64>,
    ) -> Result<Vec<Option<Ratio>>, SolverError> {
        chances_by_walk(self, context, decision, moves, max_states)
    }
}

impl StateWalk for LayeredSearch {
    fn walk(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        ask: Ask<'_>,
    ) -> Result<StateValues, SolverError> {
        let threads = context.options.threads;
        let goal = context.goal();
        let tables = &mut *context.tables;
        let known = KnownSolver::new(
            context.rules.generator(),
            context.rules.hold,
            goal,
            &mut tables.known,
        )
        .caching_children();
        values(&known, &mut tables.orders, decision, ask, threads)
            .ok_or(SolverError::EngineDoesNotApply(Engine::Layered))
    }
}

#[cfg(test)]
pub(crate) static MOVES_BY_HELPERS: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// The values of the root's moves `children`, valued by `threads` threads (this one
/// among them), thread `t` taking moves `t`, `t + threads`, and so on: a fixed share, so
/// that every run does the same work (taking the next move from a shared counter was no
/// faster). Each thread reads the fill orders `orders` had and keeps its own tables, so
/// states shared by moves of different threads are valued more than once; the fill
/// orders the threads find are added to `orders` at the end, for the next decisions.
fn values_in_threads(
    known: &KnownSolver<'_>,
    orders: &mut OrderMemo,
    decision: &Decision,
    (m, last): (usize, usize),
    children: &[State],
    threads: usize,
) -> AHashMap<State, u64> {
    let threads = threads.min(children.len());
    let before: &OrderMemo = orders;
    let work = |thread: usize| {
        let mut own = OrderMemo::default();
        let mut search = Search::for_decision(known, &mut own, Some(before), decision, m, last);
        let values: Vec<(State, u64)> = children
            .iter()
            .skip(thread)
            .step_by(threads)
            .map(|&child| (child, u64::from(search.move_value(child))))
            .collect();
        drop(search);
        (values, own)
    };
    let shares = std::thread::scope(|scope| {
        // A share whose thread the system does not give is valued here instead.
        let helpers: Vec<_> = (1..threads)
            .map(|thread| {
                let spawned = std::thread::Builder::new().spawn_scoped(scope, move || work(thread));
                (thread, spawned)
            })
            .collect();
        let mut shares = vec![work(0)];
        for (thread, helper) in helpers {
            let share = match helper {
                Ok(helper) => helper
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(_) => work(thread),
            };
            #[cfg(test)]
            MOVES_BY_HELPERS.fetch_add(share.0.len(), std::sync::atomic::Ordering::Relaxed);
            shares.push(share);
        }
        shares
    });
    let mut values = AHashMap::new();
    for (found, own) in shares {
        values.extend(found);
        orders.absorb(own);
    }
    values
}

/// For queues of one length (the pieces a PC needs, one more with hold), whether each
/// makes a PC when it is known whole (sfinder's `percent`; with hold the slot starts empty).
/// The queues are grouped by all but their last `min(4, needed)` pieces; one search per
/// group answers all its queues at once, and the fills of the fields its last layer
/// reaches are remembered for every group. `None` when the queues do not have that length
/// or share their prefixes too little (fewer than [`MIN_SHARED`] queues a prefix on
/// average), where one search per queue is faster. After each group, `progress` is told
/// how many queues are answered so far.
pub(crate) fn clairvoyant_answers(
    known: &KnownSolver<'_>,
    orders: &mut OrderMemo,
    field: PcField,
    hold: bool,
    queues: &[Vec<Piece>],
    progress: &mut dyn FnMut(usize),
) -> Option<Vec<bool>> {
    let needed = field.pieces_needed() as usize;
    let length = needed + hold as usize;
    if needed == 0 || queues.iter().any(|q| q.len() != length) {
        return None;
    }
    let m = needed.min(MAX_UNKNOWN);
    let prefix = length - m;
    let code = |q: &[Piece]| q.iter().fold(0, |c, p| c * 8 + p.index());
    // Queues by prefix, in the order first met.
    let mut groups: AHashMap<&[Piece], Vec<usize>> = AHashMap::new();
    let mut order: Vec<&[Piece]> = Vec::new();
    for (i, q) in queues.iter().enumerate() {
        groups
            .entry(&q[..prefix])
            .or_insert_with(|| {
                order.push(&q[..prefix]);
                Vec::new()
            })
            .push(i);
    }
    // A search per prefix pays off only when many queues share it: it settles every
    // piece at the last layers, where one queue's search tries only its own.
    if queues.len() < MIN_SHARED * order.len() {
        return None;
    }
    let mut answers = vec![false; queues.len()];
    let mut answered = 0;
    // What the searches for the last set of continuations found, for the next group
    // with the same set.
    let mut shared: Option<(Vec<usize>, Vec<WinsMemo>)> = None;
    for known_part in order {
        let members = &groups[known_part];
        let mut codes: Vec<usize> = members
            .iter()
            .map(|&i| code(&queues[i][prefix..]))
            .collect();
        codes.sort_unstable();
        codes.dedup();
        for chunk in codes.chunks(MAX_CONTINUATIONS) {
            let conts = Continuations::from_codes(chunk, m);
            let full = ContSet::first(conts.count);
            let hold_slot = if hold {
                known_part[0].index() as u8
            } else {
                EMPTY_HOLD
            };
            let wins = match shared.take() {
                Some((same, wins)) if same == chunk && memo_len(&wins) < SHARED_LIMIT => wins,
                _ => (0..=prefix).map(|_| WinsMemo::default()).collect(),
            };
            let mut search = Search {
                known,
                orders,
                before: None,
                sequence: known_part.to_vec(),
                first: hold as usize,
                hold,
                m,
                last: prefix - hold as usize,
                full,
                wins,
                sums: Vec::new(),
                conts,
                states_left: u64::MAX,
            };
            let won = search.wins(0, (field.key(), hold_slot));
            for &i in members {
                let c = search.conts.index_of[code(&queues[i][prefix..])];
                if c != u16::MAX {
                    answers[i] = won.count_range(c as usize, 1) == 1;
                }
            }
            shared = Some((chunk.to_vec(), search.wins));
        }
        answered += members.len();
        progress(answered);
    }
    Some(answers)
}

/// The fewest queues per known prefix, on average, for [`clairvoyant_answers`] to answer.
const MIN_SHARED: usize = 32;

/// States remembered across groups of [`clairvoyant_answers`] before they are dropped
/// (about 60 bytes each when lost, 160 when won).
const SHARED_LIMIT: usize = 6_000_000;

fn memo_len(wins: &[WinsMemo]) -> usize {
    wins.iter().map(|w| w.won.len() + w.lost.len()).sum()
}

/// The continuations won per state of one layer; most states win none and are kept
/// apart without a set.
#[derive(Default)]
struct WinsMemo {
    won: AHashMap<(State, u64), ContSet>,
    lost: ahash::AHashSet<(State, u64)>,
}

impl WinsMemo {
    fn get(&self, key: &(State, u64)) -> Option<ContSet> {
        if self.lost.contains(key) {
            return Some(ContSet::EMPTY);
        }
        self.won.get(key).copied()
    }

    fn insert(&mut self, key: (State, u64), set: ContSet) {
        if set == ContSet::EMPTY {
            self.lost.insert(key);
        } else {
            self.won.insert(key, set);
        }
    }
}

/// The search below the root, depth first with every state's answer remembered per
/// layer. A state's answer is exact even when its moves are cut short: the search stops
/// only when no move could add to it (unless the state budget ran out, see
/// `states_left`: then the answers are wrong and [`root_values`] drops them).
struct Search<'s, 'a> {
    known: &'s KnownSolver<'a>,
    orders: &'s mut OrderMemo,
    /// Fill orders found before, read only (see [`OrderMemo::remembered`]).
    before: Option<&'s OrderMemo>,
    conts: Continuations,
    /// The known pieces: hold (with hold), current, preview.
    sequence: Vec<Piece>,
    /// Where the current piece of layer 0 is in `sequence`.
    first: usize,
    hold: bool,
    /// Unknown pieces.
    m: usize,
    /// The last layer whose states the known pieces reach.
    last: usize,
    /// Every continuation.
    full: ContSet,
    /// Layers `m..=last` (every layer for the clairvoyant question), which have seen
    /// every unknown piece: the continuations won.
    /// Keyed by the state and the known pieces still to come (see [`Search::rest`]), so
    /// that searches for other known pieces with the same continuations can share it.
    wins: Vec<WinsMemo>,
    /// Layers `1..m`, which have seen `k` unknown pieces: for each prefix of `k` pieces,
    /// the continuations the best move wins below it.
    sums: Vec<AHashMap<State, Rc<[u32]>>>,
    /// How many more states may be valued (fields whose fill orders are found count as
    /// states too); at 0 every state is valued as lost, so that the search unwinds at
    /// once (its answers are then wrong and must be dropped).
    states_left: u64,
}

impl<'s, 'a> Search<'s, 'a> {
    /// The search below the root of a decision with `m` unknown pieces whose known
    /// pieces reach layer `last` (see [`shape`]), with no state budget.
    fn for_decision(
        known: &'s KnownSolver<'a>,
        orders: &'s mut OrderMemo,
        before: Option<&'s OrderMemo>,
        decision: &Decision,
        m: usize,
        last: usize,
    ) -> Self {
        let hold = known.hold;
        let conts = Continuations::new(decision.bag.bits(), m);
        // The known sequence: hold (with hold), then the current piece and the preview.
        let mut sequence: Vec<Piece> = Vec::new();
        if hold {
            sequence.extend(decision.hold);
        }
        sequence.extend_from_slice(decision.queue.as_slice());
        Search {
            known,
            orders,
            before,
            sequence,
            first: hold as usize,
            hold,
            m,
            last,
            full: ContSet::first(conts.count),
            wins: (0..=last).map(|_| WinsMemo::default()).collect(),
            sums: (0..m).map(|_| AHashMap::new()).collect(),
            conts,
            states_left: u64::MAX,
        }
    }

    /// The continuations won after a move of the root to `child` (a state of layer 1).
    fn move_value(&mut self, child: State) -> u32 {
        if self.m == 1 {
            self.wins(1, child).count_range(0, self.conts.count)
        } else {
            self.sums(1, child).iter().sum()
        }
    }

    /// Counts one more state valued; false once the budget is spent.
    fn spend_state(&mut self) -> bool {
        if self.states_left == 0 {
            return false;
        }
        self.states_left -= 1;
        true
    }

    /// The known pieces not played before layer `k` (its current piece on), as a key.
    fn rest(&self, k: usize) -> u64 {
        crate::decision::queue_key(&self.sequence[(k + self.first).min(self.sequence.len())..])
    }

    /// The states of layer `k + 1` the moves of `state` (layer `k`) lead to.
    fn children(&self, k: usize, (key, held): State) -> Vec<State> {
        let field = PcField::from_key(key);
        let current = self.sequence[k + self.first];
        let mut out = Vec::new();
        for child in self.known.fresh_children(&field, current) {
            out.push((child, held));
        }
        if self.hold && held != current.index() as u8 {
            let current = current.index() as u8;
            for child in self.known.fresh_children(&field, Piece::ALL[held as usize]) {
                out.push((child, current));
            }
        }
        out
    }

    /// The states of layer `k + 1` that can still make a PC: as [`Search::children`],
    /// but only through placements some cover of the empty cells begins with, so that
    /// moves that leave cells no pieces can cover are never made.
    fn covered_children(&self, k: usize, (key, held): State) -> Vec<State> {
        let field = PcField::from_key(key);
        let current = self.sequence[k + self.first].index() as u8;
        let may_hold = self.hold && held != current && held != EMPTY_HOLD;
        let mut reach = Reach::new(self.known, &field);
        let mut out = Vec::new();
        for p in cover_check(field.clear_line()).first_placements(field.board()) {
            let piece = p.piece().index() as u8;
            let hold_after = if piece == current {
                held
            } else if may_hold && piece == held {
                current
            } else {
                continue;
            };
            let child = field.place(&p);
            if !child.can_be_filled() {
                continue;
            }
            let child = (child.key(), hold_after);
            if !self.known_lost(k + 1, child) && reach.reaches(&p) {
                out.push(child);
            }
        }
        out
    }

    /// Whether a state of layer `k` is already known to win nothing (most are): then the
    /// move there needs no move generation.
    fn known_lost(&self, k: usize, state: State) -> bool {
        if k == self.last {
            let no_order =
                |memo: &OrderMemo| memo.runs.get(&state.0).is_some_and(|&(_, len)| len == 0);
            if no_order(self.orders) || self.before.is_some_and(no_order) {
                return true;
            }
        }
        self.wins
            .get(k)
            .is_some_and(|w| w.lost.contains(&(state, self.rest(k))))
    }

    /// Whether the pieces left at layer `k` (the hold, the known ones not played, and the
    /// unknown ones) can at least cover the empty cells.
    fn alive(&self, k: usize, (key, held): State) -> bool {
        let field = PcField::from_key(key);
        let known_left = PieceCounts::from_pieces(
            hold_of(held)
                .into_iter()
                .chain(self.sequence[k + self.first..].iter().copied()),
        );
        cover_check(field.clear_line()).can_cover_with_drawn(
            field.board(),
            known_left,
            self.m as u32,
            self.conts.draw_caps,
        )
    }

    /// The continuations a state wins once every unknown piece is seen (layer `k >= m`,
    /// or any layer for the clairvoyant question).
    fn wins(&mut self, k: usize, state: State) -> ContSet {
        let key = (state, self.rest(k));
        if let Some(set) = self.wins[k].get(&key) {
            return set;
        }
        if !self.spend_state() {
            return ContSet::EMPTY;
        }
        // Most states here, the last layer's included, cannot even be covered by the
        // pieces left as the bag can give them: that check is far faster than the search
        // (or, at the last layer, than finding every fill order).
        let set = if !self.alive(k, state) {
            ContSet::EMPTY
        } else if k == self.last {
            self.leaf(state)
        } else {
            let mut set = ContSet::EMPTY;
            for child in self.covered_children(k, state) {
                set.union_with(&self.wins(k + 1, child));
                if set == self.full {
                    break;
                }
            }
            set
        };
        self.wins[k].insert(key, set);
        set
    }

    /// For a state of layer `1 <= k < m`, each prefix's continuations won by the best move.
    fn sums(&mut self, k: usize, state: State) -> Rc<[u32]> {
        if let Some(row) = self.sums[k].get(&state) {
            return row.clone();
        }
        let span = self.conts.span[k];
        let mut row = vec![0u32; self.conts.count / span];
        if !self.spend_state() {
            return row.into();
        }
        if self.alive(k, state) {
            let branch = span / self.conts.span[k + 1];
            for child in self.covered_children(k, state) {
                if k + 1 == self.m {
                    let set = self.wins(k + 1, child);
                    for (g, best) in row.iter_mut().enumerate() {
                        *best = (*best).max(set.count_range(g * span, span));
                    }
                } else {
                    let below = self.sums(k + 1, child);
                    for (g, best) in row.iter_mut().enumerate() {
                        let s: u32 = below[g * branch..(g + 1) * branch].iter().sum();
                        *best = (*best).max(s);
                    }
                }
                if row.iter().all(|&b| b as usize == span) {
                    break;
                }
            }
        }
        let row: Rc<[u32]> = row.into();
        self.sums[k].insert(state, row.clone());
        row
    }

    /// The continuations a state of the last layer wins: the queues (hold, then the
    /// unknown pieces) that can place one of the orders filling its field.
    fn leaf(&mut self, (key, held): State) -> ContSet {
        let mut set = ContSet::EMPTY;
        let field = PcField::from_key(key);
        let fields_before = self.orders.runs.len();
        let (start, len) = self.orders.orders(self.before, self.known, field);
        // The fields whose fill orders were found count against the budget too.
        let found = (self.orders.runs.len() - fields_before) as u64;
        self.states_left = self.states_left.saturating_sub(found);
        let m = self.m;
        for &order in &self.orders.orders[start as usize..(start + len) as usize] {
            let mut digits = [0u8; MAX_UNKNOWN];
            for (j, d) in digits[..m].iter_mut().enumerate() {
                *d = (order >> (3 * (m - 1 - j)) & 7) as u8;
            }
            let digits = &digits[..m];
            if self.hold {
                queues_for(digits, held, 0, 0, &self.conts, &mut set);
            } else {
                let i = self.conts.index_of[order as usize];
                if i != u16::MAX {
                    set.insert(i as usize);
                }
            }
        }
        set
    }
}

/// Marks the continuations `u` for which hold (`held`) and `u` can place `order[j..]` in
/// that order, `code` being the pieces of `u` chosen so far (base 8). Each turn draws one
/// piece: the order's piece is the drawn one (the hold stays), or the held one (the drawn
/// piece, anything, is held instead).
fn queues_for(
    order: &[u8],
    held: u8,
    j: usize,
    code: usize,
    conts: &Continuations,
    set: &mut ContSet,
) {
    if j == order.len() {
        let i = conts.index_of[code];
        if i != u16::MAX {
            set.insert(i as usize);
        }
        return;
    }
    let placed = order[j];
    queues_for(order, held, j + 1, code * 8 + placed as usize, conts, set);
    if held == placed {
        for x in 0..7u8 {
            if x != placed {
                queues_for(order, x, j + 1, code * 8 + x as usize, conts, set);
            }
        }
    }
}

/// Whether placements on one field can be reached and lock, generating each piece's
/// moves at most once (a straight drop needs no generation).
struct Reach<'f, 's, 'a> {
    known: &'s KnownSolver<'a>,
    field: &'f PcField,
    generated: [Option<pc_srs::MoveSet<u32>>; 7],
}

impl<'f, 's, 'a> Reach<'f, 's, 'a> {
    fn new(known: &'s KnownSolver<'a>, field: &'f PcField) -> Self {
        Reach {
            known,
            field,
            generated: Default::default(),
        }
    }

    fn reaches(&mut self, p: &pc_srs::Placement) -> bool {
        let (board, height) = (self.field.board(), self.field.clear_line());
        let known = self.known;
        if known.generator.drops_or_slides_in(board, p, height) {
            return true;
        }
        if !p.rests_on(board) {
            return false;
        }
        let piece = p.piece();
        self.generated[piece.index()]
            .get_or_insert_with(|| {
                known
                    .generator
                    .placements(board, piece, height)
                    .expect("a valid field stays valid")
            })
            .contains(p)
    }
}

impl OrderMemo {
    /// Forgets every field.
    pub(crate) fn clear(&mut self) {
        self.runs.clear();
        self.orders.clear();
    }

    /// The run of a field this memo or `before` has; one of `before` is copied in, so
    /// that every run read is this memo's.
    fn remembered(&mut self, before: Option<&OrderMemo>, key: u128) -> Option<(u32, u32)> {
        if let Some(&run) = self.runs.get(&key) {
            return Some(run);
        }
        let before = before?;
        let &(start, len) = before.runs.get(&key)?;
        let run = (self.orders.len() as u32, len);
        self.orders
            .extend_from_slice(&before.orders[start as usize..(start + len) as usize]);
        self.runs.insert(key, run);
        Some(run)
    }

    /// Adds the fields `other` found and this memo lacks.
    fn absorb(&mut self, other: OrderMemo) {
        for (key, (start, len)) in other.runs {
            self.runs.entry(key).or_insert_with(|| {
                let run = (self.orders.len() as u32, len);
                self.orders
                    .extend_from_slice(&other.orders[start as usize..(start + len) as usize]);
                run
            });
        }
    }

    /// Fields remembered.
    pub(crate) fn len(&self) -> usize {
        self.runs.len() + self.orders.len() / 8
    }

    /// Every order of pieces (base-8 codes, first piece most significant) that fills the
    /// field placed one after the other without hold, as a run of `self.orders` (fields
    /// `before` knows are read from it, see [`OrderMemo::remembered`]).
    fn orders(
        &mut self,
        before: Option<&OrderMemo>,
        known: &KnownSolver<'_>,
        field: PcField,
    ) -> (u32, u32) {
        let key = field.key();
        if let Some(run) = self.remembered(before, key) {
            return run;
        }
        let n = field.pieces_needed();
        let mut found: Vec<u16> = Vec::new();
        if field.is_clear() {
            found.push(0);
        } else if n == 1 {
            let last = field.last_placement().filter(|last| {
                known
                    .generator
                    .is_reachable(field.board(), last, field.clear_line())
                    .unwrap_or(false)
            });
            found.extend(last.map(|p| p.piece().index() as u16));
        } else {
            // Only the placements some cover of the cells begins with can start a fill
            // (none when the cells have no cover: the search checks that before the leaf, and a
            // field a cover's placement leaves has the rest of that cover).
            let mut reach = Reach::new(known, &field);
            for p in cover_check(field.clear_line()).first_placements(field.board()) {
                let child = field.place(&p);
                // Most fields left behind have no fill order: when that is known (or,
                // with two pieces left, quickly found), the placement's move generation
                // is not needed.
                let run = match self.remembered(before, child.key()) {
                    Some(run) => Some(run),
                    None if n == 3 => Some(self.orders(before, known, child)),
                    None => None,
                };
                if run.is_some_and(|(_, len)| len == 0) || !reach.reaches(&p) {
                    continue;
                }
                let head = (p.piece().index() as u16) << (3 * (n - 1));
                let (start, len) = match run {
                    Some(run) => run,
                    None => self.orders(before, known, child),
                };
                for i in start..start + len {
                    found.push(head | self.orders[i as usize]);
                }
            }
            found.sort_unstable();
            found.dedup();
        }
        let run = (self.orders.len() as u32, found.len() as u32);
        self.orders.extend_from_slice(&found);
        self.runs.insert(key, run);
        run
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pc_bitboard::Board32;

    fn decision(filled: &str, hold: Option<Piece>, queue: &str) -> Decision {
        let queue: Vec<Piece> = queue.chars().filter_map(Piece::from_char).collect();
        Decision {
            field: PcField::new(filled.parse::<Board32>().unwrap(), 4).unwrap(),
            hold,
            queue: crate::decision::Queue::new(&queue),
            bag: pc_bag::PieceSet::EMPTY,
            hold_rule: true,
            hold_used: false,
        }
    }

    #[test]
    fn it_answers_three_or_four_unknown_pieces_without_2_line_pcs() {
        let (empty, one, two) = (
            "..........",
            "####......",
            "##......../##......../##......../##........",
        );
        assert!(applies(&decision(empty, Some(Piece::I), "TSZLJO"), false));
        assert!(applies(&decision(one, Some(Piece::O), "TSZLJI"), false));
        // Two unknown pieces: the depth-first search's.
        assert!(!applies(&decision(two, Some(Piece::O), "TSZLJI"), false));
        assert!(!applies(&decision(empty, Some(Piece::I), "TSZLJO"), true));
        assert!(!applies(&decision(empty, None, "TSZLJO"), false));
    }

    #[test]
    fn a_memo_takes_or_reads_the_fields_another_found() {
        let memo = |runs: &[(u128, &[u16])]| {
            let mut memo = OrderMemo::default();
            for &(key, orders) in runs {
                memo.runs
                    .insert(key, (memo.orders.len() as u32, orders.len() as u32));
                memo.orders.extend_from_slice(orders);
            }
            memo
        };
        let orders_of = |memo: &OrderMemo, key: u128| {
            let (start, len) = memo.runs[&key];
            memo.orders[start as usize..(start + len) as usize].to_vec()
        };
        let mut mine = memo(&[(1, &[0o12, 0o34]), (2, &[])]);
        // Field 1 is known to both (the same orders), 3 and 4 only to the other.
        mine.absorb(memo(&[
            (3, &[0o5]),
            (1, &[0o12, 0o34]),
            (4, &[0o66, 0o1, 0o2]),
        ]));
        assert_eq!(mine.runs.len(), 4);
        assert_eq!(orders_of(&mine, 1), [0o12, 0o34]);
        assert_eq!(orders_of(&mine, 2), []);
        assert_eq!(orders_of(&mine, 3), [0o5]);
        assert_eq!(orders_of(&mine, 4), [0o66, 0o1, 0o2]);
        assert_eq!(mine.orders.len(), 2 + 1 + 3);
        // Read through: a field only `before` has is copied in when asked for.
        let before = mine;
        let mut fresh = OrderMemo::default();
        assert_eq!(fresh.remembered(Some(&before), 5), None);
        assert_eq!(fresh.remembered(None, 4), None);
        let run = fresh.remembered(Some(&before), 4).unwrap();
        assert_eq!(run, (0, 3));
        assert_eq!(orders_of(&fresh, 4), [0o66, 0o1, 0o2]);
        assert_eq!(fresh.remembered(None, 4), Some(run));
        assert_eq!(fresh.remembered(Some(&before), 2), Some((3, 0)));
    }

    #[test]
    fn continuations_of_a_bag_come_in_equal_blocks() {
        // Two pieces left in the bag, then a fresh one: 2 · 1 · 7 = 14 sequences.
        let c = Continuations::new(0b11, 3);
        assert_eq!((c.count, c.span.clone()), (14, vec![14, 7, 7, 1]));
        // I then O then any piece; O then I then any.
        assert_eq!(c.index_of[0o010], 0);
        assert_eq!(c.index_of[0o106], 13);
        assert_eq!(c.index_of[0o000], u16::MAX);
        assert_eq!(Continuations::new(0, 4).count, 840);
    }

    #[test]
    fn held_pieces_turn_into_the_queues_that_give_an_order() {
        let c = Continuations::new(0, 2);
        let mut set = ContSet::EMPTY;
        // Order T then I, with T held: T is played first (the first piece drawn is held
        // instead, anything), then I comes next or was that first piece.
        let (t, i) = (Piece::T.index() as u8, Piece::I.index() as u8);
        queues_for(&[t, i], t, 0, 0, &c, &mut set);
        let queues: Vec<usize> = (0..c.count)
            .filter(|&k| set.count_range(k, 1) == 1)
            .collect();
        // Every (x, I) with x not I (distinct pieces of a bag), plus (I, y) for any y.
        assert_eq!(queues.len(), 6 + 6);
        assert_eq!(set.count_range(0, 6), 6); // (I, y), y in O T S Z J L... any but I
    }
}
