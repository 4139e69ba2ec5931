//! Game records: the settings and the moves of a game, as text that replays exactly.

use core::fmt;
use core::str::FromStr;

use pc_srs::{DropMode, KickTable};

use super::error::RecordError;
use super::over::GameOver;
use super::sim::{Game, GameConfig, Play};
use pc_solver::{Move, Rules};

/// How a game stands: the figures a record's `result` line states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// Pieces placed.
    pub pieces: u64,
    /// Rows cleared.
    pub lines: u64,
    /// Perfect clears.
    pub perfect_clears: u64,
    /// Why the game ended, or `None` if it can go on.
    pub game_over: Option<GameOver>,
}

impl Game {
    /// How the game stands now.
    pub fn outcome(&self) -> Outcome {
        let stats = self.stats();
        Outcome {
            pieces: stats.pieces,
            lines: stats.lines,
            perfect_clears: stats.perfect_clears,
            game_over: self.game_over(),
        }
    }

    /// The record of the game so far, with its outcome as the result.
    pub fn record(&self) -> GameRecord {
        GameRecord {
            config: self.config().clone(),
            moves: self.moves().to_vec(),
            result: Some(self.outcome()),
        }
    }
}

/// A game's settings and moves, written as text and replayed deterministically: the
/// seed fixes every piece, so the moves alone give back the whole game.
///
/// The text form, one item per line (`#` starts a comment; blank lines are ignored):
///
/// ```text
/// pc-game 1
/// seed 42            # required
/// preview 5          # default 5
/// hold yes           # yes or no, default yes
/// kicks srs          # srs, srs+, none, jstris180 or nullpomino180, default srs
/// drop soft          # soft or hard, default soft
/// moves
/// TN4,0 HIE0,1 ...   # moves separated by spaces, any number per line
/// result pieces 2 lines 0 pcs 0 status playing   # optional; checked on replay
/// ```
///
/// A move is `[H]` (hold first), the piece, its orientation (`N E S W`) and the rotation
/// centre `x,y`. `status` is `playing`, `block-out`, `lock-out` or `resigned`.
/// Tables loaded from files are written under their own name, which only the three
/// built-in names read back.
///
/// ```
/// use pc_bot::{Game, GameConfig, GameRecord, Orientation, Play};
///
/// let mut game = Game::new(GameConfig::new(42))?;
/// let piece = game.view().current;
/// game.play(&Play::place(piece.with(Orientation::Spawn).at(1, 0)?))?;
/// let text = game.record().to_string();
/// assert!(text.starts_with("pc-game 1\nseed 42\n"));
///
/// let replayed = text.parse::<GameRecord>()?.replay()?;
/// assert_eq!(replayed.board(), game.board());
/// assert_eq!(replayed.outcome(), game.outcome());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The settings.
    pub config: GameConfig,
    /// The moves in order (without paths).
    pub moves: Vec<Move>,
    /// How the game stood at the end of the record, if stated.
    pub result: Option<Outcome>,
}

/// Moves written on one line of a record.
const MOVES_PER_LINE: usize = 10;

/// What a `kicks` value may be: the names of `KickTable::BUILTIN_NAMES` (a unit test
/// checks the two agree).
const BUILTIN_KICKS_EXPECTED: &str = "srs, srs+, none, jstris180 or nullpomino180";

impl GameRecord {
    /// Plays the moves from the start, checking each one, and the result if the record
    /// has one. A record whose result says `resigned` resigns after its last move.
    pub fn replay(&self) -> Result<Game, RecordError> {
        let mut game = Game::new(self.config.clone())?;
        for (i, &mv) in self.moves.iter().enumerate() {
            game.play(&Play::from(mv))
                .map_err(|error| RecordError::IllegalMove {
                    index: i + 1,
                    token: mv.to_string(),
                    error,
                })?;
        }
        if let Some(result) = &self.result {
            if result.game_over == Some(GameOver::Resigned) {
                game.resign();
            }
            check_result(result, &game.outcome())?;
        }
        Ok(game)
    }
}

