//! [`Layer`]: the fields with a given number of pieces placed, and their edges.

use super::edge::NO_CHILD;
use super::edge::{edge_move, edge_piece, unlink};
use super::{lookup, moves, starts};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The most fields a layer may have (a limit of the format).
pub(crate) const MAX_FIELDS: usize = 1 << 28;

/// The most edges one field may have (a limit of the format).
pub(crate) const MAX_EDGES: usize = 255;

/// How many keys one sample of a layer's index covers (see [`Layer::find`]).
const SAMPLE: usize = 64;

/// The fields with a given number of pieces placed, and their edges into the next layer.
///
/// A field is named by its key ([`key::pack`](super::key::pack)) and by its index in its layer, the order
/// of the keys. An edge names a placement: the child's key follows from the field's key
/// ([`moves::child`](super::moves::child)), and its index from the next layer's keys ([`Layer::find`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Layer {
    /// The fields' keys ([`key::pack`](super::key::pack)), ascending, by index (shared with a thread that
    /// makes the table, [`Layer::table_later`]).
    pub(crate) keys: Arc<Vec<u64>>,
    /// Where each field's edges are in `edges`.
    pub(crate) starts: starts::Starts,
    /// Every field's edges ([`edge`]), by piece, then id.
    pub(crate) edges: Vec<u16>,
    /// Every [`SAMPLE`]-th key: a small index over `keys` that stays in cache, for
    /// [`Layer::find`] without the table.
    samples: Vec<u64>,
    /// The keys' indices by hash, for [`Layer::find`], once made; never for a layer too
    /// large for one.
    pub(super) table: Arc<OnceLock<lookup::KeyTable>>,
    /// For a layer whose next layer is small (at most [`SMALL_NEXT`] fields): each edge's
    /// child index, found once (the suffix tables read these edges millions of times).
    /// Empty otherwise.
    pub(super) children: Vec<u32>,
    /// For the same layers: where each field's moves start in `links` (one more entry than
    /// fields), and each move that leads somewhere as a [`link`](super::edge::link), so that a field's moves
    /// are two reads ([`for_each_child`]).
    pub(super) link_starts: Vec<u32>,
    pub(super) links: Vec<u32>,
    /// Whether the table is made by the lookups that need it (when no thread makes it after
    /// the load: see [`Layer::table_when_needed`]).
    lazy: bool,
    /// The lookups without the table so far, while it is left to them (shared by clones,
    /// as the table is).
    lookups: Arc<AtomicUsize>,
}

/// The fewest keys [`Layer::find_many`] sorts to find them in one pass when the layer has
/// no table: fewer are found one by one.
const SORTED_FIND_AT_LEAST: usize = 1 << 12;

/// The most fields a next layer may have for a layer to keep its edges' child indices.
/// A few in the crate's tests, so that their small graphs take the paths of large layers too.
pub(super) const SMALL_NEXT: usize = if cfg!(test) { 64 } else { 1 << 16 };

/// Two layers are equal when their fields and edges are: the rest is found from them.
impl PartialEq for Layer {
    fn eq(&self, other: &Self) -> bool {
        self.keys == other.keys && self.starts == other.starts && self.edges == other.edges
    }
}

impl Eq for Layer {}

impl Layer {
    /// A layer of these fields, their numbers of edges and the edges (checked by the
    /// caller: keys ascending, as many counts, counts adding up to the edges).
    pub(crate) fn new(keys: Vec<u64>, counts: Vec<u8>, edges: Vec<u16>) -> Layer {
        let mut layer = Layer::without_table(keys, counts, edges);
        layer.index();
        layer
    }

    /// [`Layer::new`] but for the table, which [`Layer::table_later`] makes.
    pub(crate) fn without_table(keys: Vec<u64>, counts: Vec<u8>, edges: Vec<u16>) -> Layer {
        let samples = keys.iter().step_by(SAMPLE).copied().collect();
        Layer {
            keys: Arc::new(keys),
            starts: starts::Starts::from_counts(counts),
            edges,
            samples,
            table: Arc::default(),
            children: Vec::new(),
            link_starts: Vec::new(),
            links: Vec::new(),
            lazy: false,
            lookups: Arc::default(),
        }
    }

