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
    let threads = threads().min(order.len());
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

/// Classes of the fields `0..fields`: `moves(field, out)` writes a field's moves, and
/// fields whose moves (sorted, without repeats) are equal share a class. Returns each
/// field's class and each class's moves, the classes numbered in the order they are first
/// met. Each of `runs` runs ([`by_runs`]) numbers the classes it meets; the runs' classes
/// are then renumbered in order, so the numbers do not depend on the threads.
pub(crate) fn classes_by_moves<M: Ord + std::hash::Hash + Clone + Send>(
    fields: usize,
    runs: usize,
    moves: impl Fn(u32, &mut Vec<M>) + Sync,
) -> (Vec<u32>, Vec<Vec<M>>) {
    use ahash::AHashMap;
    let runs = by_runs(fields, runs, |run| {
        let mut numbers: AHashMap<Vec<M>, u32> = AHashMap::new();
        let mut met: Vec<Vec<M>> = Vec::new();
        let mut buffer: Vec<M> = Vec::new();
        let class_of: Vec<u32> = run
            .map(|field| {
                buffer.clear();
                moves(field, &mut buffer);
                buffer.sort_unstable();
                buffer.dedup();
                if let Some(&number) = numbers.get(&buffer) {
                    return number;
                }
                met.push(buffer.clone());
                numbers.insert(buffer.clone(), met.len() as u32 - 1);
                met.len() as u32 - 1
            })
            .collect();
        (class_of, met)
    });
    let mut numbers: AHashMap<Vec<M>, u32> = AHashMap::new();
    let mut classes: Vec<Vec<M>> = Vec::new();
    let mut class_of = Vec::with_capacity(fields);
    for (run_class_of, met) in runs {
        let renumbered: Vec<u32> = met
            .into_iter()
            .map(|moves| {
                *numbers.entry(moves).or_insert_with_key(|moves| {
                    classes.push(moves.clone());
                    classes.len() as u32 - 1
                })
            })
            .collect();
        class_of.extend(run_class_of.iter().map(|&n| renumbered[n as usize]));
    }
    (class_of, classes)
}
