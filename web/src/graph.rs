//! The PC field graph in the page: the page writes a graph file's bytes into a buffer of
//! the module ([`input`], behind `pc_graph_input` in [`crate::ffi`]), then asks for them to
//! be read ([`load`]); solves with the graph's rules answer from it.
//!
//! One graph at a time: loading another one lets the first go before reading the second,
//! so the module's memory holds one.

use crate::form::{Form, FormError, drop_name};
use pc_solver::{GraphError, PcGraph, Rules, RulesId};
use serde::Serialize;
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    static BYTES: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static GRAPH: RefCell<Option<Arc<PcGraph>>> = const { RefCell::new(None) };
}

/// Makes the graph buffer `len` bytes long (zeros) and returns where it starts. Lets the
/// loaded graph go first when the buffer is for a new one, so the two never share the
/// memory.
pub fn input(len: usize) -> *mut u8 {
    GRAPH.with(|g| g.borrow_mut().take());
    BYTES.with(|bytes| {
        let mut bytes = bytes.borrow_mut();
        *bytes = Vec::new();
        bytes.resize(len, 0);
        bytes.as_mut_ptr()
    })
}

/// Puts a graph file's bytes in the buffer (what the page does through [`input`]).
pub fn set_bytes(file: Vec<u8>) {
    GRAPH.with(|g| g.borrow_mut().take());
    BYTES.with(|bytes| *bytes.borrow_mut() = file);
}

/// What was loaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Loaded {
    /// The kick table's name.
    pub kicks: String,
    /// The drop mode's name.
    pub drop: String,
    /// Fields of the graph.
    pub fields: u64,
    /// Fields per layer (pieces placed since its start).
    pub layers: Vec<u64>,
    /// The start field, as rows.
    pub start: String,
    /// Bytes of the file read.
    pub bytes: usize,
}

/// Why a graph was not loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Unknown kicks or drop mode.
    #[error(transparent)]
    Rules(#[from] FormError),
    /// The buffer is empty.
    #[error("graph: no bytes were given")]
    Empty,
    /// The file fails the graph's checks (never used then).
    #[error("graph: {0}")]
    Graph(#[from] GraphError),
}

/// Reads the graph in the buffer for the rules of `kicks` and `drop`, and keeps it for
/// the solves with those rules. The buffer is emptied either way; a file that fails its
/// checks (magic, version, rules, hashes, structure) is an error and nothing is kept.
pub fn load(kicks: &str, drop: &str) -> Result<Loaded, LoadError> {
    let rules = Form {
        kicks: kicks.to_string(),
        drop: drop.to_string(),
        ..Form::default()
    }
    .rules()?;
    GRAPH.with(|g| g.borrow_mut().take());
    let bytes = BYTES.with(|b| std::mem::take(&mut *b.borrow_mut()));
    if bytes.is_empty() {
        return Err(LoadError::Empty);
    }
    let graph = PcGraph::from_bytes(&bytes, &rules)?;
    let size = bytes.len();
    std::mem::drop(bytes);
    let start = graph.start();
    let loaded = Loaded {
        kicks: rules.kicks.name().to_string(),
        drop: drop_name(rules.drop).to_string(),
        fields: graph.fields(),
        layers: graph.fields_per_layer(),
        start: crate::form::field_rows(start.board()),
        bytes: size,
    };
    GRAPH.with(|g| *g.borrow_mut() = Some(Arc::new(graph)));
    Ok(loaded)
}

/// The loaded graph, when it was built for `rules`.
pub fn for_rules(rules: &Rules) -> Option<Arc<PcGraph>> {
    let id = RulesId::of(rules);
    GRAPH.with(|g| g.borrow().as_ref().filter(|g| g.rules_id() == id).cloned())
}

/// Lets the loaded graph go.
pub fn unload() {
    GRAPH.with(|g| g.borrow_mut().take());
    BYTES.with(|b| *b.borrow_mut() = Vec::new());
}
