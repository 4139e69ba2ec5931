//! Builds the PC field graph of a rule set, or finds a valid one already built, and says
//! where it is; `--help` lists the options.
//!
//! ```sh
//! cargo run --release --example graph -- build
//! cargo run --release --example graph -- build -K srs+ --format json
//! cargo run --release --example graph -- carry -K srs+ --samples 100
//! ```

use clap::{Parser, Subcommand};
use pc_bag::PieceSet;
use pc_bitboard::Board32;
use pc_bot::Rng;
use pc_examples::{FormatArg, RulesArgs, bar_style, fail, show_progress};
use pc_solver::{
    BuildProgress, BuildStage, GraphError, MAX_PREVIEW, PcGraph, Piece, Position, Solver,
    SolverOptions,
};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The PC field graph: every field from the empty field to a 4-line PC under a rule set,
/// with the moves between them. `recommend` and `ten_pc` answer the first decisions of a
/// PC from it in a fraction of a second. It is kept in a cache folder ($PC_GRAPH_DIR, else
/// the platform's, e.g. ~/.cache/pc), one file per rule set.
#[derive(Parser)]
#[command(
    name = "graph",
    bin_name = "cargo run --release --example graph --",
    version,
    after_help = "Examples:
  cargo run --release --example graph -- build
  cargo run --release --example graph -- build -K srs+ --format json
  cargo run --release --example graph -- path -K srs+
  cargo run --release --example graph -- carry -K srs+ --samples 100"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Builds the graph of the rules, unless a valid one is already there, and prints its
    /// path, fields, transitions, bytes on disk and the seconds it took
    Build {
        #[command(flatten)]
        rules: RulesArgs,
        /// 2-line PCs count too. The graph is the same either way (a 2-line PC is one of
        /// its fields, and every field that reaches it can go on to the 4-line PC), so
        /// this finds or builds the same file; the solver's setting decides
        #[arg(long = "two-line")]
        two_line: bool,
        /// Where to write the graph [default: the cache folder]
        #[arg(long, value_name = "PATH", required_if_eq("field", "field"))]
        out: Option<PathBuf>,
        /// A small graph instead, of the PCs of this field (rows of # and . separated by
        /// /, top row first; at most 4 rows below the clear line); needs --out
        #[arg(long, value_name = "ROWS", value_parser = pc_examples::parse_rows, requires = "out")]
        field: Option<pc_solver::Board32>,
        /// The clear line of --field
        #[arg(
            long = "clear-line",
            value_name = "N",
            default_value_t = 4,
            requires = "field"
        )]
        clear_line: u32,
        /// Also write the graph to PATH with its moves laid out by piece, the layout that
        /// compresses best for a download (the page's); the JSON output gains
        /// `by_piece_bytes`
        #[arg(long = "by-piece", value_name = "PATH")]
        by_piece: Option<PathBuf>,
        /// Also write to PATH what the walk of five unknown pieces reads on this graph (the
        /// classes of the fields four pieces from a PC: what `recommend` keeps beside the
        /// cached graph, and the page takes from the site instead of making it); the JSON
        /// output gains `prepared_bytes`. Nothing is written for a graph without such fields
        #[arg(long, value_name = "PATH")]
        prepared: Option<PathBuf>,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Prints where the graph of the rules is kept
    Path {
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// With the graph, the exact chance of a PC from the empty field by the piece carried
    /// in hold and the PC's phase in the 7-bag cycle (1 to 7: the k-th PC of an unbroken
    /// run of 4-line PCs starts after 10(k-1) pieces), averaged over seeded random queues:
    /// what a PC is worth leaving in hold for the next one
    Carry {
        #[command(flatten)]
        rules: RulesArgs,
        #[arg(long, value_name = "P", default_value_t = 5,
              help = format!("Preview pieces at the first decision (1 to {MAX_PREVIEW})"),
              value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
                  .range(1..=MAX_PREVIEW as u64))]
        preview: usize,
        /// Random queues per phase and piece in hold
        #[arg(long, value_name = "N", default_value_t = 100,
              value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..))]
        samples: u64,
        /// Seed of the queues
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Threads
        #[arg(long, value_name = "T", default_value_t = 1)]
        threads: usize,
        #[command(flatten)]
        format: FormatArg,
    },
}

fn main() {
    match Cli::parse().command {
        Command::Build {
            rules,
            two_line: _,
            out,
            field,
            clear_line,
            by_piece,
            prepared,
            format,
        } => {
            let start = field.map(|board| {
                pc_solver::PcField::new(board, clear_line).unwrap_or_else(|e| fail(e))
            });
            build(&rules, out, start, (by_piece, prepared), format.json())
        }
        Command::Path { rules } => match PcGraph::cache_path(&rules.rules(true)) {
            Some(path) => println!("{}", path.display()),
            None => fail("no cache folder here: set PC_GRAPH_DIR"),
        },
        Command::Carry {
            rules,
            preview,
            samples,
            seed,
            threads,
            format,
        } => carry(
            &rules,
            preview,
            samples,
            seed,
            threads.max(1),
            format.json(),
        ),
    }
}

