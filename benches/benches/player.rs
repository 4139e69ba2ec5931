//! The 10-PC player: a whole first PC of a seeded game (10 decisions: the first sampled,
//! the second by the clairvoyant chance, the last eight exact; the solver fresh each
//! time), and one sampled decision on the empty field. The PC is checked to happen
//! before timing.

use criterion::{Criterion, criterion_group, criterion_main};
use pc_bot::{DecisionKind, Game, GameConfig, Limits, PcPlayer, Player};
use pc_solver::Rules;
use std::hint::black_box;

/// Seed 2 makes its first PC with the default player without the exact opening (checked
/// below; the opening's seconds would swamp the other nine decisions).
const SEED: u64 = 2;

fn first_pc() -> u64 {
    let mut game = Game::new(GameConfig::new(SEED).with_preview(5)).unwrap();
    let mut player = PcPlayer::new(Rules::default(), 5)
        .unwrap()
        .with_seed(SEED)
        .with_exact_opening(false);
    let limits = Limits {
        pieces: Some(10),
        ..Limits::default()
    };
    game.run(&mut player, limits).unwrap();
    game.stats().perfect_clears
}

fn bench_player(c: &mut Criterion) {
    assert_eq!(first_pc(), 1);
    let game = Game::new(GameConfig::new(SEED).with_preview(5)).unwrap();
    let mut check = PcPlayer::new(Rules::default(), 5)
        .unwrap()
        .with_exact_opening(false);
    check.choose(&game.view()).unwrap();
    assert_eq!(check.last_decision(), Some(DecisionKind::Sampled));

    let mut group = c.benchmark_group("player");
    group.sample_size(10);
    group.bench_function("first PC of seed 2 (10 decisions, cold)", |b| {
        b.iter(|| black_box(first_pc()))
    });
    group.bench_function("sampled decision on the empty field (cold)", |b| {
        b.iter(|| {
            let mut player = PcPlayer::new(Rules::default(), 5)
                .unwrap()
                .with_exact_opening(false);
            black_box(player.choose(black_box(&game.view())))
        })
    });
    group.finish();
}

criterion_group!(benches, bench_player);
criterion_main!(benches);
