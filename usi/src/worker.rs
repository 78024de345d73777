//! The search thread: owns what searches (an engine, a solver) and runs one job at a time,
//! sending back what it finds as events.
//!
//! The thread is what lets the protocol loop answer `stop`, `isready` and `quit` while a search
//! runs. What it owns is the program's [`SearchBackend`]; this file is the part every program
//! shares: the job queue, the event stream, and catching a panic in a search so that a bug
//! costs one answer (the event `Failed`) rather than the game.

use crossbeam_channel::{bounded, unbounded, Receiver, Sender};
use std::any::Any;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::thread;

/// What a program runs on the search thread.
///
/// The searchers are best built lazily (at the first `isready` or search), so that a
/// `USI_Hash` sent after `usi` does not first allocate the default size.
pub trait SearchBackend: Send + 'static {
    /// Settings for the next searches, from the USI options.
    type Config: Send + 'static;
    /// One search.
    type Job: Send + 'static;
    /// A report during a search (an `info` line to be).
    type Progress: Send + 'static;
    /// The result of a search.
    type Outcome: Send + 'static;

    /// The thread's name.
    const THREAD_NAME: &'static str;
    /// The thread's stack: at least `solver::stack::SEARCH_STACK_BYTES` for a thread that
    /// runs df-pn.
    const STACK_BYTES: usize;

    /// Settings for the next searches (applied when a searcher is next needed).
    fn configure(&mut self, config: Self::Config);
    /// `usinewgame`: forget what was learnt.
    fn clear(&mut self);
    /// `isready`: builds the searchers (or applies pending settings) now.
    fn ready(&mut self);
    /// Builds what `job` needs, before the search's clock starts (the event `Started`): a table
    /// allocated here does not eat into the search's time.
    fn prepare(&mut self, job: &Self::Job);
    fn search(&mut self, job: Self::Job, report: &mut dyn FnMut(Self::Progress)) -> Self::Outcome;
    /// After a panic in a job: drop whatever the job may have left half-done.
    fn reset(&mut self);
    /// Lines for `info string` the backend has to say (e.g. a table file it could not open),
    /// sent after each job.
    fn take_notes(&mut self) -> Vec<String> {
        Vec::new()
    }
}

pub(crate) enum Job<B: SearchBackend> {
    Configure(B::Config),
    Clear,
    /// Runs [`SearchBackend::ready`], then answers.
    Sync(Sender<()>),
    Search(B::Job),
}

pub(crate) enum Event<B: SearchBackend> {
    /// The job's search begins (after anything queued before it): time limits count from here.
    Started,
    Progress(B::Progress),
    Done(B::Outcome),
    /// The job panicked (a bug); the worker carries on after [`SearchBackend::reset`].
    Failed(String),
    /// A line for `info string` ([`SearchBackend::take_notes`]).
    Info(String),
}

/// The text of a panic's payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// The running search thread, as the protocol loop holds it.
pub(crate) struct Worker<B: SearchBackend> {
    jobs: Option<Sender<Job<B>>>,
    events: Receiver<Event<B>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl<B: SearchBackend> Worker<B> {
    pub(crate) fn spawn(backend: B) -> io::Result<Worker<B>> {
        let (job_tx, job_rx) = unbounded();
        let (event_tx, event_rx) = unbounded();
        let builder = thread::Builder::new().name(B::THREAD_NAME.to_string());
        let thread = builder
            .stack_size(B::STACK_BYTES)
            .spawn(move || run_jobs(backend, &job_rx, &event_tx))?;
        Ok(Worker { jobs: Some(job_tx), events: event_rx, thread: Some(thread) })
    }

    /// Queues a job; `false` if the thread is gone.
    pub(crate) fn submit(&self, job: Job<B>) -> bool {
        self.jobs.as_ref().is_some_and(|j| j.send(job).is_ok())
    }

    /// `isready`: waits until the searchers are built; `false` if that failed.
    pub(crate) fn sync(&self) -> bool {
        let (tx, rx) = bounded(1);
        self.submit(Job::Sync(tx)) && rx.recv().is_ok()
    }

    pub(crate) fn events(&self) -> Receiver<Event<B>> {
        self.events.clone()
    }

    /// Closes the queue and waits for the thread (stop the running search first).
    pub(crate) fn shut_down(&mut self) {
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The thread's body: runs jobs until the queue closes.
fn run_jobs<B: SearchBackend>(mut backend: B, jobs: &Receiver<Job<B>>, events: &Sender<Event<B>>) {
    for job in jobs {
        let result = catch_unwind(AssertUnwindSafe(|| match job {
            Job::Configure(config) => backend.configure(config),
            Job::Clear => backend.clear(),
            Job::Sync(reply) => {
                backend.ready();
                send_notes(&mut backend, events);
                let _ = reply.send(());
            }
            Job::Search(job) => {
                backend.prepare(&job);
                send_notes(&mut backend, events);
                let _ = events.send(Event::Started);
                let outcome = backend.search(job, &mut |p| {
                    let _ = events.send(Event::Progress(p));
                });
                let _ = events.send(Event::Done(outcome));
            }
        }));
        if let Err(payload) = result {
            backend.reset();
            let _ = events.send(Event::Failed(panic_message(payload.as_ref())));
        }
        send_notes(&mut backend, events);
    }
}

fn send_notes<B: SearchBackend>(backend: &mut B, events: &Sender<Event<B>>) {
    for note in backend.take_notes() {
        let _ = events.send(Event::Info(note));
    }
}
