//! sfinder's `.properties` kick files.
//!
//! One entry per line: `P.FT=(x,y)(x,y)...` gives the offsets (rotation-centre form) tried
//! when piece `P` turns from orientation `F` to `T` (compass letters `N E S W`);
//! `P.FT=&Q.GH` reuses another entry. An offset may be marked `@` (`(@-1,-2)`): a T-spin
//! mini made with it counts as full. `#` starts a comment; blank lines are ignored.

use super::{Kick, KickList, KickTable, MAX_KICKS};
use crate::piece::{Orientation, Piece};

/// What is wrong with a kick file. Lines are counted from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KickFileError {
    /// The file could not be read.
    #[error("cannot read kick file {path}: {message}")]
    Io {
        /// The path given.
        path: String,
        /// What the system said.
        message: String,
    },
    /// A line is not of the form `P.FT=...`.
    #[error("line {line}, column {column}: {expected}")]
    Syntax {
        /// Line of the file.
        line: usize,
        /// Column of the line (characters, from 1).
        column: usize,
        /// What was expected there.
        expected: String,
    },
    /// The same rotation is given twice.
    #[error("line {line}: {key} is already given on line {first}")]
    Duplicate {
        /// Line of the second entry.
        line: usize,
        /// Line of the first.
        first: usize,
        /// The key, e.g. `T.NE`.
        key: String,
    },
    /// A `&P.FT` reference names an entry the file does not have, or refers back to itself.
    #[error("line {line}: {reference} is not defined in this file, or refers back to itself")]
    BadReference {
        /// Line of the reference.
        line: usize,
        /// The key referred to.
        reference: String,
    },
    /// An entry has more offsets than a table holds.
    #[error("line {line}: {count} offsets, at most {MAX_KICKS} are supported")]
    TooManyKicks {
        /// Line of the entry.
        line: usize,
        /// Offsets given.
        count: usize,
    },
    /// The file has no entry at all.
    #[error("the kick file has no entries")]
    Empty,
}

type Key = (Piece, Orientation, Orientation);

enum Value {
    Offsets(Vec<Kick>),
    Ref(Key),
}

struct Cursor {
    chars: Vec<char>,
    pos: usize,
    line: usize,
}

impl Cursor {
    fn err(&self, expected: &str) -> KickFileError {
        KickFileError::Syntax {
            line: self.line,
            column: self.pos + 1,
            expected: expected.to_string(),
        }
    }
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }
    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }
    fn expect(&mut self, c: char, what: &str) -> Result<(), KickFileError> {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err(what))
        }
    }
    fn key(&mut self) -> Result<Key, KickFileError> {
        self.skip_ws();
        let piece = self
            .peek()
            .and_then(Piece::from_char)
            .ok_or_else(|| self.err("expected a piece letter (I, J, L, O, S, T or Z)"))?;
        self.pos += 1;
        self.expect('.', "expected '.' after the piece letter")?;
        let mut pair = [Orientation::Spawn; 2];
        for slot in &mut pair {
            *slot = self
                .peek()
                .and_then(Orientation::from_compass)
                .ok_or_else(|| self.err("expected an orientation letter (N, E, S or W)"))?;
            self.pos += 1;
        }
        if pair[0] == pair[1] {
            self.pos -= 1;
            return Err(self.err("expected two different orientations"));
        }
        Ok((piece, pair[0], pair[1]))
    }
    fn int(&mut self) -> Result<i8, KickFileError> {
        self.skip_ws();
        let start = self.pos;
        if matches!(self.peek(), Some('+' | '-')) {
            self.pos += 1;
        }
        let digits = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.pos == digits || self.pos - digits > 2 {
            self.pos = start;
            return Err(self.err("expected a small whole number such as -2, 0 or +1"));
        }
        let s: String = self.chars[start..self.pos]
            .iter()
            .filter(|&&c| c != '+')
            .collect();
        s.parse()
            .map_err(|_| self.err("expected a small whole number"))
    }
}

fn key_name((p, f, t): Key) -> String {
    format!("{}.{}{}", p.to_char(), f.compass(), t.compass())
}

