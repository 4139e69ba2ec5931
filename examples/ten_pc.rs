//! Plays seeded games of the 10-PC challenge (ten perfect clears in a row) with
//! [`pc_solver::PcPlayer`] and reports how well it plays:
//!
//! ```sh
//! cargo run --release --example ten_pc -- --games 100 --seed 1 --preview 5 --kicks srs+
//! cargo run --release --example ten_pc -- --games 10 --endless --pieces 500 --format json
//! ```
//!
//! `--help` lists the options.
//!
//! A game of the challenge ends at its 10th PC, or fails when the player gives a PC up
//! (its exact chance fell to 0) or the game ends. The per-phase figures are the success
//! rate of the 1st to 7th PC of the bag cycle, for PCs from an empty field: one that starts
//! after n placed pieces is PC k + 1 with 10·k ≡ n (mod 7), so in an unbroken challenge the
//! k-th PC is PC k of the cycle, and PC 8 is PC 1 again. Decision times are wall-clock
//! times of `choose` (one thread per game).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use clap::Parser;
use clap::builder::RangedU64ValueParser;
use pc_bag::cycle_phase;
use pc_bot::{
    DEFAULT_CLAIRVOYANT, DEFAULT_EXACT_FROM, DEFAULT_GUIDED, DEFAULT_GUIDED_STATES,
    DEFAULT_LAYERED_FROM, DecisionKind, Game, GameConfig, PcPlayer, Player,
};
use pc_examples::{FormatArg, GraphArgs, RulesArgs, fail, progress_bar, show_progress};
use pc_solver::{MAX_PREVIEW, PcGraph, Piece, Rules};
use std::sync::Arc;

/// Plays seeded games of the 10-PC challenge (ten perfect clears in a row) with the
/// library's PcPlayer and reports how well it plays.
///
/// A game of the challenge ends at its 10th PC, or fails when the player gives a PC up (its
/// exact chance fell to 0) or the game ends. The per-phase figures are the success rate of
/// the 1st to 7th PC of the bag cycle, for PCs from an empty field. Decision times are
/// wall-clock times of the player's `choose` (one thread per game).
#[derive(Parser)]
#[command(
    name = "ten_pc",
    bin_name = "cargo run --release --example ten_pc --",
    version,
    after_help = "Examples:
  cargo run --release --example ten_pc -- --games 100 --seed 1 --preview 5 --kicks srs+
  cargo run --release --example ten_pc -- --games 10 --endless --pieces 500 --format json"
)]
struct Cli {
    /// Games to play
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = RangedU64ValueParser::<u64>::new().range(1..))]
    games: u64,
    /// Seed of the first game; game i plays seed S + i
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    #[arg(long, value_name = "P", default_value_t = 5,
          help = format!("Preview pieces (0 to {MAX_PREVIEW})"),
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_PREVIEW as u64))]
    preview: usize,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    graph: GraphArgs,
    /// Play without hold
    #[arg(long = "no-hold")]
    no_hold: bool,
    /// Play on after a failed PC until --pieces pieces, and report the streaks
    #[arg(long)]
    endless: bool,
    /// Pieces per game with --endless
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pieces: u64,
    /// Without a graph: the exact solver decides from this many pieces left
    #[arg(long, value_name = "N", default_value_t = DEFAULT_EXACT_FROM)]
    exact: u32,
    /// With this many pieces left or fewer, the exact solver decides also when its layered
    /// search answers (the hold slot filled); 0 off
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LAYERED_FROM)]
    layered: u32,
    /// With this many pieces left or fewer (10 for the first decision of a PC) and the
    /// layered search answering, the first --guided-moves moves of the sampled ranking are
    /// valued exactly and the best of them is played; 0 off
    #[arg(long, value_name = "N", default_value_t = DEFAULT_GUIDED.0)]
    guided: u32,
    /// Moves valued exactly by a guided decision
    #[arg(long = "guided-moves", value_name = "K", default_value_t = DEFAULT_GUIDED.1)]
    guided_moves: usize,
    /// Search states a guided decision may use
    #[arg(long = "guided-states", value_name = "S", default_value_t = DEFAULT_GUIDED_STATES)]
    guided_states: u64,
    /// With this many pieces left or fewer, moves are ranked by their clairvoyant chance;
    /// 0 off
    #[arg(long, value_name = "N", default_value_t = DEFAULT_CLAIRVOYANT.0)]
    clairvoyant: u32,
    /// States the clairvoyant ranking may expand before the decision is sampled instead
    #[arg(long = "clairvoyant-states", value_name = "S", default_value_t = DEFAULT_CLAIRVOYANT.1)]
    clairvoyant_states: u64,
    /// With the hold slot empty and the piece a hold reveals known (a game's first
    /// decision), sample the decision instead of holding and placing where the exact
    /// chance is best (which takes seconds)
    #[arg(long = "no-exact-opening", overrides_with = "exact_opening")]
    no_exact_opening: bool,
    /// The default; undoes --no-exact-opening
    #[arg(
        long = "exact-opening",
        overrides_with = "no_exact_opening",
        hide = true
    )]
    exact_opening: bool,
    /// Do not tell the moves that keep a PC certain apart by the piece they can leave in
    /// hold for the next PC: the exact solver's first best move is played
    #[arg(long = "no-carry", overrides_with = "carry")]
    no_carry: bool,
    /// The default; undoes --no-carry
    #[arg(long = "carry", overrides_with = "no_carry", hide = true)]
    carry: bool,
    /// Threads; games are shared out
    #[arg(long, value_name = "T", default_value_t = 1)]
    threads: usize,
    /// Split the success rates per phase by the piece in hold when the PC starts (always in
    /// the JSON as "by_hold": piece -> [attempts, successes])
    #[arg(long = "by-hold")]
    by_hold: bool,
    /// Write each game's record (`seed<S>.pcgame`, the text form that replays the game)
    /// into this folder
    #[arg(long, value_name = "DIR")]
    records: Option<std::path::PathBuf>,
    #[command(flatten)]
    format: FormatArg,
    /// No progress bar
    #[arg(short = 'q', long)]
    quiet: bool,
}

