//! The graph's answer when unknown pieces are placed before the last of them shows: a
//! few pieces into a PC with one to four pieces in view (the current one and the
//! preview), more pieces unknown than that.
//!
//! [`super::search`] needs every unknown piece revealed before the first of them is
//! placed. Here the pieces in view are a *window* of `w` pieces that slides on by one at
//! every placement. What a state (a field and the held piece) wins depends on its window
//! and on the bag; so a state is valued for many windows at once, in a *row*: for a field,
//! a held piece, the bag before the window and the window's first `j` pieces (the *known*
//! ones: the pieces in view at the root that are still in the window, or the first piece
//! alone), each way the rest of the window can read (`7^(w-j)` entries, base 7) gets the
//! number of continuations won with best play. A row is the best over the moves of the
//! window's first piece (or of the held one, the first going to hold) of what the child
//! wins, summed over the piece revealed next, which the child's rows give:
//!
//! ```text
//! row(f, h, bag, a1..aj)[a(j+1)..aw] = max over moves (f, h) -> (c, h') of a1 (or of h)
//!     sum over x the bag gives after a1..aw of row(c, h', bag + a1, a2..aj)[a(j+1)..aw, x]
//! ```
//!
//! (with `j = 1` the child's known piece is `a2`, or `x` when the window is one piece.)
//! A field `w` pieces from a PC is finished by its window alone, or not
//! ([`super::three_left`]'s and [`super::four_left`]'s classes, or [`SuffixMemo`]'s sets).
//! Rows depend on nothing of the decision but the rule of hold and whether a 2-line PC
//! counts, and a state met from many parents (or windows) is valued once. Every
//! continuation of the bag is equally likely; the values are those of the depth-first
//! search (tested), reached without its cuts but without its one decision at a time.

use super::edge::{NO_CHILD, edge_piece, unlink};
use super::four_left::FourLeft;
use super::memo::GraphMemo;
use super::pc_graph::PcGraph;
use super::suffix::SuffixMemo;
use super::three_left::ThreeLeft;
use crate::decision::{Decision, EMPTY_HOLD, State, drawable, pieces_in};
use crate::engine::walk::{Ask, StateValues};
use ahash::AHashMap;
use smallvec::SmallVec;
use std::rc::Rc;

/// The most pieces in view a window takes: the rows of a longer one would have `7^4`
/// entries.
pub(crate) const MAX_WINDOW: usize = 4;

/// The most unknown pieces a window walk takes.
pub(crate) const MAX_WINDOW_UNKNOWN: usize = 5;

/// How the window walk sees a decision, when it answers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    /// Pieces in view: the window's length.
    w: usize,
    /// Pieces a PC may use that are not in view.
    unknown: usize,
}

/// The shape of a decision the window walk answers: the hold slot filled (or no hold
/// rule, or right after a hold into the empty slot), one to [`MAX_WINDOW`] pieces in view,
/// and more unknown pieces than that, up to [`MAX_WINDOW_UNKNOWN`] (fewer are
/// [`super::search`]'s).
fn shape(decision: &Decision) -> Option<Shape> {
    if decision.hold_rule && decision.hold.is_none() {
        return None;
    }
    let w = decision.queue.len();
    let needed = decision.field.pieces_needed() as usize;
    // With hold, the held piece and the window are known and one piece more is used.
    let unknown = needed.checked_sub(w)?;
    ((1..=MAX_WINDOW).contains(&w) && unknown > w && unknown <= MAX_WINDOW_UNKNOWN)
        .then_some(Shape { w, unknown })
}

/// Whether the window walk takes decisions of this shape ([`shape`]): a graph built from
/// the empty field answers those on its fields.
pub(crate) fn takes(decision: &Decision) -> bool {
    shape(decision).is_some()
}

/// Whether the window walk answers the decision: its shape ([`shape`]) on one of the
/// graph's fields, and the graph has what finishes a field `w` pieces from a PC.
pub(crate) fn applies(graph: &PcGraph, decision: &Decision) -> bool {
    shape(decision).is_some_and(|s| finishes_known(graph, s.w))
        && graph.find(&decision.field).is_some()
}

