//! sfinder's `percent`, with sfinder's option names; `--help` lists them.
//!
//! ```sh
//! cargo run --release --example percent -- -t v115@9gB8EeF8DeG8CeF8DeC8JeAgH -p 'I,*p4' -c 4
//! cargo run --release --example percent -- --field '######..../######..../######..../######....' -p 'T,*p3' -H avoid
//! ```

use clap::{ArgGroup, Parser};
use pc_bag::PatternSet;
use pc_examples::{
    FieldArgs, FormatArg, SfinderRulesArgs, bar_style, fail, show_progress, spinner,
};
use pc_solver::{PcField, percent_with_progress};

/// sfinder's `percent`: of the sequences a pattern allows, the share that can make a
/// perfect clear when the whole sequence is known (an upper bound for real play).
#[derive(Parser)]
#[command(
    name = "percent",
    bin_name = "cargo run --release --example percent --",
    version,
    group(ArgGroup::new("field given").args(["fumen", "field"]).required(true)),
    after_help = "Examples:
  cargo run --release --example percent -- -t v115@9gB8EeF8DeG8CeF8DeC8JeAgH -p 'I,*p4' -c 4
  cargo run --release --example percent -- --field '######..../######..../######..../######....' -p 'T,*p3' -H avoid"
)]
struct Cli {
    #[command(flatten)]
    field: FieldArgs,
    /// The pieces to come, in sfinder's pattern language: `T`, `*`, `[SZ]`, `[^TI]`, `*p4`,
    /// `[IOSL]!`, joined by commas
    #[arg(short = 'p', long = "patterns", value_name = "PATTERN", value_parser = parse_patterns)]
    patterns: Patterns,
    /// The clear line: the height of the perfect clear
    #[arg(
        short = 'c',
        long = "clear-line",
        value_name = "LINES",
        default_value_t = 4
    )]
    clear_line: u32,
    #[command(flatten)]
    rules: SfinderRulesArgs,
    #[command(flatten)]
    format: FormatArg,
    /// Depth of the success tree in the text output
    #[arg(long = "tree-depth", value_name = "N", default_value_t = 3)]
    tree_depth: usize,
}

/// A pattern and its text.
#[derive(Clone)]
struct Patterns {
    text: String,
    set: PatternSet,
}

fn parse_patterns(text: &str) -> Result<Patterns, String> {
    let set = text.parse().map_err(|e| format!("{e}"))?;
    Ok(Patterns {
        text: text.to_string(),
        set,
    })
}

fn main() {
    let cli = Cli::parse();
    let board = cli.field.board().expect("clap requires a field");
    let clear_line = cli.clear_line;
    let hold = cli.rules.hold();
    let rules = cli.rules.rules();
    let json = cli.format.json();
    let pattern_text = &cli.patterns.text;
    let field = PcField::new(board, clear_line).unwrap_or_else(|e| fail(e));
    let started = std::time::Instant::now();
    // Expanding a large pattern comes first, with no count to show: a spinner, then a bar
    // over the sequences once the library says how many there are.
    let progress = spinner("expanding the pattern", show_progress(json, false));
    let mut sized = false;
    let result = percent_with_progress(&field, &rules, &cli.patterns.set, &mut |done, total| {
        if !sized {
            progress.set_length(total);
            progress.set_style(bar_style("sequences"));
            progress.set_message("");
            sized = true;
        }
        progress.set_position(done);
    })
    .unwrap_or_else(|e| fail(e));
    progress.finish_and_clear();
    let elapsed = started.elapsed();
    let depth = cli.tree_depth;
    let seq = |s: &[pc_solver::Piece]| s.iter().map(|p| p.to_char()).collect::<String>();

    if json {
        let failing: Vec<String> = result
            .failing()
            .map(|s| format!("\"{}\"", seq(s)))
            .collect();
        println!(
            "{{\"success\":{},\"total\":{},\"percent\":{:.4},\"needed\":{},\"clear_line\":{},\"hold\":{},\"failing\":[{}],\"millis\":{:.3}}}",
            result.success,
            result.total,
            result.percent(),
            field.pieces_needed(),
            clear_line,
            hold,
            failing.join(","),
            elapsed.as_secs_f64() * 1000.0
        );
        return;
    }
    println!("{}", board.to_text(clear_line, "\n"));
    println!();
    println!(
        "pattern {pattern_text}, clear line {clear_line}, {} pieces needed, hold {}",
        field.pieces_needed(),
        if hold { "used" } else { "avoided" }
    );
    println!(
        "success = {:.2}% ({}/{}) in {:.1} ms",
        result.percent(),
        result.success,
        result.total,
        elapsed.as_secs_f64() * 1000.0
    );
    println!();
    println!("success tree (first {depth} pieces):");
    for node in result.tree(depth).iter().filter(|n| !n.prefix.is_empty()) {
        let pct = 100.0 * node.success as f64 / node.total as f64;
        println!(
            "{}{} -> {:.2}% ({}/{})",
            "  ".repeat(node.prefix.len() - 1),
            seq(&node.prefix),
            pct,
            node.success,
            node.total
        );
    }
    let failing: Vec<String> = result.failing().map(seq).collect();
    println!();
    println!("failing sequences ({}):", failing.len());
    for chunk in failing.chunks(10) {
        println!("  {}", chunk.join(" "));
    }
}
