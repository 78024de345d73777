//! `tsumugi-mate` as a USI program: a mate engine that answers `go mate` with `checkmate ...`
//! and a plain `go` with the first move of a mate (or `resign`). The protocol itself (threads,
//! commands, stop and ponder handling) is the shared loop of the `usi` crate; this file is what
//! is particular to the mate engine:
//! - its options ([`crate::usi_options`]); `TableFile` is (re)opened with the other settings,
//!   at the next `isready` or `go`, and `usinewgame` does not clear it; a file that cannot be
//!   used gets `info string error: ...` and the engine goes on with an in-memory table;
//! - a plain `go` reads only the clock, and refuses a malformed one (`info string error: ...`
//!   and `bestmove resign`); other fields are ignored;
//! - the time of a plain `go` ([`budget`]): a rough share of the clock, 10 s without one;
//! - the answer of a plain `go`: the final `info` line with `score mate +n pv ...`, then the
//!   first move of the mate, or `bestmove resign` when no mate was found;
//! - a panic in the search: `info string error: ...`, the answer `checkmate timeout` (or
//!   `bestmove resign`), and a fresh solver for the next search.
//!
//! The solver (and its table) is created at the first `isready` or `go`, so `USI_Hash` set after
//! `usi` does not first allocate the default size; `isready` waits for it.

use crate::config::SolverConfig;
use crate::outcome::{Outcome, Progress, SolveResult};
use crate::usi_mate::{MateBackend, MateJob, MateSearch};
use crate::usi_options::EngineOptions;
use shogi::{Color, Position};
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};
use usi::{Finished, GoField, GoIssue, GoParams, Hold, Output, Plan, Timing, UsiProgram};

pub const ENGINE_NAME: &str = "Tsumugi-mate";
pub const ENGINE_AUTHOR: &str = "The Tsumugi developers";

/// Time given to a plain `go` without any clock.
pub const DEFAULT_GO_TIME: Duration = Duration::from_secs(10);

/// Runs the USI mate engine until `quit` or the end of `input`. Returns an error only when the
/// output cannot be written (or a thread cannot be started).
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, output: W) -> io::Result<()> {
    usi::run(MateEngine::default(), input, output)
}

// ----- the clock of a plain `go` -------------------------------------------------------------

/// A rough budget for a mate search standing in for a move decision: `movetime` if given,
/// else 1/20 of the remaining time plus the increment plus the byoyomi, less a 100 ms margin
/// (at least 10 ms); 10 s without a clock. `None` (unlimited) for `infinite`.
pub fn budget(go: &GoParams, side: Color) -> Option<Duration> {
    if go.infinite {
        return None;
    }
    thinking_time(go, side)
}

/// As [`budget`], ignoring `infinite`/`ponder`: the time after a `ponderhit`.
pub fn thinking_time(go: &GoParams, side: Color) -> Option<Duration> {
    if let Some(ms) = go.movetime {
        return Some(Duration::from_millis(ms));
    }
    let (time, inc) = match side {
        Color::Black => (go.btime, go.binc),
        Color::White => (go.wtime, go.winc),
    };
    if time.is_none() && inc.is_none() && go.byoyomi.is_none() {
        return Some(DEFAULT_GO_TIME);
    }
    let ms = time.unwrap_or(0) / 20 + inc.unwrap_or(0) + go.byoyomi.unwrap_or(0);
    Some(Duration::from_millis(ms.saturating_sub(100).max(10)))
}

/// Why a plain `go` is refused: its clock cannot be read. Other issues (fields the mate engine
/// does not read) are ignored.
fn refusal(issue: &GoIssue) -> Option<String> {
    match issue {
        GoIssue::MissingValue(field) => Some(format!("go: {field} needs a value")),
        GoIssue::BadValue { field, text } => Some(format!("go: bad {field} value {text:?}")),
        GoIssue::SearchMovesIgnored | GoIssue::UnknownField(_) => None,
    }
}

// ----- the program ---------------------------------------------------------------------------

/// What a search answers with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// `go mate`: `checkmate ...`.
    Checkmate,
    /// A plain `go`: `bestmove ...`.
    Bestmove,
}

/// A running search, as the loop keeps it.
pub struct RunningSearch {
    mate: MateSearch,
    answer: Answer,
    started: Instant,
    /// The thinking time after a `ponderhit`.
    ponder_time: Option<Duration>,
}

/// The mate engine: its options.
#[derive(Default)]
pub struct MateEngine {
    options: EngineOptions,
}

impl UsiProgram for MateEngine {
    type Backend = MateBackend;
    type Search = RunningSearch;

    const NAME: &'static str = ENGINE_NAME;
    const AUTHOR: &'static str = ENGINE_AUTHOR;
    const SEARCHER: &'static str = "solver";
    const GO_FIELDS: &'static [GoField] = &GoField::CLOCK;

