//! Reading pieces from text. [`Piece`] itself is `pc-srs`'s.

use crate::Piece;

/// The pieces written in `s`, each with its column (from 1); whitespace and commas are
/// skipped, any other character that is not a piece letter is an error naming its column.
pub(crate) fn letters(
    s: &str,
) -> impl Iterator<Item = Result<(usize, Piece), crate::ParsePiecesError>> + '_ {
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
