//! [`PcPlayer`]: the 10-PC player.

use crate::game::{GameView, Play, Player, Rng};
use crate::heuristic::{Evaluator, handoff_clear_line};
use crate::tspin::TSpin;
use pc_bag::{cycle_phase, pieces_placed_mod_7};
use pc_solver::{
    BagState, Board32, Engine, Move, PcField, PcGraph, Piece, PieceSet, Position, Ratio, Rules,
    Searcher, Solver, SolverError, SolverOptions,
};
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The most orders of the unseen pieces a steered decision sums the carry over (two of
/// the last four pieces of a bag: 12).
const MAX_STEERED_ORDERS: usize = 12;

/// The most pieces not seen yet at a steered decision (with three, a steered decision
/// takes seconds, see `CHANGELOG.md`).
const MAX_STEERED_UNKNOWN: usize = 2;

/// States the player's known-queue searches may remember before they are forgotten.
const SEARCH_MEMO_LIMIT: usize = 4_000_000;

/// As [`SEARCH_MEMO_LIMIT`], after a sampled decision (whose searches are budgeted: what
/// they remember decides how far a budget goes, so the limit is part of how games play).
const SAMPLED_MEMO_LIMIT: usize = 2_000_000;

/// Every sequence of `length` distinct pieces from `pieces`, in order.
fn arrangements(pieces: &[Piece], length: usize) -> Vec<Vec<Piece>> {
    if length == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &p) in pieces.iter().enumerate() {
        let mut others = pieces.to_vec();
        others.remove(i);
        for mut tail in arrangements(&others, length - 1) {
            tail.insert(0, p);
            out.push(tail);
        }
    }
    out
}

/// The clear line of a PC started on an empty field.
pub const PC_CLEAR_LINE: u32 = 4;

/// How a [`PcPlayer`] made its decisions so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayerStats {
    /// Decisions by the exact solver.
    pub exact: u64,
    /// Decisions by the exact chances of the sampled ranking's first moves.
    pub guided: u64,
    /// Decisions by the clairvoyant chance.
    pub clairvoyant: u64,
    /// Decisions by sampled continuations.
    pub sampled: u64,
    /// Decisions by the heuristic fallback.
    pub fallback: u64,
    /// PCs given up after at least one move of theirs: the exact chance fell to 0 (or no
    /// move kept a PC possible) and the fallback took over.
    pub abandoned: u64,
}

/// How a decision was made (see [`PcPlayer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DecisionKind {
    /// By the exact adaptive solver.
    Exact,
    /// By the exact chances of the first moves of the sampled ranking
    /// ([`PcPlayer::with_guided`]).
    Guided,
    /// By the clairvoyant chance of each move.
    Clairvoyant,
    /// By sampled continuations.
    Sampled,
    /// By the heuristic fallback.
    Fallback,
}

/// A [`Player`] that builds perfect clear after perfect clear, as in the 10-PC challenge,
/// and falls back to the heuristic when a PC is out of reach. It uses `pc-solver`'s public
/// API only, so a bot author can build the same from it.
///
/// With the rules' PC field graph ([`PcPlayer::with_graph`]), every decision of a 4-line
/// PC from an empty field is **exact**: the move with the best exact chance with the
/// player's preview, from the graph's walk for the first decisions and from the
/// [`Solver`] for the rest, a game's first decision (the hold slot still empty, five or
/// six previews) included: the best of its placements and of its holds, each placing the
/// next piece at once as a game's move does. Moves
/// that keep the PC certain are told apart by the piece they can leave in hold for the
/// next PC ([`PcPlayer::with_carry`]). When the exact chance is 0, or the field is not a
/// PC field, the **fallback** [`Evaluator`] plays until the field is low and clean again
/// ([`handoff_clear_line`]), and the next PC starts there; on such a field (not one of the
/// graph's) the decisions are made as without a graph.
///
/// Without a graph, the first decisions of a PC would take the solver seconds, so they are
/// approximated:
///
/// - **Exact** once at most [`PcPlayer::with_exact_from`] pieces are left, or
///   [`PcPlayer::with_layered_from`] when the solver's layered search answers
///   ([`Engine::Layered`]). The solver is kept for the whole game, so the later decisions
///   of a PC reuse what the first exact one learned.
/// - **Guided** ([`PcPlayer::with_guided`]): the first decision of a PC when the hold slot
///   is filled: the exact chances of the sampled ranking's first moves, within a budget of
///   search states ([`PcPlayer::with_guided_states`]).
/// - **Clairvoyant** ([`PcPlayer::with_clairvoyant`]): the move whose field clears the most
///   of the bag's continuations with the whole queue known, within a budget of search
///   states.
/// - **Sampled**: otherwise, or when a budget runs out, each of the heuristic's best eight
///   moves is tried against eight continuations of the queue drawn from the bag state,
///   with the whole queue known and a few thousand search states per continuation; the
///   moves that clear a continuation go on to the next, and the first survivor in the
///   heuristic's order is played. This is an estimate, and a weak one.
///
/// The crate README has the rates these settings reach and the time a decision takes.
///
/// ```
/// use pc_bot::{Game, GameConfig, Limits, PcPlayer, Rules};
///
/// // The first PC of a seeded game with five previews.
/// let config = GameConfig::new(2).with_preview(5);
/// let mut player = PcPlayer::new(Rules::default(), 5)?;
/// let mut game = Game::new(config)?;
/// game.run(&mut player, Limits { pieces: Some(10), ..Limits::default() })?;
/// assert_eq!(game.stats().perfect_clears, 1);
/// assert_eq!(player.stats().fallback, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PcPlayer {
    rules: Rules,
    solver: Solver,
    preview: usize,
    /// The known-queue searches of the carry, steered, clairvoyant and sampled decisions.
    searcher: Searcher,
    /// Those of the provisional moves ([`PcPlayer::provisional`]).
    provisional_searcher: Searcher,
    fallback: Evaluator,
    exact_from: u32,
    layered_from: u32,
    guided: (u32, usize),
    guided_states: u64,
    clairvoyant_from: u32,
    clairvoyant_states: u64,
    /// Whether ties on a PC whose pieces are all in view go to the move that leaves the
    /// best piece in hold for the next PC.
    carry: bool,
    /// Whether a decision with the hold slot empty and the piece a hold reveals known
    /// holds and places exactly ([`PcPlayer::with_exact_opening`]).
    exact_opening: bool,
    /// The most pieces of a PC not known yet for which the graph's walk decides
    /// ([`PcPlayer::with_graph_unknown`]).
    graph_unknown: usize,
    rng: Rng,
    /// The field expected after the last move and its clear line, while a PC is built.
    building: Option<(Board32, u32)>,
    /// The field after the last decision's provisional move and its clear line
    /// ([`PcPlayer::provisional`]): a PC in progress too, should that move be played.
    building_provisional: Option<(Board32, u32)>,
    /// The same for the decision [`PcPlayer::provisional`] was last asked about, until
    /// [`Player::choose`] decides it.
    provisional_next: Option<(Board32, u32)>,
    last: Option<DecisionKind>,
    /// The exact chance of the last exact decision.
    chance: Option<Ratio>,
    stats: PlayerStats,
}

