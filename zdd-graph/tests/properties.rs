//! The graph against a naive backtracking count on random small fields (up to 4 rows,
//! up to 6 columns of empty cells). The naive side derives its placements on its own
//! (all four orientations, duplicates removed by cell set), fills cells in row-major
//! order (the graph uses column-major), and checks line-clear orders piece by piece.

use pc_bitboard::Board32;
use pc_srs::{Orientation, Piece, shape};
use pc_zdd_graph::{BuildOptions, CoverCheck, FillGraph, PieceCounts};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashSet};

#[derive(Clone, Debug)]
struct NaivePlacement {
    piece: Piece,
    cells: Vec<(usize, u32)>,
    rows: u8,
    skipped: u8,
}

fn naive_placements(clear_line: u32) -> Vec<NaivePlacement> {
    let mut seen = HashSet::new();
    let mut out = vec![];
    for piece in Piece::ALL {
        for o in Orientation::ALL {
            let c = shape::cells(piece, o);
            let min_x = c.iter().map(|p| p.0).min().unwrap();
            let min_y = c.iter().map(|p| p.1).min().unwrap();
            let c: Vec<(i32, i32)> = c
                .iter()
                .map(|&(x, y)| ((x - min_x) as i32, (y - min_y) as i32))
                .collect();
            let width = c.iter().map(|p| p.0).max().unwrap() + 1;
            let height = c.iter().map(|p| p.1).max().unwrap() + 1;
            // Every increasing choice of `height` field rows.
            for choice in 0u32..(1 << clear_line) {
                if choice.count_ones() != height as u32 {
                    continue;
                }
                let field_rows: Vec<u32> =
                    (0..clear_line).filter(|y| choice >> y & 1 == 1).collect();
                for x0 in 0..=(10 - width) {
                    let mut cells: Vec<(usize, u32)> = c
                        .iter()
                        .map(|&(x, y)| ((x0 + x) as usize, field_rows[y as usize]))
                        .collect();
                    cells.sort();
                    if !seen.insert((piece, cells.clone())) {
                        continue;
                    }
                    let lo = field_rows[0];
                    let hi = *field_rows.last().unwrap();
                    let span: u8 = (lo..=hi).fold(0, |m, y| m | 1 << y);
                    out.push(NaivePlacement {
                        piece,
                        cells,
                        rows: choice as u8,
                        skipped: span & !(choice as u8),
                    });
                }
            }
        }
    }
    out
}

struct Naive<'a> {
    placements: &'a [NaivePlacement],
    grid: [[bool; 10]; 4],
    rows: u32,
    prefull: u8,
    contiguous_only: bool,
    acyclic: bool,
    budget: [u8; 7],
    used: Vec<usize>,
    by_pieces: BTreeMap<[u8; 7], u128>,
}

impl Naive<'_> {
    fn count(&mut self) -> u128 {
        // First empty cell, row-major.
        let first = (0..self.rows)
            .flat_map(|y| (0..10).map(move |x| (x, y)))
            .find(|&(x, y)| !self.grid[y as usize][x]);
        let Some(cell) = first else {
            if self.acyclic && !self.has_order() {
                return 0;
            }
            let mut m = [0u8; 7];
            for &i in &self.used {
                m[self.placements[i].piece.index()] += 1;
            }
            *self.by_pieces.entry(m).or_insert(0) += 1;
            return 1;
        };
        let mut total = 0;
        for i in 0..self.placements.len() {
            let p = &self.placements[i];
            if !p.cells.contains(&cell)
                || p.cells.iter().any(|&(x, y)| self.grid[y as usize][x])
                || (self.contiguous_only && p.skipped & !self.prefull != 0)
                || self.budget[p.piece.index()] == 0
            {
                continue;
            }
            let cells = p.cells.clone();
            let piece = p.piece.index();
            self.set(&cells, true);
            self.budget[piece] -= 1;
            self.used.push(i);
            total += self.count();
            self.used.pop();
            self.budget[piece] += 1;
            self.set(&cells, false);
        }
        total
    }

    fn set(&mut self, cells: &[(usize, u32)], v: bool) {
        for &(x, y) in cells {
            self.grid[y as usize][x] = v;
        }
    }

    /// Kahn's algorithm on pieces: A before B when B skips a row A covers.
    fn has_order(&self) -> bool {
        let ps: Vec<&NaivePlacement> = self.used.iter().map(|&i| &self.placements[i]).collect();
        let mut done = vec![false; ps.len()];
        for _ in 0..ps.len() {
            let ready = (0..ps.len()).find(|&b| {
                !done[b]
                    && (0..ps.len()).all(|a| a == b || done[a] || ps[a].rows & ps[b].skipped == 0)
            });
            match ready {
                Some(b) => done[b] = true,
                None => return false,
            }
        }
        true
    }
}

