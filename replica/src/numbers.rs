//! shtsume's numbers at a node and its two orders of the choices.
//!
//! A node's pn (AND) or dn (OR) is not a sum but the largest of its unsolved children plus
//! one for each other unsolved child ("weak" numbers, counted until the first solved one in
//! the sorted list). The lists are kept sorted by a stable merge sort whose comparators break
//! ties on many keys and finally on nothing (the attacker's comparator then keeps the first,
//! the defender's the second), so the order of equal entries is part of the search and is
//! reproduced here as shtsume's list sort makes it.

use super::codes::piece_code;
use super::sht_index as square_code;
use super::{Entry, INFINITE};
use shogi::Position;

/// shtsume's `proof_number` (`pn` true: an AND node's pn) and `disproof_number` (an OR node's
/// dn) over a sorted list: the largest of the unsolved entries plus one for each beside the
/// first, counted until the first solved one; and that count (taken off the first's
/// threshold).
fn weak(list: &[Entry], pn: bool) -> (u16, u16) {
    let value = |e: &Entry| if pn { (e.pn, e.dn) } else { (e.dn, e.pn) };
    let (first, other) = value(&list[0]);
    if first == INFINITE && other == 0 {
        return (INFINITE, 0);
    }
    let (mut most, mut count) = (first, 0u16);
    for (v, _) in list[1..].iter().map(value).take_while(|&(v, _)| v != 0) {
        count += 1;
        most = most.max(v);
    }
    ((u32::from(most) + u32::from(count)).min(u32::from(INFINITE - 1)) as u16, count)
}

/// An AND node's pn (`proof_number`), see [`weak`].
pub fn weak_pn(list: &[Entry]) -> (u16, u16) {
    weak(list, true)
}

/// An OR node's dn (`disproof_number`), see [`weak`].
pub fn weak_dn(list: &[Entry]) -> (u16, u16) {
    weak(list, false)
}

/// The sums a plain df-pn would take instead of the weak numbers (the replica's `-weak`
/// switch): the unsolved entries' pn (or dn) added up, and what the others beside the first
/// add (taken off the first's threshold).
pub fn summed(list: &[Entry], pn: bool) -> (u16, u16) {
    let value = |e: &Entry| if pn { e.pn } else { e.dn };
    let first = value(&list[0]);
    if first == INFINITE {
        return (INFINITE, 0);
    }
    let others: u32 = list[1..].iter().map(value).take_while(|&v| v != 0).map(u32::from).sum();
    let total = (u32::from(first) + others).min(u32::from(INFINITE - 1));
    (total as u16, (total - u32::from(first)) as u16)
}

/// The piece a move captures, as shtsume's code (0: none).
fn captured(pos: &Position, e: &Entry) -> u8 {
    let m = e.head();
    if m.is_drop() {
        0
    } else {
        piece_code(pos.piece_at(m.to()))
    }
}

fn dropped(e: &Entry) -> Option<u8> {
    e.head().dropped().map(super::codes::hand_code)
}

/// The attacker's order (`proof_number_comp`): negative puts `a` first.
pub fn attacker_order(a: &Entry, b: &Entry, pos: &Position) -> i32 {
    use std::cmp::Ordering::*;
    let by = |x: std::cmp::Ordering| match x {
        Less => Some(-1),
        Greater => Some(1),
        Equal => None,
    };
    if let Some(c) = by(a.pn.cmp(&b.pn)).or_else(|| by(a.dn.cmp(&b.dn))) {
        return c;
    }
    if a.pn == 0 && a.sh == 0 {
        return -1;
    }
    if b.pn == 0 && b.sh == 0 {
        return 1;
    }
    // More pieces to spare first, then the shorter mate, the unprotected, off the path.
    if let Some(c) = by(b.inc.cmp(&a.inc))
        .or_else(|| by(a.sh.cmp(&b.sh)))
        .or_else(|| by(a.pr.cmp(&b.pr)))
        .or_else(|| by(a.cu.cmp(&b.cu)))
        .or_else(|| by(a.nouse2.cmp(&b.nouse2)))
        .or_else(|| by(captured(pos, b).cmp(&captured(pos, a))))
    {
        return c;
    }
    let (am, bm) = (a.head(), b.head());
    if !am.is_drop() && bm.is_drop() {
        return -1;
    }
    if !bm.is_drop() && am.is_drop() {
        return 1;
    }
    if let Some(c) = by(bm.is_promotion().cmp(&am.is_promotion())) {
        return c;
    }
    if let (Some(x), Some(y)) = (dropped(a), dropped(b)) {
        if let Some(c) = by(y.cmp(&x)) {
            return c;
        }
    }
    if let Some(c) = by(a.length.cmp(&b.length)) {
        return c;
    }
    -1
}

/// What shtsume compares as "the piece on the move's origin": the piece's code for a board
/// move; for a drop its origin is past the board and it reads whatever bytes lie there, which
/// we do not reproduce (the kind's code is used instead, a named difference).
fn origin_code(pos: &Position, e: &Entry) -> u8 {
    let m = e.head();
    match m.dropped() {
        Some(k) => 100 + super::codes::hand_code(k),
        None => piece_code(pos.piece_at(m.from())),
    }
}

