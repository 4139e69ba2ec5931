//! Hold orders: which play orders a queue allows with one hold slot.

use std::fmt;

use crate::Piece;
use crate::error::HoldError;
use crate::pattern::{Element, Pattern};
use crate::sequence::Sequence;

/// The stream `hold ++ queue`, cut to the `len + 1` pieces that can matter for `len` plays.
fn stream(
    hold: Option<Piece>,
    queue: &[Piece],
    len: usize,
) -> Result<([Piece; Sequence::MAX_LEN + 1], usize), HoldError> {
    if len > Sequence::MAX_LEN {
        return Err(HoldError::TooLong { len });
    }
    let available = queue.len() + usize::from(hold.is_some());
    if len > available {
        return Err(HoldError::NotEnoughPieces { len, available });
    }
    let mut s = [Piece::I; Sequence::MAX_LEN + 1];
    let m = available.min(len + 1);
    for (slot, p) in s.iter_mut().zip(hold.iter().chain(queue)).take(m) {
        *slot = *p;
    }
    Ok((s, m))
}

/// Every order in which `len` pieces can be played from `queue` with `hold` in the hold
/// slot (`None` for empty), distinct and sorted.
///
/// # Model
///
/// Write the pieces available as one stream `s`: the held piece first (if any), then the
/// queue. At every turn the player has one piece *in reserve* (the held piece, or with an
/// empty hold the current piece) and the next stream piece *incoming*, and plays one of
/// the two; the other becomes the reserve. This covers both hold moves: swapping with a
/// held piece, and holding into an empty slot (the next queue piece is then played).
/// When the stream runs out the reserve itself can be played last.
///
/// So `len` plays from a stream of `m` pieces branch once per play while an incoming
/// piece exists: `2^len` orders when `len < m`, `2^(m-1)` when `len == m`, as in
/// sfinder's `util seq` forward mode (which plays `m - 1` of `m`). With repeated pieces
/// the two choices can give the same order; the functions here return each order
/// **once**, in lexicographic order, without a de-duplication pass: both choices
/// coincide exactly when the reserve equals the incoming piece, so that branch is
/// simply not split.
///
/// ```
/// use pc_bag::{play_orders, Piece};
///
/// let queue = [Piece::T, Piece::I, Piece::O];
/// let orders: Vec<String> = play_orders(None, &queue, 3)?
///     .iter()
///     .map(|s| s.to_string())
///     .collect();
/// assert_eq!(orders, ["IOT", "ITO", "TIO", "TOI"]);
///
/// // Holding S, playing two of T, I, O plus S.
/// assert_eq!(play_orders(Some(Piece::S), &queue, 2)?.len(), 4);
/// # Ok::<(), pc_bag::HoldError>(())
/// ```
pub fn play_orders(
    hold: Option<Piece>,
    queue: &[Piece],
    len: usize,
) -> Result<Vec<Sequence>, HoldError> {
    let mut out = Vec::new();
    play_orders_into(hold, queue, len, &mut out)?;
    Ok(out)
}

/// [`play_orders`] appending to a caller's buffer (not cleared first), so repeated calls
/// allocate nothing once the buffer is large enough.
pub fn play_orders_into(
    hold: Option<Piece>,
    queue: &[Piece],
    len: usize,
    out: &mut Vec<Sequence>,
) -> Result<(), HoldError> {
    let (s, m) = stream(hold, queue, len)?;
    if len == 0 {
        out.push(Sequence::EMPTY);
        return Ok(());
    }
    out.reserve(1 << (m - 1).min(len));
    walk(&s[..m], 0, len, 0, s[0], out);
    Ok(())
}

/// Depth-first over plays: `t` pieces played (packed in `bits`), `reserve` in hand.
fn walk(s: &[Piece], t: usize, len: usize, bits: u64, reserve: Piece, out: &mut Vec<Sequence>) {
    if t == len {
        out.push(Sequence::from_raw(bits, len));
        return;
    }
    let Some(&incoming) = s.get(t + 1) else {
        // Stream exhausted: the reserve is the last piece played.
        out.push(Sequence::from_raw(
            bits | Sequence::piece_bits(reserve, t),
            t + 1,
        ));
        return;
    };
    if incoming == reserve {
        walk(
            s,
            t + 1,
            len,
            bits | Sequence::piece_bits(incoming, t),
            reserve,
            out,
        );
        return;
    }
    // Smaller piece first keeps the output sorted.
    let (low, high) = if reserve < incoming {
        (reserve, incoming)
    } else {
        (incoming, reserve)
    };
    walk(
        s,
        t + 1,
        len,
        bits | Sequence::piece_bits(low, t),
        high,
        out,
    );
    walk(
        s,
        t + 1,
        len,
        bits | Sequence::piece_bits(high, t),
        low,
        out,
    );
}

