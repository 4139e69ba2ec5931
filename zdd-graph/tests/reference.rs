//! The reference figures usually quoted for 4-line PCs, and the exact sizes of our graphs.

use pc_bitboard::Board32;
use pc_zdd_graph::{BuildOptions, FillGraph, FillPlacement, StateId};
use std::collections::HashSet;

fn empty_4x10(options: BuildOptions) -> FillGraph {
    FillGraph::build(&Board32::new(), 4, options).unwrap()
}

#[test]
fn placements_in_a_four_row_field() {
    for (split, want) in [(false, 401), (true, 764)] {
        let table = FillPlacement::all(4, split).unwrap();
        let distinct: HashSet<u128> = table.iter().map(|p| p.cell_mask()).collect();
        assert_eq!(table.len(), want);
        assert_eq!(distinct.len(), want, "no two placements share a cell set");
    }
    // The graph of the empty field keeps the whole table.
    assert_eq!(empty_4x10(BuildOptions::new()).placements().len(), 764);
    let contiguous = empty_4x10(BuildOptions::new().contiguous_only(true));
    assert_eq!(contiguous.placements().len(), 401);
}

#[test]
fn empty_4x10_with_split_pieces() {
    let g = empty_4x10(BuildOptions::new());
    assert_eq!(g.count(), 522_230_555);
    assert_eq!(g.state_count(), 1_002);
    assert_eq!(g.transition_count(), 3_784);
    assert_eq!(g.explored_states(), 1_716);
}

#[test]
fn empty_4x10_with_contiguous_pieces() {
    let g = empty_4x10(BuildOptions::new().contiguous_only(true));
    assert_eq!(g.count(), 796_558);
    assert_eq!(g.state_count(), 546);
    assert_eq!(g.transition_count(), 1_502);
    assert_eq!(g.explored_states(), 1_008);
}

#[test]
fn empty_4x10_with_cycle_removal() {
    let g = empty_4x10(BuildOptions::new().acyclic(true));
    assert_eq!(g.count(), 99_389_880);
    assert_eq!(g.state_count(), 2_156);
    assert_eq!(g.transition_count(), 7_940);
    // Cycle removal only matters for split pieces.
    let c = empty_4x10(BuildOptions::new().contiguous_only(true).acyclic(true));
    assert_eq!(c.count(), 796_558);
}

#[test]
fn four_by_n_rectangles() {
    let want: [u128; 10] = [1, 4, 23, 117, 454, 2_003, 9_157, 40_899, 179_399, 796_558];
    for (n, &want) in (1..=10).zip(want.iter()) {
        let mut field = Board32::new();
        for y in 0..4 {
            for x in n..10 {
                field.fill(x, y);
            }
        }
        let g = FillGraph::build(&field, 4, BuildOptions::new().contiguous_only(true)).unwrap();
        assert_eq!(g.count(), want, "4x{n}");
    }
}

#[test]
fn empty_2x10_both_ways() {
    // Two rows: no piece can be split (a split needs a row between two covered ones).
    let split = FillGraph::build(&Board32::new(), 2, BuildOptions::new()).unwrap();
    let contiguous = FillGraph::build(
        &Board32::new(),
        2,
        BuildOptions::new().contiguous_only(true),
    )
    .unwrap();
    assert_eq!(split.count(), contiguous.count());
    assert_eq!(split.count(), split.fills().count() as u128);
}

#[test]
fn filled_and_dead_fields() {
    let full: Board32 = "##########".parse().unwrap();
    let g = FillGraph::build(&full, 1, BuildOptions::new()).unwrap();
    assert_eq!(g.root(), StateId::FILLED);
    assert_eq!(g.count(), 1);
    assert_eq!(g.fills().collect::<Vec<_>>(), vec![vec![]]);

    // Four isolated holes: nothing fits.
    let holes: Board32 = "#.#.#.#.##".parse().unwrap();
    let g = FillGraph::build(&holes, 1, BuildOptions::new()).unwrap();
    assert_eq!(g.root(), StateId::DEAD);
    assert_eq!(g.count(), 0);
    assert_eq!(g.fills().count(), 0);
    assert!(g.count_by_pieces().is_empty());
}

#[test]
#[ignore = "about 3 s in release: cargo test -p pc-zdd-graph --release -- --ignored"]
fn empty_6x10() {
    let g = FillGraph::build(&Board32::new(), 6, BuildOptions::new()).unwrap();
    assert_eq!(g.count(), 224_282_651_535_965_402);
    assert_eq!((g.state_count(), g.transition_count()), (47_349, 273_393));
    let c = FillGraph::build(
        &Board32::new(),
        6,
        BuildOptions::new().contiguous_only(true),
    )
    .unwrap();
    assert_eq!(c.count(), 2_569_437_089);
    assert_eq!((c.state_count(), c.transition_count()), (12_297, 36_511));
    let a = FillGraph::build(&Board32::new(), 6, BuildOptions::new().acyclic(true)).unwrap();
    assert_eq!(a.count(), 53_664_304_186_895);
    assert_eq!(
        (a.state_count(), a.transition_count()),
        (1_793_797, 8_075_188)
    );
}
