//! The transposition table, bounded by `USI_Hash`.
//!
//! Indexed by the board key alone; each entry keeps the attacker's hand it holds for. Proven
//! entries keep their *proof pieces* (the least hand the mate needs), so they answer every
//! position of the same board with a superior or equal hand; disproven entries keep their
//! *disproof pieces* and answer every inferior or equal hand. Unknown entries answer only their
//! exact hand. Replacement prefers to evict unknown entries of least search effort, so that
//! solved results (the "solved tier") are only evicted when a bucket holds nothing else.
//!
//! **Threads.** Helper threads (`Threads`) share the table: while it is shared, every read
//! and write of a bucket (and of its parent links) holds that bucket's spin lock, so an entry
//! is never seen half-written by another thread. A table that is not shared takes no lock
//! (one branch per access; no measurable cost on 図巧1).
//!
//! **Where the entries live.** In memory (a `Vec`), or in a memory-mapped table file
//! ([`crate::table_file`]) that outlives the process. The table reaches them through one raw
//! slice whatever owns them, so a lookup or a store never asks which (no branch, no
//! allocation): with no file, the table behaves and costs exactly as before files existed.
//!
//! **Entries of earlier problems** (a table file is never cleared between problems) are safe
//! to reuse: a proof or a disproof is a fact of a position (board, attacker's hand, and who
//! attacks), not of the problem it was found in; disproofs that rest on a repetition (the
//! graph-history interaction) depend on the path and are never stored here
//! ([`crate::repetition_table`]); depth-bounded disproofs ("no mate within N plies") carry
//! their depth and answer only searches that ask for no more. Unknown entries carry only
//! effort estimates, which steer the search but decide nothing. What would make an entry of
//! one problem answer another wrongly is kept out of the key: the attacker (see
//! [`key_salt`]: the node types are those of the attacker), the pieces in play (the defender
//! holds what the board and the attacker's hand leave, so a problem with another piece set
//! gets other keys), and the rules (a file is made under one rules setting and refused under
//! the other).
//!
//! **Torn entries.** A process killed while it stores an entry (SIGKILL lands between the
//! instructions that write its 32 bytes) leaves in the file an entry made of parts of two. A
//! mapped file's pages are in the OS's page cache, which survives the process, so this is
//! the only damage a kill can do: every completed store is kept. Each entry therefore carries
//! a 24-bit check of its other fields, computed on every store (a few multiplications, no
//! cost at lookup); a file opened with its dirty flag set (not closed cleanly) has every
//! live entry checked once and those that fail emptied. An entry that is torn but passes
//! (one chance in 2^24 for the one or two stores in flight at the kill) would be read as it
//! stands. Freeing an entry (garbage collection, a stale generation) writes only its
//! `amount` field, to 0, which makes it empty whatever its check says.

use crate::config::Rules;
use crate::pn::PnDn;
use crate::table_file::{TableFile, TableFileError};
use shogi::{Color, Hand, PieceKind, Position};
use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::path::Path;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};

/// One table entry, laid out for the table file: `#[repr(C)]`, 32 bytes, no padding (every
/// byte is a field, so nothing undefined is ever written to a file), native byte order.
///
/// | offset | field |
/// |---|---|
/// | 0 | `board_key` u64 (salted, see [`key_salt`]) |
/// | 8 | `hand` u32 |
/// | 12 | `pn` u32 |
/// | 16 | `dn` u32 |
/// | 20 | `amount` u32 |
/// | 24 | `len` u16 |
/// | 26 | `depth` u16 |
/// | 28 | `generation` u8 |
/// | 29 | `check` [u8; 3] |
#[derive(Copy, Clone, Default)]
#[repr(C)]
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
    /// A 24-bit check of the fields above, for torn entries (see the module's docs).
    check: [u8; 3],
}

/// The size of an entry, recorded in a table file's header.
pub const ENTRY_SIZE: usize = 32;
/// The entry layout version, recorded in a table file's header: bump it when the entry's
/// fields, its check, the bucket index or the key salts change.
pub const ENTRY_LAYOUT: u32 = 1;