/// Whether the graph can tell what finishes its fields `w` pieces from a PC: with three or
/// four, from the classes of the fields three pieces from a PC (and of those four pieces
/// from one, made from them).
fn finishes_known(graph: &PcGraph, w: usize) -> bool {
    w < 3
        || graph
            .three_left
            .as_ref()
            .is_some_and(|three| three.layer + 3 + 1 == graph.layers.len())
}

/// The continuations each state after a move of the decision wins (the states `ask`
/// names), or `None` when the window walk does not answer it ([`applies`]). With four
/// pieces in view it makes the graph's classes four pieces from a PC if they are not
/// yet ([`PcGraph::prepare_five_unknown`]: seconds); with three it reads them when made.
pub(crate) fn values(
    graph: &PcGraph,
    memo: &mut GraphMemo,
    decision: &Decision,
    two_line: bool,
    ask: Ask<'_>,
) -> Option<StateValues> {
    let four = if decision.queue.len() == 4 {
        graph.four_left()
    } else {
        graph.four_left.get().flatten()
    };
    values_with(graph, four, memo, decision, two_line, ask)
}

/// [`values`], reading the classes four pieces from a PC `four` when given (needed with
/// four pieces in view).
fn values_with(
    graph: &PcGraph,
    four: Option<&FourLeft>,
    memo: &mut GraphMemo,
    decision: &Decision,
    two_line: bool,
    ask: Ask<'_>,
) -> Option<StateValues> {
    let shape = shape(decision)?;
    if !finishes_known(graph, shape.w) || (shape.w == 4 && four.is_none()) {
        return None;
    }
    let (layer, field) = graph.find(&decision.field)?;
    let mut walk = Window::new(graph, four, memo, shape.w, decision.hold_rule, two_line);
    let window: Vec<u8> = decision
        .queue
        .as_slice()
        .iter()
        .map(|p| p.index() as u8)
        .collect();
    let after = bag_key(decision.bag.bits());
    // The bag before the second piece in view, from the bag after the last.
    let before_second = window[1..]
        .iter()
        .rev()
        .fold(after, |bag, &piece| undraw(bag, piece));
    let count = continuations(after, shape.unknown);
    // After a move, the rest of the window is known: no piece of it to value for.
    let rest = [Tail {
        entry: 0,
        pieces: [0; MAX_WINDOW - 1],
        next: drawable(after),
    }];
    let (wanted, stop_when_certain): (Option<Vec<State>>, bool) = match ask {
        Ask::Every => (None, false),
        Ask::UntilCertain => (None, true),
        Ask::Only { states, .. } => (Some(states.to_vec()), true),
    };
    let mut values: AHashMap<State, u64> = AHashMap::new();
    'choices: for (piece, hold_after) in decision.choices() {
        let hold_after = match hold_after {
            Some(held) if decision.hold_rule => held.index() as u8,
            _ => EMPTY_HOLD,
        };
        for child in walk.children(layer, field, piece.index() as u8) {
            let key = (graph.field(layer + 1, child).key(), hold_after);
            if values.contains_key(&key) || wanted.as_ref().is_some_and(|w| !w.contains(&key)) {
                continue;
            }
            let mut won = [0 as Count];
            let child = (layer + 1, child, hold_after);
            walk.raise(child, before_second, &window[1..], &rest, &mut won);
            let won = u64::from(won[0]);
            values.insert(key, won);
            if stop_when_certain && won == count {
                break 'choices;
            }
        }
    }
    for state in wanted.unwrap_or_default() {
        values.entry(state).or_insert(0);
    }
    Some(StateValues {
        values,
        hold_first: None,
        count,
        stopped: false,
    })
}

/// A bag state as the rows key it: the pieces left in the current bag, 0 when a fresh
/// bag comes next (a full bag is the same).
fn bag_key(bits: u8) -> u8 {
    if bits == 0x7f { 0 } else { bits }
}

/// The bag after `piece` is drawn from `bag` ([`bag_key`]).
#[inline]
fn draw(bag: u8, piece: u8) -> u8 {
    drawable(bag) & !(1 << piece)
}

