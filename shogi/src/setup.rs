//! An unvalidated setup (what an SFEN says) and its validation into a [`Position`].

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::hand::Hand;
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::square::{File, Square};
use std::fmt;

/// A position as written, not yet checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: [Piece; Square::NUM],
    /// Counts in hand per colour, indexed by `PieceKind::index()` (1..=7); may exceed a full set
    /// until validated.
    pub hands: [[u8; 8]; 2],
    pub side: Color,
    /// The SFEN move number.
    pub ply: u32,
}

/// Why a setup is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Two unpromoted pawns of one side on one file (二歩); `square` is the second one's.
    TwoPawnsOnFile { color: Color, file: File, square: Square },
    /// A pawn or lance on its last rank, or a knight on its last two: it could never move.
    DeadPiece { square: Square, piece: Piece },
    /// More pieces of a kind (board, promoted or not, plus hands) than a set holds.
    TooManyPieces { kind: PieceKind, count: u32 },
    /// More than one king of one side; `square` is the second one's.
    TooManyKings { color: Color, square: Square },
    /// The side that is not to move is in check: the last move left its king capturable.
    OpponentInCheck,
}

impl PositionError {
    /// The square the error is about, where it has one (a board reader names its row).
    pub fn square(&self) -> Option<Square> {
        match self {
            PositionError::TwoPawnsOnFile { square, .. }
            | PositionError::DeadPiece { square, .. }
            | PositionError::TooManyKings { square, .. } => Some(*square),
            PositionError::TooManyPieces { .. } | PositionError::OpponentInCheck => None,
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::TwoPawnsOnFile { color, file, .. } => {
                write!(f, "two {color} pawns on file {}", file.to_char())
            }
            PositionError::DeadPiece { square, piece } => {
                write!(f, "{piece} on {square} has no legal move")
            }
            PositionError::TooManyPieces { kind, count } => write!(
                f,
                "{count} pieces of kind {} (a set has {})",
                kind.base_char(),
                PieceKind::SET_COUNT[kind.index()]
            ),
            PositionError::TooManyKings { color, square } => {
                write!(f, "more than one {color} king (another on {square})")
            }
            PositionError::OpponentInCheck => f.write_str("the side not to move is in check"),
        }
    }
}

impl std::error::Error for PositionError {}

impl Setup {
    pub fn empty() -> Setup {
        Setup { board: [Piece::EMPTY; Square::NUM], hands: [[0; 8]; 2], side: Color::Black, ply: 1 }
    }

    /// Checks the rules' static constraints and builds the position. Kings may be missing: tsume
    /// problems have no attacker king.
    pub fn validate(&self) -> Result<Position, PositionError> {
        let mut counts = [0u32; 9];
        let mut kings = [0u32; 2];
        let mut pawn_files = [[false; 9]; 2];
        for sq in Square::all() {
            let Some((color, kind)) = self.board[sq.index()].get() else {
                continue;
            };
            let rel = sq.rank().relative_to(color);
            let dead = match kind {
                PieceKind::Pawn | PieceKind::Lance => rel < 1,
                PieceKind::Knight => rel < 2,
                _ => false,
            };
            if dead {
                return Err(PositionError::DeadPiece { square: sq, piece: self.board[sq.index()] });
            }
            if kind == PieceKind::Pawn {
                let f = &mut pawn_files[color.index()][sq.file().index()];
                if *f {
                    return Err(PositionError::TwoPawnsOnFile {
                        color,
                        file: sq.file(),
                        square: sq,
                    });
                }
                *f = true;
            }
            if kind == PieceKind::King {
                kings[color.index()] += 1;
                if kings[color.index()] > 1 {
                    return Err(PositionError::TooManyKings { color, square: sq });
                }
            }
            counts[kind.unpromote().index()] += 1;
        }
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                counts[kind.index()] += self.hands[color.index()][kind.index()] as u32;
            }
        }
        for kind in PieceKind::HAND {
            let count = counts[kind.index()];
            if count > PieceKind::SET_COUNT[kind.index()] as u32 {
                return Err(PositionError::TooManyPieces { kind, count });
            }
        }

        let mut pos = Position::empty();
        for sq in Square::all() {
            let piece = self.board[sq.index()];
            if !piece.is_empty() {
                pos.put(sq, piece);
            }
        }
        let mut hands = [Hand::EMPTY; 2];
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                hands[color.index()].set(kind, self.hands[color.index()][kind.index()] as u32);
            }
        }
        pos.finish_setup(hands, self.side, self.ply.max(1));
        if let Some(ksq) = pos.king_square(!self.side) {
            if pos.is_attacked(self.side, ksq, pos.occupied()) {
                return Err(PositionError::OpponentInCheck);
            }
        }
        Ok(pos)
    }
}

impl Position {
    /// The setup this position would be written as.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        for sq in Square::all() {
            setup.board[sq.index()] = self.piece_at(sq);
        }
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                setup.hands[color.index()][kind.index()] = self.hand(color).count(kind) as u8;
            }
        }
        setup.side = self.side_to_move();
        setup.ply = self.ply();
        setup
    }

    /// Whether the internal bitboards, kings and keys agree with the placement (for tests and
    /// debug assertions).
    pub fn is_consistent(&self) -> bool {
        let mut occ = Bitboard::EMPTY;
        for sq in Square::all() {
            if let Some((color, kind)) = self.piece_at(sq).get() {
                occ |= Bitboard::from_square(sq);
                if !self.pieces(color, kind).contains(sq) {
                    return false;
                }
                if kind == PieceKind::King && self.king_square(color) != Some(sq) {
                    return false;
                }
            }
        }
        let checkers = self
            .king_square(self.side_to_move())
            .map(|k| self.attackers_to(!self.side_to_move(), k, self.occupied()))
            .unwrap_or(Bitboard::EMPTY);
        occ == self.occupied()
            && checkers == self.checkers()
            && self.compute_board_key() == self.board_key()
            && self.compute_hand_key() == self.hand_key()
    }
}