const _: () = {
    use std::mem::{align_of, offset_of, size_of};
    assert!(size_of::<Entry>() == ENTRY_SIZE && align_of::<Entry>() == 8);
    assert!(offset_of!(Entry, hand) == 8 && offset_of!(Entry, pn) == 12);
    assert!(offset_of!(Entry, dn) == 16 && offset_of!(Entry, amount) == 20);
    assert!(offset_of!(Entry, len) == 24 && offset_of!(Entry, depth) == 26);
    assert!(offset_of!(Entry, generation) == 28 && offset_of!(Entry, check) == 29);
};

impl Entry {
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn new(
        board_key: u64,
        hand: Hand,
        pn: PnDn,
        dn: PnDn,
        amount: u32,
        len: u16,
        depth: u16,
        generation: u8,
    ) -> Entry {
        let mut e =
            Entry { board_key, hand, pn, dn, amount, len, depth, generation, check: [0; 3] };
        e.check = e.computed_check();
        e
    }

    /// The check of the other fields: each 8-byte word multiplied by its own odd constant (so a
    /// word from another entry changes the sum), then mixed.
    #[inline(always)]
    fn computed_check(&self) -> [u8; 3] {
        let w1 = (u64::from(self.hand.raw()) << 32) | u64::from(self.pn);
        let w2 = (u64::from(self.dn) << 32) | u64::from(self.amount);
        let w3 =
            (u64::from(self.len) << 24) | (u64::from(self.depth) << 8) | u64::from(self.generation);
        let mut x = self.board_key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ w1.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ w2.wrapping_mul(0x1656_67B1_9E37_79F9)
            ^ w3.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        x = (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x ^= x >> 32;
        [x as u8, (x >> 8) as u8, (x >> 16) as u8]
    }
}

/// Xored into the board key when White attacks. A position's node type depends on the
/// attacker (the side to move attacks, except that a side in check defends by default, and
/// `Solver::solve_as` may make a side in check attack), so the entries of the two attackers
/// must never answer each other, least of all in a table file shared by many problems. Bit 0
/// (the side to move) is left alone; with Black attacking the keys are unchanged.
pub const WHITE_ATTACKS_SALT: u64 = 0x5D1C_3A96_E2B7_4F08;

/// Xored into the key of a bounded disproof found by a pure-rule probe inside a tsume-rule
/// search ("no pure mate within N plies"). It holds only under pure rules, where futile
/// interpositions lengthen mates, so the tsume searches never read it; the pure probes do,
/// so that a probe asked again, or with a larger cap, starts where the last one stopped.
/// Bit 0 (the side to move) is left alone.
pub const PURE_PROBE_SALT: u64 = 0x3B9A_C5F1_77D2_0E64;

/// The salt xored into every board key of a search of `pos` with `attacker` mating: the
/// attacker's ([`WHITE_ATTACKS_SALT`]), and the piece set's when it is not the full set of 40.
/// The defender's hand is not in the table's key: it is whatever the board and the attacker's
/// hand leave of the pieces in play, which is the same throughout one search but not between
/// problems with other pieces in play. Zero for Black attacking with the full set (most
/// problems: their keys, and so their node counts, are those of a table without salts).
pub fn key_salt(pos: &Position, attacker: Color) -> u64 {
    let mut material = 0u64;
    let mut full = true;
    for kind in PieceKind::HAND {
        let mut n = pos.pieces_kind(kind).count();
        if kind.can_promote() {
            n += pos.pieces_kind(kind.promote()).count();
        }
        n += pos.hand(Color::Black).count(kind) + pos.hand(Color::White).count(kind);
        full &= n == u32::from(PieceKind::SET_COUNT[kind.index()]);
        material = (material << 5) | u64::from(n.min(31));
    }
    let material_salt = if full {
        0
    } else {
        let mut z = material.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) & !1
    };
    let attacker_salt = if attacker == Color::White { WHITE_ATTACKS_SALT } else { 0 };
    attacker_salt ^ material_salt
}

/// The entries, whoever owns their memory: one raw slice for the hot path, and its owner
/// (anonymous memory, or a mapped file) for the end of its life.
struct Entries {
    ptr: NonNull<Entry>,
    len: usize,
    owner: Owner,
}

