//! What a bounded disproof of a cook question costs (issue 81, report IV): each other check of
//! a position asked "does it mate within P plies?" (a depth-limited solve, a fresh table each,
//! within a node cap), for each bound P, node for node at one thread.
//!
//! ```sh
//! cargo run --release -p tsumugi-solver --example check_bounds -- "<sfen>" <main move> \
//!     --plies 11,15,41 [--nodes N] [--only N*6e,4e5e]
//! ```
//!
//! The bounds count from the position (the check itself is the first ply). Prints a line a
//! check and bound: `mate`, `no mate` (none at any length), `none within P` (the bound proven)
//! or `open` (the cap reached first), with the nodes spent.

use shogi::{Move, MoveClass, MoveList, NonPromotions, Position};
use solver::{Limits, Outcome, Rules, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: check_bounds SFEN MAIN --plies P,P,... [--nodes N] [--only M,M,...]");
        std::process::exit(2)
    };
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
    let (Some(sfen), Some(main)) = (args.first(), args.get(1)) else { usage() };
    let pos = Position::from_sfen(sfen).unwrap_or_else(|e| {
        eprintln!("not a position: {e}");
        std::process::exit(2)
    });
    let main = pos.parse_usi_move(main).unwrap_or_else(|e| {
        eprintln!("not a move here: {e}");
        std::process::exit(2)
    });
    let Some(plies) = value("--plies") else { usage() };
    let plies: Vec<u16> = plies.split(',').filter_map(|p| p.trim().parse().ok()).collect();
    if plies.is_empty() || plies.contains(&0) {
        eprintln!("--plies: a list of positive numbers of plies");
        std::process::exit(2);
    }
    let cap: u64 = value("--nodes").and_then(|n| n.parse().ok()).unwrap_or(4_000_000);
    let only: Option<Vec<&str>> = value("--only").map(|o| o.split(',').collect());
    let mut list = MoveList::new();
    shogi::movegen::generate(&pos, MoveClass::Checks, NonPromotions::Include, &mut list);
    let asked =
        |c: &Move| *c != main && only.as_ref().is_none_or(|o| o.contains(&c.to_string().as_str()));
    let stop = AtomicBool::new(false);
    for &c in list.iter().filter(|c| asked(c)) {
        for &p in &plies {
            let config = SolverConfig {
                hash_mb: 512,
                rules: Rules::Tsume,
                any_mate: true,
                ..SolverConfig::default()
            };
            let mut solver = Solver::new(config);
            let limits = Limits { time: None, nodes: Some(cap) };
            let side = pos.side_to_move();
            // After the check, P - 1 plies are left.
            let results = solver
                .at_once(1, |t| t.solve_after_within(&pos, &[c], side, p - 1, &limits, &stop));
            let Some(r) = results.into_iter().next() else { continue };
            let answer = match r.outcome {
                Outcome::Mate(_) => "mate".to_string(),
                Outcome::NoMate => "no mate".to_string(),
                Outcome::Timeout if r.depth_limited => format!("none within {p}"),
                Outcome::Timeout => "open".to_string(),
            };
            println!("{c} within {p}: {answer}, {} nodes", r.nodes);
        }
    }
}
