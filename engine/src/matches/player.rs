//! A player of a match game: our engine in-process ([`InternalPlayer`]) or an external USI
//! engine ([`crate::matches::external_engine::ExternalEngine`]). The game (see [`crate::matches::game`])
//! keeps the clock and checks every answer with the rules; a player only answers.

use crate::params::Params;
use crate::search::engine::Engine;
use crate::search::report::SearchLimits;
use crate::time_manager::{control_for, TimeControl, TimeSettings};
use shogi::{Color, Position};
use std::fmt;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// The clocks of both sides before a move, in milliseconds, or no clock (depth/node limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    Untimed,
    Timed { btime: u64, wtime: u64, inc: u64, byoyomi: u64 },
}

impl Clock {
    /// The clock as the side to move sees it.
    pub fn time_control(&self, side: Color) -> TimeControl {
        match *self {
            Clock::Untimed => TimeControl::default(),
            Clock::Timed { btime, wtime, inc, byoyomi } => TimeControl {
                remaining_ms: Some(if side == Color::Black { btime } else { wtime }),
                increment_ms: inc,
                byoyomi_ms: byoyomi,
                movetime_ms: None,
            },
        }
    }

    /// The `go` arguments for an external engine (`limits` give depth/nodes when untimed).
    pub fn go_args(&self, limits: &SearchLimits) -> String {
        match *self {
            Clock::Timed { btime, wtime, inc, byoyomi } if inc > 0 && byoyomi == 0 => {
                format!("btime {btime} wtime {wtime} binc {inc} winc {inc}")
            }
            Clock::Timed { btime, wtime, inc, byoyomi } => {
                let mut s = format!("btime {btime} wtime {wtime} byoyomi {byoyomi}");
                if inc > 0 {
                    s.push_str(&format!(" binc {inc} winc {inc}"));
                }
                s
            }
            Clock::Untimed => {
                let mut parts = Vec::new();
                if let Some(d) = limits.depth {
                    parts.push(format!("depth {d}"));
                }
                if let Some(n) = limits.nodes {
                    parts.push(format!("nodes {n}"));
                }
                if parts.is_empty() {
                    parts.push("infinite".to_string());
                }
                parts.join(" ")
            }
        }
    }
}

/// What a player is asked for one move.
pub struct MoveRequest<'a> {
    /// The position, with the history of the game (for repetition).
    pub position: &'a Position,
    /// The same as a USI `position` command.
    pub command: &'a str,
    pub clock: Clock,
    /// After this long the game is lost on time anyway: a player may give up waiting.
    pub give_up_after: Duration,
}

/// A player's answer. A move is text, checked by the game: an answer that is not a legal move
/// loses the game, so a bug cannot hide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Move(String),
    Resign,
    /// Declares a win (entering king); a false declaration loses.
    Win,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    /// No answer in time (the engine was stopped or killed).
    Timeout,
    /// The engine died or broke the protocol.
    Crashed(String),
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Timeout => write!(f, "no answer in time"),
            PlayerError::Crashed(e) => write!(f, "crashed: {e}"),
        }
    }
}

/// How a finished game went for one player (for `gameover`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOver {
    Win,
    Lose,
    Draw,
}

pub trait Player {
    fn name(&self) -> String;
    /// Before each game.
    fn new_game(&mut self) -> Result<(), PlayerError>;
    fn play(&mut self, request: &MoveRequest) -> Result<Reply, PlayerError>;
    fn game_over(&mut self, result: GameOver);
}

/// Our engine, in this process.
pub struct InternalPlayer {
    name: String,
    engine: Engine,
    limits: SearchLimits,
    settings: TimeSettings,
}

/// Our engine as a match player: its parameters, table, threads and time margins.
#[derive(Clone, Debug)]
pub struct InternalSpec {
    pub name: String,
    /// Boxed: the table is large beside an external engine's spec.
    pub params: Box<Params>,
    pub hash_mb: usize,
    pub threads: usize,
    pub settings: TimeSettings,
}

impl InternalPlayer {
    pub fn new(spec: &InternalSpec, limits: SearchLimits) -> InternalPlayer {
        let mut engine = Engine::new((*spec.params).clone(), spec.hash_mb);
        engine.set_threads(spec.threads);
        InternalPlayer { name: spec.name.clone(), engine, limits, settings: spec.settings }
    }
}

impl Player for InternalPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.engine.clear();
        Ok(())
    }

    fn play(&mut self, request: &MoveRequest) -> Result<Reply, PlayerError> {
        let side = request.position.side_to_move();
        let budget = request.clock.time_control(side).budget(&self.settings);
        let control = control_for(budget, false);
        // A watchdog stops a search that overruns its hard limit (or the give-up time).
        let watchdog = budget.map_or(request.give_up_after, |b| b.hard.min(request.give_up_after));
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let engine = &mut self.engine;
        let limits = &self.limits;
        let control = &control;
        let outcome = thread::scope(|s| {
            s.spawn(move || {
                if let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(watchdog) {
                    control.stop();
                }
            });
            let outcome = engine.search(request.position, limits, control, &mut |_| {});
            drop(done_tx);
            outcome
        });
        Ok(if outcome.declare_win {
            Reply::Win
        } else {
            match outcome.best {
                Some(m) => Reply::Move(m.to_string()),
                None => Reply::Resign,
            }
        })
    }

    fn game_over(&mut self, _result: GameOver) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_arguments() {
        let limits = SearchLimits { depth: Some(3), nodes: None, multipv: 1 };
        let byo = Clock::Timed { btime: 0, wtime: 0, inc: 0, byoyomi: 200 };
        assert_eq!(byo.go_args(&limits), "btime 0 wtime 0 byoyomi 200");
        let fischer = Clock::Timed { btime: 1000, wtime: 2000, inc: 100, byoyomi: 0 };
        assert_eq!(fischer.go_args(&limits), "btime 1000 wtime 2000 binc 100 winc 100");
        assert_eq!(Clock::Untimed.go_args(&limits), "depth 3");
        assert_eq!(Clock::Untimed.go_args(&SearchLimits::default()), "infinite");
        let tc = fischer.time_control(Color::White);
        assert_eq!((tc.remaining_ms, tc.increment_ms), (Some(2000), 100));
    }

    #[test]
    fn internal_player_answers_a_legal_move() {
        let spec = InternalSpec {
            name: "t".to_string(),
            params: Box::default(),
            hash_mb: 1,
            threads: 1,
            settings: TimeSettings::default(),
        };
        let mut p =
            InternalPlayer::new(&spec, SearchLimits { depth: Some(1), nodes: None, multipv: 1 });
        let pos = Position::startpos();
        let req = MoveRequest {
            position: &pos,
            command: "position startpos",
            clock: Clock::Timed { btime: 1000, wtime: 1000, inc: 0, byoyomi: 100 },
            give_up_after: Duration::from_secs(5),
        };
        assert_eq!(p.new_game(), Ok(()));
        match p.play(&req) {
            Ok(Reply::Move(m)) => assert!(pos.parse_usi_move(&m).is_ok(), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
