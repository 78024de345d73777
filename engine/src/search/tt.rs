//! The transposition table: buckets of four 16-byte entries (one 64-byte cache line), sized by
//! `USI_Hash`, with depth-and-age replacement and a `hashfull` estimate.
//!
//! Scores are stored relative to the node (mate distances counted from it), see
//! [`crate::search::alpha_beta::score_to_tt`]. The key check uses the whole 64-bit key, so that
//! a false hit needs two positions to agree on 64 bits and the same bucket; moves read from the
//! table are still checked for legality before they are played.
//!
//! The search threads (Lazy SMP) read and write the table without locks. An entry is two
//! words, the data and the key xor the data, each written atomically: an entry torn by two
//! threads writing it at once no longer checks against its key, so it reads as a miss.
//!
//! The table is an anonymous memory map on which the kernel is asked for transparent huge
//! pages: with 4 KB pages nearly every probe of a large table also misses the TLB. The search
//! prefetches a child's bucket as soon as the move is made, so that the line is on its way
//! while the node does its other work (repetition, mate distance) before probing.

use memmap2::{Advice, MmapMut};
use shogi::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

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

/// An entry as read: the key and the data it was stored with.
#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bound in bits 0–1, generation in bits 2–7.
    gen_bound: u8,
}

impl Entry {
    fn data(&self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.gen_bound) << 56
    }

    fn from_data(key: u64, data: u64) -> Entry {
        Entry {
            key,
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            gen_bound: (data >> 56) as u8,
        }
    }
}

/// One entry in the table: the data word and the key xor the data.
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    #[inline(always)]
    fn load(&self) -> Entry {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.key_xor_data.load(Ordering::Relaxed) ^ data;
        Entry::from_data(key, data)
    }

    #[inline(always)]
    fn save(&self, e: &Entry) {
        let data = e.data();
        self.data.store(data, Ordering::Relaxed);
        self.key_xor_data.store(e.key ^ data, Ordering::Relaxed);
    }
}

const BUCKET: usize = 4;
const GEN_STEP: u8 = 4;

/// Four slots on one cache line.
#[repr(C, align(64))]
struct Bucket([Slot; BUCKET]);

/// Whether transparent huge pages can be had by asking (`madvise` or `always`), as the
/// kernel says; elsewhere than Linux, no.
fn huge_pages_enabled() -> bool {
    std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
        .is_ok_and(|s| !s.contains("[never]"))
}

/// A hit: what the table knows about a position.
#[derive(Copy, Clone, Debug)]
pub struct Probe {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// The buckets' memory: a zero-filled anonymous map (zero bytes are empty slots).
struct Buckets {
    map: MmapMut,
    len: usize,
}

impl Buckets {
    /// `len` empty buckets, or `None` when the system has no such memory to give.
    fn new(len: usize) -> Option<Buckets> {
        let map = MmapMut::map_anon(len.checked_mul(std::mem::size_of::<Bucket>())?).ok()?;
        Some(Buckets { map, len })
    }

    /// Makes the kernel back every page now (at `isready`), not at the search's first writes:
    /// a fault that has to compact memory for a huge page would otherwise stall the search.
    fn touch(&mut self) {
        for page in self.map.chunks_mut(4096) {
            page[0] = 0;
        }
    }

    #[inline(always)]
    fn as_slice(&self) -> &[Bucket] {
        // SAFETY: the map is page-aligned (more than `Bucket`'s 64), holds `len` buckets'
        // bytes, and lives as long as `self`; a bucket is atomics only, for which any bytes,
        // zero included, are a valid value, and they are only accessed through the atomics.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<Bucket>(), self.len) }
    }
}

pub struct TranspositionTable {
    buckets: Buckets,
    generation: AtomicU8,
    huge_pages: bool,
}

impl TranspositionTable {
    /// A table of `mb` MiB (at least one bucket): any number of buckets, as a key picks its
    /// bucket by the high bits of a product, not by a mask, so that all of the memory given is
    /// used (the oracles' tables come out of `USI_Hash`, and the rest is rarely a power of
    /// two). When the system cannot give that much memory, half as much, and so on.
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let mut len = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = loop {
            match Buckets::new(len) {
                Some(b) => break b,
                None if len > 1 => len /= 2,
                // One bucket is 64 bytes: a system that cannot map them cannot run us.
                None => panic!("no memory for a 64-byte transposition table"),
            }
        };
        let huge_pages = huge_pages_enabled() && buckets.map.advise(Advice::HugePage).is_ok();
        buckets.touch();
        TranspositionTable { buckets, generation: AtomicU8::new(GEN_STEP), huge_pages }
    }

    /// Whether the kernel was asked for huge pages and allows them (`info string` says so
    /// when not).
    pub fn huge_pages(&self) -> bool {
        self.huge_pages
    }

