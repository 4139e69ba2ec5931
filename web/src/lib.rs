//! pc in the browser: the Rust side of the page in `web/static/`.
//!
//! Compiled to `wasm32-unknown-unknown` by `web/build.sh`, this crate exports a byte-buffer
//! interface ([`ffi`]) around one function, [`api::handle`]: a JSON request in (read a
//! link's query, decode a fumen, check a position, rank every move of it, find the PCs a
//! pattern builds, play a move of a game), a JSON answer out; and a byte buffer for the PC field graph ([`graph`]). The page runs solves in a Web Worker with its own instance of the module and the
//! quick requests on its main thread. Natively the same code runs the unit tests.
//!
//! ```
//! // PCO: I held, T L O S J Z in view.
//! let request = serde_json::json!({"op": "solve", "form": {
//!     "field": "##.....###/###....###/####...###/###....###", "hold": "I", "queue": "TLOSJZ",
//! }});
//! let answer: serde_json::Value = serde_json::from_str(&pc_web::api::handle(&request.to_string()))?;
//! assert_eq!(answer["chance"]["fraction"], "1/1");
//! # Ok::<(), serde_json::Error>(())
//! ```
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
pub mod ffi;
pub mod form;
pub mod graph;
pub mod kicks;
pub mod play;
pub mod solutions;
