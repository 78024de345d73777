//! What a tuning run leaves in its directory, rewritten after every generation: the state to
//! resume from (`state.json`), every sample and its fitness (`samples.csv`), each parameter's
//! mean and deviation by generation (`convergence.html`, one chart per parameter and one of
//! the fitness), and the learnt values as a parameters file (`learned.params`, what
//! `ParamsFile` and `--params` load).

use crate::params::Params;
use crate::tools::chart::{escape, LineChart};
use crate::tune::cem::Cem;
use crate::tune::distribution::{Dist, Scale};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The saved state: the method's state and the parameters' names in its order, with the
/// settings that must not change on resume.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedRun {
    pub names: Vec<String>,
    /// The games: what each fitness was measured against and how (for the reader and to
    /// refuse a resume with other settings).
    pub plan: String,
    pub cem: Cem,
}

pub const STATE: &str = "state.json";
pub const SAMPLES: &str = "samples.csv";
pub const CONVERGENCE: &str = "convergence.html";
pub const LEARNED: &str = "learned.params";

fn path(dir: &Path, file: &str) -> PathBuf {
    dir.join(file)
}

/// Reads a saved run, if the directory has one.
pub fn load(dir: &Path) -> Result<Option<SavedRun>, String> {
    let p = path(dir, STATE);
    if !p.exists() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
    serde_json::from_str(&text).map(Some).map_err(|e| format!("{}: {e}", p.display()))
}

/// Writes a file whole: to a temporary name first, so that an interruption never leaves half
/// a state behind.
fn write_whole(p: &Path, text: &str) -> Result<(), String> {
    let tmp = p.with_extension("tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, p))
        .map_err(|e| format!("{}: {e}", p.display()))
}

/// Writes every output of the run.
pub fn save(dir: &Path, run: &SavedRun, base: &Params) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let state = serde_json::to_string_pretty(run).map_err(|e| e.to_string())?;
    write_whole(&path(dir, STATE), &state)?;
    write_whole(&path(dir, SAMPLES), &samples_csv(run))?;
    write_whole(&path(dir, CONVERGENCE), &convergence_html(run))?;
    write_whole(&path(dir, LEARNED), &learned_params(run, base))
}

/// `generation,sample,<names>,fitness,games` rows.
pub fn samples_csv(run: &SavedRun) -> String {
    let mut s = format!("generation,sample,{},fitness,games\n", run.names.join(","));
    for (g, gen) in run.cem.history.iter().enumerate() {
        for (i, sample) in gen.samples.iter().enumerate() {
            let values: Vec<String> = sample.values.iter().map(|v| format!("{v}")).collect();
            let _ = writeln!(
                s,
                "{},{},{},{:.4},{}",
                g + 1,
                i + 1,
                values.join(","),
                sample.fitness,
                sample.detail
            );
        }
    }
    s
}

/// The learnt values (the distributions' centres) over `base`, as a parameters file.
pub fn learned_params(run: &SavedRun, base: &Params) -> String {
    let gens = run.cem.history.len();
    let mut s = format!(
        "# Learnt by `tsumugi tune` (Cross-Entropy Method, seed 003) after {gens} generation(s)\n\
         # of {} samples; fitness: {}\n",
        run.cem.config.samples, run.plan
    );
    if let Some(last) = run.cem.history.last() {
        let _ = writeln!(
            s,
            "# last generation: mean fitness {:.3}, elite {:.3}",
            last.mean_fitness, last.elite_fitness
        );
    }
    for (name, c) in run.names.iter().zip(run.cem.centres()) {
        let default = base.get(name).unwrap_or_default();
        let _ = writeln!(s, "{name} = {} # was {default}", c.round() as i64);
    }
    s
}

/// One chart per parameter (mean, and mean ± deviation, in the working units: log10 for the
/// log-scale ones; the probability of 1 for a switch), and one of the fitness.
pub fn convergence_html(run: &SavedRun) -> String {
    let mut html = String::from(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>tsumugi tune</title></head>\
         <body style=\"font-family:sans-serif\">\n<h1>Cross-Entropy Method: convergence</h1>\n",
    );
    let _ = writeln!(
        html,
        "<p>{} generation(s) of {} samples, elite {:.0} %, smoothing {}; fitness: {}.</p>",
        run.cem.history.len(),
        run.cem.config.samples,
        run.cem.config.elite_fraction * 100.0,
        run.cem.config.smoothing,
        escape(&run.plan)
    );
    // The distributions before each generation, then the current ones.
    let mut states: Vec<&[Dist]> = run.cem.history.iter().map(|g| g.dists.as_slice()).collect();
    states.push(&run.cem.dists);
    let fitness = LineChart {
        title: "fitness by generation".to_string(),
        x_label: "generation".to_string(),
        y_label: "score against the reference".to_string(),
        series: vec![
            ("samples' mean".to_string(), points(run, |g| g.mean_fitness)),
            ("elite's mean".to_string(), points(run, |g| g.elite_fitness)),
        ],
    };
    html.push_str(&fitness.svg());
    for (j, name) in run.names.iter().enumerate() {
        let Some(first) = states.first().and_then(|s| s.get(j)) else { continue };
        let series_of = |f: fn(f64, f64) -> f64| -> Vec<(f64, f64)> {
            states
                .iter()
                .enumerate()
                .filter_map(|(g, s)| s.get(j).map(|d| (g, d.centre_and_spread())))
                .map(|(g, (mean, sd))| (g as f64, f(mean, sd)))
                .collect()
        };
        let is_switch = matches!(first, Dist::Bernoulli { .. });
        let (unit, series) = match first {
            Dist::Bernoulli { .. } => {
                ("probability of 1", vec![("p".to_string(), series_of(|m, _| m))])
            }
            Dist::Gaussian { scale, .. } => (
                if *scale == Scale::Log10 { "log10 of the value (2 = 100)" } else { "value" },
                vec![
                    ("mean".to_string(), series_of(|m, _| m)),
                    ("mean + sd".to_string(), series_of(|m, s| m + s)),
                    ("mean - sd".to_string(), series_of(|m, s| m - s)),
                ],
            ),
        };
        let chart = LineChart {
            title: format!("{name} (now {})", run.cem.dists[j].centre()),
            x_label: "generation (0: the start)".to_string(),
            y_label: unit.to_string(),
            series,
        };
        // A probability reads against 0 and 1; a number's drift is what matters.
        html.push_str(&if is_switch { chart.svg() } else { chart.svg_fitted() });
    }
    html.push_str("</body></html>\n");
    html
}

fn points(run: &SavedRun, f: impl Fn(&crate::tune::cem::Generation) -> f64) -> Vec<(f64, f64)> {
    run.cem.history.iter().enumerate().map(|(g, gen)| ((g + 1) as f64, f(gen))).collect()
}
