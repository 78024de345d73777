//! Tsumugi's mate solver: df-pn over check-only OR nodes and evasion AND nodes.

pub mod config;
pub mod outcome;
pub mod search;

pub use config::{DoubleCount, SolverConfig};
pub use outcome::{Limits, Outcome, Progress, SolveResult};
pub use search::Solver;
pub mod pn;
pub mod tt;
