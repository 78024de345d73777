//! The engine's side of the conversation: whole lines, flushed at once (a GUI waits on them).

use std::io::{self, Write};

/// Where the protocol loop and the programs write their answers.
pub struct Output<'a> {
    out: &'a mut dyn Write,
}

impl<'a> Output<'a> {
    pub fn new(out: &'a mut dyn Write) -> Output<'a> {
        Output { out }
    }

    /// Writes one line and flushes it.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        self.out.write_all(line.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    /// `info string <text>`, the one way USI lets an engine say something to the user.
    pub fn info_string(&mut self, text: &str) -> io::Result<()> {
        // One line: a newline inside would end the info line early.
        let text = text.replace(['\r', '\n'], " ");
        self.send(&format!("info string {text}"))
    }
}
