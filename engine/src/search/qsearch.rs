//! The quiescence search: captures and promotions until the position is quiet or
//! `qsearch_depth` plies are spent, with stand pat, delta pruning and losing captures skipped.
//! In check every evasion is searched (no stand pat), so a mate found there is real.

use crate::eval::{capture_value, promotion_gain};
use crate::search::alpha_beta::{
    mate_in, mated_in, score_from_tt, score_to_tt, Searcher, VALUE_INF, VALUE_MATE_IN_MAX,
};
use crate::search::history::MAX_PLY;
use crate::search::move_picker::see_ge;
use crate::search::tt::Bound;
use shogi::Move;

pub(crate) fn qsearch(s: &mut Searcher, mut alpha: i32, beta: i32, ply: usize, qply: i32) -> i32 {
    s.note_ply(ply);
    s.clear_pv(ply);
    if s.poll_stop() {
        return 0;
    }
    if ply >= MAX_PLY {
        return s.evaluate();
    }
    let pv_node = beta - alpha > 1;
    let in_check = s.pos.in_check();
    let key = s.pos.key();
    let probe = s.tt.probe(key);
    let tt_move = probe.map_or(Move::NULL, |p| p.mv);
    if let Some(p) = probe {
        let v = score_from_tt(p.score, ply);
        if !pv_node && p.bound.settles(v, alpha, beta) {
            return v;
        }
    }

    let mut best;
    // The evaluation as computed (kept in the table), and as corrected (stand pat).
    let raw_stand;
    let stand;
    if in_check {
        best = -VALUE_INF;
        raw_stand = -VALUE_INF;
        stand = -VALUE_INF;
    } else {
        raw_stand = match probe {
            Some(p) if p.eval > -VALUE_INF && p.eval.abs() < VALUE_MATE_IN_MAX => p.eval,
            _ => s.evaluate(),
        };
        stand = s.corrected(raw_stand).0;
        if stand >= beta {
            if probe.is_none() {
                s.tt.store(key, Move::NULL, score_to_tt(stand, ply), raw_stand, -1, Bound::Lower);
            }
            return stand;
        }
        if qply >= s.params.qsearch_depth {
            return stand;
        }
        // A mate in one at the horizon: the captures below would not see it.
        if qply == 0 && s.params.qsearch_mate1 != 0 {
            if let Some(m) = s.mate_in_1_here() {
                let v = mate_in(ply + 1);
                s.pv_single(ply, m);
                return v;
            }
        }
        alpha = alpha.max(stand);
        best = stand;
    }

    let mut picker = s.picker_for(ply);
    picker.init_quiescence(&s.pos, tt_move);
    let mut best_move = Move::NULL;
    let mut move_count = 0;
    let delta = s.params.qsearch_delta;
    // Deep in the quiescence search only the exchange on the last move's square goes on.
    let recapture_on = (qply >= s.params.qsearch_recapture_ply && !in_check)
        .then(|| s.pos.last_move())
        .filter(|m| !m.is_null())
        .map(|m| m.to());
    while let Some(m) = picker.next(&s.pos, s.history, s.params) {
        move_count += 1;
        if recapture_on.is_some_and(|sq| m.to() != sq) {
            continue;
        }
        if !in_check {
            let gain = s.pos.piece_at(m.to()).get().map_or(0, |(_, k)| capture_value(k))
                + if m.is_promotion() {
                    promotion_gain(s.pos.piece_at(m.from()).kind())
                } else {
                    0
                };
            if stand + gain + delta <= alpha {
                continue;
            }
            if !see_ge(&s.pos, m, 0) {
                continue;
            }
        }
        s.do_move(m);
        s.count_node();
        let v = -qsearch(s, -beta, -alpha, ply + 1, qply + 1);
        s.undo_move();
        if s.stopped {
            s.return_picker(ply, picker);
            return 0;
        }
        if v > best {
            best = v;
            if v > alpha {
                best_move = m;
                if pv_node {
                    s.update_pv(ply, m);
                }
                if v >= beta {
                    break;
                }
                alpha = v;
            }
        }
    }
    s.return_picker(ply, picker);
    if in_check && move_count == 0 {
        return mated_in(ply);
    }
    let bound = Bound::of_result(best, beta, pv_node, !best_move.is_null());
    s.tt.store(key, best_move, score_to_tt(best, ply), raw_stand, -1, bound);
    best
}
