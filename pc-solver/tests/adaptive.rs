//! The exact chance with a limited preview, checked against a plain expectimax written
//! straight from the definition, against the clairvoyant chance, and against itself
//! (the value of a position is the best move's average over the revealed piece).

use pc_bag::{BagState, PieceSet, Ratio};
use pc_bitboard::Board32;
use pc_solver::{
    Engine, PcField, PcGraph, Position, Rules, Searcher, Solver, SolverError, SolverOptions,
};
use pc_srs::{MoveGenerator, Piece};
use proptest::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;

fn pieces(s: &str) -> Vec<Piece> {
    s.chars().map(|c| Piece::from_char(c).unwrap()).collect()
}

type StateKey = (Board32, u32, Option<Piece>, Vec<Piece>, PieceSet, bool);

/// The definition, with nothing clever: play every move, reveal every piece, recurse
/// (remembering positions already valued, which changes no value).
struct BruteForce<'r> {
    generator: MoveGenerator<'r>,
    hold: bool,
    two_line: bool,
    memo: RefCell<HashMap<StateKey, Ratio>>,
}

impl BruteForce<'_> {
    fn drawable(bag: PieceSet) -> PieceSet {
        if bag.is_empty() { PieceSet::ALL } else { bag }
    }

    /// Places a piece and clears full rows: the new field, its clear line, and whether it
    /// is a perfect clear.
    fn place(&self, field: &Board32, line: u32, p: &pc_srs::Placement) -> (Board32, u32, bool) {
        let mut board = *field;
        for (x, y) in p.cells() {
            board.fill(x as usize, y as u32);
        }
        let cleared = board.clear_full_rows().count_ones();
        let line = line - cleared;
        let pc = line == 0 || (self.two_line && board.is_empty());
        (board, line, pc)
    }

    /// The value of placing `piece` now, then revealing a piece.
    fn place_then_reveal(
        &self,
        field: &Board32,
        line: u32,
        piece: Piece,
        hold: Option<Piece>,
        rest: &[Piece],
        bag: PieceSet,
    ) -> Ratio {
        let moves = self.generator.placements(field, piece, line).unwrap();
        let mut best = Ratio::ZERO;
        for p in moves.iter() {
            let (next, next_line, pc) = self.place(field, line, &p);
            let v = if pc {
                Ratio::ONE
            } else {
                self.reveal(&next, next_line, hold, rest, bag, true)
            };
            best = best.max(v);
        }
        best
    }

    /// The average over the next revealed piece of the decision that follows.
    fn reveal(
        &self,
        field: &Board32,
        line: u32,
        hold: Option<Piece>,
        rest: &[Piece],
        bag: PieceSet,
        can_hold: bool,
    ) -> Ratio {
        let drawable = Self::drawable(bag);
        let share = Ratio::new(1, drawable.len() as u64).unwrap();
        let mut sum = Ratio::ZERO;
        for b in drawable.iter() {
            let mut queue = rest.to_vec();
            queue.push(b);
            sum = sum + self.decide(field, line, hold, &queue, drawable.without(b), can_hold);
        }
        sum * share
    }

    fn decide(
        &self,
        field: &Board32,
        line: u32,
        hold: Option<Piece>,
        queue: &[Piece],
        bag: PieceSet,
        can_hold: bool,
    ) -> Ratio {
        let key = (*field, line, hold, queue.to_vec(), bag, can_hold);
        if let Some(&v) = self.memo.borrow().get(&key) {
            return v;
        }
        let (current, rest) = queue.split_first().unwrap();
        let mut best = self.place_then_reveal(field, line, *current, hold, rest, bag);
        if self.hold && can_hold {
            match hold {
                Some(h) => {
                    let v = self.place_then_reveal(field, line, h, Some(*current), rest, bag);
                    best = best.max(v);
                }
                None => {
                    let v = self.reveal(field, line, Some(*current), rest, bag, false);
                    best = best.max(v);
                }
            }
        }
        self.memo.borrow_mut().insert(key, best);
        best
    }
}

