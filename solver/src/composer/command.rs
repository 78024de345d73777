//! `tsumugi-mate report FILE...`: the composer's report of every problem of the files, as
//! text (stdout), JSON (`--json`) or one HTML page per file (`--html DIR`).

use super::{check_problem, html, text, ComposerReport, ReportLimits};
use crate::batch::input::{read_inputs, Task};
use crate::batch::jobs::solve_in_order;
use crate::config::{Rules, SolverConfig, REPORT_SHORTER_MATE_PERCENT};
use crate::outcome::Limits;
use crate::search::Solver;
use serde::Serialize;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Duration;

/// Options of `tsumugi-mate report`.
#[derive(clap::Args, Clone, Debug)]
pub struct ReportArgs {
    /// Problem files (as for `solve`); a `<name>.pv` beside a file gives intended lines
    /// (`<id> <usi moves>`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Time for solving each problem, in milliseconds (0: none). Default: 60000, or none with
    /// `--nodes` or `--questions-nodes`.
    #[arg(long, value_name = "N")]
    pub time_ms: Option<u64>,
    /// Nodes for solving each problem. Default: none, or 120000000 (about 60 s on a machine of
    /// two cores) with `--questions-nodes` and no `--time-ms`, so that a report budgeted in
    /// nodes is the same on any machine.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Time for the questions of each problem (cooks, variations) together, in milliseconds;
    /// what is not asked within it is reported unsettled. Default: 60000, or no time limit
    /// with `--questions-nodes`.
    #[arg(long, value_name = "N")]
    pub questions_time_ms: Option<u64>,
    /// Nodes for the questions of each problem together (beside or instead of the time): at
    /// one thread, the same command gives the same report on any machine.
    #[arg(long, value_name = "N")]
    pub questions_nodes: Option<u64>,
    /// Node cap of each question's first try; a question it stops is asked again with twice
    /// the cap, and so on, while the time for questions lasts.
    #[arg(long, value_name = "N", default_value_t = ReportLimits::default().question_nodes)]
    pub question_nodes: u64,
    /// Transposition table size in MiB (shared by all questions of a problem).
    #[arg(long, value_name = "MB", default_value_t = SolverConfig::default().hash_mb)]
    pub hash: usize,
    /// Questions of each problem asked at once, one thread each (sharing the problem's
    /// table); the problem's own solve runs on one thread, so that its main line, and the
    /// questions asked about it, are the same whatever the threads. Default: the cores the
    /// jobs leave spare, shared among them.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Problems checked at once (default: one per core), each with its share of `--hash`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    /// Print the reports as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write one HTML page per file into this folder (`<file name>.html`), each problem
    /// with its board diagram above its report.
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
    /// Also write the main lines back as KIF into this folder: one `<file name>.kif` per
    /// file, a record (board diagram and main line) per problem with a mate.
    #[arg(long, value_name = "DIR")]
    pub kif: Option<PathBuf>,
    /// No progress bar (it is drawn on stderr, when that is a terminal, with the problem being
    /// checked).
    #[arg(long)]
    pub quiet: bool,
    /// Keep the table in this file (memory-mapped, as `solve --table-file`), so that a report
    /// run again goes on from this one: what it settled is answered from the file, and the
    /// questions it left open go on from where they stopped. A missing file is created with
    /// the `--hash` size; a file of other rules, keys or format is refused (exit 1). One job.
    #[arg(long, value_name = "PATH")]
    pub table_file: Option<PathBuf>,
}

#[derive(Serialize)]
struct Entry<'a> {
    id: String,
    file: &'a str,
    line: usize,
    report: &'a ComposerReport,
}

/// Runs `report`; returns the exit code (1 if a file could not be read).
pub fn run(args: &ReportArgs) -> u8 {
    run_with(args, &mut io::stdout(), &mut io::stderr())
}

