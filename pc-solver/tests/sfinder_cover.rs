//! `cover` against sfinder's own answers (`testdata/sfinder/cover/`, see
//! `testdata/README.md`): for each setup, exactly the queues sfinder says build it.

use pc_solver::{Board32, DropMode, KickTable, Piece, Placement, Rules, cover};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/sfinder/cover")
}

/// A setup from a fumen as sfinder's `cover -t` reads it: the first page's field, and the
/// piece of each page whose lock flag is set, on the field of its page.
/// A `#a:b` after the fumen keeps pages `a` to `b` (from 1), as sfinder reads it.
fn setup(text: &str) -> (Board32, Vec<Placement>) {
    let (fumen, pages) = match text.split_once('#') {
        Some((fumen, range)) => {
            let (a, b) = range.split_once(':').unwrap();
            (fumen, a.parse::<usize>().unwrap() - 1..b.parse().unwrap())
        }
        None => (text, 0..usize::MAX),
    };
    let fumen = pc_fumen::decode(fumen).unwrap();
    let field = fumen.pages[0].field_board();
    let end = pages.end.min(fumen.pages.len());
    let placements = fumen.pages[pages.start..end]
        .iter()
        .filter(|p| p.lock())
        .filter_map(|p| p.piece())
        .collect();
    (field, placements)
}

/// One case of `cases.txt`: its name, options and the setups' `[k/n]`, `OR` and `AND`.
struct Case {
    name: String,
    setups: Vec<String>,
    pattern: String,
    rules: Rules,
    counts: Vec<(usize, usize)>,
    or: usize,
    and: usize,
}

/// `[k/n]` in a line of sfinder's output.
fn fraction(line: &str) -> (usize, usize) {
    let inner = &line[line.find('[').unwrap() + 1..line.find(']').unwrap()];
    let (k, n) = inner.split_once('/').unwrap();
    (k.parse().unwrap(), n.parse().unwrap())
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(data_dir().join("cases.txt")).unwrap();
    text.split("## ")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let mut lines = block.lines();
            let name = lines.next().unwrap().trim().to_string();
            let command = lines
                .clone()
                .find_map(|l| l.strip_prefix("command: cover "))
                .unwrap();
            let words: Vec<&str> = command.split_whitespace().collect();
            let value = |flag: &str| {
                words
                    .iter()
                    .position(|w| *w == flag)
                    .map(|i| words[i + 1].to_string())
            };
            let t = words.iter().position(|w| *w == "-t").unwrap();
            let setups: Vec<String> = words[t + 1..]
                .iter()
                .take_while(|w| !w.starts_with('-'))
                .map(|w| w.to_string())
                .collect();
            let drop = value("-d");
            let rules = Rules {
                kicks: match drop.as_deref() {
                    Some("180") => KickTable::jstris180(),
                    _ => KickTable::srs(),
                },
                drop: match drop.as_deref() {
                    Some("harddrop") => DropMode::Hard,
                    _ => DropMode::Soft,
                },
                hold: value("-H").as_deref() != Some("avoid"),
            };
            let counts: Vec<(usize, usize)> = lines
                .clone()
                .filter(|l| l.contains("% [") && l.contains("]: "))
                .map(fraction)
                .collect();
            let or = fraction(lines.clone().find(|l| l.starts_with("OR")).unwrap()).0;
            let and = fraction(lines.clone().find(|l| l.starts_with("AND")).unwrap()).0;
            Case {
                name,
                setups,
                pattern: value("-p").unwrap(),
                rules,
                counts,
                or,
                and,
            }
        })
        .collect()
}

/// sfinder's table of which queues build which setup (`cover.csv`): queue, then `O`/`X`.
fn table(name: &str) -> Vec<(Vec<Piece>, Vec<bool>)> {
    let text = std::fs::read_to_string(data_dir().join(name).join("cover.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let mut fields = line.split(',');
            let queue = fields
                .next()
                .unwrap()
                .chars()
                .map(|c| Piece::from_char(c).unwrap())
                .collect();
            (queue, fields.map(|f| f == "O").collect())
        })
        .collect()
}

#[test]
fn cover_answers_as_sfinder_does() {
    let cases = cases();
    assert_eq!(cases.len(), 8);
    for case in cases {
        let setups: Vec<(Board32, Vec<Placement>)> = case.setups.iter().map(|s| setup(s)).collect();
        let field = setups[0].0;
        let placements: Vec<Vec<Placement>> = setups.into_iter().map(|(_, p)| p).collect();
        let result = cover(
            &field,
            &placements,
            &case.rules,
            &case.pattern.replace(';', "\n").parse().unwrap(),
        )
        .unwrap();
        let counts: Vec<(usize, usize)> = (0..placements.len())
            .map(|s| (result.count(s), result.queues.len()))
            .collect();
        assert_eq!(counts, case.counts, "{}", case.name);
        assert_eq!(
            (result.any(), result.all()),
            (case.or, case.and),
            "{}",
            case.name
        );
        // Queue by queue, as sfinder's table says.
        let table = table(&case.name);
        assert_eq!(table.len(), result.queues.len(), "{}", case.name);
        for (queue, built) in table {
            let q = result.queues.iter().position(|r| *r == queue).unwrap();
            let ours: Vec<bool> = result.built.iter().map(|b| b[q]).collect();
            assert_eq!(ours, built, "{}: {queue:?}", case.name);
        }
    }
}
