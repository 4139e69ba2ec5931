//! The built-in tables against sfinder's own kick files.

mod common;

use pc_srs::{KickTable, Orientation, Piece};

#[test]
fn builtin_srs_equals_sfinder_srs_properties() {
    let file = KickTable::from_properties_file(common::testdata("kicks/srs.properties")).unwrap();
    let builtin = KickTable::srs();
    for p in Piece::ALL {
        for from in Orientation::ALL {
            for to in Orientation::ALL {
                assert_eq!(
                    builtin.kicks(p, from, to),
                    file.kicks(p, from, to),
                    "{p:?} {from:?}->{to:?}"
                );
            }
        }
    }
}

#[test]
fn builtin_half_turn_tables_equal_sfinder_files() {
    for (builtin, file) in [
        (KickTable::jstris180(), "jstris180"),
        (KickTable::nullpomino180(), "nullpomino180"),
    ] {
        let loaded =
            KickTable::from_properties_file(common::testdata(&format!("kicks/{file}.properties")))
                .unwrap();
        for p in Piece::ALL {
            for from in Orientation::ALL {
                for to in Orientation::ALL {
                    assert_eq!(
                        builtin.kicks(p, from, to),
                        loaded.kicks(p, from, to),
                        "{file} {p:?} {from:?}->{to:?}"
                    );
                }
            }
        }
        // Same name, same offsets, same marks: the whole table.
        assert_eq!(builtin, loaded);
        assert!(builtin.has_half_turns());
    }
}

#[test]
fn every_builtin_by_its_name() {
    let tables = [
        KickTable::srs(),
        KickTable::srs_plus(),
        KickTable::none(),
        KickTable::jstris180(),
        KickTable::nullpomino180(),
    ];
    assert_eq!(KickTable::BUILTIN_NAMES.len(), tables.len());
    for (name, table) in KickTable::BUILTIN_NAMES.into_iter().zip(tables) {
        assert_eq!(table.name(), name);
        assert_eq!(KickTable::by_name(name), Ok(table));
    }
    // sfinder's names and any case read too.
    for (alias, name) in [
        ("SRS", "srs"),
        ("srsplus", "srs+"),
        ("NoKicks", "none"),
        ("JSTRIS180", "jstris180"),
    ] {
        assert_eq!(
            KickTable::by_name(alias),
            KickTable::by_name(name),
            "{alias}"
        );
    }
    for unknown in ["", "srs+ ", "jstris", "srs-plus", "kicks/srs.properties"] {
        let err = KickTable::by_name(unknown).unwrap_err();
        assert_eq!(err.name, unknown);
        assert_eq!(err.known, KickTable::BUILTIN_NAMES);
        let message = err.to_string();
        assert!(message.contains(&format!("{unknown:?}")), "{message}");
        for name in KickTable::BUILTIN_NAMES {
            assert!(message.contains(name), "{message}");
        }
    }
}

#[test]
fn every_shared_kick_file_loads() {
    for (name, half) in [
        ("srs", false),
        ("nokicks", true),
        ("jstris180", true),
        ("nullpomino180", true),
    ] {
        let t =
            KickTable::from_properties_file(common::testdata(&format!("kicks/{name}.properties")))
                .unwrap();
        assert_eq!(t.name(), name);
        assert_eq!(t.has_half_turns(), half, "{name}");
        for p in Piece::ALL {
            for o in Orientation::ALL {
                assert!(!t.kicks(p, o, o.cw()).is_empty(), "{name} {p:?} {o:?}");
            }
        }
    }
    assert!(KickTable::from_properties_file("no/such/file.properties").is_err());
}

#[test]
fn srs_plus_i_kicks_are_mirror_symmetric() {
    // SRS+ makes the I kicks symmetric: turning left mirrors turning right.
    let t = KickTable::srs_plus();
    let corner = |from: Orientation, to: Orientation| -> Vec<(i32, i32)> {
        let f = pc_srs::CentrePos { x: 0, y: 0 }.to_corner(Piece::I, from);
        t.kicks(Piece::I, from, to)
            .iter()
            .map(|k| {
                let c = pc_srs::CentrePos {
                    x: k.x as i32,
                    y: k.y as i32,
                }
                .to_corner(Piece::I, to);
                (c.x - f.x, c.y - f.y)
            })
            .collect()
    };
    let right = corner(Orientation::Spawn, Orientation::Right);
    let left = corner(Orientation::Spawn, Orientation::Left);
    assert_eq!(
        right.iter().map(|&(x, y)| (-x, y)).collect::<Vec<_>>(),
        left
    );
    // Standard SRS is not symmetric.
    let srs = KickTable::srs();
    assert_ne!(
        srs.kicks(Piece::I, Orientation::Spawn, Orientation::Right)[1].x,
        -srs.kicks(Piece::I, Orientation::Spawn, Orientation::Left)[1].x
    );
}

mod fuzz {
    use pc_srs::KickTable;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn arbitrary_text_never_panics(s in "\\PC{0,200}") {
            let _ = KickTable::from_properties("fuzz", &s);
        }

        #[test]
        fn kick_like_text_never_panics(s in "([IJLOSTZQ]\\.[NESWX]{2}=(&[IJLOSTZ]\\.[NESW]{2}|(\\( ?@?[+-]?[0-9]{1,3} ?, ?[+-]?[0-9]{1,3} ?\\)){0,17})[ #\n]{0,3}){0,12}") {
            if let Ok(t) = KickTable::from_properties("fuzz", &s) {
                // Whatever loads answers every lookup.
                for p in pc_srs::Piece::ALL {
                    for o in pc_srs::Orientation::ALL {
                        let _ = t.kicks(p, o, o.cw());
                    }
                }
            }
        }
    }
}
