//! Japanese move notation, as composers write it: `▲２四桂`, `△同　玉`, `▲３三銀成`,
//! `▲２二角不成`, `▲５五角打`, `▲５八金右`; and its KIF form `２六歩(27)`, which names the
//! origin square instead of the KI2 words and always writes `打` on drops.
//!
//! Reading accepts both forms and resolves a move against the legal moves, so that a record
//! can never smuggle in an illegal move.

use super::error::NotationError;
use super::kanji::{file_char, kif_name, parse_digit, parse_piece_name, rank_char};
use super::relative::{matches, words_for, Relative};
use crate::color::Color;
use crate::movegen::{is_legal, legal_moves};
use crate::movelist::MoveList;
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;

/// Which record format a move is written for.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Style {
    /// `２六歩(27)`: origin in ASCII digits, `打` on every drop, no side mark.
    Kif,
    /// `２六歩`: KI2 words (右 左 直 上 引 寄) only when needed, `打` only when a board piece of
    /// the same kind could also reach the square.
    Ki2,
}

/// The mark of a side: ▲ for 先手 (Black), △ for 後手 (White).
pub fn side_mark(color: Color) -> char {
    match color {
        Color::Black => '▲',
        Color::White => '△',
    }
}

/// Squares holding a piece of the side to move of exactly `kind` that can legally move to `to`.
fn origins(pos: &Position, kind: PieceKind, to: Square) -> Vec<Square> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    let mut out: Vec<Square> = list
        .iter()
        .filter(|m| !m.is_drop() && m.to() == to && pos.piece_at(m.from()).kind() == kind)
        .map(|m| m.from())
        .collect();
    // A promotion and a non-promotion share an origin; they need not be adjacent in the list.
    out.sort();
    out.dedup();
    out
}

/// The destination: `２四`, or `同` when it is the previous move's square (`同　` before a
/// one-character name, as KIF aligns it).
fn destination(to: Square, previous: Option<Square>, name: &str) -> String {
    if previous == Some(to) {
        if name.chars().count() == 1 { "同　" } else { "同" }.to_string()
    } else {
        format!("{}{}", file_char(to.file().index()), rank_char(to.rank().index()))
    }
}

/// `成` for a promotion, `不成` for a move that could have promoted, else nothing.
fn promotion_text(pos: &Position, m: Move, kind: PieceKind) -> &'static str {
    let us = pos.side_to_move();
    let zone = m.from().rank().is_promotion_zone(us) || m.to().rank().is_promotion_zone(us);
    if m.is_promotion() {
        "成"
    } else if kind.can_promote() && zone {
        "不成"
    } else {
        ""
    }
}

/// The move's text without a side mark. `m` must be legal in `pos`; `previous` is the
/// destination of the move before it (for `同`).
pub fn move_text(pos: &Position, m: Move, previous: Option<Square>, style: Style) -> String {
    let to = m.to();
    if let Some(kind) = m.dropped() {
        let name = kif_name(kind);
        let dest = destination(to, previous, name);
        let ambiguous = !origins(pos, kind, to).is_empty();
        let drop = if style == Style::Kif || ambiguous { "打" } else { "" };
        return format!("{dest}{name}{drop}");
    }
    let from = m.from();
    let kind = pos.piece_at(from).kind();
    let name = kif_name(kind);
    let dest = destination(to, previous, name);
    let promo = promotion_text(pos, m, kind);
    match style {
        Style::Kif => {
            let (f, r) = (from.file().index() + 1, from.rank().index() + 1);
            format!("{dest}{name}{promo}({f}{r})")
        }
        Style::Ki2 => {
            let ranged = matches!(kind, PieceKind::Dragon | PieceKind::Horse);
            let all = origins(pos, kind, to);
            let words: String = words_for(pos.side_to_move(), &all, from, to, ranged)
                .iter()
                .map(|w| w.to_char())
                .collect();
            format!("{dest}{name}{words}{promo}")
        }
    }
}

