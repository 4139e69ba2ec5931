//! The PC field graph against the searches it stands in for: a solver with a graph ranks
//! every move with the same chance as one without (the layered search, or the depth-first
//! search with 2-line PCs), on small graphs built here, under SRS, SRS+, hard drop and
//! without hold. The full 4-line graphs are checked the same way on random starts of a PC
//! by the ignored `first_decisions_equal_the_layered_search`.

use pc_solver::{
    DropMode, Engine, GraphError, KickTable, Move, PcField, PcGraph, Piece, Position, Ratio,
    Recommendation, Rules, Solver, SolverError, SolverOptions,
};
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};

fn pieces(s: &str) -> Vec<Piece> {
    s.chars().map(|c| Piece::from_char(c).unwrap()).collect()
}

/// The graph of a field under some rules, built once for all the tests of this file that
/// read it (a build takes the most time of a test here).
fn graph_of(text: &str, clear_line: u32, rules: &Rules) -> Arc<PcGraph> {
    type Built = Vec<((String, u32, Rules), Arc<PcGraph>)>;
    static BUILT: Mutex<Built> = Mutex::new(Vec::new());
    let key = (text.to_string(), clear_line, rules.clone());
    // Held while building: a test that wants the same graph waits for it.
    let mut built = BUILT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, graph)) = built.iter().find(|(k, _)| *k == key) {
        return graph.clone();
    }
    let field = PcField::new(text.parse().unwrap(), clear_line).unwrap();
    let graph =
        Arc::new(PcGraph::build_from(&field, rules, &mut |_| ControlFlow::Continue(())).unwrap());
    built.push((key, graph.clone()));
    graph
}

fn with_graph(graph: &Arc<PcGraph>) -> SolverOptions {
    SolverOptions {
        graph: Some(graph.clone()),
        ..SolverOptions::default()
    }
}

/// A 7-bag stream from a seed (xorshift), as the pieces of consecutive bags.
fn stream(seed: u64, length: usize) -> Vec<Piece> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    while out.len() < length {
        let mut bag = Piece::ALL.to_vec();
        while !bag.is_empty() {
            let i = (next() % bag.len() as u64) as usize;
            out.push(bag.remove(i));
        }
    }
    out
}

/// The position at `phase` pieces into a seeded stream: hold (with the hold rule), the
/// current piece, `preview` pieces, and the rest of their bag.
fn position(
    field: &str,
    clear_line: u32,
    seed: u64,
    phase: usize,
    preview: usize,
    hold: bool,
) -> Position {
    let all = stream(seed, 28);
    let first = phase % 7;
    let start = first + hold as usize;
    let queue = &all[start..start + 1 + preview];
    let seen = start + 1 + preview;
    let bag_start = seen - seen % 7;
    let bag: pc_bag::PieceSet = all[seen..bag_start + 7].iter().copied().collect();
    Position::new(field.parse().unwrap(), queue[0])
        .with_clear_line(clear_line)
        .with_hold(hold.then(|| all[first]))
        .with_preview(&queue[1..])
        .with_bag(bag)
}

/// The recommendation without the engine that made it.
fn values(r: &Recommendation) -> (String, Vec<(bool, String, String)>) {
    let moves = r
        .moves
        .iter()
        .map(|m| {
            (
                m.mv.hold,
                format!("{:?}", m.mv.placement),
                m.chance.to_string(),
            )
        })
        .collect();
    (r.chance.to_string(), moves)
}

/// Ranks positions with and without the graph; returns how many moves agreed.
fn compare(graph: &Arc<PcGraph>, rules: &Rules, positions: &[Position], two_line: bool) -> usize {
    let mut compared = 0;
    for position in positions {
        let preview = position.preview.len();
        let options = SolverOptions {
            preview,
            two_line,
            ..SolverOptions::default()
        };
        let with_graph = SolverOptions {
            graph: Some(graph.clone()),
            ..options.clone()
        };
        let mut with = Solver::with_options(rules.clone(), with_graph).unwrap();
        let mut without = Solver::with_options(rules.clone(), options).unwrap();
        let a = with.recommend(position).unwrap();
        let b = without.recommend(position).unwrap();
        assert_eq!(a.engine, Engine::Graph, "{position:?}");
        assert_ne!(b.engine, Engine::Graph);
        assert_eq!(values(&a), values(&b), "{position:?}");
        assert_eq!(with.chance(position).unwrap(), b.chance, "{position:?}");
        assert_eq!(
            with.best_move(position).unwrap().chance,
            b.chance,
            "{position:?}"
        );
        compared += a.moves.len();
    }
    compared
}

/// SRS, SRS+ and SRS with hard drop.
fn three_rule_sets() -> [Rules; 3] {
    [
        Rules::default(),
        Rules {
            kicks: KickTable::srs_plus(),
            ..Rules::default()
        },
        Rules {
            drop: DropMode::Hard,
            ..Rules::default()
        },
    ]
}

/// The part of an ignored test to run: `PC_PART=k/n` runs every n-th case from the k-th.
fn part() -> (usize, usize) {
    std::env::var("PC_PART").map_or((0, 1), |s| {
        let (k, n) = s.split_once('/').unwrap();
        (k.parse().unwrap(), n.parse().unwrap())
    })
}

const EIGHT_LEFT: &str = "##......../##......../##......../##........";

/// Nine pieces from a PC: with the hold slot empty and four previews, five pieces a PC
/// may use are not known yet, the widest walk, on a graph small enough for every run.
const NINE_LEFT: &str = "....#...../....#...../....#...../....#.....";

