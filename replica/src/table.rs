//! shtsume's position table (`tbase`, ntbase.c): what is known of each board for each attacker
//! hand, with proofs and disproofs shared between hands by domination.
//!
//! A board (our board key, which like shtsume's `zkey` holds the pieces on the board and the
//! side to move, neither the hands nor the depth) has a list of cards, each for one attacker
//! hand (shtsume's `mkey`; the defender holds the rest):
//! - a **proof** card holds a proof hand: every hand at least as large is mated;
//! - a **disproof** card holds a disproof hand: every hand at most as large escapes;
//! - an **unknown** card holds the hand a position was searched with and one record of numbers
//!   per depth from the root it was searched at (shtsume's numbers depend on the path: the same
//!   position deeper has less room), besides a path flag with the pn threshold it is searched
//!   under, which a repetition on the path reads.
//!
//! Only the first proof's behaviour is ported (`tbase_lookup`, `tbase_update`,
//! `tbase_set_current`, `hs_tbase_lookup`), not the protection and path flags that its proof
//! tree refinement (`make_tree_lookup`, `make_tree_update`, `make_tree_set_item`) reads.
//!
//! The port answers as shtsume does call for call: `table_replay` replays the table calls a
//! patched shtsume logs during its first proofs (無銭旅行's 36 M calls among them) and finds
//! every entry, every card place and the peak of records equal.
//!
//! # No garbage collection
//! shtsume collects (`tbase_gc`) only when its pool of records (`tlist_t`) runs out; with
//! `-m 1024` the pool holds 1024 × 16384 − 1 = 16,777,215 records (and as many cards and
//! boards). Counted in a shtsume that logs its table calls: its first proofs keep at most
//! 0.6 to 0.67 live records per expansion (無銭旅行 3,613,198 at 5,882,882 expansions, メタ新世界
//! 4,574,299 at 6,859,993, 墨酔 634,483 at 907,861, Astral Traveler 705,849 at 1,160,764), none
//! collects, and a first proof would need some 25 M expansions to fill the pool. So this table
//! never forgets, and `hs_tbase_lookup`'s fallback after a collection (regenerate the evasions
//! and look each up) is not needed either.
//!
//! Memory: a card takes 20 bytes, a record 12, a board 17 in the map (with its control byte),
//! besides the arenas' and the map's growth slack. Replaying 無銭旅行's first proof (5,882,882
//! expansions: 2.06 M boards, 3.37 M cards, 3.61 M records at the end) the table held 187 MB
//! (203 MB resident), about 52 bytes a record; an 8 M-expansion first proof, some 5 M
//! records, would take about 250 to 300 MB.
//!
//! shtsume's other table, `mtt` (`create_mtt`, `mtt_lookup`, `mtt_setup`, `mtt_reset`: 2047
//! boards with exact hands), is not part of the search: only when the root's mate leaves
//! pieces over (`g_redundant`) do the walkers that print or report the proof tree
//! (`tsearchpv_update_or`, `tsume_print`, `tsume_debug`) mark the positions of the line they
//! follow in it, so that a child repeating one is flagged `cu` and not followed round a loop.

pub use super::table_store::StoreCounts;
use super::table_store::{Record, Slot, Store, ALL_DEPTHS, NIL};
use super::{Entry, ProvenLookup, INFINITE};
use shogi::{Color, Hand, Position};

/// How one hand stands to another (`MKEY_COMPARE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandOrder {
    Equal,
    /// At least as many of every kind, more of some.
    Superior,
    /// At most as many of every kind, fewer of some.
    Inferior,
    Other,
}

