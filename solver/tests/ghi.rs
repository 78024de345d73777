//! The graph-history interaction (GHI), run with --release.
//!
//! A repetition is no mate for the attacker, so a disproof that rests on a position repeating
//! one earlier on the current path holds only for paths through that earlier position. The
//! search returns such a disproof to its parent but must never store it in the table: the same
//! position reached by another path may well be a mate.
//!
//! The positions come from 将棋図巧 #83 (`problems/edo_zukou.pv`), near the end of its dragon
//! chase: B (after 240 moves of the recorded line) and A (after 242).
//!
//! - A: Black's dragon on 3i, White's king on 4g; a mate in 21 (pure rules).
//! - X: the dragon on 3i gives check to the king on 3h; White's only evasion is 3h4g.
//! - B: dragon on 6i, king on 3h; a mate in 23: 6i3i (reaching X), 3h4g (reaching A; the
//!   recorded line's moves 241 and 242), then A's mate.
//!
//! Searching A, the dragon also circles round the king (3i3g 4g5h 3g6g 5h4i 6g6i 4i3h 6i3i)
//! and reaches X with A on the path. There the only evasion, 3h4g, recreates A: a repetition,
//! so X is disproven for that path only. Searching B next with the same table, X is reached
//! from B directly, without A on the path, and 3h4g leads to A, a mate. If the solver stored
//! X's path-dependent disproof while searching A, the table would then report X as disproven
//! and B as no mate. (Each solved with a fresh table, both positions are solved
//! correctly even with that bug: the table must be shared, as a USI engine shares it between
//! `go mate` commands until `usinewgame`.)

use shogi::movegen::{is_checkmate, is_legal};
use shogi::{Move, Position};
use solver::{Limits, Outcome, Rules, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// 将棋図巧 #83 after 242 moves of its recorded line: a mate in 21.
const A: &str = "1+P7/n2g5/3p5/9/3NPl2B/3G5/N4k3/7S1/6+R2 b rb2g3sn3l15p 243";
/// 将棋図巧 #83 after 240 moves: a mate in 23 that starts 6i3i 3h4g, reaching A.
const B: &str = "1+P7/n2g5/3p5/9/3NPl2B/3G5/N8/6kS1/3+R5 b rb2g3sn3l15p 241";

/// Solves `sfen` with `solver`'s table as it is (no `clear`) and checks that the answer is a
/// mate of exactly `want` plies, replaying it with the rules alone: legal moves, every attacker
/// move a check, ending in checkmate.
fn assert_shortest_mate(solver: &mut Solver, name: &str, sfen: &str, want: usize) {
    let root = Position::from_sfen(sfen).expect("fixture SFEN");
    let limits = Limits { time: Some(Duration::from_secs(60)), nodes: None };
    let outcome = solver.solve(&root, &limits, &AtomicBool::new(false), &mut |_| {}).outcome;
    let pv: Vec<Move> = match outcome {
        Outcome::Mate(pv) => pv,
        other => panic!("{name}: expected a mate in {want}, got {other:?}"),
    };
    let mut pos = root.clone();
    for (i, &mv) in pv.iter().enumerate() {
        assert!(is_legal(&pos, mv), "{name}: move {} ({mv}) is illegal", i + 1);
        let by_attacker = i % 2 == 0;
        pos.make_move(mv);
        assert!(!by_attacker || pos.in_check(), "{name}: attacker move {mv} gives no check");
    }
    assert!(is_checkmate(&pos), "{name}: line does not end in mate: {}", pos.to_sfen());
    assert_eq!(pv.len(), want, "{name}: found {pv:?}");
}

/// A disproof that rests on a repetition of A, found while searching A, must not answer for the
/// same position reached from B (see the module comment). Both searches share one table.
#[test]
fn repetition_disproof_from_one_search_is_not_reused_by_the_next() {
    let mut solver =
        Solver::new(SolverConfig { hash_mb: 16, rules: Rules::Pure, ..Default::default() });
    assert_shortest_mate(&mut solver, "A", A, 21);
    assert_shortest_mate(&mut solver, "B (after A, same table)", B, 23);
}

/// The moves from A that bring the dragon round the king to B's board (see the module
/// comment): 3i3g 4g5h 3g6g 5h4i 6g6i 4i3h.
const A_TO_B: [&str; 6] = ["3i3g", "4g5h", "3g6g", "5h4i", "6g6i", "4i3h"];

/// Asks B's board again from A, with the moves of [`A_TO_B`] on the way (as the composer's
/// report asks a check of a main line, with the moves before it on the search's path).
fn b_after_a(solver: &mut Solver) -> Outcome {
    let origin = Position::from_sfen(A).expect("fixture SFEN");
    let mut pos = origin.clone();
    let mut way = Vec::new();
    for usi in A_TO_B {
        let mv = pos.parse_usi_move(usi).expect("fixture move");
        way.push(mv);
        pos.make_move(mv);
    }
    assert_eq!(pos.to_sfen().split(' ').next(), B.split(' ').next(), "the way reaches B's board");
    let limits = Limits { time: Some(Duration::from_secs(60)), nodes: None };
    let attacker = origin.side_to_move();
    solver
        .solve_after(&origin, &way, attacker, &limits, &AtomicBool::new(false), &mut |_| {})
        .outcome
}

/// A proof that leans on the way: B's mate, proven by a search of B alone, goes 6i3i 3h4g to
/// A. Asked from A with the dragon's circle on the way, the table reads B's board as proven,
/// but its proof returns to A, a repetition there: no line can be read from it. The answer is
/// a fresh solver's (no mate on this way), not a timeout after a few nodes, which left the
/// composer's report with "the table proves it, but no line could be read from it" (issue 88).
#[test]
fn a_proof_that_leans_on_the_way_answers_as_a_fresh_search() {
    for rules in [Rules::Pure, Rules::Tsume] {
        let config = SolverConfig { hash_mb: 16, rules, threads: 1, ..Default::default() };
        let fresh = b_after_a(&mut Solver::new(config.clone()));
        assert_eq!(fresh, Outcome::NoMate, "{rules:?}: a fresh table");
        let mut solver = Solver::new(config);
        let limits = Limits { time: Some(Duration::from_secs(60)), nodes: None };
        let b = Position::from_sfen(B).expect("fixture SFEN");
        let first = solver.solve(&b, &limits, &AtomicBool::new(false), &mut |_| {}).outcome;
        assert!(matches!(first, Outcome::Mate(_)), "{rules:?}: B alone: {first:?}");
        assert_eq!(b_after_a(&mut solver), fresh, "{rules:?}: after B's own solve");
    }
}
