//! Lazy SMP: the search threads of one `go` and what they share.
//!
//! Every thread searches the same root, iterative deepening of its own, and all of them share
//! the transposition table (read and written without locks, see [`crate::search::tt`]): what
//! one thread stores, the others find, so that together they search a wider tree than one
//! thread would and settle it sooner. What makes the threads differ is their own move-ordering
//! memory ([`ThreadMemory`]) and their depths: a helper skips some iterations
//! ([`skips_depth`]), so that at any moment the threads are working at different depths.
//!
//! Thread 0, the main thread, keeps the clock and reports; when it ends, the helpers end
//! ([`SharedSearch::stop_helpers`]). The move played comes from the thread that completed the
//! deepest iteration with a better score ([`SharedSearch`] does not decide it; the engine does).

use crate::eval::EvalCache;
use crate::search::correction::CorrectionHistory;
use crate::search::history::History;
use crate::search::oracle::Oracle;
use crate::search::root_threats::SetAside;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Entries of the evaluation cache of a thread (a power of two; 8 bytes each).
const EVAL_CACHE_BITS: u32 = 17;

/// Most threads a search may have (the USI option's maximum).
pub const MAX_THREADS: usize = 256;

/// What one search thread keeps from move to move: its move-ordering memory, its correction
/// history, its df-pn probe solver and its evaluation cache.
pub struct ThreadMemory {
    pub history: History,
    pub correction: CorrectionHistory,
    pub oracle: Oracle,
    pub eval_cache: EvalCache,
}

impl ThreadMemory {
    pub fn new() -> ThreadMemory {
        ThreadMemory {
            history: History::new(),
            correction: CorrectionHistory::new(),
            oracle: Oracle::new(),
            eval_cache: EvalCache::new(EVAL_CACHE_BITS),
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.history.clear();
        self.correction.clear();
        self.oracle.clear();
        self.eval_cache.clear();
    }
}

impl Default for ThreadMemory {
    fn default() -> Self {
        ThreadMemory::new()
    }
}

/// What the threads of one search share besides the table and the clock: each thread's node
/// count, published every few thousand nodes, and the signal that the main thread has ended.
pub struct SharedSearch {
    nodes: Vec<AtomicU64>,
    stop: AtomicBool,
    /// Root moves the main thread's threat probe proved to let the opponent mate.
    pub set_aside: SetAside,
}

impl SharedSearch {
    pub fn new(threads: usize) -> SharedSearch {
        SharedSearch {
            nodes: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            stop: AtomicBool::new(false),
            set_aside: SetAside::default(),
        }
    }

    /// Records `thread`'s node count; returns the other threads' total as last published.
    #[inline]
    pub fn publish(&self, thread: usize, nodes: u64) -> u64 {
        let mut others = 0;
        for (i, n) in self.nodes.iter().enumerate() {
            if i == thread {
                n.store(nodes, Ordering::Relaxed);
            } else {
                others += n.load(Ordering::Relaxed);
            }
        }
        others
    }

    /// Nodes of all threads, as last published.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// The main thread has ended: the helpers end at their next poll.
    pub fn stop_helpers(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn helpers_stopped(&self) -> &AtomicBool {
        &self.stop
    }
}

/// Whether helper `thread` skips the iteration at `depth`. Helpers are spread over a few
/// patterns of skipped depths (the scheme Stockfish used before it relied on its table alone):
/// in each pattern, blocks of `size` consecutive depths alternate between searched and
/// skipped, the blocks shifted by `phase`. The main thread (0) skips nothing.
pub fn skips_depth(thread: usize, depth: i32) -> bool {
    const SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    if thread == 0 {
        return false;
    }
    let i = (thread - 1) % SIZE.len();
    ((depth + PHASE[i]) / SIZE[i]) % 2 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_search_different_depths_and_the_main_thread_all() {
        assert!((1..40).all(|d| !skips_depth(0, d)));
        // The first two helpers search alternate depths, complementary to each other.
        for d in 1..40 {
            assert_ne!(skips_depth(1, d), skips_depth(2, d), "depth {d}");
        }
        // Every helper searches at least a third of the depths, and skips some.
        for t in 1..=32 {
            let searched = (1..61).filter(|&d| !skips_depth(t, d)).count();
            assert!((20..60).contains(&searched), "thread {t}: {searched}");
        }
    }

    #[test]
    fn node_counts_add_up() {
        let s = SharedSearch::new(3);
        assert_eq!(s.publish(0, 10), 0);
        assert_eq!(s.publish(1, 20), 10);
        assert_eq!(s.publish(2, 5), 30);
        assert_eq!(s.total_nodes(), 35);
        assert!(!s.helpers_stopped().load(Ordering::Relaxed));
        s.stop_helpers();
        assert!(s.helpers_stopped().load(Ordering::Relaxed));
    }
}
