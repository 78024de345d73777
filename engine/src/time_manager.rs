//! How long to think: from the clock of a `go` command to the soft and hard limits of a
//! [`SearchControl`].
//!
//! The one rule is never to lose on time. The most a move may take without losing is the time
//! left plus the byoyomi (an increment is only added *after* the move, so it does not count);
//! from that cap we take the network delay (the time the answer spends between us and the
//! server or GUI) and a small fixed safety for thread wake-up and output. Every budget is
//! clamped to that cap, floors included, so a floor can never push a move past the flag; when
//! the cap is zero the search is asked to stop at once (it still returns a legal move).
//!
//! The margins never take more than a third of the time a move has ([`MAX_MARGIN_DIVISOR`]):
//! with a byoyomi of 100 ms and the default delay of 100 ms, the delay would otherwise leave
//! nothing, and the engine would play at depth 1 all game. The budget then says that it cut
//! the delay ([`TimeBudget::delay_cut`]), and the front end tells the user.
//!
//! Inside the cap:
//! - `movetime M`: think exactly `M` (soft = hard), less the margins;
//! - sudden death and increments: soft = remaining / [`MOVES_TO_GO`] + ¾ increment, so that
//!   the remaining time decays geometrically and is never used up; hard = remaining /
//!   [`HARD_FRACTION`] + increment, at most [`HARD_OVER_SOFT`] × soft, for a search whose best
//!   move keeps changing (it may stretch soft by its stability factor, never past hard);
//! - byoyomi: the byoyomi is lost if not used, so soft and hard both include all of it, plus the
//!   share of the main time as above.
//!
//! `MinimumThinkingTime` raises both limits to a floor (within the cap).

use crate::search::control::SearchControl;
use std::time::Duration;

/// The clock as a `go` command gives it, for the side to move, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Main time left (`btime`/`wtime`).
    pub remaining_ms: Option<u64>,
    /// Fischer increment added after each move (`binc`/`winc`).
    pub increment_ms: u64,
    /// Byoyomi per move once the main time is gone.
    pub byoyomi_ms: u64,
    /// A fixed time for this move (`movetime`); overrides the rest.
    pub movetime_ms: Option<u64>,
}

/// The user's settings (USI options `NetworkDelay`, `MinimumThinkingTime`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeSettings {
    /// Subtracted from every budget.
    pub network_delay_ms: u64,
    /// Think at least this long when the clock allows it.
    pub minimum_thinking_ms: u64,
    /// How late the engine's recent answers came out past their hard limit
    /// ([`Lateness::margin_ms`]): kept back besides the delay.
    pub lateness_ms: u64,
}

/// How late answers have lately come out past their hard limit. On a loaded machine the
/// search thread is not always running when its deadline passes (two games on two cores, a
/// build beside them), and a move planned to end 10 ms before the flag ends 20-30 ms after its
/// limit; the next moves keep that much more back. A decaying maximum of the overruns: a
/// quiet machine's (about 1 ms) keeps nothing worth saying, and a spike fades over a few dozen
/// moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Lateness {
    ms: f64,
}

/// What is left of the remembered lateness after each move.
pub const LATENESS_DECAY: f64 = 0.95;

impl Lateness {
    /// One answer came out `overrun` past its hard limit.
    pub fn record(&mut self, overrun: Duration) {
        self.ms = (self.ms * LATENESS_DECAY).max(overrun.as_secs_f64() * 1000.0);
    }

    /// The margin to keep back for it, in milliseconds.
    pub fn margin_ms(self) -> u64 {
        self.ms.ceil() as u64
    }
}

/// Soft limit (start no new iteration after it) and hard limit (abort the search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Duration,
    pub hard: Duration,
    /// When the margins were cut to leave time for the search: the network delay asked for
    /// and the one kept, in milliseconds.
    pub delay_cut: Option<(u64, u64)>,
}