/// The fewest unknown pieces of a decision by the graph's walk that
/// [`PcPlayer::provisional`] answers besides the starts of a PC (fewer take the walk a
/// fraction of a second).
const PROVISIONAL_UNKNOWN: usize = 5;

/// What a sampled decision tries: continuations of the queue per move, and the states
/// one search may expand before it counts as a failure.
#[derive(Clone, Copy, Debug)]
struct Sampling {
    draws: usize,
    states: u64,
}

/// A sampled decision's budget.
const SAMPLED: Sampling = Sampling {
    draws: 8,
    states: 4_000,
};

/// A provisional move's budget ([`PcPlayer::provisional`]): a small part of the sampled
/// decision's, so that it comes well within a think time and delays the exact decision
/// after it little.
const PROVISIONAL: Sampling = Sampling {
    draws: 2,
    states: 1_000,
};
/// Default [`PcPlayer::with_clairvoyant`]: pieces left, search states.
pub const DEFAULT_CLAIRVOYANT: (u32, u64) = (9, 3_000_000);
/// Moves a sampled decision tries against the continuations: the heuristic's best.
const CANDIDATES: usize = 8;
/// Default [`PcPlayer::with_exact_from`].
pub const DEFAULT_EXACT_FROM: u32 = 8;
/// Default [`PcPlayer::with_layered_from`].
pub const DEFAULT_LAYERED_FROM: u32 = 9;

/// Default [`PcPlayer::with_guided`]: pieces left (0: off), moves valued exactly.
pub const DEFAULT_GUIDED: (u32, usize) = (10, 8);

/// Default [`PcPlayer::with_guided_states`].
pub const DEFAULT_GUIDED_STATES: u64 = 250_000;

/// A move tried by the clairvoyant and sampled decisions.
struct Candidate<'v> {
    mv: Move,
    /// The field after it.
    child: PcField,
    hold_after: Option<Piece>,
    /// The preview pieces not used by it.
    rest: &'v [Piece],
    /// The heuristic's score, which breaks ties.
    score: f64,
}

/// What [`PcPlayer::sampled_ranking`] finds.
enum Ranking {
    /// A move that makes the PC.
    Clear(Move),
    /// The moves that keep a PC possible: the ranked ones best first, then every other
    /// in the heuristic's order.
    Moves(Vec<Move>),
}

/// What [`PcPlayer::candidates`] finds.
enum Moves<'v> {
    /// A move that makes the PC.
    Clear(Move),
    /// The moves that keep a PC possible.
    Keep(Vec<Candidate<'v>>),
}

impl PcPlayer {
    /// A player for games with these rules (they must be the game's) and this preview
    /// length (0 to [`MAX_PREVIEW`](crate::MAX_PREVIEW), the solver's limit; the game's
    /// preview must be as long).
    pub fn new(rules: Rules, preview: usize) -> Result<PcPlayer, SolverError> {
        let options = SolverOptions {
            preview,
            threads: 1,
            ..SolverOptions::default()
        };
        let solver = Solver::with_options(rules.clone(), options)?;
        Ok(PcPlayer {
            searcher: Searcher::new(rules.clone()),
            provisional_searcher: Searcher::new(rules.clone()),
            rules,
            solver,
            preview,
            fallback: Evaluator::default(),
            exact_from: DEFAULT_EXACT_FROM,
            layered_from: DEFAULT_LAYERED_FROM,
            guided: DEFAULT_GUIDED,
            guided_states: DEFAULT_GUIDED_STATES,
            clairvoyant_from: DEFAULT_CLAIRVOYANT.0,
            clairvoyant_states: DEFAULT_CLAIRVOYANT.1,
            carry: true,
            exact_opening: true,
            graph_unknown: 6,
            rng: Rng::new(0),
            building: None,
            building_provisional: None,
            provisional_next: None,
            last: None,
            chance: None,
            stats: PlayerStats::default(),
        })
    }

