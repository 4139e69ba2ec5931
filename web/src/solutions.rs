//! The perfect clears of a field that the queues of a pattern build, as sfinder's `path`
//! finds them ([`pc_solver::path`]): the minimal set drawn as small fields, each with the
//! share of the queues it covers, and the count of unique solutions.

use crate::api::{FUMEN_VIEWER, LinePage, Locked, pages};
use crate::form::{Form, FormError, MAX_QUEUES, field_rows, parse_pattern, pc_field};
use pc_bag::{PatternSet, search_length};
use pc_bitboard::Board32;
use pc_fumen::Fumen;
use pc_solver::{PathResult, PathSolution, Rules, path_with_progress};
use pc_srs::Placement;
use serde::Serialize;
use std::ops::ControlFlow;

/// The answer of `{"op":"path","form":Form,"pattern":"I,*p4"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Solutions {
    /// The field as rows, top first (as the form reads it back).
    pub field: String,
    /// The clear line.
    pub clear_line: u32,
    /// The pattern as given.
    pub pattern: String,
    /// The query of a link that shows these solutions (the form's and `pattern=`).
    pub query: String,
    /// The pattern's queues, cut to the pieces a PC can use, without repeats (sfinder's
    /// total).
    pub queues: usize,
    /// The queues that build some solution (sfinder's `percent` successes).
    pub covered: usize,
    /// Every distinct solution some queue builds (sfinder's `unique`).
    pub unique: usize,
    /// A few solutions that together cover every queue with a PC (sfinder's `minimal`),
    /// the most queues first.
    pub minimal: Vec<Solution>,
    /// The first unique solutions, as many as asked for, the most queues first (for one
    /// queue, every solution is built by it and the minimal set is one of them).
    pub solutions: Vec<Solution>,
    /// Whether every fill of the field was walked: false when the request's `fills` ran
    /// out, and the solutions are those found until then.
    pub complete: bool,
}

/// One solution of the minimal set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Solution {
    /// Its index among the unique solutions (the order of the fill graph's fills).
    pub index: usize,
    /// The queues that build it (of [`Solutions::queues`]).
    pub queues: usize,
    /// The share of the queues, in percent.
    pub percent: f64,
    /// One queue that builds it, as letters.
    pub queue: String,
    /// The PC as it is built, no row cleared: the rows below the clear line, top first,
    /// `.` empty (none), `X` the field's own blocks, a piece letter for each piece.
    pub rows: Vec<String>,
    /// The placements in an order that builds it, each on the field of its turn.
    pub placements: Vec<Locked>,
    /// sfinder's csv of it (`-f csv -k none`).
    pub csv: String,
    /// As a fumen, one page per placement.
    pub fumen: String,
    /// A fumen viewer's link to it.
    pub url: String,
    /// The pages to step through, and the cleared field at the end.
    pub pages: Vec<LinePage>,
}

/// The solutions of the form's field (its clear line, kicks and drop mode, with hold) for
/// a pattern: the checks of the field and the pattern, then [`pc_solver::path`]; `list`
/// unique solutions besides the minimal set; at most `max_fills` fills of the field walked.
pub fn solutions(
    form: &Form,
    pattern: &str,
    list: usize,
    max_fills: Option<u64>,
) -> Result<Solutions, FormError> {
    let board: Board32 = form.field.parse()?;
    let field = pc_field(board, form.clear_line)?;
    let rules = form.rules()?;
    let patterns = parse_pattern(pattern)?;
    check_size(&patterns, field.pieces_needed() as usize, &rules)?;
    let result = path_with_progress(&field, &rules, &patterns, &mut |done, _| match max_fills {
        Some(most) if done >= most => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    })?;
    let most_first = |indices: &mut Vec<usize>| {
        indices.sort_by_key(|&i| (std::cmp::Reverse(result.solutions[i].queues.len()), i));
    };
    let mut minimal = result.minimal();
    most_first(&mut minimal);
    let mut listed: Vec<usize> = (0..result.solutions.len()).collect();
    most_first(&mut listed);
    listed.truncate(list);
    let shown = |indices: Vec<usize>| {
        indices
            .into_iter()
            .map(|i| solution(&board, form.clear_line, &result, i))
            .collect::<Result<Vec<_>, FormError>>()
    };
    let checked = Form {
        field: field_rows(&board),
        kicks: rules.kicks.name().to_string(),
        drop: crate::form::drop_name(rules.drop).to_string(),
        ..form.clone()
    };
    Ok(Solutions {
        field: checked.field.clone(),
        clear_line: form.clear_line,
        pattern: pattern.to_string(),
        query: format!("{}&pattern={}", query_of(&checked), pattern_encode(pattern)),
        queues: result.queues.len(),
        covered: result.covered(),
        unique: result.solutions.len(),
        minimal: shown(minimal)?,
        solutions: shown(listed)?,
        complete: result.complete,
    })
}

