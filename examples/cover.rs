//! sfinder's `cover`, with sfinder's option names and output; `--help` lists them.
//!
//! ```sh
//! cargo run --release --example cover -- -t v115@BhF8DeG8CeF8EeE8Je1PYXAFLDmClcJSAVDEHBEooRBUoAVBTOdBAvhC3pBxuBxuB -p 'I,*p4'
//! ```

use clap::Parser;
use pc_bag::PatternSet;
use pc_bitboard::Board32;
use pc_examples::{FormatArg, SfinderRulesArgs, fail};
use pc_solver::{Placement, cover};

/// sfinder's `cover`: for each setup (a fumen whose pages lock one piece each), the share
/// of the pattern's queues that can build it, and of those that build any or all of them.
#[derive(Parser)]
#[command(
    name = "cover",
    bin_name = "cargo run --release --example cover --",
    version,
    after_help = "A setup is a fumen: the first page's field, then the piece of every page with the lock flag,
each on the field of its page. FUMEN#A:B keeps pages A to B (from 1), as sfinder reads it.

Examples:
  cargo run --release --example cover -- -t v115@BhF8DeG8CeF8EeE8Je1PYXAFLDmClcJSAVDEHBEooRBUoAVBTOdBAvhC3pBxuBxuB -p 'I,*p4'
  cargo run --release --example cover -- -t FUMEN1 FUMEN2 -p '*p7' -H avoid --format json"
)]
struct Cli {
    /// The setups, as fumens (v115@…, or URLs with one)
    #[arg(short = 't', long = "tetfu", visible_alias = "fumen", value_name = "FUMEN",
          num_args = 1.., required = true)]
    setups: Vec<String>,
    /// The queues, in sfinder's pattern language (`*p7`, `I,*p4`, …); several patterns
    /// separated by `;`
    #[arg(short = 'p', long = "patterns", value_name = "PATTERN")]
    patterns: String,
    #[command(flatten)]
    rules: SfinderRulesArgs,
    #[command(flatten)]
    format: FormatArg,
}

/// A setup from a fumen: its first page's field and the pieces of its locking pages.
fn setup(text: &str) -> Result<(Board32, Vec<Placement>), String> {
    let (fumen, pages) = match text.split_once('#') {
        Some((fumen, range)) => {
            let (a, b) = range
                .split_once(':')
                .ok_or_else(|| format!("{text}: a page range is #A:B"))?;
            let a: usize = a
                .parse()
                .map_err(|_| format!("{text}: page {a:?} is not a number"))?;
            let b: usize = b
                .parse()
                .map_err(|_| format!("{text}: page {b:?} is not a number"))?;
            if a == 0 || b < a {
                return Err(format!("{text}: pages are counted from 1, A to B"));
            }
            (fumen, a - 1..b)
        }
        None => (text, 0..usize::MAX),
    };
    let fumen = pc_fumen::decode(fumen).map_err(|e| format!("{text}: {e}"))?;
    let field = fumen.pages[0].field_board();
    let end = pages.end.min(fumen.pages.len());
    let placements = fumen
        .pages
        .get(pages.start..end)
        .unwrap_or_default()
        .iter()
        .filter(|p| p.lock())
        .filter_map(|p| p.piece())
        .collect();
    Ok((field, placements))
}

fn main() {
    let cli = Cli::parse();
    let patterns: PatternSet = cli
        .patterns
        .replace(';', "\n")
        .parse()
        .unwrap_or_else(|e| fail(format!("pattern: {e}")));
    let setups: Vec<(Board32, Vec<Placement>)> = cli
        .setups
        .iter()
        .map(|s| setup(s).unwrap_or_else(|e| fail(e)))
        .collect();
    let field = setups[0].0;
    if let Some(k) = setups.iter().position(|(f, _)| *f != field) {
        fail(format!(
            "setup {} starts from another field than the first: one field for all",
            k + 1
        ));
    }
    let placements: Vec<Vec<Placement>> = setups.into_iter().map(|(_, p)| p).collect();
    let rules = cli.rules.rules();
    let result = cover(&field, &placements, &rules, &patterns).unwrap_or_else(|e| fail(e));
    let n = result.queues.len();
    let share = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    if cli.format.json() {
        let rows: Vec<String> = cli
            .setups
            .iter()
            .enumerate()
            .map(|(s, fumen)| {
                format!(
                    "{{\"setup\":\"{fumen}\",\"success\":{},\"percent\":{:.4}}}",
                    result.count(s),
                    share(result.count(s))
                )
            })
            .collect();
        println!(
            "{{\"queues\":{n},\"setups\":[{}],\"or\":{},\"and\":{}}}",
            rows.join(","),
            result.any(),
            result.all()
        );
        return;
    }
    println!("Searching pattern size ( no dup. ) = {n}");
    println!("success:");
    for (s, fumen) in cli.setups.iter().enumerate() {
        let k = result.count(s);
        println!("{:.2} % [{k}/{n}]: http://fumen.zui.jp/?{fumen}", share(k));
    }
    println!(">>>");
    println!("OR  = {:.2} % [{}/{n}]", share(result.any()), result.any());
    println!("AND = {:.2} % [{}/{n}]", share(result.all()), result.all());
}
