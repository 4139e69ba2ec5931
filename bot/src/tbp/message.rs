//! The protocol's messages as serde types: one JSON object per line, tagged by `"type"`.
//!
//! Written here rather than taken from the `tbp` crate: the spec asks a bot to ignore
//! message types and attributes it does not know and to read an unknown randomizer as
//! `"unknown"`, which the crate's enums reject (a whole message fails to parse). These
//! types have a catch-all `Unknown` variant for message types, pieces, orientations,
//! spins and randomizers, as Cold Clear 2 does; unknown attributes are skipped by serde.

use pc_srs::{Orientation, Piece};
use serde::{Deserialize, Serialize};

/// A piece name: `"I"`, `"O"`, `"T"`, `"L"`, `"J"`, `"S"`, `"Z"`; any other string reads
/// as [`TbpPiece::Unknown`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TbpPiece {
    /// I.
    I,
    /// O.
    O,
    /// T.
    T,
    /// L.
    L,
    /// J.
    J,
    /// S.
    S,
    /// Z.
    Z,
    /// A piece name the bot does not know.
    #[serde(other)]
    Unknown,
}

impl TbpPiece {
    /// The piece, `None` for [`TbpPiece::Unknown`].
    pub fn piece(self) -> Option<Piece> {
        Some(match self {
            TbpPiece::I => Piece::I,
            TbpPiece::O => Piece::O,
            TbpPiece::T => Piece::T,
            TbpPiece::L => Piece::L,
            TbpPiece::J => Piece::J,
            TbpPiece::S => Piece::S,
            TbpPiece::Z => Piece::Z,
            TbpPiece::Unknown => return None,
        })
    }
}

impl From<Piece> for TbpPiece {
    fn from(piece: Piece) -> TbpPiece {
        match piece {
            Piece::I => TbpPiece::I,
            Piece::O => TbpPiece::O,
            Piece::T => TbpPiece::T,
            Piece::L => TbpPiece::L,
            Piece::J => TbpPiece::J,
            Piece::S => TbpPiece::S,
            Piece::Z => TbpPiece::Z,
        }
    }
}

/// An orientation: `"north"` is the spawn orientation, one clockwise turn gives
/// `"east"`, then `"south"`, then `"west"` (pc-srs's `Spawn`, `Right`, `Reverse`,
/// `Left`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TbpOrientation {
    /// Spawn orientation.
    North,
    /// One clockwise turn from spawn.
    East,
    /// Two turns.
    South,
    /// One counter-clockwise turn from spawn.
    West,
    /// An orientation name the bot does not know.
    #[serde(other)]
    Unknown,
}

impl TbpOrientation {
    /// The orientation, `None` for [`TbpOrientation::Unknown`].
    pub fn orientation(self) -> Option<Orientation> {
        Some(match self {
            TbpOrientation::North => Orientation::Spawn,
            TbpOrientation::East => Orientation::Right,
            TbpOrientation::South => Orientation::Reverse,
            TbpOrientation::West => Orientation::Left,
            TbpOrientation::Unknown => return None,
        })
    }
}

impl From<Orientation> for TbpOrientation {
    fn from(o: Orientation) -> TbpOrientation {
        match o {
            Orientation::Spawn => TbpOrientation::North,
            Orientation::Right => TbpOrientation::East,
            Orientation::Reverse => TbpOrientation::South,
            Orientation::Left => TbpOrientation::West,
        }
    }
}

/// The spin a move makes: `"none"`, `"mini"` or `"full"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spin {
    /// No spin.
    #[default]
    None,
    /// A T-spin mini.
    Mini,
    /// A (full) T-spin.
    Full,
    /// A spin name the bot does not know.
    #[serde(other)]
    Unknown,
}

/// Where a piece locks: its rotation centre `(x, y)` (x = 0 the leftmost column, y = 0
/// the bottom row, y up) and orientation. This is [`CentrePos`](crate::CentrePos) unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PieceLocation {
    /// The piece (`"type"` on the wire).
    #[serde(rename = "type")]
    pub piece: TbpPiece,
    /// The orientation.
    pub orientation: TbpOrientation,
    /// Column of the rotation centre.
    pub x: i32,
    /// Row of the rotation centre, from the bottom.
    pub y: i32,
}