    fn backend(&self) -> MateBackend {
        MateBackend::new(self.options.solver.clone())
    }

    fn option_lines(&self) -> Vec<String> {
        self.options.usi_option_lines()
    }

    fn set_option(&mut self, args: &str) -> Result<(), String> {
        self.options.apply_setoption(args)
    }

    fn config(&self) -> Result<SolverConfig, String> {
        Ok(self.options.solver.clone())
    }

    fn go(
        &self,
        go: &GoParams,
        issues: &[GoIssue],
        root: &Position,
        out: &mut Output<'_>,
    ) -> io::Result<Option<Plan<RunningSearch, MateJob>>> {
        if let Some(e) = issues.iter().find_map(refusal) {
            // The GUI waits for an answer: give one rather than leave it hanging.
            out.info_string(&format!("error: {e}"))?;
            out.send("bestmove resign")?;
            return Ok(None);
        }
        let side = root.side_to_move();
        let hold = Hold::of(go);
        let time = if hold.holds() { None } else { budget(go, side) };
        let limits = self.options.limits(time);
        let timing = Timing {
            hold,
            deadline: None,
            time_after_start: time,
            finite: !hold.holds() && (limits.time.is_some() || limits.nodes.is_some()),
        };
        let (mate, job) = MateSearch::start(root, limits, self.options.solver.rules);
        let search = RunningSearch {
            mate,
            answer: Answer::Bestmove,
            started: Instant::now(),
            ponder_time: if go.ponder { thinking_time(go, side) } else { None },
        };
        Ok(Some(Plan { search, job, timing }))
    }

    fn go_mate(&self, time: Option<Duration>, root: &Position) -> Plan<RunningSearch, MateJob> {
        let started = Instant::now();
        MateSearch::plan(root, self.options.limits(time), self.options.solver.rules).map(
            |mate| RunningSearch { mate, answer: Answer::Checkmate, started, ponder_time: None },
            |job| job,
        )
    }

    fn stop(&self, search: &RunningSearch) {
        search.mate.stop();
    }

    fn ponderhit(&self, search: &mut RunningSearch) -> Option<Duration> {
        search.ponder_time
    }

    fn progress(
        &self,
        search: &mut RunningSearch,
        report: Progress,
        out: &mut Output<'_>,
    ) -> io::Result<()> {
        search.mate.progress(&report, out)
    }

