//! pc-solver: the exact PC chance with a preview of five (`Solver::recommend`), from a
//! cold solver and for the next decision of the same PC with the solver reused, and the
//! first decision of a PC from the empty field. Values are asserted before timing.

use criterion::{Criterion, criterion_group, criterion_main};
use pc_bag::PieceSet;
use pc_solver::{Position, Rules, Solver};
use pc_srs::Piece;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn pieces(text: &str) -> Vec<Piece> {
    text.chars().map(|c| Piece::from_char(c).unwrap()).collect()
}

fn position(field: &str, hold: Option<Piece>, queue: &str, bag: &str) -> Position {
    let q = pieces(queue);
    Position::new(field.parse().unwrap(), q[0])
        .with_hold(hold)
        .with_preview(&q[1..])
        .with_bag(bag.parse::<PieceSet>().unwrap())
}

fn solver() -> Solver {
    Solver::new(Rules::default())
}

/// The `recommend` example's default: 8 pieces left, O held, T S Z I L J in view.
fn early() -> Position {
    position(
        "##......../##......../##......../##........",
        Some(Piece::O),
        "TSZILJ",
        "IOSTZ",
    )
}

fn bench_adaptive(c: &mut Criterion) {
    let mut group = c.benchmark_group("adaptive");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));

    let late = position(
        "#.......##/#.......##/##......##/###....###",
        None,
        "ZSTLJI",
        "JLOSTZ",
    );
    assert!(solver().chance(&late).unwrap().is_one());
    group.bench_function("decision, 7 pieces left, cold", |b| {
        b.iter(|| black_box(solver().recommend(black_box(&late)).unwrap().moves.len()))
    });

    let early = early();
    let first = solver().recommend(&early).unwrap();
    assert!(first.chance.is_one());
    group.bench_function("decision, 8 pieces left, cold", |b| {
        b.iter(|| black_box(solver().recommend(black_box(&early)).unwrap().moves.len()))
    });

    // The next decision: the best move is played and the next piece of the bag shows.
    let revealed = early.bag.iter().next().unwrap();
    let next = early.after(&first.moves[0], &[revealed]).unwrap();
    group.bench_function("next decision, solver reused", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut s = solver();
                s.recommend(&early).unwrap();
                let started = Instant::now();
                black_box(s.recommend(black_box(&next)).unwrap().moves.len());
                total += started.elapsed();
            }
            total
        })
    });
    group.finish();
}

/// The first decision of a PC from the empty field: I held, T S Z L J O in view (a whole
/// bag), four pieces to come from a fresh bag. The layered search answers it.
fn bench_first_decision(c: &mut Criterion) {
    let mut group = c.benchmark_group("adaptive, first decision");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(60));
    let first = position("..........", Some(Piece::I), "TSZLJO", "");
    let ranked = solver().recommend(&first).unwrap();
    assert!(ranked.chance.is_one());
    assert_eq!(ranked.moves.len(), 51);
    group.bench_function("empty field, hold + 6 in view, cold", |b| {
        b.iter(|| black_box(solver().recommend(black_box(&first)).unwrap().moves.len()))
    });
    group.finish();
}

criterion_group!(benches, bench_adaptive, bench_first_decision);
criterion_main!(benches);
