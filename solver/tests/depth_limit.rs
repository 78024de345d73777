//! No depth of search can kill the solver: the depth limit and the stack guard
//! (`solver::stack`) end a branch, and a search that found nothing but such ends answers
//! "timeout", never "no mate". The searches run on the kind of thread the USI engine runs
//! them on ([`solver::stack::search_thread`]) unless a test says otherwise.

use shogi::Position;
use solver::stack::{self, BYTES_PER_PLY, RESERVE_BYTES};
use solver::{Limits, Outcome, SolveResult, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;
use std::thread;

const MATE7: &str =
    "ln1g3+Rl/2sk1s+P2/2ppppb1p/p1b3p2/8P/P4P3/2PPP1P2/1+r2GS3/LN+p2KGNL w GN2Ps 36";
const MATE11: &str = "+P2+Rb1gnl/7k1/n1p1+Bp1pp/p5p2/1p1pP2P1/2+s6/PsNGSPP1P/3KG4/L5RNL b SL3Pg 83";
/// No mate, but checks to give (nshogi-nomate1-00001).
const NOMATE: &str = "Kbg4nl/3sk1gs1/1Gn4pp/1+r1p5/1pP4P1/4S4/P2PPG2P/1L7/LNS4NL b 7PRpb 1";

fn position(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn solve(solver: &mut Solver, sfen: &str, nodes: Option<u64>) -> SolveResult {
    let limits = Limits { time: None, nodes };
    solver.clear();
    solver.solve(&position(sfen), &limits, &AtomicBool::new(false), &mut |_| {})
}

/// Runs `f` on a search thread, as the USI engine runs its searches.
fn on_search_thread<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    stack::run_on_search_thread("test-search", f).unwrap_or_else(|e| panic!("{e}"))
}

fn with_depth_limit(max_ply: u16) -> Solver {
    Solver::new(SolverConfig { hash_mb: 16, max_ply, ..SolverConfig::default() })
}

fn mate_length(r: &SolveResult) -> Option<usize> {
    match &r.outcome {
        Outcome::Mate(pv) => Some(pv.len()),
        _ => None,
    }
}

#[test]
fn reaching_the_depth_limit_is_a_timeout_not_an_answer() {
    on_search_thread(|| {
        let r = solve(&mut with_depth_limit(5), MATE7, None);
        assert_eq!(r.outcome, Outcome::Timeout, "a mate in 7 is beyond 5 plies");
        assert!(r.depth_limited);
        let r = solve(&mut with_depth_limit(7), MATE7, None);
        assert_eq!(mate_length(&r), Some(7));
        assert!(!r.depth_limited);
        // The first proof's line alone (`--any-mate`) may be as long as the limit too: it ends
        // in mate there (it was once refused as too long).
        let config = SolverConfig { hash_mb: 16, max_ply: 7, any_mate: true, ..Default::default() };
        let r = solve(&mut Solver::new(config), MATE7, None);
        assert_eq!(mate_length(&r), Some(7), "{r:?}");

        // A position with checks but no mate: within 1 ply nothing is settled beyond it.
        let r = solve(&mut with_depth_limit(1), NOMATE, None);
        assert_eq!(r.outcome, Outcome::Timeout, "no mate within 1 ply is not 'no mate'");
        assert!(r.depth_limited);
        let r = solve(&mut with_depth_limit(stack::MAX_PLY), NOMATE, None);
        assert_eq!(r.outcome, Outcome::NoMate);
    });
}

/// Calls `f` with about `headroom` bytes of stack left above the guard's reserve.
fn with_headroom<T>(headroom: usize, f: impl FnOnce() -> T) -> T {
    fn descend<T>(headroom: usize, f: impl FnOnce() -> T) -> T {
        let left = stacker::remaining_stack().unwrap_or(usize::MAX);
        if left <= RESERVE_BYTES + headroom {
            return f();
        }
        // About 1 KB per call.
        let pad = std::hint::black_box([0u8; 1024]);
        let r = descend(headroom, f);
        std::hint::black_box(pad);
        r
    }
    descend(headroom, f)
}

#[test]
fn a_nearly_full_stack_ends_branches_instead_of_overflowing() {
    let (short, full) = thread::Builder::new()
        .stack_size(RESERVE_BYTES + (4 << 20))
        .spawn(|| {
            let mut solver = with_depth_limit(stack::MAX_PLY);
            // Room for a few plies only: a mate in 11 cannot be proven, nor anything refuted.
            let short = with_headroom(3 << 10, || solve(&mut solver, MATE11, None));
            let full = solve(&mut solver, MATE11, None);
            (short, full)
        })
        .unwrap_or_else(|e| panic!("{e}"))
        .join()
        .unwrap_or_else(|_| panic!("the search thread died"));
    assert_eq!(short.outcome, Outcome::Timeout);
    assert!(short.depth_limited, "the guard's ends count as the depth limit");
    assert_eq!(mate_length(&full), Some(11), "with the stack back the mate is found");
}

#[test]
fn one_ply_takes_less_stack_than_the_threads_are_sized_for() {
    let zukou_100 =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/edo_zukou.sfen"))
            .unwrap_or_else(|e| panic!("{e}"));
    let line = zukou_100.lines().find(|l| l.contains("# zukou-100 ")).unwrap_or_default();
    let sfen = line.split(" # ").next().unwrap_or_default().to_string();
    let used = on_search_thread(move || {
        let mut solver = with_depth_limit(stack::MAX_PLY);
        solve(&mut solver, &sfen, Some(300_000));
        solver.stack_use()
    });
    eprintln!("stack use on 寿 after 300k nodes: {used:?}");
    assert!(used.deepest_ply >= 50, "the search went only {} plies deep", used.deepest_ply);
    let per_ply = used.bytes_per_ply.unwrap_or(0);
    assert!(per_ply <= BYTES_PER_PLY, "{per_ply} bytes per ply, more than {BYTES_PER_PLY}");
}
