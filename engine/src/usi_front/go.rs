//! What a `go` means for `tsumugi`'s clock. The parse itself is the shared
//! [`::usi::parse_go`]; `tsumugi` reads every field ([`GO_FIELDS`]) and plays on after
//! skipping a bad one, with a warning.

use crate::time_manager::TimeControl;
use ::usi::{GoField, GoParams};
use shogi::Color;

/// The `go` fields `tsumugi` reads: all of them.
pub const GO_FIELDS: &[GoField] = &GoField::ALL;

/// The time of a `go` that sets no limit at all (no clock, depth, nodes or `infinite`).
pub const DEFAULT_MOVETIME_MS: u64 = 10_000;

/// The clock of the side to move. A `go` with no limit of any kind gets
/// [`DEFAULT_MOVETIME_MS`], so that it answers.
pub fn time_control(go: &GoParams, side: Color) -> TimeControl {
    let (remaining, inc) = match side {
        Color::Black => (go.btime, go.binc),
        Color::White => (go.wtime, go.winc),
    };
    let tc = TimeControl {
        remaining_ms: remaining,
        increment_ms: inc.unwrap_or(0),
        byoyomi_ms: go.byoyomi.unwrap_or(0),
        movetime_ms: go.movetime,
    };
    let limited =
        tc.is_timed() || go.depth.is_some() || go.nodes.is_some() || go.infinite || go.ponder;
    if limited {
        tc
    } else {
        TimeControl { movetime_ms: Some(DEFAULT_MOVETIME_MS), ..tc }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::usi::{parse_go, GoCommand};

    fn play(args: &str) -> GoParams {
        match parse_go(args, GO_FIELDS) {
            Ok((GoCommand::Play(g), w)) if w.is_empty() => g,
            other => panic!("{args}: {other:?}"),
        }
    }

    #[test]
    fn clocks_and_limits() {
        let g = play("btime 60000 wtime -5 binc 1000 winc 2000 byoyomi 0 depth 7 nodes 900");
        let tc = time_control(&g, Color::White);
        assert_eq!((tc.remaining_ms, tc.increment_ms, tc.byoyomi_ms), (Some(0), 2000, 0));
        let tc = time_control(&g, Color::Black);
        assert_eq!((tc.remaining_ms, tc.increment_ms, tc.byoyomi_ms), (Some(60000), 1000, 0));
        let g = play("infinite");
        assert!(!time_control(&g, Color::Black).is_timed());
        let g = play("depth 3");
        assert!(!time_control(&g, Color::Black).is_timed());
        let g = play("");
        assert_eq!(time_control(&g, Color::Black).movetime_ms, Some(DEFAULT_MOVETIME_MS));
        let g = play("movetime 300");
        assert_eq!(time_control(&g, Color::White).movetime_ms, Some(300));
    }
}
