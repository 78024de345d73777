//! Several search threads sharing one table give the answers of one thread: the same status
//! and length on mates with exact answers, on positions with no mate, and under tsume rules.

use shogi::{parse_position_command, Position};
use solver::{Limits, Outcome, Rules, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn problems(file: &str, count: usize) -> Vec<(Position, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/").to_string() + file;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(count)
        .map(|l| {
            let (sfen, tail) = l.split_once(" #").unwrap_or((l, ""));
            let pos = parse_position_command(&format!("sfen {}", sfen.trim()))
                .unwrap_or_else(|e| panic!("{l}: {e}"));
            (pos, tail.trim().to_string())
        })
        .collect()
}

/// Status and length of each problem, solved with `threads` threads.
fn answers(set: &[(Position, String)], rules: Rules, threads: usize) -> Vec<Option<usize>> {
    let config = SolverConfig { hash_mb: 32, rules, threads, ..SolverConfig::default() };
    let mut solver = Solver::new(config);
    let limits = Limits { time: Some(Duration::from_secs(60)), nodes: None };
    let stop = AtomicBool::new(false);
    set.iter()
        .map(|(pos, id)| {
            solver.clear();
            let r = solver.solve(pos, &limits, &stop, &mut |_| {});
            match r.outcome {
                Outcome::Mate(line) => {
                    let ok = solver::mate_line::verify_mate_line(pos, &line, rules);
                    assert!(ok.is_ok(), "{id}: {ok:?}");
                    Some(line.len())
                }
                Outcome::NoMate => None,
                Outcome::Timeout => panic!("{id}: timeout with {threads} threads"),
            }
        })
        .collect()
}

#[test]
fn two_and_four_threads_answer_as_one_on_exact_mates() {
    let set = problems("yaneuraou_mate9_100.sfen", 30);
    let one = answers(&set, Rules::Pure, 1);
    for (a, (_, tail)) in one.iter().zip(&set) {
        let answer: usize =
            tail.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0);
        assert_eq!(*a, Some(answer), "{tail}");
    }
    assert_eq!(answers(&set, Rules::Pure, 2), one);
    assert_eq!(answers(&set, Rules::Pure, 4), one);
}

#[test]
fn two_threads_answer_as_one_on_positions_with_no_mate() {
    let set: Vec<(Position, String)> = problems("derived_nomate_nshogi.sfen", 40)
        .into_iter()
        .filter(|(_, tail)| tail.ends_with(" nomate"))
        .take(15)
        .collect();
    assert_eq!(set.len(), 15);
    assert!(answers(&set, Rules::Pure, 2).iter().all(Option::is_none));
}

#[test]
fn two_threads_answer_as_one_under_tsume_rules() {
    let set: Vec<(Position, String)> = problems("edo_zukou.sfen", 20)
        .into_iter()
        .filter(|(_, tail)| {
            ["zukou-002 ", "zukou-005 ", "zukou-007 ", "zukou-013 "]
                .iter()
                .any(|id| tail.starts_with(id))
        })
        .collect();
    assert_eq!(set.len(), 4);
    assert_eq!(answers(&set, Rules::Tsume, 2), answers(&set, Rules::Tsume, 1));
}
