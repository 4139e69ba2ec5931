//! The fill graph: build + count of the empty 4×10 field (split pieces and contiguous
//! pieces only), the split 4×10 graph with cycle removal, the empty 6×10 graph, and the
//! quick cover check. The answers are asserted first, so a fast path that breaks
//! correctness fails here too.

use criterion::{Criterion, criterion_group, criterion_main};
use pc_bitboard::Board32;
use pc_zdd_graph::{BuildOptions, CoverCheck, FillGraph};
use std::hint::black_box;

fn build_and_count(field: &Board32, clear_line: u32, options: BuildOptions) -> u128 {
    FillGraph::build(field, clear_line, options)
        .expect("valid field")
        .count()
}

fn bench_zdd(c: &mut Criterion) {
    let empty = Board32::new();
    let split = BuildOptions::new();
    let contiguous = BuildOptions::new().contiguous_only(true);
    let acyclic = BuildOptions::new().acyclic(true);

    assert_eq!(build_and_count(&empty, 4, split), 522_230_555);
    assert_eq!(build_and_count(&empty, 4, contiguous), 796_558);
    assert_eq!(build_and_count(&empty, 4, acyclic), 99_389_880);

    c.bench_function("zdd/build+count empty 4x10 split", |b| {
        b.iter(|| build_and_count(black_box(&empty), 4, split))
    });
    c.bench_function("zdd/build+count empty 4x10 contiguous", |b| {
        b.iter(|| build_and_count(black_box(&empty), 4, contiguous))
    });
    c.bench_function("zdd/build+count empty 4x10 split acyclic", |b| {
        b.iter(|| build_and_count(black_box(&empty), 4, acyclic))
    });

    for (name, options) in [("split", split), ("contiguous", contiguous)] {
        let g = FillGraph::build(&empty, 6, options).expect("valid field");
        eprintln!(
            "empty 6x10 {name}: {} states, {} transitions, {} bytes, {} fills",
            g.state_count(),
            g.transition_count(),
            g.memory_bytes(),
            g.count()
        );
    }
    let mut group = c.benchmark_group("zdd/6x10");
    group.sample_size(20);
    group.bench_function("build empty 6x10 split", |b| {
        b.iter(|| FillGraph::build(black_box(&empty), 6, split).map(|g| g.state_count()))
    });
    group.bench_function("build empty 6x10 contiguous", |b| {
        b.iter(|| FillGraph::build(black_box(&empty), 6, contiguous).map(|g| g.state_count()))
    });
    group.finish();
}

/// The quick cover check on fields a PC search meets: one that its pieces cover, one
/// they cannot (every cover is tried), and the empty field with a whole bag and four more.
fn bench_cover(c: &mut Criterion) {
    let check = CoverCheck::new(4).unwrap();
    let pco: Board32 = "##.....###/###....###/####...###/###....###"
        .parse()
        .unwrap();
    let grace: Board32 = "######..../######..../######..../######...."
        .parse()
        .unwrap();
    let cases = [
        ("PCO, IJLO (covers)", pco, "IJLO", true),
        ("grace, SSZZ (does not)", grace, "SSZZ", false),
        (
            "empty 4x10, IJLOSTZ + TIJL (covers)",
            Board32::new(),
            "IJLOSTZTIJL",
            true,
        ),
    ];
    let mut group = c.benchmark_group("cover check");
    for (name, field, budget, covers) in cases {
        let budget = budget.parse().unwrap();
        assert_eq!(check.can_cover(&field, budget), covers, "{name}");
        group.bench_function(name, |b| {
            b.iter(|| black_box(check.can_cover(black_box(&field), budget)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_zdd, bench_cover);
criterion_main!(benches);
