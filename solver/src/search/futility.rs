//! Futile interpositions (無駄合): the one rule, asked wherever the solver needs it (the
//! bounded searches under tsume rules, the main line, the report, the line's last position).
//!
//! **The rule.** An interposition (a drop, or a move of a piece other than the king, onto a
//! square between a long-range checker and the king) is futile when the attacker can take the
//! interposed piece and keep the mate. Any attacker piece may take it. A capture keeps the mate
//! when, in its *test position* (the interposition and the capture made, and the captured piece
//! handed back to the defender, so that the defender stands as before the interposition with
//! the capturer on that square):
//! 1. the defender is in check;
//! 2. no defender piece, the king included, can take the capturer back;
//! 3. the king can go to no square it could not go to before the interposition (the capturer
//!    left no escape open behind it);
//! 4. the defender is mated.
//!
//! Conditions 1 to 3 are read off the board ([`futility_captures`]); condition 4 is a search
//! (the test child of [`super::children::Edge::Futility`], or `Search::is_futile`).
//!
//! **Why.** Composers call an interposition futile when it only delays the mate: the attacker
//! takes the piece and mates as before, without needing it (the test position lacks it). One
//! that the defender can take back, or whose capture lets the king out, changes the position
//! and counts with its own length (中合), even when the attacker mates in the end. A drop next
//! to the king taken by another piece than the checker, with mate, is futile as well.
//!
//! **Detours.** An interposition that is taken, retaken and leads back to a position of
//! another defence's line (same board, same hands) only adds plies; composers call it futile
//! too. That needs the lines, so the main line decides it (`Search::preferred_defence`).
//!
//! **Cost.** Only captures that pass the three board conditions are searched, so that an
//! interposition the king takes back costs no search at all.

use super::dfpn::Search;
use super::key_hasher::KeyMap;
use super::main_line::FUTILITY_CAP;
use shogi::movegen::is_legal;
use shogi::{attacks, Bitboard, Color, Move, PieceKind, Position, Square};

/// The most captures one interposition is tested with (every attacker piece that reaches the
/// square, a few with and without promotion).
const MAX_CAPTURES: usize = 16;

/// The captures of an interposed piece whose test positions decide its futility.
#[derive(Copy, Clone, Debug)]
pub(super) struct Captures {
    moves: [Move; MAX_CAPTURES],
    len: u8,
}

impl Captures {
    fn new() -> Captures {
        Captures { moves: [Move::NULL; MAX_CAPTURES], len: 0 }
    }
    fn push(&mut self, mv: Move) {
        if (self.len as usize) < MAX_CAPTURES {
            self.moves[self.len as usize] = mv;
            self.len += 1;
        }
    }
    pub(super) fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
}

/// The squares the king of the side to move can go to (captures included), read off the
/// attacks (no move generation: evasions with pieces in hand are many drops).
pub(super) fn king_escapes(pos: &Position) -> Bitboard {
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(us) else { return Bitboard::default() };
    let occ = pos.occupied() ^ Bitboard::from_square(ksq);
    (attacks::king(ksq) & !pos.pieces_of(us))
        .filter(|&sq| !pos.is_attacked(!us, sq, occ))
        .fold(Bitboard::default(), |b, sq| b | Bitboard::from_square(sq))
}

/// Plays the test position of `capture` after the interposition just made: the capture, and
/// the captured piece handed back to the defender. Undone by [`unplay_test`].
pub(super) fn play_test(pos: &mut Position, capture: Move, attacker: Color) {
    pos.make_move(capture);
    let taken = pos.last_captured().kind().unpromote();
    pos.make_hand_transfer(taken, attacker);
}

pub(super) fn unplay_test(pos: &mut Position) {
    pos.unmake_hand_transfer();
    pos.unmake_move();
}

/// The captures of the interposition `mv` at the AND node `pos` (the defender to move, in
/// check, `escapes` its king's squares: [`king_escapes`]) that meet the rule's conditions 1 to
/// 3, in the order their tests are searched: the checker first. A rook, bishop or pawn
/// promotes when it can (it then moves as before and more); a lance, knight or silver is
/// tried both ways.
pub(super) fn futility_captures(pos: &mut Position, mv: Move, escapes: Bitboard) -> Captures {
    let mut captures = Captures::new();
    let defender = pos.side_to_move();
    let attacker = !defender;
    let Some(checker) = pos.checkers().lsb() else { return captures };
    let to = mv.to();
    pos.make_move(mv);
    let takers = pos.attackers_to(attacker, to, pos.occupied());
    // The checker first: its test is the one most often mated.
    let ordered = std::iter::once(checker)
        .filter(|&sq| takers.contains(sq))
        .chain(takers.and_not(Bitboard::from_square(checker)));
    for from in ordered {
        let kind = pos.piece_at(from).kind();
        for promote in promotion_variants(kind, attacker, from, to) {
            let capture = Move::with_promotion(from, to, promote);
            if !is_legal(pos, capture) {
                continue;
            }
            play_test(pos, capture, attacker);
            if keeps_the_check(pos, to, escapes) {
                captures.push(capture);
            }
            unplay_test(pos);
        }
    }
    pos.unmake_move();
    captures
}

