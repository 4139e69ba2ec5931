//! sfinder's `percent`: over the sequences a pattern gives, cut to the pieces a perfect
//! clear needs (one more with hold) and without repeats, the share that can make a perfect
//! clear when the whole sequence is known.

use crate::engine::automaton::Automaton;
use crate::engine::known::{KnownMemo, KnownSolver};
use crate::engine::layered::{OrderMemo, clairvoyant_answers};
use crate::error::SolverError;
use crate::field::Goal;
use crate::field::PcField;
use crate::rules::Rules;
use crate::search::Searcher;
use pc_bag::{PatternSet, searching_sequences};
use pc_srs::Piece;

/// The outcome of [`percent`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PercentResult {
    /// Sequences that can make a perfect clear.
    pub success: u64,
    /// Sequences tried (after truncation and de-duplication).
    pub total: u64,
    /// Every sequence tried, in the pattern's order, with its outcome.
    pub sequences: Vec<(Vec<Piece>, bool)>,
}

/// A node of the success tree: the sequences that start with `prefix`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// The first pieces.
    pub prefix: Vec<Piece>,
    /// Sequences with this prefix that succeed.
    pub success: u64,
    /// Sequences with this prefix.
    pub total: u64,
}

impl PercentResult {
    /// `success / total` as a percentage (0 when there is no sequence).
    pub fn percent(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            100.0 * self.success as f64 / self.total as f64
        }
    }

    /// The sequences that cannot make a perfect clear.
    pub fn failing(&self) -> impl Iterator<Item = &[Piece]> {
        self.sequences
            .iter()
            .filter(|(_, ok)| !ok)
            .map(|(s, _)| s.as_slice())
    }

    /// sfinder's success tree: for every prefix of up to `depth` pieces, how many of the
    /// sequences starting with it succeed; prefixes in the order first met.
    pub fn tree(&self, depth: usize) -> Vec<TreeNode> {
        let mut nodes: Vec<TreeNode> = Vec::new();
        let mut index: std::collections::HashMap<Vec<Piece>, usize> =
            std::collections::HashMap::new();
        for (seq, ok) in &self.sequences {
            for d in 0..=depth.min(seq.len()) {
                let prefix = seq[..d].to_vec();
                let i = *index.entry(prefix.clone()).or_insert_with(|| {
                    nodes.push(TreeNode {
                        prefix,
                        success: 0,
                        total: 0,
                    });
                    nodes.len() - 1
                });
                nodes[i].total += 1;
                nodes[i].success += *ok as u64;
            }
        }
        nodes
    }
}

/// Fields needing at most this many pieces get a shared automaton when many sequences
/// are asked; beyond it the automaton can grow past memory (every word is explored).
const AUTOMATON_MAX_PIECES: u32 = 7;
/// Below this many sequences, searching each one is cheaper than building the automaton.
const AUTOMATON_MIN_SEQUENCES: usize = 64;

/// How each sequence is checked: one shared automaton of every word that clears the
/// field (exact sharing between sequences), or a search per sequence that remembers
/// states between them.
// One per call: the size of its variants does not matter.
#[allow(clippy::large_enum_variant)]
enum Checker {
    Automaton { automaton: Automaton, hold: bool },
    Search(PcField, Searcher),
}

impl Checker {
    fn new(field: &PcField, rules: &Rules, sequences: usize) -> Self {
        if sequences >= AUTOMATON_MIN_SEQUENCES && field.pieces_needed() <= AUTOMATON_MAX_PIECES {
            Checker::Automaton {
                automaton: Automaton::build(field, &rules.generator()),
                hold: rules.hold,
            }
        } else {
            Checker::Search(*field, Searcher::new(rules.clone()))
        }
    }

    fn check(&mut self, queue: &[Piece]) -> bool {
        match self {
            Checker::Automaton {
                automaton,
                hold: true,
            } => automaton.accepts_with_hold(None, queue),
            Checker::Automaton {
                automaton,
                hold: false,
            } => automaton.accepts(queue),
            Checker::Search(field, searcher) => searcher.has_solution(field, None, queue),
        }
    }
}

/// Below this many sequences a search per sequence is not split between threads.
const PARALLEL_MIN_SEQUENCES: usize = 32;

/// Every queue's answer by the layered search ([`clairvoyant_answers`]), or `None` where
/// it does not take the queues. `progress` is told how many queues are answered so far.
fn layered_answers(
    field: &PcField,
    rules: &Rules,
    queues: &[Vec<Piece>],
    progress: &mut dyn FnMut(usize),
) -> Option<Vec<bool>> {
    let mut memo = KnownMemo::default();
    let goal = Goal {
        lower_clears: false,
    };
    let known = KnownSolver::new(rules.generator(), rules.hold, goal, &mut memo);
    let mut orders = OrderMemo::default();
    clairvoyant_answers(&known, &mut orders, *field, rules.hold, queues, progress)
}

