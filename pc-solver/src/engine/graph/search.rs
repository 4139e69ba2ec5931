//! The exact chance of every move of a decision, walked over the graph.
//!
//! The same walk as the layered search ([`crate::engine::layered`]), with the graph's edges in
//! place of move generation and cover checks: only fields that can still make a PC are
//! ever entered.
//!
//! The pieces known at the root ([`Reveals`]: the held one, the queue, and a piece the bag
//! forces) come in a fixed order `S`; the unknown pieces `u1..um` follow it. A state of the
//! walk is a field of the graph and the hold slot, which is one of three kinds:
//!
//! * *empty* (and every state without the hold rule): after `k` placements it places
//!   `S[k]`, keeps the slot empty, or (with the hold rule) holds `S[k]` into it;
//! * *held*: after `k` placements it places `S[k + 1]` or swaps it with the held piece;
//! * *just held*: hold was pressed into the empty slot for this piece, so it places
//!   `S[k + 1]` and may not swap.
//!
//! So a state's current piece is `S[d]`, its *depth* `d` being the placements made plus one
//! once the slot was filled, and every step of the walk (a placement, or a hold into the
//! empty slot) goes one depth down. Each step reveals one more piece, so the states of one
//! depth have seen the same prefix of `u1..um` (none at the root, where a forced piece is
//! not news either). The walk stops at depth `|S|`, where the first unknown piece is the
//! current one and every unknown piece has been seen ([`Decision::reveals`]).
//!
//! When no walk sees every unknown piece in time but the bag has two pieces left, there
//! is one walk for each order of the two ([`Decision::walks`]), both pieces at the end of
//! `S`: the first reveal shows one of them and so tells the other, so past the root a walk
//! sees what the player sees (the states of the next two depths have seen none of
//! `u1..um`), and what a state wins adds up over the two.
//!
//! * At depth `|S|`, a state's value is the set of continuations `u1..um` that make a PC,
//!   read off the sets of queues that finish its children ([`SuffixMemo`], the same for
//!   every decision). An empty slot there is as good as holding the first unknown piece.
//! * Depths that have seen every unknown piece: a state wins the union of what its moves win.
//! * Depths that have seen `r < m` of them: for each prefix `u1..ur`, the best move's count
//!   of continuations.
//!
//! A set of continuations has a byte for each prefix `u1..u(m-1)` the bag can give, in
//! lexicographic order, whose bits are the last pieces: the continuations sharing a
//! prefix are a run of bytes, so counts per prefix are popcounts, and unions are word
//! operations. Every continuation of a bag is equally likely.
//!
//! A full ranking walks depth by depth: the states of each depth are found from the depth
//! above, sorted and made unique, so the graph is read in order and each state once. A
//! walk that stops at the first certain move takes the first moves depth first, one at a
//! time, leaving a state as soon as its best move wins everything; both give the same
//! values (tested).

use super::children::ChildMemo;
use super::edge::NO_CHILD;
use super::edge::{edge_move, edge_piece, link, unlink};
use super::layer::links_of;
use super::memo::GraphMemo;
use super::moves;
use super::pc_graph::PcGraph;
use super::radix::{sort_by_high_half, sort_by_low_word};
use super::suffix::SuffixMemo;
use crate::decision::{Decision, EMPTY_HOLD, Reveals, State};
use crate::engine::answer::{Answerer, Ranking};
use crate::engine::context::Context;
use crate::engine::kind::Engine;
use crate::engine::walk::{Ask, StateValues, StateWalk, chances_by_walk, rank_by_walk};
use crate::error::SolverError;
use crate::field::PcField;
use crate::options::SolverOptions;
use crate::position::Move;
use ahash::AHashMap;
use pc_bag::Ratio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the walk answers a decision: its field is one of the graph's and walks apply
/// ([`Decision::walks`]), or the window walk does ([`super::window`]).
pub(crate) fn applies(graph: &PcGraph, decision: &Decision) -> bool {
    (decision.walks().is_some() && graph.find(&decision.field).is_some())
        || super::window::applies(graph, decision)
}

/// The values of the states the decision's moves lead to (and of holding into the empty
/// slot first, when the decision may), or `None` when the walk does not answer it (see
/// [`applies`]); `ask` says which (the walk has no state budget). `memo` keeps what it
/// learns for later decisions. Once `stop` is set, a walk of the first pieces of a PC
/// ends soon, marked [`StateValues::stopped`], its values of no meaning (the window walk,
/// quick, does not look at it).
pub(crate) fn values(
    graph: &PcGraph,
    memo: &mut GraphMemo,
    decision: &Decision,
    two_line: bool,
    ask: Ask<'_>,
    stop: Option<&Arc<AtomicBool>>,
    threads: usize,
) -> Option<StateValues> {
    let at = graph.find(&decision.field)?;
    let Some(walks) = decision.walks() else {
        return super::window::values(graph, memo, decision, two_line, ask);
    };
    if let [reveals] = walks.as_slice() {
        let root = Root::new(at, decision, reveals, two_line, stop, threads);
        return Some(walk_values(graph, memo, &root, ask));
    }
    // Equally likely walks: what a state wins adds up over them, as do their
    // continuations. Each values every move, since a move certain in one may not be in
    // another.
    let mut sum = StateValues {
        values: AHashMap::new(),
        hold_first: None,
        count: 0,
        stopped: false,
    };
    for reveals in &walks {
        let root = Root::new(at, decision, reveals, two_line, stop, threads);
        let walked = walk_values(graph, memo, &root, Ask::Every);
        for (state, won) in walked.values {
            *sum.values.entry(state).or_insert(0) += won;
        }
        if let Some(won) = walked.hold_first {
            sum.hold_first = Some(sum.hold_first.unwrap_or(0) + won);
        }
        sum.count += walked.count;
        sum.stopped |= walked.stopped;
    }
    if let Ask::Only { states, .. } = ask {
        sum.values.retain(|state, _| states.contains(state));
        for &state in states {
            sum.values.entry(state).or_insert(0);
        }
    }
    Some(sum)
}

/// [`values`] from one walk, of the decision's root `root`.
fn walk_values(graph: &PcGraph, memo: &mut GraphMemo, root: &Root, ask: Ask<'_>) -> StateValues {
    let next = root.at.0 + 1;
    let (only, stop_when_certain) = match ask {
        Ask::Every => (None, false),
        Ask::UntilCertain => (None, true),
        Ask::Only { states, .. } => (Some(states), true),
    };
    // The states asked for, as the graph names them (a state not in the graph cannot
    // make a PC: it is left out, valued 0).
    let wanted: Option<Vec<u32>> = only.map(|states| {
        states
            .iter()
            .filter_map(|&(key, hold)| {
                let (layer, at) = graph.find(&PcField::from_key(key))?;
                (layer == next).then_some(state(at, hold))
            })
            .collect()
    });
    let walked = move_values(graph, memo, root, wanted.as_deref(), stop_when_certain);
    let mut values: AHashMap<State, u64> = AHashMap::with_capacity(walked.values.len());
    let mut hold_first = None;
    for (s, won) in walked.values {
        match slot(code_of(s)) {
            Slot::JustHeld(_) => hold_first = Some(won),
            _ => {
                values.insert((graph.field(next, field_of(s)).key(), code_of(s)), won);
            }
        }
    }
    for &state in only.unwrap_or_default() {
        values.entry(state).or_insert(0);
    }
    StateValues {
        values,
        hold_first,
        count: walked.count,
        stopped: walked.stopped,
    }
}

/// A decision as the walk sees it: a field of the graph, the kind of its hold slot, the
/// known pieces and the bag after them.
#[derive(Clone, Debug)]
struct Root {
    /// The field's layer in the graph and its index there.
    at: (usize, u32),
    /// The hold slot as a state's code ([`slot`]).
    code: u8,
    /// The known pieces `S` as indices ([`Reveals::known`]).
    sequence: Vec<u8>,
    /// How many of the last known pieces are the bag's (their reveals tell nothing).
    forced: usize,
    /// The number of unknown pieces.
    m: usize,
    /// Pieces left in the current bag after the known ones, as bits; 0 when a fresh bag
    /// follows.
    bag: u8,
    /// Whether the hold rule is on.
    hold_rule: bool,
    /// Whether the root may hold into its empty slot.
    holds_into_empty: bool,
    /// Whether its ranking has the placements after such a hold, fixed before the piece
    /// it reveals shows (with a preview).
    ranks_hold_then: bool,
    /// Whether a 2-line PC on the way counts as a PC.
    two_line: bool,
    /// The flag that stops the walk ([`values`]).
    stop: Option<Arc<AtomicBool>>,
    /// The threads the last depth is shared out among ([`Walk::prepare_leaves`],
    /// [`Walk::leaf_sets_in_threads`]).
    threads: usize,
}

impl Root {
    fn new(
        at: (usize, u32),
        decision: &Decision,
        reveals: &Reveals,
        two_line: bool,
        stop: Option<&Arc<AtomicBool>>,
        threads: usize,
    ) -> Root {
        let code = match decision.hold.filter(|_| decision.hold_rule) {
            None => EMPTY_HOLD,
            Some(held) if decision.may_hold() => held.index() as u8,
            Some(held) => JUST_HELD + held.index() as u8,
        };
        Root {
            at,
            code,
            sequence: reveals.known.iter().map(|p| p.index() as u8).collect(),
            forced: reveals.forced,
            m: reveals.unknown,
            bag: reveals.bag.bits(),
            hold_rule: decision.hold_rule,
            holds_into_empty: decision.holds_into_empty(),
            ranks_hold_then: decision.holds_into_empty() && decision.queue.len() > 1,
            two_line,
            stop: stop.cloned(),
            threads,
        }
    }

    /// The root's depth: 1 when its slot is filled (the held piece is `S[0]`).
    fn depth(&self) -> usize {
        usize::from(self.code != EMPTY_HOLD)
    }
}

/// A state's hold slot: a piece index (held), [`EMPTY_HOLD`] (empty, or no hold rule), or
/// this plus a piece index (just held into the empty slot, so no swap for this piece).
const JUST_HELD: u8 = 8;

/// The kinds of hold slot, as the module docs name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Empty,
    Held(u8),
    JustHeld(u8),
}

