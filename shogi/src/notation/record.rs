//! One problem or game read from any format, the formats, and reading a whole file.

use super::error::NotationError;
use crate::moves::Move;
use crate::position::Position;
use std::fmt;
use std::path::Path;

/// A record: the start position and its main line.
#[derive(Clone)]
pub struct Record {
    pub title: Option<String>,
    /// The start position.
    pub position: Position,
    /// The main line from `position`, each move legal; empty for a bare problem.
    pub moves: Vec<Move>,
    /// The 1-based line where the record starts in its file.
    pub line: usize,
}

impl fmt::Debug for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Record")
            .field("title", &self.title)
            .field("position", &self.position.to_sfen())
            .field("moves", &self.moves)
            .field("line", &self.line)
            .finish()
    }
}

impl Record {
    /// The record as a USI `position` command: `sfen <start> [moves ...]`.
    pub fn usi(&self) -> String {
        let mut s = format!("sfen {}", self.position.to_sfen());
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for m in &self.moves {
                s.push_str(&format!(" {m}"));
            }
        }
        s
    }
}

/// The record formats read.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Format {
    Kif,
    Ki2,
    Csa,
    Bod,
    /// One SFEN per line, optionally with `moves ...` and a `#` comment.
    Sfen,
}

impl Format {
    /// The format of a file name's extension (`.kif .kifu .ki2 .ki2u .csa .bod .sfen`).
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "kif" | "kifu" => Format::Kif,
            "ki2" | "ki2u" => Format::Ki2,
            "csa" => Format::Csa,
            "bod" => Format::Bod,
            "sfen" | "usi" => Format::Sfen,
            _ => return None,
        })
    }

    /// Guesses the format from the text: CSA's `P1`/`PI`/`V2` lines, KIF's numbered moves,
    /// KI2's ▲△ marks, a bare diagram, else SFEN.
    pub fn sniff(text: &str) -> Format {
        let lines = || text.lines().map(str::trim).filter(|l| !l.is_empty());
        let csa = |l: &str| {
            l.starts_with("V2") || l.starts_with("PI") || l.starts_with("P1") || l.starts_with("N+")
        };
        if lines().any(csa) {
            return Format::Csa;
        }
        if lines().any(|l| {
            l.starts_with("手数-") || l.starts_with(|c: char| c.is_ascii_digit()) && l.contains('(')
        }) {
            return Format::Kif;
        }
        if lines().any(|l| l.starts_with(['▲', '△', '☗', '☖'])) {
            return Format::Ki2;
        }
        if lines().any(|l| l.starts_with("+---") || l.contains('：')) {
            return Format::Bod;
        }
        Format::Sfen
    }

    /// The format of `path`'s extension, else sniffed from `text`.
    pub fn detect(path: &Path, text: &str) -> Format {
        Format::from_path(path).unwrap_or_else(|| Format::sniff(text))
    }
}

/// Reads every record of a file: one result per record, so that one broken problem does not
/// lose the others.
pub fn read_records(text: &str, format: Format) -> Vec<Result<Record, NotationError>> {
    match format {
        Format::Kif | Format::Bod => super::kif::read_kif(text),
        Format::Ki2 => super::ki2::read_ki2(text),
        Format::Csa => super::csa::read_csa(text),
        Format::Sfen => super::sfen_lines::read_sfen_lines(text),
    }
}

/// Decodes a file's bytes: UTF-8 (a BOM is dropped), else Shift-JIS (CP932), which KIF files
/// written by Windows tools use. Undecodable bytes become U+FFFD rather than an error, so that
/// a reader can still name the line they are on.
pub fn decode_text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::SHIFT_JIS.decode(bytes).0.into_owned(),
    }
}
