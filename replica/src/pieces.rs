//! shtsume's proof and disproof hands: which of the attacker's pieces in hand a proof needs
//! and which a disproof stands for, node by node.
//!
//! Counts live in fields of shtsume's widths (pawn 5 bits, rook and bishop 2, the others 3),
//! ours too, and shtsume lets a count step below zero wrap within its field; the helpers here
//! wrap the same way so that a table entry reads as shtsume's would.

use super::codes::captured_kind;
use super::Entry;
use shogi::{attacks, movegen, Color, Hand, Move, PieceKind, Position};

const KINDS: [PieceKind; 7] = PieceKind::HAND;

fn width(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Pawn => 5,
        PieceKind::Rook | PieceKind::Bishop => 2,
        _ => 3,
    }
}

/// `hand` with `kind`'s count stepped by `delta`, wrapping within the field.
pub fn step(mut hand: Hand, kind: PieceKind, delta: i32) -> Hand {
    let mask = (1i32 << width(kind)) - 1;
    hand.set(kind, ((hand.count(kind) as i32 + delta) & mask) as u32);
    hand
}

fn combine(a: Hand, b: Hand, f: fn(u32, u32) -> u32) -> Hand {
    let mut out = Hand::EMPTY;
    for k in KINDS {
        out.set(k, f(a.count(k), b.count(k)));
    }
    out
}

pub fn max_hand(a: Hand, b: Hand) -> Hand {
    combine(a, b, u32::max)
}

pub fn min_hand(a: Hand, b: Hand) -> Hand {
    combine(a, b, u32::min)
}

/// A count in shtsume's 6-bit `nouse` fields.
fn six_bits(v: i32) -> u8 {
    (v & 63) as u8
}

/// `proof_koma`: at a mated AND node (the defender to move), the attacker's pieces the mate
/// needs: none for a double check or a contact check (nothing can be interposed), else the
/// attacker's hand less the kinds the defender holds too.
pub fn proof_hand_at_mate(pos: &Position) -> Hand {
    let defender = pos.side_to_move();
    let checkers = pos.checkers();
    if checkers.has_more_than_one() {
        return Hand::EMPTY;
    }
    let Some(checker) = checkers.lsb() else { return Hand::EMPTY };
    if !is_slider(pos, checker) {
        return Hand::EMPTY;
    }
    let (mut hand, theirs) = (pos.hand(!defender), pos.hand(defender));
    for k in KINDS {
        if theirs.has(k) {
            hand.set(k, 0);
        }
    }
    hand
}

/// shtsume's long-range pieces: lance, bishop, rook, horse and dragon.
fn is_slider(pos: &Position, sq: shogi::Square) -> bool {
    use PieceKind::*;
    matches!(pos.piece_at(sq).get(), Some((_, Lance | Bishop | Rook | Horse | Dragon)))
}

/// `tsumi_proof`: an AND node with no evasion. `futile_left_out` (interpositions were left
/// out as futile) makes the whole hand the proof hand.
pub fn mated(pos: &Position, entry: &mut Entry, futile_left_out: bool) {
    let attacker_hand = pos.hand(!pos.side_to_move());
    entry.pn = 0;
    entry.dn = super::INFINITE;
    entry.sh = 0;
    entry.hand = if futile_left_out { attacker_hand } else { proof_hand_at_mate(pos) };
    entry.inc = !attacker_hand.is_empty();
    if entry.inc {
        entry.nouse = six_bits(entry.hand.total() as i32);
        entry.nouse2 = six_bits(attacker_hand.total() as i32);
    }
    entry.hinc = !entry.hand.is_empty();
}

/// `proof_koma_or`: an OR node proven by `best`: its proof hand, the dropped piece added and
/// a captured one taken off (a capture the child's proof did not need marks pieces to spare).
pub fn proven_or(pos: &Position, entry: &mut Entry, best: &Entry) {
    entry.hand = best.hand;
    entry.hinc = best.hinc;
    entry.nouse = best.nouse;
    let m = best.head();
    if let Some(k) = m.dropped() {
        entry.hand = step(entry.hand, k, 1);
    } else if let Some(k) = captured_kind(pos.piece_at(m.to())) {
        if entry.hand.count(k) == 0 {
            entry.hinc = true;
            entry.nouse = six_bits(i32::from(entry.nouse) + 1);
        } else {
            entry.hand = step(entry.hand, k, -1);
        }
    }
    let own = pos.hand(pos.side_to_move());
    entry.inc = if own == entry.hand { entry.hinc } else { true };
    entry.nouse2 =
        six_bits(own.total() as i32 - entry.hand.total() as i32 + i32::from(entry.nouse));
}

