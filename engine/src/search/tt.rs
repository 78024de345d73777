//! The transposition table: buckets of four 16-byte entries (one cache line), sized by
//! `USI_Hash`, with depth-and-age replacement and a `hashfull` estimate.
//!
//! Scores are stored relative to the node (mate distances counted from it), see
//! [`crate::search::alpha_beta::score_to_tt`]. The key check uses the whole 64-bit key, so that a false hit
//! needs two positions to agree on 64 bits and the same bucket; moves read from the table are
//! still checked for legality before they are played.

use shogi::Move;

/// What a stored score means.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    None = 0,
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// What a search result `best` in the window `(alpha, beta)` says of the true value: a
    /// fail high bounds it from below; a PV node that raised alpha has it exactly; otherwise it
    /// is bounded from above.
    #[inline(always)]
    pub fn of_result(best: i32, beta: i32, pv_node: bool, raised_alpha: bool) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if pv_node && raised_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles a node searched with `(alpha, beta)`.
    #[inline(always)]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }

    fn from_bits(b: u8) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

#[derive(Copy, Clone, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bound in bits 0–1, generation in bits 2–7.
    gen_bound: u8,
}

const BUCKET: usize = 4;
const GEN_STEP: u8 = 4;

/// A hit: what the table knows about a position.
#[derive(Copy, Clone, Debug)]
pub struct Probe {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mb` MiB (a power of two of buckets, at least one).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Entry>())).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        TranspositionTable {
            entries: vec![Entry::default(); buckets * BUCKET],
            mask: buckets - 1,
            generation: GEN_STEP,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::default());
        self.generation = GEN_STEP;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(GEN_STEP);
        if self.generation == 0 {
            self.generation = GEN_STEP;
        }
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        ((key >> 16) as usize & self.mask) * BUCKET
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Probe> {
        let b = self.bucket(key);
        for e in &self.entries[b..b + BUCKET] {
            if e.key == key && e.gen_bound & 3 != 0 {
                return Some(Probe {
                    mv: Move::from_raw(e.mv),
                    score: e.score as i32,
                    eval: e.eval as i32,
                    depth: e.depth as i32 - 1,
                    bound: Bound::from_bits(e.gen_bound),
                });
            }
        }
        None
    }

    /// Stores a result. `depth` is the remaining depth (−1 for quiescence results).
    #[inline]
    pub fn store(&mut self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let generation = self.generation;
        let mut victim = b;
        let mut worst = i32::MAX;
        for i in b..b + BUCKET {
            let e = &self.entries[i];
            if e.key == key || e.gen_bound & 3 == 0 {
                victim = i;
                break;
            }
            // Older generations and shallower entries go first.
            let age = (generation.wrapping_sub(e.gen_bound & !3) / GEN_STEP) as i32;
            let worth = e.depth as i32 - 8 * age;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let e = &mut self.entries[victim];
        let same = e.key == key;
        // Keep a deeper result of this very search for the same position unless this one is
        // exact; keep the old move when the new result has none.
        if same
            && bound != Bound::Exact
            && (e.gen_bound & !3) == generation
            && e.depth as i32 > depth + 1 + 2
        {
            return;
        }
        let mv = if mv.is_null() && same { Move::from_raw(e.mv) } else { mv };
        *e = Entry {
            key,
            mv: mv.raw(),
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: (depth + 1).clamp(0, 255) as u8,
            gen_bound: generation | bound as u8,
        };
    }

    /// Permille of the first thousand entries that belong to the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| e.gen_bound & 3 != 0 && (e.gen_bound & !3) == self.generation)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1);
        let m = Move::from_raw(1234);
        tt.store(0xdead_beef_1234_5678, m, 55, 10, 7, Bound::Lower);
        let p = tt.probe(0xdead_beef_1234_5678).expect("hit");
        assert_eq!((p.mv, p.score, p.eval, p.depth, p.bound), (m, 55, 10, 7, Bound::Lower));
        assert!(tt.probe(0x1234).is_none());
        tt.store(0xdead_beef_1234_5678, Move::NULL, -3, 10, -1, Bound::Exact);
        let p = tt.probe(0xdead_beef_1234_5678).expect("hit");
        assert_eq!((p.mv, p.depth, p.bound), (m, -1, Bound::Exact));
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234_5678).is_none());
    }

    #[test]
    fn size_is_bounded_by_the_megabytes_asked() {
        for mb in [1usize, 3, 16] {
            let tt = TranspositionTable::new(mb);
            let bytes = tt.entries.len() * std::mem::size_of::<Entry>();
            assert!(bytes <= mb << 20 && bytes > (mb << 20) / 4, "{mb} MB: {bytes} bytes");
        }
        assert_eq!(std::mem::size_of::<Entry>(), 16);
    }
}
