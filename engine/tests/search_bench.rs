//! Bench determinism and soppo pruning: the bench signature repeats exactly; SS-Cut and
//! DS-Cut change node counts on endgame positions yet still find a simple win.

use engine::tools::bench::{run_bench, run_positions, BENCH_POSITIONS, ENDGAME_POSITIONS};
use engine::{Engine, Params, Score, SearchControl, SearchLimits};
use shogi::Position;

#[test]
fn bench_node_count_is_deterministic() {
    let a = run_bench(5, &Params::default(), 8);
    let b = run_bench(5, &Params::default(), 8);
    assert_eq!(a.per_position, b.per_position);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.per_position.len(), BENCH_POSITIONS.len());
    assert!(a.nodes > 1000);
    // The root oracle is off in bench: its budget does not change the signature.
    let p = Params { oracle_root_ms: 5000, ..Params::default() };
    assert_eq!(run_bench(5, &p, 8).nodes, a.nodes);
}

fn endgame_nodes(mode: i32, depth: u32) -> Vec<u64> {
    let p = Params { soppo_mode: mode, ..Params::default() };
    let sfens: Vec<&str> = ENDGAME_POSITIONS.iter().map(|&i| BENCH_POSITIONS[i]).collect();
    run_positions(&sfens, depth, &p, 8).per_position
}

#[test]
fn soppo_modes_change_endgame_node_counts() {
    // Depth 9: DS-Cut prunes only once it has recorded enough cutoffs, and a shallower search
    // of these positions records too few (at depth 8 none pruned with the correction history).
    let off = endgame_nodes(0, 9);
    let ss = endgame_nodes(1, 9);
    let ds = endgame_nodes(2, 9);
    println!("off {off:?}\nss  {ss:?}\nds  {ds:?}");
    assert_ne!(off, ss, "SS-Cut prunes nothing");
    assert_ne!(off, ds, "DS-Cut prunes nothing");
    assert!(ss.iter().sum::<u64>() < off.iter().sum::<u64>(), "SS-Cut should save nodes");
}

#[test]
fn soppo_search_still_finds_a_simple_win() {
    let path = format!("{}/../problems/yaneuraou_mate3_100.sfen", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("problem file");
    for line in text.lines().filter(|l| !l.starts_with('#')).take(4) {
        let sfen = line.split('#').next().expect("sfen").trim();
        let pos = Position::from_sfen(sfen).expect("sfen");
        for mode in [1, 2] {
            let p = Params {
                soppo_mode: mode,
                oracle_root_ms: 0,
                soppo_distance: 2,
                ..Params::default()
            };
            let mut engine = Engine::new(p, 8);
            let limits = SearchLimits { depth: Some(5), nodes: None, multipv: 1 };
            let (out, stats) =
                engine.search_with_stats(&pos, &limits, &SearchControl::unlimited(), &mut |_| {});
            assert_eq!(out.score, Score::Mate(3), "mode {mode} {sfen} {stats:?}");
        }
    }
}

#[test]
fn soppo_prunes_and_ds_picks_a_distance_on_an_endgame() {
    let pos = Position::from_sfen(BENCH_POSITIONS[ENDGAME_POSITIONS[2]]).expect("sfen");
    // Deep enough for DS-Cut to have recorded the cutoffs it needs before it prunes.
    let limits = SearchLimits { depth: Some(11), nodes: None, multipv: 1 };
    for mode in [1, 2] {
        let p = Params { soppo_mode: mode, oracle_root_ms: 0, ..Params::default() };
        let mut engine = Engine::new(p, 8);
        let (_, stats) =
            engine.search_with_stats(&pos, &limits, &SearchControl::unlimited(), &mut |_| {});
        println!("mode {mode}: {stats:?}");
        assert!(stats.soppo_pruned > 0, "mode {mode}: {stats:?}");
        assert!(stats.soppo_distance < 8, "mode {mode}: {stats:?}");
    }
}