#[test]
fn the_graph_ranks_as_the_layered_search_does() {
    for rules in three_rule_sets() {
        let graph = graph_of(EIGHT_LEFT, 4, &rules);
        // Preview 4 and 5 with the hold: four and three pieces not revealed yet.
        let positions: Vec<Position> = (0..6)
            .map(|seed| {
                position(
                    EIGHT_LEFT,
                    4,
                    seed,
                    seed as usize * 3,
                    4 + seed as usize % 2,
                    true,
                )
            })
            .collect();
        let compared = compare(&graph, &rules, &positions, false);
        assert!(compared > 100, "{compared}");
    }
}

#[test]
fn the_graph_ranks_as_the_search_does_without_hold() {
    let rules = Rules::without_hold();
    let graph = graph_of(EIGHT_LEFT, 4, &rules);
    // Previews 3, 4 and 5: four, three and two pieces not revealed yet.
    let positions: Vec<Position> = (0..6)
        .map(|seed| {
            position(
                EIGHT_LEFT,
                4,
                seed,
                seed as usize,
                3 + seed as usize % 3,
                false,
            )
        })
        .collect();
    assert!(compare(&graph, &rules, &positions, false) > 30);
}

/// Positions of the 8-left graph's field with the hold slot empty (previews 4 and 5, at
/// these phases of the bag: phase 0 with preview 5 and phase 1 with preview 4 leave one
/// piece in the bag, which the walk counts as known), and one right after a hold into the
/// empty slot, for each seed.
fn empty_hold_positions(seeds: std::ops::Range<u64>, phases: &[usize]) -> Vec<Position> {
    let mut positions = Vec::new();
    for seed in seeds {
        for &phase in phases {
            for preview in [4, 5] {
                positions.push(position(EIGHT_LEFT, 4, seed, phase, preview, false));
            }
        }
        let mut held = position(EIGHT_LEFT, 4, seed, 3 + seed as usize % 4, 4, true);
        held.hold_used = true;
        positions.push(held);
    }
    positions
}

#[test]
fn empty_hold_slots_and_forced_pieces_rank_as_the_depth_first_search_does() {
    let rules = Rules::default();
    let graph = graph_of(EIGHT_LEFT, 4, &rules);
    let positions = empty_hold_positions(0..1, &[0, 1, 3, 5]);
    let forced = positions.iter().filter(|p| p.bag.len() == 1).count();
    assert!(forced >= 2, "{forced}");
    let compared = compare(&graph, &rules, &positions, false);
    assert!(compared > 60, "{compared}");
}

/// The hold slot empty, three previews and two pieces left in the bag, on the 8-left
/// graph's field: five pieces unknown, more than the preview shows, so no single walk
/// answers; once the first reveal shows one of the bag's two the other is known, so the
/// walks of both their orders do (as the first decision of a game with four previews on
/// the full graph, six unknown). They rank as the depth-first search does.
#[test]
fn two_pieces_left_in_the_bag_rank_as_the_depth_first_search_does() {
    let rules = Rules::default();
    let graph = graph_of(EIGHT_LEFT, 4, &rules);
    let positions: Vec<Position> = (0..3)
        .map(|seed| position(EIGHT_LEFT, 4, seed, 1, 3, false))
        .collect();
    for position in &positions {
        assert_eq!(position.bag.len(), 2, "{position:?}");
    }
    let compared = compare(&graph, &rules, &positions, false);
    assert!(compared > 30, "{compared}");
}

/// A position `placed` pieces into a PC of a seeded stream from `field`: a piece carried in
/// hold, then `placed` moves with a chance (picked by the seed) made with six pieces in view,
/// then `preview` pieces in view and the rest of their bag; `None` when the pieces dealt
/// leave no move with a chance on the way.
fn pieces_in(
    rules: &Rules,
    graph: &Arc<PcGraph>,
    (field, clear_line): (&str, u32),
    (seed, phase): (u64, usize),
    placed: usize,
    preview: usize,
) -> Option<Position> {
    let all = stream(seed, 35);
    let first = phase % 7;
    let six = SolverOptions {
        preview: 6,
        ..with_graph(graph)
    };
    let mut solver = Solver::with_options(rules.clone(), six).unwrap();
    let mut at = position(field, clear_line, seed, phase, 6, true);
    // The stream's index of the current piece.
    let mut current = first + 1;
    for step in 0..placed {
        let ranking = solver.recommend(&at).unwrap();
        let live: Vec<_> = ranking
            .moves
            .iter()
            .filter(|m| !m.chance.is_zero())
            .collect();
        if live.is_empty() {
            return None;
        }
        let m = live[(seed as usize * 7 + step * 3) % live.len()];
        at = at.after(m, &[all[current + 7]]).unwrap();
        current += 1;
    }
    let seen = current + 1 + preview;
    let bag_start = seen - seen % 7;
    let bag: pc_bag::PieceSet = all[seen..bag_start + 7].iter().copied().collect();
    let position = Position::new(at.field, all[current])
        .with_clear_line(at.clear_line)
        .with_hold(at.hold)
        .with_preview(&all[current + 1..seen])
        .with_bag(bag);
    Some(position)
}