    /// Makes the table and the samples of [`Layer::find`] once the keys are all in.
    pub(crate) fn index(&mut self) {
        self.samples = self.keys.iter().step_by(SAMPLE).copied().collect();
        self.table = Arc::default();
        self.table_later()();
    }

    /// The work of making the layer's table, to be done on another thread: until it is
    /// done, [`Layer::find`] searches the keys (the same answers, found more slowly).
    pub(crate) fn table_later(&self) -> impl FnOnce() + Send + 'static {
        let (keys, cell) = (self.keys.clone(), self.table.clone());
        move || {
            if let Some(table) = lookup::KeyTable::new(&keys) {
                let _ = cell.set(table);
            }
        }
    }

    /// Whether the layer's table is made.
    pub(crate) fn has_table(&self) -> bool {
        self.table.get().is_some()
    }

    /// Leaves the table to the lookups that need it ([`Layer::find`], [`Layer::find_many`]):
    /// made once they are as many as the layer's fields, for a reader short of memory:
    /// most walks never ask that many.
    pub(crate) fn table_when_needed(&mut self) {
        self.lazy = lookup::KeyTable::fits(self.len());
    }

    /// The table: made, or made now when it is left to the lookups and they have been as
    /// many as the layer's fields. A walk that looks up a few fields of a large layer (a
    /// window walk's children) then never pays for a table (making one takes longer than
    /// its lookups without it), and a search that looks up many more makes it once.
    #[inline]
    fn table(&self) -> Option<&lookup::KeyTable> {
        match self.table.get() {
            Some(table) => Some(table),
            None if self.lazy => {
                let before = self.lookups.fetch_add(1, Ordering::Relaxed);
                (before >= self.len()).then(|| self.make_table())
            }
            None => None,
        }
    }

    #[cold]
    fn make_table(&self) -> &lookup::KeyTable {
        self.table.get_or_init(|| {
            lookup::KeyTable::new(&self.keys).expect("a lazy table fits (table_when_needed)")
        })
    }

    /// The edges of field `index`.
    #[inline]
    pub(crate) fn edges(&self, index: u32) -> &[u16] {
        &self.edges[self.starts.range(index as usize)]
    }

    /// The child indices of the edges of field `index`, when the layer keeps them
    /// ([`Layer::children`]).
    #[inline]
    pub(crate) fn children_of(&self, index: u32) -> Option<&[u32]> {
        if self.children.is_empty() {
            return None;
        }
        Some(&self.children[self.starts.range(index as usize)])
    }

    /// The index of the field with this key, if the layer has it: by the hash table once it
    /// is made, else by a binary search of the samples (in cache), then of one block of
    /// keys.
    #[inline]
    pub(crate) fn find(&self, key: u64) -> Option<u32> {
        if let Some(table) = self.table() {
            return table.find(&self.keys, key);
        }
        let block = self.samples.partition_point(|&s| s <= key).checked_sub(1)?;
        let start = block * SAMPLE;
        let end = (start + SAMPLE).min(self.keys.len());
        let at = self.keys[start..end].binary_search(&key).ok()?;
        Some((start + at) as u32)
    }

    /// Where `key` is among the keys from index `from` on (all keys before `from` being
    /// smaller): `Ok` with its index, or `Err` with where it would be. A search that goes
    /// through keys in ascending order this way reads the keys in order, each cache line
    /// about once, where [`Layer::find`] reads two lines at random per key.
    #[inline]
    pub(crate) fn find_from(&self, key: u64, from: usize) -> Result<usize, usize> {
        // A few keys one by one (the next key is most often near), then galloping: double
        // the step until past the key, then a binary search.
        let keys = &self.keys;
        let near = keys.len().min(from + 32);
        let mut low = from;
        while low < near && keys[low] < key {
            low += 1;
        }
        if low < near {
            return if keys[low] == key { Ok(low) } else { Err(low) };
        }
        let mut step = 1;
        while low + step < keys.len() && keys[low + step] < key {
            low += step;
            step *= 2;
        }
        let high = (low + step + 1).min(keys.len());
        match keys[low.min(high)..high].binary_search(&key) {
            Ok(i) => Ok(low + i),
            Err(i) => Err(low + i),
        }
    }

    /// [`Layer::find`] of several keys, into `out` ([`NO_CHILD`] for a key that is not
    /// there): by the table, their cache misses overlapping; without a table made, many
    /// keys are sorted and found in one pass through the layer's keys
    /// ([`Layer::find_from`]), which needs no table, so a walk that asks only this of a
    /// large layer never makes one ([`Layer::table_when_needed`]).
    pub(crate) fn find_many(&self, wanted: &[u64], out: &mut [u32]) {
        if let Some(table) = self.table.get() {
            return table.find_many(&self.keys, wanted, out);
        }
        if wanted.len() < SORTED_FIND_AT_LEAST {
            for (&key, out) in wanted.iter().zip(out) {
                *out = self.find(key).unwrap_or(NO_CHILD);
            }
            return;
        }
        self.find_sorted(wanted, out, 64 - super::key::KEY_BITS);
    }

    /// [`Layer::find_many`] without the table: runs of `2^place_bits` keys, each key with
    /// its place in the run in one word, sorted by the key (a key past a field's bits is
    /// no field's: not found, not sorted), then found in one pass through the layer's keys.
    fn find_sorted(&self, wanted: &[u64], out: &mut [u32], place_bits: u32) {
        let key_bits = super::key::KEY_BITS;
        debug_assert!(key_bits + place_bits <= 64);
        for (run, keys) in wanted.chunks(1 << place_bits).enumerate() {
            let run_out = &mut out[run << place_bits..][..keys.len()];
            run_out.fill(NO_CHILD);
            let mut sorted: Vec<u64> = keys
                .iter()
                .enumerate()
                .filter(|&(_, &key)| key >> key_bits == 0)
                .map(|(i, &key)| key << place_bits | i as u64)
                .collect();
            super::radix::sort_by_bits(&mut sorted, |&w| w, place_bits..place_bits + key_bits, 11);
            let mut from = 0;
            for &word in &sorted {
                match self.find_from(word >> place_bits, from) {
                    Ok(at) => {
                        run_out[(word & ((1 << place_bits) - 1)) as usize] = at as u32;
                        from = at;
                    }
                    Err(at) => from = at,
                }
            }
        }
    }

    /// The number of fields.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The number of edges.
    pub(crate) fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Adds a field (keys must come in ascending order) with its edges; the index of
    /// [`Layer::find`] is made by [`Layer::index`] once every field is in.
    pub(crate) fn push(&mut self, key: u64, edges: &[u16]) {
        debug_assert!(edges.len() <= MAX_EDGES);
        Arc::make_mut(&mut self.keys).push(key);
        self.edges.extend_from_slice(edges);
        self.starts.push(edges.len() as u8);
    }
}

