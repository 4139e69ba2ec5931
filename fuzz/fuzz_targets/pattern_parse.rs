//! sfinder pattern parsing of any text: a pattern (set) or a typed error; whatever parses
//! prints and re-parses to itself, and a pattern small enough to expand expands to its
//! count.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pc_bag::{Pattern, PatternSet};

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
});
