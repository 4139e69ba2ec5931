//! Play mode's game: the pieces of a seed ([`Deck`], pc-bot's 7-bag), the position after
//! each move ([`Game`]), the tables the page moves the falling piece with ([`tables`]),
//! and the fumen of a whole game ([`game_fumen`]).
//!
//! The page keeps a game as the JSON of a [`Game`] and asks the module for the next one
//! after each placement ([`Game::place`]) or hold into the empty slot ([`Game::hold`]):
//! what a move does to the field, the hold slot, the queue and the bag is the engine's
//! ([`Position::after`], [`Position::after_hold`]), never a copy of it in JavaScript. The
//! falling piece moves on the page, with the cells, kicks and spawn of [`tables`], in the
//! engine's order of trying kicks (the browser tests replay every hinted key sequence).

use crate::form::{Form, FormError, field_rows, form_of, letters};
use pc_bag::{BagState, PieceSet};
use pc_bitboard::Board32;
use pc_bot::SevenBag;
use pc_fumen::Fumen;
use pc_solver::{MAX_PREVIEW, Move, Orientation, Piece, Placement, Position, Rules, SolverError};
use pc_srs::{CentrePos, KickTable, Rotation, guideline_spawn, shape};
use serde::{Deserialize, Serialize};

/// Rows of the visible field in Play mode (pieces spawn just above them, as in guideline
/// games): the hinted keys start from this spawn, the perfect-clear model's
/// ([`pc_srs::pc_spawn`]).
pub const VISIBLE_ROWS: u32 = 20;

/// PCs a game of the 10-PC challenge asks for.
pub const GOAL: u32 = 10;

/// The settings of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The seed of the 7-bag.
    pub seed: u64,
    /// Preview pieces, 1 to [`MAX_PREVIEW`].
    pub preview: usize,
    /// The kick table's name.
    pub kicks: String,
    /// The drop mode's name.
    pub drop: String,
    /// Whether 2-line PCs count too.
    pub two_line: bool,
    /// The clear line of each new PC.
    pub clear_line: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            seed: 0,
            preview: 5,
            kicks: "srs".to_string(),
            drop: "softdrop".to_string(),
            two_line: false,
            clear_line: 4,
        }
    }
}

/// The pieces of a game, in the order they come: the pieces a start position shows
/// (Play from here), then the rest of their bag shuffled, then shuffled 7-bags, dealt by
/// [`SevenBag::from_bag_state`] with the seed (without a start, [`SevenBag::new`]'s
/// pieces).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    /// The seed.
    pub seed: u64,
    /// The pieces the start position shows, as letters.
    pub start: String,
    /// The pieces left in their bag after them (empty: a fresh bag follows).
    pub rest: String,
}

impl Deck {
    /// The first `n` pieces.
    pub fn pieces(&self, n: usize) -> Vec<Piece> {
        let start = self.start_pieces();
        let dealt = n.saturating_sub(start.len());
        start
            .into_iter()
            .take(n)
            .chain(self.bag().take(dealt))
            .collect()
    }

    /// The pieces still to come from the current bag once `n` pieces are dealt (`n` at
    /// least the start's length); empty when a fresh bag follows.
    pub fn bag_after(&self, n: usize) -> PieceSet {
        let mut bag = self.bag();
        for _ in self.start_pieces().len()..n {
            bag.next_piece();
        }
        bag.bag_state().remaining()
    }

    fn start_pieces(&self) -> Vec<Piece> {
        self.start.chars().filter_map(Piece::from_char).collect()
    }

    /// The pieces after the start: the rest of its bag, then whole bags.
    fn bag(&self) -> SevenBag {
        let rest = self.rest.parse().unwrap_or(PieceSet::EMPTY);
        SevenBag::from_bag_state(self.seed, BagState::from_remaining(rest))
    }
}

/// One placement of a game, where it locked (rotation-centre form) and what it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// Whether hold was pressed for it (swapping with the piece held).
    pub hold: bool,
    /// The piece.
    pub piece: String,
    /// `spawn`, `right`, `reverse` or `left`.
    pub orientation: String,
    /// The rotation centre's column.
    pub x: i32,
    /// The rotation centre's row.
    pub y: i32,
    /// The four cells `[x, y]`.
    pub cells: Vec<[u8; 2]>,
    /// Rows it cleared.
    pub cleared: u32,
    /// Whether it made a perfect clear.
    pub pc: bool,
}