/// The kind of a state's slot code.
#[inline]
fn slot(code: u8) -> Slot {
    match code {
        EMPTY_HOLD => Slot::Empty,
        held if held < EMPTY_HOLD => Slot::Held(held),
        just => Slot::JustHeld(just - JUST_HELD),
    }
}

/// The slot after a state with slot `code`, whose current piece is `current`, places
/// `piece`, or `None` when it cannot place it (the hold into an empty slot is not a
/// placement: [`Walk::children`] adds it).
#[inline]
fn code_after(code: u8, piece: u8, current: u8) -> Option<u8> {
    match slot(code) {
        Slot::Empty => (piece == current).then_some(EMPTY_HOLD),
        Slot::Held(held) if piece == current => Some(held),
        Slot::Held(held) => (piece == held).then_some(current),
        Slot::JustHeld(held) => (piece == current).then_some(held),
    }
}

/// A state of a depth as one word: its field's index, and the slot's code in the low four
/// bits (an index is below [`super::layer::MAX_FIELDS`], `2^28`).
#[inline]
fn state(at: u32, code: u8) -> u32 {
    at << 4 | u32::from(code)
}

#[inline]
fn field_of(s: u32) -> u32 {
    s >> 4
}

#[inline]
fn code_of(s: u32) -> u8 {
    (s & 15) as u8
}

/// The values of the root's moves: the continuations each state of the next depth wins,
/// of `count` equally likely ones.
struct MoveValues {
    /// By state ([`state`]; a just-held state is the hold into the empty slot, and the
    /// held states below it the placements fixed after it, [`Root::ranks_hold_then`]).
    values: AHashMap<u32, u64>,
    /// The number of continuations.
    count: u64,
    /// Whether the walk was stopped: the values are then of no meaning.
    stopped: bool,
}

/// The values of the moves of the root: every state a move leads to, or with `only`
/// those states, in that order; with `stop_when_certain`, none after the first that wins
/// every continuation. `memo` keeps what it learns for later decisions.
fn move_values(
    graph: &PcGraph,
    memo: &mut GraphMemo,
    root: &Root,
    only: Option<&[u32]>,
    stop_when_certain: bool,
) -> MoveValues {
    let mut walk = Walk::new(graph, memo, root);
    let count = walk.space.count;
    let children: Vec<u32> = match only {
        Some(states) => states.to_vec(),
        None => {
            let mut children = walk.children(root.depth(), state(root.at.1, root.code));
            if !root.holds_into_empty {
                children.retain(|&s| !matches!(slot(code_of(s)), Slot::JustHeld(_)));
            }
            children
        }
    };
    let mut values = AHashMap::with_capacity(children.len());
    if stop_when_certain {
        // The first moves one at a time, depth first: a certain move is most often among
        // them, and a depth-first walk leaves a state as soon as its best move wins every
        // continuation. Then the rest at once, depth by depth.
        let (first, rest) = children.split_at(DEPTH_FIRST_MOVES.min(children.len()));
        for &child in first {
            let won = walk.value_depth_first(child);
            values.insert(child, won);
            if won == count {
                return MoveValues {
                    values,
                    count,
                    stopped: false,
                };
            }
        }
        let won = walk.values(rest);
        for (&child, won) in rest.iter().zip(won) {
            values.insert(child, won);
            if won == count {
                break;
            }
        }
    } else {
        // With a preview, the placements of the next piece after a hold into the empty
        // slot, fixed before the piece it reveals shows, are moves too.
        let seconds: Vec<u32> = if root.ranks_hold_then {
            let held: Vec<u32> = children
                .iter()
                .copied()
                .filter(|&s| matches!(slot(code_of(s)), Slot::JustHeld(_)))
                .collect();
            held.into_iter()
                .flat_map(|s| walk.children(root.depth() + 1, s))
                .collect()
        } else {
            Vec::new()
        };
        let (won, won_after_hold) = walk.values_and_below(&children, &seconds);
        values.extend(children.iter().copied().zip(won));
        values.extend(seconds.iter().copied().zip(won_after_hold));
    }
    MoveValues {
        values,
        count,
        stopped: walk.stopped,
    }
}

/// The leaves between two looks at the stop flag ([`Walk::stopped`]).
const STOP_CHECK: usize = 1 << 10;

/// With `stop_when_certain`, the moves walked one at a time depth first before the rest
/// go depth by depth (the count that played 10-PC games fastest, `CHANGELOG.md`).
const DEPTH_FIRST_MOVES: usize = 2;

/// The continuations a bag can give, laid out as the module docs say.
struct Space {
    /// The number of continuations.
    count: u64,
    /// For each prefix of `m - 1` pieces (a byte of a set): the last pieces it may have.
    last_pieces: Vec<u8>,
    /// For each such prefix: its first piece and the byte of the queues of the pieces
    /// after it (base 8) that holds its last pieces (see [`Walk::gather`]).
    gather: Vec<(u8, u16)>,
    /// For `r` in `0..m - 1`: the prefixes of `r` pieces, as runs of the prefixes of
    /// `r + 1` pieces.
    runs: Vec<Vec<(u32, u32)>>,
    /// For `r` in `0..m`: the continuations after each prefix of `r` pieces.
    spans: Vec<Vec<Count>>,
    /// The first pieces, in order.
    firsts: Vec<u8>,
    /// The bytes of each first piece: (piece, first byte, end).
    blocks: Vec<(u8, u32, u32)>,
    /// Words of a set.
    words: usize,
}

impl Space {
    fn new(bag: u8, m: usize) -> Space {
        // Every continuation, in lexicographic order of piece indices.
        let mut sequences: Vec<Vec<u8>> = Vec::new();
        fn walk(bag: u8, left: usize, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            if left == 0 {
                out.push(prefix.clone());
                return;
            }
            let drawable = crate::decision::drawable(bag);
            for p in 0..7u8 {
                if drawable >> p & 1 == 1 {
                    prefix.push(p);
                    walk(drawable & !(1 << p), left - 1, prefix, out);
                    prefix.pop();
                }
            }
        }
        walk(bag, m, &mut Vec::new(), &mut sequences);
        // The prefixes of each length `r` in `0..=m`, as runs of the sequences.
        let mut prefixes: Vec<Vec<(Vec<u8>, u32, u32)>> = vec![Vec::new(); m + 1];
        for (i, sequence) in sequences.iter().enumerate() {
            for (r, of_length) in prefixes.iter_mut().enumerate() {
                let prefix = &sequence[..r];
                match of_length.last_mut() {
                    Some((p, _, end)) if p.as_slice() == prefix => *end = i as u32 + 1,
                    _ => of_length.push((prefix.to_vec(), i as u32, i as u32 + 1)),
                }
            }
        }
        // The bytes: prefixes of `m - 1` pieces.
        let bytes = &prefixes[m - 1];
        let last_pieces = bytes
            .iter()
            .map(|(_, start, end)| {
                sequences[*start as usize..*end as usize]
                    .iter()
                    .fold(0u8, |mask, s| mask | 1 << s[m - 1])
            })
            .collect();
        let gather = bytes
            .iter()
            .map(|(prefix, _, _)| {
                let first = prefix.first().copied().unwrap_or(0);
                let rest = prefix
                    .iter()
                    .skip(1)
                    .fold(0u16, |at, &p| at * 8 + u16::from(p));
                (first, rest)
            })
            .collect();
        let spans = prefixes[..m]
            .iter()
            .map(|of_length| {
                of_length
                    .iter()
                    .map(|(_, start, end)| {
                        Count::try_from(end - start).expect("at most 7^4 continuations")
                    })
                    .collect()
            })
            .collect();
        let runs = (0..m.saturating_sub(1))
            .map(|r| {
                let finer = &prefixes[r + 1];
                prefixes[r]
                    .iter()
                    .map(|(prefix, _, _)| {
                        let first = finer
                            .iter()
                            .position(|f| f.0.starts_with(prefix))
                            .expect("a prefix continues");
                        let count = finer[first..]
                            .iter()
                            .take_while(|f| f.0.starts_with(prefix))
                            .count();
                        (first as u32, (first + count) as u32)
                    })
                    .collect()
            })
            .collect();
        let firsts: Vec<u8> = prefixes[1].iter().map(|(p, _, _)| p[0]).collect();
        let mut blocks: Vec<(u8, u32, u32)> = Vec::new();
        for (g, (prefix, _, _)) in bytes.iter().enumerate() {
            let first = prefix.first().copied().unwrap_or(0);
            match blocks.last_mut() {
                Some((p, _, end)) if *p == first => *end = g as u32 + 1,
                _ => blocks.push((first, g as u32, g as u32 + 1)),
            }
        }
        let words = bytes.len().div_ceil(8);
        Space {
            count: sequences.len() as u64,
            last_pieces,
            gather,
            runs,
            spans,
            firsts,
            blocks,
            words,
        }
    }
}

/// A state's set from the queues after each first piece (`after`, base 8): a set's byte
/// `g` is the byte of its prefix among the queues after its first piece (`space`).
fn gather<const WORDS: usize>(space: &Space, after: &[[u64; WORDS]; 7], set: &mut [u64]) {
    // Byte by byte into a buffer, then into the set's words.
    let mut bytes = [0u8; 8 * MAX_WORDS];
    for &(first, start, end) in &space.blocks {
        let source = &after[first as usize];
        if source.iter().all(|&w| w == 0) {
            continue;
        }
        let range = start as usize..end as usize;
        for ((byte, &(_, at)), &last) in bytes[range.clone()]
            .iter_mut()
            .zip(&space.gather[range.clone()])
            .zip(&space.last_pieces[range])
        {
            let at = usize::from(at);
            *byte = (source[at / 8] >> (8 * (at % 8))) as u8 & last;
        }
    }
    for (word, chunk) in set.iter_mut().zip(bytes.chunks_exact(8)) {
        *word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
    }
}

/// `set` as the arena keeps it, in `buffer`: its counts ([`counts_of`]) when the arena keeps
/// counts, else the set.
fn kept_form<'b>(counts_only: bool, set: &'b [u64], buffer: &'b mut [u64; MAX_WORDS]) -> &'b [u64] {
    if counts_only {
        let counts = counts_of(set);
        let words = set.len().div_ceil(2);
        buffer[..words].copy_from_slice(&counts[..words]);
        &buffer[..words]
    } else {
        set
    }
}

