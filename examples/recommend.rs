//! Ranks every legal move of a position by its exact chance of a perfect clear, with the
//! preview a player has; `--help` lists the options.
//!
//! ```sh
//! cargo run --release --example recommend
//! cargo run --release --example recommend -- --field '##.....###/###....###/####...###/###....###' --hold I --queue TLOSJ --bag Z
//! cargo run --release --example recommend -- --hold I --queue TSZLJO
//! ```
//!
//! The default position is a decision early in the first PC of a game: an L and a J fill
//! the two left columns, O is held, T S Z I end the first bag and L J open the second.

use clap::error::ErrorKind;
use clap::{ArgGroup, CommandFactory, Parser};
use pc_bag::PieceSet;
use pc_bitboard::Board32;
use pc_examples::{
    FieldArgs, FormatArg, GraphArgs, HoldRule, RulesArgs, fail, parse_piece, parse_pieces,
};
use pc_solver::{
    Engine, EstimateOptions, MAX_PREVIEW, Piece, Position, RankedMove, Solver, SolverError,
    SolverOptions,
};

/// The default position (see the module docs).
const DEFAULT_FIELD: &str = "##......../##......../##......../##........";
const DEFAULT_HOLD: Piece = Piece::O;
const DEFAULT_QUEUE: &str = "TSZILJ";
const DEFAULT_BAG: &str = "IOSTZ";

/// Ranks every legal move of a position by its exact chance of a perfect clear, with the
/// preview a player has: one new piece is revealed each time a piece is used.
///
/// With no position option, a built-in position is used (an L and a J fill the two left
/// columns, O held, queue TSZILJ, bag IOSTZ). A position is --queue with any of --field or
/// --fumen (else the empty field), --hold (else none), --bag (else a fresh bag follows the
/// queue) and --clear-line.
///
/// The `carry` column (`"carry"` in JSON): once every piece of the PC is in view, the piece
/// a move can leave in hold for the next PC, the one it prefers; moves that tie on the
/// chance are ranked by it.
///
/// Which positions are fast: the cost grows with the pieces of the PC not revealed yet
/// (needed, plus one with hold, minus the hold, the queue and a piece the bag forces).
/// With the PC field graph of the rules (`graph build`), a position on its fields with
/// one to four pieces unknown and at least as many previews, the hold slot filled or
/// empty (the first decisions of every PC from an empty field, the first of a game
/// included), takes a second at most; so does any position with at most two unknown.
/// Without the graph, three or four unknown with the hold filled take the layered search
/// about a second to ten. Other empty hold slots, a 2-line PC or more than four unknown
/// are left to the depth-first search (which the graph prunes: five unknown a few pieces
/// into a PC take it a fraction of a second to seconds), which can take hours: it shows its
/// progress on a terminal and stops at --time-limit. With six or more unknown (or five one
/// piece into a PC) it estimates instead (--estimate; --exact for the exact answer).
#[derive(Parser)]
#[command(
    name = "recommend",
    bin_name = "cargo run --release --example recommend --",
    version,
    group(
        ArgGroup::new("position")
            .args(["fumen", "field", "hold", "bag", "clear_line"])
            .multiple(true)
            .requires("queue")
    ),
    after_help = "Examples:
  cargo run --release --example recommend
  cargo run --release --example recommend -- --hold I --queue TSZLJO
  cargo run --release --example recommend -- --field '##.....###/###....###/####...###/###....###' --hold I --queue TLOSJ --bag Z"
)]
struct Cli {
    #[command(flatten)]
    field: FieldArgs,
    /// The piece in the hold slot, or none [default: none]
    #[arg(long, value_name = "PIECE|none", value_parser = parse_hold)]
    hold: Option<HoldSlot>,
    #[arg(long, value_name = "PIECES", value_parser = parse_queue,
          help = format!("The current piece, then the preview (0 to {MAX_PREVIEW} pieces), e.g. TSZLJO"))]
    queue: Option<Queue>,
    /// The pieces still to come from the current bag after the queue (empty or all seven:
    /// a fresh bag follows the queue) [default: empty]
    #[arg(long, value_name = "PIECES")]
    bag: Option<PieceSet>,
    /// The clear line: the height of the perfect clear [default: 4]
    #[arg(short = 'c', long = "clear-line", value_name = "LINES")]
    clear_line: Option<u32>,
    /// 2-line PCs count too
    #[arg(long = "two-line")]
    two_line: bool,
    /// Hold rule
    #[arg(short = 'H', long = "hold-rule", value_enum, default_value_t = HoldRule::Use)]
    hold_rule: HoldRule,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    graph: GraphArgs,
    /// The solver's table budget in MiB
    #[arg(long, value_name = "MiB", default_value_t = 512)]
    memory: usize,
    #[command(flatten)]
    format: FormatArg,
    /// Only the best move (faster: other moves are cut early)
    #[arg(long, conflicts_with = "play")]
    best: bool,
    /// Play the best move until the PC, the next pieces drawn at random from the bag with
    /// this seed (text output)
    #[arg(long, value_name = "SEED")]
    play: Option<u64>,
    /// Give up after this many seconds (the depth-first search, which the large questions
    /// go to, stops between steps of a few seconds) [default: no limit]
    #[arg(long = "time-limit", value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Estimate instead: each move's exact chance with a few more pieces in view, averaged
    /// over SAMPLES draws of them from the bag, with its standard error. More pieces in view
    /// never lower a chance, so it is an upper estimate. The default where the exact answer
    /// can take hours (six or more pieces of the PC unknown, or five one piece into it)
    /// [default: 32 draws]
    #[arg(long, value_name = "SAMPLES", num_args = 0..=1, default_missing_value = "32",
          conflicts_with_all = ["best", "play", "exact"])]
    estimate: Option<usize>,
    /// The exact answer even where it can take hours
    #[arg(long)]
    exact: bool,
}

