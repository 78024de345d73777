//! `tsumugi.Result`: what `solve` answers, as attributes, as a dict (`to_dict()`) and by key
//! (`r["length"]`).

use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::IntoPyObjectExt;

/// The answer of `tsumugi.solve`: read it as attributes (`r.status`), by key (`r["length"]`)
/// or as a dict (`r.to_dict()`, `dict(r)`).
#[pyclass(frozen, module = "tsumugi", name = "Result")]
pub struct MateResult {
    /// `"mate"`, `"nomate"` (proven: no mate exists) or `"timeout"` (a limit was reached
    /// first, or the depth limit left the question open).
    #[pyo3(get)]
    pub status: &'static str,
    /// The mate line as USI moves (`"7g7f"`, `"P*5e"`, `"8h2b+"`), attacker first (defender
    /// first when the side to move is in check); empty unless `status == "mate"`.
    #[pyo3(get)]
    pub moves: Vec<String>,
    /// The mate's length in plies (`len(moves)`); `None` unless `status == "mate"`.
    #[pyo3(get)]
    pub length: Option<usize>,
    /// Positions made by the search.
    #[pyo3(get)]
    pub nodes: u64,
    /// Wall time of the search in milliseconds.
    #[pyo3(get)]
    pub time_ms: f64,
    /// For a mate: no shorter mate exists (the solver settled every question about one).
    #[pyo3(get)]
    pub proven_shortest: bool,
    /// For a mate: the line is the main line under the rules asked for (the defender's
    /// longest resistance against the shortest mate), not merely one line of the proof, as
    /// with `any_mate=True` or when the time ran out while the line was being refined.
    #[pyo3(get)]
    pub main_line: bool,
    /// For a mate: the moves in Japanese notation (`▲２四桂`, `△同　玉`); else `None`.
    #[pyo3(get)]
    pub moves_ja: Option<Vec<String>>,
    /// The phase that `time_ms` or `nodes` cut short (`"the first proof"`, `"building the
    /// main line"`, `"looking for shorter mates"`, ...), if one did: the answer is then the
    /// best the solve had (a timeout before the first proof, its line, or the last main line).
    #[pyo3(get)]
    pub cut: Option<&'static str>,
}

impl MateResult {
    const KEYS: [&'static str; 9] = [
        "status",
        "moves",
        "length",
        "nodes",
        "time_ms",
        "proven_shortest",
        "main_line",
        "moves_ja",
        "cut",
    ];

    fn field<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        let value = match key {
            "status" => self.status.into_bound_py_any(py)?,
            "moves" => self.moves.clone().into_bound_py_any(py)?,
            "length" => self.length.into_bound_py_any(py)?,
            "nodes" => self.nodes.into_bound_py_any(py)?,
            "time_ms" => self.time_ms.into_bound_py_any(py)?,
            "proven_shortest" => self.proven_shortest.into_bound_py_any(py)?,
            "main_line" => self.main_line.into_bound_py_any(py)?,
            "moves_ja" => self.moves_ja.clone().into_bound_py_any(py)?,
            "cut" => self.cut.into_bound_py_any(py)?,
            _ => return Ok(None),
        };
        Ok(Some(value))
    }
}

#[pymethods]
impl MateResult {
    /// The fields as a new dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for key in Self::KEYS {
            dict.set_item(key, self.field(py, key)?)?;
        }
        Ok(dict)
    }

    /// The field names, in `to_dict()`'s order (so that `dict(r)` works).
    fn keys(&self) -> Vec<&'static str> {
        Self::KEYS.to_vec()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, key)?.ok_or_else(|| PyKeyError::new_err(key.to_string()))
    }

    fn __repr__(&self) -> String {
        let length = self.length.map_or("None".to_string(), |n| n.to_string());
        let moves: Vec<String> = self.moves.iter().map(|m| format!("'{m}'")).collect();
        format!(
            "Result(status='{}', length={length}, moves=[{}], nodes={}, time_ms={:.1}, \
             proven_shortest={}, main_line={})",
            self.status,
            moves.join(", "),
            self.nodes,
            self.time_ms,
            py_bool(self.proven_shortest),
            py_bool(self.main_line),
        )
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}
