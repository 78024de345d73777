//! The USI protocol loop of `tsumugi`.
//!
//! Three threads: a reader that turns the input into lines, the worker ([`crate::usi_worker`])
//! that owns the engine and runs one search at a time, and this loop, which owns the output and
//! waits on both. So `stop`, `ponderhit`, `isready` and `quit` are read and answered while a
//! search runs. The time of a search is in its [`SearchControl`], which the search polls; the
//! loop also stops the search itself at the hard limit, in case a search polls only the flag.
//!
//! Behaviour at the edges (none of these crash the engine):
//! - an unknown or malformed command gets `info string ...` and is otherwise ignored; a bad
//!   field of `go` is skipped with an `info string` (the GUI waits for a `bestmove`);
//! - a bad `position` (malformed SFEN, illegal move) keeps the previous position;
//! - `go` while a search with a limit runs waits for it to answer (input is read no further
//!   meanwhile, so a script can pipe several searches); `go` while an unlimited search runs is
//!   refused with `info string`; `position`, `setoption`, `usinewgame` apply to the next search;
//! - `go infinite` holds its `bestmove` until `stop`; `go ponder` until `ponderhit` (then the
//!   clock of the `go ponder` starts) or `stop`: never before, even if the search ends early;
//! - `gameover` stops a running search; `quit` stops it, prints its answer and returns; the end
//!   of input is `quit`, except that a search with a limit may finish first;
//! - `bestmove`: `win` when the search says the side to move may declare (checked with the
//!   rules), else the search's move (checked legal: a bad one is replaced by a legal move with
//!   an `info string` warning), `resign` only when there is no legal move; `ponder <move>` when
//!   `USI_Ponder` is on and the search predicts a legal reply;
//! - `go mate` is answered by the df-pn solver as `tsumugi-mate` answers it: `checkmate
//!   <moves>`, `checkmate nomate` or `checkmate timeout`;
//! - a panic in the search is caught: `info string error: ...`, a legal move (or `checkmate
//!   timeout`), and a fresh engine for the next search.

use crate::control::SearchControl;
use crate::params::Params;
use crate::report::{Score, SearchInfo, SearchLimits, SearchOutcome};
use crate::time_manager::TimeBudget;
use crate::usi_go::{parse_go, GoCommand, GoParams};
use crate::usi_options::UsiOptions;
use crate::usi_worker::{worker_loop, Event, Job, SEARCH_STACK_BYTES};
use crossbeam_channel::{select, unbounded, Receiver, Sender};
use shogi::movegen::{is_legal, legal_moves};
use shogi::{parse_position_command, Move, MoveList, Position};
use solver::mate_line::{moves_to_usi, verify_mate_line};
use solver::usi_engine::progress_info;
use solver::{Limits, Outcome, SolveResult};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

pub const ENGINE_NAME: &str = concat!("Tsumugi ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "The Tsumugi developers";

// ----- output formatting -------------------------------------------------------------------

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros().max(1);
    u64::try_from(u128::from(nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
}

/// `cp 35` or `mate 7` / `mate -4` (plies, from the side to move).
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(plies) => format!("mate {plies}"),
    }
}

/// The `info` line of one search report; `multipv` is shown when MultiPV is above 1.
pub fn info_line(i: &SearchInfo, show_multipv: bool) -> String {
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

// ----- the loop ------------------------------------------------------------------------------

enum Input {
    Line(String),
    End,
}

fn spawn_reader<R: BufRead + Send + 'static>(mut input: R) -> io::Result<Receiver<Input>> {
    let (tx, rx) = unbounded();
    thread::Builder::new().name("usi-input".to_string()).spawn(move || {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    if tx.send(Input::Line(line)).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = tx.send(Input::End);
    })?;
    Ok(rx)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Play,
    Mate,
}

enum Finished {
    Play(SearchOutcome),
    Mate(SolveResult),
    Failed(String),
}

/// A running search as the loop sees it.
struct Running {
    kind: Kind,
    root: Position,
    /// Play: the control shared with the search.
    control: Arc<SearchControl>,
    /// Mate: the solver's stop flag.
    mate_stop: Arc<AtomicBool>,
    /// Mate: the time limit, counted from [`Event::Started`].
    mate_time: Option<Duration>,
    /// When the loop stops the search itself.
    deadline: Option<Instant>,
    /// `go infinite` (until `stop`) or `go ponder` (until `ponderhit` or `stop`).
    hold: bool,
    pondering: bool,
    /// The clock after a `ponderhit`.
    ponder_budget: Option<TimeBudget>,
    /// Whether the search answers by itself (a limit, nothing held).
    finite: bool,
    stop_requested: bool,
    held: Option<Finished>,
    ponder_enabled: bool,
    show_multipv: bool,
    hashfull: u32,
}

