//! `Threads` over stdin/stdout: the option is taken, the helper threads search beside the main
//! thread (they are seen running), `stop` ends them all, a fixed-depth search still plays a
//! legal move with every number of threads, and `Threads` counts every thread that thinks (the
//! root oracle has none of its own).

mod usi_driver;

use std::thread::sleep;
use std::time::{Duration, Instant};
use usi_driver::{legal_bestmove, Usi, PROMPT};

const MIDGAME: &str =
    "position sfen ln1g3nl/1r3kg2/p1sppsbpp/2p2pp2/1p5P1/2P1P1P2/PPSP1PS1P/1BG2K1R1/LN3G1NL b - 1";

fn helpers_running(u: &Usi) -> usize {
    u.thread_names().iter().filter(|n| n.starts_with("search-")).count()
}

#[test]
#[cfg(target_os = "linux")]
fn helper_threads_search_while_the_main_thread_does_and_stop_ends_them() {
    for threads in [1usize, 3] {
        let mut u = Usi::ready();
        u.send(&format!("setoption name Threads value {threads}"));
        u.send("isready");
        u.wait_for("readyok", PROMPT);
        u.send(MIDGAME);
        u.send("go infinite");
        u.wait_for("info depth", PROMPT);
        sleep(Duration::from_millis(100));
        assert_eq!(helpers_running(&u), threads - 1, "Threads {threads}: {:?}", u.thread_names());
        let asked = Instant::now();
        u.send("stop");
        let lines = u.wait_for("bestmove", PROMPT);
        let answered = asked.elapsed();
        legal_bestmove(lines.last().map_or("", String::as_str), MIDGAME);
        // A generous bound (the machine may be busy); measured: a median of 3.3 ms with two
        // threads (benches/history/14-engine-threads-ponder.md).
        assert!(answered < Duration::from_secs(2), "stop answered after {answered:?}");
        // The helpers have ended with the search.
        let deadline = Instant::now() + PROMPT;
        while helpers_running(&u) > 0 && Instant::now() < deadline {
            sleep(Duration::from_millis(10));
        }
        assert_eq!(helpers_running(&u), 0, "{:?}", u.thread_names());
        assert!(u.quit().success());
    }
}

/// Both kings alone and every piece in hand: the root oracle has checks to try and no quick
/// answer (beside the alpha-beta thread, it used to search its full second here).
const OPEN_KINGS: &str = "position sfen 4k4/9/9/9/9/9/9/9/4K4 b RBGSNL2Prbgsnl2p 1";

/// `Threads N` thinks on N threads, the root oracle's work included: while the engine thinks
/// (`go infinite`, and a `go ponder`, which searches the position as it is with the root
/// oracle), the process has at most N - 1 threads more than it had idle; with `Threads 1`, not
/// one. Only threads that exist are asserted, never a time.
#[test]
#[cfg(target_os = "linux")]
fn threads_counts_every_thread_that_thinks_the_root_oracle_too() {
    for (threads, go) in [(1usize, "go infinite"), (1, "go ponder"), (2, "go infinite")] {
        let mut u = Usi::ready();
        u.send("setoption name USI_Ponder value true");
        u.send(&format!("setoption name Threads value {threads}"));
        u.send("isready");
        u.wait_for("readyok", PROMPT);
        let idle = u.thread_names();
        u.send(OPEN_KINGS);
        u.send(go);
        u.wait_for("info depth", PROMPT);
        for _ in 0..40 {
            let mut extra = u.thread_names();
            for name in &idle {
                if let Some(i) = extra.iter().position(|n| n == name) {
                    extra.swap_remove(i);
                }
            }
            assert!(extra.len() < threads, "Threads {threads}, {go}: {extra:?} beside {idle:?}");
            sleep(Duration::from_millis(10));
        }
        u.send("stop");
        let lines = u.wait_for("bestmove", PROMPT);
        legal_bestmove(lines.last().map_or("", String::as_str), OPEN_KINGS);
        assert!(u.quit().success());
    }
}

#[test]
fn every_number_of_threads_plays_a_legal_move_and_reports_all_nodes() {
    for threads in [1, 2, 4] {
        let mut u = Usi::ready();
        u.send(&format!("setoption name Threads value {threads}"));
        u.send("isready");
        u.wait_for("readyok", PROMPT);
        u.send(MIDGAME);
        u.send("go depth 8");
        let lines = u.wait_for("bestmove", Duration::from_secs(60));
        legal_bestmove(lines.last().map_or("", String::as_str), MIDGAME);
        let depths: Vec<u32> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("info depth "))
            .filter_map(|l| l.split_whitespace().next()?.parse().ok())
            .collect();
        assert_eq!(depths.iter().max(), Some(&8), "Threads {threads}: {lines:?}");
        assert!(u.quit().success());
    }
}

#[test]
fn threads_out_of_range_are_refused_and_the_engine_goes_on() {
    let mut u = Usi::ready();
    for bad in ["0", "-1", "many", "100000"] {
        u.send(&format!("setoption name Threads value {bad}"));
        let got = u.wait_for("info string", PROMPT);
        let l = got.last().map_or("", String::as_str);
        assert!(l.contains("Threads"), "{bad}: {l}");
    }
    u.send(MIDGAME);
    u.send("go depth 3");
    let lines = u.wait_for("bestmove", PROMPT);
    legal_bestmove(lines.last().map_or("", String::as_str), MIDGAME);
    assert!(u.quit().success());
}
