//! Benchmarks live in `benches/*.rs`; this crate has no library code.