/// Ranks positions with a graph and without one (the depth-first search): with the graph
/// its walks answer where they take the position ([`Solver::graph_could_answer`]: two
/// pieces left in the bag, or the window walk), elsewhere the depth-first search, pruned by
/// the graph; returns how many moves agreed.
fn compare_depth_first(graph: &Arc<PcGraph>, rules: &Rules, positions: &[Position]) -> usize {
    let mut compared = 0;
    for position in positions {
        let options = SolverOptions {
            preview: position.preview.len(),
            ..SolverOptions::default()
        };
        let with_graph = SolverOptions {
            graph: Some(graph.clone()),
            ..options.clone()
        };
        let started = std::time::Instant::now();
        let mut with = Solver::with_options(rules.clone(), with_graph).unwrap();
        let a = with.recommend(position).unwrap();
        let with_ms = started.elapsed().as_secs_f64() * 1000.0;
        if std::env::var_os("PC_TIMES").is_some() {
            eprint!("  with the graph {with_ms:.0} ms, ");
        }
        let started = std::time::Instant::now();
        let b = Solver::with_options(rules.clone(), options)
            .unwrap()
            .recommend(position)
            .unwrap();
        let without_ms = started.elapsed().as_secs_f64() * 1000.0;
        let engine = if with.graph_could_answer(position).unwrap() {
            Engine::Graph
        } else {
            Engine::DepthFirst
        };
        assert_eq!(a.engine, engine, "{position:?}");
        assert_eq!(b.engine, Engine::DepthFirst, "{position:?}");
        assert_eq!(values(&a), values(&b), "{position:?}");
        assert_eq!(with.chance(position).unwrap(), b.chance, "{position:?}");
        assert_eq!(
            with.best_move(position).unwrap().chance,
            b.chance,
            "{position:?}"
        );
        if std::env::var_os("PC_TIMES").is_some() {
            eprintln!(
                "without {without_ms:.0} ms: {:?} hold {:?} bag {}: {} ({} moves, {:?})",
                position.queue(),
                position.hold,
                position.bag,
                a.chance,
                a.moves.len(),
                a.engine
            );
        }
        compared += a.moves.len();
    }
    compared
}

/// Whether a position with more pieces unknown than in view is the window walk's alone: a
/// bag that neither forces the next piece nor has two left (then other walks may answer).
fn window_only(position: &Position) -> bool {
    !matches!(position.bag.len(), 1 | 2)
}

/// A few pieces into a PC with one to three pieces in view and more pieces unknown than
/// that (four or five): an unknown piece is placed before the last is revealed, which the
/// window walk takes. It ranks as the depth-first search without the graph does.
#[test]
fn revealed_between_placements_the_window_walk_ranks_as_the_depth_first_search() {
    for rules in three_rule_sets() {
        let graph = graph_of(EIGHT_LEFT, 4, &rules);
        // (placed, preview) of the 8 pieces, one held: three in view and four unknown, two
        // and five, one and five.
        let positions: Vec<Position> = [(1, 2), (1, 1), (2, 0)]
            .into_iter()
            .enumerate()
            .map(|(i, (placed, preview))| {
                (0..)
                    .find_map(|seed| {
                        pieces_in(
                            &rules,
                            &graph,
                            (EIGHT_LEFT, 4),
                            (seed + 9 + 100 * i as u64, seed as usize + i),
                            placed,
                            preview,
                        )
                        .filter(window_only)
                    })
                    .unwrap()
            })
            .collect();
        let options = SolverOptions {
            preview: 1,
            ..with_graph(&graph)
        };
        let solver = Solver::with_options(rules.clone(), options).unwrap();
        assert_eq!(solver.engine_for(&positions[1]).unwrap(), Engine::Graph);
        let compared = compare_depth_first(&graph, &rules, &positions);
        assert!(compared > 20, "{compared}");
    }
}

/// Four pieces in view a piece into a PC (the hold slot filled, nine pieces from a PC, five
/// unknown): the window walk with rows of four-piece windows. Every move is worth the
/// average of the chances after its reveal, which the graph's walk of four unknown answers.
#[test]
fn windows_of_four_pieces_are_worth_their_first_reveal() {
    let rules = Rules::default();
    let graph = graph_of(NINE_LEFT, 4, &rules);
    let options = SolverOptions {
        preview: 3,
        ..with_graph(&graph)
    };
    let solver = || Solver::with_options(rules.clone(), options.clone()).unwrap();
    let positions: Vec<Position> = (0..)
        .map(|seed| position(NINE_LEFT, 4, seed, seed as usize * 2, 3, true))
        .filter(window_only)
        .take(2)
        .collect();
    let mut checked = 0;
    for start in &positions {
        assert_eq!(solver().unknown_pieces(start).unwrap(), 5, "{start:?}");
        checked += check_reveals(&solver, start);
    }
    assert!(checked > 20, "{checked}");
}

/// The window walk without hold, and with 2-line PCs on the way (counted or not), ranks
/// as the depth-first search does.
#[test]
fn windows_without_hold_and_with_two_line_pcs_rank_as_the_depth_first_search() {
    // Without hold, two previews on the 8-left field: five unknown.
    let no_hold = Rules {
        hold: false,
        ..Rules::default()
    };
    let graph = graph_of(EIGHT_LEFT, 4, &no_hold);
    let positions: Vec<Position> = (0..)
        .map(|seed| position(EIGHT_LEFT, 4, seed, 3 * seed as usize, 2, false))
        .filter(window_only)
        .take(2)
        .collect();
    assert!(compare(&graph, &no_hold, &positions, false) > 10);
    // Two pieces fill the bottom rows: a 2-line PC on the way to the 4-line one, seven
    // pieces away. One or two previews: five or four unknown.
    let field = "........../........../######..../######....";
    let rules = Rules::default();
    let graph = graph_of(field, 4, &rules);
    let positions: Vec<Position> = (0..)
        .map(|seed| {
            position(
                field,
                4,
                seed,
                seed as usize * 3,
                1 + seed as usize % 2,
                true,
            )
        })
        .filter(window_only)
        .take(4)
        .collect();
    assert!(compare(&graph, &rules, &positions, true) > 20);
    assert!(compare(&graph, &rules, &positions, false) > 20);
}

