//! The public API on small, hand-checked fields.

use pc_bitboard::Board32;
use pc_srs::{Orientation, Piece};
use pc_zdd_graph::{BuildOptions, FillGraph, FillGraphError, PieceCounts, StateId};

/// J covers row 1 and skips row 2; T covers row 2 and skips row 1: each must come
/// before the other. The field's only fill.
const CYCLIC: &str = ".#.#######/#..#######/...#######/##.#######";

#[test]
fn a_cyclic_fill_is_removed() {
    let field: Board32 = CYCLIC.parse().unwrap();
    let all = FillGraph::build(&field, 4, BuildOptions::new()).unwrap();
    assert_eq!(all.count(), 1);
    let fill = all.fills().next().unwrap();
    let names: Vec<String> = fill
        .iter()
        .map(|&id| all.placement(id).to_string())
        .collect();
    assert_eq!(names, ["J-N x=1 rows 1,3", "T-W x=2 rows 0,2,3"]);
    assert_eq!(all.line_clear_order(&fill), None);

    let acyclic = FillGraph::build(&field, 4, BuildOptions::new().acyclic(true)).unwrap();
    assert_eq!(acyclic.count(), 0);
    assert_eq!(acyclic.root(), StateId::DEAD);
}

#[test]
fn an_ordered_split_fill_is_kept() {
    // An I fills row 1 first; then an L standing in column 1 skips the cleared row.
    // (The other fill, J + S, has no split piece.)
    let field: Board32 = "#.########/#.########/....######/#..#######"
        .parse()
        .unwrap();
    let g = FillGraph::build(&field, 4, BuildOptions::new().acyclic(true)).unwrap();
    assert_eq!(g.count(), 2);
    let fill = g
        .fills()
        .find(|f| f.iter().any(|&id| g.placement(id).is_split()))
        .unwrap();
    let order = g
        .line_clear_order(&fill)
        .expect("acyclic fills have an order");
    let names: Vec<String> = order
        .iter()
        .map(|&id| g.placement(id).to_string())
        .collect();
    assert_eq!(names, ["I-N x=1 rows 1", "L-E x=1 rows 0,2,3"]);
    // Every split piece comes after the rows it skips are full.
    let mut board = *g.field();
    for id in order {
        let p = g.placement(id);
        for y in 0..4 {
            if p.skipped_rows() >> y & 1 == 1 {
                assert_eq!(board.row(y), 0x3ff, "{p} placed before row {y} is full");
            }
        }
        board.merge(&p.board());
    }
    assert_eq!(board.full_rows(), 0b1111);
}

#[test]
fn piece_budget_limits_fills() {
    let field: Board32 = "######..../######....".parse().unwrap();
    let all = FillGraph::build(&field, 2, BuildOptions::new()).unwrap();
    let by_pieces = all.count_by_pieces();
    assert_eq!(by_pieces.values().sum::<u128>(), all.count());
    for budget in ["II", "OO", "IO", "LJ", "T", ""] {
        let budget: PieceCounts = budget.parse().unwrap();
        let g = FillGraph::build(&field, 2, BuildOptions::new().piece_budget(budget)).unwrap();
        let want: u128 = by_pieces
            .iter()
            .filter(|(m, _)| m.fits_in(budget))
            .map(|(_, n)| n)
            .sum();
        assert_eq!(g.count(), want, "budget {budget}");
    }
}

#[test]
fn decode_transitions() {
    let field: Board32 = "######..../######....".parse().unwrap();
    let g = FillGraph::build(&field, 2, BuildOptions::new()).unwrap();
    let mut seen = vec![];
    for t in g.transitions(g.root()) {
        let p = g.placement(t.placement());
        seen.push(p.to_string());
        assert_eq!(p.first_cell(), 6 * 8, "the first empty cell is (6, 0)");
        assert!(g.state(t.target()).is_some());
    }
    assert!(seen.contains(&"O-N x=6 rows 0,1".to_string()));
    assert!(seen.contains(&"I-N x=7 rows 0".to_string()));
    let o = g
        .placements()
        .iter()
        .find(|p| p.placement().piece() == Piece::O)
        .unwrap();
    assert_eq!(o.placement().orientation(), Orientation::Spawn);
    assert_eq!(o.placement().centre().x, 6);
    assert_eq!(o.rows(), 0b11);
    assert!(!o.is_split());
    assert_eq!(o.board().to_string(), "......##..\n......##..");
    // Counts from each state add up.
    let counts = g.path_counts();
    assert_eq!(counts[StateId::FILLED.index()], 1);
    assert_eq!(counts[StateId::DEAD.index()], 0);
    assert_eq!(counts[g.root().index()], g.count());
    assert_eq!(g.state(StateId::FILLED).unwrap().cells().cell_count(), 20);
}

#[test]
fn dot_output() {
    let field: Board32 = "######..../######....".parse().unwrap();
    let g = FillGraph::build(&field, 2, BuildOptions::new()).unwrap();
    let dot = g.to_dot();
    assert!(dot.starts_with("digraph fill_graph {\n"));
    assert!(dot.trim_end().ends_with('}'));
    assert!(dot.contains("s0 [label=\"filled\", shape=doublecircle];"));
    assert!(!dot.contains("dead"));
    assert_eq!(dot.matches(" -> ").count(), g.transition_count());
    assert!(dot.contains("######....\\l######....\\l"));
}

#[test]
fn typed_errors() {
    let e = FillGraph::build(&Board32::new(), 0, BuildOptions::new()).unwrap_err();
    assert_eq!(e, FillGraphError::ClearLineOutOfRange { clear_line: 0 });
    assert_eq!(
        e.to_string(),
        "clear line 0 is out of range: it must be 1 to 8"
    );
    let tall: Board32 = "....#...../##########".parse().unwrap();
    let e = FillGraph::build(&tall, 1, BuildOptions::new()).unwrap_err();
    assert_eq!(
        e,
        FillGraphError::CellAboveClearLine {
            column: 4,
            row: 1,
            clear_line: 1
        }
    );
    let e = FillGraph::build(&Board32::new(), 3, BuildOptions::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the field has 30 empty cells below the clear line 3, not a multiple of 4 (remainder 2)"
    );
}

#[test]
fn full_rows_in_the_field_are_already_cleared() {
    // A full row between two empty ones: contiguous pieces may span it, and the fills
    // are those of the field without it.
    let with_row: Board32 = "######..../##########/######....".parse().unwrap();
    let without: Board32 = "######..../######....".parse().unwrap();
    for options in [
        BuildOptions::new(),
        BuildOptions::new().contiguous_only(true),
        BuildOptions::new().acyclic(true),
    ] {
        let a = FillGraph::build(&with_row, 3, options).unwrap();
        let b = FillGraph::build(&without, 2, options).unwrap();
        assert_eq!(a.count(), b.count(), "{options:?}");
    }
}
