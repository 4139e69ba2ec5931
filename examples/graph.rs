//! Builds the PC field graph of a rule set, or finds a valid one already built, and says
//! where it is; `--help` lists the options.
//!
//! ```sh
//! cargo run --release --example graph -- build
//! cargo run --release --example graph -- build -K srs+ --format json
//! ```

use clap::{Parser, Subcommand};
use pc_examples::{FormatArg, RulesArgs, bar_style, fail, show_progress};
use pc_solver::graph::{BuildProgress, BuildStage, GraphError, PcGraph};
use std::ops::ControlFlow;
use std::path::PathBuf;
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
  cargo run --release --example graph -- path -K srs+"
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
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Prints where the graph of the rules is kept
    Path {
        #[command(flatten)]
        rules: RulesArgs,
    },
}

fn main() {
    match Cli::parse().command {
        Command::Build {
            rules,
            two_line: _,
            out,
            format,
        } => build(&rules, out, format.json()),
        Command::Path { rules } => match PcGraph::cache_path(&rules.rules(true)) {
            Some(path) => println!("{}", path.display()),
            None => fail("no cache folder here: set PC_GRAPH_DIR"),
        },
    }
}

fn build(rules_args: &RulesArgs, out: Option<PathBuf>, json: bool) {
    // Hold does not change the fields.
    let rules = rules_args.rules(true);
    let path = out
        .or_else(|| PcGraph::cache_path(&rules))
        .unwrap_or_else(|| fail("no cache folder here: give --out PATH or set PC_GRAPH_DIR"));
    let started = Instant::now();
    let (graph, built) = match PcGraph::load(&path, &rules) {
        Ok(graph) => (graph, false),
        Err(e) => {
            if !matches!(&e, GraphError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
                && !json
            {
                eprintln!("{}: {e}; building it again", path.display());
            }
            let graph = build_shown(&rules, show_progress(json, false));
            graph.save(&path).unwrap_or_else(|e| fail(e));
            (graph, true)
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
    if json {
        println!(
            "{{\"path\":\"{}\",\"fields\":{},\"transitions\":{},\"bytes\":{bytes},\"seconds\":{seconds:.3}}}",
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
fn build_shown(rules: &pc_solver::Rules, shown: bool) -> PcGraph {
    let bar = if shown {
        indicatif::ProgressBar::new(0).with_style(bar_style("fields"))
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut at = None;
    let graph = PcGraph::build_with(rules, &mut |p: &BuildProgress| {
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
    })
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
