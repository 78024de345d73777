//! `tsumugi learn gen`, `import` and `fit`: the command line of [`crate::learn`].

use crate::eval::choice::EvalChoice;
use crate::eval::weights::Weights;
use crate::learn::data;
use crate::learn::features::Layout;
use crate::learn::fit::{fit, prepare, FitSettings};
use crate::learn::gen::{self, GenSettings};
use crate::learn::import::{import_game, read_records, ImportSettings};
use crate::learn::network_fit::{train, Encoded, NetSettings};
use crate::learn::network_model::FloatNet;
use crate::matches::args::{default_openings, params_from};
use crate::matches::openings::{read_openings, Opening};
use crate::tools::chart::LineChart;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct LearnArgs {
    #[command(subcommand)]
    pub command: LearnCommand,
}

#[derive(Subcommand, Debug)]
pub enum LearnCommand {
    /// Labelled positions from self-play at fixed nodes (quiet positions, the game's result
    /// and the search's score), appended to OUT; a stopped run resumes where it stopped.
    Gen(GenArgs),
    /// Labelled positions from recorded games (`tsumugi match --record`: games against
    /// YaneuraOu or any engine), quiet ones scored by a search at fixed nodes, written to OUT.
    Import(ImportArgs),
    /// Fit the evaluation's weights to labelled positions (logistic regression of the result,
    /// Texel's method); writes a weights file for `EvalFile`/`--a-weights` and the loss curve.
    Fit(FitArgs),
    /// Train the network evaluation on labelled positions (`learn gen` files); writes the
    /// network file for `EvalFile` and the loss curve.
    Net(NetArgs),
}

#[derive(Args, Debug)]
pub struct NetArgs {
    /// Data files of `learn gen` or `learn import`.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The loss curve (SVG; default: OUT with `.svg`).
    #[arg(long, value_name = "FILE")]
    pub curve: Option<PathBuf>,
    #[arg(long, default_value_t = NetSettings::default().epochs)]
    pub epochs: usize,
    /// Epochs without a better held-out loss before stopping.
    #[arg(long, default_value_t = NetSettings::default().patience)]
    pub patience: usize,
    #[arg(long, default_value_t = NetSettings::default().batch)]
    pub batch: usize,
    /// Adam's step.
    #[arg(long, default_value_t = NetSettings::default().learning_rate)]
    pub learning_rate: f32,
    /// The step is multiplied by this after each epoch.
    #[arg(long, default_value_t = NetSettings::default().decay)]
    pub decay: f32,
    /// Share of the game result in the target (the rest: the search score's win
    /// probability).
    #[arg(long, default_value_t = NetSettings::default().result_weight)]
    pub result_weight: f64,
    /// The logistic scale in centipawns (default: fitted to the results of the scores).
    #[arg(long)]
    pub scale: Option<f64>,
    #[arg(long, default_value_t = NetSettings::default().seed)]
    pub seed: u64,
    /// Threads (the weights do not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Decay of the buckets' own first-layer rows towards the shared ones.
    #[arg(long, default_value_t = NetSettings::default().bucket_decay)]
    pub bucket_decay: f32,
    /// Go on from this network (a network file of `learn net`; `network` names the built-in
    /// one) instead of small random weights: epoch 0 is then its losses on the same positions.
    #[arg(long, value_name = "FILE")]
    pub start: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct GenArgs {
    /// The data file (created, or resumed).
    pub out: PathBuf,
    /// Games in the file at the end.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Games drawn at this many plies.
    #[arg(long, default_value_t = 320)]
    pub max_plies: u32,
    /// Games played at the same time (one thread each).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// The opening order's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Opening positions (default: the project's opening file, else the start position).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Hash (MiB) of each game's engine.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Random legal moves among the first 24 plies of each game (drawn from the seed and the
    /// game number): without them a game from an opening already played is the same game.
    #[arg(long, default_value_t = 0)]
    pub random_moves: usize,
    /// Search parameters file of the players.
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// The players' evaluation: a weights file or a network file (`learn fit` / `learn net`;
    /// default: the engine's, the built-in network; `learnt`, `hand-set`, `network` name
    /// built-in ones): a next round plays with what the last one learnt.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// Match records (`tsumugi match --record`).
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// The data file to write (the format of `learn gen`).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Nodes of the search that scores each quiet position.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Games scored at the same time (one thread each).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Hash (MiB) of each game's engine.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Search parameters file of the scoring search.
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// The scoring search's evaluation: a weights or network file (default: the engine's, the
    /// built-in network).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct FitArgs {
    /// Data files of `learn gen`.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The loss curve (SVG; default: OUT with `.svg`).
    #[arg(long, value_name = "FILE")]
    pub curve: Option<PathBuf>,
    /// Start from these weights (default: the built-in learnt ones).
    #[arg(long, value_name = "FILE")]
    pub start: Option<PathBuf>,
    #[arg(long, default_value_t = FitSettings::default().epochs)]
    pub epochs: usize,
    /// Epochs without a better held-out loss before stopping.
    #[arg(long, default_value_t = FitSettings::default().patience)]
    pub patience: usize,
    #[arg(long, default_value_t = FitSettings::default().batch)]
    pub batch: usize,
    /// Adam's step (centipawns).
    #[arg(long, default_value_t = FitSettings::default().learning_rate)]
    pub learning_rate: f64,
    /// Pull towards the starting weights.
    #[arg(long, default_value_t = FitSettings::default().l2)]
    pub l2: f64,
    /// Share of the game result in the target (the rest: the search score's win
    /// probability).
    #[arg(long, default_value_t = FitSettings::default().result_weight)]
    pub result_weight: f64,
    /// The logistic scale in centipawns (default: fitted to the data first).
    #[arg(long)]
    pub scale: Option<f64>,
    #[arg(long, default_value_t = FitSettings::default().seed)]
    pub seed: u64,
    /// Keep a section at its starting value (repeatable; a section name or the start of
    /// names, e.g. `own_king`).
    #[arg(long, value_name = "SECTION")]
    pub freeze: Vec<String>,
}

pub fn run(args: &LearnArgs) -> u8 {
    let result = match &args.command {
        LearnCommand::Gen(a) => run_gen(a),
        LearnCommand::Import(a) => run_import(a),
        LearnCommand::Fit(a) => run_fit(a),
        LearnCommand::Net(a) => run_net(a),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("tsumugi learn: {e}");
            1
        }
    }
}

