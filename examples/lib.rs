//! Helpers shared by the runnable examples: a tiny argument reader and the option values
//! the examples share with sfinder (kicks, drop mode, fields).

use pc_bitboard::Board32;
use pc_solver::{Rules, fumen};
use pc_srs::{DropMode, KickTable};

/// Command-line arguments as `--name value` pairs and flags.
pub struct Args {
    words: Vec<String>,
}

impl Args {
    /// The process arguments, without the program name.
    pub fn from_env() -> Self {
        Args {
            words: std::env::args().skip(1).collect(),
        }
    }

    /// The value after any of `names`, if given.
    pub fn value(&self, names: &[&str]) -> Option<&str> {
        self.words
            .iter()
            .position(|w| names.contains(&w.as_str()))
            .and_then(|i| self.words.get(i + 1))
            .map(String::as_str)
    }

    /// Whether any of `names` is present.
    pub fn flag(&self, names: &[&str]) -> bool {
        self.words.iter().any(|w| names.contains(&w.as_str()))
    }
}

/// Prints the `//!` doc lines at the top of an example's source as its help text.
pub fn print_help(source: &str) {
    for line in source.lines().take_while(|l| l.starts_with("//!")) {
        println!("{}", line.trim_start_matches("//!").trim_start());
    }
}

/// The number given for a flag, or `default`; exits with a message when it is no number.
pub fn number<T: std::str::FromStr>(args: &Args, names: &[&str], default: T) -> T {
    match args.value(names) {
        None => default,
        Some(v) => v
            .parse()
            .unwrap_or_else(|_| fail(format!("{} takes a number, not {v:?}", names[0]))),
    }
}

/// Whether `--format` asks for JSON (`text`, the default, or `json`).
pub fn json_format(args: &Args) -> bool {
    match args.value(&["--format"]).unwrap_or("text") {
        "text" => false,
        "json" => true,
        other => fail(format!("unknown format {other:?}: expected text or json")),
    }
}

/// Prints the message and exits with status 2 (bad input).
pub fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("error: {message}");
    std::process::exit(2)
}

/// A built-in kick table by name (`srs`, `srs+`, `none`, `jstris180`, `nullpomino180`;
/// `srsplus` and `nokicks` as before) or from a `.properties` file.
pub fn kicks(name: &str) -> Result<KickTable, String> {
    let name = match name {
        "srsplus" => "srs+",
        "nokicks" => "none",
        name => name,
    };
    KickTable::by_name(name).or_else(|unknown| {
        KickTable::from_properties_file(name).map_err(|e| format!("{unknown}; {e}"))
    })
}

/// Rules from `-K/--kicks`, `-d/--drop` (`softdrop`, `harddrop`, `180`) and hold.
pub fn rules(args: &Args, hold: bool) -> Result<Rules, String> {
    let drop = args.value(&["-d", "--drop"]).unwrap_or("softdrop");
    let default_kicks = if drop == "180" { "srs+" } else { "srs" };
    let kicks = kicks(args.value(&["-K", "--kicks"]).unwrap_or(default_kicks))?;
    let drop = match drop {
        "softdrop" | "soft" | "180" => DropMode::Soft,
        "harddrop" | "hard" => DropMode::Hard,
        other => {
            return Err(format!(
                "unknown drop mode {other:?}: expected softdrop, harddrop or 180"
            ));
        }
    };
    Ok(Rules { kicks, drop, hold })
}

/// The field from `-t/--tetfu` (fumen) or `--field` (`#`/`.` rows separated by `/`).
pub fn field(args: &Args) -> Result<Option<Board32>, String> {
    if let Some(f) = args.value(&["-t", "--tetfu", "--fumen"]) {
        let fumen = fumen::decode(f).map_err(|e| format!("fumen: {e}"))?;
        return Ok(fumen.first_field());
    }
    if let Some(text) = args.value(&["--field"]) {
        return text.parse().map(Some).map_err(|e| format!("field: {e}"));
    }
    Ok(None)
}
