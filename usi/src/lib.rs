//! The USI protocol layer shared by Tsumugi's two USI programs: `tsumugi-mate` (the mate
//! engine) and `tsumugi` (the playing engine). It knows the protocol, not the searches: a
//! program plugs in through [`UsiProgram`] and runs its searches on the thread of
//! [`worker`] through a [`SearchBackend`].
//!
//! One concept per file:
//! - [`command`]: which command a line is, and the `setoption` syntax;
//! - [`conformance`], [`fault`], [`fuzz`]: the protocol's promises, a search that panics, and
//!   random sessions, for the programs' robustness tests;
//! - [`go`]: the arguments of `go`, parsed into one typed value with its issues;
//! - `input`, [`output`]: the reader thread, and writing whole lines;
//! - [`info`]: numbers as `info` lines show them;
//! - [`options`]: option declarations, each writing its `usi` line and reading its `setoption`;
//! - [`worker`]: the search thread, generic over a program's [`SearchBackend`];
//! - [`program`]: the [`UsiProgram`] trait, what a program adds to the shared loop;
//! - [`session`]: the protocol loop itself ([`run`], and [`transcript`] for scripted sessions).

pub mod command;
pub mod conformance;
pub mod fault;
pub mod fuzz;
pub mod go;
pub mod info;
mod input;
pub mod options;
pub mod output;
pub mod program;
pub mod session;
pub mod worker;

pub use command::{parse_setoption, Command};
pub use go::{parse_go, GoCommand, GoError, GoField, GoIssue, GoParams};
pub use options::{Check, Combo, Spin, Text};
pub use output::Output;
pub use program::{Finished, Hold, Plan, Timing, UsiProgram};
pub use session::{run, transcript};
pub use worker::{panic_message, SearchBackend};
