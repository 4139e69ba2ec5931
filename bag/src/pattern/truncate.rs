//! sfinder's truncation of pattern sequences to the pieces a PC needs.

use super::PatternSet;
use crate::error::TooFewPieces;
use crate::sequence::Sequence;

/// How many pieces of each sequence sfinder's `percent` searches: the pieces the PC
/// needs, plus one with hold, but never more than the pattern has.
///
/// `needed` is the number of empty cells below the clear line divided by 4.
///
/// ```
/// use pc_bag::search_length;
///
/// assert_eq!(search_length(11, 10, true), 11); // *p7,*p4 for an empty 4-line field
/// assert_eq!(search_length(12, 10, true), 11);
/// assert_eq!(search_length(10, 10, true), 10); // no piece left for hold: keep all 10
/// assert_eq!(search_length(12, 10, false), 10);
/// ```
pub const fn search_length(pattern_len: usize, needed: usize, hold: bool) -> usize {
    let wanted = if hold { needed + 1 } else { needed };
    if wanted < pattern_len {
        wanted
    } else {
        pattern_len
    }
}

/// The distinct sequences sfinder's `percent` searches for a pattern file: every sequence
/// cut to [`search_length`] pieces, duplicates removed, sorted. Its length is sfinder's
/// `total`, the denominator of the PC chance.
///
/// Fails like sfinder when the patterns have fewer pieces than the PC needs.
///
/// Each line is cut as a pattern (`Pattern::truncated`), which never yields
/// duplicates, so a one-line file needs no de-duplication at all.
///
/// ```
/// use pc_bag::{searching_sequences, PatternSet};
///
/// let patterns: PatternSet = "*p7,*p4".parse()?;
/// // 6 pieces needed with hold: sequences are cut to 7 pieces, the 4,233,600 become 5,040.
/// assert_eq!(searching_sequences(&patterns, 6, true)?.len(), 5040);
/// assert!(searching_sequences(&patterns, 12, true).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn searching_sequences(
    patterns: &PatternSet,
    needed: usize,
    hold: bool,
) -> Result<Vec<Sequence>, TooFewPieces> {
    let available = patterns.len();
    if available < needed {
        return Err(TooFewPieces { needed, available });
    }
    let keep = search_length(available, needed, hold);
    let lines = patterns.patterns();
    if let [only] = lines {
        // One line: the truncated pattern's expansion is already distinct and sorted.
        return Ok(only.truncated(keep).expand().collect());
    }
    Ok(truncate_dedup(
        lines.iter().flat_map(|p| p.truncated(keep).expand()),
        keep,
    ))
}

/// Cuts every sequence to its first `len` pieces and returns the distinct results,
/// sorted. A general form of [`searching_sequences`] for any stream of sequences.
///
/// ```
/// use pc_bag::{truncate_dedup, Sequence};
///
/// let seqs: Vec<Sequence> = ["TIO", "TIS", "OIT"].iter().map(|s| s.parse().unwrap()).collect();
/// let cut = truncate_dedup(seqs, 2);
/// assert_eq!(cut.iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["OI", "TI"]);
/// ```
pub fn truncate_dedup<I: IntoIterator<Item = Sequence>>(sequences: I, len: usize) -> Vec<Sequence> {
    let mut out: Vec<Sequence> = sequences.into_iter().map(|s| s.prefix(len)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Pattern;

    #[test]
    fn truncated_pattern_equals_truncate_dedup() {
        for (text, keep) in [
            ("*p7,*p4", 3),
            ("T,[SZ]p2,*p3", 2),
            ("T,[SZ]p2,*p3", 4),
            ("I,*p4", 5),
        ] {
            let p: Pattern = text.parse().unwrap();
            let direct: Vec<Sequence> = p.truncated(keep).expand().collect();
            let dedup = truncate_dedup(p.expand(), keep);
            assert_eq!(direct, dedup, "{text} cut to {keep}");
        }
    }

    #[test]
    fn union_of_lines_is_deduplicated() {
        let set: PatternSet = "T,*p3\n*,[TIO]p3".parse().unwrap();
        let got = searching_sequences(&set, 2, true).unwrap();
        // Lines overlap on sequences starting T,[TIO]: expected by brute force.
        let mut expect: Vec<Sequence> = set.expand().map(|s| s.prefix(3)).collect();
        expect.sort();
        expect.dedup();
        assert_eq!(got, expect);
        assert!(got.len() < set.count() as usize);
    }
}
