//! What a book holds, read from the book alone (the seed's table 1, table 2 and figures 2-3):
//! positions, moves per position, and both by ply. Moves the policy would never play (below
//! the minimum count) are not counted, as the seed leaves out its books' zero-probability
//! moves.

use crate::book::format::Book;
use crate::book::policy::BookPolicy;

/// A book's statistics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BookStats {
    pub positions: usize,
    /// Playable moves over all positions.
    pub moves: usize,
    /// `by_moves[n]`: positions with `n` playable moves (table 2).
    pub by_moves: Vec<usize>,
    /// `by_ply[k]`: positions at move number `k` and their playable moves (figures 2, 3).
    pub by_ply: Vec<(usize, usize)>,
    /// The largest move number of a position.
    pub max_ply: u32,
}

impl BookStats {
    pub fn of(book: &Book, policy: &BookPolicy) -> BookStats {
        let mut s = BookStats::default();
        for (_, entry) in book.iter() {
            let n = entry.moves.iter().filter(|m| m.count >= policy.min_count).count();
            s.positions += 1;
            s.moves += n;
            grow(&mut s.by_moves, n);
            s.by_moves[n] += 1;
            let ply = entry.ply as usize;
            grow(&mut s.by_ply, ply);
            s.by_ply[ply].0 += 1;
            s.by_ply[ply].1 += n;
            s.max_ply = s.max_ply.max(entry.ply);
        }
        s
    }

    /// Playable moves per position.
    pub fn average_moves(&self) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            self.moves as f64 / self.positions as f64
        }
    }
}

fn grow<T: Default + Clone>(v: &mut Vec<T>, index: usize) {
    if v.len() <= index {
        v.resize(index + 1, T::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_positions_and_playable_moves_by_ply() {
        let text = "#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7f none 0 0 3
2g2f none 0 0 1
5g5f none 0 0 0
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2
3c3d none 0 0 2
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2
8c8d none 0 0 0
";
        let (book, errors) = Book::read(text);
        assert!(errors.is_empty(), "{errors:?}");
        let s = BookStats::of(&book, &BookPolicy::default());
        assert_eq!((s.positions, s.moves, s.max_ply), (3, 3, 2));
        assert_eq!(s.by_moves, vec![1, 1, 1]);
        assert_eq!(s.by_ply, vec![(0, 0), (1, 2), (2, 1)]);
        assert!((s.average_moves() - 1.0).abs() < 1e-12);
        let all = BookStats::of(&book, &BookPolicy { min_count: 0, ..BookPolicy::default() });
        assert_eq!((all.moves, all.by_moves.clone()), (5, vec![0, 2, 0, 1]));
    }
}
