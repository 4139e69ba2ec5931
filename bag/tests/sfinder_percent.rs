//! Conformance with sfinder's `percent` totals: every pattern in
//! `testdata/sfinder/percent/*.csv` (at the workspace root) parses, and its `total` (the last number on
//! the line) equals the number of distinct sequences after sfinder's truncation to the
//! pieces the PC needs (+1 with hold).
//!
//! The pieces needed come from the field, so this file carries a minimal fumen v115
//! field decoder (first page only), enough to count filled cells.

use std::path::PathBuf;

use pc_bag::{PatternSet, search_length, searching_sequences, truncate_dedup};

fn data_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/sfinder/percent"
    ))
}

const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn digit(c: u8) -> u32 {
    ALPHABET
        .iter()
        .position(|&a| a == c)
        .unwrap_or_else(|| panic!("'{}' is not a fumen character", c as char)) as u32
}

/// Filled cells of the first page of a v115 fumen, as 240 booleans: 23 rows top to
/// bottom (cells 0..230) then the garbage row (230..240).
fn decode_field(fumen: &str) -> Vec<bool> {
    let data = fumen
        .split_once("115@")
        .unwrap_or_else(|| panic!("not a v115 fumen: {fumen}"))
        .1;
    let bytes: Vec<u8> = data.bytes().filter(|&b| b != b'?').collect();
    let mut cells = Vec::with_capacity(240);
    let mut i = 0;
    while cells.len() < 240 {
        assert!(i + 1 < bytes.len(), "fumen ends inside the field: {fumen}");
        let v = digit(bytes[i]) + 64 * digit(bytes[i + 1]);
        i += 2;
        let block = v / 240;
        let run = (v % 240 + 1) as usize;
        // First page: the previous field is empty, so any non-zero delta is a block.
        let filled = block != 8;
        cells.extend(std::iter::repeat_n(filled, run));
    }
    assert_eq!(cells.len(), 240, "runs overflow the field: {fumen}");
    cells
}

struct Case {
    file: String,
    line: usize,
    pattern: String,
    needed: usize,
    hold: bool,
    total: usize,
}

fn parse_line(file: &str, line_no: usize, line: &str) -> Case {
    let at = |what: &str| format!("{file}:{line_no}: {what}: {line}");
    let (cmd, rest) = line
        .strip_prefix('"')
        .and_then(|l| l.split_once('"'))
        .unwrap_or_else(|| panic!("{}", at("no quoted command")));
    let total: usize = rest
        .rsplit(',')
        .next()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or_else(|| panic!("{}", at("no total")));
    let fumen = cmd
        .split_once("-t ")
        .and_then(|(_, r)| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("{}", at("no -t")));
    let pattern = cmd
        .split_once("-p ")
        .and_then(|(_, r)| r.split_once(" -c "))
        .map(|(p, _)| p.trim().to_owned())
        .unwrap_or_else(|| panic!("{}", at("no -p")));
    let lines: usize = cmd
        .split_once("-c ")
        .and_then(|(_, r)| r.split_whitespace().next())
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("{}", at("no -c")));
    let hold = !cmd.contains("--hold no");

    let field = decode_field(fumen);
    let visible = &field[..230];
    let below = &visible[230 - 10 * lines..];
    let filled_below = below.iter().filter(|&&c| c).count();
    let filled_all = visible.iter().filter(|&&c| c).count();
    assert_eq!(
        filled_below,
        filled_all,
        "{}",
        at("blocks above the clear line")
    );
    let empty = 10 * lines - filled_all;
    assert_eq!(empty % 4, 0, "{}", at("empty cells not a multiple of 4"));
    Case {
        file: file.to_owned(),
        line: line_no,
        pattern,
        needed: empty / 4,
        hold,
        total,
    }
}

fn load_cases() -> Vec<Case> {
    let dir = data_dir();
    let mut cases = Vec::new();
    for name in ["hold1.csv", "hold2.csv", "nohold1.csv", "nohold2.csv"] {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read sfinder test data {}: {e} (the workspace keeps it in testdata/sfinder)",
                path.display()
            )
        });
        for (i, line) in text.lines().enumerate() {
            if line.starts_with("//") || line.trim().is_empty() {
                continue;
            }
            cases.push(parse_line(name, i + 1, line));
        }
    }
    assert_eq!(cases.len(), 4000, "expected 4 files of 1,000 cases");
    cases
}

