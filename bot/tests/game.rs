//! The game simulator: the randomizer, legality of moves, hold, game over, and records.

use pc_bag::BagState;
use pc_bitboard::Board32;
use pc_bot::Evaluator;
use pc_bot::{
    Game, GameConfig, GameOver, GameRecord, GameView, Limits, MoveError, Play, Player, RecordError,
    SevenBag, Stop,
};
use pc_solver::Rules;
use pc_srs::{DropMode, KickTable, Orientation, Piece, Placement};
use proptest::prelude::*;

proptest! {
    #[test]
    fn every_bag_of_seven_is_a_permutation(seed in any::<u64>(), bags in 1usize..8) {
        let mut bag = SevenBag::new(seed);
        for _ in 0..bags {
            let mut dealt: Vec<Piece> = (0..7).map(|_| bag.next_piece()).collect();
            dealt.sort();
            prop_assert_eq!(dealt, Piece::ALL.to_vec());
        }
    }

    #[test]
    fn bag_state_matches_the_history(seed in any::<u64>(), n in 0usize..30) {
        let mut bag = SevenBag::new(seed);
        let dealt: Vec<Piece> = (0..n).map(|_| bag.next_piece()).collect();
        prop_assert_eq!(bag.bag_state(), BagState::from_history(&dealt).unwrap());
        let next = bag.peek();
        prop_assert!(bag.bag_state().drawable().contains(next));
        prop_assert_eq!(bag.next_piece(), next);
    }

    #[test]
    fn the_view_shows_the_bag_after_the_preview(seed in any::<u64>(), preview in 0usize..8) {
        let game = Game::new(GameConfig::new(seed).with_preview(preview)).unwrap();
        let view = game.view();
        prop_assert_eq!(view.preview.len(), preview);
        let mut seen = vec![view.current];
        seen.extend_from_slice(view.preview);
        let mut bag = SevenBag::new(seed);
        for &p in &seen {
            prop_assert_eq!(bag.next_piece(), p);
        }
        prop_assert_eq!(view.bag, bag.bag_state());
    }
}

#[test]
fn seeds_give_different_games() {
    let first = |seed| -> Vec<Piece> { SevenBag::new(seed).take(14).collect() };
    assert_eq!(first(5), first(5));
    assert_ne!(first(5), first(6));
    assert_ne!(first(0), first(1));
}

/// A placement of `piece` flat on the floor at the left wall (spawn orientation).
fn on_floor_left(piece: Piece) -> Placement {
    piece.with(Orientation::Spawn).at(1, 0).unwrap()
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut game = Game::new(GameConfig::new(11)).unwrap();
    let view = game.view();
    let current = view.current;
    let other = Piece::ALL.into_iter().find(|&p| p != current).unwrap();
    let before = game.clone().outcome();

    // Another piece than the current one.
    let wrong = Play::place(on_floor_left(other));
    assert_eq!(
        game.play(&wrong),
        Err(MoveError::WrongPiece {
            expected: current,
            found: other
        })
    );
    // In mid-air.
    let floating = current.with(Orientation::Spawn).at(4, 8).unwrap();
    assert_eq!(
        game.play(&Play::place(floating)),
        Err(MoveError::Unreachable(floating))
    );
    // Above the 32 rows of the board.
    let off = current.with(Orientation::Spawn).at(4, 40).unwrap();
    assert_eq!(
        game.play(&Play::place(off)),
        Err(MoveError::Unreachable(off))
    );
    // A path that leads elsewhere.
    let target = on_floor_left(current);
    let rules = game.config().rules.clone();
    let generator = rules.generator();
    let elsewhere = current.with(Orientation::Spawn).at(6, 0).unwrap();
    let path = generator
        .path_from_spawn(game.board(), &elsewhere, game.spawn())
        .unwrap()
        .unwrap();
    assert_eq!(
        game.play(&Play::place(target).with_path(path.clone())),
        Err(MoveError::PathMismatch(target))
    );
    assert_eq!(game.outcome(), before);
    assert_eq!(game.view().current, current);
    // The right path is accepted.
    let good = generator
        .path_from_spawn(game.board(), &target, game.spawn())
        .unwrap()
        .unwrap();
    assert!(game.play(&Play::place(target).with_path(good)).is_ok());
    assert_eq!(game.stats().pieces, 1);
    assert!(game.play(&Play::place(elsewhere).with_path(path)).is_err());
}

