//! Ranks every legal move of a position by its exact chance of a perfect clear, with the
//! preview a player has: one new piece is revealed each time a piece is used.
//!
//! ```sh
//! cargo run --release --example recommend
//! cargo run --release --example recommend -- --field '##.....###/###....###/####...###/###....###' --hold I --queue TLOSJ --bag Z
//! ```
//!
//! Options: `--fumen F` (or `-t`) or `--field ROWS`; `--hold X|none`; `--queue` (the current
//! piece, then the preview; the preview length is the queue's length minus one, 0 to 6);
//! `--bag` (the pieces still to come in the current bag after the queue; empty or all seven:
//! a fresh bag follows); `--clear-line N` (4); `--two-line` (2-line PCs count too); `-H/--hold-rule
//! use|avoid`; `-K/--kicks srs|srs+|none|PATH`; `-d/--drop softdrop|harddrop|180`;
//! `--memory MiB` (the solver's table budget, 512); `--format text|json`; `--best` (only the
//! best move, faster: other moves are cut early); `--play SEED`
//! (play the best move until the PC, the next pieces drawn at random from the bag).
//!
//! The `carry` column (`"carry"` in JSON): once every piece of the PC is in view, the
//! piece a move can leave in hold for the next PC, the one it prefers; moves that tie on
//! the chance are ranked by it ([`pc_solver::carry::carry_rank`]).
//!
//! The default position is a decision early in the first PC of a game: an L and a J fill
//! the two left columns, O is held, T S Z I end the first bag and L J open the second.

use pc_bag::PieceSet;
use pc_bitboard::Board32;
use pc_examples::{Args, fail, field, print_help, rules};
use pc_solver::{Piece, Position, RankedMove, Solver};

/// The default position (see the module docs).
const DEFAULT_FIELD: &str = "##......../##......../##......../##........";
const DEFAULT_HOLD: &str = "O";
const DEFAULT_QUEUE: &str = "TSZILJ";
const DEFAULT_BAG: &str = "IOSTZ";

fn pieces(flag: &str, text: &str) -> Vec<Piece> {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .map(|c| {
            Piece::from_char(c).unwrap_or_else(|| fail(format!("{flag}: {c:?} is not a piece")))
        })
        .collect()
}

fn path_text(m: &RankedMove) -> String {
    m.path.as_ref().map_or(String::new(), |p| p.to_string())
}

