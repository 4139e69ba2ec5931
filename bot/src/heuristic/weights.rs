//! Weights of the features, and the named presets.

use core::fmt;
use core::str::FromStr;

use super::features::Features;
use crate::tspin::TSpin;

/// How much each feature counts: a placement's score is the sum of each feature times its
/// weight, plus bonuses for the rows it clears, T-spins and perfect clears. Higher is
/// better, so features to avoid get negative weights.
///
/// ```
/// use pc_bot::{Features, Weights};
///
/// let w = Weights::DELLACHERIE;
/// let f = Features { holes: 2, landing_height: 3.0, ..Features::default() };
/// assert_eq!(w.features_score(&f), -4.0 * 2.0 - 3.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Weights {
    /// Per row of landing height.
    pub landing_height: f64,
    /// Per eroded cell.
    pub eroded_cells: f64,
    /// Per row transition.
    pub row_transitions: f64,
    /// Per column transition.
    pub column_transitions: f64,
    /// Per hole.
    pub holes: f64,
    /// Per unit of cumulative well depth.
    pub well_sums: f64,
    /// Per unit of bumpiness.
    pub bumpiness: f64,
    /// Per filled cell above a hole, per hole.
    pub hole_depth: f64,
    /// Per unit of aggregate height.
    pub aggregate_height: f64,
    /// Per covered cell.
    pub covered_cells: f64,
    /// Bonus for a placement clearing `n` rows without a T-spin (`line_clears[n]`;
    /// index 0 is a placement that clears nothing).
    pub line_clears: [f64; 5],
    /// Bonus for a T-spin mini, whatever it clears.
    pub tspin_mini: f64,
    /// Bonus for a full T-spin clearing `n` rows (`tspin[n]`, 0 to 3).
    pub tspin: [f64; 4],
    /// Bonus for a perfect clear.
    pub perfect_clear: f64,
}

impl Weights {
    /// Pierre Dellacherie's hand-tuned evaluation (1 piece, no preview), as published by
    /// Colin Fahey: −landing height + eroded cells − row transitions − column transitions
    /// − 4 × holes − well sums. The other features and every bonus are 0.
    pub const DELLACHERIE: Weights = Weights {
        landing_height: -1.0,
        eroded_cells: 1.0,
        row_transitions: -1.0,
        column_transitions: -1.0,
        holes: -4.0,
        well_sums: -1.0,
        bumpiness: 0.0,
        hole_depth: 0.0,
        aggregate_height: 0.0,
        covered_cells: 0.0,
        line_clears: [0.0; 5],
        tspin_mini: 0.0,
        tspin: [0.0; 4],
        perfect_clear: 0.0,
    };

    /// The default: Dellacherie's features with holes and what covers them punished
    /// harder, a flat surface preferred, small rewards for T-spins and a large one for
    /// perfect clears. Keeps the field low and clean for the next perfect clear.
    pub const BALANCED: Weights = Weights {
        bumpiness: -0.25,
        hole_depth: -0.5,
        aggregate_height: -0.1,
        covered_cells: -0.5,
        tspin: [0.0, 1.0, 4.0, 6.0],
        perfect_clear: 50.0,
        ..Weights::DELLACHERIE
    };

    /// Survival first: height and holes cost more than in [`Weights::BALANCED`], and
    /// every cleared row is welcome.
    pub const CONSERVATIVE: Weights = Weights {
        landing_height: -1.5,
        holes: -6.0,
        bumpiness: -0.3,
        hole_depth: -0.75,
        aggregate_height: -0.3,
        covered_cells: -0.75,
        line_clears: [0.0, 1.0, 2.0, 3.0, 4.0],
        tspin: [0.0; 4],
        ..Weights::BALANCED
    };

    /// Attack: keeps a well open for tetrises (small clears cost a little, a tetris is
    /// rewarded) and rewards T-spins, at the price of a higher stack.
    pub const AGGRESSIVE: Weights = Weights {
        eroded_cells: 0.25,
        well_sums: -0.5,
        aggregate_height: 0.0,
        line_clears: [0.0, -3.0, -2.0, -1.0, 12.0],
        tspin_mini: 1.0,
        tspin: [1.0, 4.0, 12.0, 16.0],
        perfect_clear: 60.0,
        ..Weights::BALANCED
    };

    /// The weighted sum of the ten features (no bonuses).
    pub fn features_score(&self, f: &Features) -> f64 {
        self.landing_height * f.landing_height
            + self.eroded_cells * f64::from(f.eroded_cells)
            + self.row_transitions * f64::from(f.row_transitions)
            + self.column_transitions * f64::from(f.column_transitions)
            + self.holes * f64::from(f.holes)
            + self.well_sums * f64::from(f.well_sums)
            + self.bumpiness * f64::from(f.bumpiness)
            + self.hole_depth * f64::from(f.hole_depth)
            + self.aggregate_height * f64::from(f.aggregate_height)
            + self.covered_cells * f64::from(f.covered_cells)
    }

    /// The bonus for what a placement cleared: its rows (by the T-spin table when it is a
    /// full T-spin, the mini bonus when a mini), and a perfect clear. Rows above 4 count
    /// as 4, above 3 for a T-spin.
    pub fn clear_bonus(&self, lines: u32, tspin: TSpin, perfect_clear: bool) -> f64 {
        let by_rows = match tspin {
            TSpin::Full => self.tspin[(lines as usize).min(3)],
            TSpin::Mini => self.tspin_mini,
            TSpin::None => self.line_clears[(lines as usize).min(4)],
        };
        by_rows
            + if perfect_clear {
                self.perfect_clear
            } else {
                0.0
            }
    }
}

impl Default for Weights {
    /// [`Weights::BALANCED`].
    fn default() -> Self {
        Weights::BALANCED
    }
}

/// The named weight presets.
///
/// ```
/// use pc_bot::{Preset, Weights};
///
/// let p: Preset = "dellacherie".parse()?;
/// assert_eq!(p.weights(), Weights::DELLACHERIE);
/// assert_eq!(Preset::Balanced.to_string(), "balanced");
/// assert!("fast".parse::<Preset>().is_err());
/// # Ok::<(), pc_bot::UnknownPreset>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Preset {
    /// [`Weights::BALANCED`].
    #[default]
    Balanced,
    /// [`Weights::CONSERVATIVE`].
    Conservative,
    /// [`Weights::AGGRESSIVE`].
    Aggressive,
    /// [`Weights::DELLACHERIE`].
    Dellacherie,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 4] = [
        Preset::Balanced,
        Preset::Conservative,
        Preset::Aggressive,
        Preset::Dellacherie,
    ];

    /// The preset's name: `balanced`, `conservative`, `aggressive`, `dellacherie`.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Balanced => "balanced",
            Preset::Conservative => "conservative",
            Preset::Aggressive => "aggressive",
            Preset::Dellacherie => "dellacherie",
        }
    }

    /// The preset's weights.
    pub const fn weights(self) -> Weights {
        match self {
            Preset::Balanced => Weights::BALANCED,
            Preset::Conservative => Weights::CONSERVATIVE,
            Preset::Aggressive => Weights::AGGRESSIVE,
            Preset::Dellacherie => Weights::DELLACHERIE,
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A preset name that is not one of [`Preset::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown preset {0:?} (expected balanced, conservative, aggressive or dellacherie)")]
pub struct UnknownPreset(pub String);

impl FromStr for Preset {
    type Err = UnknownPreset;

    fn from_str(s: &str) -> Result<Preset, UnknownPreset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownPreset(s.to_string()))
    }
}
