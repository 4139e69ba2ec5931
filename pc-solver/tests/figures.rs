//! Clairvoyant percent of well-known openers, as sfinder and the PC community quote them.

use pc_solver::{PcField, Rules, percent};

fn check(field: &str, pattern: &str, rules: Rules, success: u64, total: u64) {
    let field = PcField::new(field.parse().unwrap(), 4).unwrap();
    let result = percent(&field, &rules, &pattern.parse().unwrap()).unwrap();
    assert_eq!(
        (result.success, result.total),
        (success, total),
        "{field:?} {pattern}"
    );
}

#[test]
fn pc_template_i_vertical() {
    check(
        "#####....#/######...#/#######..#/######...#",
        "*p4",
        Rules::default(),
        514,
        840,
    );
}

#[test]
fn pco_with_i_in_hold() {
    check(
        "##.....###/###....###/####...###/###....###",
        "I,*p4",
        Rules::default(),
        711,
        840,
    );
}

#[test]
fn grace_system_with_and_without_hold() {
    check(
        "######..../######..../######..../######....",
        "T,*p4",
        Rules::default(),
        744,
        840,
    );
    check(
        "######..../######..../######..../######....",
        "T,*p3",
        Rules::without_hold(),
        67,
        210,
    );
}
