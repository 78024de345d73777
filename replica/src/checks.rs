//! The attacker's checks in shtsume's order (`generate_check`, ncheck.c).
//!
//! shtsume does not sort its checks: the order in which it builds the list is the order its
//! stable sort keeps among moves of equal numbers, and so the order in which equal children are
//! expanded. It builds the list by prepending each move, so the list read from its head is the
//! reverse of the order in which the moves are found. They are found in this order:
//!
//! 1. drops, by kind: pawn, lance, knight, silver, gold, bishop, rook; each kind's squares
//!    from the lowest of shtsume's square indices ([`sht_index`]);
//! 2. board moves, by the kind of the moving piece: pawn, lance, knight, silver, the gold-like
//!    pieces (gold and the four promoted minors, taken together), king, bishop, rook, horse,
//!    dragon; each kind's pieces from the lowest index, and for each piece its non-promotions
//!    (destinations from the lowest index) before its promotions.
//!
//! The set is the legal checks. A board move is found when its destination checks directly
//! (the piece, or the promoted piece for a promotion, attacks the king from there) or when it
//! leaves the line of one of the attacker's sliders aimed at the king (a discovered check,
//! shtsume's `set_discpin`); a piece pinned to the attacker's own king stays on its pin line.
//! Every non-promotion that the rules allow is found, even where promoting is never worse
//! (a pawn, bishop or rook staying unpromoted): shtsume leaves out only the non-promotions a
//! piece could never move after (a pawn or lance to the last rank, a knight to the last two).
//!
//! Two exits come before the generation: when the attacker is itself in check its checks are
//! the evasions that give check (`evasion_check`), and when it has no piece on the board and
//! nothing in hand that checks from a distance (rook, bishop, knight, lance) there is nothing to
//! generate: a pawn, silver or gold dropped next to the king with nothing to support it is taken.

use super::{sht_index, Entry, ProvenLookup};
use shogi::attacks;
use shogi::movegen;
use shogi::piece::PieceKind::{self, *};
use shogi::{Bitboard, Color, Move, Position, Square};

/// The drops in the order shtsume tries them.
const DROP_ORDER: [PieceKind; 7] = [Pawn, Lance, Knight, Silver, Gold, Bishop, Rook];

/// The checks of the side to move, one [`Entry`] each, in the order of shtsume's list.
pub fn checks(pos: &Position, table: &dyn ProvenLookup, ply: u16) -> Vec<Entry> {
    if pos.in_check() {
        return super::evasions::evasion_checks(pos, table, ply);
    }
    // shtsume prepends each move it finds: its list from the head is the reverse.
    checks_in_found_order(pos).into_iter().rev().map(Entry::new).collect()
}

/// The checks of a side to move that is not in check, in the order shtsume finds them.
fn checks_in_found_order(pos: &Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let them = !us;
    let Some(eksq) = pos.king_square(them) else {
        return Vec::new();
    };
    let hand = pos.hand(us);
    if pos.pieces_of(us).is_empty() && [Rook, Bishop, Knight, Lance].iter().all(|&k| !hand.has(k)) {
        return Vec::new();
    }
    let occ = pos.occupied();
    let own = pos.pieces_of(us);
    let mut found = Vec::new();

    for kind in DROP_ORDER {
        if !hand.has(kind) {
            continue;
        }
        // The squares from which a piece of ours of this kind would attack the king are those
        // the same piece of theirs attacks from the king's square.
        let targets = attacks::attacks(them, kind, eksq, occ).and_not(occ);
        for to in in_sht_order(targets) {
            if kind == Pawn && !pawn_drop_allowed(pos, to) {
                continue;
            }
            found.push(Move::drop(kind, to));
        }
    }

    let lines = Lines::new(pos, eksq);
    for kind in [Pawn, Lance, Knight, Silver] {
        for from in in_sht_order(pos.pieces(us, kind)) {
            board_checks(pos, &lines, kind, from, eksq, &mut found);
        }
    }
    for from in in_sht_order(pos.golds(us)) {
        board_checks(pos, &lines, Gold, from, eksq, &mut found);
    }
    if let Some(ksq) = pos.king_square(us) {
        // The king never checks by itself: only by leaving a line it blocks, to a square the
        // defender does not attack.
        if let Some(line) = lines.discovery(ksq) {
            let targets = attacks::king(ksq).and_not(line).and_not(own);
            for to in in_sht_order(targets) {
                if !pos.is_attacked(them, to, occ) {
                    found.push(Move::normal(ksq, to));
                }
            }
        }
    }
    for kind in [Bishop, Rook, Horse, Dragon] {
        for from in in_sht_order(pos.pieces(us, kind)) {
            board_checks(pos, &lines, kind, from, eksq, &mut found);
        }
    }
    found
}

