//! The JSON requests the page sends and the answers it reads: [`handle`] is the whole
//! interface, the same natively (tests) and in the browser (`pc_call` in [`crate::ffi`]).
//!
//! Every answer is an object with `"ok"`: `true` with the op's fields, or `false` with
//! `"error"` (the message to show) and `"input"` (the input it is about: `field`,
//! `clear_line`, `hold`, `queue`, `bag`, `kicks`, `drop`, `link`, `graph`, `play`,
//! `pattern`, `position` or `request`).

use crate::form::{Form, FormError, Setup, field_from_fumen};
use crate::play::{FumenPiece, Game, Settings};
use pc_bag::Ratio;
use pc_fumen::Fumen;
use pc_solver::{PcGraph, Position, RankedMove, Recommendation, Rules, Solver, SolverOptions};
use pc_srs::Placement;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::sync::Arc;

/// The solver's table budget, as the `recommend` example's default.
const MEMORY_LIMIT: usize = 512 << 20;

/// The table budget beside a loaded graph, so that the worker stays within 1 GiB.
const MEMORY_LIMIT_WITH_GRAPH: usize = 256 << 20;

/// Where the share link of a line points: a fumen viewer.
pub(crate) const FUMEN_VIEWER: &str = "https://harddrop.com/fumen/?";

/// A request: `{"op": "query" | "fumen" | "check" | "solve" | ..., ...}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// `{"op":"query","query":"field=…&hold=O"}`: reads a link's query (everything after
    /// the `?`, fragment included). Answer: `{"ok":true,"form":Form,"solve":bool,
    /// "play":{"play","seed","preview"},"pattern","errors":[{"key","input","error"}]}`, `solve`
    /// when the link gives a queue, `errors` the parameters that could not be used (see
    /// [`Form::from_query`]).
    Query {
        /// The query text.
        query: String,
    },
    /// `{"op":"fumen","fumen":"v115@…"}`: the first page's field. Answer:
    /// `{"ok":true,"field":"rows","height":n}`.
    Fumen {
        /// The fumen (alone or inside a URL).
        fumen: String,
    },
    /// `{"op":"check","form":Form}`: checks a position without solving it. Answer:
    /// `{"ok":true,"form":Form,"query":"…","fumen":"v115@…"}` (the form as read back, the
    /// query of its share link, the field as a fumen).
    Check {
        /// The position.
        form: Form,
    },
    /// `{"op":"solve","form":Form}`: ranks every move, as `Solver::recommend`. Answer: the
    /// fields of `check` and [`Solved`]'s.
    Solve {
        /// The position.
        form: Form,
    },
    /// `{"op":"play_solve","form":Form}`: as `solve`, for Play mode. With the graph of the
    /// rules loaded and an exact answer that takes hours (`Solver::slow_to_answer`: one to
    /// three previews at the start of a PC), an estimate ([`EstimateAnswer`],
    /// `Solver::estimate`). Else `solve`'s answer whenever the
    /// solver answers the position quickly: the loaded graph's walk answers
    /// it (with the hold slot empty too: the first decision of a game, five previews), or
    /// the hold slot is filled or used, or at most two pieces a PC can use are unknown.
    /// Otherwise (the hold slot empty and not used yet for this piece, three or more
    /// pieces unknown, and no graph that answers it) the exact ranking of the placements
    /// takes minutes (the depth-first search), so only the chance of pressing hold first
    /// is computed, exactly, from the positions after it (each a decision of the graph's
    /// walk, or of the layered search without a graph). Answer: `solve`'s, the estimate's
    /// `{"ok":true,"estimate":{"revealed","samples"},"chance":Estimated,
    /// "hold_first":Estimated|null,"moves":[…],"line":null,"engine"}` (`Estimated`:
    /// `{"percent","std_error"}`), or
    /// `{"ok":true,"partial":true,"chance":null,"hold_first":Chance,
    /// "reveals":[{"piece","chance"}],"moves":[],"line":null,"engine"}`.
    PlaySolve {
        /// The position.
        form: Form,
    },
    /// `{"op":"path","form":Form,"pattern":"I,*p4"}`: the perfect clears of the form's
    /// field (its clear line, kicks and drop mode, with hold; the pieces of the form are
    /// not used) that the queues of the pattern build, as sfinder's `path`. Answer:
    /// [`Solutions`](crate::solutions::Solutions): `{"ok":true,"queues","covered",
    /// "unique","minimal":[{"queues","percent","rows","fumen","url","pages",…}],
    /// "solutions":[…],"complete"…}`, `solutions` the first `list` unique solutions (none by
    /// default), `complete` false when it stopped after `fills` fills of the field.
    Path {
        /// The field and the rules.
        form: Form,
        /// The pattern, in sfinder's language.
        pattern: String,
        /// How many of the unique solutions to list besides the minimal set.
        #[serde(default)]
        list: usize,
        /// The most fills of the field to walk (all by default): past them the answer has
        /// the solutions found so far and `complete` false.
        #[serde(default)]
        fills: Option<u64>,
    },
    /// `{"op":"graph_begin","kicks":"srs","drop":"softdrop","bytes":n,"coding":"zstd"}`:
    /// lets the loaded graph go and starts reading a graph file of `bytes` bytes
    /// (decompressed) built for those rules, whose chunks the page then hands over
    /// (`pc_graph_chunk`, `pc_graph_push` in [`crate::ffi`]). Answer: `{"ok":true}`, or an
    /// error of the rules.
    GraphBegin {
        /// The kick table.
        kicks: String,
        /// The drop mode.
        drop: String,
        /// The file's length, decompressed.
        bytes: u64,
        /// `zstd` (as the site serves it) or `none` (as the browser's cache keeps it).
        coding: crate::graph::Coding,
    },
    /// `{"op":"graph"}`: ends the load `graph_begin` started and keeps the graph for the
    /// solves of its rules. Answer: `{"ok":true,"fields":n,"layers":[…],"start":"rows",…}`,
    /// or the first error met (the graph's own checks, a download that does not
    /// decompress; `input` `graph`) and no graph.
    Graph {},
    /// `{"op":"graph_prepare"}`: makes what the first decision with five unknown pieces
    /// (a start of a PC with four previews) would make before walking the loaded graph
    /// ([`pc_solver::PcGraph::prepare_five_unknown`]), for the page to ask while the
    /// player has no decision waiting. Answer: `{"ok":true,"prepared":bool}`, false when
    /// no graph is loaded.
    GraphPrepare {},
    /// `{"op":"graph_prepared_load"}`: takes what `graph_prepare` makes from the bytes the
    /// page wrote in the buffer of `pc_graph_prepared_buffer` (a file it kept from
    /// `pc_graph_prepared_save` after an earlier load of the same graph, or the site's
    /// copy: `"coding":"zstd","bytes":n`, the bytes it decompresses to), and lets the
    /// buffer go. Answer: `{"ok":true}`, or why they were not taken (`input` `graph`):
    /// cut short, damaged, not decompressing to `bytes`, of another graph, or no graph
    /// loaded.
    GraphPreparedLoad {
        /// `none` (the default: a file the page kept) or `zstd` (the site's copy).
        #[serde(default)]
        coding: crate::graph::Coding,
        /// The bytes decompressed, for `zstd`.
        #[serde(default)]
        bytes: Option<u64>,
    },
    /// `{"op":"tables","kicks":"srs"}`: the cells, kicks and spawn the page moves the
    /// falling piece with ([`crate::play::Tables`]).
    Tables {
        /// The kick table.
        kicks: String,
    },
    /// `{"op":"play_new","settings":Settings,"form":Form?}`: a new game, from the empty
    /// field or from the form's position (Play from here). Answer: `{"ok":true,"game":Game}`.
    PlayNew {
        /// Seed, preview, kicks, drop mode, 2-line PCs, clear line.
        settings: Settings,
        /// The start position, if any.
        #[serde(default)]
        form: Option<Form>,
    },
    /// `{"op":"play_move","game":Game,"hold":bool,"orientation":"right","x":4,"y":1}`:
    /// the game after a placement of the piece (the held one with `hold`) whose rotation
    /// centre locked at `x, y`. Answer: `{"ok":true,"game":Game}`.
    PlayMove {
        /// The game before the move.
        game: Game,
        /// Whether hold was pressed for it.
        hold: bool,
        /// The orientation it locked in.
        orientation: String,
        /// The rotation centre's column.
        x: i32,
        /// The rotation centre's row.
        y: i32,
    },
    /// `{"op":"play_hold","game":Game}`: the game after hold into the empty slot (a piece
    /// is revealed). Answer: `{"ok":true,"game":Game}`.
    PlayHold {
        /// The game before.
        game: Game,
    },
    /// `{"op":"game_fumen","field":"rows","placements":[…],"comments":[…]}`: a game as a
    /// fumen, one page per placement with its comment. Answer:
    /// `{"ok":true,"fumen":"v115@…","url":"…"}`.
    GameFumen {
        /// The field the game started from.
        field: String,
        /// Every placement: `{"piece","orientation","x","y"}`.
        placements: Vec<FumenPiece>,
        /// A comment per page (empty: none).
        #[serde(default)]
        comments: Vec<String>,
    },
}