/// The first decision of the PC at `phase` (0 to 6) with `hold` carried, for one random
/// queue: the current piece, the preview and the bag state after it. Before the PC,
/// 10·phase pieces were placed and one held, so that many of the current bag are gone;
/// the held piece is taken to be one of them (the last bag's pieces are placed but the
/// held one), unless the PC starts on a fresh bag.
fn random_start(
    phase: usize,
    hold: Piece,
    preview: usize,
    rng: &mut Rng,
) -> (Vec<Piece>, PieceSet) {
    let drawn = (10 * phase + 1) % 7;
    let mut left = if drawn == 0 {
        PieceSet::ALL
    } else {
        // A random `7 - drawn` of the pieces other than the held one.
        let mut others: Vec<Piece> = Piece::ALL.into_iter().filter(|&p| p != hold).collect();
        for _ in 0..drawn - 1 {
            let i = rng.below(others.len() as u64) as usize;
            others.remove(i);
        }
        others.into_iter().fold(PieceSet::EMPTY, PieceSet::with)
    };
    let mut queue = Vec::with_capacity(preview + 1);
    for _ in 0..=preview {
        if left.is_empty() {
            left = PieceSet::ALL;
        }
        let pick = rng.below(left.len() as u64) as usize;
        let piece = left.iter().nth(pick).expect("pick < len");
        left.remove(piece);
        queue.push(piece);
    }
    (queue, left)
}

fn carry(
    rules_args: &RulesArgs,
    preview: usize,
    samples: u64,
    seed: u64,
    threads: usize,
    json: bool,
) {
    let rules = rules_args.rules(true);
    let path = PcGraph::cache_path(&rules)
        .unwrap_or_else(|| fail("no cache folder here: set PC_GRAPH_DIR"));
    let graph = match PcGraph::load(&path, &rules) {
        Ok(graph) => Arc::new(graph),
        Err(e) => fail(format!(
            "{e}; `cargo run --release --example graph -- build{}` makes it",
            rules_args.build_hint()
        )),
    };
    let started = Instant::now();
    // Every (phase, piece) cell, shared out among the threads.
    let cells: Vec<(usize, Piece)> = (0..7)
        .flat_map(|phase| Piece::ALL.into_iter().map(move |p| (phase, p)))
        .collect();
    let next = AtomicUsize::new(0);
    let means: Mutex<Vec<((usize, Piece), f64)>> = Mutex::new(Vec::new());
    let bar = if show_progress(json, false) {
        indicatif::ProgressBar::new(cells.len() as u64).with_style(bar_style("cells"))
    } else {
        indicatif::ProgressBar::hidden()
    };
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let options = SolverOptions {
                    preview,
                    graph: Some(graph.clone()),
                    ..SolverOptions::default()
                };
                let mut solver =
                    Solver::with_options(rules.clone(), options).unwrap_or_else(|e| fail(e));
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(phase, hold)) = cells.get(i) else {
                        break;
                    };
                    // Each cell its own queues, the same whatever the threads.
                    let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                    let mut sum = 0.0;
                    for _ in 0..samples {
                        let (queue, left) = random_start(phase, hold, preview, &mut rng);
                        let position = Position::new(Board32::new(), queue[0])
                            .with_hold(Some(hold))
                            .with_preview(&queue[1..])
                            .with_bag(left);
                        sum += solver
                            .chance(&position)
                            .unwrap_or_else(|e| fail(e))
                            .to_f64();
                    }
                    means
                        .lock()
                        .expect("no thread panics holding it")
                        .push(((phase, hold), sum / samples as f64));
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let mut means = means.into_inner().expect("no thread panicked");
    means.sort_by_key(|&((phase, piece), _)| (phase, piece.index()));
    if json {
        let rows: Vec<String> = (0..7)
            .map(|phase| {
                let cells: Vec<String> = means[phase * 7..phase * 7 + 7]
                    .iter()
                    .map(|((_, piece), mean)| format!("\"{piece}\":{mean:.4}"))
                    .collect();
                format!("{{\"phase\":{},{}}}", phase + 1, cells.join(","))
            })
            .collect();
        println!(
            "{{\"preview\":{preview},\"samples\":{samples},\"seed\":{seed},\"phases\":[{}],\"seconds\":{seconds:.1}}}",
            rows.join(",")
        );
        return;
    }
    println!(
        "exact chance of a PC from the empty field, by piece in hold: mean of {samples} random queues, preview {preview}, {seconds:.0} s"
    );
    println!(
        "phase  {}",
        Piece::ALL
            .map(|p| format!("{:>6}", p.to_string()))
            .join(" ")
    );
    for phase in 0..7 {
        let cells: Vec<String> = means[phase * 7..phase * 7 + 7]
            .iter()
            .map(|(_, mean)| format!("{:>5.1}%", 100.0 * mean))
            .collect();
        println!("{:>5}  {}", phase + 1, cells.join(" "));
    }
}