/// The number of bits of each byte of `word`, in that byte.
#[inline]
fn byte_popcounts(word: u64) -> u64 {
    let pairs = word - (word >> 1 & 0x5555_5555_5555_5555);
    let nibbles = (pairs & 0x3333_3333_3333_3333) + (pairs >> 2 & 0x3333_3333_3333_3333);
    (nibbles + (nibbles >> 4)) & 0x0f0f_0f0f_0f0f_0f0f
}

/// A set's counts: for each byte (a prefix of `m - 1` pieces), its popcount (at most 7,
/// the pieces that may end the prefix) in a nibble, sixteen to a word.
fn counts_of(set: &[u64]) -> [u64; MAX_WORDS.div_ceil(2)] {
    let mut counts = [0u64; MAX_WORDS.div_ceil(2)];
    for (out, pair) in counts.iter_mut().zip(set.chunks(2)) {
        // A byte's popcount fits the byte's low nibble: two words' bytes interleave.
        let low = byte_popcounts(pair[0]);
        let high = pair.get(1).map_or(0, |&w| byte_popcounts(w));
        *out = low | high << 4;
    }
    counts
}

/// The high bit of each nibble, and of each byte: the lanes of [`max_of_lanes`].
const NIBBLE_HIGH: u64 = 0x8888_8888_8888_8888;
const BYTE_HIGH: u64 = 0x8080_8080_8080_8080;

/// The lane-wise maximum of two words of counts of at most 7, in lanes whose high bits
/// are `high` (nibbles or bytes): all lanes at once. A lane's high bit above a count
/// is free, so `(a | high) - b` never borrows across lanes and keeps the high bit
/// exactly where `a >= b`.
#[inline]
fn max_of_lanes(a: u64, b: u64, high: u64) -> u64 {
    let lane_bits = high.trailing_zeros() + 1;
    let a_wins = ((a | high) - b) & high;
    let mask = (a_wins >> (lane_bits - 1)) * ((1 << lane_bits) - 1);
    (a & mask) | (b & !mask)
}

/// [`best_of_bytes`] from a set's counts ([`counts_of`]).
fn best_of_counts(row: &mut [Count], counts: &[u64]) {
    for (i, &word) in counts.iter().enumerate() {
        if word == 0 {
            continue;
        }
        // Bytes `16i..16i + 8` in the low nibbles, the next eight in the high ones.
        for (j, best) in row.iter_mut().skip(16 * i).take(16).enumerate() {
            let shift = 8 * (j % 8) + 4 * (j / 8);
            *best = (*best).max((word >> shift & 0xf) as Count);
        }
    }
}

/// Raises each prefix's best count (`row`, a prefix of `m - 1` pieces a byte of `set`) to
/// what `set` wins: a byte's popcount, taken for eight bytes at once.
fn best_of_bytes(row: &mut [Count], set: &[u64]) {
    for (i, &word) in set.iter().enumerate() {
        if word != 0 {
            best_of_byte_counts(&mut row[8 * i..], byte_popcounts(word));
        }
    }
}

/// Raises the first eight counts of `row` to the bytes of `counts`.
#[inline]
fn best_of_byte_counts(row: &mut [Count], counts: u64) {
    for (j, best) in row.iter_mut().take(8).enumerate() {
        *best = (*best).max((counts >> (8 * j) & 0xff) as Count);
    }
}

/// The best counts of the last depth's `sets` (arena offsets, none [`NO_SET`] or
/// [`WINS_ALL`]) kept packed ([`counts_of`] in the arena's nibbles when `counts_only`,
/// else each word's [`byte_popcounts`]): the lane-wise maximum over the sets, which
/// stops once it is `full` (the packed counts of every continuation).
fn best_packed(arena: &[u64], sets: &[u32], counts_only: bool, full: &[u64], best: &mut [u64]) {
    best.fill(0);
    let n = best.len();
    for &at in sets {
        let at = at as usize;
        let source = &arena[at..at + n];
        if counts_only {
            for (b, &c) in best.iter_mut().zip(source) {
                *b = max_of_lanes(*b, c, NIBBLE_HIGH);
            }
        } else {
            for (b, &w) in best.iter_mut().zip(source) {
                *b = max_of_lanes(*b, byte_popcounts(w), BYTE_HIGH);
            }
        }
        if best == full {
            break;
        }
    }
}

/// Raises each prefix's best count (`row`) to what a child wins: the sum of its row
/// (`below`, one entry per longer prefix) over the prefix's run.
fn best_of_runs(row: &mut [Count], below: &[Count], runs: &[(u32, u32)]) {
    for (best, &(start, end)) in row.iter_mut().zip(runs) {
        let count: Count = below[start as usize..end as usize].iter().sum();
        *best = (*best).max(count);
    }
}

/// A number of continuations: at most `7 * 6 * 5 * 4 * 3` (at most five unknown pieces,
/// [`crate::decision::MAX_WALK_UNKNOWN`]), so two bytes, which halves the walk's largest
/// table (the rows of the last depth that has not seen every unknown piece).
type Count = u16;

/// The most words of a set: a byte for each prefix of four pieces a bag can give (at most
/// `7 * 6 * 5 * 4`).
const MAX_WORDS: usize = 105;

/// Where each distinct set is in a walk's arena, found by the set's hash: many states of
/// the last depth win the same continuations, and the sets stay in the arena alone (a
/// set is up to 840 bytes, a walk keeps tens of thousands).
#[derive(Default)]
struct Distinct {
    hasher: ahash::RandomState,
    /// The first set kept with each hash.
    by_hash: AHashMap<u64, u32>,
    /// The sets whose hash a different set kept earlier has (rare).
    collided: AHashMap<Vec<u64>, u32>,
}

/// A set's place: an offset in the walk's arena, or empty.
const NO_SET: u32 = u32::MAX;

/// The fields of the last depth whose children [`Walk::prepare_leaves`] looks up together
/// (a few in tests, so that their small graphs cross blocks).
const LEAF_BLOCK: usize = if cfg!(test) { 5 } else { 1 << 12 };

/// The states whose children's keys [`Walk::children_by_key`] sorts together (a few in
/// tests, as above).
const PARENT_BLOCK: usize = if cfg!(test) { 7 } else { 1 << 16 };

/// The walk below one root.
struct Walk<'g, 's> {
    graph: &'g PcGraph,
    suffixes: &'s mut SuffixMemo,
    /// The root's layer in the graph.
    base: usize,
    /// The root's depth ([`Root::depth`]).
    root_depth: usize,
    /// The known pieces `S`, as indices: a state of depth `d` places `S[d]`.
    sequence: Vec<u8>,
    /// How many of the last known pieces are the bag's (revealing them tells nothing).
    forced: usize,
    hold_rule: bool,
    /// The number of unknown pieces.
    m: usize,
    /// The depth of the last states, whose current piece is the first unknown one (`|S|`).
    last: usize,
    space: Space,
    /// The 2-line PC field (layer, index), when it counts and the graph has it.
    two_line_at: Option<(usize, u32)>,
    /// The last depth: where the continuations each state wins are, by state
    /// ([`state`]), kept from one batch of moves to the next.
    leaves: AHashMap<u32, u32>,
    /// The depths that have seen some unknown pieces but not all, depth first: each
    /// prefix's best count, by depth and state.
    sums: Vec<AHashMap<u32, std::rc::Rc<[Count]>>>,
    /// Where each distinct set is in the arena: many states of the last depth win the
    /// same continuations, and a small arena stays in cache.
    distinct: Distinct,
    /// The sets, `space.words` words each; or, while [`Walk::counts_only`], their counts.
    arena: Vec<u64>,
    /// Whether the last depth's sets are read only as counts, each prefix's best in the
    /// depth above ([`Walk::best_counts`]): the arena then keeps each set's counts
    /// ([`counts_of`]), half its words, and sets with the same counts once.
    counts_only: bool,
    /// With four or five unknown pieces: where the set of the states of each hold slot and
    /// moves ([`Walk::set_of_alike`], the key's first word [`alike_head`]) is in the arena.
    by_classes: AHashMap<Vec<u32>, u32>,
    /// The hold slot and moves of a state being looked up there.
    alike: Vec<u32>,
    /// The flag that stops the walk ([`values`]).
    stop: Option<Arc<AtomicBool>>,
    /// Whether the walk saw that flag set: it stays stopped.
    stopped: bool,
    /// The threads the last depth is shared out among ([`Walk::prepare_leaves`],
    /// [`Walk::leaf_sets_in_threads`]).
    threads: usize,
    /// Every continuation.
    full: Vec<u64>,
    /// A set being made.
    scratch: Vec<u64>,
    /// The set of a state below one of the last depth with rows.
    below: Vec<u64>,
    /// The child indices found depth first, kept from one decision to the next.
    children: &'s mut ChildMemo,
}

/// The states of the last depth of a walk, with the [`link`]s of their fields' moves when
/// prepared ([`Walk::prepare_leaves`]).
struct LastLayer {
    prepared: Option<LeafChildren>,
    /// For each state, its field's place among the prepared fields ([`NO_SET`] for a
    /// state that reads no links).
    at: Vec<u32>,
}

impl LastLayer {
    /// The last depth of these states (sorted), with the children prepared for those of
    /// them that `reads_links`.
    fn new(
        states: &[u32],
        reads_links: impl Fn(u32) -> bool,
        prepared: Option<LeafChildren>,
    ) -> LastLayer {
        let mut at = Vec::new();
        if let Some(prepared) = &prepared {
            // Both in the order of the fields.
            let mut p = 0;
            at = states
                .iter()
                .map(|&s| {
                    if !reads_links(s) {
                        return NO_SET;
                    }
                    while prepared.fields[p] != field_of(s) {
                        p += 1;
                    }
                    p as u32
                })
                .collect();
        }
        LastLayer { prepared, at }
    }

    /// The prepared links of state `i`'s field, if any.
    fn links(&self, i: u32) -> Option<&[u32]> {
        let prepared = self.prepared.as_ref()?;
        let at = *self.at.get(i as usize)?;
        (at != NO_SET).then(|| prepared.links_at(at as usize))
    }
}

