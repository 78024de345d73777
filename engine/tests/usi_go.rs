//! Every form of `go` over stdin/stdout, the time it takes, and pondering.

mod usi_driver;

use std::time::Duration;
use usi_driver::{legal_bestmove, Usi, PROMPT};

const MIDGAME: &str =
    "position sfen ln1gk3l/1r3sg2/2pp1pnp1/p1s1pbp1p/9/P1P1PPS1P/1PNP2P2/1BGS3R1/\
                       L3KG1NL b Pp 37";

/// Sends `go <args>` from `position` and checks that a legal `bestmove` comes within `limit`.
fn go_within(u: &mut Usi, position: &str, args: &str, limit: Duration) -> String {
    u.send(position);
    u.send(&format!("go {args}"));
    let (line, took) = u.timed("bestmove", limit + Duration::from_secs(5));
    assert!(took <= limit, "go {args}: {took:?} > {limit:?}; log: {:#?}", u.log);
    legal_bestmove(&line, position)
}

#[test]
fn every_clock_form_answers_in_time() {
    let mut u = Usi::ready();
    let ms = Duration::from_millis;
    for position in ["position startpos", MIDGAME] {
        // Sudden death with 1 s left: well under a second.
        go_within(&mut u, position, "btime 1000 wtime 1000 byoyomi 0", ms(700));
        // Nothing left at all: at once.
        go_within(&mut u, position, "btime 0 wtime 0 byoyomi 0", ms(400));
        // Byoyomi only: within the byoyomi.
        go_within(&mut u, position, "btime 0 wtime 0 byoyomi 500", ms(500 + 150));
        // Increments (Fischer): within the time left.
        go_within(&mut u, position, "btime 600 wtime 600 binc 300 winc 300", ms(600));
        // Negative times from a GUI whose clock ran out count as 0.
        go_within(&mut u, position, "btime -5 wtime -5 byoyomi 300", ms(300 + 150));
        go_within(&mut u, position, "movetime 300", ms(300 + 150));
    }
    // A delay option larger than the time: cut to a third of the time, and said.
    u.send("setoption name NetworkDelay value 5000");
    go_within(&mut u, MIDGAME, "btime 1000 wtime 1000 byoyomi 1000", ms(2000 * 2 / 3 + 150));
    assert!(u.log.iter().any(|l| l.starts_with("info string NetworkDelay 5000 ms cut to ")));
    assert!(u.quit().success());
}

/// As a GUI drives a fast game: no main time, 100 ms byoyomi, the default delay. The delay
/// must not eat the byoyomi (the engine once thought 12 ms and played at depth 1).
#[test]
fn a_short_byoyomi_is_not_eaten_by_the_network_delay() {
    let mut u = Usi::ready();
    for position in ["position startpos", MIDGAME] {
        u.log.clear();
        go_within(&mut u, position, "btime 0 wtime 0 byoyomi 100", Duration::from_millis(100));
        let cut =
            u.log.iter().any(|l| l.starts_with("info string NetworkDelay 100 ms cut to 28 ms"));
        assert!(cut, "{:#?}", u.log);
        // Two thirds of the byoyomi buy more than a couple of plies.
        let deepest = u
            .log
            .iter()
            .filter_map(|l| l.strip_prefix("info depth "))
            .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok())
            .max();
        assert!(deepest >= Some(4), "{:#?}", u.log);
    }
    assert!(u.quit().success());
}

#[test]
fn depth_nodes_and_infinite() {
    let mut u = Usi::ready();
    let long = Duration::from_secs(20);
    go_within(&mut u, MIDGAME, "depth 2", long);
    go_within(&mut u, MIDGAME, "nodes 5000", long);
    u.send("setoption name MultiPV value 3");
    go_within(&mut u, MIDGAME, "depth 2", long);
    u.send("setoption name MultiPV value 1");
    // Unknown and bad fields are reported and skipped.
    u.send(MIDGAME);
    u.send("go depth x frobnicate nodes 5000");
    let got = u.wait_for("bestmove", long);
    assert_eq!(got.iter().filter(|l| l.starts_with("info string go:")).count(), 2, "{got:?}");
    // `go infinite` answers only after `stop`; `isready` is answered meanwhile.
    u.send(MIDGAME);
    u.send("go infinite");
    u.silent_for("bestmove", Duration::from_millis(500));
    u.send("isready");
    let got = u.wait_for("readyok", PROMPT);
    assert!(got.iter().all(|l| !l.starts_with("bestmove")), "{got:?}");
    u.send("ponderhit");
    u.silent_for("bestmove", Duration::from_millis(200));
    u.send("stop");
    let got = u.wait_for("bestmove", PROMPT);
    legal_bestmove(got.last().map_or("", String::as_str), MIDGAME);
    // One `go` while an unlimited search runs is refused (the GUI must `stop` first).
    u.send("go infinite");
    u.send("go depth 1");
    u.wait_for("info string error: a search is already running", PROMPT);
    u.send("stop");
    u.wait_for("bestmove", PROMPT);
    // Two limited searches piped one after the other both answer.
    u.send("go depth 1");
    u.send("go depth 1");
    u.wait_for("bestmove", long);
    u.wait_for("bestmove", long);
    assert!(u.quit().success());
}

#[test]
fn ponder_answers_only_after_ponderhit_or_stop() {
    let mut u = Usi::ready();
    u.send("setoption name USI_Ponder value true");
    let position = "position startpos moves 7g7f 3c3d";

    // ponderhit: the clock starts then, and the answer follows within the budget.
    u.send(position);
    u.send("go ponder btime 0 wtime 0 byoyomi 400");
    u.silent_for("bestmove", Duration::from_millis(600));
    u.send("isready");
    u.wait_for("readyok", PROMPT);
    u.send("ponderhit");
    let (line, took) = u.timed("bestmove", PROMPT);
    assert!(took <= Duration::from_millis(400 + 150), "{took:?}");
    legal_bestmove(&line, position);

    // stop: an answer at once (which the GUI discards).
    u.send(position);
    u.send("go ponder btime 10000 wtime 10000 byoyomi 1000");
    u.silent_for("bestmove", Duration::from_millis(400));
    u.send("stop");
    let (line, took) = u.timed("bestmove", PROMPT);
    assert!(took <= Duration::from_millis(500), "{took:?}");
    legal_bestmove(&line, position);

    // A ponder search with a depth limit that ends early still waits for ponderhit.
    u.send(position);
    u.send("go ponder depth 1 btime 0 wtime 0 byoyomi 300");
    u.silent_for("bestmove", Duration::from_millis(500));
    u.send("ponderhit");
    u.wait_for("bestmove", PROMPT);
    assert!(u.quit().success());
}
