//! A hash table from a layer's keys to their indices.
//!
//! A move's child is found by its key in the next layer, a sorted array of millions of
//! keys. A binary search there misses the cache about ten times; this table finds a key
//! in one slot read (the neighbours share its cache line) and one read of the key to
//! confirm it. The depth-first walk asks for millions of single children, so this is
//! where its time goes.

/// Open addressing with linear probing. A slot holds a field's index in its low
/// [`INDEX_BITS`] bits and a tag (eight bits of the key's hash) above them, so that a
/// slot of another key is passed over without reading that key.
#[derive(Clone, Debug)]
pub(crate) struct KeyTable {
    slots: Vec<u32>,
}

/// Bits of a slot that hold the index.
const INDEX_BITS: u32 = 24;

/// An empty slot (no index reaches it: see [`KeyTable::new`]).
const EMPTY: u32 = u32::MAX;

/// A table is filled in about `2^REGION_BITS` regions of consecutive slots, one after
/// another (see [`KeyTable::new`]).
const REGION_BITS: u32 = 11;

/// About how many keys are put in the table per pass over them (see [`KeyTable::new`]).
const PASS_KEYS: u32 = 1 << 20;

/// Slots per key, as a fraction: two thirds full, about 1.5 probes per search.
const SLOTS_PER_KEY: (usize, usize) = (3, 2);

