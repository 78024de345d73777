//! The replica's evasion lists, printed in the form of the shtsume dump they are checked
//! against (issue 80): a line per SFEN read from stdin,
//!
//! ```text
//! <sfen> \t E \t <chain>;<chain>;... \t <invalid_drops> <invalid_moves>
//! ```
//!
//! each chain its moves in USI joined by commas, entries in list order; `--checks` prints the
//! attacker's checking evasions instead (`C`, one move an entry, no flags). A position whose
//! side to move is not in check prints `NOCHECK`, one Tsumugi's rules refuse `INVALID`. The
//! table is empty: nothing is proven, as in a freshly created shtsume table.
//!
//! ```sh
//! cut -f4 trace.sht | cargo run --release -p tsumugi-replica --example replica_evasions
//! ```

use replica::evasions::{evasion_checks, evasions};
use replica::{Entry, ProvenLookup};
use shogi::Position;
use std::io::{BufRead, Write};

struct EmptyTable;

impl ProvenLookup for EmptyTable {
    fn is_proven(&self, _pos: &Position, _ply: u16) -> bool {
        false
    }
}

fn chains(entries: &[Entry]) -> String {
    let chain = |e: &Entry| e.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(",");
    entries.iter().map(chain).collect::<Vec<_>>().join(";")
}

fn main() {
    let checks = std::env::args().any(|a| a == "--checks");
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            break;
        };
        let sfen = line.trim();
        if sfen.is_empty() {
            continue;
        }
        let Ok(pos) = Position::from_sfen(sfen) else {
            let _ = writeln!(out, "{sfen}\tINVALID");
            continue;
        };
        if !pos.in_check() {
            let _ = writeln!(out, "{sfen}\tNOCHECK");
            continue;
        }
        let _ = if checks {
            writeln!(out, "{sfen}\tC\t{}\t-", chains(&evasion_checks(&pos, &EmptyTable, 0)))
        } else {
            let e = evasions(&pos, &EmptyTable, 0);
            let flag = |b: bool| if b { 1 } else { 0 };
            writeln!(
                out,
                "{sfen}\tE\t{}\t{} {}",
                chains(&e.entries),
                flag(e.invalid_drops),
                flag(e.invalid_moves)
            )
        };
    }
}