fn build(
    rules_args: &RulesArgs,
    out: Option<PathBuf>,
    start: Option<pc_solver::PcField>,
    (by_piece, prepared): (Option<PathBuf>, Option<PathBuf>),
    json: bool,
) {
    // Hold does not change the fields.
    let rules = rules_args.rules(true);
    let cached = out.is_none();
    let path = out
        .or_else(|| PcGraph::cache_path(&rules))
        .unwrap_or_else(|| fail("no cache folder here: give --out PATH or set PC_GRAPH_DIR"));
    let started = Instant::now();
    let wanted = start.unwrap_or_else(|| {
        pc_solver::PcField::new(Default::default(), 4).expect("the empty field")
    });
    let found = PcGraph::load(&path, &rules).and_then(|graph| {
        if graph.start() == wanted {
            Ok(graph)
        } else {
            Err(GraphError::Malformed("a graph of another start field"))
        }
    });
    let (graph, built) = match found {
        Ok(graph) => (graph, false),
        Err(e) => {
            if !matches!(&e, GraphError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
                && !json
            {
                // The error names the file.
                eprintln!("{e}; building it again");
            }
            let graph = build_shown(&rules, start.as_ref(), show_progress(json, false));
            graph.save(&path).unwrap_or_else(|e| fail(e));
            (graph, true)
        }
    };
    let by_piece_bytes = by_piece.map(|by_piece| {
        graph.save_by_piece(&by_piece).unwrap_or_else(|e| fail(e));
        std::fs::metadata(&by_piece).map_or(0, |m| m.len())
    });
    let prepared_bytes = prepared.and_then(|prepared| {
        // The cached graph's copy, kept beside it, is read rather than made again.
        match PcGraph::prepared_cache_path(&rules).filter(|_| cached) {
            Some(kept) => {
                if let Err(e) = graph.prepare_five_unknown_kept_at(&kept) {
                    eprintln!("{e}: not kept beside the graph");
                }
            }
            None => graph.prepare_five_unknown(),
        }
        let written = graph
            .save_prepared_five_unknown(&prepared)
            .unwrap_or_else(|e| fail(e));
        written.then(|| std::fs::metadata(&prepared).map_or(0, |m| m.len()))
    });
    let seconds = started.elapsed().as_secs_f64();
    let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
    if json {
        let by_piece = by_piece_bytes.map_or(String::new(), |b| format!(",\"by_piece_bytes\":{b}"));
        let prepared = prepared_bytes.map_or(String::new(), |b| format!(",\"prepared_bytes\":{b}"));
        println!(
            "{{\"path\":\"{}\",\"fields\":{},\"transitions\":{},\"bytes\":{bytes}{by_piece}{prepared},\"seconds\":{seconds:.3}}}",
            json_string(&path.display().to_string()),
            graph.fields(),
            graph.transitions()
        );
        return;
    }
    println!("{}", path.display());
    println!(
        "{} fields, {} transitions, {bytes} bytes; {} in {seconds:.1} s",
        graph.fields(),
        graph.transitions(),
        if built { "built" } else { "found and checked" }
    );
    println!(
        "fields per layer (pieces placed): {:?}",
        graph.fields_per_layer()
    );
}

/// Builds the graph with a progress bar per layer on stderr when `shown`.
fn build_shown(
    rules: &pc_solver::Rules,
    start: Option<&pc_solver::PcField>,
    shown: bool,
) -> PcGraph {
    let bar = if shown {
        indicatif::ProgressBar::new(0).with_style(bar_style("fields"))
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut at = None;
    let mut tell = |p: &BuildProgress| {
        if at != Some((p.stage, p.layer)) {
            at = Some((p.stage, p.layer));
            bar.reset();
            bar.set_length(p.total);
            let stage = match p.stage {
                BuildStage::Forward => "reached",
                BuildStage::Backward => "kept",
            };
            bar.set_message(format!("layer {} of {}: {stage}", p.layer, p.layers - 1));
        }
        bar.set_position(p.done);
        ControlFlow::Continue(())
    };
    let graph = match start {
        Some(start) => PcGraph::build_from(start, rules, &mut tell),
        None => PcGraph::build_with(rules, &mut tell),
    }
    .unwrap_or_else(|e| fail(e));
    bar.finish_and_clear();
    graph
}

/// A string as a JSON string's contents.
fn json_string(text: &str) -> String {
    text.chars()
        .flat_map(|c| match c {
            '"' => "\\\"".chars().collect::<Vec<_>>(),
            '\\' => "\\\\".chars().collect(),
            c if c.is_control() => format!("\\u{:04x}", c as u32).chars().collect(),
            c => vec![c],
        })
        .collect()
}
