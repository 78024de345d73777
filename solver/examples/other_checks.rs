//! The report's cook questions at one position, measured node for node: the other checks of a
//! main line's move asked alone (each with its own node cap, a fresh table each, as
//! `solve --any-mate` asks them) or as one joint question (a fresh table for the position),
//! with or without the search that expects "no" (`SolverConfig::expect_no`).
//!
//! ```sh
//! cargo run --release -p tsumugi-solver --example other_checks -- FILE [--alone] [--expect-no] [--nodes N]
//! ```
//!
//! FILE: lines `<sfen> # <id> <the main move, USI>`. Prints, a position a line: its id, the
//! other checks, how many are refuted, mate, are open, and the nodes. `--nodes N` is the cap of
//! each question alone, and `N` times the number of other checks for the joint question (which
//! goes on with the mates it finds left out, within that total).

use shogi::{MoveClass, MoveList, NonPromotions, Position};
use solver::search::OtherMoves;
use solver::{Limits, Outcome, Rules, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: other_checks FILE [--alone] [--expect-no] [--nodes N]");
        std::process::exit(2);
    };
    let alone = args.iter().any(|a| a == "--alone");
    let expect_no = args.iter().any(|a| a == "--expect-no");
    let nodes: u64 = args
        .iter()
        .position(|a| a == "--nodes")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(8_000_000);
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(1)
    });
    let (mut total_nodes, mut total_open) = (0u64, 0usize);
    for (n, line) in text.lines().enumerate() {
        let (sfen, rest) = line.split_once(" # ").unwrap_or((line, ""));
        let mut words = rest.split_whitespace();
        let (Some(id), Some(main)) = (words.next(), words.next()) else { continue };
        let Ok(pos) = Position::from_sfen(sfen.trim()) else {
            eprintln!("{file}:{}: not a position", n + 1);
            continue;
        };
        let Ok(main) = pos.parse_usi_move(main) else {
            eprintln!("{file}:{}: not a move: {main}", n + 1);
            continue;
        };
        let mut list = MoveList::new();
        shogi::movegen::generate(&pos, MoveClass::Checks, NonPromotions::Include, &mut list);
        let others: Vec<shogi::Move> = list.iter().copied().filter(|&c| c != main).collect();
        let (refuted, mates, open, spent) = if alone {
            ask_alone(&pos, &others, nodes, expect_no)
        } else {
            ask_jointly(&pos, main, others.len(), nodes, expect_no)
        };
        total_nodes += spent;
        total_open += open;
        println!(
            "{id} {} others: {refuted} refuted, {mates} mate, {open} open, {spent} nodes",
            others.len()
        );
    }
    println!("total: {total_open} open, {total_nodes} nodes");
}

fn solver() -> Solver {
    let config = SolverConfig {
        hash_mb: 512,
        rules: Rules::Tsume,
        any_mate: true,
        ..SolverConfig::default()
    };
    Solver::new(config)
}

/// Each other check alone, a fresh table each, within `cap` nodes.
fn ask_alone(
    pos: &Position,
    others: &[shogi::Move],
    cap: u64,
    expect_no: bool,
) -> (usize, usize, usize, u64) {
    let stop = AtomicBool::new(false);
    let (mut refuted, mut mates, mut open, mut spent) = (0, 0, 0, 0);
    for &c in others {
        let mut s = solver();
        let limits = Limits { time: None, nodes: Some(cap) };
        let r = s.at_once(1, |t| {
            t.expect_no(expect_no);
            t.solve_after(pos, &[c], pos.side_to_move(), &limits, &stop)
        });
        let Some(r) = r.into_iter().next() else { continue };
        spent += r.nodes;
        match r.outcome {
            Outcome::NoMate => refuted += 1,
            Outcome::Mate(_) => mates += 1,
            Outcome::Timeout => open += 1,
        }
    }
    (refuted, mates, open, spent)
}

/// The other checks as one question (a fresh table), within `per * count` nodes in all.
fn ask_jointly(
    pos: &Position,
    main: shogi::Move,
    count: usize,
    per: u64,
    expect_no: bool,
) -> (usize, usize, usize, u64) {
    let stop = AtomicBool::new(false);
    let mut s = solver();
    let budget = per.saturating_mul(count as u64);
    let (mut left_out, mut spent) = (vec![main], 0u64);
    loop {
        let limits = Limits { time: None, nodes: Some(budget.saturating_sub(spent).max(1)) };
        let r = s.at_once(1, |t| {
            t.expect_no(expect_no);
            t.other_moves(pos, &[], pos.side_to_move(), &left_out, &limits, &stop)
        });
        let Some(r) = r.into_iter().next() else { break (0, 0, count, spent) };
        spent += r.nodes;
        let mates = left_out.len() - 1;
        match r.answer {
            OtherMoves::Mates(found) if spent < budget => left_out.extend(found),
            OtherMoves::NoMate => break (count - mates, mates, 0, spent),
            _ => {
                // Open: what the table refutes of the rest is settled.
                let mut list = MoveList::new();
                shogi::movegen::generate(pos, MoveClass::Checks, NonPromotions::Include, &mut list);
                let rest: Vec<shogi::Move> =
                    list.iter().copied().filter(|c| !left_out.contains(c)).collect();
                let refuted = rest
                    .iter()
                    .filter(|&&c| s.known_after(pos, &[c], pos.side_to_move()) == Some(false))
                    .count();
                break (refuted, mates, rest.len() - refuted, spent);
            }
        }
    }
}