/// The hold slot as given: a piece or none.
#[derive(Clone, Copy)]
struct HoldSlot(Option<Piece>);

fn parse_hold(text: &str) -> Result<HoldSlot, String> {
    match text.trim() {
        "" | "none" | "-" => Ok(HoldSlot(None)),
        piece => parse_piece(piece).map(|p| HoldSlot(Some(p))),
    }
}

/// The current piece and the preview.
#[derive(Clone)]
struct Queue(Vec<Piece>);

fn parse_queue(text: &str) -> Result<Queue, String> {
    let pieces = parse_pieces(text)?;
    match pieces.len() {
        0 => Err("give the current piece, then the preview, e.g. TSZLJO".to_string()),
        n if n <= 1 + MAX_PREVIEW => Ok(Queue(pieces)),
        n => Err(format!(
            "{n} pieces: the current piece and at most {MAX_PREVIEW} preview pieces"
        )),
    }
}

/// Where the field came from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Demo,
    Empty,
    Field,
    Fumen,
}

impl Source {
    fn name(self) -> &'static str {
        match self {
            Source::Demo => "demo",
            Source::Empty => "empty",
            Source::Field => "field",
            Source::Fumen => "fumen",
        }
    }
}

/// The position and how it was given.
struct Setup {
    position: Position,
    source: Source,
}

impl Setup {
    fn from_cli(cli: &Cli) -> Setup {
        let Some(Queue(queue)) = &cli.queue else {
            // No position option at all (clap asks for --queue with any other).
            let queue = parse_pieces(DEFAULT_QUEUE).expect("the default queue parses");
            let field = DEFAULT_FIELD.parse().expect("the default field parses");
            let position = Position::new(field, queue[0])
                .with_hold(Some(DEFAULT_HOLD))
                .with_preview(&queue[1..])
                .with_bag(DEFAULT_BAG.parse().expect("the default bag parses"));
            return Setup {
                position,
                source: Source::Demo,
            };
        };
        let (field, source) = match (cli.field.fumen, cli.field.field) {
            (Some(board), _) => (board, Source::Fumen),
            (None, Some(board)) => (board, Source::Field),
            (None, None) => (Board32::new(), Source::Empty),
        };
        let position = Position::new(field, queue[0])
            .with_clear_line(cli.clear_line.unwrap_or(4))
            .with_hold(cli.hold.and_then(|h| h.0))
            .with_preview(&queue[1..])
            .with_bag(cli.bag.unwrap_or(PieceSet::EMPTY));
        Setup { position, source }
    }