/// The names of the kinds of decision in the output, in the order of `kind_ms`.
const KINDS: [&str; 5] = ["exact", "guided", "clairvoyant", "sampled", "fallback"];

/// The figures of one game.
#[derive(Default)]
struct Played {
    /// PCs made before the first failure.
    first_streak: u64,
    /// Every streak of consecutive PCs (endless mode: several).
    streaks: Vec<u64>,
    /// Per phase of the cycle: PC attempts from an empty field, and successes.
    attempts: [u64; 7],
    successes: [u64; 7],
    /// The same per phase and piece in hold at the start (index 7: none), as
    /// (attempts, successes).
    by_hold: [[(u64, u64); 8]; 7],
    fallback: u64,
    decision_ms: Vec<f64>,
    /// The first decision of each PC started on an empty field.
    first_ms: Vec<f64>,
    /// The same per kind of decision, in [`KINDS`] order.
    kind_ms: [Vec<f64>; 5],
    exact: u64,
    guided: u64,
    clairvoyant: u64,
    sampled: u64,
}

struct Settings {
    preview: usize,
    rules: Rules,
    endless: bool,
    pieces: u64,
    exact: u32,
    layered: u32,
    guided: (u32, usize),
    guided_states: u64,
    clairvoyant: (u32, u64),
    carry: bool,
    exact_opening: bool,
    graph: Option<Arc<PcGraph>>,
    records: Option<std::path::PathBuf>,
}

