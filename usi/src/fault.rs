//! A program with a bug injected where a bug would be: its search panics on the jobs a test
//! picks. Both programs' robustness tests use it to show that a panic in a search costs one
//! answer, not the engine.

use crate::go::{GoField, GoIssue, GoParams};
use crate::output::Output;
use crate::program::{ConfigOf, Finished, JobOf, OutcomeOf, Plan, ProgressOf, UsiProgram};
use crate::worker::SearchBackend;
use shogi::Position;
use std::io;
use std::time::Duration;

/// The answers (`bestmove ...`, `checkmate ...`) of a session with injected faults, once each
/// of the `faults` expected is seen said by the loop (`info string error: the search failed:
/// injected fault`); else what is wrong, with the transcript.
pub fn answers_after_faults(out: &[String], faults: usize) -> Result<Vec<&str>, String> {
    let said = out.iter().filter(|l| *l == "info string error: the search failed: injected fault");
    if said.count() != faults {
        return Err(format!("want {faults} failed searches said: {out:?}"));
    }
    Ok(crate::fuzz::answers(out))
}

/// `program`, whose search panics with "injected fault" on every job `panics_on` picks.
pub struct Faulty<P: UsiProgram> {
    pub program: P,
    pub panics_on: fn(&JobOf<P>) -> bool,
}

/// The search thread of a [`Faulty`] program.
pub struct FaultyBackend<B: SearchBackend> {
    inner: B,
    panics_on: fn(&B::Job) -> bool,
}

impl<B: SearchBackend> SearchBackend for FaultyBackend<B> {
    type Config = B::Config;
    type Job = B::Job;
    type Progress = B::Progress;
    type Outcome = B::Outcome;
    const THREAD_NAME: &'static str = B::THREAD_NAME;
    const STACK_BYTES: usize = B::STACK_BYTES;

    fn configure(&mut self, config: B::Config) {
        self.inner.configure(config)
    }
    fn clear(&mut self) {
        self.inner.clear()
    }
    fn ready(&mut self) {
        self.inner.ready()
    }
    fn prepare(&mut self, job: &B::Job) {
        self.inner.prepare(job)
    }
    fn search(&mut self, job: B::Job, report: &mut dyn FnMut(B::Progress)) -> B::Outcome {
        if (self.panics_on)(&job) {
            panic!("injected fault");
        }
        self.inner.search(job, report)
    }
    fn reset(&mut self) {
        self.inner.reset()
    }
    fn take_notes(&mut self) -> Vec<String> {
        self.inner.take_notes()
    }
}

impl<P: UsiProgram> UsiProgram for Faulty<P> {
    type Backend = FaultyBackend<P::Backend>;
    type Search = P::Search;
    const NAME: &'static str = P::NAME;
    const AUTHOR: &'static str = P::AUTHOR;
    const SEARCHER: &'static str = P::SEARCHER;
    const GO_FIELDS: &'static [GoField] = P::GO_FIELDS;

    fn backend(&self) -> Self::Backend {
        FaultyBackend { inner: self.program.backend(), panics_on: self.panics_on }
    }
    fn option_lines(&self) -> Vec<String> {
        self.program.option_lines()
    }
    fn set_option(&mut self, args: &str) -> Result<(), String> {
        self.program.set_option(args)
    }
    fn config(&self) -> Result<ConfigOf<Self>, String> {
        self.program.config()
    }
    fn go(
        &self,
        go: &GoParams,
        issues: &[GoIssue],
        root: &Position,
        out: &mut Output<'_>,
    ) -> io::Result<Option<Plan<P::Search, JobOf<Self>>>> {
        self.program.go(go, issues, root, out)
    }
    fn go_mate(&self, time: Option<Duration>, root: &Position) -> Plan<P::Search, JobOf<Self>> {
        self.program.go_mate(time, root)
    }
    fn stop(&self, search: &P::Search) {
        self.program.stop(search)
    }
    fn ponderhit(&self, search: &mut P::Search) -> Option<Duration> {
        self.program.ponderhit(search)
    }
    fn progress(
        &self,
        search: &mut P::Search,
        report: ProgressOf<Self>,
        out: &mut Output<'_>,
    ) -> io::Result<()> {
        self.program.progress(search, report, out)
    }
    fn answer(
        &self,
        search: P::Search,
        finished: Finished<OutcomeOf<Self>>,
        out: &mut Output<'_>,
    ) -> io::Result<()> {
        self.program.answer(search, finished, out)
    }
}
