//! Questions asked at once: several threads, each solving a question of its own, alone, on the
//! solver's one table.
//!
//! The helpers of a [`super::team`] all prove the *same* root, and walk much the same critical
//! path at the same time: a disproof shared by threads costs more nodes than the same disproof
//! found alone (issue 47: the nodes of every thread grow about as 0.65 × the threads). Many
//! questions that do not depend on each other (the composer's report: is this other check a
//! cook? how long does this other defence resist?) are better asked one a thread: each thread
//! searches a root of its own, with its own path and repetition tier, and what one proves or
//! disproves the others still find in the shared table. Who takes which question, and in which
//! order, is the caller's (see `composer::questions`).

use super::other_moves::{known_on, other_moves_on, OtherMovesResult};
use super::{solve_on, Asked};
use crate::config::SolverConfig;
use crate::outcome::{Limits, SolveResult};
use crate::repetition_table::RepetitionTable;
use crate::tt::Table;
use shogi::{Color, Move, Position};
use std::sync::atomic::AtomicBool;

/// What one thread of [`Solver::at_once`](super::Solver::at_once) solves with: the shared
/// table, a repetition tier of its own, and the solver's settings with one thread (no helper:
/// the other threads have questions of their own).
pub struct QuestionThread<'a> {
    table: &'a Table,
    repetitions: &'a mut RepetitionTable,
    config: &'a SolverConfig,
    /// The same settings with `expect_no` (see [`QuestionThread::expect_no`]).
    expecting_no: SolverConfig,
    /// Whether the next questions are asked with `expecting_no`.
    expect_no: bool,
}

impl<'a> QuestionThread<'a> {
    fn new(
        table: &'a Table,
        repetitions: &'a mut RepetitionTable,
        config: &'a SolverConfig,
    ) -> QuestionThread<'a> {
        let expecting_no = SolverConfig { expect_no: true, ..config.clone() };
        QuestionThread { table, repetitions, config, expecting_no, expect_no: false }
    }

    /// Asks the next questions as ones expected to answer "no mate" (or not): see
    /// [`SolverConfig::expect_no`].
    pub fn expect_no(&mut self, yes: bool) {
        self.expect_no = yes;
    }

    /// The settings of the next question.
    fn settings(&self) -> &SolverConfig {
        if self.expect_no {
            &self.expecting_no
        } else {
            self.config
        }
    }

    /// The next question's settings with no mate longer than `plies` plies from the position
    /// `prefix` reaches (within the solver's own depth limit).
    fn settings_within(&self, prefix: &[Move], plies: u16) -> SolverConfig {
        let way = prefix.len().min(u16::MAX as usize) as u16;
        let max_ply = way.saturating_add(plies).min(self.config.max_ply);
        SolverConfig { max_ply, ..self.settings().clone() }
    }

    /// As [`Solver::solve_after`](super::Solver::solve_after), on this thread alone.
    pub fn solve_after(
        &mut self,
        origin: &Position,
        prefix: &[Move],
        attacker: Color,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> SolveResult {
        let asked = Asked { origin, prefix, attacker, limits, stop };
        let config = if self.expect_no { &self.expecting_no } else { self.config };
        solve_on(self.table, self.repetitions, config, &asked, &mut |_| {}).result
    }

    /// As [`QuestionThread::solve_after`], a root the table already proves refined as one just
    /// proven (see [`SolverConfig::refine_recalled`]).
    pub fn solve_after_refined(
        &mut self,
        origin: &Position,
        prefix: &[Move],
        attacker: Color,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> SolveResult {
        let asked = Asked { origin, prefix, attacker, limits, stop };
        let config = SolverConfig { refine_recalled: true, ..self.settings().clone() };
        solve_on(self.table, self.repetitions, &config, &asked, &mut |_| {}).result
    }

    /// As [`QuestionThread::solve_after`], with no mate longer than `plies` plies from the
    /// position reached (a depth-limited solve: a timeout with `depth_limited` says that no
    /// mate is that short).
    pub fn solve_after_within(
        &mut self,
        origin: &Position,
        prefix: &[Move],
        attacker: Color,
        plies: u16,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> SolveResult {
        let asked = Asked { origin, prefix, attacker, limits, stop };
        let config = self.settings_within(prefix, plies);
        solve_on(self.table, self.repetitions, &config, &asked, &mut |_| {}).result
    }

    /// Whether any check of the position `prefix` reaches from `origin` but `left_out` mates,
    /// searched as one question (see [`super::OtherMoves`]), on this thread alone.
    pub fn other_moves(
        &mut self,
        origin: &Position,
        prefix: &[Move],
        attacker: Color,
        left_out: &[Move],
        limits: &Limits,
        stop: &AtomicBool,
    ) -> OtherMovesResult {
        let asked = Asked { origin, prefix, attacker, limits, stop };
        let config = if self.expect_no { &self.expecting_no } else { self.config };
        other_moves_on(self.table, self.repetitions, config, &asked, left_out)
    }

    /// As [`QuestionThread::other_moves`], with no mate longer than `plies` plies from the
    /// position reached, its checks counted (a depth-limited question: a "no" is
    /// [`super::OtherMoves::DepthLimited`] with the depth it holds for).
    #[allow(clippy::too_many_arguments)]
    pub fn other_moves_within(
        &mut self,
        origin: &Position,
        prefix: &[Move],
        attacker: Color,
        left_out: &[Move],
        plies: u16,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> OtherMovesResult {
        let asked = Asked { origin, prefix, attacker, limits, stop };
        let config = self.settings_within(prefix, plies);
        other_moves_on(self.table, self.repetitions, &config, &asked, left_out)
    }

    /// What the table alone says of the position `prefix` reaches (see
    /// [`super::Solver::known_after`]).
    pub fn known_after(
        &mut self,
        origin: &Position,
        prefix: &[Move],
        attacker: Color,
    ) -> Option<bool> {
        known_on(self.table, self.repetitions, self.config, origin, prefix, attacker)
    }
}

impl super::Solver {
    /// Runs `work` on `threads` threads at once (this one and `threads − 1` more, at least
    /// this one), each with a [`QuestionThread`] of its own over the solver's table; returns
    /// what each returned, this thread's first. A thread that cannot start, or that panics,
    /// only costs its share of the work (its result is missing); a panic on this thread is
    /// not caught.
    pub fn at_once<R: Send>(
        &mut self,
        threads: usize,
        work: impl Fn(&mut QuestionThread<'_>) -> R + Sync,
    ) -> Vec<R> {
        let threads = threads.max(1);
        let config = SolverConfig { threads: 1, profile: false, ..self.config.clone() };
        self.table.set_shared(threads > 1);
        let (table, repetitions, config, work) =
            (&self.table, &mut self.repetitions, &config, &work);
        let results = std::thread::scope(|scope| {
            let others: Vec<_> = (1..threads)
                .filter_map(|k| {
                    let run = move || {
                        let mut repetitions = RepetitionTable::default();
                        let mut own = QuestionThread::new(table, &mut repetitions, config);
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&mut own)))
                            .ok()
                    };
                    let name = format!("question-{k}");
                    crate::stack::search_thread(&name).spawn_scoped(scope, run).ok()
                })
                .collect();
            let mut own = QuestionThread::new(table, repetitions, config);
            let mut results = vec![work(&mut own)];
            results.extend(others.into_iter().filter_map(|h| h.join().ok().flatten()));
            results
        });
        self.table.set_shared(false);
        results
    }
}