/// Appends to `out` the moves of `links` as [`link`]s to their children's classes
/// (`class_of` a child), sorted and without repeats: states whose fields have the same
/// classes of moves win the same.
fn class_links(links: &[u32], class_of: impl Fn(u32) -> u32, out: &mut Vec<u32>) {
    let from = out.len();
    out.extend(
        links
            .iter()
            .filter_map(|&l| unlink(l))
            .map(|(piece, child)| link(piece, class_of(child))),
    );
    out[from..].sort_unstable();
    let mut kept = from;
    for i in from..out.len() {
        if kept == from || out[i] != out[kept - 1] {
            out[kept] = out[i];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// For some fields of a layer (ascending), where each one's moves start and each move as
/// a [`link`]: to its child, or with four or five unknown pieces to its child's class
/// ([`class_links`]).
#[derive(Default)]
struct LeafChildren {
    fields: Vec<u32>,
    starts: Vec<u32>,
    links: Vec<u32>,
}

impl LeafChildren {
    /// The links of the moves of the `p`-th field.
    #[inline]
    fn links_at(&self, p: usize) -> &[u32] {
        &self.links[self.starts[p] as usize..self.starts[p + 1] as usize]
    }
}

impl<'g, 's> Walk<'g, 's> {
    fn new(graph: &'g PcGraph, memo: &'s mut GraphMemo, root: &Root) -> Self {
        let two_line_at = root
            .two_line
            .then(|| graph.two_line_field())
            .flatten()
            .filter(|&(layer, _)| layer > root.at.0);
        let space = Space::new(root.bag, root.m);
        let mut full = vec![0u64; space.words];
        for (g, &last) in space.last_pieces.iter().enumerate() {
            full[g / 8] |= u64::from(last) << (8 * (g % 8));
        }
        let last = root.sequence.len();
        Walk {
            graph,
            suffixes: &mut memo.suffixes,
            children: &mut memo.children,
            base: root.at.0,
            root_depth: root.depth(),
            sequence: root.sequence.clone(),
            forced: root.forced,
            hold_rule: root.hold_rule,
            m: root.m,
            last,
            scratch: vec![0; space.words],
            below: vec![0; space.words],
            space,
            full,
            two_line_at,
            leaves: AHashMap::new(),
            sums: (0..=last).map(|_| AHashMap::new()).collect(),
            distinct: Distinct::default(),
            arena: Vec::new(),
            counts_only: false,
            by_classes: AHashMap::new(),
            alike: Vec::new(),
            stop: root.stop.clone(),
            stopped: false,
            threads: root.threads,
        }
    }

    /// Whether the walk is to stop, from the first time it sees its flag set on (even if
    /// the flag is cleared after): its values are then of no meaning ([`values`]).
    fn stops(&mut self) -> bool {
        self.stopped = self.stopped
            || self
                .stop
                .as_ref()
                .is_some_and(|stop| stop.load(Ordering::Relaxed));
        self.stopped
    }

    /// The graph layer of a state of depth `d` with slot `code`: its placements made.
    #[inline]
    fn layer(&self, d: usize, code: u8) -> usize {
        self.base + d - usize::from(code != EMPTY_HOLD)
    }

    /// The unknown pieces a state of depth `d` (below the root) has seen.
    #[inline]
    fn seen(&self, d: usize) -> usize {
        // The bag's pieces are revealed first: no unknown piece before them.
        d.saturating_sub(self.root_depth + self.forced)
    }

    /// Whether the states of depth `d` have seen every unknown piece (they keep sets of
    /// continuations rather than counts per prefix).
    #[inline]
    fn sees_all(&self, d: usize) -> bool {
        self.seen(d) >= self.m
    }

    /// The continuations won after each move of the root to a state of the next depth.
    ///
    /// Depth by depth rather than depth first: the states of each depth are found from
    /// the depth above, sorted and made unique, so that the graph's edges are read in the
    /// order they are stored and each once, and the states' children are kept as indices
    /// into the next depth's states (the graph's layers are hundreds of megabytes; these
    /// lists are a few).
    fn values(&mut self, firsts: &[u32]) -> Vec<u64> {
        self.values_and_below(firsts, &[]).0
    }

    /// [`Walk::values`], and the continuations won by `seconds`, states of the depth
    /// below that the moves of `firsts` lead to (what a placement fixed before the piece
    /// a hold reveals wins).
    fn values_and_below(&mut self, firsts: &[u32], seconds: &[u32]) -> (Vec<u64>, Vec<u64>) {
        let top = self.root_depth + 1;
        // By depth; the root's and those above it are left empty.
        let mut levels: Vec<Level> = (0..=self.last).map(|_| Level::default()).collect();
        levels[top].states = firsts.to_vec();
        levels[top].states.sort_unstable();
        levels[top].states.dedup();
        for d in top..self.last {
            if self.stops() {
                return (vec![0; firsts.len()], vec![0; seconds.len()]);
            }
            let (above, below) = levels.split_at_mut(d + 1);
            self.expand(d, &mut above[d], &mut below[0]);
        }
        // The last depth's sets, in the order of the graph's fields. When no depth above
        // it sees every unknown piece, only the depth above reads them, as counts: the
        // arena then keeps those instead, apart from the sets a walk depth first keeps.
        let counts_only = top < self.last && (top..self.last).all(|d| !self.sees_all(d));
        let kept_sets = counts_only.then(|| {
            self.counts_only = true;
            (
                std::mem::take(&mut self.arena),
                std::mem::take(&mut self.distinct),
                std::mem::take(&mut self.by_classes),
            )
        });
        let last = &levels[self.last].states;
        let prepared = self.prepare_leaves(last);
        let leaves = LastLayer::new(last, |s| self.reads_links(code_of(s)), prepared);
        let sets = if self.threads > 1
            && (self.m == 4 || self.m == 5)
            && leaves.prepared.is_some()
            && last.len() >= THREADED_LEAVES
        {
            self.leaf_sets_in_threads(last, &leaves)
        } else {
            let mut sets: Vec<u32> = Vec::with_capacity(last.len());
            for (i, &s) in last.iter().enumerate() {
                if i % STOP_CHECK == 0 && self.stops() {
                    break;
                }
                sets.push(if self.is_two_line_pc(self.last, s) {
                    NO_SET // never read: the 2-line PC wins everything (`add_wins`)
                } else {
                    self.leaf_set(s, leaves.links(i as u32), false)
                });
            }
            sets
        };
        // Stopped: the sets a walk depth first keeps go back, no count is made.
        let stopped = self.stopped;
        // What finds a set again is of no more use to this batch, and the counts below
        // are the walk's largest tables: let it go (a later batch of moves finds fewer
        // sets alike, with the same values).
        self.distinct = Distinct::default();
        self.by_classes = AHashMap::new();
        drop(leaves);
        // The depths that have not seen every unknown piece, deepest first: each state's
        // best count for each prefix. The totals of the states asked for, at the first
        // depth and the next.
        let mut totals: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
        let mut below = Rows::default();
        let mut d = top;
        while !self.sees_all(d) {
            d += 1;
        }
        if stopped {
            // Below, as if no depth had to be counted.
            d = top;
        }
        for d in (top..=(top + 1).min(self.last))
            .rev()
            .filter(|&d| self.sees_all(d) && !stopped)
        {
            let asked = if d == top { firsts } else { seconds };
            if !asked.is_empty() {
                totals[d - top] = (0..levels[d].states.len())
                    .map(|i| {
                        let mut set = vec![0u64; self.space.words];
                        self.add_wins(&levels, &sets, d, i as u32, &mut set);
                        set.iter().map(|w| u64::from(w.count_ones())).sum()
                    })
                    .collect();
            }
        }
        for d in (top..d).rev() {
            if self.stops() {
                break;
            }
            below = self.best_counts(&levels, &sets, d, &below);
            if d <= top + 1 {
                // A row sums to the state's total, summed over its last piece or not.
                let sums: Vec<u64> = below
                    .counts
                    .chunks_exact(below.width)
                    .map(|row| row.iter().map(|&c| u64::from(c)).sum())
                    .collect();
                totals[d - top] = below.of_state.iter().map(|&r| sums[r as usize]).collect();
            }
        }
        if let Some((arena, distinct, by_classes)) = kept_sets {
            self.counts_only = false;
            (self.arena, self.distinct, self.by_classes) = (arena, distinct, by_classes);
        }
        let [first, second] = totals;
        if self.stopped {
            return (vec![0; firsts.len()], vec![0; seconds.len()]);
        }
        let read = |asked: &[u32], level: &Level, values: &[u64]| -> Vec<u64> {
            asked
                .iter()
                .map(|s| {
                    let i = level.states.binary_search(s).expect("a state walked");
                    values[i]
                })
                .collect()
        };
        let seconds_won = if seconds.is_empty() {
            Vec::new()
        } else {
            read(seconds, &levels[top + 1], &second)
        };
        (read(firsts, &levels[top], &first), seconds_won)
    }

    /// The children of the states of depth `d` (`level`): the states of depth `d + 1`
    /// (`next`), sorted, and for each state of `level` the indices of its children.
    fn expand(&self, d: usize, level: &mut Level, next: &mut Level) {
        // (child state, parent index) as one word, the child in the high half, sorted by
        // the child.
        let mut pairs: Vec<u64> = Vec::new();
        // The states whose layer does not keep its children, by that layer (empty slots
        // lie one layer below the others).
        let mut by_key: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        let current = self.sequence[d];
        for (i, &s) in level.states.iter().enumerate() {
            let code = code_of(s);
            if self.is_two_line_pc(d, s) {
                continue; // a PC already: nothing below it is looked at
            }
            if code == EMPTY_HOLD && self.hold_rule {
                let held = state(field_of(s), JUST_HELD + current);
                pairs.push(u64::from(held) << 32 | i as u64);
            }
            let layer = self.layer(d, code);
            if self.graph.layers[layer].children.is_empty() {
                by_key[usize::from(code == EMPTY_HOLD)].push(i as u32);
            } else {
                for child in self.indexed_children(layer, s, current) {
                    pairs.push(u64::from(child) << 32 | i as u64);
                }
            }
        }
        for parents in &by_key {
            if let Some(&first) = parents.first() {
                let layer = self.layer(d, code_of(level.states[first as usize]));
                self.children_by_key(layer, current, &level.states, parents, &mut pairs);
            }
        }
        sort_by_high_half(&mut pairs);
        let mut child_of = Vec::with_capacity(pairs.len());
        for &pair in &pairs {
            let child = (pair >> 32) as u32;
            if next.states.last() != Some(&child) {
                next.states.push(child);
            }
            child_of.push(next.states.len() as u32 - 1);
        }
        // Each parent's children, in the order of the pairs (by child).
        let mut starts = vec![0u32; level.states.len() + 1];
        for &pair in &pairs {
            starts[(pair & 0xffff_ffff) as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut children = vec![0u32; pairs.len()];
        let mut filled = starts.clone();
        for (&pair, &child) in pairs.iter().zip(&child_of) {
            let parent = (pair & 0xffff_ffff) as usize;
            children[filled[parent] as usize] = child;
            filled[parent] += 1;
        }
        level.starts = starts;
        level.children = children;
    }

    /// [`Walk::expand`]'s pairs for the states `parents` (indices into `states`) of one
    /// layer that does not keep its children: every child's key with its slot and parent,
    /// sorted by the key (which is the order of the next layer's fields), then each
    /// distinct key's index found by searching on from the last one. The parents go a
    /// block at a time: the keys of every child at once would be the walk's largest
    /// buffer, and the pairs are sorted by child afterwards anyway.
    fn children_by_key(
        &self,
        layer_at: usize,
        current: u8,
        states: &[u32],
        parents: &[u32],
        pairs: &mut Vec<u64>,
    ) {
        let layer = &self.graph.layers[layer_at];
        let next = &self.graph.layers[layer_at + 1];
        let mut keyed: Vec<(u64, u32)> = Vec::new();
        for block in parents.chunks(PARENT_BLOCK) {
            keyed.clear();
            for &i in block {
                let s = states[i as usize];
                let key = layer.keys[field_of(s) as usize];
                for &e in layer.edges(field_of(s)) {
                    let Some(code) = code_after(code_of(s), edge_piece(e) as u8, current) else {
                        continue;
                    };
                    if let Some(child) = edge_move(e).and_then(|m| moves::child(key, m)) {
                        // A child's slot is never just held: three bits.
                        keyed.push((child << 3 | u64::from(code), i));
                    }
                }
            }
            // In the order of the keys, which is the order of the next layer's fields:
            // each key's index is found by searching on from the last one's.
            sort_by_low_word(&mut keyed, super::key::KEY_BITS + 3);
            let (mut from, mut last) = (0usize, None);
            for &(word, parent) in &keyed {
                let key = word >> 3;
                if last.map(|(k, _)| k) != Some(key) {
                    let at = next.find_from(key, from);
                    from = at.unwrap_or_else(|at| at);
                    last = Some((key, at.ok()));
                }
                if let Some((_, Some(at))) = last {
                    pairs.push(
                        u64::from(state(at as u32, (word & 7) as u8)) << 32 | u64::from(parent),
                    );
                }
            }
        }
    }

    /// Whether a state of the last depth with slot `code` reads its field's moves
    /// ([`reads_links`]).
    fn reads_links(&self, code: u8) -> bool {
        reads_links(code, self.hold_rule)
    }

    /// Finds, in one pass, the moves and child indices ([`link`]s) of the distinct fields
    /// of the last depth's states (sorted) that read them, for [`Walk::leaf_set`] (with
    /// four unknown pieces, the children's classes); `None` when their layer keeps its
    /// children or is the graph's last.
    fn prepare_leaves(&mut self, states: &[u32]) -> Option<LeafChildren> {
        let mut fields: Vec<u32> = states
            .iter()
            .filter(|&&s| self.reads_links(code_of(s)))
            .map(|&s| field_of(s))
            .collect();
        fields.dedup();
        let code = if self.hold_rule { 0 } else { EMPTY_HOLD };
        let layer_at = self.layer(self.last, code);
        let layer = self.graph.layers.get(layer_at)?;
        // The graph's last layer has no moves.
        self.graph.layers.get(layer_at + 1)?;
        if !layer.children.is_empty() || fields.is_empty() {
            return None;
        }
        // The children are looked up a block of fields at a time: the keys and links of
        // every move of the last depth at once would be the walk's largest buffers.
        // At most a link per edge.
        let edges = fields.iter().map(|&f| layer.edges(f).len()).sum();
        let mut leaves = LeafChildren {
            starts: Vec::with_capacity(fields.len() + 1),
            links: Vec::with_capacity(edges),
            fields,
        };
        // With four or five unknown pieces, the children's classes are all a leaf reads.
        let four = (self.m == 5).then(|| self.four_left());
        let three = (self.m == 4).then(|| self.three_left());
        let layers = &self.graph.layers;
        // Each block's (where each field's links start, the links), a round of blocks on
        // the walk's threads at a time.
        let block_links = |block: &[u32]| {
            let (starts, links) = links_of(layers, layer_at, block.iter().copied());
            let mut out = (
                Vec::with_capacity(block.len()),
                Vec::with_capacity(links.len()),
            );
            for field in starts.windows(2) {
                let links = &links[field[0] as usize..field[1] as usize];
                out.0.push(out.1.len() as u32);
                match (four, three) {
                    (Some(four), _) => class_links(links, |child| four.class(child), &mut out.1),
                    (_, Some(three)) => {
                        class_links(links, |child| three.class(child), &mut out.1);
                    }
                    _ => out.1.extend_from_slice(links),
                }
            }
            out
        };
        let blocks: Vec<&[u32]> = leaves.fields.chunks(LEAF_BLOCK).collect();
        let threads = self.threads.max(1);
        for round in blocks.chunks(threads) {
            let done = super::parallel::on_threads(threads, round.len(), |k| block_links(round[k]));
            for (starts, links) in done {
                let offset = leaves.links.len() as u32;
                leaves.starts.extend(starts.iter().map(|&at| at + offset));
                leaves.links.extend_from_slice(&links);
            }
        }
        leaves.starts.push(leaves.links.len() as u32);
        Some(leaves)
    }

    /// Adds the continuations state `i` of a depth `d` that has seen every unknown piece
    /// wins to `out`, stopping once `out` holds every continuation (then true). Only the
    /// last depth's sets are kept: a state above it is walked once per parent, which
    /// costs less than keeping a set for each (`CHANGELOG.md` has the counts).
    fn add_wins(&self, levels: &[Level], sets: &[u32], d: usize, i: u32, out: &mut [u64]) -> bool {
        let level = &levels[d];
        if self.is_two_line_pc(d, level.states[i as usize]) {
            out.copy_from_slice(&self.full);
            true
        } else if d == self.last {
            self.add_set(sets[i as usize], out)
        } else {
            level
                .children_of(i)
                .iter()
                .any(|&child| self.add_wins(levels, sets, d + 1, child, out))
        }
    }

    /// Adds the set at `at` in the arena ([`NO_SET`]: none) to `out`; whether `out` then
    /// holds every continuation (false for [`NO_SET`]: the caller stopped adding once it
    /// did).
    fn add_set(&self, at: u32, out: &mut [u64]) -> bool {
        debug_assert!(!self.counts_only, "the arena keeps counts, not sets");
        if at == NO_SET {
            return false;
        }
        let at = at as usize;
        // Told in the same pass: the bits still missing.
        let mut missing = 0;
        for ((w, c), f) in out
            .iter_mut()
            .zip(&self.arena[at..at + self.space.words])
            .zip(&self.full)
        {
            *w |= c;
            missing |= *w ^ f;
        }
        missing == 0
    }

    /// Where the continuations a state of the last depth wins are, in the arena, given
    /// the [`link`]s of its field's moves when they were prepared
    /// ([`Walk::prepare_leaves`]); kept for the states met again when `remember` holds.
    fn leaf_set(&mut self, s: u32, prepared: Option<&[u32]>, remember: bool) -> u32 {
        debug_assert!(!(remember && self.counts_only));
        // (Never remembered while the arena keeps counts: no lookup then.)
        if !self.counts_only {
            if let Some(&at) = self.leaves.get(&s) {
                return at;
            }
        }
        let code = code_of(s);
        let (layer, field) = (self.layer(self.last, code), field_of(s));
        let at = if !self.reads_links(code) {
            self.empty_leaf_set(layer, field)
        } else {
            let (held, swaps) = held_and_swaps(code, self.hold_rule);
            let found: Vec<u32>;
            let links = match prepared {
                Some(links) => links,
                None => {
                    let links = self.links(layer, field);
                    found = if self.m == 4 {
                        let three = self.three_left();
                        let mut by_class = Vec::with_capacity(links.len());
                        class_links(&links, |child| three.class(child), &mut by_class);
                        by_class
                    } else if self.m == 5 {
                        let four = self.four_left();
                        let mut by_class = Vec::with_capacity(links.len());
                        class_links(&links, |child| four.class(child), &mut by_class);
                        by_class
                    } else {
                        links
                    };
                    &found
                }
            };
            if self.m == 4 || self.m == 5 {
                self.set_of_alike(held, swaps, links)
            } else {
                let mut set = std::mem::take(&mut self.scratch);
                set.iter_mut().for_each(|w| *w = 0);
                self.leaf(layer, field, held, swaps, links, &mut set);
                let at = self.keep(&set);
                self.scratch = set;
                at
            }
        };
        if remember {
            self.leaves.insert(s, at);
        }
        at
    }

    /// The set of a state of the last depth with an empty slot under the hold rule: the
    /// unknown pieces are all seen by then, and an empty slot can take the first of them
    /// at once, so it wins what holding that piece wins with the rest as the queue.
    fn empty_leaf_set(&mut self, layer: usize, field: u32) -> u32 {
        let left = self.m - 1;
        let mut set = std::mem::take(&mut self.scratch);
        match left {
            // The field is the PC.
            0 => set.copy_from_slice(&self.full),
            3 | 4 => self.class_sets().empty_slot(field, &mut set),
            _ => {
                let mut after = [[0u64; 8]; 7];
                for &u in &self.space.firsts {
                    after[usize::from(u)][0] =
                        self.suffixes
                            .small(&self.graph.layers, layer, field, u, left);
                }
                gather(&self.space, &after, &mut set);
            }
        }
        let at = self.keep(&set);
        self.scratch = set;
        at
    }

    /// The set of the states of the last depth (four or five unknown pieces) that hold
    /// `held`, may swap or not, and whose moves are `class_links` (to classes): found again
    /// if states alike met it, else made ([`ClassSets::alike`]).
    fn set_of_alike(&mut self, held: u8, swaps: bool, class_links: &[u32]) -> u32 {
        let mut alike = std::mem::take(&mut self.alike);
        alike.clear();
        alike.push(alike_head(held, swaps));
        alike.extend_from_slice(class_links);
        let at = match self.by_classes.get(alike.as_slice()) {
            Some(&at) => at,
            None => {
                let mut set = std::mem::take(&mut self.scratch);
                self.class_sets().alike(held, swaps, class_links, &mut set);
                let at = self.keep(&set);
                self.scratch = set;
                self.by_classes.insert(alike.clone(), at);
                at
            }
        };
        self.alike = alike;
        at
    }

    /// What the last depth's sets are made of with four or five unknown pieces.
    fn class_sets(&self) -> ClassSets<'_> {
        ClassSets {
            space: &self.space,
            three: self.three_left(),
            four: (self.m == 5).then(|| self.four_left()),
            hold_rule: self.hold_rule,
        }
    }

    /// The last depth's sets (`last`, the states; four or five unknown pieces, their
    /// children prepared in `leaves`) as [`Walk::leaf_set`] makes them one after another,
    /// made on [`Walk::threads`] threads a round of states at a time. In a round each thread
    /// takes a run of states and makes the sets of those alike to none found before it
    /// ([`Walk::by_classes`], which the threads only read), finding states alike within the
    /// run in a table of its own; then this thread keeps the sets made in the arena, run by
    /// run in the order of the states, as the states alike in `by_classes`. A set is kept
    /// the first time it is met, as one thread keeps it: the arena and the places are
    /// the same.
    fn leaf_sets_in_threads(&mut self, last: &[u32], leaves: &LastLayer) -> Vec<u32> {
        let words = self.space.words;
        let threads = self.threads;
        let mut sets: Vec<u32> = Vec::with_capacity(last.len());
        for round in last.chunks(threads * LEAF_RUN) {
            if self.stops() {
                break;
            }
            let first = sets.len();
            let runs = {
                let job = LeafRun {
                    classes: self.class_sets(),
                    found: &self.by_classes,
                    leaves,
                    hold_rule: self.hold_rule,
                    empty_layer: self.layer(self.last, EMPTY_HOLD),
                    two_line_at: self.two_line_at,
                    stop: self.stop.as_deref(),
                    words,
                    counts_only: self.counts_only,
                    hasher: &self.distinct.hasher,
                };
                let parts = round.len().div_ceil(LEAF_RUN);
                super::parallel::on_threads(threads, parts, |k| {
                    let from = k * LEAF_RUN;
                    let to = (from + LEAF_RUN).min(round.len());
                    job.sets(&round[from..to], (first + from) as u32)
                })
            };
            for run in runs {
                // The places of the sets this run made, kept in order.
                let mut placed = Vec::with_capacity(run.keys.len());
                for (k, (key, hash)) in run.keys.into_iter().zip(run.hashes).enumerate() {
                    let kept = &run.made[run.starts[k] as usize..run.starts[k + 1] as usize];
                    let at = hash.map_or(NO_SET, |hash| self.keep_kept(kept, hash));
                    if let Some(key) = key {
                        self.by_classes.insert(key, at);
                    }
                    placed.push(at);
                }
                sets.extend(run.at.iter().map(|&at| match at {
                    NO_SET => NO_SET,
                    at if at & MADE_IN_RUN != 0 => placed[(at & !MADE_IN_RUN) as usize],
                    at => at,
                }));
                if run.stopped {
                    self.stopped = true;
                }
            }
            if self.stopped {
                break;
            }
        }
        sets
    }

    /// The classes of the graph's fields three pieces from a PC.
    fn three_left(&self) -> &'g super::three_left::ThreeLeft {
        self.graph
            .three_left
            .as_ref()
            .expect("a graph with a layer three pieces from a PC has its classes")
    }

    /// The classes of the graph's fields four pieces from a PC, made the first time.
    fn four_left(&self) -> &'g super::four_left::FourLeft {
        self.graph
            .four_left()
            .expect("a graph with a layer four pieces from a PC has its classes")
    }

    /// Where set `set` is in the arena, put there if it is new ([`NO_SET`] for no
    /// continuation).
    fn keep(&mut self, set: &[u64]) -> u32 {
        if set.iter().all(|&w| w == 0) {
            return NO_SET;
        }
        let mut kept = [0u64; MAX_WORDS];
        let kept = kept_form(self.counts_only, set, &mut kept);
        let hash = self.distinct.hasher.hash_one(kept);
        self.keep_kept(kept, hash)
    }

    /// [`Walk::keep`] of a set already in the form the arena keeps ([`kept_form`], not
    /// empty), whose hash by [`Distinct::hasher`] is `hash`.
    fn keep_kept(&mut self, kept: &[u64], hash: u64) -> u32 {
        let in_arena = |at: u32| &self.arena[at as usize..at as usize + kept.len()];
        let found = match self.distinct.by_hash.get(&hash) {
            Some(&at) if in_arena(at) == kept => Some(at),
            Some(_) => self.distinct.collided.get(kept).copied(),
            None => None,
        };
        found.unwrap_or_else(|| {
            let at = self.arena.len() as u32;
            self.arena.extend_from_slice(kept);
            if self.distinct.by_hash.contains_key(&hash) {
                self.distinct.collided.insert(kept.to_vec(), at);
            } else {
                self.distinct.by_hash.insert(hash, at);
            }
            at
        })
    }

    /// The [`link`]s of the moves of field `field` of layer `layer`, their children found
    /// once ([`ChildMemo`]).
    fn links(&mut self, layer: usize, field: u32) -> Vec<u32> {
        let edges = self.graph.layers[layer].edges(field);
        let children = self.children.of(self.graph, layer, field, |_, _| true);
        edges
            .iter()
            .zip(children)
            .map(|(&e, &child)| link(edge_piece(e) as u8, child))
            .collect()
    }

    /// The continuations won after a move of the root to `child` (a state of the next
    /// depth), depth first: the same values as [`Walk::values`], with the sets of the
    /// last depth and the rows of the depths above kept for the next moves.
    fn value_depth_first(&mut self, child: u32) -> u64 {
        let top = self.root_depth + 1;
        if self.sees_all(top) {
            let mut set = vec![0u64; self.space.words];
            self.add_wins_depth_first(top, child, &mut set);
            set.iter().map(|w| u64::from(w.count_ones())).sum()
        } else {
            let row = self.sums_depth_first(top, child);
            row.iter().map(|&c| u64::from(c)).sum()
        }
    }

    /// [`Walk::add_wins`] depth first: true once every continuation is won.
    fn add_wins_depth_first(&mut self, d: usize, s: u32, out: &mut [u64]) -> bool {
        if self.is_two_line_pc(d, s) {
            out.copy_from_slice(&self.full);
            true
        } else if d == self.last {
            let at = self.leaf_set(s, None, true);
            self.add_set(at, out)
        } else {
            self.children(d, s)
                .into_iter()
                .any(|child| self.add_wins_depth_first(d + 1, child, out))
        }
    }

    /// [`Walk::best_counts`] for one state, depth first, stopping once every prefix is
    /// won whatever comes.
    fn sums_depth_first(&mut self, d: usize, s: u32) -> std::rc::Rc<[Count]> {
        if let Some(row) = self.sums[d].get(&s) {
            return row.clone();
        }
        let seen = self.seen(d);
        let spans = self.space.spans[seen].clone();
        let row: Vec<Count> = if self.is_two_line_pc(d, s) {
            spans
        } else {
            let mut row: Vec<Count> = vec![0; spans.len()];
            for child in self.children(d, s) {
                if self.sees_all(d + 1) {
                    let mut set = std::mem::take(&mut self.below);
                    set.iter_mut().for_each(|w| *w = 0);
                    self.add_wins_depth_first(d + 1, child, &mut set);
                    best_of_bytes(&mut row, &set);
                    self.below = set;
                } else {
                    // Walks that see two of the bag's pieces first go depth by depth
                    // ([`values`]): here every depth sees one more piece.
                    debug_assert_eq!(self.seen(d + 1), seen + 1);
                    let below = self.sums_depth_first(d + 1, child);
                    best_of_runs(&mut row, &below, &self.space.runs[seen]);
                }
                if row == spans {
                    break;
                }
            }
            row
        };
        let row: std::rc::Rc<[Count]> = row.into();
        self.sums[d].insert(s, row.clone());
        row
    }

    /// The states of the next depth that the moves of state `s` of a layer whose child
    /// indices are stored ([`super::Layer::children`]) lead to, `current` its current
    /// piece.
    fn indexed_children(
        &self,
        layer: usize,
        s: u32,
        current: u8,
    ) -> impl Iterator<Item = u32> + 'g {
        let graph = self.graph;
        let (field, code) = (field_of(s), code_of(s));
        let edges = graph.layers[layer].edges(field);
        edges.iter().enumerate().filter_map(move |(j, &e)| {
            let after = code_after(code, edge_piece(e) as u8, current)?;
            Some(state(graph.child(layer, field, j)?, after))
        })
    }

    /// The states of the next depth that state `s` of depth `d` leads to: its placements,
    /// their children found once ([`ChildMemo`]), and with an empty slot under the hold
    /// rule the hold into it.
    fn children(&mut self, d: usize, s: u32) -> Vec<u32> {
        let (field, code) = (field_of(s), code_of(s));
        let layer = self.layer(d, code);
        let current = self.sequence[d];
        let edges = self.graph.layers[layer].edges(field);
        let found = self.children.of(self.graph, layer, field, |_, e| {
            code_after(code, edge_piece(e) as u8, current).is_some()
        });
        let mut children = Vec::new();
        for (&e, &child) in edges.iter().zip(found) {
            let Some(after) = code_after(code, edge_piece(e) as u8, current) else {
                continue;
            };
            if child != NO_CHILD {
                children.push(state(child, after));
            }
        }
        if code == EMPTY_HOLD && self.hold_rule {
            children.push(state(field, JUST_HELD + current));
        }
        children
    }

    /// Whether state `s` of depth `d` is the 2-line PC, when that counts.
    fn is_two_line_pc(&self, d: usize, s: u32) -> bool {
        self.two_line_at
            .is_some_and(|at| at == (self.layer(d, code_of(s)), field_of(s)))
    }

    /// The continuations a state of the last depth wins, with one to three unknown pieces
    /// to place: for each first unknown piece, the queues of the rest that finish what
    /// placing it (or, when it `swaps`, the held piece) leaves. `links`: the [`link`]s of
    /// the field's moves.
    fn leaf(
        &mut self,
        layer: usize,
        field: u32,
        held: u8,
        swaps: bool,
        links: &[u32],
        set: &mut [u64],
    ) {
        let graph = self.graph;
        let m = self.m;
        if m == 1 {
            let hold = if swaps { held } else { EMPTY_HOLD };
            let fits = self.suffixes.small(&graph.layers, layer, field, hold, 1);
            set[0] = fits & u64::from(self.space.last_pieces[0]);
            return;
        }
        let suffixes = &mut self.suffixes;
        let after = queues_after(
            links.iter().filter_map(|&l| unlink(l)),
            held,
            swaps,
            &self.space.firsts,
            |child, hold, queues: &mut [u64; 8]| {
                queues[0] |= suffixes.small(&graph.layers, layer + 1, child, hold, m - 1)
            },
        );
        gather(&self.space, &after, set);
    }

    /// For every state of a depth `d` that has not seen every unknown piece, each
    /// prefix's continuations won by the best move, from the rows of depth `d + 1`
    /// (`below`; none when that depth has seen them all). Below the first depth a row is
    /// kept summed over the piece its depth saw last, as its parents read it (a row per
    /// prefix of the parents' pieces): a few times smaller, which is what lets five unknown
    /// pieces fit. A row is the best over the state's children, so states whose children
    /// win alike (the same sets, or the same rows below) share one row, made once.
    fn best_counts(&mut self, levels: &[Level], sets: &[u32], d: usize, below: &Rows) -> Rows {
        let seen = self.seen(d);
        let spans = &self.space.spans[seen];
        let width = spans.len();
        // Not when the depth saw a piece of the bag's, which tells nothing new.
        let summed = d > self.root_depth + 1 && seen > self.seen(d - 1);
        let kept = if summed {
            self.space.spans[seen - 1].len()
        } else {
            width
        };
        let level = &levels[d];
        let sets_below = self.sees_all(d + 1);
        let mut rows = Rows {
            of_state: Vec::with_capacity(level.states.len()),
            counts: Vec::new(),
            width: kept,
        };
        let mut by_children: AHashMap<Vec<u32>, u32> = AHashMap::new();
        let mut children: Vec<u32> = Vec::new();
        let mut row: Vec<Count> = vec![0; width];
        let mut set = std::mem::take(&mut self.below);
        // The children are the last depth's sets: their best counts are taken packed, all
        // lanes at once, then unpacked into the row.
        let packed = sets_below && d + 1 == self.last;
        let packed_words = if self.counts_only {
            self.space.words.div_ceil(2)
        } else {
            self.space.words
        };
        let full_packed: Vec<u64> = if self.counts_only {
            counts_of(&self.full)[..packed_words].to_vec()
        } else {
            self.full.iter().map(|&w| byte_popcounts(w)).collect()
        };
        let mut best = vec![0u64; packed_words];
        let mut child_sets: Vec<u32> = Vec::new();
        for (i, &s) in level.states.iter().enumerate() {
            // What the state's children win, as one key: a 2-line PC wins everything.
            children.clear();
            if self.is_two_line_pc(d, s) {
                children.push(WINS_ALL);
            } else {
                children.extend(level.children_of(i as u32).iter().map(|&child| {
                    if !sets_below {
                        below.of_state[child as usize]
                    } else if d + 1 < self.last {
                        child // a set made from the depths below: the child itself
                    } else if self.is_two_line_pc(d + 1, levels[d + 1].states[child as usize]) {
                        WINS_ALL
                    } else {
                        sets[child as usize]
                    }
                }));
                children.sort_unstable();
                children.dedup();
            }
            if let Some(&at) = by_children.get(children.as_slice()) {
                rows.of_state.push(at);
                continue;
            }
            row.iter_mut().for_each(|c| *c = 0);
            if packed {
                if children.contains(&WINS_ALL) {
                    row.copy_from_slice(spans);
                } else {
                    child_sets.clear();
                    child_sets.extend(children.iter().copied().filter(|&c| c != NO_SET));
                    best_packed(
                        &self.arena,
                        &child_sets,
                        self.counts_only,
                        &full_packed,
                        &mut best,
                    );
                    if self.counts_only {
                        best_of_counts(&mut row, &best);
                    } else {
                        for (i, &counts) in best.iter().enumerate() {
                            best_of_byte_counts(&mut row[8 * i..], counts);
                        }
                    }
                }
            } else {
                for &child in &children {
                    if child == WINS_ALL {
                        row.copy_from_slice(spans);
                    } else if !sets_below {
                        let from = child as usize * width;
                        for (best, &c) in row.iter_mut().zip(&below.counts[from..from + width]) {
                            *best = (*best).max(c);
                        }
                    } else {
                        // A set made from the depths below.
                        set.iter_mut().for_each(|w| *w = 0);
                        self.add_wins(levels, sets, d + 1, child, &mut set);
                        best_of_bytes(&mut row, &set);
                    }
                    if row == *spans {
                        break;
                    }
                }
            }
            let at = (rows.counts.len() / kept) as u32;
            if summed {
                rows.counts.extend(
                    self.space.runs[seen - 1].iter().map(|&(start, end)| {
                        row[start as usize..end as usize].iter().sum::<Count>()
                    }),
                );
            } else {
                rows.counts.extend_from_slice(&row);
            }
            rows.of_state.push(at);
            by_children.insert(children.clone(), at);
        }
        self.below = set;
        rows
    }
}

/// A child that wins every continuation (a 2-line PC), in [`Walk::best_counts`]'s keys:
/// neither an offset in the arena nor a row or state index reaches it.
const WINS_ALL: u32 = u32::MAX - 1;

/// The best counts of the states of one depth ([`Walk::best_counts`]): rows of `width`
/// counts, each made once, and each state's row.
#[derive(Default)]
struct Rows {
    /// Each state's row, by the state's index in its depth.
    of_state: Vec<u32>,
    /// The rows, one after another.
    counts: Vec<Count>,
    width: usize,
}

/// For each first unknown piece, the queues of the pieces after it (base 8), from the
/// moves (piece, child) of a state of the last depth holding `held`: placing the first
/// unknown piece keeps the hold; when it `swaps`, placing the held piece holds the first
/// unknown piece instead, whichever of `firsts` it is. `add(child, hold, queues)` adds
/// the queues that finish `child` with `hold` in the slot.
fn queues_after<C: Copy, const WORDS: usize>(
    moves: impl Iterator<Item = (u8, C)>,
    held: u8,
    swaps: bool,
    firsts: &[u8],
    mut add: impl FnMut(C, u8, &mut [u64; WORDS]),
) -> [[u64; WORDS]; 7] {
    let mut after = [[0u64; WORDS]; 7];
    for (piece, child) in moves {
        add(child, held, &mut after[usize::from(piece)]);
        if swaps && piece == held {
            for &u in firsts.iter().filter(|&&u| u != held) {
                add(child, u, &mut after[usize::from(u)]);
            }
        }
    }
    after
}

/// What the last depth's sets are made of with four or five unknown pieces: what a state
/// wins follows from its held piece, whether it swaps, and its moves as [`link`]s to their
/// children's classes ([`class_links`]), or, with its slot empty under the hold rule, from
/// its field's class. Read only, so that threads share it ([`Walk::leaf_sets_in_threads`]).
#[derive(Clone, Copy)]
struct ClassSets<'a> {
    space: &'a Space,
    three: &'a super::three_left::ThreeLeft,
    /// With five unknown pieces, the classes four pieces from a PC, which the moves lead
    /// to; with four, the moves lead to classes three pieces from a PC.
    four: Option<&'a super::four_left::FourLeft>,
    hold_rule: bool,
}