    /// `field: …` as the text output's first line says it.
    fn describe(&self) -> String {
        let p = &self.position;
        let what = match (self.source, p.field.is_empty()) {
            (Source::Demo, _) => "built-in demo, an L and a J in the two left columns",
            (Source::Empty, _) => "empty",
            (Source::Field, true) => "empty, from --field",
            (Source::Field, false) => "from --field",
            (Source::Fumen, true) => "empty, from --fumen",
            (Source::Fumen, false) => "from --fumen",
        };
        let hint = if self.source == Source::Demo {
            "; --queue gives your own position"
        } else {
            ""
        };
        format!("field: {what} (clear line {}){hint}", p.clear_line)
    }

    /// The position as JSON members (no braces): field rows, where they came from, clear
    /// line, hold, queue and bag.
    fn json(&self) -> String {
        let p = &self.position;
        format!(
            "\"field\":\"{}\",\"field_source\":\"{}\",\"clear_line\":{},\"hold_piece\":{},\"queue\":\"{}\",\"bag\":\"{}\"",
            p.field.to_text(p.clear_line, "/"),
            self.source.name(),
            p.clear_line,
            p.hold.map_or("null".to_string(), |h| format!("\"{h}\"")),
            letters(&p.queue()),
            p.bag
        )
    }
}

fn letters(pieces: &[Piece]) -> String {
    pieces.iter().map(|p| p.to_char()).collect()
}

fn path_text(m: &RankedMove) -> String {
    m.path.as_ref().map_or(String::new(), |p| p.to_string())
}

/// One move as a JSON object.
fn move_json(m: &RankedMove) -> String {
    let cells: Vec<String> =
        m.mv.placement
            .cells()
            .iter()
            .map(|(x, y)| format!("[{x},{y}]"))
            .collect();
    format!(
        "{{\"hold\":{},\"piece\":\"{}\",\"orientation\":\"{}\",\"cells\":[{}],\"probability\":[{},{}],\"percent\":{},\"path\":\"{}\",\"carry\":{}}}",
        m.mv.hold,
        m.mv.placement.piece(),
        m.mv.placement.orientation(),
        cells.join(","),
        m.chance.numer(),
        m.chance.denom(),
        m.chance.to_f64() * 100.0,
        path_text(m),
        m.carry.map_or("null".to_string(), |p| format!("\"{p}\""))
    )
}

/// The text output's head: where the field came from, the field, and the pieces.
fn print_position(setup: &Setup) {
    let position = &setup.position;
    let clear_line = position.clear_line;
    let bag = position.bag;
    println!("{}", setup.describe());
    println!("{}", position.field.to_text(clear_line, "\n"));
    println!();
    println!(
        "hold {}, queue {} (preview {}), bag {{{bag}}}{}, clear line {clear_line}",
        position.hold.map_or("none".to_string(), |p| p.to_string()),
        letters(&position.queue()),
        position.preview.len(),
        if bag.is_empty() || bag.len() == Piece::COUNT {
            " (a fresh bag follows)"
        } else {
            ""
        }
    );
}

