//! The Python module `tsumugi`: Tsumugi's df-pn tsume-shogi solver, called from Python.
//!
//! One function, `solve`, parses the position with the rules core, runs one search on a
//! thread with the solver's stack while the GIL is released ([`run`]), checks a mate line
//! through the rules, and answers a [`result::MateResult`] (`tsumugi.Result`).

mod position;
mod result;
mod run;

use pyo3::exceptions::{PyRuntimeWarning, PyValueError};
use pyo3::prelude::*;
use result::MateResult;
use solver::mate_line::verify_mate_line;
use solver::{Limits, Outcome, Rules, SolverConfig};
use std::ffi::CString;
use std::time::Duration;

/// Bounds of `hash_mb`, as the USI engine's `USI_Hash`.
const HASH_MB: std::ops::RangeInclusive<i64> = 1..=65536;

/// Solves a tsume-shogi problem: is there a mate by continuous checks, and which?
///
/// sfen: the position, as a bare SFEN (`cshogi.Board().sfen()`), `sfen <sfen> [moves ...]` or
///     `position startpos|sfen ... [moves ...]`. The side to move attacks, unless it is in
///     check: then it defends.
/// time_ms: time limit in milliseconds; 0 or None: none.
/// nodes: node limit; 0: none.
/// rules: "tsume" (tsume-shogi rules, as composers publish answers: shortest mate, longest
///     resistance, futile interpositions not counted) or "pure" (every interposition counts).
/// threads: search threads sharing the table, at least 1 (helpers beside the main thread in
///     every phase: the proof, and the questions that shorten the main line).
/// hash_mb: transposition table size in MiB (1 to 65536).
/// any_mate: answer the first mate proven instead of the shortest main line.
///
/// Returns a `tsumugi.Result`. Raises ValueError for a bad position (with the parser's
/// message) or a bad argument, KeyboardInterrupt on Ctrl-C (the search stops), RuntimeError
/// if the search itself fails.
#[pyfunction]
#[pyo3(
    text_signature = "(sfen, time_ms=10000, nodes=0, rules='tsume', threads=1, hash_mb=256, any_mate=False)"
)]
#[pyo3(signature = (sfen, time_ms=Some(10000), nodes=0, rules="tsume", threads=1, hash_mb=256, any_mate=false))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    sfen: &str,
    time_ms: Option<i64>,
    nodes: i64,
    rules: &str,
    threads: i64,
    hash_mb: i64,
    any_mate: bool,
) -> PyResult<MateResult> {
    let pos = position::parse_position(sfen).map_err(PyValueError::new_err)?;
    let rules = Rules::from_name(rules).ok_or_else(|| {
        PyValueError::new_err(format!(
            "rules must be one of {}, not {rules:?}",
            Rules::NAMES.map(|n| format!("{n:?}")).join(", ")
        ))
    })?;
    let time_ms = non_negative("time_ms", time_ms.unwrap_or(0))?;
    let nodes = non_negative("nodes", nodes)?;
    if threads < 1 {
        return Err(PyValueError::new_err(format!("threads must be at least 1, not {threads}")));
    }
    if !HASH_MB.contains(&hash_mb) {
        return Err(PyValueError::new_err(format!(
            "hash_mb must be between {} and {}, not {hash_mb}",
            HASH_MB.start(),
            HASH_MB.end()
        )));
    }
    let config = SolverConfig {
        hash_mb: hash_mb as usize,
        rules,
        any_mate,
        threads: threads as usize,
        ..SolverConfig::default()
    };
    let limits = Limits {
        time: (time_ms > 0).then(|| Duration::from_millis(time_ms)),
        nodes: (nodes > 0).then_some(nodes),
    };

    let r = run::solve_detached(py, &pos, config, &limits)?;
    let (status, moves) = match &r.outcome {
        Outcome::Mate(moves) => {
            // As the USI engine does: a line that fails the rules check is still answered,
            // with a warning, so that a search bug is visible rather than hidden.
            if let Err(defect) = verify_mate_line(&pos, moves, rules) {
                let message =
                    CString::new(format!("the mate line fails the rules check: {defect}"))
                        .unwrap_or_default();
                PyErr::warn(py, &py.get_type::<PyRuntimeWarning>(), &message, 1)?;
            }
            ("mate", moves.iter().map(|m| m.to_string()).collect::<Vec<_>>())
        }
        Outcome::NoMate => ("nomate", Vec::new()),
        Outcome::Timeout => ("timeout", Vec::new()),
    };
    let mate = status == "mate";
    let moves_ja = match &r.outcome {
        Outcome::Mate(line) => Some(shogi::notation::line_texts(&pos, line, None)),
        _ => None,
    };
    Ok(MateResult {
        status,
        length: mate.then_some(moves.len()),
        moves,
        nodes: r.nodes,
        time_ms: r.elapsed.as_secs_f64() * 1000.0,
        proven_shortest: mate && r.proven_shortest,
        main_line: mate && r.main_line,
        moves_ja,
        cut: r.cut.map(|phase| phase.describe()),
    })
}

