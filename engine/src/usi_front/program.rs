//! `tsumugi` as a USI program. The protocol itself (threads, commands, stop and ponder
//! handling, waiting for a running search) is the loop shared with `tsumugi-mate`,
//! the `usi` crate; this file is what is particular to the playing engine:
//! - its options ([`crate::usi_front::options`]), which reach the search thread as parameters (a
//!   parameter set that cannot be built gets `info string error: ... (parameters unchanged)`);
//! - a `go` reads every field; a bad or unknown field is skipped with an `info string` (the GUI
//!   waits for a `bestmove`, and guessing the rest beats resigning);
//! - the time of a search is in its [`SearchControl`] (from the clock, [`crate::time_manager`]),
//!   which the search polls; the loop also stops it at the hard limit, counted from the `go`;
//! - `bestmove`: `win` when the search says the side to move may declare (checked with the
//!   rules), else the search's move (checked legal: a bad one is replaced by a legal move with
//!   an `info string` warning), `resign` only when there is no legal move; `ponder <move>` when
//!   `USI_Ponder` is on and the search predicts a legal reply;
//! - a `go` with a clock on a position of the `BookFile` book plays a book move at once
//!   ([`crate::usi_front::book_moves`]);
//! - `go mate` is answered by the df-pn solver as `tsumugi-mate` answers it: `checkmate
//!   <moves>`, `checkmate nomate` or `checkmate timeout`;
//! - a panic in the search is caught: `info string error: ...`, a legal move (or `checkmate
//!   timeout`), and a fresh engine for the next search.

use crate::params::Params;
use crate::search::control::SearchControl;
use crate::search::report::{Score, SearchInfo, SearchLimits, SearchOutcome};
use crate::time_manager::{Lateness, TimeBudget, TimeSettings};
use crate::usi_front::book_moves::LoadedBook;
use crate::usi_front::go::{time_control, GO_FIELDS};
use crate::usi_front::options::UsiOptions;
use crate::usi_front::worker::{
    EngineBackend, EngineConfig, EngineJob, EngineOutcome, EngineProgress,
};
use ::usi::info::{millis, nps};
use ::usi::{Finished, GoField, GoIssue, GoParams, Hold, Output, Plan, Timing, UsiProgram};
use shogi::movegen::{is_legal, legal_moves};
use shogi::{Move, MoveList, Position};
use solver::mate_line::moves_to_usi;
use solver::usi_mate::MateSearch;
use solver::Limits;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const ENGINE_NAME: &str = concat!("Tsumugi ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "The Tsumugi developers";

/// Runs the USI engine until `quit` or the end of `input`. Returns an error only when the
/// output cannot be written (or a thread cannot be started).
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, output: W) -> io::Result<()> {
    ::usi::run(PlayingEngine::default(), input, output)
}

// ----- output formatting -------------------------------------------------------------------

/// `cp 35` or `mate 7` / `mate -4` (plies, from the side to move).
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(plies) => format!("mate {plies}"),
    }
}

/// The `info` line of one search report; `multipv` is shown when MultiPV is above 1.
pub fn info_line(i: &SearchInfo, show_multipv: bool) -> String {
    if let Some(note) = &i.note {
        return format!("info string {note}");
    }
    let mut line = format!(
        "info depth {} seldepth {} time {} nodes {} nps {} hashfull {} score {}",
        i.depth,
        i.seldepth,
        millis(i.elapsed),
        i.nodes,
        nps(i.nodes, i.elapsed),
        i.hashfull,
        score_text(i.score)
    );
    if show_multipv {
        line.push_str(&format!(" multipv {}", i.multipv));
    }
    if !i.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&moves_to_usi(&i.pv));
    }
    line
}

fn first_legal_move(pos: &Position) -> Option<Move> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.first().copied()
}

/// The `bestmove` line for a search outcome at `root`, and warnings for `info string` when the
/// outcome had to be corrected (a search bug should be visible, and never lose the game).
pub fn bestmove_line(
    root: &Position,
    outcome: &SearchOutcome,
    ponder_enabled: bool,
) -> (String, Vec<String>) {
    let mut warnings = Vec::new();
    if outcome.declare_win {
        if root.can_declare_win() {
            return ("bestmove win".to_string(), warnings);
        }
        warnings.push("warning: the search declared a win the rules refuse".to_string());
    }
    let best = match outcome.best {
        Some(m) if is_legal(root, m) => Some(m),
        Some(m) => {
            warnings.push(format!("warning: the search chose an illegal move {m}"));
            first_legal_move(root)
        }
        None => {
            let fallback = first_legal_move(root);
            if fallback.is_some() {
                warnings.push("warning: the search gave no move; playing a legal one".to_string());
            }
            fallback
        }
    };
    let Some(best) = best else {
        return ("bestmove resign".to_string(), warnings);
    };
    let mut line = format!("bestmove {best}");
    if ponder_enabled && outcome.best == Some(best) {
        if let Some(p) = outcome.ponder {
            let mut after = root.clone();
            after.make_move(best);
            if is_legal(&after, p) {
                line.push_str(&format!(" ponder {p}"));
            }
        }
    }
    (line, warnings)
}

