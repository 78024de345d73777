//! The evaluation written as a sum of features, for fitting its weights: a position becomes,
//! once, the counts that multiply each weight of the weights vector
//! ([`crate::eval::weights_file::sections`]), seen from the side to move; the evaluation under
//! any weights is then a dot product, plus the king-safety penalty, which is quadratic in its
//! danger units and so kept as the counts of each king's danger terms.
//!
//! At the default scales (placement and king safety 100 %, threats 0) [`Features::eval`] equals
//! [`crate::eval::evaluate_weighted`] but for the integer division of the king-safety penalty
//! (at most 1 per king); the fork term (`eval_threats`, 0 by default) is left out, so its share
//! is not fitted.

use crate::eval::weights::{class_of, KS_DIVISOR, KS_MAX, KS_THRESHOLD, PLACEMENT_CELLS};
use crate::eval::weights_file::sections;
use crate::eval::{control_counts, AttackMaps, DangerCounts, RELATIVE};
use shogi::{Color, PieceKind, Position};

/// The king-safety danger terms of one king, in the order of the vector's `king_safety`,
/// `ks_escapes` and `ks_hand` sections (which follow each other).
pub const KING_TERMS: usize = 5 + 9 + 7;

/// Where each section starts in the weights vector.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    board: usize,
    hand: usize,
    tempo: usize,
    king_rank: usize,
    mobility: usize,
    /// `king_safety`, then `ks_escapes` and `ks_hand`: [`KING_TERMS`] in a row.
    king_terms: usize,
    own_king: usize,
    enemy_king: usize,
    control_own: usize,
    control_enemy: usize,
    pub len: usize,
}

impl Layout {
    pub fn new() -> Layout {
        let mut at = std::collections::HashMap::new();
        let mut len = 0;
        for s in sections() {
            at.insert(s.name.clone(), len);
            len += s.len;
        }
        let get = |name: &str| at.get(name).copied().unwrap_or(usize::MAX);
        Layout {
            board: get("board"),
            hand: get("hand"),
            tempo: get("tempo"),
            king_rank: get("king_rank"),
            mobility: get("mobility"),
            king_terms: get("king_safety"),
            own_king: get("own_king.pawn"),
            enemy_king: get("enemy_king.pawn"),
            control_own: get("control_own"),
            control_enemy: get("control_enemy"),
            len,
        }
    }

    /// The first index of the king-safety terms.
    pub fn king_terms(&self) -> usize {
        self.king_terms
    }
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::new()
    }
}

/// The danger counts of one king (`None` when the side has no king).
pub type KingCounts = Option<[i8; KING_TERMS]>;

/// One position as features, from the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// `(index, count)`: the count multiplies weight `index`; each index once.
    pub linear: Vec<(u16, i16)>,
    /// The danger counts of the side to move's king, then of the other king.
    pub kings: [KingCounts; 2],
}

/// The index of a board kind in the `board` section, by `PieceKind::index()`.
fn board_slot(kind: PieceKind) -> Option<usize> {
    match kind.index() {
        k @ 1..=7 => Some(k - 1),
        8 => None,
        k => Some(k - 2),
    }
}

impl Features {
    /// The features of `pos`.
    pub fn of(pos: &Position, layout: &Layout) -> Features {
        let mut counts: Vec<(u16, i16)> = Vec::with_capacity(128);
        let mut add = |index: usize, n: i32| counts.push((index as u16, n as i16));
        let us = pos.side_to_move();
        let maps = AttackMaps::new(pos);
        add(layout.tempo, 1);
        for side in Color::ALL {
            let sign = if side == us { 1 } else { -1 };
            let hand = pos.hand(side);
            for kind in PieceKind::HAND {
                let n = hand.count(kind) as i32;
                if n > 0 {
                    // The `hand` section runs pawn to gold by kind index, from 1.
                    add(layout.hand + kind.index() - 1, sign * n);
                }
            }
            let [bishop_like, rook_like] = maps.mobility[side.index()];
            add(layout.mobility, sign * bishop_like);
            add(layout.mobility + 1, sign * rook_like);
            let rel = &RELATIVE[side.index()];
            let own = pos.king_square(side).map(|k| &rel[k.index()]);
            let enemy = pos.king_square(!side).map(|k| &rel[k.index()]);
            for sq in pos.pieces_of(side) {
                let kind = pos.piece_at(sq).kind();
                let Some(class) = class_of(kind) else {
                    add(layout.king_rank + sq.rank().relative_to(side) as usize, sign);
                    continue;
                };
                if let Some(slot) = board_slot(kind) {
                    add(layout.board + slot, sign);
                }
                let cells = PLACEMENT_CELLS;
                if let Some(o) = own {
                    add(layout.own_king + class * cells + o[sq.index()] as usize, sign);
                }
                if let Some(e) = enemy {
                    add(layout.enemy_king + class * cells + e[sq.index()] as usize, sign);
                }
            }
        }
        for owner in Color::ALL {
            let Some(k) = pos.king_square(owner) else { continue };
            let sign = if owner == us { 1 } else { -1 };
            let c = control_counts(k, owner, &maps);
            for (i, &n) in c.iter().enumerate().filter(|&(_, &n)| n != 0) {
                // The other side sees the same squares with the attack counts swapped.
                let (d, a, b) = (i / 9, i / 3 % 3, i % 3);
                add(layout.control_own + i, sign * n);
                add(layout.control_enemy + 9 * d + 3 * b + a, -sign * n);
            }
        }
        counts.sort_unstable_by_key(|&(i, _)| i);
        let mut linear: Vec<(u16, i16)> = Vec::with_capacity(counts.len());
        for (i, n) in counts {
            match linear.last_mut() {
                Some((j, m)) if *j == i => *m += n,
                _ => linear.push((i, n)),
            }
        }
        linear.retain(|&(_, n)| n != 0);
        let kings = [king_counts(pos, us, &maps), king_counts(pos, !us, &maps)];
        Features { linear, kings }
    }