impl ClassSets<'_> {
    /// Into `set`: what the states that hold `held` (swapping it for the first unknown
    /// piece or not) and whose moves are `class_links` win. For each first unknown piece,
    /// the queues of the rest that finish what placing it (or the held piece) leaves.
    fn alike(&self, held: u8, swaps: bool, class_links: &[u32], set: &mut [u64]) {
        let moves = class_links.iter().filter_map(|&l| unlink(l));
        let firsts = &self.space.firsts;
        match self.four {
            Some(four) => {
                let add = |class, hold, into: &mut [u64; 64]| {
                    four.add_queues(self.three, self.hold_rule, class, hold, into);
                };
                gather(
                    self.space,
                    &queues_after(moves, held, swaps, firsts, add),
                    set,
                );
            }
            None => {
                let add = |class, hold: u8, queues: &mut [u64; 8]| {
                    let finishes = &self.three.finishes(class)[usize::from(hold)];
                    for (q, f) in queues.iter_mut().zip(finishes) {
                        *q |= f;
                    }
                };
                gather(
                    self.space,
                    &queues_after(moves, held, swaps, firsts, add),
                    set,
                );
            }
        }
    }

    /// Into `set`: what a state with an empty slot under the hold rule wins on `field` (the
    /// moves' layer's): the unknown pieces are all seen by then, and the slot can take
    /// the first of them at once, so it wins what holding that piece wins with the rest
    /// as the queue.
    fn empty_slot(&self, field: u32, set: &mut [u64]) {
        match self.four {
            Some(four) => {
                let class = four.class(field);
                let mut after = [[0u64; 64]; 7];
                for &u in &self.space.firsts {
                    four.add_queues(
                        self.three,
                        self.hold_rule,
                        class,
                        u,
                        &mut after[usize::from(u)],
                    );
                }
                gather(self.space, &after, set);
            }
            None => {
                let finishes = self.three.finishes(self.three.class(field));
                let mut after = [[0u64; 8]; 7];
                for &u in &self.space.firsts {
                    after[usize::from(u)] = finishes[usize::from(u)];
                }
                gather(self.space, &after, set);
            }
        }
    }
}

