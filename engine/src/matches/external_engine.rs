//! An external USI engine as a match player, driven over its stdin/stdout: `usi`/`usiok`,
//! `setoption`, `isready`/`readyok`, `usinewgame`, `position`, `go`, `bestmove`, `gameover`,
//! `quit`; with ponder, as a GUI does: `USI_Ponder`, then after `bestmove X ponder Y` the
//! position after Y and `go ponder`; `ponderhit` when the opponent plays Y, else `stop` (its
//! `bestmove` is read and dropped) and the new position with `go`.
//!
//! A reader thread turns the engine's output into lines, so every wait has a timeout. An engine
//! that does not answer `go` in time is sent `stop`; if it still does not answer (or its output
//! ends), it is killed and started afresh at the next game. Its stderr is discarded.

use crate::matches::player::{with_move, GameOver, MoveRequest, Player, PlayerError, Reply};
use crate::search::report::SearchLimits;
use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};
use shogi::movegen::is_legal;
use shogi::usi::parse_move_syntax;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine may take to answer `usi` and `isready` (some load large files).
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(60);
/// After `stop`, how long to wait for the `bestmove` before killing the engine.
pub const STOP_GRACE: Duration = Duration::from_secs(2);

/// How to start an external engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSpec {
    pub path: PathBuf,
    pub args: Vec<String>,
    /// `setoption name <0> value <1>` after `usiok`.
    pub options: Vec<(String, String)>,
    /// Ponder on the opponent's time (`USI_Ponder` is set unless `options` set it).
    pub ponder: bool,
}

struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    name: String,
}

impl Process {
    fn start(spec: &ExternalSpec) -> Result<Process, PlayerError> {
        let crashed = |e: String| PlayerError::Crashed(format!("{}: {e}", spec.path.display()));
        let mut child = Command::new(&spec.path)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| crashed(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(crashed("no pipes".to_string()));
        };
        let (tx, rx) = unbounded();
        thread::Builder::new()
            .name("external-engine".to_string())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(line).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(|e| crashed(e.to_string()))?;
        let fallback = spec
            .path
            .file_name()
            .map_or_else(|| "external".to_string(), |n| n.to_string_lossy().into_owned());
        let mut p = Process { child, stdin, lines: rx, name: fallback };
        p.send("usi")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = p.recv_until(deadline)?;
            if let Some(name) = line.strip_prefix("id name ") {
                p.name = name.trim().to_string();
            } else if line == "usiok" {
                break;
            }
        }
        for (name, value) in &spec.options {
            p.send(&format!("setoption name {name} value {value}"))?;
        }
        if spec.ponder && !spec.options.iter().any(|(n, _)| n == "USI_Ponder") {
            p.send("setoption name USI_Ponder value true")?;
        }
        p.sync()?;
        Ok(p)
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| PlayerError::Crashed(format!("writing to the engine: {e}")))
    }

    /// The next line; `Timeout` at the deadline, `Crashed` when the output has ended.
    fn recv_until(&self, deadline: Instant) -> Result<String, PlayerError> {
        match self.lines.recv_deadline(deadline) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(PlayerError::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                Err(PlayerError::Crashed("the engine's output ended".to_string()))
            }
        }
    }

    /// `isready` → `readyok`.
    fn sync(&mut self) -> Result<(), PlayerError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while self.recv_until(deadline)? != "readyok" {}
        Ok(())
    }

    /// Waits for `bestmove` until `deadline`: the answer, and the reply it expects (`ponder`).
    fn bestmove(&self, deadline: Instant) -> Result<(Reply, Option<String>), PlayerError> {
        loop {
            let line = self.recv_until(deadline)?;
            let mut tokens = line.split_whitespace();
            if tokens.next() != Some("bestmove") {
                continue;
            }
            let reply = match tokens.next() {
                Some("resign") => Reply::Resign,
                Some("win") => Reply::Win,
                Some(m) => Reply::Move(m.to_string()),
                None => return Err(PlayerError::Crashed("an empty bestmove".to_string())),
            };
            let ponder = match (tokens.next(), tokens.next()) {
                (Some("ponder"), Some(m)) => Some(m.to_string()),
                _ => None,
            };
            return Ok((reply, ponder));
        }
    }

    /// `stop` to a pondering engine, and its `bestmove` read and dropped.
    fn stop_pondering(&mut self) -> Result<(), PlayerError> {
        self.send("stop")?;
        self.bestmove(Instant::now() + STOP_GRACE).map(|_| ())
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}

