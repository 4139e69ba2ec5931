//! Building the graph: a depth-first walk over partial fills, cell by cell, merging
//! partial fills that behave the same from then on.

use crate::cells;
use crate::error::FillGraphError;
use crate::graph::{FillGraph, State, StateId, Transition};
use crate::pieces::PieceCounts;
use crate::placements::{FillPlacement, MAX_CLEAR_LINE};
use ahash::AHashMap;
use pc_bitboard::{Board32, WIDTH};
use smallvec::SmallVec;

/// What to build: which placements, and which constraints to apply while building.
///
/// The default allows split pieces, has no piece budget and keeps every fill
/// whatever its line-clear dependencies.
///
/// ```
/// use pc_zdd_graph::{BuildOptions, PieceCounts};
///
/// let options = BuildOptions::new()
///     .piece_budget("TIOLJSZIT".parse::<PieceCounts>()?)
///     .acyclic(true);
/// assert!(!options.is_contiguous_only());
/// assert!(options.is_acyclic());
/// # Ok::<(), pc_zdd_graph::FillGraphError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BuildOptions {
    contiguous_only: bool,
    budget: Option<PieceCounts>,
    acyclic: bool,
}

impl BuildOptions {
    /// Split pieces allowed, no budget, no order check.
    pub const fn new() -> Self {
        BuildOptions {
            contiguous_only: false,
            budget: None,
            acyclic: false,
        }
    }

    /// Only pieces on adjacent rows of the field (no piece split by a line clear made
    /// during the fill). Rows already full in the field count as cleared: a piece may
    /// span them.
    pub const fn contiguous_only(mut self, yes: bool) -> Self {
        self.contiguous_only = yes;
        self
    }

    /// At most `budget.get(p)` pieces `p` in a fill, e.g. the pieces of a known queue
    /// and hold.
    pub const fn piece_budget(mut self, budget: PieceCounts) -> Self {
        self.budget = Some(budget);
        self
    }

    /// No piece budget.
    pub const fn no_budget(mut self) -> Self {
        self.budget = None;
        self
    }

    /// Keep only fills that have a line-clear order: every piece placed after the rows it
    /// skips are full, i.e. the relation "A before B because B skips a row A covers" has
    /// no cycle. Rotation and gravity are not considered.
    pub const fn acyclic(mut self, yes: bool) -> Self {
        self.acyclic = yes;
        self
    }

    /// Whether split pieces are excluded.
    pub const fn is_contiguous_only(&self) -> bool {
        self.contiguous_only
    }

    /// The piece budget, if any.
    pub const fn budget(&self) -> Option<PieceCounts> {
        self.budget
    }

    /// Whether fills with cyclic line-clear dependencies are removed.
    pub const fn is_acyclic(&self) -> bool {
        self.acyclic
    }
}