/// A key's hash: every bit of the key reaches the high bits, which choose the slot, and
/// bits 24..32, the tag.
#[inline]
fn hash(key: u64) -> u64 {
    let h = (key ^ key >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ h >> 32
}

impl KeyTable {
    /// The table of these keys (distinct), or `None` when there are too many for a slot's
    /// index bits.
    pub(crate) fn new(keys: &[u64]) -> Option<KeyTable> {
        // With one thread the tables are made during the load, before any walk: one pass,
        // which reads the keys once, is the quickest there.
        let pass_keys = if super::parallel::threads() > 1 {
            PASS_KEYS
        } else {
            u32::MAX
        };
        KeyTable::in_passes(keys, pass_keys)
    }

    /// [`KeyTable::new`], putting about `pass_keys` keys in per pass.
    fn in_passes(keys: &[u64], pass_keys: u32) -> Option<KeyTable> {
        if !KeyTable::fits(keys.len()) {
            return None;
        }
        // At least one slot stays empty, so that a search for a missing key ends.
        let size = keys.len() * SLOTS_PER_KEY.0 / SLOTS_PER_KEY.1 + 1;
        let mut table = KeyTable {
            slots: vec![EMPTY; size],
        };
        // The keys grouped by the region of the table their first slot is in, then put in
        // region by region: each region's probes stay in a few kilobytes of the table,
        // in cache, where keys in their own order would miss it at every key.
        let shift = (usize::BITS - size.leading_zeros()).saturating_sub(REGION_BITS);
        let region = |key: u64| table.home(key).0 >> shift;
        let mut starts = vec![0u32; (size >> shift) + 2];
        for &key in keys {
            starts[region(key) + 1] += 1;
        }
        for r in 1..starts.len() {
            starts[r] += starts[r - 1];
        }
        // A few regions at a time, about `pass_keys` keys, so that the grouped keys take a
        // bounded buffer (a large layer's table is made while a walk may be running).
        let regions = starts.len() - 1;
        let mut grouped: Vec<u64> = Vec::new();
        let mut first = 0;
        while first < regions {
            let mut end = first + 1;
            while end < regions && starts[end + 1] - starts[first] <= pass_keys {
                end += 1;
            }
            // Each key's first slot and slot contents, by region.
            let base = starts[first];
            let mut next: Vec<u32> = starts[first..end].iter().map(|&s| s - base).collect();
            grouped.clear();
            grouped.resize((starts[end] - base) as usize, 0);
            for (i, &key) in keys.iter().enumerate() {
                let (at, tag) = table.home(key);
                let Some(write) = (at >> shift)
                    .checked_sub(first)
                    .and_then(|r| next.get_mut(r))
                else {
                    continue;
                };
                grouped[*write as usize] = (at as u64) << 32 | u64::from(tag | i as u32);
                *write += 1;
            }
            for &h in &grouped {
                let mut at = (h >> 32) as usize;
                while table.slots[at] != EMPTY {
                    at = if at + 1 == size { 0 } else { at + 1 };
                }
                table.slots[at] = h as u32;
            }
            first = end;
        }
        Some(table)
    }

    /// Whether a table can hold this many keys.
    pub(crate) fn fits(keys: usize) -> bool {
        keys < (1 << INDEX_BITS) - 1
    }

    /// A key's first slot and its tag (in the slot's high bits).
    #[inline]
    fn home(&self, key: u64) -> (usize, u32) {
        let h = hash(key);
        let at = ((u128::from(h) * self.slots.len() as u128) >> 64) as usize;
        let tag = ((h >> 24) as u32) << INDEX_BITS;
        (at, tag)
    }

    /// The index of `key` among `keys` (the keys the table was made of), if it is there.
    #[inline]
    pub(crate) fn find(&self, keys: &[u64], key: u64) -> Option<u32> {
        let (mut at, tag) = self.home(key);
        loop {
            let slot = self.slots[at];
            if slot == EMPTY {
                return None;
            }
            if slot & !((1 << INDEX_BITS) - 1) == tag {
                let index = slot & ((1 << INDEX_BITS) - 1);
                if keys.get(index as usize) == Some(&key) {
                    return Some(index);
                }
            }
            at = if at + 1 == self.slots.len() {
                0
            } else {
                at + 1
            };
        }
    }

    /// [`KeyTable::find`] of several keys at once, into `out` ([`u32::MAX`] for a key
    /// that is not there). Each step reads every key's first slot, then every candidate's
    /// key, so that the cache misses of different keys overlap instead of following one
    /// another; a key whose candidate is not in the first slots' cache line or not the
    /// key is searched alone.
    pub(crate) fn find_many(&self, keys: &[u64], wanted: &[u64], out: &mut [u32]) {
        const CHUNK: usize = 16;
        /// Slots looked at from a key's first one before it is searched alone.
        const NEAR: usize = 4;
        for (wanted, out) in wanted.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
            let mut homes = [(0usize, 0u32); CHUNK];
            for (&key, home) in wanted.iter().zip(&mut homes) {
                *home = self.home(key);
            }
            // The candidate's index, or the slot's `EMPTY` (the key is not there), or
            // `UNDECIDED`.
            const UNDECIDED: u32 = u32::MAX - 1;
            let mut found = [UNDECIDED; CHUNK];
            for (&(at, tag), found) in homes.iter().zip(&mut found) {
                for slot in self.slots.iter().skip(at).take(NEAR) {
                    if *slot == EMPTY {
                        *found = EMPTY;
                        break;
                    }
                    if slot & !((1 << INDEX_BITS) - 1) == tag {
                        *found = slot & ((1 << INDEX_BITS) - 1);
                        break;
                    }
                }
            }
            for ((&key, &found), out) in wanted.iter().zip(&found).zip(out.iter_mut()) {
                *out = match found {
                    EMPTY => u32::MAX,
                    UNDECIDED => self.find(keys, key).unwrap_or(u32::MAX),
                    index if keys.get(index as usize) == Some(&key) => index,
                    _ => self.find(keys, key).unwrap_or(u32::MAX),
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_table_finds_each_key_and_no_other(
            set in proptest::collection::btree_set(0u64..1 << 43, 0..500),
            others in proptest::collection::vec(0u64..1 << 43, 0..50),
        ) {
            let keys: Vec<u64> = set.into_iter().collect();
            let table = KeyTable::new(&keys).expect("few keys");
            for (i, &key) in keys.iter().enumerate() {
                prop_assert_eq!(table.find(&keys, key), Some(i as u32));
            }
            for key in others {
                prop_assert_eq!(table.find(&keys, key), keys.binary_search(&key).ok().map(|i| i as u32));
            }
        }
    }

    proptest! {
        #[test]
        fn a_table_made_in_passes_is_the_table_made_at_once(
            set in proptest::collection::btree_set(0u64..1 << 43, 0..3000),
            pass_keys in 1u32..200,
        ) {
            let keys: Vec<u64> = set.into_iter().collect();
            let at_once = KeyTable::in_passes(&keys, u32::MAX).expect("few keys");
            let in_passes = KeyTable::in_passes(&keys, pass_keys).expect("few keys");
            prop_assert_eq!(&in_passes.slots, &at_once.slots);
            for (i, &key) in keys.iter().enumerate() {
                prop_assert_eq!(in_passes.find(&keys, key), Some(i as u32));
            }
        }
    }

    proptest! {
        #[test]
        fn finding_many_is_finding_each(
            set in proptest::collection::btree_set(0u64..1 << 43, 1..300),
            asked in proptest::collection::vec((any::<bool>(), 0usize..300, 0u64..1 << 43), 0..60),
        ) {
            let keys: Vec<u64> = set.into_iter().collect();
            let table = KeyTable::new(&keys).expect("few keys");
            let wanted: Vec<u64> = asked
                .iter()
                .map(|&(present, i, other)| if present { keys[i % keys.len()] } else { other })
                .collect();
            let mut out = vec![0; wanted.len()];
            table.find_many(&keys, &wanted, &mut out);
            for (&key, &found) in wanted.iter().zip(&out) {
                prop_assert_eq!(found, table.find(&keys, key).unwrap_or(u32::MAX));
            }
        }
    }

    #[test]
    fn keys_that_share_a_slot_are_told_apart() {
        // A table of two slots: a missing key probes the key's slot, then the empty one.
        let keys = [5u64];
        let table = KeyTable::new(&keys).expect("one key");
        assert_eq!(table.find(&keys, 5), Some(0));
        assert_eq!(table.find(&keys, 6), None);
    }
}
