//! Multi-candidate ponder over stdin/stdout: `go ponder` predicts and searches several replies,
//! `ponderhit` answers from the expected reply's search, and after `stop` a `go` on the position
//! after another kept reply answers from that reply's search; `PonderCandidates 1` is classic
//! ponder.

mod usi_driver;

use std::thread::sleep;
use std::time::Duration;
use usi_driver::{legal_bestmove, Usi, PROMPT};

const CLOCK: &str = "btime 0 wtime 0 byoyomi 300";

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

#[test]
fn after_stop_a_sibling_reply_is_answered_from_its_kept_search() {
    let mut u = pondering(3);
    u.send("position startpos moves 7g7f 3c3d");
    u.send(&format!("go ponder {CLOCK}"));
    // Each kept reply gets far more than the 190 ms the clock gives a move.
    sleep(Duration::from_millis(2500));
    u.send("stop");
    u.wait_for("bestmove", PROMPT);
    let replies = searched_replies(&u.log);
    assert!(replies.len() >= 2, "{:#?}", u.log);
    let sibling = format!("position startpos moves 7g7f {}", replies[1]);
    u.log.clear();
    u.send(&sibling);
    u.send(&format!("go {CLOCK}"));
    let lines = u.wait_for("bestmove", PROMPT);
    legal_bestmove(lines.last().map_or("", String::as_str), &sibling);
    assert!(
        u.log.iter().any(|l| l.starts_with("info string ponder: answered at once")),
        "{:#?}",
        u.log
    );
    // A position no ponder searched is searched afresh, with no such note.
    u.log.clear();
    u.send("position startpos moves 2g2f");
    u.send(&format!("go {CLOCK}"));
    u.wait_for("bestmove", PROMPT);
    assert!(!u.log.iter().any(|l| l.starts_with("info string ponder")), "{:#?}", u.log);
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