    /// The table's size in MiB (smaller than asked when the system had less to give).
    pub fn size_mb(&self) -> usize {
        (self.buckets.len * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.buckets.map.fill(0);
        *self.generation.get_mut() = GEN_STEP;
    }

    /// Starts loading the bucket of `key` into the cache, for a probe soon after.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::search::prefetch::prefetch(self.bucket(key));
    }

    /// Starts a new search: older entries become preferred victims. Called once per search,
    /// before its threads start.
    pub fn new_search(&mut self) {
        let g = self.generation.get_mut();
        *g = g.wrapping_add(GEN_STEP);
        if *g == 0 {
            *g = GEN_STEP;
        }
    }

    #[inline(always)]
    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let slice = self.buckets.as_slice();
        // The high half of key × len is below len: a bucket chosen evenly by the key's bits.
        let index = ((u128::from(key) * slice.len() as u128) >> 64) as usize;
        &slice[index]
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Probe> {
        for slot in &self.bucket(key).0 {
            let e = slot.load();
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
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let bucket = &self.bucket(key).0;
        let generation = self.generation();
        let mut victim = 0;
        let mut old = bucket[0].load();
        let mut worst = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let e = slot.load();
            if e.key == key || e.gen_bound & 3 == 0 {
                victim = i;
                old = e;
                break;
            }
            // Older generations and shallower entries go first.
            let age = (generation.wrapping_sub(e.gen_bound & !3) / GEN_STEP) as i32;
            let worth = e.depth as i32 - 8 * age;
            if worth < worst {
                worst = worth;
                victim = i;
                old = e;
            }
        }
        let same = old.key == key;
        // Keep a deeper result of this very search for the same position unless this one is
        // exact; keep the old move when the new result has none.
        if same
            && bound != Bound::Exact
            && (old.gen_bound & !3) == generation
            && old.depth as i32 > depth + 1 + 2
        {
            return;
        }
        let mv = if mv.is_null() && same { Move::from_raw(old.mv) } else { mv };
        bucket[victim].save(&Entry {
            key,
            mv: mv.raw(),
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: (depth + 1).clamp(0, 255) as u8,
            gen_bound: generation | bound as u8,
        });
    }

    /// Permille of the first thousand entries that belong to the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let slots = self.buckets.as_slice().iter().flat_map(|b| b.0.iter()).take(1000);
        let (mut n, mut used) = (0usize, 0usize);
        for slot in slots {
            let e = slot.load();
            n += 1;
            used += usize::from(e.gen_bound & 3 != 0 && (e.gen_bound & !3) == generation);
        }
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

    /// Every megabyte asked is used, a power of two or not, and keys spread over all of it.
    #[test]
    fn size_is_the_megabytes_asked() {
        for mb in [1usize, 3, 46] {
            let tt = TranspositionTable::new(mb);
            let bytes = tt.buckets.len * std::mem::size_of::<Bucket>();
            assert_eq!(tt.size_mb(), mb);
            assert_eq!(bytes, mb << 20, "{mb} MB: {bytes} bytes");
            let base = tt.buckets.as_slice().as_ptr();
            let mut last_half = false;
            for i in 0..4096u64 {
                let key = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                // SAFETY: both pointers are into the same slice.
                let at = unsafe { (tt.bucket(key) as *const Bucket).offset_from(base) } as usize;
                assert!(at < tt.buckets.len);
                last_half |= at >= tt.buckets.len / 2;
            }
            assert!(last_half, "{mb} MB: no key reached the second half");
        }
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        let key = 0x0123_4567_89ab_cdef;
        tt.store(key, Move::from_raw(77), 5, 6, 3, Bound::Exact);
        assert!(tt.probe(key).is_some());
        // Another thread's data word landed beside this key's check word.
        let slot = tt.bucket(key).0.iter().find(|s| s.load().key == key).expect("stored");
        slot.data.store(
            Entry { key, depth: 9, gen_bound: 7, ..Entry::default() }.data(),
            Ordering::Relaxed,
        );
        assert!(tt.probe(key).is_none());
    }

    /// Threads hammer a small table with entries whose every field derives from the key: a
    /// hit with fields of another key would be a torn entry that passed the check.
    #[test]
    fn concurrent_writers_never_yield_a_foreign_entry() {
        let tt = TranspositionTable::new(1);
        let fields = |k: u64| {
            (
                Move::from_raw(k as u16 & 0x3fff),
                (k >> 20) as i16 as i32,
                (k >> 40) as u8 as i32 % 100,
            )
        };
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let tt = &tt;
                scope.spawn(move || {
                    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ t;
                    for _ in 0..200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // Few distinct buckets, so that writers collide.
                        let key = x & !(0xfff << 16);
                        let (mv, score, depth) = fields(key);
                        tt.store(key, mv, score, 0, depth, Bound::Lower);
                        if let Some(p) = tt.probe(key) {
                            assert_eq!((p.mv, p.score, p.depth), (mv, score, depth));
                        }
                    }
                });
            }
        });
    }
}
