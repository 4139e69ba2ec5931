//! pc-solver's PC field graph: the first decision of a PC from the empty field answered
//! from the graph (full ranking, `Solver::recommend`, and the best move alone,
//! `Solver::best_move`) with a fresh solver (cold: the sets of queues that finish a field
//! and the children found are learnt as the walk meets them), the same decision asked of
//! a solver that answered it already (remembered), and four other starts asked of one
//! solver; the first decision of a game (the hold slot empty), a start with four
//! previews whose next piece the bag forces and one with five pieces unknown; positions
//! two pieces in with two previews and one in with three (five unknown, the window walk);
//! loading the graph file, until it returns and until the lookup tables it makes on
//! another thread are made; reading it laid out by piece (the page's download,
//! decompressed) and plainly (what the page's cache keeps) from chunks of 64 KiB with
//! `PcGraph::reader`, until its tables are made; writing it plainly a chunk at a time
//! (`GraphEncoder`, what the page does for its cache); making what a walk of five unknown
//! pieces reads (`PcGraph::prepare_five_unknown`), and taking it from the bytes kept of it
//! (`PcGraph::prepare_five_unknown_from`).
//! Values are asserted before timing.
//!
//! The graph of SRS with soft drop must be in the cache folder first (`$PC_GRAPH_DIR`, or
//! the platform's): `cargo run --release --example graph -- build`. Without it the bench
//! says so and measures nothing.
//!
//! `cargo bench -p pc-benches --bench graph`

use criterion::{Criterion, criterion_group, criterion_main};
use pc_solver::{Engine, GraphEncoder, PcGraph, Piece, Position, Rules, Solver, SolverOptions};
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The time `work` takes on `n` graphs loaded afresh, each timed once its tables are made: a
/// graph of its own each time, since clones share what it made.
fn timed_on_fresh_graphs(path: &Path, rules: &Rules, n: u64, work: impl Fn(&PcGraph)) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..n {
        let graph = PcGraph::load(path, rules).unwrap();
        while !graph.is_indexed() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let started = Instant::now();
        work(&graph);
        total += started.elapsed();
    }
    total
}

fn pieces(text: &str) -> Vec<Piece> {
    text.chars().map(|c| Piece::from_char(c).unwrap()).collect()
}

/// The start of a PC: the empty field, a piece in hold, the current piece and five more.
fn start(hold: Piece, queue: &str) -> Position {
    let q = pieces(queue);
    Position::new(Default::default(), q[0])
        .with_hold(Some(hold))
        .with_preview(&q[1..])
}

/// The time of `iterations` loads of the graph, each timed until it returns, or with
/// `until_indexed` until its lookup tables are made too (see `PcGraph::load`); the next
/// load starts once they are.
fn timed_loads(path: &Path, rules: &Rules, iterations: u64, until_indexed: bool) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iterations {
        let started = Instant::now();
        let graph = PcGraph::load(path, rules).unwrap();
        black_box(graph.fields());
        while until_indexed && !graph.is_indexed() {
            std::thread::sleep(Duration::from_micros(200));
        }
        total += started.elapsed();
        while !graph.is_indexed() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    total
}

/// Reads a graph file from chunks of 64 KiB ([`PcGraph::reader`]), until its tables are
/// made; its number of fields.
fn read_in_chunks(file: &[u8], rules: &Rules) -> u64 {
    let mut reader = PcGraph::reader(rules, file.len() as u64);
    for chunk in file.chunks(64 << 10) {
        reader.push(chunk).unwrap();
    }
    let read = reader.finish().unwrap();
    while !read.is_indexed() {
        std::thread::sleep(Duration::from_micros(200));
    }
    read.fields()
}

