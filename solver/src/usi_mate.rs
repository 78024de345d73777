//! `go mate` as both programs answer it: a df-pn search of the position, answered with
//! `checkmate <moves>`, `checkmate nomate` or `checkmate timeout`.
//!
//! The search-thread half is [`MateBackend`], which runs [`MateJob`]s (the playing engine embeds
//! it for its `go mate`); the loop half is [`MateSearch`], which keeps what the answer needs.
//! A mate line that fails the rules check ([`verify_mate_line`]) is still sent, after an
//! `info string warning: ...`: a search bug should be visible, not hidden.

use crate::config::{Rules, SolverConfig};
use crate::mate_line::{moves_to_usi, root_defends, verify_mate_line};
use crate::outcome::{Limits, Outcome, Phase, Progress, SolveResult};
use crate::search::Solver;
use shogi::{Move, Position};
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use usi::info::{millis, nps};
use usi::{Hold, Output, Plan, SearchBackend, Timing};

/// The `info` line for a progress report of the df-pn solver.
/// A phase's first report says which phase began instead of the root's pn and dn.
pub fn progress_info(p: &Progress) -> String {
    let what = match p.began {
        Some(phase) => format!("now {}", phase.describe()),
        None => format!("pn {} dn {}", p.root_pn, p.root_dn),
    };
    format!(
        "info time {} nodes {} nps {} hashfull {} string {what}",
        millis(p.elapsed),
        p.nodes,
        nps(p.nodes, p.elapsed),
        p.hashfull,
    )
}

/// One df-pn search, for the search thread.
pub struct MateJob {
    pub pos: Box<Position>,
    pub limits: Limits,
    /// Raised by the loop to stop the search.
    pub stop: Arc<AtomicBool>,
}

/// The solver, built on first use (so that a `USI_Hash` sent after `usi` does not first
/// allocate the default table) and reconfigured when the settings changed.
pub struct MateBackend {
    config: SolverConfig,
    solver: Option<Solver>,
    /// Lines for `info string` (the table file opened, or why not), not yet sent.
    notes: Vec<String>,
}

impl MateBackend {
    pub fn new(config: SolverConfig) -> MateBackend {
        MateBackend { config, solver: None, notes: Vec::new() }
    }

    fn solver(&mut self) -> &mut Solver {
        let config = &self.config;
        let s = self.solver.get_or_insert_with(|| Solver::new(config.clone()));
        if s.config() != config {
            s.set_config(config.clone());
        }
        // A table file that cannot be used leaves an in-memory table: the engine carries on.
        self.notes.extend(s.take_table_log());
        s
    }
}

impl SearchBackend for MateBackend {
    type Config = SolverConfig;
    type Job = MateJob;
    type Progress = Progress;
    type Outcome = SolveResult;

    const THREAD_NAME: &'static str = "mate-search";
    const STACK_BYTES: usize = crate::stack::SEARCH_STACK_BYTES;

    fn configure(&mut self, config: SolverConfig) {
        self.config = config;
    }

    fn clear(&mut self) {
        if let Some(s) = self.solver.as_mut() {
            s.clear();
        }
    }

    fn ready(&mut self) {
        self.solver();
    }

    fn prepare(&mut self, _job: &MateJob) {
        self.solver();
    }

    fn search(&mut self, job: MateJob, report: &mut dyn FnMut(Progress)) -> SolveResult {
        let mut progress = |p: &Progress| report(p.clone());
        let solver = self.solver();
        let result = solver.solve(&job.pos, &job.limits, &job.stop, &mut progress);
        if let Err(e) = solver.flush_table() {
            self.notes.push(format!("error: table file: cannot flush: {e}"));
        }
        result
    }

    fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    fn reset(&mut self) {
        self.solver = None;
    }
}

/// A running df-pn search, as the loop keeps it.
pub struct MateSearch {
    pub root: Position,
    /// The rules the answer follows (for the rules check of the line).
    pub rules: Rules,
    pub stop: Arc<AtomicBool>,
    /// The table fill of the last report, for the final `info` line.
    pub hashfull: u32,
}

impl MateSearch {
    /// A search of `root` within `limits`: the loop's half and the search thread's half.
    pub fn start(root: &Position, limits: Limits, rules: Rules) -> (MateSearch, MateJob) {
        let stop = Arc::new(AtomicBool::new(false));
        let search = MateSearch { root: root.clone(), rules, stop: Arc::clone(&stop), hashfull: 0 };
        (search, MateJob { pos: Box::new(root.clone()), limits, stop })
    }