fn brute_force(rules: &Rules, two_line: bool, position: &Position) -> Ratio {
    let brute = BruteForce {
        generator: rules.generator(),
        hold: rules.hold,
        two_line,
        memo: RefCell::new(HashMap::new()),
    };
    let hold = if rules.hold { position.hold } else { None };
    brute.decide(
        &position.field,
        position.clear_line,
        hold,
        &position.queue(),
        position.bag,
        true,
    )
}

fn solver(rules: &Rules, preview: usize, two_line: bool) -> Solver {
    Solver::with_options(rules.clone(), options(preview, two_line)).unwrap()
}

fn options(preview: usize, two_line: bool) -> SolverOptions {
    SolverOptions {
        preview,
        two_line,
        ..SolverOptions::default()
    }
}

fn position(field: &str, line: u32, hold: &str, queue: &str, bag: &str) -> Position {
    let queue = pieces(queue);
    Position::new(field.parse().unwrap(), queue[0])
        .with_clear_line(line)
        .with_hold(pieces(hold).first().copied())
        .with_preview(&queue[1..])
        .with_bag(bag.parse().unwrap())
}

/// Small positions: 2-line PCs and fields with 2 to 4 pieces left.
const CASES: &[(&str, u32, &str, &str, &str)] = &[
    ("", 2, "", "IO", "JLSTZ"),
    ("", 2, "", "TL", "IJOSZ"),
    ("", 2, "O", "IJ", "LSTZ"),
    ("", 2, "", "LJO", "ISTZ"),
    ("", 2, "I", "T", "JLOSZ"),
    ("", 2, "S", "Z", ""),
    (
        "####....##/####....##/####....##/####....##",
        4,
        "",
        "OO",
        "IJLSTZ",
    ),
    (
        "####....##/####....##/####....##/####....##",
        4,
        "I",
        "T",
        "JLOSZ",
    ),
    (
        "####....##/####....##/####....##/####....##",
        4,
        "",
        "LJ",
        "IOSTZ",
    ),
    (
        "######..##/#####...##/####....##/###...####",
        4,
        "T",
        "L",
        "IJOSZ",
    ),
    ("##......##/##......##", 2, "T", "I", "JLOSZ"),
    ("###....###/###....###", 2, "", "T", "IJLOSZ"),
    (
        "..########/..########/..########/..########",
        4,
        "",
        "O",
        "IJLSTZ",
    ),
    ("........##/........##", 2, "", "IL", "JOSTZ"),
];

fn cases() -> impl Iterator<Item = Position> {
    CASES.iter().map(|&(f, l, h, q, b)| position(f, l, h, q, b))
}

#[test]
fn equals_a_plain_expectimax_on_small_positions() {
    let mut checked = 0;
    let mut non_trivial = 0;
    for rules in [Rules::default(), Rules::without_hold()] {
        for base in cases() {
            let preview = base.preview.len();
            let mut s = solver(&rules, preview, false);
            let got = s.chance(&base).unwrap();
            let want = brute_force(&rules, false, &base);
            assert_eq!(got, want, "{base:?} hold {}", rules.hold);
            // The ranking agrees on the position's value.
            let r = s.recommend(&base).unwrap();
            assert_eq!(r.chance, want);
            checked += 1;
            if !want.is_zero() && !want.is_one() {
                non_trivial += 1;
            }
        }
    }
    assert!(checked >= 24, "{checked}");
    // The cases must exercise real chance nodes, not only 0 and 1.
    assert!(non_trivial >= 8, "{non_trivial}");
}

#[test]
fn two_line_pcs_count_when_asked() {
    // Clear line 4 but the two bottom rows are one O from a 2-line PC.
    let base = position("######..##/######..##", 4, "", "TO", "IJLSZ");
    let with = solver(&Rules::default(), 1, true).chance(&base).unwrap();
    let without = solver(&Rules::default(), 1, false).chance(&base).unwrap();
    assert!(with.is_one());
    assert!(without < with, "{without}");
    // A 2-line field where lower clears change nothing agrees with the expectimax.
    let small = position("##......##/##......##", 2, "T", "I", "JLOSZ");
    let v = solver(&Rules::default(), 0, true).chance(&small).unwrap();
    assert_eq!(v, brute_force(&Rules::default(), true, &small));
}

