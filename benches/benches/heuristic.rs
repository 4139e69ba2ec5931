//! The heuristic evaluator: one decision on a mid-game field (T current, O held, five
//! pieces of preview), with and without the one-piece lookahead, and the features of one
//! placement. The decisions are checked legal before timing.

use criterion::{Criterion, criterion_group, criterion_main};
use pc_bag::BagState;
use pc_bitboard::Board32;
use pc_bot::{Evaluator, Features, GameView};
use pc_solver::Rules;
use pc_srs::{Piece, guideline_spawn};
use std::hint::black_box;

/// Seven rows, bumpy, with two holes: a field in the middle of a game.
const MID_GAME: &str = "\
....#.....
#...##...#
##.####.##
###.######
#####.####
####.#####
#.########";

fn bench_decision(c: &mut Criterion) {
    let board: Board32 = MID_GAME.parse().unwrap();
    let rules = Rules::default();
    let preview = [Piece::I, Piece::L, Piece::S, Piece::Z, Piece::J];
    let view = GameView {
        board,
        current: Piece::T,
        hold: Some(Piece::O),
        preview: &preview,
        bag: BagState::FRESH,
        rules: &rules,
        spawn: guideline_spawn(20),
    };
    let with = Evaluator::default();
    let without = Evaluator::default().with_lookahead(false);
    for evaluator in [&with, &without] {
        let d = evaluator.decide(&view).unwrap();
        let piece = if d.mv.hold { Piece::O } else { Piece::T };
        assert_eq!(d.mv.placement.piece(), piece);
        assert!(view.placements(piece).unwrap().contains(&d.mv.placement));
        assert!(d.value.is_finite());
    }

    let mut group = c.benchmark_group("heuristic");
    group.bench_function("decision with lookahead (beam 4)", |b| {
        b.iter(|| black_box(with.decide(black_box(&view))))
    });
    group.bench_function("decision without lookahead", |b| {
        b.iter(|| black_box(without.decide(black_box(&view))))
    });
    // The placement the evaluator chose.
    let placement = with.decide(&view).unwrap().mv.placement;
    assert!(placement.rests_on(&board));
    group.bench_function("features of one placement", |b| {
        b.iter(|| black_box(Features::lock(black_box(&board), black_box(&placement))))
    });
    group.finish();
}

criterion_group!(benches, bench_decision);
criterion_main!(benches);
