//! Squares, files and ranks.
//!
//! Squares are numbered file-major, as USI reads them: index = (file - 1) * 9 + (rank - 1), so
//! "1a" is 0, "1i" is 8, "2a" is 9 and "9i" is 80. A file is then nine consecutive bits of a
//! bitboard, which makes pawn-file (nifu) masks and lance attacks simple shifts.

use crate::color::Color;
use std::fmt;

/// A file, 0-based: `File(0)` is file 1 (the rightmost from Black's side).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct File(u8);

/// A rank, 0-based: `Rank(0)` is rank a (White's back rank).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Rank(u8);

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl File {
    pub const fn new(index: u8) -> Option<File> {
        if index < 9 {
            Some(File(index))
        } else {
            None
        }
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The USI digit, '1'..='9'.
    pub const fn to_char(self) -> char {
        (b'1' + self.0) as char
    }
    pub const fn all() -> [File; 9] {
        [File(0), File(1), File(2), File(3), File(4), File(5), File(6), File(7), File(8)]
    }
}

impl Rank {
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 9 {
            Some(Rank(index))
        } else {
            None
        }
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The USI letter, 'a'..='i'.
    pub const fn to_char(self) -> char {
        (b'a' + self.0) as char
    }
    /// The rank counted from `color`'s far side: 0 is the last rank a piece of `color` can reach.
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> u8 {
        match color {
            Color::Black => self.0,
            Color::White => 8 - self.0,
        }
    }
    /// Whether this rank is in the promotion zone (the three far ranks) of `color`.
    #[inline(always)]
    pub const fn is_promotion_zone(self, color: Color) -> bool {
        self.relative_to(color) < 3
    }
}

impl Square {
    pub const NUM: usize = 81;

    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(file.0 * 9 + rank.0)
    }

    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < Self::NUM {
            Some(Square(index))
        } else {
            None
        }
    }

    /// For indices known to be in range (table loops, bit scans).
    #[inline(always)]
    pub const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < Self::NUM);
        Square(index)
    }

    /// From 0-based file and rank offsets, `None` off the board.
    #[inline]
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 9 {
            Some(Square((file * 9 + rank) as u8))
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline(always)]
    pub const fn file(self) -> File {
        File(self.0 / 9)
    }
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self.0 % 9)
    }

    /// This square `df` files and `dr` ranks away (positive dr goes towards rank i).
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::from_coords(self.file().0 as i32 + df, self.rank().0 as i32 + dr)
    }

    /// The square seen from the other side of the board (180° rotation).
    #[inline(always)]
    pub const fn rotate(self) -> Square {
        Square(80 - self.0)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::NUM as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}
