//! What the page does, in plain Rust: the problems of a pasted text, one of them solved as
//! `tsumugi-mate solve` solves it (the same configuration at one thread, so the same line at
//! the same node budget), or checked as `tsumugi-mate report` checks it, with the report as
//! the same HTML page.

use serde::{Deserialize, Serialize};
use solver::batch::input::{read_text, Inputs};
use solver::batch::{attacker_of, plain_result_line, report_problem, solve_task, ProblemReport};
use solver::clock::Instant;
use solver::composer::command::heading;
use solver::composer::{html, report_on, ComposerReport, MainSolve, ReportLimits};
use solver::config::{Rules, SolverConfig, REPORT_SHORTER_MATE_PERCENT};
use solver::{Limits, Progress, Solver};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The name the pasted text stands under in labels and errors.
pub const PASTED: &str = "pasted";

/// How one problem is to be solved (the page's settings, as JSON).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default)]
pub struct Settings {
    /// Node budget of the solve (0: none).
    pub nodes: u64,
    /// Time budget of the solve in milliseconds (0: none).
    pub time_ms: u64,
    /// `tsume` or `pure`.
    pub rules: String,
    /// The table's size in MiB.
    pub hash_mb: usize,
    /// The composer's report too (cooks, variations, pieces left, the intended line), as
    /// `tsumugi-mate report` makes it: tsume rules, its own line refinement.
    pub report: bool,
    /// The report's questions together, in milliseconds.
    pub questions_time_ms: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            nodes: 0,
            time_ms: 0,
            rules: "tsume".into(),
            hash_mb: 256,
            report: false,
            questions_time_ms: 10_000,
        }
    }
}

/// A problem of the text, as the page lists it.
#[derive(Debug, Serialize)]
pub struct Listed {
    pub label: String,
    pub heading: String,
    pub sfen: String,
    pub line: usize,
}

/// What the text held: its problems and the lines that could not be read.
#[derive(Debug, Serialize)]
pub struct Loaded {
    pub problems: Vec<Listed>,
    /// `pasted:LINE: error` for each line that could not be read, as the command line says it.
    pub errors: Vec<String>,
}

/// One problem answered.
#[derive(Debug, Serialize)]
pub struct Answered {
    /// `<id> <usi moves>`, `<id> nomate`, `<id> timeout`: the line `solve --results` writes.
    pub line: String,
    pub result: ProblemReport,
    /// The line in Japanese notation (▲２三銀成 ...), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub japanese: Option<String>,
    /// The composer's report as its page (`report --html`), when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
}

/// The problems read last, and the solver kept between problems while its settings hold.
#[derive(Default)]
pub struct Session {
    inputs: Inputs,
    solver: Option<Solver>,
}

impl Session {
    /// Reads the problems of `text` (SFEN lines, KIF, KI2, CSA or BOD, told by their content).
    pub fn load(&mut self, text: &str) -> Loaded {
        self.inputs = read_text(PASTED, text);
        let problems = self
            .inputs
            .tasks
            .iter()
            .map(|t| Listed {
                label: t.label(),
                heading: heading(t),
                sfen: t.problem.position.to_sfen(),
                line: t.line,
            })
            .collect();
        let errors = self
            .inputs
            .bad_lines
            .iter()
            .map(|b| format!("{}:{}: {}", b.file, b.line, b.error))
            .collect();
        Loaded { problems, errors }
    }

