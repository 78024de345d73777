//! Multi-candidate ponder over stdin/stdout: `go ponder` predicts and searches several replies,
//! `ponderhit` answers from the expected reply's search, and after `stop` a `go` on the position
//! after another kept reply answers from that reply's search; `PonderCandidates 1` is classic
//! ponder.

mod usi_driver;

use std::thread::sleep;
use std::time::Duration;
use usi_driver::{legal_bestmove, Usi, PROMPT};

/// Main time and byoyomi: a move gets about 200 ms (soft) to 600 ms (hard), and time saved on
/// one move is kept for the next.
const CLOCK: &str = "btime 4000 wtime 4000 byoyomi 100";
/// Byoyomi only: time saved is lost, so an answer from a ponder search goes on searching.
const BYOYOMI_ONLY: &str = "btime 0 wtime 0 byoyomi 300";

fn pondering(candidates: usize) -> Usi {
    let mut u = Usi::ready();
    u.send("setoption name USI_Ponder value true");
    u.send(&format!("setoption name PonderCandidates value {candidates}"));
    u.send("isready");
    u.wait_for("readyok", PROMPT);
    u
}

/// The replies the engine said it searches.
fn searched_replies(log: &[String]) -> Vec<String> {
    log.iter()
        .find_map(|l| l.strip_prefix("info string ponder: searching the replies "))
        .map(|r| r.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

#[test]
fn ponderhit_answers_from_the_expected_replys_search() {
    let mut u = pondering(3);
    u.send("position startpos moves 7g7f 3c3d");
    u.send(&format!("go ponder {CLOCK}"));
    sleep(Duration::from_millis(1000));
    u.send("ponderhit");
    let lines = u.wait_for("bestmove", PROMPT);
    legal_bestmove(lines.last().map_or("", String::as_str), "position startpos moves 7g7f 3c3d");
    let replies = searched_replies(&u.log);
    assert!(replies.len() >= 2 && replies.len() <= 3, "{:#?}", u.log);
    assert_eq!(replies[0], "3c3d", "the expected reply comes first");
    assert!(u.log.iter().any(|l| l.starts_with("info string ponder: ")), "{:#?}", u.log);
    assert!(u.quit().success());
}

/// `go ponder`, then `stop` after 2.5 s (each kept reply gets far more than the soft limit),
/// then a `go` with `clock` on the position after the second kept reply: the log of that `go`.
fn go_on_a_sibling_after_stop(u: &mut Usi, clock: &str) -> Vec<String> {
    u.send("position startpos moves 7g7f 3c3d");
    u.send(&format!("go ponder {clock}"));
    sleep(Duration::from_millis(2500));
    u.send("stop");
    u.wait_for("bestmove", PROMPT);
    let replies = searched_replies(&u.log);
    assert!(replies.len() >= 2, "{:#?}", u.log);
    let sibling = format!("position startpos moves 7g7f {}", replies[1]);
    u.log.clear();
    u.send(&sibling);
    u.send(&format!("go {clock}"));
    let lines = u.wait_for("bestmove", PROMPT);
    legal_bestmove(lines.last().map_or("", String::as_str), &sibling);
    std::mem::take(&mut u.log)
}

#[test]
fn after_stop_a_sibling_reply_is_answered_from_its_kept_search() {
    let mut u = pondering(3);
    let log = go_on_a_sibling_after_stop(&mut u, CLOCK);
    assert!(log.iter().any(|l| l.starts_with("info string ponder: answered at once")), "{log:#?}");
    // With only byoyomi, answering at once would waste the byoyomi: the search goes on.
    let log = go_on_a_sibling_after_stop(&mut u, BYOYOMI_ONLY);
    assert!(log.iter().any(|l| l.starts_with("info string ponder: continuing")), "{log:#?}");
    // A position no ponder searched is searched afresh, with no such note.
    u.log.clear();
    u.send("position startpos moves 2g2f");
    u.send(&format!("go {CLOCK}"));
    u.wait_for("bestmove", PROMPT);
    assert!(!u.log.iter().any(|l| l.starts_with("info string ponder")), "{:#?}", u.log);
    assert!(u.quit().success());
}

/// The milliseconds a ponder note says the reply's search had.
fn ms_while_pondering(log: &[String]) -> u64 {
    log.iter()
        .filter_map(|l| l.strip_prefix("info string ponder: "))
        .filter_map(|l| l.split(" ms while pondering").next()?.rsplit(' ').next()?.parse().ok())
        .next()
        .unwrap_or(0)
}

#[test]
fn with_two_threads_the_sibling_has_a_thread_of_its_own() {
    let mut u = pondering(2);
    u.send("setoption name Threads value 2");
    let log = go_on_a_sibling_after_stop(&mut u, CLOCK);
    assert!(log.iter().any(|l| l.starts_with("info string ponder: answered at once")), "{log:#?}");
    // Searched beside the expected reply for the whole 2.5 s, not half of it in turns.
    let ms = ms_while_pondering(&log);
    assert!(ms >= 1800, "the sibling's search had {ms} ms: {log:#?}");
    assert!(u.quit().success());
}

#[test]
fn one_candidate_is_classic_ponder() {
    let mut u = pondering(1);
    u.send("position startpos moves 7g7f 3c3d");
    u.send(&format!("go ponder {CLOCK}"));
    sleep(Duration::from_millis(300));
    u.send("ponderhit");
    let lines = u.wait_for("bestmove", PROMPT);
    legal_bestmove(lines.last().map_or("", String::as_str), "position startpos moves 7g7f 3c3d");
    assert!(searched_replies(&u.log).is_empty(), "{:#?}", u.log);
    assert!(u.quit().success());
}