/// The bag before `piece` was drawn, given the bag after it ([`bag_key`]): a piece that
/// leaves six of a bag was drawn from a fresh one.
fn undraw(after: u8, piece: u8) -> u8 {
    bag_key(after | 1 << piece)
}

/// The number of ways the bag `bag` can give `len` pieces in a row.
fn continuations(bag: u8, len: usize) -> u64 {
    if len == 0 {
        return 1;
    }
    pieces_of(drawable(bag))
        .map(|p| continuations(draw(bag, p), len - 1))
        .sum()
}

/// The pieces of the bits of `set`, in order, as indices ([`pieces_in`]).
#[inline]
fn pieces_of(set: u8) -> impl Iterator<Item = u8> {
    pieces_in(set).map(|p| p.index() as u8)
}

/// The entry of the pieces `pieces` in a row: base 7, the first most significant.
#[inline]
fn entry_of(pieces: &[u8]) -> usize {
    pieces.iter().fold(0, |e, &p| e * 7 + usize::from(p))
}

/// A number of continuations: of at most [`MAX_WINDOW_UNKNOWN`] pieces, at most
/// `7 * 6 * 5 * 4 * 3` (a bag gives each piece once).
type Count = u16;

/// The most entries of a row: `7^(MAX_WINDOW - 1)`.
const MAX_WIDTH: usize = 343;

/// A way the unknown rest of a window can read: its entry in a row, its pieces, and the
/// pieces the next reveal may be after them.
#[derive(Clone, Copy)]
struct Tail {
    entry: u16,
    pieces: [u8; MAX_WINDOW - 1],
    next: u8,
}

/// A state of the walk: a field (layer, index) and the held piece.
type Node = (usize, u32, u8);

/// The walk's rows and what it reads them from.
struct Window<'g, 'm> {
    graph: &'g PcGraph,
    suffixes: &'m mut SuffixMemo,
    children: &'m mut super::children::ChildMemo,
    three: Option<&'g ThreeLeft>,
    /// The classes four pieces from a PC, when the graph has made them.
    four: Option<&'g FourLeft>,
    /// Pieces in view.
    w: usize,
    hold_rule: bool,
    /// The graph's layer of the PC.
    pc_layer: usize,
    /// The 2-line PC field (layer, index), when it counts and the graph has it.
    two_line_at: Option<(usize, u32)>,
    /// Where each row is in `arena`, by [`row_key`].
    rows: AHashMap<u64, u32>,
    /// The rows, each distinct one once ([`Window::keep`]).
    arena: Vec<Count>,
    /// Where a row is in `arena`, by its hash.
    distinct: AHashMap<u64, u32>,
    hasher: ahash::RandomState,
    /// The ways the unknown rest of a window can read, by the bag before it and its
    /// length (`4 * bag + length`), made once.
    tails: Vec<Option<Rc<[Tail]>>>,
}

/// A row's key: the field (layer, index), the held piece, the bag before the window and
/// the window's known pieces (one to four).
#[inline]
fn row_key((layer, field, hold): Node, bag: u8, known: &[u8]) -> u64 {
    let known = known.iter().fold(1u64, |k, &p| k << 3 | u64::from(p));
    u64::from(field) << 36
        | (layer as u64) << 28
        | u64::from(hold) << 24
        | u64::from(bag) << 16
        | known
}

/// The layer in a [`row_key`] of the rows named by a class rather than a field.
const CLASSES: usize = 0xff;

impl<'g, 'm> Window<'g, 'm> {
    fn new(
        graph: &'g PcGraph,
        four: Option<&'g FourLeft>,
        memo: &'m mut GraphMemo,
        w: usize,
        hold_rule: bool,
        two_line: bool,
    ) -> Self {
        Window {
            graph,
            suffixes: &mut memo.suffixes,
            children: &mut memo.children,
            three: graph.three_left.as_ref(),
            four,
            w,
            hold_rule,
            pc_layer: graph.layers.len() - 1,
            two_line_at: two_line.then(|| graph.two_line_field()).flatten(),
            rows: AHashMap::new(),
            arena: Vec::new(),
            distinct: AHashMap::new(),
            hasher: ahash::RandomState::new(),
            tails: vec![None; 4 * 128],
        }
    }

