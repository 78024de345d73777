//! Reading the problem files of a run: every problem with the file and line it came from, the
//! lines that could not be read, and the files that could not be opened.

use super::args::Shard;
use super::problem::{parse_problem_line, Problem};
use super::report::{BadLine, UnreadableFile};
use std::path::PathBuf;

/// A problem to solve, with where it came from.
pub struct Task {
    pub file: String,
    pub line: usize,
    pub problem: Problem,
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
    for path in files {
        let file = path.display().to_string();
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                inputs.unreadable.push(UnreadableFile { file, error: e.to_string() });
                continue;
            }
        };
        for (i, line) in text.lines().enumerate() {
            let parsed = parse_problem_line(line);
            if matches!(parsed, Ok(None)) {
                continue;
            }
            let taken = shard.is_none_or(|s| s.takes(index));
            index += 1;
            match parsed {
                Ok(Some(problem)) if taken => {
                    inputs.tasks.push(Task { file: file.clone(), line: i + 1, problem })
                }
                Err(error) if taken => {
                    inputs.bad_lines.push(BadLine { file: file.clone(), line: i + 1, error })
                }
                _ => {}
            }
        }
    }
    inputs
}