/// Whether the interposition `mv` at the AND node `pos` is futile by the board alone: one of its
/// [`futility_captures`] mates at once. No search needed; what the tests would find of it.
pub(super) fn mated_at_once(pos: &mut Position, mv: Move, escapes: Bitboard) -> bool {
    let attacker = !pos.side_to_move();
    let captures = futility_captures(pos, mv, escapes);
    captures.as_slice().iter().any(|&capture| {
        pos.make_move(mv);
        play_test(pos, capture, attacker);
        let mated = shogi::movegen::is_checkmate(pos);
        unplay_test(pos);
        pos.unmake_move();
        mated
    })
}

/// The promotion choices worth a test for a piece of `kind` moving from `from` to `to`.
fn promotion_variants(
    kind: PieceKind,
    attacker: Color,
    from: Square,
    to: Square,
) -> impl Iterator<Item = bool> {
    let zone = |sq: Square| sq.rank().relative_to(attacker) < 3;
    let can = kind.can_promote() && (zone(from) || zone(to));
    let (plain, promoted) = match kind {
        PieceKind::King => (false, false),
        PieceKind::Rook | PieceKind::Bishop | PieceKind::Pawn => (!can, can),
        PieceKind::Lance | PieceKind::Knight | PieceKind::Silver => (true, can),
        _ => (true, false),
    };
    [(plain, false), (promoted, true)].into_iter().filter(|&(on, _)| on).map(|(_, p)| p)
}

/// Conditions 1 to 3 in a test position: the defender in check, unable to take back on `on`,
/// and with no king square outside `escapes`.
fn keeps_the_check(test: &Position, on: Square, escapes: Bitboard) -> bool {
    if !test.in_check() || king_escapes(test).and_not(escapes).is_nonempty() {
        return false;
    }
    let defender = test.side_to_move();
    let takers = test.attackers_to(defender, on, test.occupied());
    // The king's capture is among its escapes; another piece's must be legal (a pinned piece,
    // or a second check, may forbid it).
    let ksq = test.king_square(defender);
    takers.filter(|&from| Some(from) != ksq).all(|from| {
        !is_legal(test, Move::normal(from, on)) && !is_legal(test, Move::promotion(from, on))
    })
}

impl Search<'_> {
    /// Whether the interposition `mv` at the AND node `pos` (the end of the path) is futile:
    /// the test position of one of its [`futility_captures`] is mated. A test not settled
    /// within its node cap counts the interposition as a defence. `cache` keeps the tests'
    /// answers by the test position's key.
    pub(super) fn is_futile(
        &mut self,
        pos: &mut Position,
        mv: Move,
        mut cache: Option<&mut KeyMap<u64, bool>>,
    ) -> bool {
        let escapes = king_escapes(pos);
        let captures = futility_captures(pos, mv, escapes);
        for &capture in captures.as_slice() {
            pos.make_move(mv);
            play_test(pos, capture, self.attacker);
            self.enter(pos);
            let key = pos.key();
            let mated = match cache.as_ref().and_then(|c| c.get(&key)) {
                Some(&mated) => mated,
                None => {
                    let mated = !self.is_repetition() && self.proven_here(pos, FUTILITY_CAP);
                    if let Some(c) = cache.as_mut() {
                        c.insert(key, mated);
                    }
                    mated
                }
            };
            self.leave();
            unplay_test(pos);
            pos.unmake_move();
            if mated {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
    }

    fn captures_of(sfen: &str, interposition: &str) -> Vec<String> {
        let mut pos = position(sfen);
        let mv = pos.parse_usi_move(interposition).unwrap_or_else(|e| panic!("{e}"));
        let escapes = king_escapes(&pos);
        futility_captures(&mut pos, mv, escapes).as_slice().iter().map(|m| m.to_string()).collect()
    }

    /// The rook on 9a checks the king on 1a along the first rank. A pawn dropped on 2a and
    /// taken by the rook is taken back by the king: no test.
    #[test]
    fn a_capture_the_king_takes_back_is_not_tested() {
        assert!(captures_of("R7k/9/9/9/9/9/9/9/9 w p 1", "P*2a").is_empty());
    }

    /// With a gold on 3b guarding 2a, the rook's capture (promoting: 2a is in the zone) is
    /// tested, and so is the gold's: on 2a it checks, the rook's x-ray guards it, and the king
    /// keeps only 1b, which it had before.
    #[test]
    fn every_piece_that_takes_and_keeps_the_check_is_tested() {
        assert_eq!(captures_of("R7k/6G2/9/9/9/9/9/9/9 w p 1", "P*2a"), ["9a2a+", "3b2a"]);
    }

    /// A piece that takes without checking (a silver on 2a, unpromoted, blocks the rook's line)
    /// makes no test; promoted, it checks.
    #[test]
    fn a_capture_that_gives_no_check_is_not_tested() {
        assert_eq!(captures_of("R7k/6S2/9/9/9/9/9/9/9 w p 1", "P*2a"), ["9a2a+", "3b2a+"]);
    }

    /// The rook on 5i checks the king on 5a up the file; the silver on 4c guards 4b. Taken by
    /// the silver unpromoted, the pawn on 5b leaves 4b open: no test. Promoted, the silver
    /// guards 4b and 6b from 5b; the rook's capture is guarded by the silver.
    #[test]
    fn a_capture_that_opens_an_escape_is_not_tested() {
        assert_eq!(captures_of("4k4/9/5S3/9/9/9/9/9/4R4 w p 1", "P*5b"), ["5i5b+", "4c5b+"]);
    }
}
