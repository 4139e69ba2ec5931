//! Properties of the perfect-clear search on random small fields.

use pc_bitboard::Board32;
use pc_solver::{PcField, Rules, Searcher, percent};
use pc_srs::{DropMode, Orientation, Piece};
use proptest::prelude::*;
use proptest::strategy::ValueTree;

/// A field of `rows` full rows with 2 or 3 random non-overlapping pieces carved out, so
/// its empty cells can always be tiled (whether the pieces can get there is the search's
/// business).
fn field(rows: u32) -> impl Strategy<Value = Board32> {
    proptest::collection::vec((0usize..7, 0usize..4, 0i32..10, 0i32..4), 2..=3).prop_map(
        move |tries| {
            let mut carved = Board32::new();
            for (p, o, x, y) in tries {
                let Ok(pl) = Piece::ALL[p].with(Orientation::ALL[o]).at(x, y) else {
                    continue;
                };
                let cells = pl.to_board::<u32>().unwrap();
                if pl.rows().1 < rows && !cells.intersects(&carved) {
                    carved.merge(&cells);
                }
            }
            let mut b = Board32::new();
            for y in 0..rows {
                b.set_row(y, 0x3ff & !carved.row(y));
            }
            b
        },
    )
}

fn queue(len: usize) -> impl Strategy<Value = Vec<Piece>> {
    proptest::collection::vec((0usize..7).prop_map(|i| Piece::ALL[i]), len)
}

fn problem(board: Board32, rows: u32) -> Option<PcField> {
    PcField::new(board, rows).ok()
}

#[test]
fn random_cases_are_often_solvable() {
    // The properties must not hold vacuously: run their generators and count solutions.
    // Runs the replay property's generator on its own to check it exercises solutions.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut solved = 0;
    for _ in 0..200 {
        let board = field(3).new_tree(&mut runner).unwrap().current();
        let q = queue(4).new_tree(&mut runner).unwrap().current();
        if let Some(p) = problem(board, 3) {
            solved += Searcher::new(Rules::default()).has_solution(&p, None, &q) as usize;
        }
    }
    assert!(
        solved >= 20,
        "only {solved} of 200 random cases have a solution"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn percent_with_hold_is_at_least_without(board in field(3), first in 0usize..7) {
        let pattern: pc_bag::PatternSet = format!("{},*p3", Piece::ALL[first].to_char()).parse().unwrap();
        let Some(field) = problem(board, 3) else { return Ok(()) };
        if field.pieces_needed() > 3 { return Ok(()); }
        let with = percent(&field, &Rules::default(), &pattern).unwrap();
        let without = percent(&field, &Rules::without_hold(), &pattern).unwrap();
        // Compare as fractions: with hold the sequences are one piece longer.
        prop_assert!(with.success * without.total >= without.success * with.total,
            "hold {}/{} < no hold {}/{}", with.success, with.total, without.success, without.total);
    }

    #[test]
    fn solutions_replay_to_an_empty_field(board in field(3), q in queue(4), hold in any::<bool>()) {
        let rules = if hold { Rules::default() } else { Rules::without_hold() };
        let Some(p) = problem(board, 3) else { return Ok(()) };
        let mut searcher = Searcher::new(rules.clone());
        let generator = rules.generator();
        let mut n = 0;
        searcher.solutions(&p, None, &q, |solution| {
            n += 1;
            // Move by move: each placement is one the generator offers, then lines clear.
            let mut f = p;
            for step in &solution.steps {
                let moves = generator.placements(f.board(), step.placement.piece(), f.clear_line()).unwrap();
                assert!(moves.contains(&step.placement), "{:?} is not reachable", step.placement);
                f = f.place(&step.placement);
            }
            assert!(f.is_clear());
            // In the starting field's coordinates the cells tile its empty cells exactly.
            let mut b = *p.board();
            for step in &solution.steps {
                assert!(!b.intersects(&step.cells));
                b.merge(&step.cells);
            }
            assert_eq!(b.full_rows().count_ones(), p.clear_line());
            // The pieces played come from the queue in a hold order.
            let played: Vec<Piece> = solution.pieces();
            if !hold {
                assert_eq!(&played[..], &q[..played.len()]);
            }
            n < 20
        });
        prop_assert_eq!(n > 0, searcher.has_solution(&p, None, &q));
    }

    #[test]
    fn hard_drop_percent_is_mirror_symmetric(board in field(2), first in 0usize..7) {
        let rules = Rules { drop: DropMode::Hard, ..Rules::default() };
        let Some(direct) = problem(board, 2) else { return Ok(()) };
        let mirrored = problem(board.mirrored(), 2).unwrap();
        let p = Piece::ALL[first];
        let a = percent(&direct, &rules, &format!("{},*p2", p.to_char()).parse().unwrap()).unwrap();
        let b = percent(&mirrored, &rules, &format!("{},*p2", p.mirrored().to_char()).parse().unwrap()).unwrap();
        prop_assert_eq!((a.success, a.total), (b.success, b.total));
    }
}
