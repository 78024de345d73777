//! Tsumugi's mate solver: df-pn over check-only OR nodes and evasion AND nodes.

pub mod clock;
pub mod config;
pub mod cores;
pub mod outcome;
pub mod search;
pub mod stack;

pub use config::{DoubleCount, Rules, SolverConfig, DEFAULT_SHORTER_MATE_PERCENT};
pub use outcome::{Limits, Outcome, Phase, Phases, Progress, SolveResult};
pub use search::Solver;
pub mod pn;
pub mod repetition_table;
pub mod table_file;
pub mod tt;

// Front ends (USI engine, batch solver) and the rules check of mate lines they share. The USI
// protocol layer is its own crate (`usi`); `usi_mate` is `go mate` over it, which the playing
// engine (`tsumugi`) answers with the same backend.
pub mod batch;
pub mod composer;
pub mod mate_line;
pub mod usi_engine;
pub mod usi_mate;
pub mod usi_options;
