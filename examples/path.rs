//! sfinder's `path`, with sfinder's option names and files; `--help` lists them.
//!
//! ```sh
//! cargo run --release --example path -- -t v115@9gB8EeF8DeG8CeF8DeC8JeAgH -p 'I,*p4' -c 4
//! cargo run --release --example path -- --field '####....../####....../####....../####......' -p '*p7' -o out -f html
//! ```

use clap::{Parser, ValueEnum};
use pc_bag::{PatternSet, PieceMultiset, searching_sequences};
use pc_bitboard::Board32;
use pc_examples::{FieldArgs, SfinderRulesArgs, fail, progress_bar, show_progress};
use pc_fumen::Fumen;
use pc_solver::{
    PathResult, PathStage, PcField, Piece, PlacingOrders, Rules, path_summary, path_with_progress,
    placing_orders,
};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// sfinder's `path`: every perfect clear of a field that a queue of the pattern can build
/// (the unique solutions), and a few of them that together cover every queue with a PC
/// (the minimal set), written as sfinder writes them.
#[derive(Parser)]
#[command(
    name = "path",
    bin_name = "cargo run --release --example path --",
    version,
    after_help = "sfinder's two-letter options are taken too: -fp (--field-path), -pp (--patterns-path), -th (--threads).

Examples:
  cargo run --release --example path -- -t v115@9gB8EeF8DeG8CeF8DeC8JeAgH -p 'I,*p4' -c 4
  cargo run --release --example path -- --field '####....../####....../####....../####......' -p '*p7' -o out -f html"
)]
struct Cli {
    #[command(flatten)]
    field: FieldArgs,
    /// sfinder's field file: the clear line on the first line, then the rows, top first
    /// (`_` empty, any other mark filled)
    #[arg(long = "field-path", value_name = "FILE", conflicts_with_all = ["fumen", "field"])]
    field_path: Option<PathBuf>,
    /// The pieces to come, in sfinder's pattern language (`*p7`, `I,*p4`, `[SZ]p2`, …);
    /// several patterns separated by `;`
    #[arg(
        short = 'p',
        long = "patterns",
        value_name = "PATTERN",
        conflicts_with = "patterns_path"
    )]
    patterns: Option<String>,
    /// A file of patterns, one a line
    #[arg(long = "patterns-path", value_name = "FILE")]
    patterns_path: Option<PathBuf>,
    /// The clear line: the height of the perfect clear [default: the field file's, else 4]
    #[arg(short = 'c', long = "clear-line", value_name = "LINES")]
    clear_line: Option<u32>,
    #[command(flatten)]
    rules: SfinderRulesArgs,
    /// Output format: sfinder's csv files, or one html page with a fumen link per solution
    #[arg(short = 'f', long = "format", value_enum, default_value_t = OutputFormat::Csv)]
    format: OutputFormat,
    /// What a csv line is keyed by: `none`, one solution a line (`path_unique.csv` and
    /// `path_minimal.csv`); `pattern`, one queue a line with the solutions it builds;
    /// `solution`, one solution a line with the orders and queues that build it; `use`,
    /// one combination of pieces a line with the solutions that use it (all three
    /// `path.csv`)
    #[arg(short = 'k', long = "key", value_enum, default_value_t = Key::None)]
    key: Key,
    /// Where to write: a folder, or a file in it as sfinder takes (`output/path.csv`)
    #[arg(
        short = 'o',
        long = "output-base",
        value_name = "PATH",
        default_value = "output/path.csv"
    )]
    output: PathBuf,
    /// Accepted for sfinder's command lines; the search runs on one thread
    #[arg(long = "threads", value_name = "N")]
    threads: Option<i64>,
    /// Stop after this many seconds and write the solutions found so far
    #[arg(long = "time-limit", value_name = "SECONDS")]
    time_limit: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OutputFormat {
    Csv,
    Html,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Key {
    None,
    Pattern,
    Solution,
    Use,
}

/// sfinder's two-letter short options, as the long ones clap knows.
fn sfinder_args() -> Vec<String> {
    std::env::args()
        .map(|a| match a.as_str() {
            "-fp" => "--field-path".to_string(),
            "-pp" => "--patterns-path".to_string(),
            "-th" => "--threads".to_string(),
            _ => a,
        })
        .collect()
}

/// sfinder's field file: its clear line and its field.
fn read_field_file(path: &Path) -> Result<(u32, Board32), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("").trim();
    let clear_line: u32 = first
        .parse()
        .map_err(|_| format!("{}: line 1 is not a clear line: {first:?}", path.display()))?;
    let marks: String = lines.map(str::trim).collect();
    if marks.len() % 10 != 0 {
        return Err(format!(
            "{}: the rows hold {} marks, not a multiple of 10",
            path.display(),
            marks.len()
        ));
    }
    let rows: Vec<String> = marks
        .as_bytes()
        .chunks(10)
        .map(|row| {
            row.iter()
                .map(|&c| if c == b'_' { '.' } else { '#' })
                .collect()
        })
        .collect();
    if rows.is_empty() {
        return Ok((clear_line, Board32::new()));
    }
    let board = rows
        .join("/")
        .parse()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((clear_line, board))
}

