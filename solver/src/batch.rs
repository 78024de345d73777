//! `tsumugi-mate solve FILE...`: the batch solver.
//!
//! Input lines (see `../shared/problems/MANIFEST.md`):
//! - `<sfen> # <id> <answer>` (the id and answer are optional: `<sfen> # <id>`, `<sfen>`);
//! - `sfen <sfen> [moves ...]`, `position startpos|sfen ... [moves ...]`, `startpos [moves ...]`,
//!   a plain SFEN may also be followed by `moves ...`;
//! - blank lines and lines starting with `#` are skipped.
//!
//! Answers: `N` (exact length in plies), `N?` (length of a known line, not proven minimal),
//! `mate`, `nomate`, `>N` (no mate within N plies), `?` (no claim); a trailing `@and` says the
//! side to move defends (it must then be in check: the solver treats a root in check as a
//! defence). The parsing and the comparison are pure functions, tested below.

use crate::config::{DoubleCount, Rules, SolverConfig};
use crate::mate_line::verify_mate_line_as;
use crate::outcome::{Limits, Outcome, SolveResult};
use crate::search::default_attacker;
use crate::search::Solver;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use shogi::{parse_position_command, Position};
use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

// ----- command line --------------------------------------------------------------------------

/// Options of `tsumugi-mate solve`.
#[derive(clap::Args, Clone, Debug)]
pub struct SolveArgs {
    /// Problem files: `<sfen> # <id> <answer>` lines, plain SFEN, `sfen ...` or `position ...`.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Time limit per problem in milliseconds (0 = none).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub time_ms: u64,
    /// Node limit per problem (0 = none).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub nodes: u64,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = SolverConfig::default().hash_mb,
          value_parser = parse_hash)]
    pub hash: usize,
    /// How children likely to share a subtree are counted: off, simple or snda.
    #[arg(long, value_name = "MODE", default_value = "simple", value_parser = parse_double_count)]
    pub double_count: DoubleCount,
    /// Which mate is the answer: `tsume` (tsume-shogi rules: futile interpositions do not
    /// count) or `pure` (every interposition counts).
    #[arg(long, value_name = "RULES", default_value = "tsume", value_parser = parse_rules)]
    pub rules: Rules,
    /// Report the first mate found, not the main line (faster; the line is one line of the
    /// proof, in which the defender need not resist longest).
    #[arg(long)]
    pub any_mate: bool,
    /// The deepest ply searched; a problem with no mate found within it is a timeout.
    #[arg(long, value_name = "PLIES", default_value_t = crate::stack::MAX_PLY,
          value_parser = clap::value_parser!(u16).range(1..=crate::stack::MAX_PLY as i64))]
    pub depth_limit: u16,
    /// Print a JSON report on stdout instead of result lines.
    #[arg(long)]
    pub json: bool,
    /// Compare with the answers; exit 1 on any mismatch or bad line.
    #[arg(long)]
    pub check: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Also write `<id> <moves>` / `<id> nomate` / `<id> timeout` lines to this file (the
    /// format of `../shared/tools/usi_mate_batch.py --out`, read by `verify_mates.py`).
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Keep the transposition table in this file (memory-mapped) and reuse it: an interrupted
    /// run resumes, a collection solved again reuses what it learnt. The table is kept across
    /// problems (not cleared) and flushed after each one. A missing file is created with the
    /// `--hash` size; an existing file keeps its own size. A file of other rules, keys or
    /// format, or a damaged one, is refused (exit 1). One file per `--rules` setting.
    #[arg(long, value_name = "PATH")]
    pub table_file: Option<PathBuf>,
}

fn parse_double_count(text: &str) -> Result<DoubleCount, String> {
    DoubleCount::from_name(text)
        .ok_or_else(|| format!("expected one of {}", DoubleCount::NAMES.join(", ")))
}

fn parse_rules(text: &str) -> Result<Rules, String> {
    Rules::from_name(text).ok_or_else(|| format!("expected one of {}", Rules::NAMES.join(", ")))
}

fn parse_hash(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(mb) if (1..=65536).contains(&mb) => Ok(mb),
        _ => Err("expected a size in MiB between 1 and 65536".to_string()),
    }
}

// ----- answers -------------------------------------------------------------------------------

