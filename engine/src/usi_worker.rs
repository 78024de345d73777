//! The search thread of the USI engine: owns the [`Engine`] (and, once `go mate` is used, a
//! df-pn [`Solver`]) and runs one job at a time, sending what it finds back as events.
//!
//! Both are created lazily at the first `isready`/`go` (or `go mate`), so a `USI_Hash` sent
//! after `usi` does not first allocate the default size. A panic in a search is caught: the
//! event [`Event::Failed`] is sent and a fresh engine is built for the next job.

use crate::control::SearchControl;
use crate::engine::Engine;
use crate::params::Params;
use crate::report::{SearchInfo, SearchLimits, SearchOutcome};
use crossbeam_channel::{Receiver, Sender};
use shogi::Position;
use solver::{Limits, Progress, SolveResult, Solver, SolverConfig};
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Stack of a thread that searches: deep alpha-beta and df-pn recursion need more than the
/// 2 MiB a spawned thread gets by default (only the pages touched are committed).
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

pub enum Job {
    /// Parameters and table size for the next searches.
    Configure {
        params: Box<Params>,
        hash_mb: usize,
    },
    /// `usinewgame`: forget what was learnt.
    Clear,
    /// Builds the engine if needed and applies pending settings, then answers (`isready`).
    Sync(Sender<()>),
    Search {
        pos: Box<Position>,
        limits: SearchLimits,
        control: Arc<SearchControl>,
    },
    Mate {
        pos: Box<Position>,
        limits: Limits,
        stop: Arc<AtomicBool>,
    },
}

pub enum Event {
    /// The job's search begins (after any table allocation queued before it).
    Started,
    Info(SearchInfo),
    Done(SearchOutcome),
    MateProgress(Progress),
    MateDone(SolveResult),
    /// The job panicked (a bug); the worker carries on with a fresh engine.
    Failed(String),
}

pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

struct Worker {
    params: Params,
    hash_mb: usize,
    engine: Option<Engine>,
    solver: Option<Solver>,
}

impl Worker {
    fn engine(&mut self) -> &mut Engine {
        let (params, hash_mb) = (&self.params, self.hash_mb);
        let engine = self.engine.get_or_insert_with(|| Engine::new(params.clone(), hash_mb));
        if engine.params() != params {
            *engine.params_mut() = params.clone();
        }
        if engine.hash_mb() != hash_mb {
            engine.set_hash_mb(hash_mb);
        }
        engine
    }

    fn solver(&mut self) -> &mut Solver {
        let config = SolverConfig { hash_mb: self.hash_mb, ..SolverConfig::default() };
        let solver = self.solver.get_or_insert_with(|| Solver::new(config.clone()));
        if solver.config() != &config {
            solver.set_config(config);
        }
        solver
    }

    fn run(&mut self, job: Job, events: &Sender<Event>) {
        match job {
            Job::Configure { params, hash_mb } => {
                self.params = *params;
                self.hash_mb = hash_mb;
            }
            Job::Clear => {
                if let Some(e) = self.engine.as_mut() {
                    e.clear();
                }
                if let Some(s) = self.solver.as_mut() {
                    s.clear();
                }
            }
            Job::Sync(reply) => {
                self.engine();
                let _ = reply.send(());
            }
            Job::Search { pos, limits, control } => {
                let engine = self.engine();
                let _ = events.send(Event::Started);
                let mut info = |i: &SearchInfo| {
                    let _ = events.send(Event::Info(i.clone()));
                };
                let outcome = engine.search(&pos, &limits, &control, &mut info);
                let _ = events.send(Event::Done(outcome));
            }
            Job::Mate { pos, limits, stop } => {
                let solver = self.solver();
                let _ = events.send(Event::Started);
                let mut report = |p: &Progress| {
                    let _ = events.send(Event::MateProgress(p.clone()));
                };
                let r = solver.solve(&pos, &limits, &stop, &mut report);
                let _ = events.send(Event::MateDone(r));
            }
        }
    }
}

/// The worker thread's body: runs jobs until the job channel closes.
pub fn worker_loop(jobs: Receiver<Job>, events: Sender<Event>, params: Params, hash_mb: usize) {
    let mut worker = Worker { params, hash_mb, engine: None, solver: None };
    for job in jobs {
        let result = catch_unwind(AssertUnwindSafe(|| worker.run(job, &events)));
        if let Err(payload) = result {
            worker.engine = None;
            worker.solver = None;
            let _ = events.send(Event::Failed(panic_message(payload.as_ref())));
        }
    }
}