/// A field of `rows` rows: columns `0..width` with the given holes filled, the rest
/// filled; then the last empty cells (row-major) filled until the count is a multiple
/// of 4.
fn make_field(rows: u32, width: usize, filled: &[bool]) -> Board32 {
    let mut b = Board32::new();
    for y in 0..rows {
        for x in 0..10 {
            if x >= width || filled[y as usize * 6 + x] {
                b.fill(x, y);
            }
        }
    }
    let mut empty: Vec<(usize, u32)> = (0..rows)
        .flat_map(|y| (0..10).map(move |x| (x, y)))
        .filter(|&(x, y)| !b.cell(x, y))
        .collect();
    while empty.len() % 4 != 0 {
        let (x, y) = empty.pop().unwrap();
        b.fill(x, y);
    }
    b
}

fn field_strategy() -> impl Strategy<Value = (u32, Board32)> {
    (
        1u32..=4,
        1usize..=6,
        proptest::collection::vec(proptest::bool::weighted(0.2), 24),
    )
        .prop_map(|(rows, width, filled)| (rows, make_field(rows, width, &filled)))
}

fn options_strategy() -> impl Strategy<Value = BuildOptions> {
    (
        any::<bool>(),
        any::<bool>(),
        proptest::option::of(proptest::array::uniform7(0u8..=3)),
    )
        .prop_map(|(contiguous, acyclic, budget)| {
            let o = BuildOptions::new()
                .contiguous_only(contiguous)
                .acyclic(acyclic);
            match budget {
                Some(b) => o.piece_budget(PieceCounts::new(b)),
                None => o,
            }
        })
}

