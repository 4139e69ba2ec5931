//! [`PcGraph`]: the graph of perfect clears from one start field under one rule set.

use super::edge::NO_CHILD;
use super::edge::{edge_move, edge_piece, unlink};
use super::error::GraphError;
use super::four_left::{FourLeft, LazyFourLeft};
use super::layer::{Layer, SMALL_NEXT, links_of};
use super::parallel::{by_runs, runs_for};
use super::{key, lookup, moves, three_left};
use crate::field::PcField;
use crate::rules::RulesId;
use pc_srs::Piece;

/// The graph of perfect clears from one start field under one rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PcGraph {
    pub(crate) rules: RulesId,
    /// The start field's key.
    pub(crate) start: u64,
    /// Layer `k`: the fields with `k` pieces placed since the start.
    pub(crate) layers: Vec<Layer>,
    /// The fields three pieces from a PC in classes, once the graph is indexed
    /// ([`PcGraph::index_small_layers`]).
    pub(crate) three_left: Option<three_left::ThreeLeft>,
    /// The fields four pieces from a PC in classes, made the first time a walk of five
    /// unknown pieces asks ([`PcGraph::four_left`]); clones share them.
    pub(crate) four_left: LazyFourLeft,
}

impl PcGraph {
    /// The number of fields.
    pub fn fields(&self) -> u64 {
        self.layers.iter().map(|l| l.len() as u64).sum()
    }

    /// The number of edges (a field, a piece and a field one placement of it makes).
    pub fn transitions(&self) -> u64 {
        self.layers.iter().map(|l| l.edge_count() as u64).sum()
    }

    /// The fields of each layer (pieces placed since the start).
    pub fn fields_per_layer(&self) -> Vec<u64> {
        self.layers.iter().map(|l| l.len() as u64).collect()
    }

    /// The field the graph starts from (the empty field of four rows for
    /// [`PcGraph::build`]).
    pub fn start(&self) -> PcField {
        key::unpack(self.start)
    }

    /// The rules the graph was built for.
    pub fn rules_id(&self) -> RulesId {
        self.rules
    }

    /// The classes of the fields four pieces from a PC ([`FourLeft`]), made the first time
    /// they are asked for (seconds on a full graph, on the machine's threads); `None`
    /// when the graph has no such layer.
    pub(crate) fn four_left(&self) -> Option<&FourLeft> {
        self.four_left.get_or_make(|| {
            let three = self.three_left.as_ref()?;
            let fields = self.layers.get(three.layer.checked_sub(1)?)?.len();
            FourLeft::in_runs(&self.layers, three, runs_for(fields))
        })
    }