#[test]
fn hard_drop_cannot_tuck_under_an_overhang() {
    // Columns 1 and 2 hang over empty cells of row 0.
    let board: Board32 = "###.......\n#.........".parse().unwrap();
    let soft = Rules::default();
    let hard = Rules {
        drop: DropMode::Hard,
        ..Rules::default()
    };
    let view = |rules| GameView {
        board,
        current: Piece::I,
        hold: None,
        preview: &[],
        bag: BagState::FRESH,
        rules,
        spawn: pc_srs::guideline_spawn(20),
    };
    let under = |p: &Placement| {
        p.cells()
            .iter()
            .any(|&(x, y)| y == 0 && (1..=2).contains(&x))
    };
    for piece in Piece::ALL {
        let hard_moves = view(&hard).placements(piece).unwrap();
        assert!(!hard_moves.iter().any(|p| under(&p)), "{piece}");
        let soft_moves = view(&soft).placements(piece).unwrap();
        assert!(soft_moves.len() >= hard_moves.len());
        assert!(hard_moves.iter().all(|p| soft_moves.contains(&p)));
    }
    // A flat I slides under the overhang with soft drop.
    let tuck = Piece::I.with(Orientation::Spawn).at(2, 0).unwrap();
    assert!(view(&soft).placements(Piece::I).unwrap().contains(&tuck));
}

#[test]
fn hold_takes_the_next_piece_then_swaps() {
    let mut game = Game::new(GameConfig::new(21)).unwrap();
    let v = game.view();
    let (a, b, c, d) = (v.current, v.preview[0], v.preview[1], v.preview[2]);
    assert_eq!(v.hold_piece(), Some(b));
    // Holding into the empty slot plays the next piece.
    let wrong = Play::hold_then(on_floor_left(a));
    if a != b {
        assert!(matches!(
            game.play(&wrong),
            Err(MoveError::WrongPiece { expected, .. }) if expected == b
        ));
    }
    game.play(&Play::hold_then(on_floor_left(b))).unwrap();
    let v = game.view();
    assert_eq!((v.hold, v.current, v.preview[0]), (Some(a), c, d));
    assert_eq!(v.preview.len(), 5);
    // Holding again swaps: the held piece comes out, the current one goes in.
    let generator = game.config().rules.generator();
    let spot = generator
        .placements_from_spawn(game.board(), a, game.spawn())
        .unwrap()
        .iter()
        .next()
        .unwrap();
    game.play(&Play::hold_then(spot)).unwrap();
    let v = game.view();
    assert_eq!((v.hold, v.current), (Some(c), d));
    assert_eq!(game.stats().holds, 2);
}

#[test]
fn hold_can_be_switched_off_and_works_without_preview() {
    let rules = Rules::without_hold();
    let mut game = Game::new(GameConfig::new(2).with_rules(rules)).unwrap();
    let current = game.view().current;
    assert_eq!(game.view().hold_piece(), None);
    assert_eq!(
        game.play(&Play::hold_then(on_floor_left(current))),
        Err(MoveError::HoldDisabled)
    );
    // Preview 0: holding into the empty slot plays the piece nobody has seen yet.
    let mut blind = Game::new(GameConfig::new(2).with_preview(0)).unwrap();
    let mut bag = SevenBag::new(2);
    let (first, second) = (bag.next_piece(), bag.next_piece());
    assert_eq!(blind.view().hold_piece(), None);
    blind.play(&Play::hold_then(on_floor_left(second))).unwrap();
    assert_eq!(blind.view().hold, Some(first));
    assert!(blind.view().preview.is_empty());
}

#[test]
fn the_preview_has_a_limit() {
    assert!(Game::new(GameConfig::new(0).with_preview(32)).is_ok());
    let e = Game::new(GameConfig::new(0).with_preview(33)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a preview of 33 pieces is too long: at most 32 are supported"
    );
}

/// Builds a tower over the spawn column, each piece standing as tall as it can.
struct Tower;

impl Player for Tower {
    fn choose(&mut self, view: &GameView<'_>) -> Option<Play> {
        let moves = view.placements(view.current).ok()?;
        let x = view.spawn.x as u8;
        moves
            .iter()
            .filter(|p| p.cells().iter().any(|&(cx, _)| cx == x))
            .min_by_key(|p| (p.rows().0, core::cmp::Reverse(p.rows().1)))
            .map(Play::place)
    }
}

/// Stacks everything in columns 0 to 2, as low as it can, and otherwise anywhere.
struct LeftStacker;

