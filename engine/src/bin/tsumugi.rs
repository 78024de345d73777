//! `tsumugi`: with no arguments a USI playing engine on stdin/stdout; `match ...` plays a
//! match between two configurations or against an external USI engine; `bench` prints the
//! search's functional signature; `predict` and `book ...` are the ponder's and the opening
//! book's tools; `tune` learns search parameters (Cross-Entropy Method). The logic lives in the library (`engine::usi_front`,
//! `engine::matches::args`, `engine::tools::bench`).

use clap::{Args, Parser, Subcommand};
use engine::book::commands::{self as book_commands, BookArgs};
use engine::learn::command::{self as learn_command, LearnArgs};
use engine::matches::args::{self as match_args, params_from, MatchArgs};
use engine::search::ponder::PonderSettings;
use engine::tools::bench::{run_positions_with, BENCH_POSITIONS, DEFAULT_BENCH_DEPTH};
use engine::tools::predict::predict_games;
use engine::tune::command::{self as tune_command, TuneArgs};
use engine::usi_front;
use std::io::{self, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "tsumugi",
    version,
    about = "Tsumugi: a USI shogi engine (no arguments), a match runner and a bench"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play games between two configurations of Tsumugi, or against an external USI engine,
    /// and report W/D/L with an Elo estimate.
    Match(Box<MatchArgs>),
    /// Search the fixed bench positions to a fixed depth: total nodes (the functional
    /// signature, `Bench: N` in commit messages) and nps.
    Bench(BenchArgs),
    /// How well the ponder's prediction (depth-6 MultiPV-8) foresees the moves of recorded
    /// games (`position ... moves ...` lines, as `match --record` writes them).
    Predict(PredictArgs),
    /// Opening books: build one from game records, its statistics, and the exact
    /// pseudo-match of two books (seed 004).
    Book(BookArgs),
    /// Learn search parameters with the Cross-Entropy Method (seed 003): samples drawn from
    /// each parameter's distribution play games against a reference at a fixed node count;
    /// the best refit the distributions. Resumable; writes a CSV log, a convergence plot and
    /// a parameters file.
    Tune(Box<TuneArgs>),
    /// Learn the evaluation's weights from games: `gen` labelled positions from self-play at
    /// fixed nodes (resumable), `fit` the weights to them (Texel's method), writing a weights
    /// file for `EvalFile` and a loss curve.
    Learn(LearnArgs),
}

#[derive(Args)]
struct PredictArgs {
    /// The game records.
    file: PathBuf,
    /// Skip the first plies of each game (the openings of a match).
    #[arg(long, default_value_t = 0)]
    skip: usize,
    /// Candidates kept at most (as `PonderCandidates`).
    #[arg(long, default_value_t = 5)]
    candidates: usize,
    /// Margin in centipawns (as `PonderMarginCp`).
    #[arg(long, default_value_t = 300)]
    margin: i32,
}

fn predict(args: &PredictArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("tsumugi predict: {}: {e}", args.file.display());
            return ExitCode::from(2);
        }
    };
    let settings = PonderSettings {
        candidates: args.candidates.max(1),
        margin_cp: args.margin,
        hits_continue: false,
    };
    match predict_games(&text, args.skip, &settings) {
        Ok(stats) => {
            print!("{}", stats.table(&settings));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tsumugi predict: {}: {e}", args.file.display());
            ExitCode::from(2)
        }
    }
}

#[derive(Args)]
struct BenchArgs {
    #[arg(long, default_value_t = DEFAULT_BENCH_DEPTH)]
    depth: u32,
    /// Hash (MiB).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// A parameters file.
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
    /// A parameter (repeatable): `--set soppo_mode=1`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Search these positions instead of the built-in ones (`<sfen> [# comment]` lines; `#`
    /// lines are skipped), e.g. `../shared/problems/midgame_positions.sfen`.
    #[arg(long, value_name = "FILE")]
    positions: Option<PathBuf>,
    /// At most this many positions of `--positions`.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Evaluate with this weights or network file (`tsumugi learn fit` / `learn net`, or
    /// `learnt`, `hand-set`, `network`).
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,
}

/// The SFENs of a positions file; a line that is not a valid SFEN is reported and skipped.
fn read_positions(path: &std::path::Path, limit: usize) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut sfens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let sfen = line.split('#').next().unwrap_or("").trim();
        if sfen.is_empty() {
            continue;
        }
        match shogi::Position::from_sfen(sfen) {
            Ok(_) => sfens.push(sfen.to_string()),
            Err(e) => eprintln!("tsumugi bench: {}:{}: {e}", path.display(), i + 1),
        }
        if sfens.len() >= limit {
            break;
        }
    }
    Ok(sfens)
}

fn bench(args: &BenchArgs) -> ExitCode {
    let params = match params_from(args.params.as_deref(), &args.set) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("tsumugi bench: {e}");
            return ExitCode::from(2);
        }
    };
    let eval = match args.weights.as_deref().map(engine::eval::choice::EvalChoice::load) {
        None => None,
        Some(Ok(e)) => Some(e),
        Some(Err(e)) => {
            eprintln!("tsumugi bench: {e}");
            return ExitCode::from(2);
        }
    };
    let (depth, hash) = (args.depth, args.hash.max(1));
    let r = match &args.positions {
        None => run_positions_with(&BENCH_POSITIONS, depth, &params, hash, eval.as_ref()),
        Some(path) => match read_positions(path, args.limit.unwrap_or(usize::MAX)) {
            Ok(sfens) => {
                let refs: Vec<&str> = sfens.iter().map(String::as_str).collect();
                run_positions_with(&refs, depth, &params, hash, eval.as_ref())
            }
            Err(e) => {
                eprintln!("tsumugi bench: {e}");
                return ExitCode::from(2);
            }
        },
    };
    for (i, n) in r.per_position.iter().enumerate() {
        println!("position {:2}: {n} nodes", i + 1);
    }
    println!(
        "{} positions, depth {}: {} ms, {} nps",
        r.per_position.len(),
        args.depth,
        r.elapsed.as_millis(),
        r.nps
    );
    println!("Bench: {}", r.nodes);
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    match Cli::parse().command {
        None => match usi_front::run(BufReader::new(io::stdin()), io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tsumugi: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Match(args)) => ExitCode::from(match_args::run(&args)),
        Some(Command::Bench(args)) => bench(&args),
        Some(Command::Predict(args)) => predict(&args),
        Some(Command::Book(args)) => ExitCode::from(book_commands::run(&args)),
        Some(Command::Tune(args)) => ExitCode::from(tune_command::run(&args)),
        Some(Command::Learn(args)) => ExitCode::from(learn_command::run(&args)),
    }
}
