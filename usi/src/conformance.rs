//! The protocol's promises that every program keeps through the shared loop, checked on the
//! real program (its own search, its own answers): held answers of `go infinite` and
//! `go ponder`, the end of input, a `go` refused while an unlimited search runs, and quiet
//! commands when nothing runs. Each program's tests call [`check`].

use crate::fuzz::answers;
use crate::program::UsiProgram;
use crate::session::transcript;

/// One session and what it must answer.
struct Case {
    script: &'static str,
    /// The answers, as their first words (`bestmove`, `checkmate`), in order.
    answers: &'static [&'static str],
    /// The start of a line the session must show.
    says: Option<&'static str>,
}

const CASES: &[Case] = &[
    // The end of input stops what would never end, and its answer is still given.
    Case { script: "go infinite\n", answers: &["bestmove"], says: None },
    Case { script: "go ponder btime 1000 wtime 1000\n", answers: &["bestmove"], says: None },
    Case { script: "go mate infinite\n", answers: &["checkmate"], says: None },
    // Held answers come after `stop` or `ponderhit`, once.
    Case { script: "go infinite\nstop\n", answers: &["bestmove"], says: None },
    Case {
        script: "go ponder btime 1000 wtime 1000\nponderhit\n",
        answers: &["bestmove"],
        says: None,
    },
    // A second `go` while an unlimited search runs is refused, not queued for ever.
    Case {
        script: "go infinite\ngo mate 10\nquit\n",
        answers: &["bestmove"],
        says: Some("info string error: a search is already running"),
    },
    // With nothing running these say nothing; `isready` is still answered.
    Case {
        script: "stop\ngameover win\nusinewgame\nponderhit\nisready\n",
        answers: &[],
        says: Some("readyok"),
    },
];

/// Runs every case on a fresh `program()`; returns the first case that fails, with its
/// transcript.
pub fn check<P: UsiProgram>(program: impl Fn() -> P) -> Result<(), String> {
    for case in CASES {
        let script = format!("setoption name USI_Hash value 1\n{}", case.script);
        let out = transcript(program(), &script).map_err(|e| format!("run failed: {e}"))?;
        let got: Vec<&str> =
            answers(&out).iter().filter_map(|l| l.split_whitespace().next()).collect();
        let said = case.says.is_none_or(|line| out.iter().any(|l| l.starts_with(line)));
        let errors = out.iter().filter(|l| l.starts_with("info string error")).count();
        let expected_errors = usize::from(case.says.is_some_and(|l| l.contains("error")));
        if got != case.answers || !said || errors != expected_errors {
            return Err(format!(
                "script {:?}: want answers {:?}{}, got {out:?}",
                case.script,
                case.answers,
                case.says.map(|l| format!(" and {l:?}")).unwrap_or_default()
            ));
        }
    }
    Ok(())
}
