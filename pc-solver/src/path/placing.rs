//! The orders of pieces a solution can be placed in, and which of them the pattern's
//! queues give: what sfinder's `path -k solution` lists for each solution.

use super::{Builder, NONE, Orders, PathResult, QueueTree, bits, setup_on};
use crate::error::SolverError;
use crate::field::PcField;
use crate::rules::Rules;
use pc_srs::{MoveGenerator, Piece};
use smallvec::SmallVec;
use std::ops::ControlFlow;

/// The orders one solution of a [`PathResult`] can be placed in ([`placing_orders`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacingOrders {
    /// Each order of pieces in which the solution's placements can be placed one after
    /// another, each reachable and resting on the field of its turn, with no hold:
    /// sfinder's "orders for the field". Without repeats, sorted by the pieces' indices.
    pub orders: Vec<Vec<Piece>>,
    /// For each of `orders`, whether some queue of the result gives it: played in the
    /// queue's order, with hold if the rules have it, the pieces placed come in that order
    /// (sfinder's "orders for the field and the pattern").
    pub given: Vec<bool>,
    /// The sequences as long as the result's queues that build the solution by one of the
    /// given orders, with hold, and that hold can turn some queue into: what sfinder's
    /// `-k solution` and `-k use` count as the queues "for the pattern". Sorted; without
    /// hold, the given orders themselves.
    pub pattern_orders: Vec<Vec<Piece>>,
}

/// For each solution of `result` (found on `field` under `rules`), in turn, calls
/// `visit(index, orders)` with the orders it can be placed in ([`PlacingOrders`]), until
/// `visit` breaks.
///
/// Errors: [`SolverError::Setup`] (`setup` being the solution's index) when a placement
/// of a solution lies on a filled cell or at or above row 24 of the uncleared field: not
/// a solution of `field`.
///
/// Cost: a solution of `n` placements has at most `n!` orders, each listed; most have
/// far fewer, the placements below others coming first.
///
/// ```
/// use pc_solver::{PcField, Piece, Rules, path, placing_orders};
/// use std::ops::ControlFlow;
///
/// let field = PcField::new("###......./###......./###......./###.......".parse()?, 4)?;
/// let rules = Rules::default();
/// let result = path(&field, &rules, &"*p7".parse()?)?;
/// let mut listed = 0;
/// placing_orders(&field, &rules, &result, &mut |index, placing| {
///     // Every solution is built by some queue, so some order is given.
///     assert!(placing.given.iter().any(|&g| g));
///     assert!(placing.orders.iter().all(|o| o.len() == result.solutions[index].placements.len()));
///     listed += 1;
///     ControlFlow::Continue(())
/// })?;
/// assert_eq!(listed, result.solutions.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn placing_orders(
    field: &PcField,
    rules: &Rules,
    result: &PathResult,
    visit: &mut dyn FnMut(usize, PlacingOrders) -> ControlFlow<()>,
) -> Result<(), SolverError> {
    let tree = QueueTree::new(result.queues.iter().map(|q| q.iter().copied()));
    let movegen = MoveGenerator::new(&rules.kicks, rules.drop);
    let mut builder = Builder::new(field, rules, &movegen);
    let mut lattice = Orders::default();
    let length = result.queues.first().map_or(0, Vec::len);
    // Buffers kept from one solution to the next.
    let mut states = States::default();
    let mut found: Vec<u64> = Vec::new();
    for (index, solution) in result.solutions.iter().enumerate() {
        let set = setup_on(field.board(), &solution.placements, index)?;
        builder.orders(&set, &mut lattice);
        let mut orders = Vec::new();
        if lattice.any() {
            let mut prefix = Vec::with_capacity(set.len());
            list_orders(&lattice, &[0], &mut prefix, &mut orders);
        }
        let given: Vec<bool> = orders
            .iter()
            .map(|order| gives(&tree, order, rules.hold, &mut states))
            .collect();
        let given_orders = orders.iter().zip(&given).filter(|(_, g)| **g);
        // Sorted as made: the packed sequences sort as the sequences do, and the orders
        // are listed in order.
        let pattern_orders: Vec<Vec<Piece>> = if rules.hold {
            found.clear();
            for (order, _) in given_orders {
                sequences_giving(order, length, &mut found);
            }
            found.sort_unstable();
            found.dedup();
            let mut pieces = Vec::with_capacity(length);
            found
                .iter()
                .filter_map(|&packed| {
                    unpack(packed, length, &mut pieces);
                    gives(&tree, &pieces, true, &mut states).then(|| pieces.clone())
                })
                .collect()
        } else {
            given_orders.map(|(o, _)| o.clone()).collect()
        };
        debug_assert!(pattern_orders.is_sorted() && orders.is_sorted());
        let placing = PlacingOrders {
            orders,
            given,
            pattern_orders,
        };
        if visit(index, placing).is_break() {
            break;
        }
    }
    Ok(())
}

