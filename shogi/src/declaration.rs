//! Entering-king declaration (入玉宣言) under the 27-point rule, as used in computer shogi
//! tournaments: the side to move wins by declaring when
//! 1. its king stands in the enemy camp (the three far ranks),
//! 2. at least ten of its other pieces stand there too,
//! 3. those pieces plus its pieces in hand score at least 28 points for Black or 27 for White
//!    (rook and bishop, promoted or not, 5 points; every other piece 1; the king nothing),
//! 4. and it is not in check.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::piece::PieceKind;
use crate::position::Position;

impl Position {
    /// Whether the side to move may declare a win now.
    pub fn can_declare_win(&self) -> bool {
        let us = self.side_to_move();
        let Some(ksq) = self.king_square(us) else {
            return false;
        };
        let camp = Bitboard::promotion_zone(us);
        if !camp.contains(ksq) || self.in_check() {
            return false;
        }
        let ours = (self.pieces_of(us) & camp).and_not(Bitboard::from_square(ksq));
        if ours.count() < 10 {
            return false;
        }
        let big = |kind| self.pieces(us, kind);
        let big_on_board = ((big(PieceKind::Bishop)
            | big(PieceKind::Rook)
            | big(PieceKind::Horse)
            | big(PieceKind::Dragon))
            & camp)
            .count();
        let hand = self.hand(us);
        let big_in_hand = hand.count(PieceKind::Bishop) + hand.count(PieceKind::Rook);
        let points = ours.count() + 4 * big_on_board + hand.total() + 4 * big_in_hand;
        let needed = if us == Color::Black { 28 } else { 27 };
        points >= needed
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
    }

    #[test]
    fn twenty_eight_points_for_black() {
        // King on 5b, ten pieces in camp: R B (10) + 8 others (8) = 18, hand R B G G S S = 16.
        let p = pos("+R+B1GKG3/PPPPPP3/9/9/9/9/9/9/k8 b 2G2S 1");
        assert!(!p.can_declare_win(), "ten pieces but 18 + 6 points");
        let p = pos("+R+B1GKG3/PPPPPP3/9/9/9/9/9/9/k8 b RB2S 1");
        assert!(p.can_declare_win());
        let p = pos("+R+B1GKG3/PPPPP4/9/9/9/9/9/9/k8 b RB2SP 1");
        assert!(!p.can_declare_win(), "only nine pieces in camp");
        let p = pos("+R+B1G1G3/PPPPPP3/4K4/9/9/9/9/9/k8 b RB2S 1");
        assert!(p.can_declare_win(), "rank c is still the camp");
        let p = pos("+R+B1G1G3/PPPPPP3/9/4K4/9/9/9/9/k8 b RB2S 1");
        assert!(!p.can_declare_win(), "king outside the camp");
    }

    #[test]
    fn twenty_seven_points_for_white() {
        // Mirror image: 10 + 8 + hand r b s (11) = 29 >= 27; with only r (5): 23.
        let p = pos("8K/9/9/9/9/9/9/3pppppp/3gkg1+b+r w rbs 1");
        assert!(p.can_declare_win());
        let p = pos("8K/9/9/9/9/9/9/3pppppp/3gkg1+b+r w r 1");
        assert!(!p.can_declare_win());
    }

    #[test]
    fn not_in_check() {
        let p = pos("+R+B1GKG3/PPPPPsP2/9/9/9/9/9/9/k8 b RB2S 1");
        assert!(p.in_check());
        assert!(!p.can_declare_win());
    }
}