    /// The same player deciding every 4-line PC from an empty field exactly with the
    /// rules' PC field graph (see [`PcPlayer`]): the graph must have been built for
    /// the player's rules ([`SolverError::GraphRules`] otherwise). What the solver
    /// learned so far is forgotten.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use pc_bot::{PcGraph, PcPlayer, Rules};
    ///
    /// let rules = Rules::default();
    /// let path = PcGraph::cache_path(&rules).expect("a cache folder");
    /// let graph = Arc::new(PcGraph::load(&path, &rules)?);
    /// let player = PcPlayer::new(rules, 5)?.with_graph(graph)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_graph(mut self, graph: Arc<PcGraph>) -> Result<PcPlayer, SolverError> {
        let options = SolverOptions {
            graph: Some(graph),
            ..self.solver.options().clone()
        };
        self.solver = Solver::with_options(self.rules.clone(), options)?;
        Ok(self)
    }

    /// Whether the player decides with a graph ([`PcPlayer::with_graph`]).
    pub fn has_graph(&self) -> bool {
        self.solver.options().graph.is_some()
    }

    /// The exact solver decides once at most `pieces` pieces are left in the PC (at most
    /// 10; [`DEFAULT_EXACT_FROM`] by default). Without a graph, the cost of a decision
    /// grows about tenfold with each piece more. With a graph, the decisions it answers
    /// are exact whatever this says.
    pub fn with_exact_from(mut self, pieces: u32) -> PcPlayer {
        self.exact_from = pieces.min(10);
        self
    }

    /// For the decisions a graph does not answer (or without one): with more than
    /// [`PcPlayer::with_exact_from`] pieces left and at most `pieces`
    /// ([`DEFAULT_LAYERED_FROM`] by default, at most 10; 0 turns it off), the exact solver
    /// decides when its layered search answers the decision ([`Engine::Layered`]: the
    /// hold slot filled and three or four pieces not revealed yet). With an empty hold
    /// slot the depth-first search could take minutes, so such decisions stay
    /// clairvoyant or sampled.
    pub fn with_layered_from(mut self, pieces: u32) -> PcPlayer {
        self.layered_from = pieces.min(10);
        self
    }

    /// For the decisions a graph does not answer (or without one): with more pieces left
    /// than [`PcPlayer::with_layered_from`] and at most `pieces` (at most 10; 0 turns it
    /// off), when the layered search applies (the hold slot filled): the sampled
    /// continuations rank the moves (then every other move follows in the heuristic's
    /// order), the first `moves` of that ranking are valued exactly (stopping at the
    /// first certain one) within [`PcPlayer::with_guided_states`] with
    /// [`Solver::chances_of`], and the best of them is played ([`DecisionKind::Guided`]).
    /// [`DEFAULT_GUIDED`] by default.
    pub fn with_guided(mut self, pieces: u32, moves: usize) -> PcPlayer {
        self.guided = (pieces.min(10), moves);
        self
    }

    /// The most search states a guided decision ([`PcPlayer::with_guided`]) may value
    /// ([`DEFAULT_GUIDED_STATES`] by default): the moves not valued by then are not
    /// played, and when not even the first one is, the sampled ranking's first move is
    /// (a [`DecisionKind::Sampled`] decision). Fields whose fill orders the solver
    /// remembers from earlier decisions cost nothing, so whether a position is valued
    /// within the budget depends on what the game searched before (a game still replays
    /// the same).
    pub fn with_guided_states(mut self, states: u64) -> PcPlayer {
        self.guided_states = states;
        self
    }

    /// For the decisions a graph does not answer (or without one): with more than
    /// [`PcPlayer::with_exact_from`] pieces left and at most `pieces`
    /// ([`DEFAULT_CLAIRVOYANT`] by default, at most 10; 0 turns it off), moves are ranked
    /// by their clairvoyant chance ([`Searcher::clairvoyant_count`]: the share of the
    /// bag's continuations for which a PC exists with the whole queue known, an upper
    /// bound on the exact chance), with the heuristic breaking ties. The searches expand
    /// at most `states` states in all, and the decision is sampled when that is not
    /// enough.
    pub fn with_clairvoyant(mut self, pieces: u32, states: u64) -> PcPlayer {
        self.clairvoyant_from = pieces.min(10);
        self.clairvoyant_states = states;
        self
    }

    /// Whether the moves that keep the PC certain are told apart by the piece they can
    /// leave in hold for the next PC ([`pc_bag::carry_rank`]). Once every piece the
    /// PC needs is in view, the move that can leave the best piece is played. Before
    /// that, when at most two pieces are not seen yet and they are the rest of the
    /// current bag in at most 12 orders (a *steered* decision), the moves are put in order
    /// of the best piece each can leave, summed over those orders with the whole queue
    /// known, and the first of them whose exact chance is 1 is played. Off, the exact
    /// solver's first best move is played. On by default.
    pub fn with_carry(mut self, carry: bool) -> PcPlayer {
        self.carry = carry;
        self
    }

    /// Whether a decision with the hold slot empty that the graph does not answer (or
    /// without one), when the piece a hold would reveal is already known (the last of its
    /// bag, as at the start of a game, where the preview shows six pieces of the first
    /// bag), holds the current piece and places the next one where the exact chance is
    /// best: the position after the hold is one the layered search or the graph answers
    /// ([`DecisionKind::Exact`]). Without it, such a decision is sampled. Placing the
    /// current piece at once is not valued there, so the hold is always pressed. On by
    /// default; without a graph it is the slowest decision of a game (seconds).
    pub fn with_exact_opening(mut self, exact: bool) -> PcPlayer {
        self.exact_opening = exact;
        self
    }

    /// The graph's walk decides the decisions it answers with at most `pieces` of the
    /// PC's pieces not known yet (a piece the bag forces counts as known): 6 by default,
    /// every one it answers. The first decision of a game with four previews leaves six
    /// unknown (two of them the first bag's), which takes the walks of both orders of
    /// those two, seconds; with 5 that decision is sampled instead, as a bot that must
    /// answer within a few hundred milliseconds needs.
    pub fn with_graph_unknown(mut self, pieces: usize) -> PcPlayer {
        self.graph_unknown = pieces;
        self
    }

    /// The flag that stops a decision under way from another thread ([`Solver::set_stop`]:
    /// the graph's walk and the depth-first search end soon once it is set). A decision
    /// stopped that way plays as if no PC were in reach (the fallback's move, of no use
    /// to the caller that stopped it); clear the flag, or set another, before the next.
    pub fn set_stop(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.solver.set_stop(flag);
    }

    /// The threads a decision may use ([`SolverOptions::threads`]; 1 by default, 0 counts
    /// as 1): with a graph, the walk of the first pieces of a PC shares out the fields it
    /// ends on, so the start of a PC with four previews takes less time (`pc-solver`'s and
    /// this crate's READMEs have the figures). The decisions are the same. What the solver
    /// learned so far is forgotten.
    pub fn with_threads(mut self, threads: usize) -> Result<PcPlayer, SolverError> {
        let options = SolverOptions {
            threads,
            ..self.solver.options().clone()
        };
        self.solver = Solver::with_options(self.rules.clone(), options)?;
        Ok(self)
    }

    /// The seed of the sampled continuations (0 by default), so games replay.
    pub fn with_seed(mut self, seed: u64) -> PcPlayer {
        self.rng = Rng::new(seed);
        self
    }

    /// The evaluator that plays when no PC is in reach.
    pub fn with_fallback(mut self, evaluator: Evaluator) -> PcPlayer {
        self.fallback = evaluator;
        self
    }

    /// How the decisions so far were made.
    pub fn stats(&self) -> PlayerStats {
        self.stats
    }

    /// How the last decision was made.
    pub fn last_decision(&self) -> Option<DecisionKind> {
        self.last
    }

    /// The exact chance of a PC after the last decision, when the exact solver made it
    /// (for a guided decision: the exact chance of the move played).
    pub fn last_chance(&self) -> Option<Ratio> {
        self.chance
            .filter(|_| matches!(self.last, Some(DecisionKind::Exact | DecisionKind::Guided)))
    }

    /// The clear line of the PC being built, if one is.
    pub fn clear_line(&self) -> Option<u32> {
        self.building.map(|(_, line)| line)
    }

    /// The clear line for this field: the PC in progress, a new 4-line PC on an empty
    /// field, or after the fallback the highest line a clean, low field allows.
    fn pc_line(&self, board: &Board32) -> Option<u32> {
        for (expected, line) in self.building.iter().chain(&self.building_provisional) {
            if expected == board {
                return Some(*line);
            }
        }
        if board.is_empty() {
            return Some(PC_CLEAR_LINE);
        }
        let lowest = handoff_clear_line(board)?;
        // Two more rows keep the cell count a multiple of 4: more pieces, more ways.
        Some(if lowest + 2 <= PC_CLEAR_LINE {
            lowest + 2
        } else {
            lowest
        })
    }

    fn pc_move(&mut self, view: &GameView<'_>, line: u32) -> Option<(Play, DecisionKind)> {
        let field = PcField::new(view.board, line).ok()?;
        if !field.can_be_filled() || view.preview.len() != self.preview {
            return None;
        }
        let needed = field.pieces_needed();
        let in_view = 1 + view.preview.len() + view.hold.is_some() as usize;
        if self.carry && self.rules.hold && in_view > needed as usize {
            let found = self.carry_move(view, field);
            return found.map(|m| (m, DecisionKind::Exact));
        }
        if self.carry && self.rules.hold && view.hold.is_some() {
            if let Some(found) = self.steered_move(view, field, line) {
                return Some((found, DecisionKind::Exact));
            }
        }
        let position = self.position(view, line);
        // Which engine the solver would answer with decides how this decision is made.
        let engine = self.solver.engine_for(&position).ok();
        let by_graph = self.graph_unknown_of(&position).is_some();
        // The graph answers the first decision of a game too (the hold slot empty).
        if self.exact_opening && !by_graph {
            if let Some(found) = self.opening_move(view, line) {
                return Some((found, DecisionKind::Exact));
            }
        }
        if needed <= self.exact_from || by_graph {
            let found = self.exact_move(view, &position).ok().flatten();
            return found.map(|m| (m, DecisionKind::Exact));
        }
        let layered = engine == Some(Engine::Layered);
        if needed <= self.layered_from && layered {
            let found = self.exact_move(view, &position).ok().flatten();
            return found.map(|m| (m, DecisionKind::Exact));
        }
        if needed <= self.guided.0 && self.guided.1 > 0 && layered {
            if let Some((found, kind)) = self.guided_move(view, field, &position) {
                return found.map(|m| (m, kind));
            }
        }
        if needed <= self.clairvoyant_from {
            if let Some(found) = self.clairvoyant_move(view, field) {
                return found.map(|m| (m, DecisionKind::Clairvoyant));
            }
        }
        self.sampled_move(view, field, SAMPLED)
            .map(|m| (m, DecisionKind::Sampled))
    }

    /// The pieces of the PC not known yet when the graph's walk decides the position
    /// ([`PcPlayer::with_graph_unknown`]).
    fn graph_unknown_of(&self, position: &Position) -> Option<usize> {
        if self.solver.engine_for(position).ok()? != Engine::Graph {
            return None;
        }
        let unknown = self.solver.unknown_pieces(position).ok()?;
        (unknown <= self.graph_unknown).then_some(unknown)
    }

    /// A quick move for a decision that [`Player::choose`] takes long on, for a caller
    /// short of time to play if `choose` is not done in time (a bot's think time): at the
    /// start of a PC from the empty field, and where the graph's walk decides with five
    /// or more of the PC's pieces not known yet (a fraction of a second to seconds), the
    /// move of a sampled decision on a small budget (a small part of the full one's work);
    /// `None` for the decisions `choose` makes quickly.
    ///
    /// Ask it before `choose` of the same view. The player decides this and every later
    /// position as it would have (the samples' random state is put back, and their
    /// searches remember on their own) and counts nothing; it also takes the field after
    /// this move as the PC in progress, should the caller play it.
    pub fn provisional(&mut self, view: &GameView<'_>) -> Option<Play> {
        self.provisional_next = None;
        let line = self.pc_line(&view.board)?;
        let field = PcField::new(view.board, line).ok()?;
        if !field.can_be_filled() || view.preview.len() != self.preview {
            return None;
        }
        let position = self.position(view, line);
        // The start of a PC from the empty field is the slowest decision of a PC however
        // it is made (the graph's widest walks, or sampled at the full budget).
        let start = view.board.is_empty();
        let walked_long = self
            .graph_unknown_of(&position)
            .is_some_and(|unknown| unknown >= PROVISIONAL_UNKNOWN);
        if !start && !walked_long {
            return None;
        }
        // On a searcher of its own: what the searches of a budget find depends on what
        // they remember, and the player's later decisions must not.
        let (rng, chance) = (self.rng.clone(), self.chance);
        std::mem::swap(&mut self.searcher, &mut self.provisional_searcher);
        let play = self.sampled_move(view, field, PROVISIONAL);
        std::mem::swap(&mut self.searcher, &mut self.provisional_searcher);
        (self.rng, self.chance) = (rng, chance);
        let play = play?;
        let (after, cleared) = field.place_and_clear(&play.mv.placement);
        let left = line - cleared.count_ones();
        self.provisional_next =
            (left > 0 && !after.board().is_empty()).then_some((*after.board(), left));
        Some(play)
    }

    /// With the hold slot empty and the piece a hold reveals known: hold, and place the
    /// next piece where the exact chance is best ([`PcPlayer::with_exact_opening`]).
    /// `None` when that does not apply, neither the layered search nor the graph answers
    /// the position after the hold, or no placement keeps a chance.
    fn opening_move(&mut self, view: &GameView<'_>, line: u32) -> Option<Play> {
        let remaining = view.bag.remaining();
        if !self.rules.hold || view.hold.is_some() || remaining.len() != 1 {
            return None;
        }
        let (&next, rest) = view.preview.split_first()?;
        let revealed = remaining.first()?;
        let mut preview = rest.to_vec();
        preview.push(revealed);
        let position = Position::new(view.board, next)
            .with_clear_line(line)
            .with_hold(Some(view.current))
            .with_preview(&preview)
            .with_bag(PieceSet::EMPTY)
            .with_hold_used(true);
        let engine = self.solver.engine_for(&position).ok()?;
        if !matches!(engine, Engine::Layered | Engine::Graph) {
            return None;
        }
        let best = self.solver.best_move(&position).ok()?;
        let placement = best.best?.mv.placement;
        if best.chance.is_zero() {
            return None;
        }
        let found = self.legal(view, Move::hold_then(placement))?;
        self.chance = Some(best.chance);
        Some(found)
    }

    /// The decision as the solver takes it.
    fn position(&self, view: &GameView<'_>, line: u32) -> Position {
        Position::new(view.board, view.current)
            .with_clear_line(line)
            .with_hold(view.hold)
            .with_preview(view.preview)
            .with_bag(view.bag.remaining())
    }

    /// Forgets what the known-queue searches remember past `limit` states.
    fn bound_search_memory(&mut self, limit: usize) {
        if self.searcher.memo_len() > limit {
            self.searcher.clear();
        }
    }

    /// The move whose child clears the most continuations of the bag with the whole queue
    /// known (the heuristic breaks ties); `None` when more pieces are unknown than the
    /// clairvoyant search takes, `Some(None)` when no move can clear.
    fn clairvoyant_move(&mut self, view: &GameView<'_>, field: PcField) -> Option<Option<Play>> {
        let candidates = match self.candidates(view, field) {
            Moves::Clear(mv) => return Some(self.legal(view, mv)),
            Moves::Keep(candidates) => candidates,
        };
        // Only moves the game allows, with their keys.
        let mut candidates: Vec<(Candidate, Play)> = candidates
            .into_iter()
            .filter_map(|c| {
                let play = self.legal(view, c.mv)?;
                Some((c, play))
            })
            .collect();
        // The heuristic's order settles ties, and puts likely good moves first so that
        // the others are cut off sooner.
        candidates.sort_by(|a, b| b.0.score.total_cmp(&a.0.score));
        // After any move the same pieces are in view (the hold slot and the preview
        // trade places); the last piece of a bag is known before it is seen.
        let known = view.preview.len() + view.hold.is_some() as usize;
        let mut unknown = (field.pieces_needed().saturating_sub(1) as usize
            + self.rules.hold as usize)
            .saturating_sub(known);
        let mut bag = view.bag;
        let mut last_of_bag = None;
        if unknown > 0 && bag.remaining().len() == 1 {
            last_of_bag = bag.remaining().first();
            bag = BagState::FRESH;
            unknown -= 1;
        }
        self.searcher.set_state_limit(Some(self.clairvoyant_states));
        // In the heuristic's order, which breaks ties: a move that clears every
        // continuation, when there is one, usually comes early and cuts the rest off at
        // once.
        let mut best: Option<(u64, &Play)> = None;
        let mut queue = Vec::new();
        for (c, play) in &candidates {
            queue.clear();
            queue.extend(c.rest.iter().copied().chain(last_of_bag));
            let beat = best.map_or(0, |(count, _)| count);
            let cleared = self.searcher.clairvoyant_count(
                &c.child,
                c.hold_after,
                &queue,
                bag,
                unknown,
                Some(beat),
            );
            match cleared {
                Ok(Some(cleared)) => best = Some((cleared, play)),
                Ok(None) => {}
                // More pieces unseen than a clairvoyant count takes: leave the decision
                // to samples.
                Err(_) => {
                    self.searcher.set_state_limit(None);
                    return None;
                }
            }
        }
        self.searcher.set_state_limit(None);
        if self.searcher.take_ran_out() {
            // Counts cut short by the budget are not counts: leave the decision to samples.
            return None;
        }
        let found = best.map(|(_, play)| play.clone());
        self.bound_search_memory(SEARCH_MEMO_LIMIT);
        Some(found)
    }

    /// The moves that keep a PC possible, or (`Err`) the move that makes it now, with the
    /// chance set to 1.
    fn keep_or_clear<'v>(
        &mut self,
        view: &GameView<'v>,
        field: PcField,
    ) -> Result<Vec<Candidate<'v>>, Option<Play>> {
        match self.candidates(view, field) {
            Moves::Clear(mv) => {
                self.chance = Some(Ratio::ONE);
                Err(self.legal(view, mv))
            }
            Moves::Keep(candidates) => Ok(candidates),
        }
    }

    /// With every piece of the PC in view, a move that keeps the PC certain and leaves
    /// the best piece in hold for the next PC ([`pc_bag::carry_rank`]; the heuristic
    /// breaks ties); `None` when no move keeps a PC possible.
    fn carry_move(&mut self, view: &GameView<'_>, field: PcField) -> Option<Play> {
        let candidates = match self.keep_or_clear(view, field) {
            Ok(candidates) => candidates,
            Err(clear) => return clear,
        };
        let in_view = 1 + view.preview.len() + view.hold.is_some() as usize;
        let placed = pieces_placed_mod_7(view.bag.remaining().len(), in_view);
        let phase = cycle_phase(placed + u64::from(field.pieces_needed()));
        let mut ranked: Vec<(u16, f64, Move)> = Vec::new();
        for c in &candidates {
            let rank = self
                .searcher
                .best_carry_rank(&c.child, c.hold_after, c.rest, phase);
            if let Some(rank) = rank {
                ranked.push((rank, c.score, c.mv));
            }
        }
        self.bound_search_memory(SEARCH_MEMO_LIMIT);
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)));
        let found = ranked.iter().find_map(|&(_, _, mv)| self.legal(view, mv));
        self.chance = Some(if found.is_some() {
            Ratio::ONE
        } else {
            Ratio::ZERO
        });
        found
    }

    /// Before every piece of the PC is in view, when the pieces not seen yet are the rest
    /// of the current bag in some order (at most [`MAX_STEERED_ORDERS`] orders): the moves
    /// in order of the carry they can leave ([`pc_bag::carry_rank`], summed over
    /// those orders with the whole queue known), and the first of them whose exact chance
    /// is 1 is played. `None` when no move is certain: the other ways decide then.
    fn steered_move(&mut self, view: &GameView<'_>, field: PcField, line: u32) -> Option<Play> {
        let needed = field.pieces_needed() as usize;
        let in_view = 2 + view.preview.len();
        // A PC with hold uses one piece more than it places.
        let unknown = (needed + 1)
            .checked_sub(in_view)
            .filter(|&u| (1..=MAX_STEERED_UNKNOWN).contains(&u))?;
        let bag: Vec<Piece> = view.bag.remaining().iter().collect();
        let orders = arrangements(&bag, unknown);
        if orders.is_empty() || orders.len() > MAX_STEERED_ORDERS {
            return None;
        }
        let candidates = match self.keep_or_clear(view, field) {
            Ok(candidates) => candidates,
            Err(clear) => return clear,
        };
        let placed = pieces_placed_mod_7(view.bag.remaining().len(), in_view);
        let phase = cycle_phase(placed + needed as u64);
        let mut scored: Vec<(u32, f64, Move)> = Vec::new();
        let mut queue = Vec::new();
        for c in &candidates {
            let mut total = 0;
            for order in &orders {
                queue.clear();
                queue.extend_from_slice(c.rest);
                queue.extend_from_slice(order);
                let best = self
                    .searcher
                    .best_carry_rank(&c.child, c.hold_after, &queue, phase);
                total += best.map_or(0, u32::from);
            }
            if total > 0 {
                scored.push((total, c.score, c.mv));
            }
        }
        self.bound_search_memory(SEARCH_MEMO_LIMIT);
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)));
        let position = self.position(view, line);
        // With two pieces unseen at most, the solver ranks every move in milliseconds.
        let ranked = self.solver.recommend(&position).ok()?;
        let certain: HashSet<Move> = ranked
            .moves
            .iter()
            .filter(|m| m.chance.is_one())
            .map(|m| m.mv)
            .collect();
        let &(_, _, mv) = scored.iter().find(|&&(_, _, mv)| certain.contains(&mv))?;
        self.chance = Some(Ratio::ONE);
        self.legal(view, mv)
    }

    /// The move with the best exact chance; `None` when it is 0 (or no move with a chance
    /// is legal in the game).
    fn exact_move(
        &mut self,
        view: &GameView<'_>,
        position: &Position,
    ) -> Result<Option<Play>, SolverError> {
        // With the hold slot empty, holding first and placing once the next piece shows
        // is often best, which a game's move cannot do: the full ranking at once.
        let empty_slot = self.rules.hold && position.hold.is_none() && !position.hold_used;
        if !empty_slot {
            let best = self.solver.best_move(position)?;
            self.chance = Some(best.chance);
            if best.chance.is_zero() {
                return Ok(None);
            }
            if let Some(m) = best.best {
                if let Some(play) = self.legal(view, m.mv) {
                    return Ok(Some(play));
                }
            }
        }
        // Holding into the empty slot is best when the piece it reveals is seen first, but
        // the game places at once; or the best placement has no path from the spawn. The
        // full ranking gives the best placement the game allows, chosen blind.
        let ranked = self.solver.recommend(position)?;
        let found = ranked
            .moves
            .iter()
            .filter(|m| !m.chance.is_zero())
            .find_map(|m| Some((m.chance, self.legal(view, m.mv)?)));
        Ok(found.map(|(chance, play)| {
            self.chance = Some(chance);
            play
        }))
    }

    /// The moves of a PC decision: one that makes the PC at once, or else those that
    /// keep it possible, one per field and hold slot they lead to.
    fn candidates<'v>(&self, view: &GameView<'v>, field: PcField) -> Moves<'v> {
        let mut candidates = Vec::new();
        let mut seen = HashSet::new();
        for turn in view.turns() {
            let Ok(set) = view.placements(turn.piece) else {
                continue;
            };
            for placement in set.iter() {
                if placement.rows().1 >= field.clear_line() {
                    continue;
                }
                let mv = Move {
                    hold: turn.hold,
                    placement,
                };
                let child = field.place(&placement);
                if child.is_clear() {
                    return Moves::Clear(mv);
                }
                if !child.can_be_filled() || !seen.insert((child, turn.hold_after)) {
                    continue;
                }
                let score = self
                    .fallback
                    .evaluate(&view.board, &placement, TSpin::None)
                    .map_or(f64::NEG_INFINITY, |e| e.score);
                candidates.push(Candidate {
                    mv,
                    child,
                    hold_after: turn.hold_after,
                    rest: &view.preview[turn.queue_used..],
                    score,
                });
            }
        }
        Moves::Keep(candidates)
    }

    /// The best of the first moves of the sampled ranking by their exact values (see
    /// [`PcPlayer::with_guided`]), with how it was decided; `None` when the solver does not
    /// answer or every one of them is valued 0 (the other ways decide then), `Some((None,
    /// _))` when the move is not one the game allows. When the budget leaves moves unvalued
    /// and none valued beats 0, the first unvalued one is played (a sampled decision).
    fn guided_move(
        &mut self,
        view: &GameView<'_>,
        field: PcField,
        position: &Position,
    ) -> Option<(Option<Play>, DecisionKind)> {
        let ranking = match self.sampled_ranking(view, field, SAMPLED) {
            Ranking::Clear(mv) => {
                return Some((self.legal(view, mv), DecisionKind::Guided));
            }
            Ranking::Moves(moves) => moves,
        };
        let mut tried = ranking;
        tried.truncate(self.guided.1);
        let values = self
            .solver
            .chances_of(position, &tried, Some(self.guided_states))
            .ok()?;
        // The first of the best: the sampled ranking breaks ties.
        let mut best: Option<(Ratio, Move)> = None;
        let mut unvalued = None;
        for (&mv, v) in tried.iter().zip(values) {
            match v {
                Some(v) if best.is_none_or(|(b, _)| v > b) => best = Some((v, mv)),
                Some(_) => {}
                None => {
                    unvalued.get_or_insert(mv);
                }
            }
        }
        match (best, unvalued) {
            (Some((chance, mv)), _) if !chance.is_zero() => {
                self.chance = Some(chance);
                Some((self.legal(view, mv), DecisionKind::Guided))
            }
            // Out of budget before a move with a chance was found (after a certain move
            // nothing is left unvalued): the ranking decides among the moves not valued.
            (_, Some(mv)) => Some((self.legal(view, mv), DecisionKind::Sampled)),
            (Some((chance, _)), None) => {
                self.chance = Some(chance);
                None
            }
            (None, None) => None,
        }
    }

    /// The move that clears the sampled continuations best (see [`PcPlayer`]).
    fn sampled_move(
        &mut self,
        view: &GameView<'_>,
        field: PcField,
        sampling: Sampling,
    ) -> Option<Play> {
        match self.sampled_ranking(view, field, sampling) {
            Ranking::Clear(mv) => self.legal(view, mv),
            Ranking::Moves(moves) => self.legal(view, *moves.first()?),
        }
    }

    /// The moves ranked by the sampled continuations: those that clear the most
    /// telling ones first, the heuristic breaking ties (see [`PcPlayer`]).
    fn sampled_ranking(
        &mut self,
        view: &GameView<'_>,
        field: PcField,
        sampling: Sampling,
    ) -> Ranking {
        let mut candidates = match self.candidates(view, field) {
            Moves::Clear(mv) => return Ranking::Clear(mv),
            Moves::Keep(candidates) => candidates,
        };
        // Every move in the heuristic's order, to follow the ranked ones.
        let mut everything: Vec<(f64, Move)> = candidates.iter().map(|c| (c.score, c.mv)).collect();
        everything.sort_by(|a, b| b.0.total_cmp(&a.0));
        // Overhangs early in a PC need exact line clears later: try clean moves when
        // there are any.
        if candidates.iter().any(|c| c.child.board().holes() == 0) {
            candidates.retain(|c| c.child.board().holes() == 0);
        }
        // The heuristic's order settles ties.
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
        candidates.truncate(CANDIDATES);
        let draws = self.draws(view.bag, field.pieces_needed() as usize + 1, sampling.draws);
        // Continuations are tried in turn: the moves that clear one (if any does) go on to
        // the next, so a move is chosen by the first continuation that tells them apart.
        let mut alive: Vec<usize> = (0..candidates.len()).collect();
        let mut queue = Vec::new();
        for draw in &draws {
            let mut cleared = Vec::new();
            for &i in &alive {
                let Candidate {
                    child,
                    hold_after,
                    rest,
                    ..
                } = candidates[i];
                queue.clear();
                queue.extend_from_slice(rest);
                queue.extend_from_slice(draw);
                let found =
                    self.searcher
                        .has_solution_within(&child, hold_after, &queue, sampling.states);
                if found == Some(true) {
                    cleared.push(i);
                }
            }
            if !cleared.is_empty() {
                alive = cleared;
            }
        }
        self.bound_search_memory(SAMPLED_MEMO_LIMIT);
        let mut order = alive.clone();
        order.extend((0..candidates.len()).filter(|i| !alive.contains(i)));
        let mut ranked: Vec<Move> = order.into_iter().map(|i| candidates[i].mv).collect();
        for (_, mv) in everything {
            if !ranked.contains(&mv) {
                ranked.push(mv);
            }
        }
        Ranking::Moves(ranked)
    }

    /// `count` continuations of the queue after the preview, `len` pieces each (more
    /// than any PC here needs), drawn from the bag state.
    fn draws(&mut self, bag: BagState, len: usize, count: usize) -> Vec<Vec<Piece>> {
        (0..count)
            .map(|_| {
                let mut left = bag.drawable();
                (0..len)
                    .map(|_| {
                        if left.is_empty() {
                            left = PieceSet::ALL;
                        }
                        let pick = self.rng.below(left.len() as u64) as usize;
                        let piece = left.iter().nth(pick).expect("pick < len");
                        left.remove(piece);
                        piece
                    })
                    .collect()
            })
            .collect()
    }

    /// The move as the game plays it, with its keys from the spawn, if the game allows
    /// it.
    fn legal(&self, view: &GameView<'_>, mv: Move) -> Option<Play> {
        let piece = if mv.hold {
            view.hold_piece()?
        } else {
            view.current
        };
        if piece != mv.placement.piece() {
            return None;
        }
        let path = self
            .rules
            .generator()
            .path_from_spawn(&view.board, &mv.placement, view.spawn)
            .ok()
            .flatten()?;
        Some(Play::from(mv).with_path(path))
    }
}

