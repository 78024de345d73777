//! The protocol loop shared by `tsumugi` and `tsumugi-mate`.
//!
//! Three threads: a reader that turns the input into lines (`input.rs`), the search
//! thread ([`super::worker`]), and this loop, which owns the output and waits on both, and on
//! the deadline of the running search. So `stop`, `ponderhit`, `isready` and `quit` are read
//! and answered while a search runs.
//!
//! Behaviour at the edges (none of these crash the program):
//! - an unknown command gets `info string unknown command: ...` and is otherwise ignored; a bad
//!   `setoption` gets `info string error: ...` and changes nothing;
//! - a bad `position` (malformed SFEN, illegal move) keeps the previous position;
//! - changed options reach the search thread at the next `isready`, `usinewgame` or `go`;
//! - `go` while a search with a limit runs waits for it to answer (input is read no further
//!   meanwhile, so a script can pipe several searches); `go` while an unlimited search runs is
//!   refused with `info string error: ...`; `position`, `setoption`, `usinewgame` during a
//!   search apply to the next one; `isready` is answered at once;
//! - a malformed `go mate` gets `info string error: ...` and `checkmate timeout` (the GUI waits
//!   for an answer);
//! - `go infinite` holds its answer until `stop`; `go ponder` until `ponderhit` (then the clock
//!   of the `go ponder` starts) or `stop`: never before, even if the search ends early;
//! - `gameover` stops a running search; `quit` stops it, prints its answer and returns; the end
//!   of input is `quit`, except that a search with a limit may finish first;
//! - a search that fails (a panic, caught by the search thread) gets `info string error: the
//!   search failed: ...` and is still answered by the program ([`UsiProgram::answer`] with
//!   [`Finished::Failed`]).

use crate::command::Command;
use crate::go::{parse_go, GoCommand};
use crate::input::{spawn_reader, Input};
use crate::output::Output;
use crate::program::{Finished, Hold, JobOf, OutcomeOf, Plan, Timing, UsiProgram};
use crate::worker::{Event, Job, Worker};
use crossbeam_channel::{select, Receiver};
use shogi::{parse_position_command, Position};
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

const WORKER_GONE: &str = "the search thread has gone";

/// Runs the USI protocol for `program` until `quit` or the end of `input`. Returns an error
/// only when the output cannot be written (or a thread cannot be started). After `quit` the
/// input reader thread may stay blocked on `input` until it yields a line or ends (a process
/// exits anyway).
pub fn run<P, R, W>(program: P, input: R, mut output: W) -> io::Result<()>
where
    P: UsiProgram,
    R: BufRead + Send + 'static,
    W: Write,
{
    let lines = spawn_reader(input)?;
    let worker = Worker::spawn(program.backend())?;
    let mut session = Session {
        program,
        out: Output::new(&mut output),
        position: Position::startpos(),
        dirty: false,
        worker,
        search: None,
        pending_go: None,
        quitting: false,
    };
    let result = session.main_loop(&lines);
    session.shut_down();
    result
}

/// Runs a whole session from `script` (lines of input, then its end) and returns the lines
/// printed: for tests, and for scripts that want the answers as values.
pub fn transcript<P: UsiProgram>(program: P, script: &str) -> io::Result<Vec<String>> {
    let mut out = Vec::new();
    run(program, io::Cursor::new(script.as_bytes().to_vec()), &mut out)?;
    Ok(String::from_utf8_lossy(&out).lines().map(str::to_string).collect())
}

/// A running search as the loop sees it.
struct Running<S, O> {
    /// The program's view of it.
    search: S,
    hold: Hold,
    deadline: Option<Instant>,
    time_after_start: Option<Duration>,
    finite: bool,
    stop_requested: bool,
    /// The answer of a search that ended while its answer is held.
    held: Option<Finished<O>>,
}

impl<S, O> Running<S, O> {
    fn new(search: S, timing: Timing) -> Running<S, O> {
        Running {
            search,
            hold: timing.hold,
            deadline: timing.deadline,
            time_after_start: timing.time_after_start,
            finite: timing.finite,
            stop_requested: false,
            held: None,
        }
    }

    /// The search thread started the job: a limit counted from then starts now (unless a
    /// `ponderhit` came first and set the deadline).
    fn started(&mut self) {
        if self.deadline.is_none() {
            self.deadline = self.time_after_start.and_then(|t| Instant::now().checked_add(t));
        }
    }

    /// When the loop must stop the search, if it still runs unstopped.
    fn armed_deadline(&self) -> Option<Instant> {
        if self.stop_requested || self.held.is_some() {
            return None;
        }
        self.deadline
    }
}

struct Session<'a, P: UsiProgram> {
    program: P,
    out: Output<'a>,
    position: Position,
    /// Options changed since the search thread was last configured.
    dirty: bool,
    worker: Worker<P::Backend>,
    search: Option<Running<P::Search, OutcomeOf<P>>>,
    /// The arguments of a `go` that waits for the running search to answer.
    pending_go: Option<String>,
    quitting: bool,
}

