//! The search finds the mates of short tsume problems (YaneuraOu mate3 / mate5 sets in
//! `problems/`) and reports `Score::Mate(n)` with the right distance; the PV replays to mate.

use engine::{Engine, Params, Score, SearchControl, SearchLimits, SearchOutcome};
use shogi::{movegen, Move, Position};

fn problems(file: &str, n: usize) -> Vec<(String, i32)> {
    let path = format!("{}/../problems/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("problem file in the repository");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(n)
        .map(|l| {
            let (sfen, rest) = l.split_once('#').expect("sfen # id answer");
            let answer = rest.split_whitespace().nth(1).expect("answer").parse().expect("number");
            (sfen.trim().to_owned(), answer)
        })
        .collect()
}

fn search(params: Params, pos: &Position, depth: u32) -> (SearchOutcome, Vec<Move>) {
    let mut engine = Engine::new(params, 16);
    let limits = SearchLimits { depth: Some(depth), nodes: None, multipv: 1 };
    let mut pv = Vec::new();
    let out = engine.search(pos, &limits, &SearchControl::unlimited(), &mut |i| pv = i.pv.clone());
    (out, pv)
}

fn assert_mate_line(pos: &Position, pv: &[Move], plies: usize, sfen: &str) {
    assert_eq!(pv.len(), plies, "{sfen}: pv {pv:?}");
    let mut p = pos.clone();
    for &m in pv {
        assert!(movegen::is_legal(&p, m), "{sfen}: illegal {m} in pv {pv:?}");
        p.make_move(m);
    }
    assert!(movegen::is_checkmate(&p), "{sfen}: pv {pv:?} does not end in mate");
}

fn check_set(file: &str, count: usize, root_oracle: bool) {
    for (sfen, answer) in problems(file, count) {
        let pos = Position::from_sfen(&sfen).expect("valid problem");
        let mut params = Params::default();
        if !root_oracle {
            params.oracle_root_ms = 0;
        }
        let (out, pv) = search(params, &pos, answer as u32 + 2);
        // The root oracle's line (pure rules) is a mate, not always the shortest, and its first
        // slice may prove it before the search reaches the problem's depth.
        let Score::Mate(n) = out.score else { panic!("{sfen}: no mate: {out:?}") };
        if root_oracle {
            assert!(n >= answer && n % 2 == 1, "{sfen}: mate in {n}, the problem's {answer}");
        } else {
            assert_eq!(n, answer, "{sfen}");
        }
        let best = out.best.expect("a move");
        assert!(movegen::is_legal(&pos, best), "{sfen}");
        assert_eq!(pv.first(), Some(&best), "{sfen}");
        assert_mate_line(&pos, &pv, n as usize, &sfen);
    }
}

#[test]
fn alpha_beta_finds_mate_in_3_with_exact_distance() {
    check_set("yaneuraou_mate3_100.sfen", 8, false);
}

#[test]
fn alpha_beta_finds_mate_in_5_with_exact_distance() {
    check_set("yaneuraou_mate5_100.sfen", 5, false);
}

/// With the root oracle the mate is found and played (its length may be the oracle's).
#[test]
fn root_oracle_and_search_agree_on_mate_in_5() {
    check_set("yaneuraou_mate5_100.sfen", 3, true);
}

/// The root oracle proves a mate the alpha-beta search does not reach at depth 1: the move
/// played is the solver's and the score is the mate length.
#[test]
fn root_oracle_plays_a_proven_mate_beyond_the_search_depth() {
    let (sfen, answer) = problems("yaneuraou_mate7_100.sfen", 1).remove(0);
    let pos = Position::from_sfen(&sfen).expect("valid problem");
    let mut engine = Engine::new(Params::default(), 16);
    // Depth 1 would end the alpha-beta search at once; a node budget keeps it busy while the
    // solver proves the mate.
    let limits = SearchLimits { depth: None, nodes: Some(2_000_000), multipv: 1 };
    let control = SearchControl::new(None, Some(std::time::Duration::from_secs(20)), false);
    let mut pv = Vec::new();
    let (out, stats) =
        engine.search_with_stats(&pos, &limits, &control, &mut |i| pv = i.pv.clone());
    assert_eq!(out.score, Score::Mate(answer), "{sfen} {stats:?}");
    assert_mate_line(&pos, &pv, answer as usize, &sfen);
}

/// `Threads 1` thinks on one thread, and a mate the root oracle proves in that thread's own
/// time (slices between its polls) is still played: an 11-ply mate, proven by the oracle
/// before the alpha-beta search sees it. With two threads, two think, not three.
#[test]
fn root_oracle_in_the_search_threads_own_time_still_plays_its_mate() {
    // The second problem: the first the search's probes prove on their own.
    let (sfen, answer) = problems("yaneuraou_mate11_100.sfen", 2).remove(1);
    let pos = Position::from_sfen(&sfen).expect("valid problem");
    let mut engine = Engine::new(Params::default(), 16);
    assert_eq!(engine.threads(), 1);
    let limits = SearchLimits { depth: None, nodes: Some(300_000), multipv: 1 };
    let control = SearchControl::new(None, Some(std::time::Duration::from_secs(20)), false);
    let mut pv = Vec::new();
    let (out, stats) =
        engine.search_with_stats(&pos, &limits, &control, &mut |i| pv = i.pv.clone());
    assert!(stats.root_oracle_used, "{sfen} {stats:?}");
    // The solver's line (pure rules) is a mate, not always the shortest.
    let Score::Mate(n) = out.score else { panic!("{sfen}: no mate: {out:?}") };
    assert!(n >= answer, "{sfen}: mate in {n}, the problem's {answer}");
    assert_mate_line(&pos, &pv, n as usize, &sfen);
    assert_eq!(stats.threads, 1);
    assert!(!stats.root_oracle_time.is_zero());
    engine.set_threads(2);
    let (_, stats) = engine.search_with_stats(&pos, &limits, &control, &mut |_| {});
    assert_eq!(stats.threads, 2, "{stats:?}");
}

/// A mate the alpha-beta search claims with a quiet first move (a threat the opponent's spite
/// checks or a pruned defence might break) is not the one played when the root oracle proves
/// a mate by checks in the move's time: the search hands it the rest of the move, and its
/// proof is played, announced with its own length. The positions are those of the YaneuraOu
/// sets where the search alone plays a quiet mate (mate9 #14, mate11 #20 among them).
#[test]
fn a_quiet_mate_of_the_search_gives_way_to_the_oracles_proof() {
    let gives_check = |pos: &Position, m: Move| {
        let mut p = pos.clone();
        p.make_move(m);
        p.in_check()
    };
    let limits = SearchLimits { depth: None, nodes: Some(300_000), multipv: 1 };
    let mut quiet = 0;
    for file in ["yaneuraou_mate9_100.sfen", "yaneuraou_mate11_100.sfen"] {
        for (sfen, _) in problems(file, 30) {
            let pos = Position::from_sfen(&sfen).expect("valid problem");
            let control = SearchControl::new(None, None, false);
            let alone = Params { oracle_root_ms: 0, ..Params::default() };
            let out = Engine::new(alone, 16).search(&pos, &limits, &control, &mut |_| {});
            let searched_quiet = matches!(out.score, Score::Mate(n) if n > 0)
                && out.best.is_some_and(|m| !gives_check(&pos, m));
            if !searched_quiet {
                continue;
            }
            quiet += 1;
            let secs = std::time::Duration::from_secs(20);
            let control = SearchControl::new(Some(secs), Some(secs), false);
            let mut engine = Engine::new(Params::default(), 16);
            let mut pv = Vec::new();
            let (out, stats) =
                engine.search_with_stats(&pos, &limits, &control, &mut |i| pv = i.pv.clone());
            assert!(stats.root_oracle_used, "{sfen} {stats:?}");
            let Score::Mate(n) = out.score else { panic!("{sfen}: no mate: {out:?}") };
            assert_eq!(out.best, pv.first().copied(), "{sfen}");
            assert_mate_line(&pos, &pv, n as usize, &sfen);
            let mut p = pos.clone();
            for pair in pv.chunks(2) {
                assert!(gives_check(&p, pair[0]), "{sfen}: {} of {pv:?} is no check", pair[0]);
                for &m in pair {
                    p.make_move(m);
                }
            }
        }
    }
    assert!(quiet >= 2, "the search alone played {quiet} quiet mates");
}

/// Mated side: in check with a forced mate against it, the engine still plays a legal move
/// and reports a negative mate score of the right length.
#[test]
fn mated_side_reports_negative_mate_and_defends() {
    let (sfen, answer) = problems("yaneuraou_mate3_100.sfen", 1).remove(0);
    let mut pos = Position::from_sfen(&sfen).expect("valid problem");
    let (out, pv) = search(Params::default(), &pos, 6);
    assert_eq!(out.score, Score::Mate(answer));
    pos.make_move(pv[0]);
    let (out, _) = search(Params::default(), &pos, 6);
    let best = out.best.expect("a defence");
    assert!(movegen::is_legal(&pos, best));
    assert_eq!(out.score, Score::Mate(-(answer - 1)));
}

/// The singular extension's reduced searches (the table move left out, at every depth from 2;
/// no mate-in-one test in them), null moves at cut nodes only and recaptures only in the
/// quiescence search still report only real mates: the line replays to mate in the plies the
/// score says, never fewer than the problem's (a multi-cut may hide the shortest mate behind
/// a longer one at a fixed depth, as any pruning may).
#[test]
fn node_quality_options_find_the_same_mates() {
    let p = Params {
        singular_min_depth: 2,
        singular_margin: 0,
        null_move_cut_only: 1,
        qsearch_recapture_ply: 0,
        oracle_probe_nodes: 0,
        oracle_root_ms: 0,
        ..Params::default()
    };
    for (file, n) in [("yaneuraou_mate3_100.sfen", 6), ("yaneuraou_mate5_100.sfen", 4)] {
        for (sfen, answer) in problems(file, n) {
            let pos = Position::from_sfen(&sfen).expect("valid problem");
            let (out, pv) = search(p.clone(), &pos, answer as u32 + 2);
            let Score::Mate(n) = out.score else { panic!("{sfen}: no mate found: {out:?}") };
            assert!(n >= answer && n % 2 == 1, "{sfen}: mate in {n}, the problem's {answer}");
            assert_mate_line(&pos, &pv, n as usize, &sfen);
        }
    }
}

/// The switchable variants of the search (plain alpha-beta, NegaScout re-search, no oracle at
/// inner nodes, material-only evaluation) find the same mates.
#[test]
fn search_variants_find_the_same_mates() {
    let variants = [
        Params { use_pvs: 0, oracle_root_ms: 0, ..Params::default() },
        Params { negascout: 1, oracle_root_ms: 0, ..Params::default() },
        Params { oracle_mate1: 0, oracle_probe_nodes: 0, oracle_root_ms: 0, ..Params::default() },
        Params { eval_material_only: 1, oracle_root_ms: 0, ..Params::default() },
    ];
    for (sfen, answer) in problems("yaneuraou_mate3_100.sfen", 4) {
        let pos = Position::from_sfen(&sfen).expect("valid problem");
        for p in &variants {
            let (out, pv) = search(p.clone(), &pos, answer as u32 + 2);
            assert_eq!(out.score, Score::Mate(answer), "{sfen} {p:?}");
            assert_mate_line(&pos, &pv, answer as usize, &sfen);
        }
    }
}
