//! Properties of the move generator on random fields.

mod common;

use pc_bitboard::Board32;
use pc_srs::{DropMode, KickTable, MoveGenerator, Piece, pc_spawn};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn field(max_rows: u32) -> impl Strategy<Value = (Board32, u32)> {
    (2..=max_rows).prop_flat_map(|rows| {
        (
            proptest::collection::vec(0u16..1024, rows as usize),
            Just(rows),
            0u32..=1,
        )
            .prop_map(|(bits, rows, extra)| {
                let mut b = Board32::new();
                for (y, r) in bits.into_iter().enumerate() {
                    // Keep some room: clear the top rows more often than not.
                    let r = if y as u32 + 2 >= rows {
                        r & 0b1010010101
                    } else {
                        r
                    };
                    b.set_row(y as u32, r);
                }
                (b, rows + extra)
            })
    })
}

fn piece() -> impl Strategy<Value = Piece> {
    (0usize..7).prop_map(|i| Piece::ALL[i])
}

fn table(i: usize) -> KickTable {
    match i {
        0 => KickTable::srs(),
        1 => KickTable::srs_plus(),
        2 => KickTable::jstris180(),
        3 => KickTable::nullpomino180(),
        _ => KickTable::none(),
    }
}

fn drop(hard: bool) -> DropMode {
    if hard { DropMode::Hard } else { DropMode::Soft }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fast_generator_equals_slow_search((board, line) in field(7), p in piece(), k in 0usize..5, hard in any::<bool>()) {
        let kicks = table(k);
        let generator = MoveGenerator::new(&kicks, drop(hard));
        let fast: BTreeSet<Vec<(i32, i32)>> = generator
            .placements(&board, p, line)
            .unwrap()
            .iter()
            .map(|pl| {
                let mut c: Vec<(i32, i32)> = pl.cells().iter().map(|&(x, y)| (x as i32, y as i32)).collect();
                c.sort();
                c
            })
            .collect();
        let slow = common::slow_placements(&board, p, line, &kicks, drop(hard));
        prop_assert_eq!(fast, slow);
    }

    #[test]
    fn every_placement_replays_from_its_path_and_locks((board, line) in field(6), p in piece(), k in 0usize..5, hard in any::<bool>()) {
        let kicks = table(k);
        let generator = MoveGenerator::new(&kicks, drop(hard));
        for placement in generator.placements(&board, p, line).unwrap().iter() {
            // Locks: fits, rests, and stays below the clear line.
            prop_assert!(placement.rests_on(&board), "{:?} does not rest", placement);
            prop_assert!(placement.rows().1 < line, "{:?} sticks out above line {}", placement, line);
            let path = generator.path(&board, &placement, line).unwrap();
            let path = path.unwrap_or_else(|| panic!("no path to {placement:?} on\n{board}"));
            let landed = path.replay(&board, p, &kicks, pc_spawn(line));
            prop_assert!(landed.is_some_and(|l| l.same_cells(&placement)), "{} does not replay to {:?}", path, placement);
            if hard {
                prop_assert!(!path.inputs().iter().any(|i| matches!(i, pc_srs::Input::Down | pc_srs::Input::SoftDrop)));
            }
        }
    }

    #[test]
    fn one_placement_is_reachable_exactly_when_the_generator_finds_it((board, line) in field(6), p in piece(), k in 0usize..5, hard in any::<bool>()) {
        let kicks = table(k);
        let generator = MoveGenerator::new(&kicks, drop(hard));
        let all = generator.placements(&board, p, line).unwrap();
        let mut reachable = 0;
        for o in pc_srs::Orientation::ALL {
            for x in 0..10 {
                for y in 0..line as i32 + 2 {
                    let Ok(placement) = p.with(o).at(x, y) else { continue };
                    let is = generator.is_reachable(&board, &placement, line).unwrap();
                    prop_assert_eq!(is, all.contains(&placement), "{:?} on\n{}", placement, board);
                    reachable += usize::from(is);
                }
            }
        }
        // Every placement found is met (as often as its orientations share its cells).
        prop_assert!(reachable >= all.len());
    }

    #[test]
    fn a_drop_or_slide_in_is_a_real_move((board, line) in field(6), p in piece(), k in 0usize..5, hard in any::<bool>()) {
        let kicks = table(k);
        let generator = MoveGenerator::new(&kicks, drop(hard));
        let all = generator.placements(&board, p, line).unwrap();
        for o in pc_srs::Orientation::ALL {
            for x in 0..10 {
                for y in 0..line as i32 + 2 {
                    let Ok(placement) = p.with(o).at(x, y) else { continue };
                    if generator.drops_or_slides_in(&board, &placement, line) {
                        prop_assert!(all.contains(&placement), "{:?} on\n{}", placement, board);
                    }
                }
            }
        }
    }

    #[test]
    fn hard_drop_placements_mirror((board, line) in field(7), p in piece()) {
        let kicks = KickTable::srs();
        let generator = MoveGenerator::new(&kicks, DropMode::Hard);
        let cells = |set: pc_srs::MoveSet<u32>| -> BTreeSet<Vec<(u8, u8)>> {
            set.iter().map(|pl| pl.cells().to_vec()).collect()
        };
        let direct: BTreeSet<Vec<(u8, u8)>> = cells(generator.placements(&board, p, line).unwrap())
            .into_iter()
            .map(|c| {
                let mut m: Vec<(u8, u8)> = c.iter().map(|&(x, y)| (9 - x, y)).collect();
                m.sort_by_key(|&(x, y)| (y, x));
                m
            })
            .collect();
        let mirrored = cells(generator.placements(&board.mirrored(), p.mirrored(), line).unwrap());
        prop_assert_eq!(direct, mirrored);
    }

    #[test]
    fn soft_drop_reaches_at_least_what_hard_drop_does((board, line) in field(7), p in piece()) {
        let kicks = KickTable::srs();
        let soft = MoveGenerator::new(&kicks, DropMode::Soft).placements(&board, p, line).unwrap();
        let hard = MoveGenerator::new(&kicks, DropMode::Hard).placements(&board, p, line).unwrap();
        for pl in hard.iter() {
            prop_assert!(soft.contains(&pl));
        }
    }
}
