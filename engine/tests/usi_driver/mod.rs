//! Drives the `tsumugi` binary over stdin/stdout for the USI tests.

#![allow(dead_code)]

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};
use shogi::{parse_position_command, Position};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_tsumugi");

/// A generous bound for answers that should be immediate (the machine may be busy).
pub const PROMPT: Duration = Duration::from_secs(5);

pub struct Usi {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far.
    pub log: Vec<String>,
}

impl Usi {
    pub fn start() -> Usi {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
        let stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
        let stdin = child.stdin.take();
        let (tx, rx) = unbounded();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            return;
                        }
                    }
                    Err(_) => return,
                }
            }
        });
        Usi { child, stdin, lines: rx, log: Vec::new() }
    }

    /// `usi`, a small hash, `isready`: ready to play.
    pub fn ready() -> Usi {
        let mut u = Usi::start();
        u.send("usi");
        u.wait_for("usiok", PROMPT);
        u.send("setoption name USI_Hash value 16");
        // One search thread, so that what a test sees does not depend on the machine's cores.
        u.send("setoption name Threads value 1");
        u.send("isready");
        u.wait_for("readyok", PROMPT);
        u
    }

    /// The names of the engine process's threads (Linux: `/proc/<pid>/task/*/comm`).
    pub fn thread_names(&self) -> Vec<String> {
        let dir = format!("/proc/{}/task", self.child.id());
        let Ok(tasks) = std::fs::read_dir(dir) else { return Vec::new() };
        tasks
            .filter_map(|t| t.ok())
            .filter_map(|t| std::fs::read_to_string(t.path().join("comm")).ok())
            .map(|n| n.trim().to_string())
            .collect()
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap_or_else(|| panic!("stdin closed"));
        writeln!(stdin, "{line}").unwrap_or_else(|e| panic!("write {line:?}: {e}"));
        stdin.flush().unwrap_or_else(|e| panic!("flush: {e}"));
    }

    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Lines up to and including the first that starts with `prefix`; panics after `timeout`.
    pub fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            match self.lines.recv_deadline(deadline) {
                Ok(line) => {
                    self.log.push(line.clone());
                    let hit = line.starts_with(prefix);
                    got.push(line);
                    if hit {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {prefix:?} within {timeout:?}; log: {:#?}", self.log)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("output ended before {prefix:?}; log: {:#?}", self.log)
                }
            }
        }
    }

    /// The line starting with `prefix`, with the time it took.
    pub fn timed(&mut self, prefix: &str, timeout: Duration) -> (String, Duration) {
        let start = Instant::now();
        let lines = self.wait_for(prefix, timeout);
        (lines.last().cloned().unwrap_or_default(), start.elapsed())
    }

    /// Asserts that no line starting with `prefix` comes within `wait`; returns the others.
    pub fn silent_for(&mut self, prefix: &str, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        loop {
            match self.lines.recv_deadline(deadline) {
                Ok(line) => {
                    self.log.push(line.clone());
                    assert!(!line.starts_with(prefix), "unexpected {line:?}; log: {:#?}", self.log);
                    got.push(line);
                }
                Err(_) => return got,
            }
        }
    }

    /// Sends `quit` and waits for the process to end.
    pub fn quit(mut self) -> ExitStatus {
        self.send("quit");
        self.close_input();
        self.wait_exit(PROMPT)
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            while let Ok(line) = self.lines.try_recv() {
                self.log.push(line);
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                return status;
            }
            assert!(Instant::now() < deadline, "the engine did not exit; log: {:#?}", self.log);
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Usi {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line, checked legal in `position` (`resign`/`win` pass through).
pub fn legal_bestmove(line: &str, position: &str) -> String {
    let mut tokens = line.split_whitespace();
    assert_eq!(tokens.next(), Some("bestmove"), "{line}");
    let m = tokens.next().unwrap_or_else(|| panic!("empty bestmove"));
    if m != "resign" && m != "win" {
        let pos = parse_position_command(position).unwrap_or_else(|e| panic!("{position}: {e}"));
        let mv = pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{line} in {position}: {e}"));
        if let (Some("ponder"), Some(p)) = (tokens.next(), tokens.next()) {
            let mut after: Position = pos.clone();
            after.make_move(mv);
            after.parse_usi_move(p).unwrap_or_else(|e| panic!("ponder {p} in {line}: {e}"));
        }
    }
    m.to_string()
}
