//! The seed's pseudo-match: two books play each other exactly. From the start position, the
//! side to move plays every move its book gives, with the probability its policy gives
//! ([`BookPolicy::probabilities`]), until a position leaves the mover's book; the probability
//! of each such exit position is accumulated exactly, ply by ply, with transpositions merged.
//! No game is played, and no sampling error enters.

use crate::book::format::{position_key, Book};
use crate::book::policy::BookPolicy;
use shogi::{Color, Position};
use std::collections::HashMap;

/// One side of a pseudo-match: a book and how it is played.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    pub book: &'a Book,
    pub policy: &'a BookPolicy,
}

/// A position where the game leaves book, with the probability of reaching it.
#[derive(Clone)]
pub struct Exit {
    pub position: Position,
    /// Moves played from the start position.
    pub ply: usize,
    pub probability: f64,
}

/// What a pseudo-match gives (the seed's figures 6 to 8 and table 3).
#[derive(Clone, Default)]
pub struct PseudoMatch {
    /// `in_book[k]`: the probability that the move after `k` moves is still a book move.
    pub in_book: Vec<f64>,
    /// Expected book moves played by black and by white.
    pub book_moves: [f64; 2],
    /// Every exit position, distinct, in order of ply (then of position).
    pub exits: Vec<Exit>,
}

impl PseudoMatch {
    /// Entropy of the exit distribution, in bits (the seed's diversity).
    pub fn entropy(&self) -> f64 {
        self.exits.iter().map(|e| surprise(e.probability)).sum()
    }

    /// Per ply `k`: the exits at `k` (their number) and their share of the entropy (the
    /// shares add up to [`PseudoMatch::entropy`]).
    pub fn exits_by_ply(&self) -> Vec<(usize, f64)> {
        let last = self.exits.iter().map(|e| e.ply).max().unwrap_or(0);
        let mut by_ply = vec![(0, 0.0); last + 1];
        for e in &self.exits {
            by_ply[e.ply].0 += 1;
            by_ply[e.ply].1 += surprise(e.probability);
        }
        by_ply
    }
}

/// `-p log2 p`, exactly 0 for a certain exit (not -0, which would print as `-0.00`).
fn surprise(p: f64) -> f64 {
    if p > 0.0 && p < 1.0 {
        -p * p.log2()
    } else {
        0.0
    }
}

