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

use super::suffix::{NO_HOLD, SuffixMemo};
use super::{PcGraph, edge_child, edge_piece};
use ahash::AHashMap;
use pc_srs::Piece;

/// The most unknown pieces the walk handles.
pub(crate) const MAX_UNKNOWN: usize = 4;

/// A decision as the walk sees it: a field of the graph, the hold slot, the known pieces
/// and the bag after them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Root<'q> {
    /// The field's layer in the graph and where its record starts.
    pub(crate) at: (usize, u32),
    /// The hold slot (a piece index, [`NO_HOLD`] for empty).
    pub(crate) hold: u8,
    /// The current piece, then the preview.
    pub(crate) queue: &'q [Piece],
    /// Pieces left in the current bag after the queue, as bits; 0 when a fresh bag follows.
    pub(crate) bag: u8,
    /// Whether the hold rule is on.
    pub(crate) hold_rule: bool,
    /// False right after holding into an empty slot: the root's moves do not swap.
    pub(crate) can_hold: bool,
    /// Whether a 2-line PC on the way counts as a PC.
    pub(crate) two_line: bool,
}

/// The values of the root's moves: the continuations each state of layer 1 wins, of
/// `count` equally likely ones.
pub(crate) struct MoveValues {
    /// By (where the field's record starts in the graph's next layer, hold slot).
    pub(crate) values: AHashMap<(u32, u8), u64>,
    /// The number of continuations.
    pub(crate) count: u64,
}

/// The shape of a decision: unknown pieces `m` and the last layer of known pieces, or
/// `None` when the walk does not answer it.
fn shape(graph: &PcGraph, root: &Root<'_>) -> Option<(usize, usize)> {
    let needed = graph.layers.len() - 1 - root.at.0;
    let in_view = root.queue.len();
    let known = if root.hold_rule {
        // The walk needs the slot filled (see the module docs).
        if root.hold == NO_HOLD {
            return None;
        }
        in_view + 1
    } else {
        in_view
    };
    let last = in_view;
    let used = needed + root.hold_rule as usize;
    let m = used.checked_sub(known)?;
    ((1..=MAX_UNKNOWN).contains(&m) && m <= last && last < needed).then_some((m, last))
}

/// Whether the walk answers this decision.
pub(crate) fn applies(graph: &PcGraph, root: &Root<'_>) -> bool {
    shape(graph, root).is_some()
}

/// The values of the moves of the root, or `None` when the walk does not apply: every
/// state a move leads to, or with `only` those states, in that order; with
/// `stop_when_certain`, none after the first that wins every continuation. `suffixes`
/// keeps what it learns for later decisions.
pub(crate) fn move_values(
    graph: &PcGraph,
    suffixes: &mut SuffixMemo,
    root: &Root<'_>,
    only: Option<&[(u32, u8)]>,
    stop_when_certain: bool,
) -> Option<MoveValues> {
    let (m, last) = shape(graph, root)?;
    let mut walk = Walk::new(graph, suffixes, root, m, last);
    let count = walk.space.count;
    let children: Vec<(u32, u8)> = match only {
        Some(states) => states.to_vec(),
        None => walk
            .children(0, root.at.1, root.hold)
            .filter(|&(_, held)| root.can_hold || held == root.hold)
            .collect(),
    };
    let mut values = AHashMap::with_capacity(children.len());
    for child in children {
        let won = walk.move_value(child);
        values.insert(child, won);
        if stop_when_certain && won == count {
            break;
        }
    }
    Some(MoveValues { values, count })
}

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
    spans: Vec<Vec<u32>>,
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
            let drawable = crate::engine::known::drawable(bag);
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
                span.push(end - start);
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
    /// The last layer: where the continuations each state wins are, by
    /// `8 * field + hold`.
    leaves: AHashMap<u64, u32>,
    /// The sets, `space.words` words each.
    arena: Vec<u64>,
    /// Layers `1..m`: each prefix's best count, by `8 * field + hold`.
    sums: Vec<AHashMap<u64, std::rc::Rc<[u32]>>>,
    /// Every continuation.
    full: Vec<u64>,
    /// A set being made.
    scratch: Vec<u64>,
    /// The set of a state below one of layer `m - 1`.
    below: Vec<u64>,
}