/// Why a game is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Over {
    /// `done` (the 10 PCs made) or `lost` (no PC can be made any more).
    pub kind: String,
    /// What happened, for the page.
    pub message: String,
}

/// A game: its settings and pieces, the position now, and what was played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// The settings (the preview is the game's).
    pub settings: Settings,
    /// Where the pieces come from.
    pub deck: Deck,
    /// Pieces dealt so far (the last is the last preview piece).
    pub dealt: usize,
    /// The position now, as the solver reads it (`hold_used` after a hold into the empty
    /// slot). When the game is lost by a piece locked above the clear line, the field shows
    /// it.
    pub form: Form,
    /// The field the game started from.
    pub start_field: String,
    /// PCs made.
    pub pcs: u32,
    /// Decisions made: placements and holds into the empty slot. With the game's seed, it
    /// names the position the page asks the solver about.
    pub turn: u32,
    /// Every placement, in order.
    pub placements: Vec<Played>,
    /// The field's cells by what filled them, row `y` at index `y` (bottom first): `.`
    /// empty, `X` the start's own blocks, else the letter of the piece locked there.
    pub colours: Vec<String>,
    /// Set when the game is over.
    pub over: Option<Over>,
}

/// What is wrong with a move the page sends.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The position or the settings do not check.
    #[error(transparent)]
    Form(#[from] FormError),
    /// The engine refuses the move.
    #[error("move: {0}")]
    Solver(#[from] SolverError),
    /// A piece or orientation name that is not one.
    #[error("move: {0:?} is not a piece or an orientation")]
    Name(String),
    /// A placement off the board, or not resting where it is.
    #[error("move: {0}")]
    Placement(String),
    /// The game is over.
    #[error("the game is over")]
    Over,
}

impl PlayError {
    /// The input the error is about (see [`FormError::input`]).
    pub fn input(&self) -> &'static str {
        match self {
            PlayError::Form(e) => e.input(),
            _ => "play",
        }
    }
}

/// An orientation by its name (`spawn`, `right`, `reverse`, `left`, or `N E S W`).
pub fn orientation(name: &str) -> Option<Orientation> {
    match name.to_ascii_lowercase().as_str() {
        "spawn" | "n" => Some(Orientation::Spawn),
        "right" | "e" => Some(Orientation::Right),
        "reverse" | "s" => Some(Orientation::Reverse),
        "left" | "w" => Some(Orientation::Left),
        _ => None,
    }
}

impl Game {
    /// A new game: from the empty field, or from `start` (Play from here: its field, hold,
    /// queue and bag; its queue's pieces come first, and the preview is at least as long
    /// as it shows).
    pub fn new(settings: Settings, start: Option<&Form>) -> Result<Game, PlayError> {
        let mut settings = settings;
        settings.preview = settings.preview.clamp(1, MAX_PREVIEW);
        let probe = Form {
            kicks: settings.kicks.clone(),
            drop: settings.drop.clone(),
            ..Form::default()
        };
        let rules = probe.rules()?;
        settings.kicks = rules.kicks.name().to_string();
        settings.drop = crate::form::drop_name(rules.drop).to_string();
        let (field, clear_line, hold, deck) = match start {
            Some(form) => {
                let form = Form {
                    kicks: settings.kicks.clone(),
                    drop: settings.drop.clone(),
                    two_line: settings.two_line,
                    hold_used: false,
                    ..form.clone()
                };
                let setup = form.setup()?;
                let shown = setup.position.queue().len();
                settings.preview = settings.preview.max(shown - 1);
                let p = setup.position;
                let rest = if p.bag_state().is_fresh() {
                    String::new()
                } else {
                    p.bag.to_string()
                };
                let deck = Deck {
                    seed: settings.seed,
                    start: letters(&p.queue()),
                    rest,
                };
                (p.field, p.clear_line, p.hold, deck)
            }
            None => (
                Board32::new(),
                settings.clear_line,
                None,
                Deck {
                    seed: settings.seed,
                    start: String::new(),
                    rest: String::new(),
                },
            ),
        };
        let dealt = settings.preview + 1;
        let queue = deck.pieces(dealt);
        let position = Position::new(field, queue[0])
            .with_clear_line(clear_line)
            .with_hold(hold)
            .with_preview(&queue[1..])
            .with_bag(deck.bag_after(dealt));
        position.check_bag()?;
        let form = form_of(&position, &rules, settings.two_line);
        let colours = (0..position.field.height())
            .map(|y| {
                (0..10)
                    .map(|x| if position.field.cell(x, y) { 'X' } else { '.' })
                    .collect()
            })
            .collect();
        Ok(Game {
            colours,
            start_field: form.field.clone(),
            settings,
            deck,
            dealt,
            form,
            pcs: 0,
            turn: 0,
            placements: Vec::new(),
            over: None,
        })
    }

