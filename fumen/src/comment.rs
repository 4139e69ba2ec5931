//! Page comments: JavaScript `escape` text, packed four characters to five digits.
//!
//! A comment is written as its escaped length (2 digits, at most 4095) followed by
//! groups of four escaped characters, each group one 5-digit value
//! `c0 + 96 c1 + 96² c2 + 96³ c3`, where `c` is the character's code minus 32 (escaped
//! text is printable ASCII). `escape` keeps `A-Z a-z 0-9 @*_+-./`, writes other UTF-16
//! code units below 256 as `%XX` and the rest as `%uXXXX`.

use super::FumenError;
use super::codec::{Reader, Writer};

/// Longest escaped comment the 2-digit length can announce.
pub(crate) const MAX_ESCAPED_LEN: usize = 4095;
/// Printable ASCII, space to `~`: 95 characters.
const CHARS: u32 = 95;
/// Base of the packing (one more than the characters, as fumen has it).
const BASE: u32 = 96;

/// Reads a comment of page `page`.
pub(crate) fn read(r: &mut Reader, page: usize) -> Result<String, FumenError> {
    let truncated = FumenError::Truncated {
        page,
        part: "comment",
    };
    let len = r.read(2).ok_or(truncated.clone())? as usize;
    let mut escaped = String::with_capacity(len);
    for group in 0..len.div_ceil(4) {
        let mut value = r.read(5).ok_or(truncated.clone())?;
        for i in 0..4 {
            let position = group * 4 + i;
            let code = value % BASE;
            value /= BASE;
            if position >= len {
                break;
            }
            if code >= CHARS {
                return Err(FumenError::BadComment {
                    page,
                    position,
                    reason: "character code 95 is not in fumen's comment table",
                });
            }
            escaped.push(char::from(32 + code as u8));
        }
    }
    unescape(&escaped).map_err(|(position, reason)| FumenError::BadComment {
        page,
        position,
        reason,
    })
}

/// Writes `text` as a comment, cut after the last character that fits in
/// [`MAX_ESCAPED_LEN`] escaped characters.
pub(crate) fn write(w: &mut Writer, text: &str) {
    let escaped = escape(text, MAX_ESCAPED_LEN);
    let codes: Vec<u32> = escaped.bytes().map(|b| (b - 32) as u32).collect();
    w.push(codes.len() as u32, 2);
    for group in codes.chunks(4) {
        let value = group.iter().rev().fold(0, |acc, &c| acc * BASE + c);
        w.push(value, 5);
    }
}

/// JavaScript's `escape` of `text`, keeping only the characters whose escapes fit in
/// `max` characters in all.
pub(crate) fn escape(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut buf = [0u16; 2];
    for ch in text.chars() {
        let mut piece = String::new();
        if ch.is_ascii_alphanumeric() || "@*_+-./".contains(ch) {
            piece.push(ch);
        } else {
            for &unit in ch.encode_utf16(&mut buf).iter() {
                if unit < 256 {
                    piece.push_str(&format!("%{unit:02X}"));
                } else {
                    piece.push_str(&format!("%u{unit:04X}"));
                }
            }
        }
        if out.len() + piece.len() > max {
            break;
        }
        out.push_str(&piece);
    }
    out
}

/// JavaScript's `unescape`, strict: a `%` must start `%XX` or `%uXXXX` (hex digits), and
/// surrogates must pair up. Errors give the index of the bad escape and the reason.
pub(crate) fn unescape(s: &str) -> Result<String, (usize, &'static str)> {
    let bytes = s.as_bytes();
    let mut units: Vec<(usize, u16)> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            units.push((i, bytes[i] as u16));
            i += 1;
            continue;
        }
        let (digits, skip) = if bytes.get(i + 1) == Some(&b'u') {
            (4, 2)
        } else {
            (2, 1)
        };
        let hex = s
            .get(i + skip..i + skip + digits)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or((
                i,
                "`%` is not followed by 2 hex digits or `u` and 4 hex digits",
            ))?;
        let unit = u16::from_str_radix(hex, 16).map_err(|_| (i, "bad hex digits"))?;
        units.push((i, unit));
        i += skip + digits;
    }
    let mut out = String::with_capacity(units.len());
    let mut at = 0;
    for next in char::decode_utf16(units.iter().map(|&(_, u)| u)) {
        let ch = next.map_err(|_| (units[at].0, "an unpaired UTF-16 surrogate"))?;
        at += ch.len_utf16();
        out.push(ch);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_matches_javascript() {
        assert_eq!(escape("4 -p *p7", 4095), "4%20-p%20*p7");
        assert_eq!(escape("#Q=[](L)TSJ", 4095), "%23Q%3D%5B%5D%28L%29TSJ");
        assert_eq!(escape("é ほ 😀", 4095), "%E9%20%u307B%20%uD83D%uDE00");
        // Cut at a character boundary, never inside an escape or a surrogate pair.
        assert_eq!(escape("ab😀", 13), "ab");
        assert_eq!(escape("ab😀", 14), "ab%uD83D%uDE00");
    }

    #[test]
    fn unescape_inverts_escape() {
        for s in [
            "",
            "hello",
            "4 -p *p7 -c 4",
            "é ほ 😀 %u 100%",
            "\u{7f}\u{0}~",
        ] {
            assert_eq!(unescape(&escape(s, 4095)).as_deref(), Ok(s));
        }
        // Unescaped characters outside escape's set are read as they are.
        assert_eq!(unescape("a b!").as_deref(), Ok("a b!"));
        assert!(unescape("100%").is_err());
        assert!(unescape("%zz").is_err());
        assert!(unescape("%u12").is_err());
        assert_eq!(unescape("x%uD83D").unwrap_err().0, 1);
        assert_eq!(unescape("%uDE00").unwrap_err().0, 0);
    }

    #[test]
    fn comment_round_trip() {
        for s in ["hello", "world!", "#Q=[](L)TSJ", "ほｗｙ", ""] {
            let mut w = Writer::default();
            write(&mut w, s);
            let digits: Vec<u8> = w
                .finish()
                .chars()
                .map(|c| super::super::codec::digit(c).unwrap())
                .collect();
            let mut r = Reader::new(digits);
            assert_eq!(read(&mut r, 1).as_deref(), Ok(s));
            assert!(r.is_empty());
        }
    }
}
