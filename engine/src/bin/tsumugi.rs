//! `tsumugi`: with no arguments a USI playing engine on stdin/stdout; `match ...` plays a
//! match between two configurations or against an external USI engine; `bench` prints the
//! search's functional signature. The logic lives in the library (`engine::usi`,
//! `engine::match_args`, `engine::bench`).

use clap::{Args, Parser, Subcommand};
use engine::bench::{run_bench, DEFAULT_BENCH_DEPTH};
use engine::match_args::{self, params_from, MatchArgs};
use engine::usi;
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
}

fn bench(args: &BenchArgs) -> ExitCode {
    let params = match params_from(args.params.as_deref(), &args.set) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("tsumugi bench: {e}");
            return ExitCode::from(2);
        }
    };
    let r = run_bench(args.depth, &params, args.hash.max(1));
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
        None => match usi::run(BufReader::new(io::stdin()), io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tsumugi: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Match(args)) => ExitCode::from(match_args::run(&args)),
        Some(Command::Bench(args)) => bench(&args),
    }
}
