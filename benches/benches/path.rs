//! sfinder's `path` and `cover` (`pc_solver::path`, `pc_solver::cover`) on the cases of
//! `testdata/sfinder/path/` that take sfinder over 5 s of CPU (`timings.csv` there has
//! sfinder's figures), and the same cases by `pc_solver::path_summary` (no queues kept per
//! solution). The counts are asserted first, so a fast path that breaks correctness fails
//! here too.

use criterion::{Criterion, criterion_group, criterion_main};
use pc_solver::{KickTable, PcField, Rules, path, path_summary};
use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Duration;

struct Case {
    name: &'static str,
    rows: &'static str,
    clear_line: u32,
    pattern: &'static str,
    rules: Rules,
    unique: usize,
}

fn bench_path(c: &mut Criterion) {
    let f7 = "###.....##/........##/#........#/.......###";
    let jstris180 = Rules {
        kicks: KickTable::jstris180(),
        ..Rules::default()
    };
    let cases = [
        Case {
            name: "f7_TI_p6: 7 pieces from a PC, T,I,*p6 (sfinder 20.6 s of CPU)",
            rows: f7,
            clear_line: 4,
            pattern: "T,I,*p6",
            rules: Rules::default(),
            unique: 389,
        },
        Case {
            name: "left3_p7: 7 pieces from a PC, *p7 (sfinder 7.3 s)",
            rows: "###......./###......./###......./###.......",
            clear_line: 4,
            pattern: "*p7",
            rules: Rules::default(),
            unique: 168,
        },
        Case {
            name: "six_line_OJ_p5: 6 lines, O,J,*p5 (sfinder 8.1 s)",
            rows: "###....###/#......###/##.....###/##########/#####....#/####.....#",
            clear_line: 6,
            pattern: "O,J,*p5",
            rules: Rules::default(),
            unique: 137,
        },
        Case {
            name: "rot180_f7_p7: 180 kicks, *p7 (sfinder 6.2 s)",
            rows: f7,
            clear_line: 4,
            pattern: "*p7",
            rules: jstris180,
            unique: 32,
        },
    ];
    let mut group = c.benchmark_group("path");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(10));
    for case in &cases {
        let field = PcField::new(case.rows.parse().unwrap(), case.clear_line).unwrap();
        let pattern = case.pattern.parse().unwrap();
        let result = path(&field, &case.rules, &pattern).unwrap();
        assert_eq!(result.solutions.len(), case.unique, "{}", case.name);
        group.bench_function(case.name, |b| {
            b.iter(|| {
                let result = path(black_box(&field), &case.rules, &pattern).unwrap();
                black_box(result.minimal().len())
            })
        });
        let summary = |field: &PcField| {
            path_summary(field, &case.rules, &pattern, &mut |_, _, _| {
                ControlFlow::Continue(())
            })
            .unwrap()
        };
        let first = summary(&field);
        assert_eq!(first.solutions.len(), case.unique, "{}", case.name);
        assert_eq!(first.covered, Some(result.covered()), "{}", case.name);
        assert_eq!(first.minimal.len(), result.minimal().len(), "{}", case.name);
        group.bench_function(format!("summary {}", case.name), |b| {
            b.iter(|| black_box(summary(black_box(&field)).minimal.len()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_path);
criterion_main!(benches);