impl Player for LeftStacker {
    fn choose(&mut self, view: &GameView<'_>) -> Option<Play> {
        let moves = view.placements(view.current).ok()?;
        let left = moves
            .iter()
            .filter(|p| p.cells().iter().all(|&(x, _)| x <= 2))
            .min_by_key(|p| p.rows());
        left.or_else(|| moves.iter().min_by_key(|p| p.rows()))
            .map(Play::place)
    }
}

#[test]
fn stacking_in_the_middle_blocks_out() {
    let mut game = Game::new(GameConfig::new(1)).unwrap();
    let stop = game.run(&mut Tower, Limits::default()).unwrap();
    assert_eq!(stop, Stop::GameOver(GameOver::BlockOut));
    assert_eq!(game.game_over(), Some(GameOver::BlockOut));
    // The next piece overlaps the stack at the spawn.
    let view = game.view();
    let spawn = view.current.with(Orientation::Spawn);
    let at = spawn.at(view.spawn.x, view.spawn.y).unwrap();
    assert!(!at.fits(game.board()));
    // Nothing more can be played.
    assert!(matches!(
        game.play(&Play::place(on_floor_left(view.current))),
        Err(MoveError::GameOver(GameOver::BlockOut))
    ));
}

#[test]
fn stacking_at_the_side_locks_out() {
    let mut game = Game::new(GameConfig::new(4)).unwrap();
    let stop = game.run(&mut LeftStacker, Limits::default()).unwrap();
    assert_eq!(stop, Stop::GameOver(GameOver::LockOut));
    let last = game.moves().last().unwrap().placement;
    assert!(last.rows().0 >= 20);
}

#[test]
fn limits_stop_the_run_and_resigning_ends_it() {
    let mut game = Game::new(GameConfig::new(8)).unwrap();
    let mut evaluator = Evaluator::default();
    let pieces = Limits {
        pieces: Some(30),
        ..Limits::default()
    };
    assert_eq!(game.run(&mut evaluator, pieces).unwrap(), Stop::PieceCap);
    assert_eq!(game.stats().pieces, 30);
    let lines = Limits {
        lines: Some(20),
        ..Limits::default()
    };
    assert_eq!(game.run(&mut evaluator, lines).unwrap(), Stop::LineCap);
    assert!(game.stats().lines >= 20);
    struct Quitter;
    impl Player for Quitter {
        fn choose(&mut self, _: &GameView<'_>) -> Option<Play> {
            None
        }
    }
    assert_eq!(
        game.run(&mut Quitter, Limits::default()).unwrap(),
        Stop::GameOver(GameOver::Resigned)
    );
}

#[test]
fn a_player_giving_an_illegal_move_stops_the_run() {
    struct Cheater;
    impl Player for Cheater {
        fn choose(&mut self, view: &GameView<'_>) -> Option<Play> {
            Some(Play::place(
                view.current.with(Orientation::Spawn).at(4, 10).ok()?,
            ))
        }
    }
    let mut game = Game::new(GameConfig::new(8)).unwrap();
    let error = game.run(&mut Cheater, Limits::default()).unwrap_err();
    assert_eq!(error.index, 1);
    assert!(matches!(error.error, MoveError::Unreachable(_)));
    assert_eq!(game.stats().pieces, 0);
}

#[test]
fn lines_and_perfect_clears_are_counted() {
    // Every move's rows and perfect clear agree with the cells before and after it.
    let mut game = Game::new(GameConfig::new(13)).unwrap();
    let evaluator = Evaluator::default();
    let mut lines = 0u64;
    let mut pcs = 0u64;
    for _ in 0..300 {
        let decision = evaluator.decide(&game.view()).unwrap();
        let cells_before = game.board().cell_count();
        let result = game.play(&decision.mv.into()).unwrap();
        let cells_after = game.board().cell_count();
        assert_eq!(cells_before + 4, cells_after + 10 * result.lines);
        assert_eq!(result.perfect_clear, result.lines > 0 && cells_after == 0);
        lines += u64::from(result.lines);
        pcs += u64::from(result.perfect_clear);
    }
    let stats = game.stats();
    assert_eq!(
        (stats.pieces, stats.lines, stats.perfect_clears),
        (300, lines, pcs)
    );
    assert_eq!(stats.clears.iter().sum::<u64>(), 300);
    let by_rows: u64 = stats
        .clears
        .iter()
        .enumerate()
        .map(|(n, c)| n as u64 * c)
        .sum();
    assert_eq!(by_rows, lines);
    assert!(lines >= 100, "{lines} lines in 300 pieces");
}

