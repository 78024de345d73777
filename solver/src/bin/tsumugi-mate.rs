//! `tsumugi-mate`: with no arguments a USI mate engine on stdin/stdout; `solve FILE...` runs the
//! batch solver. The logic lives in the library (`solver::usi_engine`, `solver::batch`).

use clap::{Parser, Subcommand};
use solver::batch::{self, SolveArgs};
use solver::composer::command::{self as report, ReportArgs};
use solver::usi_engine;
use std::io::{self, BufReader};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "tsumugi-mate",
    version,
    about = "Tsumugi's df-pn tsume-shogi solver: a USI mate engine (no arguments) or a batch solver"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Solve the problems of one or more files and print one result line per problem.
    Solve(SolveArgs),
    /// The composer's report of each problem: main line, cooks (余詰), variations (変化),
    /// pieces left in hand (駒余り), and the intended line's comparison.
    Report(ReportArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        None => match usi_engine::run(BufReader::new(io::stdin()), io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tsumugi-mate: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Solve(args)) => ExitCode::from(batch::run(&args)),
        Some(Command::Report(args)) => ExitCode::from(report::run(&args)),
    }
}
