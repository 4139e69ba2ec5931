//! sfinder's `path` for patterns with too many queues to list each solution's: the unique
//! solutions, how many queues have a PC, and a minimal set, in bounded memory.
//!
//! From the empty field, `*p7,*p4` gives 4.2 million queues and hundreds of thousands of
//! solutions, each built by up to hundreds of thousands of them: the lists
//! [`PathResult`](super::PathResult) keeps would not fit. Here a fill is first only told
//! built or not ([`Builder::builds`]) and a solution's queues counted
//! ([`Builder::queue_count`]); the minimal set is then chosen greedily as
//! [`PathResult::minimal`](super::PathResult::minimal) chooses it, each solution's queues
//! found again ([`Builder::queue_ranges`]) only while it may still be the best choice, and
//! only among the queues not covered yet.

use super::{Builder, QueueDag, QueueTree, Uncleared, cut_queues, sfinder_csv, walk_fills};
use crate::error::SolverError;
use crate::field::PcField;
use crate::rules::Rules;
use ahash::AHashMap;
use pc_bag::PatternSet;
use pc_srs::{MoveGenerator, Piece, Placement};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::ControlFlow;

/// The perfect clears of a field for a pattern, without each solution's queues
/// ([`path_summary`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathSummary {
    /// How many queues the pattern gives, cut to the pieces a PC can use and without
    /// repeats (the length of [`PathResult::queues`](super::PathResult::queues)).
    pub queues: usize,
    /// Every distinct set of placements that makes the PC and that at least one queue
    /// builds, as [`PathSolution::placements`](super::PathSolution::placements), in the
    /// order of the fill graph's fills (the same solutions as [`path`](super::path)).
    pub solutions: Vec<Vec<Placement>>,
    /// How many queues build some solution (sfinder's `percent`); `None` when the search
    /// stopped before it knew.
    pub covered: Option<usize>,
    /// A few solutions that together are built by every queue some solution is built by,
    /// as indices into `solutions`, ascending: the greedy choice of
    /// [`PathResult::minimal`](super::PathResult::minimal) (the solution built by the most
    /// queues not covered yet, then the next), so never larger than sfinder's set. Those
    /// chosen so far when the search was stopped.
    pub minimal: Vec<usize>,
    /// Whether every fill was walked and the minimal set finished: false when `progress`
    /// stopped the search.
    pub complete: bool,
}

impl PathSummary {
    /// Solution `index` as sfinder's csv writes it, as
    /// [`PathSolution::sfinder_csv`](super::PathSolution::sfinder_csv) does; `None` when
    /// there is no such solution.
    pub fn sfinder_csv(&self, index: usize) -> Option<String> {
        self.solutions.get(index).map(|s| sfinder_csv(s))
    }
}

/// Where [`path_summary`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathStage {
    /// Walking the fills: `done` of `total` fills walked.
    Fills,
    /// Choosing the minimal set: `done` of `total` queues covered by the solutions chosen
    /// so far (`total` counts the queues without a PC too, until they are known).
    Minimal,
}

/// How many solutions [`path_summary`] walks again for the minimal set between two calls
/// of its `progress`.
const WALKS_PER_CALL: usize = 64;