    /// The position now, and the rules.
    pub fn position(&self) -> Result<(Position, Rules), PlayError> {
        let setup = self.form.setup()?;
        Ok((setup.position, setup.rules))
    }

    /// The next `count` pieces the deck reveals.
    fn reveal(&self, count: usize) -> Vec<Piece> {
        self.deck.pieces(self.dealt + count)[self.dealt..].to_vec()
    }

    /// The game after a hold into the empty slot: the current piece is held, the next one
    /// comes out (and must be placed), and a piece is revealed.
    pub fn hold(&self) -> Result<Game, PlayError> {
        if self.over.is_some() {
            return Err(PlayError::Over);
        }
        let (position, rules) = self.position()?;
        let revealed = self.reveal(1);
        let next = position.after_hold(revealed[0])?;
        let mut game = self.clone();
        game.dealt += 1;
        game.turn += 1;
        game.form = form_of(&next, &rules, self.settings.two_line);
        Ok(game)
    }

    /// The game after a placement: `hold` when hold was pressed for it (with a piece in
    /// the slot, the held piece is the one placed), the piece's orientation and rotation
    /// centre where it locked. A placement that reaches the clear line ends the game
    /// (no PC can be made with it); the 10th PC ends it too.
    pub fn place(
        &self,
        hold: bool,
        orientation_name: &str,
        x: i32,
        y: i32,
    ) -> Result<Game, PlayError> {
        if self.over.is_some() {
            return Err(PlayError::Over);
        }
        let (position, rules) = self.position()?;
        let o = orientation(orientation_name)
            .ok_or_else(|| PlayError::Name(orientation_name.into()))?;
        let piece = match (hold, position.hold) {
            (false, _) => position.current,
            (true, Some(held)) => held,
            (true, None) => *position.preview.first().ok_or(SolverError::IllegalMove(
                "holding into an empty slot needs a preview",
            ))?,
        };
        let placement = Placement::new(piece, o, CentrePos { x, y })
            .map_err(|e| PlayError::Placement(e.to_string()))?;
        if !placement.rests_on(&position.field) {
            return Err(PlayError::Placement(format!(
                "{piece} {o} at ({x},{y}) does not rest on the field"
            )));
        }
        let mut played = Played {
            hold,
            piece: piece.to_string(),
            orientation: o.to_string(),
            x,
            y,
            cells: placement.cells().iter().map(|&(x, y)| [x, y]).collect(),
            cleared: 0,
            pc: false,
        };
        let mut game = self.clone();
        game.turn += 1;
        game.lock_colours(&placement);
        let (_, top) = placement.rows();
        if top >= position.clear_line {
            // Off the perfect-clear model: the PC is lost. Show the piece where it locked.
            let mut board = position.field;
            for (cx, cy) in placement.cells() {
                board.fill(cx as usize, cy as u32);
            }
            played.cleared = board.clear_full_rows().count_ones();
            game.form.field = field_rows(&board);
            game.placements.push(played);
            game.over = Some(Over {
                kind: "lost".to_string(),
                message: format!(
                    "{piece} locked in row {}, above the clear line {}: no perfect clear can \
                     be made any more.",
                    top + 1,
                    position.clear_line
                ),
            });
            return Ok(game);
        }
        let count = if hold && position.hold.is_none() {
            2
        } else {
            1
        };
        let revealed = self.reveal(count);
        let mut next = position.after(Move { hold, placement }, &revealed)?;
        let mut board = position.field;
        for (cx, cy) in placement.cells() {
            board.fill(cx as usize, cy as u32);
        }
        played.cleared = board.full_rows().count_ones();
        if next.field.is_empty() {
            played.pc = true;
            game.pcs += 1;
            next.clear_line = self.settings.clear_line;
        }
        game.dealt += count;
        game.placements.push(played);
        game.form = form_of(&next, &rules, self.settings.two_line);
        if game.pcs >= GOAL {
            game.over = Some(Over {
                kind: "done".to_string(),
                message: format!("{GOAL} perfect clears in a row."),
            });
        }
        Ok(game)
    }
}

