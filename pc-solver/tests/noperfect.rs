//! `testdata/sfinder/orders/noperfect.txt` (workspace root): the 11-piece sequences (hold + 10)
//! with no 4-line PC from the empty field under SRS, soft drop and hold. CI checks a seeded
//! sample of them and of other 7-bag windows (which all have one); the full lists run with
//! `cargo test -p pc-solver --release --test noperfect -- --ignored` (`PC_PART=k/n` runs every
//! n-th sequence from the k-th, for n processes side by side).

use pc_bitboard::Board32;
use pc_solver::{PcField, Rules, Searcher};
use pc_srs::Piece;
use std::collections::HashSet;

fn noperfect() -> Vec<Vec<Piece>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/sfinder/orders/noperfect.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!("cannot read {path}: {e} (the workspace keeps it in testdata/sfinder)")
    });
    let list: Vec<Vec<Piece>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.trim()
                .chars()
                .map(|c| Piece::from_char(c).unwrap())
                .collect()
        })
        .collect();
    assert_eq!(list.len(), 62_834);
    list
}

/// A 7-bag stream from a seed, and its 11-piece windows at every phase.
fn bag_windows(seed: u64, count: usize) -> Vec<Vec<Piece>> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = vec![];
    while out.len() < count {
        let mut stream = vec![];
        for _ in 0..3 {
            let mut bag = Piece::ALL.to_vec();
            for i in (1..7).rev() {
                bag.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            stream.extend(bag);
        }
        let phase = (next() % 7) as usize;
        out.push(stream[phase..phase + 11].to_vec());
    }
    out
}

fn sample<T: Clone>(items: &[T], n: usize, seed: u64) -> Vec<T> {
    let step = (items.len() / n).max(1);
    (0..n)
        .map(|i| items[(i * step + seed as usize) % items.len()].clone())
        .collect()
}

fn check(no: &[Vec<Piece>], yes: &[Vec<Piece>]) {
    let field = PcField::new(Board32::new(), 4).unwrap();
    let mut searcher = Searcher::new(Rules::default());
    let timing = std::env::var_os("PC_TIMING").is_some();
    for q in no {
        let t = std::time::Instant::now();
        assert!(
            !searcher.has_solution(&field, None, q),
            "{q:?} is listed as having no PC"
        );
        if timing {
            eprintln!("no  {:?}", t.elapsed());
        }
        if searcher.memo_len() > 5_000_000 {
            searcher.clear();
        }
    }
    for q in yes {
        let t = std::time::Instant::now();
        assert!(
            searcher.has_solution(&field, None, q),
            "{q:?} should have a PC"
        );
        if timing {
            eprintln!("yes {:?}", t.elapsed());
        }
        if searcher.memo_len() > 5_000_000 {
            searcher.clear();
        }
    }
}

fn others(count: usize, seed: u64) -> Vec<Vec<Piece>> {
    let listed: HashSet<Vec<Piece>> = noperfect().into_iter().collect();
    bag_windows(seed, count * 2)
        .into_iter()
        .filter(|w| !listed.contains(w))
        .take(count)
        .collect()
}

#[test]
fn seeded_sample() {
    check(&sample(&noperfect(), 20, 7), &others(20, 1));
}

/// With `PC_PART=k/n`, every n-th item from the k-th (0-based), so that the full lists can
/// run as n processes side by side; all of them without it.
fn part<T>(items: Vec<T>) -> Vec<T> {
    let Ok(spec) = std::env::var("PC_PART") else {
        return items;
    };
    let (k, n) = spec
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
        .filter(|&(k, n)| k < n)
        .unwrap_or_else(|| panic!("PC_PART={spec}: expected k/n with k < n"));
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % n == k)
        .map(|(_, item)| item)
        .collect()
}

#[test]
#[ignore]
fn full_list_and_20000_windows() {
    check(&part(noperfect()), &part(others(20_000, 2)));
}