impl FillGraph {
    /// Builds the fill graph of `field` below `clear_line`.
    ///
    /// Errors when `clear_line` is not in `1..=8`, when the field has a filled cell at
    /// or above it, or when the number of empty cells below it is not a multiple of 4.
    ///
    /// ```
    /// use pc_bitboard::Board32;
    /// use pc_zdd_graph::{BuildOptions, FillGraph};
    ///
    /// // The 4×4 well of a PCO-like field: 117 tilings with adjacent rows only.
    /// let field: Board32 = "####....##/####....##/####....##/####....##".parse()?;
    /// let graph = FillGraph::build(&field, 4, BuildOptions::new().contiguous_only(true))?;
    /// assert_eq!(graph.count(), 117);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build(
        field: &Board32,
        clear_line: u32,
        options: BuildOptions,
    ) -> Result<FillGraph, FillGraphError> {
        if !(1..=MAX_CLEAR_LINE).contains(&clear_line) {
            return Err(FillGraphError::ClearLineOutOfRange { clear_line });
        }
        if let Some((column, row)) = lowest_cell_at_or_above(field, clear_line) {
            return Err(FillGraphError::CellAboveClearLine {
                column,
                row,
                clear_line,
            });
        }
        let below = cells::rows_mask(clear_line);
        let filled = cells::from_board(field, clear_line);
        let empty = (below & !filled).count_ones();
        if empty % 4 != 0 {
            return Err(FillGraphError::EmptyCellsNotMultipleOfFour { empty, clear_line });
        }

        // Rows full from the start were cleared before the fill began: skipping them
        // needs no other piece, so they are no dependency.
        let prefull = cells::full_rows(filled);
        let placements: Vec<FillPlacement> = FillPlacement::all(clear_line, true)?
            .into_iter()
            .filter(|p| p.cell_mask() & filled == 0)
            .filter(|p| !options.contiguous_only || p.skipped_rows() & !prefull == 0)
            .collect();
        let budget = options.budget.unwrap_or(PieceCounts::UNLIMITED);
        let table = CandidateTable::new(&placements, prefull, budget);

        // Cells at and above the clear line count as filled: the walk stops when every
        // cell of the 10×8 mask is set.
        let mut builder = Builder {
            table: &table,
            below,
            prefull,
            memo: AHashMap::with_capacity(1024),
            states: vec![State::new(below, 0, 0), State::new(0, 0, 0)],
            transitions: Vec::new(),
        };
        let budget = budget.pack();
        let start = filled | (cells::ALL & !below);
        let root = match (options.budget.is_some(), options.acyclic) {
            (false, false) => builder.root::<false, false>(start, budget),
            (true, false) => builder.root::<true, false>(start, budget),
            (false, true) => builder.root::<false, true>(start, budget),
            (true, true) => builder.root::<true, true>(start, budget),
        };
        let explored = builder.memo.len();
        let Builder {
            states,
            transitions,
            ..
        } = builder;
        Ok(FillGraph {
            field: field.below(clear_line),
            clear_line,
            options,
            placements,
            states,
            transitions,
            root,
            explored,
        })
    }
}

/// The lowest filled cell at or above `clear_line` (leftmost of its row), if any.
fn lowest_cell_at_or_above(field: &Board32, clear_line: u32) -> Option<(usize, u32)> {
    (clear_line..Board32::HEIGHT).find_map(|y| {
        let row = field.row(y);
        (row != 0).then(|| (row.trailing_zeros() as usize, y))
    })
}

/// Cells of the 10×8 mask.
const CELLS: usize = WIDTH * MAX_CLEAR_LINE as usize;

/// A placement as the builder needs it, grouped by first cell.
#[derive(Clone, Copy)]
struct Candidate {
    mask: u128,
    id: u16,
    /// Byte offset of the piece in a packed budget.
    piece_shift: u8,
    rows: u8,
    /// Skipped rows that other pieces must fill first.
    deps: u8,
}

struct CandidateTable {
    candidates: Vec<Candidate>,
    /// `candidates[starts[c]..starts[c + 1]]` start at cell `c`.
    starts: [u32; CELLS + 1],
}

impl CandidateTable {
    fn new(placements: &[FillPlacement], prefull: u8, budget: PieceCounts) -> Self {
        let mut candidates = Vec::with_capacity(placements.len());
        let mut starts = [0u32; CELLS + 1];
        let mut cell = 0;
        for (id, p) in placements.iter().enumerate() {
            // Pieces the budget forbids can never be placed: leave them out of the walk.
            if budget.get(p.placement().piece()) == 0 {
                continue;
            }
            while cell < p.first_cell() as usize {
                cell += 1;
                starts[cell] = candidates.len() as u32;
            }
            candidates.push(Candidate {
                mask: p.cell_mask(),
                id: id as u16,
                piece_shift: 8 * p.placement().piece().index() as u8,
                rows: p.rows(),
                deps: p.skipped_rows() & !prefull,
            });
        }
        for s in &mut starts[cell + 1..] {
            *s = candidates.len() as u32;
        }
        CandidateTable { candidates, starts }
    }

    #[inline]
    fn at(&self, cell: u32) -> &[Candidate] {
        let c = cell as usize;
        &self.candidates[self.starts[c] as usize..self.starts[c + 1] as usize]
    }
}