/// The clairvoyant chance: the bag-weighted share of continuations for which a PC exists
/// with the whole sequence known.
fn clairvoyant(rules: &Rules, position: &Position) -> Ratio {
    let field = PcField::new(position.field, position.clear_line).unwrap();
    let mut searcher = Searcher::new(rules.clone());
    let wanted = field.pieces_needed() as usize + rules.hold as usize;
    let queue = position.queue();
    let hold = if rules.hold { position.hold } else { None };
    let known = queue.len() + hold.is_some() as usize;
    let bag = BagState::from_remaining(position.bag);
    let mut total = Ratio::ZERO;
    for (seq, p) in bag.continuations(wanted.saturating_sub(known)).unwrap() {
        let mut q = queue.clone();
        q.extend(seq.iter());
        if searcher.has_solution(&field, hold, &q) {
            total = total + p;
        }
    }
    total
}

#[test]
fn never_above_the_clairvoyant_chance_and_equal_with_everything_in_view() {
    let pco = "##.....###/###....###/####...###/###....###";
    let rules = Rules::default();
    for (hold, queue, bag) in [
        ("I", "TLOSJZ", ""),
        ("I", "TLOSJ", "Z"),
        ("", "ITLOS", "JZ"),
        ("I", "TL", "OSJZ"),
        ("I", "T", "LOSJZ"),
        ("", "IT", "LOSJZ"),
        ("T", "I", "JLOSZ"),
    ] {
        let base = position(pco, 4, hold, queue, bag);
        let mut s = solver(&rules, base.preview.len(), false);
        let adaptive = s.chance(&base).unwrap();
        let upper = clairvoyant(&rules, &base);
        assert!(adaptive <= upper, "{hold} {queue}: {adaptive} > {upper}");
        // Four pieces needed: with the hold and three more in view, all are known.
        let in_view = base.queue().len() + base.hold.is_some() as usize;
        if in_view > 4 {
            assert_eq!(adaptive, upper, "{hold} {queue}");
        }
    }
}

/// The position after a move, with one revealed piece.
fn child(base: &Position, hold: bool, placement: &pc_srs::Placement, revealed: Piece) -> Position {
    let mut board = base.field;
    for (x, y) in placement.cells() {
        board.fill(x as usize, y as u32);
    }
    let line = base.clear_line - board.clear_full_rows().count_ones();
    let queue = base.queue();
    let hold_after = if hold { Some(queue[0]) } else { base.hold };
    let mut next: Vec<Piece> = queue[1..].to_vec();
    next.push(revealed);
    let drawable = if base.bag.is_empty() {
        PieceSet::ALL
    } else {
        base.bag
    };
    Position {
        field: board,
        clear_line: line,
        hold: hold_after,
        current: next[0],
        preview: next[1..].to_vec(),
        bag: drawable.without(revealed),
        hold_used: false,
    }
}

#[test]
fn a_value_is_the_best_average_over_revealed_pieces() {
    let rules = Rules::default();
    let base = position(
        "##......##/##......##/###....###/###....###",
        4,
        "I",
        "TL",
        "JOSZ",
    );
    let mut s = solver(&rules, 1, false);
    let r = s.recommend(&base).unwrap();
    assert!(r.moves.windows(2).all(|w| w[0].chance >= w[1].chance));
    assert_eq!(r.chance, r.moves[0].chance);
    let mut fresh = solver(&rules, 1, false);
    for m in &r.moves {
        let mut sum = Ratio::ZERO;
        let drawable = base.bag;
        for b in drawable.iter() {
            let c = child(&base, m.mv.hold, &m.mv.placement, b);
            let v = if c.clear_line == 0 {
                Ratio::ONE
            } else {
                fresh.chance(&c).unwrap()
            };
            sum = sum + v;
        }
        let average = sum * Ratio::new(1, drawable.len() as u64).unwrap();
        assert_eq!(m.chance, average, "{m:?}");
        assert!(m.path.is_some());
    }
}

