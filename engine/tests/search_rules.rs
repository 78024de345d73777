//! Search against the rules: a mate-in-1 threat is met, sennichite scores as a draw,
//! perpetual check loses for the checker, and entering-king declaration is reported.

use engine::search::oracle::mate_in_1;
use engine::{Engine, Params, Score, SearchControl, SearchLimits};
use shogi::{movegen, MoveList, Position};

fn engine() -> Engine {
    let p = Params { oracle_root_ms: 0, ..Params::default() };
    Engine::new(p, 16)
}

/// Every root move's score at `depth` (MultiPV over all moves).
fn all_scores(pos: &Position, depth: u32) -> Vec<(String, Score)> {
    let mut list = MoveList::new();
    movegen::legal_moves(pos, &mut list);
    let limits = SearchLimits { depth: Some(depth), nodes: None, multipv: list.len() as u32 };
    let mut last = Vec::new();
    engine().search(pos, &limits, &SearchControl::unlimited(), &mut |i| {
        if i.depth == depth {
            last.push((i.pv[0].to_string(), i.score));
        }
    });
    last
}

fn play(sfen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_sfen(sfen).expect("sfen");
    for u in moves {
        let m = pos.parse_usi_move(u).expect("legal usi move");
        assert!(movegen::is_legal(&pos, m), "{u}");
        pos.make_move(m);
    }
    pos
}

#[test]
fn meets_a_mate_in_one_threat_instead_of_grabbing_a_rook() {
    // White threatens G*5h mate (the pawn on 5g guards 5h); Black could take the rook on 2b.
    let sfen = "k8/7r1/9/9/9/9/4p4/7R1/3GKG3 b g 1";
    let pos = Position::from_sfen(sfen).expect("sfen");
    for depth in [2, 4, 6] {
        let limits = SearchLimits { depth: Some(depth), nodes: None, multipv: 1 };
        let out = engine().search(&pos, &limits, &SearchControl::unlimited(), &mut |_| {});
        let m = out.best.expect("a move");
        let mut after = pos.clone();
        after.make_move(m);
        let mut scratch = MoveList::new();
        assert!(
            mate_in_1(&mut after, &mut scratch).is_none(),
            "depth {depth}: {m} allows mate in one"
        );
        assert!(!matches!(out.score, Score::Mate(n) if n < 0), "{:?}", out.score);
    }
}

#[test]
fn sennichite_scores_as_a_draw() {
    // Black has a rook in hand: every White move is bad except going back to a position
    // already seen, which is a draw.
    let pos = play("4k4/9/9/9/9/9/9/9/4K4 b R 1", &["5i4i", "5a4a", "4i5i"]);
    let scores = all_scores(&pos, 1);
    let back = scores.iter().find(|(m, _)| m == "4a5a").expect("4a5a scored");
    assert_eq!(back.1, Score::Cp(0), "{scores:?}");
    assert!(scores.iter().any(|(m, s)| m != "4a5a" && matches!(s, Score::Cp(v) if *v < -300)));
}

#[test]
fn sennichite_is_seen_after_a_long_game_history() {
    // Forty plies of king shuffling first, then the same three-ply setup as above.
    let mut moves = Vec::new();
    for _ in 0..10 {
        moves.extend_from_slice(&["5i6i", "5a6a", "6i5i", "6a5a"]);
    }
    moves.extend_from_slice(&["5i4i", "5a4a", "4i5i"]);
    let pos = play("4k4/9/9/9/9/9/9/9/4K4 b R 1", &moves);
    let scores = all_scores(&pos, 2);
    let back = scores.iter().find(|(m, _)| m == "4a5a").expect("4a5a scored");
    assert_eq!(back.1, Score::Cp(0), "{scores:?}");
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // White king 1a checked by the dragon on rank a; the dragon checks back and forth.
    let pos = play("4+R3k/9/9/9/9/9/9/9/K8 w - 1", &["1a1b", "5a5b", "1b1a"]);
    let scores = all_scores(&pos, 1);
    let repeat = scores.iter().find(|(m, _)| m == "5b5a").expect("5b5a scored");
    assert!(matches!(repeat.1, Score::Mate(n) if n < 0), "{scores:?}");
    // Other rook moves are ordinary.
    assert!(scores.iter().any(|(_, s)| matches!(s, Score::Cp(_))), "{scores:?}");
    // The search does not pick the losing repetition.
    let limits = SearchLimits { depth: Some(3), nodes: None, multipv: 1 };
    let out = engine().search(&pos, &limits, &SearchControl::unlimited(), &mut |_| {});
    assert_ne!(out.best.map(|m| m.to_string()), Some("5b5a".to_owned()));
}

#[test]
fn declaration_is_reported_when_the_27_point_rule_holds() {
    // Black king in the enemy camp with ten pieces there and enough points.
    let sfen = "4K4/PPPPPPPPP/R8/9/9/9/9/4k4/9 b RBB 1";
    let pos = Position::from_sfen(sfen).expect("sfen");
    assert!(pos.can_declare_win());
    let limits = SearchLimits { depth: Some(2), nodes: None, multipv: 1 };
    let out = engine().search(&pos, &limits, &SearchControl::unlimited(), &mut |_| {});
    assert!(out.declare_win);
    assert!(out.best.is_some());
    let start =
        Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
            .expect("sfen");
    let out = engine().search(&start, &limits, &SearchControl::unlimited(), &mut |_| {});
    assert!(!out.declare_win);
}