/// The [`link`](super::edge::link)s of the moves of `fields` of layer `layer`, one per edge
/// in the order of the edges (no child for a move the next layer does not have), their
/// children looked up together ([`Layer::find_many`]); and where each field's links start
/// (one more entry than fields).
pub(crate) fn links_of(
    layers: &[Layer],
    layer: usize,
    fields: impl IntoIterator<Item = u32>,
) -> (Vec<u32>, Vec<u32>) {
    let this = &layers[layer];
    let mut starts = Vec::new();
    let mut wanted: Vec<u64> = Vec::new();
    let mut pieces: Vec<u8> = Vec::new();
    for field in fields {
        starts.push(wanted.len() as u32);
        let key = this.keys[field as usize];
        for &e in this.edges(field) {
            // A key past a field's bits is found nowhere.
            let child = edge_move(e)
                .and_then(|m| moves::child(key, m))
                .unwrap_or(u64::MAX);
            wanted.push(child);
            pieces.push(edge_piece(e) as u8);
        }
    }
    starts.push(wanted.len() as u32);
    let mut children = vec![NO_CHILD; wanted.len()];
    if let Some(next) = layers.get(layer + 1) {
        next.find_many(&wanted, &mut children);
    }
    let links = pieces
        .iter()
        .zip(children)
        .map(|(&piece, child)| super::edge::link(piece, child))
        .collect();
    (starts, links)
}

