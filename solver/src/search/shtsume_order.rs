//! shtsume's move orders, for ties of (pn, dn) (recipe piece `order`), and its distance of a
//! check from the king (piece `distance`): see [`crate::recipe`].

use shogi::{Move, PieceKind, Position, Square};

/// shtsume's piece codes, by which it compares captures and drops (`replica::codes`).
fn code(kind: PieceKind) -> u16 {
    u16::from(crate::replica::codes::kind_code(kind))
}

/// The code of the piece `mv` takes, 0 for none.
fn captured(pos: &Position, mv: Move) -> u16 {
    if mv.is_drop() {
        return 0;
    }
    let piece = pos.piece_at(mv.to());
    if piece.is_empty() {
        0
    } else {
        code(piece.kind())
    }
}

/// The king's distance to `to` as shtsume counts it (see `replica::codes::king_distance`: two
/// or more away on both file and rank counts as far as the larger difference; history 45).
pub(super) fn distance(king: Square, to: Square) -> u32 {
    u32::from(crate::replica::codes::king_distance(king, to))
}

/// A check's rank among checks of equal numbers (lower first): the capture of the most
/// valuable piece, a board move before a drop, a promotion, the strongest drop, the nearest
/// the defender's king (`king`).
pub(super) fn check_rank(pos: &Position, mv: Move, king: Option<Square>) -> u16 {
    let capture = 15 - captured(pos, mv);
    let drop = u16::from(mv.is_drop());
    let not_promotion = u16::from(!mv.is_promotion());
    let weaker_drop = mv.dropped().map_or(0, |k| 15 - code(k));
    let near = king.map_or(0, |k| distance(k, mv.to()).min(15) as u16);
    capture << 10 | drop << 9 | not_promotion << 8 | weaker_drop << 4 | near
}

/// A defence's rank among defences of equal numbers (lower first): a board move before a
/// drop, the capture of the most valuable piece, the cheapest piece moving, the king, a
/// promotion, the cheapest drop.
pub(super) fn defence_rank(pos: &Position, mv: Move) -> u16 {
    let drop = u16::from(mv.is_drop());
    let capture = 15 - captured(pos, mv);
    let (mover, not_king) = if mv.is_drop() {
        (0, 1)
    } else {
        let kind = pos.piece_at(mv.from()).kind();
        (code(kind), u16::from(kind != PieceKind::King))
    };
    let not_promotion = u16::from(!mv.is_promotion());
    let dropped = mv.dropped().map_or(0, code);
    drop << 14 | capture << 10 | mover << 6 | not_king << 5 | not_promotion << 4 | dropped
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square by USI file (1-9) and rank letter.
    fn sq(file: i32, rank: char) -> Square {
        Square::from_coords(file - 1, rank as i32 - 'a' as i32).unwrap_or_else(|| panic!("off"))
    }

    #[test]
    fn distance_counts_quadrants_two_away_and_one_next_to_the_king() {
        assert_eq!(distance(sq(5, 'e'), sq(5, 'a')), 4);
        assert_eq!(distance(sq(5, 'e'), sq(2, 'b')), 3);
        assert_eq!(distance(sq(5, 'e'), sq(2, 'c')), 3, "off the diagonal, two away on both");
        assert_eq!(distance(sq(5, 'e'), sq(4, 'c')), 1, "a knight's square");
        assert_eq!(distance(sq(5, 'e'), sq(4, 'd')), 1);
    }

    fn position(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Checks: a capture first, then board moves before drops, the rook drop before the gold,
    /// the nearer rook drop before the farther.
    #[test]
    fn checks_rank_by_shtsumes_order() {
        let pos = position("4k4/9/4p4/9/9/9/9/4R4/4K4 b RGP 1");
        let rank = |usi: &str| {
            let mv = pos.parse_usi_move(usi).unwrap_or_else(|e| panic!("{e}"));
            check_rank(&pos, mv, pos.king_square(shogi::Color::White))
        };
        assert!(rank("5h5c+") < rank("5h5c"));
        assert!(rank("5h5c") < rank("R*5b"));
        assert!(rank("R*5b") < rank("G*5b"));
        assert!(rank("R*5b") < rank("R*9a"));
    }

    /// Defences: a board move before a drop, the cheaper piece moving before the king, and
    /// among drops the pawn first.
    #[test]
    fn defences_rank_by_shtsumes_order() {
        let pos = position("4k4/3g5/9/9/9/9/9/4R4/4K4 w pl 1");
        let rank = |usi: &str| {
            let mv = pos.parse_usi_move(usi).unwrap_or_else(|e| panic!("{e}"));
            defence_rank(&pos, mv)
        };
        assert!(rank("6b5b") < rank("5a4a"));
        assert!(rank("5a4a") < rank("P*5b"));
        assert!(rank("P*5b") < rank("L*5b"));
    }
}
