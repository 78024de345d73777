//! Limits, stop and progress: what the search polls as it runs.

use super::dfpn::Search;
use crate::clock::Instant;
use crate::outcome::{Phase, Progress};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Table fill (permille) at which low-effort unsolved entries are swept.
const GC_HASHFULL: u32 = 900;

/// Nodes between two polls of stop, time and progress.
const POLL_NODES: u64 = 1024;

impl Search<'_> {
    fn stop_all(&mut self) {
        if !self.stopped {
            self.cut = Some(self.phase);
        }
        self.aborted = true;
        self.stopped = true;
    }

    /// Polls `stop` and the time limit, for the phases that search no node for long
    /// stretches (building and reading lines, asking the table): `check_limits` comes only
    /// with df-pn's nodes. Returns whether the search must end. About 25 ns.
    pub(super) fn out_of_time(&mut self) -> bool {
        if !self.stopped
            && (self.stop.load(Ordering::Relaxed)
                || self.limits.time.is_some_and(|t| self.start.elapsed() >= t))
        {
            self.stop_all();
        }
        self.stopped
    }

    /// Enters `phase` (what a stop from now on cuts short).
    /// The first entry of each phase is recorded and reported.
    pub(super) fn begin(&mut self, phase: Phase) {
        self.phase = phase;
        let entered = &mut self.entered[phase.index()];
        if entered.is_some() {
            return;
        }
        let elapsed = self.start.elapsed();
        *entered = Some(elapsed);
        let Some(progress) = self.progress.as_mut() else { return };
        let report = Progress {
            nodes: self.nodes,
            elapsed,
            hashfull: self.table.hashfull(),
            root_pn: self.root_value.0,
            root_dn: self.root_value.1,
            mate: None,
            began: Some(phase),
        };
        progress(&report);
    }

    /// Polls stop, limits and progress once every 1,024 nodes, and at the node limit itself:
    /// a caller's limit under the interval (the engine's probes ask for 300) must not grow
    /// to 1,024. (Testing `nodes % 1024 == 0` would miss most polls: one expansion adds many
    /// nodes at once.) The internal caps of the main line's questions keep the interval:
    /// their sizes were chosen with it.
    pub(super) fn check_limits(&mut self) {
        if self.aborted || self.nodes < self.next_check {
            return;
        }
        self.next_check = self.nodes + POLL_NODES;
        if let Some(limit) = self.limits.nodes {
            self.next_check = self.next_check.min(limit);
        }
        if self.stop.load(Ordering::Relaxed) || self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stop_all();
            return;
        }
        if self.cap.is_some_and(|c| self.nodes >= c) {
            self.aborted = true;
            return;
        }
        if self.nodes >= self.next_gc_check {
            self.next_gc_check = self.nodes + (1 << 16);
            if self.table.hashfull() >= GC_HASHFULL {
                self.table.collect_garbage();
            }
        }
        let now = Instant::now();
        if self.limits.time.is_some_and(|t| now.duration_since(self.start) >= t) {
            self.stop_all();
            return;
        }
        if now >= self.next_report {
            self.next_report = now + Duration::from_secs(1);
            let report = Progress {
                nodes: self.nodes,
                elapsed: now.duration_since(self.start),
                hashfull: self.table.hashfull(),
                root_pn: self.root_value.0,
                root_dn: self.root_value.1,
                mate: None,
                began: None,
            };
            if let Some(progress) = self.progress.as_mut() {
                progress(&report);
            }
        }
    }

    /// Reports the main line known so far (see [`Progress::mate`]) to whoever listens.
    pub(super) fn report_line(&mut self, moves: &[shogi::Move]) {
        let Some(progress) = self.progress.as_mut() else { return };
        let report = Progress {
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            hashfull: self.table.hashfull(),
            root_pn: 0,
            root_dn: crate::pn::INF,
            mate: Some(moves.to_vec()),
            began: None,
        };
        progress(&report);
    }
}
