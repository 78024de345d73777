//! The answer field of a problem line, and how a result compares with it.
//!
//! `N` (exact length in plies), `N?` (length of a known line, not proven minimal), `mate`,
//! `nomate`, `nomate?`, `>N` (no mate within N plies), `?` (no claim); a trailing `@and` says
//! the side to move defends (it must then be in check: the solver treats a root in check as a
//! defence).

use crate::outcome::Outcome;
use std::fmt;

/// The claim of an answer field.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// `N`: a mate of exactly N plies.
    Exact(u32),
    /// `N?`: a mate; a known line has N plies.
    KnownLine(u32),
    /// `mate`
    Mate,
    /// `nomate`
    NoMate,
    /// `nomate?`: believed to have no mate (compared as `nomate`).
    LikelyNoMate,
    /// `>N`: no mate within N plies.
    NoMateWithin(u32),
    /// `?`
    Unknown,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub expected: Expected,
    /// `@and`: the side to move defends.
    pub defends: bool,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.expected {
            Expected::Exact(n) => write!(f, "{n}")?,
            Expected::KnownLine(n) => write!(f, "{n}?")?,
            Expected::Mate => f.write_str("mate")?,
            Expected::NoMate => f.write_str("nomate")?,
            Expected::LikelyNoMate => f.write_str("nomate?")?,
            Expected::NoMateWithin(n) => write!(f, ">{n}")?,
            Expected::Unknown => f.write_str("?")?,
        }
        if self.defends {
            f.write_str("@and")?;
        }
        Ok(())
    }
}

/// Parses an answer field.
pub fn parse_answer(text: &str) -> Result<Answer, String> {
    let bad =
        || format!("bad answer {text:?} (expected N, N?, mate, nomate, >N or ?, optionally @and)");
    let (body, defends) = match text.strip_suffix("@and") {
        Some(b) => (b, true),
        None => (text, false),
    };
    let number = |t: &str| -> Result<u32, String> {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        t.parse::<u32>().map_err(|_| bad())
    };
    let expected = match body {
        "?" => Expected::Unknown,
        "mate" => Expected::Mate,
        "nomate" => Expected::NoMate,
        "nomate?" => Expected::LikelyNoMate,
        _ => {
            if let Some(n) = body.strip_prefix('>') {
                Expected::NoMateWithin(number(n)?)
            } else if let Some(n) = body.strip_suffix('?') {
                Expected::KnownLine(number(n)?)
            } else {
                Expected::Exact(number(body)?)
            }
        }
    };
    Ok(Answer { expected, defends })
}

/// How a result compares with the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No answer, or `?`.
    Unchecked,
    /// The answer cannot be compared (the reason is given).
    Skipped(String),
    Match,
    /// `N?` answered by a mate of another length.
    LengthWarning {
        expected: u32,
        found: usize,
    },
    Mismatch(String),
}

impl Verdict {
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Unchecked => "unchecked",
            Verdict::Skipped(_) => "skipped",
            Verdict::Match => "match",
            Verdict::LengthWarning { .. } => "length_warning",
            Verdict::Mismatch(_) => "mismatch",
        }
    }

    /// `Some(true)` for a match (a length warning included), `Some(false)` for a mismatch.
    pub fn matches(&self) -> Option<bool> {
        match self {
            Verdict::Match | Verdict::LengthWarning { .. } => Some(true),
            Verdict::Mismatch(_) => Some(false),
            Verdict::Unchecked | Verdict::Skipped(_) => None,
        }
    }

    pub fn note(&self) -> Option<String> {
        match self {
            Verdict::Unchecked | Verdict::Match => None,
            Verdict::Skipped(why) => Some(format!("not checked: {why}")),
            Verdict::LengthWarning { expected, found } => {
                Some(format!("warning: found {found} plies, the known line has {expected}"))
            }
            Verdict::Mismatch(why) => Some(format!("mismatch: {why}")),
        }
    }
}

