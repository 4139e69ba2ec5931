//! pc-solver: sfinder's percent on the three public openers, a known 11-piece queue from
//! the empty field (one solution, and all of them), and 21 seeded 7-bag queues one by one
//! (for the median over queues).
//! Results are asserted before timing.

use criterion::{Criterion, criterion_group, criterion_main};
use pc_bitboard::Board32;
use pc_solver::{PcField, Rules, Searcher, percent};
use pc_srs::Piece;
use std::hint::black_box;

fn field(text: &str) -> PcField {
    PcField::new(text.parse().unwrap(), 4).unwrap()
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
        let p = self::field(field);
        let rules = Rules::default();
        let pattern: pc_bag::PatternSet = pattern.parse().unwrap();
        assert_eq!(percent(&p, &rules, &pattern).unwrap().success, success);
        group.bench_function(name, |b| {
            b.iter(|| black_box(percent(black_box(&p), &rules, &pattern).unwrap().success))
        });
    }
    group.finish();
}

fn bench_known_queue(c: &mut Criterion) {
    let empty = PcField::new(Board32::new(), 4).unwrap();
    let queue: Vec<Piece> = "TIJLOSZTIJL"
        .chars()
        .map(|ch| Piece::from_char(ch).unwrap())
        .collect();
    assert!(
        Searcher::new(Rules::default())
            .solution(&empty, None, &queue)
            .is_some()
    );
    let mut group = c.benchmark_group("known queue");
    group.sample_size(20);
    group.bench_function("empty 4-line, 11 pieces, one solution (cold)", |b| {
        b.iter(|| {
            black_box(
                Searcher::new(Rules::default())
                    .solution(&empty, None, black_box(&queue))
                    .is_some(),
            )
        })
    });
    let all = Searcher::new(Rules::default()).count_solutions(&empty, None, &queue);
    assert!(all > 1);
    group.sample_size(10);
    group.bench_function(
        format!("empty 4-line, 11 pieces, all {all} solutions (cold)"),
        |b| {
            b.iter(|| {
                black_box(Searcher::new(Rules::default()).count_solutions(
                    &empty,
                    None,
                    black_box(&queue),
                ))
            })
        },
    );
    group.finish();
}

/// Seeded 7-bag queues of 11 pieces (a whole bag and four of the next), as a player meets
/// them at the start of a game: each one's cold search for one solution is timed on its
/// own, so the median over queues can be read from the per-queue medians.
fn bag_queues(count: usize) -> Vec<Vec<Piece>> {
    let mut state: u64 = 12345;
    let mut below = |m: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % m
    };
    (0..count)
        .map(|_| {
            let mut queue = vec![];
            for _ in 0..2 {
                let mut bag = Piece::ALL.to_vec();
                for i in (1..7).rev() {
                    bag.swap(i, below(i + 1));
                }
                queue.extend(bag);
            }
            queue.truncate(11);
            queue
        })
        .collect()
}

fn bench_bag_queues(c: &mut Criterion) {
    let empty = PcField::new(Board32::new(), 4).unwrap();
    let mut group = c.benchmark_group("one solution per bag queue");
    group
        .sample_size(10)
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1));
    for (i, queue) in bag_queues(21).into_iter().enumerate() {
        let name: String = queue.iter().map(|p| p.to_string()).collect();
        assert!(
            Searcher::new(Rules::default()).has_solution(&empty, None, &queue),
            "{name}"
        );
        group.bench_function(format!("{i:02} {name}"), |b| {
            b.iter(|| {
                black_box(Searcher::new(Rules::default()).has_solution(
                    &empty,
                    None,
                    black_box(&queue),
                ))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_percent, bench_known_queue, bench_bag_queues);
criterion_main!(benches);
