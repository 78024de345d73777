//! `tsumugi book think`: a book grown by our own search, best-first from the root, as the
//! seed cites Buro's Logistello method: search a leaf of the book, add its best and
//! second-best moves with their values, repeat.
//!
//! Which leaf: Buro's drop-out expansion. A book move's value is the negamax of the book below
//! it (its search value while its position is not in the book); the cost of reaching a leaf is
//! what the moves on its path give away against the best move of their position, plus
//! [`ThinkSettings::depth_cost`] per ply, so that the main line grows first and a second-best
//! move is expanded once it is close enough. The book file is the whole state: `think` on an
//! existing book goes on from it, and the file is written every few leaves with the backed-up
//! values, so that an interrupted run loses little.

use crate::book::format::{position_key, Book, BookEntry, BookMove};
use crate::params::Params;
use crate::search::engine::Engine;
use crate::search::ponder::lines_of;
use crate::search::report::{SearchInfo, SearchLimits};
use crate::search::SearchControl;
use shogi::Position;
use std::collections::{HashMap, HashSet};

/// The value of a position with no move (mated) for the side to move.
const MATED: i32 = -30_000;

/// How `think` grows the book.
#[derive(Clone, Copy, Debug)]
pub struct ThinkSettings {
    /// Nodes of each leaf's search.
    pub nodes: u64,
    /// Positions past this move number are not expanded.
    pub max_ply: u32,
    /// Cost of one more ply, in centipawns given away (drop-out expansion's depth term).
    pub depth_cost: i32,
    /// Moves added per leaf (the best and the second-best: 2).
    pub moves_per_leaf: u32,
}

impl Default for ThinkSettings {
    fn default() -> ThinkSettings {
        ThinkSettings { nodes: 200_000, max_ply: 24, depth_cost: 15, moves_per_leaf: 2 }
    }
}

/// Negamax values of book positions (for the side to move), by key, for one state of the book.
struct Values<'a> {
    book: &'a Book,
    memo: HashMap<String, i32>,
    /// Positions being valued (a repetition inside the book counts as a draw).
    open: HashSet<String>,
}

impl<'a> Values<'a> {
    fn new(book: &'a Book) -> Values<'a> {
        Values { book, memo: HashMap::new(), open: HashSet::new() }
    }

    /// The value of `pos` if the book has it.
    fn of(&mut self, pos: &Position) -> Option<i32> {
        let key = position_key(pos);
        if let Some(&v) = self.memo.get(&key) {
            return Some(v);
        }
        let entry = self.book.get(pos)?;
        if !self.open.insert(key.clone()) {
            return Some(0);
        }
        let mut best = MATED;
        for m in &entry.moves {
            best = best.max(self.move_value(pos, m));
        }
        self.open.remove(&key);
        self.memo.insert(key, best);
        Some(best)
    }

    /// A book move's value for the side that plays it: the negamax below it, else its own.
    fn move_value(&mut self, pos: &Position, m: &BookMove) -> i32 {
        let mut child = pos.clone();
        child.make_move(m.mv);
        match self.of(&child) {
            Some(v) => -v,
            None => m.value,
        }
    }
}

/// The position to expand next: the book leaf of least drop-out cost (the root when the book
/// does not have it); `None` when every leaf is past the maximum ply.
pub fn next_leaf(book: &Book, root: &Position, s: &ThinkSettings) -> Option<Position> {
    if book.get(root).is_none() {
        return Some(root.clone());
    }
    let mut values = Values::new(book);
    let mut best: Option<(i64, Position)> = None;
    let mut seen = HashSet::new();
    let mut stack: Vec<(Position, i64)> = vec![(root.clone(), 0)];
    while let Some((pos, cost)) = stack.pop() {
        if !seen.insert(position_key(&pos)) {
            continue;
        }
        let Some(entry) = book.get(&pos) else { continue };
        let Some(v) = values.of(&pos) else { continue };
        for m in &entry.moves {
            let mut child = pos.clone();
            child.make_move(m.mv);
            let given = i64::from(v) - i64::from(values.move_value(&pos, m));
            let child_cost = cost + given.max(0) + i64::from(s.depth_cost);
            if best.as_ref().is_some_and(|(c, _)| *c <= child_cost) {
                continue;
            }
            if book.get(&child).is_some() {
                stack.push((child, child_cost));
            } else if child.ply() <= s.max_ply {
                best = Some((child_cost, child));
            }
        }
    }
    best.map(|(_, p)| p)
}

/// Searches `pos` and adds its best moves (up to `moves_per_leaf`) with their values.
pub fn expand(engine: &mut Engine, book: &mut Book, pos: &Position, s: &ThinkSettings) {
    let mut reports: Vec<SearchInfo> = Vec::new();
    let limits =
        SearchLimits { depth: None, nodes: Some(s.nodes), multipv: s.moves_per_leaf.max(1) };
    let control = SearchControl::unlimited();
    let (outcome, stats) =
        engine.run(pos, &limits, &control, &mut |i| reports.push(i.clone()), false);
    let mut lines = lines_of(&reports);
    if lines.is_empty() {
        // No line reported (a single legal move, or a mate found at once): the move played.
        if let Some(best) = outcome.best {
            lines.push((best, crate::search::ponder::score_cp(outcome.score)));
        }
    }
    let entry = book.entry_mut(pos);
    for (mv, value) in lines.into_iter().take(s.moves_per_leaf.max(1) as usize) {
        if entry.moves.iter().all(|m| m.mv != mv) {
            let depth = stats.depth as i32;
            entry.moves.push(BookMove { mv, ponder: None, value, depth, count: 1 });
        }
    }
}

/// The book with every move's value replaced by the negamax below it, the best move first in
/// each position: what the file says after `think`.
pub fn backed_up(book: &Book) -> Book {
    let mut out = book.clone();
    let mut values = Values::new(book);
    let keys: Vec<(String, BookEntry)> =
        book.iter().map(|(k, e)| (k.to_string(), e.clone())).collect();
    for (key, entry) in keys {
        let Ok(pos) = Position::from_sfen(&format!("{key} {}", entry.ply)) else { continue };
        let mut moves: Vec<BookMove> = entry
            .moves
            .iter()
            .map(|m| BookMove { value: values.move_value(&pos, m), ..*m })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.value));
        out.insert(key, BookEntry { ply: entry.ply, moves });
    }
    out
}