/// What identifies a state while building: the filled cells, the remaining budget
/// (packed, clamped to the pieces still needed) and the line-clear dependencies
/// between the rows still open (see [`add_dependencies`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    cells: u128,
    budget: u64,
    order: u64,
}

struct Builder<'a> {
    table: &'a CandidateTable,
    /// The cells below the clear line.
    below: u128,
    /// Rows full from the start.
    prefull: u8,
    memo: AHashMap<Key, u32>,
    states: Vec<State>,
    transitions: Vec<Transition>,
}

impl Builder<'_> {
    fn root<const BUDGET: bool, const ORDER: bool>(&mut self, cells: u128, budget: u64) -> StateId {
        match normalize::<BUDGET, ORDER>(cells, budget, 0, self.prefull) {
            Some(key) => StateId(self.visit::<BUDGET, ORDER>(key)),
            None => StateId::DEAD,
        }
    }

    /// The id of the state `key` (building it and everything below it first), or
    /// [`StateId::DEAD`] when it has no fill. Recursion depth is the number of pieces
    /// of a fill, at most 20.
    fn visit<const BUDGET: bool, const ORDER: bool>(&mut self, key: Key) -> u32 {
        if key.cells == cells::ALL {
            return StateId::FILLED.0;
        }
        if let Some(&id) = self.memo.get(&key) {
            return id;
        }
        let first = (!key.cells).trailing_zeros();
        let mut out: SmallVec<[Transition; 32]> = SmallVec::new();
        let table = self.table;
        for c in table.at(first) {
            if c.mask & key.cells != 0 {
                continue;
            }
            let cells = key.cells | c.mask;
            let budget = if BUDGET {
                if (key.budget >> c.piece_shift) & 0xff == 0 {
                    continue;
                }
                key.budget - (1u64 << c.piece_shift)
            } else {
                0
            };
            let order = if ORDER {
                match add_dependencies(key.order, c.rows, c.deps) {
                    Some(o) => o,
                    None => continue,
                }
            } else {
                0
            };
            let Some(child) = normalize::<BUDGET, ORDER>(cells, budget, order, self.prefull) else {
                continue;
            };
            let target = self.visit::<BUDGET, ORDER>(child);
            if target != StateId::DEAD.0 {
                out.push(Transition::new(c.id, target));
            }
        }
        let id = if out.is_empty() {
            StateId::DEAD.0
        } else {
            let id = self.states.len() as u32;
            self.states.push(State::new(
                key.cells & self.below,
                self.transitions.len() as u32,
                out.len() as u16,
            ));
            self.transitions.extend_from_slice(&out);
            id
        };
        self.memo.insert(key, id);
        id
    }
}

/// The canonical key of a partial fill, or `None` when the budget cannot fill the
/// remaining cells. Drops what cannot matter any more, so that more states merge:
///
/// - budget beyond the pieces still needed;
/// - what full rows reach: no later piece covers a full row, so no new dependency ends
///   there, and what it reaches has already been passed to every row that reaches it;
/// - reachability of rows no later piece can skip: a later piece covers open rows only,
///   so it skips rows strictly between the lowest and the highest open row, and never a
///   row that was full from the start. That range only shrinks.
///
/// A cycle closed later runs through later dependencies `r → s` (`s` open now) joined
/// by paths of earlier ones from an open row to a row a later piece skips; exactly the
/// reachability kept here.
#[inline]
fn normalize<const BUDGET: bool, const ORDER: bool>(
    cells: u128,
    budget: u64,
    order: u64,
    prefull: u8,
) -> Option<Key> {
    let mut key = Key {
        cells,
        budget: 0,
        order: 0,
    };
    if cells == cells::ALL {
        return Some(key);
    }
    if BUDGET {
        let needed = ((cells::ALL & !cells).count_ones() / 4) as u8;
        let mut bytes = budget.to_le_bytes();
        let mut total = 0u32;
        for b in &mut bytes[..7] {
            *b = (*b).min(needed);
            total += *b as u32;
        }
        if total < needed as u32 {
            return None;
        }
        key.budget = u64::from_le_bytes(bytes);
    }
    if ORDER && order != 0 {
        // Rows at and above the clear line are set in `cells`, so they count as full.
        let open = !cells::full_rows(cells);
        let lo = open.trailing_zeros();
        let hi = 7 - open.leading_zeros();
        // Wrapping: with one row open (hi == lo) this is every row from it up, as release
        // builds have always computed it; a debug build's overflow check panicked there.
        let skippable = ((1u16 << hi).wrapping_sub(2u16 << lo) as u8) & !prefull;
        let mut reach = order.to_le_bytes();
        for (r, reached) in reach.iter_mut().enumerate() {
            *reached &= if open >> r & 1 == 1 { skippable } else { 0 };
        }
        key.order = u64::from_le_bytes(reach);
    }
    Some(key)
}

