//! sfinder's `path` and `cover`: every perfect clear of a field that some queue of a
//! pattern can build, and which queues build each; which queues build given setups.
//!
//! The fills of the field come from `pc-zdd-graph`'s fill graph (every way to cover the
//! empty cells with the pieces the queues hold, pieces split by line clears included).
//! For each fill (or setup), a walk over the sets of its placements already placed finds
//! the orders that build it (each placement reachable and resting on the field of its turn,
//! rows cleared before it removed), and in the same walk the queues of the pattern that
//! give one of those orders, hold included, all queues at once: first with the queues as a
//! small automaton ([`queue_dag`]), which tells whether any queue builds the fill, then,
//! for the fills some queue builds, over the tree of the queues' prefixes, which lists
//! them ([`path_summary`] counts them on the automaton instead).

use crate::error::SolverError;
use crate::field::PcField;
use crate::rules::Rules;
use ahash::{AHashMap, AHashSet};
use pc_bag::{PatternSet, Sequence, searching_sequences};
use pc_bitboard::Board32;
use pc_srs::{CentrePos, MoveGenerator, Orientation, Piece, Placement, shape};
use pc_zdd_graph::{BuildOptions, FillGraph, FillPlacement, PieceCounts};
use queue_dag::QueueDag;
use smallvec::{SmallVec, smallvec};
use std::fmt;
use std::ops::ControlFlow;

pub use placing::{PlacingOrders, placing_orders};
pub use summary::{PathStage, PathSummary, path_summary};

mod placing;
mod queue_bits;
mod queue_dag;
mod summary;

/// The perfect clears of a field for a pattern ([`path`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathResult {
    /// The pattern's queues, cut to the pieces a PC can use (one more than it places with
    /// hold) and without repeats, sorted: what [`PathSolution::queues`] counts in.
    pub queues: Vec<Vec<Piece>>,
    /// Every distinct set of placements that makes the PC and that at least one queue
    /// builds (sfinder's `unique`), in the order of the fill graph's fills.
    pub solutions: Vec<PathSolution>,
    /// Whether every fill was walked: false when [`path_with_progress`] was told to stop,
    /// and `solutions` holds those found until then.
    pub complete: bool,
}

/// One perfect clear: its placements and the queues that build it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathSolution {
    /// The placements in an order that builds the PC, each as it lands on the field of its
    /// turn: rows cleared before it are removed and the rows above moved down (as sfinder
    /// writes them).
    pub placements: Vec<Placement>,
    /// The queues that build it, as indices into [`PathResult::queues`], ascending.
    pub queues: Vec<u32>,
}

impl PathResult {
    /// How many queues some solution is built by: the queues that can make the PC.
    pub fn covered(&self) -> usize {
        let mut covered = vec![false; self.queues.len()];
        for solution in &self.solutions {
            for &q in &solution.queues {
                covered[q as usize] = true;
            }
        }
        covered.iter().filter(|&&c| c).count()
    }

    /// For each queue, the solutions it builds, as indices into [`PathResult::solutions`],
    /// ascending (what sfinder's `path -k pattern` lists).
    pub fn by_queue(&self) -> Vec<Vec<usize>> {
        let mut builds = vec![Vec::new(); self.queues.len()];
        for (i, solution) in self.solutions.iter().enumerate() {
            for &q in &solution.queues {
                builds[q as usize].push(i);
            }
        }
        builds
    }

    /// A few solutions that together are built by every queue some solution is built by
    /// (sfinder's `minimal`), as indices into [`PathResult::solutions`], ascending.
    ///
    /// Solutions whose queues are among another's are left out, as sfinder does; of the
    /// rest, the one built by the most queues not covered yet is taken, then the next,
    /// until every queue is covered. So the set is never larger than sfinder's (one
    /// solution for each set of queues no other contains) and often smaller.
    pub fn minimal(&self) -> Vec<usize> {
        let mut candidates: Vec<usize> = (0..self.solutions.len())
            .filter(|&i| !self.solutions[i].queues.is_empty())
            .collect();
        // Most queues first, so a solution is only compared with those that may contain it.
        candidates.sort_by_key(|&i| std::cmp::Reverse(self.solutions[i].queues.len()));
        let mut maximal: Vec<usize> = Vec::new();
        for &i in &candidates {
            let queues = &self.solutions[i].queues;
            if !maximal
                .iter()
                .any(|&k| is_subset(queues, &self.solutions[k].queues))
            {
                maximal.push(i);
            }
        }
        let mut covered = vec![false; self.queues.len()];
        let mut left = self.covered();
        let mut chosen = Vec::new();
        while left > 0 {
            let gain = |i: usize| {
                self.solutions[i]
                    .queues
                    .iter()
                    .filter(|&&q| !covered[q as usize])
                    .count()
            };
            let Some(best) = maximal
                .iter()
                .copied()
                .max_by_key(|&i| (gain(i), usize::MAX - i))
            else {
                break;
            };
            for &q in &self.solutions[best].queues {
                if !covered[q as usize] {
                    covered[q as usize] = true;
                    left -= 1;
                }
            }
            chosen.push(best);
            maximal.retain(|&i| i != best);
        }
        chosen.sort_unstable();
        chosen
    }
}

impl PathSolution {
    /// The solution as sfinder's csv writes it (`-f csv -k none`): `piece,rotation,x,y` for
    /// each placement, joined by `;`, with sfinder's rotation names (`0`, `R`, `2`, `L`,
    /// the ones it uses for I, S, Z and O) and the rotation centre's cell.
    pub fn sfinder_csv(&self) -> String {
        sfinder_csv(&self.placements)
    }
}

/// Placements as sfinder's csv writes them ([`PathSolution::sfinder_csv`]).
fn sfinder_csv(placements: &[Placement]) -> String {
    let parts: Vec<String> = placements
        .iter()
        .map(|p| SfinderPlacement(*p).to_string())
        .collect();
    parts.join(";")
}

/// A placement as sfinder names it: I and S turned left rather than right, Z right, O in
/// spawn, on the same cells.
struct SfinderPlacement(Placement);