/// The weights of a file (or a built-in set's name), else the built-in learnt ones.
fn weights_or_default(path: Option<&std::path::Path>) -> Result<Weights, String> {
    path.map_or_else(|| Ok(Weights::default()), Weights::load)
}

/// The evaluation of a weights or network file (or a built-in name), else the engine's default
/// (the built-in network).
fn eval_or_default(path: Option<&std::path::Path>) -> Result<EvalChoice, String> {
    path.map_or_else(|| Ok(EvalChoice::default()), EvalChoice::load)
}

/// A progress bar over `games` games (hidden with `--quiet`).
fn games_bar(games: usize, quiet: bool) -> Result<ProgressBar, String> {
    let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(games as u64) };
    bar.set_style(
        ProgressStyle::with_template("games [{bar:30}] {pos}/{len}, {elapsed} (eta {eta})")
            .map_err(|e| e.to_string())?
            .progress_chars("=> "),
    );
    Ok(bar)
}

fn run_gen(args: &GenArgs) -> Result<(), String> {
    let openings = match args.openings.clone().or_else(default_openings) {
        Some(path) => read_openings(&path)?,
        None => vec![Opening::startpos()],
    };
    if openings.is_empty() {
        return Err("no openings".to_string());
    }
    if args.random_moves == 0 && args.games > openings.len() {
        // At fixed nodes the engine is deterministic: the data would hold each game again.
        eprintln!(
            "note: {} games from {} openings without --random-moves: the games after the \
             first {} play earlier games again",
            args.games,
            openings.len(),
            openings.len()
        );
    }
    let settings = GenSettings {
        games: args.games,
        nodes: args.nodes.max(1),
        max_plies: args.max_plies,
        concurrency: args.concurrency.max(1),
        seed: args.seed,
        hash_mb: args.hash.max(1),
        params: params_from(args.params.as_deref(), &[])?,
        eval: eval_or_default(args.weights.as_deref())?,
        openings,
        random_moves: args.random_moves,
    };
    let bar = games_bar(args.games, args.quiet)?;
    let started = Instant::now();
    let played = gen::run(&args.out, &settings, &mut |done, _| bar.set_position(done as u64))?;
    bar.finish_and_clear();
    let samples = data::read(&args.out)?.len();
    eprintln!(
        "{played} games played in {:.0} s; {} now holds {} games, {samples} positions",
        started.elapsed().as_secs_f64(),
        args.out.display(),
        args.games
    );
    Ok(())
}