// --- Records -------------------------------------------------------------------------

/// The recorded games in `tests/data`, with what they must replay to:
/// (file, pieces, lines, perfect clears, how the game ended).
const RECORDS: [(&str, u64, u64, u64, Option<GameOver>); 5] = [
    ("balanced-srs-seed1.pcgame", 250, 99, 2, None),
    ("srsplus-nohold-preview3-seed7.pcgame", 200, 79, 1, None),
    ("harddrop-preview1-seed3.pcgame", 200, 79, 3, None),
    (
        "tower-blockout-seed1.pcgame",
        15,
        0,
        0,
        Some(GameOver::BlockOut),
    ),
    (
        "leftstack-lockout-seed4.pcgame",
        14,
        0,
        0,
        Some(GameOver::LockOut),
    ),
];

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The games behind `RECORDS`, played again.
fn record_games() -> Vec<(&'static str, Game)> {
    let play = |config: GameConfig, player: &mut dyn Player, pieces| {
        let mut game = Game::new(config).unwrap();
        let limits = Limits {
            pieces: Some(pieces),
            ..Limits::default()
        };
        game.run(player, limits).unwrap();
        game
    };
    let srs_plus = Rules {
        kicks: KickTable::srs_plus(),
        hold: false,
        ..Rules::default()
    };
    let hard = Rules {
        drop: DropMode::Hard,
        ..Rules::default()
    };
    let mut evaluator = Evaluator::default();
    vec![
        (RECORDS[0].0, play(GameConfig::new(1), &mut evaluator, 250)),
        (
            RECORDS[1].0,
            play(
                GameConfig::new(7).with_preview(3).with_rules(srs_plus),
                &mut evaluator,
                200,
            ),
        ),
        (
            RECORDS[2].0,
            play(
                GameConfig::new(3).with_preview(1).with_rules(hard),
                &mut evaluator,
                200,
            ),
        ),
        (RECORDS[3].0, play(GameConfig::new(1), &mut Tower, 1000)),
        (
            RECORDS[4].0,
            play(GameConfig::new(4), &mut LeftStacker, 1000),
        ),
    ]
}

/// Writes the records (run after a deliberate change of the format or the players):
/// `cargo test -p pc-solver --release --test game -- --ignored write_records`.
#[test]
#[ignore]
fn write_records() {
    for (name, game) in record_games() {
        std::fs::write(data(name), game.record().to_string()).unwrap();
    }
}

