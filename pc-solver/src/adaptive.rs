//! The exact chance of a perfect clear with a limited preview, and ranked moves.
//!
//! The value of a position is the chance of a PC under optimal play with the player's own
//! information: 1 at a PC, 0 when none can be reached, otherwise the best move's average
//! over the piece that the move reveals at the end of the preview (drawn uniformly from
//! what the bag has left). Once the pieces in view cover the rest of the PC, the value is
//! 0 or 1 and the known-queue search answers it; one move before that, a single search
//! answers it for every possible revealed piece at once.
//!
//! Below the root only the best move of a position matters, so a move is dropped as soon
//! as its revealed pieces cannot lift its average above the best move found so far (the
//! "Star1" cut of expectimax). Every value that is stored is exact.

use crate::error::SolverError;
use crate::field::PcField;
use crate::fumen::Fumen;
use crate::known::{ALL_PIECES, Goal, KnownMemo, KnownSolver, pieces_in};
use crate::percent::srs_piece;
use crate::position::Position;
use crate::problem::PcProblem;
use crate::rules::Rules;
use crate::search::Searcher;
use ahash::AHashMap;
use pc_bag::{BagState, Ratio};
use pc_srs::{Path, Piece, Placement};

/// Pieces visible at most: the current piece and six previews.
const MAX_QUEUE: usize = 7;

/// Bytes a remembered state costs, counted generously (key, value, table overhead).
const BYTES_PER_STATE: usize = 64;

/// The current piece and the preview, copied by value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Queue {
    pieces: [Piece; MAX_QUEUE],
    len: u8,
}

impl Queue {
    fn new(pieces: &[Piece]) -> Queue {
        let mut queue = Queue {
            pieces: [Piece::I; MAX_QUEUE],
            len: pieces.len() as u8,
        };
        queue.pieces[..pieces.len()].copy_from_slice(pieces);
        queue
    }

    fn as_slice(&self) -> &[Piece] {
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
struct Node {
    field: PcField,
    hold: Option<Piece>,
    queue: Queue,
    /// Pieces left in the current bag after the queue, as bits; 0 when a fresh bag follows.
    bag: u8,
    /// False right after holding into an empty slot: the new current piece must be placed.
    can_hold: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct NodeKey {
    field: u128,
    queue: u64,
    hold: u8,
    bag: u8,
}

impl Node {
    fn key(&self) -> NodeKey {
        NodeKey {
            field: self.field.key(),
            queue: crate::known::queue_key(self.queue.as_slice()),
            hold: self.hold.map_or(7, |p| p.index() as u8) | (self.can_hold as u8) << 3,
            bag: self.bag,
        }
    }

    /// The pieces the next reveal can give.
    fn drawable(&self) -> u8 {
        if self.bag == 0 { ALL_PIECES } else { self.bag }
    }
}

/// The bag after drawing `piece` from `drawable` (0 when that empties it).
fn bag_after(drawable: u8, piece: Piece) -> u8 {
    drawable & !(1 << piece.index())
}

/// One legal move of a position and its exact chance.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RankedMove {
    /// Whether the hold key is pressed first (the piece placed is then the held piece, or
    /// with an empty slot the next piece of the queue).
    pub hold: bool,
    /// Where the piece locks, in the position's field.
    pub placement: Placement,
    /// The chance of a perfect clear after this move with best play from there on. For a
    /// hold into an empty slot it is the chance when this placement is chosen whatever
    /// piece the hold reveals.
    pub chance: Ratio,
    /// The keys to press (in the perfect-clear model: the piece enters above the clear
    /// line).
    pub path: Option<Path>,
}

/// Every legal move of a position, best first, with the chance of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Recommendation {
    /// The chance of a perfect clear from the position with best play.
    pub chance: Ratio,
    /// With the hold slot empty (and hold allowed): the chance when the hold key is
    /// pressed first and the placement is chosen once the next piece shows. That is a
    /// move of its own, worth at least as much as any of the hold entries of `moves`
    /// (which fix the placement before the piece shows); `chance` is the larger of it and
    /// the best entry of `moves`.
    pub hold_first: Option<Ratio>,
    /// Every legal move, best first (ties: shorter input, then no hold).
    pub moves: Vec<RankedMove>,
    /// A perfect clear that starts with the best move, for one continuation of the bag
    /// that allows it (the placements in play order, each in the field of its moment);
    /// empty when the chance is 0.
    pub line: Vec<Placement>,
}

impl Recommendation {
    /// The sample line as a fumen, one page per placement, starting from the position's
    /// field (paste `v115@…` into a fumen viewer to step through it).
    ///
    /// ```
    /// # use pc_solver::{Position, Rules, Solver};
    /// # use pc_srs::Piece::*;
    /// let field = "##.....###/###....###/####...###/###....###".parse()?;
    /// let position = Position::new(field, T).with_hold(Some(I)).with_preview(&[L, O, S, J, Z]);
    /// let recommendation = Solver::new(Rules::default()).recommend(&position)?;
    /// let fumen = recommendation.line_fumen(&position);
    /// assert_eq!(fumen.pages.len(), 4);
    /// assert!(fumen.to_string().starts_with("v115@"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn line_fumen(&self, position: &Position) -> Fumen {
        // Positions are checked against the clear line (at most 8 rows), so the field
        // and every placement of a line fit in a fumen's 23 rows.
        Fumen::from_placements(&position.field, &self.line)
    }
}

