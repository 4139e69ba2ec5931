//! The exact chance of every move of a decision, walked over the graph.
//!
//! The same walk as the layered search ([`crate::engine::layered`]), with the graph's edges in
//! place of move generation and cover checks: only fields that can still make a PC are
//! ever entered. With the hold slot filled, the first `last` placements use known pieces
//! only (the hold, the current piece, the preview), so the states they reach do not depend
//! on the unknown pieces `u1..um`; each placement reveals one of them.
//!
//! * At layer `last`, a state (field, hold) places the `m` unknown pieces with the hold:
//!   its value is the set of continuations `u1..um` that make a PC, read off the sets of
//!   queues that finish its children ([`SuffixMemo`], the same for every decision).
//! * Layers `m..last` have seen every unknown piece: a state wins the union of what its
//!   moves win.
//! * Layers `1..m` have seen `k` of them: for each prefix `u1..uk`, the best move's count
//!   of continuations.
//!
//! A set of continuations has a byte for each prefix `u1..u(m-1)` the bag can give, in
//! lexicographic order, whose bits are the last pieces: the continuations sharing a
//! prefix are a run of bytes, so counts per prefix are popcounts, and unions are word
//! operations. Every continuation of a bag is equally likely.
//!
//! A full ranking walks layer by layer: the states of each layer are found from the layer
//! above, sorted and made unique, so the graph is read in order and each state once. A
//! walk that stops at the first certain move takes the first moves depth first, one at a
//! time, leaving a state as soon as its best move wins everything; both give the same
//! values (tested).

use super::children::ChildMemo;
use super::edge::NO_CHILD;
use super::edge::{edge_move, edge_piece, link, unlink};
use super::memo::GraphMemo;
use super::moves;
use super::pc_graph::PcGraph;
use super::radix::{sort_by_high_half, sort_by_low_word};
use super::suffix::SuffixMemo;
use crate::decision::{Decision, State, hold_code};
use crate::engine::answer::Answerer;
use crate::engine::context::Context;
use crate::engine::kind::Engine;
use crate::engine::walk::{Ask, StateValues, StateWalk, chances_by_walk, rank_by_walk};
use crate::error::SolverError;
use crate::field::PcField;
use crate::options::SolverOptions;
use crate::position::Move;
use ahash::AHashMap;
use pc_bag::Ratio;
use pc_srs::Piece;

/// Whether the walk answers a decision: its field is one of the graph's and a walk
/// applies ([`Decision::layers`]).
pub(crate) fn applies(graph: &PcGraph, decision: &Decision) -> bool {
    decision.layers().is_some() && graph.find(&decision.field).is_some()
}

/// The values of the states the decision's moves lead to, or `None` when the walk does
/// not answer it (see [`applies`]); `ask` says which (the walk has no state budget).
/// `memo` keeps what it learns for later decisions.
pub(crate) fn values(
    graph: &PcGraph,
    memo: &mut GraphMemo,
    decision: &Decision,
    two_line: bool,
    ask: Ask<'_>,
) -> Option<StateValues> {
    let hold_rule = decision.hold_rule;
    let layers = decision.layers()?;
    let root = Root {
        at: graph.find(&decision.field)?,
        hold: hold_code(decision.hold),
        queue: decision.queue.as_slice(),
        bag: decision.bag.bits(),
        hold_rule,
        may_hold: decision.may_hold(),
        two_line,
    };
    let next = root.at.0 + 1;
    let (only, stop_when_certain) = match ask {
        Ask::Every => (None, false),
        Ask::UntilCertain => (None, true),
        Ask::Only { states, .. } => (Some(states), true),
    };
    // The states asked for, as the graph names them (a state not in the graph cannot
    // make a PC: it is left out, valued 0).
    let wanted: Option<Vec<(u32, u8)>> = only.map(|states| {
        states
            .iter()
            .filter_map(|&(key, hold)| {
                let (layer, at) = graph.find(&PcField::from_key(key))?;
                (layer == next).then_some((at, hold))
            })
            .collect()
    });
    let walked = move_values(
        graph,
        memo,
        &root,
        (layers.unknown, layers.last_known),
        wanted.as_deref(),
        stop_when_certain,
    );
    let mut values: AHashMap<State, u64> = walked
        .values
        .into_iter()
        .map(|((child, hold), won)| ((graph.field(next, child).key(), hold), won))
        .collect();
    for &state in only.unwrap_or_default() {
        values.entry(state).or_insert(0);
    }
    Some(StateValues {
        values,
        count: walked.count,
    })
}

