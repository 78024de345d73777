//! YaneuraOu's text book (`#YANEURAOU-DB2016 1.00`), the opening-book format shogi engines and
//! GUIs share: a `sfen <position> <ply>` line for each position, followed by one line per book
//! move, `<move> <ponder or none> <value> <depth> <count>`.
//!
//! Reading checks every position and move against the rules. A malformed line is reported with
//! its number and skipped, so that one bad line does not lose the book. Positions are keyed by
//! their SFEN without the move number (a position reached at another ply is the same position)
//! and kept sorted, as YaneuraOu sorts its files: a book written here is a sorted file.

use shogi::{Move, Position};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// The first line of a book file.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// A move of a book position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    /// The reply the book expects, if it says.
    pub ponder: Option<Move>,
    /// The evaluation after the move, in centipawns for the side that plays it.
    pub value: i32,
    /// The depth of the search that gave `value` (0: none).
    pub depth: i32,
    /// How often the move was played, or its weight.
    pub count: u64,
}

/// A position's book moves, in the book's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookEntry {
    /// The move number written after the position.
    pub ply: u32,
    pub moves: Vec<BookMove>,
}

/// A malformed line of a book file: its 1-based number and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// An opening book: positions and their moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: BTreeMap<String, BookEntry>,
}

/// The book's key of a position: its SFEN without the move number.
pub fn position_key(pos: &Position) -> String {
    let sfen = pos.to_sfen();
    match sfen.rsplit_once(' ') {
        Some((key, _ply)) => key.to_string(),
        None => sfen,
    }
}

impl Book {
    pub fn new() -> Book {
        Book::default()
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book moves of `pos`, if the book has it.
    pub fn get(&self, pos: &Position) -> Option<&BookEntry> {
        self.entries.get(&position_key(pos))
    }

    /// The book moves of `pos`, added (empty, at `pos`'s move number) if missing.
    pub fn entry_mut(&mut self, pos: &Position) -> &mut BookEntry {
        self.entries
            .entry(position_key(pos))
            .or_insert_with(|| BookEntry { ply: pos.ply(), moves: Vec::new() })
    }

    /// Sets the moves of the position with this key (see [`position_key`]).
    pub(crate) fn insert(&mut self, key: String, entry: BookEntry) {
        self.entries.insert(key, entry);
    }

    /// Every position (its key) with its moves, sorted by key.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &BookEntry)> {
        self.entries.iter().map(|(k, e)| (k.as_str(), e))
    }

    /// Reads a book, skipping (and returning) its malformed lines.
    pub fn read(text: &str) -> (Book, Vec<BookError>) {
        let mut book = Book::new();
        let mut errors = Vec::new();
        // The position the move lines belong to (`None` after a bad `sfen` line: its moves
        // are skipped with it).
        let mut current: Option<(Position, String)> = None;
        let mut seen_position = false;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim_start_matches('\u{feff}').trim();
            let number = i + 1;
            let mut fail = |message: String| errors.push(BookError { line: number, message });
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(sfen) = line.strip_prefix("sfen ") {
                seen_position = true;
                current = match Position::from_sfen(sfen.trim()) {
                    Ok(pos) => {
                        let key = position_key(&pos);
                        book.entries
                            .entry(key.clone())
                            .or_insert_with(|| BookEntry { ply: pos.ply(), moves: Vec::new() });
                        Some((pos, key))
                    }
                    Err(e) => {
                        fail(format!("bad position `{}`: {e}", sfen.trim()));
                        None
                    }
                };
                continue;
            }
            let Some((pos, key)) = &current else {
                if !seen_position {
                    fail(format!("a move line before any `sfen` line: `{line}`"));
                }
                continue;
            };
            match parse_move_line(pos, line) {
                Ok(m) => {
                    let entry = book.entries.entry(key.clone()).or_default();
                    if entry.moves.iter().any(|b| b.mv == m.mv) {
                        fail(format!("the move {} is already in this position", m.mv));
                    } else {
                        entry.moves.push(m);
                    }
                }
                Err(message) => fail(message),
            }
        }
        (book, errors)
    }

    /// Reads a book file (see [`Book::read`]).
    pub fn load(path: &Path) -> Result<(Book, Vec<BookError>), String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the book {}: {e}", path.display()))?;
        Ok(Book::read(&text))
    }

    /// Writes the book file.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.to_string())
            .map_err(|e| format!("cannot write the book {}: {e}", path.display()))
    }
}