impl Game {
    /// Locks a placement into [`Game::colours`] and clears the rows it fills, as the field
    /// clears them.
    fn lock_colours(&mut self, placement: &Placement) {
        let mut rows: Vec<Vec<char>> = self.colours.iter().map(|r| r.chars().collect()).collect();
        let letter = placement.piece().to_char();
        for (x, y) in placement.cells() {
            while rows.len() <= y as usize {
                rows.push(vec!['.'; 10]);
            }
            rows[y as usize][x as usize] = letter;
        }
        rows.retain(|row| row.contains(&'.'));
        while rows.last().is_some_and(|row| row.iter().all(|&c| c == '.')) {
            rows.pop();
        }
        self.colours = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    }
}

/// What the page moves the falling piece with: for each piece (in [`Piece::ALL`]'s order,
/// `IJLOSTZ`) and orientation (spawn, right, reverse, left) its cells around the rotation
/// centre, and for each piece, orientation and turn (clockwise, counter-clockwise, 180°)
/// the kick offsets in the order they are tried (none: the turn is not allowed); and the
/// spawn of the rotation centre.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tables {
    /// `IJLOSTZ`.
    pub pieces: String,
    /// `cells[piece][orientation]`: four `[dx, dy]`.
    pub cells: Vec<Vec<Vec<[i8; 2]>>>,
    /// `kicks[piece][orientation][turn]`: the offsets `[dx, dy]` tried.
    pub kicks: Vec<Vec<Vec<Vec<[i8; 2]>>>>,
    /// Where the rotation centre spawns, `[x, y]`.
    pub spawn: [i32; 2],
    /// Rows of the visible field.
    pub rows: u32,
}