/// Lists into `out` every order of pieces that goes on from `prefix` to every placement
/// placed, `placed` being the sets of placements the prefix can have placed: the
/// placements of each piece taken together, so each order is listed once.
fn list_orders(
    lattice: &Orders,
    placed: &[u32],
    prefix: &mut Vec<Piece>,
    out: &mut Vec<Vec<Piece>>,
) {
    if placed.contains(&lattice.full) {
        out.push(prefix.clone());
        return;
    }
    let mut after: [SmallVec<[u32; 8]>; 7] = Default::default();
    for &mask in placed {
        for index in bits(lattice.next(mask)) {
            after[usize::from(lattice.pieces[index])].push(mask | 1 << index);
        }
    }
    for (piece, masks) in after.iter_mut().enumerate() {
        if masks.is_empty() {
            continue;
        }
        masks.sort_unstable();
        masks.dedup();
        prefix.push(Piece::ALL[piece]);
        list_orders(lattice, masks, prefix, out);
        prefix.pop();
    }
}

/// The most pieces a sequence packed in a `u64` holds, three bits each.
const MOST_PACKED: usize = 21;

/// Adds to `out` each sequence of `length` pieces (`order`'s length, or one more) that
/// gives `order` with hold: read piece by piece, each piece read is placed or the piece
/// in hand placed and the one read taken into hand; a piece left in hand at the end may
/// be any. Each sequence is packed, three bits a piece, the first piece highest (so they
/// sort as the sequences do); [`unpack`] gives it back.
fn sequences_giving(order: &[Piece], length: usize, out: &mut Vec<u64>) {
    if order.is_empty()
        || length > MOST_PACKED
        || !(order.len()..=order.len() + 1).contains(&length)
    {
        return;
    }
    // The hand after the first piece read: that piece, nothing placed yet.
    for &first in &Piece::ALL {
        let states: SmallVec<[(usize, Piece); 8]> = smallvec::smallvec![(0, first)];
        extend_giving(order, length, &states, first.index() as u64, 1, out);
    }
}

/// [`sequences_giving`] from a prefix of `read` pieces (`sequence`, packed), `states`
/// being what it can leave: (pieces of `order` placed, piece in hand).
fn extend_giving(
    order: &[Piece],
    length: usize,
    states: &[(usize, Piece)],
    sequence: u64,
    read: usize,
    out: &mut Vec<u64>,
) {
    if read == length {
        // Every piece placed (one left in hand), or all but the last, which is in hand.
        let done = states.iter().any(|&(placed, hand)| {
            placed == order.len() || (placed + 1 == order.len() && hand == order[placed])
        });
        if done {
            out.push(sequence);
        }
        return;
    }
    for &piece in &Piece::ALL {
        let mut next: SmallVec<[(usize, Piece); 8]> = SmallVec::new();
        for &(placed, hand) in states {
            let Some(&wanted) = order.get(placed) else {
                continue;
            };
            if piece == wanted {
                next.push((placed + 1, hand));
            } else if hand == wanted {
                next.push((placed + 1, piece));
            }
        }
        if next.is_empty() {
            continue;
        }
        next.sort_unstable_by_key(|&(placed, hand)| (placed, hand.index()));
        next.dedup();
        let longer = sequence << 3 | piece.index() as u64;
        extend_giving(order, length, &next, longer, read + 1, out);
    }
}

/// The `length` pieces of a sequence packed by [`sequences_giving`], into `pieces`.
fn unpack(packed: u64, length: usize, pieces: &mut Vec<Piece>) {
    pieces.clear();
    pieces.extend(
        (0..length)
            .rev()
            .map(|k| Piece::ALL[(packed >> (3 * k) & 7) as usize]),
    );
}

/// The states of [`gives`]'s walk, kept from one call to the next.
#[derive(Default)]
struct States {
    now: Vec<(u32, Piece)>,
    next: Vec<(u32, Piece)>,
}