/// Whether `order` can be played from `queue` with `hold` in the hold slot (the reverse
/// question of [`play_orders`]). Linear time: the choice at each turn is forced.
///
/// ```
/// use pc_bag::{can_play, Piece::*};
///
/// assert!(can_play(None, &[T, I, O], &[I, T, O]));
/// assert!(can_play(None, &[T, I, O], &[I, O]));
/// assert!(!can_play(None, &[T, I, O], &[O, I, T]));
/// assert!(can_play(Some(S), &[T, I], &[T, S, I]));
/// ```
pub fn can_play(hold: Option<Piece>, queue: &[Piece], order: &[Piece]) -> bool {
    let mut s = hold.iter().chain(queue).copied();
    let Some(mut reserve) = s.next() else {
        return order.is_empty();
    };
    let mut order = order.iter().copied().peekable();
    while let Some(want) = order.next() {
        match s.next() {
            Some(incoming) => {
                if want == reserve {
                    reserve = incoming;
                } else if want != incoming {
                    return false;
                }
            }
            None => return want == reserve && order.peek().is_none(),
        }
    }
    true
}

/// A queue that can produce a given play order, with one piece unknown: the piece left
/// over (never played), shown as `*`. Produced by [`source_queues`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceQueue {
    /// All slots, the unknown one holding `I` as a placeholder (so equal queues compare
    /// equal).
    pieces: Sequence,
    unknown: u8,
}

impl SourceQueue {
    /// Number of pieces in the queue, the unknown one included.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Always `false`: there is at least the unknown piece.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Position of the unknown piece.
    pub fn unknown_index(&self) -> usize {
        self.unknown as usize
    }

    /// The pieces in queue order, `None` for the unknown one.
    pub fn pieces(&self) -> impl Iterator<Item = Option<Piece>> + '_ {
        let unknown = self.unknown_index();
        self.pieces
            .iter()
            .enumerate()
            .map(move |(i, p)| (i != unknown).then_some(p))
    }

    /// Whether `queue` fits: same length and equal at every known position.
    pub fn matches(&self, queue: &[Piece]) -> bool {
        queue.len() == self.len()
            && self
                .pieces()
                .zip(queue)
                .all(|(p, q)| p.is_none_or(|p| p == *q))
    }

    /// The pattern of every queue that fits (`*` at the unknown position).
    pub fn to_pattern(&self) -> Pattern {
        let elements = self
            .pieces()
            .map(|p| p.map_or(Element::ANY, Element::piece));
        Pattern::new(elements).expect("a source queue has at most MAX_LEN pieces")
    }
}

impl fmt::Display for SourceQueue {
    /// Letters with `*` for the unknown piece, e.g. `TI*O`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in self.pieces() {
            match p {
                Some(p) => write!(f, "{p}")?,
                None => f.write_str("*")?,
            }
        }
        Ok(())
    }
}

impl fmt::Debug for SourceQueue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SourceQueue(\"{self}\")")
    }
}

