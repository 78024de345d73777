//! Pieces in hand, packed into one `u32`.
//!
//! Each hand kind has its own bit field with one spare *guard* bit above it. Comparing hands is
//! then one subtraction: `a - b` borrows into a guard bit exactly when some count of `b` exceeds
//! that of `a`. The df-pn solver relies on this to test proof and disproof pieces ("hand A holds at
//! least everything hand B holds") in one instruction.

use crate::piece::PieceKind;
use std::fmt;

/// `repr(transparent)`: the solver's table file stores a hand as this one `u32`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Hand(u32);

/// Bit offset of each hand kind's field, indexed by `PieceKind::index()` (1..=7).
const SHIFT: [u32; 8] = [0, 0, 6, 10, 14, 18, 21, 24];
/// Field width in bits, indexed the same way (pawn: up to 18, bishop/rook: 2, others: 4).
const WIDTH: [u32; 8] = [0, 5, 3, 3, 3, 2, 2, 3];

const fn guard_mask() -> u32 {
    let mut m = 0;
    let mut k = 1;
    while k < 8 {
        m |= 1 << (SHIFT[k] + WIDTH[k]);
        k += 1;
    }
    m
}

/// The guard bit above each field.
const GUARDS: u32 = guard_mask();

impl Hand {
    pub const EMPTY: Hand = Hand(0);

    #[inline(always)]
    pub const fn from_raw(raw: u32) -> Hand {
        Hand(raw)
    }
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    #[inline(always)]
    pub fn count(self, kind: PieceKind) -> u32 {
        debug_assert!(kind.is_hand_kind());
        let k = kind.index();
        (self.0 >> SHIFT[k]) & ((1 << WIDTH[k]) - 1)
    }
    #[inline(always)]
    pub fn has(self, kind: PieceKind) -> bool {
        self.count(kind) != 0
    }
    #[inline(always)]
    pub fn add(&mut self, kind: PieceKind) {
        debug_assert!(self.count(kind) < (1 << WIDTH[kind.index()]) - 1);
        self.0 += 1 << SHIFT[kind.index()];
    }
    #[inline(always)]
    pub fn remove(&mut self, kind: PieceKind) {
        debug_assert!(self.count(kind) > 0);
        self.0 -= 1 << SHIFT[kind.index()];
    }
    /// Sets a count; `count` must fit the full set of that kind.
    pub fn set(&mut self, kind: PieceKind, count: u32) {
        let k = kind.index();
        debug_assert!(count < (1 << WIDTH[k]));
        self.0 = (self.0 & !(((1 << WIDTH[k]) - 1) << SHIFT[k])) | (count << SHIFT[k]);
    }
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Whether any piece other than pawns is held.
    #[inline(always)]
    pub const fn has_non_pawn(self) -> bool {
        self.0 & !((1 << WIDTH[1]) - 1) != 0
    }

    /// Whether this hand holds at least as many of every kind as `other` (superior or equal).
    #[inline(always)]
    pub const fn is_superior_or_equal(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & GUARDS == 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k)).sum()
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand(")?;
        for k in PieceKind::HAND {
            let n = self.count(k);
            if n > 0 {
                write!(f, "{}{}", k.base_char(), n)?;
            }
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PieceKind::*;

    #[test]
    fn full_set_fits_every_field() {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, PieceKind::SET_COUNT[k.index()] as u32);
        }
        for k in PieceKind::HAND {
            assert_eq!(h.count(k), PieceKind::SET_COUNT[k.index()] as u32);
        }
        assert_eq!(h.raw() & GUARDS, 0);
        assert_eq!(h.total(), 40 - 2);
    }

    #[test]
    fn superiority_is_per_kind() {
        let mut a = Hand::EMPTY;
        a.set(Pawn, 3);
        a.set(Rook, 1);
        let mut b = Hand::EMPTY;
        b.set(Pawn, 3);
        assert!(a.is_superior_or_equal(b));
        assert!(!b.is_superior_or_equal(a));
        b.set(Gold, 1);
        assert!(!a.is_superior_or_equal(b));
        assert!(!b.is_superior_or_equal(a));
        let mut c = a;
        c.set(Pawn, 18);
        c.set(Lance, 4);
        assert!(c.is_superior_or_equal(a));
        assert!(!a.is_superior_or_equal(c));
        assert!(a.is_superior_or_equal(a));
        assert!(a.is_superior_or_equal(Hand::EMPTY));
    }
}
