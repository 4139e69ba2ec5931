//! Plays ordinary seeded 7-bag games with the heuristic evaluator alone and reports how
//! long it survives:
//!
//! ```sh
//! cargo run --release --example heuristic -- --games 1000 --seed 1 --cap 10000
//! cargo run --release --example heuristic -- --games 20 --cap 2000 --preset dellacherie --no-lookahead
//! ```
//!
//! `--help` lists the options.
//!
//! Prints the mean lines per game with a 95% confidence interval (normal approximation),
//! how many games reached the cap, how they ended, perfect clears, T-spins that cleared rows
//! (the game counts them by the three-corner rule), how often the field was
//! ready to hand back to the perfect-clear search, and decisions per second.

use std::time::Instant;

use clap::Parser;
use clap::builder::{PossibleValuesParser, RangedU64ValueParser, TypedValueParser};
use pc_bot::{Evaluator, Game, GameConfig, GameOver, Preset, handoff_clear_line};
use pc_examples::{FormatArg, KicksArg, fail, progress_bar, show_progress};
use pc_solver::Rules;

/// Plays ordinary seeded 7-bag games with the heuristic evaluator alone and reports how long
/// it survives.
///
/// Prints the mean lines per game with a 95% confidence interval (normal approximation), how
/// many games reached the cap, how they ended, perfect clears, T-spins that cleared rows, how
/// often the field was ready to hand back to the perfect-clear search, and decisions per
/// second.
#[derive(Parser)]
#[command(
    name = "heuristic",
    bin_name = "cargo run --release --example heuristic --",
    version,
    after_help = "Examples:
  cargo run --release --example heuristic -- --games 1000 --seed 1 --cap 10000
  cargo run --release --example heuristic -- --games 20 --cap 2000 --preset dellacherie --no-lookahead"
)]
struct Cli {
    /// Games to play
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = RangedU64ValueParser::<u64>::new().range(1..))]
    games: u64,
    /// Seed of the first game; game i plays seed S + i
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Lines at which a game stops
    #[arg(long, value_name = "LINES", default_value_t = 10_000)]
    cap: u64,
    /// Preview pieces
    #[arg(long, value_name = "P", default_value_t = 5)]
    preview: usize,
    #[command(flatten)]
    kicks: KicksArg,
    /// Weight preset
    #[arg(long, value_name = "PRESET", default_value = "balanced", value_parser = preset_parser())]
    preset: Preset,
    /// No one-piece lookahead: decide on the current piece alone
    #[arg(long = "no-lookahead")]
    no_lookahead: bool,
    /// How many of the best moves (by their own score) are looked ahead from
    #[arg(long, value_name = "K", default_value_t = 4)]
    beam: usize,
    /// Weight of the next piece's best score in a move's value (0 to 1 is sensible)
    #[arg(long, value_name = "D", default_value_t = 0.9)]
    discount: f64,
    /// Play without hold
    #[arg(long = "no-hold")]
    no_hold: bool,
    #[command(flatten)]
    format: FormatArg,
    /// No progress bar
    #[arg(short = 'q', long)]
    quiet: bool,
}

/// The presets by name, as `clap` lists and suggests them.
fn preset_parser() -> impl TypedValueParser<Value = Preset> {
    PossibleValuesParser::new(Preset::ALL.map(Preset::name))
        .map(|name| name.parse::<Preset>().expect("a listed preset"))
}

/// The figures of one game.
struct Played {
    lines: u64,
    pieces: u64,
    perfect_clears: u64,
    /// T-spins (full) and minis that cleared rows.
    tspins: u64,
    tspin_minis: u64,
    ready: u64,
    highest: u32,
    over: Option<GameOver>,
}

fn play(config: GameConfig, evaluator: &Evaluator, cap: u64) -> Played {
    let mut game = Game::new(config).unwrap_or_else(|e| fail(e));
    let mut ready = 0;
    let mut highest = 0;
    while game.game_over().is_none() && game.stats().lines < cap {
        match evaluator.decide(&game.view()) {
            Some(decision) => {
                game.play(&decision.mv.into())
                    .unwrap_or_else(|e| fail(format!("the evaluator played an illegal move: {e}")));
                ready += u64::from(handoff_clear_line(game.board()).is_some());
                highest = highest.max(game.board().height());
            }
            None => game.resign(),
        }
    }
    let stats = game.stats();
    Played {
        lines: stats.lines,
        pieces: stats.pieces,
        perfect_clears: stats.perfect_clears,
        tspins: stats.tspins[1..].iter().sum(),
        tspin_minis: stats.tspin_minis[1..].iter().sum(),
        ready,
        highest,
        over: game.game_over(),
    }
}

