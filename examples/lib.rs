//! Helpers shared by the runnable examples: the option groups they share with sfinder
//! (field, kicks, drop mode, hold rule, output format) as `clap` argument structs to
//! `#[command(flatten)]`, value parsers that name what is wrong, and progress bars.
//!
//! An example's options are one `#[derive(Parser)]` struct; a group used by several
//! examples lives here, so adding it to another example is one flattened field.

use std::io::IsTerminal;
use std::time::Duration;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
pub use pc_bot::cli::DropChoice;
use pc_solver::{Board32, KickTable, PcGraph, Piece, Rules};

/// Prints the message and exits with status 2 (bad input), for what only shows once the
/// options are read (e.g. a position the solver rejects).
pub fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("error: {message}");
    std::process::exit(2)
}

/// Output format (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Text for people.
    #[default]
    Text,
    /// One JSON object on stdout.
    Json,
}

/// `--format text|json`.
#[derive(Args, Clone, Debug)]
pub struct FormatArg {
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

impl FormatArg {
    /// Whether JSON was asked for.
    pub fn json(&self) -> bool {
        self.format == Format::Json
    }
}

/// A kick table and the name it was given by.
#[derive(Clone, Debug)]
pub struct Kicks {
    /// The built-in table's name or the path, as written.
    pub name: String,
    /// The table.
    pub table: KickTable,
}

/// A built-in kick table by name or from an sfinder `.properties` file
/// ([`pc_bot::cli::parse_kicks`]), with the name.
pub fn parse_kicks(name: &str) -> Result<Kicks, String> {
    let table = pc_bot::cli::parse_kicks(name)?;
    Ok(Kicks {
        name: name.to_string(),
        table,
    })
}

/// `-K/--kicks NAME|PATH`.
#[derive(Args, Clone, Debug)]
pub struct KicksArg {
    /// Kick table: srs, srs+ (TETR.IO, with 180 kicks), none, jstris180, nullpomino180, or
    /// the path of an sfinder .properties file [default: srs]
    #[arg(short = 'K', long = "kicks", value_name = "NAME|PATH", value_parser = parse_kicks)]
    pub kicks: Option<Kicks>,
}

impl KicksArg {
    /// The table given, or `default` by name.
    pub fn or(&self, default: &str) -> Kicks {
        self.kicks
            .clone()
            .unwrap_or_else(|| parse_kicks(default).expect("a built-in kick table"))
    }
}

/// The move rules: `-K/--kicks` and `-d/--drop` (hold comes from each example's own
/// option).
#[derive(Args, Clone, Debug)]
pub struct RulesArgs {
    #[command(flatten)]
    pub kicks: KicksArg,
    /// Drop mode
    #[arg(short = 'd', long = "drop", value_enum, default_value_t = DropChoice::Softdrop)]
    pub drop: DropChoice,
}

impl RulesArgs {
    /// The kick table: as given, else SRS+ for `-d 180` and SRS otherwise.
    pub fn kicks(&self) -> Kicks {
        self.kicks.or(if self.drop == DropChoice::Rotate180 {
            "srs+"
        } else {
            "srs"
        })
    }

    /// The rules, with or without hold.
    pub fn rules(&self, hold: bool) -> Rules {
        Rules {
            kicks: self.kicks().table,
            drop: self.drop.drop_mode(),
            hold,
        }
    }
}

/// sfinder's rule options: `-H use|avoid`, and `-K` and `-d` ([`RulesArgs`]).
#[derive(Args, Clone, Debug)]
pub struct SfinderRulesArgs {
    /// Hold rule
    #[arg(short = 'H', long = "hold", value_enum, default_value_t = HoldRule::Use)]
    pub hold: HoldRule,
    #[command(flatten)]
    pub moves: RulesArgs,
}

impl SfinderRulesArgs {
    /// Whether hold may be used.
    pub fn hold(&self) -> bool {
        self.hold.allows_hold()
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.moves.rules(self.hold())
    }
}

/// sfinder's hold rule (`-H`): use hold or play without it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum HoldRule {
    /// Hold may be used.
    #[default]
    #[value(alias = "yes")]
    Use,
    /// No hold.
    #[value(alias = "no")]
    Avoid,
}

impl HoldRule {
    /// Whether hold may be used.
    pub fn allows_hold(self) -> bool {
        self == HoldRule::Use
    }
}

/// The field of a fumen string (`v115@…`, also inside a URL): its first page.
pub fn parse_fumen(text: &str) -> Result<Board32, String> {
    pc_fumen::decode(text)
        .map_err(|e| e.to_string())?
        .first_field()
        .ok_or_else(|| "the fumen has no page".to_string())
}

/// A field as text rows: `#` filled, `.` empty, top row first, separated by `/` or new
/// lines.
pub fn parse_rows(text: &str) -> Result<Board32, String> {
    text.parse().map_err(|e: pc_bitboard::ParseBoardError| {
        format!("{e} (rows of # and . separated by /, top row first)")
    })
}

/// The field: `-t/--tetfu` (`--fumen`) or `--field`.
#[derive(Args, Clone, Debug)]
pub struct FieldArgs {
    /// The field as a fumen (v115@…, or a URL with one)
    #[arg(short = 't', long = "tetfu", visible_alias = "fumen", value_name = "FUMEN",
          value_parser = parse_fumen, conflicts_with = "field")]
    pub fumen: Option<Board32>,
    /// The field as rows of # (filled) and . (empty), top row first, separated by /
    #[arg(long, value_name = "ROWS", value_parser = parse_rows)]
    pub field: Option<Board32>,
}

