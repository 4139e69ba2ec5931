//! [`TbpBot`]: the protocol's state machine, from frontend messages to bot messages.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use pc_bag::BagState;
use pc_bitboard::Board32;
use pc_solver::{MAX_PREVIEW, Move, PcGraph, Ratio, Rules};
use pc_srs::{CentrePos, Orientation, Piece, Placement};

use super::location::{location_of, spin_of};
use super::message::{
    BotMessage, FrontendMessage, MoveInfo, RandomizerRule, Spin, TbpMove, TbpPiece,
};
use super::state::TbpState;
use crate::game::{GameView, Player};
use crate::heuristic::Evaluator;
use crate::player::{DecisionKind, PcPlayer};
use crate::tspin::{TSpin, best_tspin};

/// The preview with which a start of a PC with a piece in hold leaves five pieces unknown
/// ([`PcGraph::prepare_five_unknown`]).
const FIVE_UNKNOWN_PREVIEW: usize = 4;

/// The default [`TbpConfig::think_time`]: battletris gives a bot 500 ms per `suggest`.
pub const DEFAULT_THINK_TIME: Duration = Duration::from_millis(350);

/// The default [`TbpConfig::spawn_row`]: TBP's default rules spawn pieces at x = 4,
/// "roughly y = 19" (battletris: row 19, or 20 when 19 is blocked).
pub const DEFAULT_SPAWN_ROW: i32 = 19;

/// What a note says after a refused message: a refused message changes nothing.
const KEPT: &str = "the position stays as it was";

/// Where the PC field graph comes from.
#[derive(Clone, Debug, Default)]
pub enum GraphSource {
    /// No graph: the first decisions of a PC are approximated (see [`PcPlayer`]).
    None,
    /// The cached graph of the rules ([`PcGraph::cache_path`]) when there is one, loaded
    /// when the `rules` message comes (before `ready`).
    #[default]
    Cached,
    /// This file, loaded when the `rules` message comes.
    File(PathBuf),
    /// A graph already loaded.
    Loaded(Arc<PcGraph>),
}

/// The settings of a [`TbpBot`].
#[derive(Clone, Debug)]
pub struct TbpConfig {
    /// Kick table, drop mode, hold (TBP's defaults: SRS, soft drop, hold).
    pub rules: Rules,
    /// The PC field graph.
    pub graph: GraphSource,
    /// Previews the player uses (at most [`MAX_PREVIEW`], the solver's limit); `None`: the
    /// length of the first queue the bot is told (a `start`'s, else the queue at the first
    /// `suggest`) minus the current piece. A longer queue is cut; with a shorter one the PC player
    /// leaves the decision to its heuristic.
    pub preview: Option<usize>,
    /// How long a `suggest` waits for the PC player before the heuristic answers; `None`:
    /// as long as it takes.
    pub think_time: Option<Duration>,
    /// Seed of the PC player's sampled continuations ([`PcPlayer::with_seed`]).
    pub seed: u64,
    /// Threads a decision of the PC player may use ([`PcPlayer::with_threads`]; 1 by
    /// default).
    pub threads: usize,
    /// The row of the spawn position's rotation centre (column 4); a piece that does not
    /// fit there spawns one row higher, as in battletris.
    pub spawn_row: i32,
    /// Whether the PC player decides; `false`: the heuristic alone.
    pub perfect_clears: bool,
    /// Whether each game's summary is written in [`Response::notes`] at `stop` and `quit`.
    pub verbose: bool,
}

impl Default for TbpConfig {
    fn default() -> Self {
        TbpConfig {
            rules: Rules::default(),
            graph: GraphSource::default(),
            preview: None,
            think_time: Some(DEFAULT_THINK_TIME),
            seed: 0,
            threads: 1,
            spawn_row: DEFAULT_SPAWN_ROW,
            perfect_clears: true,
            verbose: false,
        }
    }
}

/// What the bot does with one message: lines for the frontend, notes for a person
/// (stderr), and whether to exit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Response {
    /// Messages to send, in order.
    pub messages: Vec<BotMessage>,
    /// What went wrong or was read leniently, and summaries: for stderr, never stdout.
    pub notes: Vec<String>,
    /// Whether the bot should exit (`quit`).
    pub quit: bool,
}

impl Response {
    fn note(note: impl Into<String>) -> Response {
        Response {
            notes: vec![note.into()],
            ..Response::default()
        }
    }
}

/// How a suggestion's first move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuggestionSource {
    /// The PC player, and how it decided (its [`DecisionKind::Fallback`] is the
    /// heuristic it falls back on when no PC is in reach).
    Player(DecisionKind),
    /// The PC player's provisional move ([`PcPlayer::provisional`], sampled), because its
    /// decision was not done within the think time.
    Provisional,
    /// The heuristic, because the PC player did not answer within the think time.
    OutOfTime,
    /// The heuristic, because the PC player is off or could not answer.
    Heuristic,
    /// No move: no position, or no piece can be placed.
    NoMove,
}

/// The totals of one game (from one `stop` to the next).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameStats {
    /// Suggestions sent.
    pub suggestions: u64,
    /// Suggestions whose first move the PC player chose exactly (exact or guided).
    pub exact: u64,
    /// Suggestions whose first move the PC player approximated (clairvoyant, sampled).
    pub approximated: u64,
    /// Of those, the provisional moves: the PC player's decision was not done within the
    /// think time ([`PcPlayer::provisional`]).
    pub provisional: u64,
    /// Suggestions whose first move was the heuristic's, the PC player's fallback included.
    pub heuristic: u64,
    /// Of those, the ones where the PC player was out of time.
    pub out_of_time: u64,
    /// Suggestions without a move.
    pub empty: u64,
    /// Time from a `suggest` to its answer, each.
    pub suggest_times: Vec<Duration>,
    /// Moves played.
    pub pieces: u64,
    /// Perfect clears among them.
    pub perfect_clears: u64,
    /// Messages that could not be read or applied.
    pub errors: u64,
}

