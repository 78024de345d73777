//! shtsume's quick mate tests (`tsumi_check`, `ou_move_check`, base.c): is the side to move,
//! in check, without an answer?
//!
//! They are not a legality test. A capture or interposition counts if some piece not held
//! pinned reaches the square (whether the move would leave the king in check another way is
//! not asked), and a drop counts if any piece in hand may stand there. The futility rules call
//! them on edited positions, so the replica follows them exactly rather than asking Tsumugi's
//! `is_checkmate`.

use super::sdata::{interposition_squares, is_stepper, may_stay_unpromoted, Group, Sdata};
use shogi::{PieceKind, Square};

/// No piece of the side to move other than its king, and none held pinned, reaches `dest`
/// (`is_move_to_dest`, which answers true when nothing can go there).
pub(super) fn nothing_reaches(s: &Sdata, dest: Square) -> bool {
    let us = s.side;
    if !s.effect(us).contains(dest) {
        return true;
    }
    for group in Group::REACH_ORDER {
        if s.reaching(us, group, dest).any(|src| !s.is_pinned(src)) {
            return false;
        }
    }
    true
}

/// The side to move holds a piece it may drop on `dest` (`HAND_CHECK`).
pub(super) fn can_drop_on(s: &Sdata, dest: Square) -> bool {
    use PieceKind::*;
    let us = s.side;
    let held = |kind| s.hand(us, kind) > 0;
    held(Rook)
        || held(Bishop)
        || held(Gold)
        || held(Silver)
        || (held(Knight) && may_stay_unpromoted(us, Knight, dest))
        || (held(Lance) && may_stay_unpromoted(us, Lance, dest))
        || (held(Pawn) && s.pawn_drop_allowed(us, dest))
}

/// The side to move's king has no square to go to (`ou_move_check`): shtsume's mate test
/// where it holds that nothing but a king move could answer.
pub(super) fn king_cannot_move(s: &Sdata) -> bool {
    s.king_escapes().is_empty()
}

/// The side to move is mated by shtsume's reckoning (`tsumi_check`): no king move; and, for a
/// single check, nothing reaches the checker, and, for a slider, nothing reaches nor can be
/// dropped on any square between.
pub(super) fn is_mated(s: &Sdata) -> bool {
    if !king_cannot_move(s) {
        return false;
    }
    if s.checks > 1 {
        return true;
    }
    let checker = s.checkers[0];
    if !nothing_reaches(s, checker) {
        return false;
    }
    if is_stepper(s.piece(checker)) {
        return true;
    }
    let Some(king) = s.king(s.side) else {
        return true;
    };
    for sq in interposition_squares(king, checker) {
        if !nothing_reaches(s, sq) || can_drop_on(s, sq) {
            return false;
        }
    }
    true
}