impl FieldArgs {
    /// The field given, if any.
    pub fn board(&self) -> Option<Board32> {
        self.fumen.or(self.field)
    }
}

/// One piece letter (either case).
pub fn parse_piece(text: &str) -> Result<Piece, String> {
    text.parse()
        .map_err(|e: pc_srs::ParsePieceError| format!("{e} (one of I O T S Z J L)"))
}

/// The letters of a piece sequence, e.g. `TSZLJO` (commas and spaces between them are
/// ignored).
pub fn parse_pieces(text: &str) -> Result<Vec<Piece>, String> {
    let sequence: pc_bag::Sequence = text.parse().map_err(|e| format!("{e}"))?;
    Ok(sequence.iter().collect())
}

/// Whether progress bars may be drawn: stderr is a terminal and the output is not JSON
/// (nor `--quiet`).
pub fn show_progress(json: bool, quiet: bool) -> bool {
    !json && !quiet && std::io::stderr().is_terminal()
}

/// A progress bar on stderr over `total` items (`unit` names them), or a hidden one when
/// `shown` is false; the bar shows a message set with `set_message`.
pub fn progress_bar(total: u64, unit: &str, shown: bool) -> ProgressBar {
    if !shown {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total).with_style(bar_style(unit));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A spinner with the elapsed time on stderr, or a hidden one when `shown` is false; for
/// work whose size is not known yet ([`bar_style`] turns it into a bar).
pub fn spinner(message: &str, shown: bool) -> ProgressBar {
    if !shown {
        return ProgressBar::hidden();
    }
    let spinner = ProgressBar::new_spinner()
        .with_style(
            ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("a valid template"),
        )
        .with_message(message.to_string());
    spinner.enable_steady_tick(Duration::from_millis(100));
    spinner
}

/// The style of [`progress_bar`]: elapsed time, bar, count, rate-based time left, message.
pub fn bar_style(unit: &str) -> ProgressStyle {
    ProgressStyle::with_template(&format!(
        "{{elapsed_precise}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} (eta {{eta}}) {{msg}}"
    ))
    .expect("a valid template")
    .progress_chars("=> ")
}

/// `--graph PATH` / `--no-graph`: where the PC field graph of the rules comes from.
#[derive(Args, Clone, Debug)]
pub struct GraphArgs {
    /// The PC field graph to answer from [default: the cached graph of the rules, when
    /// there is one; `cargo run --release --example graph -- build` makes it]
    #[arg(long, value_name = "PATH", conflicts_with = "no_graph")]
    pub graph: Option<std::path::PathBuf>,
    /// Answer without a graph (the layered search)
    #[arg(long = "no-graph")]
    pub no_graph: bool,
}

impl GraphArgs {
    /// The graph to answer from: the one given, else the cached one for `rules` when it is
    /// there. A file that cannot be used is said on stderr, and the answer comes without a
    /// graph; with none cached, stderr says how to make one. With `large_tables_now`, the
    /// lookup tables of its largest layers are made after the load ([`PcGraph::load`]),
    /// for a process that asks many questions; else by the lookups once they are many
    /// ([`PcGraph::load_large_tables_when_needed`]), for one that asks a ranking or two.
    pub fn load(
        &self,
        rules: &Rules,
        build_hint: &str,
        large_tables_now: bool,
    ) -> Option<std::sync::Arc<PcGraph>> {
        if self.no_graph {
            return None;
        }
        let (path, given) = match &self.graph {
            Some(path) => (path.clone(), true),
            None => match PcGraph::cache_path(rules) {
                Some(path) if path.exists() => (path, false),
                _ => {
                    eprintln!(
                        "note: no graph for these rules, so the first decisions of a PC take seconds; \
                         `cargo run --release --example graph -- build{build_hint}` makes one"
                    );
                    return None;
                }
            },
        };
        let loaded = if large_tables_now {
            PcGraph::load(&path, rules)
        } else {
            PcGraph::load_large_tables_when_needed(&path, rules)
        };
        match loaded {
            Ok(graph) => Some(std::sync::Arc::new(graph)),
            Err(e) => {
                if given {
                    fail(format!("--graph: {e}"));
                }
                eprintln!(
                    "note: the cached graph cannot be used ({e}); answering without it. \
                     `cargo run --release --example graph -- build{build_hint}` makes it again"
                );
                None
            }
        }
    }
}

impl GraphArgs {
    /// Makes ready what a walk of five unknown pieces reads on `graph`, the graph of `rules`
    /// that [`GraphArgs::load`] gave: for the cached graph, read from the file kept beside
    /// it, or made and kept there for the next run ([`PcGraph::prepare_five_unknown_kept_at`]);
    /// for a graph given by `--graph`, whose folder is not ours to write in, left to the
    /// walk.
    pub fn prepare_five_unknown(&self, rules: &Rules, graph: &PcGraph) {
        if self.graph.is_some() || self.no_graph {
            return;
        }
        if let Some(path) = PcGraph::prepared_cache_path(rules) {
            if let Err(e) = graph.prepare_five_unknown_kept_at(&path) {
                eprintln!("note: what five unknown pieces read was not kept: {e}");
            }
        }
    }
}

impl RulesArgs {
    /// The options `graph build` needs to make the graph of these rules, for hints.
    pub fn build_hint(&self) -> String {
        let mut hint = String::new();
        if let Some(kicks) = &self.kicks.kicks {
            hint.push_str(&format!(" -K {}", kicks.name));
        }
        match self.drop {
            DropChoice::Softdrop => {}
            DropChoice::Harddrop => hint.push_str(" -d harddrop"),
            DropChoice::Rotate180 => hint.push_str(" -d 180"),
        }
        hint
    }
}
