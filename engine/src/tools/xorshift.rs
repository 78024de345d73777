//! A small reproducible pseudo-random sequence (Marsaglia's xorshift64): the openings shuffle
//! and the tests' random playouts need the same numbers on every run, not good randomness, and
//! no random-number crate.

/// The xorshift64 generator (shifts 13, 7, 17). A zero state stays zero: seed it non-zero.
#[derive(Clone, Debug)]
pub struct XorShift64(u64);

impl XorShift64 {
    pub fn new(seed: u64) -> XorShift64 {
        XorShift64(seed)
    }

    /// The next number of the sequence.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        let mut s = self.0;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        self.0 = s;
        s
    }

    /// The next number as a fraction in `[0, 1)` (its top 53 bits: every such double is
    /// equally likely).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The next number reduced to `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_is_the_published_xorshift64() {
        // Marsaglia's xorshift64 from state 1: 1 ^ 1<<13 = 8193, ^ 8193>>7 = 8257, ^ 8257<<17.
        let mut r = XorShift64::new(1);
        assert_eq!(r.next(), 8257 ^ (8257 << 17));
        let mut a = XorShift64::new(0x2545_f491_4f6c_dd1d);
        let mut b = a.clone();
        let xs: Vec<u64> = (0..5).map(|_| a.next()).collect();
        assert!(xs.iter().all(|&x| x != 0));
        assert_eq!(xs, (0..5).map(|_| b.next()).collect::<Vec<_>>());
        assert!((0..100).all(|_| a.below(7) < 7));
    }
}