fn patterns(cli: &Cli) -> PatternSet {
    let text = match (&cli.patterns, &cli.patterns_path) {
        (Some(text), _) => text.replace(';', "\n"),
        (None, Some(file)) => std::fs::read_to_string(file)
            .unwrap_or_else(|e| fail(format!("{}: {e}", file.display()))),
        (None, None) => fail("give a pattern: -p PATTERN or -pp FILE"),
    };
    text.parse()
        .unwrap_or_else(|e| fail(format!("pattern: {e}")))
}

/// The folder to write to: `-o` itself, or the folder of the file it names.
fn output_dir(output: &Path) -> PathBuf {
    if output.extension().is_some() {
        output.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        output.to_path_buf()
    }
}

/// Writes `text` to `path` whole or not at all: to a file beside it, then renamed.
fn write_whole(path: &Path, text: &str) {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, text)
        .and_then(|_| std::fs::rename(&partial, path))
        .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
}

/// A fumen link that shows a solution, one page per placement.
fn fumen_link(board: &Board32, result: &PathResult, index: usize) -> String {
    let placements = &result.solutions[index].placements;
    match Fumen::try_from_placements(board, placements) {
        Ok(fumen) => format!("https://harddrop.com/fumen/?{}", pc_fumen::encode(&fumen)),
        Err(e) => fail(format!("solution {index}: {e}")),
    }
}

/// Pieces in sfinder's order (T, I, L, J, S, Z, O), as its csv files list them.
fn sfinder_sorted(pieces: &[Piece]) -> String {
    let rank = |p: &Piece| "TILJSZO".find(p.to_char()).unwrap_or(7);
    let mut sorted = pieces.to_vec();
    sorted.sort_by_key(rank);
    sorted.iter().map(|p| p.to_char()).collect()
}

/// sfinder's `-k pattern` csv: a line for each queue, with how many solutions it builds,
/// the pieces they use, the pieces left unused, and a fumen of each (most queues first).
fn by_queue(board: &Board32, result: &PathResult) -> String {
    let mut out = String::from("ツモ,対応地形数,使用ミノ,未使用ミノ,テト譜\n");
    let mut builds = result.by_queue();
    let fumens = fumen_data(board, result);
    for (queue, solutions) in result.queues.iter().zip(&mut builds) {
        solutions.sort_by_key(|&i| std::cmp::Reverse(result.solutions[i].queues.len()));
        let mut uses: Vec<String> = Vec::new();
        let mut unused: Vec<String> = Vec::new();
        for &i in solutions.iter() {
            let used: Vec<Piece> = result.solutions[i]
                .placements
                .iter()
                .map(|p| p.piece())
                .collect();
            let name = sfinder_sorted(&used);
            if !uses.contains(&name) {
                uses.push(name);
                let mut left = queue.clone();
                for piece in &used {
                    if let Some(at) = left.iter().position(|p| p == piece) {
                        left.remove(at);
                    }
                }
                let left = sfinder_sorted(&left);
                if !unused.contains(&left) {
                    unused.push(left);
                }
            }
        }
        let links: Vec<&str> = solutions.iter().map(|&i| fumens[i].as_str()).collect();
        out.push_str(&format!(
            "{},{},{},{},{}\n",
            queue.iter().map(|p| p.to_char()).collect::<String>(),
            solutions.len(),
            uses.join(";"),
            unused.join(";"),
            links.join(";")
        ));
    }
    out
}

