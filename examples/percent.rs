//! sfinder's `percent`, with sfinder's option names:
//!
//! ```sh
//! cargo run --release --example percent -- -t v115@9gB8EeF8DeG8CeF8DeC8JeAgH -p 'I,*p4' -c 4
//! cargo run --release --example percent -- --field '######..../######..../######..../######....' -p 'T,*p3' -H avoid
//! ```
//!
//! Options: `-t/--tetfu` fumen or `--field` rows; `-p/--patterns`; `-c/--clear-line` (4);
//! `-H/--hold use|avoid`; `-d/--drop softdrop|harddrop|180`; `-K/--kicks srs|srs+|none|PATH`;
//! `--format text|json`; `--tree-depth N` (3).

use pc_bag::PatternSet;
use pc_examples::{Args, fail, field, print_help, rules};
use pc_solver::{PcProblem, percent};

fn main() {
    let args = Args::from_env();
    if args.flag(&["-h", "--help"]) {
        print_help(include_str!("percent.rs"));
        return;
    }
    let board = field(&args)
        .unwrap_or_else(|e| fail(e))
        .unwrap_or_else(|| fail("give a field with -t FUMEN or --field ROWS"));
    let clear_line: u32 = args
        .value(&["-c", "--clear-line"])
        .unwrap_or("4")
        .parse()
        .unwrap_or_else(|_| fail("-c takes a whole number"));
    let hold = match args.value(&["-H", "--hold"]).unwrap_or("use") {
        "use" | "yes" => true,
        "avoid" | "no" => false,
        other => fail(format!(
            "unknown hold mode {other:?}: expected use or avoid"
        )),
    };
    let rules = rules(&args, hold).unwrap_or_else(|e| fail(e));
    let pattern_text = args
        .value(&["-p", "--patterns"])
        .unwrap_or_else(|| fail("give a pattern with -p, e.g. -p '*p7'"));
    let patterns: PatternSet = pattern_text
        .parse()
        .unwrap_or_else(|e| fail(format!("pattern: {e}")));
    let problem = PcProblem::new(board, clear_line, rules).unwrap_or_else(|e| fail(e));
    let started = std::time::Instant::now();
    let result = percent(&problem, &patterns).unwrap_or_else(|e| fail(e));
    let elapsed = started.elapsed();
    let depth: usize = args
        .value(&["--tree-depth"])
        .and_then(|d| d.parse().ok())
        .unwrap_or(3);
    let seq = |s: &[pc_solver::Piece]| s.iter().map(|p| p.to_char()).collect::<String>();

    if args.value(&["--format"]) == Some("json") {
        let failing: Vec<String> = result
            .failing()
            .map(|s| format!("\"{}\"", seq(s)))
            .collect();
        println!(
            "{{\"success\":{},\"total\":{},\"percent\":{:.4},\"needed\":{},\"clear_line\":{},\"hold\":{},\"failing\":[{}],\"millis\":{:.3}}}",
            result.success,
            result.total,
            result.percent(),
            problem.pieces_needed(),
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
        problem.pieces_needed(),
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