/// An exact chance: `{"fraction":"119/120","numer":119,"denom":120,"percent":99.16…}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Chance {
    /// `numer/denom` in lowest terms (`0/1`, `1/1`).
    pub fraction: String,
    /// The numerator.
    pub numer: u64,
    /// The denominator.
    pub denom: u64,
    /// The chance in percent.
    pub percent: f64,
}

impl From<Ratio> for Chance {
    fn from(r: Ratio) -> Self {
        Chance {
            fraction: r.to_string(),
            numer: r.numer(),
            denom: r.denom(),
            percent: r.to_f64() * 100.0,
        }
    }
}

/// A piece where it locks: `{"piece":"T","orientation":"right","centre":[x,y],"cells":[[x,y],…]}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Locked {
    /// The piece letter.
    pub piece: String,
    /// `spawn`, `right`, `reverse` or `left`.
    pub orientation: String,
    /// The rotation centre (the coordinates of guideline games, fumen and sfinder).
    pub centre: [i32; 2],
    /// The four cells `[x, y]`, `x` from the left, `y` from the bottom.
    pub cells: Vec<[u8; 2]>,
}

impl From<&Placement> for Locked {
    fn from(p: &Placement) -> Self {
        let centre = p.centre();
        Locked {
            piece: p.piece().to_string(),
            orientation: p.orientation().to_string(),
            centre: [centre.x, centre.y],
            cells: p.cells().iter().map(|&(x, y)| [x, y]).collect(),
        }
    }
}

/// One ranked move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Move {
    /// Whether hold is pressed first.
    pub hold: bool,
    /// Where the piece locks.
    #[serde(flatten)]
    pub placement: Locked,
    /// The exact chance of a PC after this move with best play.
    pub chance: Chance,
    /// The keys (`L`, `R`, `cw`, `ccw`, `180`, `d`, `sd`, `hd`), space-separated.
    pub keys: Option<String>,
    /// The piece the move can leave in hold for the next PC, once every piece of this PC is
    /// in view (see `RankedMove::carry`).
    pub carry: Option<String>,
}

impl From<&RankedMove> for Move {
    fn from(m: &RankedMove) -> Self {
        Move {
            hold: m.mv.hold,
            placement: Locked::from(&m.mv.placement),
            chance: m.chance.into(),
            keys: m.path.as_ref().map(ToString::to_string),
            carry: m.carry.map(|p| p.to_string()),
        }
    }
}

/// One page of the best line: the field before the piece locks, and the piece.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LinePage {
    /// The rows below the clear line, top first: `.` empty, `X` the position's own blocks,
    /// a piece letter for the pieces locked earlier in the line.
    pub rows: Vec<String>,
    /// The piece this page locks (in the coordinates of this page's field), or `None` on
    /// the last page, the cleared field.
    pub piece: Option<Locked>,
}

/// The best line: a PC that starts with the best move, for one way the bag can go.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    /// The line as a fumen, one page per placement.
    pub fumen: String,
    /// A fumen viewer's link to it.
    pub url: String,
    /// The pages to step through, and the cleared field at the end.
    pub pages: Vec<LinePage>,
}

/// What a solve answers besides the checked form.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Solved {
    /// The chance of a PC with best play.
    pub chance: Chance,
    /// With the hold slot empty: the chance of pressing hold first and choosing the
    /// placement once the next piece shows (`Recommendation::hold_first`).
    pub hold_first: Option<Chance>,
    /// Every legal move, best first (the order of `Solver::recommend`).
    pub moves: Vec<Move>,
    /// The best line, or `None` when the chance is 0.
    pub line: Option<Line>,
    /// Which engine answered: `graph`, `known-queue`, `layered` or `depth-first`.
    pub engine: String,
}

#[derive(Serialize)]
struct Answer<T: Serialize> {
    ok: bool,
    #[serde(flatten)]
    body: T,
}

#[derive(Serialize)]
struct Failure<'a> {
    ok: bool,
    error: String,
    input: &'a str,
}

#[derive(Serialize)]
struct Checked {
    form: Form,
    query: String,
    fumen: String,
}

/// The settings a kept solver was made with.
#[derive(Clone, PartialEq)]
struct SolverKey {
    rules: Rules,
    preview: usize,
    two_line: bool,
    /// The graph's address, so that a solver made before a graph was loaded is not used
    /// after.
    graph: Option<usize>,
}

thread_local! {
    /// The last solver, kept for the next solve with the same settings (what it learned
    /// carries over, as within a game).
    static SOLVER: RefCell<Option<(SolverKey, Solver)>> = const { RefCell::new(None) };
}

/// Lets the kept solver go (with what it learned, and the graph it holds).
pub fn forget_solver() {
    SOLVER.with(|s| s.borrow_mut().take());
}

/// Answers one JSON request with one JSON answer (never panics on bad input).
pub fn handle(request: &str) -> String {
    let request: Request = match serde_json::from_str(request) {
        Ok(request) => request,
        Err(e) => return failure(&format!("bad request: {e}"), "request"),
    };
    match request {
        Request::Query { query } => answer(Form::from_query(&query)),
        Request::Fumen { fumen } => reply(field_from_fumen(&fumen).map(|field| {
            let height = field.split('/').count();
            serde_json::json!({ "field": field, "height": height })
        })),
        Request::Check { form } => reply(form.setup().map(|setup| checked(&setup))),
        Request::Solve { form } => reply(form.setup().and_then(|setup| solve_answer(&setup))),
        Request::PlaySolve { form } => reply(form.setup().and_then(|setup| {
            if estimated_in_play(&setup)? {
                return Ok(serde_json::to_value(estimate(&setup)?).expect("plain data"));
            }
            if !costly_hold_decision(&setup) || graph_answers(&setup)? {
                return solve_answer(&setup);
            }
            Ok(serde_json::to_value(hold_first_only(&setup)?).expect("plain data"))
        })),
        Request::Path {
            form,
            pattern,
            list,
            fills,
        } => reply(crate::solutions::solutions(&form, &pattern, list, fills)),
        Request::GraphBegin {
            kicks,
            drop,
            bytes,
            coding,
        } => {
            // Solvers made with the old graph let it go too.
            forget_solver();
            match crate::graph::begin(&kicks, &drop, bytes, coding) {
                Ok(()) => serde_json::json!({ "ok": true }).to_string(),
                Err(e) => failure(&e.to_string(), "graph"),
            }
        }
        Request::Graph {} => match crate::graph::finish() {
            Ok(loaded) => answer(loaded),
            Err(e) => failure(&e.to_string(), "graph"),
        },
        Request::GraphPrepare {} => {
            serde_json::json!({ "ok": true, "prepared": crate::graph::prepare() }).to_string()
        }
        Request::GraphPreparedLoad { coding, bytes } => {
            match crate::graph::prepared_load(coding, bytes) {
                Ok(()) => serde_json::json!({ "ok": true }).to_string(),
                Err(e) => failure(&e.to_string(), "graph"),
            }
        }
        Request::Tables { kicks } => match crate::kicks::kick_table(&kicks) {
            Some(table) => answer(crate::play::tables(&table)),
            None => {
                let e = FormError::Kicks(kicks);
                failure(&e.to_string(), e.input())
            }
        },
        Request::PlayNew { settings, form } => play(Game::new(settings, form.as_ref())),
        Request::PlayMove {
            game,
            hold,
            orientation,
            x,
            y,
        } => play(game.place(hold, &orientation, x, y)),
        Request::PlayHold { game } => play(game.hold()),
        Request::GameFumen {
            field,
            placements,
            comments,
        } => match crate::play::game_fumen(&field, &placements, &comments) {
            Ok(fumen) => answer(serde_json::json!({
                "fumen": fumen.to_string(),
                "url": format!("{FUMEN_VIEWER}{fumen}"),
            })),
            Err(e) => failure(&e.to_string(), e.input()),
        },
    }
}

