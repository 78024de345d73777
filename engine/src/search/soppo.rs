//! Soppo pruning (そっぽ, "wrong direction"; seed 000: Matsubara, Hashimoto, Iida): in the
//! endgame, quiet moves of slow pieces that land far from both kings are pruned.
//!
//! * **SS-Cut** (static): a fixed distance D (`soppo_distance`, 5 in the paper).
//! * **DS-Cut** (dynamic): the search keeps a histogram of where beta cutoffs by slow-piece
//!   moves happen, by distance to the nearer king, and picks D for the position being searched
//!   as the distance that covers all but a small tail of them (`soppo_ds_tail` permille), plus a
//!   slack so that D can grow again when cutoffs start to happen at its edge. Until enough
//!   cutoffs are seen (`soppo_ds_min_samples`) nothing is pruned.
//!
//! Slow pieces are all but the lance, bishop, rook, horse, dragon and king (the paper's choice:
//! a fast piece far away still acts near the king). Distance is the Chebyshev (king-step)
//! distance from the destination to the nearer king, so that both attacking and defending
//! moves are kept. Captures, promotions and checks are never pruned, and nothing is pruned at
//! the root or in check.

use crate::params::Params;
use shogi::{Color, Move, PieceKind, Position, Square};

/// The largest Chebyshev distance on the board.
pub const MAX_DISTANCE: usize = 8;

/// DS-Cut recomputes D after this many new cutoffs (and between iterations).
const REFRESH: u64 = 32;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum SoppoMode {
    Off,
    Static,
    Dynamic,
}

impl SoppoMode {
    pub fn from_param(v: i32) -> SoppoMode {
        match v {
            1 => SoppoMode::Static,
            2 => SoppoMode::Dynamic,
            _ => SoppoMode::Off,
        }
    }
}

/// The cutoff statistics of one search and the distance they give.
#[derive(Clone, Debug)]
pub struct Soppo {
    mode: SoppoMode,
    cuts: [u64; MAX_DISTANCE + 1],
    total: u64,
    distance: i32,
    /// Moves pruned in this search (for tests and reports).
    pub pruned: u64,
}

#[inline(always)]
fn chebyshev(a: Square, b: Square) -> usize {
    let df = (a.file().index() as i32 - b.file().index() as i32).unsigned_abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).unsigned_abs();
    df.max(dr) as usize
}

/// Whether `kind` is slow (subject to soppo pruning).
#[inline(always)]
pub fn is_slow(kind: PieceKind) -> bool {
    !matches!(
        kind,
        PieceKind::Lance
            | PieceKind::Bishop
            | PieceKind::Rook
            | PieceKind::Horse
            | PieceKind::Dragon
            | PieceKind::King
    )
}

/// The distance from the destination of `m` to the nearer king, when `m` moves or drops a slow
/// piece; `None` for fast pieces.
#[inline]
pub fn move_distance(pos: &Position, m: Move) -> Option<usize> {
    let kind = match m.dropped() {
        Some(k) => k,
        None => pos.piece_at(m.from()).kind(),
    };
    if !is_slow(kind) {
        return None;
    }
    let to = m.to();
    let mut d = MAX_DISTANCE;
    for color in Color::ALL {
        if let Some(k) = pos.king_square(color) {
            d = d.min(chebyshev(to, k));
        }
    }
    Some(d)
}

/// Whether the position is an endgame for soppo purposes: enough pieces in hand or promoted.
pub fn is_endgame(pos: &Position, params: &Params) -> bool {
    let mut phase = 0i32;
    for color in Color::ALL {
        let h = pos.hand(color);
        phase += (h.total() - h.count(PieceKind::Pawn)) as i32;
    }
    if phase >= params.soppo_endgame_phase {
        return true;
    }
    for kind in [PieceKind::ProSilver, PieceKind::ProKnight, PieceKind::ProLance] {
        phase += pos.pieces_kind(kind).count() as i32;
    }
    phase +=
        2 * (pos.pieces_kind(PieceKind::Horse) | pos.pieces_kind(PieceKind::Dragon)).count() as i32;
    phase >= params.soppo_endgame_phase
}