/// Checks that every move of `start` (and holding first) is worth the chance after the
/// pieces it reveals, averaged over what the bag deals: the chance of a decision with one
/// more piece unknown from those of the decisions after it, each asked of a solver of its
/// own (`solver()` makes one), so no walk reads another's values. Returns the moves checked.
fn check_reveals(solver: &dyn Fn() -> Solver, start: &Position) -> usize {
    let ranking = solver().recommend(start).unwrap();
    assert_eq!(ranking.engine, Engine::Graph, "{start:?}");
    let bag = start.bag_state();
    let worth = |reveals: usize, after: &dyn Fn(&[Piece]) -> Position| {
        let chances: Vec<Ratio> = bag
            .continuations(reveals)
            .unwrap()
            .map(|(revealed, p)| {
                let chance = solver().chance(&after(&revealed.to_vec())).unwrap();
                chance.checked_mul(p).unwrap()
            })
            .collect();
        Ratio::checked_sum(chances).unwrap()
    };
    for m in &ranking.moves {
        // A hold into the empty slot that places the next piece reveals two.
        let reveals = if m.mv.hold && start.hold.is_none() {
            2
        } else {
            1
        };
        let chance = worth(reveals, &|revealed| start.after(m, revealed).unwrap());
        assert_eq!(chance, m.chance, "{start:?}: {:?}", m.mv);
    }
    if let Some(hold_first) = ranking.hold_first {
        let chance = worth(1, &|revealed| start.after_hold(revealed[0]).unwrap());
        assert_eq!(chance, hold_first, "{start:?}");
    }
    ranking.moves.len()
}

#[test]
fn five_unknown_pieces_are_worth_their_first_reveal() {
    let rules = Rules::default();
    let graph = graph_of(NINE_LEFT, 4, &rules);
    let mut checked = 0;
    for phase in [1, 4] {
        let start = position(NINE_LEFT, 4, 7, phase, 4, false);
        let options = SolverOptions {
            preview: 4,
            ..with_graph(&graph)
        };
        let solver = || Solver::with_options(rules.clone(), options.clone()).unwrap();
        checked += check_reveals(&solver, &start);
    }
    assert!(checked > 40, "{checked}");
}

/// The stop flag ends the graph's walk with `SolverError::Stopped`, set before the
/// question or from another thread while it runs; cleared, the solver answers as a fresh
/// one does.
#[test]
fn a_stopped_walk_is_an_error_and_the_solver_goes_on() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let rules = Rules::default();
    let graph = graph_of(NINE_LEFT, 4, &rules);
    let start = position(NINE_LEFT, 4, 7, 1, 4, false);
    let options = SolverOptions {
        preview: 4,
        ..with_graph(&graph)
    };
    let fresh = Solver::with_options(rules.clone(), options.clone())
        .unwrap()
        .recommend(&start)
        .unwrap();
    assert_eq!(fresh.engine, Engine::Graph);
    let stop = Arc::new(AtomicBool::new(true));
    let mut solver = Solver::with_options(rules.clone(), options).unwrap();
    solver.set_stop(Some(stop.clone()));
    assert_eq!(solver.recommend(&start), Err(SolverError::Stopped));
    assert_eq!(solver.best_move(&start).err(), Some(SolverError::Stopped));
    // From another thread, soon after the walk starts: stopped, or done first.
    stop.store(false, Ordering::Relaxed);
    let setter = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(1));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let raced = solver.recommend(&start);
    setter.join().unwrap();
    match raced {
        Ok(ranking) => assert_eq!(values(&ranking), values(&fresh)),
        Err(e) => assert_eq!(e, SolverError::Stopped),
    }
    stop.store(false, Ordering::Relaxed);
    assert_eq!(values(&solver.recommend(&start).unwrap()), values(&fresh));
}

/// More seeds of the above, under SRS+ and hard drop too:
/// `cargo test -p pc-solver --release --test graph -- --ignored more_empty_hold`
#[test]
#[ignore]
fn more_empty_hold_slots_and_forced_pieces() {
    for rules in three_rule_sets() {
        let graph = graph_of(EIGHT_LEFT, 4, &rules);
        let positions = empty_hold_positions(1..4, &[0, 1, 2, 3, 4, 5, 6]);
        let compared = compare(&graph, &rules, &positions, false);
        assert!(compared > 300, "{compared}");
    }
}

#[test]
fn a_two_line_pc_on_the_way_counts_when_asked() {
    // Two pieces fill the bottom rows: a 2-line PC on the way to the 4-line one.
    let field = "........../........../######..../######....";
    let rules = Rules::default();
    let graph = graph_of(field, 4, &rules);
    let positions: Vec<Position> = (0..4)
        .map(|seed| {
            position(
                field,
                4,
                seed,
                seed as usize * 2,
                4 + seed as usize % 2,
                true,
            )
        })
        .collect();
    assert!(compare(&graph, &rules, &positions, true) > 20);
    assert!(compare(&graph, &rules, &positions, false) > 20);
}

