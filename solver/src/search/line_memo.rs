//! The main line's memo: the value of each position valued (see `main_line`), by position
//! key, with the positions of the path that the value rests on.
//!
//! A value that met a repetition (a check or a defence that goes back to a position of the
//! path, which mates nothing) holds only where the path passes through that position again.
//! Such a value is kept with those positions, its *dependencies*, and is used again wherever
//! the path holds them all; a value that met none holds on any path. Keyed by the whole path
//! instead, the memo valued 無銭旅行 (a 645-ply problem whose king walks the same circuit again
//! and again, every value resting on some repetition of it) 6.8 M times for 4,668 positions
//! whose value held on any path: 40 s for its first line, 430 s in all.
//!
//! **Storage.** Values, their dependencies and the readers live in a few pooled vectors, with
//! per-key lists threaded through them: a memo of a long problem holds hundreds of thousands
//! of values, and with a small allocation for each, freeing it took 66 ms (橋本587手詰, 105,000
//! values), all of it after a `stop`.

use super::key_hasher::{KeyMap, KeySet};
use super::main_line::MateLen;
use shogi::Move;

/// A value of the memo.
#[derive(Copy, Clone, Debug)]
pub(super) struct Known {
    pub(super) len: Option<MateLen>,
    pub(super) best: Move,
    /// The memo's epoch when this value was last known to be fresh.
    pub(super) epoch: u32,
}

/// The end of a list threaded through a pool.
const NONE: u32 = u32::MAX;

/// One value of a position, and the positions of the path it rests on
/// (`deps[deps_at..deps_at + deps_len]`); `next`: the position's next (older) value.
struct Entry {
    deps_at: u32,
    deps_len: u32,
    /// No repetition was met below it, not even of the position itself.
    clean: bool,
    known: Known,
    next: u32,
}

/// A position being valued, with what its value has met so far.
struct Valuing {
    key: u64,
    deps: Vec<u64>,
    clean: bool,
}

/// The most values kept for one position (with different dependencies); older ones are
/// dropped from its list.
const ENTRIES_PER_KEY: usize = 8;

#[derive(Default)]
pub(super) struct LineMemo {
    /// Each position's newest value, in `entries`.
    values: KeyMap<u64, u32>,
    entries: Vec<Entry>,
    deps: Vec<u64>,
    /// Futility tests settled or cut short, by the key of the tested position.
    pub(super) futile: KeyMap<u64, bool>,
    /// For each position valued, the first of the positions whose values read it (see
    /// [`LineMemo::forget_above`]), in `reader_links` (reader, next).
    readers: KeyMap<u64, u32>,
    reader_links: Vec<(u64, u32)>,
    /// The positions being valued, from the outermost.
    computing: Vec<Valuing>,
    /// Bumped at each shorter mate found: a value of an earlier epoch is checked against the
    /// table once before it is used again.
    pub(super) epoch: u32,
    /// Of the checks of equal value at an OR node, the first in the order of the moves is the
    /// line's, not the first whose proof the table held (see `RefineBudget::ties`).
    pub(super) in_order: bool,
    /// A helper's walk beside the main thread's (see `Search::walk_line_reversed`): the
    /// defences of each AND node in reverse order, so that its futility tests and proofs fill
    /// the shared table where the main thread comes last.
    pub(super) reversed: bool,
}

impl LineMemo {
    /// The value of `key` that holds on `path` (the keys from the root to the position), and
    /// notes its dependencies for the position being valued. Records the reader either way.
    pub(super) fn read(&mut self, key: u64, path: &[u64]) -> Option<Known> {
        if let Some(reader) = self.computing.last().map(|v| v.key) {
            self.add_reader(key, reader);
        }
        let i = self.find(key, path)?;
        let e = &self.entries[i];
        let (known, clean, at, len) = (e.known, e.clean, e.deps_at as usize, e.deps_len as usize);
        if let Some(valuing) = self.computing.last_mut() {
            valuing.clean &= clean;
            for &d in &self.deps[at..at + len] {
                if !valuing.deps.contains(&d) {
                    valuing.deps.push(d);
                }
            }
        }
        Some(known)
    }

    fn add_reader(&mut self, key: u64, reader: u64) {
        let head = self.readers.get(&key).copied().unwrap_or(NONE);
        let mut at = head;
        while at != NONE {
            let (r, next) = self.reader_links[at as usize];
            if r == reader {
                return;
            }
            at = next;
        }
        self.readers.insert(key, self.reader_links.len() as u32);
        self.reader_links.push((reader, head));
    }

    /// The value of `key` that holds on `path`, without noting anything.
    pub(super) fn peek(&self, key: u64, path: &[u64]) -> Option<Known> {
        self.find(key, path).map(|i| self.entries[i].known)
    }

