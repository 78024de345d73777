//! The input thread: turns the GUI's bytes into lines, so the protocol loop can wait on input,
//! the search and a deadline at once.

use crossbeam_channel::{unbounded, Receiver};
use std::io::{self, BufRead};
use std::thread;

pub(crate) enum Input {
    Line(String),
    /// The input ended (or could not be read any more).
    End,
}

/// Starts the reader. Bytes that are not UTF-8 are replaced rather than refused, so that the
/// loop can answer the line with an `info string`. After the loop returns, the thread may stay
/// blocked on `input` until it yields a line or ends (a process exits anyway).
pub(crate) fn spawn_reader<R: BufRead + Send + 'static>(
    mut input: R,
) -> io::Result<Receiver<Input>> {
    let (tx, rx) = unbounded();
    thread::Builder::new().name("usi-input".to_string()).spawn(move || {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    if tx.send(Input::Line(line)).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = tx.send(Input::End);
    })?;
    Ok(rx)
}
