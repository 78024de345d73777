//! A move packed in 16 bits: destination, origin (or dropped kind), promotion and drop flags.

use crate::piece::PieceKind;
use crate::square::Square;
use std::fmt;

/// Bits 0–6: destination square; bits 7–13: origin square, or the dropped kind for a drop;
/// bit 14: drop; bit 15: promotion. `Move::NULL` (all zero) is never a legal move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u16);

const DROP: u16 = 1 << 14;
const PROMOTE: u16 = 1 << 15;

impl Move {
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(to.index() as u16 | (from.index() as u16) << 7)
    }
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square) -> Move {
        Move(to.index() as u16 | (from.index() as u16) << 7 | PROMOTE)
    }
    #[inline(always)]
    pub const fn with_promotion(from: Square, to: Square, promote: bool) -> Move {
        Move(to.index() as u16 | (from.index() as u16) << 7 | if promote { PROMOTE } else { 0 })
    }
    #[inline(always)]
    pub const fn drop(kind: PieceKind, to: Square) -> Move {
        Move(to.index() as u16 | (kind as u16) << 7 | DROP)
    }

    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }
    #[inline(always)]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    pub fn to(self) -> Square {
        Square::from_index_unchecked((self.0 & 0x7f) as u8)
    }
    /// The origin square; meaningless for drops.
    #[inline(always)]
    pub fn from(self) -> Square {
        debug_assert!(!self.is_drop());
        Square::from_index_unchecked(((self.0 >> 7) & 0x7f) as u8)
    }
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.0 & DROP != 0
    }
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }
    /// The dropped kind; `None` for board moves.
    #[inline(always)]
    pub fn dropped(self) -> Option<PieceKind> {
        if self.is_drop() {
            PieceKind::from_index(((self.0 >> 7) & 0x7f) as u8)
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    /// USI notation: `7g7f`, `8h2b+`, `P*5e`; the null move prints as `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("none");
        }
        match self.dropped() {
            Some(kind) => write!(f, "{}*{}", kind.base_char(), self.to()),
            None => {
                write!(f, "{}{}", self.from(), self.to())?;
                if self.is_promotion() {
                    f.write_str("+")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