/// The claim of an answer field.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// `N`: a mate of exactly N plies.
    Exact(u32),
    /// `N?`: a mate; a known line has N plies.
    KnownLine(u32),
    /// `mate`
    Mate,
    /// `nomate`
    NoMate,
    /// `nomate?`: believed to have no mate (compared as `nomate`).
    LikelyNoMate,
    /// `>N`: no mate within N plies.
    NoMateWithin(u32),
    /// `?`
    Unknown,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub expected: Expected,
    /// `@and`: the side to move defends.
    pub defends: bool,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.expected {
            Expected::Exact(n) => write!(f, "{n}")?,
            Expected::KnownLine(n) => write!(f, "{n}?")?,
            Expected::Mate => f.write_str("mate")?,
            Expected::NoMate => f.write_str("nomate")?,
            Expected::LikelyNoMate => f.write_str("nomate?")?,
            Expected::NoMateWithin(n) => write!(f, ">{n}")?,
            Expected::Unknown => f.write_str("?")?,
        }
        if self.defends {
            f.write_str("@and")?;
        }
        Ok(())
    }
}

/// Parses an answer field.
pub fn parse_answer(text: &str) -> Result<Answer, String> {
    let bad =
        || format!("bad answer {text:?} (expected N, N?, mate, nomate, >N or ?, optionally @and)");
    let (body, defends) = match text.strip_suffix("@and") {
        Some(b) => (b, true),
        None => (text, false),
    };
    let number = |t: &str| -> Result<u32, String> {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        t.parse::<u32>().map_err(|_| bad())
    };
    let expected = match body {
        "?" => Expected::Unknown,
        "mate" => Expected::Mate,
        "nomate" => Expected::NoMate,
        "nomate?" => Expected::LikelyNoMate,
        _ => {
            if let Some(n) = body.strip_prefix('>') {
                Expected::NoMateWithin(number(n)?)
            } else if let Some(n) = body.strip_suffix('?') {
                Expected::KnownLine(number(n)?)
            } else {
                Expected::Exact(number(body)?)
            }
        }
    };
    Ok(Answer { expected, defends })
}

/// How a result compares with the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No answer, or `?`.
    Unchecked,
    /// The answer cannot be compared (the reason is given).
    Skipped(String),
    Match,
    /// `N?` answered by a mate of another length.
    LengthWarning {
        expected: u32,
        found: usize,
    },
    Mismatch(String),
}

impl Verdict {
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Unchecked => "unchecked",
            Verdict::Skipped(_) => "skipped",
            Verdict::Match => "match",
            Verdict::LengthWarning { .. } => "length_warning",
            Verdict::Mismatch(_) => "mismatch",
        }
    }

    /// `Some(true)` for a match (a length warning included), `Some(false)` for a mismatch.
    pub fn matches(&self) -> Option<bool> {
        match self {
            Verdict::Match | Verdict::LengthWarning { .. } => Some(true),
            Verdict::Mismatch(_) => Some(false),
            Verdict::Unchecked | Verdict::Skipped(_) => None,
        }
    }

    pub fn note(&self) -> Option<String> {
        match self {
            Verdict::Unchecked | Verdict::Match => None,
            Verdict::Skipped(why) => Some(format!("not checked: {why}")),
            Verdict::LengthWarning { expected, found } => {
                Some(format!("warning: found {found} plies, the known line has {expected}"))
            }
            Verdict::Mismatch(why) => Some(format!("mismatch: {why}")),
        }
    }
}

/// Compares an outcome with an answer. `root_in_check` says whether the solver treated the root
/// as a defence; an answer for the other kind of root is not compared.
pub fn compare_answer(answer: Option<&Answer>, root_in_check: bool, outcome: &Outcome) -> Verdict {
    let Some(answer) = answer else {
        return Verdict::Unchecked;
    };
    if answer.expected == Expected::Unknown {
        return Verdict::Unchecked;
    }
    if answer.defends && !root_in_check {
        return Verdict::Skipped(
            "the answer is for a defence (@and), the side to move is not in check".to_string(),
        );
    }
    let plies = |n: usize| if n == 1 { "ply" } else { "plies" };
    match (answer.expected, outcome) {
        (_, Outcome::Timeout) => Verdict::Mismatch(format!("timeout, expected {answer}")),
        (Expected::Exact(n), Outcome::Mate(m)) if m.len() == n as usize => Verdict::Match,
        (Expected::Exact(n), Outcome::Mate(m)) => Verdict::Mismatch(format!(
            "expected a mate in {n}, found {} {}",
            m.len(),
            plies(m.len())
        )),
        (Expected::KnownLine(n), Outcome::Mate(m)) if m.len() == n as usize => Verdict::Match,
        (Expected::KnownLine(n), Outcome::Mate(m)) => {
            Verdict::LengthWarning { expected: n, found: m.len() }
        }
        (Expected::Mate, Outcome::Mate(_)) => Verdict::Match,
        (Expected::NoMate | Expected::LikelyNoMate, Outcome::NoMate) => Verdict::Match,
        (Expected::NoMateWithin(_), Outcome::NoMate) => Verdict::Match,
        (Expected::NoMateWithin(n), Outcome::Mate(m)) if m.len() > n as usize => Verdict::Match,
        (Expected::NoMateWithin(n), Outcome::Mate(m)) => Verdict::Mismatch(format!(
            "expected no mate within {n} plies, found a mate in {}",
            m.len()
        )),
        (Expected::NoMate | Expected::LikelyNoMate, Outcome::Mate(m)) => {
            Verdict::Mismatch(format!("expected {answer}, found a mate in {}", m.len()))
        }
        (_, Outcome::NoMate) => Verdict::Mismatch(format!("expected {answer}, found nomate")),
        (Expected::Unknown, _) => Verdict::Unchecked,
    }
}