/// Whether a state of the last depth with slot `code` reads its field's moves: every one but
/// an empty slot under the hold rule ([`Walk::empty_leaf_set`], [`ClassSets::empty_slot`]).
fn reads_links(code: u8, hold_rule: bool) -> bool {
    code != EMPTY_HOLD || !hold_rule
}

/// The held piece of a state of the last depth that reads its moves (slot `code`), and
/// whether it may be swapped for the first unknown piece.
fn held_and_swaps(code: u8, hold_rule: bool) -> (u8, bool) {
    match slot(code) {
        Slot::Held(held) => (held, hold_rule),
        Slot::JustHeld(held) => (held, false),
        Slot::Empty => (EMPTY_HOLD, false),
    }
}

/// The first word of a key of [`Walk::by_classes`]: the held piece and whether it swaps.
fn alike_head(held: u8, swaps: bool) -> u32 {
    u32::from(held) | u32::from(swaps) << 3
}

/// The states of the last depth a thread of [`Walk::leaf_sets_in_threads`] takes at a time.
const LEAF_RUN: usize = if cfg!(test) { 3 } else { 1 << 13 };

/// The fewest states of the last depth whose sets are made on threads, when the walk may
/// use more than one (fewer, a thread costs more than it saves).
const THREADED_LEAVES: usize = if cfg!(test) { 1 } else { 1 << 15 };

