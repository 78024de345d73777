//! The transposition table, bounded by `USI_Hash`.
//!
//! Indexed by the board key alone; each entry keeps the attacker's hand it holds for. Proven
//! entries keep their *proof pieces* (the least hand the mate needs), so they answer every
//! position of the same board with a superior or equal hand; disproven entries keep their
//! *disproof pieces* and answer every inferior or equal hand. Unknown entries answer only their
//! exact hand. Replacement prefers to evict unknown entries of least search effort, so that
//! solved results (the "solved tier") are only evicted when a bucket holds nothing else.

use crate::pn::PnDn;
use shogi::Hand;

#[derive(Copy, Clone, Default)]
struct Entry {
    board_key: u64,
    hand: Hand,
    pn: PnDn,
    dn: PnDn,
    /// Search effort spent below this entry; 0 marks an empty slot.
    amount: u32,
    /// Mate length in plies for proven entries.
    len: u16,
    /// For disproven entries: the remaining depth the disproof holds for (`UNBOUNDED`: always).
    depth: u16,
    /// The table generation that wrote it; entries of older generations count as empty.
    generation: u8,
}

/// The depth of an unbounded search, and of a disproof that holds at any depth.
pub const UNBOUNDED: u16 = u16::MAX;

const BUCKET: usize = 8;

/// A result to store.
#[derive(Copy, Clone, Debug)]
pub struct Stored {
    pub pn: PnDn,
    pub dn: PnDn,
    pub len: u16,
    pub depth: u16,
    /// Search effort spent on it.
    pub amount: u32,
}

/// What the table knows about a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Known {
    pub pn: PnDn,
    pub dn: PnDn,
    /// Proof pieces (proven), disproof pieces (disproven), or the exact hand (unknown).
    pub hand: Hand,
    pub len: u16,
    /// For disproofs: the remaining depth they hold for.
    pub depth: u16,
}

/// A position as the table knows it: board key and attacker hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct NodeId {
    pub board: u64,
    pub hand: Hand,
}

pub struct Table {
    entries: Vec<Entry>,
    /// SNDA parent links, one per entry slot (empty unless enabled): the position from which
    /// the entry's position was last searched.
    parents: Vec<NodeId>,
    mask: usize,
    /// Bumped by `clear`, so clearing between problems costs nothing.
    generation: u8,
}

impl Table {
    /// A table of about `mb` MiB (rounded down to a power of two buckets), with a parent link
    /// per entry when `parent_links` (SNDA) is set.
    pub fn new(mb: usize, parent_links: bool) -> Table {
        let bytes = mb.max(1) << 20;
        let per_entry = std::mem::size_of::<Entry>()
            + if parent_links { std::mem::size_of::<NodeId>() } else { 0 };
        let buckets = (bytes / (BUCKET * per_entry)).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Table {
            entries: vec![Entry::default(); buckets * BUCKET],
            parents: if parent_links { vec![NodeId::default(); buckets * BUCKET] } else { vec![] },
            mask: buckets - 1,
            generation: 1,
        }
    }

    pub fn has_parent_links(&self) -> bool {
        !self.parents.is_empty()
    }

    /// The recorded parent of an unsolved or solved entry of exactly this position.
    pub fn parent_of(&self, node: NodeId) -> Option<NodeId> {
        if self.parents.is_empty() {
            return None;
        }
        let range = self.bucket(node.board);
        let start = range.start;
        self.entries[range]
            .iter()
            .position(|e| self.live(e) && e.board_key == node.board && e.hand == node.hand)
            .map(|i| self.parents[start + i])
            .filter(|p| p.board != 0 || p.hand != Hand::EMPTY)
    }