/// An external USI engine; (re)started at the first game after a crash.
pub struct ExternalEngine {
    spec: ExternalSpec,
    limits: SearchLimits,
    process: Option<Process>,
    name: String,
    /// The reply named by the last `bestmove ... ponder ...`.
    expected: Option<String>,
    /// The `position` command of the position the engine ponders on (`go ponder` running).
    pondering: Option<String>,
}

impl ExternalEngine {
    /// Starts the engine now, so that a wrong path is reported before any game.
    pub fn start(spec: ExternalSpec, limits: SearchLimits) -> Result<ExternalEngine, PlayerError> {
        let process = Process::start(&spec)?;
        let name = process.name.clone();
        Ok(ExternalEngine {
            spec,
            limits,
            process: Some(process),
            name,
            expected: None,
            pondering: None,
        })
    }

    fn process(&mut self) -> Result<&mut Process, PlayerError> {
        if self.process.is_none() {
            let p = Process::start(&self.spec)?;
            self.name = p.name.clone();
            self.process = Some(p);
        }
        self.process.as_mut().ok_or_else(|| PlayerError::Crashed("not running".to_string()))
    }

    /// Kills the process after an error, so that the next game starts a fresh one.
    fn fail<T>(&mut self, e: PlayerError) -> Result<T, PlayerError> {
        self.pondering = None;
        if let Some(p) = self.process.take() {
            p.kill();
        }
        Err(e)
    }

    /// Stops a `go ponder` still running, if any.
    fn stop_pondering(&mut self) -> Result<(), PlayerError> {
        if self.pondering.take().is_none() {
            return Ok(());
        }
        let result = self.process().and_then(Process::stop_pondering);
        result.or_else(|e| self.fail(e))
    }
}

impl Player for ExternalEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.stop_pondering()?;
        self.expected = None;
        let result = self.process().and_then(|p| {
            p.sync()?;
            p.send("usinewgame")
        });
        match result {
            Ok(()) => Ok(()),
            Err(e) => self.fail(e),
        }
    }

    fn play(&mut self, request: &MoveRequest) -> Result<Reply, PlayerError> {
        let go = format!("go {}", request.clock.go_args(&self.limits));
        let start = Instant::now();
        let hit = self.pondering.as_deref() == Some(request.command);
        if hit {
            self.pondering = None;
        } else {
            self.stop_pondering()?;
        }
        let result = self.process().and_then(|p| {
            if hit {
                p.send("ponderhit")?;
            } else {
                // Lines left from before (a late `info`) are not answers to this `go`.
                while p.lines.try_recv().is_ok() {}
                p.send(request.command)?;
                p.send(&go)?;
            }
            match p.bestmove(start + request.give_up_after) {
                Err(PlayerError::Timeout) => {
                    p.send("stop")?;
                    // Answered after `stop`: the game judges the time; no answer: killed.
                    p.bestmove(Instant::now() + STOP_GRACE)
                }
                other => other,
            }
        });
        match result {
            Ok((reply, expected)) => {
                self.expected = expected;
                Ok(reply)
            }
            Err(e) => self.fail(e),
        }
    }

    fn ponder(&mut self, request: &MoveRequest) -> Result<Option<String>, PlayerError> {
        let Some(reply) = self.expected.take() else { return Ok(None) };
        let legal = parse_move_syntax(&reply).is_ok_and(|m| is_legal(request.position, m));
        if !self.spec.ponder || !legal {
            return Ok(None);
        }
        let command = with_move(request.command, &reply);
        let go = format!("go ponder {}", request.clock.go_args(&self.limits));
        let result = self.process().and_then(|p| {
            while p.lines.try_recv().is_ok() {}
            p.send(&command)?;
            p.send(&go)
        });
        match result {
            Ok(()) => {
                self.pondering = Some(command);
                Ok(Some(reply))
            }
            Err(e) => self.fail(e),
        }
    }

    fn game_over(&mut self, result: GameOver) {
        if self.stop_pondering().is_err() {
            return;
        }
        if let Some(p) = self.process.as_mut() {
            let word = match result {
                GameOver::Win => "win",
                GameOver::Lose => "lose",
                GameOver::Draw => "draw",
            };
            if p.send(&format!("gameover {word}")).is_err() {
                if let Some(p) = self.process.take() {
                    p.kill();
                }
            }
        }
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        if let Some(p) = self.process.take() {
            p.quit();
        }
    }
}