/// Queues (or orders) as sfinder lists them: the pieces of each, joined by `;`.
fn queue_list<'a>(queues: impl Iterator<Item = &'a [Piece]>) -> String {
    let names: Vec<String> = queues
        .map(|q| q.iter().map(|p| p.to_char()).collect())
        .collect();
    names.join(";")
}

/// The fumen data (`v115@…`) of each solution.
fn fumen_data(board: &Board32, result: &PathResult) -> Vec<String> {
    (0..result.solutions.len())
        .map(|i| {
            let link = fumen_link(board, result, i);
            link[link.find("v115@").unwrap_or(0)..].to_string()
        })
        .collect()
}

/// The pieces a solution places, in sfinder's order.
fn used_pieces(result: &PathResult, index: usize) -> String {
    let used: Vec<Piece> = result.solutions[index]
        .placements
        .iter()
        .map(|p| p.piece())
        .collect();
    sfinder_sorted(&used)
}

/// sfinder's `-k solution` csv: a line for each solution (those built by the most queues
/// first), with a fumen of it, the pieces it uses, how many orders build it that the queues
/// give, how many orders build it, how many sequences build it "for the pattern"
/// ([`PlacingOrders::pattern_orders`]), and those three lists.
fn by_solution(board: &Board32, result: &PathResult, placing: &[PlacingOrders]) -> String {
    let fumens = fumen_data(board, result);
    let mut order: Vec<usize> = (0..result.solutions.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(result.solutions[i].queues.len()));
    let mut out = String::from(
        "テト譜,使用ミノ,対応ツモ数 (対地形&パターン),対応ツモ数 (対地形),対応ツモ数 (対パターン),ツモ (対地形&パターン),ツモ (対地形),ツモ (対パターン)\n",
    );
    for i in order {
        let PlacingOrders {
            orders,
            given,
            pattern_orders,
        } = &placing[i];
        let given_orders: Vec<&[Piece]> = orders
            .iter()
            .zip(given)
            .filter(|(_, g)| **g)
            .map(|(o, _)| o.as_slice())
            .collect();
        out.push_str(&format!(
            "http://fumen.zui.jp/?{},{},{},{},{},{},{},{}\n",
            fumens[i],
            used_pieces(result, i),
            given_orders.len(),
            orders.len(),
            pattern_orders.len(),
            queue_list(given_orders.iter().copied()),
            queue_list(orders.iter().map(Vec::as_slice)),
            queue_list(pattern_orders.iter().map(Vec::as_slice)),
        ));
    }
    out
}

/// The orders each solution can be placed in, by solution.
fn all_placing(field: &PcField, rules: &Rules, result: &PathResult) -> Vec<PlacingOrders> {
    let mut placing = Vec::with_capacity(result.solutions.len());
    placing_orders(field, rules, result, &mut |_, orders| {
        placing.push(orders);
        ControlFlow::Continue(())
    })
    .unwrap_or_else(|e| fail(e));
    placing
}

/// sfinder's `-k use` csv: a line for each combination of pieces, with how many solutions
/// use exactly those pieces, how many sequences build one of them "for the pattern", their
/// fumens (those of the most such sequences first), and those sequences.
fn by_use(
    board: &Board32,
    result: &PathResult,
    placing: &[PlacingOrders],
    combinations: &[PieceMultiset],
) -> String {
    let fumens = fumen_data(board, result);
    let mut by_pieces: std::collections::HashMap<PieceMultiset, Vec<usize>> = Default::default();
    for (i, solution) in result.solutions.iter().enumerate() {
        let mut pieces = PieceMultiset::default();
        for placement in &solution.placements {
            pieces.insert(placement.piece());
        }
        by_pieces.entry(pieces).or_default().push(i);
    }
    let mut out =
        String::from("使用ミノ,対応地形数,対応ツモ数 (対パターン),テト譜,ツモ (対パターン)\n");
    for combination in combinations {
        let pieces: Vec<Piece> = combination.iter().collect();
        let mut solutions = by_pieces.get(combination).cloned().unwrap_or_default();
        solutions.sort_by_key(|&i| std::cmp::Reverse(placing[i].pattern_orders.len()));
        let mut queues: Vec<&[Piece]> = solutions
            .iter()
            .flat_map(|&i| placing[i].pattern_orders.iter().map(Vec::as_slice))
            .collect();
        queues.sort_unstable();
        queues.dedup();
        let links: Vec<&str> = solutions.iter().map(|&i| fumens[i].as_str()).collect();
        out.push_str(&format!(
            "{},{},{},{},{}\n",
            sfinder_sorted(&pieces),
            solutions.len(),
            queues.len(),
            links.join(";"),
            queue_list(queues.iter().copied()),
        ));
    }
    out
}

