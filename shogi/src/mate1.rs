//! Mate in one: the first check that mates, found without making most checks.
//!
//! The playing engine asks it at its search nodes and at the first ply of its quiescence
//! search; it lives in the rules crate so that the mate solver can use it too. Most checks are
//! never generated: the king's free neighbours cut each piece's checking destinations to those
//! that could take them all. Of the rest, [`escapes_after`] looks for a reason, visible on the
//! board as it is, why the king survives; the few left are made and tested with [`is_mated`],
//! an early-exit form of "no legal move".

use crate::{attacks, movegen, Bitboard, Move, MoveList, NonPromotions};
use crate::{Color, PieceKind, Position, Square};

/// A mating move for the side to move (pure rules: pawn-drop mate excluded by the generator),
/// the first in the order of [`crate::MoveClass::Checks`]. Not in check only; `list` is
/// scratch space.
///
/// The king's free neighbours are found first. A mating check must take every one of them, so
/// the check generator is given [`could_take_all`] to cut each piece's destinations with a few
/// bitboard operations; the few checks left go through [`escapes_after`], and only those that
/// pass it are made and tested.
pub fn mate_in_1(pos: &mut Position, list: &mut MoveList) -> Option<Move> {
    if pos.in_check() {
        return None;
    }
    let free = free_neighbours(pos);
    // The board without the enemy king (none: `free` is empty and nothing is cut).
    let them = !pos.side_to_move();
    let board = pos
        .king_square(them)
        .map_or(pos.occupied(), |k| pos.occupied().and_not(Bitboard::from_square(k)));
    list.clear();
    movegen::checks_restricted(pos, list, NonPromotions::Skip, |kind, from, to| {
        could_take_all(them, board, free, kind, from, to)
    });
    first_mating_check(pos, list, free, escapes_after)
}

/// The squares of `to` from which a piece of ours of `kind`, moved from `from` (`None`: dropped),
/// could leave none of the enemy king's `free` neighbours free: each such square is the
/// destination itself, or attacked from the destination, or in line with `from` (a slider
/// behind the origin may see it once the piece has left; the exact test decides later). A
/// dropped pawn never mates, by the rules.
///
/// Our piece on `to` attacks `s` exactly when the opponent's (`them`) piece of the same kind
/// on `s` would attack `to`; the occupancy is `board` (the board without the enemy king)
/// without the origin, which is the occupancy after the move on every square strictly between
/// the two.
#[inline(always)]
fn could_take_all(
    them: Color,
    board: Bitboard,
    free: Bitboard,
    kind: PieceKind,
    from: Option<Square>,
    to: Bitboard,
) -> Bitboard {
    if from.is_none() && kind == PieceKind::Pawn {
        return Bitboard::EMPTY;
    }
    if free.is_empty() {
        return to;
    }
    let mut occ = board;
    let mut lines = Bitboard::EMPTY;
    if let Some(from) = from {
        occ = occ.and_not(Bitboard::from_square(from));
        lines = attacks::rook_empty(from) | attacks::bishop_empty(from);
    }
    let mut left = to;
    for s in free.and_not(lines) {
        left &= attacks::attacks(them, kind, s, occ) | Bitboard::from_square(s);
        if left.is_empty() {
            break;
        }
    }
    left
}

/// The first of `checks` (checks of the side to move, which is not in check), in order, that
/// mates; checks for which `visibly_escapes` (given the position, the check and `free`, the
/// [`free_neighbours`] of `pos`) says the king survives are not made. [`escapes_after`] is the
/// test to use; a test that always answers `false` makes the exhaustive reference.
#[inline(always)]
pub fn first_mating_check(
    pos: &mut Position,
    checks: &MoveList,
    free: Bitboard,
    visibly_escapes: impl Fn(&Position, Move, Bitboard) -> bool,
) -> Option<Move> {
    for &m in checks.iter() {
        if visibly_escapes(pos, m, free) {
            continue;
        }
        pos.make_move(m);
        let mate = is_mated(pos);
        pos.unmake_move();
        if mate {
            return Some(m);
        }
    }
    None
}

