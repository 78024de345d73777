//! The storage under shtsume's position table (`zfolder_t`, `mcard_t`, `tlist_t` and their
//! pools in ntbase.c), kept in the same shape so that the table's answers come out the same.
//!
//! Order matters to shtsume's table: a lookup walks a board's cards from the newest and stops
//! at the first decisive one, and the unknown numbers it gathers on the way depend on which
//! cards it has passed. So the cards of one board and the records of one card are singly
//! linked lists, new ones put in front, as in shtsume.
//!
//! Cards and records live in two arenas with last-in-first-out free lists, as shtsume's pools
//! do. That keeps one more behaviour: the search holds a card of its path by address
//! (`tbase_set_current`) and clears its flag through that address on the way back, even if a
//! proof in between has freed the card and a later card reuses its place. With the same
//! allocation order our slot numbers are shtsume's pool indices, and the same card gets the
//! write.

use shogi::Hand;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// An index into one of the arenas.
pub(super) type Slot = u32;
/// The end of a list.
pub(super) const NIL: Slot = u32::MAX;
/// A record valid at every depth (`ALL_DEPTH`): the one record of a proof or a disproof.
pub(super) const ALL_DEPTHS: i16 = -1;

/// What is known of one board with one attacker hand (`mcard_t`): a proof hand, a disproof
/// hand, or the hand the position was searched with (unknown). The status is that of its first
/// record.
#[derive(Clone, Copy, Debug)]
pub(super) struct Card {
    pub hand: Hand,
    /// The next card of the same board.
    pub next: Slot,
    /// The first of the card's records, never `NIL` while the card is in use.
    pub records: Slot,
    /// pn threshold the position is searched under while on the current path (`cpn`).
    pub cpn: u16,
    /// Pieces of the proof hand left in hand at the mate (`nouse`, 6 bits in shtsume).
    pub nouse: u8,
    /// The mate leaves pieces of the proof hand in hand (`hinc`).
    pub hinc: bool,
    /// The position is on the current path (`current`).
    pub current: bool,
}

/// The numbers of a card at one depth from the root (`tlist_t`); proofs and disproofs have a
/// single record at [`ALL_DEPTHS`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Record {
    pub next: Slot,
    pub depth: i16,
    pub pn: u16,
    pub dn: u16,
    pub sh: u16,
}

/// Hashes a board key by itself: Zobrist keys are already uniform.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// Counts of what the store holds, for reporting its memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreCounts {
    pub boards: usize,
    pub cards: usize,
    pub records: usize,
    /// The most records held at once (shtsume's `num`, what decides its collections).
    pub peak_records: usize,
}

/// Boards, their cards and the cards' records.
#[derive(Default)]
pub(super) struct Store {
    /// Board key (with the side to move) to the board's first card (`zfolder_t`).
    boards: HashMap<u64, Slot, BuildHasherDefault<KeyHasher>>,
    cards: Vec<Card>,
    free_cards: Vec<Slot>,
    records: Vec<Record>,
    free_records: Vec<Slot>,
    live_records: usize,
    peak_records: usize,
}

impl Store {
    /// The first card of `key`'s board, `None` if the board is not in the table.
    pub fn first_card(&self, key: u64) -> Option<Slot> {
        self.boards.get(&key).copied()
    }
    pub fn set_first_card(&mut self, key: u64, card: Slot) {
        self.boards.insert(key, card);
    }

    pub fn card(&self, c: Slot) -> &Card {
        &self.cards[c as usize]
    }
    pub fn card_mut(&mut self, c: Slot) -> &mut Card {
        &mut self.cards[c as usize]
    }
    pub fn record(&self, r: Slot) -> &Record {
        &self.records[r as usize]
    }
    pub fn record_mut(&mut self, r: Slot) -> &mut Record {
        &mut self.records[r as usize]
    }
    /// The first record of card `c`, whose numbers give the card's status.
    pub fn head(&self, c: Slot) -> &Record {
        self.record(self.card(c).records)
    }

    /// A new record, reusing the most recently freed place first (`tlist_alloc`).
    pub fn new_record(&mut self, depth: i16, pn: u16, dn: u16, sh: u16) -> Slot {
        let record = Record { next: NIL, depth, pn, dn, sh };
        self.live_records += 1;
        self.peak_records = self.peak_records.max(self.live_records);
        place(&mut self.records, &mut self.free_records, record)
    }

