//! `cargo run --release --example perft -- [<sfen>|startpos] <depth>`: prints nodes, time, nps.

use shogi::perft::perft;
use shogi::Position;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((depth, sfen)) = args.split_last() else {
        eprintln!("usage: perft [<sfen>|startpos] <depth>");
        return ExitCode::FAILURE;
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("depth must be a number, got {depth:?}");
        return ExitCode::FAILURE;
    };
    let sfen = sfen.join(" ");
    let pos = if sfen.is_empty() || sfen == "startpos" {
        Ok(Position::startpos())
    } else {
        Position::from_sfen(&sfen)
    };
    let mut pos = match pos {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let nodes = perft(&mut pos, depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "depth {depth} nodes {nodes} time {:.3} s nps {:.0}",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}
