//! Perft-style golden counts: `tests/movegen.perft` lists fixed fields with the number
//! of placements per piece. Both the fast generator and the slow single-move search in
//! `common` must reproduce every number.

mod common;

use pc_bitboard::Board32;
use pc_srs::{DropMode, MoveGenerator, Piece};

struct Case {
    name: String,
    kicks: String,
    drop: DropMode,
    line: u32,
    field: Board32,
    counts: [usize; 7],
}

fn drop_mode(s: &str) -> DropMode {
    match s {
        "soft" => DropMode::Soft,
        "hard" => DropMode::Hard,
        other => panic!("unknown drop mode {other}"),
    }
}

fn cases() -> Vec<Case> {
    let text = include_str!("movegen.perft");
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(
            parts.len(),
            6,
            "movegen.perft line {}: expected 6 fields",
            i + 1
        );
        let counts: Vec<usize> = parts[5]
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        out.push(Case {
            name: parts[0].to_string(),
            kicks: parts[1].to_string(),
            drop: drop_mode(parts[2]),
            line: parts[3].parse().unwrap(),
            field: parts[4]
                .parse()
                .unwrap_or_else(|e| panic!("line {}: {e}", i + 1)),
            counts: counts
                .try_into()
                .expect("seven counts, in the order I J L O S T Z"),
        });
    }
    assert!(
        out.len() >= 20,
        "the golden file must hold at least 20 fields"
    );
    out
}

#[test]
fn fast_generator_matches_golden_counts() {
    for case in cases() {
        let kicks = common::kick_table(&case.kicks);
        let generator = MoveGenerator::new(&kicks, case.drop);
        for p in Piece::ALL {
            let n = generator
                .placements(&case.field, p, case.line)
                .unwrap()
                .len();
            assert_eq!(n, case.counts[p.index()], "{} piece {p}", case.name);
        }
    }
}

#[test]
fn slow_search_matches_golden_counts() {
    for case in cases() {
        let kicks = common::kick_table(&case.kicks);
        for p in Piece::ALL {
            let n = common::slow_placements(&case.field, p, case.line, &kicks, case.drop).len();
            assert_eq!(n, case.counts[p.index()], "{} piece {p}", case.name);
        }
    }
}

/// Fields of the golden file that are not hand-written: random fields from a fixed seed.
fn random_field(seed: &mut u64, rows: u32, density: u32) -> Board32 {
    let mut b = Board32::new();
    for y in 0..rows {
        for x in 0..10 {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if (*seed >> 33) % 100 < density as u64 {
                b.fill(x, y);
            }
        }
        if b.row(y) == 0x3ff {
            b.empty_cell(((*seed >> 40) % 10) as usize, y);
        }
    }
    b
}

/// Prints the golden file from the slow search. Run after changing the list of fields:
/// `cargo test -p pc-srs --release --test perft -- --ignored --nocapture print_golden_file`
#[test]
#[ignore]
fn print_golden_file() {
    let mut fields: Vec<(String, &str, &str, u32, Board32)> = vec![];
    let hand = [
        ("empty-4", "srs", "soft", 4, ""),
        ("empty-2", "srs", "soft", 2, ""),
        ("empty-8", "srs", "soft", 8, ""),
        (
            "pco",
            "srs",
            "soft",
            4,
            "##.....###/###....###/####...###/###....###",
        ),
        (
            "pc-template",
            "srs",
            "soft",
            4,
            "#####....#/######...#/#######..#/######...#",
        ),
        (
            "grace",
            "srs",
            "soft",
            4,
            "######..../######..../######..../######....",
        ),
        (
            "tsd-overhang",
            "srs",
            "soft",
            3,
            "..#......./##...#####/###.######",
        ),
        (
            "tst-slot",
            "srs",
            "soft",
            5,
            "###......./##......../##.#######/##..######/##.#######",
        ),
        (
            "stsd",
            "srs",
            "soft",
            5,
            "....##..../.....#..../##..######/###.######/###.######",
        ),
        (
            "pco-hard",
            "srs",
            "hard",
            4,
            "##.....###/###....###/####...###/###....###",
        ),
        (
            "tsd-hard",
            "srs",
            "hard",
            3,
            "..#......./##...#####/###.######",
        ),
        (
            "pco-srs+",
            "srs+",
            "soft",
            4,
            "##.....###/###....###/####...###/###....###",
        ),
        (
            "tsd-srs+",
            "srs+",
            "soft",
            3,
            "..#......./##...#####/###.######",
        ),
        (
            "tsd-jstris180",
            "jstris180",
            "soft",
            3,
            "..#......./##...#####/###.######",
        ),
        (
            "tst-nullpomino180",
            "nullpomino180",
            "soft",
            5,
            "###......./##......../##.#######/##..######/##.#######",
        ),
        (
            "tsd-nokicks",
            "nokicks",
            "soft",
            3,
            "..#......./##...#####/###.######",
        ),
        (
            "tsd-none",
            "none",
            "soft",
            3,
            "..#......./##...#####/###.######",
        ),
    ];
    for (name, k, d, line, text) in hand {
        fields.push((name.to_string(), k, d, line, text.parse().unwrap()));
    }
    let mut seed = 0x5eed_u64;
    let kinds = [
        ("srs", "soft"),
        ("srs+", "soft"),
        ("srs", "hard"),
        ("jstris180", "soft"),
    ];
    for i in 0..12 {
        let rows = 3 + (i % 6) as u32;
        let line = rows + (i % 2) as u32;
        let (k, d) = kinds[i % kinds.len()];
        fields.push((
            format!("random-{i}"),
            k,
            d,
            line,
            random_field(&mut seed, rows, 45),
        ));
    }
    for i in 0..3 {
        let (k, d) = kinds[i % 2];
        fields.push((
            format!("tall-{i}"),
            k,
            d,
            24,
            random_field(&mut seed, 20, 35),
        ));
    }
    println!("# Golden placement counts for pc-srs (perft-style).");
    println!("#");
    println!("# Counting rule: the number of distinct cell sets where the piece can lock entirely");
    println!("# below the clear line, entering from anywhere above it (rows above the line are");
    println!("# empty), moving left/right, soft-dropping and turning with the kick table (half");
    println!("# turns where it has them) in drop mode 'soft', or turning and shifting above the");
    println!(
        "# field then hard-dropping in mode 'hard'. Placements of I, S, Z and O that cover the"
    );
    println!("# same cells count once. Counts were produced by the slow single-move search in");
    println!("# tests/common/mod.rs (print_golden_file) and are checked against both generators.");
    println!("#");
    println!("# name | kicks | drop | clear line | field, top row first | I J L O S T Z");
    for (name, k, d, line, field) in fields {
        let kicks = common::kick_table(k);
        let counts: Vec<String> = Piece::ALL
            .iter()
            .map(|&p| {
                common::slow_placements(&field, p, line, &kicks, drop_mode(d))
                    .len()
                    .to_string()
            })
            .collect();
        let text = field.to_text(line, "/");
        println!(
            "{name} | {k} | {d} | {line} | {text} | {}",
            counts.join(" ")
        );
    }
}
