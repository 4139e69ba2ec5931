//! `path` against sfinder's own answers (`testdata/sfinder/path/`, see `testdata/README.md`):
//! the same unique solutions, compared as sets of placements on the uncleared field (sfinder
//! writes each placement on the field of its turn, and the order of a line is its own), the
//! same queues covered, and a minimal set no larger than sfinder's that covers them all.

use pc_solver::{
    DropMode, KickTable, PcField, Piece, Placement, Rules, path, path_summary, placing_orders,
};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// One row of `cases.csv`.
struct Case {
    name: String,
    fumen: String,
    pattern: String,
    clear_line: u32,
    hold: bool,
    drop: String,
    kicks: String,
    unique: usize,
    minimal: usize,
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/sfinder/path")
}

/// The fields of a csv line, quotes removed (a quoted field may hold commas).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            _ => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(data_dir().join("cases.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f = csv_fields(line);
            Case {
                name: f[0].clone(),
                fumen: f[1].clone(),
                pattern: f[2].clone(),
                clear_line: f[3].parse().unwrap(),
                hold: f[4] == "use",
                drop: f[5].clone(),
                kicks: f[6].clone(),
                unique: f[9].parse().unwrap(),
                minimal: f[10].parse().unwrap(),
            }
        })
        .collect()
}

fn rules(case: &Case) -> Rules {
    let kicks = match case.kicks.as_str() {
        "srs" => KickTable::srs(),
        "kicks/jstris180.properties" => KickTable::jstris180(),
        other => panic!("kicks {other}"),
    };
    let drop = match case.drop.as_str() {
        "softdrop" | "180" => DropMode::Soft,
        "harddrop" => DropMode::Hard,
        other => panic!("drop {other}"),
    };
    Rules {
        kicks,
        drop,
        hold: case.hold,
    }
}

/// A placement from sfinder's csv form, `piece,rotation,x,y`.
fn sfinder_placement(text: &str) -> Placement {
    let parts: Vec<&str> = text.split(',').collect();
    assert_eq!(parts.len(), 4, "{text}");
    let piece = Piece::from_char(parts[0].chars().next().unwrap()).unwrap();
    let orientation = match parts[1] {
        "0" => pc_solver::Orientation::Spawn,
        "R" => pc_solver::Orientation::Right,
        "2" => pc_solver::Orientation::Reverse,
        "L" => pc_solver::Orientation::Left,
        other => panic!("rotation {other}"),
    };
    let centre = pc_solver::CentrePos {
        x: parts[2].parse().unwrap(),
        y: parts[3].parse().unwrap(),
    };
    Placement::new(piece, orientation, centre).unwrap()
}

/// A solution as a set of (piece, cells of the uncleared field), from its placements in
/// the order given, each on the field of its turn (rows full before it removed). Checks
/// on the way that each fits and that the field ends clear.
fn uncleared(field: &PcField, placements: &[Placement]) -> BTreeSet<(char, Vec<(u8, u32)>)> {
    // The rows of the uncleared field still there, bottom first, and their cells.
    let mut rows: Vec<u32> = (0..field.clear_line()).collect();
    let mut filled: Vec<u16> = (0..field.clear_line())
        .map(|y| field.board().row(y))
        .collect();
    let mut out = BTreeSet::new();
    for p in placements {
        let mut cells = Vec::new();
        for (x, y) in p.cells() {
            let row = rows[y as usize];
            assert_eq!(filled[row as usize] >> x & 1, 0, "{p:?} on a filled cell");
            filled[row as usize] |= 1 << x;
            cells.push((x, row));
        }
        cells.sort_unstable();
        out.insert((p.piece().to_char(), cells));
        rows.retain(|&r| filled[r as usize] != 0x3ff);
    }
    assert!(
        rows.is_empty(),
        "the field is not clear after {placements:?}"
    );
    out
}

type Solution = BTreeSet<(char, Vec<(u8, u32)>)>;

