//! pc-solver: the exact PC chance with a preview of five (`Solver::recommend`), from a
//! cold solver and for the next decision of the same PC with the solver reused. Values
//! are asserted before timing.

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
    Solver::new(Rules::default()).with_preview(5).unwrap()
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
    let revealed = pc_solver::percent::srs_piece(early.bag.iter().next().unwrap());
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

criterion_group!(benches, bench_adaptive);
criterion_main!(benches);
