//! Test helpers: a slow, obviously-correct search over single moves, written without the
//! generator's bit tricks, to derive placement counts independently.
#![allow(dead_code)]

use pc_bitboard::Board32;
use pc_srs::{DropMode, KickTable, Orientation, Piece, shape};
use std::collections::{BTreeSet, HashSet, VecDeque};

/// A piece state: orientation and rotation centre.
pub type State = (Orientation, i32, i32);

pub fn cells_of(piece: Piece, s: State) -> Vec<(i32, i32)> {
    let mut c: Vec<(i32, i32)> = shape::cells(piece, s.0)
        .iter()
        .map(|&(dx, dy)| (s.1 + dx as i32, s.2 + dy as i32))
        .collect();
    c.sort();
    c
}

/// Whether the piece fits: every cell inside the walls, above the floor, below `ceiling`,
/// and on an empty cell.
pub fn fits(board: &Board32, piece: Piece, s: State, ceiling: i32) -> bool {
    cells_of(piece, s).iter().all(|&(x, y)| {
        (0..10).contains(&x) && y >= 0 && y < ceiling && !board.cell(x as usize, y as u32)
    })
}

/// Every distinct cell set where `piece` can lock below `line`, entering from above it,
/// found by breadth-first search over single moves.
pub fn slow_placements(
    board: &Board32,
    piece: Piece,
    line: u32,
    kicks: &KickTable,
    drop: DropMode,
) -> BTreeSet<Vec<(i32, i32)>> {
    let line = line as i32;
    // The space above the line is open; searching up to 8 rows above it is enough, as any
    // higher position is equivalent to one in that band.
    let ceiling = (line + 8).min(32);
    let mut seen: HashSet<State> = HashSet::new();
    let mut queue = VecDeque::new();
    for o in Orientation::ALL {
        for x in -2..12 {
            for y in -3..ceiling + 3 {
                let s = (o, x, y);
                let c = cells_of(piece, s);
                if c.iter().all(|&(_, cy)| cy >= line)
                    && fits(board, piece, s, ceiling)
                    && seen.insert(s)
                {
                    queue.push_back(s);
                }
            }
        }
    }
    while let Some(s) = queue.pop_front() {
        let mut next = vec![(s.0, s.1, s.2 - 1)];
        if drop == DropMode::Soft {
            next.push((s.0, s.1 - 1, s.2));
            next.push((s.0, s.1 + 1, s.2));
            for to in [s.0.cw(), s.0.ccw(), s.0.r180()] {
                for k in kicks.kicks(piece, s.0, to) {
                    let t = (to, s.1 + k.x as i32, s.2 + k.y as i32);
                    if fits(board, piece, t, ceiling) {
                        next.push(t);
                        break;
                    }
                }
            }
        }
        for t in next {
            if fits(board, piece, t, ceiling) && seen.insert(t) {
                queue.push_back(t);
            }
        }
    }
    seen.iter()
        .filter(|&&s| {
            let below = (s.0, s.1, s.2 - 1);
            !fits(board, piece, below, ceiling) && cells_of(piece, s).iter().all(|&(_, y)| y < line)
        })
        .map(|&s| cells_of(piece, s))
        .collect()
}

/// The kick tables a perft file may name: a built-in, else a file of the sfinder test data
/// (`nokicks`).
pub fn kick_table(name: &str) -> KickTable {
    KickTable::by_name(name).unwrap_or_else(|_| {
        KickTable::from_properties_file(testdata(&format!("kicks/{name}.properties")))
            .unwrap_or_else(|e| panic!("kick table {name}: {e}"))
    })
}

/// Path of a file in the workspace's sfinder test data (testdata/sfinder); fails loudly when it is missing.
pub fn testdata(rel: &str) -> std::path::PathBuf {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/sfinder")
        .join(rel);
    assert!(
        p.exists(),
        "missing test data {}: the workspace keeps it in testdata/sfinder",
        p.display()
    );
    p
}
