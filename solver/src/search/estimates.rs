//! The estimates of positions not yet searched, kept between a node's expansions.
//!
//! A node is expanded again and again under new thresholds (on the long problems two to three
//! times per position on average), and each time its children that were never searched are
//! estimated afresh: a move generation each (checks after the defender's move, evasions after
//! the attacker's), which was two fifths of the solver's time. Their table entries do not keep
//! those estimates (storing them there took slots from searched positions, and changed which
//! entries the replacement kept: more expansions on three of eight long problems). This small
//! direct-mapped cache of the thread's own keeps them: an estimate found here is the one the
//! move generation would give again, so the search is the same, node for node.

use crate::pn::PnDn;

/// Slots (16 bytes each: 4 MiB a thread, allocated zeroed, so that a solve pays only for the
/// pages it touches).
const SLOTS: usize = 1 << 18;

/// The cache: one slot per key's low bits, the last estimate written wins. Slot `i` is words
/// `2i` (the position's full key: board, hands, attacker's salt; 0 when empty) and `2i + 1`
/// (pn in the low half, dn in the high half).
pub(super) struct Estimates {
    words: Box<[u64]>,
}

impl Default for Estimates {
    fn default() -> Self {
        // A zeroed vector of a primitive comes from a zeroed allocation: no 4 MiB written.
        Estimates { words: vec![0u64; 2 * SLOTS].into_boxed_slice() }
    }
}

impl Estimates {
    /// The estimate kept for `key`, if any.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<(PnDn, PnDn)> {
        let i = 2 * (key as usize & (SLOTS - 1));
        let value = self.words[i + 1];
        (self.words[i] == key && key != 0).then_some((value as PnDn, (value >> 32) as PnDn))
    }

    /// Keeps the estimate of `key`.
    #[inline]
    pub(super) fn put(&mut self, key: u64, pn: PnDn, dn: PnDn) {
        let i = 2 * (key as usize & (SLOTS - 1));
        self.words[i] = key;
        self.words[i + 1] = u64::from(pn) | (u64::from(dn) << 32);
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
        let other = 42 + SLOTS as u64;
        e.put(other, 1, 1);
        assert_eq!((e.get(42), e.get(other)), (None, Some((1, 1))));
    }
}