enum Owner {
    Memory(#[allow(dead_code)] Memory),
    File(TableFile),
}

/// A table in memory: an anonymous mapping in huge pages where the system lends them, else a
/// `Vec`. The table is written all over at random, so in 4 KiB pages every first write to a
/// page costs a fault and the zeroing of that page: on 寿 with a 1 GiB table that was a sixth
/// of the time (`clear_page_erms` in the profile), and each lookup's page walk missed the TLB
/// more often. In 2 MiB pages there are 512 times fewer faults and TLB entries.
enum Memory {
    Mapped(#[allow(dead_code)] memmap2::MmapMut),
    Vec(#[allow(dead_code)] Vec<Entry>),
}

// SAFETY: `Entries` owns its memory (the mapping or the `Vec`) and hands it out only through
// `&self`/`&mut self`, like a `Vec`.
unsafe impl Send for Entries {}

impl Entries {
    fn in_memory(len: usize) -> Entries {
        if let Ok(mut map) = memmap2::MmapMut::map_anon(len * ENTRY_SIZE) {
            #[cfg(target_os = "linux")]
            let _ = map.advise(memmap2::Advice::HugePage);
            // Every page is touched now, when the table is made (USI `isready`), not by the
            // first search that writes to it, whose time it would take.
            for page in map.chunks_mut(4096) {
                page[0] = 0;
            }
            // A fresh anonymous mapping reads as zeros, which is `Entry::default()`; it is
            // page-aligned, so aligned for entries, and does not move with its owner.
            let ptr = NonNull::new(map.as_mut_ptr().cast::<Entry>()).unwrap_or(NonNull::dangling());
            return Entries { ptr, len, owner: Owner::Memory(Memory::Mapped(map)) };
        }
        let mut v = vec![Entry::default(); len];
        // `as_mut_ptr` makes no reference to the elements; the Vec is never touched again
        // until it is dropped, and its buffer does not move with it.
        let ptr = NonNull::new(v.as_mut_ptr()).unwrap_or(NonNull::dangling());
        Entries { ptr, len, owner: Owner::Memory(Memory::Vec(v)) }
    }

    fn in_file(file: TableFile) -> Entries {
        let len = file.entries();
        let ptr = NonNull::new(file.entries_ptr().cast::<Entry>()).unwrap_or(NonNull::dangling());
        debug_assert!(ptr.as_ptr().is_aligned());
        Entries { ptr, len, owner: Owner::File(file) }
    }
}

impl Deref for Entries {
    type Target = [Entry];
    #[inline(always)]
    fn deref(&self) -> &[Entry] {
        // SAFETY: `ptr` is valid for `len` entries for as long as `owner` lives, and every bit
        // pattern is an `Entry` (plain integers).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl DerefMut for Entries {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Entry] {
        // SAFETY: as in `deref`, and `&mut self` makes this the only access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

/// What opening a table file did, for the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileOpened {
    pub created: bool,
    pub entries: usize,
    /// The file was not closed cleanly, so its entries were checked.
    pub was_dirty: bool,
    /// Entries emptied by that check (torn by a kill).
    pub torn: usize,
}

/// The depth of an unbounded search, and of a disproof that holds at any depth.
pub const UNBOUNDED: u16 = u16::MAX;

/// Entries per bucket.
pub const BUCKET: usize = 8;

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
    entries: Entries,
    /// SNDA parent links, one per entry slot (empty unless enabled): the position from which
    /// the entry's position was last searched. Written under the bucket's lock.
    parents: Box<[UnsafeCell<NodeId>]>,
    mask: usize,
    /// Bumped by `clear`, so clearing between problems costs nothing.
    generation: u8,
    /// One spin lock per bucket, taken only while the table is shared.
    locks: Box<[AtomicBool]>,
    /// Several search threads use the table (`Solver` sets it around their lives).
    shared: bool,
}

// SAFETY: while several threads use one table (`shared`), every access to a bucket and to its
// parent links holds that bucket's lock (`with_bucket`); a table that is not shared is used by
// one thread at a time (the solver sets `shared` before it starts helper threads, and only
// `&mut self` can change it). No reference to more than one bucket is made from `&self`.
unsafe impl Sync for Table {}

fn parent_links_for(enabled: bool, entries: usize) -> Box<[UnsafeCell<NodeId>]> {
    let n = if enabled { entries } else { 0 };
    (0..n).map(|_| UnsafeCell::new(NodeId::default())).collect()
}

fn bucket_locks(entries: usize) -> Box<[AtomicBool]> {
    (0..entries / BUCKET).map(|_| AtomicBool::new(false)).collect()
}

/// A bucket's lock while it is held (nothing when the table is not shared).
struct BucketGuard<'a>(Option<&'a AtomicBool>);

impl Drop for BucketGuard<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        if let Some(lock) = self.0 {
            lock.store(false, Ordering::Release);
        }
    }
}