/// Every queue of `order.len() + 1` pieces, starting with an empty hold, from which
/// `order` can be played, with the left-over piece unknown (sfinder's `util seq`
/// backward mode). Distinct and sorted. `2^len` queues when the pieces of `order` are
/// distinct.
///
/// ```
/// use pc_bag::{source_queues, Piece::*};
///
/// let queues: Vec<String> = source_queues(&[T, I])?.iter().map(|q| q.to_string()).collect();
/// assert_eq!(queues, ["*TI", "IT*", "T*I", "TI*"]);
/// # Ok::<(), pc_bag::HoldError>(())
/// ```
pub fn source_queues(order: &[Piece]) -> Result<Vec<SourceQueue>, HoldError> {
    let len = order.len();
    if len + 1 > Sequence::MAX_LEN {
        return Err(HoldError::TooLong { len: len + 1 });
    }
    let mut out = Vec::with_capacity(1 << len);
    // Reverse of the forward model: the open slot is the reserve, whose identity is only
    // known when it is played.
    fn walk(order: &[Piece], j: usize, bits: u64, open: usize, out: &mut Vec<SourceQueue>) {
        let Some(&p) = order.get(j) else {
            out.push(SourceQueue {
                pieces: Sequence::from_raw(bits, order.len() + 1),
                unknown: open as u8,
            });
            return;
        };
        // Played the reserve: it sat in the open slot; the incoming piece becomes reserve.
        walk(
            order,
            j + 1,
            bits | Sequence::piece_bits(p, open),
            j + 1,
            out,
        );
        // Played the incoming piece: it is the next stream piece.
        walk(
            order,
            j + 1,
            bits | Sequence::piece_bits(p, j + 1),
            open,
            out,
        );
    }
    walk(order, 0, 0, 0, &mut out);
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Piece::*;

    fn pieces(s: &str) -> Vec<Piece> {
        s.chars().map(|c| Piece::try_from(c).unwrap()).collect()
    }

    /// Independent brute force: try hold/no-hold at every turn as a game does.
    fn brute(hold: Option<Piece>, queue: &[Piece], len: usize) -> Vec<Sequence> {
        fn go(
            hold: Option<Piece>,
            queue: &[Piece],
            played: Vec<Piece>,
            len: usize,
            out: &mut Vec<Sequence>,
        ) {
            if played.len() == len {
                out.push(Sequence::from_pieces(&played).unwrap());
                return;
            }
            match queue.split_first() {
                Some((&cur, rest)) => {
                    // Play the current piece.
                    let mut p = played.clone();
                    p.push(cur);
                    go(hold, rest, p, len, out);
                    // Hold it.
                    match hold {
                        Some(h) => {
                            let mut p = played.clone();
                            p.push(h);
                            go(Some(cur), rest, p, len, out);
                        }
                        None => {
                            if let Some((&next, rest2)) = rest.split_first() {
                                let mut p = played.clone();
                                p.push(next);
                                go(Some(cur), rest2, p, len, out);
                            }
                        }
                    }
                }
                None => {
                    if let Some(h) = hold {
                        let mut p = played;
                        p.push(h);
                        go(None, queue, p, len, out);
                    }
                }
            }
        }
        let mut out = Vec::new();
        go(hold, queue, Vec::new(), len, &mut out);
        out.sort();
        out.dedup();
        out
    }

    #[test]
    fn matches_brute_force() {
        for (hold, q) in [
            (None, "TIOS"),
            (None, "TITS"),
            (Some(Z), "TIOS"),
            (Some(T), "TTIT"),
            (None, "IJLOSTZI"),
            (Some(O), "OOOO"),
        ] {
            let q = pieces(q);
            let m = q.len() + usize::from(hold.is_some());
            for len in 0..=m {
                let got = play_orders(hold, &q, len).unwrap();
                assert_eq!(got, brute(hold, &q, len), "{hold:?} {q:?} {len}");
                for s in &got {
                    assert!(can_play(hold, &q, &s.to_vec()));
                }
            }
        }
    }

    #[test]
    fn counts_for_distinct_pieces() {
        let q = pieces("IJLOSTZ");
        assert_eq!(play_orders(None, &q, 7).unwrap().len(), 64);
        assert_eq!(play_orders(None, &q, 6).unwrap().len(), 64);
        assert_eq!(play_orders(None, &q, 3).unwrap().len(), 8);
        assert_eq!(
            play_orders(None, &q, 8),
            Err(HoldError::NotEnoughPieces {
                len: 8,
                available: 7
            })
        );
        let no_t = pieces("IJLOSZ");
        assert_eq!(
            play_orders(Some(T), &no_t, 7).unwrap().len(),
            64,
            "hold + 6 = 7 distinct pieces"
        );
    }

    #[test]
    fn can_play_rejects() {
        assert!(!can_play(None, &pieces("TIO"), &pieces("OTI")));
        assert!(!can_play(None, &pieces("TIO"), &pieces("TIOS")));
        assert!(!can_play(None, &[], &pieces("T")));
        assert!(can_play(None, &[], &[]));
        assert!(can_play(Some(S), &[], &[S]));
    }

    #[test]
    fn source_queues_invert_play_orders() {
        for order in ["TIO", "TTI", "IJLOS", "OO"] {
            let order = pieces(order);
            let sources = source_queues(&order).unwrap();
            // Every concrete queue fitting a source can play the order…
            for src in &sources {
                for fill in Piece::ALL {
                    let q: Vec<Piece> = src.pieces().map(|p| p.unwrap_or(fill)).collect();
                    assert!(can_play(None, &q, &order), "{src} with {fill}");
                }
            }
            // …and every queue of len+1 that can is covered.
            let every: crate::Pattern = vec!["*"; order.len() + 1].join(",").parse().unwrap();
            for seq in every.expand() {
                let q = seq.to_vec();
                if can_play(None, &q, &order) {
                    assert!(sources.iter().any(|s| s.matches(&q)), "{seq} uncovered");
                }
            }
        }
        assert_eq!(source_queues(&pieces("TIO")).unwrap().len(), 8);
    }
}