    fn answer(
        &self,
        search: RunningSearch,
        finished: Finished<SolveResult>,
        out: &mut Output<'_>,
    ) -> io::Result<()> {
        let r = match finished {
            Finished::Done(r) => r,
            // The loop has said why (`info string error: the search failed: ...`).
            Finished::Failed(_) => SolveResult::timeout(0, search.started.elapsed()),
        };
        match search.answer {
            Answer::Checkmate => search.mate.answer(&r, out),
            Answer::Bestmove => {
                search.mate.report(&r, true, out)?;
                match &r.outcome {
                    Outcome::Mate(moves) => match moves.first() {
                        Some(m) => out.send(&format!("bestmove {m}")),
                        None => out.send("bestmove resign"),
                    },
                    Outcome::NoMate | Outcome::Timeout => out.send("bestmove resign"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_script(script: &str) -> Vec<String> {
        usi::transcript(MateEngine::default(), script).unwrap_or_else(|e| panic!("run failed: {e}"))
    }

    #[test]
    fn handshake_lists_the_options() {
        let out = run_script("usi\nisready\nquit\n");
        assert_eq!(out[0], "id name Tsumugi-mate");
        assert_eq!(out[1], "id author The Tsumugi developers");
        assert!(
            out.contains(&"option name USI_Hash type spin default 256 min 1 max 65536".to_string())
        );
        assert!(out.contains(
            &"option name DoubleCount type combo default simple var off var simple var snda"
                .to_string()
        ));
        assert!(out.contains(
            &"option name NodeLimit type spin default 0 min 0 max 1000000000000".to_string()
        ));
        let usiok = out.iter().position(|l| l == "usiok");
        let readyok = out.iter().position(|l| l == "readyok");
        assert!(usiok.is_some() && readyok > usiok, "{out:?}");
    }

    /// A plain `go` as the mate engine reads it: the clock, or the reason to refuse it.
    fn clock(args: &str) -> Result<GoParams, String> {
        match usi::parse_go(args, &GoField::CLOCK) {
            Ok((usi::GoCommand::Play(go), issues)) => match issues.iter().find_map(refusal) {
                Some(e) => Err(e),
                None => Ok(go),
            },
            other => panic!("{args}: {other:?}"),
        }
    }

    #[test]
    fn go_clock_and_budget() {
        assert_eq!(clock("btime"), Err("go: btime needs a value".to_string()));
        assert_eq!(clock("btime x"), Err("go: bad btime value \"x\"".to_string()));
        // Fields the mate engine does not read are skipped silently, values and all.
        assert!(clock("depth 5 nodes 100 searchmoves 7g7f mate").is_ok());
        let c = clock("btime 60000 wtime -5 byoyomi 3000").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.btime, Some(60000));
        assert_eq!(c.wtime, Some(0));
        assert_eq!(budget(&c, Color::Black), Some(Duration::from_millis(3000 + 3000 - 100)));
        assert_eq!(budget(&c, Color::White), Some(Duration::from_millis(2900)));
        let c = clock("").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(budget(&c, Color::Black), Some(DEFAULT_GO_TIME));
        let c = clock("infinite").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(budget(&c, Color::Black), None);
        let c = clock("movetime 500 searchmoves 7g7f").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(budget(&c, Color::White), Some(Duration::from_millis(500)));
        let c = clock("btime 0 wtime 0 byoyomi 0").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(budget(&c, Color::Black), Some(Duration::from_millis(10)));
    }

    #[test]
    fn garbage_and_bad_positions_get_info_strings() {
        let out = run_script(
            "\n   \nhello world\nposition sfen nonsense\nposition startpos moves 1a1b\ngo mate soon\nsetoption name X value 1\n\u{0}\u{ff}\nisready\n",
        );
        let infos = out.iter().filter(|l| l.starts_with("info string")).count();
        assert_eq!(infos, 6, "{out:?}");
        assert!(out.contains(&"info string unknown command: hello world".to_string()));
        assert!(out.contains(&"checkmate timeout".to_string()));
        assert_eq!(out.last().map(String::as_str), Some("readyok"));
    }

    fn answer(out: &[String], prefix: &str) -> usize {
        out.iter().filter(|l| l.starts_with(prefix)).count()
    }

    #[test]
    fn go_mate_answers_once() {
        let out = run_script("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1\ngo mate 300\nisready\n");
        assert_eq!(answer(&out, "checkmate"), 1, "{out:?}");
        let i = out.iter().position(|l| l.starts_with("checkmate"));
        let last_info = out.iter().rposition(|l| l.starts_with("info time"));
        assert!(last_info.is_some() && last_info < i, "{out:?}");
        // End of input after a search with a time limit: the search is allowed to finish.
        let out = run_script("go mate 200\n");
        assert_eq!(answer(&out, "checkmate"), 1, "{out:?}");
        // An unlimited search is stopped at the end of input.
        let out = run_script("go mate infinite\n");
        assert_eq!(answer(&out, "checkmate"), 1, "{out:?}");
        let out = run_script("go mate\nquit\n");
        assert_eq!(answer(&out, "checkmate"), 1, "{out:?}");
        // A `go` during a limited search waits for it: piped scripts run one search after another.
        let out = run_script(
            "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1\ngo mate 300\nposition startpos\ngo mate 300\n",
        );
        assert_eq!(answer(&out, "checkmate"), 2, "{out:?}");
        // No warning: the only strings are the phases' times of each mate.
        let phases = answer(&out, "info string first proof at");
        assert_eq!(answer(&out, "info string"), phases, "{out:?}");
    }

    #[test]
    fn table_file_option_opens_keeps_and_refuses() {
        let dir = std::env::temp_dir();
        let path = dir.join(format!("tsumugi-usi-table-{}.tt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mate = "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1\ngo mate 2000\n";
        let script = format!(
            "setoption name USI_Hash value 1\nsetoption name TableFile value {}\nisready\n\
             {mate}usinewgame\n{mate}",
            path.display()
        );
        let out = run_script(&script);
        assert!(
            out.iter().any(|l| l.starts_with("info string table file") && l.contains("created")),
            "{out:?}"
        );
        assert_eq!(answer(&out, "checkmate G*5b"), 2, "{out:?}");
        // Closed cleanly at `quit`: opened again, not checked.
        let out = run_script(&script);
        let opened = out.iter().find(|l| l.starts_with("info string table file"));
        assert!(
            opened.is_some_and(|l| l.contains("opened") && !l.contains("not closed")),
            "{out:?}"
        );
        // The same file under the other rules: refused, and the engine answers from memory.
        let script = format!(
            "setoption name Rules value pure\nsetoption name TableFile value {}\n{mate}\
             setoption name TableFile value <empty>\n{mate}",
            path.display()
        );
        let out = run_script(&script);
        assert_eq!(answer(&out, "info string error: table file"), 1, "{out:?}");
        assert_eq!(answer(&out, "checkmate G*5b"), 2, "{out:?}");
        let _ = std::fs::remove_file(&path);
        // A file that is not a table: refused, the engine carries on.
        let junk = dir.join(format!("tsumugi-usi-junk-{}.tt", std::process::id()));
        std::fs::write(&junk, b"not a table at all, but long enough to have a header............")
            .unwrap_or_else(|e| panic!("{e}"));
        let out = run_script(&format!("setoption name TableFile value {}\n{mate}", junk.display()));
        assert!(out.iter().any(|l| l.contains("not a Tsumugi table file")), "{out:?}");
        assert_eq!(answer(&out, "checkmate G*5b"), 1, "{out:?}");
        assert!(std::fs::read(&junk).is_ok_and(|b| b.starts_with(b"not a table")), "untouched");
        let _ = std::fs::remove_file(&junk);
    }

    #[test]
    fn plain_go_answers_bestmove() {
        let out = run_script("position startpos\ngo movetime 100\n");
        assert_eq!(answer(&out, "bestmove"), 1, "{out:?}");
    }

    #[test]
    fn keeps_the_protocols_promises() {
        usi::conformance::check(MateEngine::default).unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn rules_option_over_usi() {
        // A rook check that only pawn interpositions answer (see tests/tsume_rules.rs).
        let futile = "8k/6G2/9/7N1/9/9/9/9/R8 b 2p 1";
        let out = run_script(&format!(
            "position sfen {futile}\ngo mate 20000\nsetoption name Rules value pure\ngo mate 20000\n"
        ));
        let answers: Vec<&String> = out.iter().filter(|l| l.starts_with("checkmate")).collect();
        assert_eq!(answers.len(), 2, "{out:?}");
        assert_eq!(answers[0].split_whitespace().count(), 1 + 1, "tsume rules: {out:?}");
        assert_eq!(answers[1].split_whitespace().count(), 1 + 5, "pure rules: {out:?}");
        assert!(out.iter().all(|l| !l.contains("warning")), "{out:?}");
    }

    const MATE7: &str =
        "ln1g3+Rl/2sk1s+P2/2ppppb1p/p1b3p2/8P/P4P3/2PPP1P2/1+r2GS3/LN+p2KGNL w GN2Ps 36";

    #[test]
    fn the_depth_limit_answers_timeout_and_says_why() {
        let out = run_script(&format!(
            "setoption name DepthLimit value 5\nposition sfen {MATE7}\ngo mate 20000\n\
             setoption name DepthLimit value 7\ngo mate 20000\n"
        ));
        let answers: Vec<&String> = out.iter().filter(|l| l.starts_with("checkmate")).collect();
        assert_eq!(answers.len(), 2, "{out:?}");
        assert_eq!(answers[0], "checkmate timeout");
        assert!(out.iter().any(|l| l.starts_with("info string no mate within the depth limit")));
        assert_eq!(answers[1].split_whitespace().count(), 1 + 7, "{out:?}");
    }

    /// Random sessions of real and broken commands: the loop never panics, answers every
    /// `go`, and still answers `isready` at the end.
    #[test]
    fn random_sessions_never_break_the_loop() {
        let fuzz = usi::fuzz::Fuzz {
            program_words: &["Rules", "pure", "DoubleCount", "snda", "NodeLimit", "DepthLimit"],
            go_limits: &["movetime 20", "btime 300 wtime 300", "mate 20"],
            seed: 0x9e37_79b9_7f4a_7c15,
            sessions: 4,
            lines_per_session: 60,
        };
        let answers = fuzz.run(MateEngine::default).unwrap_or_else(|e| panic!("{e}"));
        assert!(answers >= 8, "only {answers} answers");
    }

    const PANICS_ON: &str = "4k4/9/4P4/9/9/9/9/9/9 b G 1";

    #[test]
    fn a_panic_in_the_search_costs_one_answer_not_the_engine() {
        let script = format!(
            "position sfen {PANICS_ON}\ngo mate 1000\nisready\n\
             position sfen {MATE7}\ngo mate 20000\n\
             position sfen {PANICS_ON}\ngo movetime 500\n\
             position sfen {MATE7}\ngo mate 20000\nisready\n"
        );
        let faulty = usi::fault::Faulty {
            program: MateEngine::default(),
            panics_on: |job: &MateJob| job.pos.to_sfen() == PANICS_ON,
        };
        let out = usi::transcript(faulty, &script).unwrap_or_else(|e| panic!("run failed: {e}"));
        let answers = usi::fault::answers_after_faults(&out, 2).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(answers.len(), 4, "{out:?}");
        assert_eq!(answers[0], "checkmate timeout");
        assert_eq!(answers[1].split_whitespace().count(), 1 + 7, "{out:?}");
        assert_eq!(answers[2], "bestmove resign");
        assert_eq!(answers[3], answers[1], "the solver works as before after the panics");
        assert_eq!(out.iter().filter(|l| *l == "readyok").count(), 2, "{out:?}");
    }
}