impl fmt::Display for SfinderPlacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let placement = self.0;
        let piece = placement.piece();
        let orientation = match (piece, placement.orientation()) {
            (Piece::I | Piece::S, Orientation::Right) => Orientation::Left,
            (Piece::I | Piece::S | Piece::Z, Orientation::Reverse) => Orientation::Spawn,
            (Piece::Z, Orientation::Left) => Orientation::Right,
            (Piece::O, _) => Orientation::Spawn,
            (_, o) => o,
        };
        // The centre that puts the orientation's cells on the placement's.
        let cells = placement.cells();
        let lowest = |c: &[(i32, i32)]| *c.iter().min_by_key(|&&(x, y)| (y, x)).unwrap();
        let mine: Vec<(i32, i32)> = cells
            .iter()
            .map(|&(x, y)| (i32::from(x), i32::from(y)))
            .collect();
        let shape: Vec<(i32, i32)> = shape::cells(piece, orientation)
            .iter()
            .map(|&(x, y)| (i32::from(x), i32::from(y)))
            .collect();
        let (mx, my) = lowest(&mine);
        let (sx, sy) = lowest(&shape);
        let rotation = ['0', 'R', '2', 'L'][orientation as usize];
        write!(f, "{piece},{rotation},{},{}", mx - sx, my - sy)
    }
}

/// Whether sorted `a` is contained in sorted `b`.
fn is_subset(a: &[u32], b: &[u32]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut rest = b;
    a.iter().all(|x| match rest.binary_search(x) {
        Ok(at) => {
            rest = &rest[at + 1..];
            true
        }
        Err(_) => false,
    })
}

/// Every perfect clear of `field` that a queue of `patterns` builds under `rules` (hold or
/// not, drop mode, kicks), with the queues that build each: sfinder's `path`. The queues
/// are the pattern's, cut to the pieces the PC can use and without repeats, as for
/// [`percent`](crate::percent).
///
/// Errors: [`SolverError::PatternTooShort`] when the pattern gives fewer pieces than the PC
/// needs. Cost: one walk over the orders of each fill of the field whose pieces the queues
/// hold, with the queues as a small automaton, then for each solution a walk over the
/// prefixes of the queues that build it; memory grows with the solutions times their
/// queues, so for patterns of many queues (the empty field with `*p7,*p4`: 4.2 million
/// queues, hundreds of thousands of solutions) use [`path_summary`], which keeps no
/// queues per solution.
///
/// ```
/// use pc_solver::{PcField, Rules, path};
///
/// // The PCO with I kept in hold.
/// let pco = PcField::new("##.....###/###....###/####...###/###....###".parse()?, 4)?;
/// let result = path(&pco, &Rules::default(), &"I,*p4".parse()?)?;
/// assert_eq!(result.queues.len(), 840);
/// // The queues with a PC: sfinder's `percent`.
/// assert_eq!(result.covered(), 711);
/// // sfinder's `path` finds the same 63 solutions, and a minimal set of 33.
/// assert_eq!(result.solutions.len(), 63);
/// assert_eq!(result.minimal().len(), 26);
/// // Each as sfinder's csv writes it, placements in an order that builds it.
/// println!("{}", result.solutions[0].sfinder_csv());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn path(
    field: &PcField,
    rules: &Rules,
    patterns: &PatternSet,
) -> Result<PathResult, SolverError> {
    path_with_progress(
        field,
        rules,
        patterns,
        &mut |_, _| ControlFlow::Continue(()),
    )
}

/// How many fills [`path_with_progress`] walks between two calls of its `progress`.
const FILLS_PER_CALL: u64 = 1024;

/// [`path`], telling `progress(done, total)` how many of the field's fills whose pieces the
/// queues hold are walked (`total` is their count, at most `u64::MAX`): first `(0, total)`,
/// then every 1,024 fills, last `(total, total)`. When it answers
/// [`ControlFlow::Break`], the walk stops and the result holds the solutions found so far,
/// with [`PathResult::complete`] false: a work limit or a time limit for large patterns.
///
/// ```
/// use pc_solver::{PcField, Rules, path_with_progress};
/// use std::ops::ControlFlow;
///
/// let field = PcField::new("###......./###......./###......./###.......".parse()?, 4)?;
/// let pattern = "*p7".parse()?;
/// let mut calls = Vec::new();
/// let result = path_with_progress(&field, &Rules::default(), &pattern, &mut |done, total| {
///     calls.push((done, total));
///     ControlFlow::Continue(())
/// })?;
/// assert!(result.complete);
/// let total = calls[0].1;
/// assert_eq!((calls[0], calls[calls.len() - 1]), ((0, total), (total, total)));
/// // Told to stop at once: nothing walked, nothing found.
/// let stopped = path_with_progress(&field, &Rules::default(), &pattern, &mut |_, _| {
///     ControlFlow::Break(())
/// })?;
/// assert!(!stopped.complete && stopped.solutions.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn path_with_progress(
    field: &PcField,
    rules: &Rules,
    patterns: &PatternSet,
    progress: &mut dyn FnMut(u64, u64) -> ControlFlow<()>,
) -> Result<PathResult, SolverError> {
    let needed = field.pieces_needed();
    let sequences = cut_queues(field, rules, patterns)?;
    let queues: Vec<Vec<Piece>> = sequences.iter().map(|s| s.iter().collect()).collect();
    if needed == 0 {
        // The PC is made already: every queue builds it, with no placement.
        let every = (0..queues.len() as u32).collect();
        let _ = progress(0, 0);
        return Ok(PathResult {
            queues,
            solutions: vec![PathSolution {
                placements: Vec::new(),
                queues: every,
            }],
            complete: true,
        });
    }
    let tree = QueueTree::new(queues.iter().map(|q| q.iter().copied()));
    let dag = QueueDag::new(&tree);
    let supply = tree.supply(needed as usize);
    let mut solutions = Vec::new();
    let mut orders = Orders::default();
    let complete = walk_fills(field, rules, &supply, progress, |builder, fill| {
        if let Some(solution) = builder.solution(fill, &mut orders, &dag, &tree) {
            solutions.push(solution);
        }
    });
    Ok(PathResult {
        queues,
        solutions,
        complete,
    })
}