#[test]
fn recorded_games_replay_to_their_outcome() {
    for (name, pieces, lines, pcs, over) in RECORDS {
        let path = data(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let record: GameRecord = text.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
        let game = record.replay().unwrap_or_else(|e| panic!("{name}: {e}"));
        let outcome = game.outcome();
        assert_eq!(
            (
                outcome.pieces,
                outcome.lines,
                outcome.perfect_clears,
                outcome.game_over
            ),
            (pieces, lines, pcs, over),
            "{name}"
        );
        // Written back, the record is the same text.
        assert_eq!(game.record().to_string(), text, "{name}");
    }
}

#[test]
fn records_round_trip_for_every_setting() {
    for (name, game) in record_games().into_iter().take(3) {
        let record = game.record();
        let parsed: GameRecord = record.to_string().parse().unwrap();
        assert_eq!(parsed, record, "{name}");
        let replayed = parsed.replay().unwrap();
        assert_eq!(replayed.board(), game.board(), "{name}");
    }
}

#[test]
fn bad_records_are_typed_errors() {
    let parse = |text: &str| text.parse::<GameRecord>();
    assert_eq!(
        parse("pc-game 2\nseed 1\nmoves\n"),
        Err(RecordError::MissingHeader { line: 1 })
    );
    assert_eq!(parse(""), Err(RecordError::MissingHeader { line: 1 }));
    assert_eq!(parse("pc-game 1\nmoves\n"), Err(RecordError::MissingSeed));
    assert_eq!(parse("pc-game 1\nseed 1\n"), Err(RecordError::MissingMoves));
    assert!(matches!(
        parse("pc-game 1\nseed x\nmoves\n"),
        Err(RecordError::BadValue { line: 2, .. })
    ));
    assert!(matches!(
        parse("pc-game 1\nseed 1\nkicks ars\nmoves\n"),
        Err(RecordError::BadValue { line: 3, expected, .. }) if expected.contains("srs+")
    ));
    assert!(matches!(
        parse("pc-game 1\nseed 1\nspeed 3\nmoves\n"),
        Err(RecordError::UnknownKey { line: 3, .. })
    ));
    assert!(matches!(
        parse("pc-game 1\nseed 1\nseed 2\nmoves\n"),
        Err(RecordError::DuplicateKey { line: 3, .. })
    ));
    let bad_move = parse("pc-game 1\n# a comment\nseed 1\nmoves\nTN4,0 TX4,0\n").unwrap_err();
    assert!(matches!(
        bad_move,
        RecordError::BadMove {
            line: 5,
            index: 2,
            ..
        }
    ));
    assert_eq!(
        bad_move.to_string(),
        "line 5, move 2 (\"TX4,0\"): 'X' is not an orientation (expected N, E, S or W)"
    );
    for token in ["", "Q", "TN", "TN4", "TN4,x", "tN4,0", "TN-5,0", "IN9,0"] {
        assert!(token.parse::<pc_solver::Move>().is_err(), "{token:?}");
    }
    assert!(matches!(
        parse("pc-game 1\nseed 1\nmoves\nresult pieces 0 lines 0 pcs 0 status ok\n"),
        Err(RecordError::BadValue { line: 4, .. })
    ));
    assert_eq!(
        parse("pc-game 1\nseed 1\nmoves\nresult pieces 0 lines 0 pcs 0 status playing\nTN4,0\n"),
        Err(RecordError::AfterResult { line: 5 })
    );
}

#[test]
fn replaying_checks_moves_and_result() {
    let text = std::fs::read_to_string(data(RECORDS[0].0)).unwrap();
    let mut record: GameRecord = text.parse().unwrap();
    // A changed result.
    let mut wrong = record.clone();
    if let Some(result) = wrong.result.as_mut() {
        result.lines += 1;
    }
    assert_eq!(
        wrong.replay().unwrap_err(),
        RecordError::ResultMismatch {
            what: "lines",
            recorded: "100".to_string(),
            replayed: "99".to_string()
        }
    );
    // A move moved into mid-air.
    let m = record.moves[9].placement;
    let c = m.centre();
    record.moves[9].placement = m.piece().with(m.orientation()).at(c.x, c.y + 5).unwrap();
    let error = record.replay().unwrap_err();
    assert!(
        matches!(
            error,
            RecordError::IllegalMove {
                index: 10,
                error: MoveError::Unreachable(_),
                ..
            }
        ),
        "{error}"
    );
    // Another seed deals other pieces: the first move soon plays a wrong piece.
    let mut reseeded: GameRecord = text.parse().unwrap();
    reseeded.config.seed = 2;
    assert!(reseeded.replay().is_err());
}

#[test]
fn boards_are_the_ones_of_the_moves() {
    // Replaying by hand: the board after each move is the lock of its placement.
    let record: GameRecord = std::fs::read_to_string(data(RECORDS[1].0))
        .unwrap()
        .parse()
        .unwrap();
    let mut game = Game::new(record.config.clone()).unwrap();
    let mut board = Board32::new();
    for mv in &record.moves {
        for (x, y) in mv.placement.cells() {
            board.fill(usize::from(x), u32::from(y));
        }
        board.clear_full_rows();
        game.play(&(*mv).into()).unwrap();
        assert_eq!(game.board(), &board);
    }
}

/// The record and move parsers never panic: arbitrary text, and valid records with a few
/// bytes changed, give a record or a typed error, and a record that parses replays to a
/// game or a typed error.
mod parser_fuzz {
    use super::*;
    use pc_bot::GameRecord;
    use pc_solver::Move;

    fn sample() -> String {
        std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/harddrop-preview1-seed3.pcgame"
        ))
        .unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn arbitrary_text_never_panics(text in ".{0,200}") {
            if let Ok(record) = text.parse::<GameRecord>() {
                let _ = record.replay();
            }
            let _ = text.parse::<Move>();
        }

        #[test]
        fn mutated_records_never_panic(
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<char>()), 1..4),
        ) {
            let mut chars: Vec<char> = sample().chars().collect();
            for (at, c) in edits {
                let i = at.index(chars.len());
                chars[i] = c;
            }
            let text: String = chars.into_iter().collect();
            if let Ok(record) = text.parse::<GameRecord>() {
                let _ = record.replay();
            }
        }
    }

    #[test]
    fn the_sample_is_valid() {
        // The mutations start from a record that parses and replays.
        let record: GameRecord = sample().parse().unwrap();
        assert!(record.replay().is_ok());
    }
}
