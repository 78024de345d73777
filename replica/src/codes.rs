//! shtsume's codes for pieces and hand kinds, which its orders compare as numbers.

use shogi::{Color, Piece, PieceKind};

/// A hand kind's code (`FU` 1 ... `HI` 7): its orders rank drops by it.
pub fn hand_code(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Pawn => 1,
        PieceKind::Lance => 2,
        PieceKind::Knight => 3,
        PieceKind::Silver => 4,
        PieceKind::Gold => 5,
        PieceKind::Bishop => 6,
        PieceKind::Rook => 7,
        _ => 0,
    }
}

/// A kind's code on shtsume's board (pawn 1 ... rook 7, king 8, promoted pawn to silver 9-12,
/// horse 14, dragon 15): its orders compare captures and moving pieces by it.
pub fn kind_code(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::King => 8,
        PieceKind::ProPawn => 9,
        PieceKind::ProLance => 10,
        PieceKind::ProKnight => 11,
        PieceKind::ProSilver => 12,
        PieceKind::Horse => 14,
        PieceKind::Dragon => 15,
        k => hand_code(k),
    }
}

/// A piece's code on shtsume's board: 0 empty, Black's [`kind_code`], White's 16 more.
pub fn piece_code(piece: Piece) -> u8 {
    let Some((color, kind)) = piece.get() else { return 0 };
    kind_code(kind) + if color == Color::White { 16 } else { 0 }
}

/// The hand kind a captured piece's code gives (`code % PROMOTED`), as shtsume counts
/// captures in proof hands.
pub fn captured_kind(piece: Piece) -> Option<PieceKind> {
    match piece.get()?.1 {
        PieceKind::King => None,
        k if k.index() >= PieceKind::ProPawn.index() => Some(k.unpromote()),
        k => Some(k),
    }
}