fn play(seed: u64, s: &Settings) -> Played {
    let config = GameConfig::new(seed)
        .with_preview(s.preview)
        .with_rules(s.rules.clone());
    let mut game = Game::new(config).unwrap_or_else(|e| fail(e));
    let mut player = PcPlayer::new(s.rules.clone(), s.preview).unwrap_or_else(|e| fail(e));
    if let Some(graph) = &s.graph {
        player = player.with_graph(graph.clone()).unwrap_or_else(|e| fail(e));
    }
    let mut player = player
        .with_exact_from(s.exact)
        .with_layered_from(s.layered)
        .with_guided(s.guided.0, s.guided.1)
        .with_guided_states(s.guided_states)
        .with_clairvoyant(s.clairvoyant.0, s.clairvoyant.1)
        .with_carry(s.carry)
        .with_exact_opening(s.exact_opening)
        .with_seed(seed);
    let mut out = Played::default();
    let mut streak = 0;
    // The phase of the PC under way from an empty field, if one is.
    let mut attempt: Option<(usize, usize)> = None;
    let mut failed = false;
    while game.game_over().is_none() && game.stats().pieces < s.pieces {
        let view = game.view();
        let first = view.board.is_empty() && attempt.is_none();
        if first {
            let p = cycle_phase(game.stats().pieces);
            out.attempts[p] += 1;
            let h = view.hold.map_or(7, |h| h.index());
            out.by_hold[p][h].0 += 1;
            attempt = Some((p, h));
        }
        let started = Instant::now();
        let chosen = player.choose(&view);
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        out.decision_ms.push(ms);
        if first {
            out.first_ms.push(ms);
        }
        if let Some(kind) = player.last_decision() {
            let index = match kind {
                DecisionKind::Exact => 0,
                DecisionKind::Guided => 1,
                DecisionKind::Clairvoyant => 2,
                DecisionKind::Sampled => 3,
                DecisionKind::Fallback => 4,
            };
            out.kind_ms[index].push(ms);
        }
        if player.last_decision() == Some(DecisionKind::Fallback) {
            out.fallback += 1;
            if streak > 0 || attempt.is_some() {
                out.streaks.push(streak);
                streak = 0;
                attempt = None;
                failed = true;
                if !s.endless {
                    break;
                }
            }
        }
        let Some(mv) = chosen else {
            game.resign();
            break;
        };
        let result = game.play(&mv).unwrap_or_else(|e| {
            fail(format!(
                "seed {seed}: the player played an illegal move: {e}"
            ))
        });
        if result.perfect_clear {
            streak += 1;
            if !failed {
                out.first_streak += 1;
            }
            if let Some((p, h)) = attempt.take() {
                out.successes[p] += 1;
                out.by_hold[p][h].1 += 1;
            }
            if !s.endless && out.first_streak >= 10 {
                break;
            }
        }
    }
    // A PC under way when the piece cap stopped the game is no attempt.
    if let Some((p, h)) = attempt {
        if game.game_over().is_none() && game.stats().pieces >= s.pieces {
            out.attempts[p] -= 1;
            out.by_hold[p][h].0 -= 1;
        }
    }
    if streak > 0 || out.streaks.is_empty() {
        out.streaks.push(streak);
    }
    if let Some(dir) = &s.records {
        let path = dir.join(format!("seed{seed}.pcgame"));
        std::fs::write(&path, game.record().to_string())
            .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
    }
    let stats = player.stats();
    out.exact = stats.exact;
    out.guided = stats.guided;
    out.clairvoyant = stats.clairvoyant;
    out.sampled = stats.sampled;
    out
}