    /// The evaluation under the weights vector `w` (see the module's note on its exactness).
    pub fn eval(&self, w: &[f64], layout: &Layout) -> f64 {
        let linear: f64 = self.linear.iter().map(|&(i, n)| w[i as usize] * f64::from(n)).sum();
        let mut v = linear;
        for (k, sign) in self.kings.iter().zip([1.0, -1.0]) {
            if let Some(c) = k {
                v -= sign * penalty(danger(c, w, layout));
            }
        }
        v
    }
}

/// The danger units of one king under `w`.
pub fn danger(c: &[i8; KING_TERMS], w: &[f64], layout: &Layout) -> f64 {
    let terms = &w[layout.king_terms..layout.king_terms + KING_TERMS];
    c.iter().zip(terms).map(|(&n, &x)| f64::from(n) * x).sum()
}

/// The king-safety penalty of `danger` units (as `eval::king_danger_penalty`, without its
/// integer division).
pub fn penalty(danger: f64) -> f64 {
    let d = danger - f64::from(KS_THRESHOLD);
    if d <= 0.0 {
        0.0
    } else {
        (d * d / f64::from(KS_DIVISOR)).min(f64::from(KS_MAX))
    }
}

/// The penalty's slope at `danger` units.
pub fn penalty_slope(danger: f64) -> f64 {
    let d = danger - f64::from(KS_THRESHOLD);
    if d <= 0.0 || d * d / f64::from(KS_DIVISOR) >= f64::from(KS_MAX) {
        0.0
    } else {
        2.0 * d / f64::from(KS_DIVISOR)
    }
}

/// The counts of each danger term around the king of `us`, in the vector's order.
fn king_counts(pos: &Position, us: Color, maps: &AttackMaps) -> KingCounts {
    let d = DangerCounts::of(pos, us, pos.king_square(us)?, maps);
    let mut c = [0i8; KING_TERMS];
    c[0] = d.attacks as i8;
    c[1] = d.weak as i8;
    c[2] = d.undefended_adjacent as i8;
    c[3] = i8::from(d.open_file);
    c[4] = -(d.defenders as i8);
    c[5 + d.escapes] = 1;
    // The `ks_hand` section runs pawn to gold by kind index, from 1.
    for (slot, &n) in c[14..].iter_mut().zip(&d.hand[1..]) {
        *slot = n as i8;
    }
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::Weights;
    use crate::eval::{evaluate_weighted, Scales};
    use crate::tools::xorshift::XorShift64;

    /// Under the hand-set weights and under random ones, the features' evaluation is the
    /// evaluation's, to the integer division of the king-safety penalty, on thousands of
    /// positions of play (kings missing included).
    #[test]
    fn the_features_evaluate_as_the_evaluation_does() {
        let layout = Layout::new();
        let scales = Scales { king_safety: 100, placement: 100, threats: 0 };
        let hand_set = Weights::hand_set();
        let mut rng = XorShift64::new(7);
        let mut v = hand_set.to_vector();
        v.iter_mut().for_each(|x| *x += rng.below(41) as i32 - 20);
        let random = Weights::from_vector(&v).unwrap_or_else(|e| panic!("{e}"));
        let mut n = 0;
        crate::tools::test_positions::for_each(6, |pos| {
            let f = Features::of(pos, &layout);
            for w in [&hand_set, &random] {
                let vector: Vec<f64> = w.to_vector().into_iter().map(f64::from).collect();
                let exact = evaluate_weighted(pos, w, scales);
                let ours = f.eval(&vector, &layout);
                assert!(
                    (ours - f64::from(exact)).abs() <= 2.0,
                    "{}: {ours} vs {exact}",
                    pos.to_sfen()
                );
            }
            n += 1;
        });
        assert!(n > 2_000, "{n}");
    }
}