/// Prints [`Solver::estimate`]'s answer: a table like the exact one, with each chance's
/// standard error. `chosen` says the estimate was not asked for (the exact answer is slow).
fn estimate(solver: &mut Solver, setup: &Setup, samples: usize, json: bool, chosen: bool) {
    let position = &setup.position;
    let started = std::time::Instant::now();
    let asked = EstimateOptions { samples, seed: 0 };
    let estimate = solver.estimate(position, asked).unwrap_or_else(|e| fail(e));
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    if json {
        let moves: Vec<String> = estimate
            .moves
            .iter()
            .map(|m| {
                let cells: Vec<String> = m
                    .mv
                    .placement
                    .cells()
                    .iter()
                    .map(|(x, y)| format!("[{x},{y}]"))
                    .collect();
                format!(
                    "{{\"hold\":{},\"piece\":\"{}\",\"orientation\":\"{}\",\"cells\":[{}],\"percent\":{},\"std_error\":{},\"path\":\"{}\"}}",
                    m.mv.hold,
                    m.mv.placement.piece(),
                    m.mv.placement.orientation(),
                    cells.join(","),
                    m.chance.value * 100.0,
                    m.chance.std_error * 100.0,
                    m.path.as_ref().map_or(String::new(), |p| p.to_string()),
                )
            })
            .collect();
        let hold_first = estimate.hold_first.map_or("null".to_string(), |h| {
            format!(
                "{{\"percent\":{},\"std_error\":{}}}",
                h.value * 100.0,
                h.std_error * 100.0
            )
        });
        println!(
            "{{{},\"engine\":\"{}\",\"estimate\":{{\"revealed\":{},\"samples\":{}}},\"percent\":{},\"std_error\":{},\"hold_first\":{hold_first},\"elapsed_ms\":{ms:.3},\"moves\":[{}]}}",
            setup.json(),
            estimate.engine.name(),
            estimate.revealed,
            estimate.samples,
            estimate.chance.value * 100.0,
            estimate.chance.std_error * 100.0,
            moves.join(",")
        );
        return;
    }
    print_position(setup);
    let percent =
        |m: pc_solver::Mean| format!("{:.2}% ± {:.2}", m.value * 100.0, m.std_error * 100.0);
    if estimate.revealed == 0 {
        println!(
            "chance of a PC with best play: {} (exact)",
            percent(estimate.chance)
        );
    } else {
        println!(
            "chance of a PC with best play, estimated: about {} (an upper estimate: each move's exact chance with {} more piece{} in view, over {} draws; ± one standard error)",
            percent(estimate.chance),
            estimate.revealed,
            if estimate.revealed == 1 { "" } else { "s" },
            estimate.samples
        );
    }
    if chosen {
        println!(
            "({} pieces of this PC are not revealed yet: the exact answer can take hours; --exact asks for it)",
            unknown_pieces(position, solver.rules().hold)
        );
    }
    println!(
        "{} moves in {ms:.1} ms, by {} on each draw",
        estimate.moves.len(),
        estimate.engine.name()
    );
    if let Some(h) = estimate.hold_first {
        println!(
            "hold first (the slot is empty), then place once the next piece shows: {}",
            percent(h)
        );
    }
    println!();
    println!(
        "{:>3}  {:5} {:8} {:>8}  {:4}  {:>16}  keys",
        "#", "piece", "orient.", "centre", "hold", "chance"
    );
    for (i, m) in estimate.moves.iter().enumerate() {
        let c = m.mv.placement.centre();
        println!(
            "{:>3}  {:5} {:8} {:>8}  {:4}  {:>16}  {}",
            i + 1,
            m.mv.placement.piece().to_string(),
            m.mv.placement.orientation().to_string(),
            format!("({},{})", c.x, c.y),
            if m.mv.hold { "yes" } else { "no" },
            percent(m.chance),
            m.path.as_ref().map_or(String::new(), |p| p.to_string())
        );
    }
}

/// Exits with a usage error: the message, then how the queue and bag were read.
fn bad_position(error: SolverError, position: &Position) -> ! {
    let bag = if position.bag.is_empty() || position.bag.len() == Piece::COUNT {
        format!("{{{}}}: a fresh bag follows the queue", position.bag)
    } else {
        format!("{{{}}}: still to come after the queue", position.bag)
    };
    let preview = match position.preview.len() {
        0 => "no preview".to_string(),
        1 => format!("preview piece 1 ({})", letters(&position.preview)),
        n => format!("preview pieces 1 to {n} ({})", letters(&position.preview)),
    };
    let message = format!(
        "{error}\n  queue {}: the current piece {}, {preview}; bag {bag}",
        letters(&position.queue()),
        position.current
    );
    Cli::command()
        .error(ErrorKind::ValueValidation, message)
        .exit()
}