/// A decision as the walk sees it: a field of the graph, the hold slot, the known pieces
/// and the bag after them.
#[derive(Clone, Copy, Debug)]
struct Root<'q> {
    /// The field's layer in the graph and its index there.
    at: (usize, u32),
    /// The hold slot ([`hold_code`]).
    hold: u8,
    /// The current piece, then the preview.
    queue: &'q [Piece],
    /// Pieces left in the current bag after the queue, as bits; 0 when a fresh bag follows.
    bag: u8,
    /// Whether the hold rule is on.
    hold_rule: bool,
    /// False right after holding into an empty slot: the root's moves do not swap.
    may_hold: bool,
    /// Whether a 2-line PC on the way counts as a PC.
    two_line: bool,
}

/// The values of the root's moves: the continuations each state of layer 1 wins, of
/// `count` equally likely ones.
struct MoveValues {
    /// By (the field's index in the graph's next layer, hold slot).
    pub(crate) values: AHashMap<(u32, u8), u64>,
    /// The number of continuations.
    pub(crate) count: u64,
}

/// The values of the moves of the root, or `None` when the walk does not apply: every
/// state a move leads to, or with `only` those states, in that order; with
/// `stop_when_certain`, none after the first that wins every continuation. `memo`
/// keeps what it learns for later decisions.
fn move_values(
    graph: &PcGraph,
    memo: &mut GraphMemo,
    root: &Root<'_>,
    (m, last): (usize, usize),
    only: Option<&[(u32, u8)]>,
    stop_when_certain: bool,
) -> MoveValues {
    let mut walk = Walk::new(graph, memo, root, m, last);
    let count = walk.space.count;
    let children: Vec<(u32, u8)> = match only {
        Some(states) => states.to_vec(),
        None => walk
            .children(0, root.at.1, root.hold)
            .into_iter()
            .filter(|&(_, held)| root.may_hold || held == root.hold)
            .collect(),
    };
    let mut values = AHashMap::with_capacity(children.len());
    if stop_when_certain {
        // The first moves one at a time, depth first: a certain move is most often among
        // them, and a depth-first walk leaves a state as soon as its best move wins every
        // continuation. Then the rest at once, layer by layer.
        let (first, rest) = children.split_at(DEPTH_FIRST_MOVES.min(children.len()));
        for &child in first {
            let won = walk.value_depth_first(child);
            values.insert(child, won);
            if won == count {
                return MoveValues { values, count };
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
        let won = walk.values(&children);
        values.extend(children.iter().copied().zip(won));
    }
    MoveValues { values, count }
}

/// With `stop_when_certain`, the moves walked one at a time depth first before the rest
/// go layer by layer (the count that played 10-PC games fastest, `CHANGELOG.md`).
const DEPTH_FIRST_MOVES: usize = 2;

/// The continuations a bag can give, laid out as the module docs say.
struct Space {
    /// The number of continuations.
    count: u64,
    /// For each prefix of `m - 1` pieces (a byte of a set): the last pieces it may have.
    last_pieces: Vec<u8>,
    /// For each such prefix: its first piece and the byte of the queues of the pieces
    /// after it (base 8) that holds its last pieces (see [`Walk::leaf`]).
    gather: Vec<(u8, u8)>,
    /// For `k` in `1..m`: the prefixes of `k` pieces, as runs of prefixes of `k + 1`
    /// pieces (of bytes, for `k = m - 1`).
    runs: Vec<Vec<(u32, u32)>>,
    /// For `k` in `1..m`: the continuations after each prefix of `k` pieces.
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
        // Prefixes of each length, as runs of the sequences.
        let mut by_length: Vec<Vec<(Vec<u8>, u32, u32)>> = vec![Vec::new(); m];
        for (i, sequence) in sequences.iter().enumerate() {
            for (k, prefixes) in by_length.iter_mut().enumerate() {
                let prefix = &sequence[..k + 1];
                match prefixes.last_mut() {
                    Some((p, _, end)) if p.as_slice() == prefix => *end = i as u32 + 1,
                    _ => prefixes.push((prefix.to_vec(), i as u32, i as u32 + 1)),
                }
            }
        }
        // The bytes: prefixes of `m - 1` pieces (one empty prefix when `m = 1`).
        let bytes: Vec<(Vec<u8>, u32, u32)> = if m == 1 {
            vec![(Vec::new(), 0, sequences.len() as u32)]
        } else {
            by_length[m - 2].clone()
        };
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
            .map(|(prefix, _, _)| match prefix.len() {
                0 => (0, 0),
                1 => (prefix[0], 0),
                2 => (prefix[0], prefix[1]),
                _ => (prefix[0], prefix[1] * 8 + prefix[2]),
            })
            .collect();
        let mut runs = Vec::new();
        let mut spans = Vec::new();
        for k in 1..m {
            // Prefixes of `k` pieces as runs of the prefixes of `k + 1` (the bytes when
            // `k + 1 = m`, i.e. prefixes of `m - 1`... of `k` itself): position ranges.
            let finer: &[(Vec<u8>, u32, u32)] = if k == m - 1 { &bytes } else { &by_length[k] };
            let mut run = Vec::new();
            let mut span = Vec::new();
            for (prefix, start, end) in &by_length[k - 1] {
                let first = finer
                    .iter()
                    .position(|f| f.0.starts_with(prefix))
                    .expect("a prefix continues");
                let count = finer[first..]
                    .iter()
                    .take_while(|f| f.0.starts_with(prefix))
                    .count();
                run.push((first as u32, (first + count) as u32));
                span.push(Count::try_from(end - start).expect("at most 7^4 continuations"));
            }
            runs.push(run);
            spans.push(span);
        }
        let firsts: Vec<u8> = by_length[0].iter().map(|(p, _, _)| p[0]).collect();
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

/// The number of bits of each byte of `word`, in that byte.
#[inline]
fn byte_popcounts(word: u64) -> u64 {
    let pairs = word - (word >> 1 & 0x5555_5555_5555_5555);
    let nibbles = (pairs & 0x3333_3333_3333_3333) + (pairs >> 2 & 0x3333_3333_3333_3333);
    (nibbles + (nibbles >> 4)) & 0x0f0f_0f0f_0f0f_0f0f
}

/// Raises each prefix's best count (`row`, a prefix of `m - 1` pieces a byte of `set`) to
/// what `set` wins: a byte's popcount, taken for eight bytes at once.
fn best_of_bytes(row: &mut [Count], set: &[u64]) {
    for (i, &word) in set.iter().enumerate() {
        if word == 0 {
            continue;
        }
        let counts = byte_popcounts(word);
        for (j, best) in row[8 * i..].iter_mut().take(8).enumerate() {
            *best = (*best).max((counts >> (8 * j) & 0xff) as Count);
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

/// A number of continuations: at most `7^4` (at most four unknown pieces,
/// [`crate::decision::MAX_UNKNOWN`]), so two bytes, which halves the walk's largest table
/// (the rows of layer `m - 1`).
type Count = u16;

/// The most words of a set: a byte for each prefix of three pieces (at most `7^3`).
const MAX_WORDS: usize = 43;

/// A set's place: an offset in the walk's arena, or empty.
const EMPTY: u32 = u32::MAX;

/// The walk below one root.
struct Walk<'g, 's> {
    graph: &'g PcGraph,
    suffixes: &'s mut SuffixMemo,
    /// The root's layer in the graph.
    base: usize,
    /// The known pieces (the hold first with the hold rule), as indices.
    sequence: Vec<u8>,
    /// Where the root's current piece is in `sequence`.
    first: usize,
    hold_rule: bool,
    m: usize,
    last: usize,
    space: Space,
    /// The 2-line PC field (layer, index), when it counts and the graph has it.
    two_line_at: Option<(usize, u32)>,
    /// The last layer: where the continuations each state wins are, by state
    /// ([`state`]), kept from one batch of moves to the next.
    leaves: AHashMap<u32, u32>,
    /// Layers `1..m`, depth first: each prefix's best count, by state.
    sums: Vec<AHashMap<u32, std::rc::Rc<[Count]>>>,
    /// Where each distinct set is in the arena: many states of the last layer win the same
    /// continuations, and a small arena stays in cache.
    distinct: AHashMap<Vec<u64>, u32>,
    /// The sets, `space.words` words each.
    arena: Vec<u64>,
    /// With four unknown pieces: where the set of the states of each hold slot and moves
    /// ([`Walk::leaf_set_by_classes`]) is in the arena.
    by_classes: AHashMap<Vec<u32>, u32>,
    /// The hold slot and moves of a state being looked up there.
    alike: Vec<u32>,
    /// Every continuation.
    full: Vec<u64>,
    /// A set being made.
    scratch: Vec<u64>,
    /// The set of a state below one of layer `m - 1`.
    below: Vec<u64>,
    /// The child indices found depth first, kept from one decision to the next.
    children: &'s mut ChildMemo,
}

/// The states of the last layer of a walk, with the [`link`]s of their fields' moves when
/// prepared ([`Walk::prepare_leaves`]).
struct LastLayer {
    prepared: Option<LeafChildren>,
    /// For each state, its field's place among the prepared fields.
    at: Vec<u32>,
}

impl LastLayer {
    /// The last layer of these states (sorted), with the children prepared for them.
    fn new(states: &[u32], prepared: Option<LeafChildren>) -> LastLayer {
        let mut at = Vec::new();
        if let Some(prepared) = &prepared {
            // Both in the order of the fields.
            let mut p = 0;
            at = states
                .iter()
                .map(|&s| {
                    while prepared.fields[p] != s >> 3 {
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
        Some(prepared.links_at(self.at[i as usize] as usize))
    }
}

/// For some fields of a layer (ascending), where each one's moves start and each move as
/// a [`link`]: to its child, or with four unknown pieces to its child's class
/// ([`Walk::class_links`]).
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
    fn new(
        graph: &'g PcGraph,
        memo: &'s mut GraphMemo,
        root: &Root<'_>,
        m: usize,
        last: usize,
    ) -> Self {
        let mut sequence: Vec<u8> = Vec::new();
        if root.hold_rule {
            sequence.push(root.hold);
        }
        sequence.extend(root.queue.iter().map(|p| p.index() as u8));
        let two_line_at = root
            .two_line
            .then(|| graph.two_line_field())
            .flatten()
            .filter(|&(layer, _)| layer > root.at.0);
        let space = Space::new(root.bag, m);
        let mut full = vec![0u64; space.words];
        for (g, &last) in space.last_pieces.iter().enumerate() {
            full[g / 8] |= u64::from(last) << (8 * (g % 8));
        }
        Walk {
            graph,
            suffixes: &mut memo.suffixes,
            children: &mut memo.children,
            base: root.at.0,
            sequence,
            first: root.hold_rule as usize,
            hold_rule: root.hold_rule,
            m,
            last,
            scratch: vec![0; space.words],
            below: vec![0; space.words],
            space,
            full,
            two_line_at,
            leaves: AHashMap::new(),
            sums: (0..m).map(|_| AHashMap::new()).collect(),
            distinct: AHashMap::new(),
            arena: Vec::new(),
            by_classes: AHashMap::new(),
            alike: Vec::new(),
        }
    }

    /// The continuations won after each move of the root to a state of layer 1.
    ///
    /// Layer by layer rather than depth first: the states of each layer are found from
    /// the layer above, sorted and made unique, so that the graph's edges are read in
    /// the order they are stored and each once, and the states' children are kept as
    /// indices into the next layer's states (the graph's layers are hundreds of
    /// megabytes; these lists are a few).
    fn values(&mut self, firsts: &[(u32, u8)]) -> Vec<u64> {
        // By layer; layer 0, the root, is left empty.
        let mut levels: Vec<Level> = (0..=self.last).map(|_| Level::default()).collect();
        levels[1].states = firsts.iter().map(|&(at, held)| state(at, held)).collect();
        levels[1].states.sort_unstable();
        levels[1].states.dedup();
        for k in 1..self.last {
            let (above, below) = levels.split_at_mut(k + 1);
            self.expand(k, &mut above[k], &mut below[0]);
        }
        // The last layer's sets, in the order of the graph's fields.
        let prepared = self.prepare_leaves(&levels[self.last].states);
        let last = &levels[self.last].states;
        let leaves = LastLayer::new(last, prepared);
        let sets: Vec<u32> = (0..last.len())
            .map(|i| {
                let s = last[i];
                if self.is_two_line_pc(self.last, s >> 3) {
                    EMPTY // never read: the 2-line PC wins everything (`add_wins`)
                } else {
                    self.leaf_set(s, leaves.links(i as u32), false)
                }
            })
            .collect();
        // What finds a set again is of no more use to this batch, and the counts below
        // are the walk's largest tables: let it go (a later batch of moves finds fewer
        // sets alike, with the same values).
        self.distinct = AHashMap::new();
        self.by_classes = AHashMap::new();
        let values: Vec<u64> = if self.m == 1 {
            (0..levels[1].states.len())
                .map(|i| {
                    let mut set = vec![0u64; self.space.words];
                    self.add_wins(&levels, &sets, 1, i as u32, &mut set);
                    set.iter().map(|w| u64::from(w.count_ones())).sum()
                })
                .collect()
        } else {
            // Layers `m - 1` down to 1: each state's best count for each prefix.
            let mut below: Vec<Count> = Vec::new();
            for k in (1..self.m).rev() {
                below = self.best_counts(&levels, &sets, k, &below);
            }
            let width = self.space.spans[0].len();
            below
                .chunks_exact(width)
                .map(|row| row.iter().map(|&c| u64::from(c)).sum())
                .collect()
        };
        let level = &levels[1].states;
        firsts
            .iter()
            .map(|&(at, held)| {
                let i = level
                    .binary_search(&state(at, held))
                    .expect("a state of layer 1");
                values[i]
            })
            .collect()
    }

    /// The children of the states of layer `k` (`level`): the states of layer `k + 1`
    /// (`next`), sorted, and for each state of `level` the indices of its children.
    fn expand(&self, k: usize, level: &mut Level, next: &mut Level) {
        // (child state, parent index) as one word, the child in the high half, sorted by
        // the child.
        let pairs = if self.graph.layers[self.base + k].children.is_empty() {
            self.children_by_key(k, level)
        } else {
            let mut pairs: Vec<u64> = Vec::new();
            for (i, &s) in level.states.iter().enumerate() {
                if self.is_two_line_pc(k, s >> 3) {
                    continue; // a PC already: nothing below it is looked at
                }
                for (at, held) in self.indexed_children(k, s >> 3, (s & 7) as u8) {
                    pairs.push(u64::from(state(at, held)) << 32 | i as u64);
                }
            }
            sort_by_high_half(&mut pairs);
            pairs
        };
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

    /// [`Walk::expand`]'s pairs for a layer whose children are found by key: every
    /// child's key with its hold slot and parent, sorted by the key (which is the order of
    /// the next layer's fields), then each distinct key's index found by searching on from
    /// the last one.
    fn children_by_key(&self, k: usize, level: &Level) -> Vec<u64> {
        let layer = &self.graph.layers[self.base + k];
        let next = &self.graph.layers[self.base + k + 1];
        let current = self.sequence[k + self.first];
        let mut keyed: Vec<(u64, u32)> = Vec::new();
        for (i, &s) in level.states.iter().enumerate() {
            let (field, held) = (s >> 3, (s & 7) as u8);
            if self.is_two_line_pc(k, field) {
                continue; // a PC already: nothing below it is looked at
            }
            let swap = self.hold_rule && held != current;
            let key = layer.keys[field as usize];
            for &e in layer.edges(field) {
                let piece = edge_piece(e) as u8;
                let Some(hold_after) = hold_after(piece, current, held, swap) else {
                    continue;
                };
                if let Some(child) = edge_move(e).and_then(|m| moves::child(key, m)) {
                    keyed.push((child << 3 | u64::from(hold_after), i as u32));
                }
            }
        }
        // In the order of the keys, which is the order of the next layer's fields: each
        // key's index is found by searching on from the last one's.
        sort_by_low_word(&mut keyed, 43 + 3);
        let mut pairs: Vec<u64> = Vec::with_capacity(keyed.len());
        let (mut from, mut last) = (0usize, None);
        for &(word, parent) in &keyed {
            let key = word >> 3;
            if last.map(|(k, _)| k) != Some(key) {
                let at = next.find_from(key, from);
                from = at.unwrap_or_else(|at| at);
                last = Some((key, at.ok()));
            }
            if let Some((_, Some(at))) = last {
                pairs.push(u64::from(state(at as u32, (word & 7) as u8)) << 32 | u64::from(parent));
            }
        }
        pairs
    }

    /// Finds, in one pass, the moves and child indices ([`link`]s) of the distinct fields
    /// of the last layer's states (sorted), for [`Walk::leaf_set`] (with four unknown
    /// pieces, the children's classes); `None` when the layer keeps its children or is the
    /// graph's last.
    fn prepare_leaves(&self, states: &[u32]) -> Option<LeafChildren> {
        let layer_at = self.base + self.last;
        let layer = self.graph.layers.get(layer_at)?;
        let next = self.graph.layers.get(layer_at + 1)?;
        if !layer.children.is_empty() {
            return None;
        }
        let mut fields: Vec<u32> = states.iter().map(|&s| s >> 3).collect();
        fields.dedup();
        let mut starts = Vec::with_capacity(fields.len() + 1);
        let mut wanted: Vec<u64> = Vec::new();
        let mut pieces: Vec<u8> = Vec::new();
        for &field in &fields {
            starts.push(wanted.len() as u32);
            let key = layer.keys[field as usize];
            for &e in layer.edges(field) {
                let child = edge_move(e)
                    .and_then(|m| moves::child(key, m))
                    .unwrap_or(u64::MAX >> 3);
                wanted.push(child);
                pieces.push(edge_piece(e) as u8);
            }
        }
        starts.push(wanted.len() as u32);
        let mut children = vec![NO_CHILD; wanted.len()];
        next.find_many(&wanted, &mut children);
        drop(wanted);
        let links: Vec<u32> = pieces
            .iter()
            .zip(children)
            .map(|(&piece, child)| link(piece, child))
            .collect();
        if self.m != 4 {
            return Some(LeafChildren {
                fields,
                starts,
                links,
            });
        }
        // With four unknown pieces, the children's classes are all a leaf reads.
        let mut by_class = LeafChildren {
            fields,
            starts: Vec::with_capacity(starts.len()),
            links: Vec::with_capacity(links.len()),
        };
        for field in starts.windows(2) {
            by_class.starts.push(by_class.links.len() as u32);
            self.class_links(
                &links[field[0] as usize..field[1] as usize],
                &mut by_class.links,
            );
        }
        by_class.starts.push(by_class.links.len() as u32);
        Some(by_class)
    }

    /// Appends to `out` the moves of `links` as [`link`]s to the classes of their children
    /// ([`ThreeLeft`](super::three_left::ThreeLeft)), sorted and without repeats.
    fn class_links(&self, links: &[u32], out: &mut Vec<u32>) {
        let three = self
            .graph
            .three_left
            .as_ref()
            .expect("a graph with a last layer four pieces from a PC has its classes");
        let from = out.len();
        out.extend(
            links
                .iter()
                .filter_map(|&l| unlink(l))
                .map(|(piece, child)| link(piece, three.class(child))),
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

    /// Adds the continuations state `i` of layer `k >= m` wins to `out`, stopping once
    /// `out` holds every continuation (then true). Only the last layer's sets are kept:
    /// a state of layers `m..last` is walked once per parent, which costs less than keeping
    /// a set for each state of layer `m + 1` (`CHANGELOG.md` has the counts).
    fn add_wins(&self, levels: &[Level], sets: &[u32], k: usize, i: u32, out: &mut [u64]) -> bool {
        let level = &levels[k];
        if self.is_two_line_pc(k, level.states[i as usize] >> 3) {
            out.copy_from_slice(&self.full);
            true
        } else if k == self.last {
            self.add_set(sets[i as usize], out)
        } else {
            level
                .children_of(i)
                .iter()
                .any(|&child| self.add_wins(levels, sets, k + 1, child, out))
        }
    }

    /// Adds the set at `at` in the arena ([`EMPTY`]: none) to `out`; whether `out` then
    /// holds every continuation (false for [`EMPTY`]: the caller stopped adding once it
    /// did).
    fn add_set(&self, at: u32, out: &mut [u64]) -> bool {
        if at == EMPTY {
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

    /// Where the continuations a state of the last layer wins are, in the arena, given
    /// the [`link`]s of its field's moves when they were prepared
    /// ([`Walk::prepare_leaves`]); kept for the states met again when `remember` holds.
    fn leaf_set(&mut self, s: u32, prepared: Option<&[u32]>, remember: bool) -> u32 {
        if let Some(&at) = self.leaves.get(&s) {
            return at;
        }
        let (layer, field, held) = (self.base + self.last, s >> 3, (s & 7) as u8);
        let found: Vec<u32>;
        let links = match prepared {
            Some(links) => links,
            None => {
                let links = self.links(layer, field);
                found = if self.m == 4 {
                    let mut by_class = Vec::with_capacity(links.len());
                    self.class_links(&links, &mut by_class);
                    by_class
                } else {
                    links
                };
                &found
            }
        };
        let at = if self.m == 4 {
            self.leaf_set_by_classes(held, links)
        } else {
            let mut set = std::mem::take(&mut self.scratch);
            set.iter_mut().for_each(|w| *w = 0);
            self.leaf(layer, field, held, links, &mut set);
            let at = self.keep(&set);
            self.scratch = set;
            at
        };
        if remember {
            self.leaves.insert(s, at);
        }
        at
    }

    /// [`Walk::leaf_set`] with four unknown pieces to place, from the state's hold slot and
    /// its moves as links to their children's classes ([`Walk::class_links`]): what a
    /// state wins follows from these alone, so states alike share one set, found by them.
    fn leaf_set_by_classes(&mut self, held: u8, class_links: &[u32]) -> u32 {
        let three = self
            .graph
            .three_left
            .as_ref()
            .expect("a graph with a last layer four pieces from a PC has its classes");
        let mut alike = std::mem::take(&mut self.alike);
        alike.clear();
        alike.push(u32::from(held));
        alike.extend_from_slice(class_links);
        let at = match self.by_classes.get(alike.as_slice()) {
            Some(&at) => at,
            None => {
                let after = queues_after(
                    class_links.iter().filter_map(|&l| unlink(l)),
                    held,
                    self.hold_rule,
                    &self.space.firsts,
                    |class, hold, queues| {
                        let finishes = &three.finishes(class)[usize::from(hold)];
                        for (q, f) in queues.iter_mut().zip(finishes) {
                            *q |= f;
                        }
                    },
                );
                let mut set = std::mem::take(&mut self.scratch);
                self.gather(&after, &mut set);
                let at = self.keep(&set);
                self.scratch = set;
                self.by_classes.insert(alike.clone(), at);
                at
            }
        };
        self.alike = alike;
        at
    }

    /// Where set `set` is in the arena, put there if it is new ([`EMPTY`] for no
    /// continuation).
    fn keep(&mut self, set: &[u64]) -> u32 {
        if set.iter().all(|&w| w == 0) {
            EMPTY
        } else if let Some(&at) = self.distinct.get(set) {
            at
        } else {
            let at = self.arena.len() as u32;
            self.arena.extend_from_slice(set);
            self.distinct.insert(set.to_vec(), at);
            at
        }
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

    /// The continuations won after a move of the root to `child` (a state of layer 1),
    /// depth first: the same values as [`Walk::values`], with the sets of the last layer
    /// and the rows of layers `1..m` kept for the next moves.
    fn value_depth_first(&mut self, child: (u32, u8)) -> u64 {
        if self.m == 1 {
            let mut set = vec![0u64; self.space.words];
            self.add_wins_depth_first(1, child, &mut set);
            set.iter().map(|w| u64::from(w.count_ones())).sum()
        } else {
            let row = self.sums_depth_first(1, child);
            row.iter().map(|&c| u64::from(c)).sum()
        }
    }

    /// [`Walk::add_wins`] depth first: true once every continuation is won.
    fn add_wins_depth_first(
        &mut self,
        k: usize,
        (field, held): (u32, u8),
        out: &mut [u64],
    ) -> bool {
        if self.is_two_line_pc(k, field) {
            out.copy_from_slice(&self.full);
            true
        } else if k == self.last {
            let at = self.leaf_set(state(field, held), None, true);
            self.add_set(at, out)
        } else {
            self.children(k, field, held)
                .into_iter()
                .any(|child| self.add_wins_depth_first(k + 1, child, out))
        }
    }

    /// [`Walk::best_counts`] for one state, depth first, stopping once every prefix is
    /// won whatever comes.
    fn sums_depth_first(&mut self, k: usize, (field, held): (u32, u8)) -> std::rc::Rc<[Count]> {
        let key = state(field, held);
        if let Some(row) = self.sums[k].get(&key) {
            return row.clone();
        }
        let spans = self.space.spans[k - 1].clone();
        let row: Vec<Count> = if self.is_two_line_pc(k, field) {
            spans
        } else {
            let mut row: Vec<Count> = vec![0; spans.len()];
            for child in self.children(k, field, held) {
                if k + 1 == self.m {
                    let mut set = std::mem::take(&mut self.below);
                    set.iter_mut().for_each(|w| *w = 0);
                    self.add_wins_depth_first(k + 1, child, &mut set);
                    best_of_bytes(&mut row, &set);
                    self.below = set;
                } else {
                    let below = self.sums_depth_first(k + 1, child);
                    best_of_runs(&mut row, &below, &self.space.runs[k - 1]);
                }
                if row == spans {
                    break;
                }
            }
            row
        };
        let row: std::rc::Rc<[Count]> = row.into();
        self.sums[k].insert(key, row.clone());
        row
    }

    /// The states of layer `k + 1` that the moves of a state of layer `k` lead to, for a
    /// layer whose child indices are stored ([`super::Layer::children`]).
    fn indexed_children(
        &self,
        k: usize,
        field: u32,
        held: u8,
    ) -> impl Iterator<Item = (u32, u8)> + 'g {
        let graph = self.graph;
        let layer = self.base + k;
        let edges = graph.layers[layer].edges(field);
        let current = self.sequence[k + self.first];
        let swap = self.hold_rule && held != current;
        edges.iter().enumerate().filter_map(move |(j, &e)| {
            let piece = edge_piece(e) as u8;
            let hold_after = hold_after(piece, current, held, swap)?;
            Some((graph.child(layer, field, j)?, hold_after))
        })
    }

    /// The states of layer `k + 1` that the moves of a state of layer `k` lead to, their
    /// indices found once ([`ChildMemo`]).
    fn children(&mut self, k: usize, field: u32, held: u8) -> Vec<(u32, u8)> {
        let layer = self.base + k;
        let edges = self.graph.layers[layer].edges(field);
        let current = self.sequence[k + self.first];
        let swap = self.hold_rule && held != current;
        let found = self.children.of(self.graph, layer, field, |_, e| {
            let piece = edge_piece(e) as u8;
            hold_after(piece, current, held, swap).is_some()
        });
        let mut children = Vec::new();
        for (&e, &child) in edges.iter().zip(found) {
            let piece = edge_piece(e) as u8;
            let Some(hold_after) = hold_after(piece, current, held, swap) else {
                continue;
            };
            if child != NO_CHILD {
                children.push((child, hold_after));
            }
        }
        children
    }

    /// Whether a state of layer `k` is the 2-line PC, when that counts.
    fn is_two_line_pc(&self, k: usize, field: u32) -> bool {
        self.two_line_at == Some((self.base + k, field))
    }

    /// The continuations a state of the last layer wins, with one to three unknown pieces
    /// to place: for each first unknown piece, the queues of the rest that finish what
    /// placing it (or the held piece) leaves. `links`: the [`link`]s of the field's moves.
    fn leaf(&mut self, layer: usize, field: u32, held: u8, links: &[u32], set: &mut [u64]) {
        let graph = self.graph;
        let m = self.m;
        if m == 1 {
            let fits = self.suffixes.small(&graph.layers, layer, field, held, 1);
            set[0] = fits & u64::from(self.space.last_pieces[0]);
            return;
        }
        let suffixes = &mut self.suffixes;
        let after = queues_after(
            links.iter().filter_map(|&l| unlink(l)),
            held,
            self.hold_rule,
            &self.space.firsts,
            |child, hold, queues| {
                queues[0] |= suffixes.small(&graph.layers, layer + 1, child, hold, m - 1)
            },
        );
        self.gather(&after, set);
    }

    /// A state's set from the queues after each first piece (`after`, base 8): a set's
    /// byte `g` is the byte of its prefix among the queues after its first piece.
    fn gather(&self, after: &[[u64; 8]; 7], set: &mut [u64]) {
        // Byte by byte into a buffer, then into the set's words.
        let mut bytes = [0u8; 8 * MAX_WORDS];
        for &(first, start, end) in &self.space.blocks {
            let source = &after[first as usize];
            if source.iter().all(|&w| w == 0) {
                continue;
            }
            let mut from = [0u8; 64];
            for (chunk, word) in from.chunks_exact_mut(8).zip(source) {
                chunk.copy_from_slice(&word.to_le_bytes());
            }
            let range = start as usize..end as usize;
            for ((byte, &(_, at)), &last) in bytes[range.clone()]
                .iter_mut()
                .zip(&self.space.gather[range.clone()])
                .zip(&self.space.last_pieces[range])
            {
                *byte = from[usize::from(at & 63)] & last;
            }
        }
        for (word, chunk) in set.iter_mut().zip(bytes.chunks_exact(8)) {
            *word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        }
    }

    /// For every state of layer `1 <= k < m`, each prefix's continuations won by the best
    /// move, one row after another, from the rows of layer `k + 1` (`below`; none for
    /// `k + 1 = m`).
    fn best_counts(
        &mut self,
        levels: &[Level],
        sets: &[u32],
        k: usize,
        below: &[Count],
    ) -> Vec<Count> {
        let spans = &self.space.spans[k - 1];
        let width = spans.len();
        let level = &levels[k];
        let mut rows: Vec<Count> = vec![0; width * level.states.len()];
        let mut set = std::mem::take(&mut self.below);
        for (i, row) in rows.chunks_exact_mut(width).enumerate() {
            if self.is_two_line_pc(k, level.states[i] >> 3) {
                row.copy_from_slice(spans);
                continue;
            }
            for &child in level.children_of(i as u32) {
                if k + 1 == self.m {
                    set.iter_mut().for_each(|w| *w = 0);
                    self.add_wins(levels, sets, k + 1, child, &mut set);
                    best_of_bytes(row, &set);
                } else {
                    let width_below = self.space.spans[k].len();
                    let from = child as usize * width_below;
                    let child_row = &below[from..from + width_below];
                    best_of_runs(row, child_row, &self.space.runs[k - 1]);
                }
                if row == spans.as_slice() {
                    break;
                }
            }
        }
        self.below = set;
        rows
    }
}

/// For each first unknown piece, the queues of the pieces after it (base 8), from the
/// moves (piece, child) of a state of the last layer holding `held`: placing the first
/// unknown piece keeps the hold; with the hold rule (`swaps`), placing the held piece
/// holds the first unknown piece instead, whichever of `firsts` it is. `add(child, hold,
/// queues)` adds the queues that finish `child` with `hold` in the slot.
fn queues_after<C: Copy>(
    moves: impl Iterator<Item = (u8, C)>,
    held: u8,
    swaps: bool,
    firsts: &[u8],
    mut add: impl FnMut(C, u8, &mut [u64; 8]),
) -> [[u64; 8]; 7] {
    let mut after = [[0u64; 8]; 7];
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

/// The hold slot after a state holding `held`, with `current` to place, places `piece`
/// (`swap`: hold may be pressed and gives another piece), or `None` when it cannot place it.
fn hold_after(piece: u8, current: u8, held: u8, swap: bool) -> Option<u8> {
    if piece == current {
        Some(held)
    } else if swap && piece == held {
        Some(current)
    } else {
        None
    }
}

/// A state of a layer as one word: its field's index, and the hold slot in the low three
/// bits (an index is below [`super::MAX_FIELDS`], `2^28`).
#[inline]
fn state(at: u32, held: u8) -> u32 {
    at << 3 | u32::from(held)
}

/// The states of one layer of a walk, sorted, and where their children are in the next.
#[derive(Default)]
struct Level {
    states: Vec<u32>,
    /// Where each state's children start in `children` (one more entry than states).
    starts: Vec<u32>,
    /// Indices of states of the next layer.
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
    ) -> Result<Vec<(Move, Ratio)>, SolverError> {
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
        graph
            .and_then(|graph| values(graph, &mut context.tables.graph, decision, two_line, ask))
            .ok_or(SolverError::EngineDoesNotApply(Engine::Graph))
    }
}
