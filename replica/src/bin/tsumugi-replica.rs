//! `tsumugi-replica FILE...`: shtsume's search replicated (solver work, issue 80), each
//! problem's first proof and the positions it expanded, to set beside a traced shtsume's. The
//! logic lives in the library (`replica::command`).

use clap::Parser;
use replica::command::{self, ReplicaArgs};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "tsumugi-replica",
    version,
    about = "shtsume's search replicated (solver work): each problem's first proof and the \
             positions it expanded, to set beside a traced shtsume's"
)]
struct Cli {
    #[command(flatten)]
    args: ReplicaArgs,
}

fn main() -> ExitCode {
    ExitCode::from(command::run(&Cli::parse().args))
}