/// The composer's text of one move: side mark and KI2 form, `▲２四桂`, `△同　玉`.
pub fn move_to_japanese(pos: &Position, m: Move, previous: Option<Square>) -> String {
    format!("{}{}", side_mark(pos.side_to_move()), move_text(pos, m, previous, Style::Ki2))
}

/// Each move of a legal line from `pos` in composer's text (`▲２四桂`, `△同　玉`, ...); `previous`
/// is the square of the move before the line, if any (for 同).
pub fn line_texts(pos: &Position, moves: &[Move], previous: Option<Square>) -> Vec<String> {
    let mut pos = pos.clone();
    let mut previous = previous;
    moves
        .iter()
        .map(|&m| {
            let text = move_to_japanese(&pos, m, previous);
            previous = Some(m.to());
            pos.make_move(m);
            text
        })
        .collect()
}

/// A line of moves from `pos` in KI2 form, space-separated: `▲２四桂 △同　玉 ...`. An illegal
/// move is an error naming its 1-based place in the line.
pub fn moves_to_japanese(pos: &Position, moves: &[Move]) -> Result<String, NotationError> {
    let mut pos = pos.clone();
    let mut previous = None;
    let mut out = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        if !is_legal(&pos, m) {
            return Err(NotationError::new(
                1,
                format!("move {}", i + 1),
                format!("{m} is illegal"),
            ));
        }
        out.push(move_to_japanese(&pos, m, previous));
        previous = Some(m.to());
        pos.make_move(m);
    }
    Ok(out.join(" "))
}

/// [`moves_to_japanese`] for USI text (`2d2c+ 3b2c ...`).
pub fn line_to_japanese(pos: &Position, usi: &str) -> Result<String, NotationError> {
    let mut moves = Vec::new();
    for (i, text) in usi.split_whitespace().enumerate() {
        let m = crate::usi::parse_move_syntax(text)
            .map_err(|e| NotationError::new(1, format!("move {}", i + 1), e.to_string()))?;
        moves.push(m);
    }
    moves_to_japanese(pos, &moves)
}

/// A move as written, before it is matched against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// `None` for `同`.
    pub to: Option<Square>,
    /// The kind before the move (`角` in `２二角成`).
    pub kind: PieceKind,
    pub words: Vec<Relative>,
    /// `Some(true)` for 成, `Some(false)` for 不成 (or the old 生), `None` when not written.
    pub promotion: Option<bool>,
    pub drop: bool,
    /// KIF's origin `(27)`.
    pub from: Option<Square>,
}

fn parse_destination(text: &str) -> Result<(Option<Square>, &str), String> {
    if let Some(rest) = text.strip_prefix('同') {
        return Ok((None, rest.trim_start_matches(['　', ' '])));
    }
    let mut chars = text.chars();
    let square = match (chars.next().and_then(parse_digit), chars.next().and_then(parse_digit)) {
        (Some(f), Some(r)) => Square::from_coords(f as i32, r as i32),
        _ => None,
    };
    match square {
        Some(sq) => Ok((Some(sq), chars.as_str())),
        None => Err(format!("expected a square like ２四 or 同 in {text:?}")),
    }
}

/// KIF's origin `(27)` in ASCII digits.
fn parse_origin(text: &str) -> Result<Option<Square>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    let inner = text.strip_prefix('(').and_then(|t| t.strip_suffix(')'));
    let digits: Vec<u8> = inner.map(|t| t.bytes().collect()).unwrap_or_default();
    match digits.as_slice() {
        [f @ b'1'..=b'9', r @ b'1'..=b'9'] => {
            Ok(Square::from_coords((f - b'1') as i32, (r - b'1') as i32))
        }
        _ => Err(format!("unexpected {text:?} after the move")),
    }
}

