//! [`Context`]: what an engine works with besides the decision.

use crate::engine::tables::Tables;
use crate::field::Goal;
use crate::options::SolverOptions;
use crate::rules::Rules;

/// The rules, the solver's options and the tables it keeps between questions.
pub(crate) struct Context<'s> {
    pub(crate) rules: &'s Rules,
    pub(crate) options: &'s SolverOptions,
    pub(crate) tables: &'s mut Tables,
}

impl Context<'_> {
    /// How many states the depth-first search may keep within the memory limit.
    pub(crate) fn states_within_memory_limit(&self) -> usize {
        Tables::states_within(self.options.memory_limit)
    }

    /// What counts as a PC under the options.
    pub(crate) fn goal(&self) -> Goal {
        Goal {
            lower_clears: self.options.two_line,
        }
    }
}
