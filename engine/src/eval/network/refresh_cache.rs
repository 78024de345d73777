//! A view computed again from the board (its king moved to another bucket or half) starts from
//! the sums last computed for the same kind of view, not from the biases: per view slot (side,
//! bucket, mirror) the cache keeps those sums and the features they hold, and only the
//! features that differ are added or taken away. The king usually comes back to a bucket it
//! stood in a few moves before, with a few pieces changed: a handful of rows instead of all of
//! them (the rows' loads from memory were the refresh's cost). The sums wrap as `i16` either
//! way, so they are the same as a refresh from the biases.

use super::features::{View, MAX_ACTIVE, PER_BUCKET, VIEW_SLOTS};
use super::{row_sums, Network, L1};
use shogi::Position;

/// Words of a bit set over one bucket's features.
const WORDS: usize = PER_BUCKET.div_ceil(64);

#[derive(Clone)]
struct Cached {
    /// The features lit in `sums`, relative to the bucket's first.
    lit: [u64; WORDS],
    sums: [i16; L1],
    psqt: i32,
}

/// The last sums of each view slot.
#[derive(Clone)]
pub struct RefreshCache {
    slots: Vec<Option<Cached>>,
    /// Rows added or taken away so far (what a refresh costs).
    rows: u64,
}

impl Default for RefreshCache {
    fn default() -> RefreshCache {
        RefreshCache { slots: vec![None; VIEW_SLOTS], rows: 0 }
    }
}

impl RefreshCache {
    /// Writes the sums and psqt sum of `view` in `pos` into `sums` and returns the psqt sum,
    /// from the slot's last sums where it has some (and keeps these for next time).
    pub fn refresh(
        &mut self,
        pos: &Position,
        net: &Network,
        view: View,
        sums: &mut [i16; L1],
    ) -> i32 {
        let mut active = [0; MAX_ACTIVE];
        let n = view.active(pos, &mut active);
        let base = view.base();
        let mut lit = [0u64; WORDS];
        for &f in &active[..n] {
            let r = f - base;
            lit[r / 64] |= 1 << (r % 64);
        }
        let cached = self.slots[view.slot()].get_or_insert_with(|| Cached {
            lit: [0; WORDS],
            sums: net.ft_bias[..].try_into().expect("the biases are L1 wide"),
            psqt: 0,
        });
        let (mut removed, mut added) = ([0; MAX_ACTIVE], [0; MAX_ACTIVE]);
        let (mut n_removed, mut n_added) = (0, 0);
        for (w, (&before, &now)) in cached.lit.iter().zip(&lit).enumerate() {
            for (changed, list, len) in [
                (before & !now, &mut removed, &mut n_removed),
                (now & !before, &mut added, &mut n_added),
            ] {
                let mut bits = changed;
                while bits != 0 {
                    list[*len] = base + w * 64 + bits.trailing_zeros() as usize;
                    *len += 1;
                    bits &= bits - 1;
                }
            }
        }
        let (removed, added) = (&removed[..n_removed], &added[..n_added]);
        self.rows += (n_removed + n_added) as u64;
        row_sums::apply(&cached.sums, sums, &net.ft_weights, removed, added);
        cached.sums = *sums;
        cached.psqt = cached.psqt - removed.iter().map(|&f| net.psqt[f]).sum::<i32>()
            + added.iter().map(|&f| net.psqt[f]).sum::<i32>();
        cached.lit = lit;
        cached.psqt
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::accumulator::NetAccumulator;
    use crate::eval::network::tests::random_network;
    use shogi::{movegen, Color, MoveClass, MoveList, NonPromotions};

    /// Along random games, both views refreshed through the cache at every ply equal the views
    /// computed from the biases, and the cache spends far fewer rows than those would.
    #[test]
    fn refreshed_from_the_cache_equals_computed_from_the_board() {
        let net = random_network(11);
        let mut cache = RefreshCache::default();
        let (mut seed, mut full_rows, mut plies) = (0x9e37_79b9_7f4a_7c15u64, 0u64, 0);
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        ] {
            for _game in 0..8 {
                let mut pos = Position::from_sfen(sfen).expect("sfen");
                for _ply in 0..120 {
                    let mut legal = MoveList::new();
                    movegen::generate(&pos, MoveClass::Legal, NonPromotions::Skip, &mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos.make_move(legal[(seed % legal.len() as u64) as usize]);
                    let fresh = NetAccumulator::of(&pos, &net);
                    for side in Color::ALL {
                        let Some(view) = View::of(&pos, side) else { continue };
                        let mut sums = [0; L1];
                        let psqt = cache.refresh(&pos, &net, view, &mut sums);
                        assert!(sums == fresh.sums[side.index()], "{}", pos.to_sfen());
                        assert_eq!(psqt, fresh.psqt[side.index()], "{}", pos.to_sfen());
                        full_rows += view.active(&pos, &mut [0; MAX_ACTIVE]) as u64;
                    }
                    plies += 1;
                }
            }
        }
        assert!(plies > 1_000, "{plies} plies");
        assert!(cache.rows * 4 < full_rows, "{} rows against {full_rows}", cache.rows);
    }
}
