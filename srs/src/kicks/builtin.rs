//! The built-in tables, written as the guideline publishes them: offsets of the
//! bounding box's corner, y up. They are converted to the rotation-centre form when the
//! table is built, and tested against sfinder's own `srs.properties`.

use super::KickTable;
use crate::piece::{Orientation, Orientation::*, Piece};

type Row = (Orientation, Orientation, &'static [(i8, i8)]);

const JLSTZ_SRS: [Row; 8] = [
    (Spawn, Right, &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    (Right, Spawn, &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    (Right, Reverse, &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    (
        Reverse,
        Right,
        &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
    ),
    (Reverse, Left, &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    (Left, Reverse, &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    (Left, Spawn, &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    (Spawn, Left, &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
];

const I_SRS: [Row; 8] = [
    (Spawn, Right, &[(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)]),
    (Right, Spawn, &[(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)]),
    (Right, Reverse, &[(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)]),
    (Reverse, Right, &[(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)]),
    (Reverse, Left, &[(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)]),
    (Left, Reverse, &[(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)]),
    (Left, Spawn, &[(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)]),
    (Spawn, Left, &[(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)]),
];

/// SRS+ (TETR.IO): the I kicks are mirror-symmetric.
const I_SRS_PLUS: [Row; 8] = [
    (Spawn, Right, &[(0, 0), (1, 0), (-2, 0), (-2, -1), (1, 2)]),
    (Right, Spawn, &[(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)]),
    (Right, Reverse, &[(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)]),
    (Reverse, Right, &[(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)]),
    (Reverse, Left, &[(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)]),
    (Left, Reverse, &[(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)]),
    (Left, Spawn, &[(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)]),
    (Spawn, Left, &[(0, 0), (-1, 0), (2, 0), (2, -1), (-1, 2)]),
];

/// SRS+ half turns of J, L, S, T, Z.
const HALF_JLSTZ_SRS_PLUS: [Row; 4] = [
    (
        Spawn,
        Reverse,
        &[(0, 0), (0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)],
    ),
    (
        Right,
        Left,
        &[(0, 0), (1, 0), (1, 2), (1, 1), (0, 2), (0, 1)],
    ),
    (
        Reverse,
        Spawn,
        &[(0, 0), (0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0)],
    ),
    (
        Left,
        Right,
        &[(0, 0), (-1, 0), (-1, 2), (-1, 1), (0, 2), (0, 1)],
    ),
];

/// SRS+ half turns of I.
const HALF_I_SRS_PLUS: [Row; 4] = [
    (Spawn, Reverse, &[(0, 0), (0, 1)]),
    (Right, Left, &[(0, 0), (1, 0)]),
    (Reverse, Spawn, &[(0, 0), (0, -1)]),
    (Left, Right, &[(0, 0), (-1, 0)]),
];

/// Jstris's half turns, the same for J, L, S, T, Z and I: in place, else one cell the way
/// the piece's spawn-top side faced before the turn (sfinder's `jstris180.properties`).
const HALF_JSTRIS: [Row; 4] = [
    (Spawn, Reverse, &[(0, 0), (0, 1)]),
    (Right, Left, &[(0, 0), (1, 0)]),
    (Reverse, Spawn, &[(0, 0), (0, -1)]),
    (Left, Right, &[(0, 0), (-1, 0)]),
];

/// NullpoMino's half turns of J, L, S, T, Z (sfinder's `nullpomino180.properties`).
const HALF_JLSTZ_NULLPOMINO: [Row; 4] = [
    (
        Spawn,
        Reverse,
        &[
            (0, 0),
            (1, 0),
            (2, 0),
            (1, -1),
            (2, -1),
            (-1, 0),
            (-2, 0),
            (-1, -1),
            (-2, -1),
            (0, 1),
            (3, 0),
            (-3, 0),
        ],
    ),
    (
        Right,
        Left,
        &[
            (0, 0),
            (0, -1),
            (0, -2),
            (-1, -1),
            (-1, -2),
            (0, 1),
            (0, 2),
            (-1, 1),
            (-1, 2),
            (1, 0),
            (0, -3),
            (0, 3),
        ],
    ),
    (
        Reverse,
        Spawn,
        &[
            (0, 0),
            (-1, 0),
            (-2, 0),
            (-1, 1),
            (-2, 1),
            (1, 0),
            (2, 0),
            (1, 1),
            (2, 1),
            (0, -1),
            (-3, 0),
            (3, 0),
        ],
    ),
    (
        Left,
        Right,
        &[
            (0, 0),
            (0, -1),
            (0, -2),
            (1, -1),
            (1, -2),
            (0, 1),
            (0, 2),
            (1, 1),
            (1, 2),
            (-1, 0),
            (0, -3),
            (0, 3),
        ],
    ),
];

/// NullpoMino's half turns of I (sfinder's `nullpomino180.properties`).
const HALF_I_NULLPOMINO: [Row; 4] = [
    (
        Spawn,
        Reverse,
        &[(0, 0), (-1, 0), (-2, 0), (1, 0), (2, 0), (0, -1)],
    ),
    (
        Right,
        Left,
        &[(0, 0), (0, -1), (0, -2), (0, 1), (0, 2), (-1, 0)],
    ),
    (
        Reverse,
        Spawn,
        &[(0, 0), (1, 0), (2, 0), (-1, 0), (-2, 0), (0, 1)],
    ),
    (
        Left,
        Right,
        &[(0, 0), (0, -1), (0, -2), (0, 1), (0, 2), (1, 0)],
    ),
];

const JLSTZ: [Piece; 5] = [Piece::J, Piece::L, Piece::S, Piece::T, Piece::Z];

fn fill(table: &mut KickTable, pieces: &[Piece], rows: &[Row]) {
    for &p in pieces {
        for &(from, to, offsets) in rows {
            table.set_from_corner_offsets(p, from, to, offsets);
        }
    }
}

/// Every quarter turn of O, which turns in place (its box does not move).
fn o_quarter_turns(table: &mut KickTable) {
    for from in Orientation::ALL {
        table.set_from_corner_offsets(Piece::O, from, from.cw(), &[(0, 0)]);
        table.set_from_corner_offsets(Piece::O, from, from.ccw(), &[(0, 0)]);
    }
}

/// Every half turn of O, in place like its quarter turns.
fn o_half_turns(table: &mut KickTable) {
    for from in Orientation::ALL {
        table.set_from_corner_offsets(Piece::O, from, from.r180(), &[(0, 0)]);
    }
}

/// The guideline's T-spin rule: the fifth test of a T turning into right or left from
/// spawn or reverse (a 1-by-2 kick) makes a mini count as a full T-spin.
fn mark_t_upgrades(table: &mut KickTable) {
    for (from, to) in [
        (Spawn, Right),
        (Reverse, Left),
        (Spawn, Left),
        (Reverse, Right),
    ] {
        table.mark_upgrades(Piece::T, from, to, 4);
    }
}

pub(super) fn srs() -> KickTable {
    srs_named("srs")
}

/// The guideline SRS quarter turns, under another name.
fn srs_named(name: &str) -> KickTable {
    let mut t = KickTable::empty(name);
    fill(&mut t, &JLSTZ, &JLSTZ_SRS);
    fill(&mut t, &[Piece::I], &I_SRS);
    o_quarter_turns(&mut t);
    mark_t_upgrades(&mut t);
    t
}

pub(super) fn srs_plus() -> KickTable {
    let mut t = KickTable::empty("srs+");
    fill(&mut t, &JLSTZ, &JLSTZ_SRS);
    fill(&mut t, &[Piece::I], &I_SRS_PLUS);
    fill(&mut t, &JLSTZ, &HALF_JLSTZ_SRS_PLUS);
    fill(&mut t, &[Piece::I], &HALF_I_SRS_PLUS);
    o_quarter_turns(&mut t);
    o_half_turns(&mut t);
    mark_t_upgrades(&mut t);
    t
}

/// SRS with Jstris's half turns.
pub(super) fn jstris180() -> KickTable {
    let mut t = srs_named("jstris180");
    fill(&mut t, &JLSTZ, &HALF_JSTRIS);
    fill(&mut t, &[Piece::I], &HALF_JSTRIS);
    o_half_turns(&mut t);
    t
}

/// SRS with NullpoMino's half turns.
pub(super) fn nullpomino180() -> KickTable {
    let mut t = srs_named("nullpomino180");
    fill(&mut t, &JLSTZ, &HALF_JLSTZ_NULLPOMINO);
    fill(&mut t, &[Piece::I], &HALF_I_NULLPOMINO);
    o_half_turns(&mut t);
    t
}

pub(super) fn none() -> KickTable {
    let mut t = KickTable::empty("none");
    for p in Piece::ALL {
        for from in Orientation::ALL {
            t.set_from_corner_offsets(p, from, from.cw(), &[(0, 0)]);
            t.set_from_corner_offsets(p, from, from.ccw(), &[(0, 0)]);
        }
    }
    t
}

/// Builds one built-in table.
pub(super) type Builder = fn() -> KickTable;

/// The built-in tables by name: the one list that [`KickTable::by_name`] and
/// [`KickTable::BUILTIN_NAMES`] read.
pub(super) const BY_NAME: [(&str, Builder); 5] = [
    ("srs", srs),
    ("srs+", srs_plus),
    ("none", none),
    ("jstris180", jstris180),
    ("nullpomino180", nullpomino180),
];