    /// Forgets every entry: a new generation, and a real wipe once every 255 generations.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entries.iter_mut().for_each(|e| *e = Entry::default());
            self.generation = 1;
        }
    }

    #[inline(always)]
    fn live(&self, e: &Entry) -> bool {
        e.amount != 0 && e.generation == self.generation
    }

    #[inline(always)]
    fn bucket(&self, board_key: u64) -> std::ops::Range<usize> {
        let b = ((board_key >> 1) as usize & self.mask) * BUCKET;
        b..b + BUCKET
    }

    /// Starts loading the bucket of `board_key` into the cache, so that a lookup soon after
    /// does not wait for memory (a third of the solver's time was that wait).
    #[inline(always)]
    pub fn prefetch(&self, board_key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let first = self.bucket(board_key).start;
            let ptr = self.entries[first..].as_ptr().cast::<i8>();
            // SAFETY: prefetching is a hint; the address is inside the table.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch(ptr, _MM_HINT_T0);
                _mm_prefetch(ptr.add(64), _MM_HINT_T0);
                _mm_prefetch(ptr.add(128), _MM_HINT_T0);
                _mm_prefetch(ptr.add(192), _MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = board_key;
    }

    /// Looks up the board with the attacker holding `hand`, for a search that may still play
    /// `depth` plies: proofs longer than that and disproofs of a shallower search do not count.
    /// Of several proofs that answer, the shortest.
    #[inline]
    pub fn lookup(&self, board_key: u64, hand: Hand, depth: u16) -> Option<Known> {
        let mut exact = None;
        let mut proof: Option<Known> = None;
        for e in &self.entries[self.bucket(board_key)] {
            if !self.live(e) || e.board_key != board_key {
                continue;
            }
            let known = Known { pn: e.pn, dn: e.dn, hand: e.hand, len: e.len, depth: e.depth };
            if e.pn == 0 {
                if e.len <= depth
                    && hand.is_superior_or_equal(e.hand)
                    && proof.is_none_or(|p| e.len < p.len)
                {
                    proof = Some(known);
                }
            } else if e.dn == 0 {
                if e.depth >= depth && e.hand.is_superior_or_equal(hand) {
                    return Some(known);
                }
            } else if e.hand == hand {
                exact = Some(known);
            }
        }
        proof.or(exact)
    }

    /// A lower bound on the disproof number of a board not yet searched with the attacker
    /// holding `hand`: an unsolved entry of the same board with a hand that `hand` covers was
    /// no harder to disprove than this one will be.
    #[inline]
    pub fn disproof_floor(&self, board_key: u64, hand: Hand) -> PnDn {
        let mut dn = 0;
        for e in &self.entries[self.bucket(board_key)] {
            let unsolved = self.live(e) && e.board_key == board_key && e.pn != 0 && e.dn != 0;
            if unsolved && hand.is_superior_or_equal(e.hand) {
                dn = dn.max(e.dn);
            }
        }
        dn
    }

    /// Stores a result. For solved results `hand` is the proof or disproof pieces, `len` the
    /// mate length of a proof and `depth` the remaining depth a disproof holds for.
    #[inline]
    pub fn store(&mut self, board_key: u64, hand: Hand, value: Stored, parent: Option<NodeId>) {
        if let Some(slot) = self.store_slot(board_key, hand, value) {
            if let (Some(link), Some(p)) = (self.parents.get_mut(slot), parent) {
                *link = p;
            }
        }
    }

    /// Stores a result and returns the slot it went to (`None`: not stored).
    fn store_slot(&mut self, board_key: u64, hand: Hand, value: Stored) -> Option<usize> {
        let Stored { pn, dn, len, depth, amount } = value;
        let amount = amount.max(1);
        let solved = pn == 0 || dn == 0;
        let range = self.bucket(board_key);
        let start = range.start;
        let generation = self.generation;
        let bucket = &mut self.entries[range];
        let mut victim = 0;
        let mut victim_score = u64::MAX;
        for (i, e) in bucket.iter_mut().enumerate() {
            if e.generation != generation {
                e.amount = 0;
            }
            let e_solved = e.pn == 0 || e.dn == 0;
            if e.amount != 0 && e.board_key == board_key {
                let amount = amount.max(e.amount);
                let new = Entry { board_key, hand, pn, dn, amount, len, depth, generation };
                if e.hand == hand {
                    if !e_solved {
                        *e = new;
                        return Some(start + i);
                    }
                    if !solved {
                        // Never let an unknown result overwrite a solved one.
                        return None;
                    }
                    if (e.pn == 0) == (pn == 0) {
                        // Of two results of one kind keep the stronger: the shorter proof, the
                        // deeper disproof.
                        if (pn == 0 && len < e.len) || (dn == 0 && depth > e.depth) {
                            *e = new;
                            return Some(start + i);
                        }
                        return None;
                    }
                }
                // An unknown entry that the new proof (superior hand) or disproof (inferior
                // hand) answers from now on: reuse its slot.
                let answered = !e_solved
                    && ((pn == 0 && e.hand.is_superior_or_equal(hand))
                        || (dn == 0 && hand.is_superior_or_equal(e.hand)));
                if answered {
                    *e = new;
                    return Some(start + i);
                }
            }
            let score = if e.amount == 0 { 0 } else { ((e_solved as u64) << 32) | e.amount as u64 };
            if score < victim_score {
                victim_score = score;
                victim = i;
            }
        }
        if !solved && victim_score >> 32 != 0 {
            // Only solved entries left: an unknown result is not worth evicting one.
            return None;
        }
        bucket[victim] = Entry { board_key, hand, pn, dn, amount, len, depth, generation };
        Some(start + victim)
    }

    /// Garbage collection when the table is nearly full: frees the unsolved entries of least
    /// search effort (about half of the unsolved ones, judged from a sample), so that new work
    /// finds free slots in every bucket instead of evicting within crowded ones. Solved
    /// entries are kept. Returns the number of entries freed.
    pub fn collect_garbage(&mut self) -> usize {
        let step = (self.entries.len() / 4096).max(1);
        let mut sample: Vec<u32> = self
            .entries
            .iter()
            .step_by(step)
            .filter(|e| self.live(e) && e.pn != 0 && e.dn != 0)
            .map(|e| e.amount)
            .collect();
        if sample.is_empty() {
            return 0;
        }
        let mid = sample.len() / 2;
        let threshold = *sample.select_nth_unstable(mid).1;
        let generation = self.generation;
        let mut freed = 0;
        for e in self.entries.iter_mut() {
            let live = e.amount != 0 && e.generation == generation;
            if live && e.pn != 0 && e.dn != 0 && e.amount <= threshold {
                e.amount = 0;
                freed += 1;
            }
        }
        freed
    }

    /// Fill in permille, sampled from the first thousand slots.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n].iter().filter(|e| self.live(e)).count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pn::INF;
    use shogi::PieceKind::*;

    fn hand(pairs: &[(shogi::PieceKind, u32)]) -> Hand {
        let mut h = Hand::EMPTY;
        for &(k, n) in pairs {
            h.set(k, n);
        }
        h
    }

    fn solved(pn: PnDn, dn: PnDn, len: u16, depth: u16) -> Stored {
        Stored { pn, dn, len, depth, amount: 1 }
    }

    #[test]
    fn proofs_answer_superior_hands_and_disproofs_inferior_ones() {
        let mut t = Table::new(1, false);
        let key = 0x1234_5678_9abc_def0;
        t.store(key, hand(&[(Gold, 1)]), solved(0, INF, 7, UNBOUNDED), None);
        assert!(t.lookup(key, hand(&[(Gold, 1), (Pawn, 2)]), UNBOUNDED).is_some_and(|k| k.pn == 0));
        assert!(t.lookup(key, hand(&[(Silver, 1)]), UNBOUNDED).is_none());
        assert!(
            t.lookup(key, hand(&[(Gold, 1)]), 5).is_none(),
            "a 7-ply proof is no mate within 5"
        );
        assert!(t.lookup(key, hand(&[(Gold, 1)]), 7).is_some_and(|k| k.len == 7));

        let other = key ^ 0xff00;
        t.store(other, hand(&[(Rook, 1), (Pawn, 1)]), solved(INF, 0, 0, 9), None);
        assert!(t.lookup(other, hand(&[(Rook, 1)]), 9).is_some_and(|k| k.dn == 0));
        assert!(t.lookup(other, hand(&[(Rook, 1)]), 11).is_none(), "disproven only to depth 9");
        assert!(t.lookup(other, hand(&[(Rook, 1), (Pawn, 2)]), 9).is_none());
    }

    #[test]
    fn garbage_collection_frees_low_effort_unsolved_entries_only() {
        let mut t = Table::new(1, false);
        let h = hand(&[(Pawn, 1)]);
        let n = t.entries.len() as u64;
        for i in 0..n {
            let key = (i + 1) << 1;
            let amount = (i % 100) as u32 + 1;
            let v = if i % 10 == 0 {
                solved(0, INF, 1, UNBOUNDED)
            } else {
                Stored { pn: 3, dn: 3, len: 0, depth: UNBOUNDED, amount }
            };
            t.store(key, h, v, None);
        }
        let before = t.entries.iter().filter(|e| t.live(e)).count();
        let freed = t.collect_garbage();
        let after = t.entries.iter().filter(|e| t.live(e)).count();
        assert!(freed > 0 && after == before - freed, "freed {freed}, {before} -> {after}");
        for i in (0..n).step_by(10) {
            assert!(t.lookup((i + 1) << 1, h, UNBOUNDED).is_some_and(|k| k.pn == 0), "proof {i}");
        }
        let low = t.entries.iter().filter(|e| t.live(e) && e.pn != 0 && e.amount <= 10).count();
        let high = t.entries.iter().filter(|e| t.live(e) && e.pn != 0 && e.amount > 90).count();
        assert!(low == 0 && high > 0, "low-effort entries go first ({low} left, {high} high)");
    }

    #[test]
    fn clear_forgets_everything() {
        let mut t = Table::new(1, false);
        let h = hand(&[(Pawn, 1)]);
        for round in 0..600u64 {
            let key = (round + 1) << 1;
            t.store(key, h, solved(0, INF, 1, UNBOUNDED), None);
            assert!(t.lookup(key, h, UNBOUNDED).is_some());
            t.clear();
            assert!(t.lookup(key, h, UNBOUNDED).is_none(), "round {round}");
            assert_eq!(t.hashfull(), 0);
        }
    }

    #[test]
    fn unknown_results_never_overwrite_solved_ones() {
        let mut t = Table::new(1, false);
        let key = 42 << 1;
        let h = hand(&[(Pawn, 1)]);
        t.store(key, h, solved(0, INF, 3, UNBOUNDED), None);
        t.store(key, h, Stored { pn: 5, dn: 5, len: 0, depth: UNBOUNDED, amount: 1000 }, None);
        assert!(t.lookup(key, h, UNBOUNDED).is_some_and(|k| k.pn == 0 && k.len == 3));
        t.store(key, h, solved(0, INF, 1, UNBOUNDED), None);
        assert!(t.lookup(key, h, UNBOUNDED).is_some_and(|k| k.len == 1), "the shorter proof wins");
    }
}