/// The exact-chance solver. Keeps what it learned between calls (positions of the same
/// game share most of their states) within a memory budget.
///
/// ```
/// use pc_solver::{Position, Rules, Solver};
/// use pc_srs::Piece::*;
///
/// // PCO: I held, T L O S J in view, Z the last piece of the bag. Every piece needed
/// // is known, so the chance is 0 or 1.
/// let field = "##.....###/###....###/####...###/###....###".parse()?;
/// let position = Position::new(field, T)
///     .with_hold(Some(I))
///     .with_preview(&[L, O, S, J, Z]);
/// let mut solver = Solver::new(Rules::default());
/// let recommendation = solver.recommend(&position)?;
/// assert!(recommendation.chance.is_one());
/// assert!(recommendation.moves[0].chance.is_one());
/// assert_eq!(recommendation.line.len(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Solver {
    rules: Rules,
    preview: usize,
    goal: Goal,
    memory_limit: usize,
    known: KnownMemo,
    values: AHashMap<NodeKey, Ratio>,
}

impl Solver {
    /// A solver for the rules, with five previews, 4-line (or the position's) PCs only,
    /// and a 256 MiB memory budget.
    pub fn new(rules: Rules) -> Solver {
        Solver {
            rules,
            preview: 5,
            goal: Goal {
                lower_clears: false,
            },
            memory_limit: 256 << 20,
            known: KnownMemo::default(),
            values: AHashMap::new(),
        }
    }

    /// The same solver with `preview` pieces shown after the current one (0 to 6).
    pub fn with_preview(mut self, preview: usize) -> Result<Solver, SolverError> {
        if preview > MAX_QUEUE - 1 {
            return Err(SolverError::PreviewTooLong(preview));
        }
        self.preview = preview;
        self.clear();
        Ok(self)
    }

    /// The same solver counting a PC of fewer lines than the clear line (a 2-line PC while
    /// building a 4-line one) as a success.
    pub fn with_two_line(mut self, two_line: bool) -> Solver {
        self.goal.lower_clears = two_line;
        self.clear();
        self
    }