/// A fresh engine for `think`.
pub fn think_engine(hash_mb: usize) -> Engine {
    Engine::new(Params::default(), hash_mb)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, usi: &str, value: i32) -> BookMove {
        let mv = pos.parse_usi_move(usi).unwrap_or_else(|e| panic!("{e}"));
        BookMove { mv, ponder: None, value, depth: 0, count: 1 }
    }

    #[test]
    fn the_cheapest_leaf_is_on_the_main_line_until_a_deviation_is_close() {
        let root = Position::startpos();
        let mut book = Book::new();
        // Root: 7g7f (+50) and 2g2f (+10). Only 7g7f's position is in the book, with 3c3d
        // (-40 for white) and 8c8d (-60).
        *book.entry_mut(&root) =
            BookEntry { ply: 1, moves: vec![mv(&root, "7g7f", 50), mv(&root, "2g2f", 10)] };
        let mut after = root.clone();
        after.make_move(after.parse_usi_move("7g7f").unwrap_or_else(|e| panic!("{e}")));
        *book.entry_mut(&after) =
            BookEntry { ply: 2, moves: vec![mv(&after, "3c3d", -40), mv(&after, "8c8d", -60)] };
        // 7g7f is worth +40 for black (white's best reply gives -40). Costs with 15 per ply:
        // 7g7f 3c3d: 0 + 15 + 0 + 15 = 30; 7g7f 8c8d: 30 + 20 = 50; 2g2f: 30 + 15 = 45.
        let s = ThinkSettings { depth_cost: 15, ..ThinkSettings::default() };
        let leaf = next_leaf(&book, &root, &s).unwrap_or_else(|| panic!("no leaf"));
        assert_eq!(position_key(&leaf), {
            let mut p = after.clone();
            p.make_move(p.parse_usi_move("3c3d").unwrap_or_else(|e| panic!("{e}")));
            position_key(&p)
        });
        // With a heavy depth cost the shallow deviation 2g2f comes first.
        let shallow = ThinkSettings { depth_cost: 100, ..s };
        let leaf = next_leaf(&book, &root, &shallow).unwrap_or_else(|| panic!("no leaf"));
        assert_eq!(leaf.ply(), 2);
        assert!(leaf.to_sfen().contains("7P1"), "{}", leaf.to_sfen());
        // Backed-up values: 7g7f becomes +40 and stays first.
        let b = backed_up(&book);
        let start = b.get(&root).unwrap_or_else(|| panic!("no root"));
        assert_eq!((start.moves[0].mv.to_string(), start.moves[0].value), ("7g7f".to_string(), 40));
        // Nothing past the maximum ply.
        let none = ThinkSettings { max_ply: 1, ..s };
        assert!(next_leaf(&book, &root, &none).is_none());
    }

    #[test]
    fn a_few_leaves_grow_a_legal_book_from_the_root() {
        let root = Position::startpos();
        let mut book = Book::new();
        let mut engine = think_engine(8);
        let s = ThinkSettings { nodes: 3_000, max_ply: 6, ..ThinkSettings::default() };
        for _ in 0..5 {
            let leaf = next_leaf(&book, &root, &s).unwrap_or_else(|| panic!("no leaf"));
            expand(&mut engine, &mut book, &leaf, &s);
        }
        assert_eq!(book.len(), 5);
        assert_eq!(book.get(&root).map(|e| e.moves.len()), Some(2));
        // Written and read back: every move legal, nothing lost.
        let (again, errors) = Book::read(&backed_up(&book).to_string());
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(again.len(), 5);
    }
}
