//! BOD, the board diagram of 柿木 (Kakinoki) that KIF and KI2 embed and composers paste alone:
//!
//! ```text
//! 後手の持駒：角二　金三
//!   ９ ８ ７ ６ ５ ４ ３ ２ １
//! +---------------------------+
//! | ・ ・ ・ ・ ・ ・ ・v桂v香|一
//! ...
//! +---------------------------+
//! 先手の持駒：金　銀
//! 後手番
//! ```
//!
//! Hands are kept exactly as written: a tsume problem's defender hand is often `なし` or left
//! out, and no 残り駒 (remaining pieces) are invented; only a hand written `残りの駒` gets them. `手数＝` lines are read but the SFEN
//! move number stays 1, as the diagram is a problem's start, not a game's middle.

use super::error::NotationError;
use super::kanji::{file_char, glyph, hand_text, parse_hand, parse_piece_name, rank_char};
use super::remaining::remaining_to_hand;
use crate::color::Color;
use crate::piece::Piece;
use crate::position::Position;
use crate::setup::{PositionError, Setup};
use crate::square::Square;

/// What a BOD line is.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum BodLine {
    /// `後手の持駒：` (or 上手's): starts a diagram.
    WhiteHand,
    /// `先手の持駒：` (or 下手's): usually right after the frame.
    BlackHand,
    /// `  ９ ８ ７ ...`.
    FileDigits,
    /// `+-----+`.
    Frame,
    /// `|v香v桂 ・ ...|一`.
    Row,
    /// `手数＝N ... まで`.
    MoveCount,
    /// `後手番` / `先手番` (上手番 / 下手番).
    Side(Color),
}

const HAND_PREFIXES: [(&str, Color); 4] = [
    ("後手の持駒", Color::White),
    ("上手の持駒", Color::White),
    ("先手の持駒", Color::Black),
    ("下手の持駒", Color::Black),
];

/// Classifies a line of a diagram; `None` for lines that are not BOD.
pub fn classify(line: &str) -> Option<BodLine> {
    let t = line.trim();
    if let Some(&(_, color)) = HAND_PREFIXES.iter().find(|(p, _)| t.starts_with(p)) {
        return Some(if color == Color::White { BodLine::WhiteHand } else { BodLine::BlackHand });
    }
    Some(match t {
        "後手番" | "上手番" => BodLine::Side(Color::White),
        "先手番" | "下手番" => BodLine::Side(Color::Black),
        _ if t.starts_with('９') || t.starts_with("9 8") => BodLine::FileDigits,
        _ if t.starts_with("+-") => BodLine::Frame,
        _ if t.starts_with('|') => BodLine::Row,
        _ if t.starts_with("手数＝") || t.starts_with("手数=") => BodLine::MoveCount,
        _ => return None,
    })
}

fn row_field(rank: usize) -> String {
    format!("board row {}", rank_char(rank))
}

/// Reads the nine cells of a row (`| ・v香 ...|一`) into `setup` at `rank`. The rank kanji after
/// the frame, when present, must agree with the row's place.
fn parse_row(text: &str, rank: usize, setup: &mut Setup) -> Result<(), NotationError> {
    let field = row_field(rank);
    let err = |m: String| NotationError::new(0, field.clone(), m);
    let t = text.trim();
    let inner =
        t.strip_prefix('|').and_then(|r| r.rfind('|').map(|end| (&r[..end], &r[end + 1..])));
    let Some((cells, label)) = inner else {
        return Err(err("expected |...| around the squares".to_string()));
    };
    let label = label.trim();
    if !label.is_empty() && !label.starts_with(rank_char(rank)) {
        return Err(err(format!("row labelled {label} is in place {}", rank_char(rank))));
    }
    let chars: Vec<char> = cells.chars().collect();
    let count = chars.len().div_ceil(2);
    if chars.len() != 18 {
        return Err(err(format!("expected 9 squares, found {count}")));
    }
    for (i, cell) in chars.chunks(2).enumerate() {
        let color = match cell[0] {
            ' ' | '^' => Color::Black,
            'v' | 'V' => Color::White,
            c => return Err(err(format!("square {}: bad side mark {c:?}", 9 - i))),
        };
        if cell[1] == '・' {
            continue;
        }
        let name = cell[1].to_string();
        let Some((kind, "")) = parse_piece_name(&name) else {
            return Err(err(format!("square {}: unknown piece {name}", 9 - i)));
        };
        if let Some(sq) = Square::from_coords(8 - i as i32, rank as i32) {
            setup.board[sq.index()] = Piece::new(color, kind);
        }
    }
    Ok(())
}