/// The neighbours of the enemy king that it could step to now: not its own pieces, and not
/// attacked by the side to move (the king lifted off, so that sliders see through it).
pub fn free_neighbours(pos: &Position) -> Bitboard {
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(!us) else { return Bitboard::EMPTY };
    let occ = pos.occupied() ^ Bitboard::from_square(ksq);
    let mut free = Bitboard::EMPTY;
    for sq in attacks::king(ksq).and_not(pos.pieces_of(!us)) {
        if !pos.is_attacked(us, sq, occ) {
            free |= Bitboard::from_square(sq);
        }
    }
    free
}

/// Whether the enemy king survives the check `m` for a reason visible before making it, so
/// that [`is_mated`] would answer `false`: a free neighbour, the checker capturable by the
/// king, or a single checker capturable by a piece that cannot be pinned. `free` is
/// [`free_neighbours`] of `pos`. A `false` answer proves nothing: the move is then made and
/// tested.
///
/// After `m`, a square `s` of `free` (other than `m`'s destination) can only be attacked by the
/// moved piece from its destination, or by a slider whose line to `s` ran through the square
/// `m` left: any other attack on `s` would have attacked it before (the destination only blocks
/// lines). So `s` is free unless the moved piece covers it or `s` lines up with the origin; in
/// that last case the exact attack test after the move decides.
#[inline]
pub fn escapes_after(pos: &Position, m: Move, free: Bitboard) -> bool {
    let us = pos.side_to_move();
    let them = !us;
    let Some(ksq) = pos.king_square(them) else { return false };
    let to = m.to();
    let tbb = Bitboard::from_square(to);
    let kbb = Bitboard::from_square(ksq);
    let (kind, from) = match m.dropped() {
        Some(kind) => (kind, None),
        None => {
            let from = m.from();
            let kind = pos.piece_at(from).kind();
            (if m.is_promotion() { kind.promote() } else { kind }, Some(from))
        }
    };
    let fbb = from.map_or(Bitboard::EMPTY, Bitboard::from_square);
    // The occupancy after the move, with the enemy king lifted off.
    let occ = (pos.occupied().and_not(fbb) | tbb).and_not(kbb);
    let cover = attacks::attacks(us, kind, to, occ);
    let left = free.and_not(tbb).and_not(cover);
    if left.is_nonempty() {
        let Some(from) = from else { return true };
        let lines = attacks::rook_empty(from) | attacks::bishop_empty(from);
        if left.and_not(lines).is_nonempty() {
            return true;
        }
        if left.into_iter().any(|s| pos.attackers_to(us, s, occ).and_not(fbb).is_empty()) {
            return true;
        }
    }
    if !cover.contains(ksq) {
        // A discovered check only: the checker is elsewhere.
        return false;
    }
    // The king takes the checker when nothing else of ours guards its square (exact: the
    // moved piece does not guard itself, and `occ` is the occupancy after the move).
    if attacks::king(ksq).contains(to) && pos.attackers_to(us, to, occ).and_not(fbb).is_empty() {
        return true;
    }
    // Another piece takes the sole checker. A move from a square in line with the king might
    // also discover a check (then taking one checker is not enough); a defender in line with
    // the king might be pinned after the move. Neither is decided here.
    if from.is_some_and(|f| attacks::line(f, ksq).is_nonempty()) {
        return false;
    }
    let defenders = pos.attackers_to(them, to, occ | kbb).and_not(kbb);
    defenders.into_iter().any(|d| attacks::line(d, ksq).is_empty())
}