#[test]
fn fields_the_graph_does_not_have_go_to_the_searches() {
    let rules = Rules::default();
    let graph = graph_of(EIGHT_LEFT, 4, &rules);
    let mut solver = Solver::with_options(rules, with_graph(&graph)).unwrap();
    // The PCO field is not on the way from the graph's start.
    let pco = Position::new(
        "##.....###/###....###/####...###/###....###"
            .parse()
            .unwrap(),
        Piece::T,
    )
    .with_hold(Some(Piece::I))
    .with_preview(&pieces("LOSJZ"));
    let r = solver.recommend(&pco).unwrap();
    assert_ne!(r.engine, Engine::Graph);
    assert!(r.chance.is_one());
    // Nor are more unknown pieces than the walk takes: an empty hold slot and a preview
    // of 3 leave five of the nine pieces a PC of this field may use unknown.
    let five_unknown = position(EIGHT_LEFT, 4, 1, 0, 3, false);
    let options = SolverOptions {
        preview: 3,
        ..with_graph(&graph)
    };
    let solver = Solver::with_options(Rules::default(), options).unwrap();
    assert_ne!(solver.engine_for(&five_unknown).unwrap(), Engine::Graph);
}

#[test]
fn a_field_with_no_pc_has_no_graph() {
    let build = |text: &str, clear_line: u32| {
        let field = PcField::new(text.parse().unwrap(), clear_line).unwrap();
        PcGraph::build_from(
            &field,
            &Rules::default(),
            &mut |_| ControlFlow::Continue(()),
        )
    };
    // A well one cell wide: an I finishes it.
    let well = build("#########./#########./#########./#########.", 4).unwrap();
    assert_eq!(well.fields_per_layer(), [1, 1]);
    // Four cells no piece covers.
    let scattered = build(".#########/##.#######/#########./#########.", 4);
    assert!(matches!(scattered, Err(GraphError::NoPerfectClear)));
    // Six rows: more than a graph holds.
    assert!(matches!(build("", 6), Err(GraphError::StartTooHigh(6))));
}

#[test]
fn a_graph_of_other_rules_is_refused() {
    let graph = graph_of(EIGHT_LEFT, 4, &Rules::default());
    let srs_plus = Rules {
        kicks: KickTable::srs_plus(),
        ..Rules::default()
    };
    assert!(matches!(
        Solver::with_options(srs_plus, with_graph(&graph)),
        Err(SolverError::GraphRules { .. })
    ));
}

/// The full graphs of SRS, SRS+ and hard drop, read from the cache folder (`PC_GRAPH_DIR`)
/// or built into it.
fn full_graphs() -> ([Rules; 3], Vec<Arc<PcGraph>>) {
    let rule_sets = three_rule_sets();
    let graphs = rule_sets
        .iter()
        .map(|rules| {
            let path = PcGraph::cache_path(rules).expect("a cache folder (set PC_GRAPH_DIR)");
            Arc::new(PcGraph::load(&path, rules).unwrap_or_else(|_| {
                let graph = PcGraph::build(rules).unwrap();
                graph.save(&path).unwrap();
                graph
            }))
        })
        .collect();
    (rule_sets, graphs)
}

/// Starts of a PC with four previews on the full graphs of SRS, SRS+ and hard drop: the
/// hold slot filled and five pieces not known yet. Every move's chance is the average of
/// the chances after its reveal, which walks of four unknown pieces answer. `PC_STARTS`
/// sets how many (6 by default, one for each phase of the bag with no piece forced),
/// `PC_PART=k/n` runs every n-th from the k-th:
/// `cargo test -p pc-solver --release --test graph -- --ignored --nocapture four_previews`
#[test]
#[ignore]
fn pc_starts_with_four_previews_are_worth_their_first_reveal() {
    let starts: usize = std::env::var("PC_STARTS").map_or(6, |s| s.parse().unwrap());
    let (part, parts) = part();
    let (rule_sets, graphs) = full_graphs();
    let mut checked = 0;
    for i in (part..starts).step_by(parts) {
        let which = i % rule_sets.len();
        let start = position("", 4, 2000 + i as u64, 1 + i % 6, 4, true);
        let options = SolverOptions {
            preview: 4,
            ..with_graph(&graphs[which])
        };
        let rules = &rule_sets[which];
        let solver = || Solver::with_options(rules.clone(), options.clone()).unwrap();
        let moves = check_reveals(&solver, &start);
        eprintln!(
            "start {i} (rules {which}): hold {:?}, queue {:?}, bag {}: {moves} moves agreed",
            start.hold,
            start.queue(),
            start.bag
        );
        checked += moves;
    }
    assert!(checked > 0);
}

/// Random starts of a PC on the full graphs of SRS, SRS+ and hard drop (built into, or
/// read from, the cache folder: `PC_GRAPH_DIR`): every move's chance with the graph equals
/// the layered search's. `PC_STARTS` sets how many (500 by default), `PC_PART=k/n` runs
/// every n-th from the k-th.
///
/// `cargo test -p pc-solver --release --test graph -- --ignored --nocapture`
#[test]
#[ignore]
fn first_decisions_equal_the_layered_search() {
    let starts: usize = std::env::var("PC_STARTS").map_or(500, |s| s.parse().unwrap());
    let (part, parts) = part();
    let (rule_sets, graphs) = full_graphs();
    let mut moves = 0;
    for i in (part..starts).step_by(parts) {
        let which = i % rule_sets.len();
        // A start of a PC: the empty field, a piece carried in hold, six in view, at a
        // seeded phase of the bag.
        let start = position("", 4, 1000 + i as u64, i * 5, 5, true);
        // The graph's time, for the record (the comparison below times nothing).
        let started = std::time::Instant::now();
        Solver::with_options(rule_sets[which].clone(), with_graph(&graphs[which]))
            .unwrap()
            .recommend(&start)
            .unwrap();
        let graph_ms = started.elapsed().as_secs_f64() * 1000.0;
        moves += compare(
            &graphs[which],
            &rule_sets[which],
            std::slice::from_ref(&start),
            false,
        );
        eprintln!(
            "start {i} (rules {which}): hold {:?}, queue {:?}, bag {}: agreed; graph {graph_ms:.0} ms",
            start.hold,
            start.queue(),
            start.bag
        );
    }
    assert!(moves > 0);
}