fn hand_of(text: &str) -> &str {
    text.split_once(['：', ':']).map(|(_, v)| v).unwrap_or("").trim()
}

/// Reads a hand line; `残りの駒` (every piece not placed) is left for [`parse_bod`] to fill in
/// once the board is read, and reported as `true`.
fn read_hand(
    setup: &mut Setup,
    color: Color,
    text: &str,
    no: usize,
) -> Result<bool, NotationError> {
    if hand_of(text) == "残りの駒" {
        return Ok(true);
    }
    let who = if color == Color::White { "後手" } else { "先手" };
    setup.hands[color.index()] = parse_hand(hand_of(text))
        .map_err(|m| NotationError::new(no, format!("hand of {who}"), m))?;
    Ok(false)
}

/// Reads the lines of one diagram (`(line number, text)`, in file order) into a setup.
pub fn parse_bod(lines: &[(usize, &str)]) -> Result<Setup, NotationError> {
    let mut setup = Setup::empty();
    let mut rows = 0usize;
    let mut last = 0;
    let mut rest_to = None;
    for &(no, text) in lines {
        last = no;
        match classify(text) {
            Some(line @ (BodLine::WhiteHand | BodLine::BlackHand)) => {
                let color = if line == BodLine::WhiteHand { Color::White } else { Color::Black };
                if read_hand(&mut setup, color, text, no)? {
                    rest_to = Some(color);
                }
            }
            Some(BodLine::Row) => {
                if rows == 9 {
                    return Err(NotationError::new(no, "board", "more than 9 rows"));
                }
                parse_row(text, rows, &mut setup).map_err(|e| e.at(no))?;
                rows += 1;
            }
            Some(BodLine::Side(color)) => setup.side = color,
            Some(_) => {}
            None => return Err(NotationError::new(no, "board", format!("not a BOD line: {text}"))),
        }
    }
    if rows != 9 {
        return Err(NotationError::new(last, "board", format!("expected 9 rows, found {rows}")));
    }
    if let Some(color) = rest_to {
        remaining_to_hand(&mut setup, color);
    }
    Ok(setup)
}

/// Why the diagram `lines` (as [`parse_bod`] read them) is not a legal position: an error about
/// one square is put on that square's row (`line 12: board row 九: more than one black king
/// (another on 5i: ５九)`), others on the diagram's first line.
pub fn position_error(lines: &[(usize, &str)], e: PositionError) -> NotationError {
    let first = lines.first().map_or(1, |l| l.0);
    let rows = || lines.iter().filter(|(_, t)| classify(t) == Some(BodLine::Row));
    match e.square() {
        Some(sq) => {
            let (file, rank) = (sq.file().index(), sq.rank().index());
            let line = rows().nth(rank).map_or(first, |l| l.0);
            let at = format!("{}{}", file_char(file), rank_char(rank));
            NotationError::new(line, row_field(rank), format!("{e}: {at}"))
        }
        None => NotationError::new(first, "position", e.to_string()),
    }
}

/// Reads a standalone diagram text (other lines, such as headers, are an error).
pub fn read_bod(text: &str) -> Result<Position, NotationError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    parse_bod(&lines)?.validate().map_err(|e| position_error(&lines, e))
}

/// Writes the diagram as 柿木 and cshogi print it; `後手番` only when White is to move.
pub fn write_bod(pos: &Position) -> String {
    let mut out = format!("後手の持駒：{}\n", hand_text(pos.hand(Color::White)));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 0..9 {
        out.push('|');
        for file in (0..9).rev() {
            let piece =
                Square::from_coords(file, rank).map(|s| pos.piece_at(s)).unwrap_or_default();
            match piece.get() {
                None => out.push_str(" ・"),
                Some((color, kind)) => {
                    out.push(if color == Color::White { 'v' } else { ' ' });
                    out.push(glyph(kind));
                }
            }
        }
        out.push('|');
        out.push(rank_char(rank as usize));
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    out.push_str(&format!("先手の持駒：{}\n", hand_text(pos.hand(Color::Black))));
    if pos.side_to_move() == Color::White {
        out.push_str("後手番\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let pos = Position::startpos();
        let back = read_bod(&write_bod(&pos)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.to_sfen(), pos.to_sfen());
    }

    #[test]
    fn a_long_row_is_named() {
        let text = write_bod(&Position::startpos()).replace("| ・v飛 ・", "| ・v飛 ・ ・ ・");
        let e = read_bod(&text).err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("line 5: board row 二: expected 9 squares, found 11"));
    }
}