/// The checks of the piece of `kind` on `from` (gold-like pieces as `Gold`): its
/// non-promotions, then its promotions, each from the lowest destination.
fn board_checks(
    pos: &Position,
    lines: &Lines,
    kind: PieceKind,
    from: Square,
    eksq: Square,
    found: &mut Vec<Move>,
) {
    let us = pos.side_to_move();
    let them = !us;
    let occ = pos.occupied();
    let reach = attacks::attacks(us, kind, from, occ);
    let discovering = match lines.discovery(from) {
        Some(line) => reach.and_not(line),
        None => Bitboard::EMPTY,
    };
    let allowed = !pos.pieces_of(us) & lines.pin(from);

    let direct = reach & attacks::attacks(them, kind, eksq, occ);
    let plain = (direct | discovering) & allowed;
    for to in in_sht_order(plain) {
        if may_stay_unpromoted(us, kind, to) {
            found.push(Move::normal(from, to));
        }
    }
    if !kind.can_promote() {
        return;
    }
    let direct = reach & attacks::attacks(them, kind.promote(), eksq, occ);
    let promoting = (direct | discovering) & allowed;
    for to in in_sht_order(promoting) {
        if may_promote(us, kind, from, to) {
            found.push(Move::promotion(from, to));
        }
    }
}

/// Whether a piece of `kind` may move to `to` without promoting: not a pawn or lance to the
/// last rank, not a knight to the last two.
fn may_stay_unpromoted(us: Color, kind: PieceKind, to: Square) -> bool {
    let dead = match kind {
        Pawn | Lance => Bitboard::far_ranks(us, 1),
        Knight => Bitboard::far_ranks(us, 2),
        _ => Bitboard::EMPTY,
    };
    !dead.contains(to)
}

/// Whether the move may promote: a pawn, lance or knight by its destination only (it never
/// moves backwards out of the zone), a silver, bishop or rook by either end.
fn may_promote(us: Color, kind: PieceKind, from: Square, to: Square) -> bool {
    let zone = Bitboard::promotion_zone(us);
    match kind {
        Pawn | Lance | Knight => zone.contains(to),
        _ => zone.contains(to) || zone.contains(from),
    }
}

/// A pawn may be dropped in front of the king when the file holds no pawn of ours and the drop
/// is not mate (shtsume's `FU_CHECK` and `fu_tsume_check`, which plays the drop and asks
/// whether the defender is mated).
fn pawn_drop_allowed(pos: &Position, to: Square) -> bool {
    let us = pos.side_to_move();
    let file = Bitboard::file(to.file());
    if (pos.pieces(us, Pawn) & file).is_nonempty() || Bitboard::far_ranks(us, 1).contains(to) {
        return false;
    }
    let mut after = pos.clone();
    after.make_move(Move::drop(Pawn, to));
    !movegen::is_checkmate(&after)
}

/// The lines that shape a position's board checks: for each of the attacker's pieces that
/// alone stands between one of its sliders and the defender's king, the full line through it
/// and the king (leaving it discovers check; shtsume's `discpin_t`), and for each of its pieces
/// pinned to its own king, the line it must stay on (shtsume's `pinned`).
struct Lines {
    eksq: Square,
    discoverers: Bitboard,
    own_king: Option<Square>,
    pinned: Bitboard,
}

impl Lines {
    fn new(pos: &Position, eksq: Square) -> Lines {
        let us = pos.side_to_move();
        Lines {
            eksq,
            discoverers: pos.slider_blockers(us, eksq) & pos.pieces_of(us),
            own_king: pos.king_square(us),
            pinned: pos.pinned(),
        }
    }

    /// The line through `from` and the defender's king when the piece on `from` discovers
    /// check by leaving it.
    fn discovery(&self, from: Square) -> Option<Bitboard> {
        self.discoverers.contains(from).then(|| attacks::line(from, self.eksq))
    }

    /// The squares the piece on `from` may move to as far as pins go: its pin line when pinned
    /// to the attacker's own king, the whole board otherwise.
    fn pin(&self, from: Square) -> Bitboard {
        match self.own_king {
            Some(ksq) if self.pinned.contains(from) => attacks::line(from, ksq),
            _ => Bitboard::ALL,
        }
    }
}