/// In [`RunSets::at`], the mark of a set the run made: the rest is its index there. An
/// offset in the arena stays below it (that would be 16 GiB of sets).
const MADE_IN_RUN: u32 = 1 << 31;

/// What a thread of [`Walk::leaf_sets_in_threads`] reads.
struct LeafRun<'a> {
    classes: ClassSets<'a>,
    /// The sets found before the round, by the states' hold slot and moves.
    found: &'a AHashMap<Vec<u32>, u32>,
    leaves: &'a LastLayer,
    hold_rule: bool,
    /// The graph layer of the last depth's states with an empty slot (the others' is the
    /// one above).
    empty_layer: usize,
    /// The 2-line PC field (layer, index), when it counts.
    two_line_at: Option<(usize, u32)>,
    stop: Option<&'a AtomicBool>,
    /// Words of a set.
    words: usize,
    /// Whether the arena keeps counts ([`kept_form`]), and the hasher of its sets.
    counts_only: bool,
    hasher: &'a ahash::RandomState,
}

/// The sets of a run of states of the last depth ([`LeafRun::sets`]).
struct RunSets {
    /// Each state's set: its place in the arena, [`NO_SET`], or [`MADE_IN_RUN`] and an
    /// index in `made`.
    at: Vec<u32>,
    /// The sets made, one after another, as the arena keeps them ([`kept_form`]), and where
    /// each starts (one more entry than sets).
    made: Vec<u64>,
    starts: Vec<u32>,
    /// For each set made, its hash ([`Distinct::hasher`]; none for an empty set).
    hashes: Vec<Option<u64>>,
    /// For each set made, its key in [`Walk::by_classes`] (none for an empty slot's).
    keys: Vec<Option<Vec<u32>>>,
    /// Whether the run saw the stop flag and ended early.
    stopped: bool,
}