/// Kept back from every budget besides the network delay: thread wake-up, unwinding the
/// search, writing `bestmove`. Over 818 moves of a match at 200 ms on two loaded cores those
/// came out 0.6 ms past the hard limit on average and at most 4.1 ms (benches/history/43); a
/// slower machine's are kept back by [`Lateness`] as well.
pub const SAFETY_MS: u64 = 5;
/// Sudden death spends this fraction of the remaining time per move (soft limit).
pub const MOVES_TO_GO: u64 = 40;
/// At most this fraction of the main time in one move (hard limit), besides byoyomi/increment.
pub const HARD_FRACTION: u64 = 8;
/// The hard limit is at most this many soft limits.
pub const HARD_OVER_SOFT: u64 = 5;
/// The margins (network delay and safety) take at most this fraction of a move's time.
pub const MAX_MARGIN_DIVISOR: u64 = 3;

impl TimeControl {
    /// Whether the `go` said anything about time at all.
    pub fn is_timed(&self) -> bool {
        self.movetime_ms.is_some()
            || self.remaining_ms.is_some()
            || self.byoyomi_ms > 0
            || self.increment_ms > 0
    }

    /// The most this move may take without losing on time, before any margin.
    pub fn available_ms(&self) -> u64 {
        match self.movetime_ms {
            Some(m) => m,
            None => self.remaining_ms.unwrap_or(0).saturating_add(self.byoyomi_ms),
        }
    }

    /// The budget for this move; `None` when the clock sets no limit.
    pub fn budget(&self, settings: &TimeSettings) -> Option<TimeBudget> {
        if !self.is_timed() {
            return None;
        }
        let available = self.available_ms();
        let asked = settings
            .network_delay_ms
            .saturating_add(SAFETY_MS)
            .saturating_add(settings.lateness_ms);
        let margin = asked.min(available / MAX_MARGIN_DIVISOR);
        let delay_cut = (margin < asked && settings.network_delay_ms > 0)
            .then(|| (settings.network_delay_ms, margin.saturating_sub(SAFETY_MS)));
        let cap = available - margin;
        let (soft, hard) = match self.movetime_ms {
            Some(_) => (cap, cap),
            None => {
                let main = self.remaining_ms.unwrap_or(0);
                let inc = self.increment_ms;
                let byo = self.byoyomi_ms;
                let share = main / MOVES_TO_GO;
                let soft = share.saturating_add(inc / 4 * 3).saturating_add(byo);
                let over = (main / HARD_FRACTION).saturating_add(inc);
                let hard = byo.saturating_add(over.min(soft.saturating_mul(HARD_OVER_SOFT)));
                let floor = settings.minimum_thinking_ms;
                (soft.max(floor), hard.max(floor))
            }
        };
        let hard = hard.min(cap);
        let soft = soft.min(hard);
        Some(TimeBudget {
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard),
            delay_cut,
        })
    }
}

impl TimeBudget {
    /// A search control starting now with this budget (held while `pondering`).
    pub fn control(&self, pondering: bool) -> SearchControl {
        SearchControl::new(Some(self.soft), Some(self.hard), pondering)
    }
}

