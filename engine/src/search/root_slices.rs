//! The root oracle's turns in the main search thread's own time.
//!
//! `Threads` counts every thread that thinks, so the root df-pn search has no thread of its
//! own: the main alpha-beta thread hands it a slice of its time at its polls (every 1,024
//! nodes), whenever the oracle's time so far is at most `oracle_root_share_pct` of the time
//! since the search began, up to `oracle_root_ms` in all. The first slice comes at the first
//! poll, so a short mate is proven at once; the solver keeps its table between slices, so a
//! long proof goes on where it left off. With more threads the helpers go on with the
//! alpha-beta search while the main thread solves. The oracle ends at a proof (the
//! alpha-beta search then ends too) or a disproof.

use crate::search::control::SearchControl;
use crate::search::oracle::{RootOracle, RootVerdict};
use shogi::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The longest slice: short enough that the alpha-beta search keeps its pace (a move of
/// 100 ms still gets several polls between slices), long enough that the solver's start
/// costs nothing beside it.
pub const SLICE: Duration = Duration::from_millis(4);

/// When the oracle may have its next slice, and how long: the pure part of [`RootSlices`],
/// tested without a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlicePlan {
    /// Share of the main thread's time the oracle may use, in percent.
    pub share_pct: u32,
    /// The oracle's time for the whole search (`oracle_root_ms`).
    pub budget: Duration,
}

impl SlicePlan {
    /// The next slice when `spent` of the oracle's time has gone by `elapsed` since the search
    /// began: none while the oracle is ahead of its share or has used its budget.
    pub fn next(&self, elapsed: Duration, spent: Duration) -> Option<Duration> {
        let left = self.budget.saturating_sub(spent);
        let due = elapsed.mul_f64(self.share_pct.min(100) as f64 / 100.0);
        (!left.is_zero() && spent <= due).then(|| left.min(SLICE))
    }
}

/// The root oracle of one search, run in slices by the main thread (see the module doc).
pub struct RootSlices<'a> {
    oracle: &'a mut RootOracle,
    pos: Position,
    plan: SlicePlan,
    hash_mb: usize,
    /// Set when a slice proves a result: the main thread's search ends.
    found: &'a AtomicBool,
    started: Instant,
    spent: Duration,
    slices: u32,
    /// The answer once the solver has one (a proof, or no mate).
    verdict: Option<RootVerdict>,
}

impl<'a> RootSlices<'a> {
    pub fn new(
        oracle: &'a mut RootOracle,
        pos: &Position,
        plan: SlicePlan,
        hash_mb: usize,
        found: &'a AtomicBool,
    ) -> RootSlices<'a> {
        RootSlices {
            oracle,
            pos: pos.clone(),
            plan,
            hash_mb,
            found,
            started: Instant::now(),
            spent: Duration::ZERO,
            slices: 0,
            verdict: None,
        }
    }

    /// Gives the oracle a slice if its share is due, never past the search's hard limit and
    /// ended by `stop`. Called at the main thread's polls, outside the hot path.
    #[cold]
    #[inline(never)]
    pub fn turn(&mut self, control: &SearchControl) {
        if self.verdict.is_some() || control.is_stopped() {
            return;
        }
        let Some(mut slice) = self.plan.next(self.started.elapsed(), self.spent) else { return };
        if let Some(left) = control.time_left() {
            slice = slice.min(left);
        }
        if slice.is_zero() {
            return;
        }
        let began = Instant::now();
        let answer = self.oracle.solve(&self.pos, slice, self.hash_mb, control.stop_flag());
        self.spent += began.elapsed();
        self.slices += 1;
        if let Some(verdict) = answer {
            if matches!(verdict, RootVerdict::Win(_) | RootVerdict::Loss(_)) {
                self.found.store(true, Ordering::Relaxed);
            }
            self.verdict = Some(verdict);
        }
    }

    /// The oracle's time in this search.
    pub fn spent(&self) -> Duration {
        self.spent
    }

    pub fn slices(&self) -> u32 {
        self.slices
    }

    /// What the oracle proved (`Unknown` when it proved nothing, or no mate).
    pub fn verdict(self) -> RootVerdict {
        self.verdict.unwrap_or(RootVerdict::Unknown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle takes its slices while it is within its share of the elapsed time, the first
    /// at once, and none past its budget; the last slice is cut to the budget.
    #[test]
    fn slices_keep_to_the_share_and_the_budget() {
        let ms = Duration::from_millis;
        let plan = SlicePlan { share_pct: 10, budget: ms(10) };
        assert_eq!(plan.next(ms(0), ms(0)), Some(SLICE));
        // 4 ms spent: due again once 40 ms have gone by.
        assert_eq!(plan.next(ms(39), ms(4)), None);
        assert_eq!(plan.next(ms(40), ms(4)), Some(SLICE));
        assert_eq!(plan.next(ms(80), ms(8)), Some(ms(2)));
        assert_eq!(plan.next(ms(1000), ms(10)), None);
        // Over a long search the oracle's time stays within its share and one slice.
        let plan = SlicePlan { share_pct: 12, budget: ms(60_000) };
        let (mut spent, mut elapsed) = (Duration::ZERO, Duration::ZERO);
        while elapsed < ms(2000) {
            if let Some(slice) = plan.next(elapsed, spent) {
                spent += slice;
                elapsed += slice;
            }
            elapsed += ms(1);
            assert!(spent <= elapsed.mul_f64(0.12) + SLICE, "{spent:?} of {elapsed:?}");
        }
        assert!(spent >= ms(2000).mul_f64(0.12) - SLICE, "{spent:?}");
    }
}