/// The composer's report of a problem, under tsume rules: the main line (USI and Japanese),
/// cooks (余詰), variations (変化, flagged 変長/変同/変同駒余り), pieces left in hand (駒余り),
/// refutations when there is no mate, and the questions left unsettled.
///
/// sfen: as for `solve`.
/// time_ms: time for solving the problem; questions_time_ms: for all the questions together;
/// question_nodes: node cap of each question; questions_nodes: nodes for all the questions
/// together (with it alone, no time limit on them: the same report on any machine);
/// hash_mb: table size (shared by the questions).
/// intended: the intended line as USI moves, compared with the main line.
///
/// Returns a dict (the JSON of `tsumugi-mate report --json`).
#[pyfunction]
#[pyo3(signature = (sfen, time_ms=60000, questions_time_ms=None, question_nodes=200000, questions_nodes=None, hash_mb=256, intended=None))]
#[allow(clippy::too_many_arguments)]
fn report(
    py: Python<'_>,
    sfen: &str,
    time_ms: i64,
    questions_time_ms: Option<i64>,
    question_nodes: i64,
    questions_nodes: Option<i64>,
    hash_mb: i64,
    intended: Option<Vec<String>>,
) -> PyResult<Py<PyAny>> {
    let pos = position::parse_position(sfen).map_err(PyValueError::new_err)?;
    if !HASH_MB.contains(&hash_mb) {
        return Err(PyValueError::new_err(format!("hash_mb out of range: {hash_mb}")));
    }
    let intended = match intended {
        None => None,
        Some(usi) => {
            Some(pos.parse_usi_line(&usi).map_err(|e| PyValueError::new_err(e.to_string()))?)
        }
    };
    let time_ms = non_negative("time_ms", time_ms)?;
    let limits = solver::composer::ReportLimits {
        main: Limits { time: (time_ms > 0).then(|| Duration::from_millis(time_ms)), nodes: None },
        question_nodes: non_negative("question_nodes", question_nodes)?.max(1),
        questions_time: match (questions_time_ms, questions_nodes) {
            (Some(ms), _) => Duration::from_millis(non_negative("questions_time_ms", ms)?),
            (None, Some(_)) => Duration::MAX,
            (None, None) => Duration::from_secs(60),
        },
        questions_nodes: match questions_nodes {
            Some(n) => Some(non_negative("questions_nodes", n)?),
            None => None,
        },
        threads: 1,
    };
    let config = SolverConfig { hash_mb: hash_mb as usize, ..SolverConfig::default() };
    let checked = run::run_detached(py, |stop| {
        let mut solver = solver::Solver::new(config);
        solver::composer::check_problem(&mut solver, &pos, intended.as_deref(), &limits, stop)
    })?;
    let json = serde_json::to_string(&checked)
        .map_err(|e| PyValueError::new_err(format!("cannot convert the report: {e}")))?;
    let loads = py.import("json")?.getattr("loads")?;
    Ok(loads.call1((json,))?.unbind())
}

fn non_negative(name: &str, value: i64) -> PyResult<u64> {
    u64::try_from(value)
        .map_err(|_| PyValueError::new_err(format!("{name} must not be negative, not {value}")))
}

/// Tsumugi's df-pn tsume-shogi (mate problem) solver.
///
///     import tsumugi
///     sfen = "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42"
///     r = tsumugi.solve(sfen, time_ms=5000)
///     print(r.status, r.length, r.moves)  # mate 3 ['B*5g', '4h5h', '7i6i']
///
/// See `help(tsumugi.solve)` and `help(tsumugi.Result)`.
#[pymodule]
fn tsumugi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(report, m)?)?;
    m.add_class::<MateResult>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
