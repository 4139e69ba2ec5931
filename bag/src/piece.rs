//! Reading pieces from text. [`Piece`] itself is `pc-srs`'s.

use crate::Piece;

/// The pieces written in `s`, each with its column (from 1); whitespace and commas are
/// skipped, any other character that is not a piece letter is an error naming its column.
pub(crate) fn letters(
    s: &str,
) -> impl Iterator<Item = Result<(usize, Piece), crate::ParsePiecesError>> + '_ {
    // A lone `-` is the empty collection as `write_letters` writes it.
    let s = if s.trim() == "-" { "" } else { s };
    s.chars()
        .enumerate()
        .filter(|&(_, c)| !(c.is_whitespace() || c == ','))
        .map(|(position, c)| {
            Piece::from_char(c)
                .map(|piece| (position + 1, piece))
                .ok_or(crate::ParsePiecesError::NotAPiece {
                    column: position + 1,
                    found: c,
                })
        })
}

/// Reads the letters of `s` into `collection`, one at a time with `insert`, which says
/// whether it took the piece; a piece it does not take is the error `refused` makes of it
/// and its column. The `FromStr` of the piece collections.
pub(crate) fn parse_into<C>(
    s: &str,
    mut collection: C,
    insert: impl Fn(&mut C, Piece) -> bool,
    refused: impl Fn(usize, Piece) -> crate::ParsePiecesError,
) -> Result<C, crate::ParsePiecesError> {
    for item in letters(s) {
        let (column, piece) = item?;
        if !insert(&mut collection, piece) {
            return Err(refused(column, piece));
        }
    }
    Ok(collection)
}

/// Writes the pieces' letters, or `-` when there are none (so that an empty collection
/// shows, and reads back). The `Display` of the piece collections.
pub(crate) fn write_letters(
    f: &mut core::fmt::Formatter<'_>,
    pieces: impl Iterator<Item = Piece>,
) -> core::fmt::Result {
    let mut any = false;
    for p in pieces {
        core::fmt::Display::fmt(&p, f)?;
        any = true;
    }
    if !any {
        f.write_str("-")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParsePiecesError;

    #[test]
    fn letters_skip_separators_and_name_the_column() {
        let read: Vec<_> = letters("t, I o").collect();
        assert_eq!(
            read,
            [Ok((1, Piece::T)), Ok((4, Piece::I)), Ok((6, Piece::O))]
        );
        let err = letters("TIx").find_map(Result::err);
        assert_eq!(
            err,
            Some(ParsePiecesError::NotAPiece {
                column: 3,
                found: 'x'
            })
        );
    }
}