/// The squares of `bb` in shtsume's order (rank-major from 1a), the order its generators visit.
fn in_sht_order(bb: Bitboard) -> impl Iterator<Item = Square> {
    let mut squares: Vec<Square> = bb.collect();
    squares.sort_unstable_by_key(|&sq| sht_index(sq));
    squares.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::{MoveClass, MoveList, NonPromotions};

    struct NothingProven;
    impl ProvenLookup for NothingProven {
        fn is_proven(&self, _pos: &Position, _ply: u16) -> bool {
            false
        }
    }

    fn usi_list(sfen: &str) -> Vec<String> {
        let pos = Position::from_sfen(sfen).unwrap();
        checks(&pos, &NothingProven, 0).iter().map(|e| e.head().to_string()).collect()
    }

    /// The lists below are shtsume's own (`generate_check` on the same positions, read from
    /// the head), so they pin the order as well as the set.
    #[test]
    fn board_moves_head_the_list_and_drops_close_it() {
        // Gold on 4c and a gold in hand against a king on 5a: the moves are found drops first
        // (squares from 1a rank by rank), then the gold's moves, and the list is the reverse.
        assert_eq!(
            usi_list("4k4/9/5G3/9/9/9/9/9/9 b G 1"),
            ["4c5b", "4c4b", "G*6b", "G*5b", "G*4b", "G*6a", "G*4a"]
        );
    }

    #[test]
    fn a_pawn_drop_mate_is_left_out() {
        // P*1b would mate (2a is the king's own knight, 2b and 1b are the gold's): only the
        // gold's two checks remain.
        let sfen = "7nk/9/7G1/9/9/9/9/9/9 b P 1";
        assert_eq!(usi_list(sfen), ["2c2b", "2c1b"]);
        // Without the gold's guard of 1b the drop is an ordinary check and is found.
        assert!(usi_list("7nk/9/9/9/9/9/9/9/7L1 b P 1").contains(&"P*1b".to_owned()));
    }

    #[test]
    fn a_discovered_check_is_found() {
        // The silver on 5e blocks the lance on 5i: each of its moves off the file checks, the
        // move along it (5d) does not.
        assert_eq!(usi_list("4k4/9/9/9/4S4/9/9/9/4L4 b - 1"), ["5e6f", "5e4f", "5e6d", "5e4d"]);
        // A king that blocks its own slider's line discovers check by stepping off it, onto
        // squares the defender does not attack.
        assert_eq!(
            usi_list("4k4/9/9/9/4K4/9/9/9/4L4 b - 1"),
            ["5e6f", "5e4f", "5e6e", "5e4e", "5e6d", "5e4d"]
        );
    }

    #[test]
    fn a_pinned_piece_stays_on_its_pin_line() {
        // The rook on 5e is pinned to its king on 5i by the lance on 5a: 5e1e would check but
        // leaves the line; 5e5c checks along rank c, promoted (found last) or not.
        assert_eq!(usi_list("4l4/9/8k/9/4R4/9/9/9/4K4 b - 1"), ["5e5c+", "5e5c"]);
    }

    #[test]
    fn no_checks_without_board_pieces_or_distant_drops() {
        // Golds, silvers and a pawn in hand could check the bare king, but with nothing on the
        // board to support them shtsume does not generate them.
        assert!(usi_list("4k4/9/9/9/9/9/9/9/9 b 2G2SP 1").is_empty());
        // A knight in hand is a distant check: the list is generated.
        assert_eq!(usi_list("4k4/9/9/9/9/9/9/9/9 b N 1"), ["N*6c", "N*4c"]);
        // A piece on the board too: generated.
        assert_eq!(
            usi_list("4k4/9/4+P4/9/9/9/9/9/9 b 2G 1"),
            ["5c6b", "5c5b", "5c4b", "G*6b", "G*5b", "G*4b", "G*6a", "G*4a"]
        );
    }

    /// Every problem's position and a reproducible random playout from it (both sides moving),
    /// and the start position's: the side to move's checks, where it is not in check and the
    /// other side has a king.
    fn for_each_position(mut visit: impl FnMut(&Position)) -> usize {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|x| x == "sfen"));
        files.sort();
        let mut sfens =
            vec!["lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".to_owned()];
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            sfens.extend(text.lines().map(|l| l.split('#').next().unwrap_or("").trim().to_owned()));
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut n = 0;
        let mut list = MoveList::new();
        for sfen in sfens.iter().filter(|s| !s.is_empty()) {
            let Ok(mut pos) = Position::from_sfen(sfen) else { continue };
            for _ in 0..16 {
                let us = pos.side_to_move();
                if !pos.in_check() && pos.king_square(!us).is_some() {
                    visit(&pos);
                    n += 1;
                }
                list.clear();
                movegen::legal_moves(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                pos.make_move(list[(next() % list.len() as u64) as usize]);
            }
        }
        n
    }

    #[test]
    fn the_list_is_the_legal_checks_once_each() {
        let mut rules = MoveList::new();
        let mut with_checks = 0;
        let n = for_each_position(|pos| {
            let ours: Vec<Move> = checks(pos, &NothingProven, 0).iter().map(|e| e.head()).collect();
            rules.clear();
            movegen::generate(pos, MoveClass::Checks, NonPromotions::Include, &mut rules);
            let us = pos.side_to_move();
            let hand = pos.hand(us);
            if pos.pieces_of(us).is_empty()
                && [Rook, Bishop, Knight, Lance].iter().all(|&k| !hand.has(k))
            {
                assert!(ours.is_empty(), "{}", pos.to_sfen());
                return;
            }
            for &m in &ours {
                assert!(movegen::is_legal_check(pos, m), "{} {m}", pos.to_sfen());
            }
            let mut sorted = ours.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), ours.len(), "a move twice: {}", pos.to_sfen());
            let mut expected: Vec<Move> = rules.iter().copied().collect();
            expected.sort();
            assert_eq!(sorted, expected, "{}", pos.to_sfen());
            with_checks += usize::from(!ours.is_empty());
        });
        assert!(n > 10_000 && with_checks > 3_000, "{n} positions, {with_checks} with checks");
    }
}
