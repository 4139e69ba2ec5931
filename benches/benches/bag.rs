//! pc-bag hot paths: pattern expansion, hold orders, sequence probability.
//!
//! Each bench asserts its result in setup, so a fast path that breaks correctness fails
//! here too.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pc_bag::{BagState, Pattern, Piece, Sequence, play_orders, play_orders_into};

fn expand_pattern(c: &mut Criterion) {
    let pattern: Pattern = "*p7,*p4".parse().unwrap();
    assert_eq!(pattern.count(), 4_233_600);
    assert_eq!(pattern.expand().count(), 4_233_600);
    let xor = pattern
        .expand()
        .fold(0u64, |a, s| a ^ s.get(10).unwrap() as u64);
    c.bench_function("bag/expand *p7,*p4 (4,233,600 sequences)", |b| {
        b.iter(|| {
            let mut n = 0u32;
            let mut acc = 0u64;
            for s in black_box(&pattern).expand() {
                n += 1;
                acc ^= s.get(10).unwrap() as u64;
            }
            assert_eq!(n, 4_233_600);
            black_box((n, acc == xor))
        })
    });
}

fn hold_orders(c: &mut Criterion) {
    // An 11-piece window of a 7-bag stream (one full bag plus four): repeats included.
    let queue: Vec<Piece> = "TIOSZJLIOTS"
        .chars()
        .map(|ch| Piece::try_from(ch).unwrap())
        .collect();
    let orders = play_orders(None, &queue, 10).unwrap();
    // 2^10 = 1024 hold paths; equal reserve and incoming pieces merge some of them.
    let mut dedup = orders.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(dedup.len(), orders.len());
    assert!(orders.len() > 500 && orders.len() <= 1024);
    let mut buf = Vec::with_capacity(1024);
    c.bench_function("bag/hold orders of an 11-piece queue (play 10)", |b| {
        b.iter(|| {
            buf.clear();
            play_orders_into(None, black_box(&queue), 10, &mut buf).unwrap();
            black_box(buf.len())
        })
    });
    c.bench_function(
        "bag/hold orders of an 11-piece queue (play 10, new Vec)",
        |b| b.iter(|| black_box(play_orders(None, black_box(&queue), 10).unwrap().len())),
    );
}

fn sequence_probability(c: &mut Criterion) {
    let state = BagState::FRESH
        .draw_all([Piece::T, Piece::I, Piece::O])
        .unwrap();
    let seq: Sequence = "JLSZIJLOST".parse().unwrap();
    assert_eq!(seq.len(), 10);
    let p = state.probability(&seq);
    assert_eq!(p.to_string(), "1/120960"); // 4! * (7*6*5*4*3*2)
    c.bench_function("bag/probability of a 10-piece sequence", |b| {
        b.iter(|| black_box(black_box(&state).probability(black_box(&seq))))
    });
}

criterion_group!(benches, expand_pattern, hold_orders, sequence_probability);
criterion_main!(benches);
