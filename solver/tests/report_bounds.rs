//! What a report says an open question has proven ("no mate within N plies") is a proof: a
//! mate found later within it is a bug. Each bound a report gives is asked again of a fresh
//! solver, as a depth-limited solve (no mate may be found within it) and without a bound (a
//! mate found must be longer).

use shogi::{parse_position_command, Move, Position};
use solver::composer::{check_problem, ComposerReport, ReportLimits};
use solver::{Limits, Outcome, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn position(sfen: &str) -> Position {
    parse_position_command(&format!("sfen {sfen}")).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn problem(file: &str, id: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/").to_string() + file;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let line = text.lines().find(|l| l.contains(&format!(" # {id} ")));
    let line = line.unwrap_or_else(|| panic!("{id} not in {path}"));
    line.split(" #").next().unwrap_or_default().trim().to_string()
}

/// A report whose questions get `nodes` in all (one thread, a node budget: the same report
/// on every machine), so that some stay open with what they proved on the way.
fn report(pos: &Position, nodes: u64) -> ComposerReport {
    let mut solver = Solver::new(SolverConfig { hash_mb: 64, ..SolverConfig::default() });
    let limits = ReportLimits {
        main: Limits { time: None, nodes: Some(5_000_000) },
        question_nodes: 5_000,
        questions_nodes: Some(nodes),
        questions_time: Duration::MAX,
        ..ReportLimits::default()
    };
    check_problem(&mut solver, pos, None, &limits, &AtomicBool::new(false))
}

/// The position's moves to the open question's check: the main line up to its ply, then it.
fn way(pos: &Position, r: &ComposerReport, ply: usize, check: &str) -> Vec<Move> {
    let usi: Vec<String> =
        r.main_line.usi[..ply - 1].iter().cloned().chain([check.to_string()]).collect();
    pos.parse_usi_line(&usi).unwrap_or_else(|e| panic!("{usi:?}: {e}"))
}

/// A fresh solver's answer after `way`, with no more than `max_ply` plies from the position.
fn solve(pos: &Position, way: &[Move], max_ply: Option<u16>, nodes: u64) -> Outcome {
    let config = SolverConfig { hash_mb: 64, ..SolverConfig::default() };
    let config = match max_ply {
        Some(max_ply) => SolverConfig { max_ply, ..config },
        None => config,
    };
    let mut solver = Solver::new(config);
    let limits = Limits { time: None, nodes: Some(nodes) };
    let attacker = pos.side_to_move();
    let stop = AtomicBool::new(false);
    solver.solve_after(pos, way, attacker, &limits, &stop, &mut |_| {}).outcome
}

#[test]
fn no_mate_is_found_within_a_bound_a_report_gave() {
    let (mut bounds, mut mates_beyond) = (0, 0);
    for (file, id, nodes) in PROBLEMS {
        let pos = position(&problem(file, id));
        let r = report(&pos, *nodes);
        for u in &r.unsettled {
            let Some(within) = u.no_mate_within else { continue };
            let check = &u.line.usi[0];
            let way = way(&pos, &r, u.ply, check);
            let what = format!("{id} move {}: {check} (no mate within {within})", u.ply);
            // The check counted: `within` plies from the check's position.
            let max_ply = (u.ply - 1 + within) as u16;
            let bounded = solve(&pos, &way, Some(max_ply), 1_000_000);
            assert!(!matches!(bounded, Outcome::Mate(_)), "{what}: a mate within it {bounded:?}");
            bounds += 1;
            if let Outcome::Mate(moves) = solve(&pos, &way, None, 300_000) {
                assert!(moves.len() + 1 > within, "{what}: mates in {}", moves.len() + 1);
                mates_beyond += 1;
            }
        }
    }
    assert!(bounds >= 5, "only {bounds} bounds reported");
    assert!(mates_beyond >= 1, "no bounded check mates beyond its bound: the test proves less");
}

/// Problems whose reports at these budgets leave checks open with a bound (29 of them, at
/// moves 1, 3 and 5), some of which mate beyond it (0019's ▲７九飛 at move 5: no mate within
/// 4 plies, a mate in 9).
const PROBLEMS: &[(&str, &str, u64)] = &[
    ("yaneuraou_mate9_100.sfen", "yane500m-mate9-0003", 30_000),
    ("yaneuraou_mate9_100.sfen", "yane500m-mate9-0006", 30_000),
    ("yaneuraou_mate9_100.sfen", "yane500m-mate9-0019", 30_000),
    ("yaneuraou_mate9_100.sfen", "yane500m-mate9-0024", 30_000),
];
