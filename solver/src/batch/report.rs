//! What the batch solver prints of each problem, and the closing summary.

use super::answer::{compare_answer, Verdict};
use super::problem::Problem;
use crate::config::Rules;
use crate::mate_line::verify_mate_line_as;
use crate::outcome::{Outcome, SolveResult};
use crate::search::default_attacker;
use serde::Serialize;

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
    /// When the first proof was done, and when the final main line was first found (tsume
    /// rules); the rest of `time_ms` proved that no shorter mate is left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_proof_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_line_ms: Option<f64>,
    /// The phase the time or node limit cut short, if one did (`Phase::describe`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<&'static str>,
    pub matches_answer: Option<bool>,
    /// `match`, `mismatch`, `length_warning`, `unchecked` or `skipped`.
    pub verdict: &'static str,
    pub note: Option<String>,
    /// The composer's report (`solve --report`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub composer: Option<crate::composer::ComposerReport>,
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
    pub(super) fn add(&mut self, r: &ProblemReport) {
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
pub(super) struct Settings {
    pub time_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub hash_mb: usize,
    pub jobs: usize,
    pub double_count: &'static str,
}

#[derive(Serialize, Clone, Debug)]
pub(super) struct JsonReport<'a> {
    pub settings: Settings,
    pub problems: &'a [ProblemReport],
    pub bad_lines: &'a [BadLine],
    pub unreadable_files: &'a [UnreadableFile],
    pub summary: &'a Summary,
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
    if let (Some(proof), Some(line)) = (r.first_proof_ms, r.final_line_ms) {
        s.push_str(&format!(" first-proof={proof:.1}ms final-line={line:.1}ms"));
    }
    if let Some(note) = &r.note {
        s.push_str(&format!(" [{note}]"));
    }
    s
}

/// The mating side: the side to move unless the answer says it defends (`@and`); without an
/// answer, the solver's default (a side in check defends).
pub fn attacker_of(p: &Problem) -> shogi::Color {
    let side = p.position.side_to_move();
    match &p.answer {
        Some(a) if a.defends => !side,
        Some(_) => side,
        None => default_attacker(&p.position),
    }
}

/// The report of one problem; `failure` is the message of a search that failed (a bug).
pub fn report_problem(
    file: &str,
    line: usize,
    p: &Problem,
    r: &SolveResult,
    rules: Rules,
    failure: Option<String>,
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
        time_ms: millis(r.elapsed),
        first_proof_ms: r.phases.final_line.map(|_| millis(r.phases.first_proof.0)),
        final_line_ms: r.phases.final_line.map(|(t, _)| millis(t)),
        cut: r.cut.map(|phase| phase.describe()),
        matches_answer: verdict.matches(),
        verdict: verdict.name(),
        note: join_notes([
            failure.map(|f| format!("error: {f}")),
            verdict.note(),
            r.depth_limited.then(|| "no mate within the depth limit".to_string()),
            line_note(r),
        ]),
        composer: None,
    }
}

/// Milliseconds, to the microsecond.
fn millis(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// What a mate's line is, when it is not the proven main line.
fn line_note(r: &SolveResult) -> Option<String> {
    match r.outcome {
        Outcome::Mate(_) if r.cut.is_some() => {
            r.cut.map(|phase| crate::usi_mate::cut_note(phase, r.main_line))
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::problem::problem;
    use std::time::Duration;

    const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G 1";

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
        let rep = report_problem("f.sfen", 3, &p, &r, Rules::Pure, None);
        assert_eq!(rep.verdict, "match");
        assert_eq!(result_line(&rep), "m1 checkmate G*5b plies=1 nodes=12 expansions=0 time=1.5ms");
        // A line that is not the proven main line says so.
        let first = SolveResult { main_line: false, ..r.clone() };
        assert!(result_line(&report_problem("f.sfen", 3, &p, &first, Rules::Pure, None))
            .ends_with("[not the main line: one line of the proof]"));
        // So does a line that a limit cut short, with the phase it cut.
        let cut = SolveResult { main_line: false, cut: Some(crate::Phase::MainLine), ..r.clone() };
        assert!(result_line(&report_problem("f.sfen", 3, &p, &cut, Rules::Pure, None)).ends_with(
            "[cut short (time limit or stop) in building the main line: the first proof's line, \
             not shortened]"
        ));
        let unproven = SolveResult { proven_shortest: false, ..r.clone() };
        assert!(result_line(&report_problem("f.sfen", 3, &p, &unproven, Rules::Pure, None))
            .ends_with("[shortest not proven]"));
        // A wrong line is a mismatch whatever the answer says.
        let g4 = p.position.parse_usi_move("G*4b").unwrap_or_else(|e| panic!("{e}"));
        let r = SolveResult { outcome: Outcome::Mate(vec![g4]), ..r };
        let rep = report_problem("f.sfen", 3, &problem(MATE1), &r, Rules::Pure, None);
        assert_eq!(rep.id, "f.sfen:3");
        assert_eq!(rep.verdict, "mismatch");
        assert!(
            result_line(&rep)
                .ends_with("[mismatch: invalid mate line: the final position is not checkmate]"),
            "{}",
            result_line(&rep)
        );
        let r = SolveResult::timeout(7, Duration::from_millis(10));
        let rep = report_problem("f.sfen", 3, &p, &r, Rules::Pure, None);
        assert_eq!(
            result_line(&rep),
            "m1 timeout nodes=7 expansions=0 time=10.0ms [mismatch: timeout, expected 1]"
        );
    }
}
