//! The USI front end of `tsumugi-mate`: a mate engine that answers `go mate` with `checkmate ...`
//! and plain `go` with the first move of a mate (or `resign`).
//!
//! Three threads: a reader that turns the input into lines, a worker that owns the [`Solver`]
//! and runs one job at a time (configure, clear, sync, solve), and the protocol loop, which owns
//! the output and waits on both. So `stop`, `isready` and `quit` are read and answered while a
//! search runs: `stop` sets the shared flag the solver polls, and the loop also sets it itself
//! when a search's time is up, so a time limit holds even if the solver only watches the flag.
//!
//! Behaviour at the edges (none of these crash the engine):
//! - an unknown or malformed command gets `info string ...` and is otherwise ignored;
//! - a bad `position` keeps the previous position;
//! - `go` while a search with a time or node limit runs waits for that search to answer (input
//!   is read no further meanwhile), so a script can pipe several problems in one go; `go` while
//!   an unlimited search runs is refused (`info string error: ...`), as waiting could be
//!   forever; `position`, `setoption` and `usinewgame` during a search apply to the next one;
//! - `go infinite`/`go ponder` hold their `bestmove` until `stop` (or `ponderhit`, which then
//!   gives the search the time of the `go ponder` clock), as USI requires;
//! - `gameover` stops a running search; `quit` stops it, prints its answer and returns;
//! - end of input behaves like `quit`, except that a search with a time or node limit is first
//!   allowed to finish (so `echo 'position ...\ngo mate 1000' | tsumugi-mate` answers);
//! - a panic in the search is caught: `info string error: ...`, the answer `checkmate timeout`
//!   (or `bestmove resign`), and a fresh solver for the next search;
//! - a mate line that fails the rules check ([`verify_mate_line`]) is still sent, after an
//!   `info string warning: ...` (a search bug should be visible, not hidden).
//!
//! The solver (and its table) is created at the first `isready` or `go`, so `USI_Hash` set after
//! `usi` does not first allocate the default size; `isready` waits for it.

use crate::config::{DoubleCount, SolverConfig};
use crate::mate_line::{moves_to_usi, root_defends, verify_mate_line};
use crate::outcome::{Limits, Outcome, Progress, SolveResult};
use crate::search::Solver;
use crossbeam_channel::{select, unbounded, Receiver, Sender};
use shogi::{parse_position_command, Color, Position};
use std::any::Any;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

pub const ENGINE_NAME: &str = "Tsumugi-mate";
pub const ENGINE_AUTHOR: &str = "The Tsumugi developers";

/// Bounds of the `USI_Hash` option, in MiB.
pub const HASH_MIN_MB: usize = 1;
pub const HASH_MAX_MB: usize = 65536;
/// Upper bound of the `NodeLimit` option (0 = unlimited).
pub const NODE_LIMIT_MAX: u64 = 1_000_000_000_000;
/// Time given to a plain `go` without any clock.
pub const DEFAULT_GO_TIME: Duration = Duration::from_secs(10);

// ----- options -------------------------------------------------------------------------------

/// Everything `setoption` can change.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct EngineOptions {
    pub solver: SolverConfig,
    /// Nodes per search; 0 = unlimited.
    pub node_limit: u64,
}

impl EngineOptions {
    /// The `option ...` lines of the `usi` answer.
    pub fn usi_option_lines(&self) -> Vec<String> {
        let defaults = EngineOptions::default();
        let mut combo = format!(
            "option name DoubleCount type combo default {}",
            defaults.solver.double_count.name()
        );
        for name in DoubleCount::NAMES {
            combo.push_str(" var ");
            combo.push_str(name);
        }
        vec![
            format!(
                "option name USI_Hash type spin default {} min {HASH_MIN_MB} max {HASH_MAX_MB}",
                defaults.solver.hash_mb
            ),
            combo,
            format!(
                "option name NodeLimit type spin default {} min 0 max {NODE_LIMIT_MAX}",
                defaults.node_limit
            ),
        ]
    }

