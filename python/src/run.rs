//! Runs one search for a Python caller: on a thread of its own with the solver's stack
//! ([`solver::stack::search_thread`]; Python's main thread has far too little for a deep df-pn
//! search), with the GIL released so that other Python threads run meanwhile.
//!
//! The calling thread waits for the search, and every [`SIGNAL_POLL`] takes the GIL back for a
//! moment to let Python handle its signals: Ctrl-C stops the search and raises
//! `KeyboardInterrupt`. A panic in the search is caught on its thread and raised as
//! `RuntimeError`, never carried across the FFI boundary.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use shogi::Position;
use solver::{Limits, SolveResult, Solver, SolverConfig};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

/// How often a waiting caller looks at Python's signals (the search itself checks its stop
/// flag every 1,024 nodes, so it ends well within this after Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Solves `pos` with a new solver of `config` (one solver per call: nothing is shared between
/// calls or threads).
pub fn solve_detached(
    py: Python<'_>,
    pos: &Position,
    config: SolverConfig,
    limits: &Limits,
) -> PyResult<SolveResult> {
    run_detached(py, move |stop| Solver::new(config).solve(pos, limits, stop, &mut |_| {}))
}

/// Runs `work` (a search that checks the stop flag it is given) on a search thread, with the
/// GIL released.
pub fn run_detached<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    py.detach(|| {
        thread::scope(|scope| {
            let (done, finished) = mpsc::channel::<()>();
            let stop = &stop;
            let search = solver::stack::search_thread("tsumugi-solve")
                .spawn_scoped(scope, move || {
                    let result = catch_unwind(AssertUnwindSafe(|| work(stop)));
                    // The receiver may be gone only if the caller itself failed; nothing to do.
                    let _ = done.send(());
                    result
                })
                .map_err(|e| PyRuntimeError::new_err(format!("cannot start the search: {e}")))?;
            let interrupted = loop {
                match finished.recv_timeout(SIGNAL_POLL) {
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break None,
                    Err(RecvTimeoutError::Timeout) => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            stop.store(true, Ordering::Relaxed);
                            break Some(e);
                        }
                    }
                }
            };
            let joined = search.join();
            if let Some(e) = interrupted {
                return Err(e);
            }
            match joined {
                Ok(Ok(result)) => Ok(result),
                Ok(Err(payload)) | Err(payload) => Err(PyRuntimeError::new_err(format!(
                    "the search failed: {}",
                    usi::panic_message(payload.as_ref())
                ))),
            }
        })
    })
}
