//! Which interpositions of an AND node the board alone shows futile, kept between the node's
//! expansions.
//!
//! In the first proof under tsume rules an interposition that is taken and then mated at once
//! is left out of the node's children ([`super::futility::mated_at_once`]); finding them plays
//! every interposition and every capture of it, a tenth of the solver's time on 寿 although
//! only one expansion in six has a check that can be blocked. A node is expanded again and
//! again under new thresholds, and the answer is the same each time: this direct-mapped cache
//! of the thread's own keeps it by the node's full key. Allocated at the first use, so that a
//! search that meets no such node pays nothing.

use shogi::Bitboard;

/// Slots (32 bytes each: 512 KiB).
const SLOTS: usize = 1 << 14;

#[derive(Clone, Copy, Default)]
struct Slot {
    /// The node's full key (board, hands, attacker's salt); 0 when empty.
    key: u64,
    /// The squares where every drop is futile.
    drops: Bitboard,
    /// Bit `i`: the `i`-th interposition by a board move (in the order of the node's moves)
    /// is futile.
    moves: u64,
}

/// The futile interpositions of the AND nodes expanded lately.
#[derive(Default)]
pub(super) struct FutileMemo {
    slots: Vec<Slot>,
}

/// The most board-move interpositions a slot can describe.
pub(super) const MAX_MOVES: usize = 64;

impl FutileMemo {
    /// The futile drop squares and board-move interpositions of the node `key`, if kept.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<(Bitboard, u64)> {
        let s = self.slots.get(key as usize & (SLOTS - 1))?;
        (s.key == key && key != 0).then_some((s.drops, s.moves))
    }

    /// Keeps what the node `key` showed.
    pub(super) fn put(&mut self, key: u64, drops: Bitboard, moves: u64) {
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); SLOTS];
        }
        self.slots[key as usize & (SLOTS - 1)] = Slot { key, drops, moves };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::Square;

    #[test]
    fn keeps_a_nodes_futile_interpositions_by_its_key() {
        let mut memo = FutileMemo::default();
        assert_eq!(memo.get(7), None);
        let sq = Square::all().nth(10).unwrap_or_else(|| panic!("a square"));
        let drops = Bitboard::from_square(sq);
        memo.put(7, drops, 0b101);
        assert_eq!(memo.get(7), Some((drops, 0b101)));
        memo.put(7 + SLOTS as u64, Bitboard::EMPTY, 0);
        assert_eq!(memo.get(7), None, "replaced by the key of the same slot");
    }
}
