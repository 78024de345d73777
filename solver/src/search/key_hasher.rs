//! A hasher for the maps keyed by position keys (Zobrist keys, already uniform): the main
//! line's memo and its questions look such maps up at every position they value, and the
//! standard library's SipHash was a tenth of a valuation's time (図巧1).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Mixes the words written into one (a key alone hashes to a mix of itself).
#[derive(Clone, Copy, Default)]
pub(super) struct KeyHasher(u64);

/// An odd constant with its bits spread (the golden ratio's), for the multiplicative mix.
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        // A product carries low bits up, never high bits down: fold them down and mix again.
        let x = (self.0 ^ (self.0 >> 32)).wrapping_mul(MIX);
        x ^ (x >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(23) ^ n).wrapping_mul(MIX);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

pub(super) type KeyMap<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;
pub(super) type KeySet<K> = HashSet<K, BuildHasherDefault<KeyHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys that differ in one bit, or pairs that differ in their second word, land apart:
    /// a map of them keeps every one.
    #[test]
    fn near_keys_and_pairs_stay_apart() {
        let mut map: KeyMap<(u64, u16), u32> = KeyMap::default();
        for bit in 0..64 {
            for plies in 0..4u16 {
                map.insert((1u64 << bit, plies), bit * 4 + u32::from(plies));
            }
        }
        assert_eq!(map.len(), 256);
        assert_eq!(map.get(&(1 << 7, 3)), Some(&31));
        let hash = |k: u64| {
            let mut h = KeyHasher::default();
            h.write_u64(k);
            h.finish()
        };
        assert_ne!(hash(1), hash(2));
        assert_ne!(hash(0) & 0x7f, hash(1 << 63) & 0x7f);
    }
}