/// The queues of `patterns` a PC of `field` is searched with under `rules`: cut to the
/// pieces it can use, without repeats, sorted.
fn cut_queues(
    field: &PcField,
    rules: &Rules,
    patterns: &PatternSet,
) -> Result<Vec<Sequence>, SolverError> {
    let needed = field.pieces_needed();
    searching_sequences(patterns, needed as usize, rules.hold).map_err(|e| {
        SolverError::PatternTooShort {
            given: e.available,
            needed,
        }
    })
}

/// Calls `visit` with each fill of `field` whose pieces some queue of `supply` holds, on
/// the uncleared field, telling `progress` as [`path_with_progress`] does (every fill
/// counted); whether every fill was visited.
fn walk_fills(
    field: &PcField,
    rules: &Rules,
    supply: &Supply,
    progress: &mut dyn FnMut(u64, u64) -> ControlFlow<()>,
    mut visit: impl FnMut(&mut Builder<'_>, &[Uncleared]),
) -> bool {
    let graph = FillGraph::build(
        field.board(),
        field.clear_line(),
        BuildOptions::new()
            .piece_budget(supply.budget)
            .acyclic(true),
    )
    .expect("a checked PC field has a fill graph");
    let total = u64::try_from(graph.count()).unwrap_or(u64::MAX);
    let movegen = MoveGenerator::new(&rules.kicks, rules.drop);
    let mut builder = Builder::new(field, rules, &movegen);
    let mut complete = progress(0, total).is_continue();
    let mut done = 0u64;
    // Whether some queue holds the pieces of a fill, for each count of pieces met.
    let mut held_by_a_queue: AHashMap<u64, bool> = AHashMap::new();
    let mut fills = graph.fills();
    while complete {
        let Some(fill) = fills.next_fill() else {
            break;
        };
        let pieces = fill.iter().fold(0, |pieces, &id| {
            pieces + lane(graph.placement(id).placement().piece())
        });
        let held = *held_by_a_queue
            .entry(pieces)
            .or_insert_with(|| supply.holds(pieces));
        if held {
            let placements: Vec<FillPlacement> =
                fill.iter().map(|&id| *graph.placement(id)).collect();
            visit(&mut builder, &uncleared_fill(&placements));
        }
        done += 1;
        if done % FILLS_PER_CALL == 0 {
            complete = progress(done, total).is_continue();
        }
    }
    if complete {
        let _ = progress(total, total);
    }
    complete
}

/// Which queues of a pattern build given setups ([`cover`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoverResult {
    /// The pattern's queues, whole (not cut) and without repeats, sorted.
    pub queues: Vec<Vec<Piece>>,
    /// For each setup, for each queue, whether the queue builds the setup.
    pub built: Vec<Vec<bool>>,
}

impl CoverResult {
    /// How many queues build setup `setup`.
    pub fn count(&self, setup: usize) -> usize {
        self.built[setup].iter().filter(|&&b| b).count()
    }

    /// How many queues build at least one of the setups (sfinder's `OR`).
    pub fn any(&self) -> usize {
        (0..self.queues.len())
            .filter(|&q| self.built.iter().any(|b| b[q]))
            .count()
    }

    /// How many queues build every setup (sfinder's `AND`; all of them when there is none).
    pub fn all(&self) -> usize {
        (0..self.queues.len())
            .filter(|&q| self.built.iter().all(|b| b[q]))
            .count()
    }
}

/// The row pieces enter above in [`cover`]: setups stay below it.
const COVER_ENTRY_LINE: u32 = 24;

/// Which queues of `patterns` build each setup on `field` under `rules`: sfinder's `cover`.
/// A setup is placements, each on the field as it is at its turn (rows cleared by the
/// placements before it removed, as fumen pages show them); a queue builds it when, taking
/// its pieces in order (with hold if the rules have it), every placement of the setup can
/// be placed, each reachable and resting when placed, whatever their order; pieces of the
/// queue left over do not matter, and a queue with fewer pieces than the setup does not
/// build it. The queues are the pattern's, whole and without repeats.
///
/// Errors: [`SolverError::Setup`] when a placement of a setup lies on a filled cell or at
/// or above row 24 of the uncleared field.
///
/// ```
/// use pc_solver::{Board32, Piece, Placement, Orientation, CentrePos, Rules, cover};
///
/// // On the empty field: an O in the corner, then an I beside it.
/// let o = Placement::new(Piece::O, Orientation::Spawn, CentrePos { x: 0, y: 0 })?;
/// let i = Placement::new(Piece::I, Orientation::Spawn, CentrePos { x: 3, y: 0 })?;
/// let result = cover(&Board32::new(), &[vec![o, i]], &Rules::default(), &"[OIT]p3".parse()?)?;
/// assert_eq!(result.queues.len(), 6);
/// // With hold, every order of O, I and T places O and I.
/// assert_eq!(result.count(0), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn cover(
    field: &Board32,
    setups: &[Vec<Placement>],
    rules: &Rules,
    patterns: &PatternSet,
) -> Result<CoverResult, SolverError> {
    let queues: Vec<Vec<Piece>> = patterns
        .distinct()
        .iter()
        .map(|s| s.iter().collect())
        .collect();
    let sets = setups
        .iter()
        .enumerate()
        .map(|(i, setup)| setup_on(field, setup, i))
        .collect::<Result<Vec<_>, _>>()?;
    let tree = QueueTree::new(queues.iter().map(|q| q.iter().copied()));
    let movegen = MoveGenerator::new(&rules.kicks, rules.drop);
    let mut builder = Builder::on(*field, COVER_ENTRY_LINE, rules, &movegen);
    let mut orders = Orders::default();
    let built = sets
        .iter()
        .map(|set| {
            builder.orders(set, &mut orders);
            let built = builder.built(&orders, &tree);
            let mut marked = vec![false; tree.children.len()];
            for &node in &built.prefixes {
                marked[node as usize] = true;
            }
            let mut out = vec![false; queues.len()];
            for &q in &built.queues {
                out[q as usize] = true;
            }
            for (q, queue) in queues.iter().enumerate() {
                let mut node = 0usize;
                for &piece in queue {
                    if marked[node] {
                        break;
                    }
                    node = tree.children[node][piece.index()] as usize;
                }
                out[q] |= marked[node];
            }
            out
        })
        .collect();
    Ok(CoverResult { queues, built })
}

