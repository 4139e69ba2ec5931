//! [`SolverOptions`]: what a solver's user chooses besides the rules.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The choices of a solver's user: how long the preview is, what counts as a PC, how
/// much memory and work a question may take, the threads, and the PC field graph.
///
/// ```
/// use pc_solver::{Rules, Solver, SolverOptions};
///
/// let options = SolverOptions {
///     preview: 3,
///     ..SolverOptions::default()
/// };
/// let solver = Solver::with_options(Rules::default(), options)?;
/// assert_eq!(solver.options().preview, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct SolverOptions {
    /// Pieces shown after the current one, 0 to 6 (5 by default): every position asked
    /// must show that many.
    pub preview: usize,
    /// Whether a PC of fewer lines than the clear line counts too (a 2-line PC while
    /// building a 4-line one). Off by default.
    pub two_line: bool,
    /// Bytes the solver may keep of what it learned between questions (256 MiB by
    /// default); past it, it forgets everything and goes on.
    pub memory_limit: usize,
    /// Give up on a question with [`SolverError::WorkLimit`](crate::SolverError::WorkLimit) once this many decisions
    /// not known from earlier questions were evaluated (`None`, the default: no limit).
    /// Only finished decisions are remembered, so asking again goes on where the search
    /// stopped. A count rather than a clock keeps answers the same on every machine.
    /// Only the depth-first engine counts decisions: under a limit, it answers what the
    /// layered search would.
    pub work_limit: Option<u64>,
    /// Threads a question may use (0 counts as 1): the machine's with the `parallel`
    /// feature, else 1. A full ranking by the layered search gives each thread every n-th
    /// move, each with its own tables (not counted in `memory_limit`); the PC field graph's
    /// walk of the first pieces of a PC (four or five pieces unknown) shares out the
    /// fields it ends on (finding their children, and what each wins), a run at a time.
    /// The values are the same whatever the threads.
    pub threads: usize,
    /// The PC field graph of the solver's rules ([`PcGraph`](crate::PcGraph)): the
    /// decisions on its fields that [`Engine::Graph`](crate::Engine::Graph) describes are answered from it.
    pub graph: Option<Arc<crate::PcGraph>>,
    /// A flag another thread may set to stop the question under way (`None` by default):
    /// once it is set, the graph's walk of the first pieces of a PC and the depth-first
    /// search end soon with [`SolverError::Stopped`](crate::SolverError::Stopped) (the
    /// other engines do not look at it and finish). What the solver finished stays
    /// learned; clear the flag before asking again.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            preview: 5,
            two_line: false,
            memory_limit: 256 << 20,
            work_limit: None,
            threads: default_threads(),
            graph: None,
            stop: None,
        }
    }
}

/// The threads a search splits its work into unless told otherwise: the machine's with
/// the `parallel` feature, else one (the default build stays single-threaded, as wasm
/// needs).
pub(crate) fn default_threads() -> usize {
    if cfg!(feature = "parallel") {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        1
    }
}