pub(super) fn parse(name: String, text: &str) -> Result<KickTable, KickFileError> {
    let mut entries: Vec<(Key, usize, Value)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("");
        if content.trim().is_empty() {
            continue;
        }
        let mut c = Cursor {
            chars: content.chars().collect(),
            pos: 0,
            line,
        };
        let key = c.key()?;
        c.expect('=', "expected '=' after the key")?;
        c.skip_ws();
        let value = if c.peek() == Some('&') {
            c.pos += 1;
            let target = c.key()?;
            Value::Ref(target)
        } else {
            let mut kicks = Vec::new();
            loop {
                c.skip_ws();
                if c.peek().is_none() {
                    break;
                }
                c.expect(
                    '(',
                    "expected '(' to start an offset, or the end of the line",
                )?;
                c.skip_ws();
                let upgrades_mini = c.peek() == Some('@');
                if upgrades_mini {
                    c.pos += 1;
                }
                let x = c.int()?;
                c.expect(',', "expected ',' between the two numbers of an offset")?;
                let y = c.int()?;
                c.expect(')', "expected ')' to close the offset")?;
                kicks.push(Kick {
                    x,
                    y,
                    upgrades_mini,
                });
            }
            if kicks.is_empty() {
                return Err(c.err("expected at least one offset such as (0,0)"));
            }
            if kicks.len() > MAX_KICKS {
                return Err(KickFileError::TooManyKicks {
                    line,
                    count: kicks.len(),
                });
            }
            Value::Offsets(kicks)
        };
        c.skip_ws();
        if c.peek().is_some() {
            return Err(c.err("expected the end of the line"));
        }
        if let Some((_, first, _)) = entries.iter().find(|(k, _, _)| *k == key) {
            return Err(KickFileError::Duplicate {
                line,
                first: *first,
                key: key_name(key),
            });
        }
        entries.push((key, line, value));
    }
    if entries.is_empty() {
        return Err(KickFileError::Empty);
    }
    let mut table = KickTable::empty(name);
    for (key, line, _) in &entries {
        // Follow references; more hops than entries means a cycle.
        let mut current = *key;
        let mut hops = 0;
        let kicks = loop {
            let Some((_, _, value)) = entries.iter().find(|(k, _, _)| *k == current) else {
                return Err(KickFileError::BadReference {
                    line: *line,
                    reference: key_name(current),
                });
            };
            match value {
                Value::Offsets(k) => break k,
                Value::Ref(target) => {
                    current = *target;
                    hops += 1;
                    if hops > entries.len() {
                        return Err(KickFileError::BadReference {
                            line: *line,
                            reference: key_name(current),
                        });
                    }
                }
            }
        };
        let (p, f, t) = *key;
        table.set(
            p,
            f,
            t,
            KickList::new(kicks).expect("length checked while parsing"),
        );
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> KickFileError {
        parse("t".into(), text).unwrap_err()
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(
            err("T.NE=(0,0)\nT.NX=(0,0)"),
            KickFileError::Syntax {
                line: 2,
                column: 4,
                expected: "expected an orientation letter (N, E, S or W)".into()
            }
        );
        assert!(matches!(
            err("T.NE=(0,0)(1 2)"),
            KickFileError::Syntax {
                line: 1,
                column: 14,
                ..
            }
        ));
        assert!(matches!(
            err("Q.NE=(0,0)"),
            KickFileError::Syntax {
                line: 1,
                column: 1,
                ..
            }
        ));
        assert!(matches!(err("T.NN=(0,0)"), KickFileError::Syntax { .. }));
        assert!(matches!(
            err("T.NE=(0,0)\n\nT.NE=(1,0)"),
            KickFileError::Duplicate {
                line: 3,
                first: 1,
                ..
            }
        ));
        assert!(matches!(
            err("T.NE=&L.NE"),
            KickFileError::BadReference { line: 1, .. }
        ));
        assert!(matches!(
            err("T.NE=&T.EN\nT.EN=&T.NE"),
            KickFileError::BadReference { .. }
        ));
        let many = format!("T.NE={}", "(0,0)".repeat(MAX_KICKS + 1));
        assert!(
            matches!(err(&many), KickFileError::TooManyKicks { line: 1, count } if count == MAX_KICKS + 1)
        );
        assert_eq!(err("# nothing\n\n"), KickFileError::Empty);
        assert!(matches!(err("T.NE="), KickFileError::Syntax { .. }));
        assert!(matches!(err("T.NE=(0,0) x"), KickFileError::Syntax { .. }));
        assert!(
            err("T.NE=(0,0)\nT.NX=(0,0)")
                .to_string()
                .starts_with("line 2, column 4: ")
        );
    }

    #[test]
    fn marks_and_references() {
        let t = parse("t".into(), "T.NE=(0,0)( @-1 , -2 ) # comment\nT.SW=&T.NE").unwrap();
        let k = t.kicks(Piece::T, Orientation::Reverse, Orientation::Left);
        assert_eq!(k.len(), 2);
        assert!(k[1].upgrades_mini && !k[0].upgrades_mini);
        assert_eq!((k[1].x, k[1].y), (-1, -2));
    }
}
