//! The layout KIF and KI2 share, and the splitting of a file into records.
//!
//! A record is `key：value` header lines, an optional BOD diagram, then moves. A file may hold
//! several problems one after another; a record ends where a line starts what the current one
//! already has: a header key it already has, a second diagram, or a header or diagram after
//! its moves. Variations (`変化：N手`) are skipped to the end of the record, so their moves are
//! never read as main-line moves.

use super::bod::{classify, parse_bod, BodLine};
use super::error::NotationError;
use super::record::Record;
use crate::position::Position;
use crate::sfen::STARTPOS;

/// The lines of one record, sorted by role, each with its 1-based line number.
#[derive(Default, Debug)]
pub struct RecordText<'a> {
    /// The first line of the record.
    pub line: usize,
    pub headers: Vec<(usize, &'a str, &'a str)>,
    pub board: Vec<(usize, &'a str)>,
    /// Main-line move lines (and unrecognised lines, so that the move reader reports them).
    pub moves: Vec<(usize, &'a str)>,
    moves_started: bool,
    in_variation: bool,
    frames: usize,
}

enum Kind<'a> {
    Skip,
    Header(&'a str, &'a str),
    Board(BodLine),
    MovesHeader,
    Variation,
    Move,
}

fn classify_line(line: &str) -> Kind<'_> {
    let t = line.trim();
    if t.is_empty() || t.starts_with(['#', '*', '&']) || t.starts_with("まで") {
        return Kind::Skip;
    }
    if let Some(b) = classify(line) {
        return Kind::Board(b);
    }
    if t.starts_with("手数-") || t.starts_with("手数－") {
        return Kind::MovesHeader;
    }
    if t.starts_with("変化") {
        return Kind::Variation;
    }
    match t.split_once('：') {
        Some((key, value))
            if !key.is_empty()
                && !key.contains([' ', '　'])
                && !t.starts_with(|c: char| c.is_ascii_digit()) =>
        {
            Kind::Header(key, value.trim())
        }
        _ => Kind::Move,
    }
}

impl<'a> RecordText<'a> {
    fn has_moves(&self) -> bool {
        self.moves_started || self.in_variation
    }

    /// Whether `kind` belongs to the next record rather than this one.
    fn starts_next(&self, kind: &Kind) -> bool {
        match kind {
            Kind::Header(key, _) => self.has_moves() || self.headers.iter().any(|h| h.1 == *key),
            Kind::Board(b) => {
                let opening = matches!(
                    b,
                    BodLine::WhiteHand | BodLine::FileDigits | BodLine::Frame | BodLine::Row
                );
                opening && (self.has_moves() || self.frames >= 2)
            }
            _ => false,
        }
    }

    fn is_empty(&self) -> bool {
        self.headers.is_empty()
            && self.board.is_empty()
            && self.moves.is_empty()
            && !self.has_moves()
    }

    fn add(&mut self, no: usize, line: &'a str, kind: Kind<'a>) {
        match kind {
            Kind::Skip => {}
            Kind::Header(k, v) => self.headers.push((no, k, v)),
            Kind::Board(b) => {
                self.frames += usize::from(b == BodLine::Frame);
                self.board.push((no, line));
            }
            Kind::MovesHeader => self.moves_started = true,
            Kind::Variation => self.in_variation = true,
            Kind::Move if self.in_variation => {}
            Kind::Move => {
                self.moves_started = true;
                self.moves.push((no, line));
            }
        }
    }

    /// The value of a header, if present.
    pub fn header(&self, key: &str) -> Option<(usize, &'a str)> {
        self.headers.iter().find(|h| h.1 == key).map(|h| (h.0, h.2))
    }
}

/// Splits a KIF, KI2 or BOD text into records.
pub fn split_records(text: &str) -> Vec<RecordText<'_>> {
    let mut records = Vec::new();
    let mut current = RecordText::default();
    for (no, line) in text.lines().enumerate().flat_map(|(i, l)| split_glued_header(i + 1, l)) {
        let kind = classify_line(line);
        if matches!(kind, Kind::Skip) {
            continue;
        }
        if current.starts_next(&kind) {
            records.push(std::mem::take(&mut current));
        }
        if current.is_empty() {
            current.line = no;
        }
        current.add(no, line, kind);
    }
    if !current.is_empty() {
        records.push(current);
    }
    records
}

/// A line with the move list's header glued to its end (`先手の持駒：飛　角二手数----指手--`, as
/// a diagram written without its last newline and a header appended give) is read as two
/// lines with the same number.
fn split_glued_header(no: usize, line: &str) -> impl Iterator<Item = (usize, &str)> {
    let (first, second) = match line.find("手数----") {
        Some(at) if at > 0 => (&line[..at], Some(&line[at..])),
        _ => (line, None),
    };
    std::iter::once((no, first)).chain(second.map(|s| (no, s)))
}

/// Every record of a KIF or KI2 text: its start (diagram or 手合割), title and the moves that
/// `read_moves` reads in the format's own way.
pub fn read_records_with(
    text: &str,
    read_moves: fn(&RecordText, &mut Record) -> Result<(), NotationError>,
) -> Vec<Result<Record, NotationError>> {
    let read = |rec: &RecordText| {
        let position = start_position(rec)?;
        let mut record = Record { title: title(rec), position, moves: Vec::new(), line: rec.line };
        read_moves(rec, &mut record)?;
        Ok(record)
    };
    split_records(text).iter().map(read).collect()
}

/// The handicaps of 手合割 and their positions (上手, White, moves first).
const HANDICAPS: [(&str, &str); 14] = [
    ("平手", STARTPOS),
    ("香落ち", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("右香落ち", "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("角落ち", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("飛車落ち", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("飛香落ち", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("二枚落ち", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("三枚落ち", "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("四枚落ち", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("五枚落ち", "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("左五枚落ち", "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("六枚落ち", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("八枚落ち", "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("十枚落ち", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
];

fn handicap(name: &str, line: usize) -> Result<Position, NotationError> {
    let name = if name == "飛落ち" { "飛車落ち" } else { name };
    let sfen = HANDICAPS.iter().find(|h| h.0 == name).map(|h| h.1);
    let Some(sfen) = sfen else {
        return Err(NotationError::new(
            line,
            "手合割",
            format!("unknown handicap {name} (and no board diagram)"),
        ));
    };
    Position::from_sfen(sfen).map_err(|e| NotationError::new(line, "手合割", e.to_string()))
}

/// The record's start: its diagram, else its 手合割, else the start position.
pub fn start_position(rec: &RecordText) -> Result<Position, NotationError> {
    if !rec.board.is_empty() {
        let setup = parse_bod(&rec.board)?;
        return setup.validate().map_err(|e| super::bod::position_error(&rec.board, e));
    }
    match rec.header("手合割") {
        Some((line, name)) => handicap(name, line),
        None => Ok(Position::startpos()),
    }
}

/// The record's title: 表題, else 題名.
pub fn title(rec: &RecordText) -> Option<String> {
    rec.header("表題").or_else(|| rec.header("題名")).map(|(_, v)| v.to_string())
}

/// Words that end a game or problem where a move would be (KIF's move column).
pub const TERMINALS: [&str; 13] = [
    "投了",
    "中断",
    "千日手",
    "詰み",
    "不詰",
    "持将棋",
    "切れ負け",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "不戦勝",
    "不戦敗",
    "封じ手",
];

/// Whether `text` is a terminal word.
pub fn is_terminal(text: &str) -> bool {
    TERMINALS.iter().any(|t| text.starts_with(t))
}