/// The first decision of a game with four previews on the full graphs of SRS, SRS+ and
/// hard drop: the hold slot empty, six pieces unknown, two of them the first bag's, which
/// the walks of both their orders answer. Every move is worth the chance after its
/// reveal, which single walks of four unknown pieces answer (the bag's last piece then
/// forced). `PC_STARTS` sets how many (3 by default), `PC_PART=k/n` runs every n-th:
/// `cargo test -p pc-solver --release --test graph -- --ignored --nocapture first_decisions_with_four_previews`
#[test]
#[ignore]
fn first_decisions_with_four_previews_are_worth_their_first_reveal() {
    let starts: usize = std::env::var("PC_STARTS").map_or(3, |s| s.parse().unwrap());
    let (part, parts) = part();
    let (rule_sets, graphs) = full_graphs();
    let mut checked = 0;
    for i in (part..starts).step_by(parts) {
        let which = i % rule_sets.len();
        let start = position("", 4, 100 + i as u64, 0, 4, false);
        assert_eq!(start.bag.len(), 2, "{start:?}");
        let options = SolverOptions {
            preview: 4,
            ..with_graph(&graphs[which])
        };
        let solver = || Solver::with_options(rule_sets[which].clone(), options.clone()).unwrap();
        let moves = check_reveals(&solver, &start);
        eprintln!(
            "start {i} (rules {which}): queue {:?}, bag {}: {moves} moves worth their reveal",
            start.queue(),
            start.bag
        );
        checked += moves;
    }
    assert!(checked > 0);
}

/// Starts of a PC with four previews (five pieces unknown) and first decisions of a game
/// (the hold slot empty, five previews) on the full graphs of SRS, SRS+ and hard drop: with
/// two threads making the walk's last depth, every move's chance is the one a thread
/// alone gives. `PC_STARTS` sets how many of each (6 by default), `PC_PART=k/n` runs every
/// n-th from the k-th:
/// `cargo test -p pc-solver --release --test graph -- --ignored --nocapture two_threads`
#[test]
#[ignore]
fn the_walk_on_two_threads_ranks_as_on_one() {
    let starts: usize = std::env::var("PC_STARTS").map_or(6, |s| s.parse().unwrap());
    let (part, parts) = part();
    let (rule_sets, graphs) = full_graphs();
    let mut moves = 0;
    for i in (part..starts).step_by(parts) {
        let which = i % rule_sets.len();
        let four_previews = position("", 4, 3000 + i as u64, 1 + i % 6, 4, true);
        let first_of_a_game = position("", 4, 3100 + i as u64, 0, 5, false);
        for (start, preview) in [(four_previews, 4), (first_of_a_game, 5)] {
            let solver = |threads| {
                let options = SolverOptions {
                    preview,
                    threads,
                    ..with_graph(&graphs[which])
                };
                Solver::with_options(rule_sets[which].clone(), options).unwrap()
            };
            let one = solver(1).recommend(&start).unwrap();
            let two = solver(2).recommend(&start).unwrap();
            assert_eq!(one.engine, Engine::Graph, "{start:?}");
            assert_eq!(values(&one), values(&two), "{start:?}");
            eprintln!(
                "start {i} (rules {which}): hold {:?}, queue {:?}, bag {}: {} moves agreed",
                start.hold,
                start.queue(),
                start.bag,
                one.moves.len()
            );
            moves += one.moves.len();
        }
    }
    assert!(moves > 0);
}

/// Random position `i` a few pieces into a PC on the full graph of rule set `i % 3`:
/// `placed` pieces placed from the empty field with a chance left on the way, the hold slot
/// filled, `preview` previews. Returns the rule set's index and the position.
fn a_few_pieces_in(
    i: usize,
    rule_sets: &[Rules; 3],
    graphs: &[Arc<PcGraph>],
    placed: usize,
    preview: usize,
) -> (usize, Position) {
    let which = i % rule_sets.len();
    // The first seed from this one whose pieces leave a chance on the way.
    let at = (0..)
        .find_map(|retry| {
            pieces_in(
                &rule_sets[which],
                &graphs[which],
                ("", 4),
                (4000 + i as u64 + 1000 * retry, i % 7),
                placed,
                preview,
            )
        })
        .unwrap();
    (which, at)
}

/// Random position `i` of five pieces unknown a few pieces into a PC, on the full graph of
/// rule set `i % 3`: two or three placed, the hold slot filled, two or one previews. Returns
/// the rule set's index, the pieces placed and the position.
fn five_unknown_in(
    i: usize,
    rule_sets: &[Rules; 3],
    graphs: &[Arc<PcGraph>],
) -> (usize, usize, Position) {
    let placed = 2 + i / 3 % 2;
    let (which, at) = a_few_pieces_in(i, rule_sets, graphs, placed, 4 - placed);
    (which, placed, at)
}