/// Calls `f` with each move of field `index` of layer `layer` and the index in layer
/// `layer + 1` of the field it leads to, in the order of the moves; a move whose
/// field the graph does not have (never, for a graph built by this crate) is passed
/// over. The same as `PcGraph::child` for each move, with the field's edges found once;
/// `f` gets the move's piece (its index) and the child.
#[inline]
pub(crate) fn for_each_child(
    layers: &[Layer],
    layer: usize,
    index: u32,
    mut f: impl FnMut(usize, u32),
) {
    let this = &layers[layer];
    if !this.link_starts.is_empty() {
        let (start, end) = (
            this.link_starts[index as usize] as usize,
            this.link_starts[index as usize + 1] as usize,
        );
        for (piece, child) in this.links[start..end].iter().filter_map(|&l| unlink(l)) {
            f(usize::from(piece), child);
        }
        return;
    }
    let range = this.starts.range(index as usize);
    let edges = &this.edges[range.clone()];
    let (key, next) = (this.keys[index as usize], layers.get(layer + 1));
    for &e in edges {
        let child = edge_move(e)
            .and_then(|m| moves::child(key, m))
            .and_then(|c| next?.find(c));
        if let Some(child) = child {
            f(edge_piece(e), child);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Enough keys for one pass through the layer's keys find what single lookups find,
        /// in the order asked, keys that are no field's included.
        #[test]
        fn many_keys_found_in_one_pass_are_found_one_by_one(
            set in proptest::collection::btree_set(0u64..1 << 20, 1..3000),
            wanted in proptest::collection::vec(
                prop_oneof![0u64..1 << 20, Just(u64::MAX >> 3), 1u64 << 43..1 << 44],
                SORTED_FIND_AT_LEAST..SORTED_FIND_AT_LEAST + 500,
            ),
        ) {
            let keys: Vec<u64> = set.into_iter().collect();
            let layer = Layer::without_table(keys.clone(), vec![0; keys.len()], Vec::new());
            let mut found = vec![0; wanted.len()];
            layer.find_many(&wanted, &mut found);
            prop_assert!(!layer.has_table(), "no table made");
            // In runs of 128 keys too (a run is 2^21 keys in `find_many`).
            let mut in_runs = vec![0; wanted.len()];
            layer.find_sorted(&wanted, &mut in_runs, 7);
            for ((&key, &at), &in_run) in wanted.iter().zip(&found).zip(&in_runs) {
                let expected = keys.binary_search(&key).map_or(NO_CHILD, |i| i as u32);
                prop_assert_eq!(at, expected, "key {}", key);
                prop_assert_eq!(in_run, expected, "key {} in runs", key);
            }
        }
    }

    /// A table left to the lookups: fewer lookups than fields find them by the samples
    /// and make none; the lookup after as many as the layer's fields makes it; the answers
    /// are the same throughout.
    #[test]
    fn a_table_left_to_the_lookups_is_made_once_they_are_as_many_as_the_fields() {
        let keys: Vec<u64> = (0..1000u64).map(|i| i * 3 + 1).collect();
        let mut layer = Layer::without_table(keys.clone(), vec![0; keys.len()], Vec::new());
        layer.table_when_needed();
        let expected = |key: u64| keys.binary_search(&key).ok().map(|i| i as u32);
        // Keys of fields and keys of none, as many lookups as fields.
        for key in (0..keys.len() as u64).map(|i| i * 3 + i % 2) {
            assert_eq!(layer.find(key), expected(key), "key {key}");
        }
        assert!(
            !layer.has_table(),
            "a table made before the lookups were many"
        );
        let mut found = vec![0; 10];
        let wanted: Vec<u64> = (0..10).map(|i| i * 7).collect();
        layer.find_many(&wanted, &mut found);
        assert!(
            layer.has_table(),
            "no table made after as many lookups as fields"
        );
        for (&key, &at) in wanted.iter().zip(&found) {
            assert_eq!(
                Some(at).filter(|&a| a != NO_CHILD),
                expected(key),
                "key {key}"
            );
        }
        assert_eq!(layer.find(2998), Some(999));
        assert_eq!(layer.find(2999), None);
    }
}
