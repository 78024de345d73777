//! A board diagram as a self-contained SVG, for the HTML reports: a 9×9 grid with file numbers
//! (９ … １, right to left) along the top and rank kanji (一 … 九) down the right, pieces in
//! kanji with 後手's turned 180°, 後手's hand at the top left and 先手's at the bottom right,
//! and the side to move marked. No external font: a `serif` fallback list that includes
//! Noto Serif CJK JP.

use super::kanji::{file_char, glyph, kif_name, rank_char};
use crate::color::Color;
use crate::hand::Hand;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;
use std::fmt::Write;

const CELL: i32 = 40;
const BOARD_X: i32 = 100;
const BOARD_Y: i32 = 30;
const SIDE: i32 = 9 * CELL;
const WIDTH: i32 = BOARD_X + SIDE + 130;
const HEIGHT: i32 = BOARD_Y + SIDE + 20;
const FONT: &str =
    "'Noto Serif CJK JP', 'Noto Serif JP', 'Hiragino Mincho ProN', 'Yu Mincho', serif";

/// Escapes text for an SVG text node or attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn text(out: &mut String, x: i32, y: i32, class: &str, body: &str) {
    let _ = writeln!(out, r#"<text class="{class}" x="{x}" y="{y}">{}</text>"#, escape(body));
}

fn grid(out: &mut String) {
    let _ = writeln!(
        out,
        r#"<rect class="board" x="{BOARD_X}" y="{BOARD_Y}" width="{SIDE}" height="{SIDE}"/>"#
    );
    for i in 1..9 {
        let (x, y) = (BOARD_X + i * CELL, BOARD_Y + i * CELL);
        let _ =
            writeln!(out, r#"<line x1="{x}" y1="{BOARD_Y}" x2="{x}" y2="{}"/>"#, BOARD_Y + SIDE);
        let _ =
            writeln!(out, r#"<line x1="{BOARD_X}" y1="{y}" x2="{}" y2="{y}"/>"#, BOARD_X + SIDE);
    }
    for i in 0..9 {
        let x = BOARD_X + i * CELL + CELL / 2;
        text(out, x, BOARD_Y - 8, "label", &file_char(8 - i as usize).to_string());
        let y = BOARD_Y + i * CELL + CELL / 2 + 6;
        text(out, BOARD_X + SIDE + 14, y, "label", &rank_char(i as usize).to_string());
    }
}

fn pieces(out: &mut String, pos: &Position) {
    for sq in Square::all() {
        let Some((color, kind)) = pos.piece_at(sq).get() else {
            continue;
        };
        let cx = BOARD_X + (8 - sq.file().index() as i32) * CELL + CELL / 2;
        let cy = BOARD_Y + sq.rank().index() as i32 * CELL + CELL / 2;
        let class = if kind.is_promoted() { "piece promoted" } else { "piece" };
        let turn = if color == Color::White {
            format!(r#" transform="rotate(180 {cx} {cy})""#)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            r#"<text class="{class}" x="{cx}" y="{}"{turn}>{}</text>"#,
            cy + 9,
            escape(&glyph(kind).to_string())
        );
    }
}

/// The hand's entries, `飛`, `金2`, ... (`なし` when empty).
fn hand_entries(hand: Hand) -> Vec<String> {
    let entries: Vec<String> = PieceKind::HAND
        .iter()
        .filter(|&&k| hand.has(k))
        .map(|&k| match hand.count(k) {
            1 => kif_name(k).to_string(),
            n => format!("{}{n}", kif_name(k)),
        })
        .collect();
    if entries.is_empty() {
        vec!["なし".to_string()]
    } else {
        entries
    }
}

fn hand(out: &mut String, pos: &Position, color: Color) {
    let (mark, name, x) = match color {
        Color::White => ('△', "後手", 10),
        Color::Black => ('▲', "先手", BOARD_X + SIDE + 40),
    };
    let to_move = pos.side_to_move() == color;
    let heading = format!("{mark}{name}の持駒{}", if to_move { "（手番）" } else { "" });
    let entries = hand_entries(pos.hand(color));
    let lines = entries.len() as i32 + 1;
    let top = if color == Color::White { BOARD_Y + 14 } else { BOARD_Y + SIDE - lines * 20 + 14 };
    let class = if to_move { "hand-title to-move" } else { "hand-title" };
    let _ = writeln!(
        out,
        r#"<g class="hand {}">"#,
        if color == Color::White { "gote" } else { "sente" }
    );
    let _ = writeln!(out, r#"<text class="{class}" x="{x}" y="{top}">{}</text>"#, escape(&heading));
    for (i, e) in entries.iter().enumerate() {
        text(out, x, top + 20 * (i as i32 + 1), "hand-piece", e);
    }
    out.push_str("</g>\n");
}

/// The diagram of `pos` as a standalone `<svg>` element.
pub fn board_svg(pos: &Position) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img">"#
    );
    let _ = writeln!(
        out,
        "<style>text {{ font-family: {FONT}; text-anchor: middle; }} .board {{ fill: #f3d9a4; stroke: #333; stroke-width: 2; }} line {{ stroke: #333; stroke-width: 1; }} .piece {{ font-size: 26px; }} .promoted {{ fill: #b00; }} .label {{ font-size: 14px; }} .hand text {{ text-anchor: start; font-size: 15px; }} .to-move {{ font-weight: bold; fill: #b00; }}</style>"
    );
    grid(&mut out);
    pieces(&mut out, pos);
    hand(&mut out, pos, Color::White);
    hand(&mut out, pos, Color::Black);
    out.push_str("</svg>\n");
    out
}
