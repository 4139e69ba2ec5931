//! Work shared among threads while a graph is built or loaded.

/// The threads a build or a load may use: the machine's (one in a browser).
pub(crate) fn threads() -> usize {
    if cfg!(target_family = "wasm") {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// How many runs [`by_runs`] cuts a layer of `fields` fields into: one per thread
/// ([`threads`]), one for a small layer (a thread would cost more than it saves).
pub(crate) fn runs_for(fields: usize) -> usize {
    const SMALLEST_RUN: usize = 1 << 14;
    threads().min(fields / SMALLEST_RUN).max(1)
}

/// `work` over `0..fields` cut into `runs` runs of consecutive fields, on the machine's
/// threads ([`in_parallel`]), the results in the order of the runs.
pub(crate) fn by_runs<T: Send>(
    fields: usize,
    runs: usize,
    work: impl Fn(std::ops::Range<u32>) -> T + Sync,
) -> Vec<T> {
    let runs = runs.max(1);
    let bounds: Vec<u32> = (0..=runs).map(|r| (fields * r / runs) as u32).collect();
    let order: Vec<usize> = (0..runs).collect();
    match in_parallel(&order, |r| {
        Ok::<T, std::convert::Infallible>(work(bounds[r]..bounds[r + 1]))
    }) {
        Ok(results) => results,
        Err(never) => match never {},
    }
}

/// `work(k)` for each `k` of `order`, on the machine's threads (a thread takes the next
/// `k` when it is done), the results in order of `k`; the first error of any.
pub(crate) fn in_parallel<T: Send, E: Send>(
    order: &[usize],
    work: impl Fn(usize) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E> {
    in_parallel_on(threads(), order, work)
}

/// `work(k)` for each `k` in `0..parts` on up to `threads` threads, this one among them
/// (one where no thread can be started), the results in order of `k`.
pub(crate) fn on_threads<T: Send>(
    threads: usize,
    parts: usize,
    work: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let order: Vec<usize> = (0..parts).collect();
    match in_parallel_on(threads, &order, |k| {
        Ok::<T, std::convert::Infallible>(work(k))
    }) {
        Ok(results) => results,
        Err(never) => match never {},
    }
}

/// [`in_parallel`] on up to `threads` threads.
fn in_parallel_on<T: Send, E: Send>(
    threads: usize,
    order: &[usize],
    work: impl Fn(usize) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E> {
    let threads = threads.min(order.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let run = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&k) = order.get(i) else {
                return done;
            };
            done.push((k, work(k)));
        }
    };
    let mut results: Vec<(usize, Result<T, E>)> = if threads <= 1 {
        run()
    } else {
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .filter_map(|_| std::thread::Builder::new().spawn_scoped(scope, run).ok())
                .collect();
            let mut all = run();
            for helper in helpers {
                all.extend(
                    helper
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                );
            }
            all
        })
    };
    results.sort_by_key(|(k, _)| *k);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Fields in classes by their moves ([`classes_by_moves`]).
pub(crate) struct Classes<M> {
    /// Each field's class.
    pub(crate) class_of: Vec<u32>,
    /// Where each class's moves start in `moves` (one more entry than classes).
    pub(crate) starts: Vec<u32>,
    /// The classes' moves (sorted, without repeats), one class after another.
    pub(crate) moves: Vec<M>,
}

impl<M> Classes<M> {
    /// The number of classes.
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The moves of class `class`.
    pub(crate) fn moves_of(&self, class: u32) -> &[M] {
        &self.moves[self.starts[class as usize] as usize..self.starts[class as usize + 1] as usize]
    }
}

/// Classes of the fields `0..fields`: `moves(field, out)` writes a field's moves, and
/// fields whose moves (sorted, without repeats) are equal share a class, the classes
/// numbered in the order they are first met. Each of `runs` runs ([`by_runs`]) numbers
/// the classes it meets; the runs' classes are then renumbered in order, so the numbers
/// do not depend on the threads.
pub(crate) fn classes_by_moves<M: Ord + std::hash::Hash + Copy + Send>(
    fields: usize,
    runs: usize,
    moves: impl Fn(u32, &mut Vec<M>) + Sync,
) -> Classes<M> {
    classes_hashed(fields, runs, field_by_field(moves), u64::MAX)
}

/// [`classes_by_moves`], the moves written a block of consecutive fields at a time
/// ([`BlockMoves`]), for moves found faster together (their children looked up at once).
pub(crate) fn classes_by_block_moves<M: Ord + std::hash::Hash + Copy + Send>(
    fields: usize,
    runs: usize,
    moves: impl Fn(std::ops::Range<u32>, &mut BlockMoves<M>) + Sync,
) -> Classes<M> {
    classes_hashed(fields, runs, moves, u64::MAX)
}

/// The moves of a block of consecutive fields, one field after another.
pub(crate) struct BlockMoves<M> {
    /// Every field's moves.
    pub(crate) moves: Vec<M>,
    /// Where each field's moves end in `moves`.
    pub(crate) ends: Vec<u32>,
}

impl<M> BlockMoves<M> {
    /// Ends the moves of the field being written.
    pub(crate) fn end_field(&mut self) {
        self.ends.push(self.moves.len() as u32);
    }
}

/// Fields in a block of [`classes_by_block_moves`].
const BLOCK_FIELDS: u32 = 1 << 10;

/// A block's moves from each field's ([`classes_by_moves`]'s form).
fn field_by_field<M>(
    moves: impl Fn(u32, &mut Vec<M>) + Sync,
) -> impl Fn(std::ops::Range<u32>, &mut BlockMoves<M>) + Sync {
    move |block, out| {
        for field in block {
            moves(field, &mut out.moves);
            out.end_field();
        }
    }
}

/// [`classes_by_block_moves`], the hashes of the moves kept to the bits of `hash_bits` (the
/// tests make many lists share a hash).
fn classes_hashed<M: Ord + std::hash::Hash + Copy + Send>(
    fields: usize,
    runs: usize,
    moves: impl Fn(std::ops::Range<u32>, &mut BlockMoves<M>) + Sync,
    hash_bits: u64,
) -> Classes<M> {
    let runs = by_runs(fields, runs, |run| {
        let mut met = MovesNumbered::new(hash_bits);
        let mut block = BlockMoves {
            moves: Vec::new(),
            ends: Vec::new(),
        };
        let mut buffer: Vec<M> = Vec::new();
        let mut class_of: Vec<u32> = Vec::with_capacity(run.len());
        for start in run.clone().step_by(BLOCK_FIELDS as usize) {
            block.moves.clear();
            block.ends.clear();
            moves(start..(start + BLOCK_FIELDS).min(run.end), &mut block);
            let mut from = 0;
            for &end in &block.ends {
                buffer.clear();
                buffer.extend_from_slice(&block.moves[from..end as usize]);
                buffer.sort_unstable();
                buffer.dedup();
                class_of.push(met.number(&buffer));
                from = end as usize;
            }
        }
        (class_of, met)
    });
    // The first run numbers its classes as the whole does: the others' are renumbered.
    let mut runs = runs.into_iter();
    let (mut class_of, mut all) = runs.next().expect("at least one run");
    class_of.reserve(fields - class_of.len());
    for (run_class_of, met) in runs {
        let renumbered: Vec<u32> = (0..met.classes.len() as u32)
            .map(|class| all.number(met.classes.moves_of(class)))
            .collect();
        class_of.extend(run_class_of.iter().map(|&n| renumbered[n as usize]));
    }
    all.classes.class_of = class_of;
    all.classes
}

/// Distinct lists of moves, numbered in the order they are first met and kept one after
/// another: a list of its own per class would be an allocation each, hundreds of
/// thousands of them, which the allocator keeps after they are freed.
struct MovesNumbered<M> {
    hasher: ahash::RandomState,
    /// The bits of a hash kept ([`classes_hashed`]).
    hash_bits: u64,
    /// The last class numbered with each hash of its moves.
    by_hash: std::collections::HashMap<u64, u32, std::hash::BuildHasherDefault<KeyIsHash>>,
    /// For each class, the class numbered before it with the same hash ([`NONE`]: none).
    same_hash: Vec<u32>,
    /// The lists (`class_of` left empty).
    classes: Classes<M>,
}

/// No class.
const NONE: u32 = u32::MAX;

/// Hashes the keys of [`MovesNumbered::by_hash`] as themselves: they are hashes already.
#[derive(Default)]
struct KeyIsHash(u64);

impl std::hash::Hasher for KeyIsHash {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

impl<M> MovesNumbered<M> {
    fn new(hash_bits: u64) -> Self {
        MovesNumbered {
            hasher: ahash::RandomState::new(),
            hash_bits,
            by_hash: Default::default(),
            same_hash: Vec::new(),
            classes: Classes {
                class_of: Vec::new(),
                starts: vec![0],
                moves: Vec::new(),
            },
        }
    }
}

impl<M: Eq + std::hash::Hash + Copy> MovesNumbered<M> {
    /// The number of the class of `moves`, numbered now if they are new.
    fn number(&mut self, moves: &[M]) -> u32 {
        let hash = self.hasher.hash_one(moves) & self.hash_bits;
        let mut at = self.by_hash.get(&hash).copied().unwrap_or(NONE);
        while at != NONE {
            if self.classes.moves_of(at) == moves {
                return at;
            }
            at = self.same_hash[at as usize];
        }
        let class = self.classes.len() as u32;
        self.same_hash
            .push(self.by_hash.insert(hash, class).unwrap_or(NONE));
        self.classes.moves.extend_from_slice(moves);
        self.classes.starts.push(self.classes.moves.len() as u32);
        class
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fields share a class exactly when their moves are the same set, and the classes
    /// are numbered in the order they are first met, whatever the runs.
    #[test]
    fn classes_are_the_fields_with_the_same_moves() {
        let fields = 5000;
        // A field's moves: a few of 0..6, unsorted, some repeated, some fields none.
        let moves_of = |field: u32, out: &mut Vec<u32>| {
            let mut x = field.wrapping_mul(2_654_435_761) | 1;
            for _ in 0..field % 5 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                out.push(x % 6);
            }
        };
        let mut met: Vec<Vec<u32>> = Vec::new();
        let expected: Vec<u32> = (0..fields as u32)
            .map(|field| {
                let mut moves = Vec::new();
                moves_of(field, &mut moves);
                moves.sort_unstable();
                moves.dedup();
                match met.iter().position(|m| *m == moves) {
                    Some(class) => class as u32,
                    None => {
                        met.push(moves);
                        met.len() as u32 - 1
                    }
                }
            })
            .collect();
        assert!(met.len() > 20 && met.len() < fields / 10);
        // Every hash, and two bits of it: lists of moves sharing a hash are told apart.
        for (runs, hash_bits) in [(1, u64::MAX), (2, u64::MAX), (3, 3), (7, u64::MAX), (1, 3)] {
            let classes = classes_hashed(fields, runs, field_by_field(&moves_of), hash_bits);
            assert_eq!(
                classes.class_of, expected,
                "{runs} runs, hash bits {hash_bits}"
            );
            assert_eq!(classes.len(), met.len());
            for (class, moves) in met.iter().enumerate() {
                assert_eq!(classes.moves_of(class as u32), moves.as_slice());
            }
        }
    }
}