impl GameStats {
    /// One line: pieces, PCs, how the suggestions were made and their times.
    pub fn summary(&self) -> String {
        let mut times = self.suggest_times.clone();
        times.sort();
        let ms = |d: Option<&Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1000.0);
        format!(
            "{} pieces, {} PCs; {} suggestions: {} exact, {} approximated ({} provisional), {} heuristic ({} out of time), {} empty; suggest median {:.2} ms, max {:.1} ms; {} errors",
            self.pieces,
            self.perfect_clears,
            self.suggestions,
            self.exact,
            self.approximated,
            self.provisional,
            self.heuristic,
            self.out_of_time,
            self.empty,
            ms(times.get(times.len() / 2)),
            ms(times.last()),
            self.errors,
        )
    }
}

/// A position for the PC player (what its [`GameView`] is made of).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Position {
    board: Board32,
    current: Piece,
    hold: Option<Piece>,
    preview: Vec<Piece>,
    bag: BagState,
    spawn: CentrePos,
}

/// A position sent to the player, numbered.
struct Job {
    id: u64,
    position: Position,
    /// Set when its decision is of no more use: the player's solver then stops soon
    /// ([`PcPlayer::set_stop`]).
    stop: Arc<AtomicBool>,
}

/// The PC player's answer: its move, how it decided, the exact chance.
type Decision = (Option<Move>, Option<DecisionKind>, Option<Ratio>);

/// What the worker sends back: the job's id, whether the decision is provisional (a quick
/// move ahead of the player's own, [`PcPlayer::provisional`]), and the decision or the
/// panic's message.
type Answer = (u64, bool, Result<Decision, String>);

/// The PC player, on a thread of its own: it starts on a position as soon as the
/// position is known (a `start`, the last `new_piece` after a `play`), and a `suggest`
/// stops waiting for it after the think time.
///
/// One job at most is out at a time; its answer is kept until a `suggest` asks for that
/// position. The player decides each position once, so a game through the protocol is
/// decided as the same game in the simulator. Where the player's decision may take longer
/// than a think time (a start of a PC with four previews, by the graph), the worker first
/// sends a provisional move, which a `suggest` takes when the decision is not there in time.
/// A job whose decision is of no more use (its position was played without it) is
/// stopped, so that the player is free for the next position soon.
struct Thinker {
    preview: usize,
    jobs: Sender<Job>,
    answers: Receiver<Answer>,
    /// The job out, its position and its stop flag.
    pending: Option<(u64, Position, Arc<AtomicBool>)>,
    /// The last answer, and its position.
    ready: Option<(Position, Decision)>,
    /// The provisional answer of the job out, and its position.
    provisional: Option<(Position, Decision)>,
    next_id: u64,
}

impl Thinker {
    /// The worker, with `player`; with `provisional`, it sends a provisional move first
    /// where the decision may take long (only of use under a think time).
    fn new(player: PcPlayer, rules: Rules, preview: usize, provisional: bool) -> Thinker {
        let (jobs, job_rx) = channel::<Job>();
        let (answer_tx, answers) = channel::<Answer>();
        std::thread::spawn(move || {
            let mut player = player;
            for Job {
                id,
                position: p,
                stop,
            } in job_rx
            {
                player.set_stop(Some(stop));
                let view = GameView {
                    board: p.board,
                    current: p.current,
                    hold: p.hold,
                    preview: &p.preview,
                    bag: p.bag,
                    rules: &rules,
                    spawn: p.spawn,
                };
                // A quick move first where the decision may take long (a panic there is
                // left for the decision to meet and report).
                let quick = provisional
                    .then(|| catch_unwind(AssertUnwindSafe(|| player.provisional(&view))));
                if let Some(Ok(Some(play))) = quick {
                    let decision = (Some(play.mv), Some(DecisionKind::Sampled), None);
                    if answer_tx.send((id, true, Ok(decision))).is_err() {
                        return;
                    }
                }
                let decided = catch_unwind(AssertUnwindSafe(|| {
                    let play = player.choose(&view);
                    (
                        play.map(|p| p.mv),
                        player.last_decision(),
                        player.last_chance(),
                    )
                }));
                let failed = decided.is_err();
                let answer = decided.map_err(|panic| {
                    panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a panic".into())
                });
                if answer_tx.send((id, false, answer)).is_err() || failed {
                    // The bot is gone, or the player may be broken: stop.
                    return;
                }
            }
        });
        Thinker::over(jobs, answers, preview)
    }

    /// A thinker that sends its jobs on `jobs` and reads their answers from `answers`.
    fn over(jobs: Sender<Job>, answers: Receiver<Answer>, preview: usize) -> Thinker {
        Thinker {
            preview,
            jobs,
            answers,
            pending: None,
            ready: None,
            provisional: None,
            next_id: 0,
        }
    }

