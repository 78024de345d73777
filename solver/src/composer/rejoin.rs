//! **Cooks that rejoin the main line.** A check that mates as long as the main line (at the
//! first move: any mate, or an open question) leaves open whether it mates sooner, which the
//! report asks as a depth-limited search as deep as the main line (図巧83's ▲１七龍 at move 15:
//! 247 plies). Where one defence to it reaches the main line's own position two plies on (the
//! promoted and unpromoted moves of a piece the defender takes, a transposition), the main
//! line settles it: from that position no mate is shorter than the main line's, when every
//! other check from there on is settled with none sooner (see [`super::shortest`]), so through
//! the check none is shorter than the main line's from its move either. (Two plies on, the
//! only position of the main line off the check's path is the one after the main move, from
//! which the defender goes back to the position reached: no line through it mates.)

use super::{shortest::rules_out_shorter, Answer};
use shogi::{Move, MoveList, Position};

/// An answer to "does the other check `mv` mate?" at the main line's ply `index`.
pub(super) struct CheckAnswer<'a> {
    pub index: usize,
    pub mv: Move,
    pub answer: &'a mut Answer,
}

/// Settles, from the end of the main line back, the answers a defence that rejoins the main
/// line two plies on proves no sooner than the main line (`positions`: the main line's, by
/// ply; its length the main line's). Returns how many answers it changed.
pub(super) fn settle_rejoining(answers: &mut [CheckAnswer<'_>], positions: &[Position]) -> usize {
    let len = positions.len();
    // Whether no mate from the main line's position at a ply is shorter than the main line's,
    // by the answers at every attacker ply from there on.
    let mut shortest_from = vec![true; len + 2];
    let mut changed = 0;
    for index in (0..len).rev() {
        shortest_from[index] = shortest_from[index + 1];
        let remaining = len - index;
        let rejoined = index + 2 < len && shortest_from[index + 2];
        for a in answers.iter_mut().filter(|a| a.index == index) {
            if rules_out_shorter(a.answer, remaining) {
                continue;
            }
            if rejoined && rejoins(&positions[index], a.mv, &positions[index + 2]) {
                // Through the check: at least its defence and the main line's from there.
                let plies = remaining - 2;
                *a.answer = match std::mem::replace(a.answer, Answer::NoMate) {
                    Answer::Mate { moves, .. } if moves.len() + 1 == remaining => {
                        Answer::Mate { moves, proven: true }
                    }
                    Answer::Mate { moves, .. } => Answer::NotWithin { plies, moves },
                    Answer::NotWithin { plies: p, moves } => {
                        Answer::NotWithin { plies: p.max(plies), moves }
                    }
                    Answer::OpenBeyond { plies: p, what } => {
                        Answer::OpenBeyond { plies: p.max(plies), what }
                    }
                    Answer::Unsettled(what) => Answer::OpenBeyond { plies, what },
                    other => other,
                };
                changed += 1;
            }
            if !rules_out_shorter(a.answer, remaining) {
                shortest_from[index] = false;
            }
        }
    }
    changed
}

/// Whether a defence to the check `c` from `pos` reaches `target`: a king move or a capture
/// of the piece that checked, never an interposition (a futile one is not counted, and the
/// plies through it would be fewer).
fn rejoins(pos: &Position, c: Move, target: &Position) -> bool {
    let mut after = pos.clone();
    after.make_move(c);
    let mut evasions = MoveList::new();
    shogi::movegen::legal_moves(&after, &mut evasions);
    let king = after.king_square(after.side_to_move());
    let counted = |e: &Move| !e.is_drop() && (e.to() == c.to() || Some(e.from()) == king);
    evasions.iter().filter(|e| counted(e)).any(|&e| {
        let mut reached = after.clone();
        reached.make_move(e);
        // The same board, hands and side to move (`Position`'s equality: history aside).
        reached == *target
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{e}"))
    }

    fn mv(pos: &Position, usi: &str) -> Move {
        pos.parse_usi_move(usi).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The main line's positions from `sfen` along `usi`.
    fn positions(sfen: &str, usi: &[&str]) -> Vec<Position> {
        let mut pos = position(sfen);
        let mut all = Vec::new();
        for m in usi {
            all.push(pos.clone());
            let m = mv(&pos, m);
            pos.make_move(m);
        }
        all
    }

    /// A rook on 8b next to a king on 5a: ▲５二飛成 △同金 and ▲５二飛不成 △同金
    /// reach the same position; the main line's length from there, settled, rules out a
    /// shorter mate through the other.
    #[test]
    fn a_promotion_the_defender_takes_rejoins_the_main_line() {
        let sfen = "3gk4/1R7/9/9/9/9/9/9/9 b G2S 1";
        let pos = positions(sfen, &["8b5b+", "6a5b", "G*4b"]);
        assert!(rejoins(&pos[0], mv(&pos[0], "8b5b"), &pos[2]));
        assert!(!rejoins(&pos[0], mv(&pos[0], "8b7b"), &pos[2]));
        // A main line of 7 plies (the positions after the third stand for the rest), the
        // unpromoted rook's mate as long, not proven; nothing else open.
        let all: Vec<Position> = (0..7).map(|k| pos[k.min(2)].clone()).collect();
        let moves = vec![Move::NULL; 6];
        let unpromoted = mv(&all[0], "8b5b");
        let mut answer = Answer::Mate { moves: moves.clone(), proven: false };
        let mut answers = vec![CheckAnswer { index: 0, mv: unpromoted, answer: &mut answer }];
        assert_eq!(settle_rejoining(&mut answers, &all), 1);
        assert_eq!(answer, Answer::Mate { moves: moves.clone(), proven: true });
        // An open question further on: the position two plies on is no longer known to need
        // the main line's length, and nothing is settled.
        let mut answer = Answer::Mate { moves, proven: false };
        let mut open = Answer::Unsettled(String::new());
        let mut answers = vec![
            CheckAnswer { index: 0, mv: unpromoted, answer: &mut answer },
            CheckAnswer { index: 4, mv: mv(&all[4], "G*4b"), answer: &mut open },
        ];
        assert_eq!(settle_rejoining(&mut answers, &all), 0);
        assert!(matches!(answer, Answer::Mate { proven: false, .. }));
    }
}
