//! `tsumugi-mate solve FILE...`: the batch solver.
//!
//! Input lines (see `../shared/problems/MANIFEST.md`):
//! - `<sfen> # <id> <answer>` (the id and answer are optional: `<sfen> # <id>`, `<sfen>`);
//! - `sfen <sfen> [moves ...]`, `position startpos|sfen ... [moves ...]`, `startpos [moves ...]`,
//!   a plain SFEN may also be followed by `moves ...`;
//! - blank lines and lines starting with `#` are skipped.
//!
//! The answers and their comparison are in [`answer`]; problems are solved `--jobs` at a time
//! ([`jobs`]) and printed in file order, as text, one JSON report, or JSON lines.

pub mod answer;
pub mod args;
pub mod input;
pub mod jobs;
pub mod problem;
pub mod profile;
pub mod report;

pub use answer::{compare_answer, parse_answer, Answer, Expected, Verdict};
pub use args::{Shard, SolveArgs};
pub use problem::{parse_problem_line, Problem};
pub use report::{plain_result_line, result_line, ProblemReport, Summary};

use crate::clock::Instant;
use crate::composer::{report_on, text, MainSolve, ReportLimits};
use crate::config::{SolverConfig, DEFAULT_SHORTER_MATE_PERCENT, REPORT_SHORTER_MATE_PERCENT};
use crate::outcome::{Limits, Progress, SolveResult};
use crate::search::reference_proof::ReferenceHandle;
use crate::search::Solver;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use input::{read_inputs, Task};
pub use report::{attacker_of, report_problem};
use report::{JsonReport, Settings};
use std::io::{self, IsTerminal, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Runs `solve` on the real stdout/stderr; returns the exit code.
pub fn run(args: &SolveArgs) -> u8 {
    let show_bar = !args.quiet && io::stderr().is_terminal();
    run_with(args, &mut io::stdout(), &mut io::stderr(), show_bar)
}

/// Runs `solve` writing results to `out` and diagnostics to `err`; returns the exit code:
/// 1 if a file could not be read (or the `--results` file written), or with `--check` on a
/// mismatch or a bad line; else 0.
pub fn run_with(args: &SolveArgs, out: &mut dyn Write, err: &mut dyn Write, show_bar: bool) -> u8 {
    // Write errors on our own output are not worth dying for: ignore them line by line.
    let inputs = read_inputs(&args.files, args.shard);
    for u in &inputs.unreadable {
        let _ = writeln!(err, "{}: cannot read: {}", u.file, u.error);
    }
    for b in &inputs.bad_lines {
        let _ = writeln!(err, "{}:{}: {} (skipped)", b.file, b.line, b.error);
    }
    let tasks = &inputs.tasks;

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

    let jobs = match (&args.table_file, args.jobs) {
        (Some(_), Some(n)) if n > 1 => {
            let _ = writeln!(
                err,
                "tsumugi-mate: a table file is one table, used by one job: drop --jobs {n}"
            );
            return 1;
        }
        (Some(_), _) => 1,
        (None, jobs) => jobs.map_or_else(args::default_jobs, usize::from),
    };
    let jobs = jobs.clamp(1, tasks.len().max(1));
    let config = SolverConfig {
        hash_mb: (args.hash / jobs).max(1),
        double_count: args.double_count,
        rules: args.rules,
        any_mate: args.any_mate,
        max_ply: args.depth_limit,
        table_file: args.table_file.clone(),
        threads: args.threads.map_or_else(|| args::default_threads(jobs), usize::from),
        profile: args.profile.is_some(),
        trace: args.trace,
        lines_in_order: false,
        expect_no: false,
        refine_recalled: false,
        shorter_mate_percent: args.shorter_mate_percent.unwrap_or(if args.report {
            REPORT_SHORTER_MATE_PERCENT
        } else {
            DEFAULT_SHORTER_MATE_PERCENT
        }),
        profile_reference: None,
    };
    if let Some(dir) = &args.profile {
        if let Err(e) = std::fs::create_dir_all(dir) {
            let _ = writeln!(err, "{}: cannot write: {e}", dir.display());
            return 1;
        }
    }
    let profiles = Mutex::new(Vec::new());
    // A table file is opened here, so that a refused one ends the run before any work; the
    // first worker takes this solver.
    let opened = match Solver::open(config.clone()) {
        Ok(mut s) => {
            for line in s.take_table_log() {
                let _ = writeln!(err, "{line}");
            }
            Mutex::new(Some(s))
        }
        Err(e) => {
            let _ = writeln!(err, "{e}");
            return 1;
        }
    };
    let bar = progress_bar(show_bar, tasks.len());
    let limits = Limits {
        time: (args.time_ms > 0).then(|| Duration::from_millis(args.time_ms)),
        nodes: (args.nodes > 0).then_some(args.nodes),
    };
    let mut reports = Vec::with_capacity(tasks.len());
    let mut summary = Summary {
        bad_lines: inputs.bad_lines.len(),
        unreadable_files: inputs.unreadable.len(),
        ..Summary::default()
    };
    // The questions along the main line take the solve's threads, one question a thread.
    let report_limits =
        ReportLimits { main: limits.clone(), threads: config.threads, ..ReportLimits::default() };
    let solve = |solver: &mut Solver, task: &Task| {
        let id = task.problem.id.clone().unwrap_or_else(|| task.label());
        if let Some(dir) = &args.proof_reference {
            let reference = profile::read_reference(dir, &id, &task.problem.position);
            if let Err(e) = &reference {
                if let Ok(mut v) = profiles.lock() {
                    v.push(e.clone());
                }
            }
            let handle = reference.ok().flatten().map(|r| ReferenceHandle(Arc::new(r)));
            solver
                .set_config(SolverConfig { profile_reference: handle, ..solver.config().clone() });
        }
        let label = task.label();
        bar.set_message(label.clone());
        let stop = AtomicBool::new(false);
        let (result, failure) = solve_task(solver, task, &limits, &stop, &mut |p| {
            bar.set_message(format!("{label}: {} nodes", p.nodes));
        });
        if let (Some(dir), Some(p)) = (&args.profile, solver.take_profile()) {
            let mut lines = vec![profile::write(dir, &id, &p, &result)];
            lines.extend(profile::write_off_proof(dir, &id, &p));
            if let Ok(mut v) = profiles.lock() {
                v.extend(lines);
            }
        }
        let composer = (args.report && failure.is_none()).then(|| {
            let (pos, stop) = (&task.problem.position, AtomicBool::new(false));
            let started = Instant::now().checked_sub(result.elapsed).unwrap_or_else(Instant::now);
            let main = MainSolve { attacker: attacker_of(&task.problem), result: &result, started };
            report_on(solver, pos, &main, task.intended.as_deref(), &report_limits, &stop)
        });
        let mut report =
            report_problem(&task.file, task.line, &task.problem, &result, args.rules, failure);
        report.composer = composer;
        report
    };
    let deliver = |_: usize, report: ProblemReport| {
        summary.add(&report);
        if let Some(note) = report.note.as_deref().filter(|n| n.starts_with("error: ")) {
            let _ = writeln!(err, "{}: {note}", report.id);
        }
        let line = if args.jsonl {
            serde_json::to_string(&report).ok()
        } else if args.json {
            None
        } else {
            let composer = report.composer.as_ref().map(|c| text::render(&report.id, c));
            Some(result_line(&report) + &composer.map_or(String::new(), |c| format!("\n{c}")))
        };
        if let Some(line) = line {
            bar.suspend(|| {
                let _ = writeln!(out, "{line}");
                let _ = out.flush();
            });
        }
        if let Some(f) = results_file.as_mut() {
            // Flushed line by line: a run killed midway keeps the answers it gave.
            let _ = writeln!(f, "{}", plain_result_line(&report));
            let _ = f.flush();
        }
        reports.push(report);
        bar.inc(1);
    };
    let make = || {
        let first = opened.lock().ok().and_then(|mut s| s.take());
        first.unwrap_or_else(|| Solver::new(config.clone()))
    };
    let started = jobs::solve_in_order(tasks, jobs, make, solve, deliver);
    bar.finish_and_clear();
    for line in profiles.into_inner().unwrap_or_default() {
        let _ = writeln!(err, "{line}");
    }
    if let Err(e) = started {
        let _ = writeln!(err, "tsumugi-mate: cannot start the search threads: {e}");
        return 1;
    }
    let mut results_failed = false;
    if let (Some(f), Some(path)) = (results_file.as_mut(), &args.results) {
        if let Err(e) = f.flush() {
            let _ = writeln!(err, "{}: cannot write: {e}", path.display());
            results_failed = true;
        }
    }

    // The summary is printed once: with the result lines on stdout, else (JSON on stdout)
    // on stderr.
    let lines = summary.lines();
    if args.json || args.jsonl {
        for l in &lines {
            let _ = writeln!(err, "{l}");
        }
    }
    if args.json {
        let report = JsonReport {
            settings: Settings {
                time_ms: limits.time.map(|t| t.as_millis() as u64),
                nodes: limits.nodes,
                hash_mb: args.hash,
                jobs,
                double_count: args.double_count.name(),
            },
            problems: &reports,
            bad_lines: &inputs.bad_lines,
            unreadable_files: &inputs.unreadable,
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
    } else if !args.jsonl {
        for l in &lines {
            let _ = writeln!(out, "# {l}");
        }
    }
    let _ = out.flush();

    let failed_check = args.check && (summary.mismatches > 0 || summary.bad_lines > 0);
    if !inputs.unreadable.is_empty() || failed_check || results_failed {
        1
    } else {
        0
    }
}

/// The progress bar of long runs (batch solving, `tsumugi book think`): drawn on stderr when
/// `show`, else hidden.
pub fn progress_bar(show: bool, len: usize) -> ProgressBar {
    let bar = if show {
        ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30} {pos}/{len} [{elapsed_precise}, eta {eta}] {wide_msg}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// Solves one problem from a fresh table, as `solve` does each (the web page too): the result,
/// and what went wrong. A bug costs this problem, not the run: a panic counts as unsolved (its
/// message is returned for the report) and the solver is rebuilt.
pub fn solve_task(
    solver: &mut Solver,
    task: &Task,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> (SolveResult, Option<String>) {
    solver.clear();
    let attacker = attacker_of(&task.problem);
    let solved = catch_unwind(AssertUnwindSafe(|| {
        solver.solve_as(&task.problem.position, attacker, limits, stop, progress)
    }));
    let (result, failure) = match solved {
        Ok(r) => (r, None),
        Err(payload) => {
            let msg = usi::panic_message(payload.as_ref());
            let config = solver.config().clone();
            // The old solver goes first: it closes a table file before it is opened again.
            *solver = Solver::new(SolverConfig { hash_mb: 1, table_file: None, ..config.clone() });
            *solver = Solver::new(config);
            (SolveResult::timeout(0, Duration::ZERO), Some(format!("the search failed: {msg}")))
        }
    };
    // Solved entries reach the file after every problem, so a kill loses at most one.
    let failure = match solver.flush_table() {
        Ok(()) => failure,
        Err(e) => Some(failure.map_or(String::new(), |f| f + "; ") + &format!("table file: {e}")),
    };
    (result, failure)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{DoubleCount, Rules};
    use std::path::PathBuf;

    const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
    /// A mate in 3 (YaneuraOu's samples).
    const MATE3: &str =
        "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42";

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
            jsonl: false,
            report: false,
            shorter_mate_percent: None,
            jobs: Some(1),
            threads: Some(1),
            shard: None,
            check,
            quiet: true,
            results: None,
            table_file: None,
            profile: None,
            proof_reference: None,
            trace: 0,
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

    /// `--profile DIR`: one file per problem, named by its id (a path separator replaced),
    /// with a row per band of plies whose expansions add up to the summary's, which goes to
    /// stderr.
    #[test]
    fn profile_writes_a_table_per_problem_and_a_summary_line() {
        let file = temp_file("profile.sfen", &format!("{MATE3} # set/3 3\n"));
        let dir = std::env::temp_dir().join(format!("tsumugi-profile-{}", std::process::id()));
        let mut a = args(vec![file.clone()], false, false);
        a.profile = Some(dir.clone());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(run_with(&a, &mut out, &mut err, false), 0);
        let err = String::from_utf8_lossy(&err);
        let line = err.lines().find(|l| l.starts_with("profile set/3: first proof "));
        let line = line.unwrap_or_else(|| panic!("{err}"));
        let tsv = std::fs::read_to_string(dir.join("set_3.tsv")).unwrap_or_else(|e| panic!("{e}"));
        let rows: Vec<&str> = tsv.lines().collect();
        assert!(rows[0].starts_with("plies\texpansions\t"), "{tsv}");
        let sum: u64 = rows[1..]
            .iter()
            .map(|r| r.split('\t').nth(1).and_then(|n| n.parse::<u64>().ok()).unwrap_or(0))
            .sum();
        assert!(sum > 0 && line.contains(&format!("first proof {sum} expansions")), "{line}");
        let _ = std::fs::remove_dir_all(dir);
        let _ = std::fs::remove_file(file);
    }

    /// `--proof-reference DIR`: a problem with `<id>.proof` has its first proof's expansions
    /// split into inside that tree and outside it, which add up to the profile's; a file that
    /// does not replay is named with its line, and the problem is still solved.
    #[test]
    fn proof_reference_splits_the_expansions_and_names_a_bad_file() {
        let tag = format!("tsumugi-reference-{}", std::process::id());
        let file =
            temp_file("reference.sfen", &format!("{MATE3} # set/3 3\n{MATE3} # set/bad 3\n"));
        let (dir, refs) =
            (std::env::temp_dir().join(&tag), std::env::temp_dir().join(format!("{tag}-refs")));
        std::fs::create_dir_all(&refs).unwrap_or_else(|e| panic!("{e}"));
        let write = |name: &str, text: &str| {
            std::fs::write(refs.join(name), text).unwrap_or_else(|e| panic!("{e}"))
        };
        write("set_3.proof", "O 0 B*5g\nA 1 4h5h\nO 2 7i6i\n");
        write("set_bad.proof", "O 0 B*5g\nA 1 4h5h\nO 2 N*5e\n");
        let mut a = args(vec![file.clone()], false, false);
        a.jobs = Some(1);
        a.profile = Some(dir.clone());
        a.proof_reference = Some(refs.clone());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(run_with(&a, &mut out, &mut err, false), 0);
        let err = String::from_utf8_lossy(&err);
        let number = |line: &str, before: &str| -> u64 {
            let at = line.find(before).unwrap_or_else(|| panic!("{line}"));
            let words = line[..at].split_whitespace();
            words.last().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{line}"))
        };
        let profile = err.lines().find(|l| l.starts_with("profile set/3: first proof "));
        let profile = profile.unwrap_or_else(|| panic!("{err}"));
        let off = err.lines().find(|l| l.starts_with("off-proof set/3: "));
        let off = off.unwrap_or_else(|| panic!("{err}"));
        let (inside, outside) = (number(off, " expansions inside"), number(off, " outside it"));
        assert!(inside > 0, "{off}");
        assert_eq!(inside + outside, number(profile, " expansions to ply"), "{off}\n{profile}");
        let tsv = std::fs::read_to_string(dir.join("set_3.off-proof.tsv"));
        let tsv = tsv.unwrap_or_else(|e| panic!("{e}"));
        assert!(tsv.starts_with("ply\texpansions\tnode\treference_check\t"), "{tsv}");
        let bad = err.lines().find(|l| l.contains("set_bad.proof: line 3: not a legal move here"));
        assert!(bad.is_some(), "{err}");
        assert!(err.lines().any(|l| l.starts_with("profile set/bad: first proof ")), "{err}");
        assert!(!err.lines().any(|l| l.starts_with("off-proof set/bad")), "{err}");
        let _ = std::fs::remove_dir_all(dir);
        let _ = std::fs::remove_dir_all(refs);
        let _ = std::fs::remove_file(file);
    }
}
