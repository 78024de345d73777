//! The first layer's sums of both views, kept move by move: a move adds and removes a few
//! feature rows ([`Delta`]); a king move computes its own view again from the board.

use super::features::{Delta, View, MAX_ACTIVE};
use super::{Network, L1};
use shogi::{Color, Move, Position};

/// The first-layer sums of Black's and White's views, their psqt sums, and the views.
#[derive(Clone)]
pub struct NetAccumulator {
    pub sums: [[i16; L1]; 2],
    pub psqt: [i32; 2],
    views: [Option<View>; 2],
}

impl NetAccumulator {
    /// Computed from the board.
    pub fn of(pos: &Position, net: &Network) -> NetAccumulator {
        let mut acc = NetAccumulator { sums: [[0; L1]; 2], psqt: [0; 2], views: [None; 2] };
        for side in Color::ALL {
            acc.refresh(pos, net, side);
        }
        acc
    }

    fn refresh(&mut self, pos: &Position, net: &Network, side: Color) {
        let sums = &mut self.sums[side.index()];
        sums.copy_from_slice(&net.ft_bias);
        self.psqt[side.index()] = 0;
        let view = View::of(pos, side);
        self.views[side.index()] = view;
        let Some(view) = view else { return };
        let mut active = [0; MAX_ACTIVE];
        let n = view.active(pos, &mut active);
        for &f in &active[..n] {
            add_row(sums, net.feature_row(f));
            self.psqt[side.index()] += net.psqt[f];
        }
    }

    /// The sums of `pos`, which the move `m` reached from the position `self` belongs to.
    #[inline]
    pub fn after_move(&self, pos: &Position, m: Move, net: &Network) -> NetAccumulator {
        let mut next = self.clone();
        for side in Color::ALL {
            let delta = self.views[side.index()].and_then(|view| Delta::of_move(pos, m, view));
            match delta {
                Some(d) => {
                    let sums = &mut next.sums[side.index()];
                    let psqt = &mut next.psqt[side.index()];
                    for &f in &d.removed[..d.n_removed] {
                        sub_row(sums, net.feature_row(f));
                        *psqt -= net.psqt[f];
                    }
                    for &f in &d.added[..d.n_added] {
                        add_row(sums, net.feature_row(f));
                        *psqt += net.psqt[f];
                    }
                }
                None => next.refresh(pos, net, side),
            }
        }
        next
    }

    /// The value of the position for `side_to_move`, in centipawns.
    #[inline]
    pub fn evaluate(&self, net: &Network, side_to_move: Color) -> i32 {
        let us = side_to_move.index();
        net.evaluate(&self.sums[us], &self.sums[1 - us], self.psqt[us] - self.psqt[1 - us])
    }
}

#[inline(always)]
fn add_row(sums: &mut [i16; L1], row: &[i16]) {
    for (s, &w) in sums.iter_mut().zip(row.iter()) {
        *s = s.wrapping_add(w);
    }
}

#[inline(always)]
fn sub_row(sums: &mut [i16; L1], row: &[i16]) {
    for (s, &w) in sums.iter_mut().zip(row.iter()) {
        *s = s.wrapping_sub(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::tests::random_network;
    use shogi::{movegen, MoveClass, MoveList, NonPromotions};

    /// Random games from varied positions, moves made and unmade: at every ply the sums kept
    /// move by move equal those computed from the board (drops, captures, promotions and king
    /// moves all occur), and so do the values.
    #[test]
    fn kept_move_by_move_equals_computed_from_the_board() {
        let net = random_network(3);
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln1g3nl/1r1s1kg2/p2ppp1p1/2p3p1p/1p5P1/2P1P1P2/PPSP1P2P/2G2S1R1/LN2KG1NL b Bb 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut random = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut checked, mut drops, mut captures, mut king_moves, mut promotions) =
            (0, 0, 0, 0, 0);
        for sfen in sfens {
            for _game in 0..12 {
                let mut pos = Position::from_sfen(sfen).expect("sfen");
                let mut stack = vec![NetAccumulator::of(&pos, &net)];
                for _ply in 0..100 {
                    let mut legal = MoveList::new();
                    movegen::generate(&pos, MoveClass::Legal, NonPromotions::Skip, &mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    let m = legal[random(legal.len())];
                    let king_move =
                        !m.is_drop() && pos.piece_at(m.from()).kind() == shogi::PieceKind::King;
                    pos.make_move(m);
                    drops += usize::from(m.is_drop());
                    promotions += usize::from(m.is_promotion());
                    captures += usize::from(pos.last_captured().get().is_some());
                    king_moves += usize::from(king_move);
                    let next = stack[stack.len() - 1].after_move(&pos, m, &net);
                    let fresh = NetAccumulator::of(&pos, &net);
                    assert!(next.sums == fresh.sums, "after {m} in {}", pos.to_sfen());
                    assert_eq!(next.psqt, fresh.psqt, "after {m} in {}", pos.to_sfen());
                    assert_eq!(
                        next.evaluate(&net, pos.side_to_move()),
                        fresh.evaluate(&net, pos.side_to_move())
                    );
                    stack.push(next);
                    checked += 1;
                    // Now and then take back two moves: the stack's older sums still hold.
                    if random(10) == 0 && stack.len() > 2 {
                        pos.unmake_move();
                        pos.unmake_move();
                        stack.truncate(stack.len() - 2);
                        assert!(stack[stack.len() - 1].sums == NetAccumulator::of(&pos, &net).sums);
                    }
                }
            }
        }
        assert!(checked > 3_000, "{checked} plies");
        assert!(
            drops > 50 && captures > 50 && king_moves > 50 && promotions > 20,
            "drops {drops} captures {captures} king moves {king_moves} promotions {promotions}"
        );
    }
}
