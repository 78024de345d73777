//! Shared stop/time state between a front end (which owns the clock and the `stop`/`ponderhit`
//! commands) and the search (which polls it).

use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// When a running search must end. The search polls [`SearchControl::must_stop`] every few
/// thousand nodes and [`SearchControl::may_start_iteration`] between iterations; the front end
/// calls [`SearchControl::stop`] and [`SearchControl::ponderhit`] from another thread.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    clock: Mutex<Clock>,
    /// `None`: the real clock. `Some(step)`: a clock that moves on by `step` at every reading
    /// (see [`SearchControl::stepped`]).
    step: Option<Duration>,
    /// Readings of the clock since its base (counted for a stepped clock only).
    readings: AtomicU64,
}

#[derive(Clone, Copy, Debug)]
struct Clock {
    /// Time is counted from here (the `go`, or the `ponderhit` when pondering).
    base: Instant,
    /// Do not start a new iteration after this much time.
    soft: Option<Duration>,
    /// Abort the search after this much time.
    hard: Option<Duration>,
}

impl SearchControl {
    /// A control for a search starting now; `soft`/`hard` are `None` for no time limit.
    /// A pondering search ignores both until [`SearchControl::ponderhit`].
    pub fn new(soft: Option<Duration>, hard: Option<Duration>, pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            clock: Mutex::new(Clock { base: Instant::now(), soft, hard }),
            step: None,
            readings: AtomicU64::new(0),
        }
    }

    /// A control whose clock moves on by `step` each time it is read, whatever the real time:
    /// time measured in the search's own polls, so that a test of the deadline asserts what
    /// the engine controls (how soon after its deadline it ends, in polls) and holds on a
    /// machine whose scheduler holds the search back.
    pub fn stepped(
        soft: Option<Duration>,
        hard: Option<Duration>,
        step: Duration,
    ) -> SearchControl {
        SearchControl { step: Some(step), ..SearchControl::new(soft, hard, false) }
    }

    /// How often the clock has been read since its base (a stepped clock; 0 for the real one).
    pub fn readings(&self) -> u64 {
        self.readings.load(Ordering::Relaxed)
    }

    /// Time since the clock's base.
    fn since(&self, clock: &Clock) -> Duration {
        match self.step {
            None => clock.base.elapsed(),
            Some(step) => {
                let n = self.readings.fetch_add(1, Ordering::Relaxed) + 1;
                step.saturating_mul(n.min(u32::MAX as u64) as u32)
            }
        }
    }

    /// No time limit: runs until `stop` (or the search's own depth/node limit).
    pub fn unlimited() -> SearchControl {
        SearchControl::new(None, None, false)
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The `stop` flag itself, for a solver run inside the search: it ends at `stop` too.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// The opponent played the predicted move: the clock starts now with the given budget.
    pub fn ponderhit(&self, soft: Option<Duration>, hard: Option<Duration>) {
        *self.clock.lock() = Clock { base: Instant::now(), soft, hard };
        self.readings.store(0, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// The soft limit in force (`None` without a clock, or while pondering before
    /// `ponderhit`).
    pub fn soft_limit(&self) -> Option<Duration> {
        if self.is_pondering() {
            return None;
        }
        self.clock.lock().soft
    }

    /// Whether time not spent on this move is kept for later ones: the soft limit is below the
    /// hard one. With only byoyomi or a fixed time per move left, time saved is lost.
    pub fn saves_unspent_time(&self) -> bool {
        let clock = *self.clock.lock();
        match (clock.soft, clock.hard) {
            (Some(soft), Some(hard)) => soft < hard,
            _ => false,
        }
    }

    /// How far past its hard limit the search is now (zero before it; `None` without one,
    /// or while pondering): measured when the answer goes out, it is the answer's lateness.
    pub fn overrun(&self) -> Option<Duration> {
        if self.is_pondering() {
            return None;
        }
        let clock = *self.clock.lock();
        clock.hard.map(|hard| self.since(&clock).saturating_sub(hard))
    }

    /// Time left before the hard limit (`None` without one, or while pondering).
    pub fn time_left(&self) -> Option<Duration> {
        if self.is_pondering() {
            return None;
        }
        let clock = *self.clock.lock();
        clock.hard.map(|hard| hard.saturating_sub(self.since(&clock)))
    }

    /// Time since the clock base.
    pub fn elapsed(&self) -> Duration {
        let clock = *self.clock.lock();
        self.since(&clock)
    }

    /// Whether the search must end now (stopped, or past the hard limit while not pondering).
    pub fn must_stop(&self) -> bool {
        if self.is_stopped() {
            return true;
        }
        if self.is_pondering() {
            return false;
        }
        let clock = *self.clock.lock();
        clock.hard.is_some_and(|hard| self.since(&clock) >= hard)
    }

    /// Whether another iteration may begin (not stopped, and before the soft limit unless
    /// pondering). `stable` scales the soft limit: a search whose best move keeps changing may
    /// pass a factor above 1 to think longer, never beyond the hard limit. When the soft limit
    /// is the hard one (a fixed time per move, or byoyomi with no main time left), time saved
    /// now cannot be spent later, so the search goes on until the hard limit.
    pub fn may_start_iteration(&self, stable: f64) -> bool {
        if self.must_stop() {
            return false;
        }
        if self.is_pondering() {
            return true;
        }
        let clock = *self.clock.lock();
        match (clock.soft, clock.hard) {
            (None, _) => true,
            (Some(soft), Some(hard)) if soft >= hard => true,
            (Some(soft), _) => self.since(&clock) < soft.mul_f64(stable.max(0.0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: Duration = Duration::from_secs(60);

    /// The time left runs down to zero at the hard limit and stays there; none without a hard
    /// limit or while pondering.
    #[test]
    fn time_left_counts_down_to_the_hard_limit() {
        let ms = Duration::from_millis;
        let c = SearchControl::stepped(None, Some(ms(100)), ms(30));
        let left: Vec<_> = (0..5).filter_map(|_| c.time_left()).collect();
        assert_eq!(left, vec![ms(70), ms(40), ms(10), ms(0), ms(0)]);
        assert_eq!(SearchControl::unlimited().time_left(), None);
        let pondering = SearchControl::new(Some(ms(50)), Some(ms(100)), true);
        assert_eq!(pondering.time_left(), None);
        pondering.ponderhit(Some(ms(50)), Some(ms(100)));
        assert!(pondering.time_left().is_some());
    }

    #[test]
    fn a_stable_search_stops_early_only_when_time_can_be_saved() {
        // With a margin between soft and hard, a stability factor of 0 ends the search.
        let bankable = SearchControl::new(Some(MINUTE), Some(2 * MINUTE), false);
        assert!(!bankable.may_start_iteration(0.0));
        assert!(bankable.may_start_iteration(1.0));
        // A fixed time per move: the search uses all of it whatever the factor.
        let fixed = SearchControl::new(Some(MINUTE), Some(MINUTE), false);
        assert!(fixed.may_start_iteration(0.0));
        fixed.stop();
        assert!(!fixed.may_start_iteration(1.0));
    }

    #[test]
    fn the_overrun_counts_from_the_hard_limit() {
        let past = SearchControl::new(None, Some(Duration::ZERO), false);
        std::thread::sleep(Duration::from_millis(3));
        assert!(past.overrun().is_some_and(|o| o >= Duration::from_millis(3)));
        let ahead = SearchControl::new(None, Some(MINUTE), false);
        assert_eq!(ahead.overrun(), Some(Duration::ZERO));
        assert_eq!(SearchControl::unlimited().overrun(), None);
        let pondering = SearchControl::new(None, Some(Duration::ZERO), true);
        assert_eq!(pondering.overrun(), None);
    }
}
