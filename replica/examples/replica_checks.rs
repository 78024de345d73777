//! Prints the replica's checks (`replica::checks`) for SFEN lines read from standard
//! input, one line per position: the moves in USI, in the order of shtsume's list from its head.
//! Meant to be compared line for line with the same list dumped by shtsume's `generate_check`
//! (issue 80).
//!
//! ```sh
//! cut -f4 trace.sht | cargo run --release -p tsumugi-replica --example replica_checks
//! ```
//!
//! A line that is not a position prints as `#error`; a position whose side to move is in check
//! starts with `#check ` (its checks come from the evasions' list).

use replica::checks::checks;
use replica::ProvenLookup;
use shogi::Position;
use std::io::{BufRead, BufWriter, Write};

/// A table that knows nothing: the checks outside check never ask it.
struct NothingProven;

impl ProvenLookup for NothingProven {
    fn is_proven(&self, _pos: &Position, _ply: u16) -> bool {
        false
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        // A trace's SFEN has no move number.
        let sfen = if text.split_whitespace().count() == 3 {
            format!("{text} 1")
        } else {
            text.to_owned()
        };
        let Ok(pos) = Position::from_sfen(&sfen) else {
            let _ = writeln!(out, "#error");
            continue;
        };
        let moves: Vec<String> =
            checks(&pos, &NothingProven, 0).iter().map(|e| e.head().to_string()).collect();
        let mark = if pos.in_check() { "#check " } else { "" };
        let _ = writeln!(out, "{mark}{}", moves.join(" "));
    }
}
