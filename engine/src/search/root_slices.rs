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
//!
//! Two things raise the oracle's part. A search whose last score is decisive
//! (`oracle_root_decisive_cp`) gives it `oracle_root_decisive_share_pct` of its time: the
//! game is won on material, what is left to find is the mate, and the mates of such positions
//! need 10-120 ms of df-pn, more than 12 % of a 200 ms move. And a search that ends on a mate
//! of its own, which the oracle has not proven, hands it the rest of the move's time
//! ([`RootSlices::verify`]): a mate score from a pruned alpha-beta search is a claim (a
//! defence reduced or pruned away can make one), a df-pn proof is a proof, so the proven line
//! is the one played.

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
    /// ...and while the search's score is decisive.
    pub decisive_share_pct: u32,
    /// The oracle's time for the whole search (`oracle_root_ms`).
    pub budget: Duration,
}

impl SlicePlan {
    /// The next slice when `spent` of the oracle's time has gone by `elapsed` since the search
    /// began: none while the oracle is ahead of its share or has used its budget.
    pub fn next(&self, elapsed: Duration, spent: Duration, decisive: bool) -> Option<Duration> {
        let share =
            if decisive { self.decisive_share_pct.max(self.share_pct) } else { self.share_pct };
        let left = self.budget.saturating_sub(spent);
        let due = elapsed.mul_f64(share.min(100) as f64 / 100.0);
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
    /// Whether the search's last score is decisive (see the module doc).
    decisive: bool,
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
            decisive: false,
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
        let Some(slice) = self.plan.next(self.started.elapsed(), self.spent, self.decisive) else {
            return;
        };
        self.give(slice, control);
    }

    /// Marks the search's last score decisive or not (see the module doc).
    pub fn set_decisive(&mut self, decisive: bool) {
        self.decisive = decisive;
    }

    /// The search ended on a mate of its own that the oracle has not settled: the oracle has
    /// the rest of the move (to the soft limit, else the hard one, else its budget) to prove a
    /// mate.
    #[cold]
    pub fn verify(&mut self, control: &SearchControl) {
        while self.verdict.is_none() && !control.must_stop() {
            let left = match control.soft_limit() {
                Some(soft) => soft.saturating_sub(control.elapsed()),
                None => control.time_left().unwrap_or(SLICE),
            };
            let slice = left.min(SLICE).min(self.plan.budget.saturating_sub(self.spent));
            if slice.is_zero() {
                break;
            }
            self.give(slice, control);
        }
    }

    /// One slice of at most `slice`, never past the hard limit.
    fn give(&mut self, mut slice: Duration, control: &SearchControl) {
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
        let plan = SlicePlan { share_pct: 10, decisive_share_pct: 50, budget: ms(10) };
        assert_eq!(plan.next(ms(0), ms(0), false), Some(SLICE));
        // 4 ms spent: due again once 40 ms have gone by.
        assert_eq!(plan.next(ms(39), ms(4), false), None);
        assert_eq!(plan.next(ms(40), ms(4), false), Some(SLICE));
        assert_eq!(plan.next(ms(80), ms(8), false), Some(ms(2)));
        assert_eq!(plan.next(ms(1000), ms(10), false), None);
        // Over a long search the oracle's time stays within its share and one slice.
        let plan = SlicePlan { share_pct: 12, decisive_share_pct: 50, budget: ms(60_000) };
        let (mut spent, mut elapsed) = (Duration::ZERO, Duration::ZERO);
        while elapsed < ms(2000) {
            if let Some(slice) = plan.next(elapsed, spent, false) {
                spent += slice;
                elapsed += slice;
            }
            elapsed += ms(1);
            assert!(spent <= elapsed.mul_f64(0.12) + SLICE, "{spent:?} of {elapsed:?}");
        }
        assert!(spent >= ms(2000).mul_f64(0.12) - SLICE, "{spent:?}");
    }

    /// A decisive score raises the share: 4 ms spent are due again after 8 ms, not 40.
    #[test]
    fn a_decisive_score_raises_the_share() {
        let ms = Duration::from_millis;
        let plan = SlicePlan { share_pct: 10, decisive_share_pct: 50, budget: ms(100) };
        assert_eq!(plan.next(ms(7), ms(4), true), None);
        assert_eq!(plan.next(ms(8), ms(4), true), Some(SLICE));
        assert_eq!(plan.next(ms(8), ms(4), false), None);
        // A decisive share below the plain one leaves the plain one.
        let plan = SlicePlan { share_pct: 10, decisive_share_pct: 5, budget: ms(100) };
        assert_eq!(plan.next(ms(40), ms(4), true), Some(SLICE));
    }
}