/// A move: where the piece locks and the spin it makes. Whether hold is used is inferred
/// from the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TbpMove {
    /// Where the piece locks.
    pub location: PieceLocation,
    /// The spin (`"none"` when absent).
    #[serde(default)]
    pub spin: Spin,
}

/// The `randomizer` of a `rules` message (the randomizer extension); a missing or
/// unknown value is [`RandomizerRule::Unknown`], as the extension asks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RandomizerRule {
    /// Pieces chosen at random with little or no bias.
    Uniform,
    /// The 7-bag.
    SevenBag,
    /// A bag of given contents (not used by this bot: played as unknown).
    GeneralBag,
    /// Anything else.
    #[default]
    #[serde(other)]
    Unknown,
}

/// The `randomizer` object of a `start` message: the randomizer's state after the last
/// piece of the queue. A missing or unknown `type` is [`RandomizerState::Unknown`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RandomizerState {
    /// Uniform: no state.
    Uniform,
    /// The 7-bag: the pieces still in the current bag after the queue (all seven when the
    /// queue ends a bag).
    SevenBag {
        /// The pieces left in the bag.
        #[serde(default)]
        bag_state: Vec<TbpPiece>,
    },
    /// Any other randomizer (`general_bag` included: this bot does not use it).
    #[default]
    #[serde(other)]
    Unknown,
}

/// A board cell: `null` when empty, else a piece letter or `"G"` (any string is read as
/// filled).
pub type Cell = Option<String>;

/// The `start` message: the position to compute from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    /// The held piece, `null` when the hold slot is empty.
    #[serde(default)]
    pub hold: Option<TbpPiece>,
    /// The current piece, then the previews in order.
    #[serde(default)]
    pub queue: Vec<TbpPiece>,
    /// Consecutive line clears so far.
    #[serde(default)]
    pub combo: u32,
    /// Back-to-back status.
    #[serde(default)]
    pub back_to_back: bool,
    /// 40 rows of 10 cells, the bottom row first (`board[y][x]`).
    pub board: Vec<Vec<Cell>>,
    /// The randomizer's state after the queue (the randomizer extension).
    #[serde(default)]
    pub randomizer: RandomizerState,
}

/// A message from the frontend to the bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FrontendMessage {
    /// The game's rules; the bot answers `ready` or `error`.
    Rules {
        /// The randomizer (extension).
        #[serde(default)]
        randomizer: RandomizerRule,
    },
    /// Compute from this position (a full reset).
    Start(Start),
    /// Stop computing: the game is over.
    Stop,
    /// Answer with a `suggestion` at once.
    Suggest,
    /// A move was played: advance the state by it.
    Play {
        /// The move played.
        #[serde(rename = "move")]
        mv: TbpMove,
    },
    /// A piece was added to the end of the queue.
    NewPiece {
        /// The piece.
        piece: TbpPiece,
    },
    /// Exit.
    Quit,
    /// A message type the bot does not know: ignored.
    #[serde(other)]
    Unknown,
}

/// The optional `move_info` of a suggestion (the move_info extension).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveInfo {
    /// Nodes of the search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<f64>,
    /// Nodes per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nps: Option<f64>,
    /// Depth of the search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<f64>,
    /// Free text about the move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<String>,
}

/// A message from the bot to the frontend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BotMessage {
    /// Sent at launch: who the bot is and what it supports.
    Info {
        /// The bot's name.
        name: String,
        /// Its version.
        version: String,
        /// Its author.
        author: String,
        /// The protocol features it supports.
        features: Vec<String>,
    },
    /// The bot can play with the rules.
    Ready,
    /// The bot cannot play (`reason`: `"unsupported_rules"`).
    Error {
        /// Why.
        reason: String,
    },
    /// Moves in order of preference; the frontend plays the first valid one.
    Suggestion {
        /// The moves, best first.
        moves: Vec<TbpMove>,
        /// What the bot says about the first move (extension).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        move_info: Option<MoveInfo>,
    },
    /// A message type this crate does not know.
    #[serde(other)]
    Unknown,
}