/// A search control for an optional budget: unlimited without one.
pub fn control_for(budget: Option<TimeBudget>, pondering: bool) -> SearchControl {
    match budget {
        Some(b) => b.control(pondering),
        None => SearchControl::new(None, None, pondering),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(b: Option<TimeBudget>) -> (u64, u64) {
        let b = b.unwrap_or_else(|| panic!("no budget"));
        (b.soft.as_millis() as u64, b.hard.as_millis() as u64)
    }

    const NO_DELAY: TimeSettings =
        TimeSettings { network_delay_ms: 0, minimum_thinking_ms: 0, lateness_ms: 0 };
    const DELAY_100: TimeSettings =
        TimeSettings { network_delay_ms: 100, minimum_thinking_ms: 0, lateness_ms: 0 };

    fn clock(remaining: u64, inc: u64, byoyomi: u64) -> TimeControl {
        TimeControl {
            remaining_ms: Some(remaining),
            increment_ms: inc,
            byoyomi_ms: byoyomi,
            movetime_ms: None,
        }
    }

    /// Whatever the clock, the hard limit leaves the delay and the safety margin, or, when
    /// they would take more than a third of the move's time, a third of it (and says so).
    fn assert_safe(tc: TimeControl, s: TimeSettings) {
        if let Some(b) = tc.budget(&s) {
            let hard = b.hard.as_millis() as u64;
            let available = tc.available_ms();
            assert!(b.soft <= b.hard, "{tc:?} {s:?} {b:?}");
            let margins =
                s.network_delay_ms.saturating_add(SAFETY_MS).saturating_add(s.lateness_ms);
            let kept = margins.min(available / MAX_MARGIN_DIVISOR);
            assert!(hard.saturating_add(kept) <= available, "{tc:?} {s:?} {b:?}");
            assert_eq!(b.delay_cut.is_some(), kept < margins && s.network_delay_ms > 0);
        }
    }

    #[test]
    fn no_clock_means_no_limit() {
        assert_eq!(TimeControl::default().budget(&DELAY_100), None);
    }

    #[test]
    fn movetime_is_used_whole_less_the_margins() {
        let tc = TimeControl { movetime_ms: Some(1000), ..TimeControl::default() };
        assert_eq!(ms(tc.budget(&NO_DELAY)), (995, 995));
        assert_eq!(ms(tc.budget(&DELAY_100)), (895, 895));
        // Less time than the margins: they keep a third, the search gets the rest.
        let tiny = TimeControl { movetime_ms: Some(60), ..TimeControl::default() };
        assert_eq!(ms(tiny.budget(&DELAY_100)), (40, 40));
        assert_eq!(tiny.budget(&DELAY_100).and_then(|b| b.delay_cut), Some((100, 15)));
        assert_eq!(tc.budget(&DELAY_100).and_then(|b| b.delay_cut), None);
    }

    #[test]
    fn sudden_death() {
        let tc = clock(60_000, 0, 0);
        assert_eq!(ms(tc.budget(&NO_DELAY)), (1_500, 7_500));
        // 1 s left: a fortieth soft, an eighth hard.
        assert_eq!(ms(clock(1_000, 0, 0).budget(&DELAY_100)), (25, 125));
        // Nothing left: stop at once.
        assert_eq!(ms(clock(0, 0, 0).budget(&DELAY_100)), (0, 0));
        // 200 ms left: the delay is cut to leave two thirds of the time, a fortieth of it soft.
        assert_eq!(ms(clock(200, 0, 0).budget(&DELAY_100)), (5, 25));
        // Spending soft every move never runs out of time.
        let mut left = 300_000u64;
        for _ in 0..500 {
            let b = clock(left, 0, 0).budget(&DELAY_100).unwrap_or_else(|| panic!("budget"));
            let spent = b.soft.as_millis() as u64 + 100;
            assert!(spent <= left || b.hard.is_zero());
            left = left.saturating_sub(spent);
        }
    }

    #[test]
    fn byoyomi_only_uses_the_byoyomi_less_the_margins() {
        assert_eq!(ms(clock(0, 0, 1_000).budget(&DELAY_100)), (895, 895));
        // `go btime 0 wtime 0 byoyomi 100` with the default delay: two thirds of the byoyomi,
        // not nothing.
        let fast = clock(0, 0, 100).budget(&DELAY_100);
        assert_eq!(ms(fast), (67, 67));
        assert_eq!(fast.and_then(|b| b.delay_cut), Some((100, 28)));
        assert_eq!(ms(clock(0, 0, 1_000).budget(&NO_DELAY)), (995, 995));
        let no_main = TimeControl { byoyomi_ms: 3_000, ..TimeControl::default() };
        assert_eq!(ms(no_main.budget(&NO_DELAY)), (2_995, 2_995));
    }

    #[test]
    fn main_time_with_byoyomi() {
        // 10 min + 10 s: a fortieth of the main time on top of the byoyomi.
        assert_eq!(ms(clock(600_000, 0, 10_000).budget(&DELAY_100)), (25_000, 85_000));
        // Little main time left: hard may eat into it, never past main + byoyomi.
        let (soft, hard) = ms(clock(500, 0, 1_000).budget(&DELAY_100));
        assert_eq!((soft, hard), (1_012, 1_062));
        assert!(hard + 100 + SAFETY_MS <= 1_500);
    }

    #[test]
    fn increments() {
        // 10 s + 2 s/move: the increment is mostly spent, the main time slowly.
        assert_eq!(ms(clock(10_000, 2_000, 0).budget(&NO_DELAY)), (1_750, 3_250));
        // The increment is added after the move: with 1 s left, stay under 1 s.
        let (soft, hard) = ms(clock(1_000, 5_000, 0).budget(&DELAY_100));
        assert_eq!((soft, hard), (895, 895));
        // Increment only, no main time reported: nothing may be spent.
        let inc_only = TimeControl { increment_ms: 5_000, ..TimeControl::default() };
        assert_eq!(ms(inc_only.budget(&NO_DELAY)), (0, 0));
    }

    #[test]
    fn delay_larger_than_the_time_left_is_cut_to_a_third() {
        let s =
            TimeSettings { network_delay_ms: 5_000, minimum_thinking_ms: 1_000, lateness_ms: 0 };
        let b = clock(3_000, 0, 1_000).budget(&s);
        assert_eq!(ms(b), (1_075, 1_375));
        assert_eq!(b.and_then(|b| b.delay_cut), Some((5_000, 1_328)));
        let tc = TimeControl { movetime_ms: Some(100), ..TimeControl::default() };
        assert_eq!(ms(tc.budget(&s)), (67, 67));
    }

    #[test]
    fn minimum_thinking_time_is_a_floor_within_the_cap() {
        let s = TimeSettings { network_delay_ms: 100, minimum_thinking_ms: 2_000, lateness_ms: 0 };
        assert_eq!(ms(clock(60_000, 0, 0).budget(&s)), (2_000, 7_500));
        // Not enough time for the floor: the cap wins.
        assert_eq!(ms(clock(1_000, 0, 0).budget(&s)), (895, 895));
    }

    #[test]
    fn huge_values_saturate() {
        let (soft, hard) = ms(clock(u64::MAX, u64::MAX, u64::MAX).budget(&DELAY_100));
        assert!(soft <= hard && hard > 0);
        let tc = TimeControl { movetime_ms: Some(u64::MAX), ..TimeControl::default() };
        assert!(tc.budget(&NO_DELAY).is_some());
    }

    #[test]
    fn every_budget_leaves_the_margins() {
        let values = [0, 1, 9, 10, 11, 99, 100, 101, 1_000, 59_999, 3_600_000, u64::MAX / 2];
        for &main in &values {
            for &inc in &[0, 1_000, 10_000] {
                for &byo in &[0, 10, 1_000, 30_000] {
                    for &delay in &[0, 100, 2_000] {
                        for &floor in &[0, 500] {
                            for &late in &[0, 25] {
                                let s = TimeSettings {
                                    network_delay_ms: delay,
                                    minimum_thinking_ms: floor,
                                    lateness_ms: late,
                                };
                                assert_safe(clock(main, inc, byo), s);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn control_carries_the_budget() {
        let b = TimeBudget { soft: Duration::ZERO, hard: Duration::ZERO, delay_cut: None };
        assert!(b.control(false).must_stop());
        assert!(!b.control(true).must_stop(), "a pondering search ignores the clock");
        assert!(!control_for(None, false).must_stop());
    }

    /// An overrun is remembered and kept back from the next budgets, fading move by move; a
    /// smaller overrun does not lower it at once.
    #[test]
    fn lateness_is_kept_back_and_fades() {
        let mut late = Lateness::default();
        assert_eq!(late.margin_ms(), 0);
        late.record(Duration::from_millis(20));
        assert_eq!(late.margin_ms(), 20);
        late.record(Duration::from_millis(2));
        assert_eq!(late.margin_ms(), 19);
        let byo = clock(0, 0, 200);
        let calm = TimeSettings { lateness_ms: 0, ..NO_DELAY };
        let loaded = TimeSettings { lateness_ms: late.margin_ms(), ..NO_DELAY };
        assert_eq!(ms(byo.budget(&calm)), (195, 195));
        assert_eq!(ms(byo.budget(&loaded)), (176, 176));
        for _ in 0..100 {
            late.record(Duration::ZERO);
        }
        assert!(late.margin_ms() <= 1, "{late:?}");
    }
}