/// [`path`](super::path) for patterns with many queues: the unique solutions, how many
/// queues build one, and a minimal set, without keeping the queues of each solution, so
/// memory grows with the solutions and the queues, not with their product.
/// `progress(stage, done, total)` is told how far the search is ([`PathStage`]); when it
/// answers [`ControlFlow::Break`] the search stops, with what it found so far and
/// [`PathSummary::complete`] false.
///
/// Errors: [`SolverError::PatternTooShort`] when the pattern gives fewer pieces than the PC
/// needs. Cost: one walk over the orders of each fill with the queues as a small
/// automaton, and a count of each solution's queues; then, for each choice of the minimal
/// set, a walk over the queues not covered yet of the solutions that may still be the best
/// choice (a solution whose last count is below the best choice's is not walked again).
///
/// ```
/// use pc_solver::{PcField, Rules, path, path_summary};
/// use std::ops::ControlFlow;
///
/// let pco = PcField::new("##.....###/###....###/####...###/###....###".parse()?, 4)?;
/// let pattern = "I,*p4".parse()?;
/// let summary = path_summary(&pco, &Rules::default(), &pattern, &mut |_, _, _| {
///     ControlFlow::Continue(())
/// })?;
/// let full = path(&pco, &Rules::default(), &pattern)?;
/// assert_eq!(summary.queues, 840);
/// assert_eq!(summary.covered, Some(711));
/// assert_eq!(summary.solutions.len(), 63);
/// assert_eq!(summary.minimal, full.minimal());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn path_summary(
    field: &PcField,
    rules: &Rules,
    patterns: &PatternSet,
    progress: &mut dyn FnMut(PathStage, u64, u64) -> ControlFlow<()>,
) -> Result<PathSummary, SolverError> {
    let needed = field.pieces_needed() as usize;
    let queues = cut_queues(field, rules, patterns)?;
    if needed == 0 {
        // The PC is made already: every queue builds it, with no placement.
        let _ = progress(PathStage::Fills, 0, 0);
        return Ok(PathSummary {
            queues: queues.len(),
            solutions: vec![Vec::new()],
            covered: Some(queues.len()),
            minimal: if queues.is_empty() {
                Vec::new()
            } else {
                vec![0]
            },
            complete: true,
        });
    }
    let tree = QueueTree::new(queues.iter().map(|q| q.iter()));
    let dag = QueueDag::new(&tree);
    let budget = tree.budget(needed);
    let queue_count = queues.len();
    drop((tree, queues));
    let mut solutions: Vec<Vec<Placement>> = Vec::new();
    let mut fills: Vec<CompactFill> = Vec::new();
    let mut counts: Vec<u64> = Vec::new();
    let walked = walk_fills(
        field,
        rules,
        budget,
        &mut |done, total| progress(PathStage::Fills, done, total),
        |builder, fill| {
            let mut steps = AHashMap::new();
            if builder.builds(fill, &mut steps, &dag)
                && let Some(order) = builder.one_order(fill, &mut steps)
            {
                solutions.push(order);
                fills.push(CompactFill::new(fill));
                counts.push(builder.queue_count(fill, &mut steps, &dag));
            }
        },
    );
    let mut summary = PathSummary {
        queues: queue_count,
        solutions,
        covered: None,
        minimal: Vec::new(),
        complete: false,
    };
    if walked {
        let movegen = MoveGenerator::new(&rules.kicks, rules.drop);
        let mut builder = Builder::new(field, rules, &movegen);
        let greedy = Greedy::new(&counts);
        summary.complete = greedy.choose(&mut builder, &dag, &fills, progress, &mut summary);
    }
    Ok(summary)
}

/// A fill's placements on the uncleared field, kept small until walked again.
struct CompactFill(Vec<(Piece, [(u8, u8); 4])>);

impl CompactFill {
    fn new(fill: &[Uncleared]) -> CompactFill {
        CompactFill(fill.iter().map(|p| (p.piece, p.cells)).collect())
    }

    fn placements(&self) -> Vec<Uncleared> {
        self.0
            .iter()
            .map(|&(piece, cells)| Uncleared::new(piece, cells))
            .collect()
    }
}

/// The greedy choice of the minimal set, lazily: each solution waits with a bound on the
/// queues not covered yet that build it, and is walked again only when its bound is the
/// highest; the bounds only fall as queues get covered.
struct Greedy {
    /// (bound, the solution), the highest bound first and of equal bounds the first
    /// solution, as [`PathResult::minimal`](super::PathResult::minimal) breaks ties.
    waiting: BinaryHeap<(u64, Reverse<usize>)>,
}

impl Greedy {
    /// Each solution waiting with its count of queues (`counts`).
    fn new(counts: &[u64]) -> Greedy {
        let waiting = counts
            .iter()
            .enumerate()
            .map(|(i, &count)| (count, Reverse(i)))
            .collect();
        Greedy { waiting }
    }

