//! The search: what the engine plays, given a position and when to stop.
//!
//! It owns the long-lived tables and everything a search decides with:
//! - [`engine`]: the facade front ends drive ([`Engine`]), one search per `go`;
//! - [`control`]: the stop/time state a front end shares with a running search;
//! - [`report`]: what a search is asked ([`SearchLimits`]) and what it tells;
//! - [`alpha_beta`]: iterative deepening and the main alpha-beta search; [`qsearch`]: its
//!   quiescence search;
//! - [`move_picker`], [`history`]: move ordering and the memory it learns from;
//! - [`tt`]: the transposition table, shared by the threads without locks; [`prefetch`]: its
//!   entries (and the evaluation cache's) asked for when a move is made;
//! - [`threads`]: Lazy SMP, the helper threads and what they share;
//! - [`soppo`]: soppo pruning (seed 000);
//! - [`oracle`]: the df-pn solver as the search's endgame oracle; [`root_slices`]: its root
//!   search in slices of the main thread's time;
//! - [`ponder`]: multi-candidate ponder (seed 002), several predicted replies searched.

pub mod alpha_beta;
pub mod control;
pub mod correction;
pub mod engine;
pub mod history;
pub mod move_picker;
pub mod oracle;
pub mod ponder;
pub mod prefetch;
pub mod qsearch;
pub mod report;
pub mod root_slices;
pub mod root_threats;
pub mod soppo;
pub mod table_plan;
pub mod threads;
pub mod tt;

pub use control::SearchControl;
pub use engine::{Engine, SearchStats};
pub use report::{Score, SearchInfo, SearchLimits, SearchOutcome};
