//! `tsumugi book build`: a book from game records (CSA, KIF, KI2, and USI `position ...
//! moves ...` lines, as `tsumugi match --record` writes them). Every position of every game up
//! to a maximum ply counts the move played there and the game's result for the side that
//! played it; moves played fewer times than a minimum are left out.
//!
//! A record book has no search values, so a move's value is its win rate turned into
//! centipawns by the logistic curve ([`win_rate_to_cp`]) with one win and one loss added (a
//! move played once is not a sure win): `BookEvalDiff` then leaves out moves that scored much
//! worse than the best.

use crate::book::format::{position_key, Book, BookEntry, BookMove};
use shogi::notation::{read_records, Format, NotationError, Record};
use shogi::{Color, Move, Position};
use std::collections::HashMap;

/// Centipawns per unit of the logistic curve's exponent (the usual shogi scale: 600 cp is a
/// 73 % win rate).
pub const LOGISTIC_SCALE_CP: f64 = 600.0;

/// Win rate `p` in (0, 1) as centipawns, inverse of `1 / (1 + exp(-cp / 600))`, clamped to
/// ±3000.
pub fn win_rate_to_cp(p: f64) -> i32 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    (LOGISTIC_SCALE_CP * (p / (1.0 - p)).ln()).round().clamp(-3000.0, 3000.0) as i32
}

/// What `book build` keeps.
#[derive(Clone, Copy, Debug)]
pub struct BuildSettings {
    /// Positions past this move number are not added.
    pub max_ply: u32,
    /// Moves played fewer times are left out.
    pub min_count: u64,
}

/// A game to learn from: its start, its moves, and who won (`None`: a draw or unknown).
pub struct Game {
    pub start: Position,
    pub moves: Vec<Move>,
    pub winner: Option<Color>,
    /// Whether the result is known (a draw counts half for both sides).
    pub decided: bool,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    count: u64,
    /// Points for the side that played the move: 2 a win, 1 a draw.
    half_points: u64,
    decided: u64,
}

/// Counts moves and results over games, then makes the book.
#[derive(Default)]
pub struct BookBuilder {
    tallies: HashMap<String, (u32, Vec<(Move, Tally)>)>,
    pub games: usize,
}

impl BookBuilder {
    pub fn add(&mut self, game: &Game, settings: &BuildSettings) {
        self.games += 1;
        let mut pos = game.start.clone();
        for &m in &game.moves {
            if pos.ply() > settings.max_ply {
                break;
            }
            let mover = pos.side_to_move();
            let (_, moves) =
                self.tallies.entry(position_key(&pos)).or_insert_with(|| (pos.ply(), Vec::new()));
            let i = match moves.iter().position(|(x, _)| *x == m) {
                Some(i) => i,
                None => {
                    moves.push((m, Tally::default()));
                    moves.len() - 1
                }
            };
            let t = &mut moves[i].1;
            t.count += 1;
            if game.decided {
                t.decided += 1;
                t.half_points += match game.winner {
                    Some(w) if w == mover => 2,
                    Some(_) => 0,
                    None => 1,
                };
            }
            pos.make_move(m);
        }
    }

    /// The book: every position with a move played at least `min_count` times, its moves by
    /// count (then win rate).
    pub fn book(&self, settings: &BuildSettings) -> Book {
        let mut book = Book::new();
        for (key, (ply, moves)) in &self.tallies {
            let mut kept: Vec<BookMove> = moves
                .iter()
                .filter(|(_, t)| t.count >= settings.min_count.max(1))
                .map(|&(mv, t)| {
                    let rate = (t.half_points as f64 / 2.0 + 1.0) / (t.decided as f64 + 2.0);
                    BookMove {
                        mv,
                        ponder: None,
                        value: win_rate_to_cp(rate),
                        depth: 0,
                        count: t.count,
                    }
                })
                .collect();
            if kept.is_empty() {
                continue;
            }
            kept.sort_by(|a, b| b.count.cmp(&a.count).then(b.value.cmp(&a.value)));
            book.insert(key.clone(), BookEntry { ply: *ply, moves: kept });
        }
        book
    }
}

/// The games of a record file: its format from the extension (else guessed from the text).
/// USI lines take their result from a `# ... result=1-0` comment line before them (as `match
/// --record` writes); a KIF or CSA game's result is the side to move's loss when the record
/// ends in mate or says it resigned (`投了`, `詰み`, `%TORYO`, `%TSUMI`), a win on `%KACHI`.
pub fn games_of(text: &str, format: Option<Format>) -> (Vec<Game>, Vec<NotationError>) {
    let format = format.unwrap_or_else(|| Format::sniff(text));
    let lines: Vec<&str> = text.lines().collect();
    let mut games = Vec::new();
    let mut errors = Vec::new();
    let records: Vec<Result<Record, NotationError>> = read_records(text, format);
    let single = records.len() == 1;
    for r in records {
        match r {
            Ok(record) => {
                let comment = record.line.checked_sub(2).and_then(|i| lines.get(i)).copied();
                let end = end_of(&record);
                let (winner, decided) = match format {
                    Format::Sfen => usi_result(comment, &end),
                    _ => record_result(&end, if single { text } else { "" }),
                };
                games.push(Game { start: record.position, moves: record.moves, winner, decided });
            }
            Err(e) => errors.push(e),
        }
    }
    (games, errors)
}