pub fn compare_hands(a: Hand, b: Hand) -> HandOrder {
    if a == b {
        HandOrder::Equal
    } else if a.is_superior_or_equal(b) {
        HandOrder::Superior
    } else if b.is_superior_or_equal(a) {
        HandOrder::Inferior
    } else {
        HandOrder::Other
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Proven,
    Disproven,
    Unknown,
}

/// What one walk over a board's cards found (`g_mcard`), in the order the table answers by.
#[derive(Default)]
struct Found {
    /// A proof of a hand at most the one asked (the smallest met, in an update).
    superior_proof: Option<Slot>,
    /// A disproof of a hand at least the one asked (the largest met, in an update).
    inferior_disproof: Option<Slot>,
    equal_proof: Option<Slot>,
    equal_disproof: Option<Slot>,
    equal_unknown: Option<Slot>,
}

/// The table: what is known of each position for the attacker's hand.
#[derive(Default)]
pub struct Table {
    /// The root's pn (`g_root_pn`): updates of unsolved positions are skipped above
    /// `INFINITE - root_pn`.
    pub root_pn: u16,
    store: Store,
}

/// A position marked as on the current path (`tbase_set_current`), to be cleared after: the
/// place of its card, which is written even if the card has been freed and reused meanwhile,
/// as shtsume does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurrentMark(pub usize);

impl Table {
    /// An empty table. shtsume sizes its pools from the megabytes; this one grows as needed
    /// (see the module's comment on collection), so the size is only accepted.
    pub fn new(_megabytes: usize) -> Table {
        Table::default()
    }

    /// Fills `entry`'s numbers from what is known of `pos` at `ply` plies from the root, with
    /// `attacker`'s hand (`tbase_lookup`). Fields the table has nothing to say about are left
    /// as they are, as shtsume leaves them.
    pub fn lookup(&mut self, pos: &Position, ply: u16, attacker: Color, entry: &mut Entry) {
        self.lookup_key(pos.board_key(), pos.hand(attacker), ply, entry);
    }

    /// Stores `entry`'s numbers for `pos` (`tbase_update`). An unsolved entry may come back
    /// changed: if the table already proves or disproves the position, the entry takes those
    /// numbers and that hand, and the search goes on with them.
    pub fn update(&mut self, pos: &Position, ply: u16, attacker: Color, entry: &mut Entry) {
        self.update_key(pos.board_key(), pos.hand(attacker), ply, entry);
    }

    /// Marks `pos` as on the path with the threshold pn it is searched under, `entry.pn`
    /// (`tbase_set_current`): a repetition of it below reads that pn. Always `Some`.
    pub fn set_current(
        &mut self,
        pos: &Position,
        ply: u16,
        attacker: Color,
        entry: &Entry,
    ) -> Option<CurrentMark> {
        Some(self.set_current_key(pos.board_key(), pos.hand(attacker), ply, entry))
    }

    /// Takes the path mark off (the search's `current->current = 0`).
    pub fn clear_current(&mut self, mark: CurrentMark) {
        self.store.clear_current(mark.0 as Slot);
    }

    /// What the table holds, for reporting.
    pub fn counts(&self) -> StoreCounts {
        self.store.counts()
    }

    /// Bytes the table holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.store.heap_bytes()
    }

    /// [`Table::lookup`] by board key and attacker hand.
    pub fn lookup_key(&mut self, key: u64, hand: Hand, ply: u16, entry: &mut Entry) {
        let Some(first) = self.store.first_card(key) else {
            set_numbers(entry, 1, 1, 0);
            return;
        };
        let mut found = Found::default();
        // Unknown cards of other hands bound the answer when the board has nothing better:
        // a smaller hand is at least as hard to mate, a larger one at most as hard.
        let (mut pn, mut dn) = (1u16, 1u16);
        let mut c = first;
        while c != NIL {
            let card = *self.store.card(c);
            match (compare_hands(hand, card.hand), self.status(c)) {
                (HandOrder::Superior, Status::Proven) => {
                    found.superior_proof = Some(c);
                    break;
                }
                (HandOrder::Superior, Status::Unknown) => {
                    pn = self.store.records(c).fold(pn, |pn, r| pn.min(r.pn));
                }
                (HandOrder::Inferior, Status::Disproven) => {
                    found.inferior_disproof = Some(c);
                    break;
                }
                (HandOrder::Inferior, Status::Unknown) => {
                    pn = self.store.records(c).fold(pn, |pn, r| pn.max(r.pn));
                    if card.current {
                        pn = pn.max(card.cpn);
                    }
                }
                (HandOrder::Equal, Status::Proven) => {
                    found.equal_proof.get_or_insert(c);
                }
                (HandOrder::Equal, Status::Disproven) => {
                    found.equal_disproof.get_or_insert(c);
                    break;
                }
                (HandOrder::Equal, Status::Unknown) => {
                    found.equal_unknown.get_or_insert(c);
                }
                // A proof of a larger hand or a disproof of a smaller one says nothing here.
                _ => {}
            }
            c = card.next;
        }

        if let Some(c) = found.superior_proof {
            let card = *self.store.card(c);
            self.copy_head(c, entry);
            entry.search = true;
            entry.hinc = card.hinc;
            // The proof hand is smaller than the hand held: the mate leaves pieces over.
            entry.inc = true;
            entry.nouse = card.nouse;
            entry.nouse2 = bits6(hand.total() - card.hand.total() + u32::from(card.nouse));
        } else if let Some(c) = found.inferior_disproof {
            self.copy_disproof(c, entry);
        } else if let Some(c) = found.equal_proof {
            let card = *self.store.card(c);
            self.copy_head(c, entry);
            entry.search = true;
            entry.hinc = card.hinc;
            entry.inc = card.hinc;
            entry.nouse = card.nouse;
            entry.nouse2 = card.nouse;
        } else if let Some(c) = found.equal_disproof {
            self.copy_disproof(c, entry);
        } else if let Some(c) = found.equal_unknown {
            let card = *self.store.card(c);
            if card.current {
                // A repetition of a position on the path: it is worth the threshold the path
                // searches it under, so that the search does not go round the loop.
                set_numbers(entry, card.cpn.max(1), 1, 0);
                entry.search = true;
                return;
            }
            let depth = ply as i16;
            let mut at_depth = None;
            for record in self.store.records(c) {
                if record.depth == depth {
                    at_depth = Some(*record);
                }
                pn = pn.max(record.pn);
                dn = dn.max(record.dn);
            }
            match at_depth {
                Some(record) => {
                    set_numbers(entry, record.pn, record.dn, record.sh);
                    entry.search = true;
                }
                None => {
                    // First met at this depth: start from the largest numbers of the others,
                    // and keep them as this depth's record.
                    let r = self.store.new_record(depth, pn, dn, 0);
                    self.store.record_mut(r).next = card.records;
                    self.store.card_mut(c).records = r;
                    set_numbers(entry, pn, dn, 0);
                }
            }
        } else {
            set_numbers(entry, pn, dn, 0);
        }
    }

    /// [`Table::update`] by board key and attacker hand.
    pub fn update_key(&mut self, key: u64, hand: Hand, ply: u16, entry: &mut Entry) {
        // An unsolved position near the root's threshold is not kept (`g_root_pn` is unsigned
        // in shtsume, so the difference wraps as there).
        let limit = u32::from(INFINITE).wrapping_sub(u32::from(self.root_pn));
        if entry.dn != 0 && u32::from(entry.pn) > limit {
            return;
        }
        if entry.pn == 0 {
            self.store_proof(key, hand, entry);
        } else if entry.dn == 0 {
            self.store_disproof(key, hand, entry);
        } else {
            self.store_unknown(key, hand, ply, entry);
        }
    }

    /// [`Table::set_current`] by board key and attacker hand.
    pub fn set_current_key(
        &mut self,
        key: u64,
        hand: Hand,
        ply: u16,
        entry: &Entry,
    ) -> CurrentMark {
        let mut c = self.store.first_card(key).unwrap_or(NIL);
        while c != NIL && self.store.card(c).hand != hand {
            c = self.store.card(c).next;
        }
        if c == NIL {
            let r = self.store.new_record(ply as i16, 1, 1, 0);
            c = self.store.new_card(hand, r);
            self.store.push_card(key, c);
        }
        let card = self.store.card_mut(c);
        card.current = true;
        card.cpn = entry.pn;
        CurrentMark(c as usize)
    }

    /// Whether the table proves the board `key` for the attacker's `hand`
    /// (`_hs_tbase_lookup`): `Some(true)` proven, `Some(false)` disproven or unknown, `None`
    /// nothing known.
    pub fn proven_key(&self, key: u64, hand: Hand) -> Option<bool> {
        let mut c = self.store.first_card(key)?;
        while c != NIL {
            match (compare_hands(hand, self.store.card(c).hand), self.status(c)) {
                (HandOrder::Equal | HandOrder::Superior, Status::Proven) => return Some(true),
                (HandOrder::Equal | HandOrder::Inferior, Status::Disproven) => return Some(false),
                (HandOrder::Equal, Status::Unknown) => return Some(false),
                _ => {}
            }
            c = self.store.card(c).next;
        }
        None
    }

    /// A proof: the card of the hand searched gives way to one of the proof hand, which
    /// replaces every card of a larger hand (all proven by it); an equal proof keeps the
    /// shorter mate (`tsumi_update`).
    fn store_proof(&mut self, key: u64, hand: Hand, entry: &Entry) {
        if self.store.first_card(key).is_none() {
            let c = self.new_solved_card(entry);
            self.store.push_card(key, c);
            return;
        }
        self.remove_hand(key, hand);
        let mut stored = false;
        let (mut prev, mut c) = (NIL, self.store.first_card(key).unwrap_or(NIL));
        while c != NIL {
            let card = *self.store.card(c);
            match compare_hands(entry.hand, card.hand) {
                HandOrder::Inferior => {
                    c = self.store.remove_card(key, prev, c);
                    continue;
                }
                HandOrder::Equal => {
                    match self.status(c) {
                        Status::Proven => {
                            // Keep the shorter mate, but a mate with pieces over (or without)
                            // where the stored one differs replaces it whatever its length.
                            if self.store.head(c).sh > entry.sh || card.hinc != entry.hinc {
                                self.store.record_mut(card.records).sh = entry.sh;
                                let card = self.store.card_mut(c);
                                card.hinc = entry.hinc;
                                card.nouse = bits6(u32::from(entry.nouse));
                            }
                        }
                        Status::Disproven => {
                            panic!("shtsume stops here: a proof hand equal to a disproof hand")
                        }
                        Status::Unknown => {
                            self.solve_unknown_card(c, entry);
                            let card = self.store.card_mut(c);
                            card.hinc = entry.hinc;
                            card.nouse = bits6(u32::from(entry.nouse));
                        }
                    }
                    stored = true;
                    let card = self.store.card(c);
                    assert!(
                        !card.hinc || card.nouse != 0,
                        "shtsume stops here: pieces left over at the mate but none counted"
                    );
                }
                HandOrder::Superior | HandOrder::Other => {}
            }
            prev = c;
            c = self.store.card(c).next;
        }
        if !stored {
            let c = self.new_solved_card(entry);
            self.store.push_card(key, c);
        }
    }

    /// A disproof: the card of the hand searched gives way to one of the disproof hand, which
    /// replaces every card of a smaller hand (`fudumi_update`).
    fn store_disproof(&mut self, key: u64, hand: Hand, entry: &Entry) {
        if self.store.first_card(key).is_none() {
            let c = self.new_solved_card(entry);
            self.reset_proof_fields(c);
            self.store.push_card(key, c);
            return;
        }
        self.remove_hand(key, hand);
        let mut stored = false;
        let (mut prev, mut c) = (NIL, self.store.first_card(key).unwrap_or(NIL));
        while c != NIL {
            match compare_hands(entry.hand, self.store.card(c).hand) {
                HandOrder::Superior => {
                    c = self.store.remove_card(key, prev, c);
                    continue;
                }
                HandOrder::Equal => {
                    match self.status(c) {
                        Status::Proven => {
                            panic!("shtsume stops here: a disproof hand equal to a proof hand")
                        }
                        // The same disproof hand: the first length found stays.
                        Status::Disproven => {}
                        Status::Unknown => self.solve_unknown_card(c, entry),
                    }
                    stored = true;
                }
                HandOrder::Inferior | HandOrder::Other => {}
            }
            prev = c;
            c = self.store.card(c).next;
        }
        if !stored {
            let c = self.new_solved_card(entry);
            self.reset_proof_fields(c);
            self.store.push_card(key, c);
        }
    }

    /// Puts card `c` in `kept` when none is kept yet or the kept card's hand stands in
    /// `order` to `c`'s (the smaller proof hand, the larger disproof hand).
    fn keep_if(&self, kept: &mut Option<Slot>, c: Slot, order: HandOrder) {
        let hand = self.store.card(c).hand;
        if kept.is_none_or(|best| compare_hands(self.store.card(best).hand, hand) == order) {
            *kept = Some(c);
        }
    }

    /// Unsolved numbers at one depth (`fumei_update`). If the table already solves the
    /// position, `entry` takes the table's numbers and hand instead. Otherwise unknown cards of
    /// other hands are bounded by the new pn (a smaller hand at least, a larger one at most;
    /// not those on the path) and this hand's other depths take it.
    fn store_unknown(&mut self, key: u64, hand: Hand, ply: u16, entry: &mut Entry) {
        let depth = ply as i16;
        let Some(first) = self.store.first_card(key) else {
            let c = self.new_unknown_card(hand, depth, entry);
            self.store.push_card(key, c);
            return;
        };
        let mut found = Found::default();
        let mut c = first;
        while c != NIL {
            let card = *self.store.card(c);
            match (compare_hands(hand, card.hand), self.status(c)) {
                (HandOrder::Superior, Status::Proven) => {
                    // Keep the smallest proof hand met.
                    self.keep_if(&mut found.superior_proof, c, HandOrder::Superior);
                }
                (HandOrder::Superior, Status::Unknown) if !card.current => {
                    self.for_each_record(c, |r| r.pn = r.pn.max(entry.pn));
                }
                (HandOrder::Inferior, Status::Disproven) => {
                    // Keep the largest disproof hand met.
                    self.keep_if(&mut found.inferior_disproof, c, HandOrder::Inferior);
                }
                (HandOrder::Inferior, Status::Unknown) if !card.current => {
                    self.for_each_record(c, |r| r.pn = r.pn.min(entry.pn));
                }
                (HandOrder::Equal, Status::Proven) => {
                    found.equal_proof.get_or_insert(c);
                }
                (HandOrder::Equal, Status::Disproven) => {
                    found.equal_disproof.get_or_insert(c);
                }
                (HandOrder::Equal, Status::Unknown) => {
                    found.equal_unknown.get_or_insert(c);
                }
                _ => {}
            }
            c = card.next;
        }

        let solved = found
            .superior_proof
            .or(found.inferior_disproof)
            .or(found.equal_proof)
            .or(found.equal_disproof);
        if let Some(c) = solved {
            self.copy_head(c, entry);
        } else if let Some(c) = found.equal_unknown {
            let mut at_depth = NIL;
            let mut r = self.store.card(c).records;
            while r != NIL {
                let record = self.store.record_mut(r);
                if record.depth == depth {
                    at_depth = r;
                } else {
                    record.pn = entry.pn;
                }
                r = record.next;
            }
            if at_depth == NIL {
                let r = self.store.new_record(depth, entry.pn, entry.dn, entry.sh);
                self.store.record_mut(r).next = self.store.card(c).records;
                self.store.card_mut(c).records = r;
            } else {
                let record = self.store.record_mut(at_depth);
                (record.pn, record.dn, record.sh) = (entry.pn, entry.dn, entry.sh);
            }
        } else {
            let c = self.new_unknown_card(hand, depth, entry);
            self.store.push_card(key, c);
        }
    }

    /// A card's status is that of its first record.
    fn status(&self, c: Slot) -> Status {
        let head = self.store.head(c);
        if head.pn == 0 {
            Status::Proven
        } else if head.dn == 0 {
            Status::Disproven
        } else {
            Status::Unknown
        }
    }

    fn for_each_record(&mut self, c: Slot, mut f: impl FnMut(&mut Record)) {
        let mut r = self.store.card(c).records;
        while r != NIL {
            let record = self.store.record_mut(r);
            f(record);
            r = record.next;
        }
    }

    /// Frees the first card of exactly `hand` on `key`'s board, if any.
    fn remove_hand(&mut self, key: u64, hand: Hand) {
        let (mut prev, mut c) = (NIL, self.store.first_card(key).unwrap_or(NIL));
        while c != NIL {
            if self.store.card(c).hand == hand {
                self.store.remove_card(key, prev, c);
                return;
            }
            prev = c;
            c = self.store.card(c).next;
        }
    }

    /// A card of `entry`'s proof or disproof hand with its one record at every depth.
    fn new_solved_card(&mut self, entry: &Entry) -> Slot {
        let r = self.store.new_record(ALL_DEPTHS, entry.pn, entry.dn, entry.sh);
        let c = self.store.new_card(entry.hand, r);
        let card = self.store.card_mut(c);
        card.hinc = entry.hinc;
        card.nouse = bits6(u32::from(entry.nouse));
        c
    }

    /// A disproof card says nothing of pieces left at a mate.
    fn reset_proof_fields(&mut self, c: Slot) {
        let card = self.store.card_mut(c);
        card.hinc = false;
        card.nouse = 0;
    }

    fn new_unknown_card(&mut self, hand: Hand, depth: i16, entry: &Entry) -> Slot {
        let r = self.store.new_record(depth, entry.pn, entry.dn, entry.sh);
        self.store.new_card(hand, r)
    }

    /// Turns an unknown card into a solved one: its first record becomes the solution at every
    /// depth, the others go.
    fn solve_unknown_card(&mut self, c: Slot, entry: &Entry) {
        let first = self.store.card(c).records;
        let rest = self.store.record(first).next;
        self.store.free_records_from(rest);
        let record = self.store.record_mut(first);
        record.next = NIL;
        record.depth = ALL_DEPTHS;
        (record.pn, record.dn, record.sh) = (entry.pn, entry.dn, entry.sh);
    }

    /// A disproof answers a lookup with no pieces left over.
    fn copy_disproof(&self, c: Slot, entry: &mut Entry) {
        self.copy_head(c, entry);
        entry.search = true;
        entry.hinc = false;
        entry.inc = false;
    }

    /// Copies card `c`'s numbers and hand into `entry`.
    fn copy_head(&self, c: Slot, entry: &mut Entry) {
        let head = *self.store.head(c);
        set_numbers(entry, head.pn, head.dn, head.sh);
        entry.hand = self.store.card(c).hand;
    }
}

