//! An independent check of a mate line reported by the search, for the front ends: every move
//! legal, every attacker move a check, and the last position checkmate; under tsume rules the
//! last position may instead be a check that only interpositions answer (the line ends where
//! only futile interpositions remain; their futility is the solver's claim, which cshogi's
//! `verify_mates.py --rules tsume` checks by its own search).
//!
//! Uses only the rules crate, so a search bug cannot hide itself here.

use crate::config::Rules;
use shogi::movegen::{is_checkmate, is_legal, is_legal_check, legal_moves};
use shogi::{attacks, Color, MoveList};
use shogi::{Move, Position};

/// Whether the root is an AND node: the side to move is in check and defends.
pub fn root_defends(pos: &Position) -> bool {
    pos.in_check()
}

/// Checks `moves` as a mate line from `root` (the side to move attacks unless it is in check,
/// as in [`crate::Solver::solve`]). Returns a description of the first defect.
pub fn verify_mate_line(root: &Position, moves: &[Move], rules: Rules) -> Result<(), String> {
    let attacker = if root_defends(root) { !root.side_to_move() } else { root.side_to_move() };
    verify_mate_line_as(root, attacker, moves, rules)
}

/// As [`verify_mate_line`], with the mating side given.
pub fn verify_mate_line_as(
    root: &Position,
    attacker: Color,
    moves: &[Move],
    rules: Rules,
) -> Result<(), String> {
    let mut pos = root.clone();
    for (i, &m) in moves.iter().enumerate() {
        // An attacker move is looked for among the checks only (far fewer than the legal
        // moves where the attacker holds pieces); which of the two it fails is told apart
        // only then.
        let attacking = pos.side_to_move() == attacker;
        let legal = if attacking { is_legal_check(&pos, m) } else { is_legal(&pos, m) };
        if !legal {
            return Err(if attacking && is_legal(&pos, m) {
                format!("attacker move {} ({m}) does not give check", i + 1)
            } else {
                format!("move {} ({m}) is illegal", i + 1)
            });
        }
        pos.make_move(m);
    }
    if pos.side_to_move() == attacker {
        return Err("the line ends with the attacker to move".to_string());
    }
    if is_checkmate(&pos) || (rules == Rules::Tsume && only_interpositions_left(&pos)) {
        return Ok(());
    }
    Err(match rules {
        Rules::Pure => "the final position is not checkmate".to_string(),
        Rules::Tsume => {
            "the final position is neither checkmate nor a check that only interpositions answer"
                .to_string()
        }
    })
}

/// Whether the side to move is in check from one long-range piece and every legal reply is an
/// interposition: a drop, or a move of a piece other than the king, onto a square between the
/// checker and the king.
pub fn only_interpositions_left(pos: &Position) -> bool {
    let checkers = pos.checkers();
    let (Some(checker), Some(king)) = (checkers.lsb(), pos.king_square(pos.side_to_move())) else {
        return false;
    };
    if checkers.has_more_than_one() {
        return false;
    }
    let between = attacks::between(checker, king);
    let mut replies = MoveList::new();
    legal_moves(pos, &mut replies);
    !replies.is_empty()
        && replies.iter().all(|&m| {
            let king_move = !m.is_drop() && m.from() == king;
            !king_move && between.contains(m.to())
        })
}

/// USI text of a move list, space separated.
pub fn moves_to_usi(moves: &[Move]) -> String {
    let mut s = String::new();
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&m.to_string());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
    }

    fn line(p: &Position, text: &str) -> Vec<Move> {
        let mut q = p.clone();
        text.split_whitespace()
            .map(|t| {
                let m = q.parse_usi_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
                q.make_move(m);
                m
            })
            .collect()
    }

    #[test]
    fn mate_in_one() {
        let p = pos("4k4/9/4P4/9/9/9/9/9/9 b G 1");
        assert_eq!(verify_mate_line(&p, &line(&p, "G*5b"), Rules::Pure), Ok(()));
        assert!(verify_mate_line(&p, &line(&p, "G*4b"), Rules::Pure).is_err());
        assert!(verify_mate_line(&p, &[], Rules::Pure).is_err());
        assert_eq!(moves_to_usi(&line(&p, "G*5b")), "G*5b");
    }

    #[test]
    fn illegal_and_quiet_moves_are_rejected() {
        let p = pos("4k4/9/4P4/9/9/9/9/9/9 b G 1");
        let bad = shogi::usi::parse_move_syntax("R*5b").unwrap_or_else(|e| panic!("{e}"));
        assert!(verify_mate_line(&p, &[bad], Rules::Pure).unwrap_err().contains("illegal"));
        let not_mate = line(&p, "5c5b+");
        assert!(verify_mate_line(&p, &not_mate, Rules::Tsume).is_err());
        // A legal attacker move that gives no check is told apart from an illegal one.
        let quiet = line(&p, "G*1a");
        let e = verify_mate_line(&p, &quiet, Rules::Pure).unwrap_err();
        assert!(e.contains("move 1 (G*1a) does not give check"), "{e}");
    }

    #[test]
    fn and_root_already_mated() {
        // White to move, in check from the gold on 5b, no escape: a 0-ply mate at an AND root.
        let p = pos("4k4/4G4/4P4/9/9/9/9/9/9 w - 1");
        assert!(root_defends(&p));
        assert_eq!(verify_mate_line(&p, &[], Rules::Pure), Ok(()));
    }
}
