//! The repetition tier: disproofs that rest on a repetition, kept apart from the main table.
//!
//! Such a disproof holds only on the path it was found on (the graph-history interaction), so
//! the main table never stores it. Without a record, though, df-pn re-searches the same node
//! each time it comes back to it along the *same* path, which is how it revisits nodes. This
//! tier keys a disproof by a hash of the whole path from the root to the node, so it answers
//! exactly that path and no other: it is as safe as not storing, and spares the re-search.

/// Entries (a power of two); at 16 bytes each, 1 MiB.
const SLOTS: usize = 1 << 16;

#[derive(Copy, Clone, Default)]
struct Slot {
    path_hash: u64,
    /// The remaining depth the disproof holds for (`tt::UNBOUNDED`: any); 0 with an empty slot.
    depth: u16,
    used: bool,
}

pub struct RepetitionTable {
    slots: Vec<Slot>,
}

impl Default for RepetitionTable {
    fn default() -> Self {
        RepetitionTable { slots: vec![Slot::default(); SLOTS] }
    }
}

impl RepetitionTable {
    /// The hash of a path extended by one position.
    #[inline(always)]
    pub fn extend(path_hash: u64, key: u64) -> u64 {
        (path_hash ^ key).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(31)
            ^ 0x2545_F491_4F6C_DD1D
    }

    #[inline(always)]
    fn index(path_hash: u64) -> usize {
        (path_hash >> 17) as usize & (SLOTS - 1)
    }

    /// Records that the node at the end of the path with this hash is disproven (by a
    /// repetition) for searches with at most `depth` plies left.
    pub fn insert(&mut self, path_hash: u64, depth: u16) {
        self.slots[Self::index(path_hash)] = Slot { path_hash, depth, used: true };
    }

    /// Whether the node at the end of this path is known to be disproven for `depth` plies.
    #[inline]
    pub fn lookup(&self, path_hash: u64, depth: u16) -> Option<u16> {
        let s = self.slots[Self::index(path_hash)];
        (s.used && s.path_hash == path_hash && s.depth >= depth).then_some(s.depth)
    }

    /// Starts loading the slot of `path_hash` into the cache, so that a lookup soon after does
    /// not wait for memory (the table is 1 MiB, read at random: on 寿 that wait was a seventh of
    /// the solver's time).
    #[inline(always)]
    pub fn prefetch(&self, path_hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const Slot = &self.slots[Self::index(path_hash)];
            // SAFETY: prefetching is a hint; the address is a slot of the table.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch(slot.cast::<i8>(), _MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = path_hash;
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = Slot::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_only_its_own_path_and_depth() {
        let mut t = RepetitionTable::default();
        let a = RepetitionTable::extend(RepetitionTable::extend(0, 11), 22);
        let b = RepetitionTable::extend(RepetitionTable::extend(0, 33), 22);
        t.insert(a, 9);
        assert_eq!(t.lookup(a, 9), Some(9));
        assert_eq!(t.lookup(a, 10), None, "a disproof within 9 plies says nothing about 10");
        assert_eq!(t.lookup(b, 1), None, "same position, other path");
        t.clear();
        assert_eq!(t.lookup(a, 1), None);
    }
}
