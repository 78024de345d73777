//! The arguments of the USI `go` command.

use crate::time_manager::TimeControl;
use shogi::Color;
use std::time::Duration;

/// The time of a `go` that sets no limit at all (no clock, depth, nodes or `infinite`).
pub const DEFAULT_MOVETIME_MS: u64 = 10_000;

/// A `go` for a move (anything but `go mate`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub binc: Option<u64>,
    pub winc: Option<u64>,
    pub byoyomi: Option<u64>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoCommand {
    /// `go mate <ms>|infinite`: answered by the df-pn solver; `None` = no time limit.
    Mate {
        time: Option<Duration>,
    },
    Play(GoParams),
}

impl GoParams {
    /// The clock of the side to move. A `go` with no limit of any kind gets
    /// [`DEFAULT_MOVETIME_MS`], so that it answers.
    pub fn time_control(&self, side: Color) -> TimeControl {
        let (remaining, inc) = match side {
            Color::Black => (self.btime, self.binc),
            Color::White => (self.wtime, self.winc),
        };
        let tc = TimeControl {
            remaining_ms: remaining,
            increment_ms: inc.unwrap_or(0),
            byoyomi_ms: self.byoyomi.unwrap_or(0),
            movetime_ms: self.movetime,
        };
        let limited = tc.is_timed()
            || self.depth.is_some()
            || self.nodes.is_some()
            || self.infinite
            || self.ponder;
        if limited {
            tc
        } else {
            TimeControl { movetime_ms: Some(DEFAULT_MOVETIME_MS), ..tc }
        }
    }
}

/// Parses the arguments of `go` (everything after the word). A play `go` always parses: a bad
/// or unknown field is skipped with a warning (the GUI waits for a `bestmove`, and guessing
/// the rest beats resigning); only a malformed `go mate` is an error.
pub fn parse_go(args: &str) -> Result<(GoCommand, Vec<String>), String> {
    let mut tokens = args.split_whitespace().peekable();
    let mut warnings = Vec::new();
    if tokens.peek() == Some(&"mate") {
        tokens.next();
        let time = match tokens.next() {
            None | Some("infinite") => None,
            Some(t) => match t.parse::<u64>() {
                Ok(ms) => Some(Duration::from_millis(ms)),
                Err(_) => return Err(format!("go mate: bad time {t:?}")),
            },
        };
        if let Some(extra) = tokens.next() {
            return Err(format!("go mate: unexpected {extra:?}"));
        }
        return Ok((GoCommand::Mate { time }, warnings));
    }
    let mut go = GoParams::default();
    while let Some(t) = tokens.next() {
        match t {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "btime" | "wtime" | "binc" | "winc" | "byoyomi" | "movetime" | "depth" | "nodes" => {
                let Some(text) = tokens.next() else {
                    warnings.push(format!("go: {t} needs a value"));
                    continue;
                };
                // Some GUIs send negative times when a clock ran out: count them as 0.
                let Ok(v) = text.parse::<i64>().map(|v| v.max(0) as u64) else {
                    warnings.push(format!("go: bad {t} value {text:?} (ignored)"));
                    continue;
                };
                match t {
                    "btime" => go.btime = Some(v),
                    "wtime" => go.wtime = Some(v),
                    "binc" => go.binc = Some(v),
                    "winc" => go.winc = Some(v),
                    "byoyomi" => go.byoyomi = Some(v),
                    "movetime" => go.movetime = Some(v),
                    "depth" => go.depth = Some(u32::try_from(v).unwrap_or(u32::MAX)),
                    _ => go.nodes = Some(v),
                }
            }
            "searchmoves" => {
                warnings.push("go: searchmoves is not supported (ignored)".to_string());
                // The moves follow up to the next keyword.
                while tokens.peek().is_some_and(|t| shogi::usi::parse_move_syntax(t).is_ok()) {
                    tokens.next();
                }
            }
            other => warnings.push(format!("go: unknown field {other:?} (ignored)")),
        }
    }
    Ok((GoCommand::Play(go), warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(args: &str) -> (GoParams, Vec<String>) {
        match parse_go(args) {
            Ok((GoCommand::Play(g), w)) => (g, w),
            other => panic!("{args}: {other:?}"),
        }
    }

    #[test]
    fn mate() {
        assert_eq!(
            parse_go("mate 1000").map(|r| r.0),
            Ok(GoCommand::Mate { time: Some(Duration::from_millis(1000)) })
        );
        assert_eq!(parse_go("mate infinite").map(|r| r.0), Ok(GoCommand::Mate { time: None }));
        assert_eq!(parse_go("mate").map(|r| r.0), Ok(GoCommand::Mate { time: None }));
        assert!(parse_go("mate soon").is_err());
        assert!(parse_go("mate 1 2").is_err());
    }

    #[test]
    fn clocks_and_limits() {
        let (g, w) = play("btime 60000 wtime -5 binc 1000 winc 2000 byoyomi 0 depth 7 nodes 900");
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(
            (g.btime, g.wtime, g.binc, g.winc),
            (Some(60000), Some(0), Some(1000), Some(2000))
        );
        assert_eq!((g.depth, g.nodes), (Some(7), Some(900)));
        let tc = g.time_control(Color::White);
        assert_eq!((tc.remaining_ms, tc.increment_ms, tc.byoyomi_ms), (Some(0), 2000, 0));
        let (g, _) = play("ponder btime 1 wtime 2 byoyomi 3000");
        assert!(g.ponder && !g.infinite);
        let (g, _) = play("infinite");
        assert!(g.infinite);
        assert!(!g.time_control(Color::Black).is_timed());
        let (g, _) = play("depth 3");
        assert!(!g.time_control(Color::Black).is_timed());
        let (g, _) = play("");
        assert_eq!(g.time_control(Color::Black).movetime_ms, Some(DEFAULT_MOVETIME_MS));
    }

    #[test]
    fn bad_fields_are_skipped_with_warnings() {
        let (g, w) = play("btime x wtime 100 frobnicate movetime");
        assert_eq!(w.len(), 3, "{w:?}");
        assert_eq!((g.btime, g.wtime, g.movetime), (None, Some(100), None));
        let (g, w) = play("searchmoves 7g7f 2g2f movetime 100");
        assert_eq!(w.len(), 1);
        assert_eq!(g.movetime, Some(100));
    }
}
