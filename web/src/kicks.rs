//! The kick tables the page offers, by the names the URL uses.

use pc_srs::KickTable;

/// The names of the kick tables, in the order the page lists them.
pub const KICK_NAMES: [&str; 5] = ["srs", "srs+", "jstris180", "nullpomino180", "none"];

/// The kick table of a name of [`KICK_NAMES`] in any case (sfinder's `srsplus` and
/// `nokicks` too, see [`KickTable::by_name`]), or `None` for another name.
pub fn kick_table(name: &str) -> Option<KickTable> {
    KickTable::by_name(name).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pc_srs::{Orientation, Piece};

    #[test]
    fn every_name_has_a_table() {
        for name in KICK_NAMES {
            assert!(kick_table(name).is_some(), "{name}");
        }
        assert_eq!(kick_table("srsplus"), kick_table("srs+"));
        assert_eq!(kick_table("nokicks"), kick_table("none"));
        assert_eq!(kick_table("SRS"), kick_table("srs"));
        assert_eq!(kick_table("srs "), None);
    }

    #[test]
    fn the_180_tables_turn_half_way() {
        for name in ["srs+", "jstris180", "nullpomino180"] {
            let table = kick_table(name).unwrap();
            assert!(table.has_half_turns(), "{name}");
        }
        for name in ["srs", "none"] {
            assert!(!kick_table(name).unwrap().has_half_turns(), "{name}");
        }
        // Jstris's 180 kicks for T from spawn (`T.NS=&L.NS`): in place, then one row up.
        let jstris = kick_table("jstris180").unwrap();
        let kicks: Vec<(i8, i8)> = jstris
            .kicks(Piece::T, Orientation::Spawn, Orientation::Reverse)
            .iter()
            .map(|k| (k.x, k.y))
            .collect();
        assert_eq!(kicks, [(0, 0), (0, 1)]);
        assert_eq!(jstris.name(), "jstris180");
    }
}