fn html(board: &Board32, result: &PathResult, minimal: &[usize]) -> String {
    let queue = |q: &Vec<Piece>| q.iter().map(|p| p.to_char()).collect::<String>();
    let mut out = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>path</title></head><body>\n",
    );
    let total = result.queues.len();
    let section = |out: &mut String, title: &str, indices: &[usize]| {
        out.push_str(&format!("<h2>{title} ({})</h2>\n<ol>\n", indices.len()));
        for &i in indices {
            let s = &result.solutions[i];
            let share = 100.0 * s.queues.len() as f64 / total.max(1) as f64;
            out.push_str(&format!(
                "<li><a href=\"{}\">{}</a> {share:.2} % [{}/{total}], first queue {}</li>\n",
                fumen_link(board, result, i),
                s.sfinder_csv(),
                s.queues.len(),
                queue(&result.queues[s.queues[0] as usize]),
            ));
        }
        out.push_str("</ol>\n");
    };
    section(&mut out, "minimal", minimal);
    let all: Vec<usize> = (0..result.solutions.len()).collect();
    section(&mut out, "unique", &all);
    out.push_str("</body></html>\n");
    out
}

/// Shows `done` of `total` on the bar; stops once the deadline is past.
fn advance(
    bar: &indicatif::ProgressBar,
    done: u64,
    total: u64,
    deadline: Option<Instant>,
) -> ControlFlow<()> {
    bar.set_length(total);
    bar.set_position(done);
    match deadline {
        Some(deadline) if Instant::now() >= deadline => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    }
}

/// Above this many queues, `-k none` keeps no queues per solution ([`path_summary`]).
const LARGE_PATTERN: usize = 100_000;

/// `-k none` for a pattern of many queues: the same files and counts from
/// [`path_summary`], which keeps no queues per solution.
fn summary(
    cli: &Cli,
    field: &PcField,
    rules: &pc_solver::Rules,
    patterns: &PatternSet,
    started: Instant,
    deadline: Option<Instant>,
) {
    let shown = show_progress(false, false);
    let mut bar = progress_bar(0, "fills", shown);
    let mut reached = (PathStage::Fills, 0, 0);
    let result = path_summary(field, rules, patterns, &mut |stage, done, total| {
        if stage != reached.0 {
            // A bar of its own, so that no frame mixes the fills' counts with the queues'.
            bar.finish_and_clear();
            bar = progress_bar(total, "queues covered by the minimal set", shown);
        }
        reached = (stage, done, total);
        advance(&bar, done, total, deadline)
    })
    .unwrap_or_else(|e| fail(e));
    bar.finish_and_clear();
    if !result.complete {
        let (stage, done, total) = reached;
        match stage {
            PathStage::Fills => println!(
                "Stopped at the time limit: the solutions below are those of {done} of the {total} fills, found in {:.1} s",
                started.elapsed().as_secs_f64()
            ),
            _ => println!(
                "Stopped at the time limit: every solution found; the minimal set below covers {done} of {total} queues, in {:.1} s",
                started.elapsed().as_secs_f64()
            ),
        }
    }
    let elapsed = started.elapsed();
    match result.covered {
        Some(covered) => println!("Queues with a PC = {covered} of {}", result.queues),
        None => println!("Queues with a PC = not known yet, of {}", result.queues),
    }
    println!("Found path [unique] = {}", result.solutions.len());
    println!("Found path [minimal] = {}", result.minimal.len());
    println!("Search: {:.1} ms", elapsed.as_secs_f64() * 1000.0);
    let dir = output_dir(&cli.output);
    if !dir.as_os_str().is_empty() {
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| fail(format!("{}: {e}", dir.display())));
    }
    let lines = |indices: &mut dyn Iterator<Item = usize>| {
        indices
            .filter_map(|i| result.sfinder_csv(i))
            .map(|line| line + "\n")
            .collect::<String>()
    };
    let unique = dir.join("path_unique.csv");
    let minimal = dir.join("path_minimal.csv");
    write_whole(&unique, &lines(&mut (0..result.solutions.len())));
    write_whole(&minimal, &lines(&mut result.minimal.iter().copied()));
    println!("Wrote {} and {}", unique.display(), minimal.display());
}