/// A solve's answer: the checked form's fields and the ranking's.
fn solve_answer(setup: &Setup) -> Result<serde_json::Value, FormError> {
    let solved = solve(setup)?;
    let mut body = serde_json::to_value(checked(setup)).expect("plain data");
    let solved = serde_json::to_value(solved).expect("plain data");
    if let (Some(body), Some(solved)) = (body.as_object_mut(), solved.as_object()) {
        body.extend(solved.clone());
    }
    Ok(body)
}

/// Pieces a PC from this position can use that are not revealed yet, with hold.
fn unknown_pieces(position: &Position) -> usize {
    let needed = position
        .field
        .empty_cells_below(position.clear_line)
        .cell_count() as usize
        / 4;
    let known = position.queue().len() + usize::from(position.hold.is_some());
    (needed + 1).saturating_sub(known)
}

/// Whether the solver's graph answers the position ([`Engine::Graph`]): with the hold
/// slot empty too, when at most four pieces a PC can use are unknown (the first decision
/// of a game, with five previews).
fn graph_answers(setup: &Setup) -> Result<bool, FormError> {
    with_solver(setup, |solver| {
        Ok(solver.engine_for(&setup.position)? == pc_solver::Engine::Graph)
    })
}

/// Whether the exact ranking may take minutes when the graph does not answer: the hold
/// slot empty, hold not used yet, and three or more pieces unknown (the depth-first search
/// over holds into the empty slot).
pub fn costly_hold_decision(setup: &Setup) -> bool {
    let p = &setup.position;
    setup.rules.hold
        && p.hold.is_none()
        && !p.hold_used
        && !p.preview.is_empty()
        && unknown_pieces(p) >= 3
}

/// Draws of an estimate in Play mode (each a ranking with the longer preview; web/README.md
/// has the time they take).
const ESTIMATE_SAMPLES: usize = 8;

/// Whether Play estimates the position: the graph of the rules is loaded (the draws are
/// then answered from it quickly) and the exact answer may take hours
/// (`Solver::slow_to_answer`).
fn estimated_in_play(setup: &Setup) -> Result<bool, FormError> {
    if crate::graph::for_rules(&setup.rules).is_none() {
        return Ok(false);
    }
    with_solver(setup, |solver| solver.slow_to_answer(&setup.position))
}

/// An estimated chance: the mean over the draws and its standard error, in percent.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Estimated {
    /// The mean, in percent.
    pub percent: f64,
    /// Its standard error, in percent.
    pub std_error: f64,
}

impl From<pc_solver::Mean> for Estimated {
    fn from(m: pc_solver::Mean) -> Self {
        Estimated {
            percent: m.value * 100.0,
            std_error: m.std_error * 100.0,
        }
    }
}

/// How an estimate was made.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct EstimateMade {
    /// The pieces each draw added to the preview.
    pub revealed: usize,
    /// The draws.
    pub samples: usize,
}

/// A move of an estimate.
#[derive(Clone, Debug, Serialize)]
pub struct EstimatedMoveAnswer {
    /// Whether hold is pressed first.
    pub hold: bool,
    /// Where the piece locks.
    #[serde(flatten)]
    pub placement: Locked,
    /// Its estimated chance.
    pub chance: Estimated,
    /// The keys, as [`Move::keys`].
    pub keys: Option<String>,
}

/// Play's answer for a position whose exact chance takes hours: `Solver::estimate`'s.
#[derive(Clone, Debug, Serialize)]
pub struct EstimateAnswer {
    /// How it was made.
    pub estimate: EstimateMade,
    /// The position's chance, estimated (the best move's, or holding first's).
    pub chance: Estimated,
    /// Holding into the empty slot first, estimated.
    pub hold_first: Option<Estimated>,
    /// Every move, best first.
    pub moves: Vec<EstimatedMoveAnswer>,
    /// No line.
    pub line: Option<Line>,
    /// The engine that answered the draws.
    pub engine: String,
}

/// Estimates the position (`Solver::estimate`, `ESTIMATE_SAMPLES` draws, seeded by the
/// position so that the same position gets the same estimate).
pub fn estimate(setup: &Setup) -> Result<EstimateAnswer, FormError> {
    let p = &setup.position;
    let seed = p
        .queue()
        .iter()
        .chain(p.hold.iter())
        .fold(p.field.cell_count() as u64, |h, piece| {
            h.wrapping_mul(31).wrapping_add(piece.index() as u64 + 1)
        });
    let options = pc_solver::EstimateOptions {
        samples: ESTIMATE_SAMPLES,
        seed,
    };
    let estimate = with_solver(setup, |solver| solver.estimate(p, options))?;
    Ok(EstimateAnswer {
        estimate: EstimateMade {
            revealed: estimate.revealed,
            samples: estimate.samples,
        },
        chance: estimate.chance.into(),
        hold_first: estimate.hold_first.map(Estimated::from),
        moves: estimate
            .moves
            .iter()
            .map(|m| EstimatedMoveAnswer {
                hold: m.mv.hold,
                placement: Locked::from(&m.mv.placement),
                chance: m.chance.into(),
                keys: m.path.as_ref().map(ToString::to_string),
            })
            .collect(),
        line: None,
        engine: estimate.engine.name().to_string(),
    })
}

/// The chance of pressing hold first, from each piece the hold can reveal.
#[derive(Clone, Debug, Serialize)]
pub struct HoldFirst {
    /// Always `true`: the placements are not ranked.
    pub partial: bool,
    /// Not known: `null`.
    pub chance: Option<Chance>,
    /// The chance of pressing hold first and placing once the next piece shows.
    pub hold_first: Chance,
    /// Each piece the hold can reveal and the chance after it.
    pub reveals: Vec<Reveal>,
    /// No moves are ranked.
    pub moves: Vec<Move>,
    /// No line.
    pub line: Option<Line>,
    /// The engine of the positions after the hold.
    pub engine: String,
}

/// A piece a hold into the empty slot can reveal.
#[derive(Clone, Debug, Serialize)]
pub struct Reveal {
    /// The piece.
    pub piece: String,
    /// The chance of the position after the hold, with it revealed.
    pub chance: Chance,
}

/// The exact chance of pressing hold first: the average, over the pieces the bag can
/// reveal, of the chance of the position after the hold.
pub fn hold_first_only(setup: &Setup) -> Result<HoldFirst, FormError> {
    let p = &setup.position;
    let bag = p.bag_state();
    let mut total = Ratio::ZERO;
    let mut reveals = Vec::new();
    let mut engine = String::new();
    for piece in bag.drawable() {
        let after = p.after_hold(piece)?;
        let (chance, used) = with_solver(setup, |solver| {
            let engine = solver.engine_for(&after)?;
            Ok((solver.chance(&after)?, engine))
        })?;
        engine = used.name().to_string();
        total = total + bag.next_probability(piece) * chance;
        reveals.push(Reveal {
            piece: piece.to_string(),
            chance: chance.into(),
        });
    }
    Ok(HoldFirst {
        partial: true,
        chance: None,
        hold_first: total.into(),
        reveals,
        moves: Vec::new(),
        line: None,
        engine,
    })
}