    /// Applies one `setoption` (everything after the word `setoption`).
    pub fn apply_setoption(&mut self, args: &str) -> Result<(), String> {
        let (name, value) = parse_setoption(args)?;
        let value = value.as_deref();
        let need = |v: Option<&str>| -> Result<String, String> {
            v.map(str::to_string).ok_or_else(|| format!("option {name} needs a value"))
        };
        match name.to_ascii_lowercase().as_str() {
            "usi_hash" => {
                let v = need(value)?;
                let mb = parse_in_range(&v, HASH_MIN_MB as u64, HASH_MAX_MB as u64)
                    .map_err(|e| format!("USI_Hash: {e}"))?;
                self.solver.hash_mb = mb as usize;
            }
            "doublecount" => {
                let v = need(value)?;
                self.solver.double_count = DoubleCount::from_name(&v).ok_or_else(|| {
                    format!("DoubleCount: {v:?} is not one of {}", DoubleCount::NAMES.join(", "))
                })?;
            }
            "nodelimit" => {
                let v = need(value)?;
                self.node_limit =
                    parse_in_range(&v, 0, NODE_LIMIT_MAX).map_err(|e| format!("NodeLimit: {e}"))?;
            }
            // Sent by GUIs whether or not the engine lists it; there is nothing to ponder.
            "usi_ponder" => {}
            _ => return Err(format!("unknown option {name:?}")),
        }
        Ok(())
    }

    fn limits(&self, time: Option<Duration>) -> Limits {
        Limits { time, nodes: (self.node_limit > 0).then_some(self.node_limit) }
    }
}

/// Splits `name <id> [value <x>]` (the option name may contain spaces, as USI allows).
pub fn parse_setoption(args: &str) -> Result<(String, Option<String>), String> {
    let mut tokens = args.split_whitespace();
    if tokens.next() != Some("name") {
        return Err("usage: setoption name <id> [value <x>]".to_string());
    }
    let mut name = Vec::new();
    let mut value: Option<Vec<&str>> = None;
    for t in tokens {
        match value.as_mut() {
            Some(v) => v.push(t),
            None if t == "value" => value = Some(Vec::new()),
            None => name.push(t),
        }
    }
    if name.is_empty() {
        return Err("setoption without an option name".to_string());
    }
    Ok((name.join(" "), value.map(|v| v.join(" "))))
}

fn parse_in_range(text: &str, min: u64, max: u64) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("{text:?} is not an integer between {min} and {max}")),
    }
}

// ----- go ------------------------------------------------------------------------------------

/// The clock of a plain `go`, in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoClock {
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub binc: Option<u64>,
    pub winc: Option<u64>,
    pub byoyomi: Option<u64>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
}

impl GoClock {
    /// A rough budget for a mate search standing in for a move decision: `movetime` if given,
    /// else 1/20 of the remaining time plus the increment plus the byoyomi, less a 100 ms
    /// margin (at least 10 ms); 10 s without a clock. `None` (unlimited) for `infinite`.
    pub fn budget(&self, side: Color) -> Option<Duration> {
        if self.infinite {
            return None;
        }
        self.thinking_time(side)
    }

