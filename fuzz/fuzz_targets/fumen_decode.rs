//! Fumen decoding of any text: a fumen or a typed error, and a decoded fumen encodes and
//! decodes to itself. The text is tried as it is and after `v115@`, so that most inputs
//! reach the page decoder.
#![no_main]

use libfuzzer_sys::fuzz_target;

fn check(text: &str) {
    if let Ok(fumen) = pc_fumen::decode(text) {
        assert!(!fumen.pages.is_empty());
        let encoded = pc_fumen::encode(&fumen);
        assert_eq!(
            pc_fumen::decode(&encoded),
            Ok(fumen),
            "{text:?} -> {encoded}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        check(text);
        check(&format!("v115@{text}"));
    }
});