impl Player for PcPlayer {
    fn choose(&mut self, view: &GameView<'_>) -> Option<Play> {
        let line = self.pc_line(&view.board);
        // The fields after this decision's moves: the chosen one's below, the provisional
        // one's if it was asked for.
        self.building_provisional = self.provisional_next.take();
        if let Some(line) = line {
            if let Some((play, kind)) = self.pc_move(view, line) {
                let field = PcField::new(view.board, line).expect("pc_move checked it");
                let (after, cleared) = field.place_and_clear(&play.mv.placement);
                let left = line - cleared.count_ones();
                // An empty board is a PC for the game even below the line: start afresh.
                let open = left > 0 && !after.board().is_empty();
                self.building = open.then_some((*after.board(), left));
                match kind {
                    DecisionKind::Exact => self.stats.exact += 1,
                    DecisionKind::Guided => self.stats.guided += 1,
                    DecisionKind::Clairvoyant => self.stats.clairvoyant += 1,
                    _ => self.stats.sampled += 1,
                }
                self.last = Some(kind);
                return Some(play);
            }
            if self.building.is_some() {
                self.stats.abandoned += 1;
            }
        }
        self.building = None;
        self.stats.fallback += 1;
        self.last = Some(DecisionKind::Fallback);
        let decision = self.fallback.decide(view)?;
        // With its keys when a path from the spawn is found (always, for placements the
        // evaluator generates from the spawn).
        self.legal(view, decision.mv)
            .or_else(|| Some(Play::from(decision.mv)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_orders_of_unseen_pieces_are_the_arrangements_of_the_bag() {
        let (i, o, t) = (Piece::I, Piece::O, Piece::T);
        assert_eq!(
            arrangements(&[i, o, t], 2),
            [[i, o], [i, t], [o, i], [o, t], [t, i], [t, o]]
        );
        assert_eq!(arrangements(&[i, o, t], 3).len(), 6);
        assert_eq!(arrangements(&[i, o], 1), [[i], [o]]);
        // More pieces than the bag has: none.
        assert!(arrangements(&[i], 2).is_empty());
        // Two unseen of four left in the bag: the most orders a steered decision takes.
        assert_eq!(
            arrangements(&[i, o, t, Piece::S], 2).len(),
            MAX_STEERED_ORDERS
        );
    }

    /// Where the graph's walk decides with five pieces unknown, a provisional move comes
    /// first; the player then decides as a player not asked for one, and takes the field
    /// after either move as the PC in progress.
    #[test]
    fn a_provisional_move_leaves_the_decision_as_it_was() {
        const EIGHT_LEFT: &str = "##......../##......../##......../##........";
        let rules = Rules::default();
        let start = PcField::new(EIGHT_LEFT.parse().unwrap(), 4).unwrap();
        let graph = Arc::new(
            PcGraph::build_from(&start, &rules, &mut |_| std::ops::ControlFlow::Continue(()))
                .unwrap(),
        );
        let player = || {
            PcPlayer::new(rules.clone(), 2)
                .unwrap()
                .with_graph(graph.clone())
                .unwrap()
                .with_seed(7)
        };
        let preview = [Piece::O, Piece::S];
        let view = GameView {
            board: EIGHT_LEFT.parse().unwrap(),
            current: Piece::T,
            hold: Some(Piece::I),
            preview: &preview,
            bag: BagState::FRESH,
            rules: &rules,
            spawn: pc_srs::CentrePos { x: 4, y: 20 },
        };
        let (mut asked, mut not_asked) = (player(), player());
        let position = asked.position(&view, 4);
        assert_eq!(asked.graph_unknown_of(&position), Some(5));
        let quick = asked
            .provisional(&view)
            .expect("five unknown: a provisional move");
        assert!(asked.legal(&view, quick.mv).is_some());
        assert_eq!(asked.stats(), PlayerStats::default(), "nothing counted");
        let chosen = asked.choose(&view).expect("a move");
        assert_eq!(Some(chosen.mv), not_asked.choose(&view).map(|p| p.mv));
        assert_eq!(asked.last_decision(), Some(DecisionKind::Exact));
        assert_eq!(asked.stats(), not_asked.stats());
        assert_eq!(asked.rng, not_asked.rng, "the samples' state put back");
        assert_eq!(
            asked.searcher.memo_len(),
            not_asked.searcher.memo_len(),
            "the provisional searches remembered apart"
        );
        // The field after the provisional move continues the PC, as the chosen one's does.
        let after = |mv: &Move| {
            let (after, _) = start.place_and_clear(&mv.placement);
            *after.board()
        };
        assert_eq!(asked.pc_line(&after(&quick.mv)), Some(4));
        assert_eq!(asked.building_provisional, Some((after(&quick.mv), 4)));
        assert_eq!(asked.pc_line(&after(&chosen.mv)), Some(4));
        // Fewer unknown (a piece the bag forces is known): no provisional move.
        let forced = GameView {
            bag: BagState::from_remaining(Piece::Z.into()),
            ..view
        };
        assert_eq!(asked.provisional(&forced).map(|p| p.mv), None);
    }
}
