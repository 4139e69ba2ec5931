//! sfinder pattern parsing of any text: a pattern (set) or a typed error; whatever parses
//! prints and re-parses to itself, and a pattern small enough to expand expands to its
//! count. pc-bag's other texts (piece sets, multisets, sequences, fractions) likewise.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pc_bag::{Pattern, PatternSet, PieceMultiset, PieceSet, Ratio, Sequence};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pattern) = text.parse::<Pattern>() {
        assert_eq!(
            pattern.to_string().parse::<Pattern>().as_ref(),
            Ok(&pattern)
        );
        if pattern.count() <= 5040 {
            assert_eq!(pattern.expand().count() as u64, pattern.count());
        }
    }
    if let Ok(set) = text.parse::<PatternSet>() {
        assert_eq!(set.to_string().parse::<PatternSet>().as_ref(), Ok(&set));
    }
    if let Ok(set) = text.parse::<PieceSet>() {
        assert_eq!(set.to_string().parse::<PieceSet>(), Ok(set));
    }
    if let Ok(multiset) = text.parse::<PieceMultiset>() {
        assert_eq!(multiset.to_string().parse::<PieceMultiset>(), Ok(multiset));
    }
    if let Ok(sequence) = text.parse::<Sequence>() {
        assert_eq!(sequence.to_string().parse::<Sequence>(), Ok(sequence));
    }
    if let Ok(ratio) = text.parse::<Ratio>() {
        assert_eq!(ratio.to_string().parse::<Ratio>(), Ok(ratio));
    }
});
