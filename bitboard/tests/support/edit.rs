//! Edits of a text for the never-panic tests of the text parsers (boards here, fumen in
//! `fumen/tests`, patterns in `bag/tests`, which include this file by its path): one copy
//! of the helper for the three crates, none of which depends on the others' tests.

use proptest::sample::Index;

/// `text` with each edit made in turn: `(0, at, c)` replaces the character at `at` by
/// `c`, `(1, at, c)` inserts `c` before it, `(2, at, _)` deletes it.
pub fn edited(text: &str, edits: &[(u8, Index, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (kind, at, c) in edits {
        match (kind, chars.len()) {
            (0, len @ 1..) => chars[at.index(len)] = *c,
            (1, len) => chars.insert(at.index(len + 1), *c),
            (_, len @ 1..) => drop(chars.remove(at.index(len))),
            _ => {}
        }
    }
    chars.into_iter().collect()
}
