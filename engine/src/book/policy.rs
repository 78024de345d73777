//! Which book move to play, with what probability: the seed's `play()` draws a move with the
//! probability its book gives it. Playing from a book and the pseudo-match that judges books
//! both use [`BookPolicy::probabilities`], so that what is judged is what is played.

use crate::book::format::{Book, BookEntry};
use shogi::{Move, Position};

/// `BookMaxPly` by default: the book is used for the first 32 moves of a game.
pub const DEFAULT_MAX_PLY: u32 = 32;

/// The USI options `BookMaxPly`, `BookEvalDiff`, `BookMinCount` and `BookRandom`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookPolicy {
    /// Positions past this move number are not looked up.
    pub max_ply: u32,
    /// Moves whose value is worse than the best's by more than this (centipawns) are not
    /// played.
    pub eval_diff: i32,
    /// Moves played fewer times than this are not played.
    pub min_count: u64,
    /// Draw among the moves left by their counts; off: the best move only (highest value, then
    /// highest count).
    pub random: bool,
}

impl Default for BookPolicy {
    fn default() -> BookPolicy {
        BookPolicy { max_ply: DEFAULT_MAX_PLY, eval_diff: 100, min_count: 1, random: true }
    }
}

impl BookPolicy {
    /// The moves this policy may play from `entry`, each with its probability (they add up to
    /// one; empty when no move qualifies). Weights are the counts; moves left with no count
    /// at all share equally.
    pub fn probabilities(&self, entry: &BookEntry) -> Vec<(Move, f64)> {
        let counted: Vec<_> = entry.moves.iter().filter(|m| m.count >= self.min_count).collect();
        let Some(best) = counted.iter().map(|m| m.value).max() else { return Vec::new() };
        let kept: Vec<_> = counted
            .into_iter()
            .filter(|m| i64::from(m.value) >= i64::from(best) - i64::from(self.eval_diff.max(0)))
            .collect();
        if !self.random {
            let top = kept.iter().max_by_key(|m| (m.value, m.count));
            return top.map(|m| vec![(m.mv, 1.0)]).unwrap_or_default();
        }
        let total: u64 = kept.iter().map(|m| m.count).sum();
        kept.iter()
            .map(|m| {
                let p = if total == 0 {
                    1.0 / kept.len() as f64
                } else {
                    m.count as f64 / total as f64
                };
                (m.mv, p)
            })
            .filter(|&(_, p)| p > 0.0)
            .collect()
    }

    /// The moves of `pos` this policy may play from `book` (see [`BookPolicy::probabilities`]),
    /// none past `max_ply`.
    pub fn moves(&self, book: &Book, pos: &Position) -> Vec<(Move, f64)> {
        if pos.ply() > self.max_ply {
            return Vec::new();
        }
        book.get(pos).map(|e| self.probabilities(e)).unwrap_or_default()
    }

    /// The move drawn by `r` in `[0, 1)` (the seed's cumulative walk) with its probability,
    /// if the book has one.
    pub fn pick(&self, book: &Book, pos: &Position, r: f64) -> Option<(Move, f64)> {
        let moves = self.moves(book, pos);
        let mut sum = 0.0;
        for &(m, p) in &moves {
            sum += p;
            if r < sum {
                return Some((m, p));
            }
        }
        // Rounding left `r` past the last sum.
        moves.last().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::format::BookMove;

    fn entry(pos: &Position, moves: &[(&str, i32, u64)]) -> BookEntry {
        let moves = moves
            .iter()
            .map(|&(m, value, count)| BookMove {
                mv: pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{e}")),
                ponder: None,
                value,
                depth: 0,
                count,
            })
            .collect();
        BookEntry { ply: 1, moves }
    }

    fn named(p: &[(Move, f64)]) -> Vec<(String, f64)> {
        p.iter().map(|(m, p)| (m.to_string(), *p)).collect()
    }

    #[test]
    fn counts_weigh_the_moves_the_margin_and_minimum_count_leave() {
        let pos = Position::startpos();
        let e =
            entry(&pos, &[("7g7f", 50, 6), ("2g2f", 40, 2), ("5g5f", -100, 8), ("1g1f", 45, 0)]);
        let policy = BookPolicy { eval_diff: 100, min_count: 1, ..BookPolicy::default() };
        // 5g5f is 150 below the best; 1g1f was never played.
        assert_eq!(
            named(&policy.probabilities(&e)),
            vec![("7g7f".into(), 0.75), ("2g2f".into(), 0.25)]
        );
        let wide = BookPolicy { eval_diff: 200, min_count: 0, ..policy };
        assert_eq!(
            named(&wide.probabilities(&e)),
            vec![("7g7f".into(), 0.375), ("2g2f".into(), 0.125), ("5g5f".into(), 0.5)]
        );
        let best = BookPolicy { random: false, ..policy };
        assert_eq!(named(&best.probabilities(&e)), vec![("7g7f".into(), 1.0)]);
        let strict = BookPolicy { min_count: 7, ..wide };
        assert_eq!(named(&strict.probabilities(&e)), vec![("5g5f".into(), 1.0)]);
        let none = BookPolicy { min_count: 9, ..wide };
        assert!(none.probabilities(&e).is_empty());
        // Values alone (a book grown by search): equal shares.
        let valued = entry(&pos, &[("7g7f", 30, 0), ("2g2f", 20, 0)]);
        let zero = BookPolicy { min_count: 0, ..policy };
        assert_eq!(
            named(&zero.probabilities(&valued)),
            vec![("7g7f".into(), 0.5), ("2g2f".into(), 0.5)]
        );
    }

    #[test]
    fn a_draw_walks_the_cumulative_probabilities_up_to_the_maximum_ply() {
        let pos = Position::startpos();
        let mut book = Book::new();
        *book.entry_mut(&pos) = entry(&pos, &[("7g7f", 0, 3), ("2g2f", 0, 1)]);
        let policy = BookPolicy::default();
        let pick = |r| policy.pick(&book, &pos, r).map(|(m, _)| m.to_string());
        assert_eq!(pick(0.0).as_deref(), Some("7g7f"));
        assert_eq!(pick(0.74).as_deref(), Some("7g7f"));
        assert_eq!(pick(0.75).as_deref(), Some("2g2f"));
        assert_eq!(pick(0.999_999).as_deref(), Some("2g2f"));
        assert_eq!(policy.pick(&book, &pos, 0.2).map(|(_, p)| p), Some(0.75));
        let early = BookPolicy { max_ply: 0, ..policy };
        assert_eq!(early.pick(&book, &pos, 0.5), None);
    }
}