impl Table {
    /// A table of about `mb` MiB (rounded down to a power of two buckets), with a parent link
    /// per entry when `parent_links` (SNDA) is set.
    pub fn new(mb: usize, parent_links: bool) -> Table {
        let entries = Self::entries_for(mb, parent_links);
        Table {
            entries: Entries::in_memory(entries),
            parents: parent_links_for(parent_links, entries),
            mask: entries / BUCKET - 1,
            generation: 1,
            locks: bucket_locks(entries),
            shared: false,
        }
    }

    /// The number of entries of a table of about `mb` MiB.
    fn entries_for(mb: usize, parent_links: bool) -> usize {
        let bytes = mb.max(1) << 20;
        let per_entry = std::mem::size_of::<Entry>()
            + if parent_links { std::mem::size_of::<NodeId>() } else { 0 };
        let buckets = (bytes / (BUCKET * per_entry)).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        buckets * BUCKET
    }

    /// A table whose entries live in the file at `path`, for searches under `rules`: opened,
    /// or created with the entries of an `mb`-MiB table if it is missing (an existing file
    /// keeps its own size). A file that was not closed cleanly has its entries checked once.
    /// SNDA's parent links (`parent_links`) stay in memory: they are a heuristic of one run.
    pub fn open_file(
        path: &Path,
        mb: usize,
        parent_links: bool,
        rules: Rules,
    ) -> Result<(Table, FileOpened), TableFileError> {
        let opened = TableFile::open(path, Self::entries_for(mb, parent_links), rules)?;
        let entries = Entries::in_file(opened.file);
        let len = entries.len();
        let mut table = Table {
            entries,
            parents: parent_links_for(parent_links, len),
            locks: bucket_locks(len),
            shared: false,
            mask: len / BUCKET - 1,
            generation: opened.generation,
        };
        let torn = if opened.was_dirty { table.empty_torn_entries() } else { 0 };
        let report =
            FileOpened { created: opened.created, entries: len, was_dirty: opened.was_dirty, torn };
        Ok((table, report))
    }

    /// The table file the entries live in, if any.
    pub fn file(&self) -> Option<&Path> {
        match &self.entries.owner {
            Owner::File(f) => Some(f.path()),
            Owner::Memory(_) => None,
        }
    }

    /// Asks the OS to write a table file's entries out (no wait; nothing without a file).
    pub fn flush(&self) -> std::io::Result<()> {
        match &self.entries.owner {
            Owner::File(f) => f.flush_async(),
            Owner::Memory(_) => Ok(()),
        }
    }

    /// Empties every live entry whose check fails (torn by a kill); returns how many.
    fn empty_torn_entries(&mut self) -> usize {
        let mut torn = 0;
        for e in self.entries.iter_mut() {
            if e.amount != 0 && e.check != e.computed_check() {
                *e = Entry::default();
                torn += 1;
            }
        }
        torn
    }

    pub fn has_parent_links(&self) -> bool {
        !self.parents.is_empty()
    }

    /// Adds or drops SNDA's parent links, keeping the entries.
    pub fn set_parent_links(&mut self, parent_links: bool) {
        if parent_links != self.has_parent_links() {
            self.parents = parent_links_for(parent_links, self.entries.len());
        }
    }

    /// The recorded parent of an unsolved or solved entry of exactly this position.
    pub fn parent_of(&self, node: NodeId) -> Option<NodeId> {
        if self.parents.is_empty() {
            return None;
        }
        self.with_bucket(node.board, |start, bucket| {
            let i = bucket
                .iter()
                .position(|e| self.live(e) && e.board_key == node.board && e.hand == node.hand)?;
            // SAFETY: the bucket's lock (when shared) covers its parent links.
            let p = unsafe { *self.parents[start + i].get() };
            (p.board != 0 || p.hand != Hand::EMPTY).then_some(p)
        })
    }

    /// Lets several search threads use the table (each bucket is then locked while it is
    /// read or written), or ends that.
    pub fn set_shared(&mut self, shared: bool) {
        self.shared = shared;
    }

    /// Whether several search threads use the table now.
    #[inline]
    pub fn is_shared(&self) -> bool {
        self.shared
    }

