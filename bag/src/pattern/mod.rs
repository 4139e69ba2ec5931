//! The sfinder pattern language: `T,*p4`, `[SZLJ]p2`, `[^TI]`, `*!`, pattern files.
//! The grammar and canonical form are described in the crate README.

mod combinations;
mod expand;
mod parse;
mod truncate;

use std::fmt;
use std::str::FromStr;

use smallvec::SmallVec;

use crate::Piece;
use crate::error::{CapacityError, PatternError, PatternSetError};
use crate::sequence::Sequence;
use crate::set::PieceSet;

pub use expand::Expansion;
pub use truncate::{search_length, searching_sequences, truncate_dedup};

/// One element of a pattern: `pick` distinct pieces of `set`, in every order.
///
/// `T` is `{T}` pick 1, `*` is all seven pick 1, `*p4` all seven pick 4, `[IOSL]!` the
/// four pieces pick 4.
///
/// ```
/// use pc_bag::{Element, PieceSet};
///
/// let e = Element::new("SZLJ".parse()?, 2).unwrap();
/// assert_eq!(e.to_string(), "[JLSZ]p2");
/// assert_eq!(e.count(), 12);
/// assert_eq!(Element::new(PieceSet::ALL, 8), None);
/// # Ok::<(), pc_bag::ParsePiecesError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "RawElement", into = "RawElement"))]
pub struct Element {
    // Invariant: 1 <= pick <= set.len().
    set: PieceSet,
    pick: u8,
}

/// Serde form of an element, validated on the way in.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct RawElement {
    set: PieceSet,
    pick: u8,
}

#[cfg(feature = "serde")]
impl From<Element> for RawElement {
    fn from(e: Element) -> Self {
        RawElement {
            set: e.set,
            pick: e.pick,
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<RawElement> for Element {
    type Error = &'static str;
    fn try_from(r: RawElement) -> Result<Self, Self::Error> {
        Element::new(r.set, r.pick as usize).ok_or("an element picks 1 to |set| pieces")
    }
}

impl Element {
    /// `pick` distinct pieces of `set` in every order, or `None` unless
    /// `1 <= pick <= set.len()`.
    pub const fn new(set: PieceSet, pick: usize) -> Option<Element> {
        if pick >= 1 && pick <= set.len() {
            Some(Element {
                set,
                pick: pick as u8,
            })
        } else {
            None
        }
    }

    /// The single piece `piece` (pattern `T`).
    pub const fn piece(piece: Piece) -> Element {
        Element {
            set: PieceSet::single(piece),
            pick: 1,
        }
    }

    /// Any one piece (pattern `*`).
    pub const ANY: Element = Element {
        set: PieceSet::ALL,
        pick: 1,
    };

    /// The pieces to pick from.
    pub const fn set(&self) -> PieceSet {
        self.set
    }

    /// How many pieces the element deals.
    pub const fn pick(&self) -> usize {
        self.pick as usize
    }

    /// How many sequences the element expands to: `n! / (n - pick)!` for a set of `n`.
    pub const fn count(&self) -> u64 {
        let n = self.set.len() as u64;
        let mut c = 1;
        let mut i = 0;
        while i < self.pick as u64 {
            c *= n - i;
            i += 1;
        }
        c
    }

    /// Whether `pieces` (exactly `pick` of them) is one of this element's sequences.
    fn matches(&self, pieces: impl Iterator<Item = Piece>) -> bool {
        let mut left = self.set;
        pieces.take(self.pick()).all(|p| left.remove(p))
    }
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.set.len() == 1 {
            // A one-piece set can only be picked once.
            return write!(f, "{}", self.set);
        }
        if self.set == PieceSet::ALL {
            f.write_str("*")?;
        } else {
            write!(f, "[{}]", self.set)?;
        }
        if self.pick > 1 {
            write!(f, "p{}", self.pick)?;
        }
        Ok(())
    }
}

/// A parsed sfinder pattern such as `T,*p4`: elements in order, at most
/// [`Sequence::MAX_LEN`] pieces in all. It expands to the cartesian product of its
/// elements. See the [crate docs](crate#the-sfinder-pattern-language) for the grammar and
/// the canonical form `Display` prints.
///
/// ```
/// use pc_bag::Pattern;
///
/// let p: Pattern = "t, [^TI], *p2".parse()?;
/// assert_eq!(p.to_string(), "T,[JLOSZ],*p2");
/// assert_eq!(p.len(), 4);
/// assert_eq!(p.count(), 5 * 42);
/// let first = p.expand().next().unwrap();
/// assert_eq!(first.to_string(), "TJIJ");
/// assert!(p.contains(&"TOSZ".parse()?));
/// assert_eq!(p.truncated(2).to_string(), "T,[JLOSZ]");
///
/// let err = "T,*p9".parse::<Pattern>().unwrap_err();
/// assert_eq!(err.to_string(), "column 5: cannot pick 9 distinct pieces from a set of 7");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct Pattern {
    elements: SmallVec<[Element; 8]>,
    len: usize,
}

impl Pattern {
    /// The pattern with these elements, or an error if they deal more than
    /// [`Sequence::MAX_LEN`] pieces. No elements make the pattern of the empty sequence.
    pub fn new<I: IntoIterator<Item = Element>>(elements: I) -> Result<Pattern, CapacityError> {
        let elements: SmallVec<[Element; 8]> = elements.into_iter().collect();
        let len = elements.iter().map(|e| e.pick()).sum();
        if len > Sequence::MAX_LEN {
            return Err(CapacityError);
        }
        Ok(Pattern { elements, len })
    }

