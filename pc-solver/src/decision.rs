//! [`Decision`]: a [`Position`] checked once, in the one shape every engine answers.
//!
//! A position is what a user states (public fields, anything goes); a decision is what
//! the engines read: the field checked against its clear line, the queue in a fixed-size
//! array, the bag as a [`PieceSet`], the hold rule, and whether hold may still be pressed.
//! Every engine, and every decision below the root of a search, is one of these.

use crate::error::SolverError;
use crate::field::PcField;
use crate::position::{Move, Position};
use pc_bag::PieceSet;
use pc_srs::Piece;

/// Pieces visible at most: the current piece and six previews.
pub(crate) const MAX_QUEUE: usize = 7;

/// The most pieces not revealed yet that the layered search, the graph's walk and the
/// clairvoyant count ([`Searcher::clairvoyant_count`](crate::Searcher::clairvoyant_count))
/// take: 840 continuations of a bag at most.
pub(crate) const MAX_UNKNOWN: usize = 4;

/// The most pieces not known yet that the graph's walk takes: 2,520 continuations of a
/// bag at most.
pub(crate) const MAX_WALK_UNKNOWN: usize = 5;

/// The longest preview a [`Solver`](crate::Solver) takes: six pieces after the current one.
pub const MAX_PREVIEW: usize = MAX_QUEUE - 1;

/// The hold slot in the compact states of the engines: a piece index, or this for an
/// empty slot.
pub(crate) const EMPTY_HOLD: u8 = 7;

/// The hold slot as a compact state has it ([`EMPTY_HOLD`] when empty).
#[inline]
pub(crate) fn hold_code(hold: Option<Piece>) -> u8 {
    hold.map_or(EMPTY_HOLD, |p| p.index() as u8)
}

/// The hold slot of a compact state.
#[inline]
pub(crate) fn hold_of(code: u8) -> Option<Piece> {
    Piece::ALL.get(code as usize).copied()
}

/// A state of the engines that walk layers: a field key and a hold code.
pub(crate) type State = (u128, u8);

/// Every piece, as a bit set over [`Piece::index`].
pub(crate) const ALL_PIECES: u8 = 0x7f;

/// Base-8 digits behind a leading 1, so lengths differ; 21 pieces fit in 64 bits.
pub(crate) fn queue_key(queue: &[Piece]) -> u64 {
    queue.iter().fold(1u64, |k, p| (k << 3) | p.index() as u64)
}

/// The pieces the next draw can give, from the pieces left in the current bag (bits over
/// [`Piece::index`]; 0 when a fresh bag follows).
pub(crate) fn drawable(bag: u8) -> u8 {
    if bag == 0 { ALL_PIECES } else { bag }
}

/// The pieces of a set over [`Piece::index`].
pub(crate) fn pieces_in(set: u8) -> impl Iterator<Item = Piece> {
    Piece::ALL
        .into_iter()
        .filter(move |p| set >> p.index() & 1 == 1)
}

/// The current piece and the preview, by value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Queue {
    pieces: [Piece; MAX_QUEUE],
    len: u8,
}

impl Queue {
    /// The queue of these pieces (at most [`MAX_QUEUE`]).
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

    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// The current piece.
    pub(crate) fn current(&self) -> Piece {
        self.pieces[0]
    }

    /// The queue without its first piece and with `next` revealed at the end.
    pub(crate) fn advance(&self, next: Piece) -> Queue {
        let mut queue = *self;
        queue.pieces.copy_within(1..self.len as usize, 0);
        queue.pieces[self.len as usize - 1] = next;
        queue
    }
}

/// A decision: the field, the hold slot, the pieces in view and the bag after them,
/// under a rule set with or without hold.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decision {
    pub(crate) field: PcField,
    /// The hold slot (always empty when the rules have no hold).
    pub(crate) hold: Option<Piece>,
    pub(crate) queue: Queue,
    /// Pieces left in the current bag after the queue; empty when a fresh bag follows.
    pub(crate) bag: PieceSet,
    /// Whether the rules have hold.
    pub(crate) hold_rule: bool,
    /// Whether hold was pressed for the current piece already (it went into the empty
    /// slot and brought this piece out), so this piece must be placed.
    pub(crate) hold_used: bool,
}