/// A setup's placements on the uncleared field, from each placed on the field of its turn.
fn setup_on(
    field: &Board32,
    setup: &[Placement],
    index: usize,
) -> Result<Vec<Uncleared>, SolverError> {
    let error = |placement: usize, reason: &'static str| SolverError::Setup {
        setup: index,
        placement,
        reason,
    };
    if setup.len() > MAX_SETUP {
        return Err(error(MAX_SETUP, "a setup has at most 31 placements"));
    }
    // The rows of the uncleared field still there, bottom first, and their cells.
    let mut rows: Vec<u32> = (0..COVER_ENTRY_LINE).collect();
    let mut filled: Vec<u16> = (0..COVER_ENTRY_LINE).map(|y| field.row(y)).collect();
    let mut out = Vec::with_capacity(setup.len());
    for (k, placement) in setup.iter().enumerate() {
        let mut cells = [(0u8, 0u8); 4];
        for (cell, (x, y)) in cells.iter_mut().zip(placement.cells()) {
            let row = *rows
                .get(usize::from(y))
                .ok_or(error(k, "it reaches row 24 of the field or above"))?;
            if filled[row as usize] >> x & 1 != 0 {
                return Err(error(k, "it lies on a filled cell"));
            }
            filled[row as usize] |= 1 << x;
            *cell = (x, row as u8);
        }
        out.push(Uncleared::new(placement.piece(), cells));
        rows.retain(|&r| filled[r as usize] != FULL_ROW);
    }
    Ok(out)
}

/// The most placements of a setup (a set of placements is a 32-bit mask in the walk).
const MAX_SETUP: usize = 31;

/// A row with all ten cells filled.
const FULL_ROW: u16 = 0x3ff;

/// Queues as an automaton read piece by piece: the tree of their prefixes, or the same with
/// equal rests merged ([`QueueDag`]).
trait Queues {
    fn root(&self) -> u32;
    /// The node after `piece` ([`NONE`] when no queue goes on with it).
    fn child(&self, node: u32, piece: usize) -> u32;
    /// Whether a queue ends at `node`.
    fn ends(&self, node: u32) -> bool;
}

impl Queues for QueueTree {
    fn root(&self) -> u32 {
        0
    }

    #[inline]
    fn child(&self, node: u32, piece: usize) -> u32 {
        self.children[node as usize][piece]
    }

    #[inline]
    fn ends(&self, node: u32) -> bool {
        self.queue[node as usize] != NONE
    }
}

/// The queues as a tree of their prefixes: node 0 is the empty prefix.
struct QueueTree {
    /// Each node's child for each piece ([`NONE`] for none).
    children: Vec<[u32; 7]>,
    /// The queue a node ends, if any ([`NONE`] for none).
    queue: Vec<u32>,
    /// Each queue's count of each piece ([`lane`]), without repeats.
    pieces: AHashSet<u64>,
}

const NONE: u32 = u32::MAX;

impl QueueTree {
    /// The tree of `queues`, numbered in their order.
    fn new<Q: IntoIterator<Item = Piece>>(queues: impl IntoIterator<Item = Q>) -> QueueTree {
        let mut tree = QueueTree {
            children: vec![[NONE; 7]],
            queue: vec![NONE],
            pieces: AHashSet::new(),
        };
        for (q, queue) in queues.into_iter().enumerate() {
            let mut node = 0;
            let mut pieces = 0;
            for piece in queue {
                pieces += lane(piece);
                let child = tree.children[node][piece.index()];
                node = if child == NONE {
                    tree.children.push([NONE; 7]);
                    tree.queue.push(NONE);
                    let new = tree.children.len() - 1;
                    tree.children[node][piece.index()] = new as u32;
                    new
                } else {
                    child as usize
                };
            }
            tree.queue[node] = q as u32;
            tree.pieces.insert(pieces);
        }
        tree
    }

    /// The pieces a fill of a PC that places `needed` pieces may use.
    fn supply(&self, needed: usize) -> Supply {
        // The most of each piece a queue holds, and no more than the PC places.
        let mut budget = PieceCounts::ZERO;
        for piece in Piece::ALL {
            let most = self.pieces.iter().map(|&p| p >> (8 * piece.index()) & 0xff);
            budget.set(piece, most.max().unwrap_or(0).min(needed as u64) as u8);
        }
        // A queue's pieces that another queue's hold as well tell nothing more.
        let mut pieces: Vec<u64> = self.pieces.iter().copied().collect();
        pieces.sort_unstable_by(|a, b| b.cmp(a));
        let mut most: Vec<u64> = Vec::new();
        for held in pieces {
            if !most.iter().any(|&m| holds(m, held)) {
                most.push(held);
            }
        }
        Supply {
            budget,
            queue_pieces: most,
        }
    }
}

/// The pieces the queues of a pattern hold: what a fill may use.
struct Supply {
    /// The most of each piece a queue holds, and no more than the PC places.
    budget: PieceCounts,
    /// The count of each piece of the queues ([`lane`]), those that no other queue's
    /// counts hold.
    queue_pieces: Vec<u64>,
}

impl Supply {
    /// Whether some queue holds `pieces` (counts of each piece, [`lane`]).
    fn holds(&self, pieces: u64) -> bool {
        self.queue_pieces.iter().any(|&queue| holds(queue, pieces))
    }
}

/// One of a piece in a count of each piece packed in a word: 8 bits a piece, which holds
/// the count of a queue's pieces (a queue is far shorter than 128 pieces).
fn lane(piece: Piece) -> u64 {
    1 << (8 * piece.index())
}

/// Whether the counts `most` are at least `pieces` for every piece ([`lane`]): each lane
/// with its top bit set minus the other's keeps that bit exactly when it is not less.
fn holds(most: u64, pieces: u64) -> bool {
    const TOP: u64 = 0x0080_8080_8080_8080;
    (most | TOP).wrapping_sub(pieces) & TOP == TOP
}

/// A placement on the uncleared field: its piece and its cells, rows counted as they are
/// before any line clear (a piece split by a clear covers rows that are not adjacent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Uncleared {
    piece: Piece,
    /// The cells `(x, y)`.
    cells: [(u8, u8); 4],
    /// The rows it covers, bit `y` for row `y`.
    rows: u32,
    /// The cells as a board, merged into the field of each step.
    board: Board32,
    /// The rows from its lowest to its highest, and the placement there when those are
    /// all its rows (no row cleared through it): what it lands as when no row of the
    /// span is cleared, lowered by the rows cleared below it.
    span: u32,
    whole: Option<Placement>,
}

