//! The one table of piece cells, and what follows from it: bounds, the bounding-box
//! offsets and the canonical orientation of pieces whose orientations share cells.

use crate::piece::{Orientation, Piece};

/// Cells of each piece in spawn orientation, relative to the rotation centre
/// (the convention of guideline games, fumen and sfinder: the centre is always one of
/// the piece's cells). The other orientations are these turned about the centre.
const SPAWN_CELLS: [[(i8, i8); 4]; 7] = [
    [(-1, 0), (0, 0), (1, 0), (2, 0)],  // I
    [(-1, 1), (-1, 0), (0, 0), (1, 0)], // J
    [(-1, 0), (0, 0), (1, 0), (1, 1)],  // L
    [(0, 0), (1, 0), (0, 1), (1, 1)],   // O
    [(-1, 0), (0, 0), (0, 1), (1, 1)],  // S
    [(-1, 0), (0, 0), (1, 0), (0, 1)],  // T
    [(-1, 1), (0, 1), (0, 0), (1, 0)],  // Z
];

const fn turn_cw(cells: [(i8, i8); 4]) -> [(i8, i8); 4] {
    let mut out = cells;
    let mut i = 0;
    while i < 4 {
        out[i] = (cells[i].1, -cells[i].0);
        i += 1;
    }
    out
}

const fn build_cells() -> [[[(i8, i8); 4]; 4]; 7] {
    let mut t = [[[(0i8, 0i8); 4]; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut c = SPAWN_CELLS[p];
        let mut r = 0;
        while r < 4 {
            t[p][r] = c;
            c = turn_cw(c);
            r += 1;
        }
        p += 1;
    }
    t
}

const CELLS: [[[(i8, i8); 4]; 4]; 7] = build_cells();

/// The cells of each piece and orientation ordered bottom row first, left to right within
/// a row: the order of [`Placement::cells`](crate::Placement::cells), which a translation
/// keeps, so that placements need not sort their cells.
const fn build_sorted_cells() -> [[[(i8, i8); 4]; 4]; 7] {
    let mut t = build_cells();
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            // Insertion sort by (dy, dx).
            let mut i = 1;
            while i < 4 {
                let mut j = i;
                while j > 0 {
                    let (a, b) = (t[p][r][j - 1], t[p][r][j]);
                    if b.1 < a.1 || (b.1 == a.1 && b.0 < a.0) {
                        t[p][r][j - 1] = b;
                        t[p][r][j] = a;
                    }
                    j -= 1;
                }
                i += 1;
            }
            r += 1;
        }
        p += 1;
    }
    t
}

const SORTED_CELLS: [[[(i8, i8); 4]; 4]; 7] = build_sorted_cells();

/// Cells of `piece` in `orientation`, relative to the rotation centre.
#[inline]
pub const fn cells(piece: Piece, orientation: Orientation) -> [(i8, i8); 4] {
    CELLS[piece as usize][orientation as usize]
}

/// The cells of [`cells`], bottom row first and left to right within a row.
#[inline]
pub const fn sorted_cells(piece: Piece, orientation: Orientation) -> [(i8, i8); 4] {
    SORTED_CELLS[piece as usize][orientation as usize]
}

/// `(min_dx, max_dx, min_dy, max_dy)` of the cells (a table built at compile time from the
/// cells, so that the move generator's per-call setup is a lookup).
#[inline]
pub const fn bounds(piece: Piece, orientation: Orientation) -> (i8, i8, i8, i8) {
    BOUNDS[piece as usize][orientation as usize]
}

const fn bounds_of(c: [(i8, i8); 4]) -> (i8, i8, i8, i8) {
    let (mut a, mut b, mut d, mut e) = (i8::MAX, i8::MIN, i8::MAX, i8::MIN);
    let mut i = 0;
    while i < 4 {
        let (x, y) = c[i];
        if x < a {
            a = x;
        }
        if x > b {
            b = x;
        }
        if y < d {
            d = y;
        }
        if y > e {
            e = y;
        }
        i += 1;
    }
    (a, b, d, e)
}

const fn build_bounds() -> [[(i8, i8, i8, i8); 4]; 7] {
    let mut t = [[(0i8, 0i8, 0i8, 0i8); 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            t[p][r] = bounds_of(CELLS[p][r]);
            r += 1;
        }
        p += 1;
    }
    t
}

const BOUNDS: [[(i8, i8, i8, i8); 4]; 7] = build_bounds();

/// Offset from the bottom-left corner of the SRS bounding box (3×3 for JLSTZ, 4×4 for I,
/// 2×2 for O) to the rotation centre: `centre = corner + CORNER_TO_CENTRE[piece][orientation]`.
/// The one table that links the two coordinate forms; tested against both the SRS
/// diagrams (cells inside the box) and sfinder's kick file.
pub(crate) const CORNER_TO_CENTRE: [[(i8, i8); 4]; 7] = [
    [(1, 2), (2, 2), (2, 1), (1, 1)], // I
    [(1, 1); 4],                      // J
    [(1, 1); 4],                      // L
    [(0, 0), (0, 1), (1, 1), (1, 0)], // O
    [(1, 1); 4],                      // S
    [(1, 1); 4],                      // T
    [(1, 1); 4],                      // Z
];

/// Size of the SRS bounding box of a piece.
pub const fn box_size(piece: Piece) -> i8 {
    match piece {
        Piece::I => 4,
        Piece::O => 2,
        _ => 3,
    }
}

