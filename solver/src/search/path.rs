//! The path from the root to the current node: its keys, for repetitions and the repetition
//! tier.

use super::dfpn::Search;
use crate::repetition_table::RepetitionTable;
use crate::tt::NodeId;
use shogi::Position;

impl Search<'_> {
    /// Whether the current position (the last key of the path) occurred earlier on the path
    /// with the same side to move.
    pub(super) fn is_repetition(&self) -> bool {
        let Some((&key, earlier)) = self.path.split_last() else { return false };
        // Most positions occur once: the count of their slot says so without the walk.
        if self.on_path.count(key) <= 1 {
            return false;
        }
        earlier.iter().rev().skip(1).step_by(2).any(|&k| k == key)
    }

    /// Whether the position of full key `key`, reached by a move from the end of the path,
    /// would repeat one of the path ([`Search::is_repetition`] without entering it).
    pub(super) fn would_repeat(&self, key: u64) -> bool {
        self.on_path.count(key) > 0 && self.path.iter().rev().skip(1).step_by(2).any(|&k| k == key)
    }

    /// Appends `pos` (just reached) to the path.
    pub(super) fn enter(&mut self, pos: &Position) {
        self.path.push(pos.key());
        self.on_path.add(pos.key());
        self.nodes_on_path
            .push(NodeId { board: self.table_key(pos), hand: self.attacker_hand(pos) });
        let previous = self.path_hashes.last().copied().unwrap_or(0);
        self.path_hashes.push(RepetitionTable::extend(previous, pos.key()));
    }

    pub(super) fn leave(&mut self) {
        if let Some(key) = self.path.pop() {
            self.on_path.remove(key);
        }
        self.nodes_on_path.pop();
        self.path_hashes.pop();
    }

    pub(super) fn truncate_path(&mut self, len: usize) {
        for &key in self.path.iter().skip(len) {
            self.on_path.remove(key);
        }
        self.path.truncate(len);
        self.nodes_on_path.truncate(len);
        self.path_hashes.truncate(len);
    }

    pub(super) fn path_hash(&self) -> u64 {
        self.path_hashes.last().copied().unwrap_or(0)
    }
}

/// How many positions of the path fall in each of 4,096 slots (by key): a position whose slot
/// holds only itself did not occur earlier, which spares the walk back along a path of
/// hundreds of plies (寿: that walk was a tenth of the solver's time).
pub(super) struct PathCounts(Box<[u16; PathCounts::SLOTS]>);

impl PathCounts {
    const SLOTS: usize = 4096;

    #[inline(always)]
    fn slot(key: u64) -> usize {
        (key >> 20) as usize & (Self::SLOTS - 1)
    }

    #[inline(always)]
    fn add(&mut self, key: u64) {
        let c = &mut self.0[Self::slot(key)];
        *c = c.saturating_add(1);
    }

    #[inline(always)]
    fn remove(&mut self, key: u64) {
        let c = &mut self.0[Self::slot(key)];
        *c = c.saturating_sub(1);
    }

    #[inline(always)]
    fn count(&self, key: u64) -> u16 {
        self.0[Self::slot(key)]
    }
}

impl Default for PathCounts {
    fn default() -> Self {
        PathCounts(Box::new([0; Self::SLOTS]))
    }
}

#[cfg(test)]
mod tests {
    use super::super::SearchFixture;
    use shogi::{Move, Position};

    /// Kings stepping out and back come back to the first position (same side to move) at
    /// the fifth position of the path; leaving it, or cutting the path back, forgets it.
    #[test]
    fn a_position_met_again_on_the_path_is_a_repetition_and_only_while_on_it() {
        let start =
            Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap_or_else(|e| panic!("{e}"));
        let mut fixture = SearchFixture::new(1);
        let mut search = fixture.search(&start);
        let walk = |search: &mut super::super::dfpn::Search<'_>| {
            let mut pos = start.clone();
            let mut seen = Vec::new();
            for m in ["5i5h", "5a5b", "5h5i", "5b5a"] {
                let mv: Move = pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
                pos.make_move(mv);
                search.enter(&pos);
                seen.push(search.is_repetition());
            }
            (pos, seen)
        };
        search.enter(&start);
        let (end, seen) = walk(&mut search);
        assert_eq!(seen, [false, false, false, true]);
        search.leave();
        assert!(!search.is_repetition(), "5h's position, met once");
        search.enter(&end);
        assert!(search.is_repetition());
        // Cut back to the first position and walked again: the same answers, none left over.
        search.truncate_path(1);
        let (_, seen) = walk(&mut search);
        assert_eq!(seen, [false, false, false, true]);
        search.truncate_path(0);
        search.enter(&end);
        assert!(!search.is_repetition(), "alone on the path");
    }
}
