//! The game state a TBP bot keeps: set by `start`, advanced by `play` and `new_piece`.

use std::collections::VecDeque;

use pc_bag::{BagState, PieceSet};
use pc_bitboard::{Board32, WIDTH};
use pc_srs::{Piece, Placement};

use super::location::{BOARD_ROWS, LocationError, placement_of};
use super::message::{RandomizerRule, RandomizerState, Spin, Start, TbpMove, TbpPiece};

/// Rows of a TBP board.
pub const TBP_ROWS: usize = 40;

/// Why a message cannot be applied to the state. The state is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// A row of the board does not have 10 cells.
    #[error("board row {row} has {cells} cells, not 10")]
    RowWidth {
        /// The row (0 at the bottom).
        row: usize,
        /// Its cells.
        cells: usize,
    },
    /// The board has more than 40 rows.
    #[error("the board has {0} rows, not 40")]
    TooManyRows(usize),
    /// A piece name in the queue or hold is unknown.
    #[error("unknown piece in the {0}")]
    UnknownPiece(&'static str),
    /// The location of a played move is no placement.
    #[error("the move's location: {0}")]
    Location(#[from] LocationError),
    /// The played piece overlaps the board.
    #[error("{0} overlaps filled cells")]
    Overlaps(String),
    /// The played piece is neither the current piece nor the one a hold brings out.
    #[error("{played} played, but the current piece is {current}{hold}")]
    WrongPiece {
        /// The piece played.
        played: Piece,
        /// The current piece, or "none" when the queue is empty.
        current: String,
        /// What a hold would bring out, as text.
        hold: String,
    },
}

/// What the bot knows of the randomizer: the 7-bag's state after the last queue piece,
/// or nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BagKnowledge {
    /// The 7-bag, with the pieces still to come from the current bag after the queue.
    SevenBag(BagState),
    /// Another randomizer, or a 7-bag whose state was not given or was contradicted.
    Unknown,
}

/// What a played move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The placement.
    pub placement: Placement,
    /// Whether hold was used (inferred from the piece).
    pub hold: bool,
    /// Rows cleared.
    pub lines: u32,
    /// Whether the board was empty afterwards (a perfect clear).
    pub perfect_clear: bool,
    /// Whether the piece locked in mid-air (the frontend allowed it; the bot plays on).
    pub floating: bool,
}

/// The position a TBP bot computes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TbpState {
    /// The board (rows 32 to 39 of the TBP board are not kept).
    pub board: Board32,
    /// The held piece.
    pub hold: Option<Piece>,
    /// The current piece, then the previews.
    pub queue: VecDeque<Piece>,
    /// The randomizer's state after the queue.
    pub bag: BagKnowledge,
    /// Consecutive line clears, as told and updated by the moves played.
    pub combo: u32,
    /// Back-to-back status, as told and updated by the moves played.
    pub back_to_back: bool,
}

impl TbpState {
    /// The state a `start` message gives under the rules' randomizer, with warnings about
    /// what was read leniently (a board that is not 40 rows high, cells above row 31, a
    /// bag state the queue contradicts). An error leaves no state: the board's rows are
    /// not 10 wide, or a piece is unknown.
    pub fn from_start(
        start: &Start,
        rule: RandomizerRule,
    ) -> Result<(TbpState, Vec<String>), StateError> {
        let mut warnings = Vec::new();
        if start.board.len() > TBP_ROWS {
            return Err(StateError::TooManyRows(start.board.len()));
        }
        if start.board.len() != TBP_ROWS {
            warnings.push(format!(
                "the board has {} rows, not 40: the rows above are taken as empty",
                start.board.len()
            ));
        }
        let mut board = Board32::new();
        let mut dropped = 0;
        for (y, row) in start.board.iter().enumerate() {
            if row.len() != WIDTH {
                return Err(StateError::RowWidth {
                    row: y,
                    cells: row.len(),
                });
            }
            for (x, cell) in row.iter().enumerate() {
                if cell.is_some() && !board.try_fill(x, y as u32) {
                    dropped += 1;
                }
            }
        }
        if dropped > 0 {
            warnings.push(format!(
                "{dropped} filled cells at row {BOARD_ROWS} or above are ignored (this bot sees rows 0 to {})",
                BOARD_ROWS - 1
            ));
        }
        if board.full_rows() != 0 {
            warnings.push("the board has full rows (kept as they are)".into());
        }
        let piece = |p: TbpPiece, what| p.piece().ok_or(StateError::UnknownPiece(what));
        let hold = start.hold.map(|p| piece(p, "hold")).transpose()?;
        let queue = start
            .queue
            .iter()
            .map(|&p| piece(p, "queue"))
            .collect::<Result<VecDeque<Piece>, _>>()?;
        let bag = bag_knowledge(rule, &start.randomizer, &queue, &mut warnings);
        Ok((
            TbpState {
                board,
                hold,
                queue,
                bag,
                combo: start.combo,
                back_to_back: start.back_to_back,
            },
            warnings,
        ))
    }