impl<'g, 's> Walk<'g, 's> {
    fn new(
        graph: &'g PcGraph,
        suffixes: &'s mut SuffixMemo,
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
            suffixes,
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
            arena: Vec::new(),
            sums: (0..m).map(|_| AHashMap::new()).collect(),
        }
    }

    /// The continuations won after a move of the root to `child` (a state of layer 1).
    fn move_value(&mut self, child: (u32, u8)) -> u64 {
        if self.m == 1 {
            let mut set = vec![0u64; self.space.words];
            self.add_wins(1, child, &mut set);
            set.iter().map(|w| u64::from(w.count_ones())).sum()
        } else {
            self.sums(1, child).iter().map(|&c| u64::from(c)).sum()
        }
    }

    /// The states of layer `k + 1` that the moves of a state of layer `k` lead to.
    fn children(&self, k: usize, field: u32, held: u8) -> impl Iterator<Item = (u32, u8)> + 'g {
        let edges = self.graph.layers[self.base + k].edges(field);
        let current = self.sequence[k + self.first];
        let swap = self.hold_rule && held != current;
        edges.iter().filter_map(move |&e| {
            let piece = edge_piece(e) as u8;
            if piece == current {
                Some((edge_child(e), held))
            } else if swap && piece == held {
                Some((edge_child(e), current))
            } else {
                None
            }
        })
    }

    /// Whether a state of layer `k` is the 2-line PC, when that counts.
    fn is_two_line_pc(&self, k: usize, field: u32) -> bool {
        self.two_line_at == Some((self.base + k, field))
    }

    /// Stores a set, or nothing when it is empty.
    fn store(&mut self, set: &[u64]) -> u32 {
        if set.iter().all(|&w| w == 0) {
            return EMPTY;
        }
        let at = self.arena.len();
        self.arena.extend_from_slice(set);
        at as u32
    }

    /// Adds the continuations a state of layer `k >= m` wins to `out`. Only the last
    /// layer's sets are remembered: the states above it are rarely met twice (each has
    /// one parent, measured), while a state of the last layer has several.
    fn add_wins(&mut self, k: usize, (field, held): (u32, u8), out: &mut [u64]) {
        if self.is_two_line_pc(k, field) {
            out.copy_from_slice(&self.full);
        } else if k == self.last {
            let at = self.leaf_set(field, held);
            if at != EMPTY {
                let at = at as usize;
                for (w, c) in out.iter_mut().zip(&self.arena[at..at + self.space.words]) {
                    *w |= c;
                }
            }
        } else {
            for child in self.children(k, field, held) {
                self.add_wins(k + 1, child, out);
                if out == self.full.as_slice() {
                    break;
                }
            }
        }
    }

    /// Where the continuations a state of the last layer wins are.
    fn leaf_set(&mut self, field: u32, held: u8) -> u32 {
        let key = u64::from(field) << 3 | u64::from(held);
        if let Some(&at) = self.leaves.get(&key) {
            return at;
        }
        let mut set = std::mem::take(&mut self.scratch);
        set.iter_mut().for_each(|w| *w = 0);
        self.leaf(self.base + self.last, field, held, &mut set);
        let at = self.store(&set);
        self.scratch = set;
        self.leaves.insert(key, at);
        at
    }

    /// The continuations a state of the last layer wins: for each first unknown piece,
    /// the queues of the rest that finish what placing it (or the held piece) leaves.
    fn leaf(&mut self, layer: usize, field: u32, held: u8, set: &mut [u64]) {
        let graph = self.graph;
        let m = self.m;
        if m == 1 {
            let fits = self.suffixes.small(graph, layer, field, held, 1);
            set[0] = fits & u64::from(self.space.last_pieces[0]);
            return;
        }
        // The queues of the pieces after the first, by first piece (base 8).
        let mut after = [[0u64; 8]; 7];
        let edges = graph.layers[layer].edges(field);
        let swaps = self.hold_rule;
        for &e in edges {
            let piece = edge_piece(e) as u8;
            let child = edge_child(e);
            if m == 4 {
                // The first unknown piece placed (the hold stays): its block.
                let kept = self.suffixes.three(graph, layer + 1, child, held);
                for (a, s) in after[piece as usize].iter_mut().zip(kept) {
                    *a |= s;
                }
                // The held piece placed: every other first piece goes to hold.
                if swaps && piece == held {
                    let every = self.suffixes.three_every_hold(graph, layer + 1, child);
                    for &u in &self.space.firsts {
                        if u != held {
                            for (a, s) in after[u as usize].iter_mut().zip(&every[u as usize]) {
                                *a |= s;
                            }
                        }
                    }
                }
            } else {
                after[piece as usize][0] |=
                    self.suffixes.small(graph, layer + 1, child, held, m - 1);
                if swaps && piece == held {
                    for &u in &self.space.firsts {
                        if u != held {
                            after[u as usize][0] |=
                                self.suffixes.small(graph, layer + 1, child, u, m - 1);
                        }
                    }
                }
            }
        }
        // Byte by byte into a buffer, then into the set's words: a set's byte `g` is the
        // byte of its prefix among the queues after its first piece.
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
            for g in start as usize..end as usize {
                bytes[g] = from[self.space.gather[g].1 as usize] & self.space.last_pieces[g];
            }
        }
        for (word, chunk) in set.iter_mut().zip(bytes.chunks_exact(8)) {
            *word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        }
    }

    /// For a state of layer `1 <= k < m`, each prefix's continuations won by the best move.
    fn sums(&mut self, k: usize, (field, held): (u32, u8)) -> std::rc::Rc<[u32]> {
        let key = u64::from(field) << 3 | u64::from(held);
        if let Some(row) = self.sums[k].get(&key) {
            return row.clone();
        }
        let spans = self.space.spans[k - 1].clone();
        let row: Vec<u32> = if self.is_two_line_pc(k, field) {
            spans
        } else {
            let mut row = vec![0u32; spans.len()];
            for child in self.children(k, field, held) {
                if k + 1 == self.m {
                    let mut set = std::mem::take(&mut self.below);
                    set.iter_mut().for_each(|w| *w = 0);
                    self.add_wins(k + 1, child, &mut set);
                    // A prefix of `m - 1` pieces is one byte of the set: its count is the
                    // byte's popcount, taken for eight bytes at once.
                    for (i, &word) in set.iter().enumerate() {
                        if word == 0 {
                            continue;
                        }
                        let counts = byte_popcounts(word);
                        for (j, best) in row[8 * i..].iter_mut().take(8).enumerate() {
                            *best = (*best).max((counts >> (8 * j) & 0xff) as u32);
                        }
                    }
                    self.below = set;
                } else {
                    let below = self.sums(k + 1, child);
                    for (best, &(start, end)) in row.iter_mut().zip(&self.space.runs[k - 1]) {
                        let count: u32 = below[start as usize..end as usize].iter().sum();
                        *best = (*best).max(count);
                    }
                }
                if row == spans {
                    break;
                }
            }
            row
        };
        let row: std::rc::Rc<[u32]> = row.into();
        self.sums[k].insert(key, row.clone());
        row
    }
}
