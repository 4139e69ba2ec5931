//! [`GraphError`]: what can go wrong building, saving or loading a graph.

use crate::rules::RulesId;
use std::path::PathBuf;

/// What can go wrong building, saving or loading a graph.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GraphError {
    /// The build was stopped by its progress callback.
    #[error("the build was cancelled")]
    Cancelled,
    /// No perfect clear can be reached from the start field: there is no graph.
    #[error("no perfect clear can be reached from the start field")]
    NoPerfectClear,
    /// A graph starts from a field of at most four rows.
    #[error("a graph starts from a field of at most 4 rows below the clear line, not {0}")]
    StartTooHigh(u32),
    /// There is no cache folder to find a graph in ([`PcGraph::cache_dir`](crate::PcGraph::cache_dir)): no
    /// `$PC_GRAPH_DIR` and no platform cache folder (a browser has none).
    #[error("no cache folder for PC field graphs: set PC_GRAPH_DIR")]
    NoCacheFolder,
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file does not start as a graph file does.
    #[error("not a graph file")]
    NotAGraph,
    /// The file was written in another version of the format.
    #[error("a graph file of format version {found}; this version reads {expected}")]
    Version {
        /// The file's version.
        found: u32,
        /// The version this crate reads.
        expected: u32,
    },
    /// The file was built for other rules (another kick table or drop mode).
    #[error("a graph built for other rules (id {:016x}, these rules are {:016x})", found.value(), expected.value())]
    OtherRules {
        /// The rules of the file.
        found: RulesId,
        /// The rules asked for.
        expected: RulesId,
    },
    /// The file ends before its end.
    #[error("the graph file is truncated")]
    Truncated,
    /// The checksum does not match: the file was damaged.
    #[error("the graph file is damaged (checksum mismatch)")]
    Checksum,
    /// A layer has more fields, or a field more edges, than the format holds (2^24 and
    /// 255).
    #[error("the graph is too large for its format")]
    TooLarge,
    /// The prepared classes were made for another graph
    /// ([`PcGraph::prepare_five_unknown_from`](crate::PcGraph::prepare_five_unknown_from)).
    #[error("prepared for another graph (other start or layers)")]
    OtherGraph,
    /// The file passed its checksum but does not describe a graph.
    #[error("the graph file is malformed: {0}")]
    Malformed(&'static str),
    /// The file at `path` could not be read as a graph: `error` says why (one of the
    /// errors of the bytes of a graph, such as [`GraphError::Truncated`] or
    /// [`GraphError::Checksum`]). [`PcGraph::load`](crate::PcGraph::load) names its file this way;
    /// [`PcGraph::from_bytes`](crate::PcGraph::from_bytes) has no file to name and answers `error` itself. Use
    /// [`GraphError::reason`] to match on what went wrong wherever the bytes came from.
    #[error("{}: {error}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it (never an `Io` or a `File`).
        error: Box<GraphError>,
    },
}

impl GraphError {
    /// What went wrong, without the file it happened in: the error a
    /// [`GraphError::File`] wraps, else this error.
    ///
    /// ```
    /// use pc_solver::{GraphError, PcGraph, Rules};
    ///
    /// let path = std::env::temp_dir().join(format!("not-a-graph-{}.bin", std::process::id()));
    /// std::fs::write(&path, b"hello, world")?;
    /// let error = PcGraph::load(&path, &Rules::default()).unwrap_err();
    /// assert!(matches!(error.reason(), GraphError::NotAGraph));
    /// assert_eq!(error.to_string(), format!("{}: not a graph file", path.display()));
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reason(&self) -> &GraphError {
        match self {
            GraphError::File { error, .. } => error,
            other => other,
        }
    }

    /// The same error once more, for a reader that answers every call after its first
    /// error with it. The errors of a file's bytes are copied; the others, which a reader
    /// of bytes never meets, say only that reading had stopped.
    pub(crate) fn again(&self) -> GraphError {
        match self {
            GraphError::NotAGraph => GraphError::NotAGraph,
            GraphError::Version { found, expected } => GraphError::Version {
                found: *found,
                expected: *expected,
            },
            GraphError::OtherRules { found, expected } => GraphError::OtherRules {
                found: *found,
                expected: *expected,
            },
            GraphError::Truncated => GraphError::Truncated,
            GraphError::Checksum => GraphError::Checksum,
            GraphError::TooLarge => GraphError::TooLarge,
            GraphError::Malformed(what) => GraphError::Malformed(what),
            GraphError::OtherGraph => GraphError::OtherGraph,
            _ => GraphError::Malformed("reading stopped at an earlier error"),
        }
    }

    /// This error, met reading the file at `path`: wrapped in [`GraphError::File`] unless
    /// it names its file already.
    pub(crate) fn in_file(self, path: &std::path::Path) -> GraphError {
        match self {
            GraphError::Io { .. } | GraphError::File { .. } => self,
            error => GraphError::File {
                path: path.to_path_buf(),
                error: Box::new(error),
            },
        }
    }
}