/// Whether the side to move, in check, has no legal move: [`movegen::is_checkmate`] with an
/// early exit at the first escape (king step, capture of the checker, interposition) instead of
/// generating every evasion.
pub fn is_mated(pos: &Position) -> bool {
    let checkers = pos.checkers();
    if checkers.is_empty() {
        return false;
    }
    let us = pos.side_to_move();
    let them = !us;
    let Some(ksq) = pos.king_square(us) else { return false };
    let occ = pos.occupied();
    let kbb = Bitboard::from_square(ksq);
    for sq in attacks::king(ksq).and_not(pos.pieces_of(us)) {
        if !pos.is_attacked(them, sq, occ ^ kbb) {
            return false;
        }
    }
    if checkers.has_more_than_one() {
        return true;
    }
    let checker = checkers.lsb_unchecked();
    let pinned = pos.pinned();
    let can_reach = |sq: Square| {
        for from in pos.attackers_to(us, sq, occ).and_not(kbb) {
            if !pinned.contains(from) || attacks::aligned(from, sq, ksq) {
                return true;
            }
        }
        false
    };
    if can_reach(checker) {
        return false;
    }
    let between = attacks::between(checker, ksq);
    if between.is_empty() {
        return true;
    }
    let hand = pos.hand(us);
    for sq in between {
        if can_reach(sq) {
            return false;
        }
        if hand.is_empty() {
            continue;
        }
        let rel = sq.rank().relative_to(us);
        if hand.has(PieceKind::Silver)
            || hand.has(PieceKind::Gold)
            || hand.has(PieceKind::Bishop)
            || hand.has(PieceKind::Rook)
            || (hand.has(PieceKind::Lance) && rel > 0)
            || (hand.has(PieceKind::Knight) && rel > 1)
        {
            return false;
        }
        if hand.has(PieceKind::Pawn)
            && rel > 0
            && (pos.pieces(us, PieceKind::Pawn) & Bitboard::file(sq.file())).is_empty()
        {
            // An interposed pawn never checks a king behind the checker with a mate of its own
            // that matters here: the drop is legal unless it is a pawn-drop mate, which would
            // need the attacker's king right in front of it. Leave that rare case to the exact
            // test.
            return movegen::is_checkmate(pos);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MoveClass;

    #[test]
    fn finds_a_mate_in_one() {
        // Gold drop on 5b mates the bare king on 5a guarded by the pawn on 5c.
        let mut pos =
            Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap_or_else(|e| panic!("{e}"));
        let mut list = MoveList::new();
        let m = mate_in_1(&mut pos, &mut list).unwrap_or_else(|| panic!("no mate"));
        assert_eq!(m.to_string(), "G*5b");
        let mut pos =
            Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap_or_else(|e| panic!("{e}"));
        assert!(mate_in_1(&mut pos, &mut list).is_none());
    }

    /// The early-exit test agrees with the rules core on every check of some positions.
    #[test]
    fn is_mated_agrees_with_the_rules_core() {
        let sfens = [
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
            "l3kgsnl/9/p1pS+Bp3/7pp/6PP1/9/PPPPPPn1P/1B1GG2+r1/LNS1K3L w RG3Psnp 54",
            "4+S4/7G1/4+Spk+Rp/3p5/p1P4nP/6+r2/PPNPP+l3/5Gs2/L1SKN2+b1 w NL7Pb2glp 128",
            "3S+S4/3+R2k1l/5pnpp/3p1l3/p1P5P/6+r2/PPNPPP3/5G3/L1SKN2+b1 w GN5Pb2gslp 118",
            "4k4/9/4P4/9/9/9/9/9/4K4 b GSNLP 1",
        ];
        let mut checked = 0;
        for sfen in sfens {
            let mut pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{e}"));
            let mut list = MoveList::new();
            movegen::generate(&pos, MoveClass::Checks, NonPromotions::Include, &mut list);
            for &m in list.iter() {
                pos.make_move(m);
                assert_eq!(is_mated(&pos), movegen::is_checkmate(&pos), "{sfen} {m}");
                // One ply deeper: every evasion, then every check again.
                let mut ev = MoveList::new();
                movegen::legal_moves(&pos, &mut ev);
                for &e in ev.iter() {
                    pos.make_move(e);
                    let mut c = MoveList::new();
                    movegen::generate(&pos, MoveClass::Checks, NonPromotions::Include, &mut c);
                    for &x in c.iter() {
                        pos.make_move(x);
                        assert_eq!(
                            is_mated(&pos),
                            movegen::is_checkmate(&pos),
                            "{sfen} {m} {e} {x}"
                        );
                        checked += 1;
                        pos.unmake_move();
                    }
                    pos.unmake_move();
                }
                pos.unmake_move();
            }
        }
        assert!(checked > 500, "{checked}");
    }
}
