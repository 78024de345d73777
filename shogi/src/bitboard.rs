//! 81-square bitboards in one `u128`; bit `i` is `Square` index `i` (file-major).

use crate::color::Color;
use crate::square::{File, Rank, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

const ALL_BITS: u128 = (1u128 << 81) - 1;

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// All squares of one file.
    #[inline(always)]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x1ffu128 << (file.index() * 9))
    }

    /// All squares of one rank.
    #[inline(always)]
    pub const fn rank(rank: Rank) -> Bitboard {
        let mut b = 0u128;
        let mut f = 0;
        while f < 9 {
            b |= 1u128 << (f * 9 + rank.index());
            f += 1;
        }
        Bitboard(b)
    }

    /// The ranks whose relative index (from `color`'s far side) is below `n`: `n = 3` is the
    /// promotion zone, `n = 1` the last rank, `n = 2` the last two.
    #[inline(always)]
    pub const fn far_ranks(color: Color, n: usize) -> Bitboard {
        let per_file = match color {
            Color::Black => (1u128 << n) - 1,
            Color::White => ((1u128 << n) - 1) << (9 - n),
        };
        let mut b = 0u128;
        let mut f = 0;
        while f < 9 {
            b |= per_file << (f * 9);
            f += 1;
        }
        Bitboard(b)
    }

    /// The promotion zone of `color`.
    #[inline(always)]
    pub const fn promotion_zone(color: Color) -> Bitboard {
        Self::far_ranks(color, 3)
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }
    #[inline(always)]
    pub const fn count(self) -> u32 {
        (self.0 as u64).count_ones() + ((self.0 >> 64) as u64).count_ones()
    }
    /// More than one square set.
    #[inline(always)]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    #[inline(always)]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// The lowest square; `None` when empty.
    #[inline(always)]
    pub fn lsb(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The only (or lowest) square of a non-empty bitboard.
    #[inline(always)]
    pub fn lsb_unchecked(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index_unchecked(self.0.trailing_zeros() as u8)
    }

    /// The low and high 64-bit words, for PEXT.
    #[inline(always)]
    pub const fn halves(self) -> (u64, u64) {
        (self.0 as u64, (self.0 >> 64) as u64)
    }

    /// Bits shifted one rank towards rank a (Black's forward); a file's top bit must not wrap,
    /// so callers mask with the squares that have a square in front.
    #[inline(always)]
    pub const fn shift_up(self) -> Bitboard {
        Bitboard((self.0 >> 1) & !Self::rank(Rank::I).0 & ALL_BITS)
    }
    /// One rank towards rank i (White's forward).
    #[inline(always)]
    pub const fn shift_down(self) -> Bitboard {
        Bitboard((self.0 << 1) & !Self::rank(Rank::A).0 & ALL_BITS)
    }
    /// One square forward for `color`.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::Black => self.shift_up(),
            Color::White => self.shift_down(),
        }
    }
}

impl Rank {
    pub const A: Rank = match Rank::new(0) {
        Some(r) => r,
        None => panic!(),
    };
    pub const I: Rank = match Rank::new(8) {
        Some(r) => r,
        None => panic!(),
    };
}

/// Iterates the set squares, lowest first.
impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_unchecked(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bit_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);
bit_op!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl fmt::Debug for Bitboard {
    /// A 9×9 diagram as Black sees it: file 9 on the left, rank a at the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for r in 0..9 {
            for file in (0..9).rev() {
                let sq = Square::from_coords(file, r).map(Bitboard::from_square);
                let set = sq.is_some_and(|b| (*self & b).is_nonempty());
                f.write_str(if set { " x" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
