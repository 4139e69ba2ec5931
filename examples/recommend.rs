//! Ranks every legal move of a position by its chance of a perfect clear.
//!
//! ```sh
//! cargo run --release --example recommend
//! cargo run --release --example recommend -- --field '##.....###/###....###/####...###/###....###' --queue ITLOS --bag JZ
//! ```
//!
//! Options: `--fumen F` or `--field ROWS`; `--hold X|none`; `--queue` (current piece, then
//! the preview); `--bag` (pieces still to come in the current bag after the queue; empty: a
//! fresh bag follows); `--clear-line N` (4); `-K/--kicks srs|srs+|none|PATH`;
//! `-d/--drop softdrop|harddrop|180`; `--format text|json`.
//!
//! This version ranks moves by the **clairvoyant** chance: the bag-weighted share of the
//! continuations for which a perfect clear exists when the whole sequence is known. It is
//! exact when the queue shows every piece the PC needs (as in the default position) and an
//! upper bound otherwise; the exact chance with a limited preview is the next milestone of
//! `pc-solver`.

use pc_bag::{BagState, PieceSet, Ratio};
use pc_bitboard::Board32;
use pc_examples::{Args, fail, field, print_help, rules};
use pc_solver::percent::{bag_piece, srs_piece};
use pc_solver::{PcField, PcProblem, Rules, Searcher, fumen};
use pc_srs::{Piece, Placement};

/// The default position: the PCO field, nothing held, I T L O S seen, J and Z still in the bag.
const DEFAULT_FIELD: &str = "##.....###/###....###/####...###/###....###";
const DEFAULT_QUEUE: &str = "ITLOS";
const DEFAULT_BAG: &str = "JZ";

struct Move {
    hold_used: bool,
    placement: Placement,
    path: String,
    chance: Ratio,
    line: Vec<Placement>,
}

fn pieces(text: &str) -> Vec<Piece> {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .map(|c| Piece::from_char(c).unwrap_or_else(|| fail(format!("{c:?} is not a piece"))))
        .collect()
}

/// The clairvoyant chance after a move: over every continuation of the bag long enough for
/// the PC, the probability-weighted share that can clear with the sequence known.
fn chance_after(
    field: PcField,
    rules: &Rules,
    hold: Option<Piece>,
    queue: &[Piece],
    bag: BagState,
) -> (Ratio, Vec<Placement>) {
    if field.is_clear() {
        return (Ratio::ONE, vec![]);
    }
    let problem = PcProblem::new(*field.board(), field.height(), rules.clone())
        .expect("a field reached by play is valid");
    let mut searcher = Searcher::new(&problem);
    let wanted = problem.pieces_needed() as usize + rules.hold as usize;
    let known = queue.len() + hold.is_some() as usize;
    let unknown = wanted.saturating_sub(known);
    let mut total = Ratio::ZERO;
    let mut line = vec![];
    let continuations = bag.continuations(unknown).unwrap_or_else(|e| fail(e));
    for (seq, p) in continuations {
        let mut q = queue.to_vec();
        q.extend(seq.iter().map(srs_piece));
        if let Some(solution) = searcher.solution(hold, &q) {
            total = total
                .checked_add(p)
                .unwrap_or_else(|| fail("probability overflow"));
            if line.is_empty() {
                line = solution.placements();
            }
        }
    }
    (total, line)
}

