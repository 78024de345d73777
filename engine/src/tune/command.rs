//! `tsumugi tune`: learns search parameters with the Cross-Entropy Method (seed 003).

use crate::matches::args::{default_openings, params_from, split_pair};
use crate::matches::external_engine::ExternalSpec;
use crate::matches::openings::{read_openings, Opening};
use crate::matches::runner::{pick_openings, PlayerSpec};
use crate::params::Params;
use crate::tune::cem::{Cem, CemConfig, Sample};
use crate::tune::fitness::GamePlan;
use crate::tune::outputs::{self, SavedRun};
use crate::tune::space;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    /// The run's directory: `state.json` (resumed from when present), `samples.csv`,
    /// `convergence.html`, `learned.params`.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Tune this parameter too (repeatable): `NAME`, `NAME=MIN..MAX` or `NAME=MIN..MAX:log`.
    #[arg(long = "add", value_name = "SPEC")]
    pub add: Vec<String>,
    /// Tune only the `--add` parameters, not the seed's twelve.
    #[arg(long)]
    pub without_seed_set: bool,
    /// Generations at most (the seed's T = 4).
    #[arg(long, default_value_t = 8)]
    pub generations: usize,
    /// Samples per generation (the seed's N = 100).
    #[arg(long, default_value_t = 16)]
    pub samples: usize,
    /// Fraction of the samples kept as the elite (the seed's ρ = 0.1).
    #[arg(long, default_value_t = 0.25)]
    pub elite: f64,
    /// How far each refit moves toward the elite (1: all the way).
    #[arg(long, default_value_t = 0.7)]
    pub smoothing: f64,
    /// Scales every starting deviation (1: the seed's).
    #[arg(long, default_value_t = 1.0)]
    pub sd_scale: f64,
    /// The deviations never shrink below this fraction of their start. The run ends early once every deviation is at its floor and no mean has
    /// moved by half of it for two generations.
    #[arg(long, default_value_t = 0.2)]
    pub sd_floor: f64,
    /// Games per sample, half with each colour (the seed's batch size B = 10..50).
    #[arg(long, default_value_t = 16)]
    pub games: usize,
    /// Nodes per move in those games.
    #[arg(long, default_value_t = 10_000)]
    pub nodes: u64,
    /// Seed of the draws and of the openings' order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// Hash (MiB) of each engine in the games.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Games reaching this many plies (after the opening) are draws.
    #[arg(long, default_value_t = 320)]
    pub max_plies: u32,
    /// Openings (SFEN or `position` lines). Default: `../shared/problems/engine_opening_positions.sfen`.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Parameters of the samples' base and of the reference (default: the defaults) ...
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// ... and single settings over them (repeatable). The root oracle is off unless set here.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// The reference is this external USI engine instead of our base parameters.
    #[arg(long, value_name = "PATH")]
    pub external: Option<PathBuf>,
    /// A USI option of the external engine (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    pub external_option: Vec<String>,
}

impl TuneArgs {
    fn base(&self) -> Result<Params, String> {
        let mut settings = vec!["oracle_root_ms=0".to_string()];
        settings.extend(self.set.iter().cloned());
        params_from(self.params.as_deref(), &settings)
    }

    fn plan(&self, base: &Params) -> Result<GamePlan, String> {
        if self.games < 2 || !self.games.is_multiple_of(2) {
            return Err("--games must be an even number, at least 2".to_string());
        }
        let reference = match &self.external {
            Some(path) => PlayerSpec::External(ExternalSpec {
                path: path.clone(),
                args: Vec::new(),
                options: self
                    .external_option
                    .iter()
                    .map(|o| split_pair(o))
                    .collect::<Result<_, _>>()?,
                ponder: false,
            }),
            None => GamePlan::player(base, "reference", self.hash.max(1)),
        };
        let openings = match self.openings.clone().or_else(default_openings) {
            Some(p) => read_openings(&p)?,
            None => vec![Opening::startpos()],
        };
        Ok(GamePlan {
            reference,
            openings: pick_openings(openings, 0, Some(self.seed)),
            games: self.games,
            nodes: self.nodes.max(1),
            hash_mb: self.hash.max(1),
            concurrency: self.concurrency.max(1),
            max_plies: self.max_plies,
        })
    }

