//! The call stack of the df-pn search, and the threads that run it.
//!
//! **Which design, and why.** df-pn is a recursive `mid`: one call per ply, each holding its
//! node's thresholds and value. The children of a node live in a per-ply arena on the heap, so
//! a call takes little stack, but problems run to 1,500 plies and the search's path wanders
//! longer. We keep the recursion (an explicit stack of frames would turn the threshold
//! bookkeeping into a hand-written state machine, the part of df-pn that is easiest to get
//! wrong) and make it safe in two ways:
//! - **Sized threads.** Every thread Tsumugi starts to run df-pn (the USI mate engine's worker,
//!   the batch solver, the playing engine's root oracle, later helper threads) is built by
//!   [`search_thread`], with [`SEARCH_STACK_BYTES`]: [`MAX_PLY`] plies at [`BYTES_PER_PLY`]
//!   each, a bound on the measured cost of one ply (a test measures it in the profile the tests
//!   are built with), plus [`BASE_BYTES`] for what runs below the root. Only the pages touched
//!   are ever committed, so a deep reservation costs nothing on short problems.
//! - **A guard.** Every call of `mid` asks [`StackGuard::exhausted`] whether less than
//!   [`RESERVE_BYTES`] are left on the thread's real stack (its bounds read by the `stacker`
//!   crate). A thread the solver did not size (a test harness's, a host program's) therefore
//!   cannot overflow either: the branch ends there, as at the depth limit.
//!
//! A branch ended at the depth limit or by the guard is disproven "within 0 plies", a true
//! statement (see `search.rs`): it can leave a question undecided, never answer it wrongly.

use std::io;
use std::thread;

/// The deepest ply the search goes to by default ([`crate::SolverConfig::max_ply`]). The
/// longest published problem (ミクロコスモス) is 1,525 plies.
pub const MAX_PLY: u16 = 4000;

/// A bound on the stack one ply of search takes: measured (`tests/depth_limit.rs`) at 416
/// bytes in release builds and 1,170 in debug builds.
pub const BYTES_PER_PLY: usize = 2 << 10;

/// Stack for what runs below the root: the caller, progress reports, and the deepest ply's
/// move generation.
pub const BASE_BYTES: usize = 2 << 20;

/// The stack of every thread that runs df-pn.
pub const SEARCH_STACK_BYTES: usize = MAX_PLY as usize * BYTES_PER_PLY + BASE_BYTES;

/// Stack a ply must find left before it expands a node: one node's expansion (its move
/// generation and child estimates) with a wide margin.
pub const RESERVE_BYTES: usize = 256 << 10;

/// A thread builder for a thread that runs df-pn: named, with [`SEARCH_STACK_BYTES`].
pub fn search_thread(name: &str) -> thread::Builder {
    thread::Builder::new().name(name.to_string()).stack_size(SEARCH_STACK_BYTES)
}

/// Runs `f` on a new search thread and waits for it: for a caller on a thread of unknown stack
/// (a program's main thread). A panic in `f` is resumed on the caller.
pub fn run_on_search_thread<T: Send>(name: &str, f: impl FnOnce() -> T + Send) -> io::Result<T> {
    thread::scope(|scope| {
        let handle = search_thread(name).spawn_scoped(scope, f)?;
        match handle.join() {
            Ok(v) => Ok(v),
            Err(payload) => std::panic::resume_unwind(payload),
        }
    })
}

/// Watches the stack of the thread a search runs on.
#[derive(Clone, Copy, Debug)]
pub struct StackGuard {
    /// Stack left when the search started (`None`: the platform does not tell).
    at_start: Option<usize>,
    /// The least stack left seen so far, and at which ply.
    least: (usize, usize),
    deepest: usize,
}

impl StackGuard {
    /// A guard for a search starting here.
    pub fn here() -> StackGuard {
        let at_start = stacker::remaining_stack();
        StackGuard { at_start, least: (at_start.unwrap_or(usize::MAX), 0), deepest: 0 }
    }

    /// Whether the search at `ply` must end this branch: less than [`RESERVE_BYTES`] of stack
    /// is left. Records the deepest use, for [`StackGuard::bytes_per_ply`].
    #[inline]
    pub fn exhausted(&mut self, ply: usize) -> bool {
        self.deepest = self.deepest.max(ply);
        let Some(left) = stacker::remaining_stack() else {
            return false;
        };
        if left < self.least.0 {
            self.least = (left, ply);
        }
        left < RESERVE_BYTES
    }

    /// The deepest ply seen by [`StackGuard::exhausted`].
    pub fn deepest_ply(&self) -> usize {
        self.deepest
    }

    /// The stack used per ply at the deepest point so far (`None` before any depth or when
    /// the platform does not tell).
    pub fn bytes_per_ply(&self) -> Option<usize> {
        let (least, ply) = self.least;
        let start = self.at_start?;
        (ply > 0).then(|| start.saturating_sub(least) / ply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_threads_are_sized_for_the_deepest_search() {
        let (left, name) = run_on_search_thread("sized", || {
            (stacker::remaining_stack(), thread::current().name().map(str::to_string))
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(name.as_deref(), Some("sized"));
        let left = left.unwrap_or(SEARCH_STACK_BYTES);
        assert!(left > MAX_PLY as usize * BYTES_PER_PLY, "only {left} bytes left");
    }

    #[test]
    fn the_guard_trips_near_the_end_of_a_small_stack() {
        fn descend(guard: &mut StackGuard, ply: usize) -> usize {
            // A frame of about 4 KB, kept by black_box.
            std::hint::black_box([ply as u8; 4096]);
            if guard.exhausted(ply) {
                return ply;
            }
            descend(guard, ply + 1)
        }
        let stopped_at = thread::Builder::new()
            .stack_size(RESERVE_BYTES + (1 << 20))
            .spawn(|| {
                let mut guard = StackGuard::here();
                descend(&mut guard, 0)
            })
            .unwrap_or_else(|e| panic!("{e}"))
            .join()
            .unwrap_or_else(|_| panic!("the thread overflowed or panicked"));
        assert!(stopped_at > 100, "stopped at {stopped_at}");
    }
}