impl LeafRun<'_> {
    /// The sets of `states`, the first of them the `index`-th of the last depth, as
    /// [`Walk::leaf_set`] finds them.
    fn sets(&self, states: &[u32], index: u32) -> RunSets {
        let mut run = RunSets {
            at: Vec::with_capacity(states.len()),
            made: Vec::new(),
            starts: vec![0],
            hashes: Vec::new(),
            keys: Vec::new(),
            stopped: false,
        };
        let mut alike: AHashMap<Vec<u32>, u32> = AHashMap::new();
        let mut key: Vec<u32> = Vec::new();
        let mut set = vec![0u64; self.words];
        let mut buffer = [0u64; MAX_WORDS];
        // A set made, as the arena keeps it.
        let mut made = |run: &mut RunSets, set: &[u64], key: Option<Vec<u32>>| {
            let hash = set.iter().any(|&w| w != 0).then(|| {
                let kept = kept_form(self.counts_only, set, &mut buffer);
                run.made.extend_from_slice(kept);
                self.hasher.hash_one(kept)
            });
            run.starts.push(run.made.len() as u32);
            run.hashes.push(hash);
            run.keys.push(key);
        };
        for (i, &s) in states.iter().enumerate() {
            if i % STOP_CHECK == 0 && self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
                run.stopped = true;
                break;
            }
            let code = code_of(s);
            let layer = self.empty_layer - usize::from(code != EMPTY_HOLD);
            if self.two_line_at == Some((layer, field_of(s))) {
                // Never read: the 2-line PC wins everything (`Walk::add_wins`).
                run.at.push(NO_SET);
                continue;
            }
            let index_made = run.keys.len() as u32 | MADE_IN_RUN;
            if !reads_links(code, self.hold_rule) {
                self.classes.empty_slot(field_of(s), &mut set);
                made(&mut run, &set, None);
                run.at.push(index_made);
                continue;
            }
            let (held, swaps) = held_and_swaps(code, self.hold_rule);
            let links = self
                .leaves
                .links(index + i as u32)
                .expect("the children of every state that reads them are prepared");
            key.clear();
            key.push(alike_head(held, swaps));
            key.extend_from_slice(links);
            if let Some(&at) = self
                .found
                .get(key.as_slice())
                .or_else(|| alike.get(key.as_slice()))
            {
                run.at.push(at);
                continue;
            }
            self.classes.alike(held, swaps, links, &mut set);
            made(&mut run, &set, Some(key.clone()));
            alike.insert(key.clone(), index_made);
            run.at.push(index_made);
        }
        run
    }
}

/// The states of one depth of a walk, sorted, and where their children are in the next.
#[derive(Default)]
struct Level {
    states: Vec<u32>,
    /// Where each state's children start in `children` (one more entry than states).
    starts: Vec<u32>,
    /// Indices of states of the next depth.
    children: Vec<u32>,
}

impl Level {
    fn children_of(&self, i: u32) -> &[u32] {
        let i = i as usize;
        &self.children[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

/// The walk over the solver's PC field graph.
pub(crate) struct GraphWalk;

impl Answerer for GraphWalk {
    fn name(&self) -> Engine {
        Engine::Graph
    }

    fn applies(&self, options: &SolverOptions, decision: &Decision) -> bool {
        options
            .graph
            .as_deref()
            .is_some_and(|g| applies(g, decision))
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

impl StateWalk for GraphWalk {
    fn walk(
        &self,
        context: &mut Context<'_>,
        decision: &Decision,
        ask: Ask<'_>,
    ) -> Result<StateValues, SolverError> {
        let graph = context.options.graph.as_deref();
        let two_line = context.options.two_line;
        let stop = context.options.stop.as_ref();
        let values = graph.and_then(|graph| {
            values(
                graph,
                &mut context.tables.graph,
                decision,
                two_line,
                ask,
                stop,
                context.options.threads,
            )
        });
        match values {
            Some(values) if values.stopped => Err(SolverError::Stopped),
            Some(values) => Ok(values),
            None => Err(SolverError::EngineDoesNotApply(Engine::Graph)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Lane `i` of `word`, lanes of `bits` bits.
    fn lane(word: u64, bits: u32, i: u32) -> u64 {
        word >> (bits * i) & ((1 << bits) - 1)
    }

    proptest! {
        #[test]
        fn the_maximum_of_lanes_is_each_lanes_maximum(
            a in proptest::collection::vec(0u64..8, 16),
            b in proptest::collection::vec(0u64..8, 16),
        ) {
            for (bits, high) in [(4, NIBBLE_HIGH), (8, BYTE_HIGH)] {
                let lanes = 64 / bits;
                let pack = |v: &[u64]| (0..lanes).fold(0u64, |w, i| w | v[i as usize] << (bits * i));
                let (x, y) = (pack(&a), pack(&b));
                let max = max_of_lanes(x, y, high);
                for i in 0..lanes {
                    prop_assert_eq!(lane(max, bits, i), lane(x, bits, i).max(lane(y, bits, i)));
                }
            }
        }

        #[test]
        fn packed_best_counts_are_the_best_counts_of_the_sets(
            sets in proptest::collection::vec(proptest::collection::vec(any::<u64>(), 3), 0..6),
            stop_early in any::<bool>(),
        ) {
            // Sets of three words whose bytes hold at most seven pieces (bit 7 never set).
            let sets: Vec<Vec<u64>> = sets
                .into_iter()
                .map(|s| s.into_iter().map(|w| w & 0x7f7f_7f7f_7f7f_7f7f).collect())
                .collect();
            // Every continuation: all a byte may hold, or (`stop_early`) only what the sets
            // hold, which a few of them may reach before the last.
            let mut full = vec![0x7f7f_7f7f_7f7f_7f7f; 3];
            if stop_early {
                full = (0..3).map(|i| sets.iter().fold(0, |w, s| w | s[i])).collect();
            }
            let mut row = vec![0 as Count; 24];
            for set in &sets {
                best_of_bytes(&mut row, set);
            }
            for counts_only in [false, true] {
                let (arena, full_packed): (Vec<u64>, Vec<u64>) = if counts_only {
                    let arena = sets.iter().flat_map(|s| counts_of(s)[..2].to_vec()).collect();
                    (arena, counts_of(&full)[..2].to_vec())
                } else {
                    (sets.concat(), full.iter().map(|&w| byte_popcounts(w)).collect())
                };
                let n = full_packed.len();
                let at: Vec<u32> = (0..sets.len() as u32).map(|i| i * n as u32).collect();
                let mut best = vec![0u64; n];
                best_packed(&arena, &at, counts_only, &full_packed, &mut best);
                let mut packed_row = vec![0 as Count; 24];
                if counts_only {
                    best_of_counts(&mut packed_row, &best);
                } else {
                    for (i, &counts) in best.iter().enumerate() {
                        best_of_byte_counts(&mut packed_row[8 * i..], counts);
                    }
                }
                prop_assert_eq!(&packed_row, &row, "counts_only {}", counts_only);
            }
        }
    }
}