    /// The value of `key` if it met no repetition at all, for a look at a position off the
    /// path (not entered), where a value's dependencies cannot be judged. (Not every value
    /// that holds on any path: one whose line came back to the position itself holds on any
    /// path too, but the detours of `Search::preferred_defence` are judged on the values
    /// that met none, as when the memo kept only those by key: with those others, 将棋図巧22's
    /// △５四歩 became a detour and the answer 49 plies for the record's 51.)
    pub(super) fn peek_clean(&self, key: u64) -> Option<Known> {
        self.list(key).find(|&i| self.entries[i].clean).map(|i| self.entries[i].known)
    }

    /// The values of `key`, newest first, as indices into `entries`.
    fn list(&self, key: u64) -> impl Iterator<Item = usize> + '_ {
        let mut at = self.values.get(&key).copied().unwrap_or(NONE);
        std::iter::from_fn(move || {
            (at != NONE).then(|| {
                let i = at as usize;
                at = self.entries[i].next;
                i
            })
        })
    }

    fn deps_of(&self, i: usize) -> &[u64] {
        let e = &self.entries[i];
        &self.deps[e.deps_at as usize..(e.deps_at + e.deps_len) as usize]
    }

    /// The newest value of `key` whose dependencies are all on `path`.
    fn find(&self, key: u64, path: &[u64]) -> Option<usize> {
        self.list(key).find(|&i| self.deps_of(i).iter().all(|d| path.contains(d)))
    }

    /// Marks the value of `key` that holds on `path` fresh in this epoch.
    pub(super) fn refresh(&mut self, key: u64, path: &[u64]) {
        if let Some(i) = self.find(key, path) {
            self.entries[i].known.epoch = self.epoch;
        }
    }

    /// The position being valued met a repetition of `key`, a position of the path.
    pub(super) fn repetition(&mut self, key: u64) {
        if let Some(valuing) = self.computing.last_mut() {
            valuing.clean = false;
            if !valuing.deps.contains(&key) {
                valuing.deps.push(key);
            }
        }
    }

    /// Starts valuing `key`.
    pub(super) fn begin(&mut self, key: u64) {
        self.computing.push(Valuing { key, deps: Vec::new(), clean: true });
    }

    /// Ends valuing the position [`LineMemo::begin`] started, keeping `known` (`None`: the
    /// valuing was cut short, nothing is kept), and passes its dependencies on to the position
    /// that read it. A repetition of the position itself met below it is no dependency:
    /// wherever it is valued, it is on the path.
    pub(super) fn end(&mut self, known: Option<Known>) {
        let Some(Valuing { key, mut deps, clean }) = self.computing.pop() else { return };
        deps.retain(|&d| d != key);
        if let Some(known) = known {
            self.keep(key, &deps, clean, known);
        }
        if let Some(reader) = self.computing.last_mut() {
            reader.clean &= clean;
            for d in deps {
                if !reader.deps.contains(&d) {
                    reader.deps.push(d);
                }
            }
        }
    }

    fn keep(&mut self, key: u64, deps: &[u64], clean: bool, known: Known) {
        // The same dependencies valued again: the old value leaves the list.
        let mut prev = None;
        let same = self.list(key).find(|&i| {
            let found = self.deps_of(i) == deps;
            if !found {
                prev = Some(i);
            }
            found
        });
        if let Some(i) = same {
            let next = self.entries[i].next;
            match prev {
                Some(p) => self.entries[p].next = next,
                None if next == NONE => _ = self.values.remove(&key),
                None => _ = self.values.insert(key, next),
            }
        }
        let head = self.values.get(&key).copied().unwrap_or(NONE);
        let deps_at = self.deps.len() as u32;
        self.deps.extend_from_slice(deps);
        let entry = Entry { deps_at, deps_len: deps.len() as u32, clean, known, next: head };
        self.values.insert(key, self.entries.len() as u32);
        self.entries.push(entry);
        // The list keeps the newest few: the last kept one ends it.
        let last = self.list(key).nth(ENTRIES_PER_KEY - 1);
        if let Some(last) = last {
            self.entries[last].next = NONE;
        }
    }

    /// Forgets the value of `key` and of every position whose value was read from it, directly
    /// or not: after a shorter mate was found at `key`, exactly the values that may now be
    /// shorter. The others keep theirs, which stay the lengths of real mates; one that a
    /// shorter mate found elsewhere makes stale is caught when it is read in a later epoch
    /// (see `Search::line_value`) or when the refinement asks its question.
    pub(super) fn forget_above(&mut self, key: u64) {
        let mut todo = vec![key];
        let mut seen: KeySet<u64> = KeySet::default();
        while let Some(k) = todo.pop() {
            if !seen.insert(k) {
                continue;
            }
            self.values.remove(&k);
            let mut at = self.readers.get(&k).copied().unwrap_or(NONE);
            while at != NONE {
                let (reader, next) = self.reader_links[at as usize];
                todo.push(reader);
                at = next;
            }
        }
        self.epoch += 1;
    }
}