/// A decision as a key of a table of values.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct DecisionKey {
    field: u128,
    queue: u64,
    hold: u8,
    bag: u8,
}

/// How the pieces of a decision lie over the layers of a walk (the layered search and
/// the graph's): with the hold slot filled, placement `k` uses the held piece or piece
/// `k + 1` of the queue, so the first `last_known` placements use known pieces only; the
/// `unknown` pieces after them are revealed one per placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layers {
    /// Pieces a PC may use that are not revealed yet (1 to [`MAX_UNKNOWN`]).
    pub(crate) unknown: usize,
    /// The last layer the known pieces reach.
    pub(crate) last_known: usize,
}

/// How the graph's walk sees a decision ([`Decision::reveals`]): every piece known now in
/// the order they come, and how many more a PC may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reveals {
    /// The held piece first (when the slot is filled), the current piece, the preview, and
    /// the pieces left in the bag ([`Decision::walks`]): the one it forces next, or the
    /// two of it in one of their orders.
    pub(crate) known: Vec<Piece>,
    /// How many of the last of `known` are the bag's rather than in view: their reveals
    /// tell nothing (0 to 2).
    pub(crate) forced: usize,
    /// Pieces a PC may use that are not known yet (1 to [`MAX_WALK_UNKNOWN`]).
    pub(crate) unknown: usize,
    /// The pieces left in the bag after `known` (empty when a fresh bag follows).
    pub(crate) bag: PieceSet,
}

/// Where a move leads: the field and the hold slot after it, or a PC.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveTo {
    pub(crate) mv: Move,
    /// `None` when the move makes the PC.
    pub(crate) after: Option<(PcField, Option<Piece>)>,
}

impl MoveTo {
    /// The state the move leads to, as the layer walks name it (`None` for a PC).
    pub(crate) fn state(&self) -> Option<State> {
        self.after
            .map(|(field, hold)| (field.key(), hold_code(hold)))
    }
}

impl Decision {
    /// Checks `position` for a solver with these rules and preview length: the preview's
    /// length, the field against its clear line, and the queue against the bag state.
    pub(crate) fn from_position(
        position: &Position,
        hold_rule: bool,
        preview: usize,
    ) -> Result<Decision, SolverError> {
        if position.preview.len() > MAX_PREVIEW {
            return Err(SolverError::PreviewTooLong(position.preview.len()));
        }
        if position.preview.len() != preview {
            return Err(SolverError::PreviewLength {
                expected: preview,
                given: position.preview.len(),
            });
        }
        let (queue, bag) = position.checked_queue()?;
        let field = PcField::new(position.field, position.clear_line)?;
        Ok(Decision {
            field,
            hold: if hold_rule { position.hold } else { None },
            queue: Queue::new(&queue),
            bag,
            hold_rule,
            hold_used: hold_rule && position.hold_used,
        })
    }

    pub(crate) fn key(&self) -> DecisionKey {
        DecisionKey {
            field: self.field.key(),
            queue: queue_key(self.queue.as_slice()),
            hold: hold_code(self.hold) | (self.hold_used as u8) << 3,
            bag: self.bag.bits(),
        }
    }

    /// The pieces the next reveal can give (bits over [`Piece::index`], as the engines'
    /// compact states keep them).
    pub(crate) fn drawable(&self) -> u8 {
        drawable(self.bag.bits())
    }

    /// Whether hold may be pressed now.
    pub(crate) fn may_hold(&self) -> bool {
        self.hold_rule && !self.hold_used
    }

    /// Whether the move to make is a hold into an empty slot, which reveals a piece
    /// before the placement is chosen.
    pub(crate) fn holds_into_empty(&self) -> bool {
        self.may_hold() && self.hold.is_none()
    }