/// The value at quantile `q` of sorted values (nearest rank).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn main() {
    let cli = Cli::parse();
    let games = cli.games;
    let seed = cli.seed;
    let endless = cli.endless;
    let rules = cli.rules.rules(!cli.no_hold);
    let settings = Settings {
        preview: cli.preview,
        graph: cli.graph.load(&rules, &cli.rules.build_hint(), true),
        rules,
        endless,
        pieces: if endless { cli.pieces } else { u64::MAX },
        exact: cli.exact,
        layered: cli.layered,
        guided: (cli.guided, cli.guided_moves),
        guided_states: cli.guided_states,
        clairvoyant: (cli.clairvoyant, cli.clairvoyant_states),
        carry: !cli.no_carry,
        exact_opening: !cli.no_exact_opening,
        records: cli.records.clone(),
    };
    if let Some(dir) = &settings.records {
        std::fs::create_dir_all(dir)
            .unwrap_or_else(|e| fail(format!("--records {}: {e}", dir.display())));
    }
    let threads = cli.threads.max(1);
    let json = cli.format.json();
    let by_hold_flag = cli.by_hold;

    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(u64, Played)>> = Mutex::new(Vec::new());
    let bar = progress_bar(games, "games", show_progress(json, cli.quiet));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed) as u64;
                    if i >= games {
                        break;
                    }
                    let played = play(seed.wrapping_add(i), &settings);
                    let mut all = results.lock().expect("no thread panics holding it");
                    all.push((i, played));
                    let ten = all.iter().filter(|(_, p)| p.first_streak >= 10).count();
                    bar.inc(1);
                    bar.set_message(format!("{ten} reached 10 PCs"));
                }
            });
        }
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let mut results = results.into_inner().expect("no thread panicked");
    results.sort_by_key(|(i, _)| *i);
    let results: Vec<Played> = results.into_iter().map(|(_, p)| p).collect();

    let n = results.len() as f64;
    let ten = results.iter().filter(|p| p.first_streak >= 10).count();
    let mut attempts = [0u64; 7];
    let mut successes = [0u64; 7];
    let mut by_hold = [[(0u64, 0u64); 8]; 7];
    for p in &results {
        for k in 0..7 {
            attempts[k] += p.attempts[k];
            successes[k] += p.successes[k];
            for (sum, game) in by_hold[k].iter_mut().zip(&p.by_hold[k]) {
                sum.0 += game.0;
                sum.1 += game.1;
            }
        }
    }
    // Hold slot names in `by_hold` order.
    let hold_name = |h: usize| {
        Piece::ALL
            .get(h)
            .map_or("none".to_string(), |p| p.to_string())
    };
    let rate = |k: usize| {
        if attempts[k] == 0 {
            None
        } else {
            Some(successes[k] as f64 / attempts[k] as f64)
        }
    };
    let streaks: Vec<u64> = results.iter().flat_map(|p| p.streaks.clone()).collect();
    let mean_streak = streaks.iter().sum::<u64>() as f64 / streaks.len().max(1) as f64;
    let longest = streaks.iter().copied().max().unwrap_or(0);
    let fallback: u64 = results.iter().map(|p| p.fallback).sum();
    let exact: u64 = results.iter().map(|p| p.exact).sum();
    let guided: u64 = results.iter().map(|p| p.guided).sum();
    let clairvoyant: u64 = results.iter().map(|p| p.clairvoyant).sum();
    let sampled: u64 = results.iter().map(|p| p.sampled).sum();
    let mut ms: Vec<f64> = results
        .iter()
        .flat_map(|p| p.decision_ms.iter().copied())
        .collect();
    ms.sort_by(f64::total_cmp);
    // Per kind of decision: count, median, 90th percentile, largest.
    let by_kind: Vec<(&str, usize, f64, f64, f64)> = KINDS
        .iter()
        .enumerate()
        .map(|(i, &name)| {
            let mut ms: Vec<f64> = results
                .iter()
                .flat_map(|p| p.kind_ms[i].iter().copied())
                .collect();
            ms.sort_by(f64::total_cmp);
            let max = ms.last().copied().unwrap_or(0.0);
            (name, ms.len(), quantile(&ms, 0.5), quantile(&ms, 0.9), max)
        })
        .collect();
    let mut first_ms: Vec<f64> = results
        .iter()
        .flat_map(|p| p.first_ms.iter().copied())
        .collect();
    first_ms.sort_by(f64::total_cmp);
    let first = (
        first_ms.len(),
        quantile(&first_ms, 0.5),
        quantile(&first_ms, 0.9),
        quantile(&first_ms, 0.99),
        first_ms.last().copied().unwrap_or(0.0),
    );
    let (median, p99, max) = (
        quantile(&ms, 0.5),
        quantile(&ms, 0.99),
        ms.last().copied().unwrap_or(0.0),
    );

    if json {
        let per_phase: Vec<String> = (0..7)
            .map(|k| {
                let holds: Vec<String> = (0..8)
                    .filter(|&h| by_hold[k][h].0 > 0)
                    .map(|h| {
                        format!(
                            "\"{}\": [{}, {}]",
                            hold_name(h),
                            by_hold[k][h].0,
                            by_hold[k][h].1
                        )
                    })
                    .collect();
                format!(
                    "{{\"phase\": {}, \"attempts\": {}, \"successes\": {}, \"rate\": {}, \"by_hold\": {{{}}}}}",
                    k + 1,
                    attempts[k],
                    successes[k],
                    rate(k).map_or("null".to_string(), |r| format!("{r:.4}")),
                    holds.join(", ")
                )
            })
            .collect();
        let kinds: Vec<String> = by_kind
            .iter()
            .map(|(name, n, median, p90, max)| {
                format!(
                    "\"{name}\": {{\"decisions\": {n}, \"median\": {median:.3}, \"p90\": {p90:.3}, \"max\": {max:.3}}}"
                )
            })
            .collect();
        println!(
            "{{\"games\": {games}, \"seed\": {seed}, \"endless\": {endless}, \"ten_pc\": {ten}, \
             \"ten_pc_rate\": {:.4}, \"per_phase\": [{}], \"mean_streak\": {mean_streak:.3}, \
             \"longest_streak\": {longest}, \"fallback_moves\": {fallback}, \
             \"decisions\": {{\"exact\": {exact}, \"guided\": {guided}, \"clairvoyant\": {clairvoyant}, \"sampled\": {sampled}, \"fallback\": {fallback}}}, \
             \"decision_ms\": {{\"median\": {median:.3}, \"p99\": {p99:.3}, \"max\": {max:.3}}}, \
             \"decision_ms_by_kind\": {{{}}}, \"first_decision_ms\": {{\"decisions\": {}, \"median\": {:.3}, \"p90\": {:.3}, \"p99\": {:.3}, \"max\": {:.3}}}, \
             \"graph\": {}, \"seconds\": {seconds:.1}}}",
            ten as f64 / n,
            per_phase.join(", "),
            kinds.join(", "),
            first.0,
            first.1,
            first.2,
            first.3,
            first.4,
            settings.graph.is_some()
        );
        return;
    }
    println!(
        "{games} games (seeds {seed}..{}), preview {}, {}, {} s",
        seed.wrapping_add(games - 1),
        settings.preview,
        if settings.graph.is_some() {
            "with the graph"
        } else {
            "without a graph"
        },
        seconds.round()
    );
    println!(
        "reached 10 PCs: {ten}/{games} ({:.1}%)",
        100.0 * ten as f64 / n
    );
    println!("success by PC of the bag cycle:");
    for k in 0..7 {
        match rate(k) {
            Some(r) => println!(
                "  PC {}: {}/{} ({:.1}%)",
                k + 1,
                successes[k],
                attempts[k],
                100.0 * r
            ),
            None => println!("  PC {}: not reached", k + 1),
        }
        if by_hold_flag && attempts[k] > 0 {
            let holds: Vec<String> = (0..8)
                .filter(|&h| by_hold[k][h].0 > 0)
                .map(|h| format!("{} {}/{}", hold_name(h), by_hold[k][h].1, by_hold[k][h].0))
                .collect();
            println!("    by piece in hold at the start: {}", holds.join(", "));
        }
    }
    if endless {
        println!(
            "streaks ({} pieces per game): mean {mean_streak:.2} PCs, longest {longest}",
            settings.pieces
        );
    }
    println!(
        "fallback moves: {fallback}; exact decisions {exact}, guided {guided}, clairvoyant {clairvoyant}, sampled {sampled}"
    );
    println!(
        "decision time: median {median:.2} ms, p99 {p99:.1} ms, max {max:.1} ms ({} decisions)",
        ms.len()
    );
    if first.0 > 0 {
        println!(
            "  first decision of a PC on an empty field: {} decisions, median {:.2} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            first.0, first.1, first.2, first.3, first.4
        );
    }
    for (name, n, median, p90, max) in by_kind.iter().filter(|k| k.1 > 0) {
        println!(
            "  {name}: {n} decisions, median {median:.2} ms, p90 {p90:.1} ms, max {max:.1} ms"
        );
    }
}
