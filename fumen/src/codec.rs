//! The base-64 digits fumen data is written in.
//!
//! A value spanning `n` digits is written least significant digit first
//! (little-endian), each digit an index into [`ALPHABET`].

/// The 64 digits, in value order (the alphabet of standard base 64, used as plain digits).
pub(crate) const ALPHABET: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The value of a digit character, or `None` when `c` is not one.
pub(crate) fn digit(c: char) -> Option<u8> {
    let v = match c {
        'A'..='Z' => c as u32 - 'A' as u32,
        'a'..='z' => c as u32 - 'a' as u32 + 26,
        '0'..='9' => c as u32 - '0' as u32 + 52,
        '+' => 62,
        '/' => 63,
        _ => return None,
    };
    Some(v as u8)
}

/// Reads values of a few digits each from the front of the data.
pub(crate) struct Reader {
    digits: Vec<u8>,
    next: usize,
}

impl Reader {
    pub(crate) fn new(digits: Vec<u8>) -> Self {
        Reader { digits, next: 0 }
    }

    /// Whether every digit has been read.
    pub(crate) fn is_empty(&self) -> bool {
        self.next >= self.digits.len()
    }

    /// The value of the next `n` digits (little-endian), or `None` when fewer are left.
    pub(crate) fn read(&mut self, n: usize) -> Option<u32> {
        let end = self.next.checked_add(n)?;
        let digits = self.digits.get(self.next..end)?;
        self.next = end;
        Some(digits.iter().rev().fold(0, |acc, &d| acc * 64 + d as u32))
    }
}

/// Collects values as digits.
#[derive(Default)]
pub(crate) struct Writer {
    digits: Vec<u8>,
}

impl Writer {
    /// Appends `value` as `n` digits, least significant first.
    ///
    /// `value` must be below `64^n`; the encoder only writes values it has range-checked.
    pub(crate) fn push(&mut self, value: u32, n: usize) {
        debug_assert!(
            u64::from(value) < 1u64 << (6 * n),
            "{value} needs more than {n} digits"
        );
        let mut v = value;
        for _ in 0..n {
            self.digits.push((v % 64) as u8);
            v /= 64;
        }
    }

    /// Number of digits written so far.
    pub(crate) fn len(&self) -> usize {
        self.digits.len()
    }

    /// The digit at `index`.
    pub(crate) fn get(&self, index: usize) -> u8 {
        self.digits[index]
    }

    /// Replaces the digit at `index`.
    pub(crate) fn set(&mut self, index: usize, digit: u8) {
        self.digits[index] = digit;
    }

    /// The digits as characters.
    pub(crate) fn finish(self) -> String {
        self.digits
            .iter()
            .map(|&d| ALPHABET[d as usize] as char)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alphabet_and_digit_agree() {
        for (i, &c) in ALPHABET.iter().enumerate() {
            assert_eq!(digit(c as char), Some(i as u8));
        }
        assert_eq!(digit('?'), None);
        assert_eq!(digit('='), None);
        assert_eq!(digit('é'), None);
    }

    #[test]
    fn little_endian_values() {
        // "AgH": A = 0, g = 32, H = 7 -> 0 + 32*64 + 7*64^2.
        let mut r = Reader::new("AgH".chars().map(|c| digit(c).unwrap()).collect());
        assert_eq!(r.read(3), Some(32 * 64 + 7 * 64 * 64));
        assert!(r.is_empty());
        assert_eq!(r.read(1), None);

        let mut w = Writer::default();
        w.push(32 * 64 + 7 * 64 * 64, 3);
        w.push(5, 1);
        assert_eq!(w.finish(), "AgHF");
    }
}