    /// As [`GoClock::budget`], ignoring `infinite`/`ponder`: the time after a `ponderhit`.
    pub fn thinking_time(&self, side: Color) -> Option<Duration> {
        if let Some(ms) = self.movetime {
            return Some(Duration::from_millis(ms));
        }
        let (time, inc) = match side {
            Color::Black => (self.btime, self.binc),
            Color::White => (self.wtime, self.winc),
        };
        if time.is_none() && inc.is_none() && self.byoyomi.is_none() {
            return Some(DEFAULT_GO_TIME);
        }
        let ms = time.unwrap_or(0) / 20 + inc.unwrap_or(0) + self.byoyomi.unwrap_or(0);
        Some(Duration::from_millis(ms.saturating_sub(100).max(10)))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoCommand {
    /// `go mate <ms>|infinite`: answer with `checkmate ...`; `None` = no time limit.
    Mate { time: Option<Duration> },
    /// Any other `go`: answer with `bestmove ...`.
    Play(GoClock),
}

/// Parses the arguments of `go` (everything after the word).
pub fn parse_go(args: &str) -> Result<GoCommand, String> {
    let mut tokens = args.split_whitespace().peekable();
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
        return Ok(GoCommand::Mate { time });
    }
    let mut clock = GoClock::default();
    while let Some(t) = tokens.next() {
        let slot = match t {
            "btime" => &mut clock.btime,
            "wtime" => &mut clock.wtime,
            "binc" => &mut clock.binc,
            "winc" => &mut clock.winc,
            "byoyomi" => &mut clock.byoyomi,
            "movetime" => &mut clock.movetime,
            "infinite" => {
                clock.infinite = true;
                continue;
            }
            "ponder" => {
                clock.ponder = true;
                continue;
            }
            // `searchmoves ...`, `depth`, `nodes` and the like: not used by a mate search.
            _ => continue,
        };
        let value = tokens.next().ok_or_else(|| format!("go: {t} needs a value"))?;
        // Some GUIs send negative remaining times when the clock ran out; count them as 0.
        let ms = match value.parse::<i64>() {
            Ok(v) => v.max(0) as u64,
            Err(_) => return Err(format!("go: bad {t} value {value:?}")),
        };
        *slot = Some(ms);
    }
    Ok(GoCommand::Play(clock))
}

// ----- output formatting -------------------------------------------------------------------

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros().max(1);
    u64::try_from(u128::from(nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
}

/// The `info` line for a progress report.
pub fn progress_info(p: &Progress) -> String {
    format!(
        "info time {} nodes {} nps {} hashfull {} string pn {} dn {}",
        millis(p.elapsed),
        p.nodes,
        nps(p.nodes, p.elapsed),
        p.hashfull,
        p.root_pn,
        p.root_dn
    )
}

// ----- the worker ----------------------------------------------------------------------------

enum Job {
    Configure(SolverConfig),
    Clear,
    /// Allocates the solver if needed, applies pending settings, then answers.
    Sync(Sender<()>),
    Solve {
        pos: Box<Position>,
        limits: Limits,
    },
}

enum Event {
    /// The solver starts on the position (after any table clearing or allocation queued
    /// before it): the time limit counts from here.
    Started,
    Progress(Progress),
    Done(SolveResult),
    /// The search panicked (a bug); the worker has dropped that solver and carries on.
    Failed(String),
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// The solver is created lazily (at the first `isready` or `go`), so a `USI_Hash` sent after
/// `usi` does not allocate the default table first.
fn ready_solver<'a>(solver: &'a mut Option<Solver>, config: &SolverConfig) -> &'a mut Solver {
    let s = solver.get_or_insert_with(|| Solver::new(config.clone()));
    if s.config() != config {
        s.set_config(config.clone());
    }
    s
}

fn worker_loop(
    jobs: Receiver<Job>,
    events: Sender<Event>,
    stop: Arc<AtomicBool>,
    mut config: SolverConfig,
) {
    let mut solver: Option<Solver> = None;
    for job in jobs {
        let result = catch_unwind(AssertUnwindSafe(|| match job {
            Job::Configure(c) => config = c,
            Job::Clear => {
                if let Some(s) = solver.as_mut() {
                    s.clear();
                }
            }
            Job::Sync(reply) => {
                ready_solver(&mut solver, &config);
                let _ = reply.send(());
            }
            Job::Solve { pos, limits } => {
                let s = ready_solver(&mut solver, &config);
                let _ = events.send(Event::Started);
                let mut report = |p: &Progress| {
                    let _ = events.send(Event::Progress(p.clone()));
                };
                let r = s.solve(&pos, &limits, &stop, &mut report);
                let _ = events.send(Event::Done(r));
            }
        }));
        if let Err(payload) = result {
            solver = None;
            let _ = events.send(Event::Failed(panic_message(payload.as_ref())));
        }
    }
}

// ----- the protocol loop ---------------------------------------------------------------------

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

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum SearchKind {
    /// `go mate`: answer `checkmate ...`.
    Mate,
    /// A plain `go`: answer `bestmove ...`; `hold` (infinite/ponder) keeps the answer until
    /// `stop`/`ponderhit`.
    Play { hold: bool },
}

struct Search {
    kind: SearchKind,
    root: Position,
    started: Instant,
    /// The time limit, counted from [`Event::Started`].
    time: Option<Duration>,
    /// When the loop raises the stop flag itself.
    deadline: Option<Instant>,
    /// Whether the search answers on its own (a time or node limit, no held answer).
    finite: bool,
    /// The thinking time after a `ponderhit`.
    ponder_time: Option<Duration>,
    stop_requested: bool,
    /// The answer of a `go infinite`/`go ponder` that finished before `stop`.
    held: Option<SolveResult>,
    hashfull: u32,
}

struct Engine<W: Write> {
    out: W,
    position: Position,
    options: EngineOptions,
    stop: Arc<AtomicBool>,
    jobs: Option<Sender<Job>>,
    events: Receiver<Event>,
    worker: Option<thread::JoinHandle<()>>,
    search: Option<Search>,
    /// The arguments of a `go` that waits for the running search to answer.
    pending_go: Option<String>,
    quitting: bool,
}

/// Runs the USI protocol until `quit` or the end of `input`. Returns an error only when the
/// output cannot be written (or a thread cannot be started). After `quit` the input reader
/// thread may stay blocked on `input` until it yields a line or ends (a process exits anyway).
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, output: W) -> io::Result<()> {
    let lines = spawn_reader(input)?;
    let mut engine = Engine::new(output)?;
    let result = engine.main_loop(&lines);
    engine.shut_down();
    result
}

