//! The estimates of positions not yet searched, kept between a node's expansions.
//!
//! A node is expanded again and again under new thresholds (on the long problems two to three
//! times per position on average), and each time its children that were never searched are
//! estimated afresh: a move generation each (checks after the defender's move, evasions after
//! the attacker's), which was two fifths of the solver's time. Their table entries do not keep
//! those estimates (storing them there took slots from searched positions, and changed which
//! entries the replacement kept: more expansions on three of eight long problems). This small
//! direct-mapped cache of the thread's own (sized to the solve, see [`FIRST_SLOTS`]) keeps
//! them: an estimate found here is the one the move generation would give again, so the
//! search is the same, node for node.

use crate::pn::PnDn;

/// Slots at the first estimate kept (16 bytes each: 64 KiB), and at most (4 MiB). A solve
/// starts small and the cache doubles as the search outgrows it: the composer's report runs
/// thousands of small solves (a question of 2,000 nodes each), for which a 4 MiB cache
/// allocated and zeroed per solve cost more than the estimates it saved.
const FIRST_SLOTS: usize = 1 << 12;
const MOST_SLOTS: usize = 1 << 18;

/// The cache: one slot per key's low bits, the last estimate written wins. Slot `i` is words
/// `2i` (the position's full key: board, hands, attacker's salt; 0 when empty) and `2i + 1`
/// (pn in the low half, dn in the high half).
#[derive(Default)]
pub(super) struct Estimates {
    words: Vec<u64>,
    /// Estimates written (each for a position the cache did not hold): the cache grows while
    /// they outnumber its slots.
    puts: usize,
}

impl Estimates {
    fn slots(&self) -> usize {
        self.words.len() / 2
    }

    /// The estimate kept for `key`, if any.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<(PnDn, PnDn)> {
        let slots = self.slots();
        if slots == 0 || key == 0 {
            return None;
        }
        let i = 2 * (key as usize & (slots - 1));
        let value = self.words[i + 1];
        (self.words[i] == key).then_some((value as PnDn, (value >> 32) as PnDn))
    }

    /// Keeps the estimate of `key`.
    #[inline]
    pub(super) fn put(&mut self, key: u64, pn: PnDn, dn: PnDn) {
        self.puts += 1;
        if self.slots() < MOST_SLOTS && self.puts > self.slots() {
            self.grow();
        }
        let i = 2 * (key as usize & (self.slots() - 1));
        self.words[i] = key;
        self.words[i + 1] = u64::from(pn) | (u64::from(dn) << 32);
    }

    /// Doubles the slots (or makes the first ones), keeping what was kept.
    #[cold]
    fn grow(&mut self) {
        let slots = (2 * self.slots()).max(FIRST_SLOTS);
        let old = std::mem::replace(&mut self.words, vec![0u64; 2 * slots]);
        for pair in old.chunks_exact(2).filter(|pair| pair[0] != 0) {
            let i = 2 * (pair[0] as usize & (slots - 1));
            self.words[i] = pair[0];
            self.words[i + 1] = pair[1];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_estimate_of_a_key_and_nothing_for_others() {
        let mut e = Estimates::default();
        assert_eq!(e.get(42), None);
        e.put(42, 3, 7);
        assert_eq!(e.get(42), Some((3, 7)));
        // Same slot, other key: replaced.
        let other = 42 + (e.slots() as u64);
        e.put(other, 1, 1);
        assert_eq!((e.get(42), e.get(other)), (None, Some((1, 1))));
    }

    #[test]
    fn grows_with_the_search_and_keeps_what_it_kept() {
        let mut e = Estimates::default();
        e.put(1, 2, 3);
        for key in 2..=(4 * FIRST_SLOTS as u64) {
            e.put(key, 1, 1);
        }
        assert!(e.slots() > FIRST_SLOTS);
        // The slots grew ahead of the keys: each key had a slot of its own, kept through growth.
        assert_eq!(e.get(1), Some((2, 3)));
        assert!((2..=(4 * FIRST_SLOTS as u64)).all(|k| e.get(k) == Some((1, 1))));
    }

    #[test]
    fn stops_growing_at_its_largest() {
        let mut e = Estimates::default();
        for key in 1..=(4 * MOST_SLOTS as u64) {
            e.put(key, 1, 1);
        }
        assert_eq!(e.slots(), MOST_SLOTS);
    }
}