    /// Makes now what the first decision with five unknown pieces would otherwise make
    /// before it can walk: the classes of the fields four pieces from a PC (the walk
    /// finds its leaves' children in one pass through that layer's keys, so it needs no
    /// lookup table there). Seconds on a full graph on the machine's threads, and tens of
    /// megabytes kept with the graph.
    ///
    /// Such decisions come at the start of a PC with four previews. Calling this on a
    /// spare thread after loading takes that time out of the first of them; the graph's
    /// clones share what it makes, and a second call, or a decision meanwhile, waits for
    /// the first instead of making it again. A graph without fields four pieces from a PC
    /// makes nothing.
    ///
    /// ```
    /// use pc_solver::{PcField, PcGraph, Rules};
    /// use std::ops::ControlFlow;
    ///
    /// let rows = "######..../######..../######..../######....";
    /// let start = PcField::new(rows.parse()?, 4)?;
    /// let graph = PcGraph::build_from(&start, &Rules::default(), &mut |_| ControlFlow::Continue(()))?;
    /// // On a thread of its own while the program goes on; `graph` shares what it makes.
    /// let spare = graph.clone();
    /// let preparing = std::thread::spawn(move || spare.prepare_five_unknown());
    /// # preparing.join().unwrap();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepare_five_unknown(&self) {
        self.four_left();
    }

    /// What [`PcGraph::prepare_five_unknown`] made, as bytes to keep beside the graph's
    /// file and give to [`PcGraph::prepare_five_unknown_from`] after a later load of the
    /// same graph: a check of the bytes there instead of seconds of work here. Four bytes
    /// for each field four pieces from a PC, each of their classes and each class's move
    /// (tens of megabytes for a full graph); `None` until it is made, and for a graph
    /// without such fields.
    ///
    /// Keep the bytes as a file written whole or not at all (a temporary file renamed
    /// over it); a file cut short or damaged is an error when it is read back, never a
    /// wrong answer.
    ///
    /// ```
    /// use pc_solver::{PcField, PcGraph, Rules};
    /// use std::ops::ControlFlow;
    ///
    /// let rows = "######..../######..../######..../######....";
    /// let start = PcField::new(rows.parse()?, 4)?;
    /// let rules = Rules::default();
    /// let graph = PcGraph::build_from(&start, &rules, &mut |_| ControlFlow::Continue(()))?;
    /// assert!(graph.prepared_five_unknown().is_none(), "not made yet");
    /// graph.prepare_five_unknown();
    /// let prepared = graph.prepared_five_unknown().expect("made");
    ///
    /// // Later, the same graph loaded again: the classes read instead of made.
    /// let again = PcGraph::from_bytes(&graph.to_bytes(), &rules)?;
    /// again.prepare_five_unknown_from(&prepared)?;
    /// assert_eq!(again.prepared_five_unknown(), Some(prepared));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepared_five_unknown(&self) -> Option<Vec<u8>> {
        let four = self.four_left.get()??;
        Some(super::prepared::encode(self, four))
    }

    /// Takes what [`PcGraph::prepare_five_unknown`] makes from `bytes` that
    /// [`PcGraph::prepared_five_unknown`] gave for this graph (its rules, start, layers and
    /// classes three pieces from a PC), instead of making it: one pass over the bytes, and
    /// memory their size. The bytes are checked whether or not the graph has made it
    /// already; when it has, it keeps what it made.
    ///
    /// # Errors
    /// [`GraphError::Truncated`] for bytes cut short (or whose sizes were damaged into
    /// larger ones), [`GraphError::Checksum`] for damaged ones, [`GraphError::OtherRules`]
    /// or [`GraphError::OtherGraph`] for bytes of another graph, [`GraphError::Version`]
    /// for another version of the bytes, and [`GraphError::Malformed`] for bytes that are
    /// not such classes (or name classes and moves this graph does not have). The graph is
    /// unchanged then.
    pub fn prepare_five_unknown_from(&self, bytes: &[u8]) -> Result<(), GraphError> {
        let four = super::prepared::decode(self, bytes)?;
        self.four_left.set(four);
        Ok(())
    }

    /// Writes [`PcGraph::prepared_five_unknown`] to `path` whole or not at all, as
    /// [`PcGraph::save`] writes a graph; `Ok(false)`, writing nothing, when there is nothing
    /// made to write.
    ///
    /// # Errors
    /// [`GraphError::Io`] when the file cannot be written.
    pub fn save_prepared_five_unknown(&self, path: &std::path::Path) -> Result<bool, GraphError> {
        let Some(bytes) = self.prepared_five_unknown() else {
            return Ok(false);
        };
        super::file::write_whole(path, &bytes)?;
        Ok(true)
    }

    /// [`PcGraph::prepare_five_unknown_from`] the bytes of the file at `path`
    /// ([`PcGraph::save_prepared_five_unknown`]).
    ///
    /// # Errors
    /// [`GraphError::Io`] when the file cannot be read (a missing file among them: see
    /// [`std::io::ErrorKind::NotFound`]), else those of
    /// [`PcGraph::prepare_five_unknown_from`] in a [`GraphError::File`] naming it.
    pub fn prepare_five_unknown_from_file(&self, path: &std::path::Path) -> Result<(), GraphError> {
        let bytes = std::fs::read(path).map_err(|source| GraphError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        self.prepare_five_unknown_from(&bytes)
            .map_err(|error| error.in_file(path))
    }

    /// [`PcGraph::prepare_five_unknown`], read from the file at `path` when it holds a good
    /// copy ([`PcGraph::prepare_five_unknown_from_file`]), else made and written there
    /// whole ([`PcGraph::save_prepared_five_unknown`], over a missing, damaged or other
    /// graph's file): whether it was read. A graph without fields four pieces from a PC
    /// reads and writes nothing.
    ///
    /// # Errors
    /// [`GraphError::Io`] when the file cannot be written; what was made stays made.
    pub fn prepare_five_unknown_kept_at(&self, path: &std::path::Path) -> Result<bool, GraphError> {
        if self.three_left.is_none() {
            return Ok(false);
        }
        if self.prepare_five_unknown_from_file(path).is_ok() {
            return Ok(true);
        }
        self.prepare_five_unknown();
        self.save_prepared_five_unknown(path)?;
        Ok(false)
    }

    /// Whether every layer's lookup table is made (see [`PcGraph::load`]); always true of a
    /// graph built in this process.
    pub fn is_indexed(&self) -> bool {
        self.layers
            .iter()
            .all(|l| l.has_table() || !lookup::KeyTable::fits(l.len()))
    }

    /// The 2-line PC on the way to a 4-line one (two rows cleared, nothing left), when
    /// the graph has it.
    pub(crate) fn two_line_field(&self) -> Option<(usize, u32)> {
        self.find(&PcField::new_unchecked(Default::default(), 2))
    }

    /// Field `index` of layer `layer`.
    pub(crate) fn field(&self, layer: usize, index: u32) -> PcField {
        key::unpack(self.layers[layer].keys[index as usize])
    }

    /// The index in layer `layer + 1` of the field that move `j` of field `index` of
    /// layer `layer` leads to; `None` when the graph does not have it (never, for a graph
    /// built by this crate).
    #[inline]
    pub(crate) fn child(&self, layer: usize, index: u32, j: usize) -> Option<u32> {
        let this = &self.layers[layer];
        let at = this.starts.range(index as usize).start + j;
        if !this.children.is_empty() {
            return Some(this.children[at]).filter(|&c| c != NO_CHILD);
        }
        let key = moves::child(this.keys[index as usize], edge_move(this.edges[at])?)?;
        self.layers.get(layer + 1)?.find(key)
    }

    /// Finds the child indices of the layers whose next layer is small (see
    /// [`Layer::children`]), and the classes of the fields three pieces from a PC
    /// ([`three_left`]), once a graph is built or read.
    pub(crate) fn index_small_layers(&mut self) {
        self.index_small_layers_in(None);
    }

    /// [`PcGraph::index_small_layers`], each layer in `runs` runs ([`by_runs`]) if given,
    /// else in as many as [`runs_for`] says.
    fn index_small_layers_in(&mut self, runs: Option<usize>) {
        for k in 0..self.layers.len().saturating_sub(1) {
            if self.layers[k + 1].len() > SMALL_NEXT {
                continue;
            }
            // Each run of fields: its moves' links, found together ([`links_of`]), with
            // where each field's start (from the run's first).
            let fields = self.layers[k].len();
            let runs = by_runs(fields, runs.unwrap_or(runs_for(fields)), |run| {
                links_of(&self.layers, k, run)
            });
            let layer = &mut self.layers[k];
            let mut children = Vec::with_capacity(layer.edges.len());
            let mut link_starts = Vec::with_capacity(layer.len() + 1);
            let mut links = Vec::new();
            for (run_starts, run_links) in runs {
                // Every edge keeps its child; the links only the moves that lead somewhere.
                for field in run_starts.windows(2) {
                    link_starts.push(links.len() as u32);
                    for &l in &run_links[field[0] as usize..field[1] as usize] {
                        children.push(unlink(l).map_or(NO_CHILD, |(_, child)| child));
                        links.extend(unlink(l).map(|_| l));
                    }
                }
            }
            link_starts.push(links.len() as u32);
            layer.children = children;
            layer.link_starts = link_starts;
            layer.links = links;
        }
        let three_runs = self
            .layers
            .len()
            .checked_sub(4)
            .map_or(1, |at| runs_for(self.layers[at].len()));
        self.three_left = three_left::ThreeLeft::in_runs(&self.layers, runs.unwrap_or(three_runs));
        self.four_left = LazyFourLeft::default();
    }

    /// The fields that placing `piece` on `field` leads to and that can still make a PC,
    /// as [`PcField::key`]s (one per field), or `None` when the graph does not have `field`.
    pub(crate) fn children_by_piece(&self, field: &PcField, piece: Piece) -> Option<Vec<u128>> {
        let (layer, index) = self.find(field)?;
        let edges = self.layers[layer].edges(index);
        let mut children: Vec<u128> = edges
            .iter()
            .enumerate()
            .filter(|&(_, &e)| edge_piece(e) == piece.index())
            .filter_map(|(j, _)| self.child(layer, index, j))
            .map(|child| self.field(layer + 1, child).key())
            .collect();
        children.sort_unstable();
        children.dedup();
        Some(children)
    }

    /// Where a field is: its layer and its index there, when the graph has it.
    pub(crate) fn find(&self, field: &PcField) -> Option<(usize, u32)> {
        if field.clear_line() > key::MAX_ROWS {
            return None;
        }
        let key = key::pack(field);
        let layer = key::pieces_needed(self.start).checked_sub(field.pieces_needed())? as usize;
        let index = self.layers.get(layer)?.find(key)?;
        Some((layer, index))
    }
}