impl Uncleared {
    fn new(piece: Piece, cells: [(u8, u8); 4]) -> Uncleared {
        let rows: u32 = cells.iter().fold(0, |rows, &(_, y)| rows | 1 << y);
        let mut board = Board32::new();
        for &(x, y) in &cells {
            board.fill(usize::from(x), u32::from(y));
        }
        let lowest = rows.trailing_zeros();
        let highest = 31 - rows.leading_zeros();
        let span = ((1u64 << (highest + 1)) - (1u64 << lowest)) as u32;
        let mut uncleared = Uncleared {
            piece,
            cells,
            rows,
            board,
            span,
            whole: None,
        };
        if span == rows {
            uncleared.whole = uncleared.landed(0);
        }
        uncleared
    }

    /// The placement as it lands once the rows of `cleared` are cleared, in its canonical
    /// orientation; `None` when a row it covers is cleared or a row it skips is not.
    fn after_clears(&self, cleared: u32) -> Option<Placement> {
        if self.span & cleared != 0 {
            return self.landed(cleared);
        }
        let whole = self.whole?;
        let below = (cleared & (self.span - 1) & !self.span).count_ones() as i32;
        let centre = whole.centre();
        Placement::new(
            self.piece,
            whole.orientation(),
            CentrePos {
                x: centre.x,
                y: centre.y - below,
            },
        )
        .ok()
    }

    /// Whether the placement, whole (not split by a clear) and with no row of its span
    /// cleared yet, rests on `board` (the uncleared field, the rows of `cleared` full) once
    /// those rows are cleared, and whether it then drops straight in from `entry_line`:
    /// what [`pc_srs::drops_straight`] tells of it on the field with the rows cleared, read
    /// on the uncleared field by passing over the cleared rows.
    fn rests_and_drops(&self, board: &Board32, cleared: u32, entry_line: u32) -> (bool, bool) {
        let kept = !cleared;
        let (mut rests, mut drops) = (false, true);
        for &(x, y) in &self.cells {
            let column = board.column(usize::from(x));
            let y = u32::from(y);
            // The nearest row below the cell that stays, if any: the floor otherwise.
            let below = kept & ((1u32 << y) - 1);
            rests |= below == 0 || column >> (31 - below.leading_zeros()) & 1 != 0;
            let above = kept & low_rows(entry_line) & !low_rows(y + 1);
            drops &= column & above == 0;
        }
        (rests, drops)
    }

    /// [`Uncleared::after_clears`], its cells matched against each orientation.
    fn landed(&self, cleared: u32) -> Option<Placement> {
        if self.rows & cleared != 0 || self.span & !self.rows & !cleared != 0 {
            return None;
        }
        let mut cells: Vec<(i32, i32)> = self
            .cells
            .iter()
            .map(|&(x, y)| {
                let below = (cleared & ((1u32 << y) - 1)).count_ones();
                (i32::from(x), i32::from(y) - below as i32)
            })
            .collect();
        cells.sort_unstable_by_key(|&(x, y)| (y, x));
        shape::canonical_orientations(self.piece)
            .iter()
            .find_map(|&orientation| {
                let mut shape: Vec<(i32, i32)> = shape::cells(self.piece, orientation)
                    .iter()
                    .map(|&(x, y)| (i32::from(x), i32::from(y)))
                    .collect();
                shape.sort_unstable_by_key(|&(x, y)| (y, x));
                let (dx, dy) = (cells[0].0 - shape[0].0, cells[0].1 - shape[0].1);
                shape
                    .iter()
                    .zip(&cells)
                    .all(|(&(sx, sy), &(x, y))| (sx + dx, sy + dy) == (x, y))
                    .then(|| Placement::new(self.piece, orientation, CentrePos { x: dx, y: dy }))
            })?
            .ok()
    }
}

/// The rows below `line`, as a mask.
fn low_rows(line: u32) -> u32 {
    if line >= 32 {
        u32::MAX
    } else {
        (1u32 << line) - 1
    }
}

/// The placements of a fill of the fill graph, on the uncleared field.
fn uncleared_fill(fill: &[FillPlacement]) -> Vec<Uncleared> {
    fill.iter()
        .map(|p| {
            let cells = p.cells().map(|(x, y)| (x as u8, y as u8));
            Uncleared::new(p.placement().piece(), cells)
        })
        .collect()
}

/// What the walk over the orders of a set of placements reads, and the buffers it keeps
/// from one set to the next.
struct Builder<'a> {
    /// The field before the placements.
    board: Board32,
    /// Where pieces enter (the clear line of a PC, or above the stack).
    entry_line: u32,
    movegen: &'a MoveGenerator<'a>,
    hold: bool,
    /// Whether a placement is reached on a field, for all sets (they share many fields).
    reachable: AHashMap<(Board32, Placement), bool>,
    /// The states a walk over orders has met.
    seen: AHashSet<(u32, u32, u8)>,
    /// The states a walk over orders has still to go on from.
    stack: Vec<(u32, u32, u8)>,
    /// The counts of [`Builder::queue_count`] for each (node, what its prefixes leave).
    counted: AHashMap<(u32, Configs), u64>,
}

/// What a prefix of a queue leaves a walk over a set's orders: each (placements placed,
/// piece in hand) it can reach, sorted.
type Configs = SmallVec<[(u32, u8); 8]>;

/// How many answers of move generation a [`Builder`] keeps.
const MAX_REACHABLE_KEPT: usize = 1 << 20;

/// The piece in hand: none (no hold, or the hand placed at the end of a queue).
const EMPTY_HAND: u8 = 7;

/// The orders a set of placements can be placed in. Only steps after which every placement
/// left can still be placed are kept, so that a walk never enters a dead end.
#[derive(Default)]
struct Orders {
    /// Every placement placed (a mask of the set's indices).
    full: u32,
    /// For each mask placed, the placements that can come next (a mask; 0 when the rest
    /// cannot be placed) with the number of the set they were found for, by mask: kept
    /// from one set to the next, so that a new set only takes a new number.
    dense: Vec<(u32, u32)>,
    /// The number of the set of `dense`.
    set_number: u32,
    /// The same for sets of more than [`DENSE_MOST`] placements, by mask.
    sparse: AHashMap<u32, u32>,
    /// Each placement's piece (its index).
    pieces: Vec<u8>,
}