#[test]
fn fumen_decoder_counts_the_opener_fields() {
    // `##.....###/###....###/####...###/###....###` (PCO, 24 cells) and the grace field.
    let pco = decode_field("v115@9gB8EeF8DeG8CeF8DeC8JeAgH");
    assert_eq!(pco[..230].iter().filter(|&&c| c).count(), 24);
    let row = |r: usize| -> String {
        pco[r * 10..r * 10 + 10]
            .iter()
            .map(|&c| if c { '#' } else { '.' })
            .collect()
    };
    assert_eq!(row(19), "##.....###");
    assert_eq!(row(22), "###....###");
    let grace = decode_field("v115@9gF8DeF8DeF8DeF8NeAgH");
    assert_eq!(grace[..230].iter().filter(|&&c| c).count(), 24);
}

#[test]
fn percent_totals_match_sfinder() {
    let cases = load_cases();
    // How many hold cases would fail if hold did not add a piece: shows the data
    // discriminates the "+1 with hold" rule.
    let (mut plus_one_matters, mut checked_brute) = (0, 0);
    let mut len_minus_needed = std::collections::BTreeMap::new();
    for c in &cases {
        let where_ = format!("{}:{} ({})", c.file, c.line, c.pattern);
        let set: PatternSet = c
            .pattern
            .parse()
            .unwrap_or_else(|e| panic!("{where_}: pattern does not parse: {e}"));
        for p in set.patterns() {
            let reparsed: PatternSet = p.to_string().parse().unwrap();
            assert_eq!(&reparsed.patterns()[0], p, "{where_}: display round trip");
        }
        *len_minus_needed
            .entry((c.hold, set.len() as i64 - c.needed as i64))
            .or_insert(0) += 1;
        let keep = search_length(set.len(), c.needed, c.hold);
        let searched =
            searching_sequences(&set, c.needed, c.hold).unwrap_or_else(|e| panic!("{where_}: {e}"));
        assert_eq!(
            searched.len(),
            c.total,
            "{where_}: needed {} hold {} keep {keep}",
            c.needed,
            c.hold
        );
        if c.hold && searching_sequences(&set, c.needed, false).unwrap().len() != c.total {
            plus_one_matters += 1;
        }
        // Independently: expand everything, cut, de-duplicate.
        if set.count() <= 50_000 {
            let brute = truncate_dedup(set.expand(), keep);
            assert_eq!(brute, searched, "{where_}: brute-force truncation differs");
            checked_brute += 1;
        }
    }
    eprintln!("(hold, pattern pieces - needed) -> cases: {len_minus_needed:?}");
    eprintln!("hold cases where the +1 matters: {plus_one_matters}; brute-forced: {checked_brute}");
    assert!(
        plus_one_matters > 500,
        "only {plus_one_matters} cases test the +1 rule"
    );
    assert_eq!(checked_brute, cases.len());
}

/// The totals of the well-known openers' percent figures (PC template, PCO, grace system,
/// the empty field), from their fumen fields.
#[test]
fn opener_reference_totals() {
    for (fumen, lines, pattern, hold, total) in [
        ("v115@9gE8DeG8CeH8BeG8CeA8JeAgH", 4, "*p4", true, 840),
        ("v115@9gB8EeF8DeG8CeF8DeC8JeAgH", 4, "I,*p4", true, 840),
        ("v115@9gF8DeF8DeF8DeF8NeAgH", 4, "T,*p4", true, 840),
        ("v115@9gF8DeF8DeF8DeF8NeAgH", 4, "T,*p3", false, 210),
        ("v115@vhAAgH", 4, "*p7,*p4", true, 4_233_600),
        // Longer patterns than needed: cut to needed + 1 (hold) or needed.
        ("v115@vhAAgH", 4, "*p7,*p7", true, 4_233_600),
        ("v115@vhAAgH", 4, "*p7,*p7", false, 5040 * 210),
        ("v115@9gF8DeF8DeF8DeF8NeAgH", 4, "T,*p7", true, 840),
    ] {
        let line = format!(
            "\"percent -t {fumen} -p {pattern} -c {lines}{}\",0,{total}",
            if hold { "" } else { " --hold no" }
        );
        let case = parse_line("openers", 0, &line);
        let set: PatternSet = case.pattern.parse().unwrap();
        let got = searching_sequences(&set, case.needed, case.hold)
            .unwrap()
            .len();
        assert_eq!(got, total, "{pattern} on {fumen}");
    }
}
