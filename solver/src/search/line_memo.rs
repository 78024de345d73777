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

use super::main_line::MateLen;
use shogi::Move;
use std::collections::{HashMap, HashSet};

/// A value of the memo.
#[derive(Copy, Clone, Debug)]
pub(super) struct Known {
    pub(super) len: Option<MateLen>,
    pub(super) best: Move,
    /// The memo's epoch when this value was last known to be fresh.
    pub(super) epoch: u32,
}

/// One value of a position, and the positions of the path it rests on.
struct Entry {
    deps: Box<[u64]>,
    /// No repetition was met below it, not even of the position itself.
    clean: bool,
    known: Known,
}

/// A position being valued, with what its value has met so far.
struct Valuing {
    key: u64,
    deps: Vec<u64>,
    clean: bool,
}

/// The most values kept for one position (with different dependencies); the oldest goes.
const ENTRIES_PER_KEY: usize = 8;

#[derive(Default)]
pub(super) struct LineMemo {
    values: HashMap<u64, Vec<Entry>>,
    /// Futility tests settled or cut short, by the key of the tested position.
    pub(super) futile: HashMap<u64, bool>,
    /// For each position valued, the positions whose values read it (see
    /// [`LineMemo::forget_above`]).
    readers: HashMap<u64, Vec<u64>>,
    /// The positions being valued, from the outermost.
    computing: Vec<Valuing>,
    /// Bumped at each shorter mate found: a value of an earlier epoch is checked against the
    /// table once before it is used again.
    pub(super) epoch: u32,
}

impl LineMemo {
    /// The value of `key` that holds on `path` (the keys from the root to the position), and
    /// notes its dependencies for the position being valued. Records the reader either way.
    pub(super) fn read(&mut self, key: u64, path: &[u64]) -> Option<Known> {
        if let Some(reader) = self.computing.last().map(|v| v.key) {
            let readers = self.readers.entry(key).or_default();
            if !readers.contains(&reader) {
                readers.push(reader);
            }
        }
        let entry = self.find(key, path)?;
        let (known, deps, clean) = (entry.known, entry.deps.clone(), entry.clean);
        self.note(&deps, clean);
        Some(known)
    }

    /// The value of `key` that holds on `path`, without noting anything.
    pub(super) fn peek(&self, key: u64, path: &[u64]) -> Option<Known> {
        self.find(key, path).map(|e| e.known)
    }

    /// The value of `key` if it met no repetition at all, for a look at a position off the
    /// path (not entered), where a value's dependencies cannot be judged. (Not every value
    /// that holds on any path: one whose line came back to the position itself holds on any
    /// path too, but the detours of `Search::preferred_defence` are judged on the values
    /// that met none, as when the memo kept only those by key: with those others, 将棋図巧22's
    /// △５四歩 became a detour and the answer 49 plies for the record's 51.)
    pub(super) fn peek_clean(&self, key: u64) -> Option<Known> {
        self.values.get(&key)?.iter().find(|e| e.clean).map(|e| e.known)
    }

    fn find(&self, key: u64, path: &[u64]) -> Option<&Entry> {
        self.values.get(&key)?.iter().rev().find(|e| e.deps.iter().all(|d| path.contains(d)))
    }

    /// Marks the value of `key` that holds on `path` fresh in this epoch.
    pub(super) fn refresh(&mut self, key: u64, path: &[u64]) {
        let epoch = self.epoch;
        let entries = self.values.get_mut(&key).into_iter().flatten();
        if let Some(e) = entries.rev().find(|e| e.deps.iter().all(|d| path.contains(d))) {
            e.known.epoch = epoch;
        }
    }

    /// The position being valued met a repetition of `key`, a position of the path.
    pub(super) fn repetition(&mut self, key: u64) {
        self.note(&[key], false);
    }

    fn note(&mut self, deps: &[u64], clean: bool) {
        if let Some(valuing) = self.computing.last_mut() {
            valuing.clean &= clean;
            for &d in deps {
                if !valuing.deps.contains(&d) {
                    valuing.deps.push(d);
                }
            }
        }
    }

    /// Starts valuing `key`.
    pub(super) fn begin(&mut self, key: u64) {
        self.computing.push(Valuing { key, deps: Vec::new(), clean: true });
    }

    /// Ends valuing the position [`LineMemo::begin`] started, keeping `known` (`None`: the
    /// valuing was cut short, nothing is kept). A repetition of the position itself met below
    /// it is no dependency: wherever it is valued, it is on the path.
    pub(super) fn end(&mut self, known: Option<Known>) {
        let Some(Valuing { key, mut deps, clean }) = self.computing.pop() else { return };
        deps.retain(|&d| d != key);
        if let Some(known) = known {
            let entries = self.values.entry(key).or_default();
            entries.retain(|e| *e.deps != *deps);
            if entries.len() >= ENTRIES_PER_KEY {
                entries.remove(0);
            }
            entries.push(Entry { deps: deps.clone().into_boxed_slice(), clean, known });
        }
        self.note(&deps, clean);
    }

    /// Forgets the value of `key` and of every position whose value was read from it, directly
    /// or not: after a shorter mate was found at `key`, exactly the values that may now be
    /// shorter. The others keep theirs, which stay the lengths of real mates; one that a
    /// shorter mate found elsewhere makes stale is caught when it is read in a later epoch
    /// (see `Search::line_value`) or when the refinement asks its question.
    pub(super) fn forget_above(&mut self, key: u64) {
        let mut todo = vec![key];
        let mut seen: HashSet<u64> = HashSet::new();
        while let Some(k) = todo.pop() {
            if !seen.insert(k) {
                continue;
            }
            self.values.remove(&k);
            if let Some(readers) = self.readers.get(&k) {
                todo.extend(readers.iter().copied());
            }
        }
        self.epoch += 1;
    }
}