    /// The children (indices in the next layer) of field `field` of layer `layer` by
    /// the moves of `piece`.
    fn children(&mut self, layer: usize, field: u32, piece: u8) -> SmallVec<[u32; 32]> {
        let edges = self.graph.layers[layer].edges(field);
        let wanted = |_: usize, e: u16| edge_piece(e) as u8 == piece;
        let found = self.children.of(self.graph, layer, field, wanted);
        edges
            .iter()
            .zip(found)
            .filter(|&(&e, &child)| wanted(0, e) && child != NO_CHILD)
            .map(|(_, &child)| child)
            .collect()
    }

    /// The ways `len` pieces can follow the bag `bag`.
    fn tails(&mut self, bag: u8, len: usize) -> Rc<[Tail]> {
        self.tails[4 * usize::from(bag) + len]
            .get_or_insert_with(|| {
                fn extend(bag: u8, tail: Tail, at: usize, len: usize, out: &mut Vec<Tail>) {
                    if at == len {
                        out.push(Tail {
                            next: drawable(bag),
                            ..tail
                        });
                        return;
                    }
                    for p in pieces_of(drawable(bag)) {
                        let mut longer = tail;
                        longer.pieces[at] = p;
                        longer.entry = tail.entry * 7 + u16::from(p);
                        extend(draw(bag, p), longer, at + 1, len, out);
                    }
                }
                let mut out = Vec::new();
                let empty = Tail {
                    entry: 0,
                    pieces: [0; MAX_WINDOW - 1],
                    next: 0,
                };
                extend(bag, empty, 0, len, &mut out);
                out.into()
            })
            .clone()
    }

    /// Raises `row[tail.entry]`, for each of `tails`, to what state `node` wins with the
    /// window `known, tail.pieces, x`: the sum over the next piece `x` (of `tail.next`) of
    /// its row for that window. `bag` is the bag before the window.
    fn raise(&mut self, node: Node, bag: u8, known: &[u8], tails: &[Tail], row: &mut [Count]) {
        let (layer, field, _) = node;
        let w = self.w;
        let unknown = w - 1 - known.len();
        let left = self.pc_layer - layer;
        let mut raise = |tail: &Tail, won: u64| {
            let best = &mut row[usize::from(tail.entry)];
            *best = (*best).max(Count::try_from(won).expect("at most 2,520 continuations"));
        };
        // A state's window is all in view before it places the last of it: a decision has
        // more unknown pieces than in view, so its states are never nearer a PC than that.
        debug_assert!(left >= w, "{left} pieces left, {w} in view");
        if self.two_line_at == Some((layer, field)) {
            // A 2-line PC: every continuation after the window is won.
            let after = known.iter().fold(bag, |b, &p| draw(b, p));
            for tail in tails {
                let after = tail.pieces[..unknown]
                    .iter()
                    .fold(after, |b, &p| draw(b, p));
                raise(tail, continuations(after, left - w + 1));
            }
            return;
        }
        if left == w {
            // The window (and the next piece) is all it places.
            let finishes = self.finishes(node);
            let mut window = [0u8; MAX_WINDOW - 1];
            window[..known.len()].copy_from_slice(known);
            for tail in tails {
                window[known.len()..w - 1].copy_from_slice(&tail.pieces[..unknown]);
                // The window but its last two pieces names the word, the second last the byte.
                let (word, byte) = match window[..w - 1] {
                    [] => (0, 0),
                    [ref first @ .., last] => {
                        (first.iter().fold(0, |e, &p| e * 8 + usize::from(p)), last)
                    }
                };
                let last = (finishes[word] >> (8 * byte)) as u8 & 0x7f;
                raise(tail, u64::from((last & tail.next).count_ones()));
            }
            return;
        }
        if !known.is_empty() {
            // The state's known pieces are these: one row, an entry per rest and next piece.
            let at = self.row(node, bag, known) as usize;
            for tail in tails {
                let from = at + 7 * entry_of(&tail.pieces[..unknown]);
                let won: u64 = pieces_of(tail.next)
                    .map(|x| u64::from(self.arena[from + usize::from(x)]))
                    .sum();
                raise(tail, won);
            }
        } else if unknown > 0 {
            // Its known piece is the first of the rest: a row for each.
            let mut at = [0u32; 7];
            let firsts = tails
                .iter()
                .fold(0u8, |set, tail| set | 1 << tail.pieces[0]);
            for first in pieces_of(firsts) {
                at[usize::from(first)] = self.row(node, bag, &[first]);
            }
            for tail in tails {
                let from = at[usize::from(tail.pieces[0])] as usize
                    + 7 * entry_of(&tail.pieces[1..unknown]);
                let won: u64 = pieces_of(tail.next)
                    .map(|x| u64::from(self.arena[from + usize::from(x)]))
                    .sum();
                raise(tail, won);
            }
        } else {
            // A window of one: the state's known piece is the next piece.
            for tail in tails {
                let mut won = 0;
                for x in pieces_of(tail.next) {
                    let at = self.row(node, bag, &[x]) as usize;
                    won += u64::from(self.arena[at]);
                }
                raise(tail, won);
            }
        }
    }

