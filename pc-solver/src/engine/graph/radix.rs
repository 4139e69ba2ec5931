//! Radix sorts of the words a walk or a table build sorts by the million: a few bits of
//! the key at a time, a pass skipped when every word has the same digit there.

/// Sorts `items` by bits `bits` of `key(item)`, keeping the order of items with equal
/// bits there: `digit` bits a pass, low digits first.
pub(crate) fn sort_by_bits<T: Copy + Default>(
    items: &mut Vec<T>,
    key: impl Fn(&T) -> u64,
    bits: std::ops::Range<u32>,
    digit: u32,
) {
    let mask = (1usize << digit) - 1;
    let mut other = vec![T::default(); items.len()];
    let mut counts = vec![0usize; 1 << digit];
    for shift in bits.step_by(digit as usize) {
        counts.iter_mut().for_each(|c| *c = 0);
        for item in items.iter() {
            counts[(key(item) >> shift) as usize & mask] += 1;
        }
        if counts.contains(&items.len()) {
            continue;
        }
        let mut at = 0;
        for c in counts.iter_mut() {
            let n = *c;
            *c = at;
            at += n;
        }
        for item in items.iter() {
            let d = (key(item) >> shift) as usize & mask;
            other[counts[d]] = *item;
            counts[d] += 1;
        }
        std::mem::swap(items, &mut other);
    }
}

/// Sorts words by their high half, keeping the order of words with equal high halves.
pub(crate) fn sort_by_high_half(words: &mut Vec<u64>) {
    sort_by_bits(words, |&w| w, 32..64, 8);
}

/// Sorts pairs by the low `bits` bits of their first word.
pub(crate) fn sort_by_low_word(pairs: &mut Vec<(u64, u32)>, bits: u32) {
    sort_by_bits(pairs, |&(w, _)| w, 0..bits, 11);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The radix sort orders by the high half and keeps the order of equal high halves
        /// (a state's children stay in the order their parents came).
        #[test]
        fn the_radix_sort_is_a_stable_sort_by_the_high_half(
            words in proptest::collection::vec(
                prop_oneof![
                    any::<u64>(),
                    0u64..1 << 40,
                    (0u64..4, 0u64..8).prop_map(|(high, low)| high << 32 | low),
                ],
                0..300,
            ),
        ) {
            let mut sorted = words.clone();
            sort_by_high_half(&mut sorted);
            let mut expected = words;
            expected.sort_by_key(|w| w >> 32);
            prop_assert_eq!(sorted, expected);
        }
    }

    proptest! {
        #[test]
        fn the_pair_sort_orders_by_the_low_bits(
            pairs in proptest::collection::vec((0u64..1 << 46, any::<u32>()), 0..300),
        ) {
            let mut sorted = pairs.clone();
            sort_by_low_word(&mut sorted, 46);
            let mut expected = pairs;
            expected.sort_by_key(|&(w, _)| w);
            prop_assert_eq!(
                sorted.iter().map(|&(w, _)| w).collect::<Vec<_>>(),
                expected.iter().map(|&(w, _)| w).collect::<Vec<_>>()
            );
            // Every pair is still there.
            let mut a = sorted;
            a.sort_unstable();
            expected.sort_unstable();
            prop_assert_eq!(a, expected);
        }
    }
}