pub fn run_with(args: &ReportArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let inputs = read_inputs(&args.files, None);
    for u in &inputs.unreadable {
        let _ = writeln!(err, "{}: cannot read: {}", u.file, u.error);
    }
    for b in &inputs.bad_lines {
        let _ = writeln!(err, "{}:{}: {} (skipped)", b.file, b.line, b.error);
    }
    let intended = intended_lines(&args.files, err);
    let jobs = match (&args.table_file, args.jobs) {
        (Some(_), Some(n)) if n > 1 => {
            let _ = writeln!(
                err,
                "tsumugi-mate: a table file is one table, used by one job: drop --jobs {n}"
            );
            return 1;
        }
        (Some(_), _) => 1,
        (None, jobs) => jobs.map_or_else(crate::batch::args::default_jobs, usize::from),
    };
    let jobs = jobs.clamp(1, inputs.tasks.len().max(1));
    // The problem's own solve on one thread: with helpers its first proof, and so the line
    // its refinement settles on among moves of equal length, changes from run to run (図巧31,
    // three runs at two threads: B*3d or 6d5d at move 13, L*4c or S*4c at move 14). The
    // threads take the questions. Of checks that mate as soon, the line takes the first in
    // order, not the one the table held first (which a table file changes from run to run).
    let config = SolverConfig {
        hash_mb: (args.hash / jobs).max(1),
        rules: Rules::Tsume,
        threads: 1,
        table_file: args.table_file.clone(),
        lines_in_order: true,
        shorter_mate_percent: REPORT_SHORTER_MATE_PERCENT,
        ..SolverConfig::default()
    };
    // A table file is opened here, so that a refused one ends the run before any work; the
    // (one) worker takes this solver.
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
    // Table-file errors met on the way (a flush that failed), printed at the end.
    let file_errors = Mutex::new(Vec::new());
    let threads =
        args.threads.map_or_else(|| crate::batch::args::default_threads(jobs), usize::from);
    let limits = ReportLimits {
        main: main_limits(args),
        question_nodes: args.question_nodes,
        questions_time: questions_time(args.questions_time_ms, args.questions_nodes),
        questions_nodes: args.questions_nodes,
        threads,
    };
    let bar = crate::batch::progress_bar(!args.quiet, inputs.tasks.len());
    let check = |solver: &mut Solver, task: &Task| {
        bar.set_message(task.label());
        solver.clear();
        // The record's own moves, else a `.pv` line for its id.
        let from_pv = || {
            intended
                .get(&task.label())
                .and_then(|usi| task.problem.position.parse_usi_line(usi).ok())
        };
        let moves = task.intended.clone().or_else(from_pv);
        let stop = AtomicBool::new(false);
        let report =
            check_problem(solver, &task.problem.position, moves.as_deref(), &limits, &stop);
        // What the problem settled reaches the file after every problem, so a kill loses at
        // most one.
        if let Err(e) = solver.flush_table() {
            if let Ok(mut errors) = file_errors.lock() {
                errors.push(format!("{}: table file: {e}", task.label()));
            }
        }
        report
    };
    let mut reports = Vec::new();
    let deliver = |i: usize, report: ComposerReport| {
        let task = &inputs.tasks[i];
        if !args.json {
            bar.suspend(|| {
                let _ = write!(out, "{}", text::render(&heading(task), &report));
                let _ = out.flush();
            });
        }
        bar.inc(1);
        reports.push((i, report));
    };
    let make = || {
        let first = opened.lock().ok().and_then(|mut s| s.take());
        first.unwrap_or_else(|| Solver::new(config.clone()))
    };
    let solved = solve_in_order(&inputs.tasks, jobs, make, check, deliver);
    bar.finish_and_clear();
    let file_errors = file_errors.into_inner().unwrap_or_default();
    for e in &file_errors {
        let _ = writeln!(err, "{e}");
    }
    if let Err(e) = solved {
        let _ = writeln!(err, "tsumugi-mate: cannot start the search threads: {e}");
        return 1;
    }
    if let Some(dir) = &args.html {
        if let Err(e) = write_pages(dir, &inputs.tasks, &reports) {
            let _ = writeln!(err, "{}: cannot write the HTML pages: {e}", dir.display());
            return 1;
        }
    }
    if let Some(dir) = &args.kif {
        if let Err(e) = write_kif_files(dir, &inputs.tasks, &reports) {
            let _ = writeln!(err, "{}: cannot write the KIF files: {e}", dir.display());
            return 1;
        }
    }
    if args.json {
        let entries: Vec<Entry> = reports
            .iter()
            .map(|(i, r)| {
                let t = &inputs.tasks[*i];
                Entry { id: t.label(), file: &t.file, line: t.line, report: r }
            })
            .collect();
        match serde_json::to_string_pretty(&entries) {
            Ok(json) => {
                let _ = writeln!(out, "{json}");
            }
            Err(e) => {
                let _ = writeln!(err, "cannot write the JSON report: {e}");
            }
        }
    }
    u8::from(!inputs.unreadable.is_empty() || !file_errors.is_empty())
}

