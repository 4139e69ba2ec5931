//! The text form of a board: `#`/`.` rows, top row first.

use crate::board::{Board, WIDTH};
use crate::word::Word;
use core::fmt;
use core::str::FromStr;

/// Why a board's text could not be read.
///
/// Rows are counted from the top of the text, starting at 1, like the lines of the string;
/// columns from the left, starting at 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseBoardError {
    /// A row does not have exactly ten cells.
    #[error("row {row} (from the top) has {found} cells, expected 10")]
    WrongWidth {
        /// Row of the text, from the top, starting at 1.
        row: usize,
        /// Number of cells found.
        found: usize,
    },
    /// A character is not a cell.
    #[error("row {row} (from the top), column {column}: expected {expected}, found {found:?}")]
    UnexpectedChar {
        /// Row of the text, from the top, starting at 1.
        row: usize,
        /// Column, from the left, starting at 1.
        column: usize,
        /// The character found.
        found: char,
        /// What a cell may be, in words.
        expected: &'static str,
    },
    /// The text has more rows than the board type holds.
    #[error("{rows} rows do not fit in a board of {max} rows")]
    TooManyRows {
        /// Rows in the text.
        rows: usize,
        /// Rows the board holds.
        max: u32,
    },
}

/// Reads the rows of a text diagram, top row first, as every text form of a field does:
/// rows are separated by newlines or `/`, blank rows and spaces around a row are ignored,
/// and each row has [`WIDTH`] cells. `cell` reads a character (`None`: not a cell; the
/// error then says `expected`), and `set(x, y, value)` takes each cell, `y` counted from
/// the bottom (the last row of the text is row 0). At most `max_rows` rows.
///
/// ```
/// use pc_bitboard::{ParseBoardError, parse_rows};
///
/// let mut cells = Vec::new();
/// parse_rows("ab........\n.........c", 2, "a letter", |ch| ch.is_alphabetic().then_some(ch).or((ch == '.').then_some(' ')), |x, y, c| {
///     if c != ' ' {
///         cells.push((x, y, c));
///     }
/// })?;
/// assert_eq!(cells, [(0, 1, 'a'), (1, 1, 'b'), (9, 0, 'c')]);
/// assert!(matches!(
///     parse_rows("a.", 2, "a letter", |ch| ch.is_alphabetic().then_some(ch), |_, _, _| {}),
///     Err(ParseBoardError::UnexpectedChar { row: 1, column: 2, found: '.', expected: "a letter" })
/// ));
/// # Ok::<(), ParseBoardError>(())
/// ```
pub fn parse_rows<T>(
    s: &str,
    max_rows: u32,
    expected: &'static str,
    cell: impl Fn(char) -> Option<T>,
    mut set: impl FnMut(usize, u32, T),
) -> Result<(), ParseBoardError> {
    let rows: Vec<&str> = s
        .split(['\n', '/'])
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .collect();
    if rows.len() > max_rows as usize {
        return Err(ParseBoardError::TooManyRows {
            rows: rows.len(),
            max: max_rows,
        });
    }
    for (i, text) in rows.iter().enumerate() {
        let y = (rows.len() - 1 - i) as u32;
        let mut width = 0;
        for (x, ch) in text.chars().enumerate() {
            width += 1;
            let value = cell(ch).ok_or(ParseBoardError::UnexpectedChar {
                row: i + 1,
                column: x + 1,
                found: ch,
                expected,
            })?;
            if x < WIDTH {
                set(x, y, value);
            }
        }
        if width != WIDTH {
            return Err(ParseBoardError::WrongWidth {
                row: i + 1,
                found: width,
            });
        }
    }
    Ok(())
}

/// Reads a board from text, top row first (see [`parse_rows`] for rows and spaces).
///
/// A filled cell is `#` (also `X`, `G` and the piece letters `IOTSZJL`, so coloured
/// diagrams paste as they are); an empty cell is `.` (also `_`).
impl<W: Word> FromStr for Board<W> {
    type Err = ParseBoardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut board = Board::new();
        let cell = |ch| match ch {
            '#' | 'X' | 'G' | 'I' | 'O' | 'T' | 'S' | 'Z' | 'J' | 'L' => Some(true),
            '.' | '_' => Some(false),
            _ => None,
        };
        parse_rows(s, W::BITS, "'#' or '.'", cell, |x, y, filled| {
            if filled {
                board.fill(x, y);
            }
        })?;
        Ok(board)
    }
}

/// Writes the rows `height()-1` down to 0 as `#`/`.`, separated by newlines
/// (nothing for an empty board). Use [`Board::to_text`] to write a fixed number of rows.
impl<W: Word> fmt::Display for Board<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_rows(self, self.height(), "\n", f)
    }
}

impl<W: Word> fmt::Debug for Board<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board(\"")?;
        write_rows(self, self.height(), "/", f)?;
        write!(f, "\")")
    }
}

impl<W: Word> Board<W> {
    /// The rows `rows-1` down to 0 as text, separated by `separator` (`"\n"` or `"/"`).
    ///
    /// ```
    /// use pc_bitboard::Board32;
    /// let b: Board32 = "##.......#".parse().unwrap();
    /// assert_eq!(b.to_text(2, "/"), "........../##.......#");
    /// ```
    pub fn to_text(&self, rows: u32, separator: &str) -> String {
        struct Rows<'a, W: Word>(&'a Board<W>, u32, &'a str);
        impl<W: Word> fmt::Display for Rows<'_, W> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_rows(self.0, self.1, self.2, f)
            }
        }
        Rows(self, rows.min(W::BITS), separator).to_string()
    }
}

fn write_rows<W: Word>(
    board: &Board<W>,
    rows: u32,
    separator: &str,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    for y in (0..rows).rev() {
        for x in 0..WIDTH {
            f.write_str(if board.cell(x, y) { "#" } else { "." })?;
        }
        if y > 0 {
            f.write_str(separator)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board32, Board64};

    #[test]
    fn errors_name_row_and_column() {
        let e = "##########\n###x######".parse::<Board32>().unwrap_err();
        assert_eq!(
            e,
            ParseBoardError::UnexpectedChar {
                row: 2,
                column: 4,
                found: 'x',
                expected: "'#' or '.'",
            }
        );
        assert_eq!(
            e.to_string(),
            "row 2 (from the top), column 4: expected '#' or '.', found 'x'"
        );
        let e = "#########".parse::<Board32>().unwrap_err();
        assert_eq!(e, ParseBoardError::WrongWidth { row: 1, found: 9 });
        let tall = vec![".........."; 33].join("\n");
        assert!(matches!(
            tall.parse::<Board32>(),
            Err(ParseBoardError::TooManyRows { rows: 33, max: 32 })
        ));
        assert!(tall.parse::<Board64>().is_ok());
    }

    #[test]
    fn slash_and_letters() {
        let a: Board32 = "##.....###/###....###".parse().unwrap();
        let b: Board32 = "IO.....LLL\nTTS....ZZZ".parse().unwrap();
        assert_eq!(a, b);
        assert_eq!(a.row(0), 0b11_1000_0111);
        assert_eq!(format!("{a:?}"), "Board(\"##.....###/###....###\")");
    }
}
