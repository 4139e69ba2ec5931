//! Move generation per piece: the empty 4-line field, the PCO field, and a random
//! 20-row game field from the guideline spawn. The placement counts are asserted first,
//! so a fast path that breaks correctness fails here too.

use criterion::{Criterion, criterion_group, criterion_main};
use pc_bitboard::Board32;
use pc_srs::{DropMode, KickTable, MoveGenerator, Piece, guideline_spawn};
use std::hint::black_box;

/// A 20-row field with bumpy columns and a few holes, from a fixed seed.
fn random_20_row_field() -> Board32 {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut b = Board32::new();
    for x in 0..10 {
        let h = 8 + (next() % 9) as u32; // 8..=16 rows
        for y in 0..h {
            if next() % 7 != 0 {
                b.fill(x, y);
            }
        }
    }
    for y in 0..20 {
        if b.row(y) == 0x3ff {
            b.empty_cell((next() % 10) as usize, y);
        }
    }
    b
}

fn bench_movegen(c: &mut Criterion) {
    let srs = KickTable::srs();
    let soft = MoveGenerator::new(&srs, DropMode::Soft);
    let empty = Board32::new();
    let pco: Board32 = "##.....###/###....###/####...###/###....###"
        .parse()
        .unwrap();
    let tall = random_20_row_field();

    let count = |b: &Board32, line| -> Vec<usize> {
        Piece::ALL
            .iter()
            .map(|&p| soft.placements(b, p, line).unwrap().len())
            .collect()
    };
    assert_eq!(count(&empty, 4), [17, 34, 34, 9, 17, 34, 17]);
    assert_eq!(count(&pco, 4), [6, 10, 10, 3, 6, 11, 5]);

    let mut group = c.benchmark_group("movegen");
    group.bench_function("empty 4-line, all 7 pieces", |b| {
        b.iter(|| {
            for p in Piece::ALL {
                black_box(soft.placements(black_box(&empty), p, 4).unwrap().len());
            }
        })
    });
    group.bench_function("PCO 4-line, all 7 pieces", |b| {
        b.iter(|| {
            for p in Piece::ALL {
                black_box(soft.placements(black_box(&pco), p, 4).unwrap().len());
            }
        })
    });
    group.bench_function("random 20-row from spawn, all 7 pieces", |b| {
        b.iter(|| {
            for p in Piece::ALL {
                black_box(
                    soft.placements_from_spawn(black_box(&tall), p, guideline_spawn(20))
                        .unwrap()
                        .len(),
                );
            }
        })
    });
    let srs_plus = KickTable::srs_plus();
    let plus = MoveGenerator::new(&srs_plus, DropMode::Soft);
    group.bench_function("PCO 4-line SRS+ (180), all 7 pieces", |b| {
        b.iter(|| {
            for p in Piece::ALL {
                black_box(plus.placements(black_box(&pco), p, 4).unwrap().len());
            }
        })
    });
    let hard = MoveGenerator::new(&srs, DropMode::Hard);
    group.bench_function("PCO 4-line hard drop, all 7 pieces", |b| {
        b.iter(|| {
            for p in Piece::ALL {
                black_box(hard.placements(black_box(&pco), p, 4).unwrap().len());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench_movegen);
criterion_main!(benches);
