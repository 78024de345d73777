//! A thread's own direct-mapped cache of what a position always gives again, by the position's
//! full key (board, hands, attacker's salt): the estimates of unsearched positions
//! ([`super::estimates`]) and the futile interpositions of AND nodes ([`super::futile_memo`]).
//!
//! It holds only answers that depend on the position alone, so a hit is exactly what the work
//! would give again and the search is the same node for node; a slot lost to another key only
//! costs the work. It starts empty (a search that never puts pays nothing), takes `FIRST`
//! slots at the first put, and doubles while the positions put outnumber its slots, up to
//! `MOST`: the composer's report runs thousands of small solves (questions of 2,000 nodes),
//! for which a cache of the largest size, allocated and zeroed per solve, cost more than it
//! saved.

#[derive(Clone, Copy, Default)]
struct Slot<V> {
    /// The position's full key; 0 when empty.
    key: u64,
    value: V,
}

/// The cache: one slot per key's low bits, the last value put wins.
pub(super) struct KeyedCache<V, const FIRST: usize, const MOST: usize> {
    slots: Vec<Slot<V>>,
    /// Values put (each for a position the cache did not hold).
    puts: usize,
}

impl<V, const FIRST: usize, const MOST: usize> Default for KeyedCache<V, FIRST, MOST> {
    fn default() -> Self {
        KeyedCache { slots: Vec::new(), puts: 0 }
    }
}

impl<V: Copy + Default, const FIRST: usize, const MOST: usize> KeyedCache<V, FIRST, MOST> {
    /// The value kept for `key`, if any.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<V> {
        let n = self.slots.len();
        if n == 0 || key == 0 {
            return None;
        }
        let s = &self.slots[key as usize & (n - 1)];
        (s.key == key).then_some(s.value)
    }

    /// Keeps `value` for `key`.
    #[inline]
    pub(super) fn put(&mut self, key: u64, value: V) {
        self.puts += 1;
        if self.slots.len() < MOST && self.puts > self.slots.len() {
            self.grow();
        }
        let n = self.slots.len();
        self.slots[key as usize & (n - 1)] = Slot { key, value };
    }

    /// Doubles the slots (or makes the first ones), keeping what was kept.
    #[cold]
    fn grow(&mut self) {
        let n = (2 * self.slots.len()).clamp(FIRST, MOST);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); n]);
        for s in old.into_iter().filter(|s| s.key != 0) {
            self.slots[s.key as usize & (n - 1)] = s;
        }
    }

    #[cfg(test)]
    fn slots(&self) -> usize {
        self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Small = KeyedCache<u32, 16, 256>;

    #[test]
    fn keeps_the_last_value_of_a_key_and_nothing_for_others() {
        let mut c = Small::default();
        assert_eq!(c.get(42), None);
        c.put(42, 7);
        assert_eq!(c.get(42), Some(7));
        // Same slot, other key: replaced.
        let other = 42 + c.slots() as u64;
        c.put(other, 1);
        assert_eq!((c.get(42), c.get(other)), (None, Some(1)));
    }

    #[test]
    fn grows_with_the_search_and_keeps_what_it_kept() {
        let mut c = Small::default();
        c.put(1, 9);
        for key in 2..=64 {
            c.put(key, 1);
        }
        assert!(c.slots() > 16);
        // The slots grew ahead of the keys: each key had a slot of its own, kept through growth.
        assert_eq!(c.get(1), Some(9));
        assert!((2..=64).all(|k| c.get(k) == Some(1)));
    }

    #[test]
    fn stops_growing_at_its_largest() {
        let mut c = Small::default();
        for key in 1..=1024 {
            c.put(key, 1);
        }
        assert_eq!(c.slots(), 256);
    }
}
