//! What differs between two USI programs, as the one trait the shared protocol loop
//! ([`super::run`]) is parameterised by.
//!
//! The loop owns the protocol: the commands, the position, when to configure the search thread,
//! when a search must stop (deadline, `stop`, `quit`, end of input), holding the answer of
//! `go infinite`/`go ponder`, and waiting for a running search before the next `go`. A program
//! owns its name and options, what a `go` means for it (which search, with which limits), how a
//! search is stopped, and the lines of its reports and answers.

use crate::go::{GoField, GoIssue, GoParams};
use crate::output::Output;
use crate::worker::SearchBackend;
use shogi::Position;
use std::io;
use std::time::{Duration, Instant};

/// The settings of a program's search thread.
pub type ConfigOf<P> = <<P as UsiProgram>::Backend as SearchBackend>::Config;
/// A program's search job.
pub type JobOf<P> = <<P as UsiProgram>::Backend as SearchBackend>::Job;
/// A program's progress report.
pub type ProgressOf<P> = <<P as UsiProgram>::Backend as SearchBackend>::Progress;
/// A program's search result.
pub type OutcomeOf<P> = <<P as UsiProgram>::Backend as SearchBackend>::Outcome;

pub trait UsiProgram {
    /// What runs on the search thread.
    type Backend: SearchBackend;
    /// What the loop keeps of a running search to stop and answer it (its root, its stop
    /// flags, what its reports said so far).
    type Search;

    /// `id name`.
    const NAME: &'static str;
    /// `id author`.
    const AUTHOR: &'static str;
    /// What `isready` sets up, for its error: `error: the <searcher> could not be set up`.
    const SEARCHER: &'static str;
    /// The `go` fields the program reads ([`super::parse_go`]).
    const GO_FIELDS: &'static [GoField];

    /// The search thread's state at start-up.
    fn backend(&self) -> Self::Backend;
    /// The `option ...` lines of the `usi` answer.
    fn option_lines(&self) -> Vec<String>;
    /// Applies one `setoption` (the words after it). An error changes nothing.
    fn set_option(&mut self, args: &str) -> Result<(), String>;
    /// The search thread's settings after options changed. On an error (shown as
    /// `info string error: <e>`) the thread keeps its previous settings.
    fn config(&self) -> Result<ConfigOf<Self>, String>;

    /// Plans the search for a play `go` from `root`, after showing or judging the `issues` of
    /// its parse; or answers at once (`None`), e.g. to refuse a malformed clock.
    fn go(
        &self,
        go: &GoParams,
        issues: &[GoIssue],
        root: &Position,
        out: &mut Output<'_>,
    ) -> io::Result<Option<Plan<Self::Search, JobOf<Self>>>>;
    /// Plans the search for `go mate`; `None` = no time limit.
    fn go_mate(&self, time: Option<Duration>, root: &Position) -> Plan<Self::Search, JobOf<Self>>;

    /// Raises the stop flags of a search (it answers when it has unwound).
    fn stop(&self, search: &Self::Search);
    /// `ponderhit`: the search now thinks on the clock of its `go ponder`. Returns the time
    /// after which the loop stops it.
    fn ponderhit(&self, search: &mut Self::Search) -> Option<Duration>;
    /// A report of the running search.
    fn progress(
        &self,
        search: &mut Self::Search,
        report: ProgressOf<Self>,
        out: &mut Output<'_>,
    ) -> io::Result<()>;
    /// The answer (`bestmove ...`, `checkmate ...`) of a search that ended. For a failed one
    /// the loop has already written `info string error: the search failed: ...`.
    fn answer(
        &self,
        search: Self::Search,
        finished: Finished<OutcomeOf<Self>>,
        out: &mut Output<'_>,
    ) -> io::Result<()>;
}

/// A search about to start: the program's view of it, the job for the search thread, and when
/// it ends.
pub struct Plan<S, J> {
    pub search: S,
    pub job: J,
    pub timing: Timing,
}

impl<S, J> Plan<S, J> {
    /// The same plan in a program's own types.
    pub fn map<S2, J2>(
        self,
        search: impl FnOnce(S) -> S2,
        job: impl FnOnce(J) -> J2,
    ) -> Plan<S2, J2> {
        Plan { search: search(self.search), job: job(self.job), timing: self.timing }
    }
}

/// When a search ends and when its answer may be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Whether the answer waits for `stop`/`ponderhit`.
    pub hold: Hold,
    /// When the loop stops the search itself, counted from the `go`. A search is asked to
    /// watch its own clock; this is the backstop, in case it only polls its stop flag.
    pub deadline: Option<Instant>,
    /// As `deadline`, but counted from the moment the search thread starts the job (after any
    /// table allocation), for searches whose limit is a plain duration.
    pub time_after_start: Option<Duration>,
    /// Whether the search answers on its own (it has a limit and nothing is held): a `go`
    /// that comes meanwhile waits for it, and the end of input lets it finish.
    pub finite: bool,
}

/// Whether the answer of a search waits, as USI requires for `go infinite` and `go ponder`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// Answer as soon as the search ends.
    No,
    /// `go infinite`: only after `stop` (`ponderhit` does nothing).
    UntilStop,
    /// `go ponder`: after `ponderhit` (which starts the clock) or `stop`.
    Ponder,
}

impl Hold {
    pub fn of(go: &GoParams) -> Hold {
        if go.ponder {
            Hold::Ponder
        } else if go.infinite {
            Hold::UntilStop
        } else {
            Hold::No
        }
    }

    pub fn holds(self) -> bool {
        self != Hold::No
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finished<O> {
    Done(O),
    /// It panicked (a bug), or the search thread is gone: the text says what happened.
    Failed(String),
}
