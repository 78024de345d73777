//! The position a caller hands `solve`: a bare SFEN (as `cshogi.Board().sfen()` returns it),
//! `sfen <sfen> [moves ...]`, or a USI `position startpos|sfen ... [moves ...]` command.

use shogi::{parse_position_command, Position};

/// Parses `text` into a validated position; the error is the rules core's message (a syntax
/// error in the SFEN, or an illegal position: two pawns on a file, a dead piece, ...).
pub fn parse_position(text: &str) -> Result<Position, String> {
    // One space between words, as `parse_position_command` expects after `sfen`.
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Err("empty position: expected an SFEN, `sfen ...` or `position ...`".to_string());
    };
    let line = words.join(" ");
    let command = match first {
        "position" | "startpos" | "sfen" => line,
        _ => format!("sfen {line}"),
    };
    parse_position_command(&command).map_err(|e| e.to_string())
}
