//! The one error type of every notation reader: where (line), what part (field), and why.

use std::fmt;

/// A failure to read a game record, pointing at the 1-based line of the input and naming the
/// part of the record that is wrong (`board row 一`, `move 3`, `hand of 先手`, ...), so that a
/// composer can find the mistake in a file of many problems.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    pub line: usize,
    pub field: String,
    pub message: String,
}

impl NotationError {
    pub fn new(line: usize, field: impl Into<String>, message: impl Into<String>) -> NotationError {
        NotationError { line, field: field.into(), message: message.into() }
    }

    /// The same error placed at `line`: helpers that see one line's text build errors without
    /// knowing its number, and the record reader places them.
    pub fn at(mut self, line: usize) -> NotationError {
        self.line = line;
        self
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}: {}", self.line, self.field, self.message)
    }
}

impl std::error::Error for NotationError {}