fn main() {
    let args = Args::from_env();
    if args.flag(&["-h", "--help"]) {
        print_help(include_str!("recommend.rs"));
        return;
    }
    let board: Board32 = field(&args)
        .unwrap_or_else(|e| fail(e))
        .unwrap_or_else(|| DEFAULT_FIELD.parse().unwrap());
    let clear_line: u32 = args
        .value(&["--clear-line", "-c"])
        .unwrap_or("4")
        .parse()
        .unwrap_or_else(|_| fail("--clear-line takes a number"));
    let rules = rules(&args, true).unwrap_or_else(|e| fail(e));
    let queue = pieces(args.value(&["--queue"]).unwrap_or(DEFAULT_QUEUE));
    let held = match args.value(&["--hold"]) {
        None | Some("none") | Some("") => None,
        Some(h) => Some(
            pieces(h)
                .first()
                .copied()
                .unwrap_or_else(|| fail("--hold takes one piece or none")),
        ),
    };
    let bag_text = args
        .value(&["--bag"])
        .unwrap_or(if args.value(&["--queue"]).is_some() {
            ""
        } else {
            DEFAULT_BAG
        });
    let bag = BagState::from_remaining(
        bag_text
            .parse::<PieceSet>()
            .unwrap_or_else(|e| fail(format!("--bag: {e}"))),
    );
    let problem = PcProblem::new(board, clear_line, rules.clone()).unwrap_or_else(|e| fail(e));
    let Some((&current, preview)) = queue.split_first() else {
        fail("--queue needs at least the current piece")
    };
    let _ = bag_piece(current);

    let generator = rules.generator();
    let field = *problem.field();
    let started = std::time::Instant::now();
    let mut moves: Vec<Move> = vec![];
    // Play the current piece, or swap it with the hold slot (an empty slot brings the next piece).
    let mut options = vec![(current, held, preview.to_vec(), false)];
    match held {
        Some(h) if h != current => options.push((h, Some(current), preview.to_vec(), true)),
        None if !preview.is_empty() => {
            options.push((preview[0], Some(current), preview[1..].to_vec(), true))
        }
        _ => {}
    }
    for (piece, hold_after, rest, hold_used) in options {
        for placement in generator
            .placements(field.board(), piece, field.height())
            .unwrap_or_else(|e| fail(e))
            .iter()
        {
            let path = generator
                .path(field.board(), &placement, field.height())
                .ok()
                .flatten()
                .map(|p| p.to_string())
                .unwrap_or_default();
            let (chance, line) =
                chance_after(field.place(&placement), &rules, hold_after, &rest, bag);
            moves.push(Move {
                hold_used,
                placement,
                path,
                chance,
                line,
            });
        }
    }
    // Best first; ties: fewer keys.
    moves.sort_by(|a, b| {
        b.chance
            .cmp(&a.chance)
            .then(a.path.len().cmp(&b.path.len()))
    });
    let elapsed = started.elapsed();
    let best = moves.first().map_or(Ratio::ZERO, |m| m.chance);

    if args.value(&["--format"]) == Some("json") {
        let entries: Vec<String> = moves
            .iter()
            .map(|m| {
                let cells: Vec<String> = m.placement.cells().iter().map(|(x, y)| format!("[{x},{y}]")).collect();
                format!(
                    "{{\"hold\":{},\"piece\":\"{}\",\"orientation\":\"{}\",\"cells\":[{}],\"probability\":[{},{}],\"path\":\"{}\"}}",
                    m.hold_used, m.placement.piece(), m.placement.orientation(), cells.join(","), m.chance.numer(), m.chance.denom(), m.path
                )
            })
            .collect();
        println!(
            "{{\"probability\":[{},{}],\"kind\":\"clairvoyant\",\"moves\":[{}]}}",
            best.numer(),
            best.denom(),
            entries.join(",")
        );
        return;
    }
    println!("{}", board.to_text(clear_line, "\n"));
    println!();
    let qtext: String = queue.iter().map(|p| p.to_char()).collect();
    println!(
        "hold {}, queue {qtext}, bag {{{bag_text}}}, clear line {clear_line}",
        held.map_or("none".to_string(), |p| p.to_string())
    );
    println!(
        "chance of a PC: {} = {:.2}% (clairvoyant: exact when the queue covers the PC)",
        best,
        best.to_f64() * 100.0
    );
    println!(
        "{} moves ranked in {:.1} ms",
        moves.len(),
        elapsed.as_secs_f64() * 1000.0
    );
    println!();
    println!(
        "{:>3}  {:5} {:8} {:>8}  {:4}  {:>9} {:>8}  keys",
        "#", "piece", "orient.", "centre", "hold", "chance", "%"
    );
    for (i, m) in moves.iter().enumerate() {
        let c = m.placement.centre();
        println!(
            "{:>3}  {:5} {:8} {:>8}  {:4}  {:>9} {:>7.2}%  {}",
            i + 1,
            m.placement.piece().to_string(),
            m.placement.orientation().to_string(),
            format!("({},{})", c.x, c.y),
            if m.hold_used { "yes" } else { "no" },
            m.chance.to_string(),
            m.chance.to_f64() * 100.0,
            m.path
        );
    }
    if let Some(m) = moves.first().filter(|m| m.chance > Ratio::ZERO) {
        let mut line = vec![m.placement];
        line.extend(m.line.iter().copied());
        let pages = fumen::Fumen::from_placements(field.board(), &line);
        println!();
        println!("best line: https://harddrop.com/fumen/?{pages}");
    }
}
