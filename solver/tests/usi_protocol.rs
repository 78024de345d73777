//! Drives the `tsumugi-mate` binary over stdin/stdout as a GUI would. Every wait has a
//! timeout, so a hang fails the test instead of blocking the run.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(10);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_with(&[])
    }

    fn start_with(args: &[&str]) -> Engine {
        Engine::start_in(args, &[])
    }

    fn start_in(args: &[&str], vars: &[(&str, &str)]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tsumugi-mate"))
            .args(args)
            .envs(vars.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start tsumugi-mate: {e}"));
        let stdin = child.stdin.take();
        let Some(stdout) = child.stdout.take() else {
            panic!("no stdout");
        };
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine { child, stdin, lines: rx };
        // Keep the tests quick: a small table.
        e.send("setoption name USI_Hash value 16");
        e
    }

    fn send(&mut self, line: &str) {
        let Some(stdin) = self.stdin.as_mut() else {
            panic!("stdin already closed");
        };
        writeln!(stdin, "{line}").unwrap_or_else(|e| panic!("write {line:?}: {e}"));
        stdin.flush().unwrap_or_else(|e| panic!("flush: {e}"));
    }

    /// Reads lines until one satisfies `done`; returns all lines read, that one last.
    fn read_until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!("timed out waiting for {what}; got {seen:?}");
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed its output waiting for {what}; got {seen:?}")
                }
            }
        }
    }

    fn expect(&mut self, prefix: &str) -> Vec<String> {
        self.read_until(prefix, |l| l.starts_with(prefix))
    }

    /// `isready` → `readyok`; returns the lines before it.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until("readyok", |l| l == "readyok");
        lines.pop();
        lines
    }

    fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                Ok(None) => {
                    let _ = self.child.kill();
                    panic!("the engine did not exit");
                }
                Err(e) => panic!("wait: {e}"),
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.wait_exit();
        assert!(status.success(), "exit status {status}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_checkmate_answer(line: &str) -> bool {
    let mut words = line.split_whitespace();
    if words.next() != Some("checkmate") {
        return false;
    }
    let rest: Vec<&str> = words.collect();
    match rest.as_slice() {
        ["nomate"] | ["timeout"] => true,
        [] => false,
        moves => moves.iter().all(|m| shogi::usi::parse_move_syntax(m).is_ok()),
    }
}

const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
/// Microcosmos (1525 plies): a search runs far longer than any test waits.
const LONG: &str =
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1";

#[test]
fn handshake() {
    let mut e = Engine::start();
    e.send("usi");
    let lines = e.expect("usiok");
    assert!(lines.contains(&"id name Tsumugi-mate".to_string()), "{lines:?}");
    assert!(lines.contains(&"id author The Tsumugi developers".to_string()), "{lines:?}");
    for option in [
        "option name USI_Hash type spin default 256 min 1 max 65536",
        "option name DoubleCount type combo default simple var off var simple var snda",
        "option name NodeLimit type spin default 0 min 0 max ",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(option)), "{option}: {lines:?}");
    }
    assert!(e.sync().is_empty());
    e.quit();
}

#[test]
fn setoption() {
    let mut e = Engine::start();
    e.send("setoption name USI_Hash value 32");
    e.send("setoption name DoubleCount value off");
    e.send("setoption name DoubleCount value snda");
    e.send("setoption name DoubleCount value simple");
    e.send("setoption name NodeLimit value 100000");
    e.send("setoption name NodeLimit value 0");
    assert_eq!(e.sync(), Vec::<String>::new(), "good options must be silent");
    for bad in [
        "setoption name NoSuchOption value 1",
        "setoption name USI_Hash value -5",
        "setoption name DoubleCount value sometimes",
        "setoption name NodeLimit value many",
        "setoption",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert!(lines.len() == 1 && lines[0].starts_with("info string"), "{bad}: {lines:?}");
    }
    e.quit();
}