    /// Runs `f` on the bucket of `board_key` (its first slot's index and its entries), under
    /// the bucket's lock when the table is shared.
    #[inline(always)]
    fn with_bucket<R>(&self, board_key: u64, f: impl FnOnce(usize, &mut [Entry]) -> R) -> R {
        let start = self.bucket(board_key).start;
        self.with_bucket_at(start, f)
    }

    #[inline(always)]
    fn with_bucket_at<R>(&self, start: usize, f: impl FnOnce(usize, &mut [Entry]) -> R) -> R {
        let _guard = self.lock(start / BUCKET);
        debug_assert!(start + BUCKET <= self.entries.len);
        // SAFETY: `start..start + BUCKET` is inside the table; the lock (shared table) or the
        // single user (see `unsafe impl Sync`) makes this the only reference to the bucket.
        let bucket =
            unsafe { std::slice::from_raw_parts_mut(self.entries.ptr.as_ptr().add(start), BUCKET) };
        f(start, bucket)
    }

    #[inline(always)]
    fn lock(&self, bucket: usize) -> BucketGuard<'_> {
        if !self.shared {
            return BucketGuard(None);
        }
        let lock = &self.locks[bucket];
        while lock.compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed).is_err()
        {
            std::hint::spin_loop();
        }
        BucketGuard(Some(lock))
    }

    /// Forgets every entry: a new generation, and a real wipe once every 255 generations.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entries.iter_mut().for_each(|e| *e = Entry::default());
            self.generation = 1;
        }
        if let Owner::File(f) = &mut self.entries.owner {
            f.set_generation(self.generation);
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
            // SAFETY: the offset is inside the table; no reference is made.
            let ptr = unsafe { self.entries.ptr.as_ptr().add(first) }.cast::<i8>().cast_const();
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
        self.with_bucket(board_key, |_, bucket| self.lookup_in(bucket, board_key, hand, depth))
    }

    #[inline(always)]
    fn lookup_in(&self, bucket: &[Entry], board_key: u64, hand: Hand, depth: u16) -> Option<Known> {
        let mut exact = None;
        let mut proof: Option<Known> = None;
        for e in bucket {
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
        self.with_bucket(board_key, |_, bucket| {
            let mut dn = 0;
            for e in bucket.iter() {
                let unsolved = self.live(e) && e.board_key == board_key && e.pn != 0 && e.dn != 0;
                if unsolved && hand.is_superior_or_equal(e.hand) {
                    dn = dn.max(e.dn);
                }
            }
            dn
        })
    }

    /// Stores a result. For solved results `hand` is the proof or disproof pieces, `len` the
    /// mate length of a proof and `depth` the remaining depth a disproof holds for.
    #[inline]
    pub fn store(&self, board_key: u64, hand: Hand, value: Stored, parent: Option<NodeId>) {
        self.with_bucket(board_key, |start, bucket| {
            let slot = self.store_slot(start, bucket, board_key, hand, value);
            if let (Some(link), Some(p)) = (slot.and_then(|s| self.parents.get(s)), parent) {
                // SAFETY: under the bucket's lock (shared) or by the table's single user.
                unsafe { *link.get() = p };
            }
        })
    }

    /// Stores a result in its bucket and returns the slot it went to (`None`: not stored).
    fn store_slot(
        &self,
        start: usize,
        bucket: &mut [Entry],
        board_key: u64,
        hand: Hand,
        value: Stored,
    ) -> Option<usize> {
        let Stored { pn, dn, len, depth, amount } = value;
        let amount = amount.max(1);
        let solved = pn == 0 || dn == 0;
        let generation = self.generation;
        let mut victim = 0;
        let mut victim_score = u64::MAX;
        for (i, e) in bucket.iter_mut().enumerate() {
            if e.generation != generation {
                e.amount = 0;
            }
            let e_solved = e.pn == 0 || e.dn == 0;
            if e.amount != 0 && e.board_key == board_key {
                let amount = amount.max(e.amount);
                let new = Entry::new(board_key, hand, pn, dn, amount, len, depth, generation);
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
        bucket[victim] = Entry::new(board_key, hand, pn, dn, amount, len, depth, generation);
        Some(start + victim)
    }

    /// Garbage collection when the table is nearly full: frees the unsolved entries of least
    /// search effort (about half of the unsolved ones, judged from a sample), so that new work
    /// finds free slots in every bucket instead of evicting within crowded ones. Solved
    /// entries are kept. Returns the number of entries freed.
    pub fn collect_garbage(&self) -> usize {
        let buckets = self.entries.len / BUCKET;
        let step = (self.entries.len / 4096).max(1);
        let mut sample: Vec<u32> = Vec::with_capacity(self.entries.len / step + 1);
        for i in (0..self.entries.len).step_by(step) {
            let start = i - i % BUCKET;
            self.with_bucket_at(start, |_, bucket| {
                let e = &bucket[i - start];
                if self.live(e) && e.pn != 0 && e.dn != 0 {
                    sample.push(e.amount);
                }
            });
        }
        if sample.is_empty() {
            return 0;
        }
        let mid = sample.len() / 2;
        let threshold = *sample.select_nth_unstable(mid).1;
        let mut freed = 0;
        for b in 0..buckets {
            self.with_bucket_at(b * BUCKET, |_, bucket| {
                for e in bucket.iter_mut() {
                    if self.live(e) && e.pn != 0 && e.dn != 0 && e.amount <= threshold {
                        e.amount = 0;
                        freed += 1;
                    }
                }
            });
        }
        freed
    }

    /// Fill in permille, sampled from the first thousand slots.
    pub fn hashfull(&self) -> u32 {
        let buckets = (self.entries.len / BUCKET).clamp(1, 1000 / BUCKET);
        let mut used = 0;
        for b in 0..buckets {
            used += self.with_bucket_at(b * BUCKET, |_, bucket| {
                bucket.iter().filter(|e| self.live(e)).count()
            });
        }
        (used * 1000 / (buckets * BUCKET)) as u32
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
        let t = Table::new(1, false);
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
        let t = Table::new(1, false);
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
        let t = Table::new(1, false);
        let key = 42 << 1;
        let h = hand(&[(Pawn, 1)]);
        t.store(key, h, solved(0, INF, 3, UNBOUNDED), None);
        t.store(key, h, Stored { pn: 5, dn: 5, len: 0, depth: UNBOUNDED, amount: 1000 }, None);
        assert!(t.lookup(key, h, UNBOUNDED).is_some_and(|k| k.pn == 0 && k.len == 3));
        t.store(key, h, solved(0, INF, 1, UNBOUNDED), None);
        assert!(t.lookup(key, h, UNBOUNDED).is_some_and(|k| k.len == 1), "the shorter proof wins");
    }

    /// A fresh path in the temp dir, removed on drop.
    struct TempPath(std::path::PathBuf);
    impl TempPath {
        fn new(name: &str) -> TempPath {
            use std::sync::atomic::{AtomicU32, Ordering};
            static N: AtomicU32 = AtomicU32::new(0);
            let n = N.fetch_add(1, Ordering::Relaxed);
            let file = format!("tsumugi-tt-table-{}-{n}-{name}", std::process::id());
            TempPath(std::env::temp_dir().join(file))
        }
    }
    impl Drop for TempPath {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    fn open(path: &Path) -> (Table, FileOpened) {
        Table::open_file(path, 1, false, Rules::Tsume).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_proof_outlives_the_process_that_found_it() {
        let file = TempPath::new("reopen");
        let key = 0x1234_5678_9abc_def0;
        let h = hand(&[(Gold, 1)]);
        let (mut t, opened) = open(&file.0);
        assert!(opened.created);
        t.store(key, h, solved(0, INF, 7, UNBOUNDED), None);
        t.store(key ^ 0xff00, h, solved(INF, 0, 0, 9), None);
        t.clear(); // a file keeps its generation in its header
        t.store(key ^ 0xf000, h, solved(0, INF, 3, UNBOUNDED), None);
        drop(t);
        let (t, opened) = open(&file.0);
        assert!(!opened.created && !opened.was_dirty, "{opened:?}");
        assert!(t.lookup(key, h, UNBOUNDED).is_none(), "of an older generation");
        assert!(t.lookup(key ^ 0xf000, h, UNBOUNDED).is_some_and(|k| k.pn == 0 && k.len == 3));
        assert!(t.lookup(key ^ 0xf000, hand(&[(Gold, 2)]), UNBOUNDED).is_some());
        // A table in memory of the same size knows nothing.
        assert!(Table::new(1, false).lookup(key ^ 0xf000, h, UNBOUNDED).is_none());
    }

    #[test]
    fn a_dirty_file_has_its_torn_entries_emptied_and_keeps_the_others() {
        let file = TempPath::new("torn");
        let h = hand(&[(Pawn, 1)]);
        let keys: Vec<u64> =
            (1..=200u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & !1).collect();
        let (t, _) = open(&file.0);
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, h, solved(0, INF, 1 + 2 * (i as u16 % 5), UNBOUNDED), None);
        }
        drop(t);
        // Tear the entry of keys[0] as a kill between two of its stores would (one word of it
        // from another entry: here its pn/hand word changed), and mark the file dirty.
        let mut bytes = std::fs::read(&file.0).unwrap_or_else(|e| panic!("{e}"));
        let base = crate::table_file::HEADER_BYTES;
        let slot = (0..bytes.len().saturating_sub(base) / ENTRY_SIZE)
            .find(|i| {
                let at = base + i * ENTRY_SIZE;
                bytes[at..at + 8] == keys[0].to_ne_bytes()
            })
            .unwrap_or_else(|| panic!("entry of keys[0] not in the file"));
        let at = base + slot * ENTRY_SIZE;
        bytes[at + 12..at + 16].copy_from_slice(&5u32.to_ne_bytes()); // pn 0 -> 5
        bytes[42] = 1; // dirty
        std::fs::write(&file.0, &bytes).unwrap_or_else(|e| panic!("{e}"));

        let (t, opened) = open(&file.0);
        assert!(opened.was_dirty && opened.torn == 1, "{opened:?}");
        assert!(t.lookup(keys[0], h, UNBOUNDED).is_none(), "the torn entry is gone");
        for &k in &keys[1..] {
            assert!(t.lookup(k, h, UNBOUNDED).is_some_and(|e| e.pn == 0), "{k:x} kept");
        }
        drop(t);
        // Without the dirty flag nothing is checked (and a clean close cleared it).
        let (_, opened) = open(&file.0);
        assert!(!opened.was_dirty && opened.torn == 0);
    }

    #[test]
    fn the_attacker_salts_the_key() {
        let sfen = |s: &str| Position::from_sfen(s).unwrap_or_else(|e| panic!("{e:?}"));
        // 図巧1 has every piece in play: Black attacking, no salt (keys as without salts).
        let full = sfen("1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1");
        assert_eq!(key_salt(&full, Color::Black), 0);
        assert_eq!(key_salt(&full, Color::White), WHITE_ATTACKS_SALT);
        // Two golds and a pawn only: another piece set, other keys.
        let pos = sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1");
        assert_ne!(key_salt(&pos, Color::Black), 0);
        let black = key_salt(&pos, Color::Black);
        let white = key_salt(&pos, Color::White);
        assert_ne!(black, white);
        assert_eq!((black ^ white) & 1, 0, "the side-to-move bit is kept");
        assert_eq!(black ^ white, WHITE_ATTACKS_SALT);
    }

    #[test]
    fn threads_sharing_the_table_never_see_a_torn_entry() {
        // Two writers fill one small table (many evictions) while a reader looks up: every
        // proof read back has exactly the length its writer stored for that key.
        let mut t = Table::new(1, true);
        t.set_shared(true);
        let h = hand(&[(Pawn, 1)]);
        let len_of = |key: u64| (key % 997) as u16 + 1;
        let keys = |seed: u64| (0..200_000u64).map(move |i| ((i * 2 + seed) << 1) | 2);
        std::thread::scope(|scope| {
            for seed in 0..2 {
                let t = &t;
                scope.spawn(move || {
                    for key in keys(seed) {
                        let parent = NodeId { board: key, hand: h };
                        t.store(key, h, solved(0, INF, len_of(key), UNBOUNDED), Some(parent));
                    }
                });
            }
            let t = &t;
            scope.spawn(move || {
                let mut seen = 0;
                for key in keys(0).chain(keys(1)) {
                    if let Some(k) = t.lookup(key, h, UNBOUNDED) {
                        assert_eq!((k.pn, k.len), (0, len_of(key)), "key {key:#x}");
                        seen += 1;
                    }
                    if let Some(p) = t.parent_of(NodeId { board: key, hand: h }) {
                        assert_eq!(p.board, key);
                    }
                }
                seen
            });
        });
        t.set_shared(false);
        assert!(t.hashfull() > 0);
    }
}