fn reply<T: Serialize>(result: Result<T, FormError>) -> String {
    match result {
        Ok(body) => answer(body),
        Err(e) => failure(&e.to_string(), e.input()),
    }
}

fn play(result: Result<Game, crate::play::PlayError>) -> String {
    match result {
        Ok(game) => answer(serde_json::json!({ "game": game })),
        Err(e) => failure(&e.to_string(), e.input()),
    }
}

/// Ranks every move of a checked position, as `Solver::recommend` does, with a solver kept
/// from the last call when its settings match, and the loaded graph when it was built for
/// the position's rules.
pub fn solve(setup: &Setup) -> Result<Solved, FormError> {
    let recommendation = with_solver(setup, |solver| solver.recommend(&setup.position))?;
    Ok(solved(&setup.position, &recommendation))
}

/// Runs `f` with the kept solver for the setup's rules, preview length and 2-line
/// setting (made anew when they changed), and the loaded graph when it is the rules'.
fn with_solver<T>(
    setup: &Setup,
    f: impl FnOnce(&mut Solver) -> Result<T, pc_solver::SolverError>,
) -> Result<T, FormError> {
    let graph = crate::graph::for_rules(&setup.rules);
    let key = SolverKey {
        rules: setup.rules.clone(),
        preview: setup.position.preview.len(),
        two_line: setup.two_line,
        graph: graph.as_ref().map(|g| Arc::as_ptr(g) as usize),
    };
    SOLVER.with(|cell| {
        let mut cell = cell.borrow_mut();
        if !matches!(&*cell, Some((k, _)) if *k == key) {
            // Drop the old solver's tables before the new one fills its own.
            *cell = None;
            *cell = Some((key.clone(), solver(&key, graph)?));
        }
        let (_, solver) = cell.as_mut().expect("set above");
        Ok(f(solver)?)
    })
}

fn solver(key: &SolverKey, graph: Option<Arc<PcGraph>>) -> Result<Solver, pc_solver::SolverError> {
    let options = SolverOptions {
        preview: key.preview,
        two_line: key.two_line,
        memory_limit: if graph.is_some() {
            MEMORY_LIMIT_WITH_GRAPH
        } else {
            MEMORY_LIMIT
        },
        graph,
        ..SolverOptions::default()
    };
    Solver::with_options(key.rules.clone(), options)
}

/// The answer of a recommendation.
pub fn solved(position: &Position, recommendation: &Recommendation) -> Solved {
    let line = (!recommendation.line.is_empty()).then(|| {
        let fumen = pc_fumen::Fumen::from_placements(&position.field, &recommendation.line);
        Line {
            fumen: fumen.to_string(),
            url: format!("{FUMEN_VIEWER}{fumen}"),
            pages: pages(&fumen, position.clear_line),
        }
    });
    Solved {
        chance: recommendation.chance.into(),
        hold_first: recommendation.hold_first.map(Chance::from),
        moves: recommendation.moves.iter().map(Move::from).collect(),
        line,
        engine: recommendation.engine.name().to_string(),
    }
}

/// The pages of a line's fumen as rows below the clear line, and the cleared field after
/// the last one.
pub(crate) fn pages(fumen: &Fumen, clear_line: u32) -> Vec<LinePage> {
    let rows = |field: &pc_fumen::ColoredField| -> Vec<String> {
        (0..clear_line)
            .rev()
            .map(|y| (0..10).map(|x| field.cell(x, y).to_char()).collect())
            .collect()
    };
    let mut pages: Vec<LinePage> = fumen
        .pages
        .iter()
        .map(|page| LinePage {
            rows: rows(page.field()),
            piece: page.piece().as_ref().map(Locked::from),
        })
        .collect();
    if let Some(last) = fumen.pages.last() {
        pages.push(LinePage {
            rows: rows(&last.next_field()),
            piece: None,
        });
    }
    pages
}

fn checked(setup: &Setup) -> Checked {
    Checked {
        form: setup.form.clone(),
        query: setup.form.to_query(),
        fumen: Fumen::from_placements(&setup.position.field, &[]).to_string(),
    }
}

fn answer<T: Serialize>(body: T) -> String {
    serde_json::to_string(&Answer { ok: true, body }).expect("plain data serialises")
}

