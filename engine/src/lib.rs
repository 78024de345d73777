//! Tsumugi's playing engine: iterative-deepening alpha-beta with soppo pruning, a hand-written
//! evaluation, and the df-pn solver as endgame oracle.
//!
//! The contract between the search and its front ends (USI loop, match runner, bench) is
//! [`Engine`], [`SearchControl`], [`SearchLimits`] and the report types: front ends decide
//! *when* to stop (time management, ponder, `stop`), the search decides *what* to play.

pub mod bench;
pub mod control;
pub mod engine;
pub mod eval;
pub mod eval_weights;
pub mod history;
pub mod move_picker;
pub mod oracle;
pub mod params;
pub mod qsearch;
pub mod report;
pub mod search;
pub mod soppo;
pub mod tt;
pub mod xorshift;

#[cfg(test)]
mod test_positions;

pub use control::SearchControl;
pub use engine::{Engine, SearchStats};
pub use params::Params;
pub use report::{Score, SearchInfo, SearchLimits, SearchOutcome};

// Front ends: the USI engine, time management and the match runner.
pub mod elo;
pub mod external_engine;
pub mod match_args;
pub mod match_game;
pub mod matches;
pub mod openings;
pub mod player;
pub mod time_manager;
pub mod usi;
pub mod usi_go;
pub mod usi_options;
pub mod usi_worker;
