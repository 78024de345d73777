//! Correction history: what the search has learnt about the static evaluation's error, by the
//! pawn structure. After a node whose result says the static evaluation was too low or too
//! high, the difference is blended into a table indexed by the side to move and a hash of both
//! sides' pawns; later nodes with the same pawns correct their static evaluation by it before
//! the pruning decisions use it. For an evaluation that knows little of pawn structures this is
//! the main learned knowledge of a search (Stockfish, YaneuraOu).

use shogi::{Color, PieceKind, Position};

/// Entries per side (a power of two).
const SIZE: usize = 1 << 14;
/// Values are kept in 1/`GRAIN` centipawns, within ±`LIMIT`.
const GRAIN: i32 = 16;
const LIMIT: i32 = 400 * GRAIN;
/// An update weighs at most this many 256ths.
const MAX_WEIGHT: i32 = 32;

pub struct CorrectionHistory {
    table: Vec<i16>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory::new()
    }
}

/// A hash of both sides' pawns on the board.
#[inline(always)]
pub fn pawn_key(pos: &Position) -> u64 {
    let mix = |bb: u128, salt: u64| {
        let x = (bb as u64) ^ ((bb >> 64) as u64).rotate_left(23) ^ salt;
        let x = (x ^ (x >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^ (x >> 29)
    };
    mix(pos.pieces(Color::Black, PieceKind::Pawn).0, 0x9e37_79b9_7f4a_7c15)
        ^ mix(pos.pieces(Color::White, PieceKind::Pawn).0, 0xc2b2_ae3d_27d4_eb4f).rotate_left(17)
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory { table: vec![0; 2 * SIZE] }
    }

    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|v| *v = 0);
    }

    #[inline(always)]
    fn slot(us: Color, key: u64) -> usize {
        us.index() * SIZE + (key as usize & (SIZE - 1))
    }

    /// The correction (centipawns) for the side to move `us` with pawns hashed to `key`.
    #[inline(always)]
    pub fn correction(&self, us: Color, key: u64) -> i32 {
        self.table[Self::slot(us, key)] as i32 / GRAIN
    }

    /// Blends in that the search found `error` centipawns more than the static evaluation at
    /// remaining depth `depth` (deeper results weigh more).
    #[inline]
    pub fn update(&mut self, us: Color, key: u64, depth: i32, error: i32) {
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let target = (error * GRAIN).clamp(-LIMIT, LIMIT);
        let v = &mut self.table[Self::slot(us, key)];
        let blended = (*v as i32 * (256 - weight) + target * weight) / 256;
        *v = blended.clamp(-LIMIT, LIMIT) as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_converge_on_the_error_and_stay_per_side_and_structure() {
        let start =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
                .expect("sfen");
        let pushed = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        )
        .expect("sfen");
        let (a, b) = (pawn_key(&start), pawn_key(&pushed));
        assert_ne!(a, b);
        let mut h = CorrectionHistory::new();
        for _ in 0..400 {
            h.update(Color::Black, a, 20, 120);
        }
        let c = h.correction(Color::Black, a);
        assert!((110..=120).contains(&c), "{c}");
        assert_eq!(h.correction(Color::White, a), 0);
        if (a as usize & (SIZE - 1)) != (b as usize & (SIZE - 1)) {
            assert_eq!(h.correction(Color::Black, b), 0);
        }
        // Far beyond the limit: clamped (the integer blend stops within a centipawn of it).
        for _ in 0..400 {
            h.update(Color::White, b, 20, -10_000);
        }
        let c = h.correction(Color::White, b);
        assert!((-LIMIT / GRAIN..=-LIMIT / GRAIN + 1).contains(&c), "{c}");
        h.clear();
        assert_eq!(h.correction(Color::Black, a), 0);
    }
}