impl ProvenLookup for Table {
    /// `hs_tbase_lookup`: `pos` is the position after an attacker's move tried in passing,
    /// the defender to move; only a check can be proven.
    fn is_proven(&self, pos: &Position, _ply: u16) -> bool {
        if !pos.in_check() {
            return false;
        }
        let attacker = !pos.side_to_move();
        self.proven_key(pos.board_key(), pos.hand(attacker)) == Some(true)
    }
}

fn set_numbers(entry: &mut Entry, pn: u16, dn: u16, sh: u16) {
    (entry.pn, entry.dn, entry.sh) = (pn, dn, sh);
}

/// shtsume keeps piece counts in 6-bit fields.
fn bits6(n: u32) -> u8 {
    (n & 0x3f) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::PieceKind::{self, *};

    const KEY: u64 = 0x1234_5678_9abc_def0;

    fn hand(pieces: &[(PieceKind, u32)]) -> Hand {
        let mut h = Hand::EMPTY;
        for &(kind, n) in pieces {
            h.set(kind, n);
        }
        h
    }

    fn proof(hand: Hand, sh: u16) -> Entry {
        Entry { pn: 0, dn: INFINITE, sh, hand, ..Entry::default() }
    }

    fn disproof(hand: Hand, sh: u16) -> Entry {
        Entry { pn: INFINITE, dn: 0, sh, hand, ..Entry::default() }
    }

    fn unknown(pn: u16, dn: u16, sh: u16) -> Entry {
        Entry { pn, dn, sh, ..Entry::default() }
    }

    fn look(t: &mut Table, h: Hand, ply: u16) -> Entry {
        let mut e = Entry::default();
        t.lookup_key(KEY, h, ply, &mut e);
        e
    }

    fn numbers(e: &Entry) -> (u16, u16, u16) {
        (e.pn, e.dn, e.sh)
    }

    #[test]
    fn hands_compare_kind_by_kind() {
        let p1 = hand(&[(Pawn, 1)]);
        let p1g1 = hand(&[(Pawn, 1), (Gold, 1)]);
        let s1 = hand(&[(Silver, 1)]);
        assert_eq!(compare_hands(p1, p1), HandOrder::Equal);
        assert_eq!(compare_hands(p1g1, p1), HandOrder::Superior);
        assert_eq!(compare_hands(p1, p1g1), HandOrder::Inferior);
        assert_eq!(compare_hands(p1, s1), HandOrder::Other);
    }

    #[test]
    fn an_unknown_board_reads_one_one() {
        let mut t = Table::new(1);
        let e = look(&mut t, Hand::EMPTY, 3);
        assert_eq!(numbers(&e), (1, 1, 0));
        assert!(!e.search);
    }

    #[test]
    fn a_proof_answers_larger_hands_and_not_smaller_ones() {
        let mut t = Table::new(1);
        let p1 = hand(&[(Pawn, 1)]);
        let mut e = Entry { hinc: true, nouse: 1, ..proof(p1, 7) };
        t.update_key(KEY, hand(&[(Pawn, 2)]), 4, &mut e);

        let larger = look(&mut t, hand(&[(Pawn, 2), (Gold, 1)]), 9);
        assert_eq!(numbers(&larger), (0, INFINITE, 7));
        assert_eq!(larger.hand, p1, "the proof hand, not the hand asked");
        assert!(larger.search && larger.inc && larger.hinc);
        // One pawn of the proof hand is left over, and the two extra pieces held.
        assert_eq!((larger.nouse, larger.nouse2), (1, 3));

        let equal = look(&mut t, p1, 9);
        assert_eq!(numbers(&equal), (0, INFINITE, 7));
        assert_eq!((equal.inc, equal.nouse2), (true, 1), "inc follows hinc at an equal hand");

        let smaller = look(&mut t, Hand::EMPTY, 9);
        assert_eq!(numbers(&smaller), (1, 1, 0));
        assert!(!smaller.search);
        let other = look(&mut t, hand(&[(Gold, 1)]), 9);
        assert_eq!(numbers(&other), (1, 1, 0));
    }

    #[test]
    fn a_disproof_answers_smaller_hands_and_not_larger_ones() {
        let mut t = Table::new(1);
        let gs = hand(&[(Gold, 1), (Silver, 1)]);
        t.update_key(KEY, gs, 4, &mut disproof(gs, 5));

        let smaller = look(&mut t, hand(&[(Gold, 1)]), 2);
        assert_eq!(numbers(&smaller), (INFINITE, 0, 5));
        assert_eq!(smaller.hand, gs);
        assert!(smaller.search && !smaller.inc && !smaller.hinc);

        let larger = look(&mut t, hand(&[(Gold, 1), (Silver, 2)]), 2);
        assert_eq!(numbers(&larger), (1, 1, 0));
    }

    #[test]
    fn an_unknown_at_another_depth_starts_from_the_largest_numbers() {
        let mut t = Table::new(1);
        let h = hand(&[(Pawn, 1)]);
        t.update_key(KEY, h, 3, &mut unknown(5, 2, 4));

        let same = look(&mut t, h, 3);
        assert_eq!(numbers(&same), (5, 2, 4));
        assert!(same.search);

        // Another depth: the largest pn and dn of the card, height 0, not marked searched;
        // the lookup keeps them as the new depth's record.
        let deeper = look(&mut t, h, 7);
        assert_eq!(numbers(&deeper), (5, 2, 0));
        assert!(!deeper.search);
        assert_eq!(t.counts().records, 2);
        let again = look(&mut t, h, 7);
        assert_eq!(numbers(&again), (5, 2, 0));
        assert!(again.search);

        // An update at one depth gives its pn to the card's other depths, dn untouched.
        t.update_key(KEY, h, 7, &mut unknown(9, 1, 6));
        assert_eq!(numbers(&look(&mut t, h, 3)), (9, 2, 4));
        assert_eq!(numbers(&look(&mut t, h, 7)), (9, 1, 6));
        assert_eq!(numbers(&look(&mut t, h, 11)), (9, 2, 0));
    }

    #[test]
    fn a_position_on_the_path_reads_its_threshold() {
        let mut t = Table::new(1);
        let p2 = hand(&[(Pawn, 2)]);
        let mark = t.set_current_key(KEY, p2, 6, &unknown(9, 4, 3));

        let e = look(&mut t, p2, 20);
        assert_eq!(numbers(&e), (9, 1, 0));
        assert!(e.search);
        // A smaller hand is at least as hard: the threshold bounds its pn from below.
        assert_eq!(numbers(&look(&mut t, hand(&[(Pawn, 1)]), 20)), (9, 1, 0));

        t.set_current_key(KEY, p2, 6, &unknown(0, 4, 3));
        assert_eq!(numbers(&look(&mut t, p2, 20)), (1, 1, 0), "pn at least 1");

        t.clear_current(mark);
        // Off the path: the record set_current made at its depth (1, 1, 0).
        let e = look(&mut t, p2, 6);
        assert_eq!(numbers(&e), (1, 1, 0));
        assert!(e.search);
    }

    #[test]
    fn an_unknown_update_bounds_the_other_hands() {
        let mut t = Table::new(1);
        let (p1, p2, p3) = (hand(&[(Pawn, 1)]), hand(&[(Pawn, 2)]), hand(&[(Pawn, 3)]));
        t.update_key(KEY, p3, 4, &mut unknown(2, 2, 1));
        t.update_key(KEY, p1, 4, &mut unknown(9, 2, 1));
        // A smaller hand is at least as hard to mate: its pn is raised to the new one.
        t.update_key(KEY, p2, 4, &mut unknown(12, 2, 1));
        assert_eq!(look(&mut t, p1, 4).pn, 12);
        assert_eq!(look(&mut t, p3, 4).pn, 2);
        // A larger hand is at most as hard: its pn is lowered, unless it is on the path.
        let p3_on_path = t.set_current_key(KEY, p3, 4, &unknown(8, 2, 1));
        t.update_key(KEY, p2, 4, &mut unknown(1, 2, 1));
        t.clear_current(p3_on_path);
        assert_eq!(look(&mut t, p3, 4).pn, 2);
        t.update_key(KEY, p2, 4, &mut unknown(1, 2, 1));
        assert_eq!(look(&mut t, p3, 4).pn, 1);
        assert_eq!(look(&mut t, p1, 4).pn, 12);
    }

    #[test]
    fn an_unknown_update_takes_a_known_proof() {
        let mut t = Table::new(1);
        let p1 = hand(&[(Pawn, 1)]);
        t.update_key(KEY, p1, 4, &mut proof(p1, 3));
        let cards = t.counts().cards;
        let mut e = Entry { hand: Hand::EMPTY, ..unknown(7, 2, 5) };
        t.update_key(KEY, hand(&[(Pawn, 2)]), 4, &mut e);
        assert_eq!(numbers(&e), (0, INFINITE, 3));
        assert_eq!(e.hand, p1);
        assert_eq!(t.counts().cards, cards, "nothing stored");
    }

    #[test]
    fn a_proof_replaces_dominated_cards_and_keeps_the_shorter_mate() {
        let mut t = Table::new(1);
        let p1 = hand(&[(Pawn, 1)]);
        let p2 = hand(&[(Pawn, 2)]);
        let p1g1 = hand(&[(Pawn, 1), (Gold, 1)]);
        let s1 = hand(&[(Silver, 1)]);
        t.update_key(KEY, p2, 4, &mut unknown(3, 2, 1));
        t.update_key(KEY, p1g1, 4, &mut proof(p1g1, 9));
        t.update_key(KEY, s1, 4, &mut unknown(3, 2, 1));
        assert_eq!(t.counts().cards, 3);

        // Searched with a gold and a pawn, proven with the pawn: both larger hands go.
        t.update_key(KEY, p1g1, 4, &mut proof(p1, 7));
        assert_eq!(t.counts().cards, 2, "the proof and the silver's unknown");
        assert_eq!(numbers(&look(&mut t, p2, 4)), (0, INFINITE, 7));

        // The same proof hand again, from another hand searched: the shorter mate stays.
        t.update_key(KEY, s1, 4, &mut proof(p1, 11));
        assert_eq!(look(&mut t, p2, 4).sh, 7);
        t.update_key(KEY, p2, 4, &mut proof(p1, 5));
        assert_eq!(look(&mut t, p1g1, 4).sh, 5);
        // Pieces left over at the mate count before length: a longer mate replaces it.
        t.update_key(KEY, p2, 4, &mut Entry { hinc: true, nouse: 1, ..proof(p1, 9) });
        let e = look(&mut t, p1, 4);
        assert_eq!((e.sh, e.hinc, e.nouse), (9, true, 1));
        assert_eq!(t.counts().cards, 1, "the searched hands' cards went too");
    }

    #[test]
    fn a_disproof_replaces_smaller_hands() {
        let mut t = Table::new(1);
        let (p1, p2) = (hand(&[(Pawn, 1)]), hand(&[(Pawn, 2)]));
        t.update_key(KEY, Hand::EMPTY, 4, &mut unknown(3, 2, 1));
        t.update_key(KEY, p1, 4, &mut disproof(p1, 2));
        t.update_key(KEY, p2, 4, &mut disproof(p2, 6));
        assert_eq!(t.counts().cards, 1);
        assert_eq!(numbers(&look(&mut t, Hand::EMPTY, 4)), (INFINITE, 0, 6));
    }

    #[test]
    fn unsolved_updates_near_the_root_threshold_are_skipped() {
        let mut t = Table::new(1);
        t.root_pn = 100;
        let h = hand(&[(Pawn, 1)]);
        t.update_key(KEY, h, 2, &mut unknown(INFINITE - 99, 1, 1));
        assert_eq!(t.counts().cards, 0, "pn above INFINITE - root_pn");
        t.update_key(KEY, h, 2, &mut unknown(INFINITE - 100, 1, 1));
        assert_eq!(look(&mut t, h, 2).pn, INFINITE - 100);
        // A disproof has pn INFINITE and is kept all the same.
        t.update_key(KEY, h, 2, &mut disproof(h, 1));
        assert_eq!(look(&mut t, h, 2).dn, 0);
    }

    #[test]
    fn positions_are_told_apart_by_board_side_and_attacker_hand() {
        // White holds no gold, so Black's proof hand (a gold) is no proof for White's hand.
        let attack = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b4s4n4l17p 1";
        let pos = Position::from_sfen(attack).unwrap_or_else(|e| panic!("{e}"));
        let other_side = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 w G2r2b4s4n4l17p 1")
            .unwrap_or_else(|e| panic!("{e}"));
        let mut t = Table::new(1);
        t.update(&pos, 0, Color::Black, &mut proof(hand(&[(Gold, 1)]), 1));
        let mut e = Entry::default();
        t.lookup(&pos, 0, Color::Black, &mut e);
        assert_eq!(e.pn, 0);
        let mut e = Entry::default();
        t.lookup(&other_side, 0, Color::Black, &mut e);
        assert_eq!(e.pn, 1, "the side to move is part of the position");
        let mut e = Entry::default();
        t.lookup(&pos, 0, Color::White, &mut e);
        assert_eq!(e.pn, 1, "White's hand is not a proof hand for Black");
    }

    #[test]
    fn only_a_proven_check_is_proven() {
        // The defender to move in check from the gold on 5b, and the same board out of check.
        let check = Position::from_sfen("4k4/4G4/4P4/9/9/9/9/9/9 w 2r2b3g4s4n4l17p 1")
            .unwrap_or_else(|e| panic!("{e}"));
        let quiet = Position::from_sfen("4k4/9/4P4/4G4/9/9/9/9/9 w 2r2b3g4s4n4l17p 1")
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(check.in_check() && !quiet.in_check());
        let mut t = Table::new(1);
        assert!(!t.is_proven(&check, 3));
        t.update(&check, 3, Color::Black, &mut unknown(2, 2, 1));
        assert!(!t.is_proven(&check, 3), "unknown");
        t.update(&check, 3, Color::Black, &mut proof(Hand::EMPTY, 1));
        t.update(&quiet, 3, Color::Black, &mut proof(Hand::EMPTY, 1));
        assert!(t.is_proven(&check, 3));
        assert!(!t.is_proven(&quiet, 3), "not a check");
    }
}