// ----- the program ---------------------------------------------------------------------------

/// A search for a move, as the loop keeps it.
pub struct PlaySearch {
    root: Position,
    /// The control shared with the search.
    control: Arc<SearchControl>,
    /// The clock after a `ponderhit`.
    ponder_budget: Option<TimeBudget>,
    ponder_enabled: bool,
    show_multipv: bool,
}

/// A running search, as the loop keeps it.
pub enum RunningSearch {
    Play(PlaySearch),
    Mate(MateSearch),
}

/// The playing engine: its options, its opening book, and how late its answers have lately
/// been (kept back from the next budgets besides `NetworkDelay`).
#[derive(Default)]
pub struct PlayingEngine {
    options: UsiOptions,
    book: Option<LoadedBook>,
    lateness: std::cell::Cell<Lateness>,
}

impl UsiProgram for PlayingEngine {
    type Backend = EngineBackend;
    type Search = RunningSearch;

    const NAME: &'static str = ENGINE_NAME;
    const AUTHOR: &'static str = ENGINE_AUTHOR;
    const SEARCHER: &'static str = "engine";
    const GO_FIELDS: &'static [GoField] = GO_FIELDS;

    fn backend(&self) -> EngineBackend {
        let params = self.options.effective_params().unwrap_or_else(|_| Params::default());
        EngineBackend::new(self.options.engine_config(params))
    }

    fn option_lines(&self) -> Vec<String> {
        self.options.option_lines()
    }

    fn set_option(&mut self, args: &str) -> Result<(), String> {
        let mut options = self.options.clone();
        options.apply_setoption(args)?;
        let loaded = self.book.as_ref().map(LoadedBook::path);
        if options.book_file.as_deref() != loaded {
            // Loaded now, so that a file that cannot be read is told to the one who set it.
            self.book = match &options.book_file {
                Some(path) => Some(LoadedBook::load(path).map_err(|e| format!("BookFile: {e}"))?),
                None => None,
            };
        }
        self.options = options;
        Ok(())
    }

    fn config(&self) -> Result<EngineConfig, String> {
        match self.options.effective_params() {
            Ok(params) => Ok(self.options.engine_config(params)),
            Err(e) => Err(format!("{e} (parameters unchanged)")),
        }
    }

    fn go(
        &self,
        go: &GoParams,
        issues: &[GoIssue],
        root: &Position,
        out: &mut Output<'_>,
    ) -> io::Result<Option<Plan<RunningSearch, EngineJob>>> {
        for issue in issues {
            out.info_string(&issue.to_string())?;
        }
        if let Some(book) = &self.book {
            if let Some(report) = book.take_report() {
                out.info_string(&report)?;
            }
            let analysis = go.ponder || go.infinite || go.depth.is_some() || go.nodes.is_some();
            let choice = (!analysis).then(|| book.choose(root, &self.options.book_policy));
            if let Some(choice) = choice.flatten() {
                out.info_string(&format!(
                    "book move {} (probability {:.3}, {} book positions)",
                    choice.mv,
                    choice.probability,
                    book.positions()
                ))?;
                let ponder = choice.ponder.filter(|_| self.options.ponder);
                let line = match ponder {
                    Some(p) => format!("bestmove {} ponder {p}", choice.mv),
                    None => format!("bestmove {}", choice.mv),
                };
                out.send(&line)?;
                return Ok(None);
            }
        }
        let side = root.side_to_move();
        let settings = TimeSettings {
            lateness_ms: self.lateness.get().margin_ms(),
            ..self.options.time_settings()
        };
        let hold = Hold::of(go);
        let budget = if go.infinite { None } else { time_control(go, side).budget(&settings) };
        let ponder_budget = if go.ponder {
            time_control(&GoParams { ponder: false, ..go.clone() }, side).budget(&settings)
        } else {
            None
        };
        if let Some((asked, kept)) = budget.or(ponder_budget).and_then(|b| b.delay_cut) {
            out.info_string(&format!(
                "NetworkDelay {asked} ms cut to {kept} ms for this move: the delay may take at \
                 most a third of the time the clock leaves"
            ))?;
        }
        let control = Arc::new(match budget {
            Some(b) if !go.ponder => b.control(false),
            _ => SearchControl::new(None, None, go.ponder),
        });
        let limits =
            SearchLimits { depth: go.depth, nodes: go.nodes, multipv: self.options.multipv };
        let go_time = Instant::now();
        let timing = Timing {
            hold,
            deadline: if hold.holds() {
                None
            } else {
                budget.and_then(|b| go_time.checked_add(b.hard))
            },
            time_after_start: None,
            finite: !hold.holds() && (budget.is_some() || go.depth.is_some() || go.nodes.is_some()),
        };
        let search = PlaySearch {
            root: root.clone(),
            control: Arc::clone(&control),
            ponder_budget,
            ponder_enabled: self.options.ponder,
            show_multipv: self.options.multipv > 1,
        };
        let job = EngineJob::Play { pos: Box::new(root.clone()), limits, control };
        Ok(Some(Plan { search: RunningSearch::Play(search), job, timing }))
    }