#[test]
fn go_mate_answers() {
    let mut e = Engine::start();
    e.send("usinewgame");
    e.send(&format!("position sfen {MATE1}"));
    e.send("go mate 1000");
    let lines = e.expect("checkmate");
    let answer = lines.last().map(String::as_str).unwrap_or("");
    assert!(is_checkmate_answer(answer), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info") && l.contains(" nodes ")), "{lines:?}");
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go mate 500");
    let lines = e.expect("checkmate");
    assert!(is_checkmate_answer(&lines[lines.len() - 1]), "{lines:?}");
    e.quit();
}

/// While `go mate` refines its answer, each new main line found is shown as it comes (`score
/// mate +N pv ...`), so that a GUI sees the answer tighten; the last is the answer. (A line may
/// be longer than the one before it: a shorter mate found after one defence can make the
/// defender prefer another, longer one, by the rule that ranks a defence leaving the attacker
/// no piece first.)
/// YaneuraOu's mate-in-9 sample #10: the first proof is a 29-ply mate.
#[test]
fn go_mate_shows_each_shorter_line() {
    let sfen = "+B5knl/4+Pg3/3+Rppspp/1p7/3N2pP1/7sP/PP3+pPS1/5g1K1/L7L b RB2GS2NLP4p 93";
    let mut e = Engine::start();
    e.send("usinewgame");
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate 8000");
    let lines = e.expect("checkmate");
    let shown: Vec<(usize, &str)> = lines
        .iter()
        .filter_map(|l| {
            let (_, rest) = l.split_once(" score mate +")?;
            let (n, pv) = rest.split_once(" pv ")?;
            Some((n.parse().ok()?, pv))
        })
        .collect();
    assert!(shown.len() >= 2, "{lines:?}");
    assert!(shown.iter().all(|(n, pv)| pv.split_whitespace().count() == *n), "{lines:?}");
    assert!(shown.windows(2).all(|w| w[1].1 != w[0].1), "{lines:?}");
    assert!(shown[shown.len() - 1].0 < shown[0].0, "{lines:?}");
    let answer = lines.last().and_then(|l| l.strip_prefix("checkmate ")).unwrap_or("");
    assert_eq!(shown.last().map(|s| s.1), Some(answer), "{lines:?}");
    e.quit();
}

#[test]
fn mate_in_one() {
    let mut e = Engine::start();
    e.send(&format!("position sfen {MATE1}"));
    e.send("go mate 5000");
    let lines = e.expect("checkmate");
    assert_eq!(lines.last().map(String::as_str), Some("checkmate G*5b"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info") && l.ends_with(" pv G*5b")), "{lines:?}");
    // A bad position keeps the previous one.
    e.send("position sfen not/a/position b - 1");
    assert_eq!(e.sync().len(), 1);
    e.send("go mate 5000");
    let lines = e.expect("checkmate");
    assert_eq!(lines.last().map(String::as_str), Some("checkmate G*5b"), "{lines:?}");
    // A plain `go` plays the mating move.
    e.send("go btime 1000 wtime 1000 byoyomi 1000");
    let lines = e.expect("bestmove");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove G*5b"), "{lines:?}");
    e.quit();
}

#[test]
fn stop_is_answered_quickly() {
    let mut e = Engine::start();
    assert!(e.sync().is_empty());
    e.send(&format!("position sfen {LONG}"));
    e.send("go mate infinite");
    thread::sleep(Duration::from_millis(300));
    // isready is answered during the search, which goes on.
    let lines = e.sync();
    assert!(lines.iter().all(|l| l.starts_with("info ")), "{lines:?}");
    let start = Instant::now();
    e.send("stop");
    let lines = e.expect("checkmate");
    let took = start.elapsed();
    assert_eq!(lines.last().map(String::as_str), Some("checkmate timeout"), "{lines:?}");
    assert!(took < Duration::from_secs(1), "stop took {took:?}");
    eprintln!("stop answered in {took:?}");
    e.quit();
}

#[test]
fn plain_go_answers_bestmove() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go btime 0 wtime 0 byoyomi 300");
    let lines = e.expect("bestmove");
    let last = &lines[lines.len() - 1];
    assert!(last == "bestmove resign" || last.split_whitespace().count() == 2, "{lines:?}");
    // `go infinite` holds its answer until `stop`, whether the search ended first or not.
    for position in ["position startpos".to_string(), format!("position sfen {LONG}")] {
        e.send(&position);
        e.send("go infinite");
        thread::sleep(Duration::from_millis(200));
        let lines = e.sync();
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
        e.send("stop");
        e.expect("bestmove");
    }
    e.quit();
}

#[test]
fn garbage_gets_info_string() {
    let mut e = Engine::start();
    for junk in ["hello", "gofish", "position", "go mate soon", "\u{1b}[2J", "9999"] {
        e.send(junk);
        let lines = e.sync();
        assert!(lines.iter().any(|l| l.starts_with("info string")), "{junk:?}: {lines:?}");
    }
    e.send("");
    e.send("   ");
    assert!(e.sync().is_empty());
    e.quit();
}

#[test]
fn bad_position_keeps_the_engine_running() {
    let mut e = Engine::start();
    for bad in [
        "position sfen 4k4/9/4P4/9/9/9/9/9 b G 1",
        "position sfen lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSNL x - 1",
        "position startpos moves 7g7f 7g7f",
        "position startpos moves zz",
        "position nowhere",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert!(lines.len() == 1 && lines[0].starts_with("info string error"), "{bad}: {lines:?}");
    }
    e.send("go mate 200");
    let lines = e.expect("checkmate");
    assert!(is_checkmate_answer(&lines[lines.len() - 1]), "{lines:?}");
    e.quit();
}

#[test]
fn quit_during_a_search_exits_cleanly() {
    let mut e = Engine::start();
    e.send(&format!("position sfen {LONG}"));
    e.send("go mate infinite");
    thread::sleep(Duration::from_millis(100));
    e.quit();
}

#[test]
fn end_of_input_exits_cleanly() {
    let mut e = Engine::start();
    e.send(&format!("position sfen {MATE1}"));
    e.send("go mate 300");
    e.stdin = None;
    let lines = e.expect("checkmate");
    assert!(is_checkmate_answer(&lines[lines.len() - 1]), "{lines:?}");
    let status = e.wait_exit();
    assert!(status.success(), "exit status {status}");
}

/// `TSUMUGI_CORES` (a benchmarking aid) sets the cores the engine believes it has, and so the
/// default `Threads` (4 at most); a value that is not a positive number is ignored.
#[test]
fn cores_override_sets_the_default_threads() {
    let threads_line = |vars: &[(&str, &str)]| {
        let mut e = Engine::start_in(&[], vars);
        e.send("usi");
        let lines = e.expect("usiok");
        e.quit();
        lines.into_iter().find(|l| l.starts_with("option name Threads ")).unwrap_or_default()
    };
    assert!(threads_line(&[("TSUMUGI_CORES", "64")]).contains(" default 4 "));
    assert!(threads_line(&[("TSUMUGI_CORES", "1")]).contains(" default 1 "));
    let system = std::thread::available_parallelism().map_or(1, |n| n.get()).min(4);
    let ignored = threads_line(&[("TSUMUGI_CORES", "lots")]);
    assert!(ignored.contains(&format!(" default {system} ")), "{ignored}");
}