    /// The current piece (`queue[0]`).
    pub fn current(&self) -> Option<Piece> {
        self.queue.front().copied()
    }

    /// The piece a hold brings out: the held piece, or `queue[1]` when the slot is empty.
    pub fn hold_piece(&self) -> Option<Piece> {
        self.hold.or_else(|| self.queue.get(1).copied())
    }

    /// Advances by a played move. Hold is inferred from the piece, as the spec says: the
    /// current piece is placed without hold; otherwise the held piece (or, with the slot
    /// empty, `queue[1]`) was brought out and the current piece went to hold. An error
    /// (unknown names, off the board, an overlap, a piece that cannot be played) changes
    /// nothing.
    pub fn play(&mut self, mv: &TbpMove) -> Result<Played, StateError> {
        let placement = placement_of(&mv.location)?;
        let piece = placement.piece();
        if !placement.fits(&self.board) {
            return Err(StateError::Overlaps(format!("{mv:?}")));
        }
        let hold = if self.current() == Some(piece) {
            false
        } else if self.hold_piece() == Some(piece) && self.current().is_some() {
            true
        } else {
            return Err(StateError::WrongPiece {
                played: piece,
                current: self
                    .current()
                    .map_or_else(|| "none (empty queue)".into(), |p| p.to_string()),
                hold: match (self.hold, self.queue.get(1)) {
                    (Some(h), _) => format!(" and {h} is held"),
                    (None, Some(n)) => format!(" and hold would bring out {n}"),
                    (None, None) => ", nothing held".into(),
                },
            });
        };
        let current = self.queue.pop_front().expect("checked above");
        if hold {
            if self.hold.is_none() {
                self.queue.pop_front();
            }
            self.hold = Some(current);
        }
        let floating = !placement.rests_on(&self.board);
        for (x, y) in placement.cells() {
            self.board.fill(usize::from(x), u32::from(y));
        }
        let lines = self.board.clear_full_rows().count_ones();
        let perfect_clear = lines > 0 && self.board.is_empty();
        if lines > 0 {
            self.combo += 1;
            self.back_to_back = lines == 4 || matches!(mv.spin, Spin::Mini | Spin::Full);
        } else {
            self.combo = 0;
        }
        Ok(Played {
            placement,
            hold,
            lines,
            perfect_clear,
            floating,
        })
    }

    /// Adds a piece at the end of the queue and draws it from the known bag. A piece the
    /// bag cannot deal is still added; the bag becomes unknown and the warning says why.
    pub fn new_piece(&mut self, piece: Piece) -> Option<String> {
        self.queue.push_back(piece);
        let BagKnowledge::SevenBag(bag) = self.bag else {
            return None;
        };
        match bag.draw(piece) {
            Ok(next) => {
                self.bag = BagKnowledge::SevenBag(next);
                None
            }
            Err(_) => {
                self.bag = BagKnowledge::Unknown;
                Some(format!(
                    "new piece {piece} is not in the 7-bag's state ({} left): the bag is unknown until the next start",
                    bag.drawable()
                ))
            }
        }
    }

    /// The 7-bag's state after the first `len` pieces of the queue (the bag after the
    /// whole queue with the later pieces put back), or `None` when the bag is unknown.
    pub fn bag_after(&self, len: usize) -> Option<BagState> {
        let BagKnowledge::SevenBag(mut bag) = self.bag else {
            return None;
        };
        for &piece in self.queue.iter().skip(len).rev() {
            bag = undraw(bag, piece)?;
        }
        Some(bag)
    }
}

/// The bag's state before `piece` was drawn; `None` if the bag could not have dealt it.
fn undraw(bag: BagState, piece: Piece) -> Option<BagState> {
    if bag.is_fresh() {
        // `piece` ended the previous bag.
        return Some(BagState::from_remaining(PieceSet::single(piece)));
    }
    let left = bag.remaining();
    (!left.contains(piece)).then(|| BagState::from_remaining(left.with(piece)))
}

