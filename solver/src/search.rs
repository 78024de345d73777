//! The df-pn search. (Being written: this placeholder answers `Timeout`.)

use crate::config::SolverConfig;
use crate::outcome::{Limits, Outcome, Progress, SolveResult};
use shogi::Position;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub struct Solver {
    config: SolverConfig,
}

impl Solver {
    pub fn new(config: SolverConfig) -> Solver {
        Solver { config }
    }
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }
    /// Applies new settings; a new hash size reallocates the table.
    pub fn set_config(&mut self, config: SolverConfig) {
        self.config = config;
    }
    /// Forgets everything learnt (USI `usinewgame`).
    pub fn clear(&mut self) {}

    /// Solves `pos`: the side to move attacks, unless it is in check, in which case it defends
    /// (an AND node root). Checks `stop` often enough to return within a few milliseconds, and
    /// calls `progress` about once a second.
    pub fn solve(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SolveResult {
        let start = Instant::now();
        let _ = (pos, limits, stop);
        progress(&Progress { nodes: 0, elapsed: Duration::ZERO, hashfull: 0, root_pn: 1, root_dn: 1 });
        SolveResult { outcome: Outcome::Timeout, nodes: 0, elapsed: start.elapsed() }
    }
}