impl BotMessage {
    /// The message as one line of JSON, without the line break.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("bot messages always serialize")
    }
}

impl FrontendMessage {
    /// The message as one line of JSON, without the line break.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("frontend messages always serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> FrontendMessage {
        serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn unknown_types_and_attributes_are_ignored() {
        assert_eq!(
            parse(r#"{"type":"garbage","lines":3}"#),
            FrontendMessage::Unknown
        );
        assert_eq!(
            parse(r#"{"type":"suggest","extra":{"a":[1,2]}}"#),
            FrontendMessage::Suggest
        );
        assert_eq!(parse(r#"{"type":"stop","x":1}"#), FrontendMessage::Stop);
        assert_eq!(
            parse(r#"{"type":"new_piece","piece":"T","when":5}"#),
            FrontendMessage::NewPiece { piece: TbpPiece::T }
        );
        // A message without a type is malformed.
        assert!(serde_json::from_str::<FrontendMessage>(r#"{"piece":"T"}"#).is_err());
    }

    #[test]
    fn an_unknown_or_missing_randomizer_is_unknown() {
        for (line, rule) in [
            (r#"{"type":"rules"}"#, RandomizerRule::Unknown),
            (
                r#"{"type":"rules","randomizer":"seven_bag"}"#,
                RandomizerRule::SevenBag,
            ),
            (
                r#"{"type":"rules","randomizer":"pairs"}"#,
                RandomizerRule::Unknown,
            ),
        ] {
            assert_eq!(parse(line), FrontendMessage::Rules { randomizer: rule });
        }
        let start = r#"{"type":"start","hold":null,"queue":["I"],"combo":0,"back_to_back":false,
            "board":[],"randomizer":{"type":"pairs","state":3}}"#;
        let FrontendMessage::Start(start) = parse(start) else {
            panic!("a start")
        };
        assert_eq!(start.randomizer, RandomizerState::Unknown);
        let start = r#"{"type":"start","hold":"T","queue":["I","X"],"board":[],
            "randomizer":{"type":"seven_bag","bag_state":["S","Z"]}}"#;
        let FrontendMessage::Start(start) = parse(start) else {
            panic!("a start")
        };
        assert_eq!(start.hold, Some(TbpPiece::T));
        assert_eq!(start.queue, [TbpPiece::I, TbpPiece::Unknown]);
        assert_eq!(
            start.randomizer,
            RandomizerState::SevenBag {
                bag_state: vec![TbpPiece::S, TbpPiece::Z]
            }
        );
    }

    #[test]
    fn messages_have_the_wire_format_of_the_spec() {
        let mv = TbpMove {
            location: PieceLocation {
                piece: TbpPiece::T,
                orientation: TbpOrientation::South,
                x: 3,
                y: 1,
            },
            spin: Spin::Full,
        };
        let suggestion = BotMessage::Suggestion {
            moves: vec![mv],
            move_info: None,
        };
        assert_eq!(
            suggestion.to_line(),
            r#"{"type":"suggestion","moves":[{"location":{"type":"T","orientation":"south","x":3,"y":1},"spin":"full"}]}"#
        );
        assert_eq!(BotMessage::Ready.to_line(), r#"{"type":"ready"}"#);
        assert_eq!(
            BotMessage::Error {
                reason: "unsupported_rules".into()
            }
            .to_line(),
            r#"{"type":"error","reason":"unsupported_rules"}"#
        );
        let play = FrontendMessage::Play { mv };
        assert_eq!(parse(&play.to_line()), play);
        assert!(play.to_line().contains(r#""move":{"location""#));
        // A battletris transcript's play.
        let line = r#"{"type":"play","move":{"location":{"type":"I","orientation":"north","x":1,"y":0},"spin":"none"}}"#;
        assert!(matches!(parse(line), FrontendMessage::Play { .. }));
    }
}