// ----- problem lines -------------------------------------------------------------------------

/// One problem read from a line.
#[derive(Clone)]
pub struct Problem {
    pub position: Position,
    pub id: Option<String>,
    pub answer: Option<Answer>,
}

impl fmt::Debug for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Problem")
            .field("sfen", &self.position.to_sfen())
            .field("id", &self.id)
            .field("answer", &self.answer)
            .finish()
    }
}

/// Parses one line of a problem file: `Ok(None)` for blank and comment lines.
pub fn parse_problem_line(line: &str) -> Result<Option<Problem>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (body, tail) = match line.split_once('#') {
        Some((b, t)) => (b.trim(), Some(t)),
        None => (line, None),
    };
    if body.is_empty() {
        return Err("no position before '#'".to_string());
    }
    let (id, answer) = match tail {
        None => (None, None),
        Some(t) => {
            let mut fields = t.split_whitespace();
            let id = fields.next().map(str::to_string);
            let answer = fields.next().map(parse_answer).transpose()?;
            if let Some(extra) = fields.next() {
                return Err(format!("unexpected {extra:?} after the answer"));
            }
            (id, answer)
        }
    };
    let first = body.split_whitespace().next().unwrap_or("");
    let command = match first {
        "position" | "startpos" | "sfen" => body.to_string(),
        _ => format!("sfen {}", body.split_whitespace().collect::<Vec<_>>().join(" ")),
    };
    let position = parse_position_command(&command).map_err(|e| e.to_string())?;
    Ok(Some(Problem { position, id, answer }))
}

// ----- reports -------------------------------------------------------------------------------

#[derive(Serialize, Clone, Debug)]
pub struct ProblemReport {
    pub id: String,
    pub file: String,
    pub line: usize,
    pub sfen: String,
    pub expected: Option<String>,
    /// `mate`, `nomate` or `timeout`.
    pub outcome: &'static str,
    pub moves: Vec<String>,
    pub plies: Option<usize>,
    /// Child positions made.
    pub nodes: u64,
    /// Nodes expanded (the count shtsume and KomoringHeights report as nodes).
    pub expansions: u64,
    pub time_ms: f64,
    pub matches_answer: Option<bool>,
    /// `match`, `mismatch`, `length_warning`, `unchecked` or `skipped`.
    pub verdict: &'static str,
    pub note: Option<String>,
}

#[derive(Serialize, Clone, Debug)]
pub struct BadLine {
    pub file: String,
    pub line: usize,
    pub error: String,
}

#[derive(Serialize, Clone, Debug)]
pub struct UnreadableFile {
    pub file: String,
    pub error: String,
}

#[derive(Serialize, Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub problems: usize,
    pub mate: usize,
    pub nomate: usize,
    pub timeout: usize,
    pub bad_lines: usize,
    pub unreadable_files: usize,
    pub matches: usize,
    pub mismatches: usize,
    pub length_warnings: usize,
    pub unchecked: usize,
    pub skipped: usize,
    pub total_time_ms: f64,
    pub nodes: u64,
    pub nps: u64,
}

impl Summary {
    fn add(&mut self, r: &ProblemReport) {
        self.problems += 1;
        match r.outcome {
            "mate" => self.mate += 1,
            "nomate" => self.nomate += 1,
            _ => self.timeout += 1,
        }
        match r.verdict {
            "match" => self.matches += 1,
            "mismatch" => self.mismatches += 1,
            "length_warning" => self.length_warnings += 1,
            "skipped" => self.skipped += 1,
            _ => self.unchecked += 1,
        }
        self.total_time_ms += r.time_ms;
        self.nodes += r.nodes;
        self.nps = if self.total_time_ms > 0.0 {
            (self.nodes as f64 * 1000.0 / self.total_time_ms) as u64
        } else {
            0
        };
    }

