//! Interpositions that wait against a dragon's or a horse's check from afar: an interposition
//! by drop on a square no defender guards is mostly taken by the checker with check again, and
//! its proof repeats the other defences', so it is searched after them (shtsume's
//! `ryuma_flag`, found by replicating its search: benches/history/45).

use super::children::{is_open, Child, Gate, Opens};
use super::dfpn::Search;
use shogi::{Move, PieceKind, Position, Square};

/// shtsume's distance from the king to a move's destination (`g_distance`): the larger of
/// the file and rank differences where the square is two or more away on the king's file or
/// rank, or two or more away on both (its "directions" are quadrants, not diagonals);
/// elsewhere (next to the king, a knight's jump away and the like) 1. The replica reads it too.
pub fn king_distance(king: Square, to: Square) -> u8 {
    let (kf, kr) = (king.file().index() as i32, king.rank().index() as i32);
    let (tf, tr) = (to.file().index() as i32, to.rank().index() as i32);
    let (df, dr) = ((kf - tf).abs(), (kr - tr).abs());
    if (df == 0 && dr > 1) || (dr == 0 && df > 1) || (df > 1 && dr > 1) {
        df.max(dr) as u8
    } else {
        1
    }
}

impl Search<'_> {
    /// Whether the AND node `pos` answers a dragon's or a horse's check from afar: the
    /// checking move landed more than two squares from the king (shtsume's distance).
    pub(super) fn answers_distant_check(&self, pos: &Position) -> bool {
        let last = pos.last_move();
        if last == Move::NULL {
            return false;
        }
        let ranged = matches!(
            pos.piece_at(last.to()).get(),
            Some((_, PieceKind::Dragon | PieceKind::Horse))
        );
        ranged
            && pos.king_square(pos.side_to_move()).is_some_and(|k| king_distance(k, last.to()) > 2)
    }

    /// Folds the first open interposition by drop on a square no defender guards behind the
    /// easiest other open defence (least dn, then pn); returns whether it did. Once that
    /// defence is mated the drop is open again and may fold behind the next one; with none
    /// left it is searched. Futility tests and the interpositions they gate are never folded.
    pub(super) fn fold_distant_drop(&self, pos: &Position, children: &mut [Child]) -> bool {
        let defender = pos.side_to_move();
        let Some(drop) = (0..children.len()).find(|&i| {
            let c = &children[i];
            is_open(children, i)
                && !c.is_futility_test()
                && !c.tested
                && c.mv.is_drop()
                && pos.attackers_to(defender, c.mv.to(), pos.occupied()).is_empty()
        }) else {
            return false;
        };
        let other = (0..children.len())
            .filter(|&i| i != drop && is_open(children, i))
            .min_by_key(|&i| (children[i].value.dn, children[i].value.pn));
        let Some(on) = other else { return false };
        children[drop].gate = Some(Gate { on: on as u16, opens_on: Opens::Proven });
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::children::is_active;
    use super::super::dfpn::Frame;
    use super::super::value::Value;
    use super::super::SearchFixture;
    use shogi::{Hand, Position};

    /// Plays `check` from `sfen` (Black to move; White's king on 1a holds one pawn), mates the
    /// first interposition (the pawn on 2a, which the king guards), and returns whether the
    /// check counts as from afar, whether the next drop (on 3a) was folded, and whether it is
    /// searched now.
    fn after_first_drop_mated(sfen: &str, check: &str) -> (bool, bool, bool) {
        let mut pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{e}"));
        let mv = pos.parse_usi_move(check).unwrap_or_else(|e| panic!("{e}"));
        pos.make_move(mv);
        let mut fixture = SearchFixture::new(1);
        let mut search = fixture.search(&pos);
        search.enter(&pos);
        let mut frame = Frame::default();
        search.expand(&mut pos, &mut frame);
        search.activate(&mut pos, &mut frame, 9);
        let at = |frame: &Frame, usi: &str| {
            let i = frame.children.iter().position(|c| c.mv.to_string() == usi);
            i.unwrap_or_else(|| panic!("{usi} is not a defence"))
        };
        let (head, next) = (at(&frame, "P*2a"), at(&frame, "P*3a"));
        assert!(is_active(&frame.children, head) && !is_active(&frame.children, next));
        frame.children[head].value = Value::proven(Hand::EMPTY, 0);
        search.activate(&mut pos, &mut frame, 9);
        assert!(is_active(&frame.children, next));
        let distant = search.answers_distant_check(&pos);
        let folded = distant && search.fold_distant_drop(&pos, &mut frame.children);
        (distant, folded, is_active(&frame.children, next))
    }

    /// A dragon checks from 9a: the pawn on 3a, which nothing guards, waits behind a king's
    /// move; a rook's check or a dragon's from two squares is not from afar, and a guarded
    /// square leaves the drop open.
    #[test]
    fn an_unguarded_drop_waits_against_a_dragon_from_afar() {
        let dragon = "8k/9/9/9/9/+R8/9/9/4K4 b p 1";
        assert_eq!(after_first_drop_mated(dragon, "9f9a"), (true, true, false));
        let rook = "8k/9/9/9/9/R8/9/9/4K4 b p 1";
        assert_eq!(after_first_drop_mated(rook, "9f9a"), (false, false, true));
        // Two squares away: only the pawn on 2a interposes, and the check is not from afar.
        let mut near =
            Position::from_sfen("8k/9/9/9/9/6+R2/9/9/4K4 b p 1").unwrap_or_else(|e| panic!("{e}"));
        near.make_move(near.parse_usi_move("3f3a").unwrap_or_else(|e| panic!("{e}")));
        let mut fixture = SearchFixture::new(1);
        assert!(!fixture.search(&near).answers_distant_check(&near));
        let guarded = "8k/6g2/9/9/9/+R8/9/9/4K4 b p 1";
        assert_eq!(after_first_drop_mated(guarded, "9f9a"), (true, false, true));
    }
}