/// `proof_koma_and`: an AND node proven: the most each defence needed, and for a kind the
/// defender does not hold, the attacker's whole count.
pub fn proven_and(pos: &Position, entry: &mut Entry, list: &[Entry]) {
    let defender = pos.side_to_move();
    let (theirs, attacker) = (pos.hand(defender), pos.hand(!defender));
    let mut hand = list.iter().fold(Hand::EMPTY, |h, e| max_hand(h, e.hand));
    for k in KINDS {
        if !theirs.has(k) && hand.count(k) != attacker.count(k) {
            hand.set(k, attacker.count(k));
        }
    }
    entry.hand = hand;
    let first = &list[0];
    entry.nouse =
        six_bits(i32::from(first.nouse) + hand.total() as i32 - first.hand.total() as i32);
    entry.hinc = entry.nouse != 0;
    entry.nouse2 = six_bits(i32::from(entry.nouse) + attacker.total() as i32 - hand.total() as i32);
    entry.inc = entry.nouse2 != 0;
}

/// `drop_check`: whether the side to move (the attacker) could check by dropping `kind`,
/// were it in hand; in check it says yes.
pub fn could_check_by_drop(pos: &Position, kind: PieceKind) -> bool {
    if pos.in_check() {
        return true;
    }
    let us = pos.side_to_move();
    let Some(king) = pos.king_square(!us) else { return false };
    let occ = pos.occupied();
    // Squares from which our piece of `kind` would attack the king: the king's own reach as
    // that piece of the other colour.
    let reach = match kind {
        PieceKind::Pawn => attacks::pawn(!us, king),
        PieceKind::Lance => attacks::lance(!us, king, occ),
        PieceKind::Knight => attacks::knight(!us, king),
        PieceKind::Silver => attacks::silver(!us, king),
        PieceKind::Gold => attacks::gold(!us, king),
        PieceKind::Bishop => attacks::bishop(king, occ),
        PieceKind::Rook => attacks::rook(king, occ),
        _ => return false,
    };
    let empty = reach.and_not(occ);
    if kind != PieceKind::Pawn {
        return empty.is_nonempty();
    }
    // A pawn: the one square, if the drop is legal (no second pawn on the file, no mate by
    // the drop), judged as if a pawn were in hand.
    let Some(sq) = empty.lsb() else { return false };
    let drop = Move::drop(PieceKind::Pawn, sq);
    if pos.hand(us).has(PieceKind::Pawn) {
        return movegen::is_legal(pos, drop);
    }
    if pos.hand(!us).has(PieceKind::Pawn) {
        // The defender's pawn lent to the attacker (the 18 pawns allow no other).
        let mut lent = pos.clone();
        lent.make_hand_transfer(PieceKind::Pawn, !us);
        return movegen::is_legal(&lent, drop);
    }
    with_pawn_in_hand(pos).is_some_and(|p| movegen::is_legal(&p, drop))
}

/// `pos` with one more pawn in the side to move's hand (rebuilt through its SFEN).
fn with_pawn_in_hand(pos: &Position) -> Option<Position> {
    let sfen = pos.to_sfen();
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let (board, side, hand) = (fields.first()?, fields.get(1)?, fields.get(2)?);
    let mut counts = [0u32; 14];
    const ORDER: &str = "RBGSNLPrbgsnlp";
    let mut n = 0;
    for c in hand.chars().filter(|&c| c != '-') {
        if let Some(d) = c.to_digit(10) {
            n = n * 10 + d;
        } else {
            counts[ORDER.find(c)?] += n.max(1);
            n = 0;
        }
    }
    counts[if *side == "b" { 6 } else { 13 }] += 1;
    let mut out = String::new();
    for (i, c) in ORDER.chars().enumerate() {
        match counts[i] {
            0 => {}
            1 => out.push(c),
            k => out.push_str(&format!("{k}{c}")),
        }
    }
    Position::from_sfen(&format!("{board} {side} {out} 1")).ok()
}

/// `disproof_koma`: an OR node with no check: the attacker's hand, and for each kind it
/// holds, or the defender holds and could not check with, the defender's pieces too.
pub fn disproof_hand_no_check(pos: &Position) -> Hand {
    let us = pos.side_to_move();
    let (mut hand, theirs) = (pos.hand(us), pos.hand(!us));
    for k in KINDS {
        if hand.has(k) || (theirs.has(k) && !could_check_by_drop(pos, k)) {
            let n = (hand.count(k) + theirs.count(k)) & ((1 << width(k)) - 1);
            hand.set(k, n);
        }
    }
    hand
}

