//! Material and piece placement kept incrementally along the search's path: the part of the
//! evaluation that a move changes in a few squares. A move updates it from the squares it
//! touches; a king move changes every placement cell (they are relative to both kings), so it
//! is computed again from the board. The rest of the evaluation (attacks, mobility, king
//! safety) is computed at the node, as [`crate::eval::evaluate_with`] does.

use crate::eval::weights::{class_of, Weights, CLASS_GOLD};
use crate::eval::{placement_cell, placement_sum, PLACED, RELATIVE};
use shogi::{Color, Move, PieceKind, Position, Square};

/// Per side (Black, White): material (board, hand, and the king's rank) and the raw placement
/// sum (before its scale).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accumulator {
    pub material: [i32; 2],
    pub placed: [i32; 2],
}

impl Accumulator {
    /// Computed from the board.
    pub fn of(pos: &Position, w: &Weights) -> Accumulator {
        let mut acc = Accumulator::default();
        for us in Color::ALL {
            let (material, placed) = material_and_placement(pos, us, w);
            acc.material[us.index()] = material;
            acc.placed[us.index()] = placed;
        }
        acc
    }

    /// The accumulator of `pos`, which the move `m` reached from the position this one
    /// belongs to (under the same weights).
    #[inline]
    pub fn after_move(&self, pos: &Position, m: Move, w: &Weights) -> Accumulator {
        let them = pos.side_to_move();
        let us = !them;
        let (Some(black_king), Some(white_king)) =
            (pos.king_square(Color::Black), pos.king_square(Color::White))
        else {
            return Accumulator::of(pos, w);
        };
        let kings = [black_king, white_king];
        let place = |owner: Color, kind: PieceKind, sq: Square| {
            class_of(kind).map_or(0, |class| placement_cell(w, owner, class, kings, sq))
        };
        let to = m.to();
        let mut acc = *self;
        let (u, t) = (us.index(), them.index());
        match m.dropped() {
            Some(kind) => {
                acc.material[u] += w.board[kind.index()] - w.hand[kind.index()];
                acc.placed[u] += place(us, kind, to);
            }
            None => {
                let moved = pos.piece_at(to).kind();
                let original = if m.is_promotion() { moved.unpromote() } else { moved };
                if original == PieceKind::King {
                    return Accumulator::of(pos, w);
                }
                acc.material[u] += w.board[moved.index()] - w.board[original.index()];
                acc.placed[u] += place(us, moved, to) - place(us, original, m.from());
                if let Some((_, captured)) = pos.last_captured().get() {
                    acc.material[t] -= w.board[captured.index()];
                    acc.placed[t] -= place(them, captured, to);
                    acc.material[u] += w.hand[captured.unpromote().index()];
                }
            }
        }
        acc
    }
}

/// Material (board, hand, king's rank) and raw placement of `us`, from the board.
pub fn material_and_placement(pos: &Position, us: Color, w: &Weights) -> (i32, i32) {
    let mut material = 0;
    let hand = pos.hand(us);
    if !hand.is_empty() {
        for kind in PieceKind::HAND {
            material += hand.count(kind) as i32 * w.hand[kind.index()];
        }
    }
    let mine = pos.pieces_of(us);
    for kind in PieceKind::ALL {
        let n = (pos.pieces_kind(kind) & mine).count() as i32;
        material += n * w.board[kind.index()];
    }
    for sq in pos.pieces(us, PieceKind::King) {
        material += w.king_rank[sq.rank().relative_to(us) as usize];
    }
    // The relative-cell rows of both kings, fetched once.
    let rel = &RELATIVE[us.index()];
    let own = pos.king_square(us).map(|k| &rel[k.index()]);
    let enemy = pos.king_square(!us).map(|k| &rel[k.index()]);
    let mut placed = 0;
    for (kind, class) in PLACED {
        let bb = if class == CLASS_GOLD { pos.golds(us) } else { pos.pieces(us, kind) };
        if bb.is_nonempty() {
            placed += placement_sum(w, bb, class, own, enemy);
        }
    }
    (material, placed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::{movegen, MoveClass, MoveList, NonPromotions};

    /// Random games from varied positions: at every ply, the accumulator kept by
    /// `after_move` equals the one computed from the board (drops, captures, promotions and
    /// king moves all occur).
    #[test]
    fn kept_incrementally_equals_computed_from_the_board() {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln1g3nl/1r1s1kg2/p2ppp1p1/2p3p1p/1p5P1/2P1P1P2/PPSP1P2P/2G2S1R1/LN2KG1NL b Bb 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut checked = 0;
        for sfen in sfens {
            for _game in 0..20 {
                let mut pos = Position::from_sfen(sfen).expect("sfen");
                let w = &*crate::eval::weights::HAND_SET;
                let mut acc = Accumulator::of(&pos, w);
                for _ply in 0..120 {
                    let mut legal = MoveList::new();
                    movegen::generate(&pos, MoveClass::Legal, NonPromotions::Skip, &mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let m = legal[(seed % legal.len() as u64) as usize];
                    pos.make_move(m);
                    acc = acc.after_move(&pos, m, w);
                    assert_eq!(acc, Accumulator::of(&pos, w), "after {m} in {}", pos.to_sfen());
                    checked += 1;
                }
            }
        }
        assert!(checked > 5_000, "{checked} plies");
    }
}