impl<P: UsiProgram> Session<'_, P> {
    fn main_loop(&mut self, lines: &Receiver<Input>) -> io::Result<()> {
        let events = self.worker.events();
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
            let deadline_rx = match self.search.as_ref().and_then(Running::armed_deadline) {
                Some(d) => crossbeam_channel::at(d),
                None => crossbeam_channel::never(),
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
                        // The search thread is gone (cannot happen short of an abort): answer
                        // the search, held or not, and end.
                        if let Some(s) = self.search.take() {
                            let failed = Finished::Failed(WORKER_GONE.to_string());
                            self.answer(s.search, failed)?;
                        }
                        return Ok(());
                    }
                },
                recv(deadline_rx) -> _ => self.stop_search(),
            }
        }
    }

    fn shut_down(&mut self) {
        if let Some(s) = &self.search {
            self.program.stop(&s.search);
        }
        self.worker.shut_down();
    }

    fn handle_line(&mut self, raw: &str) -> io::Result<()> {
        let Some(command) = Command::parse(raw) else {
            return Ok(());
        };
        match command {
            Command::Usi => {
                self.out.send(&format!("id name {}", P::NAME))?;
                self.out.send(&format!("id author {}", P::AUTHOR))?;
                for line in self.program.option_lines() {
                    self.out.send(&line)?;
                }
                self.out.send("usiok")
            }
            Command::IsReady => {
                if self.search.is_none() {
                    self.configure()?;
                    if !self.worker.sync() {
                        let e = format!("error: the {} could not be set up", P::SEARCHER);
                        self.out.info_string(&e)?;
                    }
                }
                self.out.send("readyok")
            }
            Command::SetOption(args) => match self.program.set_option(args) {
                Ok(()) => {
                    self.dirty = true;
                    Ok(())
                }
                Err(e) => self.out.info_string(&format!("error: {e}")),
            },
            Command::UsiNewGame => {
                self.configure()?;
                self.worker.submit(Job::Clear);
                Ok(())
            }
            Command::Position(line) => match parse_position_command(line) {
                Ok(p) => {
                    self.position = p;
                    Ok(())
                }
                Err(e) => self.out.info_string(&format!("error: {e} (position unchanged)")),
            },
            Command::Go(args) => self.go(args),
            Command::Stop | Command::GameOver => self.request_stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => {
                self.quitting = true;
                self.request_stop()
            }
            Command::Unknown(line) => {
                let shown: String = line.chars().take(200).collect();
                self.out.info_string(&format!("unknown command: {shown}"))
            }
        }
    }

    /// Sends changed options to the search thread (before the next job that uses them).
    fn configure(&mut self) -> io::Result<()> {
        if !self.dirty {
            return Ok(());
        }
        self.dirty = false;
        match self.program.config() {
            Ok(config) => {
                self.worker.submit(Job::Configure(config));
                Ok(())
            }
            Err(e) => self.out.info_string(&format!("error: {e}")),
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
            return self.out.info_string("error: a search is already running (send stop first)");
        }
        let plan = match parse_go(args, P::GO_FIELDS) {
            Ok((GoCommand::Mate { time }, _)) => self.program.go_mate(time, &self.position),
            Ok((GoCommand::Play(go), issues)) => {
                match self.program.go(&go, &issues, &self.position, &mut self.out)? {
                    Some(plan) => plan,
                    None => return Ok(()),
                }
            }
            Err(e) => {
                // A malformed `go mate`: the GUI waits for an answer.
                self.out.info_string(&format!("error: {e}"))?;
                return self.out.send("checkmate timeout");
            }
        };
        self.configure()?;
        self.start(plan)
    }

    fn start(&mut self, plan: Plan<P::Search, JobOf<P>>) -> io::Result<()> {
        self.search = Some(Running::new(plan.search, plan.timing));
        if !self.worker.submit(Job::Search(plan.job)) {
            return self.finish(Finished::Failed(WORKER_GONE.to_string()));
        }
        Ok(())
    }

    /// Raises the stop flags of the running search (its deadline has come).
    fn stop_search(&mut self) {
        if let Some(s) = self.search.as_mut() {
            s.stop_requested = true;
            self.program.stop(&s.search);
        }
    }

    /// `stop` (and `quit`, `gameover`, end of input): stop, and give a held answer.
    fn request_stop(&mut self) -> io::Result<()> {
        self.stop_search();
        if let Some(s) = self.search.as_mut() {
            s.hold = Hold::No;
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
        if s.hold != Hold::Ponder {
            // `go infinite` is not pondering: only `stop` ends it.
            return Ok(());
        }
        s.hold = Hold::No;
        s.finite = true;
        let time = self.program.ponderhit(&mut s.search);
        s.deadline = time.and_then(|t| Instant::now().checked_add(t));
        if let Some(done) = s.held.take() {
            return self.finish(done);
        }
        Ok(())
    }

    fn handle_event(&mut self, ev: Event<P::Backend>) -> io::Result<()> {
        match ev {
            Event::Started => {
                if let Some(s) = self.search.as_mut() {
                    s.started();
                }
                Ok(())
            }
            Event::Progress(p) => match self.search.as_mut() {
                Some(s) => self.program.progress(&mut s.search, p, &mut self.out),
                None => Ok(()),
            },
            Event::Done(o) => self.finish(Finished::Done(o)),
            Event::Failed(msg) => self.finish(Finished::Failed(msg)),
            Event::Info(line) => self.out.info_string(&line),
        }
    }

    /// The search ended: answer, or keep the answer while it is held.
    fn finish(&mut self, done: Finished<OutcomeOf<P>>) -> io::Result<()> {
        let Some(mut s) = self.search.take() else {
            return Ok(());
        };
        if s.hold.holds() && !s.stop_requested {
            s.held = Some(done);
            self.search = Some(s);
            return Ok(());
        }
        self.answer(s.search, done)
    }

    /// Gives the answer of a search that ended; one that failed is said first, the same way
    /// for every program, before the program's fallback answer.
    fn answer(&mut self, search: P::Search, done: Finished<OutcomeOf<P>>) -> io::Result<()> {
        if let Finished::Failed(msg) = &done {
            self.out.info_string(&format!("error: the search failed: {msg}"))?;
        }
        self.program.answer(search, done, &mut self.out)
    }
}
