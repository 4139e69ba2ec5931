//! Any position, however odd (full or ragged rows, cells above the clear line, any hold,
//! queue, bag, clear line and rules), gets an answer or a typed error from every question
//! of the solver, never a panic; and the answers agree with each other.

use pc_solver::{
    Board32, DropMode, KickTable, Move, PatternSet, PcField, Piece, PieceSet, Position, Rules,
    Solver, SolverError, SolverOptions, percent,
};
use proptest::prelude::*;

fn piece() -> impl Strategy<Value = Piece> {
    (0..7usize).prop_map(|i| Piece::ALL[i])
}

/// Rows of a field, bottom first, mostly near full so that PCs stay within reach; some
/// rows full (already cleared) and some empty.
fn field() -> impl Strategy<Value = Board32> {
    prop::collection::vec(
        prop_oneof![
            Just(0x3ffu16),
            Just(0u16),
            0u16..0x400,
            // One to four holes in a row.
            (0..10u32, 0..10u32).prop_map(|(a, b)| 0x3ff & !(1 << a) & !(1 << b)),
        ],
        0..7,
    )
    .prop_map(|rows| {
        let mut board = Board32::new();
        for (y, bits) in rows.into_iter().enumerate() {
            board.set_row(y as u32, bits);
        }
        board
    })
}

fn rules() -> impl Strategy<Value = Rules> {
    (0..3usize, any::<bool>(), any::<bool>()).prop_map(|(kicks, hard, hold)| Rules {
        kicks: match kicks {
            0 => KickTable::srs(),
            1 => KickTable::srs_plus(),
            _ => KickTable::none(),
        },
        drop: if hard { DropMode::Hard } else { DropMode::Soft },
        hold,
    })
}

/// Anything at all, or (half the time) a position a game can show: a field of 1 to 4
/// rows with a whole number of pieces missing, and a queue dealt by a 7-bag.
fn position() -> impl Strategy<Value = Position> {
    prop_oneof![any_position(), game_position()]
}

fn game_position() -> impl Strategy<Value = Position> {
    (
        1..=4u32,
        1..=4u32,
        0..7usize,
        0..=6usize,
        prop::option::of(piece()),
        any::<bool>(),
    )
        .prop_perturb(|(rows, pieces, phase, preview, hold, hold_used), mut rng| {
            let mut board = Board32::new();
            for y in 0..rows {
                board.set_row(y, 0x3ff);
            }
            let mut emptied = 0;
            while emptied < 4 * pieces.min(rows * 10 / 4) {
                let (x, y) = (rng.random_range(0..10), rng.random_range(0..rows));
                if board.cell(x, y) {
                    board.empty_cell(x, y);
                    emptied += 1;
                }
            }
            // Two shuffled bags, dealt from `phase` on.
            let mut stream = Vec::new();
            for _ in 0..2 {
                let mut bag = Piece::ALL;
                for i in (1..7).rev() {
                    bag.swap(i, rng.random_range(0..=i));
                }
                stream.extend(bag);
            }
            let queue = &stream[phase..phase + 1 + preview];
            let dealt = (phase + 1 + preview) % 7;
            let left: PieceSet = stream[phase + 1 + preview..]
                .iter()
                .take((7 - dealt) % 7)
                .copied()
                .collect();
            Position::new(board, queue[0])
                .with_clear_line(rows)
                .with_hold(hold)
                .with_preview(&queue[1..])
                .with_bag(left)
                .with_hold_used(hold_used)
        })
}

fn any_position() -> impl Strategy<Value = Position> {
    (
        field(),
        0..10u32,
        prop::option::of(piece()),
        piece(),
        prop::collection::vec(piece(), 0..8),
        0..=0x7fu8,
        any::<bool>(),
    )
        .prop_map(
            |(field, clear_line, hold, current, preview, bag, hold_used)| {
                Position::new(field, current)
                    .with_clear_line(clear_line)
                    .with_hold(hold)
                    .with_preview(&preview)
                    .with_bag(PieceSet::from_bits(bag).expect("seven bits"))
                    .with_hold_used(hold_used)
            },
        )
}

/// A solver for the position's preview length (or a wrong one), with a work limit so
/// that a hard position ends in `WorkLimit` rather than minutes of search.
fn solver(rules: Rules, preview: usize) -> Result<Solver, SolverError> {
    let options = SolverOptions {
        preview,
        work_limit: Some(3_000),
        ..SolverOptions::default()
    };
    Solver::with_options(rules, options)
}