fn bench_graph(c: &mut Criterion) {
    let rules = Rules::default();
    let Some(path) = PcGraph::cache_path(&rules).filter(|p| p.exists()) else {
        eprintln!("no SRS graph cached: `cargo run --release --example graph -- build` first");
        return;
    };
    let mut group = c.benchmark_group("graph");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(30));

    group.bench_function("load the SRS graph", |b| {
        b.iter_custom(|n| timed_loads(&path, &rules, n, false))
    });
    group.bench_function("load the SRS graph, until its tables are made", |b| {
        b.iter_custom(|n| timed_loads(&path, &rules, n, true))
    });
    group.bench_function(
        "make what five unknown pieces read (prepare_five_unknown), SRS graph",
        |b| {
            b.iter_custom(|n| timed_on_fresh_graphs(&path, &rules, n, |g| g.prepare_five_unknown()))
        },
    );
    // The same, read back from the bytes a page or program keeps beside the graph.
    let prepared = {
        let graph = PcGraph::load(&path, &rules).unwrap();
        graph.prepare_five_unknown();
        graph.prepared_five_unknown().expect("made")
    };
    let taken = PcGraph::load(&path, &rules).unwrap();
    taken.prepare_five_unknown_from(&prepared).unwrap();
    assert_eq!(taken.prepared_five_unknown().as_ref(), Some(&prepared));
    group.bench_function(
        "take what five unknown pieces read from kept bytes (prepare_five_unknown_from), SRS graph",
        |b| {
            b.iter_custom(|n| {
                timed_on_fresh_graphs(&path, &rules, n, |graph| {
                    graph.prepare_five_unknown_from(&prepared).unwrap();
                })
            })
        },
    );
    let graph = Arc::new(PcGraph::load(&path, &rules).unwrap());
    while !graph.is_indexed() {
        std::thread::sleep(Duration::from_millis(1));
    }
    for (layout, file) in [
        ("by piece", graph.to_bytes_by_piece()),
        ("plainly", graph.to_bytes()),
    ] {
        let name =
            format!("read the SRS graph {layout} from 64 KiB chunks, until its tables are made");
        group.bench_function(name, |b| b.iter(|| read_in_chunks(&file, &rules)));
    }
    group.bench_function("write the SRS graph plainly, a chunk at a time", |b| {
        b.iter(|| {
            let mut encoder = GraphEncoder::new(graph.clone());
            let mut bytes = 0;
            while let Some(chunk) = encoder.next_chunk() {
                bytes += chunk.len();
            }
            bytes
        })
    });
    let solver = || {
        let options = SolverOptions {
            graph: Some(graph.clone()),
            ..SolverOptions::default()
        };
        Solver::with_options(rules.clone(), options).unwrap()
    };

    let forced_solver = || {
        let options = SolverOptions {
            graph: Some(graph.clone()),
            preview: 4,
            ..SolverOptions::default()
        };
        Solver::with_options(rules.clone(), options).unwrap()
    };

    // The published exact tool's example: I held, J L O S T Z in view, a fresh bag after.
    let jlostz = start(Piece::I, "JLOSTZ");
    let ranking = solver().recommend(&jlostz).unwrap();
    assert_eq!(ranking.engine, Engine::Graph);
    assert_eq!(ranking.chance.to_string(), "419/420");
    assert_eq!(ranking.moves.len(), 51);
    group.bench_function("first decision, I held, JLOSTZ, full ranking, cold", |b| {
        b.iter(|| black_box(solver().recommend(black_box(&jlostz)).unwrap().moves.len()))
    });
    let mut asked = solver();
    asked.recommend(&jlostz).unwrap();
    group.bench_function(
        "first decision, I held, JLOSTZ, asked again (remembered)",
        |b| b.iter(|| black_box(asked.recommend(black_box(&jlostz)).unwrap().moves.len())),
    );
    let others = [
        start(Piece::T, "IOSZJL"),
        start(Piece::S, "ZTJLIO"),
        start(Piece::O, "LJTSZI"),
        start(Piece::Z, "SLOJTI"),
    ];
    group.bench_function("first decisions of four other PC starts, one solver", |b| {
        b.iter(|| {
            let mut solver = solver();
            for position in &others {
                black_box(solver.recommend(position).unwrap().moves.len());
            }
        })
    });
    // The first decision of a game: the hold slot empty, L S I T J O in view, Z the last
    // piece of the first bag.
    let game = Position::new(Default::default(), Piece::L)
        .with_preview(&pieces("SITJO"))
        .with_bag("Z".parse().unwrap());
    let ranking = solver().recommend(&game).unwrap();
    assert_eq!(ranking.engine, Engine::Graph);
    assert_eq!(ranking.chance.to_string(), "69/70");
    group.bench_function(
        "first decision of a game, LSITJO, Z forced, empty hold, full ranking, cold",
        |b| b.iter(|| black_box(solver().recommend(black_box(&game)).unwrap().moves.len())),
    );
    // A start of a PC with four previews whose fifth piece the bag forces.
    let forced = start(Piece::I, "JLOST").with_bag("Z".parse().unwrap());
    let ranking = forced_solver().recommend(&forced).unwrap();
    assert_eq!(ranking.engine, Engine::Graph);
    assert_eq!(ranking.chance.to_string(), "41/42");
    group.bench_function(
        "PC start, I held, JLOST, Z forced (preview 4), full ranking, cold",
        |b| {
            b.iter(|| {
                black_box(
                    forced_solver()
                        .recommend(black_box(&forced))
                        .unwrap()
                        .moves
                        .len(),
                )
            })
        },
    );
    // A start with four previews and five unknown pieces.
    let five = start(Piece::I, "JLOST");
    let ranking = forced_solver().recommend(&five).unwrap();
    assert_eq!(ranking.engine, Engine::Graph);
    assert!(ranking.chance.is_one());
    group.bench_function(
        "PC start, I held, JLOST (preview 4, five unknown), full ranking, cold",
        |b| {
            b.iter(|| {
                black_box(
                    forced_solver()
                        .recommend(black_box(&five))
                        .unwrap()
                        .moves
                        .len(),
                )
            })
        },
    );
    // The same two decisions with the last depth's sets made on two threads.
    let on_two_threads = |preview: usize| {
        let options = SolverOptions {
            graph: Some(graph.clone()),
            preview,
            threads: 2,
            ..SolverOptions::default()
        };
        Solver::with_options(rules.clone(), options).unwrap()
    };
    assert_eq!(
        on_two_threads(4).recommend(&five).unwrap().moves,
        ranking.moves
    );
    group.bench_function(
        "PC start, I held, JLOST (preview 4, five unknown), full ranking, cold, two threads",
        |b| {
            b.iter(|| {
                black_box(
                    on_two_threads(4)
                        .recommend(black_box(&five))
                        .unwrap()
                        .moves
                        .len(),
                )
            })
        },
    );
    assert_eq!(
        on_two_threads(5).recommend(&game).unwrap().moves,
        solver().recommend(&game).unwrap().moves
    );
    group.bench_function(
        "first decision of a game, LSITJO, Z forced, empty hold, full ranking, cold, two threads",
        |b| {
            b.iter(|| {
                black_box(
                    on_two_threads(5)
                        .recommend(black_box(&game))
                        .unwrap()
                        .moves
                        .len(),
                )
            })
        },
    );
    // The first decision of a game with four previews: the hold slot empty, L S I T J in
    // view, O and Z left in the first bag: six unknown, a walk for each order of the two.
    let game_four = Position::new(Default::default(), Piece::L)
        .with_preview(&pieces("SITJ"))
        .with_bag("OZ".parse().unwrap());
    let ranking = forced_solver().recommend(&game_four).unwrap();
    assert_eq!(ranking.engine, Engine::Graph);
    assert_eq!(ranking.chance.to_string(), "781/840");
    group.bench_function(
        "first decision of a game, LSITJ, OZ left (preview 4, six unknown), full ranking, cold",
        |b| {
            b.iter(|| {
                black_box(
                    forced_solver()
                        .recommend(black_box(&game_four))
                        .unwrap()
                        .moves
                        .len(),
                )
            })
        },
    );
    // Two pieces into a PC, I held, O S T in view (preview 2), J, L and Z left in the
    // bag: five pieces unknown, some placed before the last is revealed, which the
    // window walk takes.
    let two_in = Position::new(
        "........../........../#........#/###....###"
            .parse()
            .unwrap(),
        Piece::O,
    )
    .with_hold(Some(Piece::I))
    .with_preview(&pieces("ST"))
    .with_bag("JLZ".parse().unwrap());
    let preview_two = || {
        let options = SolverOptions {
            graph: Some(graph.clone()),
            preview: 2,
            ..SolverOptions::default()
        };
        Solver::with_options(rules.clone(), options).unwrap()
    };
    let ranking = preview_two().recommend(&two_in).unwrap();
    assert_eq!(ranking.engine, Engine::Graph);
    assert_eq!(ranking.chance.to_string(), "115/126");
    group.bench_function(
        "two pieces in, I held, OST, JLZ left (preview 2, five unknown), full ranking, cold",
        |b| {
            b.iter(|| {
                black_box(
                    preview_two()
                        .recommend(black_box(&two_in))
                        .unwrap()
                        .moves
                        .len(),
                )
            })
        },
    );
    // The same with J and Z left: the walks of both their orders answer.
    let two_left = two_in.clone().with_bag("JZ".parse().unwrap());
    let ranking = preview_two().recommend(&two_left).unwrap();
    assert_eq!(ranking.engine, Engine::Graph);
    assert_eq!(ranking.chance.to_string(), "31/42");
    group.bench_function(
        "two pieces in, I held, OST, JZ left (preview 2, five unknown), full ranking, cold",
        |b| {
            b.iter(|| {
                black_box(
                    preview_two()
                        .recommend(black_box(&two_left))
                        .unwrap()
                        .moves
                        .len(),
                )
            })
        },
    );
    // The slowest under SRS of the 100 positions of the ignored test
    // `five_unknown_a_few_pieces_in_equal_the_depth_first_search` (position 72): two pieces
    // in, O held, S L S in view, a bag of six left after them.
    let slowest = Position::new(
        "...#....../...#....../...#....#./...#...###"
            .parse()
            .unwrap(),
        Piece::S,
    )
    .with_hold(Some(Piece::O))
    .with_preview(&pieces("LS"))
    .with_bag("IJLOTZ".parse().unwrap());
    let ranking = preview_two().recommend(&slowest).unwrap();
    assert_eq!(ranking.engine, Engine::Graph);
    assert_eq!(ranking.chance.to_string(), "311/720");
    group.bench_function(
        "two pieces in, O held, SLS, IJLOTZ left (preview 2, five unknown), full ranking, cold",
        |b| {
            b.iter(|| {
                black_box(
                    preview_two()
                        .recommend(black_box(&slowest))
                        .unwrap()
                        .moves
                        .len(),
                )
            })
        },
    );
    // One piece into a PC (Z at the left), S held, L J J T in view (preview 3), I L O S Z
    // left: five unknown, the window walk of four pieces in view (the slowest under SRS of
    // the ignored test `one_piece_in_with_three_previews_equals_the_depth_first_search`).
    let one_in = Position::new(
        "........../........../##......../.##......."
            .parse()
            .unwrap(),
        Piece::L,
    )
    .with_hold(Some(Piece::S))
    .with_preview(&pieces("JJT"))
    .with_bag("ILOSZ".parse().unwrap());
    let preview_three = || {
        let options = SolverOptions {
            graph: Some(graph.clone()),
            preview: 3,
            ..SolverOptions::default()
        };
        Solver::with_options(rules.clone(), options).unwrap()
    };
    let ranking = preview_three().recommend(&one_in).unwrap();
    assert_eq!(ranking.engine, Engine::Graph);
    assert_eq!(ranking.chance.to_string(), "19/20");
    group.bench_function(
        "one piece in, S held, LJJT, ILOSZ left (preview 3, five unknown), full ranking, cold",
        |b| {
            b.iter(|| {
                black_box(
                    preview_three()
                        .recommend(black_box(&one_in))
                        .unwrap()
                        .moves
                        .len(),
                )
            })
        },
    );
    group.bench_function("best move, I held, JLOSTZ, cold", |b| {
        b.iter(|| black_box(solver().best_move(black_box(&jlostz)).unwrap().chance))
    });
    group.finish();
}

criterion_group!(benches, bench_graph);
criterion_main!(benches);