    /// The same solver with another memory budget in bytes for what it remembers; when a
    /// search passes it, the solver forgets everything and goes on.
    pub fn with_memory_limit(mut self, bytes: usize) -> Solver {
        self.memory_limit = bytes;
        self
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The preview length.
    pub fn preview(&self) -> usize {
        self.preview
    }

    /// An estimate of the bytes held by remembered states.
    pub fn memory_used(&self) -> usize {
        (self.known.len() + self.values.len()) * BYTES_PER_STATE
    }

    /// Forgets every remembered state.
    pub fn clear(&mut self) {
        self.known.clear();
        self.values.clear();
    }

    /// The chance of a perfect clear from the position with best play.
    pub fn chance(&mut self, position: &Position) -> Result<Ratio, SolverError> {
        let node = self.root(position)?;
        let mut engine = self.engine();
        if engine.goal.reached(&node.field) {
            return Ok(Ratio::ONE);
        }
        engine.value(&node)
    }

    /// Every legal move of the position with its exact chance, best first, and a sample
    /// perfect clear for the best move.
    pub fn recommend(&mut self, position: &Position) -> Result<Recommendation, SolverError> {
        let node = self.root(position)?;
        let board = *node.field.board();
        let clear_line = node.field.height();
        let mut engine = self.engine();
        let mut ranked = engine.rank(&node)?;
        let chance = engine.value(&node)?;
        let hold_first = if engine.holds_into_empty(&node) {
            engine.hold_into_empty(&node, None)?
        } else {
            None
        };
        let generator = self.rules.generator();
        let mut moves: Vec<RankedMove> = ranked
            .drain(..)
            .map(|(hold, placement, chance)| RankedMove {
                hold,
                placement,
                chance,
                path: generator
                    .path(&board, &placement, clear_line)
                    .ok()
                    .flatten(),
            })
            .collect();
        moves.sort_by(|a, b| {
            b.chance
                .cmp(&a.chance)
                .then_with(|| path_len(a).cmp(&path_len(b)))
                .then_with(|| a.hold.cmp(&b.hold))
        });
        let line = match moves.first() {
            Some(best) if !best.chance.is_zero() => self.sample_line(&node, best),
            _ => Vec::new(),
        };
        Ok(Recommendation {
            chance,
            hold_first,
            moves,
            line,
        })
    }

    /// Validates a position and turns it into a search node.
    fn root(&mut self, position: &Position) -> Result<Node, SolverError> {
        if position.preview.len() > MAX_QUEUE - 1 {
            return Err(SolverError::PreviewTooLong(position.preview.len()));
        }
        if position.preview.len() != self.preview {
            return Err(SolverError::PreviewLength {
                expected: self.preview,
                given: position.preview.len(),
            });
        }
        position.check_bag()?;
        let problem = PcProblem::new(position.field, position.clear_line, self.rules.clone())?;
        if self.memory_used() > self.memory_limit {
            self.clear();
        }
        Ok(Node {
            field: *problem.field(),
            hold: if self.rules.hold { position.hold } else { None },
            queue: Queue::new(&position.queue()),
            bag: position.bag.bits(),
            can_hold: self.rules.hold && !position.hold_used,
        })
    }

    fn engine(&mut self) -> Engine<'_> {
        let budget = self.memory_limit / BYTES_PER_STATE;
        Engine {
            known: KnownSolver::new(
                self.rules.generator(),
                self.rules.hold,
                self.goal,
                &mut self.known,
            )
            .caching_children(),
            values: &mut self.values,
            goal: self.goal,
            hold: self.rules.hold,
            budget,
        }
    }