#[test]
fn the_best_line_replays_to_a_perfect_clear() {
    let rules = Rules::default();
    let base = position(
        "##.....###/###....###/####...###/###....###",
        4,
        "I",
        "TLOSJ",
        "Z",
    );
    let r = solver(&rules, 4, false).recommend(&base).unwrap();
    assert!(r.chance.is_one());
    let mut board = base.field;
    let mut line = 4;
    let generator = rules.generator();
    for p in &r.line {
        assert!(generator.is_reachable(&board, p, line).unwrap(), "{p:?}");
        for (x, y) in p.cells() {
            board.fill(x as usize, y as u32);
        }
        line -= board.clear_full_rows().count_ones();
    }
    assert_eq!(line, 0);
}

#[test]
fn contradictory_positions_get_typed_errors() {
    let rules = Rules::default();
    let mut s = solver(&rules, 2, false);
    // Three pieces drawn from the current bag (JLOS left): T, I and T again.
    let bad = position("", 4, "", "TIT", "JLOS");
    assert!(matches!(
        s.recommend(&bad),
        Err(SolverError::BagContradiction { .. })
    ));
    // The bag says I is still to come, but it is in view.
    let bad = position("", 4, "", "TIO", "IJLSZ");
    assert!(matches!(
        s.chance(&bad),
        Err(SolverError::BagContradiction { .. })
    ));
    // Preview length differs from the solver's.
    let bad = position("", 4, "", "TI", "JLOSZ");
    assert!(matches!(
        s.chance(&bad),
        Err(SolverError::PreviewLength {
            expected: 2,
            given: 1
        })
    ));
    // A field taller than the clear line, and one whose empty cells are no pieces.
    let bad = position("#........./........../..........", 2, "", "TIO", "JLSZ");
    assert!(matches!(
        s.chance(&bad),
        Err(SolverError::FieldAboveClearLine { .. })
    ));
    let bad = position("#.........", 2, "", "TIO", "JLSZ");
    assert!(matches!(
        s.chance(&bad),
        Err(SolverError::EmptyCellsNotMultipleOfFour { .. })
    ));
    assert!(Solver::with_options(rules, options(7, false)).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random 2-line positions: the solver equals the plain expectimax, with and without
    /// hold, for every preview length that keeps the brute force small.
    #[test]
    fn random_two_line_positions_match_the_expectimax(
        order in Just(Piece::ALL).prop_shuffle(),
        drawn in 0usize..7,
        preview in 0usize..3,
        hold in any::<bool>(),
        held in proptest::option::of(0usize..7),
    ) {
        // A queue from one bag: the first `drawn` pieces of it were already drawn.
        let queue: Vec<Piece> = order[drawn..].iter().chain(order[..drawn].iter()).copied().take(preview + 1).collect();
        prop_assume!(queue.len() == preview + 1);
        let rules = if hold { Rules::default() } else { Rules::without_hold() };
        let in_bag: PieceSet = order.iter().copied().collect();
        let seen: PieceSet = queue.iter().copied().collect();
        let mut bag = in_bag.difference(seen);
        // The queue may run past the first bag's end only if it holds all of that bag.
        if queue.len() > 7 - drawn { bag = PieceSet::EMPTY; }
        let base = Position::new(Board32::new(), queue[0])
            .with_clear_line(2)
            .with_hold(held.map(|i| Piece::ALL[i]))
            .with_preview(&queue[1..])
            .with_bag(bag);
        prop_assume!(base.check_bag().is_ok());
        let got = solver(&rules, preview, false).chance(&base).unwrap();
        prop_assert_eq!(got, brute_force(&rules, false, &base));
    }
}

#[test]
fn after_plays_a_move_and_reveals_the_next_piece() {
    let base = position(
        "##......##/##......##/###....###/###....###",
        4,
        "I",
        "TL",
        "JOSZ",
    );
    let r = solver(&Rules::default(), 1, false)
        .recommend(&base)
        .unwrap();
    let mut compared = 0;
    for m in &r.moves {
        for b in base.bag.iter() {
            let next = base.after(m, &[b]).unwrap();
            let by_hand = child(&base, m.mv.hold, &m.mv.placement, b);
            if by_hand.clear_line > 0 {
                assert_eq!(next, by_hand, "{m:?}");
                compared += 1;
            }
        }
    }
    assert!(compared > 20, "{compared}");
    let m = &r.moves[0];
    assert!(matches!(
        base.after(m, &[]),
        Err(SolverError::RevealCount {
            expected: 1,
            given: 0
        })
    ));
    // T and L are in view, so neither can still come from this bag.
    assert!(matches!(
        base.after(m, &[Piece::T]),
        Err(SolverError::BagContradiction { .. })
    ));
    let mut wrong = m.mv;
    wrong.hold = !wrong.hold;
    assert!(matches!(
        base.after(wrong, &[Piece::J]),
        Err(SolverError::IllegalMove(_))
    ));
}

/// From a position won whatever comes, the best move leads to positions won whatever
/// comes, down every branch of reveals until the PC.
#[test]
fn a_won_position_stays_won_along_the_best_moves() {
    fn walk(s: &mut Solver, p: &Position, checked: &mut usize, clears: &mut usize) {
        let r = s.recommend(p).unwrap();
        assert!(r.chance.is_one(), "{p:?}");
        let m = &r.moves[0];
        assert!(m.chance.is_one(), "{p:?}");
        let drawable = if p.bag.is_empty() {
            PieceSet::ALL
        } else {
            p.bag
        };
        for b in drawable.iter() {
            let next = p.after(m, &[b]).unwrap();
            *checked += 1;
            if next.field.is_empty() {
                *clears += 1;
            } else {
                walk(s, &next, checked, clears);
            }
        }
    }
    let base = position(
        "#.......##/#.......##/##......##/###....###",
        4,
        "I",
        "ZST",
        "JLO",
    );
    let mut s = solver(&Rules::default(), 2, false);
    let (mut checked, mut clears) = (0, 0);
    walk(&mut s, &base, &mut checked, &mut clears);
    assert!(clears > 0 && checked > clears, "{checked} {clears}");
}

/// Holding into an empty slot is a chance node: its value is the average over the piece
/// it reveals of the position that follows, where the hold key is spent.
#[test]
fn holding_first_is_worth_the_average_over_the_revealed_piece() {
    let mut checked = 0;
    for (field, queue, bag) in [
        ("#.......##/#.......##/##......##/###....###", "TLJ", "SZOI"),
        ("##......##/##......##/###....###/###....###", "TL", "JOSZ"),
        ("........##/........##", "IL", "JOSTZ"),
    ] {
        let line = field.split('/').count() as u32;
        let base = position(field, line, "", queue, bag);
        let preview = base.preview.len();
        let r = solver(&Rules::default(), preview, false)
            .recommend(&base)
            .unwrap();
        let hold_first = r.hold_first.expect("the slot is empty");
        assert!(r.chance >= hold_first && r.chance >= r.moves[0].chance);
        assert!(r.chance == hold_first || r.chance == r.moves[0].chance);
        // Blind hold entries never beat choosing after the reveal.
        assert!(
            r.moves
                .iter()
                .filter(|m| m.mv.hold)
                .all(|m| m.chance <= hold_first)
        );
        let mut fresh = solver(&Rules::default(), preview, false);
        let mut sum = Ratio::ZERO;
        for b in base.bag.iter() {
            let held = base.after_hold(b).unwrap();
            assert!(held.hold_used);
            let v = fresh.chance(&held).unwrap();
            // With the hold key spent, no move of the new position holds.
            assert!(
                fresh
                    .recommend(&held)
                    .unwrap()
                    .moves
                    .iter()
                    .all(|m| !m.mv.hold)
            );
            sum = sum + v;
        }
        let average = sum * Ratio::new(1, base.bag.len() as u64).unwrap();
        assert_eq!(hold_first, average, "{base:?}");
        checked += 1;
    }
    assert_eq!(checked, 3);
}

/// `best_move` gives the chance of `recommend` and a move that the ranking puts first (or
/// holding first when that beats every placement).
#[test]
fn best_move_agrees_with_the_full_ranking() {
    let mut extra = vec![
        position(
            "#.......##/#.......##/##......##/###....###",
            4,
            "",
            "TLJ",
            "SZOI",
        ),
        position(
            "##......##/##......##/###....###/###....###",
            4,
            "I",
            "TL",
            "JOSZ",
        ),
    ];
    extra.extend(cases());
    let (mut holds, mut places) = (0, 0);
    for rules in [Rules::default(), Rules::without_hold()] {
        for base in &extra {
            let preview = base.preview.len();
            let ranking = solver(&rules, preview, false).recommend(base).unwrap();
            let best = solver(&rules, preview, false).best_move(base).unwrap();
            assert_eq!(best.chance, ranking.chance, "{base:?}");
            if best.hold_first {
                assert!(best.best.is_none());
                assert_eq!(ranking.hold_first, Some(best.chance));
                // Placements without hold do worse; a blind hold entry can tie.
                assert!(ranking.moves[0].chance <= best.chance);
                assert!(
                    ranking
                        .moves
                        .iter()
                        .filter(|m| !m.mv.hold)
                        .all(|m| m.chance < best.chance),
                    "{base:?} {best:?} {:?}",
                    &ranking.moves[..3]
                );
                holds += 1;
            } else {
                let m = best.best.expect("a legal move");
                assert_eq!(m.chance, ranking.moves[0].chance, "{base:?}");
                assert!(
                    ranking
                        .moves
                        .iter()
                        .any(|r| r.mv == m.mv && r.chance == m.chance)
                );
                places += 1;
            }
        }
    }
    assert!(holds > 0 && places > 10, "{holds} {places}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Stepping a 2-line position forward with the solver's moves and bag pieces keeps a
    /// position the solver accepts: the bag state stays consistent with the queue, the
    /// preview keeps its length, and the cells grow by 4 less the cleared rows.
    #[test]
    fn stepping_forward_keeps_positions_consistent(
        order in Just(Piece::ALL).prop_shuffle(),
        picks in proptest::collection::vec(0usize..64, 6),
    ) {
        let rules = Rules::default();
        let queue = &order[..3];
        let seen: PieceSet = queue.iter().copied().collect();
        let mut p = Position::new(Board32::new(), queue[0])
            .with_clear_line(2)
            .with_preview(&queue[1..])
            .with_bag(PieceSet::ALL.difference(seen));
        let mut s = solver(&rules, 2, false);
        let mut steps = 0;
        for pick in picks {
            prop_assert!(p.check_bag().is_ok());
            let r = s.recommend(&p).unwrap();
            if r.moves.is_empty() {
                break;
            }
            let m = &r.moves[pick % r.moves.len()];
            let count = if m.mv.hold && p.hold.is_none() { 2 } else { 1 };
            let mut bag = p.bag;
            let mut revealed = vec![];
            for k in 0..count {
                if bag.is_empty() { bag = PieceSet::ALL; }
                let b = bag.iter().nth((pick + k) % bag.len()).unwrap();
                bag.remove(b);
                revealed.push(b);
            }
            let next = p.after(m, &revealed).unwrap();
            steps += 1;
            prop_assert_eq!(next.preview.len(), p.preview.len());
            let cells = p.field.cell_count() + 4;
            prop_assert_eq!(next.field.cell_count() % 10, cells % 10);
            if next.field.is_empty() {
                break;
            }
            prop_assert!(next.field.height() <= next.clear_line);
            p = next;
        }
        prop_assert!(steps >= 2, "{}", steps);
    }
}

#[test]
fn a_search_stopped_by_the_work_limit_leaves_exact_tables() {
    let position = Position::new(
        "##......../##......../##......../##........"
            .parse()
            .unwrap(),
        Piece::T,
    )
    .with_hold(Some(Piece::O))
    .with_preview(&[Piece::S, Piece::Z, Piece::I, Piece::L, Piece::J])
    .with_bag("IOSTZ".parse().unwrap());
    let whole = Solver::new(Rules::default()).recommend(&position).unwrap();
    let mut solver = Solver::with_options(
        Rules::default(),
        SolverOptions {
            work_limit: Some(40),
            ..SolverOptions::default()
        },
    )
    .unwrap();
    let mut stops = 0;
    let ranked = loop {
        match solver.recommend(&position) {
            Ok(r) => break r,
            Err(SolverError::WorkLimit(40)) => stops += 1,
            Err(e) => panic!("{e}"),
        }
        assert!(stops < 10_000, "no progress");
    };
    assert!(stops > 0, "the limit never stopped the search");
    assert_eq!(ranked.chance, whole.chance);
    let values = |r: &pc_solver::Recommendation| {
        let mut v: Vec<_> = r
            .moves
            .iter()
            .map(|m| (m.mv.hold, m.mv.placement, m.chance))
            .collect();
        v.sort_by_key(|&(h, p, _)| {
            (
                h,
                p.piece().index(),
                p.orientation() as u8,
                p.centre().x,
                p.centre().y,
            )
        });
        v
    };
    assert_eq!(values(&ranked), values(&whole));
}

#[test]
fn ties_go_to_the_move_that_leaves_the_next_pc_the_better_piece() {
    // PCO with I held, T L O S J in view, Z to come: three moves make the PC for sure.
    // One (I flat on top, one key) can only leave S in hold; the others can leave O,
    // which the next PC (phase 7 of the cycle: 4 more pieces make 7·k) rates higher.
    let position = position(
        "##.....###/###....###/####...###/###....###",
        4,
        "I",
        "TLOSJ",
        "Z",
    );
    let ranked = solver(&Rules::default(), 4, false)
        .recommend(&position)
        .unwrap();
    let sure: Vec<_> = ranked
        .moves
        .iter()
        .take_while(|m| m.chance.is_one())
        .collect();
    assert_eq!(sure.len(), 3);
    let carries: Vec<Option<Piece>> = sure.iter().map(|m| m.carry).collect();
    assert_eq!(carries, [Some(Piece::O), Some(Piece::O), Some(Piece::S)]);
    use pc_bag::carry_rank;
    assert!(carry_rank(6, Some(Piece::O)) > carry_rank(6, Some(Piece::S)));
    // The one-key move would come first on input length alone.
    let keys = |m: &pc_solver::RankedMove| m.path.as_ref().map_or(99, |p| p.inputs().len());
    assert!(keys(sure[2]) < keys(sure[0]));
    // Moves that cannot make the PC have no carry.
    assert!(ranked.moves[3..].iter().all(|m| m.carry.is_none()));
}

/// A seeded stream of three 7-bags.
fn bag_stream(seed: u64) -> Vec<Piece> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut below = |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % n
    };
    let mut stream = Vec::new();
    for _ in 0..3 {
        let mut bag = Piece::ALL.to_vec();
        for i in (1..7).rev() {
            bag.swap(i, below(i + 1));
        }
        stream.extend(bag);
    }
    stream
}