/// The most placements of a set whose orders are kept by mask in an array.
const DENSE_MOST: usize = 16;

impl Orders {
    /// Forgets the orders of the last set, for a set of `len` placements.
    fn reset(&mut self, len: usize) {
        self.full = ((1u64 << len) - 1) as u32;
        self.sparse.clear();
        if len <= DENSE_MOST {
            if self.dense.len() < 1 << len {
                self.dense.resize(1 << len, (0, 0));
            }
            self.set_number = self.set_number.wrapping_add(1);
            if self.set_number == 0 {
                // Numbers used up: every entry forgotten, and numbering starts again.
                self.dense.fill((0, 0));
                self.set_number = 1;
            }
        }
    }

    /// The placements that can come next after `placed`, if found.
    #[inline]
    fn found(&self, placed: u32) -> Option<u32> {
        if self.full as usize >= self.dense.len() {
            return self.sparse.get(&placed).copied();
        }
        let (number, next) = self.dense[placed as usize];
        (number == self.set_number).then_some(next)
    }

    fn record(&mut self, placed: u32, next: u32) {
        if self.full as usize >= self.dense.len() {
            self.sparse.insert(placed, next);
        } else {
            self.dense[placed as usize] = (self.set_number, next);
        }
    }

    /// The placements that can come next after `placed` (0 when none can).
    #[inline]
    fn next(&self, placed: u32) -> u32 {
        self.found(placed).unwrap_or(0)
    }

    /// Whether some order places every placement.
    fn any(&self) -> bool {
        self.full == 0 || self.next(0) != 0
    }

    /// What each next piece of a queue leaves, from what a prefix leaves (`configs`):
    /// that piece placed with the hand kept, or the hand placed and that piece taken into
    /// hand; and whether placing the hand finishes the set (a queue ending at the prefix
    /// builds it).
    fn read_next(&self, configs: &[(u32, u8)]) -> ([Configs; 7], bool) {
        let mut next: [Configs; 7] = Default::default();
        let mut ends_here = false;
        for &(placed, hand) in configs {
            for index in bits(self.next(placed)) {
                let piece = self.pieces[index];
                let after = placed | 1 << index;
                next[usize::from(piece)].push((after, hand));
                if hand == piece {
                    ends_here |= after == self.full;
                    for (p, configs) in next.iter_mut().enumerate() {
                        configs.push((after, p as u8));
                    }
                }
            }
        }
        (next, ends_here)
    }

    /// The nodes of `dag` after `node` that some of `configs` (what the prefixes to `node`
    /// leave) go on to and `wanted(piece, child)` accepts: (piece, child, what it leaves,
    /// sorted and without repeats); and whether the queue ending at `node` builds the set,
    /// its last piece in hand placed last.
    fn next_nodes<W: Fn(usize, u32) -> bool>(
        &self,
        dag: &QueueDag,
        node: u32,
        configs: &[(u32, u8)],
        wanted: W,
    ) -> (bool, impl Iterator<Item = (usize, u32, Configs)> + use<W>) {
        let (next, ends_here) = self.read_next(configs);
        let children = dag.children[node as usize];
        let next = next
            .into_iter()
            .enumerate()
            .filter_map(move |(piece, mut configs)| {
                let child = children[piece];
                if child == NONE || configs.is_empty() || !wanted(piece, child) {
                    return None;
                }
                configs.sort_unstable();
                configs.dedup();
                Some((piece, child, configs))
            });
        (ends_here && dag.ends[node as usize], next)
    }
}

/// The indices of the bits set in `mask`, lowest first.
fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let index = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            index
        })
    })
}

/// Where the walk over a set's orders with the queues got every placement placed.
#[derive(Default)]
struct Built {
    /// Tree nodes (prefixes of queues) whose pieces, in order, built the set: every queue
    /// that starts with one of them does.
    prefixes: Vec<u32>,
    /// Queues that built it only by placing the piece in hand after their last piece.
    queues: Vec<u32>,
}

