//! What [`PcGraph::prepare_five_unknown`] makes, as bytes to keep beside the graph's file,
//! so that a later load takes it in a read instead of seconds of work.
//!
//! ```text
//! magic        8 bytes   "PCPREP5\0"
//! version      u32       VERSION
//! rules        u64       the graph's RulesId
//! start        u64       the graph's start key
//! layers       u32       the graph's number of layers
//! per layer:   u64 fields, u64 edges
//! three left   u64       a hash of the classes three pieces from a PC (`ThreeLeft::digest`)
//! layer        u32       the layer of the fields four pieces from a PC
//! classes      u32       their classes
//! links        u32       the classes' moves in all
//! fields       u32       the layer's fields
//! starts       u32 × (classes + 1)
//! links        u32 × links
//! class_of     u32 × the layer's fields
//! hash         u64       XXH3-64 of every byte before it
//! ```
//!
//! The graph is named by its rules, start, the size of every layer and a hash of the classes
//! three pieces from a PC that the moves name (made at every load, not kept here). The
//! sizes tell bytes cut short, the hash damage; then every class, link and start is checked
//! against the graph, so bytes that pass are classes the walk reads without going out of
//! bounds.

use super::edge::unlink;
use super::error::GraphError;
use super::four_left::FourLeft;
use super::pc_graph::PcGraph;
use crate::rules::RulesId;
use pc_srs::Piece;

/// The first bytes of prepared classes.
const MAGIC: &[u8; 8] = b"PCPREP5\0";

/// The version of the bytes written; others are not read.
const VERSION: u32 = 1;

/// The bytes of `four`, the classes of `graph`.
pub(super) fn encode(graph: &PcGraph, four: &FourLeft) -> Vec<u8> {
    let (starts, links, class_of) = four.parts();
    let words = 4 + starts.len() + links.len() + class_of.len();
    let mut out = Vec::with_capacity(8 + 4 + 8 + 8 + 4 + 16 * graph.layers.len() + 4 * words + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&identity(graph));
    let counts = [starts.len() - 1, links.len(), class_of.len()];
    for word in [four.layer].iter().chain(&counts) {
        out.extend_from_slice(&(*word as u32).to_le_bytes());
    }
    for list in [starts, links, class_of] {
        for &word in list {
            out.extend_from_slice(&word.to_le_bytes());
        }
    }
    let hash = xxhash_rust::xxh3::xxh3_64(&out);
    out.extend_from_slice(&hash.to_le_bytes());
    out
}

/// What names a graph in the bytes: its rules, start, and every layer's fields and edges.
fn identity(graph: &PcGraph) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + 8 + 4 + 16 * graph.layers.len() + 8);
    out.extend_from_slice(&graph.rules.value().to_le_bytes());
    out.extend_from_slice(&graph.start.to_le_bytes());
    out.extend_from_slice(&(graph.layers.len() as u32).to_le_bytes());
    for layer in &graph.layers {
        out.extend_from_slice(&(layer.len() as u64).to_le_bytes());
        out.extend_from_slice(&(layer.edge_count() as u64).to_le_bytes());
    }
    let three = graph.three_left.as_ref().map_or(0, |three| three.digest());
    out.extend_from_slice(&three.to_le_bytes());
    out
}

