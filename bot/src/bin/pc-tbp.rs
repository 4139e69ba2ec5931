//! `pc-tbp`: pc's player as a Tetris Bot Protocol bot. A frontend launches it and talks
//! JSON lines over its stdin and stdout; stderr gets notes for people.
//!
//! ```text
//! cargo run --release -p pc-bot --features cli --bin pc-tbp -- --help
//! ```

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;
use clap::builder::RangedU64ValueParser;
use pc_bot::cli::{DropChoice, parse_kicks};
use pc_bot::tbp::{DEFAULT_SPAWN_ROW, GraphSource, TbpBot, TbpConfig};
use pc_bot::{KickTable, MAX_PREVIEW, Rules};

/// pc's perfect-clear player as a Tetris Bot Protocol (TBP) bot.
///
/// A TBP frontend (battletris, for one) launches it and talks JSON lines over stdin and
/// stdout. It answers each `suggest` with moves, best first: the PC player's move when a
/// perfect clear is in reach (exact with the PC field graph of the rules), the heuristic's
/// otherwise or when the player is out of time, then every other legal move. Notes for
/// people go to stderr.
#[derive(Parser)]
#[command(
    name = "pc-tbp",
    bin_name = "pc-tbp",
    version,
    after_help = "Examples:
  cargo run --release -p pc-bot --features cli --bin pc-tbp
  pc-tbp --no-graph --think-ms 200
  PC_GRAPH_DIR=/path/to/graphs pc-tbp -K srs+ --verbose"
)]
struct Cli {
    /// Kick table: srs, srs+ (TETR.IO, with 180 kicks), none, jstris180, nullpomino180, or
    /// the path of an sfinder .properties file [default: srs, srs+ with -d 180]
    #[arg(short = 'K', long = "kicks", value_name = "NAME|PATH", value_parser = parse_kicks)]
    kicks: Option<KickTable>,
    /// Drop mode
    #[arg(short = 'd', long = "drop", value_enum, default_value_t = DropChoice::Softdrop)]
    drop: DropChoice,
    /// The PC field graph to decide with [default: the cached graph of the rules, in
    /// $PC_GRAPH_DIR or the platform's cache folder, when there is one]; loaded when the
    /// rules come, before `ready`
    #[arg(long, value_name = "PATH", conflicts_with = "no_graph")]
    graph: Option<PathBuf>,
    /// Decide without a graph (the first decisions of a PC are approximated)
    #[arg(long = "no-graph")]
    no_graph: bool,
    #[arg(long, value_name = "P",
          help = format!("Previews the player uses, 0 to {MAX_PREVIEW} [default: the queue's \
                          length at the first start minus the current piece, at most {MAX_PREVIEW}]"),
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_PREVIEW as u64))]
    preview: Option<usize>,
    /// Milliseconds a suggest waits for the PC player before the heuristic answers
    /// (0: as long as it takes)
    #[arg(long = "think-ms", value_name = "MS", default_value_t = 350)]
    think_ms: u64,
    /// Seed of the player's sampled continuations (decisions without a graph)
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Threads a decision of the PC player may use: with the graph, more take less time at
    /// the start of a PC with four previews (the same decisions)
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Row of the spawn position's rotation centre (one higher when the piece does not
    /// fit): 19 as in battletris, 20 as in pc-bot's Game
    #[arg(long = "spawn-row", value_name = "ROW", default_value_t = DEFAULT_SPAWN_ROW,
          value_parser = clap::value_parser!(i32).range(1..=27))]
    spawn_row: i32,
    /// Play with the heuristic alone (no perfect clears)
    #[arg(long = "heuristic-only")]
    heuristic_only: bool,
    /// Write a summary of each game to stderr (pieces, PCs, how the moves were chosen,
    /// suggest times)
    #[arg(short, long)]
    verbose: bool,
}

fn main() {
    let cli = Cli::parse();
    let kicks = cli.kicks.unwrap_or_else(|| cli.drop.default_kicks());
    let graph = match (cli.no_graph, cli.graph) {
        (true, _) => GraphSource::None,
        (false, Some(path)) => GraphSource::File(path),
        (false, None) => GraphSource::Cached,
    };
    let config = TbpConfig {
        rules: Rules {
            kicks,
            drop: cli.drop.drop_mode(),
            hold: true,
        },
        graph,
        preview: cli.preview,
        think_time: (cli.think_ms > 0).then(|| Duration::from_millis(cli.think_ms)),
        seed: cli.seed,
        threads: usize::from(cli.threads),
        spawn_row: cli.spawn_row,
        perfect_clears: !cli.heuristic_only,
        verbose: cli.verbose,
    };
    let mut bot = TbpBot::new(config);
    serve(&mut bot);
    // Exit without dropping the bot: battletris kills a bot that has not exited 50 ms
    // after `quit`, and freeing the PC field graph (hundreds of MB) piece by piece is work
    // the operating system does anyway when the process ends. What is left is the kernel
    // taking the pages back (tens of ms for the SRS graph). stdout is flushed after each
    // message, and `exit` flushes it once more.
    std::process::exit(0);
}

/// Answers the frontend's lines until `quit`, the end of stdin, or a closed stdout.
fn serve(bot: &mut TbpBot) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // `info` at once: frontends read it first, battletris even launches a bot just for it.
    if writeln!(out, "{}", bot.info().to_line())
        .and_then(|()| out.flush())
        .is_err()
    {
        return;
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) => {
                eprintln!("pc-tbp: stdin: {e}");
                return;
            }
        }
        // A line that is not UTF-8 is read with replacement characters, and reported as
        // malformed like any other.
        let text = String::from_utf8_lossy(&line);
        let response = bot.handle_line(&text);
        for message in &response.messages {
            if writeln!(out, "{}", message.to_line()).is_err() {
                return;
            }
        }
        if out.flush().is_err() {
            return;
        }
        for note in &response.notes {
            eprintln!("pc-tbp: {note}");
        }
        if response.quit {
            return;
        }
    }
}