fn sfinder_solutions(field: &PcField, name: &str, file: &str) -> Vec<Solution> {
    let text = std::fs::read_to_string(data_dir().join(name).join(file)).unwrap();
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|line| {
            let placements: Vec<Placement> = line.split(';').map(sfinder_placement).collect();
            uncleared(field, &placements)
        })
        .collect()
}

#[test]
fn path_finds_the_solutions_sfinder_finds() {
    let mut failures = Vec::new();
    let mut by_queue = 0;
    let mut by_solution_and_use = 0;
    let only = std::env::var("PC_CASE").ok();
    for case in cases() {
        if only.as_ref().is_some_and(|o| *o != case.name) {
            continue;
        }
        let board = pc_fumen::decode(&case.fumen)
            .unwrap()
            .first_field()
            .unwrap();
        let field = PcField::new(board, case.clear_line).unwrap();
        let started = std::time::Instant::now();
        let result = path(&field, &rules(&case), &case.pattern.parse().unwrap()).unwrap();
        let elapsed = started.elapsed();
        let ours: BTreeSet<Solution> = result
            .solutions
            .iter()
            .map(|s| uncleared(&field, &s.placements))
            .collect();
        assert_eq!(ours.len(), result.solutions.len(), "{}: repeats", case.name);
        let unique = sfinder_solutions(&field, &case.name, "path_unique.csv");
        assert_eq!(unique.len(), case.unique, "{}: the csv's lines", case.name);
        let theirs: BTreeSet<Solution> = unique.iter().cloned().collect();
        // Our csv lines read back as the same cells, piece by piece.
        for s in &result.solutions {
            let line = s.sfinder_csv();
            let back: Vec<Placement> = line.split(';').map(sfinder_placement).collect();
            let cells = |p: &Placement| {
                let mut c = p.cells();
                c.sort_unstable();
                (p.piece(), c)
            };
            let back: Vec<_> = back.iter().map(cells).collect();
            let ours: Vec<_> = s.placements.iter().map(cells).collect();
            assert_eq!(back, ours, "{}: {line}", case.name);
        }
        let minimal = result.minimal();
        eprintln!(
            "{}: unique {} (sfinder {}), minimal {} (sfinder {}), {:?}",
            case.name,
            ours.len(),
            case.unique,
            minimal.len(),
            case.minimal,
            elapsed
        );
        if ours != theirs {
            failures.push(format!(
                "{}: {} solutions, sfinder {}; {} only ours, {} only sfinder's",
                case.name,
                ours.len(),
                theirs.len(),
                ours.difference(&theirs).count(),
                theirs.difference(&ours).count()
            ));
            continue;
        }
        // sfinder's minimal set covers what ours does, and ours is no larger.
        let covered = result.covered();
        let sfinder_minimal = sfinder_solutions(&field, &case.name, "path_minimal.csv");
        let mut by_solution = std::collections::HashMap::new();
        for (s, sol) in result.solutions.iter().zip(&result.solutions) {
            by_solution.insert(uncleared(&field, &s.placements), &sol.queues);
        }
        let mut theirs_cover = BTreeSet::new();
        for s in &sfinder_minimal {
            theirs_cover.extend(by_solution[s].iter().copied());
        }
        let mut ours_cover = BTreeSet::new();
        for &i in &minimal {
            ours_cover.extend(result.solutions[i].queues.iter().copied());
        }
        if theirs_cover.len() != covered || ours_cover.len() != covered {
            failures.push(format!(
                "{}: {covered} queues covered; sfinder's minimal covers {}, ours {}",
                case.name,
                theirs_cover.len(),
                ours_cover.len()
            ));
        }
        check_summary(&case, &field, &result, &minimal, &mut failures);
        by_queue += usize::from(check_by_queue(&case.name, &result, &mut failures));
        by_solution_and_use += usize::from(check_by_solution_and_use(
            &case,
            &field,
            &result,
            &mut failures,
        ));
        if minimal.len() > case.minimal {
            failures.push(format!(
                "{}: minimal {} > sfinder's {}",
                case.name,
                minimal.len(),
                case.minimal
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if only.is_none() {
        assert_eq!(by_queue, 4, "the cases with sfinder's -k pattern answer");
        assert_eq!(
            by_solution_and_use, 8,
            "the cases with sfinder's -k solution and -k use answers"
        );
    }
}

/// [`path_summary`] finds the solutions [`path`] finds, in the same order, the same count
/// of queues with a PC, and a minimal set that covers them, no larger than sfinder's: the
/// greedy choice over every solution's queues ([`greedy`]), which is
/// [`PathResult::minimal`] where no solution's queues are among another's with as many new
/// ones.
fn check_summary(
    case: &Case,
    field: &PcField,
    result: &pc_solver::PathResult,
    minimal: &[usize],
    failures: &mut Vec<String>,
) {
    let summary = path_summary(
        field,
        &rules(case),
        &case.pattern.parse().unwrap(),
        &mut |_, _, _| std::ops::ControlFlow::Continue(()),
    )
    .unwrap();
    assert!(summary.complete, "{}", case.name);
    let placements: Vec<&Vec<Placement>> = result.solutions.iter().map(|s| &s.placements).collect();
    assert_eq!(
        summary.solutions.iter().collect::<Vec<_>>(),
        placements,
        "{}: the summary's solutions",
        case.name
    );
    assert_eq!(summary.queues, result.queues.len(), "{}", case.name);
    assert_eq!(summary.covered, Some(result.covered()), "{}", case.name);
    let mut cover = BTreeSet::new();
    for &i in &summary.minimal {
        cover.extend(result.solutions[i].queues.iter().copied());
    }
    if cover.len() != result.covered() || summary.minimal.len() > case.minimal {
        failures.push(format!(
            "{}: the summary's minimal set of {} covers {} of {} queues (sfinder's set: {})",
            case.name,
            summary.minimal.len(),
            cover.len(),
            result.covered(),
            case.minimal
        ));
    }
    if summary.minimal != greedy(result) {
        failures.push(format!(
            "{}: the summary's minimal set {:?} is not the greedy choice {:?}",
            case.name,
            summary.minimal,
            greedy(result)
        ));
    }
    if summary.minimal != minimal {
        eprintln!(
            "{}: the summary's minimal set has {} solutions, PathResult::minimal {}",
            case.name,
            summary.minimal.len(),
            minimal.len()
        );
    }
}

/// The solutions that the greedy rule chooses, ascending: the one with the most queues not
/// covered yet (the first of those), until no solution has any.
fn greedy(result: &pc_solver::PathResult) -> Vec<usize> {
    let mut covered = BTreeSet::new();
    let mut chosen = Vec::new();
    loop {
        let gain = |i: usize| {
            let queues = &result.solutions[i].queues;
            queues.iter().filter(|q| !covered.contains(*q)).count()
        };
        let best = (0..result.solutions.len()).max_by_key(|&i| (gain(i), std::cmp::Reverse(i)));
        match best {
            Some(best) if gain(best) > 0 => {
                covered.extend(result.solutions[best].queues.iter().copied());
                chosen.push(best);
            }
            _ => break,
        }
    }
    chosen.sort_unstable();
    chosen
}

/// Pieces in sfinder's order (T, I, L, J, S, Z, O), as its csv files list them.
fn sfinder_sorted(pieces: &[Piece]) -> String {
    let mut sorted = pieces.to_vec();
    sorted.sort_by_key(|p| "TILJSZO".find(p.to_char()));
    sorted.iter().map(|p| p.to_char()).collect()
}

/// Where sfinder's `-k pattern` answer is stored (`path_pattern.csv`: queue, how many
/// solutions it builds, the pieces they use and those left, each list `;`-separated), the
/// same for each queue: how many, and the same sets of pieces.
fn check_by_queue(name: &str, result: &pc_solver::PathResult, failures: &mut Vec<String>) -> bool {
    let Ok(text) = std::fs::read_to_string(data_dir().join(name).join("path_pattern.csv")) else {
        return false;
    };
    let builds = result.by_queue();
    let set = |text: &str| -> BTreeSet<String> {
        text.split(';')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    };
    let mut lines = 0;
    for line in text.lines().skip(1) {
        lines += 1;
        let f = csv_fields(line);
        let queue: Vec<Piece> = f[0].chars().map(|c| Piece::from_char(c).unwrap()).collect();
        let Some(q) = result.queues.iter().position(|r| *r == queue) else {
            failures.push(format!("{name}: no queue {}", f[0]));
            continue;
        };
        let mut used = BTreeSet::new();
        let mut unused = BTreeSet::new();
        for &i in &builds[q] {
            let pieces: Vec<Piece> = result.solutions[i]
                .placements
                .iter()
                .map(|p| p.piece())
                .collect();
            let mut left = queue.clone();
            for piece in &pieces {
                let at = left.iter().position(|p| p == piece).unwrap();
                left.remove(at);
            }
            used.insert(sfinder_sorted(&pieces));
            // sfinder lists nothing when no piece is left.
            if !left.is_empty() {
                unused.insert(sfinder_sorted(&left));
            }
        }
        let ours = (builds[q].len(), used, unused);
        let theirs = (f[1].parse::<usize>().unwrap(), set(&f[2]), set(&f[3]));
        if ours != theirs {
            failures.push(format!(
                "{name}: queue {}: ours {ours:?}, sfinder {theirs:?}",
                f[0]
            ));
        }
    }
    if lines != result.queues.len() {
        failures.push(format!(
            "{name}: {lines} queues in -k pattern, {} ours",
            result.queues.len()
        ));
    }
    true
}

/// A solution as the colour of each cell it fills on the uncleared field.
type Colours = BTreeSet<(char, (u8, u32))>;

fn colours(solution: &Solution) -> Colours {
    solution
        .iter()
        .flat_map(|(piece, cells)| cells.iter().map(move |&cell| (*piece, cell)))
        .collect()
}

/// The coloured cells of a fumen's first page: how sfinder's `-k solution` and `-k use`
/// files draw a solution, every piece on one page, on the uncleared field.
fn fumen_colours(data: &str) -> Colours {
    let fumen = pc_fumen::decode(data).unwrap();
    let field = fumen.pages[0].field();
    let mut out = BTreeSet::new();
    for y in 0..field.height() {
        for x in 0..10 {
            if let pc_fumen::Cell::Piece(piece) = field.cell(x, y) {
                out.insert((piece.to_char(), (x as u8, y)));
            }
        }
    }
    out
}

fn piece_list(text: &str) -> BTreeSet<Vec<Piece>> {
    text.split(';')
        .filter(|s| !s.is_empty())
        .map(|s| s.chars().map(|c| Piece::from_char(c).unwrap()).collect())
        .collect()
}

/// Where sfinder's `-k solution` and `-k use` answers are stored (`path_solution.csv`,
/// `path_use.csv`), the same lines from [`placing_orders`] and
/// [`PatternSet::piece_combinations`](pc_bag::PatternSet::piece_combinations): for each
/// solution (matched by its cells' colours) the pieces it uses, the orders that build it,
/// those the queues give, and the sequences for the pattern; for each combination of
/// pieces, the solutions that use it and the union of their sequences.
fn check_by_solution_and_use(
    case: &Case,
    field: &PcField,
    result: &pc_solver::PathResult,
    failures: &mut Vec<String>,
) -> bool {
    let dir = data_dir().join(&case.name);
    let (Ok(solutions), Ok(uses)) = (
        std::fs::read_to_string(dir.join("path_solution.csv")),
        std::fs::read_to_string(dir.join("path_use.csv")),
    ) else {
        return false;
    };
    let name = &case.name;
    let mut placing = Vec::new();
    placing_orders(field, &rules(case), result, &mut |_, orders| {
        placing.push(orders);
        std::ops::ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(placing.len(), result.solutions.len(), "{name}");
    let solution_colours: Vec<Colours> = result
        .solutions
        .iter()
        .map(|s| colours(&uncleared(field, &s.placements)))
        .collect();
    // Ours, by colours: (pieces used, given orders, orders, sequences for the pattern).
    type Row = (
        String,
        BTreeSet<Vec<Piece>>,
        BTreeSet<Vec<Piece>>,
        BTreeSet<Vec<Piece>>,
    );
    let mut ours: Vec<(Colours, Row)> = Vec::new();
    for (i, p) in placing.iter().enumerate() {
        let pieces: Vec<Piece> = result.solutions[i]
            .placements
            .iter()
            .map(|p| p.piece())
            .collect();
        let given: BTreeSet<Vec<Piece>> = p
            .orders
            .iter()
            .zip(&p.given)
            .filter(|(_, g)| **g)
            .map(|(o, _)| o.clone())
            .collect();
        let row = (
            sfinder_sorted(&pieces),
            given,
            p.orders.iter().cloned().collect(),
            p.pattern_orders.iter().cloned().collect(),
        );
        ours.push((solution_colours[i].clone(), row));
    }
    let mut theirs: Vec<(Colours, Row)> = Vec::new();
    for line in solutions.lines().skip(1) {
        let f = csv_fields(line);
        let data = &f[0][f[0].find("v115@").unwrap()..];
        let row = (
            f[1].clone(),
            piece_list(&f[5]),
            piece_list(&f[6]),
            piece_list(&f[7]),
        );
        let counts = (row.1.len(), row.2.len(), row.3.len());
        let stated = (
            f[2].parse().unwrap(),
            f[3].parse().unwrap(),
            f[4].parse().unwrap(),
        );
        assert_eq!(counts, stated, "{name}: sfinder's counts and lists");
        theirs.push((fumen_colours(data), row));
    }
    ours.sort();
    theirs.sort();
    if ours != theirs {
        failures.push(format!(
            "{name}: -k solution: {} lines ours, {} sfinder's, first differing: {:?}",
            ours.len(),
            theirs.len(),
            ours.iter()
                .zip(&theirs)
                .find(|(a, b)| a != b)
                .map(|(a, _)| &a.1.0)
        ));
    }
    // -k use: each combination of pieces sfinder lists, once (sfinder repeats one for each
    // way a queue deals it), with its solutions and their sequences for the pattern.
    let patterns: pc_bag::PatternSet = case.pattern.parse().unwrap();
    let combinations = patterns.piece_combinations(field.pieces_needed() as usize);
    let mut ours_use = BTreeSet::new();
    for combination in &combinations {
        let mut solutions = BTreeSet::new();
        let mut sequences = BTreeSet::new();
        for (i, s) in result.solutions.iter().enumerate() {
            let mut pieces = pc_bag::PieceMultiset::default();
            for p in &s.placements {
                pieces.insert(p.piece());
            }
            if pieces == *combination {
                solutions.insert(solution_colours[i].clone());
                sequences.extend(placing[i].pattern_orders.iter().cloned());
            }
        }
        let pieces: Vec<Piece> = combination.iter().collect();
        ours_use.insert((sfinder_sorted(&pieces), solutions, sequences));
    }
    let mut theirs_use = BTreeSet::new();
    for line in uses.lines().skip(1) {
        let f = csv_fields(line);
        let solutions: BTreeSet<Colours> = f[3]
            .split(';')
            .filter(|s| !s.is_empty())
            .map(fumen_colours)
            .collect();
        let sequences = piece_list(&f[4]);
        let stated: (usize, usize) = (f[1].parse().unwrap(), f[2].parse().unwrap());
        assert_eq!(
            (solutions.len(), sequences.len()),
            stated,
            "{name}: sfinder's counts and lists"
        );
        theirs_use.insert((f[0].clone(), solutions, sequences));
    }
    if ours_use != theirs_use {
        failures.push(format!(
            "{name}: -k use: {} combinations ours, {} sfinder's; only ours {:?}, only sfinder's {:?}",
            ours_use.len(),
            theirs_use.len(),
            ours_use.difference(&theirs_use).next().map(|r| &r.0),
            theirs_use.difference(&ours_use).next().map(|r| &r.0)
        ));
    }
    true
}