/// What the rules and a `start`'s randomizer say of the bag, checked against the queue.
fn bag_knowledge(
    rule: RandomizerRule,
    state: &RandomizerState,
    queue: &VecDeque<Piece>,
    warnings: &mut Vec<String>,
) -> BagKnowledge {
    let RandomizerState::SevenBag { bag_state } = state else {
        if rule == RandomizerRule::SevenBag {
            warnings.push(
                "the rules say seven_bag but the start gives no bag state: the bag is unknown"
                    .into(),
            );
        }
        return BagKnowledge::Unknown;
    };
    if matches!(rule, RandomizerRule::Uniform | RandomizerRule::GeneralBag) {
        warnings.push(format!(
            "a seven_bag state under rules whose randomizer is {rule:?}: the bag state is used"
        ));
    }
    let mut left = PieceSet::EMPTY;
    for p in bag_state {
        match p.piece() {
            Some(p) if left.insert(p) => {}
            _ => {
                warnings.push(format!(
                    "bag_state {bag_state:?} has an unknown or repeated piece: the bag is unknown"
                ));
                return BagKnowledge::Unknown;
            }
        }
    }
    if left.is_empty() {
        warnings.push("bag_state is empty (the spec says non-empty): the bag is unknown".into());
        return BagKnowledge::Unknown;
    }
    let bag = BagState::from_remaining(left);
    // The queue's last pieces are the current bag's first ones: they and the bag state
    // must make one bag, and each earlier run of 7 must be one too.
    let queue: Vec<Piece> = queue.iter().copied().collect();
    let consistent = match BagState::from_queue(&queue, left.len()) {
        Ok(from_queue) => from_queue == bag,
        Err(pc_bag::BagError::QueueTooShort { .. }) => {
            let seen: PieceSet = queue.iter().copied().collect();
            seen.len() == queue.len() && seen.intersection(left).is_empty()
        }
        Err(_) => false,
    };
    if !consistent {
        warnings.push(format!(
            "the queue {} contradicts bag_state {}: the bag is unknown",
            queue.iter().map(|p| p.to_char()).collect::<String>(),
            left
        ));
        return BagKnowledge::Unknown;
    }
    BagKnowledge::SevenBag(bag)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tbp::message::{PieceLocation, TbpOrientation};

    fn pieces(text: &str) -> Vec<TbpPiece> {
        text.chars()
            .map(|c| TbpPiece::from(Piece::from_char(c).unwrap()))
            .collect()
    }

    fn start(hold: Option<char>, queue: &str, bag: &str) -> Start {
        Start {
            hold: hold.map(|c| TbpPiece::from(Piece::from_char(c).unwrap())),
            queue: pieces(queue),
            board: vec![vec![None; 10]; 40],
            randomizer: RandomizerState::SevenBag {
                bag_state: pieces(bag),
            },
            ..Start::default()
        }
    }

    fn state(hold: Option<char>, queue: &str, bag: &str) -> TbpState {
        let (state, warnings) =
            TbpState::from_start(&start(hold, queue, bag), RandomizerRule::SevenBag).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        state
    }

    fn mv(piece: TbpPiece, orientation: TbpOrientation, x: i32, y: i32) -> TbpMove {
        TbpMove {
            location: PieceLocation {
                piece,
                orientation,
                x,
                y,
            },
            spin: Spin::None,
        }
    }

    fn queue(s: &TbpState) -> String {
        s.queue.iter().map(|p| p.to_char()).collect()
    }

    #[test]
    fn hold_is_inferred_from_the_piece() {
        // The current piece: no hold.
        let mut s = state(None, "ITOLS", "JZ");
        let played = s
            .play(&mv(TbpPiece::I, TbpOrientation::North, 1, 0))
            .unwrap();
        assert!(!played.hold);
        assert_eq!((queue(&s), s.hold), ("TOLS".into(), None));
        // The empty slot: queue[1] is played and the current piece is held.
        let played = s
            .play(&mv(TbpPiece::O, TbpOrientation::North, 4, 0))
            .unwrap();
        assert!(played.hold);
        assert_eq!((queue(&s), s.hold), ("LS".into(), Some(Piece::T)));
        // The held piece comes out, the current piece goes in.
        s.play(&mv(TbpPiece::T, TbpOrientation::North, 7, 0))
            .unwrap();
        assert_eq!((queue(&s), s.hold), ("S".into(), Some(Piece::L)));
        // Neither the current piece nor the held one: refused, nothing changes.
        let before = s.clone();
        let err = s
            .play(&mv(TbpPiece::Z, TbpOrientation::North, 4, 5))
            .unwrap_err();
        assert!(matches!(err, StateError::WrongPiece { .. }), "{err}");
        assert_eq!(s, before);
        // Overlapping the stack: refused.
        let err = s
            .play(&mv(TbpPiece::S, TbpOrientation::North, 1, 0))
            .unwrap_err();
        assert!(matches!(err, StateError::Overlaps(_)), "{err}");
        assert_eq!(s, before);
    }

    #[test]
    fn lines_clear_and_a_perfect_clear_is_seen() {
        let mut s = state(None, "IOT", "JLSZ");
        s.board = "####..####".parse().unwrap();
        let played = s
            .play(&mv(TbpPiece::O, TbpOrientation::North, 4, 0))
            .unwrap();
        assert!(
            played.hold,
            "O was the next piece: hold into the empty slot"
        );
        assert_eq!((played.lines, played.perfect_clear), (1, false));
        assert_eq!(s.board.to_text(2, "/"), "........../....##....");
    }

    #[test]
    fn the_bag_follows_new_pieces_and_a_contradiction_is_reported() {
        let mut s = state(None, "ITO", "JLSZ");
        assert_eq!(s.new_piece(Piece::J), None);
        assert_eq!(
            s.bag,
            BagKnowledge::SevenBag(BagState::from_remaining("LSZ".parse().unwrap()))
        );
        // The bag after the first two pieces: O and J put back.
        assert_eq!(
            s.bag_after(2).unwrap().remaining(),
            "OJLSZ".parse().unwrap()
        );
        let warning = s.new_piece(Piece::I).expect("I is not left in the bag");
        assert!(warning.contains("not in the 7-bag"), "{warning}");
        assert_eq!(s.bag, BagKnowledge::Unknown);
        assert_eq!(queue(&s), "ITOJI");
    }

    #[test]
    fn putting_pieces_back_crosses_bag_boundaries() {
        // The queue ends a bag: all seven left, the queue's 7 pieces one bag.
        let s = state(None, "ITOLSJZ", "IOTLJSZ");
        assert_eq!(s.bag, BagKnowledge::SevenBag(BagState::FRESH));
        assert_eq!(
            s.bag_after(6).unwrap().remaining(),
            PieceSet::single(Piece::Z)
        );
        assert_eq!(s.bag_after(0), Some(BagState::FRESH));
        // Two bags in the queue: ZS end one, ITO start the next.
        let s = state(None, "ZSITO", "JLSZ");
        assert_eq!(s.bag_after(2), Some(BagState::FRESH));
        assert_eq!(
            s.bag_after(1).unwrap().remaining(),
            PieceSet::single(Piece::S)
        );
    }

    #[test]
    fn a_queue_that_contradicts_the_bag_leaves_the_bag_unknown() {
        for (queue, bag) in [("ITO", "TJ"), ("IIT", "OJ"), ("ZSITOJ", "JL")] {
            let (s, warnings) =
                TbpState::from_start(&start(None, queue, bag), RandomizerRule::SevenBag).unwrap();
            assert_eq!(s.bag, BagKnowledge::Unknown, "{queue} {bag}");
            assert!(warnings[0].contains("contradicts"), "{warnings:?}");
        }
        // An empty bag state, an unknown randomizer.
        let (s, warnings) =
            TbpState::from_start(&start(None, "ITO", ""), RandomizerRule::SevenBag).unwrap();
        assert_eq!((s.bag, warnings.len()), (BagKnowledge::Unknown, 1));
        let mut uniform = start(None, "ITO", "");
        uniform.randomizer = RandomizerState::Uniform;
        let (s, warnings) = TbpState::from_start(&uniform, RandomizerRule::Uniform).unwrap();
        assert_eq!((s.bag, warnings.len()), (BagKnowledge::Unknown, 0));
    }

    #[test]
    fn boards_are_read_bottom_row_first_and_checked() {
        let mut st = start(Some('T'), "IO", "JLSZ");
        st.board[0][0] = Some("G".into());
        st.board[1][9] = Some("L".into());
        let (s, _) = TbpState::from_start(&st, RandomizerRule::SevenBag).unwrap();
        assert_eq!(s.board.to_text(2, "/"), ".........#/#.........");
        assert_eq!(s.hold, Some(Piece::T));
        // A row that is not 10 wide, too many rows, an unknown piece: errors.
        let mut bad = st.clone();
        bad.board[3].pop();
        assert_eq!(
            TbpState::from_start(&bad, RandomizerRule::SevenBag),
            Err(StateError::RowWidth { row: 3, cells: 9 })
        );
        let mut bad = st.clone();
        bad.board.push(vec![None; 10]);
        assert!(TbpState::from_start(&bad, RandomizerRule::SevenBag).is_err());
        let mut bad = st.clone();
        bad.queue.push(TbpPiece::Unknown);
        assert!(TbpState::from_start(&bad, RandomizerRule::SevenBag).is_err());
        // 20 rows: read, with a warning; a cell at row 35: ignored, with a warning.
        let mut short = st.clone();
        short.board.truncate(20);
        let (_, warnings) = TbpState::from_start(&short, RandomizerRule::SevenBag).unwrap();
        assert_eq!(warnings.len(), 1);
        let mut high = st;
        high.board[35][4] = Some("G".into());
        let (s, warnings) = TbpState::from_start(&high, RandomizerRule::SevenBag).unwrap();
        assert_eq!((s.board.cell_count(), warnings.len()), (2, 1));
    }
}
