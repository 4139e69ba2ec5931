//! Graph files that were cut short, damaged or never were graphs: every load answers a
//! typed error that names the file (never a panic, never a graph), and an unchanged file
//! reads back as the graph written. `PcGraph::from_bytes` answers the same reason for the
//! same bytes, without a file to name.

use pc_solver::{DropMode, GraphError, PcField, PcGraph, Rules};
use proptest::prelude::*;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A small graph (four pieces from a field of four rows, a few hundred fields: it builds
/// in milliseconds) and its file's bytes, made once.
fn small() -> &'static (PcGraph, Vec<u8>) {
    static GRAPH: OnceLock<(PcGraph, Vec<u8>)> = OnceLock::new();
    GRAPH.get_or_init(|| {
        let field = PcField::new(
            "######..../######..../######..../######...."
                .parse()
                .unwrap(),
            4,
        )
        .unwrap();
        let graph =
            PcGraph::build_from(
                &field,
                &Rules::default(),
                &mut |_| ControlFlow::Continue(()),
            )
            .unwrap();
        assert_eq!(graph.fields_per_layer().len(), 5);
        let bytes = graph.to_bytes();
        (graph, bytes)
    })
}

/// A file of its own for each test (the tests run side by side), in a folder of this
/// process's.
fn file_for(test: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("pc-hostile-graph-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    folder.join(format!("{test}.pcgraph"))
}

/// Loads `bytes` written to `path`, and checks that the load and `from_bytes` agree: the
/// same graph, or errors of the same reason, the load's naming `path`.
fn load(path: &Path, bytes: &[u8]) -> Result<PcGraph, GraphError> {
    std::fs::write(path, bytes).unwrap();
    let rules = Rules::default();
    let loaded = PcGraph::load(path, &rules);
    let decoded = PcGraph::from_bytes(bytes, &rules);
    match (&loaded, &decoded) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => {
            let GraphError::File { path: named, error } = a else {
                panic!("a load's error names no file: {a:?}");
            };
            assert_eq!(named, path);
            assert!(
                a.to_string().starts_with(&format!("{}: ", path.display())),
                "{a}"
            );
            assert!(!matches!(
                b,
                GraphError::File { .. } | GraphError::Io { .. }
            ));
            assert_eq!(error.to_string(), b.to_string());
            assert_eq!(a.reason().to_string(), b.to_string());
        }
        _ => panic!("the load answers {loaded:?}, the bytes {decoded:?}"),
    }
    loaded
}

#[test]
fn an_unchanged_file_reads_back_as_written() {
    let (graph, bytes) = small();
    let path = file_for("unchanged");
    assert_eq!(&load(&path, bytes).unwrap(), graph);
}

#[test]
fn a_damaged_file_names_itself() {
    let (_, bytes) = small();
    let path = file_for("named");
    let mut damaged = bytes.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 1;
    let error = load(&path, &damaged).unwrap_err();
    assert!(matches!(error.reason(), GraphError::Checksum));
    assert_eq!(
        error.to_string(),
        format!(
            "{}: the graph file is damaged (checksum mismatch)",
            path.display()
        )
    );
    let error = load(&path, &bytes[..bytes.len() - 3]).unwrap_err();
    assert!(matches!(error.reason(), GraphError::Truncated));
    assert!(error.to_string().contains(&*path.to_string_lossy()));
    // Another version of the format (the u32 after the magic).
    let mut other_version = bytes.clone();
    other_version[8] ^= 0x40;
    let error = load(&path, &other_version).unwrap_err();
    assert!(matches!(error.reason(), GraphError::Version { .. }));
    assert!(error.to_string().starts_with(&format!(
        "{}: a graph file of format version",
        path.display()
    )));
    // A sound file of other rules.
    std::fs::write(&path, bytes).unwrap();
    let hard_drop = Rules {
        drop: DropMode::Hard,
        ..Rules::default()
    };
    let error = PcGraph::load(&path, &hard_drop).unwrap_err();
    assert!(matches!(error.reason(), GraphError::OtherRules { .. }));
    assert!(error.to_string().starts_with(&format!(
        "{}: a graph built for other rules",
        path.display()
    )));
    // A missing file is the system's error, which names the file itself.
    let missing = path.with_file_name("missing.pcgraph");
    let error = PcGraph::load(&missing, &Rules::default()).unwrap_err();
    assert!(matches!(error.reason(), GraphError::Io { .. }));
    assert!(
        error
            .to_string()
            .starts_with(&format!("{}: ", missing.display()))
    );
}

/// A file cut anywhere is an error: truncated, or not a graph when even the magic is
/// cut. Every length from bytes; as a file, every length of the header and its first
/// sections, then a few hundred spread over the rest and the last few.
#[test]
fn a_truncated_file_is_an_error() {
    let (_, bytes) = small();
    let path = file_for("truncated");
    let rules = Rules::default();
    let stride = (bytes.len() / 300).max(1);
    for cut in 0..bytes.len() {
        let error = PcGraph::from_bytes(&bytes[..cut], &rules).unwrap_err();
        assert!(
            matches!(error, GraphError::Truncated | GraphError::NotAGraph),
            "{cut}: {error}"
        );
        if cut < 512 || cut % stride == 0 || cut + 16 > bytes.len() {
            let error = load(&path, &bytes[..cut]).unwrap_err();
            assert!(
                matches!(
                    error.reason(),
                    GraphError::Truncated | GraphError::NotAGraph
                ),
                "{cut}: {error}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A file with bytes changed anywhere is an error: every byte is under a hash or is
    /// one, and the magic, version and rules are checked first.
    #[test]
    fn a_file_with_changed_bytes_is_an_error(
        changes in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..6),
    ) {
        let (_, bytes) = small();
        let mut damaged = bytes.clone();
        for (at, change) in changes {
            damaged[at.index(bytes.len())] ^= change;
        }
        // Changes that undo each other leave the file as it was.
        if damaged != *bytes {
            prop_assert!(load(&file_for("changed"), &damaged).is_err());
        }
    }

    /// A file damaged and then cut, or with bytes added, is an error.
    #[test]
    fn a_file_changed_and_cut_or_grown_is_an_error(
        at in any::<prop::sample::Index>(),
        change in 1u8..=255,
        cut in any::<prop::sample::Index>(),
        tail in prop::collection::vec(any::<u8>(), 1..64),
    ) {
        let (_, bytes) = small();
        let mut damaged = bytes.clone();
        damaged[at.index(bytes.len())] ^= change;
        damaged.truncate(cut.index(bytes.len() + 1));
        prop_assert!(load(&file_for("changed-cut"), &damaged).is_err());
        let mut grown = bytes.clone();
        grown.extend_from_slice(&tail);
        prop_assert!(load(&file_for("grown"), &grown).is_err());
    }

    /// Random bytes are an error, and so are random bytes after a valid magic, version and
    /// rules (which reach the layers' table and its hash).
    #[test]
    fn random_bytes_are_an_error(
        random in prop::collection::vec(any::<u8>(), 0..2048),
        keep in 0usize..=40,
    ) {
        let (_, bytes) = small();
        prop_assert!(load(&file_for("random"), &random).is_err());
        let mut forged = bytes[..keep].to_vec();
        forged.extend_from_slice(&random);
        if forged != *bytes {
            prop_assert!(load(&file_for("random-after-header"), &forged).is_err());
        }
    }
}