    /// One perfect clear starting with `best`, for the first continuation of the bag that
    /// allows one.
    fn sample_line(&self, node: &Node, best: &RankedMove) -> Vec<Placement> {
        let queue = node.queue.as_slice();
        // The pieces after the move, in play order, and what is in hold.
        let (hold_after, rest): (Option<Piece>, &[Piece]) = match (best.hold, node.hold) {
            (false, _) => (node.hold, &queue[1..]),
            (true, Some(_)) => (Some(queue[0]), &queue[1..]),
            (true, None) => (Some(queue[0]), &queue[2.min(queue.len())..]),
        };
        let after = node.field.place(&best.placement);
        let mut line = vec![best.placement];
        if self.goal.reached(&after) {
            return line;
        }
        let Ok(problem) = PcProblem::new(*after.board(), after.height(), self.rules.clone()) else {
            return Vec::new();
        };
        let mut searcher = Searcher::new(&problem);
        let known = rest.len() + hold_after.is_some() as usize;
        let wanted = after.pieces_needed() as usize + self.rules.hold as usize;
        let unknown = wanted.saturating_sub(known);
        let bag = BagState::from_remaining(
            pc_bag::PieceSet::from_bits(node.bag).unwrap_or(pc_bag::PieceSet::EMPTY),
        );
        let Ok(continuations) = bag.continuations(unknown) else {
            return Vec::new();
        };
        for (sequence, _) in continuations {
            let mut pieces = rest.to_vec();
            pieces.extend(sequence.iter().map(srs_piece));
            if let Some(solution) = searcher.solution(hold_after, &pieces) {
                line.extend(solution.placements());
                return line;
            }
        }
        Vec::new()
    }
}

/// The average if every piece still to try gave a PC: a move whose bound does not beat the
/// best move so far can be dropped.
fn upper_bound(sum: Ratio, left: u64, share: Ratio) -> Result<Ratio, SolverError> {
    sum.checked_add(Ratio::new(left, 1).expect("1 > 0"))
        .and_then(|s| s.checked_mul(share))
        .ok_or(SolverError::Overflow)
}

fn path_len(m: &RankedMove) -> usize {
    m.path.as_ref().map_or(usize::MAX, |p| p.inputs().len())
}

/// The recursive search over one solver's tables.
struct Engine<'a> {
    known: KnownSolver<'a>,
    values: &'a mut AHashMap<NodeKey, Ratio>,
    goal: Goal,
    hold: bool,
    /// States the tables may hold before they are emptied.
    budget: usize,
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

impl Engine<'_> {
    /// The exact value of a decision whose field is not a PC.
    fn value(&mut self, node: &Node) -> Result<Ratio, SolverError> {
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
        let needed = node.field.pieces_needed() as usize;
        let in_view = node.queue.len as usize + 1;
        let last_level = if self.hold {
            needed < in_view + node.hold.is_some() as usize
        } else {
            needed <= in_view
        };
        if !last_level {
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
    fn rank(&mut self, node: &Node) -> Result<Vec<(bool, Placement, Ratio)>, SolverError> {
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
    fn holds_into_empty(&self, node: &Node) -> bool {
        self.hold && node.can_hold && node.hold.is_none()
    }

    /// The value of holding into an empty slot: the average over the revealed piece of the
    /// best placement of the new current piece; `None` when it cannot beat `alpha`.
    fn hold_into_empty(
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
        let needed = node.field.pieces_needed() as usize;
        let in_view = node.queue.len as usize;
        if self.hold {
            needed < in_view + node.hold.is_some() as usize
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
        let child_in_view = rest.len() + 1;
        let needed = afterwards.field.pieces_needed() as usize;
        let children_known = afterwards.can_hold
            && if self.hold {
                needed < child_in_view + afterwards.hold.is_some() as usize
            } else {
                needed <= child_in_view
            };
        if children_known {
            let mask = match rest.split_last() {
                // The move's siblings share the queue up to its last piece (see
                // `winnable`).
                Some((&last, before)) => {
                    self.known
                        .solve_last_two_unknown(afterwards.field, afterwards.hold, before)
                        [last.index()]
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
    use crate::percent::bag_piece;

    #[test]
    fn queue_advances_by_one() {
        let q = Queue::new(&[Piece::I, Piece::T, Piece::L]);
        assert_eq!(
            q.advance(Piece::O).as_slice(),
            &[Piece::T, Piece::L, Piece::O]
        );
    }

    #[test]
    fn bag_piece_conversion_is_by_index() {
        for p in Piece::ALL {
            assert_eq!(bag_piece(p).index(), p.index());
        }
    }
}
