//! Kick tables: the offsets a rotation tries, in order, until the piece fits.

mod builtin;
mod properties;

pub use properties::KickFileError;

use crate::error::UnknownKickTable;

use crate::piece::{Orientation, Piece, Rotation};
use crate::shape::CORNER_TO_CENTRE;

/// Most offsets one rotation may try.
pub const MAX_KICKS: usize = 16;

/// One offset a rotation tries, in the rotation-centre form (the form of sfinder's
/// kick files: the offset added to the centre after turning the piece about it).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Kick {
    /// Columns to the right.
    pub x: i8,
    /// Rows up.
    pub y: i8,
    /// Marked `@` in sfinder's files: a T-spin mini made with this kick counts as a full
    /// T-spin (the guideline's rule for the last kick of the T, e.g. a T-spin triple).
    pub upgrades_mini: bool,
}

/// The offsets of one rotation of one piece, tried in order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KickList {
    len: u8,
    kicks: [Kick; MAX_KICKS],
}

impl core::fmt::Debug for KickList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list()
            .entries(self.as_slice().iter().map(|k| (k.x, k.y)))
            .finish()
    }
}

impl KickList {
    /// A list of offsets; `None` when there are more than [`MAX_KICKS`].
    pub fn new(kicks: &[Kick]) -> Option<KickList> {
        if kicks.len() > MAX_KICKS {
            return None;
        }
        let mut list = KickList::default();
        list.kicks[..kicks.len()].copy_from_slice(kicks);
        list.len = kicks.len() as u8;
        Some(list)
    }

    /// The offsets, in the order they are tried. Empty when the rotation is not allowed.
    #[inline]
    pub fn as_slice(&self) -> &[Kick] {
        &self.kicks[..self.len as usize]
    }
}

/// A kick table: for every piece and every pair of orientations, the offsets tried.
///
/// ```
/// use pc_srs::{KickTable, Orientation, Piece};
///
/// let srs = KickTable::srs();
/// // Centre-form offsets of T from spawn to right, as in sfinder's srs.properties.
/// let kicks: Vec<(i8, i8)> = srs
///     .kicks(Piece::T, Orientation::Spawn, Orientation::Right)
///     .iter()
///     .map(|k| (k.x, k.y))
///     .collect();
/// assert_eq!(kicks, [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]);
/// assert!(!srs.has_half_turns());
/// assert!(KickTable::srs_plus().has_half_turns());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KickTable {
    name: String,
    lists: [[[KickList; 4]; 4]; 7],
}

impl KickTable {
    /// A table with no rotation allowed at all, to fill in.
    pub fn empty(name: impl Into<String>) -> KickTable {
        KickTable {
            name: name.into(),
            lists: [[[KickList::default(); 4]; 4]; 7],
        }
    }

    /// The guideline Super Rotation System, without half turns.
    pub fn srs() -> KickTable {
        builtin::srs()
    }

    /// SRS+ as in TETR.IO: SRS with symmetric I kicks, and half turns with their own kicks.
    pub fn srs_plus() -> KickTable {
        builtin::srs_plus()
    }

    /// Rotations that only turn in place (no kicks), without half turns.
    pub fn none() -> KickTable {
        builtin::none()
    }

    /// SRS with Jstris's half turns: in place, else one cell the way the piece's spawn-top
    /// side faced before the turn (sfinder's `jstris180.properties`).
    pub fn jstris180() -> KickTable {
        builtin::jstris180()
    }

    /// SRS with NullpoMino's half turns: up to 12 offsets for J, L, S, T, Z and 6 for I,
    /// sideways first (sfinder's `nullpomino180.properties`).
    pub fn nullpomino180() -> KickTable {
        builtin::nullpomino180()
    }

    /// The names of the built-in tables, as [`KickTable::by_name`] takes them and
    /// [`KickTable::name`] gives them back.
    pub const BUILTIN_NAMES: [&'static str; 5] = {
        let mut names = [""; 5];
        let mut i = 0;
        while i < names.len() {
            names[i] = builtin::BY_NAME[i].0;
            i += 1;
        }
        names
    };