    /// The windows that finish state `node` (`w` pieces from a PC), base 8: word `e` holds,
    /// for the windows whose pieces but the last two read `e`, the last two `b x` as bit
    /// `8 * b + x` (one piece: bit `x` of word 0).
    fn finishes(&mut self, (layer, field, hold): Node) -> [u64; 64] {
        let mut words = [0u64; 64];
        let layers = &self.graph.layers;
        match self.w {
            1 | 2 => words[0] = self.suffixes.small(layers, layer, field, hold, self.w),
            3 => {
                let three = self.three.expect("checked by `finishes_known`");
                words[..8].copy_from_slice(&three.finishes(three.class(field))[usize::from(hold)]);
            }
            _ => {
                let four = self.four.expect("checked by `values_with`");
                let three = self.three.expect("checked by `finishes_known`");
                four.add_queues(three, self.hold_rule, four.class(field), hold, &mut words);
            }
        }
        words
    }

    /// Where the row of state `node` with the bag `bag` before its window and `known` the
    /// window's known pieces is in the arena, made if it is new.
    ///
    /// A field one piece more than the window from a PC wins what its class wins: with
    /// three in view, the class of its moves four pieces from a PC when the graph has made
    /// them ([`FourLeft`]), which names the children's classes without looking a child up;
    /// with two, its class three pieces from a PC ([`ThreeLeft`]).
    fn row(&mut self, node: Node, bag: u8, known: &[u8]) -> u32 {
        let (layer, field, hold) = node;
        let w = self.w;
        let by_class = self.pc_layer - layer == w + 1
            && self.two_line_at.is_none_or(|(at, _)| at != layer + 1);
        let four = self
            .four
            .filter(|four| by_class && w == 3 && four.layer == layer);
        let three = self
            .three
            .filter(|three| by_class && w == 2 && three.layer == layer);
        let key = match (four, three) {
            (Some(four), _) => row_key((CLASSES, four.class(field), hold), bag, known),
            (_, Some(three)) => row_key((CLASSES, three.class(field), hold), bag, known),
            _ => row_key(node, bag, known),
        };
        if let Some(&at) = self.rows.get(&key) {
            return at;
        }
        let first = known[0];
        let after_first = draw(bag, first);
        let after_known = known[1..].iter().fold(after_first, |b, &p| draw(b, p));
        let tails = self.tails(after_known, w - known.len());
        let mut row = [0 as Count; MAX_WIDTH];
        // Placing the first piece keeps the held one; placing the held one holds the first.
        let swap = self.hold_rule && hold != EMPTY_HOLD && hold != first;
        let moves = [(first, hold), (hold, first)];
        let moves = &moves[..1 + usize::from(swap)];
        if let Some(four) = four {
            let three = self
                .three
                .expect("a graph with classes four pieces from a PC has these");
            for (piece, child) in four
                .links(four.class(field))
                .iter()
                .filter_map(|&l| unlink(l))
            {
                for &(_, hold_after) in moves.iter().filter(|&&(p, _)| p == piece) {
                    let finishes = &three.finishes(child)[usize::from(hold_after)];
                    for tail in tails.iter() {
                        // The child's window: the rest of the known pieces, then the tail.
                        let mut window = [0u8; 2];
                        let rest = &known[1..];
                        window[..rest.len()].copy_from_slice(rest);
                        window[rest.len()..].copy_from_slice(&tail.pieces[..2 - rest.len()]);
                        let [a, b] = window;
                        let fits = (finishes[usize::from(a)] >> (8 * b)) as u8 & tail.next;
                        let best = &mut row[usize::from(tail.entry)];
                        *best = (*best).max(fits.count_ones() as Count);
                    }
                }
            }
        } else {
            for &(piece, hold_after) in moves {
                for child in self.children(layer, field, piece) {
                    let child = (layer + 1, child, hold_after);
                    self.raise(child, after_first, &known[1..], &tails, &mut row);
                }
            }
        }
        let at = self.keep(&row[..7usize.pow((w - known.len()) as u32)]);
        self.rows.insert(key, at);
        at
    }

