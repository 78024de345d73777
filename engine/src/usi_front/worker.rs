//! The search thread of `tsumugi`: what it owns (the [`Engine`] and, for `go mate`, the df-pn
//! solver of `tsumugi-mate`, [`MateBackend`]) and how it runs a job. The thread itself, its
//! queue and the catching of a panic are the shared [`::usi::worker`]; after a panic both
//! searchers are rebuilt.
//!
//! Both are created lazily at the first `isready`/`go` (or `go mate`), so a `USI_Hash` sent
//! after `usi` does not first allocate the default size.

use crate::eval::network::Network;
use crate::eval::weights::Weights;
use crate::params::Params;
use crate::search::control::SearchControl;
use crate::search::engine::Engine;
use crate::search::ponder::PonderSettings;
use crate::search::report::{SearchInfo, SearchLimits, SearchOutcome};
use ::usi::SearchBackend;
use shogi::Position;
use solver::usi_mate::{MateBackend, MateJob};
use solver::{Progress, SolveResult, SolverConfig};
use std::sync::Arc;

/// Stack of alpha-beta's own recursion (quiescence included), with a wide margin.
const ALPHA_BETA_STACK_BYTES: usize = 48 << 20;

/// Stack of a thread that searches: alpha-beta, and on top of it a df-pn search (an oracle
/// probe, or `go mate` from the thread's base), sized as [`solver::stack`] says. Only the
/// pages touched are committed.
pub const SEARCH_STACK_BYTES: usize = ALPHA_BETA_STACK_BYTES + solver::stack::SEARCH_STACK_BYTES;

/// Parameters, table size and threads for the next searches.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    pub params: Box<Params>,
    /// The evaluation's weights (`EvalFile`; hand-set by default).
    pub weights: Arc<Weights>,
    /// The network evaluation (`EvalType=network`); `None`: the linear one.
    pub network: Option<Arc<Network>>,
    pub hash_mb: usize,
    /// Search threads, for the engine's Lazy SMP and for `go mate`'s df-pn.
    pub threads: usize,
    pub ponder: PonderSettings,
}

pub enum EngineJob {
    /// A search for a move.
    Play { pos: Box<Position>, limits: SearchLimits, control: Arc<SearchControl> },
    /// `go mate`.
    Mate(MateJob),
}

pub enum EngineProgress {
    Info(SearchInfo),
    Mate(Progress),
}

pub enum EngineOutcome {
    Play(SearchOutcome),
    Mate(SolveResult),
}

pub struct EngineBackend {
    params: Params,
    weights: Arc<Weights>,
    network: Option<Arc<Network>>,
    hash_mb: usize,
    threads: usize,
    ponder: PonderSettings,
    engine: Option<Engine>,
    /// `go mate`: a solver with the engine's table size and default settings.
    mate: MateBackend,
    /// Lines for `info string`.
    notes: Vec<String>,
}

impl EngineBackend {
    pub fn new(config: EngineConfig) -> EngineBackend {
        EngineBackend {
            mate: MateBackend::new(mate_config(&config)),
            params: *config.params,
            weights: config.weights,
            network: config.network,
            hash_mb: config.hash_mb,
            threads: config.threads,
            ponder: config.ponder,
            engine: None,
            notes: Vec::new(),
        }
    }

    fn engine(&mut self) -> &mut Engine {
        let (params, hash_mb) = (&self.params, self.hash_mb);
        let mut new_table = self.engine.is_none();
        let engine = self.engine.get_or_insert_with(|| Engine::new(params.clone(), hash_mb));
        if engine.params() != params {
            engine.set_params(params.clone());
        }
        if engine.hash_mb() != hash_mb {
            engine.set_hash_mb(hash_mb);
            new_table = true;
        }
        if new_table {
            self.notes.extend(engine.table_note());
        }
        engine.set_weights(Arc::clone(&self.weights));
        engine.set_network(self.network.clone());
        // `Oracle true` after an `isready` that had it off: made here, before the move.
        engine.prepare_root_oracle();
        engine.set_threads(self.threads);
        engine.set_ponder_settings(self.ponder);
        engine
    }
}

/// `go mate`: the solver with the engine's table size and threads, default settings otherwise.
fn mate_config(config: &EngineConfig) -> SolverConfig {
    SolverConfig { hash_mb: config.hash_mb, threads: config.threads, ..SolverConfig::default() }
}

impl SearchBackend for EngineBackend {
    type Config = EngineConfig;
    type Job = EngineJob;
    type Progress = EngineProgress;
    type Outcome = EngineOutcome;

    const THREAD_NAME: &'static str = "search";
    const STACK_BYTES: usize = SEARCH_STACK_BYTES;

    fn configure(&mut self, config: EngineConfig) {
        self.mate.configure(mate_config(&config));
        self.params = *config.params;
        self.weights = config.weights;
        self.network = config.network;
        self.hash_mb = config.hash_mb;
        self.threads = config.threads;
        self.ponder = config.ponder;
    }

    fn clear(&mut self) {
        if let Some(e) = self.engine.as_mut() {
            e.clear();
        }
        self.mate.clear();
    }

    fn ready(&mut self) {
        self.engine();
    }

    fn prepare(&mut self, job: &EngineJob) {
        match job {
            EngineJob::Play { .. } => {
                self.engine();
            }
            EngineJob::Mate(job) => self.mate.prepare(job),
        }
    }

    fn search(&mut self, job: EngineJob, report: &mut dyn FnMut(EngineProgress)) -> EngineOutcome {
        match job {
            EngineJob::Play { pos, limits, control } => {
                let mut info = |i: &SearchInfo| report(EngineProgress::Info(i.clone()));
                EngineOutcome::Play(self.engine().search(&pos, &limits, &control, &mut info))
            }
            EngineJob::Mate(job) => {
                let mut progress = |p: Progress| report(EngineProgress::Mate(p));
                EngineOutcome::Mate(self.mate.search(job, &mut progress))
            }
        }
    }

    fn reset(&mut self) {
        self.engine = None;
        self.mate.reset();
    }

    fn take_notes(&mut self) -> Vec<String> {
        let mut notes = std::mem::take(&mut self.notes);
        notes.extend(self.mate.take_notes());
        notes
    }
}