fn main() {
    let cli = Cli::parse();
    let json = cli.format.json();
    if cli.play.is_some() && json {
        Cli::command()
            .error(
                ErrorKind::ArgumentConflict,
                "--play prints text: leave out --format json",
            )
            .exit();
    }
    let setup = Setup::from_cli(&cli);
    let position = setup.position.clone();
    if let Err(e) = position.check_bag() {
        bad_position(e, &position);
    }
    let rules = cli.rules.rules(cli.hold_rule.allows_hold());
    let options = SolverOptions {
        preview: position.preview.len(),
        two_line: cli.two_line,
        memory_limit: cli.memory.saturating_mul(1 << 20),
        ..SolverOptions::default()
    };
    let mut solver =
        Solver::with_options(rules.clone(), options.clone()).unwrap_or_else(|e| fail(e));
    // The graph only for the positions the searches take long on (three pieces unknown or
    // more), which its walk answers or whose depth-first search it prunes: loading it costs
    // more than the other answers take.
    let unknown = unknown_pieces(&position, rules.hold);
    let worth_it = unknown >= 3;
    if worth_it && solver.graph_could_help(&position).unwrap_or(false) {
        // The graph's walks (every unknown piece revealed before the first is placed, or a
        // window of the pieces in view) follow the graph's edges and need none of the tables
        // of the largest layers; the depth-first search looks fields up in them one at a
        // time, so it has them made beside the load.
        let walked = solver.graph_could_answer(&position).unwrap_or(false);
        if let Some(graph) = cli.graph.load(&rules, &cli.rules.build_hint(), !walked) {
            // The walk of five unknown and the window walk of four in view read the classes
            // of the fields four pieces from a PC.
            if unknown >= 5 && (walked || position.queue().len() == 4) {
                cli.graph.prepare_five_unknown(&rules, &graph);
            }
            let with_graph = SolverOptions {
                graph: Some(graph),
                ..options
            };
            solver = Solver::with_options(rules.clone(), with_graph).unwrap_or_else(|e| fail(e));
        }
    }
    let slow_to_answer = solver.slow_to_answer(&position).unwrap_or(false);
    let samples =
        cli.estimate
            .or((slow_to_answer && !cli.exact && !cli.best && cli.play.is_none()).then_some(32));
    if let Some(samples) = samples {
        estimate(&mut solver, &setup, samples, json, cli.estimate.is_none());
        return;
    }
    let slow = Slow::new(&solver, &position, cli.time_limit, json);

    if let Some(seed) = cli.play {
        println!("{}", setup.describe());
        play(&mut solver, position, seed);
        return;
    }
    if cli.best {
        let started = std::time::Instant::now();
        let best = slow.run(&mut solver, |s| s.best_move(&position));
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        if json {
            println!(
                "{{{},\"engine\":\"{}\",\"probability\":[{},{}],\"percent\":{},\"hold_first\":{},\"best\":{},\"elapsed_ms\":{ms:.3}}}",
                setup.json(),
                best.engine.name(),
                best.chance.numer(),
                best.chance.denom(),
                best.chance.to_f64() * 100.0,
                best.hold_first,
                best.best.as_ref().map_or("null".to_string(), move_json)
            );
            return;
        }
        let action = match (&best.best, best.hold_first) {
            (_, true) => "hold first, place after the next piece shows".to_string(),
            (Some(m), false) => format!(
                "{} {} at ({},{}){}, keys {}",
                m.mv.placement.piece(),
                m.mv.placement.orientation(),
                m.mv.placement.centre().x,
                m.mv.placement.centre().y,
                if m.mv.hold { " with hold" } else { "" },
                path_text(m)
            ),
            (None, false) => "no legal move".to_string(),
        };
        println!("{}", setup.describe());
        println!(
            "chance {} = {:.2}%, best: {action} ({ms:.1} ms, {})",
            best.chance,
            best.chance.to_f64() * 100.0,
            best.engine.name()
        );
        return;
    }
    let started = std::time::Instant::now();
    let recommendation = slow.run(&mut solver, |s| s.recommend(&position));
    let elapsed = started.elapsed();
    let chance = recommendation.chance;

    if json {
        let entries: Vec<String> = recommendation.moves.iter().map(move_json).collect();
        let line = if recommendation.line.is_empty() {
            "null".to_string()
        } else {
            format!(
                "\"{}\"",
                pc_fumen::Fumen::from_placements(&position.field, &recommendation.line)
            )
        };
        let hold_first = recommendation.hold_first.map_or("null".to_string(), |h| {
            format!("[{},{}]", h.numer(), h.denom())
        });
        println!(
            "{{{},\"engine\":\"{}\",\"probability\":[{},{}],\"percent\":{},\"hold_first\":{hold_first},\"elapsed_ms\":{:.3},\"moves\":[{}],\"best_line\":{line}}}",
            setup.json(),
            recommendation.engine.name(),
            chance.numer(),
            chance.denom(),
            chance.to_f64() * 100.0,
            elapsed.as_secs_f64() * 1000.0,
            entries.join(",")
        );
        return;
    }

    print_position(&setup);
    println!(
        "chance of a PC with best play: {chance} = {:.2}%",
        chance.to_f64() * 100.0
    );
    println!(
        "{} moves ranked in {:.1} ms by {} ({} MiB of tables)",
        recommendation.moves.len(),
        elapsed.as_secs_f64() * 1000.0,
        match recommendation.engine {
            Engine::Graph => "the graph's walk",
            Engine::KnownQueue => "the known-queue search",
            Engine::Layered => "the layered search",
            Engine::DepthFirst => "the depth-first search",
        },
        solver.memory_used() >> 20
    );
    if let Some(h) = recommendation.hold_first {
        // Holding into an empty slot shows one more piece before the placement is chosen,
        // so that action can be worth more than any placement fixed in advance.
        println!(
            "hold first (the slot is empty), then place once the next piece shows: {h} = {:.2}%{}",
            h.to_f64() * 100.0,
            if recommendation.moves.first().is_some_and(|m| m.chance < h) {
                " (best)"
            } else {
                ""
            }
        );
    }
    println!();
    println!(
        "{:>3}  {:5} {:8} {:>8}  {:4}  {:>13} {:>8}  {:5}  keys",
        "#", "piece", "orient.", "centre", "hold", "chance", "%", "carry"
    );
    for (i, m) in recommendation.moves.iter().enumerate() {
        let c = m.mv.placement.centre();
        println!(
            "{:>3}  {:5} {:8} {:>8}  {:4}  {:>13} {:>7.2}%  {:5}  {}",
            i + 1,
            m.mv.placement.piece().to_string(),
            m.mv.placement.orientation().to_string(),
            format!("({},{})", c.x, c.y),
            if m.mv.hold { "yes" } else { "no" },
            m.chance.to_string(),
            m.chance.to_f64() * 100.0,
            m.carry.map_or("-".to_string(), |p| p.to_string()),
            path_text(m)
        );
    }
    if !recommendation.line.is_empty() {
        println!();
        println!(
            "best line (one continuation): https://harddrop.com/fumen/?{}",
            pc_fumen::Fumen::from_placements(&position.field, &recommendation.line)
        );
    }
}

