//! The errors of the solver.

use pc_srs::{Piece, SrsError};

/// What is wrong with a perfect-clear problem or a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// The clear line is outside 1..=8.
    #[error("clear line {0} is out of range: the solver handles clear lines 1 to 8")]
    ClearLineOutOfRange(u32),
    /// The field has a filled cell at or above the clear line.
    #[error("the field has a filled cell in row {row}, at or above the clear line {clear_line}")]
    FieldAboveClearLine {
        /// Highest filled row (from 0 at the bottom).
        row: u32,
        /// The clear line.
        clear_line: u32,
    },
    /// The empty cells below the clear line cannot be covered by whole pieces.
    #[error(
        "{empty} empty cells below the clear line is not a multiple of 4, so no perfect clear exists"
    )]
    EmptyCellsNotMultipleOfFour {
        /// Empty cells counted.
        empty: u32,
    },
    /// A pattern gives fewer pieces than the perfect clear needs.
    #[error("the pattern gives {given} pieces but the perfect clear needs {needed}")]
    PatternTooShort {
        /// Pieces in each sequence of the pattern.
        given: usize,
        /// Pieces needed.
        needed: u32,
    },
    /// The queue cannot come from a 7-bag that leaves the stated bag state after it. The
    /// message names the piece as the current piece or as preview piece `position`.
    #[error("{} ({piece}) contradicts the bag state: {reason}", queue_place(.position))]
    BagContradiction {
        /// The piece.
        piece: Piece,
        /// Its 0-based index in [`Position::queue`](crate::Position::queue): 0 is the
        /// current piece, `k` is the `k`-th preview piece (counting from 1). Of two equal
        /// pieces in one bag, the later one. A piece revealed by
        /// [`Position::after`](crate::Position::after) or
        /// [`Position::after_hold`](crate::Position::after_hold) has the index it would
        /// take at the end of the queue.
        position: usize,
        /// Why it cannot be there.
        reason: &'static str,
    },
    /// A queue written as letters has a character that is not a piece
    /// ([`Position::from_queue`](crate::Position::from_queue)).
    #[error("queue: {0}")]
    Queue(pc_bag::ParsePiecesError),
    /// A queue written as letters has no piece: a position needs a current piece.
    #[error("the queue is empty: a position needs a current piece")]
    EmptyQueue,
    /// The position's preview is not as long as the solver's.
    #[error("the position shows {given} preview pieces but the solver is set up for {expected}")]
    PreviewLength {
        /// The solver's preview length.
        expected: usize,
        /// The position's.
        given: usize,
    },
    /// A preview longer than the solver handles.
    #[error("a preview of {0} pieces is longer than the 6 the solver handles")]
    PreviewTooLong(usize),
    /// A move that the position does not allow.
    #[error("illegal move: {0}")]
    IllegalMove(&'static str),
    /// Not as many revealed pieces as the move uses up.
    #[error("the move reveals {expected} new preview pieces but {given} were given")]
    RevealCount {
        /// Pieces the move uses from the queue (2 for a hold into an empty slot).
        expected: usize,
        /// Pieces given.
        given: usize,
    },
    /// The solver was given a graph built for other rules
    /// ([`SolverOptions::graph`](crate::SolverOptions::graph)).
    #[error("the graph was built for other rules (id {:016x}, these rules are {:016x})", found.value(), expected.value())]
    GraphRules {
        /// The rules of the graph.
        found: crate::rules::RulesId,
        /// The solver's rules.
        expected: crate::rules::RulesId,
    },
    /// [`Solver::recommend_by`](crate::Solver::recommend_by) was asked for an engine that
    /// does not answer the position.
    #[error("the {0} engine does not answer this position")]
    EngineDoesNotApply(crate::engine::kind::Engine),
    /// The search reached the solver's work limit
    /// ([`SolverOptions::work_limit`](crate::SolverOptions::work_limit))
    /// before it had the answer. What it finished is kept, so asking again goes on from
    /// there.
    #[error("the search stopped after {0} new decisions, the solver's work limit")]
    WorkLimit(u64),
    /// The question was stopped by its flag
    /// ([`SolverOptions::stop`](crate::SolverOptions::stop)) before it had the answer.
    #[error("the question was stopped before it had the answer")]
    Stopped,
    /// More pieces not revealed yet than a clairvoyant count takes.
    #[error("{0} unknown pieces is more than the 4 a clairvoyant count takes")]
    TooManyUnknown(usize),
    /// A setup given to [`cover`](crate::cover) cannot be placed as given.
    #[error("setup {setup}, placement {placement}: {reason}")]
    Setup {
        /// The setup, counted from 0.
        setup: usize,
        /// Its placement, counted from 0.
        placement: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// An exact probability did not fit in 64-bit fractions.
    #[error("an exact probability overflowed 64-bit fractions")]
    Overflow,
    /// An error from the move generator.
    #[error(transparent)]
    Srs(#[from] SrsError),
}

/// A place in the queue, as [`SolverError::BagContradiction`] names it.
fn queue_place(position: &usize) -> String {
    match position {
        0 => "the current piece".to_string(),
        k => format!("preview piece {k}"),
    }
}