    /// A built-in table by its name: `srs`, `srs+`, `none`, `jstris180` or
    /// `nullpomino180` ([`KickTable::BUILTIN_NAMES`]), or sfinder's names for two of
    /// them (`srsplus` for `srs+`, `nokicks` for `none`), in any case. For a table in a
    /// file, see [`KickTable::from_properties_file`].
    ///
    /// ```
    /// use pc_srs::{KickTable, UnknownKickTable};
    ///
    /// assert_eq!(KickTable::by_name("jstris180")?, KickTable::jstris180());
    /// assert_eq!(KickTable::by_name("SRSPlus")?, KickTable::srs_plus());
    /// assert_eq!(KickTable::by_name("nokicks")?.name(), "none");
    /// let err = KickTable::by_name("ars").unwrap_err();
    /// assert_eq!(err.name, "ars");
    /// assert_eq!(
    ///     err.to_string(),
    ///     "unknown kick table \"ars\" (built in: srs, srs+, none, jstris180, nullpomino180)"
    /// );
    /// # Ok::<(), UnknownKickTable>(())
    /// ```
    pub fn by_name(name: &str) -> Result<KickTable, UnknownKickTable> {
        let lower = name.to_ascii_lowercase();
        let canonical = match lower.as_str() {
            "srsplus" => "srs+",
            "nokicks" => "none",
            other => other,
        };
        builtin::BY_NAME
            .iter()
            .find(|(n, _)| *n == canonical)
            .map(|(_, table)| table())
            .ok_or_else(|| UnknownKickTable {
                name: name.to_string(),
                known: &KickTable::BUILTIN_NAMES,
            })
    }

    /// A table read from sfinder's `.properties` format (see [`KickFileError`] for what
    /// can be wrong). Rotations without an entry are not allowed.
    ///
    /// ```
    /// use pc_srs::{KickTable, Orientation, Piece};
    /// let text = "T.NE=(0,0)(-1,0)\nT.EN=&T.NE\n";
    /// let t = KickTable::from_properties("mine", text)?;
    /// assert_eq!(t.kicks(Piece::T, Orientation::Right, Orientation::Spawn).len(), 2);
    /// assert!(t.kicks(Piece::I, Orientation::Spawn, Orientation::Right).is_empty());
    /// # Ok::<(), pc_srs::KickFileError>(())
    /// ```
    pub fn from_properties(
        name: impl Into<String>,
        text: &str,
    ) -> Result<KickTable, KickFileError> {
        properties::parse(name.into(), text)
    }

    /// Reads a `.properties` kick file; the table is named after the file stem.
    pub fn from_properties_file(
        path: impl AsRef<std::path::Path>,
    ) -> Result<KickTable, KickFileError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| KickFileError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        properties::parse(name, &text)
    }

    /// The table's name: one of [`KickTable::BUILTIN_NAMES`], or the one given when loading.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The offsets tried when `piece` turns from `from` to `to` (empty: not allowed).
    #[inline]
    pub fn kicks(&self, piece: Piece, from: Orientation, to: Orientation) -> &[Kick] {
        self.lists[piece as usize][from as usize][to as usize].as_slice()
    }

    /// The offsets tried when `piece` in `from` is turned by `rotation`.
    #[inline]
    pub fn kicks_for(&self, piece: Piece, from: Orientation, rotation: Rotation) -> &[Kick] {
        self.kicks(piece, from, from.rotate(rotation))
    }

    /// Replaces the offsets of one rotation.
    pub fn set(&mut self, piece: Piece, from: Orientation, to: Orientation, list: KickList) {
        self.lists[piece as usize][from as usize][to as usize] = list;
    }

    /// Whether any piece may make a half turn (180°).
    pub fn has_half_turns(&self) -> bool {
        Piece::ALL.iter().any(|&p| {
            Orientation::ALL
                .iter()
                .any(|&o| !self.kicks(p, o, o.r180()).is_empty())
        })
    }

    /// Sets one rotation from offsets written in the bounding-box form of the guideline
    /// tables (the form of the SRS wiki), converting them to the rotation-centre form
    /// through the one coordinate table.
    pub(crate) fn set_from_corner_offsets(
        &mut self,
        piece: Piece,
        from: Orientation,
        to: Orientation,
        offsets: &[(i8, i8)],
    ) {
        let (fx, fy) = CORNER_TO_CENTRE[piece as usize][from as usize];
        let (tx, ty) = CORNER_TO_CENTRE[piece as usize][to as usize];
        let kicks: Vec<Kick> = offsets
            .iter()
            .map(|&(x, y)| Kick {
                x: x + tx - fx,
                y: y + ty - fy,
                upgrades_mini: false,
            })
            .collect();
        self.set(
            piece,
            from,
            to,
            KickList::new(&kicks).expect("built-in lists are short"),
        );
    }

    pub(crate) fn mark_upgrades(
        &mut self,
        piece: Piece,
        from: Orientation,
        to: Orientation,
        index: usize,
    ) {
        let list = &mut self.lists[piece as usize][from as usize][to as usize];
        if index < list.len as usize {
            list.kicks[index].upgrades_mini = true;
        }
    }
}

impl Default for KickTable {
    /// The guideline SRS table.
    fn default() -> Self {
        KickTable::srs()
    }
}
