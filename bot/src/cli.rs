//! Command-line options that `pc-tbp` and the workspace's examples share, as `clap`
//! types (feature `cli`): the drop mode with sfinder's names, and kick tables by name or
//! file.
//!
//! ```
//! use clap::Parser;
//! use pc_bot::cli::{DropChoice, parse_kicks};
//! use pc_bot::{DropMode, KickTable};
//!
//! #[derive(Parser)]
//! struct Cli {
//!     #[arg(short = 'K', long = "kicks", value_parser = parse_kicks)]
//!     kicks: Option<KickTable>,
//!     #[arg(short = 'd', long = "drop", value_enum, default_value_t = DropChoice::Softdrop)]
//!     drop: DropChoice,
//! }
//!
//! let cli = Cli::parse_from(["bot", "-d", "180"]);
//! assert_eq!(cli.drop.drop_mode(), DropMode::Soft);
//! // Without -K, 180 turns take SRS+ kicks.
//! assert_eq!(cli.kicks.unwrap_or_else(|| cli.drop.default_kicks()), KickTable::srs_plus());
//! assert!(Cli::try_parse_from(["bot", "-K", "no-such-table"]).is_err());
//! ```

use clap::ValueEnum;
use pc_srs::{DropMode, KickTable};

/// Drop mode (`-d/--drop`), with sfinder's names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum DropChoice {
    /// Soft drop: pieces may slide and spin under overhangs.
    #[default]
    #[value(alias = "soft")]
    Softdrop,
    /// Hard drop only: straight down from above.
    #[value(alias = "hard")]
    Harddrop,
    /// Soft drop with 180° turns (SRS+ kicks unless --kicks says otherwise).
    #[value(name = "180")]
    Rotate180,
}

impl DropChoice {
    /// The drop mode: soft for `softdrop` and `180`, hard for `harddrop`.
    pub fn drop_mode(self) -> DropMode {
        match self {
            DropChoice::Softdrop | DropChoice::Rotate180 => DropMode::Soft,
            DropChoice::Harddrop => DropMode::Hard,
        }
    }

    /// The kick table when none is given: SRS+ (with 180 kicks) for `180`, SRS otherwise.
    pub fn default_kicks(self) -> KickTable {
        if self == DropChoice::Rotate180 {
            KickTable::srs_plus()
        } else {
            KickTable::srs()
        }
    }
}

/// A built-in kick table by name (`srs`, `srs+`, `none`, `jstris180`, `nullpomino180`;
/// sfinder's `srsplus` and `nokicks` too) or an sfinder `.properties` file; the error
/// says why neither works.
pub fn parse_kicks(name: &str) -> Result<KickTable, String> {
    KickTable::by_name(name).or_else(|unknown| {
        KickTable::from_properties_file(name).map_err(|e| format!("{unknown}; {e}"))
    })
}