    /// Solves problem `index` of the text read last; `None` past its end or with rules it does
    /// not know.
    pub fn solve(
        &mut self,
        index: usize,
        settings: &Settings,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Answered, String> {
        let rules = Rules::from_name(&settings.rules)
            .ok_or_else(|| format!("rules: `{}` is neither tsume nor pure", settings.rules))?;
        let task = self
            .inputs
            .tasks
            .get(index)
            .ok_or_else(|| format!("problem {index}: there are {}", self.inputs.tasks.len()))?;
        let limits = Limits {
            time: (settings.time_ms > 0).then(|| Duration::from_millis(settings.time_ms)),
            nodes: (settings.nodes > 0).then_some(settings.nodes),
        };
        let config = config(settings, rules);
        let solver = match self.solver.take() {
            Some(s) if *s.config() == config => self.solver.insert(s),
            // The old table goes before the new one is made.
            _ => self.solver.insert(Solver::new(config)),
        };
        let stop = AtomicBool::new(false);
        let (result, failure) = solve_task(solver, task, &limits, &stop, progress);
        let failed = failure.is_some();
        let answer = report_problem(&task.file, task.line, &task.problem, &result, rules, failure);
        let html = (settings.report && !failed).then(|| {
            let limits = ReportLimits {
                main: limits.clone(),
                questions_time: Duration::from_millis(settings.questions_time_ms),
                threads: 1,
                ..ReportLimits::default()
            };
            // The questions on the table the solve left, as `solve --report` asks them.
            let started = Instant::now().checked_sub(result.elapsed).unwrap_or_else(Instant::now);
            let main = MainSolve { attacker: attacker_of(&task.problem), result: &result, started };
            let pos = &task.problem.position;
            let report = report_on(solver, pos, &main, task.intended.as_deref(), &limits, &stop);
            page(task, &report)
        });
        let usi = answer.moves.join(" ");
        let japanese = (!usi.is_empty())
            .then(|| shogi::notation::japanese::line_to_japanese(&task.problem.position, &usi).ok())
            .flatten();
        Ok(Answered { line: plain_result_line(&answer), result: answer, japanese, html })
    }
}

/// The solver's configuration: `tsumugi-mate solve`'s at one thread (with `report`, that of
/// `solve --report`: tsume rules).
fn config(settings: &Settings, rules: Rules) -> SolverConfig {
    let base =
        SolverConfig { hash_mb: settings.hash_mb.max(1), threads: 1, ..SolverConfig::default() };
    if settings.report {
        SolverConfig {
            rules: Rules::Tsume,
            shorter_mate_percent: REPORT_SHORTER_MATE_PERCENT,
            ..base
        }
    } else {
        SolverConfig { rules, ..base }
    }
}

fn page(task: &solver::batch::input::Task, report: &ComposerReport) -> String {
    let section = html::Section {
        id: task.label(),
        title: heading(task),
        position: &task.problem.position,
        report,
    };
    html::page(PASTED, &[section])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zukou(n: usize) -> String {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/edo_zukou.sfen");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let id = format!(" # zukou-{n:03} ");
        text.lines().find(|l| l.contains(&id)).unwrap_or_else(|| panic!("{id}")).to_string()
    }

    /// A pasted SFEN line is solved as `tsumugi-mate solve` solves it: the same line at the
    /// same budget, replayed as a mate by our rules; the report comes as a page with it.
    #[test]
    fn a_pasted_problem_is_answered_as_the_command_line_answers_it() {
        let line = zukou(2);
        let mut session = Session::default();
        let loaded = session.load(&line);
        assert_eq!(loaded.problems.len(), 1, "{loaded:?}");
        assert!(loaded.errors.is_empty(), "{loaded:?}");
        let settings = Settings { nodes: 2_000_000, hash_mb: 16, ..Settings::default() };
        let answer = session.solve(0, &settings, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(answer.result.outcome, "mate", "{answer:?}");
        let pos = &session.inputs.tasks[0].problem.position;
        let moves = pos.parse_usi_line(&answer.result.moves).expect("a legal line");
        let mut p = pos.clone();
        for m in moves {
            p.make_move(m);
        }
        assert!(shogi::movegen::is_checkmate(&p), "{answer:?}");
        assert!(answer.japanese.as_deref().is_some_and(|j| j.starts_with('▲')), "{answer:?}");
        assert!(answer.html.is_none());
        // The command line's answer, through the same solve.
        let mut native = Solver::new(SolverConfig { hash_mb: 16, ..SolverConfig::default() });
        let task = &session.inputs.tasks[0];
        let limits = Limits { time: None, nodes: Some(2_000_000) };
        let (result, _) =
            solve_task(&mut native, task, &limits, &AtomicBool::new(false), &mut |_| {});
        let solver::Outcome::Mate(pv) = result.outcome else { panic!("{result:?}") };
        let pv: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
        assert_eq!(pv, answer.result.moves);
        let with_report = Settings { report: true, questions_time_ms: 2_000, ..settings };
        let answer = session.solve(0, &with_report, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
        let html = answer.html.unwrap_or_default();
        assert!(html.contains("<!DOCTYPE html>") && html.contains("zukou-002"), "{html}");
    }

    /// A malformed record names its line and field, as the command line does; the session
    /// still reads and solves the next text.
    #[test]
    fn a_bad_text_is_named_and_the_next_one_is_solved() {
        let bad = "開始日時：2026/12/08\n手合割：平手\n先手の持駒：金二\n後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n|v香 ・ ・ ・ ・ ・ ・ ・ ・|一\n+---------------------------+\n";
        let mut session = Session::default();
        let loaded = session.load(bad);
        assert!(loaded.problems.is_empty(), "{loaded:?}");
        assert!(loaded.errors.iter().any(|e| e.starts_with("pasted:")), "{loaded:?}");
        let settings = Settings { nodes: 1_000, hash_mb: 1, ..Settings::default() };
        assert!(session.solve(0, &settings, &mut |_| {}).is_err());
        let bad_rules = Settings { rules: "fast".into(), ..settings.clone() };
        assert!(session.load(&zukou(2)).errors.is_empty());
        let err = session.solve(0, &bad_rules, &mut |_| {}).err().unwrap_or_default();
        assert!(err.contains("rules"), "{err}");
        let answer = session.solve(0, &settings, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
        assert!(answer.line.starts_with("zukou-002 "), "{answer:?}");
    }
}