fn check_result(recorded: &Outcome, replayed: &Outcome) -> Result<(), RecordError> {
    let figures = [
        ("pieces", recorded.pieces, replayed.pieces),
        ("lines", recorded.lines, replayed.lines),
        ("pcs", recorded.perfect_clears, replayed.perfect_clears),
    ];
    for (what, r, p) in figures {
        if r != p {
            return Err(RecordError::ResultMismatch {
                what,
                recorded: r.to_string(),
                replayed: p.to_string(),
            });
        }
    }
    if recorded.game_over != replayed.game_over {
        return Err(RecordError::ResultMismatch {
            what: "status",
            recorded: status_name(recorded.game_over).to_string(),
            replayed: status_name(replayed.game_over).to_string(),
        });
    }
    Ok(())
}

fn status_name(over: Option<GameOver>) -> &'static str {
    over.map_or("playing", GameOver::name)
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        writeln!(f, "pc-game 1")?;
        writeln!(f, "seed {}", c.seed)?;
        writeln!(f, "preview {}", c.preview)?;
        writeln!(f, "hold {}", if c.rules.hold { "yes" } else { "no" })?;
        writeln!(f, "kicks {}", c.rules.kicks.name())?;
        let drop = match c.rules.drop {
            DropMode::Soft => "soft",
            DropMode::Hard => "hard",
        };
        writeln!(f, "drop {drop}")?;
        writeln!(f, "moves")?;
        for chunk in self.moves.chunks(MOVES_PER_LINE) {
            let line: Vec<String> = chunk.iter().map(Move::to_string).collect();
            writeln!(f, "{}", line.join(" "))?;
        }
        if let Some(r) = &self.result {
            writeln!(
                f,
                "result pieces {} lines {} pcs {} status {}",
                r.pieces,
                r.lines,
                r.perfect_clears,
                status_name(r.game_over)
            )?;
        }
        Ok(())
    }
}

/// Where the reader is in a record.
#[derive(PartialEq, Eq)]
enum Section {
    Header,
    Settings,
    Moves,
    Done,
}

/// The settings read so far.
#[derive(Default)]
struct Settings {
    seed: Option<u64>,
    preview: Option<usize>,
    hold: Option<bool>,
    kicks: Option<KickTable>,
    drop: Option<DropMode>,
}

impl Settings {
    fn read(&mut self, line: usize, key: &str, value: &str) -> Result<(), RecordError> {
        let bad = |expected| RecordError::BadValue {
            line,
            key: key.to_string(),
            value: value.to_string(),
            expected,
        };
        let duplicate = |already: bool| {
            if already {
                Err(RecordError::DuplicateKey {
                    line,
                    key: key.to_string(),
                })
            } else {
                Ok(())
            }
        };
        match key {
            "seed" => {
                duplicate(self.seed.is_some())?;
                self.seed = Some(value.parse().map_err(|_| bad("a whole number"))?);
            }
            "preview" => {
                duplicate(self.preview.is_some())?;
                self.preview = Some(value.parse().map_err(|_| bad("a whole number"))?);
            }
            "hold" => {
                duplicate(self.hold.is_some())?;
                self.hold = Some(match value {
                    "yes" => true,
                    "no" => false,
                    _ => return Err(bad("yes or no")),
                });
            }
            "kicks" => {
                duplicate(self.kicks.is_some())?;
                self.kicks =
                    Some(KickTable::by_name(value).map_err(|_| bad(BUILTIN_KICKS_EXPECTED))?);
            }
            "drop" => {
                duplicate(self.drop.is_some())?;
                self.drop = Some(match value {
                    "soft" => DropMode::Soft,
                    "hard" => DropMode::Hard,
                    _ => return Err(bad("soft or hard")),
                });
            }
            _ => {
                return Err(RecordError::UnknownKey {
                    line,
                    key: key.to_string(),
                });
            }
        }
        Ok(())
    }