    /// The closing summary, as text lines.
    pub fn lines(&self) -> Vec<String> {
        vec![
            format!(
                "problems {}: mate {}, nomate {}, timeout {} ({} bad lines, {} unreadable files)",
                self.problems,
                self.mate,
                self.nomate,
                self.timeout,
                self.bad_lines,
                self.unreadable_files
            ),
            format!(
                "answers: {} match, {} mismatches, {} length warnings, {} unchecked, {} skipped",
                self.matches, self.mismatches, self.length_warnings, self.unchecked, self.skipped
            ),
            format!(
                "time {:.3} s, nodes {}, nps {}",
                self.total_time_ms / 1000.0,
                self.nodes,
                self.nps
            ),
        ]
    }
}

#[derive(Serialize, Clone, Debug)]
struct Settings {
    time_ms: Option<u64>,
    nodes: Option<u64>,
    hash_mb: usize,
    double_count: &'static str,
}

#[derive(Serialize, Clone, Debug)]
struct JsonReport<'a> {
    settings: Settings,
    problems: &'a [ProblemReport],
    bad_lines: &'a [BadLine],
    unreadable_files: &'a [UnreadableFile],
    summary: &'a Summary,
}

/// The line of one problem in the `--results` file: `<id> <moves>`, `<id> nomate` or
/// `<id> timeout` (an already-mated root has no moves: `<id> checkmate`).
pub fn plain_result_line(r: &ProblemReport) -> String {
    match r.plies {
        Some(0) => format!("{} checkmate", r.id),
        Some(_) => format!("{} {}", r.id, r.moves.join(" ")),
        None => format!("{} {}", r.id, r.outcome),
    }
}

/// The result line of one problem (without the trailing newline).
pub fn result_line(r: &ProblemReport) -> String {
    let mut s = format!("{} ", r.id);
    match r.plies {
        Some(n) => {
            s.push_str("checkmate ");
            if !r.moves.is_empty() {
                s.push_str(&r.moves.join(" "));
                s.push(' ');
            }
            s.push_str(&format!("plies={n} "));
        }
        None => {
            s.push_str(r.outcome);
            s.push(' ');
        }
    }
    s.push_str(&format!("nodes={} expansions={} time={:.1}ms", r.nodes, r.expansions, r.time_ms));
    if let Some(note) = &r.note {
        s.push_str(&format!(" [{note}]"));
    }
    s
}

/// The mating side: the side to move unless the answer says it defends (`@and`); without an
/// answer, the solver's default (a side in check defends).
fn attacker_of(p: &Problem) -> shogi::Color {
    let side = p.position.side_to_move();
    match &p.answer {
        Some(a) if a.defends => !side,
        Some(_) => side,
        None => default_attacker(&p.position),
    }
}

fn report_problem(
    file: &str,
    line: usize,
    p: &Problem,
    r: &SolveResult,
    rules: Rules,
) -> ProblemReport {
    let mut verdict = compare_answer(p.answer.as_ref(), p.position.in_check(), &r.outcome);
    if let Outcome::Mate(moves) = &r.outcome {
        if let Err(e) = verify_mate_line_as(&p.position, attacker_of(p), moves, rules) {
            verdict = Verdict::Mismatch(format!("invalid mate line: {e}"));
        }
    }
    let (outcome, moves, plies) = match &r.outcome {
        Outcome::Mate(m) => ("mate", m.iter().map(ToString::to_string).collect(), Some(m.len())),
        Outcome::NoMate => ("nomate", Vec::new(), None),
        Outcome::Timeout => ("timeout", Vec::new(), None),
    };
    ProblemReport {
        id: p.id.clone().unwrap_or_else(|| format!("{file}:{line}")),
        file: file.to_string(),
        line,
        sfen: p.position.to_sfen(),
        expected: p.answer.map(|a| a.to_string()),
        outcome,
        moves,
        plies,
        nodes: r.nodes,
        expansions: r.expansions,
        time_ms: (r.elapsed.as_secs_f64() * 1e6).round() / 1e3,
        matches_answer: verdict.matches(),
        verdict: verdict.name(),
        note: join_notes([
            verdict.note(),
            r.depth_limited.then(|| "no mate within the depth limit".to_string()),
            line_note(r),
        ]),
    }
}

