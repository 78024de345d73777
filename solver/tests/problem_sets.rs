//! The solver against real problem sets with known pure-rule answers (`problems/`, run with
//! --release).
//! Every mate line is replayed here through the rules, independently of the solver's own check:
//! legal moves, every attacker move a check, ending in checkmate.

use shogi::movegen::{is_checkmate, is_legal};
use shogi::{Move, Position};
use solver::{DoubleCount, Limits, Outcome, Rules, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

struct Problem {
    id: String,
    answer: String,
    pos: Position,
}

fn load(name: &str, limit: usize) -> Vec<Problem> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/").to_string() + name;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(limit)
        .map(|line| {
            let (sfen, tail) = line.split_once(" # ").unwrap_or_else(|| panic!("{line}"));
            let mut fields = tail.split_whitespace();
            let id = fields.next().unwrap_or_default().to_string();
            let answer = fields.next().unwrap_or("?").to_string();
            let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{id}: {e}"));
            Problem { id, answer, pos }
        })
        .collect()
}

fn solve(solver: &mut Solver, pos: &Position, seconds: u64) -> Outcome {
    let limits = Limits { time: Some(Duration::from_secs(seconds)), nodes: None };
    solver.clear();
    solver.solve(pos, &limits, &AtomicBool::new(false), &mut |_| {}).outcome
}

/// Replays a mate line with the rules alone.
fn assert_mate_line(p: &Problem, pv: &[Move]) {
    let attacker = if p.pos.in_check() { !p.pos.side_to_move() } else { p.pos.side_to_move() };
    let mut pos = p.pos.clone();
    for (i, &mv) in pv.iter().enumerate() {
        assert!(is_legal(&pos, mv), "{}: move {} ({mv}) is illegal", p.id, i + 1);
        let by_attacker = pos.side_to_move() == attacker;
        pos.make_move(mv);
        assert!(!by_attacker || pos.in_check(), "{}: attacker move {mv} gives no check", p.id);
    }
    assert!(is_checkmate(&pos), "{}: line does not end in mate: {}", p.id, pos.to_sfen());
}

fn exact_lengths(set: &str, limit: usize) {
    exact_lengths_with(set, limit, DoubleCount::Simple);
}

fn exact_lengths_with(set: &str, limit: usize, double_count: DoubleCount) {
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 64,
        double_count,
        rules: Rules::Pure,
        ..Default::default()
    });
    for p in load(set, limit) {
        let want: usize =
            p.answer.parse().unwrap_or_else(|_| panic!("{}: answer {}", p.id, p.answer));
        match solve(&mut solver, &p.pos, 60) {
            Outcome::Mate(pv) => {
                assert_mate_line(&p, &pv);
                assert_eq!(pv.len(), want, "{}: found {:?}", p.id, pv);
            }
            other => panic!("{}: expected a mate in {want}, got {other:?}", p.id),
        }
    }
}

#[test]
fn nshogi_mate_in_one() {
    exact_lengths("nshogi_mate1.sfen", usize::MAX);
}

#[test]
fn yaneuraou_mate3() {
    exact_lengths("yaneuraou_mate3_100.sfen", 100);
}

#[test]
fn yaneuraou_mate5() {
    exact_lengths("yaneuraou_mate5_100.sfen", 100);
}

#[test]
fn yaneuraou_mate7() {
    exact_lengths("yaneuraou_mate7_100.sfen", 100);
}

#[test]
fn yaneuraou_mate9() {
    exact_lengths("yaneuraou_mate9_100.sfen", 100);
}

/// The other aggregation modes change the search, never the answers.
#[test]
fn yaneuraou_mate7_with_snda_and_without_double_count_handling() {
    exact_lengths_with("yaneuraou_mate7_100.sfen", 100, DoubleCount::Snda);
    exact_lengths_with("yaneuraou_mate7_100.sfen", 100, DoubleCount::Off);
}

#[test]
fn yaneuraou_mate11() {
    exact_lengths("yaneuraou_mate11_100.sfen", 100);
}

/// Answers `N`, `mate` and `nomate` of the KomoringHeights regression cases and the derived
/// no-mate set (`?` makes no claim and is skipped).
fn claims(set: &str, seconds: u64) {
    let mut solver =
        Solver::new(SolverConfig { hash_mb: 64, rules: Rules::Pure, ..Default::default() });
    for p in load(set, usize::MAX) {
        if p.answer == "?" {
            continue;
        }
        let outcome = solve(&mut solver, &p.pos, seconds);
        match (p.answer.as_str(), &outcome) {
            ("nomate", Outcome::NoMate) => {}
            ("mate", Outcome::Mate(pv)) => assert_mate_line(&p, pv),
            (n, Outcome::Mate(pv)) if n.parse::<usize>().is_ok() => {
                assert_mate_line(&p, pv);
                assert_eq!(pv.len().to_string(), n, "{}", p.id);
            }
            _ => panic!("{}: answer {}, solver said {outcome:?}", p.id, p.answer),
        }
    }
}

#[test]
fn komori_regression_cases() {
    claims("komori_mate_engine_test.sfen", 60);
}

#[test]
fn derived_nomate_set() {
    claims("derived_nomate_nshogi.sfen", 60);
}

/// A table shared by many searches (never cleared; problems in forward then reverse order, so
/// each search meets entries that other roots and other paths left behind: proofs and disproofs
/// answered through hand superiority, bounded disproofs of shortening rounds) must not change
/// any answer: each must match the claim and the answer from a fresh table.
#[test]
fn shared_table_across_problems_changes_no_answer() {
    let mut problems = load("komori_mate_engine_test.sfen", usize::MAX);
    problems.extend(load("derived_nomate_nshogi.sfen", 60));
    problems.extend(load("yaneuraou_mate5_100.sfen", 30));
    problems.retain(|p| p.answer != "?");
    let limits = Limits { time: Some(Duration::from_secs(60)), nodes: None };
    let mut shared =
        Solver::new(SolverConfig { hash_mb: 16, rules: Rules::Pure, ..Default::default() });
    let mut fresh =
        Solver::new(SolverConfig { hash_mb: 16, rules: Rules::Pure, ..Default::default() });
    let order: Vec<&Problem> = problems.iter().chain(problems.iter().rev()).collect();
    for p in order {
        let stop = AtomicBool::new(false);
        let with_history = shared.solve(&p.pos, &limits, &stop, &mut |_| {}).outcome;
        let alone = solve(&mut fresh, &p.pos, 60);
        match (&with_history, &alone) {
            (Outcome::NoMate, Outcome::NoMate) => assert_eq!(p.answer, "nomate", "{}", p.id),
            (Outcome::Mate(a), Outcome::Mate(b)) => {
                assert_mate_line(p, a);
                assert_eq!(a.len(), b.len(), "{}: shortest length differs", p.id);
                if let Ok(n) = p.answer.parse::<usize>() {
                    assert_eq!(a.len(), n, "{}", p.id);
                }
            }
            _ => panic!("{}: shared table {with_history:?}, fresh table {alone:?}", p.id),
        }
    }
}