/// Whether some queue of `tree` gives `order`: played with hold (when `hold`) or without,
/// the pieces it places come in that order.
fn gives(tree: &QueueTree, order: &[Piece], hold: bool, buffers: &mut States) -> bool {
    let child = |node: u32, piece: Piece| tree.children[node as usize][piece.index()];
    if !hold {
        let mut node = 0;
        for &piece in order {
            node = child(node, piece);
            if node == NONE {
                return false;
            }
        }
        return true;
    }
    let Some(&last) = order.last() else {
        return true;
    };
    // States (node, piece in hand) after each piece read, all with the same count of
    // pieces placed: the hand is the piece read and not placed, held or current. Each
    // piece read is placed, or the hand is placed and the piece read taken into hand.
    let States {
        now: states,
        next: next_states,
    } = buffers;
    states.clear();
    states.extend(Piece::ALL.iter().filter_map(|&p| {
        let node = child(0, p);
        (node != NONE).then_some((node, p))
    }));
    for (placed, &wanted) in order.iter().enumerate() {
        // The queue ends here: the hand, placed last, finishes the order.
        if placed + 1 == order.len()
            && states
                .iter()
                .any(|&(node, hand)| hand == last && tree.queue[node as usize] != NONE)
        {
            return true;
        }
        next_states.clear();
        for &(node, hand) in states.iter() {
            for &piece in &Piece::ALL {
                let next = child(node, piece);
                if next == NONE {
                    continue;
                }
                if piece == wanted {
                    next_states.push((next, hand));
                } else if hand == wanted {
                    next_states.push((next, piece));
                }
            }
        }
        next_states.sort_unstable_by_key(|&(node, hand)| (node, hand.index()));
        next_states.dedup();
        std::mem::swap(states, next_states);
        if states.is_empty() {
            return false;
        }
    }
    // Every piece of the order placed, the hand left over.
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// Every order of pieces placed when `queue` is played with hold, by trying each
    /// choice: the first piece taken into hand, then each piece read placed or the hand
    /// placed and that piece taken, the hand at the end placed or not.
    fn played(queue: &[Piece]) -> BTreeSet<Vec<Piece>> {
        fn go(
            rest: &[Piece],
            hand: Piece,
            placed: &mut Vec<Piece>,
            out: &mut BTreeSet<Vec<Piece>>,
        ) {
            let Some((&next, rest)) = rest.split_first() else {
                out.insert(placed.clone());
                placed.push(hand);
                out.insert(placed.clone());
                placed.pop();
                return;
            };
            placed.push(next);
            go(rest, hand, placed, out);
            placed.pop();
            placed.push(hand);
            go(rest, next, placed, out);
            placed.pop();
        }
        let mut out = BTreeSet::new();
        if let Some((&first, rest)) = queue.split_first() {
            go(rest, first, &mut Vec::new(), &mut out);
        }
        out
    }

    fn every_sequence(len: usize) -> Vec<Vec<Piece>> {
        (0..len).fold(vec![Vec::new()], |sequences, _| {
            sequences
                .iter()
                .flat_map(|s| {
                    Piece::ALL.iter().map(move |&p| {
                        let mut longer = s.clone();
                        longer.push(p);
                        longer
                    })
                })
                .collect()
        })
    }

    fn a_piece() -> impl Strategy<Value = Piece> {
        (0..7usize).prop_map(|i| Piece::ALL[i])
    }

    proptest! {
        /// A queue as long as the order, or one piece longer, gives it with hold exactly
        /// when playing it gives it; without hold, exactly when it starts with it.
        #[test]
        fn a_queue_gives_the_orders_it_plays(
            order in proptest::collection::vec(a_piece(), 1..6),
            queue in proptest::collection::vec(a_piece(), 7),
            longer in any::<bool>(),
        ) {
            let queue = &queue[..order.len() + usize::from(longer)];
            let tree = QueueTree::new([queue.iter().copied()]);
            let mut states = States::default();
            prop_assert_eq!(gives(&tree, &order, true, &mut states), played(queue).contains(&order));
            prop_assert_eq!(gives(&tree, &order, false, &mut states), queue.starts_with(&order));
        }

        /// The sequences giving an order are those whose play gives it.
        #[test]
        fn the_sequences_giving_an_order_are_those_that_play_it(
            order in proptest::collection::vec(a_piece(), 1..4),
            longer in any::<bool>(),
        ) {
            let len = order.len() + usize::from(longer);
            let mut found = Vec::new();
            sequences_giving(&order, len, &mut found);
            let mut pieces = Vec::new();
            let found: BTreeSet<Vec<Piece>> = found
                .into_iter()
                .map(|packed| {
                    unpack(packed, len, &mut pieces);
                    pieces.clone()
                })
                .collect();
            let expected: BTreeSet<Vec<Piece>> = every_sequence(len)
                .into_iter()
                .filter(|s| played(s).contains(&order))
                .collect();
            prop_assert_eq!(found, expected);
        }
    }
}