/// Random positions with five pieces unknown a few pieces into a PC (two or three placed,
/// the hold slot filled, previews 2 and 1: the window walk, or the walks of both orders of
/// the bag's last two; one placed with three previews takes the search without a graph
/// minutes, `one_piece_in_with_three_previews_equals_the_depth_first_search`) on the full
/// graphs of SRS, SRS+ and hard drop: every move's chance with the graph equals the
/// depth-first search's without it.
/// `PC_POSITIONS` sets how many (100 by default), `PC_PART=k/n` runs every n-th from the
/// k-th, `PC_TIMES=1` prints each one's times:
/// `PC_TIMES=1 cargo test -p pc-solver --release --test graph -- --ignored --nocapture five_unknown_a_few`
#[test]
#[ignore]
fn five_unknown_a_few_pieces_in_equal_the_depth_first_search() {
    let count: usize = std::env::var("PC_POSITIONS").map_or(100, |s| s.parse().unwrap());
    let (part, parts) = part();
    let (rule_sets, graphs) = full_graphs();
    let mut moves = 0;
    for i in (part..count).step_by(parts) {
        let (which, placed, at) = five_unknown_in(i, &rule_sets, &graphs);
        let agreed = compare_depth_first(&graphs[which], &rule_sets[which], &[at]);
        eprintln!("position {i} (rules {which}, {placed} placed): {agreed} moves agreed");
        moves += agreed;
    }
    assert!(moves > 0);
}

/// Random positions one piece into a PC with three previews (the hold slot filled, five
/// pieces unknown: the window walk of four pieces in view) on the full graphs of SRS, SRS+
/// and hard drop: every move's chance equals the depth-first search's (with the graph:
/// without it, minutes each). `PC_POSITIONS` sets how many (12 by default), `PC_PART=k/n`
/// runs every n-th from the k-th, `PC_TIMES=1` prints each one's times:
/// `PC_TIMES=1 cargo test -p pc-solver --release --test graph -- --ignored --nocapture one_piece_in`
#[test]
#[ignore]
fn one_piece_in_with_three_previews_equals_the_depth_first_search() {
    let count: usize = std::env::var("PC_POSITIONS").map_or(12, |s| s.parse().unwrap());
    let (part, parts) = part();
    let (rule_sets, graphs) = full_graphs();
    let mut moves = 0;
    for i in (part..count).step_by(parts) {
        let (which, at) = a_few_pieces_in(i, &rule_sets, &graphs, 1, 3);
        let options = SolverOptions {
            preview: 3,
            ..with_graph(&graphs[which])
        };
        let solver = || Solver::with_options(rule_sets[which].clone(), options.clone()).unwrap();
        let started = std::time::Instant::now();
        let a = solver().recommend(&at).unwrap();
        let window_ms = started.elapsed().as_secs_f64() * 1000.0;
        let started = std::time::Instant::now();
        let b = solver().recommend_by(&at, Engine::DepthFirst).unwrap();
        let depth_first_ms = started.elapsed().as_secs_f64() * 1000.0;
        assert_eq!(a.engine, Engine::Graph, "{at:?}");
        assert_eq!(values(&a), values(&b), "{at:?}");
        if std::env::var_os("PC_TIMES").is_some() {
            eprintln!(
                "  the graph {window_ms:.0} ms, the depth-first search {depth_first_ms:.0} ms: {:?} hold {:?} bag {}: {}",
                at.queue(),
                at.hold,
                at.bag,
                a.chance
            );
        }
        eprintln!(
            "position {i} (rules {which}): {} moves agreed",
            a.moves.len()
        );
        moves += a.moves.len();
    }
    assert!(moves > 0);
}

/// How far [`Solver::estimate`] is from the exact chance a few pieces into a PC with six
/// pieces unknown (two or three placed, the hold slot filled, one preview or none), more
/// than the window walk takes: each draw adds pieces to the preview until a walk answers,
/// and the estimate is never below the exact chance by more than four standard errors.
/// The exact chance is the best move's average over the piece it reveals of the chance
/// after that (five unknown, which the window walk answers). Positions whose bag forces the
/// next piece (five unknown) are left out. Prints each (`PC_POSITIONS`, default 30):
/// `cargo test -p pc-solver --release --test graph -- --ignored --nocapture estimates_a_few`
#[test]
#[ignore]
fn estimates_a_few_pieces_in_bound_the_exact_chance() {
    let count: usize = std::env::var("PC_POSITIONS").map_or(30, |s| s.parse().unwrap());
    let (rule_sets, graphs) = full_graphs();
    let mut gaps = Vec::new();
    for i in 0..count {
        // Six unknown: a preview fewer than `five_unknown_in`'s.
        let placed = 2 + i / 3 % 2;
        let (which, at) = a_few_pieces_in(i, &rule_sets, &graphs, placed, 3 - placed);
        let options = SolverOptions {
            preview: at.preview.len(),
            ..with_graph(&graphs[which])
        };
        let mut solver = Solver::with_options(rule_sets[which].clone(), options).unwrap();
        if solver.unknown_pieces(&at).unwrap() < 6 {
            continue; // the bag forces the next piece: the window walk answers
        }
        let started = std::time::Instant::now();
        let asked = pc_solver::EstimateOptions {
            samples: 32,
            seed: i as u64,
        };
        let estimate = solver.estimate(&at, asked).unwrap();
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        assert!(estimate.revealed > 0, "{at:?}");
        // Each move's exact chance from the positions after its reveal.
        let bag = at.bag_state();
        let worth = |mv: Move, solver: &mut Solver| {
            let chances = bag.continuations(1).unwrap().map(|(revealed, p)| {
                let after = at.after(mv, &revealed.to_vec()).unwrap();
                let chance = solver.chance(&after).unwrap();
                // The window walk, or a field the graph does not have: no PC from it.
                let by_graph = solver.engine_for(&after).unwrap() == Engine::Graph;
                assert!(by_graph || chance.is_zero(), "{after:?}");
                chance.checked_mul(p).unwrap()
            });
            Ratio::checked_sum(chances.collect::<Vec<_>>()).unwrap()
        };
        let exact: Vec<Ratio> = estimate
            .moves
            .iter()
            .map(|m| worth(m.mv, &mut solver))
            .collect();
        let best = exact.iter().copied().max().unwrap();
        let gap = estimate.chance.value - best.to_f64();
        eprintln!(
            "position {i}: exact {:.4}, estimate {:.4} ± {:.4} ({} more in view, {ms:.0} ms), its best move best: {}",
            best.to_f64(),
            estimate.chance.value,
            estimate.chance.std_error,
            estimate.revealed,
            exact[0] == best,
        );
        assert!(gap > -4.0 * estimate.chance.std_error - 1e-9, "{i}: {gap}");
        gaps.push(gap);
    }
    assert!(gaps.len() > count / 2, "{} of {count}", gaps.len());
    gaps.sort_by(f64::total_cmp);
    eprintln!(
        "gap: median {:.4}, max {:.4}",
        gaps[gaps.len() / 2],
        gaps[gaps.len() - 1]
    );
}