impl PcGraph {
    /// Per layer: its fields, its distinct (field, piece, child) edges, and an XXH3-64 of
    /// them (field key, piece, child key) in order of field, piece and child key: what the
    /// graph says, whatever the format (for checking one build against another; two
    /// placements of a piece that leave the same field are one such edge).
    #[cfg(test)]
    pub(crate) fn digest(&self) -> Vec<(usize, usize, u64)> {
        let mut out = Vec::new();
        for (k, layer) in self.layers.iter().enumerate() {
            let mut bytes: Vec<u8> = Vec::new();
            let mut edges = 0;
            for i in 0..layer.len() as u32 {
                let key = layer.keys[i as usize];
                let mut by_piece: [Vec<u64>; 7] = Default::default();
                for (j, &e) in layer.edges(i).iter().enumerate() {
                    let child = self.child(k, i, j).expect("a child in the next layer");
                    by_piece[edge_piece(e)].push(self.layers[k + 1].keys[child as usize]);
                }
                for (p, list) in by_piece.iter_mut().enumerate() {
                    list.sort_unstable();
                    list.dedup();
                    edges += list.len();
                    for &c in list.iter() {
                        bytes.extend_from_slice(&key.to_le_bytes());
                        bytes.push(p as u8);
                        bytes.extend_from_slice(&c.to_le_bytes());
                    }
                }
                if layer.edges(i).is_empty() {
                    bytes.extend_from_slice(&key.to_le_bytes());
                }
            }
            out.push((layer.len(), edges, xxhash_rust::xxh3::xxh3_64(&bytes)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::{Decision, Queue};
    use crate::engine::graph::edge::link;
    use crate::engine::graph::layer::for_each_child;
    use crate::engine::graph::memo::GraphMemo;
    use crate::engine::graph::search;
    use crate::engine::known::{KnownMemo, KnownSolver};
    use crate::engine::layered::{self, OrderMemo};
    use crate::engine::walk::{Ask, StateValues};
    use crate::field::Goal;
    use crate::rules::Rules;
    use pc_bag::BagState;
    use pc_srs::Piece;
    use std::ops::ControlFlow;

    fn small_graph(rules: &Rules, text: &str, height: u32) -> PcGraph {
        let field = PcField::new(text.parse().unwrap(), height).unwrap();
        PcGraph::build_from(&field, rules, &mut |_| ControlFlow::Continue(())).unwrap()
    }

    /// `n` pieces of a 7-bag stream after skipping `skip`, drawn by a seeded generator,
    /// and the bag state after them.
    fn seeded_pieces(seed: u64, skip: u64, n: usize) -> (Vec<Piece>, BagState) {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut bag = BagState::FRESH;
        let mut out = Vec::new();
        for i in 0..skip as usize + n {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let drawable: Vec<Piece> = bag.drawable().iter().collect();
            let piece = drawable[(state % drawable.len() as u64) as usize];
            bag = bag.draw(piece).expect("a drawable piece");
            if i >= skip as usize {
                out.push(piece);
            }
        }
        (out, bag)
    }

    /// The decision on `field` with this hold slot, queue and bag after it, nothing held
    /// yet for the current piece.
    fn decision_at(
        field: PcField,
        hold: Option<Piece>,
        queue: &[Piece],
        bag: &BagState,
        rules: &Rules,
    ) -> Decision {
        Decision {
            field,
            hold,
            queue: Queue::new(queue),
            bag: bag.remaining(),
            hold_rule: rules.hold,
            hold_used: false,
        }
    }

    /// The values of the states with a chance, by field key and hold.
    fn won(values: &StateValues) -> std::collections::BTreeMap<(u128, u8), u64> {
        values
            .values
            .iter()
            .filter(|&(_, &v)| v > 0)
            .map(|(&state, &v)| (state, v))
            .collect()
    }

    /// Every move's value by the graph and by the layered search, on seeded positions
    /// reached from the graph's start field; returns how many moves were compared.
    fn compare_with_layered(
        graph: &PcGraph,
        rules: &Rules,
        in_view: usize,
        seeds: std::ops::Range<u64>,
    ) -> usize {
        let mut compared = 0;
        let start = key::unpack(graph.start);
        for seed in seeds {
            // A seeded number of pieces skipped, so that bag states vary.
            let (pieces, bag) = seeded_pieces(seed, seed % 7, in_view + 1);
            let (hold, queue) = if rules.hold {
                (Some(pieces[0]), &pieces[1..])
            } else {
                (None, &pieces[..in_view])
            };
            let decision = decision_at(start, hold, queue, &bag, rules);
            let mut memo = GraphMemo::default();
            // A walk stopped before it starts walks nothing (and leaves the memo sound
            // for the walks below, which the layered search checks).
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
            let stopped = search::values(
                graph,
                &mut memo,
                &decision,
                false,
                Ask::Every,
                Some(&stop),
                1,
            )
            .expect("the walk applies");
            assert!(stopped.stopped, "seed {seed}");
            assert!(stopped.values.values().all(|&v| v == 0), "seed {seed}");
            let by_graph = search::values(graph, &mut memo, &decision, false, Ask::Every, None, 1)
                .expect("the walk applies");
            // Stopping at the first certain move (depth first for the first moves, then
            // layer by layer) gives the same values, and at most one certain move.
            let stopping = search::values(
                graph,
                &mut memo,
                &decision,
                false,
                Ask::UntilCertain,
                None,
                1,
            )
            .expect("the walk applies");
            let certain = stopping.values.values().filter(|&&v| v == by_graph.count);
            assert!(certain.count() <= 1);
            if !stopping.values.values().any(|&v| v == by_graph.count) {
                assert_eq!(stopping.values.len(), by_graph.values.len());
            }
            for (state, value) in &stopping.values {
                assert_eq!(by_graph.values.get(state), Some(value), "seed {seed}");
            }
            // Made on threads, the last depth's sets give the same values.
            let threaded = search::values(graph, &mut memo, &decision, false, Ask::Every, None, 2)
                .expect("the walk applies");
            assert_eq!(threaded.count, by_graph.count, "seed {seed}");
            assert_eq!(threaded.values, by_graph.values, "seed {seed}");
            assert_eq!(threaded.hold_first, by_graph.hold_first, "seed {seed}");
            let mut known_memo = KnownMemo::default();
            let goal = Goal {
                lower_clears: false,
            };
            let known = KnownSolver::new(rules.generator(), rules.hold, goal, &mut known_memo);
            let mut orders = OrderMemo::default();
            let by_layers = layered::values(&known, &mut orders, &decision, Ask::Every, 1)
                .expect("the layered search applies");
            assert_eq!(by_graph.count, by_layers.count);
            let graph_values = won(&by_graph);
            assert_eq!(graph_values, won(&by_layers), "seed {seed}: {pieces:?}");
            compared += graph_values.len();
        }
        compared
    }

    proptest::proptest! {
        /// Finding a key, one or several at a time, by the table or by the samples (before
        /// the table is made), or searching on in ascending order, is a binary search of
        /// the keys.
        #[test]
        fn finding_a_key_is_a_binary_search(
            keys in proptest::collection::btree_set(0u64..1000, 0..300),
            wanted in proptest::collection::vec(0u64..1000, 0..80),
        ) {
            let mut layer = Layer::new(keys.iter().copied().collect(), vec![0; keys.len()], Vec::new());
            let expected: Vec<u32> = wanted
                .iter()
                .map(|key| layer.keys.binary_search(key).map_or(NO_CHILD, |i| i as u32))
                .collect();
            for by_samples in [false, true] {
                if by_samples {
                    layer.table = Default::default();
                }
                let one: Vec<u32> = wanted.iter().map(|&key| layer.find(key).unwrap_or(NO_CHILD)).collect();
                proptest::prop_assert_eq!(&one, &expected);
                let mut many = vec![0; wanted.len()];
                layer.find_many(&wanted, &mut many);
                proptest::prop_assert_eq!(&many, &expected);
            }
            // In ascending order, each search going on from where the last one ended.
            let mut ascending = wanted.clone();
            ascending.sort_unstable();
            let mut from = 0;
            for key in ascending {
                let found = layer.find_from(key, from);
                proptest::prop_assert_eq!(found, layer.keys.binary_search(&key));
                from = found.unwrap_or_else(|at| at);
            }
        }
    }

    proptest::proptest! {
        /// Searching on through many keys for few (gallops past the keys between).
        #[test]
        fn searching_on_through_many_keys_is_a_binary_search(
            keys in proptest::collection::btree_set(0u64..1_000_000, 0..5000),
            wanted in proptest::collection::btree_set(0u64..1_000_000, 0..20),
        ) {
            let layer = Layer::new(keys.iter().copied().collect(), vec![0; keys.len()], Vec::new());
            let mut from = 0;
            for key in wanted {
                let found = layer.find_from(key, from);
                proptest::prop_assert_eq!(found, layer.keys.binary_search(&key));
                from = found.unwrap_or_else(|at| at);
            }
        }
    }

    #[test]
    fn indexing_in_runs_is_indexing_at_once() {
        let rules = Rules::default();
        let graph = small_graph(&rules, "##......../##......../##......../##........", 4);
        for runs in [2, 3, 7] {
            let mut in_runs = graph.clone();
            in_runs.index_small_layers_in(Some(runs));
            let mut at_once = graph.clone();
            at_once.index_small_layers_in(Some(1));
            assert_eq!(in_runs.three_left, at_once.three_left);
            for (a, b) in in_runs.layers.iter().zip(&at_once.layers) {
                assert_eq!(
                    (&a.children, &a.link_starts, &a.links),
                    (&b.children, &b.link_starts, &b.links)
                );
            }
            assert!(at_once.layers.iter().any(|l| !l.links.is_empty()));
        }
    }

    #[test]
    fn the_classes_four_pieces_from_a_pc_are_the_fields_moves() {
        let rules = Rules::default();
        // Seven pieces from a PC: a layer four pieces from one, of fields with few moves.
        let graph = small_graph(&rules, "###......./###......./###......./###.......", 4);
        let three = graph.three_left.as_ref().unwrap();
        // Made once, by any clone, for all of them.
        assert!(!graph.four_left.is_made());
        let clone = graph.clone();
        std::thread::spawn(move || clone.prepare_five_unknown())
            .join()
            .unwrap();
        assert!(graph.four_left.is_made());
        let four = graph.four_left().expect("a layer four pieces from a PC");
        assert_eq!(four.layer + 1, three.layer);
        let fields = graph.layers[four.layer].len() as u32;
        assert!(four.classes() > 1 && (four.classes() as u32) < fields);
        for field in 0..fields {
            let mut moves = Vec::new();
            for_each_child(&graph.layers, four.layer, field, |piece, child| {
                moves.push(link(piece as u8, three.class(child)));
            });
            moves.sort_unstable();
            moves.dedup();
            assert_eq!(
                four.links(four.class(field)),
                moves.as_slice(),
                "field {field}"
            );
        }
        // Fields with the same moves share a class, whatever the runs.
        for runs in [1, 3] {
            let other = FourLeft::in_runs(&graph.layers, three, runs).unwrap();
            assert_eq!(&other, four);
        }
    }

    #[test]
    fn runs_cover_the_fields_in_order() {
        for (fields, runs) in [(0, 1), (1, 3), (10, 3), (100, 7), (5, 8)] {
            let covered: Vec<u32> = by_runs(fields, runs, |run| run.collect::<Vec<u32>>()).concat();
            assert_eq!(covered, (0..fields as u32).collect::<Vec<_>>());
        }
    }

    #[test]
    fn the_walk_equals_the_layered_search() {
        let rules = Rules::default();
        let graph = small_graph(&rules, "##......../##......../##......../##........", 4);
        let mut compared = 0;
        for in_view in [4, 5] {
            compared += compare_with_layered(&graph, &rules, in_view, 0..20);
        }
        assert!(compared > 100, "{compared}");
    }

    /// With four unknown pieces, the hold slot filled or empty (the graph's fields need
    /// eight; five unknown take a full graph, `tests/graph.rs`), the last depth's sets made
    /// on threads give the walk's values on one.
    #[test]
    fn the_walk_on_threads_equals_the_walk_on_one() {
        let rules = Rules::default();
        let graph = small_graph(&rules, "##......../##......../##......../##........", 4);
        let start = key::unpack(graph.start);
        let mut walked = 0;
        for seed in 0..12u64 {
            // Nine pieces seen by the PC: five known, four unknown.
            let (pieces, bag) = seeded_pieces(seed, seed % 7, 5);
            let hold = (seed % 2 == 0).then_some(pieces[0]);
            let queue = if hold.is_some() {
                &pieces[1..]
            } else {
                &pieces[..]
            };
            let decision = decision_at(start, hold, queue, &bag, &rules);
            let mut memo = GraphMemo::default();
            let one = search::values(&graph, &mut memo, &decision, false, Ask::Every, None, 1)
                .expect("the walk applies");
            let mut memo = GraphMemo::default();
            let two = search::values(&graph, &mut memo, &decision, false, Ask::Every, None, 2)
                .expect("the walk applies");
            assert_eq!(
                (two.count, &two.values, two.hold_first),
                (one.count, &one.values, one.hold_first),
                "seed {seed}"
            );
            walked += one.values.values().filter(|&&v| v > 0).count();
        }
        assert!(walked > 20, "{walked}");
    }

    /// A layer's fields, edges and digest.
    type LayerDigest = (usize, usize, u64);

    /// Per layer: fields, edges and [`PcGraph::digest`] of the graphs of format 1 (which
    /// named children by index), measured on them: a graph of this format built for the
    /// same rules must say the same, field for field and move for move.
    const V1_DIGESTS: [(&str, [LayerDigest; 11]); 2] = [
        (
            "srs",
            [
                (1, 162, 0x32726ef5681a3c79),
                (162, 19162, 0x2e67d86c75de0d32),
                (10181, 745904, 0x0c5bbd623f84349c),
                (269260, 9433796, 0x582dcec81c854f0b),
                (2438591, 35620262, 0xebf09069e9695f91),
                (6333803, 40788659, 0xddab9cb40f05b0e6),
                (4423633, 14077778, 0x59e3d6b835aad27d),
                (718155, 1292114, 0xb6c1279e2c668179),
                (19129, 24149, 0xe4c052247b163304),
                (100, 100, 0x6729a46fa8ed6e5e),
                (1, 0, 0xc77b3abb6f87acd9),
            ],
        ),
        (
            "srs+",
            [
                (1, 162, 0x32726ef5681a3c79),
                (162, 19182, 0x7f4f227f11a87517),
                (10191, 756076, 0x7c6d1c3194882c6f),
                (273489, 9850986, 0x20a6068772e55c60),
                (2557506, 38271746, 0x15bfcd32c6c3cfe4),
                (6830860, 44397828, 0x922d9e5a53d16735),
                (4796285, 15198475, 0x366bced9d3366306),
                (754994, 1362394, 0x62a3040072d40a4c),
                (19412, 24685, 0x197c1d21e839d0e2),
                (100, 100, 0x6729a46fa8ed6e5e),
                (1, 0, 0xc77b3abb6f87acd9),
            ],
        ),
    ];

    /// The full graphs of SRS and SRS+ (read from the cache folder, `PC_GRAPH_DIR`, or
    /// built there) hold the same fields and moves as the graphs of format 1 did, and so
    /// does each read back from its file laid out by piece (what the page downloads).
    ///
    /// `PC_GRAPH_DIR=DIR cargo test -p pc-solver --release --lib -- --ignored full_graphs`
    #[test]
    #[ignore]
    fn the_full_graphs_are_those_of_format_1() {
        for (kicks, digests) in V1_DIGESTS {
            let rules = Rules {
                kicks: pc_srs::KickTable::by_name(kicks).unwrap(),
                ..Rules::default()
            };
            let path = PcGraph::cache_path(&rules).expect("a cache folder (set PC_GRAPH_DIR)");
            let graph = PcGraph::load(&path, &rules).unwrap_or_else(|_| {
                let graph = PcGraph::build(&rules).unwrap();
                graph.save(&path).unwrap();
                graph
            });
            assert_eq!(graph.digest(), digests, "{kicks}");
            let by_piece = PcGraph::from_bytes(&graph.to_bytes_by_piece(), &rules).unwrap();
            assert_eq!(by_piece.digest(), digests, "{kicks} laid out by piece");
        }
    }
}
