//! `SolverConfig::lines_in_order` (the composer's report): of the checks that mate as soon at
//! a node of the main line, the line takes the first in the order of the moves, whatever the
//! table held first (run with --release).

use shogi::{Color, Move, MoveClass, MoveList, NonPromotions, Position};
use solver::{Limits, Outcome, Rules, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn problem(file: &str, id: &str) -> Position {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/").to_string() + file;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let line = text.lines().find(|l| l.contains(&format!(" # {id} ")));
    let line = line.unwrap_or_else(|| panic!("{id} not in {path}"));
    let sfen = line.split(" #").next().unwrap_or_default().trim();
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{id}: {e}"))
}

fn solver(lines_in_order: bool) -> Solver {
    Solver::new(SolverConfig {
        hash_mb: 64,
        rules: Rules::Tsume,
        lines_in_order,
        ..SolverConfig::default()
    })
}

/// The main line of `root` (Black mates), proven the shortest.
fn main_line(root: &Position, lines_in_order: bool) -> Vec<Move> {
    let limits = Limits { time: Some(Duration::from_secs(60)), nodes: None };
    let stop = AtomicBool::new(false);
    let r = solver(lines_in_order).solve(root, &limits, &stop, &mut |_| {});
    assert!(r.proven_shortest, "{r:?}");
    match r.outcome {
        Outcome::Mate(line) => line,
        other => panic!("{other:?}"),
    }
}

/// The checks of `pos` in the order the solver generates them.
fn checks(pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    shogi::movegen::generate(pos, MoveClass::Checks, NonPromotions::Include, &mut list);
    list.iter().copied().collect()
}

/// Each check before the line's, at each attacker's move of `line`, that mates within the
/// plies the line needs from there (asked of another solver, within `nodes` each), as (ply,
/// check, its mate's length).
fn earlier_checks_that_mate_as_soon(
    root: &Position,
    line: &[Move],
    nodes: u64,
) -> Vec<(usize, String, usize)> {
    let mut asker = solver(false);
    let limits = Limits { time: None, nodes: Some(nodes) };
    let stop = AtomicBool::new(false);
    let mut found = Vec::new();
    let mut pos = root.clone();
    for (i, &mv) in line.iter().enumerate() {
        if i % 2 == 0 {
            for c in checks(&pos).into_iter().take_while(|&c| c != mv) {
                let way: Vec<Move> = line[..i].iter().copied().chain([c]).collect();
                let r = asker.solve_after(root, &way, Color::Black, &limits, &stop, &mut |_| {});
                if let Outcome::Mate(m) = r.outcome {
                    if m.len() < line.len() - i {
                        found.push((i + 1, c.to_string(), m.len() + 1));
                    }
                }
            }
        }
        pos.make_move(mv);
    }
    found
}

/// YaneuraOu samples whose main line took another check of the same length at two threads
/// than at one (three runs each): in order, no check before the line's mates as soon.
#[test]
fn no_check_before_the_lines_mates_as_soon() {
    for id in
        ["yane500m-mate9-0028", "yane500m-mate9-0052", "yane500m-mate9-0058", "yane500m-mate9-0090"]
    {
        let root = problem("yaneuraou_mate9_100.sfen", id);
        let line = main_line(&root, true);
        let found = earlier_checks_that_mate_as_soon(&root, &line, 2_000_000);
        assert!(
            found.is_empty(),
            "{id}: {found:?} before {:?}",
            line.iter().map(Move::to_string).collect::<Vec<_>>()
        );
    }
}

/// 図巧5: at move 15, ▲６二銀成 (5a6b+) and ▲６二香成 (6f6b+) both mate in 7. The line took
/// 6f6b+, whose proof its solve found first, and a report run again with a table file, which
/// then held the proof of 5a6b+ from the first report's cook question, took 5a6b+.
#[test]
fn zukou_5_takes_the_first_of_two_checks_that_mate_in_seven_at_move_15() {
    let root = problem("edo_zukou.sfen", "zukou-005");
    let line = main_line(&root, true);
    assert_eq!(line.len(), 21);
    assert_eq!(line[14].to_string(), "5a6b+");
    let mut pos = root.clone();
    for &m in &line[..14] {
        pos.make_move(m);
    }
    let order: Vec<String> = checks(&pos).iter().map(Move::to_string).collect();
    let at = |usi: &str| order.iter().position(|c| c == usi);
    assert!(at("5a6b+") < at("6f6b+") && at("6f6b+").is_some(), "{order:?}");
}