/// Compares an outcome with an answer. `root_in_check` says whether the solver treated the root
/// as a defence; an answer for the other kind of root is not compared.
pub fn compare_answer(answer: Option<&Answer>, root_in_check: bool, outcome: &Outcome) -> Verdict {
    let Some(answer) = answer else {
        return Verdict::Unchecked;
    };
    if answer.expected == Expected::Unknown {
        return Verdict::Unchecked;
    }
    if answer.defends && !root_in_check {
        return Verdict::Skipped(
            "the answer is for a defence (@and), the side to move is not in check".to_string(),
        );
    }
    let plies = |n: usize| if n == 1 { "ply" } else { "plies" };
    match (answer.expected, outcome) {
        (_, Outcome::Timeout) => Verdict::Mismatch(format!("timeout, expected {answer}")),
        (Expected::Exact(n), Outcome::Mate(m)) if m.len() == n as usize => Verdict::Match,
        (Expected::Exact(n), Outcome::Mate(m)) => Verdict::Mismatch(format!(
            "expected a mate in {n}, found {} {}",
            m.len(),
            plies(m.len())
        )),
        (Expected::KnownLine(n), Outcome::Mate(m)) if m.len() == n as usize => Verdict::Match,
        (Expected::KnownLine(n), Outcome::Mate(m)) => {
            Verdict::LengthWarning { expected: n, found: m.len() }
        }
        (Expected::Mate, Outcome::Mate(_)) => Verdict::Match,
        (Expected::NoMate | Expected::LikelyNoMate, Outcome::NoMate) => Verdict::Match,
        (Expected::NoMateWithin(_), Outcome::NoMate) => Verdict::Match,
        (Expected::NoMateWithin(n), Outcome::Mate(m)) if m.len() > n as usize => Verdict::Match,
        (Expected::NoMateWithin(n), Outcome::Mate(m)) => Verdict::Mismatch(format!(
            "expected no mate within {n} plies, found a mate in {}",
            m.len()
        )),
        (Expected::NoMate | Expected::LikelyNoMate, Outcome::Mate(m)) => {
            Verdict::Mismatch(format!("expected {answer}, found a mate in {}", m.len()))
        }
        (_, Outcome::NoMate) => Verdict::Mismatch(format!("expected {answer}, found nomate")),
        (Expected::Unknown, _) => Verdict::Unchecked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::Move;

    fn a(text: &str) -> Answer {
        parse_answer(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn answers() {
        assert_eq!(a("5").expected, Expected::Exact(5));
        assert_eq!(a("21?").expected, Expected::KnownLine(21));
        assert_eq!(a("mate").expected, Expected::Mate);
        assert_eq!(a("nomate").expected, Expected::NoMate);
        assert_eq!(a(">9").expected, Expected::NoMateWithin(9));
        assert_eq!(a("?").expected, Expected::Unknown);
        let and = a("nomate@and");
        assert!(and.defends);
        assert_eq!(and.expected, Expected::NoMate);
        assert!(!a("3").defends);
        assert_eq!(a("nomate?").expected, Expected::LikelyNoMate);
        for t in ["5", "21?", "mate", "nomate", "nomate?", ">9", "?", "nomate@and", "4@and"] {
            assert_eq!(a(t).to_string(), t);
        }
        for bad in [
            "",
            "x",
            "-3",
            "+3",
            "5??",
            "?5",
            ">",
            ">x",
            "mate?",
            "@and",
            "5@or",
            "3 ",
            "1e3",
            "99999999999",
        ] {
            assert!(parse_answer(bad).is_err(), "{bad:?}");
        }
    }

    fn mate(n: usize) -> Outcome {
        Outcome::Mate(vec![Move::NULL; n])
    }

    #[test]
    fn comparisons() {
        let c = |ans: &str, out: &Outcome| compare_answer(Some(&a(ans)), false, out);
        assert_eq!(c("5", &mate(5)), Verdict::Match);
        assert!(matches!(c("5", &mate(7)), Verdict::Mismatch(_)));
        assert!(matches!(c("5", &Outcome::NoMate), Verdict::Mismatch(_)));
        assert!(matches!(c("5", &Outcome::Timeout), Verdict::Mismatch(_)));
        assert_eq!(c("21?", &mate(21)), Verdict::Match);
        assert_eq!(c("21?", &mate(23)), Verdict::LengthWarning { expected: 21, found: 23 });
        assert_eq!(c("21?", &mate(23)).matches(), Some(true));
        assert!(matches!(c("21?", &Outcome::NoMate), Verdict::Mismatch(_)));
        assert!(matches!(c("21?", &Outcome::Timeout), Verdict::Mismatch(_)));
        assert_eq!(c("mate", &mate(3)), Verdict::Match);
        assert!(matches!(c("mate", &Outcome::NoMate), Verdict::Mismatch(_)));
        assert_eq!(c("nomate", &Outcome::NoMate), Verdict::Match);
        assert!(matches!(c("nomate", &mate(1)), Verdict::Mismatch(_)));
        assert!(matches!(c("nomate", &Outcome::Timeout), Verdict::Mismatch(_)));
        assert_eq!(c(">9", &Outcome::NoMate), Verdict::Match);
        assert_eq!(c(">9", &mate(11)), Verdict::Match);
        assert!(matches!(c(">9", &mate(9)), Verdict::Mismatch(_)));
        assert!(matches!(c(">9", &Outcome::Timeout), Verdict::Mismatch(_)));
        for o in [mate(1), Outcome::NoMate, Outcome::Timeout] {
            assert_eq!(c("?", &o), Verdict::Unchecked);
            assert_eq!(compare_answer(None, false, &o), Verdict::Unchecked);
            assert_eq!(compare_answer(None, true, &o), Verdict::Unchecked);
        }
        // `@and` answers go with roots in check, and only with them.
        let d =
            |ans: &str, in_check: bool, out: &Outcome| compare_answer(Some(&a(ans)), in_check, out);
        assert_eq!(d("nomate@and", true, &Outcome::NoMate), Verdict::Match);
        assert!(matches!(d("nomate@and", true, &mate(2)), Verdict::Mismatch(_)));
        assert!(matches!(d("nomate@and", false, &Outcome::NoMate), Verdict::Skipped(_)));
        // An attacker in check (as in some YaneuraOu problems) is solved as an attack.
        assert_eq!(d("5", true, &mate(5)), Verdict::Match);
        assert_eq!(d("?", true, &Outcome::Timeout), Verdict::Unchecked);
    }
}