/// Plays `black`'s book against `white`'s from `start`, exactly.
pub fn pseudo_match(start: &Position, black: Side, white: Side) -> PseudoMatch {
    let mut result = PseudoMatch::default();
    let mut layer: Vec<(Position, f64)> = vec![(start.clone(), 1.0)];
    let mut ply = 0;
    while !layer.is_empty() {
        let mut next: HashMap<String, (Position, f64)> = HashMap::new();
        let mut in_book = 0.0;
        let mut exits: Vec<Exit> = Vec::new();
        for (pos, p) in layer {
            let mover = pos.side_to_move();
            let side = if mover == Color::Black { black } else { white };
            let moves = side.policy.moves(side.book, &pos);
            if moves.is_empty() {
                exits.push(Exit { position: pos, ply, probability: p });
                continue;
            }
            in_book += p;
            result.book_moves[mover.index()] += p;
            for (m, q) in moves {
                let mut child = pos.clone();
                child.make_move(m);
                let key = position_key(&child);
                next.entry(key).or_insert((child, 0.0)).1 += p * q;
            }
        }
        exits.sort_by_cached_key(|e| position_key(&e.position));
        result.exits.extend(exits);
        if in_book > 0.0 {
            result.in_book.push(in_book);
        }
        let mut children: Vec<(String, (Position, f64))> = next.into_iter().collect();
        children.sort_by(|a, b| a.0.cmp(&b.0));
        layer = children.into_iter().map(|(_, v)| v).collect();
        ply += 1;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::format::{BookEntry, BookMove};

    /// Adds `moves` (usi, count) at the position after `line` from the start.
    fn add(book: &mut Book, line: &[&str], moves: &[(&str, u64)]) {
        let mut pos = Position::startpos();
        for m in line {
            let mv = pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{e}"));
            pos.make_move(mv);
        }
        let moves = moves
            .iter()
            .map(|&(m, count)| BookMove {
                mv: pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{e}")),
                ponder: None,
                value: 0,
                depth: 0,
                count,
            })
            .collect();
        *book.entry_mut(&pos) = BookEntry { ply: pos.ply(), moves };
    }

    #[test]
    fn exact_probabilities_match_a_hand_computation() {
        // Book A: 7g7f (3) or 2g2f (1); after 7g7f 3c3d: 2g2f; after 7g7f 8c8d: 2g2f.
        // A as white: after 7g7f, 3c3d (1) or 8c8d (1); after 2g2f, 8c8d.
        let mut a = Book::new();
        add(&mut a, &[], &[("7g7f", 3), ("2g2f", 1)]);
        add(&mut a, &["7g7f"], &[("3c3d", 1), ("8c8d", 1)]);
        add(&mut a, &["2g2f"], &[("8c8d", 1)]);
        add(&mut a, &["7g7f", "3c3d"], &[("2g2f", 1)]);
        add(&mut a, &["7g7f", "8c8d"], &[("2g2f", 1)]);
        // Book B: as black 2g2f only; as white after 2g2f: 3c3d (1) or 8c8d (3); after 7g7f:
        // 8c8d only.
        let mut b = Book::new();
        add(&mut b, &[], &[("2g2f", 1)]);
        add(&mut b, &["2g2f"], &[("3c3d", 1), ("8c8d", 3)]);
        add(&mut b, &["7g7f"], &[("8c8d", 1)]);
        let policy = BookPolicy::default();
        let (sa, sb) = (Side { book: &a, policy: &policy }, Side { book: &b, policy: &policy });
        let start = Position::startpos();

        // A black, B white. Ply 0: 7g7f 3/4, 2g2f 1/4 (A's book). Ply 1, white (B's book):
        // after 7g7f, 8c8d (3/4); after 2g2f, 3c3d 1/16 and 8c8d 3/16. Ply 2, black (A's):
        // 7g7f 8c8d -> 2g2f (3/4); after 2g2f 3c3d A has nothing: exit 1/16; after 2g2f 8c8d
        // A has nothing: exit 3/16. Ply 3, white (B's): 7g7f 8c8d 2g2f is not in B: exit 3/4.
        let m = pseudo_match(&start, sa, sb);
        let exits: Vec<(usize, f64)> = m.exits.iter().map(|e| (e.ply, e.probability)).collect();
        let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
        assert_eq!(exits.len(), 3, "{exits:?}");
        let mut at2: Vec<f64> = exits.iter().filter(|e| e.0 == 2).map(|e| e.1).collect();
        at2.sort_by(f64::total_cmp);
        assert!(close(at2[0], 1.0 / 16.0) && close(at2[1], 3.0 / 16.0), "{exits:?}");
        assert!(exits.iter().any(|&(ply, p)| ply == 3 && close(p, 0.75)), "{exits:?}");
        let in_book = [1.0, 1.0, 0.75];
        assert_eq!(m.in_book.len(), 3);
        assert!(m.in_book.iter().zip(in_book).all(|(&x, y)| close(x, y)), "{:?}", m.in_book);
        // Black's book moves: 1 + 3/4; white's: 1.
        assert!(close(m.book_moves[0], 1.75) && close(m.book_moves[1], 1.0), "{:?}", m.book_moves);
        let h = -(1.0f64 / 16.0 * (1.0f64 / 16.0).log2()
            + 3.0 / 16.0 * (3.0f64 / 16.0).log2()
            + 0.75 * 0.75f64.log2());
        assert!(close(m.entropy(), h));
        let by_ply = m.exits_by_ply();
        assert_eq!(by_ply.iter().map(|b| b.0).collect::<Vec<_>>(), vec![0, 0, 2, 1]);

        // B black, A white. Ply 0: 2g2f (B's). Ply 1: A after 2g2f: 8c8d. Ply 2: B has no
        // 2g2f 8c8d: exit with probability 1.
        let m = pseudo_match(&start, sb, sa);
        assert_eq!(m.exits.len(), 1);
        assert!(close(m.exits[0].probability, 1.0) && m.exits[0].ply == 2);
        assert!(close(m.entropy(), 0.0));
        assert!(close(m.book_moves[0], 1.0) && close(m.book_moves[1], 1.0));
    }

    #[test]
    fn a_book_that_has_nothing_exits_at_once() {
        let empty = Book::new();
        let policy = BookPolicy::default();
        let side = Side { book: &empty, policy: &policy };
        let m = pseudo_match(&Position::startpos(), side, side);
        assert_eq!(m.exits.len(), 1);
        assert_eq!((m.exits[0].ply, m.exits[0].probability), (0, 1.0));
        assert!(m.in_book.is_empty());
    }
}
