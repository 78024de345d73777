//! Tsumugi's playing engine: iterative-deepening alpha-beta with soppo pruning, a hand-written
//! evaluation, and the df-pn solver as endgame oracle.
//!
//! The contract between the search and its front ends (USI loop, match runner, bench) is
//! [`Engine`], [`SearchControl`], [`SearchLimits`] and the report types: front ends decide
//! *when* to stop (time management, ponder, `stop`), the search decides *what* to play.
//!
//! Rooms: [`search`] (the search and its tables), [`eval`] (the evaluation), [`book`] (opening
//! books), [`usi_front`] (the USI program), [`mod@matches`] (the match runner), [`tools`] (bench
//! and test helpers), [`tune`] (the parameter tuner). Shared by them: [`params`] (every tunable number) and [`time_manager`]
//! (from a clock to a time budget).

pub mod book;
pub mod eval;
pub mod learn;
pub mod matches;
pub mod params;
pub mod search;
pub mod time_manager;
pub mod tools;
pub mod tune;
pub mod usi_front;

pub use params::Params;
pub use search::{
    Engine, Score, SearchControl, SearchInfo, SearchLimits, SearchOutcome, SearchStats,
};