/// One check's share of an OR disproof: the child's disproof hand, the dropped piece added
/// back and a captured one taken off.
fn disproof_unit(pos: &Position, e: &Entry) -> Hand {
    let m = e.head();
    if let Some(k) = m.dropped() {
        step(e.hand, k, 1)
    } else if let Some(k) = captured_kind(pos.piece_at(m.to())) {
        step(e.hand, k, -1)
    } else {
        e.hand
    }
}

/// `disproof_koma_or`: every check disproven: the least of their shares, kinds the attacker
/// does not hold left out.
pub fn disproven_or(pos: &Position, entry: &mut Entry, list: &[Entry]) {
    let own = pos.hand(pos.side_to_move());
    let mut hand = list
        .iter()
        .skip(1)
        .fold(disproof_unit(pos, &list[0]), |h, e| min_hand(h, disproof_unit(pos, e)));
    for k in KINDS {
        if !own.has(k) {
            hand.set(k, 0);
        }
    }
    entry.hand = hand;
    entry.inc = own == hand;
}

/// `disproof_koma_and`: an AND node disproven by `best`: its child's disproof hand, less the
/// piece the defence dropped or captured where the child counted every one of that kind.
pub fn disproven_and(pos: &Position, entry: &mut Entry, best: &Entry) {
    let defender = pos.side_to_move();
    let (theirs, attacker) = (pos.hand(defender), pos.hand(!defender));
    entry.hand = best.hand;
    let m = best.head();
    let (kind, extra) = match m.dropped() {
        Some(k) => (Some(k), 0),
        None => (captured_kind(pos.piece_at(m.to())), 1),
    };
    if let Some(k) = kind {
        if theirs.count(k) + attacker.count(k) + extra == best.hand.count(k) {
            entry.hand = step(entry.hand, k, -1);
        }
    }
    entry.inc = attacker == entry.hand;
}

/// The colour whose hand the table keys on at `pos`, given whose turn the root was.
pub fn attacker_of(pos: &Position, or_node: bool) -> Color {
    if or_node {
        pos.side_to_move()
    } else {
        !pos.side_to_move()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_wrap_within_shtsumes_fields() {
        let h = step(Hand::EMPTY, PieceKind::Pawn, -1);
        assert_eq!(h.count(PieceKind::Pawn), 31);
        let h = step(Hand::EMPTY, PieceKind::Rook, -1);
        assert_eq!(h.count(PieceKind::Rook), 3);
        assert_eq!(step(h, PieceKind::Rook, 1).count(PieceKind::Rook), 0);
    }

    #[test]
    fn a_contact_mate_needs_no_piece_and_a_distant_one_the_kinds_the_defender_lacks() {
        // Gold on 5b mates the king on 5a from contact: nothing could be interposed.
        let contact = Position::from_sfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w RBp 1").expect("sfen");
        assert_eq!(proof_hand_at_mate(&contact), Hand::EMPTY);
        // A rook checks from afar; the defender holds a pawn, so pawns leave the proof hand.
        let far = Position::from_sfen("3gkg3/3p1p3/9/9/9/9/9/9/4R3K w BPp 1").expect("sfen");
        let h = proof_hand_at_mate(&far);
        assert_eq!((h.count(PieceKind::Bishop), h.count(PieceKind::Pawn)), (1, 0));
    }

    #[test]
    fn a_drop_that_could_check_is_seen_and_a_pawn_mate_is_not_one() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").expect("sfen");
        assert!(could_check_by_drop(&pos, PieceKind::Gold));
        assert!(could_check_by_drop(&pos, PieceKind::Pawn), "5b is free, no mate by it");
        // King on 1a, its knight on 2a, our gold on 2c: a pawn on 1b would mate.
        let walled = Position::from_sfen("7nk/9/7G1/9/9/9/9/9/4K4 b - 1").expect("sfen");
        assert!(!could_check_by_drop(&walled, PieceKind::Pawn));
        assert!(could_check_by_drop(&walled, PieceKind::Lance));
        // Every pawn not on the board in the defender's hand: the check is still seen.
        let all_pawns = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 18p 1").expect("sfen");
        assert!(could_check_by_drop(&all_pawns, PieceKind::Pawn));
        let nifu = Position::from_sfen("4k4/9/9/9/9/9/4P4/9/4K4 b - 1").expect("sfen");
        assert!(!could_check_by_drop(&nifu, PieceKind::Pawn), "a second pawn on file 5");
    }
}
