//! A list of problems as SFEN lines, as in `problems/*.sfen`: one position per line, optionally
//! prefixed by `position`/`sfen` or written as `startpos`, optionally followed by
//! `moves ...`, with `#` starting a comment.

use super::error::NotationError;
use super::record::Record;
use crate::sfen::parse_sfen_prefix;

fn read_line(no: usize, text: &str) -> Result<Record, NotationError> {
    let body = text.trim();
    let body = body.strip_prefix("position").map(str::trim_start).unwrap_or(body);
    let body = body.strip_prefix("sfen").map(str::trim_start).unwrap_or(body);
    let (position, rest) = match body.strip_prefix("startpos") {
        Some(rest) => (crate::position::Position::startpos(), rest),
        None => {
            let (setup, rest) = parse_sfen_prefix(body)
                .map_err(|e| NotationError::new(no, "SFEN", e.to_string()))?;
            let pos =
                setup.validate().map_err(|e| NotationError::new(no, "position", e.to_string()))?;
            (pos, rest)
        }
    };
    let mut record = Record { title: None, position, moves: Vec::new(), line: no };
    let rest = rest.trim();
    let moves = match rest.strip_prefix("moves") {
        Some(m) => m,
        None if rest.is_empty() => "",
        None => return Err(NotationError::new(no, "SFEN", format!("unexpected {rest:?}"))),
    };
    let mut pos = record.position.clone();
    for text in moves.split_whitespace() {
        let field = format!("move {}", record.moves.len() + 1);
        let m =
            pos.parse_usi_move(text).map_err(|e| NotationError::new(no, field, e.to_string()))?;
        pos.make_move(m);
        record.moves.push(m);
    }
    Ok(record)
}

/// Reads every non-blank, non-comment line as one record.
pub fn read_sfen_lines(text: &str) -> Vec<Result<Record, NotationError>> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("")))
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(no, l)| read_line(no, l))
        .collect()
}