    /// What the fitness is, in words (kept in the state and the outputs).
    fn plan_text(&self) -> String {
        let against = match &self.external {
            Some(p) => format!("{} {}", p.display(), self.external_option.join(" ")),
            None => {
                let file =
                    self.params.as_ref().map(|p| format!(" {}", p.display())).unwrap_or_default();
                format!("tsumugi{file} {}", self.set.join(" ")).trim_end().to_string()
            }
        };
        format!(
            "score in {} games a sample against {against}, {} nodes a move, openings shuffled by seed {}",
            self.games, self.nodes, self.seed
        )
    }
}

/// Runs `tsumugi tune`; the exit code.
pub fn run(args: &TuneArgs) -> u8 {
    match tune(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("tsumugi tune: {e}");
            2
        }
    }
}

fn tune(args: &TuneArgs) -> Result<(), String> {
    let base = args.base()?;
    let plan = args.plan(&base)?;
    let plan_text = args.plan_text();
    let mut run = match outputs::load(&args.out)? {
        Some(saved) => {
            if saved.plan != plan_text {
                return Err(format!(
                    "{} holds a run with other games ({}); use another --out",
                    args.out.display(),
                    saved.plan
                ));
            }
            eprintln!(
                "resuming {} after generation {}",
                args.out.display(),
                saved.cem.history.len()
            );
            let mut saved = saved;
            saved.cem.config.generations = args.generations;
            saved
        }
        None => {
            let tuned = space::space(
                args.without_seed_set,
                &args.add,
                &base,
                args.sd_scale,
                args.sd_floor,
            )?;
            let config = CemConfig {
                samples: args.samples.max(2),
                elite_fraction: args.elite,
                smoothing: args.smoothing,
                generations: args.generations,
            };
            let names = tuned.iter().map(|t| t.name.clone()).collect();
            let dists = tuned.into_iter().map(|t| t.dist).collect();
            SavedRun { names, plan: plan_text, cem: Cem::new(config, dists, args.seed) }
        }
    };
    let per_generation = run.cem.config.samples * plan.games;
    eprintln!(
        "tuning {} parameters: {} samples x {} games = {per_generation} games a generation, \
         at most {} generations",
        run.names.len(),
        run.cem.config.samples,
        plan.games,
        run.cem.config.generations
    );
    let started = Instant::now();
    while !run.cem.finished() {
        let g = run.cem.history.len();
        let drawn = run.cem.draw();
        let bar = ProgressBar::new(drawn.len() as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "generation {prefix} [{bar:30}] {pos}/{len} samples, {elapsed} (eta {eta}) {msg}",
            )
            .map_err(|e| e.to_string())?
            .progress_chars("=> "),
        );
        bar.set_prefix(format!("{}/{}", g + 1, run.cem.config.generations));
        let mut samples = Vec::with_capacity(drawn.len());
        for values in drawn {
            let params = space::apply(&base, &run.names, &values)?;
            let m = plan.measure(&params, g)?;
            let detail = format!("+{} ={} -{}", m.wdl.wins, m.wdl.draws, m.wdl.losses);
            bar.set_message(format!("last {:.2} ({detail})", m.score));
            bar.inc(1);
            samples.push(Sample { values, fitness: m.score, detail });
        }
        bar.finish_and_clear();
        run.cem.update(samples);
        outputs::save(&args.out, &run, &base)?;
        if let Some(last) = run.cem.history.last() {
            eprintln!(
                "generation {}: mean score {:.3}, elite {:.3}; {:.0} s so far",
                g + 1,
                last.mean_fitness,
                last.elite_fitness,
                started.elapsed().as_secs_f64()
            );
        }
    }
    let centres = run.cem.centres();
    for (name, c) in run.names.iter().zip(centres) {
        eprintln!("{name} = {} (was {})", c.round(), base.get(name).unwrap_or_default());
    }
    outputs::save(&args.out, &run, &base)?;
    eprintln!("wrote {}", args.out.join(outputs::LEARNED).display());
    Ok(())
}