    /// Whether every piece a PC can use is in view, so that the value is whether the
    /// known queue clears (0 or 1). Right after a hold into an empty slot it never is:
    /// the piece a later hold reaches may be unknown.
    pub(crate) fn fully_known(&self) -> bool {
        if self.hold_used && self.hold_rule {
            return false;
        }
        covers(
            &self.field,
            self.queue.len(),
            self.hold.is_some(),
            self.hold_rule,
        )
    }

    /// How the decision lies over the layers of a walk, when a walk answers it: the
    /// hold slot filled (with the hold rule), one to [`MAX_UNKNOWN`] pieces not revealed
    /// yet, and every one of them revealed before the last placement.
    pub(crate) fn layers(&self) -> Option<Layers> {
        let hold_rule = self.hold_rule;
        let needed = self.field.pieces_needed() as usize;
        let in_view = self.queue.len();
        let known = if hold_rule {
            // Right after a hold into the empty slot the root may not swap, but every
            // later decision may: the same layers, the root's swaps left out.
            self.hold?;
            in_view + 1
        } else {
            in_view
        };
        let last_known = in_view;
        // Pieces a PC can use: one more than the placements with hold (one may stay held).
        let unknown = (needed + hold_rule as usize).checked_sub(known)?;
        ((1..=MAX_UNKNOWN).contains(&unknown) && unknown <= last_known && last_known < needed)
            .then_some(Layers {
                unknown,
                last_known,
            })
    }

    /// The piece the next reveal must show, when the bag state leaves one piece.
    pub(crate) fn forced(&self) -> Option<Piece> {
        (self.bag.len() == 1).then(|| self.bag.first()).flatten()
    }

    /// How many of the pieces a PC may use are not in view (a piece the bag forces counts as
    /// in view).
    pub(crate) fn unknown_pieces(&self) -> usize {
        let in_view = self.queue.len()
            + usize::from(self.hold_rule && self.hold.is_some())
            + usize::from(self.forced().is_some());
        (self.field.pieces_needed() as usize + usize::from(self.hold_rule)).saturating_sub(in_view)
    }

    /// How the graph's walk sees the decision, when it answers it: with the hold rule the
    /// slot filled or empty (then hold may still be pressed into it), one to
    /// [`MAX_WALK_UNKNOWN`] (with the hold rule) pieces not known yet (a piece the bag forces counts as known), and
    /// every one of them revealed before the first of them is placed.
    pub(crate) fn reveals(&self) -> Option<Reveals> {
        let forced: Vec<Piece> = self.forced().into_iter().collect();
        self.reveals_with(&forced)
            // Known with the forced piece, the queue is the known-queue search's; the walk
            // takes it as one unknown piece of a bag of one.
            .or_else(|| self.reveals_with(&[]))
    }

    /// [`Decision::reveals`] with `bag` as the pieces of the bag known after the queue, in
    /// their order (the one it forces, or both of two), whose reveals tell nothing.
    fn reveals_with(&self, bag: &[Piece]) -> Option<Reveals> {
        let known: Vec<Piece> = self
            .hold
            .filter(|_| self.hold_rule)
            .into_iter()
            .chain(self.queue.as_slice().iter().copied())
            .chain(bag.iter().copied())
            .collect();
        let needed = self.field.pieces_needed() as usize;
        // Pieces a PC can use: one more than the placements with hold (one may stay held).
        let unknown = (needed + self.hold_rule as usize).checked_sub(known.len())?;
        // At the first unknown piece's turn, `queue.len()` of the unknown pieces show.
        // Five only with the hold rule (the walk's classes four pieces from a PC hold).
        let most = if self.hold_rule {
            MAX_WALK_UNKNOWN
        } else {
            MAX_UNKNOWN
        };
        ((1..=most).contains(&unknown) && unknown <= self.queue.len()).then_some(Reveals {
            known,
            forced: bag.len(),
            unknown,
            bag: if bag.is_empty() {
                self.bag
            } else {
                PieceSet::EMPTY
            },
        })
    }