    /// Where `row` is in the arena, put there unless the same row is: many states win
    /// alike (most rows far from a PC win nothing), and with four in view the rows are the
    /// walk's largest table.
    fn keep(&mut self, row: &[Count]) -> u32 {
        let hash = self.hasher.hash_one(row);
        if let Some(&at) = self.distinct.get(&hash) {
            let at_row = self.arena.get(at as usize..at as usize + row.len());
            if at_row == Some(row) {
                return at;
            }
        }
        let at = self.arena.len() as u32;
        self.arena.extend_from_slice(row);
        // A different row with the same hash (rare) is kept twice instead.
        self.distinct.entry(hash).or_insert(at);
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::PcField;
    use crate::position::Position;
    use crate::rules::Rules;
    use pc_srs::Piece;
    use std::ops::ControlFlow;

    #[test]
    fn a_bag_undrawn_is_the_bag_before() {
        for bag in 0..0x7fu8 {
            for piece in (0..7u8).filter(|&p| drawable(bag) >> p & 1 == 1) {
                assert_eq!(undraw(draw(bag, piece), piece), bag, "{bag:#x} {piece}");
            }
        }
    }

    /// Rows named by the classes four pieces from a PC hold what those named by fields
    /// hold: the same values with the classes and without.
    #[test]
    fn rows_by_classes_are_rows_by_fields() {
        let rules = Rules::default();
        let rows = "###......./###......./###......./###.......";
        let start = PcField::new(rows.parse().unwrap(), 4).unwrap();
        let graph =
            PcGraph::build_from(&start, &rules, &mut |_| ControlFlow::Continue(())).unwrap();
        let four = graph.four_left();
        assert!(four.is_some());
        let mut compared = 0;
        for seed in 0..6u64 {
            // Seven pieces from a PC, one held and three in view: four unknown.
            let all = Piece::ALL;
            let at = |i: u64| all[((seed * 3 + i * 5) % 7) as usize];
            let queue = [at(1), at(2), at(4)];
            let position = Position::new(rows.parse().unwrap(), queue[0])
                .with_hold(Some(at(0)))
                .with_preview(&queue[1..]);
            let decision = Decision::from_position(&position, true, 2).unwrap();
            assert!(applies(&graph, &decision));
            let values_of = |four| {
                let mut memo = GraphMemo::default();
                values_with(&graph, four, &mut memo, &decision, false, Ask::Every).unwrap()
            };
            let (by_fields, by_classes) = (values_of(None), values_of(four));
            assert_eq!(by_fields.count, by_classes.count);
            assert_eq!(by_fields.values, by_classes.values, "seed {seed}");
            assert!(by_fields.values.values().any(|&won| won > 0));
            compared += by_fields.values.len();
        }
        assert!(compared > 30, "{compared}");
    }

    #[test]
    fn continuations_count_the_bag() {
        assert_eq!(continuations(0, 5), 7 * 6 * 5 * 4 * 3);
        // Two left, then a fresh bag.
        assert_eq!(continuations(0b11, 3), 2 * 7);
        assert_eq!(continuations(0b1, 0), 1);
    }
}