struct Usi<W: Write> {
    out: W,
    position: Position,
    options: UsiOptions,
    /// Options changed since the worker was last configured.
    dirty: bool,
    jobs: Option<Sender<Job>>,
    events: Receiver<Event>,
    worker: Option<thread::JoinHandle<()>>,
    search: Option<Running>,
    /// The arguments of a `go` that waits for the running search to answer.
    pending_go: Option<String>,
    quitting: bool,
}

/// Runs the USI protocol until `quit` or the end of `input`. Returns an error only when the
/// output cannot be written (or a thread cannot be started).
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, output: W) -> io::Result<()> {
    let lines = spawn_reader(input)?;
    let mut usi = Usi::new(output)?;
    let result = usi.main_loop(&lines);
    usi.shut_down();
    result
}

impl<W: Write> Usi<W> {
    fn new(out: W) -> io::Result<Usi<W>> {
        let options = UsiOptions::default();
        let (job_tx, job_rx) = unbounded();
        let (event_tx, event_rx) = unbounded();
        let params = options.effective_params().unwrap_or_else(|_| Params::default());
        let hash_mb = options.hash_mb;
        let worker = thread::Builder::new()
            .name("search".to_string())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || worker_loop(job_rx, event_tx, params, hash_mb))?;
        Ok(Usi {
            out,
            position: Position::startpos(),
            options,
            dirty: false,
            jobs: Some(job_tx),
            events: event_rx,
            worker: Some(worker),
            search: None,
            pending_go: None,
            quitting: false,
        })
    }

    fn send(&mut self, line: &str) -> io::Result<()> {
        self.out.write_all(line.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    fn info_string(&mut self, text: &str) -> io::Result<()> {
        // One line: a newline inside would end the info line early.
        let text = text.replace(['\r', '\n'], " ");
        self.send(&format!("info string {text}"))
    }

    fn submit(&self, job: Job) -> bool {
        self.jobs.as_ref().is_some_and(|j| j.send(job).is_ok())
    }

    /// Sends changed options to the worker (before the next job that uses them).
    fn configure(&mut self) -> io::Result<()> {
        if !self.dirty {
            return Ok(());
        }
        self.dirty = false;
        match self.options.effective_params() {
            Ok(params) => {
                let job =
                    Job::Configure { params: Box::new(params), hash_mb: self.options.hash_mb };
                self.submit(job);
                Ok(())
            }
            Err(e) => self.info_string(&format!("error: {e} (parameters unchanged)")),
        }
    }

    fn main_loop(&mut self, lines: &Receiver<Input>) -> io::Result<()> {
        let events = self.events.clone();
        let mut input_open = true;
        loop {
            if (self.quitting || !input_open) && self.search.is_none() {
                return Ok(());
            }
            if self.search.is_none() {
                if let Some(args) = self.pending_go.take() {
                    self.go(&args)?;
                    continue;
                }
            }
            let line_rx = if input_open && !self.quitting && self.pending_go.is_none() {
                lines.clone()
            } else {
                crossbeam_channel::never()
            };
            let deadline_rx = match self.search.as_ref() {
                Some(s) if !s.stop_requested && s.held.is_none() => match s.deadline {
                    Some(d) => crossbeam_channel::at(d),
                    None => crossbeam_channel::never(),
                },
                _ => crossbeam_channel::never(),
            };
            select! {
                recv(line_rx) -> msg => match msg {
                    Ok(Input::Line(line)) => self.handle_line(&line)?,
                    Ok(Input::End) | Err(_) => {
                        input_open = false;
                        if self.search.as_ref().is_some_and(|s| !s.finite) {
                            self.request_stop()?;
                        }
                    }
                },
                recv(events) -> ev => match ev {
                    Ok(ev) => self.handle_event(ev)?,
                    Err(_) => {
                        // The worker is gone (cannot happen short of an abort): answer and end.
                        self.finish(Finished::Failed("the search thread has gone".to_string()))?;
                        return Ok(());
                    }
                },
                recv(deadline_rx) -> _ => self.stop_search(),
            }
        }
    }

    fn shut_down(&mut self) {
        if let Some(s) = &self.search {
            s.control.stop();
            s.mate_stop.store(true, Ordering::SeqCst);
        }
        self.jobs = None;
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }

    fn handle_line(&mut self, raw: &str) -> io::Result<()> {
        let line = raw.trim();
        if line.is_empty() {
            return Ok(());
        }
        let (cmd, args) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        match cmd {
            "usi" => {
                self.send(&format!("id name {ENGINE_NAME}"))?;
                self.send(&format!("id author {ENGINE_AUTHOR}"))?;
                for l in self.options.option_lines() {
                    self.send(&l)?;
                }
                self.send("usiok")
            }
            "isready" => {
                if self.search.is_none() {
                    self.configure()?;
                    let (tx, rx) = crossbeam_channel::bounded(1);
                    if !self.submit(Job::Sync(tx)) || rx.recv().is_err() {
                        self.info_string("error: the engine could not be set up")?;
                    }
                }
                self.send("readyok")
            }
            "setoption" => match self.options.apply_setoption(args) {
                Ok(()) => {
                    self.dirty = true;
                    Ok(())
                }
                Err(e) => self.info_string(&format!("error: {e}")),
            },
            "usinewgame" => {
                self.configure()?;
                self.submit(Job::Clear);
                Ok(())
            }
            "position" => match parse_position_command(line) {
                Ok(p) => {
                    self.position = p;
                    Ok(())
                }
                Err(e) => self.info_string(&format!("error: {e} (position unchanged)")),
            },
            "go" => self.go(args),
            "stop" => self.request_stop(),
            "ponderhit" => self.ponderhit(),
            "gameover" => {
                if self.search.is_some() {
                    self.request_stop()?;
                }
                Ok(())
            }
            "quit" => {
                self.quitting = true;
                if self.search.is_some() {
                    self.request_stop()?;
                }
                Ok(())
            }
            _ => {
                let shown: String = line.chars().take(200).collect();
                self.info_string(&format!("unknown command: {shown}"))
            }
        }
    }

    fn go(&mut self, args: &str) -> io::Result<()> {
        if let Some(s) = &self.search {
            // A search that answers by itself (or was stopped) is waited for; an unlimited one
            // could make the wait endless.
            if s.finite || s.stop_requested {
                self.pending_go = Some(args.to_string());
                return Ok(());
            }
            return self.info_string("error: a search is already running (send stop first)");
        }
        let (command, warnings) = match parse_go(args) {
            Ok(c) => c,
            Err(e) => {
                // A malformed `go mate`: the GUI waits for an answer.
                self.info_string(&format!("error: {e}"))?;
                return self.send("checkmate timeout");
            }
        };
        for w in warnings {
            self.info_string(&w)?;
        }
        self.configure()?;
        match command {
            GoCommand::Mate { time } => self.go_mate(time),
            GoCommand::Play(go) => self.go_play(&go),
        }
    }

    fn go_play(&mut self, go: &GoParams) -> io::Result<()> {
        let side = self.position.side_to_move();
        let settings = self.options.time_settings();
        let hold = go.infinite || go.ponder;
        let budget = if go.infinite { None } else { go.time_control(side).budget(&settings) };
        let ponder_budget = if go.ponder {
            GoParams { ponder: false, ..go.clone() }.time_control(side).budget(&settings)
        } else {
            None
        };
        let control = Arc::new(match budget {
            Some(b) if !go.ponder => b.control(false),
            _ => SearchControl::new(None, None, go.ponder),
        });
        let limits =
            SearchLimits { depth: go.depth, nodes: go.nodes, multipv: self.options.multipv };
        let go_time = Instant::now();
        let running = Running {
            kind: Kind::Play,
            root: self.position.clone(),
            control: Arc::clone(&control),
            mate_stop: Arc::new(AtomicBool::new(false)),
            mate_time: None,
            deadline: if hold { None } else { budget.and_then(|b| go_time.checked_add(b.hard)) },
            hold,
            pondering: go.ponder,
            ponder_budget,
            finite: !hold && (budget.is_some() || go.depth.is_some() || go.nodes.is_some()),
            stop_requested: false,
            held: None,
            ponder_enabled: self.options.ponder,
            show_multipv: self.options.multipv > 1,
            hashfull: 0,
        };
        let job = Job::Search { pos: Box::new(self.position.clone()), limits, control };
        self.start(running, job)
    }

    fn go_mate(&mut self, time: Option<Duration>) -> io::Result<()> {
        let stop = Arc::new(AtomicBool::new(false));
        let running = Running {
            kind: Kind::Mate,
            root: self.position.clone(),
            control: Arc::new(SearchControl::unlimited()),
            mate_stop: Arc::clone(&stop),
            mate_time: time,
            deadline: None,
            hold: false,
            pondering: false,
            ponder_budget: None,
            finite: time.is_some(),
            stop_requested: false,
            held: None,
            ponder_enabled: false,
            show_multipv: false,
            hashfull: 0,
        };
        let limits = Limits { time, nodes: None };
        let job = Job::Mate { pos: Box::new(self.position.clone()), limits, stop };
        self.start(running, job)
    }

    fn start(&mut self, running: Running, job: Job) -> io::Result<()> {
        self.search = Some(running);
        if !self.submit(job) {
            return self.finish(Finished::Failed("the search thread has gone".to_string()));
        }
        Ok(())
    }

    /// Raises the stop flags of the running search (the deadline, `stop`, `quit`).
    fn stop_search(&mut self) {
        if let Some(s) = self.search.as_mut() {
            s.stop_requested = true;
            s.control.stop();
            s.mate_stop.store(true, Ordering::SeqCst);
        }
    }

    /// `stop` (and `quit`, `gameover`, end of input): stop, and give a held answer.
    fn request_stop(&mut self) -> io::Result<()> {
        if self.search.is_none() {
            return Ok(());
        }
        self.stop_search();
        if let Some(s) = self.search.as_mut() {
            s.hold = false;
            s.pondering = false;
            if let Some(done) = s.held.take() {
                return self.finish(done);
            }
        }
        Ok(())
    }

    fn ponderhit(&mut self) -> io::Result<()> {
        let Some(s) = self.search.as_mut() else {
            return Ok(());
        };
        if !s.pondering {
            // `go infinite` is not pondering: only `stop` ends it.
            return Ok(());
        }
        s.pondering = false;
        s.hold = false;
        s.finite = true;
        let budget = s.ponder_budget;
        s.control.ponderhit(budget.map(|b| b.soft), budget.map(|b| b.hard));
        s.deadline = budget.and_then(|b| Instant::now().checked_add(b.hard));
        if let Some(done) = s.held.take() {
            return self.finish(done);
        }
        Ok(())
    }

    fn handle_event(&mut self, ev: Event) -> io::Result<()> {
        match ev {
            Event::Started => {
                if let Some(s) = self.search.as_mut() {
                    if s.kind == Kind::Mate {
                        s.deadline = s.mate_time.and_then(|t| Instant::now().checked_add(t));
                    }
                }
                Ok(())
            }
            Event::Info(i) => {
                let Some(s) = self.search.as_mut() else {
                    return Ok(());
                };
                s.hashfull = i.hashfull;
                let line = info_line(&i, s.show_multipv);
                self.send(&line)
            }
            Event::MateProgress(p) => {
                if let Some(s) = self.search.as_mut() {
                    s.hashfull = p.hashfull;
                    self.send(&progress_info(&p))?;
                }
                Ok(())
            }
            Event::Done(o) => self.finish(Finished::Play(o)),
            Event::MateDone(r) => self.finish(Finished::Mate(r)),
            Event::Failed(msg) => self.finish(Finished::Failed(msg)),
        }
    }

    /// The search ended: answer, or keep the answer while it is held.
    fn finish(&mut self, done: Finished) -> io::Result<()> {
        let Some(mut s) = self.search.take() else {
            return Ok(());
        };
        if s.hold && !s.stop_requested {
            s.held = Some(done);
            self.search = Some(s);
            return Ok(());
        }
        match (s.kind, done) {
            (Kind::Play, Finished::Play(o)) => {
                let (line, warnings) = bestmove_line(&s.root, &o, s.ponder_enabled);
                for w in warnings {
                    self.info_string(&w)?;
                }
                self.send(&line)
            }
            (Kind::Mate, Finished::Mate(r)) => self.report_mate(&s, &r),
            (kind, Finished::Failed(msg)) => {
                self.info_string(&format!("error: the search failed: {msg}"))?;
                if kind == Kind::Mate {
                    return self.send("checkmate timeout");
                }
                let line = match first_legal_move(&s.root) {
                    Some(m) => format!("bestmove {m}"),
                    None => "bestmove resign".to_string(),
                };
                self.send(&line)
            }
            // A job's answer always matches its kind.
            (Kind::Play, Finished::Mate(_)) | (Kind::Mate, Finished::Play(_)) => Ok(()),
        }
    }

    /// The answer to `go mate`, as `tsumugi-mate` gives it.
    fn report_mate(&mut self, s: &Running, r: &SolveResult) -> io::Result<()> {
        let mut info = format!(
            "info time {} nodes {} nps {} hashfull {}",
            millis(r.elapsed),
            r.nodes,
            nps(r.nodes, r.elapsed),
            s.hashfull
        );
        if let Outcome::Mate(moves) = &r.outcome {
            if let Err(e) = verify_mate_line(&s.root, moves) {
                self.info_string(&format!(
                    "warning: the search's mate line fails the rules check: {e}"
                ))?;
            }
            if !moves.is_empty() {
                info.push_str(" pv ");
                info.push_str(&moves_to_usi(moves));
            }
        }
        self.send(&info)?;
        match &r.outcome {
            Outcome::Mate(moves) if moves.is_empty() => {
                self.info_string("the side to move is already mated")?;
                self.send("checkmate nomate")
            }
            Outcome::Mate(moves) => self.send(&format!("checkmate {}", moves_to_usi(moves))),
            Outcome::NoMate => self.send("checkmate nomate"),
            Outcome::Timeout => self.send("checkmate timeout"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn run_script(script: &str) -> Vec<String> {
        let mut out = Vec::new();
        let input = Cursor::new(script.as_bytes().to_vec());
        if let Err(e) = run(input, &mut out) {
            panic!("run failed: {e}");
        }
        String::from_utf8_lossy(&out).lines().map(str::to_string).collect()
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
        assert_eq!(count(&out, "info string"), 2, "{out:?}");
    }

    /// Random sessions of real and broken commands: the loop never panics, answers every
    /// `go`, and still answers `isready` at the end.
    #[test]
    fn random_sessions_never_break_the_loop() {
        let words = [
            "usi",
            "isready",
            "usinewgame",
            "position",
            "startpos",
            "sfen",
            "moves",
            "7g7f",
            "3c3d",
            "8h2b+",
            "P*5e",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
            "b",
            "w",
            "-",
            "1",
            "go",
            "ponder",
            "infinite",
            "btime",
            "wtime",
            "byoyomi",
            "binc",
            "winc",
            "depth",
            "nodes",
            "mate",
            "stop",
            "ponderhit",
            "setoption",
            "name",
            "value",
            "USI_Ponder",
            "true",
            "MultiPV",
            "soppo_mode",
            "Soppo",
            "DS",
            "gameover",
            "win",
            "-7",
            "x",
            "\u{0}",
            "ÿ",
            "",
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut answers = 0;
        for _ in 0..4 {
            let mut script = String::from("setoption name USI_Hash value 1\n");
            for _ in 0..60 {
                let commands = [
                    "usi",
                    "isready",
                    "usinewgame",
                    "position",
                    "go",
                    "go",
                    "stop",
                    "ponderhit",
                    "setoption",
                    "gameover",
                    "junk",
                ];
                let len = next(6);
                let mut line = vec![commands[next(commands.len())]];
                line.extend((0..len).map(|_| words[next(words.len())]));
                // Every `go` gets a small limit in front, so the session stays short.
                if line[0] == "go" {
                    let limit = ["movetime 20", "depth 1", "nodes 300", "mate 20"][next(4)];
                    line.insert(1, limit);
                }
                script.push_str(&line.join(" "));
                script.push('\n');
            }
            script.push_str("stop\nisready\n");
            let out = run_script(&script);
            assert!(out.iter().any(|l| l == "readyok"), "{script}\n{out:?}");
            answers += count(&out, "bestmove") + count(&out, "checkmate");
            // After the last `readyok`, only the answer of a search stopped just before.
            let mut tail = out.iter().rev().take_while(|l| l.as_str() != "readyok");
            assert!(
                tail.all(|l| ["bestmove", "checkmate", "info"].iter().any(|p| l.starts_with(p))),
                "{script}\n{out:?}"
            );
        }
        assert!(answers >= 8, "only {answers} answers");
    }

    #[test]
    fn end_of_input_stops_unlimited_searches() {
        let out = run_script("go infinite\n");
        assert_eq!(count(&out, "bestmove"), 1, "{out:?}");
        let out = run_script("go ponder btime 1000 wtime 1000\n");
        assert_eq!(count(&out, "bestmove"), 1, "{out:?}");
        let out = run_script("go mate infinite\n");
        assert_eq!(count(&out, "checkmate"), 1, "{out:?}");
    }
}