/// Splits a move's text (without side mark) into its parts.
pub fn parse_written(text: &str) -> Result<WrittenMove, String> {
    let (to, rest) = parse_destination(text.trim())?;
    let Some((kind, mut rest)) = parse_piece_name(rest) else {
        return Err(format!("unknown piece name in {text:?}"));
    };
    let mut words = Vec::new();
    while let Some(w) = rest.chars().next().and_then(Relative::from_char) {
        words.push(w);
        rest = &rest[w.to_char().len_utf8()..];
    }
    let (mut promotion, mut drop) = (None, false);
    for (suffix, promo, is_drop) in [
        ("不成", Some(false), false),
        ("生", Some(false), false),
        ("成", Some(true), false),
        ("打", None, true),
    ] {
        if let Some(r) = rest.strip_prefix(suffix) {
            (promotion, drop, rest) = (promo, is_drop, r);
            break;
        }
    }
    let from = parse_origin(rest.trim())?;
    Ok(WrittenMove { to, kind, words, promotion, drop, from })
}

/// The legal move `written` describes in `pos`.
pub fn resolve(
    pos: &Position,
    written: &WrittenMove,
    previous: Option<Square>,
) -> Result<Move, String> {
    let Some(to) = written.to.or(previous) else {
        return Err("同 with no previous move".to_string());
    };
    let name = kif_name(written.kind);
    let m = if written.drop {
        if !written.kind.is_hand_kind() || written.kind == PieceKind::King {
            return Err(format!("{name} cannot be dropped"));
        }
        Move::drop(written.kind, to)
    } else if let Some(from) = written.from {
        let piece = pos.piece_at(from);
        if piece.is_empty() || piece.color() != pos.side_to_move() || piece.kind() != written.kind {
            return Err(format!("no {name} of the side to move on {from}"));
        }
        Move::with_promotion(from, to, written.promotion == Some(true))
    } else {
        return resolve_ki2(pos, written, to);
    };
    if is_legal(pos, m) {
        Ok(m)
    } else {
        Err(format!("{m} is illegal"))
    }
}

/// KI2: the one legal move of the written kind to `to` that the words single out; a drop when
/// no board piece fits and nothing but the name was written.
fn resolve_ki2(pos: &Position, written: &WrittenMove, to: Square) -> Result<Move, String> {
    let all = origins(pos, written.kind, to);
    let color = pos.side_to_move();
    let promote = written.promotion == Some(true);
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    let board: Vec<Move> = list
        .iter()
        .copied()
        .filter(|m| !m.is_drop() && m.to() == to && m.is_promotion() == promote)
        .filter(|m| all.contains(&m.from()))
        .filter(|m| matches(color, &all, m.from(), to, &written.words))
        .collect();
    let name = kif_name(written.kind);
    match board.as_slice() {
        [m] => Ok(*m),
        [] if written.words.is_empty() && written.promotion.is_none() => {
            let drop = Move::drop(written.kind, to);
            if written.kind.is_hand_kind() && written.kind != PieceKind::King && is_legal(pos, drop)
            {
                Ok(drop)
            } else {
                Err(format!("no {name} can move to {to}"))
            }
        }
        [] => Err(format!("no {name} matching the written words can move to {to}")),
        more => Err(format!(
            "ambiguous: {} pieces {name} can move to {to}; write 右 左 直 上 引 or 寄",
            more.len()
        )),
    }
}

/// Reads one move with or without a side mark (`▲２六歩`, `同　歩(23)`) in `pos`. A side mark
/// must be that of the side to move.
pub fn parse_move(pos: &Position, text: &str, previous: Option<Square>) -> Result<Move, String> {
    let text = text.trim();
    let mut chars = text.chars();
    let body = match chars.next().and_then(mark_color) {
        Some(color) if color != pos.side_to_move() => {
            return Err(format!("{text}: it is {} to move", side_mark(pos.side_to_move())));
        }
        Some(_) => chars.as_str(),
        None => text,
    };
    resolve(pos, &parse_written(body)?, previous)
}

/// The side a mark stands for: ▲ ☗ ▼ for 先手, △ ☖ ▽ for 後手.
pub fn mark_color(c: char) -> Option<Color> {
    match c {
        '▲' | '☗' | '▼' => Some(Color::Black),
        '△' | '☖' | '▽' => Some(Color::White),
        _ => None,
    }
}