/// The orientation reported for a placement, and the centre offset to it.
///
/// I, S and Z cover the same cells in spawn and reverse, and in right and left; O covers
/// the same cells in all four. Placements are reported in the canonical orientation:
/// spawn or right for I, S and Z, spawn for O, the orientation itself for J, L and T.
/// `orientation` at centre `c` covers the same cells as `canonical` at `c + offset`.
pub const fn canonical(piece: Piece, orientation: Orientation) -> (Orientation, (i8, i8)) {
    use Orientation::*;
    match (piece, orientation) {
        (Piece::I, Reverse) => (Spawn, (-1, 0)),
        (Piece::I, Left) => (Right, (0, 1)),
        (Piece::S | Piece::Z, Reverse) => (Spawn, (0, -1)),
        (Piece::S | Piece::Z, Left) => (Right, (-1, 0)),
        (Piece::O, Right) => (Spawn, (0, -1)),
        (Piece::O, Reverse) => (Spawn, (-1, -1)),
        (Piece::O, Left) => (Spawn, (-1, 0)),
        (_, o) => (o, (0, 0)),
    }
}

/// The orientations a piece is reported in (see [`canonical`]).
pub fn canonical_orientations(piece: Piece) -> &'static [Orientation] {
    use Orientation::*;
    match piece {
        Piece::I | Piece::S | Piece::Z => &[Spawn, Right],
        Piece::O => &[Spawn],
        _ => &[Spawn, Right, Reverse, Left],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut c: Vec<(i8, i8)>) -> Vec<(i8, i8)> {
        c.sort();
        c
    }

    #[test]
    fn every_shape_contains_its_centre_and_is_connected() {
        for p in Piece::ALL {
            for o in Orientation::ALL {
                let c = cells(p, o);
                assert!(c.contains(&(0, 0)), "{p:?} {o:?}");
                for &(x, y) in &c {
                    assert!(c.iter().any(|&(a, b)| (a - x).abs() + (b - y).abs() == 1));
                }
            }
        }
    }

    #[test]
    fn sorted_cells_are_the_cells_bottom_row_first() {
        for p in Piece::ALL {
            for o in Orientation::ALL {
                let s = sorted_cells(p, o);
                assert_eq!(
                    sorted(s.to_vec()),
                    sorted(cells(p, o).to_vec()),
                    "{p:?} {o:?}"
                );
                assert!(s.windows(2).all(|w| (w[0].1, w[0].0) < (w[1].1, w[1].0)));
            }
        }
    }

    #[test]
    fn canonical_covers_the_same_cells() {
        for p in Piece::ALL {
            for o in Orientation::ALL {
                let (co, (dx, dy)) = canonical(p, o);
                let a = sorted(cells(p, o).to_vec());
                let b = sorted(
                    cells(p, co)
                        .iter()
                        .map(|&(x, y)| (x + dx, y + dy))
                        .collect(),
                );
                assert_eq!(a, b, "{p:?} {o:?}");
                assert!(canonical_orientations(p).contains(&co));
            }
            // No two canonical orientations cover the same cells at any offset.
            let canon = canonical_orientations(p);
            for (i, &a) in canon.iter().enumerate() {
                for &b in &canon[i + 1..] {
                    let (ba, bb) = (bounds(p, a), bounds(p, b));
                    let ca = sorted(
                        cells(p, a)
                            .iter()
                            .map(|&(x, y)| (x - ba.0, y - ba.2))
                            .collect(),
                    );
                    let cb = sorted(
                        cells(p, b)
                            .iter()
                            .map(|&(x, y)| (x - bb.0, y - bb.2))
                            .collect(),
                    );
                    assert_ne!(ca, cb, "{p:?} {a:?} {b:?}");
                }
            }
        }
    }

    /// The SRS diagrams, written independently: rows of the bounding box top first.
    #[test]
    fn corner_table_matches_srs_diagrams() {
        let diagrams: [(Piece, [&str; 4]); 7] = [
            (
                Piece::I,
                [
                    "..../####/..../....",
                    "..#./..#./..#./..#.",
                    "..../..../####/....",
                    ".#../.#../.#../.#..",
                ],
            ),
            (
                Piece::J,
                ["#../###/...", ".##/.#./.#.", ".../###/..#", ".#./.#./##."],
            ),
            (
                Piece::L,
                ["..#/###/...", ".#./.#./.##", ".../###/#..", "##./.#./.#."],
            ),
            (Piece::O, ["##/##", "##/##", "##/##", "##/##"]),
            (
                Piece::S,
                [".##/##./...", ".#./.##/..#", ".../.##/##.", "#../##./.#."],
            ),
            (
                Piece::T,
                [".#./###/...", ".#./.##/.#.", ".../###/.#.", ".#./##./.#."],
            ),
            (
                Piece::Z,
                ["##./.##/...", "..#/.##/.#.", ".../##./.##", ".#./##./#.."],
            ),
        ];
        for (p, rows) in diagrams {
            for o in Orientation::ALL {
                let rows: Vec<&str> = rows[o as usize].split('/').collect();
                let n = rows.len() as i8;
                let mut want = vec![];
                for (i, row) in rows.iter().enumerate() {
                    for (x, ch) in row.chars().enumerate() {
                        if ch == '#' {
                            want.push((x as i8, n - 1 - i as i8));
                        }
                    }
                }
                let (cx, cy) = CORNER_TO_CENTRE[p as usize][o as usize];
                let got: Vec<(i8, i8)> =
                    cells(p, o).iter().map(|&(x, y)| (x + cx, y + cy)).collect();
                assert_eq!(sorted(got), sorted(want), "{p:?} {o:?}");
                assert_eq!(n, box_size(p));
            }
        }
    }
}
