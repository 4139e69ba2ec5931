//! pc-solver: sfinder's percent on the three public openers, and a known 11-piece queue
//! from the empty field. Results are asserted before timing.

use criterion::{Criterion, criterion_group, criterion_main};
use pc_bitboard::Board32;
use pc_solver::{PcProblem, Rules, Searcher, percent};
use pc_srs::Piece;
use std::hint::black_box;

fn problem(field: &str, rules: Rules) -> PcProblem {
    PcProblem::new(field.parse().unwrap(), 4, rules).unwrap()
}

fn bench_percent(c: &mut Criterion) {
    let openers = [
        (
            "PC template *p4",
            "#####....#/######...#/#######..#/######...#",
            "*p4",
            514,
        ),
        (
            "PCO I,*p4",
            "##.....###/###....###/####...###/###....###",
            "I,*p4",
            711,
        ),
        (
            "grace T,*p4",
            "######..../######..../######..../######....",
            "T,*p4",
            744,
        ),
    ];
    let mut group = c.benchmark_group("percent");
    for (name, field, pattern, success) in openers {
        let p = problem(field, Rules::default());
        let pattern: pc_bag::PatternSet = pattern.parse().unwrap();
        assert_eq!(percent(&p, &pattern).unwrap().success, success);
        group.bench_function(name, |b| {
            b.iter(|| black_box(percent(black_box(&p), &pattern).unwrap().success))
        });
    }
    group.finish();
}

fn bench_known_queue(c: &mut Criterion) {
    let empty = PcProblem::new(Board32::new(), 4, Rules::default()).unwrap();
    let queue: Vec<Piece> = "TIJLOSZTIJL"
        .chars()
        .map(|ch| Piece::from_char(ch).unwrap())
        .collect();
    assert!(Searcher::new(&empty).solution(None, &queue).is_some());
    let mut group = c.benchmark_group("known queue");
    group.sample_size(20);
    group.bench_function("empty 4-line, 11 pieces, one solution (cold)", |b| {
        b.iter(|| {
            black_box(
                Searcher::new(&empty)
                    .solution(None, black_box(&queue))
                    .is_some(),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench_percent, bench_known_queue);
criterion_main!(benches);