    /// The walks of the graph that answer the decision together, each as likely as the
    /// other: one ([`Decision::reveals`]), or, when that fails and the bag has two pieces
    /// left, one for each order of them. The first reveal shows one of the two and so
    /// tells the other, so after the first step each walk sees what the player sees (the
    /// first decision of a game with four previews: six pieces unknown, four after the
    /// bag's two). `None` when no walk answers.
    pub(crate) fn walks(&self) -> Option<Vec<Reveals>> {
        if let Some(reveals) = self.reveals() {
            return Some(vec![reveals]);
        }
        if !self.hold_rule || self.bag.len() != 2 {
            return None;
        }
        let mut left = self.bag.iter();
        let (a, b) = (left.next()?, left.next()?);
        Some(vec![
            self.reveals_with(&[a, b])?,
            self.reveals_with(&[b, a])?,
        ])
    }

    /// The pieces that can be placed now (the current one, and the held one when it
    /// differs and hold may be pressed), with the hold slot after each. A hold into an
    /// empty slot is not among them (see [`Decision::holds_into_empty`]).
    pub(crate) fn choices(&self) -> impl Iterator<Item = (Piece, Option<Piece>)> + use<> {
        let current = self.queue.current();
        let swap = match self.hold {
            Some(h) if self.may_hold() && h != current => Some((h, Some(current))),
            _ => None,
        };
        core::iter::once((current, self.hold)).chain(swap)
    }

    /// The decision after holding into the empty slot when `revealed` shows: the current
    /// piece held, the next one to place.
    pub(crate) fn after_hold(&self, revealed: Piece) -> Decision {
        Decision {
            field: self.field,
            hold: Some(self.queue.current()),
            queue: self.queue.advance(revealed),
            bag: self.bag_after(revealed),
            hold_rule: self.hold_rule,
            hold_used: true,
        }
    }

    /// The bag after the next reveal shows `piece` (empty when that empties it).
    pub(crate) fn bag_after(&self, piece: Piece) -> PieceSet {
        PieceSet::from_bits(bag_after(self.drawable(), piece)).unwrap_or(PieceSet::EMPTY)
    }
}

/// The bag after drawing `piece` from `drawable` (0 when that empties it).
pub(crate) fn bag_after(drawable: u8, piece: Piece) -> u8 {
    drawable & !(1 << piece.index())
}

