//! Windows of n consecutive pieces of a 7-bag stream, over the 7 bag phases.
//!
//! A window's phase is where the first bag boundary falls inside it: after `r` pieces for
//! `r = 1..=6` (the window starts with the last `r` pieces of a bag, i.e. from a bag state
//! with `r` pieces left), or after 7 pieces, which for a window of 7 or fewer means no
//! boundary at all (it starts at a fresh bag). For `n <= 7` the phases with `r >= n`
//! all look like a window inside one bag and are counted once, as the fresh-bag phase.
//!
//! "In all" sums, over the phases, the sequences the bag can deal from the states of
//! that phase; "distinct" is the size of the union.

use std::collections::HashSet;

use pc_bag::{BagState, PieceSet, Sequence};

const ALL: [u64; 8] = [7, 91, 798, 5_544, 31_920, 154_980, 640_080, 2_257_920];
const DISTINCT: [usize; 8] = [7, 49, 336, 2_184, 13_020, 69_300, 322_560, 1_290_240];

/// The bag states of each phase for windows of `n`: every state with `r < n` pieces
/// left for `r = 1..=6`, plus the fresh bag.
fn phase_states(n: usize) -> Vec<Vec<BagState>> {
    let mut phases = Vec::new();
    for r in 1..7.min(n) {
        let states: Vec<BagState> = (0u8..0x80)
            .filter_map(PieceSet::from_bits)
            .filter(|s| s.len() == r)
            .map(BagState::from_remaining)
            .collect();
        phases.push(states);
    }
    phases.push(vec![BagState::FRESH]);
    phases
}

#[test]
fn window_counts_over_the_seven_phases() {
    for n in 1..=8 {
        let mut all = 0u64;
        let mut counted = 0u64;
        let mut distinct: HashSet<Sequence> = HashSet::new();
        for states in phase_states(n) {
            for state in states {
                counted += state.continuation_count(n).unwrap();
                for (seq, _) in state.continuations(n).unwrap() {
                    assert_eq!(seq.len(), n);
                    all += 1;
                    distinct.insert(seq);
                }
            }
        }
        assert_eq!(all, ALL[n - 1], "windows of {n} in all");
        assert_eq!(counted, ALL[n - 1], "continuation_count for windows of {n}");
        assert_eq!(distinct.len(), DISTINCT[n - 1], "distinct windows of {n}");
    }
}

/// Whether `seq` splits into bags with its first boundary after `first` pieces: each
/// chunk has distinct pieces. Independent of `BagState`.
fn fits_alignment(seq: &[u8], first: usize) -> bool {
    let mut start = 0;
    let mut size = first;
    while start < seq.len() {
        let end = (start + size).min(seq.len());
        let mut seen = 0u8;
        for &p in &seq[start..end] {
            if seen & (1 << p) != 0 {
                return false;
            }
            seen |= 1 << p;
        }
        start = end;
        size = 7;
    }
    true
}

/// The same figures by brute force over all `7^n` sequences.
#[test]
fn window_counts_by_brute_force() {
    for n in 1..=8usize {
        let mut all = 0u64;
        let mut distinct = 0usize;
        let mut seq = vec![0u8; n];
        let alignments: Vec<usize> = (1..7.min(n)).chain([7]).collect();
        'outer: loop {
            let fits = alignments
                .iter()
                .filter(|&&r| fits_alignment(&seq, r))
                .count();
            all += fits as u64;
            distinct += usize::from(fits > 0);
            for d in (0..n).rev() {
                seq[d] += 1;
                if seq[d] < 7 {
                    continue 'outer;
                }
                seq[d] = 0;
            }
            break;
        }
        assert_eq!(all, ALL[n - 1], "windows of {n} in all");
        assert_eq!(distinct, DISTINCT[n - 1], "distinct windows of {n}");
    }
}