/// What a mate's line is, when it is not the proven main line.
fn line_note(r: &SolveResult) -> Option<String> {
    match r.outcome {
        Outcome::Mate(_) if !r.main_line => {
            Some("not the main line: one line of the proof".to_string())
        }
        Outcome::Mate(_) if !r.proven_shortest => Some("shortest not proven".to_string()),
        _ => None,
    }
}

fn join_notes<const N: usize>(notes: [Option<String>; N]) -> Option<String> {
    let notes: Vec<String> = notes.into_iter().flatten().collect();
    (!notes.is_empty()).then(|| notes.join("; "))
}

// ----- running -------------------------------------------------------------------------------

struct Task {
    file: String,
    line: usize,
    problem: Problem,
}

/// Runs `solve` on the real stdout/stderr, on a thread sized for the deepest search
/// ([`crate::stack`]); returns the exit code.
pub fn run(args: &SolveArgs) -> u8 {
    let show_bar = !args.quiet && io::stderr().is_terminal();
    let solve = || run_with(args, &mut io::stdout(), &mut io::stderr(), show_bar);
    crate::stack::run_on_search_thread("solve", solve).unwrap_or_else(|e| {
        eprintln!("tsumugi-mate: cannot start the search thread: {e}");
        1
    })
}

/// Runs `solve` writing results to `out` and diagnostics to `err`; returns the exit code:
/// 1 if a file could not be read (or the `--results` file written), or with `--check` on a
/// mismatch or a bad line; else 0.
pub fn run_with(args: &SolveArgs, out: &mut dyn Write, err: &mut dyn Write, show_bar: bool) -> u8 {
    // Write errors on our own output are not worth dying for: ignore them line by line.
    let mut tasks = Vec::new();
    let mut bad_lines = Vec::new();
    let mut unreadable = Vec::new();
    for path in &args.files {
        let file = path.display().to_string();
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                let _ = writeln!(err, "{file}: cannot read: {e}");
                unreadable.push(UnreadableFile { file, error: e.to_string() });
                continue;
            }
        };
        for (i, line) in text.lines().enumerate() {
            match parse_problem_line(line) {
                Ok(None) => {}
                Ok(Some(problem)) => tasks.push(Task { file: file.clone(), line: i + 1, problem }),
                Err(e) => {
                    let _ = writeln!(err, "{file}:{}: {e} (skipped)", i + 1);
                    bad_lines.push(BadLine { file: file.clone(), line: i + 1, error: e });
                }
            }
        }
    }

    let mut results_file = match &args.results {
        None => None,
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Some(io::BufWriter::new(f)),
            Err(e) => {
                let _ = writeln!(err, "{}: cannot write: {e}", path.display());
                return 1;
            }
        },
    };

    let bar = if show_bar {
        ProgressBar::with_draw_target(Some(tasks.len() as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30} {pos}/{len} [{elapsed_precise}, eta {eta}] {wide_msg}",
    ) {
        bar.set_style(style);
    }

    let mut solver = match Solver::open(SolverConfig {
        hash_mb: args.hash,
        double_count: args.double_count,
        rules: args.rules,
        any_mate: args.any_mate,
        max_ply: args.depth_limit,
        table_file: args.table_file.clone(),
    }) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "{e}");
            return 1;
        }
    };
    for line in solver.take_table_log() {
        let _ = writeln!(err, "{line}");
    }
    let limits = Limits {
        time: (args.time_ms > 0).then(|| Duration::from_millis(args.time_ms)),
        nodes: (args.nodes > 0).then_some(args.nodes),
    };
    let stop = AtomicBool::new(false);
    let mut reports = Vec::with_capacity(tasks.len());
    let mut summary = Summary {
        bad_lines: bad_lines.len(),
        unreadable_files: unreadable.len(),
        ..Summary::default()
    };
    for task in &tasks {
        let label =
            task.problem.id.clone().unwrap_or_else(|| format!("{}:{}", task.file, task.line));
        bar.set_message(label.clone());
        // Keeps a table file (see `Solver::clear`).
        solver.clear();
        let attacker = attacker_of(&task.problem);
        let solved = catch_unwind(AssertUnwindSafe(|| {
            solver.solve_as(&task.problem.position, attacker, &limits, &stop, &mut |p| {
                bar.set_message(format!("{label}: {} nodes", p.nodes));
            })
        }));
        let result = match solved {
            Ok(r) => r,
            Err(payload) => {
                // A bug costs this problem, not the run: it counts as unsolved.
                let msg = crate::usi::panic_message(payload.as_ref());
                bar.suspend(|| writeln!(err, "{label}: error: the search failed: {msg}")).ok();
                let config = solver.config().clone();
                drop(solver); // closes a table file before it is opened again
                solver = Solver::new(config);
                for line in solver.take_table_log() {
                    bar.suspend(|| writeln!(err, "{line}")).ok();
                }
                SolveResult::timeout(0, Duration::ZERO)
            }
        };
        let report = report_problem(&task.file, task.line, &task.problem, &result, args.rules);
        summary.add(&report);
        if !args.json {
            let text = result_line(&report);
            bar.suspend(|| {
                let _ = writeln!(out, "{text}");
                let _ = out.flush();
            });
        }
        if let Some(f) = results_file.as_mut() {
            let _ = writeln!(f, "{}", plain_result_line(&report));
            let _ = f.flush();
        }
        if let Err(e) = solver.flush_table() {
            bar.suspend(|| writeln!(err, "table file: cannot flush: {e}")).ok();
        }
        reports.push(report);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut results_failed = false;
    if let (Some(f), Some(path)) = (results_file.as_mut(), &args.results) {
        if let Err(e) = f.flush() {
            let _ = writeln!(err, "{}: cannot write: {e}", path.display());
            results_failed = true;
        }
    }

    let lines = summary.lines();
    for l in &lines {
        let _ = writeln!(err, "{l}");
    }
    if args.json {
        let report = JsonReport {
            settings: Settings {
                time_ms: limits.time.map(|t| t.as_millis() as u64),
                nodes: limits.nodes,
                hash_mb: args.hash,
                double_count: args.double_count.name(),
            },
            problems: &reports,
            bad_lines: &bad_lines,
            unreadable_files: &unreadable,
            summary: &summary,
        };
        match serde_json::to_string_pretty(&report) {
            Ok(json) => {
                let _ = writeln!(out, "{json}");
            }
            Err(e) => {
                let _ = writeln!(err, "cannot write the JSON report: {e}");
            }
        }
    } else {
        for l in &lines {
            let _ = writeln!(out, "# {l}");
        }
    }
    let _ = out.flush();

    let failed_check = args.check && (summary.mismatches > 0 || summary.bad_lines > 0);
    if !unreadable.is_empty() || failed_check || results_failed {
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::Move;

    fn a(text: &str) -> Answer {
        parse_answer(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn answers() {
        assert_eq!(a("5").expected, Expected::Exact(5));
        assert_eq!(a("21?").expected, Expected::KnownLine(21));
        assert_eq!(a("mate").expected, Expected::Mate);
        assert_eq!(a("nomate").expected, Expected::NoMate);
        assert_eq!(a(">9").expected, Expected::NoMateWithin(9));
        assert_eq!(a("?").expected, Expected::Unknown);
        let and = a("nomate@and");
        assert!(and.defends);
        assert_eq!(and.expected, Expected::NoMate);
        assert!(!a("3").defends);
        assert_eq!(a("nomate?").expected, Expected::LikelyNoMate);
        for t in ["5", "21?", "mate", "nomate", "nomate?", ">9", "?", "nomate@and", "4@and"] {
            assert_eq!(a(t).to_string(), t);
        }
        for bad in [
            "",
            "x",
            "-3",
            "+3",
            "5??",
            "?5",
            ">",
            ">x",
            "mate?",
            "@and",
            "5@or",
            "3 ",
            "1e3",
            "99999999999",
        ] {
            assert!(parse_answer(bad).is_err(), "{bad:?}");
        }
    }

    const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G 1";

    fn problem(line: &str) -> Problem {
        match parse_problem_line(line) {
            Ok(Some(p)) => p,
            other => panic!("{line:?}: {other:?}"),
        }
    }

    #[test]
    fn problem_lines() {
        let p = problem(&format!("{MATE1} # basic-1 1"));
        assert_eq!(p.id.as_deref(), Some("basic-1"));
        assert_eq!(p.answer.map(|a| a.expected), Some(Expected::Exact(1)));
        assert_eq!(p.position.to_sfen(), MATE1);

        let p = problem(MATE1);
        assert_eq!((p.id, p.answer), (None, None));
        let p = problem(&format!("  {MATE1}   #   only-id  "));
        assert_eq!(p.id.as_deref(), Some("only-id"));
        assert_eq!(p.answer, None);
        let p = problem(&format!("{MATE1} #"));
        assert_eq!(p.id, None);

        assert_eq!(problem(&format!("sfen {MATE1}")).position.to_sfen(), MATE1);
        assert_eq!(problem(&format!("position sfen {MATE1} # x mate")).position.to_sfen(), MATE1);
        let p = problem("startpos moves 7g7f 3c3d # opening ?");
        assert_eq!(
            p.position.to_sfen(),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
        assert_eq!(problem("position startpos").position.to_sfen(), shogi::sfen::STARTPOS);
        // A plain SFEN may carry moves too, and the move number may be left out.
        let p = problem("4k4/9/4P4/9/9/9/9/9/9 b G moves G*5b");
        assert!(p.position.in_check());

        for skip in ["", "   ", "# header", "  # indented header"] {
            assert!(matches!(parse_problem_line(skip), Ok(None)), "{skip:?}");
        }
    }

    #[test]
    fn malformed_lines() {
        for bad in [
            "4k4/9/4P4/9/9/9/9/9 b G 1 # short-board 1",
            "4k4/9/4P4/9/9/9/9/9/9 x G 1 # bad-side 1",
            "4k4/9/4P4/9/9/9/9/9/9 b G 1 # id 5 extra",
            "4k4/9/4P4/9/9/9/9/9/9 b G 1 # id five",
            "4k4/9/4P4/9/9/9/9/9/9 b G 1 junk # id 1",
            "startpos moves 7g7f 7g7f",
            "position nowhere",
            "sfen",
            "hello",
            "4K4/9/9/9/9/9/9/9/4K4 b - 1",
        ] {
            let r = parse_problem_line(bad);
            assert!(r.is_err(), "{bad:?}: {r:?}");
        }
    }

    fn mate(n: usize) -> Outcome {
        Outcome::Mate(vec![Move::NULL; n])
    }

    #[test]
    fn comparisons() {
        let c = |ans: &str, out: &Outcome| compare_answer(Some(&a(ans)), false, out);
        assert_eq!(c("5", &mate(5)), Verdict::Match);
        assert!(matches!(c("5", &mate(7)), Verdict::Mismatch(_)));
        assert!(matches!(c("5", &Outcome::NoMate), Verdict::Mismatch(_)));
        assert!(matches!(c("5", &Outcome::Timeout), Verdict::Mismatch(_)));
        assert_eq!(c("21?", &mate(21)), Verdict::Match);
        assert_eq!(c("21?", &mate(23)), Verdict::LengthWarning { expected: 21, found: 23 });
        assert_eq!(c("21?", &mate(23)).matches(), Some(true));
        assert!(matches!(c("21?", &Outcome::NoMate), Verdict::Mismatch(_)));
        assert!(matches!(c("21?", &Outcome::Timeout), Verdict::Mismatch(_)));
        assert_eq!(c("mate", &mate(3)), Verdict::Match);
        assert!(matches!(c("mate", &Outcome::NoMate), Verdict::Mismatch(_)));
        assert_eq!(c("nomate", &Outcome::NoMate), Verdict::Match);
        assert!(matches!(c("nomate", &mate(1)), Verdict::Mismatch(_)));
        assert!(matches!(c("nomate", &Outcome::Timeout), Verdict::Mismatch(_)));
        assert_eq!(c(">9", &Outcome::NoMate), Verdict::Match);
        assert_eq!(c(">9", &mate(11)), Verdict::Match);
        assert!(matches!(c(">9", &mate(9)), Verdict::Mismatch(_)));
        assert!(matches!(c(">9", &Outcome::Timeout), Verdict::Mismatch(_)));
        for o in [mate(1), Outcome::NoMate, Outcome::Timeout] {
            assert_eq!(c("?", &o), Verdict::Unchecked);
            assert_eq!(compare_answer(None, false, &o), Verdict::Unchecked);
            assert_eq!(compare_answer(None, true, &o), Verdict::Unchecked);
        }
        // `@and` answers go with roots in check, and only with them.
        let d =
            |ans: &str, in_check: bool, out: &Outcome| compare_answer(Some(&a(ans)), in_check, out);
        assert_eq!(d("nomate@and", true, &Outcome::NoMate), Verdict::Match);
        assert!(matches!(d("nomate@and", true, &mate(2)), Verdict::Mismatch(_)));
        assert!(matches!(d("nomate@and", false, &Outcome::NoMate), Verdict::Skipped(_)));
        // An attacker in check (as in some YaneuraOu problems) is solved as an attack.
        assert_eq!(d("5", true, &mate(5)), Verdict::Match);
        assert_eq!(d("?", true, &Outcome::Timeout), Verdict::Unchecked);
    }

    #[test]
    fn result_lines() {
        let p = problem(&format!("{MATE1} # m1 1"));
        let g = p.position.parse_usi_move("G*5b").unwrap_or_else(|e| panic!("{e}"));
        let r = SolveResult {
            outcome: Outcome::Mate(vec![g]),
            main_line: true,
            proven_shortest: true,
            ..SolveResult::timeout(12, Duration::from_micros(1500))
        };
        let rep = report_problem("f.sfen", 3, &p, &r, Rules::Pure);
        assert_eq!(rep.verdict, "match");
        assert_eq!(result_line(&rep), "m1 checkmate G*5b plies=1 nodes=12 expansions=0 time=1.5ms");
        // A line that is not the proven main line says so.
        let first = SolveResult { main_line: false, ..r.clone() };
        assert!(result_line(&report_problem("f.sfen", 3, &p, &first, Rules::Pure))
            .ends_with("[not the main line: one line of the proof]"));
        let unproven = SolveResult { proven_shortest: false, ..r.clone() };
        assert!(result_line(&report_problem("f.sfen", 3, &p, &unproven, Rules::Pure))
            .ends_with("[shortest not proven]"));
        // A wrong line is a mismatch whatever the answer says.
        let g4 = p.position.parse_usi_move("G*4b").unwrap_or_else(|e| panic!("{e}"));
        let r = SolveResult { outcome: Outcome::Mate(vec![g4]), ..r };
        let rep = report_problem("f.sfen", 3, &problem(MATE1), &r, Rules::Pure);
        assert_eq!(rep.id, "f.sfen:3");
        assert_eq!(rep.verdict, "mismatch");
        assert!(
            result_line(&rep)
                .ends_with("[mismatch: invalid mate line: the final position is not checkmate]"),
            "{}",
            result_line(&rep)
        );
        let r = SolveResult::timeout(7, Duration::from_millis(10));
        let rep = report_problem("f.sfen", 3, &p, &r, Rules::Pure);
        assert_eq!(
            result_line(&rep),
            "m1 timeout nodes=7 expansions=0 time=10.0ms [mismatch: timeout, expected 1]"
        );
    }

    fn args(files: Vec<PathBuf>, json: bool, check: bool) -> SolveArgs {
        SolveArgs {
            files,
            time_ms: 200,
            nodes: 0,
            hash: 16,
            double_count: DoubleCount::Simple,
            rules: Rules::Tsume,
            any_mate: false,
            depth_limit: crate::stack::MAX_PLY,
            json,
            check,
            quiet: true,
            results: None,
            table_file: None,
        }
    }

    fn temp_file(name: &str, text: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("tsumugi-batch-{}-{name}", std::process::id()));
        if let Err(e) = std::fs::write(&path, text) {
            panic!("{}: {e}", path.display());
        }
        path
    }

    #[test]
    fn a_batch_with_bad_lines() {
        let file = temp_file(
            "bad.sfen",
            &format!("# header\n\n{MATE1} # m1 ?\nnot a position # x 1\n{MATE1}\n"),
        );
        let missing = std::env::temp_dir().join("tsumugi-batch-no-such-file.sfen");
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run_with(&args(vec![file.clone()], false, false), &mut out, &mut err, false);
        let (out, err) = (String::from_utf8_lossy(&out), String::from_utf8_lossy(&err));
        assert_eq!(code, 0, "{out}\n{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2 + 3, "{out}");
        assert!(lines[0].starts_with("m1 "), "{out}");
        assert!(lines[1].starts_with(&format!("{}:5 ", file.display())), "{out}");
        assert!(lines[2].starts_with("# problems 2:"), "{out}");
        assert!(err.contains(&format!("{}:4: ", file.display())), "{err}");

        // --check: the bad line fails the run; an unreadable file always does.
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(run_with(&args(vec![file.clone()], false, true), &mut out, &mut err, false), 1);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code =
            run_with(&args(vec![missing, file.clone()], true, false), &mut out, &mut err, false);
        assert_eq!(code, 1);
        let json: serde_json::Value =
            serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(json["summary"]["problems"], 2);
        assert_eq!(json["summary"]["bad_lines"], 1);
        assert_eq!(json["summary"]["unreadable_files"], 1);
        assert_eq!(json["problems"][0]["id"], "m1");
        assert_eq!(json["problems"][0]["line"], 3);
        assert_eq!(json["problems"][0]["sfen"], MATE1);
        assert_eq!(json["problems"][0]["expected"], "?");
        assert_eq!(json["bad_lines"][0]["line"], 4);
        let _ = std::fs::remove_file(file);
    }
}