fn run_import(args: &ImportArgs) -> Result<(), String> {
    let mut games = Vec::new();
    for path in &args.records {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        games.extend(read_records(&text, &path.display().to_string())?);
    }
    let settings = ImportSettings {
        nodes: args.nodes.max(1),
        hash_mb: args.hash.max(1),
        params: params_from(args.params.as_deref(), &[])?,
        eval: eval_or_default(args.weights.as_deref())?,
    };
    let bar = games_bar(games.len(), args.quiet)?;
    // Games are scored side by side; each writes its own slot, so the file is in game order.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<String>> =
        games.iter().map(|_| std::sync::Mutex::new(String::new())).collect();
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency.clamp(1, games.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(game) = games.get(i) else { break };
                let text = import_game(i, game, &settings);
                if let Ok(mut slot) = slots[i].lock() {
                    *slot = text;
                }
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    let text: String = slots.into_iter().filter_map(|s| s.into_inner().ok()).collect();
    std::fs::write(&args.out, &text).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let samples = data::read(&args.out)?.len();
    eprintln!("{} games imported: {samples} positions in {}", games.len(), args.out.display());
    Ok(())
}

fn run_fit(args: &FitArgs) -> Result<(), String> {
    let start = weights_or_default(args.start.as_deref())?;
    let names = crate::eval::weights_file::sections();
    if let Some(f) =
        args.freeze.iter().find(|f| !names.iter().any(|s| s.name.starts_with(f.as_str())))
    {
        return Err(format!("--freeze {f}: no section of the weights file starts so"));
    }
    let mut samples = Vec::new();
    for path in &args.data {
        samples.extend(data::read(path)?);
    }
    let settings = FitSettings {
        epochs: args.epochs,
        patience: args.patience,
        batch: args.batch,
        learning_rate: args.learning_rate,
        l2: args.l2,
        result_weight: args.result_weight,
        scale: args.scale,
        seed: args.seed,
        frozen: args.freeze.clone(),
    };
    let layout = Layout::new();
    let (mut prepared, duplicates) = prepare(&samples, &layout);
    let held = prepared.iter().filter(|p| p.held_out).count();
    eprintln!("{} positions ({duplicates} duplicates removed), {held} held out", prepared.len());
    let fitted = fit(&mut prepared, &start, &settings, |epoch, e| {
        eprintln!("epoch {epoch}: loss {:.6}, held out {:.6}", e.train_loss, e.held_out_loss);
    })?;
    eprintln!("best epoch {}, logistic scale {:.1} cp", fitted.best_epoch, fitted.scale);
    let header = vec![
        "Tsumugi evaluation weights, tsumugi learn fit".to_string(),
        format!(
            "data: {}; {} positions, {duplicates} duplicates removed, {held} held out",
            args.data.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "),
            prepared.len()
        ),
        format!(
            "epochs {} (best {}), scale {:.1}, lr {}, l2 {}, result weight {}, seed {}",
            fitted.epochs.len() - 1,
            fitted.best_epoch,
            fitted.scale,
            settings.learning_rate,
            settings.l2,
            settings.result_weight,
            settings.seed
        ),
    ];
    std::fs::write(&args.out, fitted.weights.to_file_text(&header))
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    let curve = args.curve.clone().unwrap_or_else(|| args.out.with_extension("svg"));
    let chart = loss_curve(
        format!("learn fit: cross-entropy by epoch ({} positions)", prepared.len()),
        fitted.epochs.iter().map(|e| (e.train_loss, e.held_out_loss)),
    );
    std::fs::write(&curve, chart.svg_fitted()).map_err(|e| format!("{}: {e}", curve.display()))?;
    eprintln!("weights written to {}, loss curve to {}", args.out.display(), curve.display());
    Ok(())
}

fn run_net(args: &NetArgs) -> Result<(), String> {
    // The starting network is read first: a wrong file is told before the data are read.
    let start = match &args.start {
        None => None,
        Some(path) => match EvalChoice::load(path)? {
            EvalChoice::Network(net) => Some(FloatNet::from_network(&net)),
            EvalChoice::Linear(_) => {
                return Err(format!("{}: --start takes a network file", path.display()))
            }
        },
    };
    // Read line by line into the encoding: a million positions as `Sample`s would not fit.
    let mut encoded = Encoded::new();
    let mut seen = std::collections::HashSet::new();
    let mut read = 0usize;
    // Games are told apart by their `# game` lines (the held-out tenth is of games).
    let mut game = 0usize;
    // The built-in linear evaluation on the held-out positions, the yardstick.
    let linear_weights = crate::eval::weights::Weights::default();
    let mut linear_held_out: Vec<(i32, i32, f64)> = Vec::new();
    for path in &args.data {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            if data::game_number(line).is_some() {
                game += 1;
            }
            match data::parse_line(line) {
                Ok(Some(s)) => {
                    read += 1;
                    let before = encoded.len();
                    if encoded.push(&s, game, &mut seen) && encoded.is_held_out(before) {
                        let linear = crate::eval::evaluate_weighted(
                            &s.position,
                            &linear_weights,
                            crate::eval::Scales::default(),
                        );
                        linear_held_out.push((linear, s.score, s.result));
                    }
                }
                Ok(None) => {}
                Err(e) => return Err(format!("{}:{}: {e}", path.display(), i + 1)),
            }
        }
    }
    let settings = NetSettings {
        epochs: args.epochs,
        patience: args.patience,
        batch: args.batch,
        learning_rate: args.learning_rate,
        decay: args.decay,
        result_weight: args.result_weight,
        scale: args.scale,
        seed: args.seed,
        threads: args.threads,
        bucket_decay: args.bucket_decay,
    };
    let held = encoded.held_out();
    eprintln!(
        "{} positions ({} duplicates or without kings left out), {held} held out",
        encoded.len(),
        read - encoded.len()
    );
    let started = Instant::now();
    let fitted = train(&mut encoded, &settings, start, |epoch, e| {
        eprintln!(
            "epoch {epoch}: loss {:.6}, held out {:.6} ({:.0} s)",
            e.train_loss,
            e.held_out_loss,
            started.elapsed().as_secs_f64()
        );
    })?;
    eprintln!("best epoch {}, logistic scale {:.1} cp", fitted.best_epoch, fitted.scale);
    let linear_loss = crate::learn::network_fit::loss_of_values(
        linear_held_out.iter().map(|&(v, score, result)| (v as f32, score as f32, result as f32)),
        &settings,
        fitted.scale,
    );
    eprintln!(
        "held-out loss: network {:.6}, the built-in linear evaluation {linear_loss:.6}",
        fitted.epochs[fitted.best_epoch].held_out_loss
    );
    let (quantised, score) =
        crate::learn::network_model::quantisation_report(&fitted.net, &encoded, 2000);
    eprintln!(
        "first 2000 positions: quantised network {quantised:.1} cp from the float one, float \
         network {score:.1} cp from the search scores (mean distances)"
    );
    crate::eval::network::file::save(&fitted.net.quantise(), &args.out)?;
    let curve = args.curve.clone().unwrap_or_else(|| args.out.with_extension("svg"));
    let mut chart = loss_curve(
        format!("learn net: squared error by epoch ({} positions)", encoded.len()),
        fitted.epochs.iter().map(|e| (e.train_loss, e.held_out_loss)),
    );
    chart.series.push((
        "linear evaluation, held out".to_string(),
        vec![(0.0, linear_loss), ((fitted.epochs.len() - 1) as f64, linear_loss)],
    ));
    std::fs::write(&curve, chart.svg_fitted()).map_err(|e| format!("{}: {e}", curve.display()))?;
    eprintln!("network written to {}, loss curve to {}", args.out.display(), curve.display());
    Ok(())
}

/// The loss curve of a fit: the training and held-out losses of each epoch (epoch 0 first).
fn loss_curve(title: String, losses: impl Iterator<Item = (f64, f64)>) -> LineChart {
    let (mut training, mut held_out) = (Vec::new(), Vec::new());
    for (i, (train, held)) in losses.enumerate() {
        training.push((i as f64, train));
        held_out.push((i as f64, held));
    }
    LineChart {
        title,
        x_label: "epoch".to_string(),
        y_label: "loss".to_string(),
        series: vec![("training".to_string(), training), ("held out".to_string(), held_out)],
    }
}
