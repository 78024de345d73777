//! What a problem's questions may spend together: time (the default a composer uses), nodes
//! (the same report on any machine at one thread), or both, until the caller says `stop`.

use crate::clock::Instant;
use crate::outcome::Limits;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// The budget of one problem's questions, shared by the threads that ask them.
pub(crate) struct Budget<'a> {
    /// `None`: no time limit (a node budget alone, or a time too long to count).
    deadline: Option<Instant>,
    /// The questions' nodes in all, if limited.
    nodes: Option<u64>,
    /// Nodes the questions took so far.
    spent: AtomicU64,
    stop: &'a AtomicBool,
}

impl<'a> Budget<'a> {
    /// From now: `time` (none when it cannot be counted from now) and `nodes`, whichever
    /// ends first.
    pub(crate) fn new(time: Duration, nodes: Option<u64>, stop: &'a AtomicBool) -> Budget<'a> {
        Budget { deadline: Instant::now().checked_add(time), nodes, spent: AtomicU64::new(0), stop }
    }

    /// Whether some of it is left and nobody said `stop`.
    pub(crate) fn left(&self) -> bool {
        !self.stop.load(Ordering::Relaxed)
            && self.deadline.is_none_or(|d| Instant::now() < d)
            && self.nodes.is_none_or(|n| self.spent() < n)
    }

    /// The limits of one try within `cap` nodes: the cap, or the nodes left if fewer, and the
    /// time left.
    pub(crate) fn limits(&self, cap: u64) -> Limits {
        let nodes_left = self.nodes.map_or(u64::MAX, |n| n.saturating_sub(self.spent()));
        Limits {
            time: self.deadline.map(|d| d.saturating_duration_since(Instant::now())),
            nodes: Some(cap.min(nodes_left).max(1)),
        }
    }

    /// Counts `nodes` a question took.
    pub(crate) fn spend(&self, nodes: u64) {
        self.spent.fetch_add(nodes, Ordering::Relaxed);
    }

    pub(crate) fn spent(&self) -> u64 {
        self.spent.load(Ordering::Relaxed)
    }

    /// The node budget, if the questions have one.
    pub(crate) fn node_budget(&self) -> Option<u64> {
        self.nodes
    }

    pub(crate) fn stop(&self) -> &'a AtomicBool {
        self.stop
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_budget_ends_when_spent_and_caps_the_last_try() {
        let stop = AtomicBool::new(false);
        let b = Budget::new(Duration::MAX, Some(1_000), &stop);
        assert!(b.left());
        assert_eq!(b.limits(400), Limits { time: None, nodes: Some(400) });
        b.spend(700);
        // 300 left: a try capped at 400 gets 300.
        assert_eq!(b.limits(400).nodes, Some(300));
        b.spend(300);
        assert!(!b.left());
    }

    #[test]
    fn time_and_stop_end_it_too() {
        let stop = AtomicBool::new(false);
        let b = Budget::new(Duration::ZERO, None, &stop);
        assert!(!b.left());
        let b = Budget::new(Duration::from_secs(60), None, &stop);
        assert!(b.left() && b.limits(10).time.is_some());
        stop.store(true, Ordering::Relaxed);
        assert!(!b.left());
    }
}