fn main() {
    let args = Args::from_env();
    if args.flag(&["-h", "--help"]) {
        print_help(include_str!("recommend.rs"));
        return;
    }
    let custom = args.value(&["--queue"]).is_some();
    let board: Board32 = field(&args)
        .unwrap_or_else(|e| fail(e))
        .unwrap_or_else(|| DEFAULT_FIELD.parse().expect("the default field parses"));
    let clear_line: u32 = args
        .value(&["--clear-line", "-c"])
        .unwrap_or("4")
        .parse()
        .unwrap_or_else(|_| fail("--clear-line takes a number"));
    let hold_rule = match args.value(&["-H", "--hold-rule"]).unwrap_or("use") {
        "use" => true,
        "avoid" => false,
        other => fail(format!("--hold-rule: {other:?} is not use or avoid")),
    };
    let rules = rules(&args, hold_rule).unwrap_or_else(|e| fail(e));
    let queue = pieces("--queue", args.value(&["--queue"]).unwrap_or(DEFAULT_QUEUE));
    let default_hold = if custom { "none" } else { DEFAULT_HOLD };
    let held = match args.value(&["--hold"]).or(Some(default_hold)) {
        None | Some("none") | Some("") => None,
        Some(h) => match pieces("--hold", h)[..] {
            [p] => Some(p),
            _ => fail("--hold takes one piece or none"),
        },
    };
    let bag_text = args
        .value(&["--bag"])
        .unwrap_or(if custom { "" } else { DEFAULT_BAG });
    let bag: PieceSet = bag_text
        .parse()
        .unwrap_or_else(|e| fail(format!("--bag: {e}")));
    let memory_mib: usize = args
        .value(&["--memory"])
        .unwrap_or("512")
        .parse()
        .unwrap_or_else(|_| fail("--memory takes a number of MiB"));
    let Some((&current, preview)) = queue.split_first() else {
        fail("--queue needs at least the current piece")
    };
    let position = Position::new(board, current)
        .with_clear_line(clear_line)
        .with_hold(held)
        .with_preview(preview)
        .with_bag(bag);
    let mut solver = Solver::new(rules)
        .with_preview(preview.len())
        .unwrap_or_else(|e| fail(e))
        .with_two_line(args.flag(&["--two-line"]))
        .with_memory_limit(memory_mib << 20);

    if let Some(seed) = args.value(&["--play"]) {
        let seed: u64 = seed
            .parse()
            .unwrap_or_else(|_| fail("--play takes a seed (a number)"));
        play(&mut solver, position, seed);
        return;
    }
    if args.flag(&["--best"]) {
        let started = std::time::Instant::now();
        let best = solver.best_move(&position).unwrap_or_else(|e| fail(e));
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let action = match (&best.best, best.hold_first) {
            (_, true) => "hold first, place after the next piece shows".to_string(),
            (Some(m), false) => format!(
                "{} {} at ({},{}){}, keys {}",
                m.placement.piece(),
                m.placement.orientation(),
                m.placement.centre().x,
                m.placement.centre().y,
                if m.hold { " with hold" } else { "" },
                path_text(m)
            ),
            (None, false) => "no legal move".to_string(),
        };
        println!(
            "chance {} = {:.2}%, best: {action} ({ms:.1} ms)",
            best.chance,
            best.chance.to_f64() * 100.0
        );
        return;
    }
    let started = std::time::Instant::now();
    let recommendation = solver.recommend(&position).unwrap_or_else(|e| fail(e));
    let elapsed = started.elapsed();
    let chance = recommendation.chance;

    if args.value(&["--format"]) == Some("json") {
        let entries: Vec<String> = recommendation
            .moves
            .iter()
            .map(|m| {
                let cells: Vec<String> = m
                    .placement
                    .cells()
                    .iter()
                    .map(|(x, y)| format!("[{x},{y}]"))
                    .collect();
                format!(
                    "{{\"hold\":{},\"piece\":\"{}\",\"orientation\":\"{}\",\"cells\":[{}],\"probability\":[{},{}],\"percent\":{},\"path\":\"{}\",\"carry\":{}}}",
                    m.hold,
                    m.placement.piece(),
                    m.placement.orientation(),
                    cells.join(","),
                    m.chance.numer(),
                    m.chance.denom(),
                    m.chance.to_f64() * 100.0,
                    path_text(m),
                    m.carry
                        .map_or("null".to_string(), |p| format!("\"{p}\""))
                )
            })
            .collect();
        let line = if recommendation.line.is_empty() {
            "null".to_string()
        } else {
            format!("\"{}\"", recommendation.line_fumen(&position))
        };
        let hold_first = recommendation.hold_first.map_or("null".to_string(), |h| {
            format!("[{},{}]", h.numer(), h.denom())
        });
        println!(
            "{{\"probability\":[{},{}],\"percent\":{},\"hold_first\":{hold_first},\"elapsed_ms\":{:.3},\"moves\":[{}],\"best_line\":{line}}}",
            chance.numer(),
            chance.denom(),
            chance.to_f64() * 100.0,
            elapsed.as_secs_f64() * 1000.0,
            entries.join(",")
        );
        return;
    }

    println!("{}", board.to_text(clear_line, "\n"));
    println!();
    let queue_text: String = queue.iter().map(|p| p.to_char()).collect();
    println!(
        "hold {}, queue {queue_text} (preview {}), bag {{{bag_text}}}, clear line {clear_line}",
        held.map_or("none".to_string(), |p| p.to_string()),
        preview.len()
    );
    println!(
        "chance of a PC with best play: {chance} = {:.2}%",
        chance.to_f64() * 100.0
    );
    println!(
        "{} moves ranked in {:.1} ms ({} MiB of tables)",
        recommendation.moves.len(),
        elapsed.as_secs_f64() * 1000.0,
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
        let c = m.placement.centre();
        println!(
            "{:>3}  {:5} {:8} {:>8}  {:4}  {:>13} {:>7.2}%  {:5}  {}",
            i + 1,
            m.placement.piece().to_string(),
            m.placement.orientation().to_string(),
            format!("({},{})", c.x, c.y),
            if m.hold { "yes" } else { "no" },
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
            recommendation.line_fumen(&position)
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
        let queue: String = position.queue().iter().map(|p| p.to_char()).collect();
        let hold = position.hold.map_or('-', |p| p.to_char());
        let c = m.placement.centre();
        let hold_first = r.hold_first.is_some_and(|h| h > m.chance);
        let action = if hold_first {
            "hold first, place after the next piece shows".to_string()
        } else {
            format!(
                "play {} {} at ({},{}){}",
                m.placement.piece(),
                m.placement.orientation(),
                c.x,
                c.y,
                if m.hold { " with hold" } else { "" }
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
        let count = if m.hold && position.hold.is_none() {
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
