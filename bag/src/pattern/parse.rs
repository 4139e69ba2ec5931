//! Recursive-descent parser for one pattern line.

use smallvec::SmallVec;

use super::{Element, Pattern};
use crate::Piece;
use crate::error::{Expected, Found, PatternError};
use crate::sequence::Sequence;
use crate::set::PieceSet;

/// A cursor over the characters of a line with 1-based columns. `#` acts as the end of
/// input, so comments need no special casing in the grammar.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    column: usize,
}

impl Cursor<'_> {
    /// The next non-whitespace character and its column, without consuming it.
    fn peek(&mut self) -> (Found, usize) {
        while let Some(&c) = self.chars.peek() {
            if c.is_whitespace() {
                self.chars.next();
                self.column += 1;
            } else {
                break;
            }
        }
        match self.chars.peek() {
            None | Some('#') => (Found::End, self.column),
            Some(&c) => (Found::Char(c), self.column),
        }
    }

    fn bump(&mut self) {
        self.chars.next();
        self.column += 1;
    }

    fn unexpected(&mut self, expected: Expected) -> PatternError {
        let (found, column) = self.peek();
        PatternError::Unexpected {
            column,
            expected,
            found,
        }
    }
}

pub(super) fn parse_pattern(text: &str) -> Result<Pattern, PatternError> {
    let mut cur = Cursor {
        chars: text.chars().peekable(),
        column: 1,
    };
    let mut elements: SmallVec<[Element; 8]> = SmallVec::new();
    let mut len = 0;
    if cur.peek().0 == Found::End {
        return Err(PatternError::Empty);
    }
    loop {
        let start = cur.peek().1;
        let element = parse_element(&mut cur)?;
        len += element.pick();
        if len > Sequence::MAX_LEN {
            return Err(PatternError::TooLong { column: start, len });
        }
        elements.push(element);
        match cur.peek().0 {
            Found::End => break,
            Found::Char(',') => cur.bump(),
            Found::Char(_) => return Err(cur.unexpected(Expected::CommaOrEnd)),
        }
    }
    Ok(Pattern { elements, len })
}

fn parse_element(cur: &mut Cursor<'_>) -> Result<Element, PatternError> {
    let (found, column) = cur.peek();
    let set = match found {
        Found::Char('*') => {
            cur.bump();
            PieceSet::ALL
        }
        Found::Char('[') => {
            cur.bump();
            parse_bracket(cur, column)?
        }
        Found::Char(c) => match Piece::from_char(c) {
            Some(p) => {
                cur.bump();
                // A single piece takes no suffix: `Tp1` is not sfinder syntax either.
                return Ok(Element::piece(p));
            }
            None => return Err(cur.unexpected(Expected::Element)),
        },
        Found::End => return Err(cur.unexpected(Expected::Element)),
    };
    let pick = parse_suffix(cur, set)?;
    Ok(Element {
        set,
        pick: pick as u8,
    })
}

/// The inside of `[...]` after the opening bracket, through the closing one.
fn parse_bracket(cur: &mut Cursor<'_>, open_column: usize) -> Result<PieceSet, PatternError> {
    let mut negate = false;
    if cur.peek().0 == Found::Char('^') {
        cur.bump();
        negate = true;
    }
    let mut set = PieceSet::EMPTY;
    loop {
        let (found, column) = cur.peek();
        match found {
            Found::Char(']') => {
                cur.bump();
                break;
            }
            Found::Char(c) => match Piece::from_char(c) {
                Some(p) => {
                    if !set.insert(p) {
                        return Err(PatternError::RepeatedInBracket { column, piece: p });
                    }
                    cur.bump();
                }
                None => return Err(cur.unexpected(Expected::PieceOrClose)),
            },
            Found::End => return Err(cur.unexpected(Expected::PieceOrClose)),
        }
    }
    let set = if negate { !set } else { set };
    if set.is_empty() {
        return Err(PatternError::EmptyBracket {
            column: open_column,
        });
    }
    Ok(set)
}

