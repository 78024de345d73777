//! Expanding a node: the moves it searches, and the initial value of each child.

use super::dfpn::Search;
use super::hands::{and_proof_hand, saturate_held};
use super::value::Value;
use crate::pn::PnDn;
use crate::tt::UNBOUNDED;
use shogi::movegen::{self, generate};
use shogi::{
    attacks, Bitboard, Hand, Move, MoveClass, MoveList, NonPromotions, PieceKind, Position, Square,
};

impl Search<'_> {
    /// The moves a node expands: checks at OR nodes (attacker to move), every evasion at AND
    /// nodes. Returns whether it is an OR node.
    pub(super) fn node_moves(&self, pos: &Position, list: &mut MoveList) -> bool {
        let or_node = pos.side_to_move() == self.attacker;
        if or_node {
            generate(pos, MoveClass::Checks, NonPromotions::Include, list);
        } else {
            movegen::legal_moves(pos, list);
        }
        or_node
    }

    /// The value of the position just reached by a move, with `depth` plies left, without
    /// expanding it.
    pub(super) fn estimate(&mut self, pos: &Position, depth: u16) -> Value {
        let hand = self.attacker_hand(pos);
        if self.is_repetition() {
            return Value::disproven(hand, true, UNBOUNDED);
        }
        if let Some(d) = self.repetitions.lookup(self.path_hash(), depth) {
            return Value::disproven(hand, true, d);
        }
        if let Some(k) = self.table.lookup(pos.board_key(), hand, depth) {
            return Value {
                pn: k.pn,
                dn: k.dn,
                hand: k.hand,
                len: k.len,
                by_repetition: false,
                depth: k.depth,
            };
        }
        // A first visit with this hand starts no easier to disprove than a covered hand that was
        // already searched (a proof-number floor the other way round stalled no-mate searches).
        let dn_floor = self.table.disproof_floor(pos.board_key(), hand);
        let mut list = MoveList::new();
        if pos.side_to_move() == self.attacker {
            if depth == 0 {
                return Value::disproven(hand, false, 0);
            }
            generate(pos, MoveClass::Checks, NonPromotions::Include, &mut list);
            if list.is_empty() {
                let v = Value::disproven(saturate_held(hand), false, UNBOUNDED);
                self.store(pos, &v, 1);
                return v;
            }
            Value::unknown(1, dn_floor.max(list.len() as PnDn), hand)
        } else {
            movegen::legal_moves(pos, &mut list);
            if list.is_empty() {
                let v = Value::proven(and_proof_hand(pos, self.attacker, Hand::EMPTY), 0);
                self.store(pos, &v, 1);
                return v;
            }
            Value::unknown(evasion_estimate(pos, &list), dn_floor.max(1), hand)
        }
    }
}

/// The initial proof number of a defender in check with these evasions: interpositions on
/// one square count once, as they aggregate by max once expanded.
pub(super) fn evasion_estimate(pos: &Position, evasions: &MoveList) -> PnDn {
    let Some((ksq, line)) = blocking_squares(pos) else {
        return evasions.len() as PnDn;
    };
    let mut squares = Bitboard::default();
    let mut others = 0;
    for &mv in evasions.iter() {
        if is_block(mv, ksq, line) {
            squares |= Bitboard::from_square(mv.to());
        } else {
            others += 1;
        }
    }
    (others + squares.count()).max(1) as PnDn
}

/// For a side to move in check: its king and the squares where the check may be blocked
/// (none for a contact check or a double check). `None` when not in check.
pub(super) fn blocking_squares(pos: &Position) -> Option<(Square, Bitboard)> {
    let checkers = pos.checkers();
    let checker = checkers.lsb()?;
    let ksq = pos.king_square(pos.side_to_move())?;
    let line = if checkers.has_more_than_one() {
        Bitboard::default()
    } else {
        attacks::between(checker, ksq)
    };
    Some((ksq, line))
}

/// Whether an evasion blocks the check on `line` (a move by anything but the king, or a drop).
pub(super) fn is_block(mv: Move, ksq: Square, line: Bitboard) -> bool {
    let is_king_move = !mv.is_drop() && mv.from() == ksq;
    !is_king_move && line.contains(mv.to())
}

/// Whether the other variant (promotion or not) of a board move is legal here.
pub(super) fn twin_is_legal(pos: &Position, twin: Move) -> bool {
    let kind = pos.piece_at(twin.from()).kind();
    let us = pos.side_to_move();
    let to_rel = twin.to().rank().relative_to(us);
    let from_rel = twin.from().rank().relative_to(us);
    let in_zone = to_rel < 3 || from_rel < 3;
    if twin.is_promotion() {
        in_zone && kind.can_promote()
    } else {
        match kind {
            PieceKind::Pawn | PieceKind::Lance => to_rel >= 1,
            PieceKind::Knight => to_rel >= 2,
            _ => true,
        }
    }
}