fn main() {
    let cli = Cli::parse_from(sfinder_args());
    let (file_line, board) = match &cli.field_path {
        Some(path) => {
            let (line, board) = read_field_file(path).unwrap_or_else(|e| fail(e));
            (Some(line), board)
        }
        None => (
            None,
            cli.field
                .board()
                .unwrap_or_else(|| fail("give a field: -t FUMEN, --field ROWS or -fp FILE")),
        ),
    };
    let clear_line = cli.clear_line.or(file_line).unwrap_or(4);
    let hold = cli.rules.hold();
    let rules = cli.rules.rules();
    let patterns = patterns(&cli);
    let field = PcField::new(board, clear_line).unwrap_or_else(|e| fail(e));
    println!("{}", board.to_text(clear_line, "\n"));
    println!();
    println!("Max clear lines: {clear_line}");
    println!("Using hold: {}", if hold { "use" } else { "avoid" });
    println!("Need Pieces = {}", field.pieces_needed());
    let started = Instant::now();
    let deadline = cli
        .time_limit
        .map(|s| started + Duration::from_secs_f64(s.max(0.0)));
    let cut =
        searching_sequences(&patterns, field.pieces_needed() as usize, hold).unwrap_or_default();
    if cli.key == Key::None && cli.format == OutputFormat::Csv && cut.len() > LARGE_PATTERN {
        println!("Piece pop count = {}", cut[0].len());
        drop(cut);
        summary(&cli, &field, &rules, &patterns, started, deadline);
        return;
    }
    drop(cut);
    let bar = progress_bar(0, "fills", show_progress(false, false));
    let mut walked = (0, 0);
    let result = path_with_progress(&field, &rules, &patterns, &mut |done, total| {
        walked = (done, total);
        advance(&bar, done, total, deadline)
    })
    .unwrap_or_else(|e| fail(e));
    bar.finish_and_clear();
    if !result.complete {
        println!(
            "Stopped at the time limit: the solutions below are those of {} of the {} fills, found in {:.1} s",
            walked.0,
            walked.1,
            started.elapsed().as_secs_f64()
        );
    }
    let minimal = result.minimal();
    let elapsed = started.elapsed();
    if let Some(queue) = result.queues.first() {
        println!("Piece pop count = {}", queue.len());
    }
    println!(
        "Queues with a PC = {} of {}",
        result.covered(),
        result.queues.len()
    );
    println!("Found path [unique] = {}", result.solutions.len());
    println!("Found path [minimal] = {}", minimal.len());
    println!("Search: {:.1} ms", elapsed.as_secs_f64() * 1000.0);

    let dir = output_dir(&cli.output);
    if !dir.as_os_str().is_empty() {
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| fail(format!("{}: {e}", dir.display())));
    }
    match cli.format {
        OutputFormat::Csv if cli.key != Key::None => {
            let text = match cli.key {
                Key::Pattern => by_queue(&board, &result),
                Key::Solution => {
                    by_solution(&board, &result, &all_placing(&field, &rules, &result))
                }
                _ => {
                    let combinations = patterns.piece_combinations(field.pieces_needed() as usize);
                    println!("Found piece combinations = {}", combinations.len());
                    let placing = all_placing(&field, &rules, &result);
                    by_use(&board, &result, &placing, &combinations)
                }
            };
            let file = dir.join("path.csv");
            write_whole(&file, &text);
            println!("Wrote {}", file.display());
        }
        OutputFormat::Csv => {
            let lines = |indices: &mut dyn Iterator<Item = usize>| {
                indices
                    .map(|i| result.solutions[i].sfinder_csv() + "\n")
                    .collect::<String>()
            };
            let unique = dir.join("path_unique.csv");
            let minimal_path = dir.join("path_minimal.csv");
            write_whole(&unique, &lines(&mut (0..result.solutions.len())));
            write_whole(&minimal_path, &lines(&mut minimal.iter().copied()));
            println!("Wrote {} and {}", unique.display(), minimal_path.display());
        }
        OutputFormat::Html => {
            let page = dir.join("path.html");
            write_whole(&page, &html(&board, &result, &minimal));
            println!("Wrote {}", page.display());
        }
    }
}
