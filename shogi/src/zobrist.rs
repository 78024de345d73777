//! Zobrist keys, kept as two halves: a **board key** (pieces on squares and the side to move) and
//! a **hand key** (pieces in hand).
//!
//! The solver looks up the same board with different hands (proof and disproof pieces), so the
//! board key alone indexes its table and the hands are compared exactly. The hand key is
//! *additive* (count × key per kind), so adding or removing one piece is one addition.

use crate::color::Color;
use crate::piece::{Piece, PieceKind};
use crate::square::Square;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

struct Keys {
    board: [[u64; Square::NUM]; Piece::NUM],
    hand: [[u64; 8]; 2],
    side: u64,
}

static KEYS: Keys = {
    let mut keys = Keys { board: [[0; Square::NUM]; Piece::NUM], hand: [[0; 8]; 2], side: 0 };
    let mut state = 0x7473_756d_7567_6921u64; // "tsumugi!"
    let mut p = 0;
    while p < Piece::NUM {
        let mut s = 0;
        while s < Square::NUM {
            let (next, k) = splitmix(state);
            state = next;
            // Bit 0 of the board key is reserved for the side to move.
            keys.board[p][s] = k & !1;
            s += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 8 {
            let (next, key) = splitmix(state);
            state = next;
            keys.hand[c][k] = key;
            k += 1;
        }
        c += 1;
    }
    keys.side = 1;
    keys
};

/// The key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    KEYS.board[piece.index()][sq.index()]
}

/// The amount one piece of `kind` in `color`'s hand adds to the hand key.
#[inline(always)]
pub fn hand_piece(color: Color, kind: PieceKind) -> u64 {
    KEYS.hand[color.index()][kind.index()]
}

/// Xored into the board key when White is to move; it is bit 0, so the side is readable from
/// the key itself.
#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}

/// A fingerprint of the whole key scheme (every board, hand and side key), for data that keeps
/// keys beyond one process (the solver's table file): a file written under other keys is
/// refused instead of being read into wrong answers. Computed at compile time.
pub fn scheme_fingerprint() -> u64 {
    SCHEME_FINGERPRINT
}

const SCHEME_FINGERPRINT: u64 = {
    // Every key folded through splitmix in a fixed order, so that any change of a key, of the
    // tables' shape or of their order changes the result.
    let mut h = (Piece::NUM * Square::NUM) as u64;
    let mut p = 0;
    while p < Piece::NUM {
        let mut s = 0;
        while s < Square::NUM {
            h = splitmix(h ^ KEYS.board[p][s]).1;
            s += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 8 {
            h = splitmix(h ^ KEYS.hand[c][k]).1;
            k += 1;
        }
        c += 1;
    }
    splitmix(h ^ KEYS.side).1
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_depends_on_every_key() {
        let f = scheme_fingerprint();
        assert_ne!(f, 0);
        // Recomputed at run time from the public accessors: the same value.
        let mut h = (Piece::NUM * Square::NUM) as u64;
        for p in 0..Piece::NUM {
            for s in 0..Square::NUM {
                h = splitmix(h ^ KEYS.board[p][s]).1;
            }
        }
        for c in 0..2 {
            for k in 0..8 {
                h = splitmix(h ^ KEYS.hand[c][k]).1;
            }
        }
        assert_eq!(splitmix(h ^ side()).1, f);
        // One key changed: another fingerprint.
        assert_ne!(splitmix(h ^ side() ^ 2).1, f);
    }
}
