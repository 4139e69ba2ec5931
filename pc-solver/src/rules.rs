//! [`Rules`]: how pieces move and whether hold is used.

use pc_srs::{DropMode, KickTable, MoveGenerator, Orientation, Piece};

/// The rules of a perfect-clear search: kick table, drop mode and hold.
///
/// The default is what sfinder uses by default: SRS, soft drop, hold allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The kick table (half turns are used when it has them).
    pub kicks: KickTable,
    /// Soft drop (any move at any height) or hard drop only.
    pub drop: DropMode,
    /// Whether the hold slot may be used.
    pub hold: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            kicks: KickTable::srs(),
            drop: DropMode::Soft,
            hold: true,
        }
    }
}

impl Rules {
    /// The default rules without hold.
    pub fn without_hold() -> Self {
        Rules {
            hold: false,
            ..Rules::default()
        }
    }

    /// The move generator of these rules.
    pub fn generator(&self) -> MoveGenerator<'_> {
        MoveGenerator::new(&self.kicks, self.drop)
    }
}

/// The rules a graph was built for, as a hash of the moves they allow: the kick table's
/// offsets and the drop mode (a table's name and its T-spin marks do not change a move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RulesId(pub(crate) u64);

impl RulesId {
    /// The id of a rule set (hold does not change the fields, so it is not part of it).
    pub fn of(rules: &Rules) -> RulesId {
        // FNV-1a over the offsets in a fixed order: the same rules give the same id on
        // every machine and in every version that keeps this function.
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        let mut eat = |byte: u8| {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x100_0000_01b3);
        };
        eat(match rules.drop {
            DropMode::Soft => 1,
            DropMode::Hard => 2,
        });
        for piece in Piece::ALL {
            for from in Orientation::ALL {
                for to in Orientation::ALL {
                    let kicks = rules.kicks.kicks(piece, from, to);
                    eat(kicks.len() as u8);
                    for kick in kicks {
                        eat(kick.x as u8);
                        eat(kick.y as u8);
                    }
                }
            }
        }
        RulesId(hash)
    }

    /// The hash.
    pub fn value(self) -> u64 {
        self.0
    }
}
