//! pc-solver with the `parallel` feature: the first decision of a PC from the empty field
//! ranked by one thread and by two (`SolverOptions::threads`), cold each time. Run with
//! `cargo bench -p pc-benches --features parallel --bench threads`. Values are asserted
//! before timing.

use criterion::{Criterion, criterion_group, criterion_main};
use pc_solver::{Position, Rules, Solver, SolverOptions};
use pc_srs::Piece;
use std::hint::black_box;
use std::time::Duration;

fn solver(threads: usize) -> Solver {
    let options = SolverOptions {
        threads,
        ..SolverOptions::default()
    };
    Solver::with_options(Rules::default(), options).unwrap()
}

/// I held, T S Z L J O in view (a whole bag), four pieces to come from a fresh bag: the
/// position of the `adaptive` bench's first decision.
fn first_decision() -> Position {
    let queue: Vec<Piece> = "TSZLJO".chars().filter_map(Piece::from_char).collect();
    Position::new("..........".parse().unwrap(), queue[0])
        .with_hold(Some(Piece::I))
        .with_preview(&queue[1..])
}

fn bench_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("adaptive, first decision, threads");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(60));
    let first = first_decision();
    let alone = solver(1).recommend(&first).unwrap();
    assert_eq!(alone.moves.len(), 51);
    assert_eq!(solver(2).recommend(&first).unwrap(), alone);
    for (threads, name) in [(1, "one thread"), (2, "two threads")] {
        group.bench_function(format!("empty field, hold + 6 in view, {name}"), |b| {
            b.iter(|| {
                black_box(
                    solver(threads)
                        .recommend(black_box(&first))
                        .unwrap()
                        .moves
                        .len(),
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_threads);
criterion_main!(benches);
