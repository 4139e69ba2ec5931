//! pc-solver: sfinder's percent for the first PC from the empty field with every 11-piece
//! window of two bags, `*p7,*p4` (4,233,600 sequences, all of them with a PC). About half a
//! minute a run: `cargo bench -p pc-benches --bench percent_empty`.

use criterion::{Criterion, criterion_group, criterion_main};
use pc_bitboard::Board32;
use pc_solver::{PcField, Rules, percent};
use std::hint::black_box;
use std::time::Duration;

fn bench_empty_field(c: &mut Criterion) {
    let empty = PcField::new(Board32::new(), 4).unwrap();
    let rules = Rules::default();
    let pattern: pc_bag::PatternSet = "*p7,*p4".parse().unwrap();
    let found = percent(&empty, &rules, &pattern).unwrap();
    assert_eq!((found.success, found.total), (4_233_600, 4_233_600));
    let mut group = c.benchmark_group("percent, empty field");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(280));
    group.bench_function("*p7,*p4 (4,233,600 sequences)", |b| {
        b.iter(|| {
            black_box(
                percent(black_box(&empty), &rules, &pattern)
                    .unwrap()
                    .success,
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench_empty_field);
criterion_main!(benches);