    /// Chooses the minimal set into `summary` (and its count of covered queues); whether
    /// it finished before `progress` stopped it.
    fn choose(
        mut self,
        builder: &mut Builder<'_>,
        dag: &QueueDag,
        fills: &[CompactFill],
        progress: &mut dyn FnMut(PathStage, u64, u64) -> ControlFlow<()>,
        summary: &mut PathSummary,
    ) -> bool {
        let total = summary.queues as u64;
        let mut open = Uncovered::new(summary.queues);
        let mut chosen = Vec::new();
        let mut finished = progress(PathStage::Minimal, 0, total).is_continue();
        let mut found = Vec::new();
        let mut walked = 0usize;
        while finished && let Some((_, Reverse(i))) = self.waiting.pop() {
            let gain = open.queues_building(builder, dag, &fills[i], &mut found);
            walked += 1;
            let best = self
                .waiting
                .peek()
                .is_none_or(|&(bound, Reverse(k))| (gain, Reverse(i)) >= (bound, Reverse(k)));
            if !best {
                if gain > 0 {
                    self.waiting.push((gain, Reverse(i)));
                }
            } else if gain > 0 {
                open.cover(&found);
                chosen.push(i);
            }
            if walked % WALKS_PER_CALL == 0 {
                let covered = total - open.left as u64;
                finished = progress(PathStage::Minimal, covered, total).is_continue();
            }
        }
        chosen.sort_unstable();
        summary.minimal = chosen;
        if finished {
            // Every solution walked over the queues left: none of them has a PC.
            summary.covered = Some(summary.queues - open.left);
            let _ = progress(PathStage::Minimal, total - open.left as u64, total);
        }
        finished
    }
}

/// The queues not covered yet, as a bitset of their ranks, with the count of each word's
/// open queues summed in a Fenwick tree, so that a range of ranks tells its count at once.
struct Uncovered {
    open: Vec<u64>,
    /// Fenwick tree over the words' counts: entry `k` (from 1) sums the `k & -k` words
    /// up to word `k - 1`.
    sums: Vec<u32>,
    left: usize,
}

impl Uncovered {
    fn new(queues: usize) -> Uncovered {
        let mut open = vec![u64::MAX; queues.div_ceil(64)];
        if queues % 64 != 0 {
            *open.last_mut().expect("a word") = (1 << (queues % 64)) - 1;
        }
        let mut sums = vec![0u32; open.len() + 1];
        for (k, word) in open.iter().enumerate() {
            sums[k + 1] += word.count_ones();
            let parent = (k + 1) + ((k + 1) & (k + 1).wrapping_neg());
            if parent < sums.len() {
                sums[parent] += sums[k + 1];
            }
        }
        Uncovered {
            open,
            sums,
            left: queues,
        }
    }

    /// The open queues of the ranks below `rank`.
    fn below(&self, rank: u64) -> u64 {
        let (word, bit) = ((rank / 64) as usize, rank % 64);
        let mut count = 0u64;
        let mut k = word;
        while k > 0 {
            count += u64::from(self.sums[k]);
            k &= k - 1;
        }
        if bit > 0 {
            count += u64::from((self.open[word] & ((1 << bit) - 1)).count_ones());
        }
        count
    }

    /// The open queues of the ranks `from..to`.
    fn count(&self, from: u64, to: u64) -> u64 {
        self.below(to) - self.below(from)
    }

    /// Of `ranges`, the ranks of `fill`'s queues that are open ([`Builder::queue_ranges`],
    /// passing over the prefixes with none open), into `found`; how many.
    fn queues_building(
        &self,
        builder: &mut Builder<'_>,
        dag: &QueueDag,
        fill: &CompactFill,
        found: &mut Vec<(u64, u64)>,
    ) -> u64 {
        let ranges = builder.queue_ranges(
            &fill.placements(),
            &mut AHashMap::new(),
            dag,
            &|from, to| self.count(from, to) > 0,
        );
        *found = ranges;
        found.iter().map(|&(from, to)| self.count(from, to)).sum()
    }

    /// Marks the queues of `ranges` covered.
    fn cover(&mut self, ranges: &[(u64, u64)]) {
        for &(from, to) in ranges {
            for rank in from..to {
                let (word, bit) = ((rank / 64) as usize, rank % 64);
                if self.open[word] >> bit & 1 == 0 {
                    continue;
                }
                self.open[word] &= !(1 << bit);
                self.left -= 1;
                let mut k = word + 1;
                while k < self.sums.len() {
                    self.sums[k] -= 1;
                    k += k & k.wrapping_neg();
                }
            }
        }
    }
}