impl<'a> Builder<'a> {
    /// A builder of PCs of `field` under `rules`, placements found by `movegen`.
    fn new(field: &PcField, rules: &Rules, movegen: &'a MoveGenerator<'a>) -> Builder<'a> {
        Builder::on(*field.board(), field.clear_line(), rules, movegen)
    }

    /// A builder of sets of placements on `board`, pieces entering at `entry_line`.
    fn on(
        board: Board32,
        entry_line: u32,
        rules: &Rules,
        movegen: &'a MoveGenerator<'a>,
    ) -> Builder<'a> {
        Builder {
            board,
            entry_line,
            movegen,
            hold: rules.hold,
            reachable: AHashMap::new(),
            seen: AHashSet::new(),
            stack: Vec::new(),
            counted: AHashMap::new(),
        }
    }

    /// The orders `set` can be placed in, into `orders` (its buffers reused).
    fn orders(&mut self, set: &[Uncleared], orders: &mut Orders) {
        orders.reset(set.len());
        orders.pieces.clear();
        orders
            .pieces
            .extend(set.iter().map(|p| p.piece.index() as u8));
        self.can_finish(set, orders, 0, self.board);
    }

    /// Whether every placement of `set` not in `placed` can be placed after those,
    /// `board` the field with them; records the steps that keep it so in `orders`.
    fn can_finish(
        &mut self,
        set: &[Uncleared],
        orders: &mut Orders,
        placed: u32,
        board: Board32,
    ) -> bool {
        if placed == orders.full {
            return true;
        }
        if let Some(next) = orders.found(placed) {
            return next != 0;
        }
        let mut next = 0;
        for index in bits(self.placeable(set, placed, &board)) {
            let mut after = board;
            after.merge(&set[index].board);
            if self.can_finish(set, orders, placed | 1 << index, after) {
                next |= 1 << index;
            }
        }
        orders.record(placed, next);
        next != 0
    }

    /// Which queues of the tree build every placement of `set` (a fill, or a setup).
    fn built(&mut self, orders: &Orders, tree: &QueueTree) -> Built {
        let mut built = Built::default();
        self.walk_orders(orders, tree, |node, hand_last| {
            if hand_last {
                built.queues.push(tree.queue[node as usize]);
            } else {
                built.prefixes.push(node);
            }
            ControlFlow::Continue(())
        });
        built
    }

    /// The queues of the tree that build every placement of a set, ascending, when every
    /// queue is as long as a PC of the set can use (a prefix that builds it is a queue, as
    /// in `path`).
    fn whole_queues(&mut self, orders: &Orders, tree: &QueueTree) -> Vec<u32> {
        let built = self.built(orders, tree);
        let mut queues: Vec<u32> = built
            .prefixes
            .iter()
            .map(|&node| tree.queue[node as usize])
            .chain(built.queues)
            .filter(|&q| q != NONE)
            .collect();
        queues.sort_unstable();
        queues.dedup();
        queues
    }

    /// Walks (placed, node of `queues`, piece in hand) depth first, each state once, and
    /// calls `done(node, hand_last)` at each state with every placement of the set placed:
    /// every queue going on from the node builds the set, or, when `hand_last`, the queue
    /// ending at the node does, its last piece in hand placed last. The hand is the piece
    /// held or the current one, whichever stays: each placement takes in the next piece.
    /// Stops when `done` breaks.
    fn walk_orders<Q: Queues>(
        &mut self,
        orders: &Orders,
        queues: &Q,
        mut done: impl FnMut(u32, bool) -> ControlFlow<()>,
    ) {
        let full = orders.full;
        let root = queues.root();
        let mut seen = std::mem::take(&mut self.seen);
        let mut stack = std::mem::take(&mut self.stack);
        seen.clear();
        stack.clear();
        if self.hold {
            for piece in 0..7 {
                let child = queues.child(root, piece);
                if child != NONE {
                    stack.push((0, child, piece as u8));
                }
            }
        } else {
            stack.push((0, root, EMPTY_HAND));
        }
        while let Some(state) = stack.pop() {
            if !seen.insert(state) {
                continue;
            }
            let (placed, node, hand) = state;
            if placed == full {
                if done(node, hand == EMPTY_HAND && self.hold).is_break() {
                    break;
                }
                continue;
            }
            for index in bits(orders.next(placed)) {
                let piece = orders.pieces[index];
                let after = placed | 1 << index;
                // The next piece of the queue placed, the hand kept.
                let next = queues.child(node, usize::from(piece));
                if next != NONE {
                    stack.push((after, next, hand));
                }
                if hand == piece {
                    // The piece in hand placed, the next piece taken into hand.
                    for p in 0..7 {
                        let child = queues.child(node, p);
                        if child != NONE {
                            stack.push((after, child, p as u8));
                        }
                    }
                    // Or, when a queue ends here, placed last, finishing the set.
                    if queues.ends(node) && after == full {
                        stack.push((after, node, EMPTY_HAND));
                    }
                }
            }
        }
        self.seen = seen;
        self.stack = stack;
    }

    /// The solution a fill makes, if some queue builds it, with the queues that build it
    /// (the queues as an automaton, `dag`, and as a tree, `tree`).
    fn solution(
        &mut self,
        fill: &[Uncleared],
        orders: &mut Orders,
        dag: &QueueDag,
        tree: &QueueTree,
    ) -> Option<PathSolution> {
        self.orders(fill, orders);
        // Most fills are built by no queue: told apart without listing queues.
        if !self.builds(orders, dag) {
            return None;
        }
        // Listed from the tree: for the patterns whose lists fit in memory, quicker than
        // from the automaton.
        let queues = self.whole_queues(orders, tree);
        let placements = self.one_order(fill, orders)?;
        Some(PathSolution { placements, queues })
    }

    /// Whether some queue of `dag` builds every placement of a set: the walk stops at the
    /// first state with every placement placed (each node goes on to some queue).
    fn builds(&mut self, orders: &Orders, dag: &QueueDag) -> bool {
        if !orders.any() {
            return false;
        }
        let mut found = false;
        self.walk_orders(orders, dag, |_, _| {
            found = true;
            ControlFlow::Break(())
        });
        found
    }

    /// How many queues of `dag` build every placement of a set, each (node, what its prefixes leave) counted once however many prefixes
    /// lead to it.
    fn queue_count(&mut self, orders: &Orders, dag: &QueueDag) -> u64 {
        let memo = &mut self.counted;
        memo.clear();
        if self.hold {
            let root = dag.root as usize;
            (0..7)
                .filter(|&piece| dag.children[root][piece] != NONE)
                .map(|piece| {
                    let start = smallvec![(0, piece as u8)];
                    count_from(orders, dag, dag.children[root][piece], start, memo)
                })
                .sum()
        } else {
            count_from(orders, dag, dag.root, smallvec![(0, EMPTY_HAND)], memo)
        }
    }

    /// An order that builds the set, lowest placements first where the order is free.
    fn one_order(&self, set: &[Uncleared], orders: &Orders) -> Option<Vec<Placement>> {
        if !orders.any() {
            return None;
        }
        let mut order = Vec::with_capacity(set.len());
        let mut placed = 0;
        let mut board = self.board;
        while placed != orders.full {
            let index =
                bits(orders.next(placed)).min_by_key(|&i| (set[i].rows.trailing_zeros(), i))?;
            order.push(set[index].after_clears(board.full_rows())?);
            board.merge(&set[index].board);
            placed |= 1 << index;
        }
        Some(order)
    }

    /// The placements of `set` not in `placed` that can be placed next (a mask), `board`
    /// the field with those placed: the rows they skip are cleared, they are reached, and
    /// they rest on the field.
    fn placeable(&mut self, set: &[Uncleared], placed: u32, board: &Board32) -> u32 {
        let cleared = board.full_rows();
        // Made only for the placements that do not drop straight in.
        let mut collapsed: Option<Board32> = None;
        let entry_line = self.entry_line - cleared.count_ones();
        let mut found = 0;
        for (i, p) in set.iter().enumerate() {
            if placed & 1 << i != 0 {
                continue;
            }
            if p.span & cleared == 0 && p.whole.is_some() {
                // Told on the uncleared field, the quick way most placements take.
                match p.rests_and_drops(board, cleared, self.entry_line) {
                    (false, _) => continue,
                    (true, true) => {
                        found |= 1 << i;
                        continue;
                    }
                    (true, false) => {}
                }
            }
            let Some(placement) = p.after_clears(cleared) else {
                continue;
            };
            let collapsed = collapsed.get_or_insert_with(|| {
                let mut collapsed = *board;
                collapsed.remove_rows(cleared);
                collapsed
            });
            // Most placements drop straight in; the rest need move generation, whose
            // answers are kept (up to a bound: the fields of a large pattern are many).
            let reached = self
                .movegen
                .drops_or_slides_in(collapsed, &placement, entry_line)
                || {
                    let key = (*collapsed, placement);
                    match self.reachable.get(&key) {
                        Some(&reached) => reached,
                        None => {
                            let reached = self
                                .movegen
                                .is_reachable(collapsed, &placement, entry_line)
                                .unwrap_or(false);
                            if self.reachable.len() >= MAX_REACHABLE_KEPT {
                                self.reachable.clear();
                            }
                            self.reachable.insert(key, reached);
                            reached
                        }
                    }
                };
            if reached {
                found |= 1 << i;
            }
        }
        found
    }
}

