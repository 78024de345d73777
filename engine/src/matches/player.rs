//! What a match asks of a player: our engine in-process
//! ([`crate::matches::internal_player::InternalPlayer`]) or an external USI engine
//! ([`crate::matches::external_engine::ExternalEngine`]). The game (see
//! [`crate::matches::game`]) keeps the clock and checks every answer with the rules; a player
//! answers, and may think on the opponent's time (ponder) as a GUI lets it.

use crate::search::report::SearchLimits;
use crate::time_manager::TimeControl;
use shogi::{Color, Position};
use std::fmt;
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
    /// The move for `request`. A player pondering on this very position (the opponent played
    /// the expected reply) goes on from that search, as after a USI `ponderhit`; pondering on
    /// another position, it stops that search first.
    fn play(&mut self, request: &MoveRequest) -> Result<Reply, PlayerError>;
    /// Right after this player's move (`request` is the position after it, the opponent to
    /// move): think on the opponent's time about the reply its last search expected, as USI
    /// `go ponder` does. Returns that reply, or `None` when it does not ponder.
    fn ponder(&mut self, _request: &MoveRequest) -> Result<Option<String>, PlayerError> {
        Ok(None)
    }
    /// Whether the last move [`Player::play`] gave came at once from a ponder search.
    fn answered_from_ponder(&self) -> bool {
        false
    }
    /// The game ended (a pondering search is stopped).
    fn game_over(&mut self, result: GameOver);
}

/// A `position` command with one more move.
pub fn with_move(command: &str, usi_move: &str) -> String {
    if command.split_whitespace().any(|w| w == "moves") {
        format!("{command} {usi_move}")
    } else {
        format!("{command} moves {usi_move}")
    }
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
    fn a_move_is_appended_to_a_position_command() {
        assert_eq!(with_move("position startpos", "7g7f"), "position startpos moves 7g7f");
        assert_eq!(
            with_move("position startpos moves 7g7f", "3c3d"),
            "position startpos moves 7g7f 3c3d"
        );
        let sfen = "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1";
        assert_eq!(with_move(sfen, "G*5b"), format!("{sfen} moves G*5b"));
    }
}
