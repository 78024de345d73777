//! Proof and disproof pieces: the hands a solved result holds for.

use super::children::Child;
use super::expansion::blocking_squares;
use shogi::{Color, Hand, Move, PieceKind, Position};

/// The per-kind maximum of two hands.
pub(super) fn union(a: Hand, b: Hand) -> Hand {
    let mut h = Hand::EMPTY;
    for kind in PieceKind::HAND {
        h.set(kind, a.count(kind).max(b.count(kind)));
    }
    h
}

/// Proof pieces of an OR node proven through `mv` from a child that needs `child_proof`.
pub(super) fn or_proof_hand(pos: &Position, mv: Move, child_proof: Hand, hand: Hand) -> Hand {
    let mut proof = child_proof;
    if let Some(kind) = mv.dropped() {
        proof.set(kind, (proof.count(kind) + 1).min(hand.count(kind)));
    } else if let Some((_, captured)) = pos.piece_at(mv.to()).get() {
        let kind = captured.unpromote();
        proof.set(kind, proof.count(kind).saturating_sub(1));
    }
    proof
}

/// Disproof pieces of an OR node with no check: more of a kind already in hand adds no move
/// (the same drops, the same two-pawn rule), so those kinds may grow to a full set; a kind not
/// in hand must stay absent, since holding one would add drops.
pub(super) fn saturate_held(hand: Hand) -> Hand {
    let mut d = hand;
    for kind in PieceKind::HAND {
        if hand.count(kind) > 0 {
            d.set(kind, PieceKind::SET_COUNT[kind.index()] as u32);
        }
    }
    d
}

/// Disproof pieces of an OR node whose every check is disproven: the largest hand for which
/// each check still leads to a hand its disproof covers (a drop spends one, a capture gains
/// one), and no kind that is absent now.
pub(super) fn or_disproof_hand(pos: &Position, children: &[Child], hand: Hand) -> Hand {
    let mut d = saturate_held(hand);
    for c in children {
        let dropped = c.mv.dropped();
        let captured = if c.mv.is_drop() {
            None
        } else {
            pos.piece_at(c.mv.to()).get().map(|(_, k)| k.unpromote())
        };
        for kind in PieceKind::HAND {
            if hand.count(kind) == 0 {
                continue;
            }
            let mut allowed = c.value.hand.count(kind);
            if dropped == Some(kind) {
                allowed += 1;
            }
            if captured == Some(kind) {
                allowed = allowed.saturating_sub(1);
            }
            d.set(kind, d.count(kind).min(allowed.max(hand.count(kind))));
        }
    }
    d
}

/// Disproof pieces of an AND node disproven through evasion `mv` whose disproof pieces are
/// `child`: the same, except that a dropped kind must stay in the defender's hand, so the
/// attacker may not hold more of it than now.
pub(super) fn and_disproof_hand(mv: Move, child: Hand, hand: Hand) -> Hand {
    let mut d = child;
    if let Some(kind) = mv.dropped() {
        d.set(kind, d.count(kind).min(hand.count(kind)));
    }
    d
}

/// Proof pieces of a proven AND node whose children need `needed`. Where the defender holds
/// none of a kind, the proof may rest on it being unable to interpose one, which holds only
/// while the attacker keeps all of them: the attacker needs its whole count of that kind.
/// A check that cannot be interposed (a contact check, a double check) needs nothing more.
pub(super) fn and_proof_hand(pos: &Position, attacker: Color, needed: Hand) -> Hand {
    if blocking_squares(pos).is_some_and(|(_, line)| line.is_empty()) {
        return needed;
    }
    let defender = pos.hand(!attacker);
    let ours = pos.hand(attacker);
    let mut proof = needed;
    for kind in PieceKind::HAND {
        if defender.count(kind) == 0 {
            proof.set(kind, ours.count(kind));
        }
    }
    proof
}