/// A problem's own solve's limits: as given; by default 60 s, or in nodes alone when the
/// questions are budgeted in nodes alone (see [`ReportArgs::nodes`]).
fn main_limits(args: &ReportArgs) -> Limits {
    let by_nodes = args.questions_nodes.is_some() && args.time_ms.is_none();
    let time_ms = match (args.time_ms, args.nodes) {
        (Some(ms), _) => ms,
        (None, Some(_)) => 0,
        (None, None) if by_nodes => 0,
        (None, None) => 60_000,
    };
    Limits {
        time: (time_ms > 0).then(|| Duration::from_millis(time_ms)),
        nodes: args.nodes.or(by_nodes.then_some(NODES_FOR_THE_SOLVE)),
    }
}

/// A problem's own solve's nodes when its questions are budgeted in nodes alone: about what its
/// default 60 s gives on a machine of two cores (2 M nodes a second).
const NODES_FOR_THE_SOLVE: u64 = 120_000_000;

/// The time for a problem's questions: as given, else 60 s, or none with a node budget alone
/// (so that the report is the machine's own no more).
fn questions_time(ms: Option<u64>, nodes: Option<u64>) -> Duration {
    match (ms, nodes) {
        (Some(ms), _) => Duration::from_millis(ms),
        (None, Some(_)) => Duration::MAX,
        (None, None) => ReportLimits::default().questions_time,
    }
}

/// The intended lines of the `.pv` files beside `files`, by problem id.
fn intended_lines(files: &[PathBuf], err: &mut dyn Write) -> HashMap<String, Vec<String>> {
    let mut lines = HashMap::new();
    for file in files {
        let pv = file.with_extension("pv");
        if pv == *file || !Path::new(&pv).exists() {
            continue;
        }
        match std::fs::read_to_string(&pv) {
            Ok(text) => {
                for l in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
                    let mut words = l.split_whitespace();
                    if let Some(id) = words.next() {
                        lines.insert(id.to_string(), words.map(str::to_string).collect());
                    }
                }
            }
            Err(e) => {
                let _ = writeln!(err, "{}: cannot read: {e}", pv.display());
            }
        }
    }
    lines
}

/// A problem's heading: its id or place, and its title.
pub fn heading(task: &Task) -> String {
    match &task.title {
        Some(t) => format!("{} {t}", task.label()),
        None => task.label(),
    }
}

/// One HTML page per input file, in `dir`.
fn write_pages(dir: &Path, tasks: &[Task], reports: &[(usize, ComposerReport)]) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut files: Vec<&str> = tasks.iter().map(|t| t.file.as_str()).collect();
    files.dedup();
    for file in files {
        let sections: Vec<html::Section> = reports
            .iter()
            .filter(|(i, _)| tasks[*i].file == file)
            .map(|(i, r)| html::Section {
                id: tasks[*i].label(),
                title: heading(&tasks[*i]),
                position: &tasks[*i].problem.position,
                report: r,
            })
            .collect();
        let name = Path::new(file).file_name().map_or("report".into(), |n| n.to_string_lossy());
        std::fs::write(dir.join(format!("{name}.html")), html::page(file, &sections))?;
    }
    Ok(())
}

/// The main lines as KIF, one file per input file, in `dir`.
fn write_kif_files(
    dir: &Path,
    tasks: &[Task],
    reports: &[(usize, ComposerReport)],
) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut texts: Vec<(&str, String)> = Vec::new();
    for (i, r) in reports {
        let task = &tasks[*i];
        let Ok(moves) = task.problem.position.parse_usi_line(&r.main_line.usi) else { continue };
        let record = shogi::notation::Record {
            title: Some(heading(task)),
            position: task.problem.position.clone(),
            moves,
            line: task.line,
        };
        let Ok(kif) = shogi::notation::write_kif(&record) else { continue };
        match texts.last_mut() {
            Some((file, text)) if *file == task.file => {
                text.push('\n');
                text.push_str(&kif);
            }
            _ => texts.push((&task.file, kif)),
        }
    }
    for (file, text) in texts {
        let name = Path::new(file).file_name().map_or("report".into(), |n| n.to_string_lossy());
        std::fs::write(dir.join(format!("{name}.kif")), text)?;
    }
    Ok(())
}