fn main() {
    let cli = Cli::parse();
    let games = cli.games;
    let seed = cli.seed;
    let cap = cli.cap;
    let preview = cli.preview;
    let kicks = cli.kicks.or("srs");
    let kick_name = &kicks.name;
    let preset = cli.preset;
    let evaluator = Evaluator::from_preset(preset)
        .with_lookahead(!cli.no_lookahead)
        .with_beam(cli.beam)
        .with_discount(cli.discount);
    let rules = Rules {
        kicks: kicks.table.clone(),
        hold: !cli.no_hold,
        ..Rules::default()
    };
    let json = cli.format.json();

    let started = Instant::now();
    let mut results = Vec::new();
    let bar = progress_bar(games, "games", show_progress(json, cli.quiet));
    for i in 0..games {
        let config = GameConfig {
            seed: seed.wrapping_add(i),
            preview,
            rules: rules.clone(),
        };
        let played = play(config, &evaluator, cap);
        results.push(played);
        let reached = results.iter().filter(|p| p.lines >= cap).count();
        bar.inc(1);
        bar.set_message(format!("{reached} reached the cap"));
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();

    let n = results.len() as f64;
    let mean = results.iter().map(|p| p.lines as f64).sum::<f64>() / n;
    let variance = if results.len() > 1 {
        results
            .iter()
            .map(|p| (p.lines as f64 - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0)
    } else {
        0.0
    };
    let half_width = 1.96 * (variance / n).sqrt();
    let reached = results.iter().filter(|p| p.lines >= cap).count();
    let ended = |o: GameOver| results.iter().filter(|p| p.over == Some(o)).count();
    let pieces: u64 = results.iter().map(|p| p.pieces).sum();
    let lines: u64 = results.iter().map(|p| p.lines).sum();
    let pcs: u64 = results.iter().map(|p| p.perfect_clears).sum();
    let tspins: u64 = results.iter().map(|p| p.tspins).sum();
    let minis: u64 = results.iter().map(|p| p.tspin_minis).sum();
    let ready: u64 = results.iter().map(|p| p.ready).sum();
    let per_second = pieces as f64 / seconds;
    let highest = results.iter().map(|p| p.highest).max().unwrap_or(0);
    let mean_highest = results.iter().map(|p| f64::from(p.highest)).sum::<f64>() / n;
    let ready_share = ready as f64 / pieces.max(1) as f64;

    if json {
        println!(
            "{{\"games\":{games},\"seed\":{seed},\"cap\":{cap},\"preview\":{preview},\"kicks\":\"{kick_name}\",\"preset\":\"{preset}\",\"lookahead\":{},\"beam\":{},\"discount\":{},\"hold\":{},\"mean_lines\":{mean:.1},\"ci95\":[{:.1},{:.1}],\"reached_cap\":{reached},\"block_outs\":{},\"lock_outs\":{},\"pieces\":{pieces},\"lines\":{lines},\"perfect_clears\":{pcs},\"tspin_clears\":{tspins},\"tspin_mini_clears\":{minis},\"handoff_ready_share\":{ready_share:.4},\"highest_stack\":{highest},\"mean_highest_stack\":{mean_highest:.2},\"seconds\":{seconds:.2},\"decisions_per_second\":{per_second:.0}}}",
            evaluator.lookahead,
            evaluator.beam,
            evaluator.discount,
            rules.hold,
            mean - half_width,
            mean + half_width,
            ended(GameOver::BlockOut),
            ended(GameOver::LockOut),
        );
        return;
    }
    println!(
        "{games} games from seed {seed}, cap {cap} lines, preview {preview}, hold {}, {kick_name}, preset {preset}, lookahead {}",
        if rules.hold { "on" } else { "off" },
        if evaluator.lookahead {
            format!(
                "on (beam {}, discount {})",
                evaluator.beam, evaluator.discount
            )
        } else {
            "off".to_string()
        }
    );
    println!(
        "mean lines per game: {mean:.1} (95% CI {:.1} to {:.1})",
        mean - half_width,
        mean + half_width
    );
    println!(
        "reached the cap: {reached}/{games}; block outs {}, lock outs {}",
        ended(GameOver::BlockOut),
        ended(GameOver::LockOut)
    );
    println!(
        "pieces {pieces}, lines {lines}, perfect clears {pcs}, T-spin clears {tspins} (minis {minis}); field ready for a PC search after {:.1}% of the pieces",
        100.0 * ready_share
    );
    println!("highest stack: {highest} rows (mean over games {mean_highest:.2})");
    println!("{seconds:.1} s, {per_second:.0} decisions per second");
}