    fn config(self) -> Result<GameConfig, RecordError> {
        let defaults = Rules::default();
        Ok(GameConfig {
            seed: self.seed.ok_or(RecordError::MissingSeed)?,
            preview: self.preview.unwrap_or(GameConfig::default().preview),
            rules: Rules {
                kicks: self.kicks.unwrap_or(defaults.kicks),
                drop: self.drop.unwrap_or(defaults.drop),
                hold: self.hold.unwrap_or(defaults.hold),
            },
        })
    }
}

/// Reads the `result` line's words after `result`.
fn parse_result(line: usize, words: &[&str]) -> Result<Outcome, RecordError> {
    let bad = |value: &str| RecordError::BadValue {
        line,
        key: "result".to_string(),
        value: value.to_string(),
        expected: "pieces N lines N pcs N status playing|block-out|lock-out|resigned",
    };
    let [
        "pieces",
        pieces,
        "lines",
        lines,
        "pcs",
        pcs,
        "status",
        status,
    ] = words
    else {
        return Err(bad(&words.join(" ")));
    };
    let number = |s: &str| s.parse::<u64>().map_err(|_| bad(s));
    let game_over = match *status {
        "playing" => None,
        "block-out" => Some(GameOver::BlockOut),
        "lock-out" => Some(GameOver::LockOut),
        "resigned" => Some(GameOver::Resigned),
        other => return Err(bad(other)),
    };
    Ok(Outcome {
        pieces: number(pieces)?,
        lines: number(lines)?,
        perfect_clears: number(pcs)?,
        game_over,
    })
}

impl FromStr for GameRecord {
    type Err = RecordError;

    fn from_str(text: &str) -> Result<GameRecord, RecordError> {
        let mut section = Section::Header;
        let mut settings = Settings::default();
        let mut moves = Vec::new();
        let mut result = None;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let words: Vec<&str> = content.split_whitespace().collect();
            match section {
                Section::Header => {
                    if words != ["pc-game", "1"] {
                        return Err(RecordError::MissingHeader { line });
                    }
                    section = Section::Settings;
                }
                Section::Settings => match words.as_slice() {
                    ["moves"] => section = Section::Moves,
                    [key, value] => settings.read(line, key, value)?,
                    [key, ..] => {
                        return Err(RecordError::BadValue {
                            line,
                            key: key.to_string(),
                            value: words[1..].join(" "),
                            expected: "one value",
                        });
                    }
                    [] => {}
                },
                Section::Moves if words[0] == "result" => {
                    result = Some(parse_result(line, &words[1..])?);
                    section = Section::Done;
                }
                Section::Moves => {
                    for token in words {
                        let mv = token.parse().map_err(|error| RecordError::BadMove {
                            line,
                            index: moves.len() + 1,
                            token: token.to_string(),
                            error,
                        })?;
                        moves.push(mv);
                    }
                }
                Section::Done => return Err(RecordError::AfterResult { line }),
            }
        }
        match section {
            Section::Header => Err(RecordError::MissingHeader { line: 1 }),
            Section::Settings => {
                settings.config()?;
                Err(RecordError::MissingMoves)
            }
            Section::Moves | Section::Done => Ok(GameRecord {
                config: settings.config()?,
                moves,
                result,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_kick_table_reads_and_is_listed() {
        for name in KickTable::BUILTIN_NAMES {
            assert!(BUILTIN_KICKS_EXPECTED.contains(name), "{name}");
            let text = format!("pc-game 1\nseed 1\nkicks {name}\nmoves\n");
            let record: GameRecord = text.parse().unwrap();
            assert_eq!(record.config.rules.kicks.name(), name);
            assert!(record.to_string().contains(&format!("\nkicks {name}\n")));
        }
    }
}