    fn go_mate(&self, time: Option<Duration>, root: &Position) -> Plan<RunningSearch, EngineJob> {
        MateSearch::plan(root, Limits { time, nodes: None }, solver::Rules::default())
            .map(RunningSearch::Mate, EngineJob::Mate)
    }

    fn stop(&self, search: &RunningSearch) {
        match search {
            RunningSearch::Play(s) => s.control.stop(),
            RunningSearch::Mate(s) => s.stop(),
        }
    }

    fn ponderhit(&self, search: &mut RunningSearch) -> Option<Duration> {
        let RunningSearch::Play(s) = search else {
            return None;
        };
        let budget = s.ponder_budget;
        s.control.ponderhit(budget.map(|b| b.soft), budget.map(|b| b.hard));
        budget.map(|b| b.hard)
    }

    fn progress(
        &self,
        search: &mut RunningSearch,
        report: EngineProgress,
        out: &mut Output<'_>,
    ) -> io::Result<()> {
        match (search, report) {
            (RunningSearch::Play(s), EngineProgress::Info(i)) => {
                out.send(&info_line(&i, s.show_multipv))
            }
            (RunningSearch::Mate(s), EngineProgress::Mate(p)) => s.progress(&p, out),
            // A job's reports always match its kind.
            _ => Ok(()),
        }
    }

