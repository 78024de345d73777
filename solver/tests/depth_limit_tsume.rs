//! A depth limit under tsume rules: interpositions that are futile do not count against it.

use shogi::{parse_position_command, Color, Position};
use solver::{Limits, Outcome, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;

/// 図巧98 (a dragon chases the king along the first rank) after 30 plies of its main line,
/// with the king on 1a.
fn before_the_last_move() -> (Position, Vec<shogi::Move>) {
    let origin = parse_position_command("sfen 8k/9/9/9/9/9/9/9/9 b R2GSr2b2g3s4n4l18p 1")
        .unwrap_or_else(|e| panic!("{e}"));
    let usi: Vec<String> = "R*1c R*1b S*2b 1a2b G*2c 2b3a G*3b 1b3b 2c3b 3a3b R*3d 3b4b 3d4d \
         4b5b 4d5d 5b6b 5d6d 6b7b 6d7d 7b6b 7d7c+ 6b5a 1c5c+ 5a4a 7c7a 4a3b 7a6b 3b2a 5c2c 2a1a"
        .split_whitespace()
        .map(String::from)
        .collect();
    let way = origin.parse_usi_line(&usi).unwrap_or_else(|e| panic!("{e}"));
    (origin, way)
}

#[test]
fn a_mate_at_once_with_futile_interpositions_is_within_a_limit_of_one_ply() {
    // ▲５一龍 (6b5a) checks along the first rank: every interposition on 4a-2a is taken, and
    // it is mate at once under tsume rules. With the depth limit at this very ply, the search
    // must still find it (it once counted the interpositions' plies and said "no mate").
    let (origin, mut way) = before_the_last_move();
    let mut end = origin.clone();
    for &m in &way {
        end.make_move(m);
    }
    let check = end.parse_usi_line(&["6b5a".to_string()]).unwrap_or_else(|e| panic!("{e}"))[0];
    way.push(check);
    for max_ply in [31, 33, SolverConfig::default().max_ply] {
        let config = SolverConfig { hash_mb: 16, threads: 1, max_ply, ..SolverConfig::default() };
        let mut solver = Solver::new(config);
        let limits = Limits { time: None, nodes: Some(1_000_000) };
        let r = solver.solve_after(
            &origin,
            &way,
            Color::Black,
            &limits,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert_eq!(r.outcome, Outcome::Mate(vec![]), "max_ply {max_ply}: {r:?}");
    }
}

/// A limit is against the longest resistance, while the main line ranks a defence mated with
/// no piece left above a longer one that leaves some (docs/tsumugi-mate-usi.md, "Lengths
/// within a limit"). 図巧71 after the cook ▲７四香 at move 37, △７三歩 ▲同香: the main line is
/// △６一玉 (8 plies, nothing left); △７三玉 resists 12 plies and leaves a pawn. So within 11
/// plies there is no mate, and within 12 the answer is the 8-ply main line.
#[test]
fn a_limit_counts_the_longest_resistance_and_the_main_line_the_composers_ranking() {
    const KING_ON_7B: &str =
        "2g3p2/2kp1P3/2L2+N3/1R1Pp4/S8/9/+p1l1n4/1s1l2+p2/2g6 w LPr2b2g2s2n10p 40";
    let pos = Position::from_sfen(KING_ON_7B).unwrap_or_else(|e| panic!("{e}"));
    let solve = |max_ply: u16| {
        let config = SolverConfig { hash_mb: 16, threads: 1, max_ply, ..SolverConfig::default() };
        let limits = Limits { time: None, nodes: Some(2_000_000) };
        Solver::new(config).solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {})
    };
    let main_line = solve(SolverConfig::default().max_ply);
    let Outcome::Mate(moves) = &main_line.outcome else { panic!("{main_line:?}") };
    assert_eq!(moves.len(), 8, "{main_line:?}");
    assert_eq!(moves[0].to_string(), "7b6a");
    let r = solve(11);
    assert!(r.outcome == Outcome::Timeout && r.depth_limited, "within 11: {r:?}");
    // Within 12 plies every defence is mated: the answer is the main line again.
    let r = solve(12);
    assert_eq!(r.outcome, main_line.outcome, "within 12: {r:?}");
}
