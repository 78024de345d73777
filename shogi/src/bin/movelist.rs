//! `movelist FILE [--limit N]` (binary of the rules crate, used by the cross-check): for each position line of FILE prints
//! `<line>\t<in_check>\t<mate>\t<sorted legal moves>`, for the cshogi cross-check
//! (`scripts/cshogi_crosscheck.py`). Unparsable lines print `<line>\terror\t<message>`.

use shogi::movegen::legal_moves;
use shogi::{MoveList, Position};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: movelist FILE [--limit N]");
        return ExitCode::FAILURE;
    };
    let limit = match args.iter().position(|a| a == "--limit") {
        Some(i) => match args.get(i + 1).and_then(|n| n.parse::<usize>().ok()) {
            Some(n) => n,
            None => {
                eprintln!("--limit needs a number");
                return ExitCode::FAILURE;
            }
        },
        None => usize::MAX,
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut done = 0;
    let mut list = MoveList::new();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (i, line) in text.split('\n').enumerate() {
        let line = line.trim_end_matches('\r').trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if done == limit {
            break;
        }
        done += 1;
        let sfen = line.split(" #").next().unwrap_or("");
        let sfen = sfen.strip_prefix("sfen ").unwrap_or(sfen);
        let written = match Position::from_sfen(sfen) {
            Err(e) => writeln!(out, "{}\terror\t{e}", i + 1),
            Ok(pos) => {
                list.clear();
                legal_moves(&pos, &mut list);
                let mut moves: Vec<String> = list.iter().map(|m| m.to_string()).collect();
                moves.sort();
                let mate = pos.in_check() && list.is_empty();
                let check = pos.in_check() as u8;
                writeln!(out, "{}\t{check}\t{}\t{}", i + 1, mate as u8, moves.join(" "))
            }
        };
        // A closed pipe (e.g. `| head`) ends the run quietly instead of panicking.
        if written.is_err() {
            return ExitCode::FAILURE;
        }
    }
    match out.flush() {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}
