//! `tsumugi` as a USI program: the part of the USI front end particular to the playing engine.
//! The protocol loop itself is the shared `usi` crate.
//!
//! - [`program`]: the program the loop drives ([`run`]);
//! - [`options`]: what `usi` lists and what `setoption` changes;
//! - [`go`]: what a `go` means for our clock;
//! - [`book_moves`]: the opening book of `BookFile`, and playing from it;
//! - [`worker`]: the search thread, which owns the engine and the mate solver.

pub mod book_moves;
pub mod go;
pub mod options;
pub mod program;
pub mod worker;

pub use program::run;
