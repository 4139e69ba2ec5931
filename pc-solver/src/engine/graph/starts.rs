//! Where each field's edges start, in a little over a byte a field: its number of edges,
//! and the start of every [`BLOCK`]-th field. A start is the block's plus the counts of
//! the fields before it in the block, which share a cache line.

/// Fields per stored start.
const BLOCK: usize = 16;

/// The edge counts of a layer's fields, and where each field's edges are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Starts {
    /// Each field's number of edges, by index.
    counts: Vec<u8>,
    /// Where the edges of fields `0`, [`BLOCK`], `2 * BLOCK`, … start.
    blocks: Vec<u32>,
    /// The number of edges.
    total: u32,
}

impl Starts {
    /// The starts of fields with these counts.
    pub(crate) fn from_counts(counts: Vec<u8>) -> Starts {
        let mut starts = Starts {
            counts: Vec::with_capacity(counts.len()),
            blocks: Vec::with_capacity(counts.len() / BLOCK + 1),
            total: 0,
        };
        for count in counts {
            starts.push(count);
        }
        starts
    }

    /// Adds a field with `count` edges.
    pub(crate) fn push(&mut self, count: u8) {
        if self.counts.len() % BLOCK == 0 {
            self.blocks.push(self.total);
        }
        self.counts.push(count);
        self.total += u32::from(count);
    }

    /// Each field's number of edges.
    pub(crate) fn counts(&self) -> &[u8] {
        &self.counts
    }

    /// The number of edges.
    #[cfg(test)]
    pub(crate) fn total(&self) -> usize {
        self.total as usize
    }

    /// Where the edges of field `index` are.
    #[inline]
    pub(crate) fn range(&self, index: usize) -> std::ops::Range<usize> {
        let block = index / BLOCK;
        let before: u32 = self.counts[block * BLOCK..index]
            .iter()
            .map(|&c| u32::from(c))
            .sum();
        let start = (self.blocks[block] + before) as usize;
        start..start + usize::from(self.counts[index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_start_is_the_sum_of_the_counts_before(counts in proptest::collection::vec(any::<u8>(), 0..100)) {
            let starts = Starts::from_counts(counts.clone());
            let mut at = 0usize;
            for (i, &c) in counts.iter().enumerate() {
                prop_assert_eq!(starts.range(i), at..at + usize::from(c));
                at += usize::from(c);
            }
            prop_assert_eq!(starts.total(), at);
            prop_assert_eq!(starts.counts(), counts.as_slice());
        }
    }
}
