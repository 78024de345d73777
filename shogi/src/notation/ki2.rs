//! KI2: the KIF layout with moves written as composers write them, several to a line:
//! `▲２六歩 △３四歩 ▲２二角成 △同　銀`. Each move is resolved against the legal moves with its
//! 右 左 直 上 引 寄 words; a move that stays ambiguous or is illegal is an error naming its line.

use super::error::NotationError;
use super::japanese::{mark_color, parse_move};
use super::kifu::{is_terminal, read_records_with, RecordText};
use super::record::Record;

/// The marked moves of a line (`▲２六歩 △３四歩`): each runs from its mark to the next.
fn marked_moves(line: &str) -> Vec<&str> {
    let starts: Vec<usize> =
        line.char_indices().filter(|&(_, c)| mark_color(c).is_some()).map(|(i, _)| i).collect();
    let ends = starts.iter().skip(1).copied().chain(std::iter::once(line.len()));
    starts.iter().zip(ends).map(|(&s, e)| line[s..e].trim_matches([' ', '\t'])).collect()
}

fn read_moves(rec: &RecordText, record: &mut Record) -> Result<(), NotationError> {
    let mut pos = record.position.clone();
    let mut previous = None;
    for &(no, line) in &rec.moves {
        let tokens = marked_moves(line);
        if tokens.is_empty() {
            if is_terminal(line.trim()) {
                return Ok(());
            }
            let field = format!("move {}", record.moves.len() + 1);
            return Err(NotationError::new(no, field, format!("not a KI2 line: {}", line.trim())));
        }
        for text in tokens {
            let field = format!("move {}", record.moves.len() + 1);
            let m =
                parse_move(&pos, text, previous).map_err(|e| NotationError::new(no, field, e))?;
            previous = Some(m.to());
            pos.make_move(m);
            record.moves.push(m);
        }
    }
    Ok(())
}

/// Reads every record of a KI2 text.
pub fn read_ki2(text: &str) -> Vec<Result<Record, NotationError>> {
    read_records_with(text, read_moves)
}