/// Plays the best move until the PC, revealing pieces of the bag at random (seeded), with
/// one solver for the whole PC, and prints each decision and its time.
fn play(solver: &mut Solver, mut position: Position, seed: u64) {
    let mut state = seed;
    let mut later_ms: Vec<f64> = Vec::new();
    for turn in 1.. {
        let started = std::time::Instant::now();
        let r = solver.recommend(&position).unwrap_or_else(|e| fail(e));
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        if turn > 1 {
            later_ms.push(ms);
        }
        let Some(m) = r.moves.first() else {
            println!("no legal move");
            return;
        };
        let queue = letters(&position.queue());
        let hold = position.hold.map_or('-', |p| p.to_char());
        let c = m.mv.placement.centre();
        let hold_first = r.hold_first.is_some_and(|h| h > m.chance);
        let action = if hold_first {
            "hold first, place after the next piece shows".to_string()
        } else {
            format!(
                "play {} {} at ({},{}){}",
                m.mv.placement.piece(),
                m.mv.placement.orientation(),
                c.x,
                c.y,
                if m.mv.hold { " with hold" } else { "" }
            )
        };
        println!(
            "{turn:>2}. hold {hold} queue {queue:7} chance {:>9} {:>7.2}%  {action}  {ms:.1} ms",
            r.chance.to_string(),
            r.chance.to_f64() * 100.0,
        );
        if r.chance.is_zero() {
            println!("no perfect clear is possible any more");
            break;
        }
        if hold_first {
            let piece = draw(&mut state, position.bag, 1)[0];
            position = position.after_hold(piece).unwrap_or_else(|e| fail(e));
            continue;
        }
        let count = if m.mv.hold && position.hold.is_none() {
            2
        } else {
            1
        };
        let revealed = draw(&mut state, position.bag, count);
        position = position.after(m, &revealed).unwrap_or_else(|e| fail(e));
        if position.field.is_empty() {
            println!("perfect clear after {turn} decisions");
            break;
        }
    }
    if !later_ms.is_empty() {
        later_ms.sort_by(f64::total_cmp);
        println!(
            "later decisions (solver reused): median {:.1} ms, max {:.1} ms over {}",
            later_ms[later_ms.len() / 2],
            later_ms[later_ms.len() - 1],
            later_ms.len()
        );
    }
}

