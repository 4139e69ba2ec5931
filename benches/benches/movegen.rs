//! Move generation per piece: the empty 4-line field, the PCO field, and a random
//! 20-row game field from the guideline spawn; and, one call per iteration, the field set
//! of the side-by-side comparison with bitris (`pc-fields`: five hand-written 4-row
//! fields; `random-4-row`: 32 random 4-row fields), per piece and for all seven. The
//! placement counts are asserted first, so a fast path that breaks correctness fails here
//! too.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
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

/// Five 4-row perfect-clear fields, top row first, clear line 4: empty, PCO, the PC
/// template with the I upright, the grace system and a T-spin double slot under an
/// overhang; with their placement counts (I J L O S T Z).
const PC_FIELDS: [(&str, [usize; 7]); 5] = [
    (
        "........../........../........../..........",
        [17, 34, 34, 9, 17, 34, 17],
    ),
    (
        "##.....###/###....###/####...###/###....###",
        [6, 10, 10, 3, 6, 11, 5],
    ),
    (
        "#####....#/######...#/#######..#/######...#",
        [3, 6, 6, 2, 4, 7, 3],
    ),
    (
        "######..../######..../######..../######....",
        [5, 10, 10, 3, 5, 10, 5],
    ),
    (
        "........../..#......./##...#####/###.######",
        [8, 16, 15, 7, 8, 18, 8],
    ),
];

/// 32 random 4-row fields (each cell filled with probability 0.4, no full row), from a
/// fixed seed.
fn random_4_row_fields() -> Vec<Board32> {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..32)
        .map(|_| {
            let mut rows = vec![];
            for _ in 0..4 {
                let mut row: Vec<char> = (0..10)
                    .map(|_| if next() % 100 < 40 { '#' } else { '.' })
                    .collect();
                if row.iter().all(|&c| c == '#') {
                    row[(next() % 10) as usize] = '.';
                }
                rows.push(row.into_iter().collect::<String>());
            }
            rows.join("/").parse().unwrap()
        })
        .collect()
}

/// One call per iteration, cycling through the fields: per piece, and all seven pieces
/// on one field per iteration.
fn bench_field_set(c: &mut Criterion, group: &str, fields: &[Board32]) {
    let srs = KickTable::srs();
    let soft = MoveGenerator::new(&srs, DropMode::Soft);
    let mut group = c.benchmark_group(group);
    for p in Piece::ALL {
        let mut k = 0;
        group.bench_function(BenchmarkId::from_parameter(p), |b| {
            b.iter(|| {
                k = (k + 1) % fields.len();
                black_box(soft.placements(black_box(&fields[k]), p, 4).unwrap())
            })
        });
    }
    let mut k = 0;
    group.bench_function("all 7 pieces", |b| {
        b.iter(|| {
            k = (k + 1) % fields.len();
            for p in Piece::ALL {
                black_box(soft.placements(black_box(&fields[k]), p, 4).unwrap());
            }
        })
    });
    group.finish();
}

fn bench_comparison_fields(c: &mut Criterion) {
    let srs = KickTable::srs();
    let soft = MoveGenerator::new(&srs, DropMode::Soft);
    let pc: Vec<Board32> = PC_FIELDS
        .iter()
        .map(|(text, _)| text.parse().unwrap())
        .collect();
    for (field, (_, counts)) in pc.iter().zip(PC_FIELDS) {
        let found: Vec<usize> = Piece::ALL
            .iter()
            .map(|&p| soft.placements(field, p, 4).unwrap().len())
            .collect();
        assert_eq!(found, counts);
    }
    bench_field_set(c, "movegen pc-fields", &pc);
    bench_field_set(c, "movegen random-4-row", &random_4_row_fields());
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

criterion_group!(benches, bench_movegen, bench_comparison_fields);
criterion_main!(benches);