    /// The plan of `go mate`: answered as soon as it ends, which is on its own when it has a
    /// limit; the time counts from when the solver starts (after any table allocation).
    pub fn plan(root: &Position, limits: Limits, rules: Rules) -> Plan<MateSearch, MateJob> {
        let timing = Timing {
            hold: Hold::No,
            deadline: None,
            time_after_start: limits.time,
            finite: limits.time.is_some() || limits.nodes.is_some(),
        };
        let (search, job) = MateSearch::start(root, limits, rules);
        Plan { search, job, timing }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// An `info` line for a progress report; for a main line found while the answer is
    /// refined (a mate within its length, shorter ones still looked for), its length as
    /// `score mate` and the line as `pv`, so that a GUI shows the answer tighten.
    pub fn progress(&mut self, p: &Progress, out: &mut Output<'_>) -> io::Result<()> {
        self.hashfull = p.hashfull;
        match p.mate.as_ref().filter(|m| !m.is_empty()) {
            Some(moves) => out.send(&self.mate_info(p.elapsed, p.nodes, moves, true)),
            None => out.send(&progress_info(p)),
        }
    }

    /// An `info` line with the search's counts, the mate as `score mate +n` (`-n` when the
    /// side to move is the one mated) when `with_score`, and the line as `pv`.
    fn mate_info(&self, elapsed: Duration, nodes: u64, moves: &[Move], with_score: bool) -> String {
        let mut info = format!(
            "info time {} nodes {} nps {} hashfull {}",
            millis(elapsed),
            nodes,
            nps(nodes, elapsed),
            self.hashfull
        );
        if !moves.is_empty() {
            if with_score {
                let sign = if root_defends(&self.root) { "-" } else { "+" };
                info.push_str(&format!(" score mate {sign}{}", moves.len()));
            }
            info.push_str(" pv ");
            info.push_str(&moves_to_usi(moves));
        }
        info
    }

    /// The final `info` line of a search, with the mate line as `pv` and, when `with_score`,
    /// the mate as `score mate +n` (`-n` when the side to move is the one mated).
    pub fn report(
        &self,
        r: &SolveResult,
        with_score: bool,
        out: &mut Output<'_>,
    ) -> io::Result<()> {
        let moves = match &r.outcome {
            Outcome::Mate(moves) => {
                if let Err(e) = verify_mate_line(&self.root, moves, self.rules) {
                    out.info_string(&format!(
                        "warning: the search's mate line fails the rules check: {e}"
                    ))?;
                }
                &moves[..]
            }
            _ => &[],
        };
        out.send(&self.mate_info(r.elapsed, r.nodes, moves, with_score))
    }

    /// The answer to `go mate`: the final `info` line, then `checkmate ...`.
    pub fn answer(&self, r: &SolveResult, out: &mut Output<'_>) -> io::Result<()> {
        self.report(r, false, out)?;
        match &r.outcome {
            Outcome::Mate(moves) if moves.is_empty() => {
                out.info_string("the side to move is already mated")?;
                out.send("checkmate nomate")
            }
            Outcome::Mate(moves) => {
                if let Some((line, _)) = r.phases.final_line {
                    let ms = |d: std::time::Duration| d.as_millis();
                    out.info_string(&format!(
                        "first proof at {} ms, this line at {} ms, then {} ms looking for a shorter one",
                        ms(r.phases.first_proof.0),
                        ms(line),
                        ms(r.elapsed.saturating_sub(line)),
                    ))?;
                }
                if let Some(phase) = r.cut {
                    out.info_string(&cut_note(phase, r.main_line))?;
                } else if !r.main_line {
                    out.info_string("the line is one line of the proof, not the main line")?;
                } else if !r.proven_shortest {
                    out.info_string("main line of the mates found; no shorter mate was ruled out")?;
                }
                out.send(&format!("checkmate {}", moves_to_usi(moves)))
            }
            Outcome::NoMate => out.send("checkmate nomate"),
            Outcome::Timeout => {
                if r.depth_limited {
                    out.info_string("no mate within the depth limit; one may lie beyond it")?;
                }
                out.send("checkmate timeout")
            }
        }
    }
}

/// What an answer that a limit or `stop` cut short in `phase` holds.
pub fn cut_note(phase: Phase, main_line: bool) -> String {
    let what = if main_line {
        "the main line of the mates found so far; no shorter mate was ruled out"
    } else {
        "the first proof's line, not shortened"
    };
    format!("cut short (time limit or stop) in {}: {what}", phase.describe())
}
