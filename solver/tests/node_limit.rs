//! A node limit is kept to within one expansion, also under the poll interval (1,024 nodes):
//! the engine's mate probes ask for 300 nodes, and a limit read only at the polls gave them
//! 1,024 (run with --release).

use shogi::movelist::MAX_MOVES;
use shogi::Position;
use solver::batch::problem::parse_problem_line;
use solver::{Limits, Outcome, Rules, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;

/// The most nodes one expansion adds: one a child.
const ONE_EXPANSION: u64 = MAX_MOVES as u64;

fn microcosmos() -> Position {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/long_microcosmos.sfen");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let problem =
        text.lines().find_map(|l| parse_problem_line(l).unwrap_or_else(|e| panic!("{e}")));
    problem.expect("a problem line").position
}

#[test]
fn a_node_limit_ends_the_search_within_one_expansion() {
    let root = microcosmos();
    for rules in [Rules::Pure, Rules::Tsume] {
        for limit in [50, 300, 1000, 3000] {
            let mut solver =
                Solver::new(SolverConfig { hash_mb: 16, rules, ..SolverConfig::default() });
            let limits = Limits { time: None, nodes: Some(limit) };
            let r = solver.solve(&root, &limits, &AtomicBool::new(false), &mut |_| {});
            // A 1525-ply mate is not proven in a few thousand nodes.
            assert!(matches!(r.outcome, Outcome::Timeout), "{rules:?} {limit}: {:?}", r.outcome);
            assert!(
                (limit..limit + ONE_EXPANSION).contains(&r.nodes),
                "{rules:?}, limit {limit}: {} nodes",
                r.nodes
            );
        }
    }
}