    /// Waits until `deadline` for the job out (`Some(now)`: only takes what has come):
    /// whether the player is free. `Err` when the worker is gone or the player panicked.
    fn wait(&mut self, deadline: Option<Instant>) -> Result<bool, String> {
        while let Some((id, _, _)) = &self.pending {
            let id = *id;
            let received = match deadline {
                None => self
                    .answers
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
                Some(deadline) => self
                    .answers
                    .recv_timeout(deadline.saturating_duration_since(Instant::now())),
            };
            let (got, provisional, result) = match received {
                Ok(answer) => answer,
                Err(RecvTimeoutError::Timeout) => return Ok(false),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("the PC player stopped".into());
                }
            };
            if got == id && provisional {
                if let (Some((_, position, _)), Ok(decision)) = (&self.pending, result) {
                    self.provisional = Some((position.clone(), decision));
                }
            } else if got == id {
                let (_, position, _) = self.pending.take().expect("checked above");
                self.provisional = None;
                let decision = result.map_err(|e| format!("the PC player panicked: {e}"))?;
                self.ready = Some((position, decision));
            }
        }
        Ok(true)
    }

    fn submit(&mut self, position: Position) -> Result<(), String> {
        let id = self.next_id;
        self.next_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        self.jobs
            .send(Job {
                id,
                position: position.clone(),
                stop: stop.clone(),
            })
            .map_err(|_| "the PC player stopped".to_string())?;
        self.pending = Some((id, position, stop));
        Ok(())
    }

    /// Stops the job out unless it is for `position` (with `None`, whatever it is for):
    /// its decision is of no more use.
    fn stop_unless(&self, position: Option<&Position>) {
        if let Some((_, pending, stop)) = &self.pending {
            if position != Some(pending) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Starts on `position` ahead of the `suggest`, when the player is free and has not
    /// decided it already; a job out for another position is stopped.
    fn ponder(&mut self, position: Position) -> Result<(), String> {
        self.stop_unless(Some(&position));
        if !self.wait(Some(Instant::now()))? {
            return Ok(());
        }
        if self.ready.as_ref().is_some_and(|(p, _)| *p == position) {
            return Ok(());
        }
        self.submit(position)
    }

    /// The player's decision in `position` (`true`), or when it is not there by
    /// `deadline` its provisional one (`false`) if that came, else `Ok(None)` (also when
    /// the player is still busy with another position). A decision not there in time is
    /// stopped: the move is played without it.
    fn decide(
        &mut self,
        position: Position,
        deadline: Option<Instant>,
    ) -> Result<Option<(Decision, bool)>, String> {
        // The job out may be this position (pondered), or another one, stopped, to wait
        // for.
        self.stop_unless(Some(&position));
        if !self.wait(deadline)? {
            self.stop_unless(None);
            return Ok(self.provisional_of(&position));
        }
        if let Some((p, decision)) = self.ready.take() {
            if p == position {
                return Ok(Some((decision, true)));
            }
        }
        self.submit(position.clone())?;
        if !self.wait(deadline)? {
            self.stop_unless(None);
            return Ok(self.provisional_of(&position));
        }
        Ok(self.ready.take().map(|(_, decision)| (decision, true)))
    }

    /// The provisional decision of the job out, when it is for `position`.
    fn provisional_of(&self, position: &Position) -> Option<(Decision, bool)> {
        let (p, decision) = self.provisional.as_ref()?;
        (p == position).then_some((*decision, false))
    }
}

/// A Tetris Bot Protocol bot: reads the frontend's messages ([`TbpBot::handle_line`] or
/// [`TbpBot::handle`]) and says what to answer ([`Response`]), with no I/O of its own, so
/// it runs in a test as in the `pc-tbp` binary.
///
/// - `rules` loads the PC field graph ([`TbpConfig::graph`]) and answers `ready`.
/// - `start` sets the position (a full reset, also mid-game: battletris sends one after
///   garbage); `play` and `new_piece` advance it ([`TbpState`]). Once every preview the
///   player uses is known, the [`PcPlayer`] starts deciding on a thread of its own (the
///   spec's bot "begins calculating" at `start` and `play`).
/// - `suggest` answers with moves, best first: the [`PcPlayer`]'s move when it is there
///   within [`TbpConfig::think_time`] (exact with the graph in a PC from an empty field;
///   its heuristic fallback when no PC is in reach), else the heuristic's
///   ([`Evaluator`]); then every other legal move in the heuristic's order. Each is
///   reachable from the spawn ([`TbpConfig::spawn_row`]); the spin is the best T-spin a
///   rotation into the placement makes ([`best_tspin`]), and a T move with a spin is
///   followed by the same location with the other spin values, for frontends whose
///   three-corner rule differs (battletris counts every fifth kick as full).
/// - Unknown message types and attributes are ignored. A line that is no message, a
///   `start` whose board is not 10 columns wide, a `play` that cannot be played are
///   refused: reported in [`Response::notes`], counted in [`GameStats::errors`], and
///   the position stays exactly as it was (a refused `start` mid-game keeps the game in
///   progress). A piece the bag cannot deal is played, with a note.
///
/// ```
/// use pc_bot::tbp::{BotMessage, GraphSource, TbpBot, TbpConfig};
///
/// let mut bot = TbpBot::new(TbpConfig { graph: GraphSource::None, ..TbpConfig::default() });
/// assert!(matches!(bot.info(), BotMessage::Info { .. }));
/// let ready = bot.handle_line(r#"{"type":"rules","randomizer":"seven_bag"}"#);
/// assert_eq!(ready.messages, [BotMessage::Ready]);
/// let empty_row = format!("[{}]", ["null"; 10].join(","));
/// let board = format!("[{}]", vec![empty_row; 40].join(","));
/// let start = format!(
///     r#"{{"type":"start","hold":null,"queue":["T","I","O","L","J","S"],"combo":0,
///         "back_to_back":false,"board":{board},"randomizer":{{"type":"seven_bag","bag_state":["Z"]}}}}"#
/// );
/// assert!(bot.handle_line(&start).messages.is_empty());
/// let answer = bot.handle_line(r#"{"type":"suggest"}"#);
/// let BotMessage::Suggestion { moves, .. } = &answer.messages[0] else { panic!() };
/// assert!(!moves.is_empty());
/// ```
pub struct TbpBot {
    config: TbpConfig,
    randomizer: RandomizerRule,
    graph: Option<Arc<PcGraph>>,
    /// Whether the graph source was tried (at the first `rules`).
    graph_tried: bool,
    state: Option<TbpState>,
    thinker: Option<Thinker>,
    evaluator: Evaluator,
    stats: GameStats,
}

impl TbpBot {
    /// A bot with these settings. Nothing heavy happens before `rules`.
    pub fn new(config: TbpConfig) -> TbpBot {
        TbpBot {
            config,
            randomizer: RandomizerRule::Unknown,
            graph: None,
            graph_tried: false,
            state: None,
            thinker: None,
            evaluator: Evaluator::default(),
            stats: GameStats::default(),
        }
    }

    /// The `info` message to send at launch: the crate's name and version, and the
    /// features: `randomizer` (the 7-bag state is used) and `move_info` (the first move's
    /// decision and PC chance in `extra`).
    pub fn info(&self) -> BotMessage {
        BotMessage::Info {
            name: env!("CARGO_PKG_NAME").into(),
            version: env!("CARGO_PKG_VERSION").into(),
            author: env!("CARGO_PKG_AUTHORS").into(),
            features: vec!["randomizer".into(), "move_info".into()],
        }
    }

    /// The position, once a `start` was read.
    pub fn state(&self) -> Option<&TbpState> {
        self.state.as_ref()
    }

    /// The totals of the game so far.
    pub fn stats(&self) -> &GameStats {
        &self.stats
    }

    /// Whether the PC player decides with a graph (known after `rules`).
    pub fn has_graph(&self) -> bool {
        self.graph.is_some()
    }

    /// Reads one line (a JSON message). Blank lines are skipped; a line that is no
    /// message is reported in the notes and ignored (the position stays as it was, a
    /// malformed `start` included), except a malformed `rules`, which is read as rules
    /// with an unknown randomizer (the frontend waits for `ready`).
    pub fn handle_line(&mut self, line: &str) -> Response {
        let line = line.trim();
        if line.is_empty() {
            return Response::default();
        }
        match serde_json::from_str::<FrontendMessage>(line) {
            Ok(message) => self.handle(message),
            Err(e) => {
                self.stats.errors += 1;
                let shown: String = line.chars().take(120).collect();
                let ty = serde_json::from_str::<serde_json::Value>(line)
                    .ok()
                    .and_then(|v| v.get("type")?.as_str().map(str::to_string));
                if ty.as_deref() == Some("rules") {
                    let mut response = self.handle(FrontendMessage::Rules {
                        randomizer: RandomizerRule::Unknown,
                    });
                    response.notes.insert(
                        0,
                        format!("malformed rules ({e}), read with an unknown randomizer: {shown}"),
                    );
                    return response;
                }
                if ty.as_deref() == Some("start") {
                    // Refused like any other message: the position stays (dropping it
                    // would leave every later `suggest` without moves, a forfeit).
                    return Response::note(format!(
                        "start refused, malformed ({e}); {KEPT}: {shown}"
                    ));
                }
                Response::note(format!("malformed message ignored ({e}): {shown}"))
            }
        }
    }

    /// Handles one message.
    pub fn handle(&mut self, message: FrontendMessage) -> Response {
        match message {
            FrontendMessage::Rules { randomizer } => self.rules(randomizer),
            FrontendMessage::Start(start) => match TbpState::from_start(&start, self.randomizer) {
                Ok((state, warnings)) => {
                    self.state = Some(state);
                    let mut response = Response::default();
                    response
                        .notes
                        .extend(warnings.into_iter().map(|w| format!("start: {w}")));
                    if let Err(e) = self.ensure_thinker() {
                        response.notes.push(e);
                    }
                    response.notes.extend(self.ponder());
                    response
                }
                Err(e) => {
                    self.stats.errors += 1;
                    Response::note(format!("start refused: {e}; {KEPT}"))
                }
            },
            FrontendMessage::Suggest => self.suggest(),
            FrontendMessage::Play { mv } => self.play(&mv),
            FrontendMessage::NewPiece { piece } => self.new_piece(piece),
            FrontendMessage::Stop => {
                let mut response = Response::default();
                if self.config.verbose {
                    response
                        .notes
                        .push(format!("game over: {}", self.stats.summary()));
                }
                self.stats = GameStats::default();
                response
            }
            FrontendMessage::Quit => {
                let mut response = Response {
                    quit: true,
                    ..Response::default()
                };
                if self.config.verbose && self.stats != GameStats::default() {
                    response
                        .notes
                        .push(format!("quit: {}", self.stats.summary()));
                }
                response
            }
            FrontendMessage::Unknown => Response::default(),
        }
    }

    fn rules(&mut self, randomizer: RandomizerRule) -> Response {
        self.randomizer = randomizer;
        let mut response = Response::default();
        if !self.graph_tried && self.config.perfect_clears {
            self.graph_tried = true;
            let (graph, note) = load_graph(&self.config.graph, &self.config.rules);
            self.graph = graph;
            response.notes.extend(note);
            // A player made before the graph was there is made again with it.
            self.thinker = None;
        }
        response.messages.push(BotMessage::Ready);
        response
    }

    /// Makes the PC player when it is on, not made yet and the preview is known.
    fn ensure_thinker(&mut self) -> Result<(), String> {
        if !self.config.perfect_clears || self.thinker.is_some() {
            return Ok(());
        }
        let preview = match (self.config.preview, &self.state) {
            (Some(p), _) => p,
            (None, Some(state)) if !state.queue.is_empty() => state.queue.len() - 1,
            _ => return Ok(()),
        }
        .min(MAX_PREVIEW);
        let mut player = PcPlayer::new(self.config.rules.clone(), preview)
            .map_err(|e| format!("no PC player ({e}): the heuristic plays"))?
            .with_seed(self.config.seed)
            .with_threads(self.config.threads)
            .map_err(|e| format!("no PC player ({e}): the heuristic plays"))?;
        if self.config.think_time.is_some() {
            // Within a think time, the first decision of a game with four previews (six
            // unknown, seconds for the graph) is sampled.
            player = player.with_graph_unknown(5);
        }
        if let Some(graph) = &self.graph {
            player = player
                .with_graph(graph.clone())
                .map_err(|e| format!("no PC player with the graph ({e}): the heuristic plays"))?;
            if preview == FIVE_UNKNOWN_PREVIEW {
                // The starts of a PC leave five pieces unknown: what their walk reads comes
                // now on a spare thread, not in the think time of the first. From the file
                // kept beside the cached graph when it holds a good copy; else made, then
                // kept there for the next bot (not kept: made again then, nothing worse).
                let kept = match self.config.graph {
                    GraphSource::Cached => PcGraph::prepared_cache_path(&self.config.rules),
                    _ => None,
                };
                let spare = graph.clone();
                std::thread::spawn(move || match kept {
                    Some(path) => drop(spare.prepare_five_unknown_kept_at(&path)),
                    None => spare.prepare_five_unknown(),
                });
            }
        }
        let provisional = self.config.think_time.is_some();
        self.thinker = Some(Thinker::new(
            player,
            self.config.rules.clone(),
            preview,
            provisional,
        ));
        Ok(())
    }

    fn play(&mut self, mv: &TbpMove) -> Response {
        let Some(state) = &mut self.state else {
            self.stats.errors += 1;
            return Response::note("play before any start: ignored");
        };
        match state.play(mv) {
            Ok(played) => {
                self.stats.pieces += 1;
                self.stats.perfect_clears += u64::from(played.perfect_clear);
                let mut response = Response::default();
                if played.floating {
                    response.notes.push(format!(
                        "play: {mv:?} does not rest on the stack; played as told"
                    ));
                }
                response.notes.extend(self.ponder());
                response
            }
            Err(e) => {
                self.stats.errors += 1;
                Response::note(format!("impossible play ignored: {e}; {KEPT}"))
            }
        }
    }

    fn new_piece(&mut self, piece: TbpPiece) -> Response {
        let Some(state) = &mut self.state else {
            self.stats.errors += 1;
            return Response::note("new_piece before any start: ignored");
        };
        let Some(piece) = piece.piece() else {
            self.stats.errors += 1;
            return Response::note("new_piece with an unknown piece: ignored");
        };
        let mut response = Response::default();
        response.notes.extend(state.new_piece(piece));
        response.notes.extend(self.ponder());
        response
    }

    /// The position the PC player decides: the current piece, the previews it uses (the
    /// queue cut to its preview), the bag after them, the spawn.
    fn position(&self) -> Option<Position> {
        let state = self.state.as_ref()?;
        let current = state.current()?;
        let shown = self
            .thinker
            .as_ref()
            .map_or(MAX_PREVIEW, |t| t.preview)
            .min(state.queue.len() - 1);
        Some(Position {
            board: state.board,
            current,
            hold: state.hold,
            preview: state.queue.iter().skip(1).take(shown).copied().collect(),
            bag: state.bag_after(1 + shown).unwrap_or(BagState::FRESH),
            spawn: self.spawn(&state.board, current),
        })
    }

    /// Lets the PC player start on the position once every preview it uses is known
    /// (TBP bots compute between `suggest`s: the spec's `start` and `play` say "begin
    /// calculating"); a note when the player had to go.
    fn ponder(&mut self) -> Option<String> {
        let preview = self.thinker.as_ref()?.preview;
        let position = self.position().filter(|p| p.preview.len() >= preview)?;
        let error = self.thinker.as_mut()?.ponder(position).err()?;
        self.thinker = None;
        Some(format!("{error}: a new PC player is made"))
    }

    /// Where pieces spawn on this board: the spawn row, or the next one when `piece`
    /// does not fit there.
    fn spawn(&self, board: &Board32, piece: Piece) -> CentrePos {
        let row = self.config.spawn_row;
        let fits = |y| {
            piece
                .with(Orientation::Spawn)
                .at(4, y)
                .is_ok_and(|p| p.fits(board))
        };
        CentrePos {
            x: 4,
            y: if fits(row) || !fits(row + 1) {
                row
            } else {
                row + 1
            },
        }
    }

    fn suggest(&mut self) -> Response {
        let started = Instant::now();
        let (moves, source, info, notes) = self.suggestion(started);
        let elapsed = started.elapsed();
        let stats = &mut self.stats;
        stats.suggestions += 1;
        stats.suggest_times.push(elapsed);
        match source {
            SuggestionSource::Player(DecisionKind::Exact | DecisionKind::Guided) => {
                stats.exact += 1
            }
            SuggestionSource::Player(DecisionKind::Clairvoyant | DecisionKind::Sampled) => {
                stats.approximated += 1
            }
            SuggestionSource::Player(DecisionKind::Fallback) | SuggestionSource::Heuristic => {
                stats.heuristic += 1
            }
            SuggestionSource::Provisional => {
                stats.approximated += 1;
                stats.provisional += 1;
            }
            SuggestionSource::OutOfTime => {
                stats.heuristic += 1;
                stats.out_of_time += 1;
            }
            SuggestionSource::NoMove => stats.empty += 1,
        }
        let extra = format!("{info}; {:.1} ms", elapsed.as_secs_f64() * 1000.0);
        Response {
            messages: vec![BotMessage::Suggestion {
                moves,
                move_info: Some(MoveInfo {
                    extra: Some(extra),
                    ..MoveInfo::default()
                }),
            }],
            notes,
            quit: false,
        }
    }

    /// The moves, how the first was chosen, a note for `move_info`, and notes.
    fn suggestion(
        &mut self,
        started: Instant,
    ) -> (Vec<TbpMove>, SuggestionSource, String, Vec<String>) {
        let mut notes = Vec::new();
        let Some(state) = &self.state else {
            notes.push("suggest without a position (no valid start): no moves".into());
            return (
                Vec::new(),
                SuggestionSource::NoMove,
                "no position".into(),
                notes,
            );
        };
        if state.current().is_none() {
            notes.push("suggest with an empty queue: no moves".into());
            return (
                Vec::new(),
                SuggestionSource::NoMove,
                "no piece".into(),
                notes,
            );
        };
        if let Err(e) = self.ensure_thinker() {
            notes.push(e);
        }
        let position = self.position().expect("a current piece");

        // The PC player's move, within the think time.
        let mut source = SuggestionSource::Heuristic;
        let mut info = String::from("heuristic");
        let mut primary = None;
        if let Some(thinker) = &mut self.thinker {
            let deadline = self.config.think_time.map(|t| started + t);
            match thinker.decide(position.clone(), deadline) {
                Ok(Some(((mv, kind, chance), decided))) => {
                    primary = mv;
                    if let Some(kind) = kind.filter(|_| mv.is_some()) {
                        source = SuggestionSource::Player(kind);
                        info = describe(kind, chance, self.graph.is_some());
                        if !decided {
                            source = SuggestionSource::Provisional;
                            info.push_str(", provisional: the decision was not done in time");
                        }
                    }
                }
                Ok(None) => {
                    source = SuggestionSource::OutOfTime;
                    info = "heuristic (the PC player is out of time)".into();
                }
                Err(e) => {
                    notes.push(format!("{e}: a new PC player is made"));
                    self.thinker = None;
                }
            }
        }

        let Position {
            board,
            current,
            hold,
            preview,
            bag,
            spawn,
        } = position;
        let view = GameView {
            board,
            current,
            hold,
            preview: &preview,
            bag,
            rules: &self.config.rules,
            spawn,
        };
        if primary.is_none() {
            primary = self.evaluator.decide(&view).map(|d| d.mv);
        }
        let moves = ranked_moves(&view, &self.evaluator, primary, |piece| {
            self.spawn(&board, piece)
        });
        if moves.is_empty() {
            return (
                moves,
                SuggestionSource::NoMove,
                "no legal move".into(),
                notes,
            );
        }
        (moves, source, info, notes)
    }
}

/// What `move_info.extra` says of a PC player's decision.
fn describe(kind: DecisionKind, chance: Option<Ratio>, graph: bool) -> String {
    let engine = if graph { "with the graph" } else { "no graph" };
    match (kind, chance) {
        (DecisionKind::Fallback, _) => "heuristic (no PC in reach)".into(),
        (kind, Some(chance)) => format!(
            "{} ({engine}): PC chance {chance} = {:.2}%",
            name(kind),
            chance.to_f64() * 100.0
        ),
        (kind, None) => format!("{} ({engine})", name(kind)),
    }
}

fn name(kind: DecisionKind) -> &'static str {
    match kind {
        DecisionKind::Exact => "exact",
        DecisionKind::Guided => "guided",
        DecisionKind::Clairvoyant => "clairvoyant",
        DecisionKind::Sampled => "sampled",
        DecisionKind::Fallback => "fallback",
    }
}