fn end_of(record: &Record) -> Position {
    let mut pos = record.position.clone();
    for &m in &record.moves {
        pos.make_move(m);
    }
    pos
}

fn is_mate(pos: &Position) -> bool {
    let mut legal = shogi::MoveList::new();
    shogi::movegen::legal_moves(pos, &mut legal);
    legal.is_empty()
}

/// A `result=1-0` (black won), `0-1` or `1/2-1/2` in the comment before a USI line; else mate
/// at the end.
fn usi_result(comment: Option<&str>, end: &Position) -> (Option<Color>, bool) {
    let tag = comment
        .filter(|c| c.trim_start().starts_with('#'))
        .and_then(|c| c.split_whitespace().find_map(|w| w.strip_prefix("result=")));
    match tag {
        Some("1-0") => (Some(Color::Black), true),
        Some("0-1") => (Some(Color::White), true),
        Some("1/2-1/2") => (None, true),
        _ if is_mate(end) => (Some(end.side_to_move().flip()), true),
        _ => (None, false),
    }
}

/// A KIF or CSA game's result from its end: mate, or the terminal words of a one-game file.
fn record_result(end: &Position, text: &str) -> (Option<Color>, bool) {
    let mover = end.side_to_move();
    let said = |words: &[&str]| text.lines().any(|l| words.iter().any(|w| l.contains(w)));
    if is_mate(end) || said(&["%TORYO", "%TSUMI", "投了", "詰み"]) {
        (Some(mover.flip()), true)
    } else if said(&["%KACHI", "入玉勝ち"]) {
        (Some(mover), true)
    } else if said(&["%SENNICHITE", "千日手", "持将棋", "%JISHOGI"]) {
        (None, true)
    } else {
        (None, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORDS: &str = "# game 1 result=1-0
position startpos moves 7g7f 3c3d 2g2f
# game 2 result=0-1
position startpos moves 7g7f 8c8d
# game 3 result=1/2-1/2
position startpos moves 2g2f
# game 4 (no result)
position startpos moves 7g7f 3c3d
";

    #[test]
    fn counts_and_win_rates_per_move() {
        let (games, errors) = games_of(RECORDS, Some(Format::Sfen));
        assert!(errors.is_empty(), "{errors:?}");
        let results: Vec<(Option<Color>, bool)> =
            games.iter().map(|g| (g.winner, g.decided)).collect();
        assert_eq!(
            results,
            vec![
                (Some(Color::Black), true),
                (Some(Color::White), true),
                (None, true),
                (None, false)
            ]
        );
        let settings = BuildSettings { max_ply: 2, min_count: 1 };
        let mut b = BookBuilder::default();
        games.iter().for_each(|g| b.add(g, &settings));
        let book = b.book(&settings);
        // Start: 7g7f 3 times (won 1, lost 1, unknown 1), 2g2f once (draw); after 7g7f: 3c3d
        // twice (lost 1, unknown 1), 8c8d once (won). Ply 3 is past the maximum.
        assert_eq!(book.len(), 2);
        let start = book.get(&Position::startpos()).unwrap_or_else(|| panic!("no start"));
        let moves: Vec<(String, u64, i32)> =
            start.moves.iter().map(|m| (m.mv.to_string(), m.count, m.value)).collect();
        // 7g7f: (1 + 1) / (2 + 2) = 0.5 -> 0 cp; 2g2f: (0.5 + 1) / (1 + 2) = 0.5 -> 0 cp.
        assert_eq!(moves, vec![("7g7f".into(), 3, 0), ("2g2f".into(), 1, 0)]);
        let mut pos = Position::startpos();
        pos.make_move(pos.parse_usi_move("7g7f").unwrap_or_else(|e| panic!("{e}")));
        let after = book.get(&pos).unwrap_or_else(|| panic!("no 7g7f"));
        let moves: Vec<(String, u64, i32)> =
            after.moves.iter().map(|m| (m.mv.to_string(), m.count, m.value)).collect();
        // 3c3d: white lost game 1: (0 + 1) / (1 + 2) = 1/3; 8c8d: won: 2/3.
        let third = win_rate_to_cp(1.0 / 3.0);
        assert!(third < -400 && third > -420, "{third}");
        assert_eq!(moves, vec![("3c3d".into(), 2, third), ("8c8d".into(), 1, -third)]);
        let strict = BuildSettings { max_ply: 2, min_count: 2 };
        let book = b.book(&strict);
        assert_eq!(book.get(&pos).map(|e| e.moves.len()), Some(1));
    }

    #[test]
    fn kif_and_csa_results_from_their_ends() {
        let csa = "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
        let (games, errors) = games_of(csa, Some(Format::Csa));
        assert!(errors.is_empty(), "{errors:?}");
        // Black to move resigned.
        assert_eq!((games[0].winner, games[0].decided), (Some(Color::White), true));
        let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n";
        let (games, errors) = games_of(kif, Some(Format::Kif));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(games[0].moves.len(), 1);
        assert_eq!((games[0].winner, games[0].decided), (Some(Color::Black), true));
        let bad = "position startpos moves 7g7f 7g7f\n";
        let (games, errors) = games_of(bad, Some(Format::Sfen));
        assert!(games.is_empty());
        assert_eq!(errors[0].line, 1);
    }
}
