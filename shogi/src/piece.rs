//! Piece kinds and coloured pieces.
//!
//! Kinds are numbered so that promoting adds 8 (`Pawn` = 1 → `ProPawn` = 9, `Rook` = 6 →
//! `Dragon` = 14); the seven kinds a hand can hold are 1..=7.

use crate::color::Color;
use std::fmt;

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum PieceKind {
    Pawn = 1,
    Lance = 2,
    Knight = 3,
    Silver = 4,
    Bishop = 5,
    Rook = 6,
    Gold = 7,
    King = 8,
    ProPawn = 9,
    ProLance = 10,
    ProKnight = 11,
    ProSilver = 12,
    Horse = 13,
    Dragon = 14,
}

use PieceKind::*;

impl PieceKind {
    pub const NUM: usize = 15;
    pub const ALL: [PieceKind; 14] = [
        Pawn, Lance, Knight, Silver, Bishop, Rook, Gold, King, ProPawn, ProLance, ProKnight,
        ProSilver, Horse, Dragon,
    ];
    /// The kinds a hand can hold, in SFEN output order of value (rook first).
    pub const HAND: [PieceKind; 7] = [Rook, Bishop, Gold, Silver, Knight, Lance, Pawn];
    /// How many of each unpromoted kind exist in a full set (index by `unpromote().index()`).
    pub const SET_COUNT: [u8; 9] = [0, 18, 4, 4, 4, 2, 2, 4, 2];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: u8) -> Option<PieceKind> {
        Some(match i {
            1 => Pawn,
            2 => Lance,
            3 => Knight,
            4 => Silver,
            5 => Bishop,
            6 => Rook,
            7 => Gold,
            8 => King,
            9 => ProPawn,
            10 => ProLance,
            11 => ProKnight,
            12 => ProSilver,
            13 => Horse,
            14 => Dragon,
            _ => return None,
        })
    }

    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) < 7 && (self as u8) != 0
    }
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) > 8
    }
    #[inline(always)]
    pub fn promote(self) -> PieceKind {
        debug_assert!(self.can_promote());
        match PieceKind::from_index(self as u8 + 8) {
            Some(k) => k,
            None => self,
        }
    }
    #[inline(always)]
    pub fn unpromote(self) -> PieceKind {
        if self.is_promoted() {
            match PieceKind::from_index(self as u8 - 8) {
                Some(k) => k,
                None => self,
            }
        } else {
            self
        }
    }
    /// Whether a hand can hold this kind (unpromoted, not king).
    #[inline(always)]
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) <= 7
    }
    /// Moves like a gold: gold and the four promoted minor pieces.
    #[inline(always)]
    pub const fn moves_like_gold(self) -> bool {
        matches!(self, Gold | ProPawn | ProLance | ProKnight | ProSilver)
    }

    /// The SFEN letter for Black's piece of this kind, without the '+' of promoted kinds.
    pub const fn base_char(self) -> char {
        match self {
            Pawn | ProPawn => 'P',
            Lance | ProLance => 'L',
            Knight | ProKnight => 'N',
            Silver | ProSilver => 'S',
            Bishop | Horse => 'B',
            Rook | Dragon => 'R',
            Gold => 'G',
            King => 'K',
        }
    }

    /// The unpromoted kind of an SFEN letter (either case).
    pub const fn from_char(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Pawn,
            'L' => Lance,
            'N' => Knight,
            'S' => Silver,
            'B' => Bishop,
            'R' => Rook,
            'G' => Gold,
            'K' => King,
            _ => return None,
        })
    }
}

/// A piece of one colour, packed as `kind | color << 4`; 0 is the empty square.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Piece(u8);

impl Piece {
    pub const EMPTY: Piece = Piece(0);
    pub const NUM: usize = 32;

    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(kind as u8 | (color as u8) << 4)
    }
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The kind; must not be called on `EMPTY`.
    #[inline(always)]
    pub fn kind(self) -> PieceKind {
        debug_assert!(!self.is_empty());
        match PieceKind::from_index(self.0 & 15) {
            Some(k) => k,
            None => King,
        }
    }
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 16 != 0 {
            Color::White
        } else {
            Color::Black
        }
    }
    /// `Some((color, kind))` for an occupied square.
    #[inline(always)]
    pub fn get(self) -> Option<(Color, PieceKind)> {
        if self.is_empty() {
            None
        } else {
            Some((self.color(), self.kind()))
        }
    }
}

impl fmt::Display for Piece {
    /// SFEN notation: `P`, `+p`, ...; the empty square prints as `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.get() {
            None => f.write_str("."),
            Some((color, kind)) => {
                if kind.is_promoted() {
                    f.write_str("+")?;
                }
                let c = kind.base_char();
                let c = if color == Color::White { c.to_ascii_lowercase() } else { c };
                write!(f, "{c}")
            }
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
