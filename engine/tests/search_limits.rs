//! The search honours its limits: depth, nodes, stop (before and during), MultiPV, and always
//! returns a legal move with a ponder move from its PV.

use engine::{Engine, Params, SearchControl, SearchInfo, SearchLimits};
use shogi::{movegen, Position};
use std::sync::Arc;
use std::time::{Duration, Instant};

const MIDGAME: &str = "1n3ks2/l3gsg1l/2p1ppnpp/3p5/p1P3p1P/1R6L/PP1PPPP2/2G1G3b/LNSKS2N1 w RPbp 58";

fn pos() -> Position {
    Position::from_sfen(MIDGAME).expect("sfen")
}

fn run(limits: SearchLimits, control: &SearchControl) -> (engine::SearchOutcome, Vec<SearchInfo>) {
    let mut engine = Engine::new(Params::default(), 16);
    let mut infos = Vec::new();
    let out = engine.search(&pos(), &limits, control, &mut |i| infos.push(i.clone()));
    (out, infos)
}

#[test]
fn depth_limit_is_honoured_and_every_iteration_reported() {
    let (out, infos) =
        run(SearchLimits { depth: Some(5), nodes: None, multipv: 1 }, &SearchControl::unlimited());
    let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    for i in &infos {
        assert!(i.seldepth >= i.depth.min(2), "{i:?}");
        assert!(!i.pv.is_empty());
        assert!(i.hashfull <= 1000);
        assert_eq!(i.multipv, 1);
    }
    let last = infos.last().expect("info");
    let best = out.best.expect("move");
    assert_eq!(last.pv[0], best);
    assert!(movegen::is_legal(&pos(), best));
    assert_eq!(out.ponder, last.pv.get(1).copied());
    if let Some(p) = out.ponder {
        let mut after = pos();
        after.make_move(best);
        assert!(movegen::is_legal(&after, p));
    }
    assert_eq!(out.nodes, last.nodes);
}

#[test]
fn node_limit_is_honoured() {
    for limit in [1u64, 500, 20_000] {
        let (out, infos) = run(
            SearchLimits { depth: None, nodes: Some(limit), multipv: 1 },
            &SearchControl::unlimited(),
        );
        assert!(out.nodes <= limit + 1, "limit {limit}: {} nodes", out.nodes);
        assert!(infos.iter().all(|i| i.nodes <= limit + 1));
        assert!(movegen::is_legal(&pos(), out.best.expect("a legal move even at 1 node")));
    }
}

#[test]
fn stop_before_start_still_returns_a_legal_move() {
    let control = SearchControl::unlimited();
    control.stop();
    let t = Instant::now();
    let (out, _) = run(SearchLimits { depth: None, nodes: None, multipv: 1 }, &control);
    assert!(t.elapsed() < Duration::from_millis(500), "{:?}", t.elapsed());
    assert!(movegen::is_legal(&pos(), out.best.expect("move")));
}

#[test]
fn stop_during_search_ends_it_quickly() {
    let control = Arc::new(SearchControl::unlimited());
    let c2 = Arc::clone(&control);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        c2.stop();
        Instant::now()
    });
    let (out, infos) = run(SearchLimits { depth: None, nodes: None, multipv: 1 }, &control);
    let ended = Instant::now();
    let stopped_at = stopper.join().expect("stopper");
    let lag = ended.saturating_duration_since(stopped_at);
    assert!(lag < Duration::from_millis(150), "stop took {lag:?}");
    assert!(!infos.is_empty());
    assert!(movegen::is_legal(&pos(), out.best.expect("move")));
}

/// The hard limit ends the search within a few polls of the clock. The clock is a stepped
/// one (1 ms a reading), so the test counts the engine's own polls, not the machine's
/// scheduler: a loaded machine once held the search back past a bound in real time.
#[test]
fn hard_time_limit_is_honoured() {
    let step = Duration::from_millis(1);
    let hard = Duration::from_millis(200);
    let control = SearchControl::stepped(None, Some(hard), step);
    let (out, _) = run(SearchLimits::default(), &control);
    let readings = control.readings();
    assert!(out.best.is_some());
    // It ran until the deadline (no soft limit, no depth limit) and ended within a few
    // readings after it (the poll that saw it, and the final report's).
    assert!(readings >= 200, "ended after {readings} readings, before its deadline");
    assert!(readings <= 200 + 8, "{readings} readings: went on past its deadline");
    assert!(control.overrun().is_some_and(|o| o <= 10 * step));
}

#[test]
fn multipv_reports_distinct_lines_in_order() {
    let (out, infos) =
        run(SearchLimits { depth: Some(4), nodes: None, multipv: 3 }, &SearchControl::unlimited());
    let last: Vec<&SearchInfo> = infos.iter().filter(|i| i.depth == 4).collect();
    assert_eq!(last.len(), 3);
    assert_eq!(last.iter().map(|i| i.multipv).collect::<Vec<_>>(), vec![1, 2, 3]);
    let firsts: Vec<_> = last.iter().map(|i| i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(Some(firsts[0]), out.best);
    let cp = |i: &SearchInfo| match i.score {
        engine::Score::Cp(v) => v,
        engine::Score::Mate(n) => {
            if n > 0 {
                100_000 - n
            } else {
                -100_000 - n
            }
        }
    };
    assert!(cp(last[0]) >= cp(last[1]) && cp(last[1]) >= cp(last[2]));
}

#[test]
fn no_legal_move_returns_none() {
    // Black is checkmated: the gold on 5h is protected by the pawn on 5g.
    let pos = Position::from_sfen("4k4/9/9/9/9/9/4p4/4g4/3LKL3 b - 1").expect("sfen");
    assert!(movegen::is_checkmate(&pos));
    let mut engine = Engine::new(Params::default(), 4);
    let out =
        engine.search(&pos, &SearchLimits::default(), &SearchControl::unlimited(), &mut |_| {});
    assert_eq!(out.best, None);
}
