//! sfinder conformance: every line of `testdata/sfinder/percent/*.csv` (workspace root) is a
//! `percent` command with sfinder's answer. Rows with clear line 4 or less run by default;
//! the rest with `cargo test -p pc-solver --release --test sfinder_percent -- --ignored`.
//! `PC_CSV=hold2.csv,nohold2.csv` runs the rows of the listed files only, `PC_TIMING=1`
//! prints each case's time and verdict.

use pc_solver::{PcField, Rules, percent};
use std::path::PathBuf;

struct Case {
    file: &'static str,
    line: usize,
    fumen: String,
    pattern: String,
    clear_line: u32,
    hold: bool,
    success: u64,
    total: u64,
}

fn cases() -> Vec<Case> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/sfinder/percent");
    let mut out = vec![];
    for file in ["hold1.csv", "hold2.csv", "nohold1.csv", "nohold2.csv"] {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read {}: {e} (the workspace keeps it in testdata/sfinder)",
                path.display()
            )
        });
        for (i, row) in text.lines().enumerate() {
            if row.starts_with("//") || row.trim().is_empty() {
                continue;
            }
            let (command, answer) = row
                .trim_start_matches('"')
                .split_once("\",")
                .expect("a quoted command");
            let (success, total) = answer.split_once(',').expect("success,total");
            let words: Vec<&str> = command.split_whitespace().collect();
            let arg = |flag: &str| words.iter().position(|w| *w == flag).map(|i| words[i + 1]);
            out.push(Case {
                file,
                line: i + 1,
                fumen: arg("-t").expect("-t").to_string(),
                pattern: arg("-p").expect("-p").to_string(),
                clear_line: arg("-c").expect("-c").parse().unwrap(),
                hold: arg("--hold") != Some("no"),
                success: success.trim().parse().unwrap(),
                total: total.trim().parse().unwrap(),
            });
        }
    }
    assert_eq!(out.len(), 4000, "expected the 4,000 sfinder cases");
    out
}

fn run(filter: impl Fn(&Case) -> bool) {
    let mut failures = vec![];
    let mut ran = 0;
    // `PC_CSV=hold2.csv,nohold2.csv` keeps the rows of those files only.
    let files = std::env::var("PC_CSV").ok();
    let listed = |c: &Case| {
        files
            .as_ref()
            .is_none_or(|f| f.split(',').any(|n| n == c.file))
    };
    for case in cases().iter().filter(|c| filter(c) && listed(c)) {
        ran += 1;
        let started = std::time::Instant::now();
        let field = pc_fumen::decode(&case.fumen)
            .unwrap()
            .first_field()
            .unwrap();
        let rules = if case.hold {
            Rules::default()
        } else {
            Rules::without_hold()
        };
        let field = PcField::new(field, case.clear_line).unwrap();
        let result = percent(&field, &rules, &case.pattern.parse().unwrap()).unwrap();
        if std::env::var_os("PC_TIMING").is_some() {
            let verdict = if (result.success, result.total) == (case.success, case.total) {
                "ok"
            } else {
                "DIFFERS"
            };
            eprintln!(
                "{:?} {}:{} -c {} -p {} {}/{} {verdict}",
                started.elapsed(),
                case.file,
                case.line,
                case.clear_line,
                case.pattern,
                result.success,
                result.total
            );
        }
        if (result.success, result.total) != (case.success, case.total) {
            failures.push(format!(
                "{}:{} -c {} {} -p {}: got {}/{}, sfinder {}/{}",
                case.file,
                case.line,
                case.clear_line,
                case.fumen,
                case.pattern,
                result.success,
                result.total,
                case.success,
                case.total
            ));
        }
    }
    assert!(ran > 0);
    assert!(
        failures.is_empty(),
        "{} of {ran} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn clear_line_up_to_4_with_hold() {
    run(|c| c.clear_line <= 4 && c.hold);
}

#[test]
fn clear_line_up_to_4_without_hold() {
    run(|c| c.clear_line <= 4 && !c.hold);
}

#[test]
#[ignore]
fn clear_line_5_to_8_with_hold() {
    run(|c| c.clear_line > 4 && c.hold);
}

#[test]
#[ignore]
fn clear_line_5_to_8_without_hold() {
    run(|c| c.clear_line > 4 && !c.hold);
}