/// The queues going on from `node` that build a set from any of `configs`, counted once
/// per such pair ([`Builder::queue_count`]).
fn count_from(
    orders: &Orders,
    dag: &QueueDag,
    node: u32,
    configs: Configs,
    memo: &mut AHashMap<(u32, Configs), u64>,
) -> u64 {
    if configs.iter().any(|&(placed, _)| placed == orders.full) {
        return dag.below[node as usize];
    }
    let key = (node, configs);
    if let Some(&count) = memo.get(&key) {
        return count;
    }
    let (ends_here, next) = orders.next_nodes(dag, node, &key.1, |_, _| true);
    let mut count = u64::from(ends_here);
    for (_, child, configs) in next {
        count += count_from(orders, dag, child, configs, memo);
    }
    memo.insert(key, count);
    count
}

#[cfg(test)]
mod tests {
    use super::queue_bits::{QueueBits, Window};
    use super::*;

    /// For each fill of `field` some queue of `pattern` builds, its queues found from the
    /// tree of the queues' prefixes (each prefix on its own) and from their automaton
    /// (prefixes that leave the same merged); checks that the automaton tells the same
    /// fills built.
    fn both_ways(field: &PcField, rules: &Rules, pattern: &str) -> Vec<(Vec<u32>, Vec<u32>)> {
        let patterns: PatternSet = pattern.parse().unwrap();
        let queues = cut_queues(field, rules, &patterns).unwrap();
        let tree = QueueTree::new(queues.iter().map(|q| q.iter()));
        let dag = QueueDag::new(&tree);
        let mut found = Vec::new();
        let supply = tree.supply(field.pieces_needed() as usize);
        let mut progress = |_, _| ControlFlow::Continue(());
        let mut orders = Orders::default();
        walk_fills(field, rules, &supply, &mut progress, |builder, fill| {
            builder.orders(fill, &mut orders);
            let by_tree = builder.whole_queues(&orders, &tree);
            let builds = builder.builds(&orders, &dag);
            assert_eq!(builds, !by_tree.is_empty(), "{pattern}");
            // The ranks, with bits made once for nodes of every size: from none (each
            // prefix of the automaton on its own) to all (the root's made from its
            // children's).
            let ranks = |kept_below: u64| {
                let mut ranks: Vec<u32> = Vec::new();
                let mut bits = QueueBits::new(&dag, rules.hold).keeping_bits_below(kept_below);
                bits.windows(&orders, &|_, _| true, &mut |window| match window {
                    Window::Range(from, to) => ranks.extend(from as u32..to as u32),
                    Window::Bits(base, words) => ranks.extend(
                        (0..64 * words.len())
                            .filter(|&k| words[k / 64] >> (k % 64) & 1 != 0)
                            .map(|k| base as u32 + k as u32),
                    ),
                });
                ranks.sort_unstable();
                ranks
            };
            let by_dag = ranks(0);
            for kept_below in [1, 7, 100, u64::MAX] {
                assert_eq!(
                    ranks(kept_below),
                    by_dag,
                    "{pattern}, bits below {kept_below}"
                );
            }
            if builds {
                let count = builder.queue_count(&orders, &dag);
                assert_eq!(count, by_dag.len() as u64, "{pattern}");
                found.push((by_tree, by_dag));
            }
        });
        found
    }

    proptest::proptest! {
        /// Counts packed a piece a lane compare lane by lane.
        #[test]
        fn counts_hold_others_lane_by_lane(
            most in proptest::array::uniform7(0u8..=40),
            pieces in proptest::array::uniform7(0u8..=40),
        ) {
            let pack = |counts: [u8; 7]| -> u64 {
                Piece::ALL
                    .iter()
                    .map(|&p| lane(p) * u64::from(counts[p.index()]))
                    .sum()
            };
            let expected = most.iter().zip(&pieces).all(|(m, p)| m >= p);
            proptest::prop_assert_eq!(holds(pack(most), pack(pieces)), expected);
        }
    }

    #[test]
    fn the_queue_automaton_finds_the_queues_the_tree_of_prefixes_finds() {
        let pco = "##.....###/###....###/####...###/###....###";
        let three = "###......./###......./###......./###.......";
        let hard = Rules {
            drop: pc_srs::DropMode::Hard,
            ..Rules::default()
        };
        let no_hold = Rules {
            hold: false,
            ..Rules::default()
        };
        let cases = [
            (pco, "I,*p4", Rules::default()),
            (pco, "I,*p4", no_hold.clone()),
            (pco, "*p5\n[IT]p2,*p3", Rules::default()),
            (pco, "T,*p4", hard),
            (three, "*p7", Rules::default()),
            (three, "*p7", no_hold),
        ];
        for (field, pattern, rules) in cases {
            let field = PcField::new(field.parse().unwrap(), 4).unwrap();
            let found = both_ways(&field, &rules, pattern);
            assert!(!found.is_empty(), "{pattern} on {field:?}");
            for (by_tree, by_dag) in found {
                assert_eq!(
                    by_dag, by_tree,
                    "{pattern} on {field:?}, hold {}",
                    rules.hold
                );
            }
        }
    }
}