/// Adds the line-clear dependencies of a piece covering `rows` and skipping `deps`, or
/// returns `None` when they close a cycle.
///
/// `order` is the transitive closure of the relation on rows "row `r` must be full
/// before row `s` can be": byte `r` holds the rows reachable from `r`. A piece covering
/// `s` and skipping `r` adds `r → s`. The relation between pieces ("A before B because B
/// skips a row A covers") has a cycle exactly when this relation between rows has one:
/// a piece cycle A→B→… maps to the rows A covers and B skips, and back.
#[inline]
pub(crate) fn add_dependencies(order: u64, rows: u8, deps: u8) -> Option<u64> {
    if deps == 0 {
        return Some(order);
    }
    let mut reach = order.to_le_bytes();
    let mut targets = rows;
    let mut m = rows;
    while m != 0 {
        targets |= reach[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    if targets & deps != 0 {
        return None;
    }
    for (r, reached) in reach.iter_mut().enumerate() {
        if deps >> r & 1 == 1 || *reached & deps != 0 {
            *reached |= targets;
        }
    }
    Some(u64::from_le_bytes(reach))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_detect_cycles() {
        // A covers rows 0 and 2, skipping 1; B covers 1 and 3, skipping 2.
        let a = add_dependencies(0, 0b0101, 0b0010).unwrap();
        assert!(add_dependencies(a, 0b1010, 0b0100).is_none());
        // B covering 1 and 2 (no skip) is fine.
        assert_eq!(add_dependencies(a, 0b0110, 0), Some(a));
        // Q covers 1 and 4 skipping 2 and 3 (2→1, 3→1, 2→4, 3→4); P covering 0 and 2
        // and skipping 1 adds 1→2, closing 1→2→1.
        let q = add_dependencies(0, 0b1_0010, 0b0_1100).unwrap();
        assert!(add_dependencies(q, 0b0_0101, 0b0_0010).is_none());
        // Through a third row: R covers 3 and 5 skipping 4 (4→3, 4→5), S covers 4 and 6
        // skipping 5 (5→4, 5→6) closes 4→5→4; with T covering 5 and 7 skipping 6
        // instead, 4→5 and 6→5, 6→7 stay acyclic.
        let r = add_dependencies(0, 0b0010_1000, 0b0001_0000).unwrap();
        assert!(add_dependencies(r, 0b0101_0000, 0b0010_0000).is_none());
        assert!(add_dependencies(r, 0b1010_0000, 0b0100_0000).is_some());
    }

    #[test]
    fn errors_say_what_and_where() {
        let empty = Board32::new();
        let e = FillGraph::build(&empty, 9, BuildOptions::new()).unwrap_err();
        assert_eq!(e, FillGraphError::ClearLineOutOfRange { clear_line: 9 });
        let tall: Board32 = "...#......\n..........\n..........".parse().unwrap();
        let e = FillGraph::build(&tall, 2, BuildOptions::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the field has a filled cell at column 3, row 2, at or above the clear line 2"
        );
        let odd: Board32 = "#.........".parse().unwrap();
        let e = FillGraph::build(&odd, 1, BuildOptions::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the field has 9 empty cells below the clear line 1, not a multiple of 4 (remainder 1)"
        );
    }
}