/// `count` pieces drawn at random from the bag (a fresh one when it runs out), from a
/// xorshift64* stream: fixed and dependency-free, for reproducible games.
fn draw(state: &mut u64, mut bag: PieceSet, count: usize) -> Vec<Piece> {
    let mut drawn = Vec::new();
    for _ in 0..count {
        if bag.is_empty() {
            bag = PieceSet::ALL;
        }
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        let pick = (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % bag.len();
        let piece = bag.iter().nth(pick).expect("pick < len");
        bag.remove(piece);
        drawn.push(piece);
    }
    drawn
}

/// How a question the depth-first search answers is run: in steps of some thousands of
/// decisions, each about a second (what a step finished stays in the solver's tables, so
/// the next goes on from there), with its progress on stderr when that is a terminal, and
/// a time limit.
struct Slow {
    /// Whether the depth-first search answers (the other engines are not stepped).
    stepped: bool,
    limit: Option<std::time::Duration>,
    shown: bool,
}

impl Slow {
    /// Decisions of the first step.
    const FIRST_STEP: u64 = 2_000;

    fn new(solver: &Solver, position: &Position, limit: Option<f64>, json: bool) -> Slow {
        let stepped = solver.engine_for(position).ok() == Some(Engine::DepthFirst);
        let shown = stepped && pc_examples::show_progress(json, false);
        if shown {
            eprintln!(
                "note: {} pieces of this PC are not revealed yet and the depth-first search \
                 answers it: that can take long (see --help; --time-limit stops it)",
                unknown_pieces(position, solver.rules().hold)
            );
        }
        Slow {
            stepped,
            limit: limit.map(std::time::Duration::from_secs_f64),
            shown,
        }
    }

    /// `ask`, stepped when the depth-first search answers.
    fn run<T>(
        &self,
        solver: &mut Solver,
        ask: impl Fn(&mut Solver) -> Result<T, SolverError>,
    ) -> T {
        if !self.stepped {
            return ask(solver).unwrap_or_else(|e| fail(e));
        }
        let started = std::time::Instant::now();
        let spinner = pc_examples::spinner("searching", self.shown);
        let mut step = Self::FIRST_STEP;
        let mut searched = 0u64;
        loop {
            let step_started = std::time::Instant::now();
            solver.set_work_limit(Some(step));
            match ask(solver) {
                Ok(found) => {
                    spinner.finish_and_clear();
                    solver.set_work_limit(None);
                    return found;
                }
                Err(SolverError::WorkLimit(_)) => {
                    searched += step;
                    // Steps of about a second.
                    if step_started.elapsed().as_secs_f64() < 0.5 {
                        step *= 2;
                    }
                    let elapsed = started.elapsed();
                    spinner.set_message(format!(
                        "{searched} decisions searched in {:.0} s, {} MiB of tables",
                        elapsed.as_secs_f64(),
                        solver.memory_used() >> 20
                    ));
                    if self.limit.is_some_and(|limit| elapsed >= limit) {
                        spinner.finish_and_clear();
                        fail(format!(
                            "stopped at --time-limit after {:.0} s and {searched} decisions, without an answer",
                            elapsed.as_secs_f64()
                        ));
                    }
                }
                Err(e) => fail(e),
            }
        }
    }
}

/// The pieces of the position's PC not revealed yet: needed (one more with hold) less the
/// hold and the queue.
fn unknown_pieces(position: &Position, hold: bool) -> usize {
    let needed = pc_solver::PcField::new(position.field, position.clear_line)
        .map_or(0, |f| f.pieces_needed() as usize);
    let in_view = position.queue().len() + (hold && position.hold.is_some()) as usize;
    (needed + hold as usize).saturating_sub(in_view)
}