/// Whether each queue can clear the problem's field, in order. When the queues are
/// searched one by one (not by a shared automaton) and `threads` > 1, `threads` workers,
/// each with its own memo, take runs of consecutive queues (which share most states).
/// `progress` is told, on the calling thread, how many queues are answered so far.
fn check_all(
    field: &PcField,
    rules: &Rules,
    queues: &[Vec<Piece>],
    threads: usize,
    progress: &mut dyn FnMut(usize),
) -> Vec<bool> {
    if field.pieces_needed() > AUTOMATON_MAX_PIECES {
        // Fields needing many pieces: one layered search per known prefix answers every
        // queue that shares it.
        if let Some(answers) = layered_answers(field, rules, queues, progress) {
            return answers;
        }
    }
    let mut checker = Checker::new(field, rules, queues.len());
    let searching = matches!(checker, Checker::Search(..));
    if threads <= 1 || !searching || queues.len() < PARALLEL_MIN_SEQUENCES {
        return queues
            .iter()
            .enumerate()
            .map(|(i, q)| {
                let ok = checker.check(q);
                progress(i + 1);
                ok
            })
            .collect();
    }
    // Runs of consecutive queues handed out one at a time, so that a thread that meets
    // easy queues takes more of them.
    let run = queues.len().div_ceil(threads * 16);
    let runs: Vec<&[Vec<Piece>]> = queues.chunks(run).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (next, runs) = (&next, &runs);
    // Each worker sends the size of every run it finishes; the calling thread adds them
    // up for `progress` until every worker has dropped its sender.
    let (finished, counts) = std::sync::mpsc::channel::<usize>();
    let mut done: Vec<(usize, Vec<bool>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let finished = finished.clone();
                scope.spawn(move || {
                    let mut searcher = Searcher::new(rules.clone());
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(part) = runs.get(i) else { break };
                        let answers = part.iter().map(|q| searcher.has_solution(field, None, q));
                        mine.push((i, answers.collect::<Vec<bool>>()));
                        // The receiver lives until every sender is gone.
                        let _ = finished.send(part.len());
                    }
                    mine
                })
            })
            .collect();
        drop(finished);
        let mut answered = 0;
        for count in counts {
            answered += count;
            progress(answered);
        }
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a percent worker does not panic"))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().flat_map(|(_, answers)| answers).collect()
}

/// sfinder's `percent` for a field, rules (hold as they say) and patterns. Errors when
/// the pattern gives fewer pieces than the PC needs ([`SolverError::PatternTooShort`]).
/// Cost: one known-queue search per sequence, shared between sequences (by an automaton
/// of the field, or one layered search per group of sequences with the same first
/// pieces), so from milliseconds to minutes for millions of sequences.
///
/// ```
/// use pc_solver::{PcField, Rules, percent};
///
/// // The grace-system field with T first: 744 of 840 sequences with hold.
/// let grace = PcField::new("######..../######..../######..../######....".parse()?, 4)?;
/// let result = percent(&grace, &Rules::default(), &"T,*p4".parse()?)?;
/// assert_eq!((result.success, result.total), (744, 840));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn percent(
    field: &PcField,
    rules: &Rules,
    patterns: &PatternSet,
) -> Result<PercentResult, SolverError> {
    percent_with_progress(field, rules, patterns, &mut |_, _| {})
}

