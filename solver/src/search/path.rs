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
        earlier.iter().rev().skip(1).step_by(2).any(|&k| k == key)
    }

    /// Appends `pos` (just reached) to the path.
    pub(super) fn enter(&mut self, pos: &Position) {
        self.path.push(pos.key());
        self.nodes_on_path
            .push(NodeId { board: self.table_key(pos), hand: self.attacker_hand(pos) });
        let previous = self.path_hashes.last().copied().unwrap_or(0);
        self.path_hashes.push(RepetitionTable::extend(previous, pos.key()));
    }

    pub(super) fn leave(&mut self) {
        self.path.pop();
        self.nodes_on_path.pop();
        self.path_hashes.pop();
    }

    pub(super) fn truncate_path(&mut self, len: usize) {
        self.path.truncate(len);
        self.nodes_on_path.truncate(len);
        self.path_hashes.truncate(len);
    }

    pub(super) fn path_hash(&self) -> u64 {
        self.path_hashes.last().copied().unwrap_or(0)
    }
}
