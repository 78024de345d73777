//! Tsumugi's solver and the composer's report in a browser: the page's Web Worker loads this
//! crate built for `wasm32-unknown-unknown` and calls the functions of [`exports`].
//!
//! [`session`] is the work (reading pasted problems, solving one, its report as a page) in
//! plain Rust, tested natively; [`exports`] is the thin interface the worker calls: bytes in
//! and out of the module's memory, JSON for anything structured. A hand-written `extern "C"`
//! interface rather than `wasm-bindgen`: four functions need no generated glue, the page
//! loads with the browser's own `WebAssembly.instantiate`, and the build needs nothing
//! beyond the Rust target (see `web/build.sh`).

pub mod exports;
pub mod session;