/// The answer of an error.
fn failure(error: &str, input: &str) -> String {
    serde_json::to_string(&Failure {
        ok: false,
        error: error.to_string(),
        input,
    })
    .expect("plain data serialises")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn call(request: Value) -> Value {
        serde_json::from_str(&handle(&request.to_string())).unwrap()
    }

    /// A value as it reads back from the JSON text (floats parse as the answer's do).
    fn json<T: Serialize>(value: &T) -> Value {
        serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap()
    }

    fn form(field: &str, hold: &str, queue: &str, bag: &str) -> Value {
        serde_json::json!({ "field": field, "hold": hold, "queue": queue, "bag": bag })
    }

    /// The ranking of `Solver::recommend` as the `recommend` example computes it, in the
    /// answer's form.
    fn native(form: &Value) -> (Chance, Vec<Move>) {
        let form: Form = serde_json::from_value(form.clone()).unwrap();
        let setup = form.setup().unwrap();
        let options = SolverOptions {
            preview: setup.position.preview.len(),
            two_line: setup.two_line,
            ..SolverOptions::default()
        };
        let mut solver = Solver::with_options(setup.rules.clone(), options).unwrap();
        let r = solver.recommend(&setup.position).unwrap();
        (r.chance.into(), r.moves.iter().map(Move::from).collect())
    }

    #[test]
    fn the_issue_position_is_119_of_120_as_recommend_says() {
        let form = form("####......", "O", "TSZLJI", "OTSZLJ");
        let answer = call(serde_json::json!({ "op": "solve", "form": form }));
        assert_eq!(answer["ok"], true, "{answer}");
        assert_eq!(answer["chance"]["fraction"], "119/120");
        assert_eq!(
            answer["query"],
            "field=%23%23%23%23......&hold=O&queue=TSZLJI&bag=JLOSTZ&kicks=srs"
        );
        let (chance, moves) = native(&form);
        assert_eq!(answer["chance"], json(&chance));
        assert_eq!(answer["moves"], json(&moves));
        assert!(moves.len() > 10);
        let best = &answer["moves"][0];
        assert_eq!(best["chance"]["fraction"], "119/120");
        // The line starts with the best move and ends on the cleared field.
        let pages = answer["line"]["pages"].as_array().unwrap();
        assert_eq!(pages.len(), 9 + 1);
        assert_eq!(pages[0]["piece"]["cells"], best["cells"]);
        assert_eq!(pages[0]["rows"][3], "XXXX......");
        assert_eq!(pages[9]["piece"], Value::Null);
        assert!(
            pages[9]["rows"]
                .as_array()
                .unwrap()
                .iter()
                .all(|r| r == "..........")
        );
        assert!(
            answer["line"]["url"]
                .as_str()
                .unwrap()
                .ends_with(answer["line"]["fumen"].as_str().unwrap())
        );
    }

    #[test]
    fn a_reused_solver_answers_the_same() {
        let pco = form(
            "##.....###/###....###/####...###/###....###",
            "I",
            "TLOSJZ",
            "",
        );
        let first = call(serde_json::json!({ "op": "solve", "form": pco }));
        assert_eq!(first["chance"]["fraction"], "1/1");
        assert_eq!(first["moves"], json(&native(&pco).1));
        let other = form(
            "##.....###/###....###/####...###/###....###",
            "I",
            "TLOSZJ",
            "",
        );
        call(serde_json::json!({ "op": "solve", "form": other }));
        let again = call(serde_json::json!({ "op": "solve", "form": pco }));
        assert_eq!(again, first);
        // Another kick table gets its own solver.
        let mut plus = pco.clone();
        plus["kicks"] = "srs+".into();
        let answer = call(serde_json::json!({ "op": "solve", "form": plus }));
        assert_eq!(answer["form"]["kicks"], "srs+");
        assert_eq!(answer["moves"], json(&native(&plus).1));
    }

    #[test]
    fn moves_in_json() {
        let pco = form(
            "##.....###/###....###/####...###/###....###",
            "I",
            "TLOSJZ",
            "",
        );
        let answer = call(serde_json::json!({ "op": "solve", "form": pco }));
        let m = &answer["moves"][0];
        for key in [
            "hold",
            "piece",
            "orientation",
            "centre",
            "cells",
            "chance",
            "keys",
            "carry",
        ] {
            assert!(m.get(key).is_some(), "{key} missing from {m}");
        }
        assert_eq!(m["cells"].as_array().unwrap().len(), 4);
        assert!(m["keys"].as_str().unwrap().ends_with("hd"));
        assert_eq!(answer["hold_first"], Value::Null);
        assert_eq!(answer["line"]["pages"].as_array().unwrap().len(), 5);
    }

    #[test]
    fn no_chance_no_line() {
        // A 2×2 hole, an S and a Z in hold: nothing fits.
        let form = serde_json::json!({
            "field": "####..####/####..####", "clear_line": 2, "hold": "Z", "queue": "S",
        });
        let answer = call(serde_json::json!({ "op": "solve", "form": form }));
        assert_eq!(answer["ok"], true, "{answer}");
        assert_eq!(answer["chance"]["fraction"], "0/1");
        assert_eq!(answer["line"], Value::Null);
    }

    #[test]
    fn queries_fumens_and_checks() {
        let answer = call(serde_json::json!({
            "op": "query", "query": "field=####......&hold=O&queue=TSZLJI&bag=OTSZLJ&kicks=srs",
        }));
        assert_eq!(answer["ok"], true);
        assert_eq!(answer["solve"], true);
        assert_eq!(answer["form"]["field"], "####......");
        assert_eq!(answer["form"]["clear_line"], 4);
        let answer = call(serde_json::json!({ "op": "query", "query": "" }));
        assert_eq!(answer["solve"], false);

        let answer =
            call(serde_json::json!({ "op": "fumen", "fumen": "v115@9gF8DeF8DeF8DeF8NeAgH" }));
        assert_eq!(
            answer["field"],
            "######..../######..../######..../######...."
        );
        assert_eq!(answer["height"], 4);

        let answer =
            call(serde_json::json!({ "op": "check", "form": form("########..", "", "T", "") }));
        assert_eq!(answer["ok"], true, "{answer}");
        assert!(answer["fumen"].as_str().unwrap().starts_with("v115@"));
        assert_eq!(
            answer["query"],
            "field=%23%23%23%23%23%23%23%23..&queue=T&kicks=srs"
        );
    }

    /// A graph file of a small field's PCs, laid out by piece as `graph build --field
    /// --by-piece` writes it for the site.
    fn small_graph(rows: &str) -> Vec<u8> {
        let start = pc_solver::PcField::new(rows.parse().unwrap(), 4).unwrap();
        PcGraph::build_from(&start, &Rules::default(), &mut |_| {
            std::ops::ControlFlow::Continue(())
        })
        .unwrap()
        .to_bytes_by_piece()
    }

    /// What the page does with a graph file: `graph_begin`, then its bytes in chunks of
    /// `size` through the chunk buffer (zstd-compressed when `zstd`, as the site serves
    /// it), then `graph`. Returns the answer and how many bytes the module decompressed.
    fn load_graph(file: &[u8], rules: (&str, &str), zstd: bool, size: usize) -> (Value, usize) {
        let sent = if zstd {
            ruzstd::encoding::compress_to_vec(file, ruzstd::encoding::CompressionLevel::Fastest)
        } else {
            file.to_vec()
        };
        let begun = call(serde_json::json!({
            "op": "graph_begin", "kicks": rules.0, "drop": rules.1, "bytes": file.len(),
            "coding": if zstd { "zstd" } else { "none" },
        }));
        if begun["ok"] != true {
            return (begun, 0);
        }
        let mut decoded = 0;
        let chunks: Vec<&[u8]> = sent.chunks(size).collect();
        for (k, chunk) in chunks.iter().enumerate() {
            let at = crate::ffi::pc_graph_chunk(chunk.len());
            // The page writes the chunk where the module said.
            crate::graph::tests::write_chunk(at, chunk);
            let n = crate::ffi::pc_graph_push(u32::from(k + 1 == chunks.len()));
            if n == usize::MAX {
                break;
            }
            decoded += n;
        }
        (call(serde_json::json!({ "op": "graph" })), decoded)
    }

    /// What the page does with a file it kept: its bytes into the prepared buffer, then
    /// `graph_prepared_load`.
    fn load_prepared(bytes: &[u8]) -> Value {
        let at = crate::ffi::pc_graph_prepared_buffer(bytes.len());
        crate::graph::tests::write_prepared(at, bytes);
        call(serde_json::json!({ "op": "graph_prepared_load" }))
    }

    #[test]
    fn what_five_unknown_pieces_read_is_kept_and_taken_back() {
        // Seven pieces from a PC: a layer four pieces from one.
        let rows = "###......./###......./###......./###.......";
        let file = small_graph(rows);
        assert_eq!(crate::ffi::pc_graph_prepared_save(), usize::MAX, "no graph");
        assert_eq!(load_prepared(b"x")["error"], "prepared: no graph is loaded");
        let (loaded, _) = load_graph(&file, ("srs", "softdrop"), false, 1 << 20);
        assert_eq!(loaded["ok"], true, "{loaded}");
        assert_eq!(crate::ffi::pc_graph_prepared_save(), usize::MAX, "not made");
        assert_eq!(
            call(serde_json::json!({ "op": "graph_prepare" }))["prepared"],
            true
        );
        let len = crate::ffi::pc_graph_prepared_save();
        assert_ne!(len, usize::MAX);
        let kept =
            crate::graph::tests::prepared_bytes_at(crate::ffi::pc_graph_prepared_bytes(), len);
        // A later load of the same graph takes them back; damaged bytes are refused.
        let (loaded, _) = load_graph(&file, ("srs", "softdrop"), false, 1 << 20);
        assert_eq!(loaded["ok"], true, "{loaded}");
        let mut damaged = kept.clone();
        damaged[len / 2] ^= 1;
        let refused = load_prepared(&damaged);
        assert_eq!(refused["ok"], false);
        assert_eq!(refused["input"], "graph");
        assert_eq!(
            refused["error"],
            "prepared: the graph file is damaged (checksum mismatch)"
        );
        assert_eq!(
            crate::ffi::pc_graph_prepared_save(),
            usize::MAX,
            "none taken"
        );
        assert_eq!(load_prepared(&kept)["ok"], true);
        assert_eq!(crate::ffi::pc_graph_prepared_save(), len, "taken");
    }

    /// What the page does with the site's copy: its compressed bytes into the prepared
    /// buffer, then `graph_prepared_load` with the length the site's index gives.
    fn load_served(packed: &[u8], bytes: usize) -> Value {
        let at = crate::ffi::pc_graph_prepared_buffer(packed.len());
        crate::graph::tests::write_prepared(at, packed);
        call(serde_json::json!({ "op": "graph_prepared_load", "coding": "zstd", "bytes": bytes }))
    }

    #[test]
    fn the_sites_compressed_copy_of_what_five_unknown_pieces_read_is_taken() {
        let rows = "###......./###......./###......./###.......";
        let file = small_graph(rows);
        let (loaded, _) = load_graph(&file, ("srs", "softdrop"), false, 1 << 20);
        assert_eq!(loaded["ok"], true, "{loaded}");
        call(serde_json::json!({ "op": "graph_prepare" }));
        let len = crate::ffi::pc_graph_prepared_save();
        let made =
            crate::graph::tests::prepared_bytes_at(crate::ffi::pc_graph_prepared_bytes(), len);
        let packed = |bytes: &[u8]| {
            ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
        };
        let reload = || {
            let (loaded, _) = load_graph(&file, ("srs", "softdrop"), false, 1 << 20);
            assert_eq!(loaded["ok"], true, "{loaded}");
        };
        reload();
        // Refused: another length than the index's, bytes that are no zstd frame, a frame
        // cut short, no length, a frame of damaged bytes; nothing is taken.
        let cases = [
            (
                load_served(&packed(&made), len - 1),
                "prepared: the site's copy does not decompress (more than the ",
            ),
            (
                load_served(&packed(&made), len + 1),
                "prepared: the site's copy does not decompress (",
            ),
            (
                load_served(&made, len),
                "prepared: the site's copy does not decompress (",
            ),
            (
                load_served(&packed(&made)[..packed(&made).len() / 2], len),
                "prepared: the site's copy does not decompress (",
            ),
            (
                call(serde_json::json!({ "op": "graph_prepared_load", "coding": "zstd" })),
                "prepared: zstd bytes need their length decompressed (`bytes`)",
            ),
        ];
        for (answer, error) in cases {
            assert_eq!(answer["ok"], false, "{answer}");
            assert!(
                answer["error"].as_str().unwrap().starts_with(error),
                "{answer}"
            );
            assert_eq!(
                crate::ffi::pc_graph_prepared_save(),
                usize::MAX,
                "none taken"
            );
        }
        let mut damaged = made.clone();
        damaged[len / 2] ^= 1;
        let refused = load_served(&packed(&damaged), len);
        assert_eq!(
            refused["error"],
            "prepared: the graph file is damaged (checksum mismatch)"
        );
        // The good copy is taken: the same bytes as made.
        assert_eq!(load_served(&packed(&made), len)["ok"], true);
        let again = crate::ffi::pc_graph_prepared_save();
        assert_eq!(
            crate::graph::tests::prepared_bytes_at(crate::ffi::pc_graph_prepared_bytes(), again),
            made
        );
    }

    #[test]
    fn a_loaded_graph_answers_with_the_same_values() {
        let rows = "######..../######..../######..../######....";
        let form = serde_json::json!({
            "field": rows, "hold": "I", "queue": "OT", "bag": "JLSZ",
        });
        let without = call(serde_json::json!({ "op": "solve", "form": form }));
        assert_ne!(without["engine"], "graph");
        let prepare = serde_json::json!({ "op": "graph_prepare" });
        assert_eq!(call(prepare.clone())["prepared"], false, "no graph yet");
        let file = small_graph(rows);
        // A damaged file is refused with the graph's own message, and nothing is kept,
        // compressed or not, whatever the chunks.
        let mut damaged = file.clone();
        let middle = damaged.len() / 2;
        damaged[middle] ^= 0x20;
        for (zstd, size) in [(false, 1 << 20), (true, 1000), (true, 1 << 20)] {
            let (refused, _) = load_graph(&damaged, ("srs", "softdrop"), zstd, size);
            assert_eq!(refused["ok"], false);
            assert_eq!(refused["input"], "graph");
            assert_eq!(
                refused["error"], "graph: the graph file is damaged (checksum mismatch)",
                "{refused}"
            );
        }
        // Bytes that are not zstd, or a download cut short, are refused too.
        let (garbage, _) = load_graph(b"not zstd at all", ("srs", "softdrop"), false, 4);
        assert_eq!(garbage["error"], "graph: not a graph file", "{garbage}");
        let compressed = ruzstd::encoding::compress_to_vec(
            &file[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        let cut = serde_json::json!({
            "op": "graph_begin", "kicks": "srs", "drop": "softdrop", "bytes": file.len(),
            "coding": "zstd",
        });
        assert_eq!(call(cut)["ok"], true);
        let half = &compressed[..compressed.len() / 2];
        crate::graph::tests::write_chunk(crate::ffi::pc_graph_chunk(half.len()), half);
        assert_ne!(crate::ffi::pc_graph_push(0), usize::MAX);
        let refused = call(serde_json::json!({ "op": "graph" }));
        assert_eq!(
            refused["error"],
            "graph: the download does not decompress (it ends early)"
        );
        assert_eq!(
            call(serde_json::json!({ "op": "graph" }))["error"],
            "graph: no load was started"
        );
        // Another rule set's graph is refused too.
        let (other, _) = load_graph(&file, ("srs+", "softdrop"), true, 1 << 20);
        assert_eq!(other["ok"], false, "{other}");
        // The site's way (zstd, chunks of a few kilobytes): the module decompresses the
        // whole file; and the plain way (as it is).
        let (loaded, decoded) = load_graph(&file, ("SRS", "soft"), true, 3000);
        assert_eq!(loaded["ok"], true, "{loaded}");
        assert_eq!(decoded, file.len(), "the bytes decompressed");
        // The loaded graph's file in the plain layout, for the cache, a chunk at a time: it
        // loads too, and a load lets the file being made go.
        let len = crate::ffi::pc_graph_plain_begin();
        let mut plain = Vec::new();
        loop {
            let n = crate::ffi::pc_graph_plain_next();
            assert_ne!(n, usize::MAX);
            if n == 0 {
                break;
            }
            plain.extend(crate::graph::tests::plain_chunk_bytes(
                crate::ffi::pc_graph_plain_bytes(),
                n,
            ));
        }
        assert_eq!(plain.len(), len);
        assert_eq!(
            crate::ffi::pc_graph_plain_next(),
            usize::MAX,
            "the file is all given"
        );
        assert_ne!(plain, file, "the plain layout");
        let (loaded, _) = load_graph(&plain, ("SRS", "soft"), false, 7000);
        assert_eq!(loaded["ok"], true, "{loaded}");
        assert_ne!(crate::ffi::pc_graph_plain_begin(), usize::MAX);
        assert_ne!(crate::ffi::pc_graph_plain_next(), usize::MAX);
        let _ = load_graph(&file, ("SRS", "soft"), false, 5000);
        assert_eq!(
            crate::ffi::pc_graph_plain_next(),
            usize::MAX,
            "let go by the load"
        );
        let (loaded, decoded) = load_graph(&file, ("SRS", "soft"), false, 5000);
        assert_eq!(loaded["ok"], true, "{loaded}");
        assert_eq!(decoded, 0);
        assert_eq!(loaded["start"], rows);
        assert!(loaded["fields"].as_u64().unwrap() > 10);
        assert_eq!(call(prepare)["prepared"], true);
        let with = call(serde_json::json!({ "op": "solve", "form": form }));
        assert_eq!(with["engine"], "graph", "{with}");
        assert_eq!(with["chance"], without["chance"]);
        assert_eq!(with["moves"], without["moves"]);
        // Other rules do not use it.
        let mut plus = form.clone();
        plus["kicks"] = "srs+".into();
        let answer = call(serde_json::json!({ "op": "solve", "form": plus }));
        assert_ne!(answer["engine"], "graph");
        crate::graph::unload();
        let again = call(serde_json::json!({ "op": "solve", "form": form }));
        assert_ne!(again["engine"], "graph");
    }

    #[test]
    fn a_game_through_the_interface() {
        // Play from here: the grace system field, nothing held, T then five previews.
        let start = serde_json::json!({
            "field": "######..../######..../######..../######....", "queue": "TIJLOS", "bag": "Z",
        });
        let answer = call(serde_json::json!({
            "op": "play_new", "settings": { "seed": 9, "preview": 5 }, "form": start,
        }));
        assert_eq!(answer["ok"], true, "{answer}");
        let game = &answer["game"];
        assert_eq!(game["form"]["queue"], "TIJLOS");
        assert_eq!(game["turn"], 0);
        // Hold into the empty slot reveals the next piece: Z, the bag's last.
        let held = call(serde_json::json!({ "op": "play_hold", "game": game }));
        assert_eq!(held["game"]["form"]["hold_used"], true);
        assert_eq!(held["game"]["form"]["hold"], "T");
        assert_eq!(held["game"]["form"]["queue"], "IJLOSZ");
        let ranked = call(serde_json::json!({ "op": "solve", "form": held["game"]["form"] }));
        assert_eq!(ranked["ok"], true, "{ranked}");
        let best = &ranked["moves"][0];
        assert_eq!(best["hold"], false);
        let moved = call(serde_json::json!({
            "op": "play_move", "game": held["game"], "hold": false,
            "orientation": best["orientation"], "x": best["centre"][0], "y": best["centre"][1],
        }));
        assert_eq!(moved["ok"], true, "{moved}");
        assert_eq!(moved["game"]["turn"], 2);
        assert_eq!(moved["game"]["placements"][0]["cells"], best["cells"]);
        // A move that does not rest is an error naming the move.
        let bad = call(serde_json::json!({
            "op": "play_move", "game": held["game"], "hold": false,
            "orientation": "spawn", "x": 4, "y": 10,
        }));
        assert_eq!(bad["ok"], false);
        assert_eq!(bad["input"], "play");
        // Tables and a game's fumen.
        let tables = call(serde_json::json!({ "op": "tables", "kicks": "jstris180" }));
        assert_eq!(tables["spawn"], serde_json::json!([4, 20]));
        let fumen = call(serde_json::json!({
            "op": "game_fumen", "field": moved["game"]["start_field"],
            "placements": moved["game"]["placements"], "comments": ["1/1"],
        }));
        assert!(
            fumen["fumen"].as_str().unwrap().starts_with("v115@"),
            "{fumen}"
        );
    }

    #[test]
    fn with_the_hold_slot_empty_play_solve_gives_the_exact_hold_first_chance() {
        // A 2-line PC from the empty field, two previews: five pieces, three unknown.
        let form =
            serde_json::json!({ "field": "", "clear_line": 2, "queue": "TIO", "bag": "JLSZ" });
        let partial = call(serde_json::json!({ "op": "play_solve", "form": form }));
        assert_eq!(partial["ok"], true, "{partial}");
        assert_eq!(partial["partial"], true);
        assert_eq!(partial["chance"], Value::Null);
        assert_eq!(partial["reveals"].as_array().unwrap().len(), 4);
        let full = call(serde_json::json!({ "op": "solve", "form": form }));
        assert_eq!(partial["hold_first"], full["hold_first"], "{full}");
        // With a piece held, play_solve is solve.
        let held = serde_json::json!({ "field": "", "clear_line": 2, "hold": "I", "queue": "TIO", "bag": "JLSZ" });
        let a = call(serde_json::json!({ "op": "play_solve", "form": held }));
        let b = call(serde_json::json!({ "op": "solve", "form": held }));
        assert_eq!(a, b);
    }

    #[test]
    fn play_solve_gives_the_full_answer_when_the_graph_answers_the_empty_hold_slot() {
        // Three columns filled, four rows: seven pieces to a PC. The hold slot empty, the
        // current piece and four previews, two of this bag to come: three pieces unknown,
        // as many as the previews, so the graph of this field answers it.
        let rows = "###......./###......./###......./###.......";
        let form = serde_json::json!({ "field": rows, "queue": "LSOLT", "bag": "OZSIJ" });
        let partial = call(serde_json::json!({ "op": "play_solve", "form": form }));
        assert_eq!(partial["ok"], true, "{partial}");
        assert_eq!(partial["partial"], true, "no graph: only holding first");
        assert_eq!(partial["chance"], Value::Null);
        let (loaded, _) = load_graph(&small_graph(rows), ("srs", "softdrop"), true, 1 << 16);
        assert_eq!(loaded["ok"], true, "{loaded}");
        let full = call(serde_json::json!({ "op": "play_solve", "form": form }));
        assert_eq!(full["ok"], true, "{full}");
        assert_eq!(full["partial"], Value::Null, "{full}");
        assert_eq!(full["engine"], "graph");
        // The values of the depth-first search without a graph, as `recommend` ranks them.
        let (chance, moves) = native(&form);
        assert_eq!(full["chance"], json(&chance));
        assert_eq!(full["chance"]["fraction"], "19/20");
        assert_eq!(full["moves"], json(&moves));
        assert_eq!(full["hold_first"], partial["hold_first"]);
        assert_eq!(full["hold_first"]["fraction"], "4/5");
        // Placements after a hold into the empty slot are ranked too.
        let moves = full["moves"].as_array().unwrap();
        assert!(moves.iter().any(|m| m["hold"] == true && m["piece"] == "S"));
        assert!(
            moves
                .iter()
                .any(|m| m["hold"] == false && m["piece"] == "L")
        );
        // It is `solve`'s answer.
        assert_eq!(
            full,
            call(serde_json::json!({ "op": "solve", "form": form }))
        );
        // With two previews the graph does not answer: partial.
        let short = serde_json::json!({ "field": rows, "queue": "LSO", "bag": "ZIJT" });
        let answer = call(serde_json::json!({ "op": "play_solve", "form": short }));
        assert_eq!(answer["partial"], true, "{answer}");
        assert_eq!(answer["chance"], Value::Null);
        crate::graph::unload();
    }

    #[test]
    fn play_estimates_what_takes_hours_once_the_graph_is_loaded() {
        // Seven pieces to a PC, T held, L current and no preview: six pieces unknown, the
        // depth-first search's; with the graph, Play estimates it from longer previews.
        let rows = "###......./###......./###......./###.......";
        let (loaded, _) = load_graph(&small_graph(rows), ("srs", "softdrop"), false, 1 << 16);
        assert_eq!(loaded["ok"], true, "{loaded}");
        let form = serde_json::json!({ "field": rows, "hold": "T", "queue": "L", "bag": "OZSIJ" });
        let answer = call(serde_json::json!({ "op": "play_solve", "form": form }));
        assert_eq!(answer["ok"], true, "{answer}");
        let made = &answer["estimate"];
        assert!(made["revealed"].as_u64().unwrap() >= 1, "{answer}");
        assert_eq!(made["samples"], ESTIMATE_SAMPLES);
        let moves = answer["moves"].as_array().unwrap();
        assert!(!moves.is_empty());
        let percents: Vec<f64> = moves
            .iter()
            .map(|m| m["chance"]["percent"].as_f64().unwrap())
            .collect();
        assert!(percents.windows(2).all(|w| w[0] >= w[1]), "best first");
        assert!(percents.iter().all(|p| (0.0..=100.0).contains(p)));
        assert_eq!(answer["chance"]["percent"].as_f64().unwrap(), percents[0]);
        assert!(answer["chance"]["std_error"].as_f64().unwrap() >= 0.0);
        assert!(
            moves
                .iter()
                .all(|m| m["keys"].is_string() && m["cells"].is_array())
        );
        // The same position, the same estimate.
        assert_eq!(
            answer,
            call(serde_json::json!({ "op": "play_solve", "form": form }))
        );
        // `solve` still asks for the exact answer; a quick position is answered exactly.
        let quick = serde_json::json!({ "field": rows, "hold": "T", "queue": "LOZSIJ", "bag": "" });
        let exact = call(serde_json::json!({ "op": "play_solve", "form": quick }));
        assert_eq!(exact["estimate"], Value::Null, "{exact}");
        assert!(exact["chance"]["fraction"].is_string());
        crate::graph::unload();
    }

    #[test]
    fn a_link_s_bad_parameters_are_listed() {
        let answer = call(serde_json::json!({ "op": "query", "query": "clear=x&hold=X&queue=T" }));
        assert_eq!(answer["ok"], true);
        assert_eq!(answer["form"]["queue"], "T");
        assert_eq!(answer["errors"][0]["key"], "clear");
        assert_eq!(answer["errors"][0]["input"], "clear_line");
        assert_eq!(answer["errors"][1]["key"], "hold");
        assert!(
            answer["errors"][1]["error"]
                .as_str()
                .unwrap()
                .starts_with("link: hold: column 1: 'X' is not a piece")
        );
    }

    #[test]
    fn path_answers_as_the_library_does() {
        // The PCO with I kept in hold: 840 queues, 711 with a PC, 63 unique solutions.
        let rows = "##.....###/###....###/####...###/###....###";
        let answer = call(serde_json::json!({
            "op": "path", "form": { "field": rows, "queue": "T" }, "pattern": "I,*p4",
        }));
        assert_eq!(answer["ok"], true, "{answer}");
        let field = pc_solver::PcField::new(rows.parse().unwrap(), 4).unwrap();
        let native = pc_solver::path(&field, &Rules::default(), &"I,*p4".parse().unwrap()).unwrap();
        let minimal = native.minimal();
        assert_eq!(answer["unique"], native.solutions.len());
        assert_eq!(answer["unique"], 63);
        assert_eq!(answer["queues"], native.queues.len());
        assert_eq!(answer["covered"], native.covered());
        assert_eq!(answer["covered"], 711);
        let shown = answer["minimal"].as_array().unwrap();
        assert_eq!(shown.len(), minimal.len());
        assert_eq!(shown.len(), 26);
        // The same solutions, with their queues, the most queues first.
        let mut expected: Vec<(String, usize)> = minimal
            .iter()
            .map(|&i| {
                let s = &native.solutions[i];
                (s.sfinder_csv(), s.queues.len())
            })
            .collect();
        let mut got: Vec<(String, usize)> = shown
            .iter()
            .map(|s| {
                let csv = s["csv"].as_str().unwrap().to_string();
                (csv, s["queues"].as_u64().unwrap() as usize)
            })
            .collect();
        assert!(got.windows(2).all(|w| w[0].1 >= w[1].1), "{got:?}");
        expected.sort();
        got.sort();
        assert_eq!(got, expected);
        for s in shown {
            // The PC drawn whole: every cell below the clear line filled, four of each
            // piece placed, the field's own blocks where they were.
            let rows_drawn: Vec<&str> = s["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap())
                .collect();
            assert_eq!(rows_drawn.len(), 4);
            assert!(
                rows_drawn.iter().all(|r| !r.contains('.')),
                "{rows_drawn:?}"
            );
            let grays: String = rows_drawn
                .iter()
                .map(|r| {
                    r.chars()
                        .map(|c| if c == 'X' { '#' } else { '.' })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("/");
            assert_eq!(grays, rows);
            let pieces = s["placements"].as_array().unwrap().len();
            assert_eq!(pieces, 4);
            let letters: usize = rows_drawn
                .iter()
                .map(|r| r.chars().filter(|&c| c != 'X').count())
                .sum();
            assert_eq!(letters, 4 * pieces);
            // One fumen page per placement, then the cleared field.
            let fumen = pc_fumen::decode(s["fumen"].as_str().unwrap()).unwrap();
            assert_eq!(fumen.pages.len(), pieces);
            assert_eq!(s["pages"].as_array().unwrap().len(), pieces + 1);
            assert!(
                s["url"]
                    .as_str()
                    .unwrap()
                    .ends_with(s["fumen"].as_str().unwrap())
            );
            let k = s["queues"].as_f64().unwrap();
            assert!((s["percent"].as_f64().unwrap() - 100.0 * k / 840.0).abs() < 1e-9);
        }
        assert_eq!(
            answer["query"],
            "field=%23%23.....%23%23%23/%23%23%23....%23%23%23/%23%23%23%23...%23%23%23/%23%23%23....%23%23%23&queue=T&kicks=srs&pattern=I,*p4"
        );
        assert_eq!(answer["solutions"], serde_json::json!([]));
        // One queue (Play mode's review): every solution it builds, listed.
        let one = call(serde_json::json!({
            "op": "path", "form": { "field": rows }, "pattern": "I,T,L,O,S", "list": 100,
        }));
        let native_one =
            pc_solver::path(&field, &Rules::default(), &"I,T,L,O,S".parse().unwrap()).unwrap();
        assert!(native_one.solutions.len() > 1);
        assert_eq!(one["queues"], 1, "{one}");
        assert_eq!(one["unique"], native_one.solutions.len());
        assert_eq!(one["minimal"].as_array().unwrap().len(), 1);
        let listed: Vec<&str> = one["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["csv"].as_str().unwrap())
            .collect();
        let expected: Vec<String> = native_one
            .solutions
            .iter()
            .map(|s| s.sfinder_csv())
            .collect();
        assert_eq!(listed, expected);
        // The link's parameter.
        let link = call(serde_json::json!({
            "op": "query", "query": "fumen=v115@9gB8EeF8DeG8CeF8DeC8JeAgH&pattern=I,*p4",
        }));
        assert_eq!(link["pattern"], "I,*p4", "{link}");
        assert_eq!(link["errors"], serde_json::json!([]));
        let bad = call(serde_json::json!({ "op": "query", "query": "pattern=I,*p8" }));
        assert_eq!(bad["pattern"], Value::Null);
        assert_eq!(bad["errors"][0]["input"], "pattern");
        assert!(
            bad["errors"][0]["error"]
                .as_str()
                .unwrap()
                .starts_with("link: pattern: line 1, column 5: cannot pick 8"),
            "{bad}"
        );
    }

    #[test]
    fn a_path_that_runs_out_of_fills_says_so() {
        let rows = "##.....###/###....###/####...###/###....###";
        let ask = |fills: u64| {
            call(serde_json::json!({
                "op": "path", "form": { "field": rows, "queue": "T" }, "pattern": "I,*p4",
                "fills": fills,
            }))
        };
        // Stopped before the first fill: nothing found, and the answer says it stopped.
        let stopped = ask(0);
        assert_eq!(stopped["ok"], true, "{stopped}");
        assert_eq!(
            (stopped["complete"].clone(), stopped["unique"].clone()),
            (false.into(), 0.into())
        );
        // Enough fills for the field: the whole answer.
        let whole = ask(1_000_000);
        assert_eq!(
            (whole["complete"].clone(), whole["unique"].clone()),
            (true.into(), 63.into())
        );
    }

    #[test]
    fn bad_patterns_are_messages() {
        let rows = "##.....###/###....###/####...###/###....###";
        let cases = [
            ("I,*p", "pattern", "pattern: line 1, column"),
            ("", "pattern", "pattern: no pattern"),
            (
                "I,T",
                "pattern",
                "the pattern gives 2 pieces but the perfect clear needs 4",
            ),
            ("I,*p4;T,*p3", "pattern", "line 2: 4 pieces"),
        ];
        for (pattern, input, message) in cases {
            let answer = call(serde_json::json!({
                "op": "path", "form": { "field": rows }, "pattern": pattern,
            }));
            assert_eq!(answer["ok"], false, "{pattern}");
            assert_eq!(answer["input"], input, "{pattern}: {answer}");
            let error = answer["error"].as_str().unwrap();
            assert!(error.contains(message), "{pattern}: {error}");
        }
        // Too many queues: refused before they are listed.
        let answer = call(serde_json::json!({
            "op": "path", "form": { "field": "" }, "pattern": "*p7,*p7",
        }));
        assert_eq!(answer["input"], "pattern", "{answer}");
        assert!(
            answer["error"]
                .as_str()
                .unwrap()
                .contains("more than the 1000000"),
            "{answer}"
        );
        // A bad field is the field's message.
        let answer = call(serde_json::json!({
            "op": "path", "form": { "field": "#........." }, "pattern": "*p7",
        }));
        assert_eq!(answer["input"], "field", "{answer}");
    }

    #[test]
    fn errors_are_answers() {
        let cases = [
            ("not json", "request", "bad request"),
            (r#"{"op":"dance"}"#, "request", "bad request"),
            (
                r#"{"op":"fumen","fumen":"v115@vh!"}"#,
                "field",
                "fumen: invalid character '!'",
            ),
            (
                r#"{"op":"solve","form":{"field":"","queue":"TSZLJI","bag":"ISZLJO"}}"#,
                "bag",
                "contradicts the bag state",
            ),
            (
                r##"{"op":"check","form":{"field":"#.........","queue":"T"}}"##,
                "field",
                "not a multiple of 4",
            ),
        ];
        for (request, input, message) in cases {
            let answer: Value = serde_json::from_str(&handle(request)).unwrap();
            assert_eq!(answer["ok"], false, "{request}");
            assert_eq!(answer["input"], input, "{request}: {answer}");
            let error = answer["error"].as_str().unwrap();
            assert!(error.contains(message), "{request}: {error}");
        }
    }
}