/// How many positions every question answered, so that the test shows it reached the
/// engines and did not only meet refusals.
static ANSWERED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static ASKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn every_question_answers_or_errs(
        position in position(),
        rules in rules(),
        wrong_preview in any::<bool>(),
    ) {
        let preview = position.preview.len() + usize::from(wrong_preview);
        let Ok(mut solver) = solver(rules.clone(), preview) else {
            // Only a preview longer than a solver takes is refused.
            prop_assert!(preview > pc_solver::MAX_PREVIEW);
            return Ok(());
        };
        ASKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let chance = solver.chance(&position);
        let ranking = solver.recommend(&position);
        let best = solver.best_move(&position);
        match (&chance, &ranking, &best) {
            (Ok(chance), Ok(ranking), Ok(best)) => {
                ANSWERED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                prop_assert_eq!(*chance, ranking.chance);
                prop_assert_eq!(best.chance, ranking.chance);
                prop_assert!(ranking.moves.windows(2).all(|w| w[0].chance >= w[1].chance));
                if let Some(first) = ranking.moves.first() {
                    prop_assert!(first.chance <= ranking.chance);
                    let moves: Vec<Move> = ranking.moves.iter().map(|m| m.mv).collect();
                    let chances = solver.chances_of(&position, &moves[..1], None);
                    // A work limit may stop the valuing; a value found is the ranking's.
                    if let Ok(chances) = chances {
                        prop_assert!(chances[0].is_none_or(|c| c == first.chance));
                    }
                }
                // The best move is the ranking's first (asked after it, it reads it).
                if !best.hold_first {
                    prop_assert_eq!(best.best.as_ref(), ranking.moves.first());
                }
            }
            // A position refused is refused by every question, for the same reason;
            // only the work limit may stop one question and not another.
            _ => {
                for answer in [chance.as_ref().err(), ranking.as_ref().err(), best.as_ref().err()]
                    .into_iter()
                    .flatten()
                {
                    prop_assert!(
                        matches!(answer, SolverError::WorkLimit(_))
                            || Some(answer) == chance.as_ref().err(),
                        "{answer:?} against {chance:?}"
                    );
                }
            }
        }
    }

    /// sfinder's percent on any field and pattern of a few pieces.
    #[test]
    fn percent_answers_or_errs(
        field in field(),
        clear_line in 0..7u32,
        pattern in prop::sample::select(vec!["*", "*p2", "T,*", "[IO]p2", "*p3", "I,*p2", "O"]),
        rules in rules(),
    ) {
        let Ok(field) = PcField::new(field, clear_line) else {
            return Ok(());
        };
        let Ok(patterns) = pattern.parse::<PatternSet>() else {
            return Err(TestCaseError::fail("the patterns are valid"));
        };
        if let Ok(result) = percent(&field, &rules, &patterns) {
            prop_assert!(result.success <= result.total);
        }
    }
}

/// Runs the property above, then checks that a fair share of its positions were answered
/// (not all refused): a generator that only made refusals would test nothing.
#[test]
fn the_positions_reach_the_engines() {
    every_question_answers_or_errs();
    let asked = ASKED.load(std::sync::atomic::Ordering::Relaxed);
    let answered = ANSWERED.load(std::sync::atomic::Ordering::Relaxed);
    eprintln!("{answered} of {asked} positions answered");
    assert!(answered * 5 >= asked, "{answered} of {asked} answered");
}

/// The panic the fuzzing found: a field whose rows are all full is already a PC.
#[test]
fn a_field_already_cleared_is_a_pc_with_nothing_to_place() {
    let full: Board32 = "##########/##########".parse().unwrap();
    let position = Position::new(full, Piece::T)
        .with_clear_line(2)
        .with_hold(Some(Piece::I))
        .with_preview(&[Piece::L, Piece::O, Piece::S, Piece::J, Piece::Z]);
    let mut solver = Solver::new(Rules::default());
    let ranking = solver.recommend(&position).unwrap();
    assert!(ranking.chance.is_one());
    assert!(ranking.moves.is_empty() && ranking.line.is_empty());
    let best = Solver::new(Rules::default()).best_move(&position).unwrap();
    assert!(best.chance.is_one() && best.best.is_none() && !best.hold_first);
    assert!(solver.chance(&position).unwrap().is_one());
    let any = Move::place(
        Piece::T
            .with(pc_solver::Orientation::Spawn)
            .at(4, 0)
            .unwrap(),
    );
    assert_eq!(solver.chances_of(&position, &[any], None).unwrap(), [None]);
}