/// The first decision of a game (the empty field, the hold slot empty, the current piece
/// and five in view, the last piece of the first bag forced) from the full graphs of SRS,
/// SRS+ and hard drop, against the depth-first search: minutes each, so in parts
/// (`PC_PART=k/n`, `PC_GAMES`, default 20):
/// `PC_PART=0/4 cargo test -p pc-solver --release --test graph -- --ignored --nocapture first_decisions_of_a_game`
#[test]
#[ignore]
fn first_decisions_of_a_game_equal_the_depth_first_search() {
    let games: usize = std::env::var("PC_GAMES").map_or(20, |s| s.parse().unwrap());
    let (part, parts) = part();
    let rule_sets = three_rule_sets();
    let mut moves = 0;
    for i in (part..games).step_by(parts) {
        let which = i % rule_sets.len();
        let rules = &rule_sets[which];
        let path = PcGraph::cache_path(rules).expect("a cache folder (set PC_GRAPH_DIR)");
        let graph = Arc::new(PcGraph::load(&path, rules).expect("the graph cached"));
        let first = position("", 4, 2000 + i as u64, 0, 5, false);
        assert_eq!(first.bag.len(), 1);
        let started = std::time::Instant::now();
        moves += compare(&graph, rules, std::slice::from_ref(&first), false);
        eprintln!(
            "game {i} (rules {which}): queue {:?}, bag {}: agreed in {:.0} s",
            first.queue(),
            first.bag,
            started.elapsed().as_secs_f64()
        );
    }
    assert!(moves > 0);
}

/// A piece the bag forces counts as known in the walk: on the full SRS graph, each
/// placement's chance equals the chance of the position after it with that piece
/// revealed (a decision with no forced piece), and holding first equals the position
/// after the hold; for a start with four previews whose fifth piece is forced and for
/// first decisions of a game. `PC_GAMES` first bags (default 3):
/// `cargo test -p pc-solver --release --test graph -- --ignored --nocapture a_forced_piece`
#[test]
#[ignore]
fn a_forced_piece_is_worth_its_reveal() {
    let games: u64 = std::env::var("PC_GAMES").map_or(3, |s| s.parse().unwrap());
    let rules = Rules::default();
    let path = PcGraph::cache_path(&rules).expect("a cache folder (set PC_GRAPH_DIR)");
    let graph = Arc::new(PcGraph::load(&path, &rules).expect("the SRS graph cached"));
    let mut starts = vec![
        Position::new(Default::default(), Piece::J)
            .with_hold(Some(Piece::I))
            .with_preview(&pieces("LOST"))
            .with_bag("Z".parse().unwrap()),
    ];
    starts.extend((0..games).map(|seed| position("", 4, 3000 + seed, 0, 5, false)));
    let mut checked = 0;
    for start in &starts {
        let forced = start.bag.first().expect("one piece left");
        assert_eq!(start.bag.len(), 1);
        let options = SolverOptions {
            preview: start.preview.len(),
            ..with_graph(&graph)
        };
        let mut solver = Solver::with_options(rules.clone(), options).unwrap();
        let ranking = solver.recommend(start).unwrap();
        assert_eq!(ranking.engine, Engine::Graph);
        for m in &ranking.moves {
            // A hold into the empty slot that places the next piece reveals two.
            if m.mv.hold && start.hold.is_none() {
                continue;
            }
            let after = start.after(m, &[forced]).unwrap();
            assert!(after.bag.is_empty());
            let chance = solver.chance(&after).unwrap();
            assert_eq!(chance, m.chance, "{start:?}: {:?}", m.mv);
            checked += 1;
        }
        if let Some(hold_first) = ranking.hold_first {
            let after = start.after_hold(forced).unwrap();
            assert_eq!(solver.chance(&after).unwrap(), hold_first, "{start:?}");
        }
        eprintln!(
            "{:?} hold {:?}, bag {}: {} ({} moves)",
            start.queue(),
            start.hold,
            start.bag,
            ranking.chance,
            ranking.moves.len()
        );
    }
    assert!(checked > 100, "{checked}");
}