/// The defender's order (`disproof_number_comp`): negative puts `a` first.
pub fn defender_order(a: &Entry, b: &Entry, pos: &Position) -> i32 {
    use std::cmp::Ordering::*;
    let by = |x: std::cmp::Ordering| match x {
        Less => Some(-1),
        Greater => Some(1),
        Equal => None,
    };
    if let Some(c) = by(a.dn.cmp(&b.dn))
        .or_else(|| by(a.pn.cmp(&b.pn)))
        .or_else(|| by(a.inc.cmp(&b.inc)))
        .or_else(|| by(a.nouse2.cmp(&b.nouse2)))
    {
        return c;
    }
    // Both proven: the longer mate first; otherwise the lower tree first.
    let sh = if a.pn == 0 && b.pn == 0 { b.sh.cmp(&a.sh) } else { a.sh.cmp(&b.sh) };
    if let Some(c) = by(sh) {
        return c;
    }
    let (am, bm) = (a.head(), b.head());
    if !am.is_drop() && bm.is_drop() {
        return -1;
    }
    if !bm.is_drop() && am.is_drop() {
        return 1;
    }
    if let Some(c) = by(captured(pos, b).cmp(&captured(pos, a)))
        .or_else(|| by(origin_code(pos, a).cmp(&origin_code(pos, b))))
    {
        return c;
    }
    let king = pos.king_square(pos.side_to_move()).map(square_code);
    let from = |m: shogi::Move| if m.is_drop() { None } else { Some(square_code(m.from())) };
    let (ak, bk) = (from(am) == king, from(bm) == king);
    if ak && !bk {
        return -1;
    }
    if !ak && bk {
        return 1;
    }
    if let Some(c) = by(bm.is_promotion().cmp(&am.is_promotion())) {
        return c;
    }
    if let (Some(x), Some(y)) = (dropped(a), dropped(b)) {
        if let Some(c) = by(x.cmp(&y)) {
            return c;
        }
    }
    1
}

type Order = fn(&Entry, &Entry, &Position) -> i32;

/// shtsume's list sort: a top-down merge sort splitting after the first half (rounded down),
/// taking from the left run while the comparator says `<= 0`.
pub fn sort(list: Vec<Entry>, pos: &Position, order: Order) -> Vec<Entry> {
    if list.len() < 2 {
        return list;
    }
    let mut left = list;
    let right = left.split_off(left.len() / 2);
    let (left, right) = (sort(left, pos, order), sort(right, pos, order));
    let mut out = Vec::with_capacity(left.len() + right.len());
    let (mut l, mut r) = (left.into_iter().peekable(), right.into_iter().peekable());
    while let (Some(a), Some(b)) = (l.peek(), r.peek()) {
        if order(a, b, pos) <= 0 {
            out.extend(l.next());
        } else {
            out.extend(r.next());
        }
    }
    out.extend(l);
    out.extend(r);
    out
}

/// shtsume's `sdata_mvlist_reorder`: the first entry, its numbers changed, moves down before
/// the first later entry it does not come after; the rest stay in order.
pub fn reorder(list: &mut Vec<Entry>, pos: &Position, order: Order) {
    if list.len() < 2 || order(&list[0], &list[1], pos) <= 0 {
        return;
    }
    let head = list.remove(0);
    let at = (1..list.len()).find(|&i| order(&head, &list[i], pos) <= 0).unwrap_or(list.len());
    list.insert(at, head);
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::{Move, Square};

    fn entry(pn: u16, dn: u16, to: u8) -> Entry {
        let m = Move::drop(shogi::PieceKind::Gold, Square::from_index_unchecked(to));
        Entry { pn, dn, ..Entry::new(m) }
    }

    #[test]
    fn weak_numbers_take_the_largest_and_count_the_others_until_a_solved_one() {
        let list =
            [entry(3, 1, 0), entry(5, 1, 1), entry(2, 1, 2), entry(0, INFINITE, 3), entry(9, 1, 4)];
        assert_eq!(weak_pn(&list), (7, 2), "max 5 of the first three, plus two");
        let proven = [entry(INFINITE, 0, 0), entry(1, 1, 1)];
        assert_eq!(weak_pn(&proven), (INFINITE, 0));
        let list = [entry(1, 4, 0), entry(1, 2, 1)];
        assert_eq!(weak_dn(&list), (5, 1));
        let list = [entry(3, 1, 0), entry(5, 1, 1), entry(2, 1, 2), entry(0, INFINITE, 3)];
        assert_eq!(summed(&list, true), (10, 7), "3 + 5 + 2, the others 7");
    }

    #[test]
    fn the_sort_is_stable_for_the_attacker_and_reverses_ties_for_the_defender() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").expect("sfen");
        let list: Vec<Entry> = (0..5).map(|i| entry(1, 1, i * 9)).collect();
        let tos = |l: &[Entry]| l.iter().map(|e| e.head().to().index()).collect::<Vec<_>>();
        let kept = sort(list.clone(), &pos, attacker_order);
        assert_eq!(tos(&kept), [0, 9, 18, 27, 36], "equal entries keep their order");
        let turned = sort(list, &pos, defender_order);
        assert_ne!(tos(&turned), [0, 9, 18, 27, 36], "the defender's ties take the right run");
        let mut list: Vec<Entry> =
            vec![entry(4, 1, 0), entry(1, 1, 9), entry(2, 1, 18), entry(5, 1, 27)];
        reorder(&mut list, &pos, attacker_order);
        assert_eq!(tos(&list), [9, 18, 0, 27]);
    }
}