impl Soppo {
    pub fn new(params: &Params) -> Soppo {
        let mode = SoppoMode::from_param(params.soppo_mode);
        let distance = match mode {
            SoppoMode::Static => params.soppo_distance,
            _ => MAX_DISTANCE as i32,
        };
        Soppo { mode, cuts: [0; MAX_DISTANCE + 1], total: 0, distance, pruned: 0 }
    }

    pub fn mode(&self) -> SoppoMode {
        self.mode
    }

    /// The distance D in force (`MAX_DISTANCE` prunes nothing).
    pub fn distance(&self) -> i32 {
        self.distance
    }

    /// The distance to prune beyond at a node, `None` when nothing is pruned there.
    #[inline]
    pub fn node_distance(&self, pos: &Position, params: &Params) -> Option<i32> {
        if self.mode == SoppoMode::Off
            || self.distance >= MAX_DISTANCE as i32
            || !is_endgame(pos, params)
        {
            return None;
        }
        Some(self.distance)
    }

    /// Whether the quiet, non-checking move `m` is soppo at a node with distance `d`.
    #[inline]
    pub fn is_soppo(pos: &Position, m: Move, d: i32) -> bool {
        move_distance(pos, m).is_some_and(|md| md as i32 > d)
    }

    /// Records a beta cutoff by the quiet move `m` at an endgame node; DS-Cut refreshes D
    /// every `REFRESH` cutoffs.
    #[inline]
    pub fn record_cut(&mut self, pos: &Position, m: Move, params: &Params) {
        if let Some(d) = move_distance(pos, m) {
            self.cuts[d] += 1;
            self.total += 1;
            if self.total.is_multiple_of(REFRESH) {
                self.update(params);
            }
        }
    }

    /// DS-Cut: recomputes D from the statistics (between iterations).
    pub fn update(&mut self, params: &Params) {
        if self.mode != SoppoMode::Dynamic {
            return;
        }
        if self.total < params.soppo_ds_min_samples as u64 {
            self.distance = MAX_DISTANCE as i32;
            return;
        }
        let keep = self.total - self.total * params.soppo_ds_tail as u64 / 1000;
        let mut sum = 0;
        let mut d = 0;
        while d < MAX_DISTANCE {
            sum += self.cuts[d];
            if sum >= keep {
                break;
            }
            d += 1;
        }
        self.distance =
            (d as i32 + params.soppo_ds_slack).clamp(params.soppo_ds_min, MAX_DISTANCE as i32);
    }

    /// The cutoff histogram by distance.
    pub fn histogram(&self) -> [u64; MAX_DISTANCE + 1] {
        self.cuts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ds_distance_follows_the_cutoffs() {
        let mut p = Params { soppo_mode: 2, ..Params::default() };
        let mut s = Soppo::new(&p);
        assert_eq!(s.distance(), MAX_DISTANCE as i32);
        s.cuts[1] = 500;
        s.cuts[2] = 300;
        s.cuts[3] = 150;
        s.cuts[7] = 1;
        s.total = 951;
        s.update(&p);
        assert_eq!(s.distance(), 3 + p.soppo_ds_slack);
        p.soppo_mode = 1;
        let s = Soppo::new(&p);
        assert_eq!(s.distance(), p.soppo_distance);
    }

    #[test]
    fn slow_pieces_far_from_both_kings_are_soppo() {
        let pos = Position::from_sfen("8k/9/9/9/9/9/9/9/K7S b G 1").expect("sfen");
        // Silver on 1i: both kings are on file 9 / file 1 corners; 1a king is 8 ranks away.
        let far = Move::drop(PieceKind::Gold, Square::from_coords(4, 4).expect("sq"));
        assert_eq!(move_distance(&pos, far), Some(4));
        assert!(Soppo::is_soppo(&pos, far, 3));
        assert!(!Soppo::is_soppo(&pos, far, 4));
    }
}