/// [`percent`], telling `progress(done, total)` how far it is: `total` is the number of
/// sequences to answer (after truncation and de-duplication) and `done` how many are
/// answered. It is called on the calling thread, first with `(0, total)` once the pattern
/// is expanded, then as answers come in (per sequence, per run of sequences or per group
/// of sequences sharing their first pieces, whichever way the sequences are answered;
/// `done` never decreases), and last with `(total, total)`. Expanding a large pattern
/// comes before the first call. For a progress bar; the result is [`percent`]'s.
///
/// ```
/// use pc_solver::{PcField, Rules, percent_with_progress};
///
/// let grace = PcField::new("######..../######..../######..../######....".parse()?, 4)?;
/// let mut calls = Vec::new();
/// let result = percent_with_progress(&grace, &Rules::default(), &"T,*p4".parse()?, &mut |done, total| {
///     calls.push((done, total))
/// })?;
/// assert_eq!((result.success, result.total), (744, 840));
/// assert_eq!(calls.first(), Some(&(0, 840)));
/// assert_eq!(calls.last(), Some(&(840, 840)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn percent_with_progress(
    field: &PcField,
    rules: &Rules,
    patterns: &PatternSet,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<PercentResult, SolverError> {
    let needed = field.pieces_needed();
    let hold = rules.hold;
    let sequences = searching_sequences(patterns, needed as usize, hold).map_err(|e| {
        SolverError::PatternTooShort {
            given: e.available,
            needed,
        }
    })?;
    let queues: Vec<Vec<Piece>> = sequences.iter().map(|seq| seq.iter().collect()).collect();
    let total = queues.len() as u64;
    progress(0, total);
    let results = check_all(
        field,
        rules,
        &queues,
        crate::options::default_threads(),
        &mut |done| progress(done as u64, total),
    );
    progress(total, total);
    let success = results.iter().filter(|&&ok| ok).count() as u64;
    let out: Vec<(Vec<Piece>, bool)> = queues.into_iter().zip(results).collect();
    Ok(PercentResult {
        success,
        total: sequences.len() as u64,
        sequences: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    /// Split between threads, the searches give the same answers in the same order.
    /// For fields needing more pieces than the automaton takes, the layered search answers
    /// every queue as one search per queue does: with and without hold, one known prefix
    /// or several, and continuations from a fresh bag or the end of one.
    #[test]
    fn layered_answers_agree_with_one_search_per_queue() {
        let field = "##......../##......../##......../##........";
        let cases = [
            (Rules::default(), "S,Z,O,S,Z,*p4"),
            (Rules::default(), "[SZ]p2,O,O,T,*p4"),
            (Rules::without_hold(), "T,S,Z,[IO]p2,*p3"),
            (Rules::without_hold(), "L,J,O,[TSZ]p2,*p3"),
        ];
        for (rules, pattern) in cases {
            let field = PcField::new(field.parse().unwrap(), 4).unwrap();
            let patterns: PatternSet = pattern.parse().unwrap();
            let queues: Vec<Vec<Piece>> = searching_sequences(&patterns, 8, rules.hold)
                .unwrap()
                .iter()
                .map(|seq| seq.iter().collect())
                .collect();
            let layered = layered_answers(&field, &rules, &queues, &mut |_| {})
                .expect("the layered search answers");
            assert_eq!(layered, check_all(&field, &rules, &queues, 1, &mut |_| {}));
            let mut searcher = Searcher::new(rules.clone());
            let one_by_one: Vec<bool> = queues
                .iter()
                .map(|q| searcher.has_solution(&field, None, q))
                .collect();
            assert_eq!(layered, one_by_one, "{pattern}");
            let won = layered.iter().filter(|&&ok| ok).count();
            assert!(
                won > 0 && won < layered.len(),
                "{pattern}: {won} of {}",
                layered.len()
            );
        }
    }

    #[test]
    fn threads_agree_with_one_search() {
        let pco = PcField::new(
            "##.....###/###....###/####...###/###....###"
                .parse()
                .unwrap(),
            4,
        )
        .unwrap();
        let rules = Rules::default();
        let patterns: PatternSet = "I,*p4".parse().unwrap();
        let queues: Vec<Vec<Piece>> = searching_sequences(&patterns, 4, true)
            .unwrap()
            .iter()
            .take(AUTOMATON_MIN_SEQUENCES - 1)
            .map(|seq| seq.iter().collect())
            .collect();
        assert!(queues.len() >= PARALLEL_MIN_SEQUENCES);
        let one = check_all(&pco, &rules, &queues, 1, &mut |_| {});
        let three = check_all(&pco, &rules, &queues, 3, &mut |_| {});
        assert_eq!(one, three);
        assert!(one.contains(&true) && one.contains(&false));
    }

    /// Every way of answering tells its progress in order, up to every queue: one search
    /// per queue, threads, the automaton and the layered search.
    #[test]
    fn progress_counts_up_to_every_queue() {
        let pco = PcField::new(
            "##.....###/###....###/####...###/###....###"
                .parse()
                .unwrap(),
            4,
        )
        .unwrap();
        let rules = Rules::default();
        let queues = |pattern: &str, pieces: usize| -> Vec<Vec<Piece>> {
            searching_sequences(&pattern.parse().unwrap(), pieces, true)
                .unwrap()
                .iter()
                .map(|seq| seq.iter().collect())
                .collect()
        };
        let few = queues("I,*p4", 4)[..AUTOMATON_MIN_SEQUENCES - 1].to_vec();
        let many = queues("I,*p4", 4);
        let layered_field = PcField::new(
            "##......../##......../##......../##........"
                .parse()
                .unwrap(),
            4,
        )
        .unwrap();
        let layered = queues("S,Z,O,S,Z,*p4", 8);
        for (problem, queues, threads) in [
            (&pco, &few, 1),
            (&pco, &few, 3),
            (&pco, &many, 1),
            (&layered_field, &layered, 1),
        ] {
            let mut seen = Vec::new();
            check_all(problem, &rules, queues, threads, &mut |done| {
                seen.push(done)
            });
            assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
            assert_eq!(seen.last(), Some(&queues.len()));
        }
    }
}
