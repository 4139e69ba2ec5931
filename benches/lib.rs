//! Criterion benchmarks live in `benches/benches/*.rs`; run them with `cargo bench -p pc-benches`.