fn naive(field: &Board32, rows: u32, options: &BuildOptions) -> (u128, BTreeMap<[u8; 7], u128>) {
    let placements = naive_placements(rows);
    let mut grid = [[false; 10]; 4];
    for (y, row) in grid.iter_mut().enumerate().take(rows as usize) {
        for (x, cell) in row.iter_mut().enumerate() {
            *cell = field.cell(x, y as u32);
        }
    }
    let prefull = (0..rows)
        .filter(|&y| field.row(y) == 0x3ff)
        .fold(0u8, |m, y| m | 1 << y);
    let mut n = Naive {
        placements: &placements,
        grid,
        rows,
        prefull,
        contiguous_only: options.is_contiguous_only(),
        acyclic: options.is_acyclic(),
        budget: options
            .budget()
            .unwrap_or(PieceCounts::UNLIMITED)
            .to_array(),
        used: vec![],
        by_pieces: BTreeMap::new(),
    };
    let count = n.count();
    (count, n.by_pieces)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn count_matches_naive_backtracking((rows, field) in field_strategy(), options in options_strategy()) {
        let g = FillGraph::build(&field, rows, options).unwrap();
        let (want, want_by_pieces) = naive(&field, rows, &options);
        prop_assert_eq!(g.count(), want, "field\n{}\n{:?}", field, options);
        let by_pieces: BTreeMap<[u8; 7], u128> =
            g.count_by_pieces().into_iter().map(|(m, n)| (m.to_array(), n)).collect();
        prop_assert_eq!(by_pieces, want_by_pieces);
    }

    /// The quick check says yes exactly when some fill's pieces exceed the budget by at
    /// most `any` pieces (the wildcards).
    #[test]
    fn the_cover_check_agrees_with_the_fills(
        (rows, field) in field_strategy(),
        budget in proptest::array::uniform7(0u8..=2),
        any in 0u32..=2,
    ) {
        let g = FillGraph::build(&field, rows, BuildOptions::new()).unwrap();
        let want = g.count_by_pieces().keys().any(|m| {
            let over: u32 = m
                .to_array()
                .iter()
                .zip(budget)
                .map(|(&n, b)| n.saturating_sub(b) as u32)
                .sum();
            over <= any
        });
        let check = CoverCheck::new(rows).unwrap();
        let budget = PieceCounts::new(budget);
        prop_assert_eq!(check.can_cover_with_any(&field, budget, any), want, "field\n{}\n{} + {}", field, budget, any);
        if any == 0 {
            prop_assert_eq!(check.can_cover(&field, budget), want);
        }
    }

    /// The first placements are exactly the unsplit placements of the graph's fills.
    #[test]
    fn first_placements_are_the_unsplit_members_of_fills((rows, field) in field_strategy()) {
        let g = FillGraph::build(&field, rows, BuildOptions::new()).unwrap();
        let mut want = HashSet::new();
        let mut it = g.fills();
        while let Some(fill) = it.next_fill() {
            for &id in fill {
                let p = g.placement(id);
                if !p.is_split() {
                    want.insert(p.placement_after_clears(0).unwrap().canonical());
                }
            }
        }
        let got: Vec<_> = CoverCheck::new(rows).unwrap().first_placements(&field);
        let got_set: HashSet<_> = got.iter().map(|p| p.canonical()).collect();
        prop_assert_eq!(got.len(), got_set.len(), "no placement twice");
        prop_assert_eq!(got_set, want, "field\n{}", field);
    }

    #[test]
    fn every_fill_covers_each_empty_cell_once((rows, field) in field_strategy(), options in options_strategy()) {
        let g = FillGraph::build(&field, rows, options).unwrap();
        let budget = options.budget().unwrap_or(PieceCounts::UNLIMITED);
        let mut fills = 0u128;
        let mut distinct = HashSet::new();
        let mut it = g.fills();
        while let Some(fill) = it.next_fill() {
            fills += 1;
            let mut board = field;
            let mut used = PieceCounts::ZERO;
            for &id in fill {
                let p = g.placement(id);
                prop_assert!(!board.intersects(&p.board()), "{} overlaps", p);
                board.merge(&p.board());
                used.add(p.placement().piece());
                if options.is_contiguous_only() {
                    prop_assert!(p.skipped_rows() & !field.full_rows() as u8 == 0);
                }
            }
            prop_assert_eq!(board.full_rows(), (1u32 << rows) - 1, "all cells below the clear line");
            prop_assert_eq!(board.cell_count(), 10 * rows);
            prop_assert!(used.fits_in(budget), "{} exceeds {}", used, budget);
            if options.is_acyclic() {
                prop_assert!(g.line_clear_order(fill).is_some());
            }
            let mut sorted = fill.to_vec();
            sorted.sort();
            prop_assert!(distinct.insert(sorted), "a fill is given twice");
        }
        prop_assert_eq!(fills, g.count());
    }

    #[test]
    fn full_rows_do_not_change_the_fills((rows, field) in field_strategy(), at in 0u32..4, options in options_strategy()) {
        prop_assume!(rows < 4);
        let at = at.min(rows);
        let mut taller = field;
        taller.insert_rows(1 << at, true);
        let a = FillGraph::build(&field, rows, options).unwrap();
        let b = FillGraph::build(&taller, rows + 1, options).unwrap();
        prop_assert_eq!(a.count(), b.count());
    }
}

/// Every field of 4 rows whose empty cells lie in the 3 left columns: exhaustive, and
/// many of them have fills with cyclic line-clear dependencies.
#[test]
fn exhaustive_four_by_three_with_and_without_cycle_removal() {
    let mut with_cycles = 0;
    for holes in 0u32..(1 << 12) {
        let mut field = Board32::new();
        for y in 0..4 {
            for x in 0..10 {
                if x >= 3 || holes >> (y * 3 + x as u32) & 1 == 1 {
                    field.fill(x, y);
                }
            }
        }
        if (40 - field.cell_count()) % 4 != 0 {
            continue;
        }
        let mut counts = [0u128; 2];
        for (i, acyclic) in [false, true].into_iter().enumerate() {
            let options = BuildOptions::new().acyclic(acyclic);
            let g = FillGraph::build(&field, 4, options).unwrap();
            let (want, _) = naive(&field, 4, &options);
            assert_eq!(g.count(), want, "field\n{field}\n{options:?}");
            counts[i] = want;
        }
        if counts[1] < counts[0] {
            with_cycles += 1;
        }
    }
    assert!(
        with_cycles > 10,
        "only {with_cycles} fields have cyclic fills"
    );
}
