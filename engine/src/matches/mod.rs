//! Matches (`tsumugi match`): games between our engine and another player, adjudicated by the
//! rules core, with the statistics that say which is stronger.
//!
//! - [`args`]: the command line and its translation into a [`runner::MatchConfig`];
//! - [`runner`]: the match itself, games on threads, W/D/L and the games file;
//! - [`game`]: one game, its clock and its adjudication;
//! - [`player`]: what a match asks of a player (a move, and pondering on the opponent's time);
//! - [`internal_player`], [`external_engine`]: our engine in-process, or an external USI engine;
//! - [`openings`]: the opening positions a match starts from;
//! - [`elo`]: Elo with its confidence interval from a W/D/L count.

pub mod args;
pub mod elo;
pub mod external_engine;
pub mod game;
pub mod internal_player;
pub mod openings;
pub mod player;
pub mod runner;
