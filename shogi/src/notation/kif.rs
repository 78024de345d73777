//! KIF, 柿木's record format: `key：value` headers, an optional BOD diagram (else 手合割), and a
//! numbered move list:
//!
//! ```text
//! 手数----指手---------消費時間--
//!    1 ２六歩(27)   ( 0:00/00:00:00)
//!    2 同　歩(23)
//!    3 ５五角打
//!    4 投了
//! ```
//!
//! A terminal word (投了, 詰み, 中断, ...) ends the main line; `変化：N手` branches are skipped.

use super::bod::write_bod;
use super::error::NotationError;
use super::japanese::{move_text, parse_move, Style};
use super::kifu::{is_terminal, read_records_with, RecordText};
use super::record::Record;
use crate::movegen::is_legal;
use crate::moves::Move;

/// The move column of a numbered line: the text after the move number, up to the first ASCII
/// space (`同　歩` keeps its full-width space; the time column follows after ASCII spaces).
fn move_column(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() == t.len() {
        return None;
    }
    let rest = rest.trim_start_matches([' ', '\t']);
    Some(rest.split([' ', '\t']).next().unwrap_or(""))
}

fn read_moves(rec: &RecordText, record: &mut Record) -> Result<(), NotationError> {
    let mut pos = record.position.clone();
    let mut previous = None;
    for &(no, line) in &rec.moves {
        let field = format!("move {}", record.moves.len() + 1);
        let Some(text) = move_column(line) else {
            return Err(NotationError::new(no, field, format!("not a KIF line: {}", line.trim())));
        };
        if is_terminal(text) {
            break;
        }
        let m = parse_move(&pos, text, previous).map_err(|e| NotationError::new(no, field, e))?;
        previous = Some(m.to());
        pos.make_move(m);
        record.moves.push(m);
    }
    Ok(())
}

/// Reads every record of a KIF (or BOD) text.
pub fn read_kif(text: &str) -> Vec<Result<Record, NotationError>> {
    read_records_with(text, read_moves)
}

/// Writes a record as KIF with a BOD diagram: 表題 when titled, the diagram, then the numbered
/// main line. An illegal move is an error naming its place in the line.
pub fn write_kif(record: &Record) -> Result<String, NotationError> {
    let mut out = String::new();
    if let Some(t) = &record.title {
        out.push_str(&format!("表題：{t}\n"));
    }
    out.push_str(&write_bod(&record.position));
    out.push_str("手数----指手---------消費時間--\n");
    let mut pos = record.position.clone();
    let mut previous = None;
    for (i, &m) in record.moves.iter().enumerate() {
        if !is_legal(&pos, m) {
            return Err(NotationError::new(
                1,
                format!("move {}", i + 1),
                format!("{m} is illegal"),
            ));
        }
        out.push_str(&format!("{:>4} {}\n", i + 1, move_text(&pos, m, previous, Style::Kif)));
        previous = Some(m.to());
        pos.make_move(m);
    }
    Ok(out)
}

/// [`write_kif`] for a position and a main line.
pub fn write_kif_line(
    position: &crate::position::Position,
    moves: &[Move],
) -> Result<String, NotationError> {
    write_kif(&Record { title: None, position: position.clone(), moves: moves.to_vec(), line: 1 })
}
