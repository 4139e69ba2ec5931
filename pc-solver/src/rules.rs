//! [`Rules`]: how pieces move and whether hold is used.

use pc_srs::{DropMode, KickTable, MoveGenerator};

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