/// The classes in `bytes`, checked against `graph` (see the module's comment).
pub(super) fn decode(graph: &PcGraph, bytes: &[u8]) -> Result<FourLeft, GraphError> {
    let mut read = Reader { bytes, at: 0 };
    if read.take(MAGIC.len())? != MAGIC {
        return Err(GraphError::Malformed("not the prepared classes of a graph"));
    }
    let version = read.u32()?;
    if version != VERSION {
        return Err(GraphError::Version {
            found: version,
            expected: VERSION,
        });
    }
    // The sizes first, to tell bytes cut short from damaged ones.
    let found_rules = RulesId(u64::from_le_bytes(read.array()?));
    let named_from = read.at;
    read.take(8)?;
    let layers = read.u32()? as usize;
    read.take(
        layers
            .checked_mul(16)
            .and_then(|n| n.checked_add(8))
            .ok_or(GraphError::Truncated)?,
    )?;
    let found_identity = &bytes[named_from..read.at];
    let layer = read.u32()? as usize;
    let classes = read.u32()? as usize;
    let link_count = read.u32()? as usize;
    let fields = read.u32()? as usize;
    let words = classes as u64 + 1 + link_count as u64 + fields as u64;
    let expected = read.at as u64 + 4 * words + 8;
    if (bytes.len() as u64) < expected {
        return Err(GraphError::Truncated);
    }
    if bytes.len() as u64 > expected {
        return Err(GraphError::Malformed("bytes after the prepared classes"));
    }
    let body = bytes.len() - 8;
    let hash = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
    if xxhash_rust::xxh3::xxh3_64(&bytes[..body]) != hash {
        return Err(GraphError::Checksum);
    }
    if found_rules != graph.rules {
        return Err(GraphError::OtherRules {
            found: found_rules,
            expected: graph.rules,
        });
    }
    if found_identity != &identity(graph)[8..] {
        return Err(GraphError::OtherGraph);
    }
    let three = graph
        .three_left
        .as_ref()
        .filter(|three| three.layer.checked_sub(1) == Some(layer))
        .filter(|_| graph.layers[layer].len() == fields)
        .ok_or(GraphError::Malformed("prepared classes of another layer"))?;
    // A walk packs a class in a link's child bits: there are never more classes than fields.
    if classes > fields {
        return Err(GraphError::Malformed("more classes than fields"));
    }
    let starts = read.words(classes + 1)?;
    let links = read.words(link_count)?;
    let class_of = read.words(fields)?;
    if starts.first() != Some(&0)
        || starts.last().map(|&s| s as usize) != Some(links.len())
        || starts.windows(2).any(|w| w[0] > w[1])
    {
        return Err(GraphError::Malformed(
            "the classes' starts are out of order",
        ));
    }
    for class in starts.windows(2) {
        let moves = &links[class[0] as usize..class[1] as usize];
        if moves.windows(2).any(|w| w[0] >= w[1]) {
            return Err(GraphError::Malformed("a class's moves are out of order"));
        }
        let leads_somewhere = |&link: &u32| {
            unlink(link).is_some_and(|(piece, child)| {
                usize::from(piece) < Piece::ALL.len() && (child as usize) < three.classes()
            })
        };
        if !moves.iter().all(leads_somewhere) {
            return Err(GraphError::Malformed("a class's move leads nowhere"));
        }
    }
    if class_of.iter().any(|&class| class as usize >= classes) {
        return Err(GraphError::Malformed(
            "a field's class is not one of the classes",
        ));
    }
    Ok(FourLeft::from_parts(layer, class_of, starts, links))
}