impl<W: Write> Engine<W> {
    fn new(out: W) -> io::Result<Engine<W>> {
        let options = EngineOptions::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (job_tx, job_rx) = unbounded();
        let (event_tx, event_rx) = unbounded();
        let worker_stop = Arc::clone(&stop);
        let config = options.solver.clone();
        let worker = thread::Builder::new()
            .name("mate-search".to_string())
            .spawn(move || worker_loop(job_rx, event_tx, worker_stop, config))?;
        Ok(Engine {
            out,
            position: Position::startpos(),
            options,
            stop,
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
                        let unlimited = self.search.as_ref().is_some_and(|s| !s.finite);
                        if unlimited {
                            self.request_stop()?;
                        }
                    }
                },
                recv(events) -> ev => match ev {
                    Ok(ev) => self.handle_event(ev)?,
                    Err(_) => {
                        // The worker is gone (cannot happen short of an abort): answer and end.
                        if let Some(s) = self.search.take() {
                            let r = SolveResult {
                                outcome: Outcome::Timeout,
                                nodes: 0,
                                elapsed: s.started.elapsed(),
                            };
                            self.report(&s, &r)?;
                        }
                        self.info_string("error: the search thread has gone")?;
                        return Ok(());
                    }
                },
                recv(deadline_rx) -> _ => self.request_stop()?,
            }
        }
    }

    fn shut_down(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
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
                for l in self.options.usi_option_lines() {
                    self.send(&l)?;
                }
                self.send("usiok")
            }
            "isready" => {
                if self.search.is_none() {
                    let (tx, rx) = crossbeam_channel::bounded(1);
                    if !self.submit(Job::Sync(tx)) || rx.recv().is_err() {
                        self.info_string("error: the solver could not be set up")?;
                    }
                }
                self.send("readyok")
            }
            "setoption" => match self.options.apply_setoption(args) {
                Ok(()) => {
                    self.submit(Job::Configure(self.options.solver.clone()));
                    Ok(())
                }
                Err(e) => self.info_string(&format!("error: {e}")),
            },
            "usinewgame" => {
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
        let command = match parse_go(args) {
            Ok(c) => c,
            Err(e) => {
                // The GUI waits for an answer: give one rather than leave it hanging.
                self.info_string(&format!("error: {e}"))?;
                return if args.split_whitespace().next() == Some("mate") {
                    self.send("checkmate timeout")
                } else {
                    self.send("bestmove resign")
                };
            }
        };
        let side = self.position.side_to_move();
        let (kind, time, ponder_time) = match &command {
            GoCommand::Mate { time } => (SearchKind::Mate, *time, None),
            GoCommand::Play(clock) => {
                let hold = clock.infinite || clock.ponder;
                let time = if hold { None } else { clock.budget(side) };
                let ponder_time = if clock.ponder { clock.thinking_time(side) } else { None };
                (SearchKind::Play { hold }, time, ponder_time)
            }
        };
        let limits = self.options.limits(time);
        let started = Instant::now();
        self.stop.store(false, Ordering::SeqCst);
        let search = Search {
            kind,
            root: self.position.clone(),
            started,
            time,
            deadline: None,
            // A held answer waits for `stop`: such a search never "ends on its own".
            finite: !matches!(kind, SearchKind::Play { hold: true })
                && (limits.time.is_some() || limits.nodes.is_some()),
            ponder_time,
            stop_requested: false,
            held: None,
            hashfull: 0,
        };
        let job = Job::Solve { pos: Box::new(self.position.clone()), limits };
        if !self.submit(job) {
            self.info_string("error: the search thread has gone")?;
            let r = SolveResult { outcome: Outcome::Timeout, nodes: 0, elapsed: Duration::ZERO };
            return self.report(&search, &r);
        }
        self.search = Some(search);
        Ok(())
    }

    /// `stop` (and the deadline, `quit`, `gameover`): raise the flag, or give a held answer.
    fn request_stop(&mut self) -> io::Result<()> {
        let Some(s) = self.search.as_mut() else {
            return Ok(());
        };
        s.stop_requested = true;
        self.stop.store(true, Ordering::SeqCst);
        if s.held.is_some() {
            if let Some(mut s) = self.search.take() {
                if let Some(r) = s.held.take() {
                    return self.report(&s, &r);
                }
            }
        }
        Ok(())
    }

    fn ponderhit(&mut self) -> io::Result<()> {
        let Some(s) = self.search.as_mut() else {
            return Ok(());
        };
        if let SearchKind::Play { hold: true } = s.kind {
            if s.ponder_time.is_none() {
                // `go infinite` is not pondering: only `stop` ends it.
                return Ok(());
            }
            s.kind = SearchKind::Play { hold: false };
            if s.held.is_some() {
                return self.request_stop();
            }
            s.deadline = s.ponder_time.and_then(|t| Instant::now().checked_add(t));
            s.finite = true;
        }
        Ok(())
    }

    fn handle_event(&mut self, ev: Event) -> io::Result<()> {
        match ev {
            Event::Started => {
                if let Some(s) = self.search.as_mut() {
                    if s.deadline.is_none() {
                        s.deadline = s.time.and_then(|t| Instant::now().checked_add(t));
                    }
                }
                Ok(())
            }
            Event::Progress(p) => {
                if let Some(s) = self.search.as_mut() {
                    s.hashfull = p.hashfull;
                    self.send(&progress_info(&p))?;
                }
                Ok(())
            }
            Event::Done(r) => self.finish(r),
            Event::Failed(msg) => {
                self.info_string(&format!("error: the search failed: {msg}"))?;
                let elapsed = self.search.as_ref().map_or(Duration::ZERO, |s| s.started.elapsed());
                self.finish(SolveResult { outcome: Outcome::Timeout, nodes: 0, elapsed })
            }
        }
    }

    fn finish(&mut self, r: SolveResult) -> io::Result<()> {
        let Some(mut s) = self.search.take() else {
            return Ok(());
        };
        if s.kind == (SearchKind::Play { hold: true }) && !s.stop_requested {
            s.held = Some(r);
            self.search = Some(s);
            return Ok(());
        }
        self.report(&s, &r)
    }

    fn report(&mut self, s: &Search, r: &SolveResult) -> io::Result<()> {
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
                if matches!(s.kind, SearchKind::Play { .. }) {
                    let sign = if root_defends(&s.root) { "-" } else { "+" };
                    info.push_str(&format!(" score mate {sign}{}", moves.len()));
                }
                info.push_str(" pv ");
                info.push_str(&moves_to_usi(moves));
            }
        }
        self.send(&info)?;
        match (s.kind, &r.outcome) {
            (SearchKind::Mate, Outcome::Mate(moves)) if moves.is_empty() => {
                self.info_string("the side to move is already mated")?;
                self.send("checkmate nomate")
            }
            (SearchKind::Mate, Outcome::Mate(moves)) => {
                self.send(&format!("checkmate {}", moves_to_usi(moves)))
            }
            (SearchKind::Mate, Outcome::NoMate) => self.send("checkmate nomate"),
            (SearchKind::Mate, Outcome::Timeout) => self.send("checkmate timeout"),
            (SearchKind::Play { .. }, Outcome::Mate(moves)) => match moves.first() {
                Some(m) => self.send(&format!("bestmove {m}")),
                None => self.send("bestmove resign"),
            },
            (SearchKind::Play { .. }, _) => self.send("bestmove resign"),
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

    #[test]
    fn options() {
        let mut o = EngineOptions::default();
        assert_eq!(o.apply_setoption("name USI_Hash value 1024"), Ok(()));
        assert_eq!(o.solver.hash_mb, 1024);
        assert_eq!(o.apply_setoption("name DoubleCount value snda"), Ok(()));
        assert_eq!(o.solver.double_count, DoubleCount::Snda);
        assert_eq!(o.apply_setoption("name NodeLimit value 5000"), Ok(()));
        assert_eq!(o.node_limit, 5000);
        assert_eq!(o.apply_setoption("name USI_Ponder value true"), Ok(()));
        for bad in [
            "name USI_Hash value 0",
            "name USI_Hash value 65537",
            "name USI_Hash value lots",
            "name USI_Hash",
            "name DoubleCount value twice",
            "name NodeLimit value -1",
            "name Threads value 4",
            "name",
            "value 3",
            "",
        ] {
            assert!(o.apply_setoption(bad).is_err(), "{bad:?}");
        }
        // Errors leave the settings alone.
        assert_eq!(o.solver.hash_mb, 1024);
        assert_eq!(o.node_limit, 5000);
        assert_eq!(
            parse_setoption("name Some Option value a b"),
            Ok(("Some Option".to_string(), Some("a b".to_string())))
        );
    }

    #[test]
    fn go_parsing() {
        assert_eq!(
            parse_go("mate 1000"),
            Ok(GoCommand::Mate { time: Some(Duration::from_millis(1000)) })
        );
        assert_eq!(parse_go("mate infinite"), Ok(GoCommand::Mate { time: None }));
        assert_eq!(parse_go("mate"), Ok(GoCommand::Mate { time: None }));
        assert!(parse_go("mate soon").is_err());
        assert!(parse_go("mate 100 200").is_err());
        assert!(parse_go("btime").is_err());
        assert!(parse_go("btime x").is_err());
        let Ok(GoCommand::Play(c)) = parse_go("btime 60000 wtime -5 byoyomi 3000") else {
            panic!("not a play go");
        };
        assert_eq!(c.btime, Some(60000));
        assert_eq!(c.wtime, Some(0));
        assert_eq!(c.budget(Color::Black), Some(Duration::from_millis(3000 + 3000 - 100)));
        assert_eq!(c.budget(Color::White), Some(Duration::from_millis(2900)));
        let Ok(GoCommand::Play(c)) = parse_go("") else {
            panic!("not a play go");
        };
        assert_eq!(c.budget(Color::Black), Some(DEFAULT_GO_TIME));
        let Ok(GoCommand::Play(c)) = parse_go("infinite") else {
            panic!("not a play go");
        };
        assert_eq!(c.budget(Color::Black), None);
        let Ok(GoCommand::Play(c)) = parse_go("movetime 500 searchmoves 7g7f") else {
            panic!("not a play go");
        };
        assert_eq!(c.budget(Color::White), Some(Duration::from_millis(500)));
        let Ok(GoCommand::Play(c)) = parse_go("btime 0 wtime 0 byoyomi 0") else {
            panic!("not a play go");
        };
        assert_eq!(c.budget(Color::Black), Some(Duration::from_millis(10)));
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
        assert_eq!(answer(&out, "info string"), 0, "{out:?}");
    }

    #[test]
    fn plain_go_answers_bestmove() {
        let out = run_script("position startpos\ngo movetime 100\n");
        assert_eq!(answer(&out, "bestmove"), 1, "{out:?}");
        let out = run_script("go infinite\nstop\n");
        assert_eq!(answer(&out, "bestmove"), 1, "{out:?}");
        let out = run_script("go ponder btime 1000 wtime 1000\nponderhit\n");
        assert_eq!(answer(&out, "bestmove"), 1, "{out:?}");
        let out = run_script("go infinite\ngo mate 10\nquit\n");
        assert_eq!(answer(&out, "bestmove"), 1, "{out:?}");
        assert_eq!(answer(&out, "checkmate"), 0, "{out:?}");
        assert_eq!(answer(&out, "info string error: a search is already running"), 1);
    }

    #[test]
    fn stop_without_search_and_gameover_are_quiet() {
        let out = run_script("stop\ngameover win\nusinewgame\nponderhit\nisready\n");
        assert_eq!(out, vec!["readyok".to_string()]);
    }
}