    fn answer(
        &self,
        search: RunningSearch,
        finished: Finished<EngineOutcome>,
        out: &mut Output<'_>,
    ) -> io::Result<()> {
        match (search, finished) {
            (RunningSearch::Play(s), Finished::Done(EngineOutcome::Play(o))) => {
                if let Some(overrun) = s.control.overrun() {
                    let mut lateness = self.lateness.get();
                    lateness.record(overrun);
                    self.lateness.set(lateness);
                }
                if let Some(note) = &o.note {
                    out.info_string(note)?;
                }
                let (line, warnings) = bestmove_line(&s.root, &o, s.ponder_enabled);
                for w in warnings {
                    out.info_string(&w)?;
                }
                out.send(&line)
            }
            (RunningSearch::Mate(s), Finished::Done(EngineOutcome::Mate(r))) => s.answer(&r, out),
            // The loop has said why (`info string error: the search failed: ...`).
            (search, Finished::Failed(_)) => match search {
                RunningSearch::Mate(_) => out.send("checkmate timeout"),
                RunningSearch::Play(s) => match first_legal_move(&s.root) {
                    Some(m) => out.send(&format!("bestmove {m}")),
                    None => out.send("bestmove resign"),
                },
            },
            // A job's answer always matches its kind.
            (RunningSearch::Play(_), Finished::Done(EngineOutcome::Mate(_)))
            | (RunningSearch::Mate(_), Finished::Done(EngineOutcome::Play(_))) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_script(script: &str) -> Vec<String> {
        ::usi::transcript(PlayingEngine::default(), script)
            .unwrap_or_else(|e| panic!("run failed: {e}"))
    }

    fn count(out: &[String], prefix: &str) -> usize {
        out.iter().filter(|l| l.starts_with(prefix)).count()
    }

    #[test]
    fn bestmove_corrects_bad_outcomes() {
        let root = Position::startpos();
        let m = root.parse_usi_move("7g7f").unwrap_or_else(|e| panic!("{e}"));
        let mut after = root.clone();
        after.make_move(m);
        let reply = after.parse_usi_move("3c3d").unwrap_or_else(|e| panic!("{e}"));
        let o = SearchOutcome {
            best: Some(m),
            ponder: Some(reply),
            declare_win: false,
            score: Score::Cp(0),
            nodes: 1,
            note: None,
        };
        assert_eq!(bestmove_line(&root, &o, true).0, "bestmove 7g7f ponder 3c3d");
        assert_eq!(bestmove_line(&root, &o, false).0, "bestmove 7g7f");
        // A ponder move that is illegal after the best move is left out.
        let o2 = SearchOutcome { ponder: Some(m), ..o.clone() };
        assert_eq!(bestmove_line(&root, &o2, true).0, "bestmove 7g7f");
        // No move while legal moves exist: play one; a false declaration: play on.
        let none = SearchOutcome { best: None, declare_win: true, ..o.clone() };
        let (line, warnings) = bestmove_line(&root, &none, true);
        assert!(line.starts_with("bestmove ") && line != "bestmove resign", "{line}");
        assert_eq!(warnings.len(), 2);
        // Mated: resign.
        let mated =
            Position::from_sfen("4k4/4G4/4P4/9/9/9/9/9/9 w - 1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(bestmove_line(&mated, &none, false).0, "bestmove resign");
    }

    #[test]
    fn info_lines() {
        let i = SearchInfo {
            depth: 5,
            seldepth: 9,
            elapsed: Duration::from_millis(200),
            nodes: 10_000,
            hashfull: 12,
            multipv: 2,
            score: Score::Mate(-4),
            pv: vec![],
            note: None,
        };
        assert_eq!(
            info_line(&i, true),
            "info depth 5 seldepth 9 time 200 nodes 10000 nps 50000 hashfull 12 score mate -4 \
             multipv 2"
        );
    }

    #[test]
    fn scripted_session() {
        let out = run_script(
            "usi\nisready\nusinewgame\nposition startpos moves 7g7f\ngo depth 1\nisready\n\
             hello\nposition sfen bad\ngo infinite\nstop\nquit\n",
        );
        assert_eq!(out[0], format!("id name {ENGINE_NAME}"));
        assert_eq!(count(&out, "bestmove"), 2, "{out:?}");
        assert_eq!(count(&out, "readyok"), 2, "{out:?}");
        // The two bad lines (`hello`, the bad SFEN); a note on the table's pages may come
        // too, depending on the system.
        let notes =
            out.iter().filter(|l| l.starts_with("info string") && !l.contains("hash table"));
        assert_eq!(notes.count(), 2, "{out:?}");
    }

    /// Random sessions of real and broken commands: the loop never panics, answers every
    /// `go`, and still answers `isready` at the end.
    #[test]
    fn random_sessions_never_break_the_loop() {
        let fuzz = ::usi::fuzz::Fuzz {
            program_words: &["MultiPV", "soppo_mode", "Soppo", "DS"],
            go_limits: &["movetime 20", "depth 1", "nodes 300", "mate 20"],
            seed: 0x2545_f491_4f6c_dd1d,
            sessions: 4,
            lines_per_session: 60,
        };
        let answers = fuzz.run(PlayingEngine::default).unwrap_or_else(|e| panic!("{e}"));
        assert!(answers >= 8, "only {answers} answers");
    }

    /// A panic in a search (a bug injected after 7g7f) costs that search's answer only: the
    /// loop says why, the engine plays a legal move (or `checkmate timeout`), and the next
    /// searches are answered as before.
    #[test]
    fn a_panic_in_the_search_costs_one_answer_not_the_engine() {
        const PANICS_AFTER: &str =
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
        let faulty = ::usi::fault::Faulty {
            program: PlayingEngine::default(),
            panics_on: |job: &EngineJob| match job {
                EngineJob::Play { pos, .. } => pos.to_sfen() == PANICS_AFTER,
                EngineJob::Mate(mate) => mate.pos.to_sfen() == PANICS_AFTER,
            },
        };
        let script = "setoption name USI_Hash value 1
position startpos moves 7g7f
go depth 2
                      go mate 100
position startpos
go depth 2
isready
";
        let out = ::usi::transcript(faulty, script).unwrap_or_else(|e| panic!("run failed: {e}"));
        let answers = ::usi::fault::answers_after_faults(&out, 2).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(answers.len(), 3, "{out:?}");
        let after = Position::from_sfen(PANICS_AFTER).unwrap_or_else(|e| panic!("{e}"));
        let played = answers[0].strip_prefix("bestmove ").map(|m| after.parse_usi_move(m));
        assert!(played.is_some_and(|m| m.is_ok_and(|m| is_legal(&after, m))), "{out:?}");
        assert_eq!(answers[1], "checkmate timeout");
        assert!(answers[2].starts_with("bestmove ") && answers[2] != "bestmove resign");
        assert!(out.iter().any(|l| l == "readyok"), "{out:?}");
    }

    #[test]
    fn keeps_the_protocols_promises() {
        ::usi::conformance::check(PlayingEngine::default).unwrap_or_else(|e| panic!("{e}"));
    }
}
