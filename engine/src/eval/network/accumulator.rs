//! The first layer's sums of both views, kept move by move: a move adds and removes a few
//! feature rows ([`Delta`]); a king move computes its own view again from the board.

use super::features::{Delta, View, MAX_ACTIVE};
use super::{row_sums, Network, L1};
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
        let s = side.index();
        self.psqt[s] = 0;
        let view = View::of(pos, side);
        self.views[s] = view;
        let Some(view) = view else {
            self.sums[s].copy_from_slice(&net.ft_bias);
            return;
        };
        let mut active = [0; MAX_ACTIVE];
        let n = view.active(pos, &mut active);
        let bias: &[i16; L1] = net.ft_bias[..].try_into().expect("the biases are L1 wide");
        row_sums::apply(bias, &mut self.sums[s], &net.ft_weights, &[], &active[..n]);
        self.psqt[s] = active[..n].iter().map(|&f| net.psqt[f]).sum();
    }

    /// The sums of `pos`, which the move `m` reached from the position `self` belongs to.
    pub fn after_move(&self, pos: &Position, m: Move, net: &Network) -> NetAccumulator {
        let mut next = self.clone();
        self.write_after_move(&mut next, pos, m, net);
        next
    }

    /// Writes into `next` the sums of `pos`, which the move `m` reached from the position
    /// `self` belongs to (each view's sums copied once and updated there, or computed from the
    /// board when its king changed bucket).
    #[inline]
    pub fn write_after_move(
        &self,
        next: &mut NetAccumulator,
        pos: &Position,
        m: Move,
        net: &Network,
    ) {
        // Both views' changes first, and their rows asked for, so that the second view's
        // cache misses overlap the first view's sums.
        let deltas = [Color::Black, Color::White]
            .map(|side| self.views[side.index()].and_then(|view| Delta::of_move(pos, m, view)));
        for d in deltas.iter().flatten() {
            for &f in d.removed[..d.n_removed].iter().chain(&d.added[..d.n_added]) {
                row_sums::prefetch_row(&net.ft_weights, f);
            }
        }
        for side in Color::ALL {
            let s = side.index();
            match deltas[s] {
                Some(d) => {
                    next.views[s] = self.views[s];
                    let (removed, added) = (&d.removed[..d.n_removed], &d.added[..d.n_added]);
                    row_sums::apply(
                        &self.sums[s],
                        &mut next.sums[s],
                        &net.ft_weights,
                        removed,
                        added,
                    );
                    next.psqt[s] = self.psqt[s] - removed.iter().map(|&f| net.psqt[f]).sum::<i32>()
                        + added.iter().map(|&f| net.psqt[f]).sum::<i32>();
                }
                None => next.refresh(pos, net, side),
            }
        }
    }

    /// The value of the position for `side_to_move`, in centipawns.
    #[inline]
    pub fn evaluate(&self, net: &Network, side_to_move: Color) -> i32 {
        let us = side_to_move.index();
        net.evaluate(&self.sums[us], &self.sums[1 - us], self.psqt[us] - self.psqt[1 - us])
    }
}

/// The accumulators along a search path, each written in place from the one before it when
/// a move is made (no accumulator is built and then copied onto the stack).
pub struct NetStack {
    entries: Vec<NetAccumulator>,
    top: usize,
}

impl NetStack {
    /// A stack holding the root's accumulator, with room for `depth` moves before it grows.
    pub fn new(root: NetAccumulator, depth: usize) -> NetStack {
        NetStack { entries: vec![root; depth.max(1) + 1], top: 0 }
    }

    /// The accumulator of the current position.
    #[inline(always)]
    pub fn top(&self) -> &NetAccumulator {
        &self.entries[self.top]
    }

    /// The move `m` reached `pos` from the current position.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move, net: &Network) {
        let top = self.top;
        if top + 1 == self.entries.len() {
            self.entries.push(self.entries[top].clone());
        }
        let (done, rest) = self.entries.split_at_mut(top + 1);
        done[top].write_after_move(&mut rest[0], pos, m, net);
        self.top = top + 1;
    }

    /// Back to the position before the last move.
    #[inline(always)]
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
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
        // King moves within their bucket and half (kept move by move, no refresh).
        let mut same_bucket = 0;
        for sfen in sfens {
            for _game in 0..12 {
                let mut pos = Position::from_sfen(sfen).expect("sfen");
                // Room for 8 moves: the stack grows past it.
                let mut stack = NetStack::new(NetAccumulator::of(&pos, &net), 8);
                for _ply in 0..100 {
                    let mut legal = MoveList::new();
                    movegen::generate(&pos, MoveClass::Legal, NonPromotions::Skip, &mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    let m = legal[random(legal.len())];
                    let king_move =
                        !m.is_drop() && pos.piece_at(m.from()).kind() == shogi::PieceKind::King;
                    let mover = pos.side_to_move();
                    let view_before = super::super::features::View::of(&pos, mover);
                    pos.make_move(m);
                    same_bucket += usize::from(
                        king_move && view_before == super::super::features::View::of(&pos, mover),
                    );
                    drops += usize::from(m.is_drop());
                    promotions += usize::from(m.is_promotion());
                    captures += usize::from(pos.last_captured().get().is_some());
                    king_moves += usize::from(king_move);
                    stack.push_move(&pos, m, &net);
                    let next = stack.top();
                    let fresh = NetAccumulator::of(&pos, &net);
                    assert!(next.sums == fresh.sums, "after {m} in {}", pos.to_sfen());
                    assert_eq!(next.psqt, fresh.psqt, "after {m} in {}", pos.to_sfen());
                    assert_eq!(
                        next.evaluate(&net, pos.side_to_move()),
                        fresh.evaluate(&net, pos.side_to_move())
                    );
                    checked += 1;
                    // Now and then take back two moves: the stack's older sums still hold.
                    if random(10) == 0 && pos.history_len() > 2 {
                        pos.unmake_move();
                        pos.unmake_move();
                        stack.pop();
                        stack.pop();
                        assert!(stack.top().sums == NetAccumulator::of(&pos, &net).sums);
                    }
                }
            }
        }
        assert!(checked > 3_000, "{checked} plies");
        assert!(
            drops > 50 && captures > 50 && king_moves > 50 && promotions > 20,
            "drops {drops} captures {captures} king moves {king_moves} promotions {promotions}"
        );
        assert!(same_bucket > 10 && same_bucket < king_moves, "{same_bucket} of {king_moves}");
    }
}