/// `<move> [<ponder or none> [<value> [<depth> [<count>]]]]`: missing numbers are 0, a missing
/// count 1 (books written by hand often give the move alone).
fn parse_move_line(pos: &Position, line: &str) -> Result<BookMove, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() > 5 {
        return Err(format!("more than 5 fields (move ponder value depth count): `{line}`"));
    }
    let mv = pos.parse_usi_move(fields[0]).map_err(|e| format!("move `{}`: {e}", fields[0]))?;
    let ponder = match fields.get(1) {
        None | Some(&"none") | Some(&"None") => None,
        Some(text) => {
            let mut after = pos.clone();
            after.make_move(mv);
            Some(after.parse_usi_move(text).map_err(|e| format!("ponder move `{text}`: {e}"))?)
        }
    };
    let number = |k: usize, name: &str| -> Result<i64, String> {
        match fields.get(k) {
            None => Ok(if name == "count" { 1 } else { 0 }),
            Some(t) => t.parse::<i64>().map_err(|_| format!("{name} `{t}` is not a number")),
        }
    };
    let value = number(2, "value")?;
    let depth = number(3, "depth")?;
    let count = number(4, "count")?;
    Ok(BookMove {
        mv,
        ponder,
        value: i32::try_from(value).map_err(|_| format!("value {value} is out of range"))?,
        depth: i32::try_from(depth).map_err(|_| format!("depth {depth} is out of range"))?,
        count: u64::try_from(count).map_err(|_| format!("count {count} is negative"))?,
    })
}

impl fmt::Display for Book {
    /// The book file: the header, then each position, sorted, with its moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{HEADER}")?;
        for (key, entry) in &self.entries {
            writeln!(f, "sfen {key} {}", entry.ply)?;
            for m in &entry.moves {
                let ponder = m.ponder.map_or_else(|| "none".to_string(), |p| p.to_string());
                writeln!(f, "{} {ponder} {} {} {}", m.mv, m.value, m.depth, m.count)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Written by hand, sorted by position as YaneuraOu sorts: the start position and the
    /// position after 7g7f 3c3d.
    const HAND_WRITTEN: &str = "#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3
2g2f 8c8d 40 20 5
8h2b+ 3a2b -30 18 1
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7f 3c3d 50 22 12
2g2f none 35 22 7
";

    #[test]
    fn a_hand_written_book_is_read_written_and_read_back_identically() {
        let (book, errors) = Book::read(HAND_WRITTEN);
        assert_eq!(errors, vec![]);
        assert_eq!(book.len(), 2);
        let start = book.get(&Position::startpos()).unwrap_or_else(|| panic!("no startpos"));
        assert_eq!(start.ply, 1);
        let first = start.moves[0];
        assert_eq!(
            (first.mv.to_string(), first.value, first.depth, first.count),
            ("7g7f".into(), 50, 22, 12)
        );
        assert_eq!(first.ponder.map(|p| p.to_string()), Some("3c3d".to_string()));
        assert_eq!(start.moves[1].ponder, None);
        let written = book.to_string();
        assert_eq!(written, HAND_WRITTEN);
        assert_eq!(Book::read(&written), (book, vec![]));
    }

    #[test]
    fn malformed_lines_are_reported_by_number_and_skipped() {
        let text = "#YANEURAOU-DB2016 1.00
7g7f none 0 0 1
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7f 3c3d 50 22 12
7g7e none 0 0 1
2g2f 8c8d ten 0 1
7g7f none 0 0 3
1g1f 9c9d 0 0 1 extra
5g5f 5c5c 0 0 1
9g9f none 0 0 -4
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1
2g2f none 0 0 1
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 2
8c8d
";
        let (book, errors) = Book::read(text);
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![2, 5, 6, 7, 8, 9, 10, 11], "{errors:#?}");
        assert!(errors[2].message.contains("value `ten`"), "{}", errors[2]);
        assert!(errors[3].message.contains("already"), "{}", errors[3]);
        assert!(errors[5].message.contains("ponder"), "{}", errors[5]);
        assert!(errors[6].message.contains("negative"), "{}", errors[6]);
        // The good lines stay: one move of the start position, and white's position with a
        // bare move (count 1).
        assert_eq!(book.len(), 2);
        assert_eq!(book.get(&Position::startpos()).map(|e| e.moves.len()), Some(1));
        let white = book.iter().find(|(k, _)| k.contains(" w ")).map(|(_, e)| e.moves[0]);
        assert_eq!(white.map(|m| (m.mv.to_string(), m.count)), Some(("8c8d".to_string(), 1)));
    }
}
