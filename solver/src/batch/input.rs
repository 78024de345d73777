//! Reading the problem files of a run: every problem with the file and line it came from, the
//! lines that could not be read, and the files that could not be opened.
//!
//! A file is read by its format ([`Format::detect`]: extension, else content): SFEN lines with
//! their ids and answers, or records of KIF, KI2, CSA and BOD, whose moves are the intended
//! line. Shift-JIS files (KIF written on Windows) are decoded.

use super::args::Shard;
use super::problem::{parse_problem_line, Problem};
use super::report::{BadLine, UnreadableFile};
use shogi::notation::{decode_text, read_records, Format, Record};
use shogi::Move;
use std::path::PathBuf;

/// A problem to solve, with where it came from.
pub struct Task {
    pub file: String,
    pub line: usize,
    pub problem: Problem,
    /// The record's title (KIF 表題, CSA `$EVENT`).
    pub title: Option<String>,
    /// The file's line for the problem (a KIF's moves): the intended line.
    pub intended: Option<Vec<Move>>,
}

impl Task {
    /// The problem's id, or `file:line` when it has none.
    pub fn label(&self) -> String {
        self.problem.id.clone().unwrap_or_else(|| format!("{}:{}", self.file, self.line))
    }
}

#[derive(Default)]
pub struct Inputs {
    pub tasks: Vec<Task>,
    pub bad_lines: Vec<BadLine>,
    pub unreadable: Vec<UnreadableFile>,
}

/// Reads `files` in order. With a shard, only its problems (and bad lines) are kept: every
/// problem line, good or bad, counts for the shard's round robin, so each is reported by
/// exactly one shard.
pub fn read_inputs(files: &[PathBuf], shard: Option<Shard>) -> Inputs {
    let mut inputs = Inputs::default();
    let mut index = 0;
    for path in files.iter().map(PathBuf::as_path) {
        let file = path.display().to_string();
        let text = match std::fs::read(path) {
            Ok(bytes) => decode_text(&bytes),
            Err(e) => {
                inputs.unreadable.push(UnreadableFile { file, error: e.to_string() });
                continue;
            }
        };
        let format = Format::detect(path, &text);
        for (line, entry) in entries(&text, format) {
            let taken = shard.is_none_or(|s| s.takes(index));
            index += 1;
            if !taken {
                continue;
            }
            match entry {
                Ok((problem, title, intended)) => {
                    inputs.tasks.push(Task { file: file.clone(), line, problem, title, intended })
                }
                Err(error) => inputs.bad_lines.push(BadLine { file: file.clone(), line, error }),
            }
        }
    }
    inputs
}

/// The problems of a text not read from a file (pasted into the page, say), its format told
/// by its content; `name` stands for the file in labels and errors.
pub fn read_text(name: &str, text: &str) -> Inputs {
    let mut inputs = Inputs::default();
    let format = Format::detect(std::path::Path::new(name), text);
    for (line, entry) in entries(text, format) {
        let file = name.to_string();
        match entry {
            Ok((problem, title, intended)) => {
                inputs.tasks.push(Task { file, line, problem, title, intended })
            }
            Err(error) => inputs.bad_lines.push(BadLine { file, line, error }),
        }
    }
    inputs
}

fn entries(text: &str, format: Format) -> Vec<Entry> {
    match format {
        Format::Sfen => sfen_entries(text),
        _ => record_entries(text, format),
    }
}

/// A problem read from a file, with its title and intended line, or the error of its line.
type Entry = (usize, Result<(Problem, Option<String>, Option<Vec<Move>>), String>);

/// The problems of a file of SFEN lines (`<sfen> # <id> <answer>`).
fn sfen_entries(text: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_problem_line(line) {
            Ok(None) => {}
            Ok(Some(problem)) => entries.push((i + 1, Ok((problem, None, None)))),
            Err(e) => entries.push((i + 1, Err(e))),
        }
    }
    entries
}

/// The problems of a KIF, KI2, CSA or BOD file: each record's start position, its moves as
/// the intended line.
fn record_entries(text: &str, format: Format) -> Vec<Entry> {
    read_records(text, format)
        .into_iter()
        .map(|r| match r {
            Ok(Record { title, position, moves, line }) => {
                let problem = Problem { position, id: None, answer: None };
                (line, Ok((problem, title, (!moves.is_empty()).then_some(moves))))
            }
            Err(e) => (e.line, Err(format!("{}: {}", e.field, e.message))),
        })
        .collect()
}