/// An optional `pN` or `!` after `*` or `[...]`; returns the pick count.
fn parse_suffix(cur: &mut Cursor<'_>, set: PieceSet) -> Result<usize, PatternError> {
    match cur.peek().0 {
        Found::Char('!') => {
            cur.bump();
            Ok(set.len())
        }
        Found::Char('p' | 'P') => {
            cur.bump();
            let (found, column) = cur.peek();
            if !matches!(found, Found::Char(c) if c.is_ascii_digit()) {
                return Err(cur.unexpected(Expected::Count));
            }
            let mut count: u32 = 0;
            while let Some(&c) = cur.chars.peek() {
                let Some(d) = c.to_digit(10) else { break };
                count = count.saturating_mul(10).saturating_add(d);
                cur.bump();
            }
            if count == 0 {
                return Err(PatternError::BadCount { column, count });
            }
            if count as usize > set.len() {
                return Err(PatternError::PickTooMany {
                    column,
                    count,
                    available: set.len(),
                });
            }
            Ok(count as usize)
        }
        _ => Ok(1),
    }
}

#[cfg(test)]
mod tests {
    use crate::error::{Expected, Found, PatternError};
    use crate::{Pattern, Piece};

    fn canon(s: &str) -> String {
        s.parse::<Pattern>().unwrap().to_string()
    }

    fn err(s: &str) -> PatternError {
        s.parse::<Pattern>().unwrap_err()
    }

    #[test]
    fn every_element_form() {
        assert_eq!(canon("T"), "T");
        assert_eq!(canon("*"), "*");
        assert_eq!(canon("[SZLJ]"), "[JLSZ]");
        assert_eq!(canon("[^TI]"), "[JLOSZ]");
        assert_eq!(canon("[SZLJ]p2"), "[JLSZ]p2");
        assert_eq!(canon("*p4"), "*p4");
        assert_eq!(canon("[IOSL]!"), "[ILOS]p4");
        assert_eq!(canon("*!"), "*p7");
        assert_eq!(canon("[T]"), "T");
        assert_eq!(canon("[IJLOSTZ]"), "*");
        assert_eq!(canon("[^T]p6"), "[IJLOSZ]p6");
    }

    #[test]
    fn whitespace_case_and_comments() {
        assert_eq!(canon("  t , [ s z ] P2 ,*p3  # comment"), "T,[SZ]p2,*p3");
        assert_eq!(canon("S,J,J,J,L,I,S,O,O,J,L,O"), "S,J,J,J,L,I,S,O,O,J,L,O");
    }

    #[test]
    fn errors_name_the_column() {
        assert_eq!(err(""), PatternError::Empty);
        assert_eq!(err("  # only a comment"), PatternError::Empty);
        assert_eq!(
            err("T,"),
            PatternError::Unexpected {
                column: 3,
                expected: Expected::Element,
                found: Found::End
            }
        );
        assert_eq!(
            err("T I"),
            PatternError::Unexpected {
                column: 3,
                expected: Expected::CommaOrEnd,
                found: Found::Char('I')
            }
        );
        assert_eq!(
            err("T,X"),
            PatternError::Unexpected {
                column: 3,
                expected: Expected::Element,
                found: Found::Char('X')
            }
        );
        assert_eq!(
            err("[SZ"),
            PatternError::Unexpected {
                column: 4,
                expected: Expected::PieceOrClose,
                found: Found::End
            }
        );
        assert_eq!(
            err("[SZS]"),
            PatternError::RepeatedInBracket {
                column: 4,
                piece: Piece::S
            }
        );
        assert_eq!(err("T,[]"), PatternError::EmptyBracket { column: 3 });
        assert_eq!(err("[^IJLOSTZ]"), PatternError::EmptyBracket { column: 1 });
        assert_eq!(
            err("*p"),
            PatternError::Unexpected {
                column: 3,
                expected: Expected::Count,
                found: Found::End
            }
        );
        assert_eq!(
            err("*p0"),
            PatternError::BadCount {
                column: 3,
                count: 0
            }
        );
        assert_eq!(
            err("[SZ]p3"),
            PatternError::PickTooMany {
                column: 6,
                count: 3,
                available: 2
            }
        );
        assert_eq!(
            err("*p99999999999999"),
            PatternError::PickTooMany {
                column: 3,
                count: u32::MAX,
                available: 7
            }
        );
        assert_eq!(
            err("*p7,*p7,*p7,T"),
            PatternError::TooLong {
                column: 13,
                len: 22
            }
        );
        assert_eq!(
            err("Tp2"),
            PatternError::Unexpected {
                column: 2,
                expected: Expected::CommaOrEnd,
                found: Found::Char('p')
            }
        );
        assert_eq!(
            err("T,X").to_string(),
            "column 3: expected a piece (IJLOSTZ), '*' or '[', found 'X'"
        );
    }
}