    /// The elements in order.
    pub fn elements(&self) -> &[Element] {
        &self.elements
    }

    /// The number of pieces in each sequence of the pattern.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the pattern has no element.
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// The number of sequences the pattern expands to, without expanding. All are
    /// distinct. Never overflows: at most `7^21` sequences.
    pub fn count(&self) -> u64 {
        self.elements.iter().map(Element::count).product()
    }

    /// Every sequence of the pattern, lazily, in lexicographic order (which is also the
    /// order of the cartesian product of the elements).
    pub fn expand(&self) -> Expansion {
        Expansion::new(self)
    }

    /// Whether `sequence` is one of the pattern's sequences.
    pub fn contains(&self, sequence: &Sequence) -> bool {
        if sequence.len() != self.len {
            return false;
        }
        let mut pieces = sequence.iter();
        self.elements.iter().all(|e| e.matches(&mut pieces))
    }

    /// The pattern of the first `len` pieces of each sequence: elements past `len` are
    /// dropped and the element across the cut picks fewer (`*p7` cut after 3 pieces is
    /// `*p3`). Its expansion is the de-duplicated truncation of this pattern's.
    pub fn truncated(&self, len: usize) -> Pattern {
        let mut out = SmallVec::new();
        let mut total = 0;
        for e in &self.elements {
            if total >= len {
                break;
            }
            let pick = e.pick().min(len - total);
            out.push(Element {
                set: e.set,
                pick: pick as u8,
            });
            total += pick;
        }
        Pattern {
            elements: out,
            len: total,
        }
    }
}

impl FromStr for Pattern {
    type Err = PatternError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse::parse_pattern(s)
    }
}

impl TryFrom<String> for Pattern {
    type Error = PatternError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<Pattern> for String {
    fn from(p: Pattern) -> Self {
        p.to_string()
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.elements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            fmt::Display::fmt(e, f)?;
        }
        Ok(())
    }
}