/// Whether `in_view` queue pieces (and the held one) are every piece a PC of `field` can
/// use: with hold, one more piece could still be reached by holding.
pub(crate) fn covers(field: &PcField, in_view: usize, held: bool, hold_rule: bool) -> bool {
    let needed = field.pieces_needed() as usize;
    if hold_rule {
        needed < in_view + held as usize
    } else {
        needed <= in_view
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_advances_by_one() {
        let q = Queue::new(&[Piece::I, Piece::T, Piece::L]);
        assert_eq!(
            q.advance(Piece::O).as_slice(),
            &[Piece::T, Piece::L, Piece::O]
        );
    }

    fn decision(filled: &str, hold: Option<Piece>, queue: &str) -> Decision {
        let queue: Vec<Piece> = queue.chars().filter_map(Piece::from_char).collect();
        Decision {
            field: PcField::new(filled.parse().unwrap(), 4).unwrap(),
            hold,
            queue: Queue::new(&queue),
            bag: PieceSet::EMPTY,
            hold_rule: true,
            hold_used: false,
        }
    }

    #[test]
    fn the_walk_counts_a_forced_piece_as_known_and_takes_an_empty_slot() {
        let empty = "..........";
        let with_bag = |d: Decision, bag: &str| Decision {
            bag: bag.parse().unwrap(),
            ..d
        };
        // The first decision of a game: six of the first bag in view, the last forced.
        let first = with_bag(decision(empty, None, "LSITJO"), "Z")
            .reveals()
            .unwrap();
        assert_eq!(first.known, queue_of("LSITJOZ"));
        assert_eq!(first.forced, 1);
        assert_eq!(first.unknown, 4);
        assert_eq!(first.bag, PieceSet::EMPTY);
        // A start with four previews, the next piece forced.
        let forced = with_bag(decision(empty, Some(Piece::I), "JLOST"), "Z");
        let reveals = forced.reveals().unwrap();
        assert_eq!(reveals.known, queue_of("IJLOSTZ"));
        assert_eq!(reveals.unknown, 4);
        // Without the forced piece five are unknown: the walk takes five with hold.
        let open = with_bag(decision(empty, Some(Piece::I), "JLOST"), "ZO");
        let reveals = open.reveals().unwrap();
        assert_eq!(reveals.known, queue_of("IJLOST"));
        assert_eq!(reveals.forced, 0);
        assert_eq!((reveals.unknown, reveals.bag), (5, "OZ".parse().unwrap()));
        // Without hold, four at most.
        let no_hold = Decision {
            hold_rule: false,
            ..with_bag(decision(empty, None, "IJLOS"), "TZ")
        };
        assert_eq!(no_hold.reveals(), None);
        // Six unknown (the first decision of a game with four previews): not one walk's,
        // but with two pieces left in the bag, a walk for each of their orders, where
        // those two are known and four unknown.
        let game = with_bag(decision(empty, None, "LSITJ"), "OZ");
        assert_eq!(game.reveals(), None);
        let walks = game.walks().unwrap();
        let known: Vec<Vec<Piece>> = walks.iter().map(|r| r.known.clone()).collect();
        assert_eq!(known, [queue_of("LSITJOZ"), queue_of("LSITJZO")]);
        for reveals in &walks {
            assert_eq!((reveals.forced, reveals.unknown), (2, 4));
            assert_eq!(reveals.bag, PieceSet::EMPTY);
        }
        // One walk when one answers, none with three left.
        assert_eq!(open.walks(), Some(vec![open.reveals().unwrap()]));
        assert_eq!(with_bag(decision(empty, None, "LSIT"), "JOZ").walks(), None);
        // Without hold, never two.
        let no_hold_game = Decision {
            hold_rule: false,
            ..game
        };
        assert_eq!(no_hold_game.walks(), None);
        // Every piece known with the forced one: the walk takes it as one unknown piece
        // of a bag of one.
        let pco = "##.....###/###....###/####...###/###....###";
        let known = with_bag(decision(pco, Some(Piece::I), "TLO"), "J");
        let reveals = known.reveals().unwrap();
        assert_eq!(reveals.forced, 0);
        assert_eq!((reveals.unknown, reveals.bag), (1, "J".parse().unwrap()));
        // An empty slot with fewer previews than unknown pieces: not the walk's.
        assert_eq!(decision(empty, None, "LSIT").reveals(), None);
    }

    fn queue_of(text: &str) -> Vec<Piece> {
        text.chars().filter_map(Piece::from_char).collect()
    }

    #[test]
    fn the_layers_count_unknown_pieces_and_known_layers() {
        let empty = "..........";
        let layers = |unknown, last_known| {
            Some(Layers {
                unknown,
                last_known,
            })
        };
        // The first decision of a PC: hold and six in view, four unknown.
        assert_eq!(
            decision(empty, Some(Piece::I), "TSZLJO").layers(),
            layers(4, 6)
        );
        let no_hold = Decision {
            hold_rule: false,
            ..decision(empty, None, "TSZLJO")
        };
        assert_eq!(no_hold.layers(), layers(4, 6));
        // Right after a hold into the empty slot: the same layers (the root does not swap).
        let held = Decision {
            hold_used: true,
            ..decision(empty, Some(Piece::I), "TSZLJO")
        };
        assert_eq!(held.layers(), layers(4, 6));
        // 9 pieces left: three unknown; 8: two.
        let one = "####......";
        assert_eq!(
            decision(one, Some(Piece::O), "TSZLJI").layers(),
            layers(3, 6)
        );
        let two = "##......../##......../##......../##........";
        assert_eq!(
            decision(two, Some(Piece::O), "TSZLJI").layers(),
            layers(2, 6)
        );
        // Not for a walk: an empty hold slot, more unknown pieces than it takes.
        assert_eq!(decision(empty, None, "TSZLJO").layers(), None);
        assert_eq!(decision(empty, Some(Piece::I), "TSZL").layers(), None);
    }
}
