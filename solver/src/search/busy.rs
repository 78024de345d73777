//! Threads inside a subtree: Kaneko's *virtual* proof numbers for parallel df-pn (AAAI 2010).
//!
//! While every thread proves the same root, each one marks the nodes of its path as entered
//! and unmarks them as it leaves. A thread choosing among a node's children sees a child that
//! other threads are inside as harder than its numbers say: its pn (at an OR node) or dn (at
//! an AND node) grows by [`VIRTUAL_UNIT`] for each of them. So a second thread goes to the
//! next most promising child instead of walking the first thread's path a step behind it, and
//! the threads together expand about what one thread would (Kaneko measured 1.06-1.11 times
//! one thread's nodes at 2-8 threads). The virtual numbers only steer the choice and the
//! child's thresholds; nothing stored or aggregated carries them.
//!
//! The counts live in a small array indexed by a hash of the node (board key and attacker's
//! hand), not in the table: two nodes that share a slot only make each other look busy, which
//! costs a little choice, never a wrong answer.

use crate::tt::NodeId;
use std::sync::atomic::{AtomicU8, Ordering};

/// Slots of the array (64 KiB): far more than the nodes all threads' paths hold at once.
const SLOTS: usize = 1 << 16;

/// What one other thread inside a child adds to its pn or dn.
pub(super) const VIRTUAL_UNIT: u32 = 1;

/// How many threads are inside each node, by slot.
pub(super) struct Busy {
    slots: Box<[AtomicU8]>,
}

impl Default for Busy {
    fn default() -> Self {
        Busy { slots: (0..SLOTS).map(|_| AtomicU8::new(0)).collect() }
    }
}

impl Busy {
    #[inline(always)]
    fn slot(&self, id: NodeId) -> &AtomicU8 {
        let mixed = (id.board ^ u64::from(id.hand.raw()).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        &self.slots[(mixed >> 48) as usize & (SLOTS - 1)]
    }

    /// A thread enters `id` (its `mid` expanded it).
    #[inline]
    pub(super) fn enter(&self, id: NodeId) {
        // Saturating: a count stuck at 255 only keeps a node looking busy.
        let _ = self
            .slot(id)
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| Some(c.saturating_add(1)));
    }

    /// The thread leaves `id` (as many times as it entered).
    #[inline]
    pub(super) fn leave(&self, id: NodeId) {
        let _ = self
            .slot(id)
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| Some(c.saturating_sub(1)));
    }

    /// How many threads are inside `id` now.
    #[inline]
    pub(super) fn inside(&self, id: NodeId) -> u32 {
        u32::from(self.slot(id).load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::Hand;

    #[test]
    fn counts_threads_in_and_out_of_a_node() {
        let busy = Busy::default();
        let a = NodeId { board: 0x1234_5678_9abc_def0, hand: Hand::EMPTY };
        assert_eq!(busy.inside(a), 0);
        busy.enter(a);
        busy.enter(a);
        assert_eq!(busy.inside(a), 2);
        busy.leave(a);
        assert_eq!(busy.inside(a), 1);
        busy.leave(a);
        busy.leave(a);
        assert_eq!(busy.inside(a), 0, "never below zero");
    }
}