/// A pattern file: one pattern per line, the union of their sequences.
///
/// Blank lines are skipped and `#` starts a comment that runs to the end of the line.
/// As in sfinder, every pattern must have the same number of pieces.
///
/// ```
/// use pc_bag::PatternSet;
///
/// let file = "# openers\nT,*p3\nI,*p3   # with I first\n\n";
/// let set: PatternSet = file.parse()?;
/// assert_eq!(set.patterns().len(), 2);
/// assert_eq!(set.len(), 4);
/// assert_eq!(set.count(), 2 * 210);
/// assert_eq!(set.to_string(), "T,*p3\nI,*p3\n");
///
/// let err = "T,*p3\nT,*p2".parse::<PatternSet>().unwrap_err();
/// assert!(err.to_string().starts_with("line 2: 3 pieces"));
/// # Ok::<(), pc_bag::PatternSetError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "Vec<Pattern>", into = "Vec<Pattern>")
)]
pub struct PatternSet {
    patterns: Vec<Pattern>,
}

impl PatternSet {
    /// A set of patterns, or an error if they differ in length or there are none.
    pub fn new(patterns: Vec<Pattern>) -> Result<PatternSet, PatternSetError> {
        let first = patterns.first().ok_or(PatternSetError::NoPattern)?.len();
        for (i, p) in patterns.iter().enumerate() {
            if p.len() != first {
                return Err(PatternSetError::MixedLengths {
                    line: i + 1,
                    expected: first,
                    found: p.len(),
                });
            }
        }
        Ok(PatternSet { patterns })
    }

    /// The patterns in file order.
    pub fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }

    /// The number of pieces in each sequence (the same for all lines).
    pub fn len(&self) -> usize {
        self.patterns.first().map_or(0, Pattern::len)
    }

    /// Always `false`: a set holds at least one pattern.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The number of sequences of all lines, counting a sequence once per line that has
    /// it (sfinder's "duplicate" size).
    pub fn count(&self) -> u128 {
        self.patterns.iter().map(|p| p.count() as u128).sum()
    }

    /// Every sequence of every line in file order, duplicates included.
    pub fn expand(&self) -> impl Iterator<Item = Sequence> + '_ {
        self.patterns.iter().flat_map(Pattern::expand)
    }

    /// The distinct sequences of the union of the lines, sorted.
    pub fn distinct(&self) -> Vec<Sequence> {
        truncate_dedup(self.expand(), self.len())
    }

    /// Whether some line has `sequence`.
    pub fn contains(&self, sequence: &Sequence) -> bool {
        self.patterns.iter().any(|p| p.contains(sequence))
    }
}

impl TryFrom<Vec<Pattern>> for PatternSet {
    type Error = PatternSetError;
    fn try_from(patterns: Vec<Pattern>) -> Result<Self, Self::Error> {
        PatternSet::new(patterns)
    }
}

impl From<PatternSet> for Vec<Pattern> {
    fn from(set: PatternSet) -> Self {
        set.patterns
    }
}

impl From<Pattern> for PatternSet {
    fn from(p: Pattern) -> Self {
        PatternSet { patterns: vec![p] }
    }
}

impl FromStr for PatternSet {
    type Err = PatternSetError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut patterns = Vec::new();
        for (i, line) in s.lines().enumerate() {
            let body = line.split('#').next().unwrap_or("");
            if body.trim().is_empty() {
                continue;
            }
            let pattern = parse::parse_pattern(line)
                .map_err(|error| PatternSetError::Syntax { line: i + 1, error })?;
            if let Some(first) = patterns.first().map(Pattern::len) {
                if pattern.len() != first {
                    return Err(PatternSetError::MixedLengths {
                        line: i + 1,
                        expected: first,
                        found: pattern.len(),
                    });
                }
            }
            patterns.push(pattern);
        }
        if patterns.is_empty() {
            return Err(PatternSetError::NoPattern);
        }
        Ok(PatternSet { patterns })
    }
}

impl fmt::Display for PatternSet {
    /// One canonical pattern per line, each line ending in `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.patterns {
            writeln!(f, "{p}")?;
        }
        Ok(())
    }
}