/// A position from a bag stream: the hold (with hold) at `start`, then the current piece
/// and `preview` more, and the bag state after them.
fn from_stream(
    field: &str,
    stream: &[Piece],
    start: usize,
    hold: bool,
    preview: usize,
) -> Position {
    let first = start + hold as usize;
    let queue = &stream[first..=first + preview];
    let last = first + preview;
    let bag_end = (last / 7 + 1) * 7;
    let bag: String = stream[last + 1..bag_end]
        .iter()
        .map(|p| p.to_char())
        .collect();
    Position::new(field.parse().unwrap(), queue[0])
        .with_hold(hold.then(|| stream[start]))
        .with_preview(&queue[1..])
        .with_bag(bag.parse().unwrap())
}

/// The layered search (decisions with three or four pieces not revealed yet) gives every
/// move the value the depth-first search gives it, and so does the walk over the PC field
/// graph built from the field, with and without hold, for bags at every phase. The last
/// case, the longest, is a test of its own so that the test threads share the work.
#[test]
fn the_layered_search_equals_the_depth_first_search() {
    layered_equals_depth_first(&LAYERED_CASES[..6], 0, 400);
}

/// [`the_layered_search_equals_the_depth_first_search`], its last case.
#[test]
fn the_layered_search_equals_the_depth_first_search_with_three_previews() {
    layered_equals_depth_first(&LAYERED_CASES[6..], 6, 100);
}