/// Loads the graph of a source; the note says what happened when it is worth saying.
fn load_graph(source: &GraphSource, rules: &Rules) -> (Option<Arc<PcGraph>>, Option<String>) {
    let path = match source {
        GraphSource::None => return (None, None),
        GraphSource::Loaded(graph) => return (Some(graph.clone()), None),
        GraphSource::File(path) => path.clone(),
        GraphSource::Cached => match PcGraph::cache_path(rules) {
            Some(path) if path.exists() => path,
            Some(path) => {
                return (
                    None,
                    Some(format!(
                        "no graph at {}: the first decisions of a PC are approximated \
                         (`cargo run --release --example graph -- build` makes it)",
                        path.display()
                    )),
                );
            }
            None => return (None, Some("no cache folder for the graph".into())),
        },
    };
    let started = Instant::now();
    match PcGraph::load(&path, rules) {
        Ok(graph) => (
            Some(Arc::new(graph)),
            Some(format!(
                "graph {} loaded in {:.2} s",
                path.display(),
                started.elapsed().as_secs_f64()
            )),
        ),
        Err(e) => (
            None,
            Some(format!(
                // The error names the file.
                "graph not used ({e}): the first decisions of a PC are approximated"
            )),
        ),
    }
}

/// The TBP moves of a position: `first` (when legal), then every other legal placement
/// of the current piece and of the piece hold brings out, in the heuristic's order, each
/// location once. Each piece comes from its own spawn (`spawn_of`: battletris raises the
/// spawn of a piece that does not fit). T moves carry the best T-spin a rotation into
/// them makes, then the same location with the other spin values.
fn ranked_moves(
    view: &GameView<'_>,
    evaluator: &Evaluator,
    first: Option<Move>,
    spawn_of: impl Fn(Piece) -> CentrePos,
) -> Vec<TbpMove> {
    let generator = view.rules.generator();
    let mut scored: Vec<(f64, Placement, TSpin)> = Vec::new();
    // Every legal placement (canonical) and its T-spin.
    let mut legal: HashMap<Placement, TSpin> = HashMap::new();
    for turn in view.turns() {
        let spawn = spawn_of(turn.piece);
        let Ok(set) = generator.placements_from_spawn(&view.board, turn.piece, spawn) else {
            continue;
        };
        for placement in set.iter() {
            let canonical = placement.canonical();
            if legal.contains_key(&canonical) {
                continue;
            }
            let tspin = if placement.piece() == Piece::T {
                best_tspin(&view.board, &placement, &generator, spawn)
            } else {
                TSpin::None
            };
            legal.insert(canonical, tspin);
            let score = evaluator
                .evaluate(&view.board, &placement, tspin)
                .map_or(f64::NEG_INFINITY, |e| e.score);
            scored.push((score, placement, tspin));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut order: Vec<(Placement, TSpin)> = Vec::with_capacity(scored.len());
    if let Some(first) = first.map(|m| m.placement) {
        if let Some(&tspin) = legal.get(&first.canonical()) {
            order.push((first, tspin));
        }
    }
    for &(_, placement, tspin) in &scored {
        if order
            .first()
            .is_none_or(|(f, _)| f.canonical() != placement.canonical())
        {
            order.push((placement, tspin));
        }
    }
    let mut moves = Vec::with_capacity(order.len() + 8);
    for (placement, tspin) in order {
        let location = location_of(&placement);
        let spin = spin_of(tspin);
        moves.push(TbpMove { location, spin });
        if spin != Spin::None {
            for other in [Spin::Full, Spin::Mini, Spin::None] {
                if other != spin {
                    moves.push(TbpMove {
                        location,
                        spin: other,
                    });
                }
            }
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tbp::location::placement_of;
    use crate::tbp::message::{RandomizerState, Start, TbpOrientation};

    fn pieces(text: &str) -> Vec<TbpPiece> {
        text.chars()
            .map(|c| TbpPiece::from(Piece::from_char(c).unwrap()))
            .collect()
    }

    /// A `start` on `field` (rows top first, as `Board32` parses them).
    fn start(field: &str, hold: Option<char>, queue: &str, bag: &str) -> FrontendMessage {
        let board: Board32 = field.parse().unwrap();
        let rows = (0..40)
            .map(|y| {
                (0..10)
                    .map(|x| board.cell(x, y).then(|| "G".to_string()))
                    .collect()
            })
            .collect();
        FrontendMessage::Start(Start {
            hold: hold.map(|c| TbpPiece::from(Piece::from_char(c).unwrap())),
            queue: pieces(queue),
            board: rows,
            randomizer: RandomizerState::SevenBag {
                bag_state: pieces(bag),
            },
            ..Start::default()
        })
    }

    fn bot(perfect_clears: bool, think_time: Option<Duration>) -> TbpBot {
        let mut bot = TbpBot::new(TbpConfig {
            graph: GraphSource::None,
            think_time,
            perfect_clears,
            ..TbpConfig::default()
        });
        let ready = bot.handle(FrontendMessage::Rules {
            randomizer: RandomizerRule::SevenBag,
        });
        assert_eq!(ready.messages, [BotMessage::Ready]);
        bot
    }

    /// The suggestion's moves, each checked: the current piece or the one hold brings
    /// out, reachable from the spawn, spin `none` for other pieces than T.
    fn suggest(bot: &mut TbpBot) -> Vec<TbpMove> {
        let response = bot.handle(FrontendMessage::Suggest);
        let [BotMessage::Suggestion { moves, .. }] = &response.messages[..] else {
            panic!("one suggestion: {response:?}");
        };
        let state = bot.state().expect("a position");
        let rules = Rules::default();
        let generator = rules.generator();
        for mv in moves {
            let placement = placement_of(&mv.location).unwrap();
            let piece = placement.piece();
            assert!(
                Some(piece) == state.current() || Some(piece) == state.hold_piece(),
                "{mv:?}"
            );
            let spawn = bot.spawn(&state.board, piece);
            let set = generator
                .placements_from_spawn(&state.board, piece, spawn)
                .unwrap();
            assert!(set.contains(&placement), "{mv:?} is not reachable");
            if piece != Piece::T {
                assert_eq!(mv.spin, Spin::None);
            }
        }
        moves.clone()
    }

    fn location(mv: &TbpMove) -> (TbpPiece, TbpOrientation, i32, i32) {
        let l = mv.location;
        (l.piece, l.orientation, l.x, l.y)
    }

    #[test]
    fn a_session_answers_every_suggest_with_legal_moves() {
        let mut bot = bot(false, None);
        assert!(bot.handle(start("", None, "TIOLJS", "Z")).notes.is_empty());
        let mut dealt = "ZTIOLJSZ".chars();
        for _ in 0..30 {
            let moves = suggest(&mut bot);
            assert!(!moves.is_empty());
            let held_before = bot.state().unwrap().hold.is_none();
            let response = bot.handle(FrontendMessage::Play { mv: moves[0] });
            assert!(response.notes.is_empty(), "{:?}", response.notes);
            let state = bot.state().unwrap();
            let refill = 6 - state.queue.len();
            assert!(refill == 1 || (refill == 2 && held_before && state.hold.is_some()));
            for _ in 0..refill {
                let piece = dealt.next().unwrap_or_else(|| {
                    dealt = "IOTLJSZ".chars();
                    dealt.next().unwrap()
                });
                let r = bot.handle(FrontendMessage::NewPiece {
                    piece: TbpPiece::from(Piece::from_char(piece).unwrap()),
                });
                assert!(r.notes.is_empty(), "{:?}", r.notes);
            }
        }
        assert_eq!(bot.stats().pieces, 30);
        assert_eq!(bot.stats().suggestions, 30);
        // Unknown messages change nothing; stop ends the game's totals.
        let before = bot.state().cloned();
        assert_eq!(
            bot.handle_line(r#"{"type":"garbage","lines":4}"#),
            Response::default()
        );
        assert_eq!(bot.state().cloned(), before);
        bot.handle(FrontendMessage::Stop);
        assert_eq!(bot.stats(), &GameStats::default());
        assert!(bot.handle(FrontendMessage::Quit).quit);
    }

    #[test]
    fn the_pc_player_makes_the_pc_it_sees() {
        // Four rows with column 9 open: the I makes a PC; T is current, I comes from
        // hold.
        let field = "#########./#########./#########./#########.";
        for (hold, queue) in [(None, "TIOLJS"), (Some('I'), "TOLJSZ")] {
            let mut bot = bot(true, None);
            bot.handle(start(field, hold, queue, "Z"));
            let moves = suggest(&mut bot);
            let first = placement_of(&moves[0].location).unwrap();
            assert_eq!(first.cells(), [(9, 0), (9, 1), (9, 2), (9, 3)]);
            let response = bot.handle(FrontendMessage::Play { mv: moves[0] });
            assert!(response.notes.is_empty(), "{:?}", response.notes);
            let state = bot.state().unwrap();
            assert!(state.board.is_empty());
            assert_eq!(state.hold, Some(Piece::T));
            assert_eq!((bot.stats().perfect_clears, bot.stats().exact), (1, 1));
        }
    }

    #[test]
    fn a_tspin_slot_is_reported_full_then_with_the_other_spins() {
        let mut bot = bot(false, None);
        bot.handle(start(
            "..#......./##...#####/###.######",
            None,
            "TIOLJS",
            "Z",
        ));
        let moves = suggest(&mut bot);
        let tsd = (TbpPiece::T, TbpOrientation::South, 3, 1);
        let at = moves.iter().position(|m| location(m) == tsd).unwrap();
        let spins: Vec<Spin> = moves[at..at + 3].iter().map(|m| m.spin).collect();
        assert_eq!(spins, [Spin::Full, Spin::Mini, Spin::None]);
        assert!(moves[at + 3..].iter().all(|m| location(m) != tsd));
        // The heuristic takes the T-spin double.
        assert_eq!(at, 0);
        // A T on the flat: no spin, once.
        let flat = (TbpPiece::T, TbpOrientation::North, 7, 2);
        let flats: Vec<Spin> = moves
            .iter()
            .filter(|m| location(m) == flat)
            .map(|m| m.spin)
            .collect();
        assert_eq!(flats, [Spin::None]);
    }

    /// A thinker whose answers the test sends: its job channel's far end and the sender
    /// of its answers.
    fn thinker_by_hand() -> (Thinker, Receiver<Job>, Sender<Answer>) {
        let (jobs, job_rx) = channel::<Job>();
        let (answer_tx, answers) = channel::<Answer>();
        (Thinker::over(jobs, answers, 4), job_rx, answer_tx)
    }

    /// A start of a PC with `current` to place, I held and four previews.
    fn position(current: Piece) -> Position {
        Position {
            board: Board32::default(),
            current,
            hold: Some(Piece::I),
            preview: vec![Piece::J, Piece::L, Piece::O, Piece::S],
            bag: BagState::FRESH,
            spawn: CentrePos { x: 4, y: 19 },
        }
    }

    #[test]
    fn a_provisional_answer_is_taken_when_the_decision_is_late() {
        let (mut thinker, jobs, answers) = thinker_by_hand();
        let decision = |kind| (None, Some(kind), None);
        let soon = || Some(Instant::now() + Duration::from_millis(20));
        let stopped = |job: &Job| job.stop.load(Ordering::Relaxed);
        thinker.ponder(position(Piece::T)).unwrap();
        let first = jobs.recv().unwrap();
        assert!(!stopped(&first));
        // The provisional answer: taken for its position only, marked as not decided;
        // the decision, late, is stopped.
        answers
            .send((first.id, true, Ok(decision(DecisionKind::Sampled))))
            .unwrap();
        assert_eq!(
            thinker.decide(position(Piece::T), soon()),
            Ok(Some((decision(DecisionKind::Sampled), false)))
        );
        assert_eq!(thinker.provisional_of(&position(Piece::Z)), None);
        assert!(stopped(&first));
        // The next position: the stopped job's answer is waited for (and not taken),
        // then the new one, late too and without a provisional answer: none, stopped.
        answers
            .send((first.id, false, Ok(decision(DecisionKind::Fallback))))
            .unwrap();
        assert_eq!(thinker.decide(position(Piece::Z), soon()), Ok(None));
        let second = jobs.recv().unwrap();
        assert_eq!(second.position, position(Piece::Z));
        assert!(stopped(&second));
        // Pondering another position stops nothing more; its decision in time replaces
        // any provisional one.
        answers
            .send((second.id, false, Ok(decision(DecisionKind::Fallback))))
            .unwrap();
        answers
            .send((second.id + 1, true, Ok(decision(DecisionKind::Sampled))))
            .unwrap();
        answers
            .send((second.id + 1, false, Ok(decision(DecisionKind::Exact))))
            .unwrap();
        assert_eq!(
            thinker.decide(position(Piece::L), soon()),
            Ok(Some((decision(DecisionKind::Exact), true)))
        );
        let third = jobs.recv().unwrap();
        assert!(!stopped(&third));
        assert!(thinker.provisional.is_none());
    }

    /// A job out for a position the bot has left is stopped when the next is pondered.
    #[test]
    fn pondering_a_new_position_stops_the_job_of_the_last() {
        let (mut thinker, jobs, _answers) = thinker_by_hand();
        thinker.ponder(position(Piece::T)).unwrap();
        thinker.ponder(position(Piece::T)).unwrap();
        let job = jobs.recv().unwrap();
        assert!(
            !job.stop.load(Ordering::Relaxed),
            "the same position goes on"
        );
        thinker.ponder(position(Piece::O)).unwrap();
        assert!(job.stop.load(Ordering::Relaxed));
    }

    #[test]
    fn a_slow_pc_player_leaves_the_answer_to_the_heuristic() {
        // Nothing held, four previews: a sampled decision (hundreds of ms), 1 ms given.
        let mut bot = bot(true, Some(Duration::from_millis(1)));
        bot.handle(start("", None, "TIOSZ", "LJ"));
        let started = Instant::now();
        let moves = suggest(&mut bot);
        assert!(!moves.is_empty());
        bot.handle(FrontendMessage::Play { mv: moves[0] });
        for _ in 0..bot.state().unwrap().queue.len().abs_diff(5) {
            bot.handle(FrontendMessage::NewPiece { piece: TbpPiece::L });
        }
        // The player is still busy with the first position: the heuristic again.
        assert!(!suggest(&mut bot).is_empty());
        assert!(started.elapsed() < Duration::from_millis(150));
        assert_eq!(bot.stats().out_of_time, 2);
    }

    #[test]
    fn bad_input_is_reported_and_the_bot_goes_on() {
        let mut bot = bot(false, None);
        // No position yet: an empty suggestion, and a note.
        let r = bot.handle(FrontendMessage::Suggest);
        assert!(
            matches!(&r.messages[..], [BotMessage::Suggestion { moves, .. }] if moves.is_empty())
        );
        assert_eq!(r.notes.len(), 1);
        for line in [
            "not json",
            "{}",
            r#"{"type":"play"}"#,
            r#"{"type":"start","board":[[null]]}"#,
            r#"{"type":"new_piece","piece":"T"}"#,
        ] {
            let r = bot.handle_line(line);
            assert!(r.messages.is_empty(), "{line}");
            assert_eq!(r.notes.len(), 1, "{line}: {:?}", r.notes);
        }
        // A malformed rules is still answered.
        let r = bot.handle_line(r#"{"type":"rules","randomizer":5}"#);
        assert_eq!(r.messages, [BotMessage::Ready]);
        assert_eq!(r.notes.len(), 1);
        // A start whose queue contradicts the bag: played, with a note.
        let r = bot.handle(start("", None, "TIOLJS", "T"));
        assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
        let moves = suggest(&mut bot);
        // A move of a piece that is not in play, one that overlaps: refused.
        let mut wrong = moves[0];
        wrong.location.piece = TbpPiece::Z;
        let r = bot.handle(FrontendMessage::Play { mv: wrong });
        assert!(r.notes[0].contains("impossible play"), "{:?}", r.notes);
        bot.handle(FrontendMessage::Play { mv: moves[0] });
        let r = bot.handle(FrontendMessage::Play { mv: moves[0] });
        assert!(r.notes[0].contains("impossible play"), "{:?}", r.notes);
        assert_eq!(bot.stats().pieces, 1);
        // Starts that are refused (malformed, 9 columns, 41 rows, an unknown piece): the
        // game in progress goes on, the same suggestion as before.
        let before = (bot.state().cloned(), suggest(&mut bot));
        assert!(before.0.is_some());
        let row = |cells: usize| format!("[{}]", vec!["null"; cells].join(","));
        let board = |rows: usize, cells: usize| format!("[{}]", vec![row(cells); rows].join(","));
        let start_line = |board: String, queue: &str| {
            format!(r#"{{"type":"start","hold":null,"queue":{queue},"board":{board}}}"#)
        };
        for (line, why) in [
            (
                r#"{"type":"start","hold":5,"queue":["T"]}"#.to_string(),
                "malformed",
            ),
            (start_line(board(40, 9), r#"["T"]"#), "has 9 cells"),
            (start_line(board(41, 10), r#"["T"]"#), "41 rows"),
            (start_line(board(40, 10), r#"["X"]"#), "unknown piece"),
        ] {
            let errors = bot.stats().errors;
            let r = bot.handle_line(&line);
            assert!(r.notes[0].contains("start refused"), "{:?}", r.notes);
            assert!(r.notes[0].contains(why), "{:?}", r.notes);
            assert_eq!(bot.stats().errors, errors + 1);
            assert_eq!((bot.state().cloned(), suggest(&mut bot)), before, "{line}");
        }
        assert!(bot.stats().errors >= 12);
    }
}
