//! One problem of a problem file: a position with an optional id and answer.

use super::answer::{parse_answer, Answer};
use shogi::{parse_position_command, Position};
use std::fmt;

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

/// The problem of a line that must parse (tests).
#[cfg(test)]
pub(crate) fn problem(line: &str) -> Problem {
    match parse_problem_line(line) {
        Ok(Some(p)) => p,
        other => panic!("{line:?}: {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::answer::Expected;

    const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G 1";

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
}