/// (field, hold, preview): each leaves 3 or 4 pieces unknown.
const LAYERED_CASES: [(&str, bool, usize); 7] = [
    ("##......##/##......##/##......##/##......##", true, 2),
    ("####....../####....../####....../####......", true, 2),
    ("####....../####....../####....../####......", false, 2),
    ("###......./####....../###......./##........", true, 3),
    ("#........#/##......##/#........#/##......##", false, 3),
    ("##......../##......../##......../##........", true, 4),
    ("##......../##......../##......../##........", true, 3),
];

/// The check of [`the_layered_search_equals_the_depth_first_search`] on `cases`, the
/// first numbered `first` (the number picks the case's bag streams and first piece), with
/// more than `moves` moves checked (the two parts' together, as many as the whole had).
fn layered_equals_depth_first(cases: &[(&str, bool, usize)], first: usize, moves: usize) {
    let (mut checked, mut won, mut partly) = (0, 0, 0);
    for (i, &(field, hold, preview)) in (first..).zip(cases) {
        let rules = if hold {
            Rules::default()
        } else {
            Rules::without_hold()
        };
        // The PC field graph from this field: its walk must give the same values too.
        let start = PcField::new(field.parse().unwrap(), 4).unwrap();
        let graph = std::sync::Arc::new(
            PcGraph::build_from(&start, &rules, &mut |_| std::ops::ControlFlow::Continue(()))
                .unwrap(),
        );
        for seed in 0..3u64 {
            let stream = bag_stream(seed * 31 + i as u64);
            let position = from_stream(field, &stream, (seed as usize * 3 + i) % 7, hold, preview);
            let layered = solver(&rules, preview, false).recommend(&position).unwrap();
            let with_graph = SolverOptions {
                graph: Some(graph.clone()),
                ..options(preview, false)
            };
            let mut walked = Solver::with_options(rules.clone(), with_graph)
                .unwrap()
                .recommend(&position)
                .unwrap();
            assert_eq!(walked.engine, Engine::Graph, "{position:?}");
            assert_eq!(layered.engine, Engine::Layered, "{position:?}");
            walked.engine = layered.engine;
            assert_eq!(walked, layered, "{position:?}");
            let mut depth_first = solver(&rules, preview, false)
                .recommend_by(&position, Engine::DepthFirst)
                .unwrap();
            assert_eq!(depth_first.engine, Engine::DepthFirst);
            depth_first.engine = layered.engine;
            assert_eq!(layered, depth_first, "{position:?}");
            assert_eq!(
                solver(&rules, preview, false).chance(&position).unwrap(),
                layered.chance
            );
            if hold && seed == 0 {
                // Right after a hold into the empty slot: no swap at the root only.
                // The moves left keep their values.
                let held = position.clone().with_hold_used(true);
                let no_swap = solver(&rules, preview, false).recommend(&held).unwrap();
                let depth_first = solver(&rules, preview, false)
                    .recommend_by(&held, Engine::DepthFirst)
                    .unwrap();
                assert_eq!(no_swap.moves, depth_first.moves, "{held:?}");
                let kept: Vec<_> = layered.moves.iter().filter(|m| !m.mv.hold).collect();
                assert!(!kept.is_empty() && kept.len() < layered.moves.len());
                assert_eq!(no_swap.moves.len(), kept.len());
                for m in &no_swap.moves {
                    let same = kept
                        .iter()
                        .find(|k| k.mv.placement.same_cells(&m.mv.placement));
                    assert_eq!(same.map(|k| k.chance), Some(m.chance), "{held:?}");
                }
            }
            // The best move alone (the search stops at a certain move) has the best chance.
            let best = solver(&rules, preview, false).best_move(&position).unwrap();
            assert_eq!(best.chance, layered.chance);
            if let Some(m) = best.best {
                let ranked = layered
                    .moves
                    .iter()
                    .find(|r| r.mv.hold == m.mv.hold && r.mv.placement.same_cells(&m.mv.placement));
                assert_eq!(ranked.map(|r| r.chance), Some(layered.chance));
            }
            checked += layered.moves.len();
            won += layered.moves.iter().filter(|m| !m.chance.is_zero()).count();
            partly += layered
                .moves
                .iter()
                .filter(|m| !m.chance.is_zero() && !m.chance.is_one())
                .count();
        }
    }
    // The cases are not trivial: many moves, most with some chance, many neither 0 nor 1.
    assert!(
        checked > moves && won > checked / 2 && partly > checked / 4,
        "{partly}, {won} of {checked}"
    );
}