    /// Frees the list of records from `r` on (`tlist_free`).
    pub fn free_records_from(&mut self, mut r: Slot) {
        // shtsume puts the freed chain back as one block, its head on top.
        let first_freed = self.free_records.len();
        while r != NIL {
            self.free_records.push(r);
            self.live_records -= 1;
            r = self.record(r).next;
        }
        self.free_records[first_freed..].reverse();
    }

    /// A new card with one record, reusing the most recently freed place first
    /// (`mcard_alloc`).
    pub fn new_card(&mut self, hand: Hand, record: Slot) -> Slot {
        let card = Card {
            hand,
            next: NIL,
            records: record,
            cpn: 0,
            nouse: 0,
            hinc: false,
            current: false,
        };
        place(&mut self.cards, &mut self.free_cards, card)
    }

    /// Puts card `c` in front of `key`'s board, creating the board if needed.
    pub fn push_card(&mut self, key: u64, c: Slot) {
        let next = self.first_card(key).unwrap_or(NIL);
        self.card_mut(c).next = next;
        self.set_first_card(key, c);
    }

    /// Takes card `c` (whose predecessor is `prev`, `NIL` if first) out of `key`'s board and
    /// frees it and its records; returns the card that followed it.
    pub fn remove_card(&mut self, key: u64, prev: Slot, c: Slot) -> Slot {
        let next = self.card(c).next;
        if prev == NIL {
            self.set_first_card(key, next);
        } else {
            self.card_mut(prev).next = next;
        }
        let records = self.card(c).records;
        self.free_records_from(records);
        self.card_mut(c).records = NIL;
        self.free_cards.push(c);
        next
    }

    /// Clears the path flag of the card at slot `c`, whatever it now holds: shtsume writes
    /// through the address it kept (see the module's comment).
    pub fn clear_current(&mut self, c: Slot) {
        if let Some(card) = self.cards.get_mut(c as usize) {
            card.current = false;
        }
    }

    /// The records of card `c`, in list order.
    pub fn records(&self, c: Slot) -> impl Iterator<Item = &Record> {
        let mut r = self.card(c).records;
        std::iter::from_fn(move || {
            let record = self.records.get(r as usize)?;
            r = record.next;
            Some(record)
        })
    }

    pub fn counts(&self) -> StoreCounts {
        StoreCounts {
            boards: self.boards.len(),
            cards: self.cards.len() - self.free_cards.len(),
            records: self.live_records,
            peak_records: self.peak_records,
        }
    }

    /// Bytes held by the arenas and the board map (capacities, not only what is in use).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        // hashbrown: one control byte per bucket besides the entry.
        let board = size_of::<(u64, Slot)>() + 1;
        self.boards.capacity() * board
            + self.cards.capacity() * size_of::<Card>()
            + self.records.capacity() * size_of::<Record>()
            + (self.free_cards.capacity() + self.free_records.capacity()) * size_of::<Slot>()
    }
}

/// Puts `item` in the most recently freed place of `items` (shtsume's free lists), or at the
/// end when none is free; returns its place.
fn place<T>(items: &mut Vec<T>, free: &mut Vec<Slot>, item: T) -> Slot {
    match free.pop() {
        Some(at) => {
            items[at as usize] = item;
            at
        }
        None => {
            items.push(item);
            (items.len() - 1) as Slot
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_places_are_reused_last_in_first_out() {
        let mut s = Store::default();
        let r = s.new_record(0, 1, 1, 0);
        let a = s.new_card(Hand::EMPTY, r);
        s.push_card(7, a);
        let r = s.new_record(0, 1, 1, 0);
        let b = s.new_card(Hand::EMPTY, r);
        s.push_card(7, b);
        assert_eq!((a, b), (0, 1));
        // b is first, a second: remove a, then b.
        assert_eq!(s.remove_card(7, b, a), NIL);
        assert_eq!(s.remove_card(7, NIL, b), NIL);
        let r = s.new_record(0, 1, 1, 0);
        assert_eq!(s.new_card(Hand::EMPTY, r), b, "the last freed card comes back first");
        assert_eq!(s.counts().records, 1);
        assert_eq!(s.counts().peak_records, 2);
    }

    #[test]
    fn a_freed_chain_comes_back_head_first() {
        let mut s = Store::default();
        let r0 = s.new_record(0, 1, 1, 0);
        let r1 = s.new_record(1, 1, 1, 0);
        s.record_mut(r1).next = r0;
        s.free_records_from(r1);
        assert_eq!(s.new_record(2, 1, 1, 0), r1);
        assert_eq!(s.new_record(3, 1, 1, 0), r0);
    }
}
