//! sfinder's `path` for patterns with too many queues to list each solution's: the unique
//! solutions, how many queues have a PC, and a minimal set, in bounded memory.
//!
//! From the empty field, `*p7,*p4` gives 4.2 million queues and hundreds of thousands of
//! solutions, each built by up to hundreds of thousands of them: the lists
//! [`PathResult`](super::PathResult) keeps would not fit. Here a fill is first only told
//! built or not ([`Builder::builds`]) and a solution's queues counted
//! ([`Builder::queue_count`]); the minimal set is then chosen greedily, the solution with
//! the most queues not covered yet first, each solution's queues found again
//! ([`QueueBits`]) only while it may still be the best choice, and only among the queues
//! not covered yet. Once a solution's open queues are few they are kept, and its later
//! counts read from them.

use super::queue_bits::{QueueBits, Window};
use super::{Builder, Orders, QueueDag, QueueTree, Uncleared, cut_queues, sfinder_csv, walk_fills};
use crate::error::SolverError;
use crate::field::PcField;
use crate::rules::Rules;
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
    /// as indices into `solutions`, ascending: the greedy choice (the solution built by the
    /// most queues not covered yet, the first of those, then the next), which
    /// [`PathResult::minimal`](super::PathResult::minimal) makes among the solutions whose
    /// queues are not among another's. Each solution chosen stands for a different set of
    /// queues that no other solution's holds, so the set is never larger than sfinder's.
    /// Those chosen so far when the search was stopped.
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
/// choice (a solution whose last count is below the best choice's is not walked again),
/// read from the solution's open queues instead once they are in at most 256 words of 64
/// queues (at most 2^24 such words are kept, 256 MiB).
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
    let supply = tree.supply(needed);
    let queue_count = queues.len();
    drop((tree, queues));
    let mut solutions: Vec<Vec<Placement>> = Vec::new();
    let mut fills: Vec<CompactFill> = Vec::new();
    let mut counts: Vec<u64> = Vec::new();
    let mut orders = Orders::default();
    let walked = walk_fills(
        field,
        rules,
        &supply,
        &mut |done, total| progress(PathStage::Fills, done, total),
        |builder, fill| {
            builder.orders(fill, &mut orders);
            if builder.builds(&orders, &dag)
                && let Some(order) = builder.one_order(fill, &orders)
            {
                solutions.push(order);
                fills.push(CompactFill::new(fill));
                counts.push(builder.queue_count(&orders, &dag));
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

/// The most words of open queues kept for a solution ([`Uncovered::gain`]): once a
/// solution's open queues are in fewer, its gain is read from them instead of a walk.
const KEPT_WORDS_EACH: usize = 256;

/// The most words kept for all solutions together (16 bytes each).
const KEPT_WORDS_MOST: usize = 1 << 24;

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
        let mut walked = 0usize;
        let mut orders = Orders::default();
        let mut bits = QueueBits::new(dag, builder.hold);
        // Each solution's open queues once they are few, and how many words they hold.
        let mut kept: Vec<Option<Vec<(u32, u64)>>> = vec![None; fills.len()];
        let mut kept_words = 0usize;
        while finished
            && open.left > 0
            && let Some((_, Reverse(i))) = self.waiting.pop()
        {
            let gain = match kept[i].as_mut() {
                Some(words) => {
                    kept_words -= words.len();
                    let gain = open.still_open(words);
                    kept_words += words.len();
                    gain
                }
                None => {
                    builder.orders(&fills[i].placements(), &mut orders);
                    let room = KEPT_WORDS_MOST
                        .saturating_sub(kept_words)
                        .min(KEPT_WORDS_EACH);
                    let (gain, words) = open.gain(&mut bits, &orders, room);
                    if let Some(words) = words {
                        kept_words += words.len();
                        kept[i] = Some(words);
                    }
                    gain
                }
            };
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
                match kept[i].take() {
                    Some(words) => {
                        kept_words -= words.len();
                        for (word, bits) in words {
                            open.clear(word as usize, bits);
                        }
                    }
                    None => open.cover(&mut bits, &orders),
                }
                chosen.push(i);
            }
            if gain == 0
                && let Some(words) = kept[i].take()
            {
                kept_words -= words.len();
            }
            if walked % WALKS_PER_CALL == 0 {
                let covered = total - open.left as u64;
                finished = progress(PathStage::Minimal, covered, total).is_continue();
            }
        }
        chosen.sort_unstable();
        summary.minimal = chosen;
        if finished {
            // Every queue covered, or every solution walked over the queues left: none of
            // them has a PC.
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

    /// How many of the queues that build the set of `orders` are open, prefixes with
    /// none open passed over; and those queues as (word, its bits) of `open`, by word,
    /// when they are in at most `room` words.
    fn gain(
        &self,
        bits: &mut QueueBits<'_>,
        orders: &Orders,
        room: usize,
    ) -> (u64, Option<Vec<(u32, u64)>>) {
        let mut gain = 0;
        let mut words: Vec<(u32, u64)> = Vec::new();
        let mut fits = room > 0;
        bits.windows(
            orders,
            &|from, to| self.count(from, to) > 0,
            &mut |window| {
                match window {
                    Window::Range(from, to) => {
                        gain += self.count(from, to);
                        // A long range is not looked at word by word.
                        fits &= (to - from) / 64 < 2 * room as u64;
                        if fits {
                            for word in from / 64..to.div_ceil(64) {
                                let first = (word * 64).max(from) - word * 64;
                                let last = ((word + 1) * 64).min(to) - word * 64;
                                let mask = if last - first == 64 {
                                    u64::MAX
                                } else {
                                    ((1 << (last - first)) - 1) << first
                                };
                                words.push((word as u32, mask & self.open[word as usize]));
                            }
                        }
                    }
                    Window::Bits(base, window) => {
                        let (word, shift) = (base / 64, base % 64);
                        for (k, &w) in window.iter().enumerate() {
                            let open = w & self.word_at(base + 64 * k as u64);
                            gain += u64::from(open.count_ones());
                            if fits && open != 0 {
                                let at = (word + k as u64) as u32;
                                words.push((at, open << shift));
                                if shift > 0 {
                                    words.push((at + 1, open >> (64 - shift)));
                                }
                            }
                        }
                    }
                }
                fits &= words.len() <= 2 * room;
            },
        );
        if !fits {
            return (gain, None);
        }
        words.retain(|&(_, bits)| bits != 0);
        words.sort_unstable_by_key(|&(word, _)| word);
        words.dedup_by(|later, first| {
            let same = later.0 == first.0;
            if same {
                first.1 |= later.1;
            }
            same
        });
        (gain, (words.len() <= room).then_some(words))
    }

    /// How many of the queues of `words` ([`Uncovered::gain`]) are open; keeps in `words`
    /// only those.
    fn still_open(&self, words: &mut Vec<(u32, u64)>) -> u64 {
        let mut gain = 0;
        words.retain_mut(|(word, bits)| {
            *bits &= self.open[*word as usize];
            gain += u64::from(bits.count_ones());
            *bits != 0
        });
        gain
    }

    /// The open queues of the 64 ranks from `rank`, bit `k` for rank `rank + k` (ranks
    /// past the last read as covered).
    fn word_at(&self, rank: u64) -> u64 {
        let (word, shift) = ((rank / 64) as usize, rank % 64);
        let low = self.open.get(word).map_or(0, |&w| w >> shift);
        let high = match (shift, self.open.get(word + 1)) {
            (0, _) | (_, None) => 0,
            (_, Some(&w)) => w << (64 - shift),
        };
        low | high
    }

    /// Marks the queues that build the set of `orders` covered.
    fn cover(&mut self, bits: &mut QueueBits<'_>, orders: &Orders) {
        bits.windows(orders, &|_, _| true, &mut |window| match window {
            Window::Range(from, to) => {
                let mut rank = from;
                while rank < to {
                    let (word, shift) = ((rank / 64) as usize, rank % 64);
                    let width = (64 - shift).min(to - rank);
                    let mask = if width == 64 {
                        u64::MAX
                    } else {
                        ((1 << width) - 1) << shift
                    };
                    self.clear(word, mask);
                    rank += width;
                }
            }
            Window::Bits(base, words) => {
                let (word, shift) = ((base / 64) as usize, base % 64);
                for (k, &w) in words.iter().enumerate() {
                    self.clear(word + k, w << shift);
                    if shift > 0 {
                        self.clear(word + k + 1, w >> (64 - shift));
                    }
                }
            }
        });
    }

    /// Marks the queues of `mask`'s bits in word `word` covered.
    fn clear(&mut self, word: usize, mask: u64) {
        let Some(open) = self.open.get_mut(word) else {
            return;
        };
        let gone = (*open & mask).count_ones();
        if gone == 0 {
            return;
        }
        *open &= !mask;
        self.left -= gone as usize;
        let mut k = word + 1;
        while k < self.sums.len() {
            self.sums[k] -= gone;
            k += k & k.wrapping_neg();
        }
    }
}
