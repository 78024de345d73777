//! Tsumugi's playing engine: iterative-deepening alpha-beta with soppo pruning, a hand-written
//! evaluation, and the df-pn solver as endgame oracle.
//!
//! The contract between the search and its front ends (USI loop, match runner, bench) is
//! [`Engine`], [`SearchControl`], [`SearchLimits`] and the report types: front ends decide
//! *when* to stop (time management, ponder, `stop`), the search decides *what* to play.

pub mod control;
pub mod engine;
pub mod params;
pub mod report;

pub use control::SearchControl;
pub use engine::Engine;
pub use params::Params;
pub use report::{Score, SearchInfo, SearchLimits, SearchOutcome};
