//! Plays ordinary seeded 7-bag games with the heuristic evaluator alone and reports how
//! long it survives:
//!
//! ```sh
//! cargo run --release --example heuristic -- --games 1000 --seed 1 --cap 10000
//! cargo run --release --example heuristic -- --games 20 --cap 2000 --preset dellacherie --no-lookahead
//! ```
//!
//! Options: `--games N` (100); `--seed S` (1; game i plays seed S + i); `--cap LINES` (10000;
//! a game stops there); `--preview P` (5); `--kicks srs|srs+` (srs); `--preset
//! balanced|conservative|aggressive|dellacherie` (balanced); `--no-lookahead`; `--beam K`
//! (4); `--discount D` (0.9); `--no-hold`; `--format text|json`; `--quiet` (no progress on
//! stderr).
//!
//! Prints the mean lines per game with a 95% confidence interval (normal approximation),
//! how many games reached the cap, how they ended, perfect clears, T-spins that cleared rows
//! (the game counts them by the three-corner rule), how often the field was
//! ready to hand back to the perfect-clear search, and decisions per second.

use std::io::Write;
use std::time::Instant;

use pc_examples::{Args, fail, json_format, kicks, number, print_help};
use pc_solver::Rules;
use pc_solver::game::{Game, GameConfig, GameOver};
use pc_solver::heuristic::{Evaluator, Preset, handoff_clear_line};

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
                game.play(&decision.to_move())
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
    let args = Args::from_env();
    if args.flag(&["-h", "--help"]) {
        print_help(include_str!("heuristic.rs"));
        return;
    }
    let games: u64 = number(&args, &["--games"], 100);
    let seed: u64 = number(&args, &["--seed"], 1);
    let cap: u64 = number(&args, &["--cap"], 10_000);
    let preview: usize = number(&args, &["--preview"], 5);
    let kick_name = args.value(&["--kicks", "-K"]).unwrap_or("srs");
    let preset: Preset = args
        .value(&["--preset"])
        .unwrap_or("balanced")
        .parse()
        .unwrap_or_else(|e| fail(e));
    let evaluator = Evaluator::from_preset(preset)
        .with_lookahead(!args.flag(&["--no-lookahead"]))
        .with_beam(number(&args, &["--beam"], 4))
        .with_discount(number(&args, &["--discount"], 0.9));
    let rules = Rules {
        kicks: kicks(kick_name).unwrap_or_else(|e| fail(e)),
        hold: !args.flag(&["--no-hold"]),
        ..Rules::default()
    };
    let json = json_format(&args);
    let quiet = args.flag(&["--quiet", "-q"]);
    if games == 0 {
        fail("--games must be at least 1");
    }

    let started = Instant::now();
    let mut results = Vec::with_capacity(games as usize);
    for i in 0..games {
        let config = GameConfig {
            seed: seed.wrapping_add(i),
            preview,
            rules: rules.clone(),
        };
        let played = play(config, &evaluator, cap);
        if !quiet {
            let reached = results.iter().filter(|p: &&Played| p.lines >= cap).count()
                + usize::from(played.lines >= cap);
            eprint!(
                "\rgame {}/{games}: {} lines; {reached} reached the cap; {:.0} s   ",
                i + 1,
                played.lines,
                started.elapsed().as_secs_f64()
            );
            let _ = std::io::stderr().flush();
        }
        results.push(played);
    }
    if !quiet {
        eprintln!();
    }
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