/// Reads the bytes in order.
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    fn take(&mut self, n: usize) -> Result<&'b [u8], GraphError> {
        let end = self.at.checked_add(n).ok_or(GraphError::Truncated)?;
        let taken = self.bytes.get(self.at..end).ok_or(GraphError::Truncated)?;
        self.at = end;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], GraphError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, GraphError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn words(&mut self, n: usize) -> Result<Vec<u32>, GraphError> {
        let bytes = self.take(n.checked_mul(4).ok_or(GraphError::Truncated)?)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::PcField;
    use crate::rules::Rules;
    use std::ops::ControlFlow;

    fn graph_of(rows: &str) -> PcGraph {
        let start = PcField::new(rows.parse().unwrap(), 4).unwrap();
        PcGraph::build_from(
            &start,
            &Rules::default(),
            &mut |_| ControlFlow::Continue(()),
        )
        .unwrap()
    }

    /// Seven pieces from a PC: a layer four pieces from one.
    const SEVEN: &str = "###......./###......./###......./###.......";

    /// Bytes whose hash is made right again after a change, to reach the checks after it.
    fn rehashed(mut bytes: Vec<u8>) -> Vec<u8> {
        let body = bytes.len() - 8;
        let hash = xxhash_rust::xxh3::xxh3_64(&bytes[..body]);
        bytes[body..].copy_from_slice(&hash.to_le_bytes());
        bytes
    }

    #[test]
    fn prepared_classes_read_back_are_the_classes_made() {
        let graph = graph_of(SEVEN);
        assert_eq!(graph.prepared_five_unknown(), None, "not made");
        graph.prepare_five_unknown();
        let bytes = graph.prepared_five_unknown().expect("made");
        let four = graph.four_left().unwrap();
        let again = PcGraph::from_bytes(&graph.to_bytes(), &Rules::default()).unwrap();
        again.prepare_five_unknown_from(&bytes).unwrap();
        assert!(again.four_left.is_made());
        assert_eq!(again.four_left().unwrap(), four);
        // A graph that made them keeps its own, the bytes checked all the same.
        graph.prepare_five_unknown_from(&bytes).unwrap();
        let mut damaged = bytes.clone();
        damaged[40] ^= 1;
        assert!(matches!(
            graph.prepare_five_unknown_from(&damaged),
            Err(GraphError::Checksum)
        ));
    }

    #[test]
    fn prepared_classes_kept_in_a_file_are_read_back() {
        let graph = graph_of(SEVEN);
        let folder = std::env::temp_dir().join(format!("pc-prepared-{}", std::process::id()));
        let path = folder.join("graph.five");
        assert!(
            !graph.save_prepared_five_unknown(&path).unwrap(),
            "nothing made"
        );
        assert!(!path.exists());
        let again = PcGraph::from_bytes(&graph.to_bytes(), &Rules::default()).unwrap();
        let missing = again.prepare_five_unknown_from_file(&path).unwrap_err();
        assert!(
            matches!(&missing, GraphError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound),
            "{missing}"
        );
        graph.prepare_five_unknown();
        assert!(graph.save_prepared_five_unknown(&path).unwrap());
        again.prepare_five_unknown_from_file(&path).unwrap();
        assert_eq!(again.four_left().unwrap(), graph.four_left().unwrap());
        // A damaged file is named in its error.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[60] ^= 4;
        std::fs::write(&path, &bytes).unwrap();
        let damaged = again.prepare_five_unknown_from_file(&path).unwrap_err();
        assert!(
            matches!(damaged.reason(), GraphError::Checksum),
            "{damaged}"
        );
        assert!(damaged.to_string().starts_with(&path.display().to_string()));
        // Read when the file holds a good copy, else made and written over it.
        let fresh = || PcGraph::from_bytes(&graph.to_bytes(), &Rules::default()).unwrap();
        let made = fresh();
        assert!(
            !made.prepare_five_unknown_kept_at(&path).unwrap(),
            "damaged: made"
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            graph.prepared_five_unknown().unwrap()
        );
        let read = fresh();
        assert!(read.prepare_five_unknown_kept_at(&path).unwrap(), "read");
        assert_eq!(read.four_left().unwrap(), graph.four_left().unwrap());
        std::fs::remove_file(&path).unwrap();
        assert!(
            !fresh().prepare_five_unknown_kept_at(&path).unwrap(),
            "missing: made"
        );
        assert!(path.exists());
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn bytes_cut_short_damaged_or_of_another_graph_are_errors() {
        let graph = graph_of(SEVEN);
        graph.prepare_five_unknown();
        let bytes = graph.prepared_five_unknown().unwrap();
        let fresh = PcGraph::from_bytes(&graph.to_bytes(), &Rules::default()).unwrap();
        let error = |bytes: &[u8]| {
            let result = fresh.prepare_five_unknown_from(bytes);
            assert!(!fresh.four_left.is_made(), "nothing kept on an error");
            result.unwrap_err()
        };
        for cut in [0, 7, 12, 30, bytes.len() / 2, bytes.len() - 1] {
            let e = error(&bytes[..cut]);
            assert!(
                matches!(e, GraphError::Truncated | GraphError::Malformed(_)),
                "cut at {cut}: {e}"
            );
        }
        // Every byte but the magic, the version and the sizes (damaged sizes are cut short
        // or malformed: below), changed, is found by the hash: the graph's name too.
        let (starts, links, class_of) = graph.four_left().unwrap().parts();
        let body = bytes.len() - 8 - 4 * (starts.len() + links.len() + class_of.len());
        let named = (12..28).chain(32..body - 16);
        let words = (body..bytes.len()).step_by(bytes.len() / 50);
        for at in named.chain(words).chain([bytes.len() - 1]) {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x10;
            assert!(matches!(error(&damaged), GraphError::Checksum), "byte {at}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(error(&longer), GraphError::Malformed(_)));
        // Another graph, however well formed its bytes.
        let other = graph_of("####....../####....../####....../####......");
        other.prepare_five_unknown();
        let theirs = other.prepared_five_unknown().unwrap();
        assert!(
            matches!(error(&theirs), GraphError::OtherGraph),
            "{}",
            error(&theirs)
        );
        let mut other_rules = bytes.clone();
        other_rules[12] ^= 1;
        assert!(matches!(
            error(&rehashed(other_rules)),
            GraphError::OtherRules { .. }
        ));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(matches!(
            error(&version),
            GraphError::Version { found: 9, .. }
        ));
        assert!(matches!(
            error(b"PCGRAPH\0 and more"),
            GraphError::Malformed(_)
        ));
    }

    #[test]
    fn classes_that_pass_the_hash_are_checked_against_the_graph() {
        let graph = graph_of(SEVEN);
        graph.prepare_five_unknown();
        let bytes = graph.prepared_five_unknown().unwrap();
        let (starts, links, class_of) = graph.four_left().unwrap().parts();
        let head = bytes.len() - 8 - 4 * (starts.len() + links.len() + class_of.len());
        let word_at = |i: usize| head + 4 * i;
        let fresh = PcGraph::from_bytes(&graph.to_bytes(), &Rules::default()).unwrap();
        let with = |at: usize, word: u32, expected: &str| {
            let mut changed = bytes.clone();
            changed[at..at + 4].copy_from_slice(&word.to_le_bytes());
            let e = fresh
                .prepare_five_unknown_from(&rehashed(changed))
                .unwrap_err();
            assert!(
                matches!(e, GraphError::Malformed(m) if m == expected),
                "{e}"
            );
        };
        let classes = starts.len() - 1;
        let out_of_order = "the classes' starts are out of order";
        with(word_at(0), 1, out_of_order);
        with(word_at(1), links.len() as u32 + 1, out_of_order);
        // The last class's last move (after every other, so still in order) to a class
        // three pieces from a PC the graph does not have, of a piece that is none, or to
        // no child.
        let last = word_at(starts.len() + links.len() - 1);
        let three = graph.three_left.as_ref().unwrap().classes() as u32;
        let nowhere = "a class's move leads nowhere";
        with(last, super::super::edge::link(6, three), nowhere);
        with(last, super::super::edge::link(7, 0), nowhere);
        with(last, u32::MAX, nowhere);
        let not_a_class = "a field's class is not one of the classes";
        with(
            word_at(starts.len() + links.len()),
            classes as u32,
            not_a_class,
        );
        with(head - 16, 1, "prepared classes of another layer");
        // Counts too large for the bytes, however large: cut short, never a panic.
        for at in [head - 12, head - 8, head - 4] {
            let mut huge = bytes.clone();
            huge[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
            let e = fresh.prepare_five_unknown_from(&huge).unwrap_err();
            assert!(matches!(e, GraphError::Truncated), "{e}");
        }
        assert!(!fresh.four_left.is_made());
    }
}