/// The form's link query: the whole position when the form is one, else its field and
/// rules.
fn query_of(form: &Form) -> String {
    match form.setup() {
        Ok(setup) => setup.form.to_query(),
        Err(_) => Form {
            field: form.field.clone(),
            clear_line: form.clear_line,
            kicks: form.kicks.clone(),
            drop: form.drop.clone(),
            ..Form::default()
        }
        .to_query(),
    }
}

/// Refuses a pattern whose queues, cut to the pieces a PC can use, are more than
/// [`MAX_QUEUES`], before they are listed.
fn check_size(patterns: &PatternSet, needed: usize, rules: &Rules) -> Result<(), FormError> {
    let keep = search_length(patterns.len(), needed, rules.hold);
    let queues: u128 = patterns
        .patterns()
        .iter()
        .map(|p| u128::from(p.truncated(keep).count()))
        .sum();
    if queues > u128::from(MAX_QUEUES) {
        return Err(FormError::TooManyQueues {
            queues,
            pieces: keep,
        });
    }
    Ok(())
}

/// Solution `i` of a result, for the page.
fn solution(
    board: &Board32,
    clear_line: u32,
    result: &PathResult,
    i: usize,
) -> Result<Solution, FormError> {
    let s: &PathSolution = &result.solutions[i];
    let fumen = Fumen::try_from_placements(board, &s.placements)?;
    let total = result.queues.len().max(1);
    let queue = s
        .queues
        .first()
        .map(|&q| {
            result.queues[q as usize]
                .iter()
                .map(|p| p.to_char())
                .collect()
        })
        .unwrap_or_default();
    Ok(Solution {
        index: i,
        queues: s.queues.len(),
        percent: 100.0 * s.queues.len() as f64 / total as f64,
        queue,
        rows: arrangement(board, clear_line, &s.placements),
        placements: s.placements.iter().map(Locked::from).collect(),
        csv: s.sfinder_csv(),
        url: format!("{FUMEN_VIEWER}{fumen}"),
        fumen: fumen.to_string(),
        pages: pages(&fumen, clear_line),
    })
}

/// The PC with every piece where it went, no row cleared: each placement is on the field
/// of its turn (rows cleared before it removed), so its rows are mapped back to the
/// field's.
fn arrangement(board: &Board32, clear_line: u32, placements: &[Placement]) -> Vec<String> {
    let mut grid: Vec<[char; 10]> = (0..clear_line)
        .map(|y| std::array::from_fn(|x| if board.cell(x, y) { 'X' } else { '.' }))
        .collect();
    // The field's row of each row of the field of this turn.
    let mut rows: Vec<usize> = (0..grid.len()).collect();
    for p in placements {
        let letter = p.piece().to_char();
        for (x, y) in p.cells() {
            if let (Some(&row), true) = (rows.get(usize::from(y)), x < 10) {
                grid[row][usize::from(x)] = letter;
            }
        }
        rows.retain(|&row| grid[row].contains(&'.'));
    }
    grid.iter().rev().map(|row| row.iter().collect()).collect()
}

/// A pattern for a link: `,` `*` `[` `]` `^` `!` as they are, the rest percent-encoded.
fn pattern_encode(pattern: &str) -> String {
    pattern
        .chars()
        .map(|c| {
            if ",*[]^!".contains(c) {
                c.to_string()
            } else {
                crate::form::percent_encode(&c.to_string())
            }
        })
        .collect()
}