/// The tables of a kick table.
pub fn tables(kicks: &KickTable) -> Tables {
    let spawn = guideline_spawn(VISIBLE_ROWS);
    Tables {
        pieces: letters(&Piece::ALL),
        cells: Piece::ALL
            .iter()
            .map(|&p| {
                Orientation::ALL
                    .iter()
                    .map(|&o| shape::cells(p, o).iter().map(|&(x, y)| [x, y]).collect())
                    .collect()
            })
            .collect(),
        kicks: Piece::ALL
            .iter()
            .map(|&p| {
                Orientation::ALL
                    .iter()
                    .map(|&o| {
                        [Rotation::Cw, Rotation::Ccw, Rotation::Half]
                            .iter()
                            .map(|&r| {
                                kicks
                                    .kicks_for(p, o, r)
                                    .iter()
                                    .map(|k| [k.x, k.y])
                                    .collect()
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect(),
        spawn: [spawn.x, spawn.y],
        rows: VISIBLE_ROWS,
    }
}

/// A placement of a whole game's fumen.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct FumenPiece {
    /// The piece.
    pub piece: String,
    /// The orientation's name.
    pub orientation: String,
    /// The rotation centre's column.
    pub x: i32,
    /// The rotation centre's row.
    pub y: i32,
}

/// The fumen of a game: one page per placement from `field`, each with its comment.
pub fn game_fumen(
    field: &str,
    placements: &[FumenPiece],
    comments: &[String],
) -> Result<Fumen, PlayError> {
    let board: Board32 = field.parse().map_err(FormError::from)?;
    let placements = placements
        .iter()
        .map(|p| {
            let piece = p
                .piece
                .chars()
                .next()
                .and_then(Piece::from_char)
                .ok_or_else(|| PlayError::Name(p.piece.clone()))?;
            let o = orientation(&p.orientation)
                .ok_or_else(|| PlayError::Name(p.orientation.clone()))?;
            Placement::new(piece, o, CentrePos { x: p.x, y: p.y })
                .map_err(|e| PlayError::Placement(e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if placements.iter().any(|p| p.rows().1 > 22) {
        return Err(PlayError::Placement(
            "a piece above the fumen's 23 rows".into(),
        ));
    }
    let mut fumen = Fumen::from_placements(&board, &placements);
    for (page, comment) in fumen.pages.iter_mut().zip(comments) {
        if !comment.is_empty() {
            page.set_comment(Some(comment.clone()));
        }
    }
    Ok(fumen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_deck_deals_as_the_bot_s_seven_bag() {
        for seed in [0, 1, 42, u64::MAX] {
            let deck = Deck {
                seed,
                start: String::new(),
                rest: String::new(),
            };
            let bot: Vec<Piece> = SevenBag::new(seed).take(50).collect();
            assert_eq!(deck.pieces(50), bot, "seed {seed}");
            // And the bag state after each count of pieces is the bot's.
            let mut bag = SevenBag::new(seed);
            for n in 1..30 {
                bag.next_piece();
                assert_eq!(
                    deck.bag_after(n),
                    bag.bag_state().remaining(),
                    "seed {seed}, {n} dealt"
                );
            }
        }
    }

    #[test]
    fn a_start_queue_comes_first_then_the_rest_of_its_bag() {
        let deck = Deck {
            seed: 7,
            start: "TSZ".to_string(),
            rest: "IJ".to_string(),
        };
        let pieces = deck.pieces(12);
        assert_eq!(&pieces[..3], [Piece::T, Piece::S, Piece::Z]);
        let rest: PieceSet = pieces[3..5].iter().copied().collect();
        assert_eq!(rest, "IJ".parse().unwrap());
        let bag: PieceSet = pieces[5..12].iter().copied().collect();
        assert_eq!(bag, PieceSet::ALL);
        assert_eq!(deck.bag_after(3), "IJ".parse().unwrap());
        assert_eq!(deck.bag_after(4), PieceSet::single(pieces[4]));
        assert!(deck.bag_after(5).is_empty());
        assert_eq!(deck.bag_after(6).len(), 6);
    }

    fn settings(seed: u64) -> Settings {
        Settings {
            seed,
            ..Settings::default()
        }
    }

    #[test]
    fn a_new_game_shows_the_preview_and_the_bag() {
        let game = Game::new(settings(3), None).unwrap();
        let bot: Vec<Piece> = SevenBag::new(3).take(6).collect();
        assert_eq!(game.form.queue, letters(&bot));
        assert_eq!(game.form.hold, "");
        assert_eq!(game.form.clear_line, 4);
        assert_eq!(game.dealt, 6);
        let (position, _) = game.position().unwrap();
        assert_eq!(position.bag.len(), 1);
        assert_eq!(game.start_field, "..........");
    }

    #[test]
    fn hold_then_place_follows_the_engine() {
        let game = Game::new(settings(5), None).unwrap();
        let queue: Vec<char> = game.form.queue.chars().collect();
        let held = game.hold().unwrap();
        assert_eq!(held.form.hold, queue[0].to_string());
        assert!(held.form.hold_used);
        assert_eq!(held.form.queue.chars().next(), Some(queue[1]));
        assert_eq!(held.dealt, 7);
        assert_eq!(held.turn, 1);
        // Place the piece out now flat on the floor at the left.
        let piece = Piece::from_char(queue[1]).unwrap();
        let o = Orientation::Spawn;
        let (x0, _, y0, _) = shape::bounds(piece, o);
        let placed = held.place(false, "spawn", -x0 as i32, -y0 as i32).unwrap();
        assert!(!placed.form.hold_used);
        assert_eq!(placed.turn, 2);
        assert!(
            placed.colours[0].contains(piece.to_char()),
            "{:?}",
            placed.colours
        );
        assert_eq!(placed.placements.len(), 1);
        assert_eq!(
            placed.form.field.split('/').count(),
            if piece == Piece::I { 1 } else { 2 }
        );
        // A piece in the air does not rest.
        assert!(matches!(
            held.place(false, "spawn", 4, 3),
            Err(PlayError::Placement(_))
        ));
        // Hold again for the same piece: refused by the engine.
        assert!(held.place(true, "spawn", 4, 1).is_err());
    }

    #[test]
    fn a_pc_counts_and_the_next_starts_with_the_settings_clear_line() {
        // The last I of a PC: I held... simplest: a 4-wide well filled by a vertical I.
        let start = Form {
            field: "#########./#########./#########./#########.".to_string(),
            hold: String::new(),
            queue: "I".to_string(),
            ..Form::default()
        };
        let game = Game::new(settings(1), Some(&start)).unwrap();
        assert_eq!(game.settings.preview, 5);
        assert_eq!(game.form.queue.chars().next(), Some('I'));
        let done = game.place(false, "right", 9, 2).unwrap();
        assert_eq!(done.pcs, 1);
        assert!(done.placements[0].pc);
        assert_eq!(done.placements[0].cleared, 4);
        assert_eq!(done.form.field, "..........");
        assert_eq!(done.form.clear_line, 4);
        assert!(done.colours.is_empty(), "{:?}", done.colours);
        assert_eq!(game.colours[0], "#########.".replace('#', "X"));
        // Flat on top, above the clear line: lost, the piece shown.
        let lost = game.place(false, "spawn", 1, 4).unwrap();
        assert_eq!(lost.over.unwrap().kind, "lost");
        assert!(
            lost.form.field.starts_with("####......"),
            "{}",
            lost.form.field
        );
        // In the air: refused.
        assert!(game.place(false, "spawn", 1, 6).is_err());
        let high = Form {
            field: "##########/#########./#########./#########.".to_string(),
            clear_line: 4,
            queue: "O".to_string(),
            ..Form::default()
        };
        // Not a multiple of 4: the start itself is refused.
        assert!(Game::new(settings(1), Some(&high)).is_err());
    }

    #[test]
    fn a_piece_above_the_clear_line_loses() {
        let start = Form {
            field: "..........".to_string(),
            clear_line: 2,
            queue: "I".to_string(),
            ..Form::default()
        };
        let game = Game::new(settings(1), Some(&start)).unwrap();
        let lost = game.place(false, "right", 0, 2).unwrap();
        let over = lost.over.clone().unwrap();
        assert_eq!(over.kind, "lost");
        assert!(
            over.message.contains("above the clear line 2"),
            "{}",
            over.message
        );
        assert!(lost.place(false, "spawn", 1, 0).is_err());
    }

    #[test]
    fn the_tables_are_the_engine_s() {
        let srs = tables(&KickTable::srs());
        assert_eq!(srs.pieces, "IJLOSTZ");
        assert_eq!(srs.spawn, [4, 20]);
        assert_eq!(srs.spawn, {
            let s = pc_srs::pc_spawn(4);
            [s.x, s.y]
        });
        // T spawn: (-1,0) (0,0) (1,0) (0,1).
        assert_eq!(srs.cells[5][0], [[-1, 0], [0, 0], [1, 0], [0, 1]]);
        // SRS has five kicks per quarter turn and no half turn.
        assert_eq!(srs.kicks[5][0][0].len(), 5);
        assert!(srs.kicks[5][0][2].is_empty());
        let plus = tables(&KickTable::srs_plus());
        assert!(!plus.kicks[5][0][2].is_empty());
    }

    #[test]
    fn a_game_s_fumen_has_a_page_per_placement() {
        let placements = [
            FumenPiece {
                piece: "I".into(),
                orientation: "spawn".into(),
                x: 1,
                y: 0,
            },
            FumenPiece {
                piece: "O".into(),
                orientation: "spawn".into(),
                x: 4,
                y: 0,
            },
        ];
        let fumen = game_fumen("..........", &placements, &["one".into(), String::new()]).unwrap();
        assert_eq!(fumen.pages.len(), 2);
        assert_eq!(fumen.pages[0].comment(), Some("one"));
        let back = pc_fumen::decode(&fumen.to_string()).unwrap();
        assert_eq!(back.pages.len(), 2);
    }
}
