//! The arguments of `go`, parsed into one typed value.
//!
//! `go mate <ms>|infinite` is strict: a malformed one is an error ([`GoError`]), which the loop
//! answers with `checkmate timeout`. Any other `go` always parses: a field that cannot be read
//! is skipped and reported as a [`GoIssue`], in the order met, and each program decides what an
//! issue means (the playing engine warns and plays on, the mate engine refuses a bad clock).
//!
//! Which fields take a value is the program's choice ([`parse_go`]'s `fields`): a field a
//! program does not read is an unknown word, and so is its value. That keeps a program that
//! never looks at `depth` from reading the word after it as the depth.

use std::fmt;
use std::time::Duration;

/// A field of `go` that takes arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoField {
    Btime,
    Wtime,
    Binc,
    Winc,
    Byoyomi,
    Movetime,
    Depth,
    Nodes,
    /// `searchmoves <move>...`: the moves are skipped (nothing searches a subset of moves).
    SearchMoves,
}

impl GoField {
    /// Every field USI defines.
    pub const ALL: [GoField; 9] = [
        GoField::Btime,
        GoField::Wtime,
        GoField::Binc,
        GoField::Winc,
        GoField::Byoyomi,
        GoField::Movetime,
        GoField::Depth,
        GoField::Nodes,
        GoField::SearchMoves,
    ];
    /// The clock alone (what a program that thinks in time only reads).
    pub const CLOCK: [GoField; 6] = [
        GoField::Btime,
        GoField::Wtime,
        GoField::Binc,
        GoField::Winc,
        GoField::Byoyomi,
        GoField::Movetime,
    ];

    pub fn keyword(self) -> &'static str {
        match self {
            GoField::Btime => "btime",
            GoField::Wtime => "wtime",
            GoField::Binc => "binc",
            GoField::Winc => "winc",
            GoField::Byoyomi => "byoyomi",
            GoField::Movetime => "movetime",
            GoField::Depth => "depth",
            GoField::Nodes => "nodes",
            GoField::SearchMoves => "searchmoves",
        }
    }

    fn from_keyword(word: &str) -> Option<GoField> {
        GoField::ALL.into_iter().find(|f| f.keyword() == word)
    }
}

impl fmt::Display for GoField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

/// A `go` for a move (anything but `go mate`). Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub binc: Option<u64>,
    pub winc: Option<u64>,
    pub byoyomi: Option<u64>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Think on the opponent's time until `ponderhit` (then on this clock) or `stop`.
    pub ponder: bool,
}

impl GoParams {
    fn set(&mut self, field: GoField, value: u64) {
        match field {
            GoField::Btime => self.btime = Some(value),
            GoField::Wtime => self.wtime = Some(value),
            GoField::Binc => self.binc = Some(value),
            GoField::Winc => self.winc = Some(value),
            GoField::Byoyomi => self.byoyomi = Some(value),
            GoField::Movetime => self.movetime = Some(value),
            GoField::Depth => self.depth = Some(u32::try_from(value).unwrap_or(u32::MAX)),
            GoField::Nodes => self.nodes = Some(value),
            GoField::SearchMoves => {}
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoCommand {
    /// `go mate <ms>|infinite`: answered with `checkmate ...`; `None` = no time limit.
    Mate { time: Option<Duration> },
    /// Any other `go`: answered with `bestmove ...`.
    Play(GoParams),
}

/// A malformed `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// The time is neither milliseconds nor `infinite`.
    BadMateTime(String),
    /// A word after the time.
    AfterMateTime(String),
}

impl fmt::Display for GoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoError::BadMateTime(t) => write!(f, "go mate: bad time {t:?}"),
            GoError::AfterMateTime(w) => write!(f, "go mate: unexpected {w:?}"),
        }
    }
}

impl std::error::Error for GoError {}

/// Something in a play `go` that was skipped. Its text is a warning: the field is ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoIssue {
    /// A field that takes a number came last.
    MissingValue(GoField),
    /// A field's value is not an integer.
    BadValue { field: GoField, text: String },
    /// `searchmoves` and its moves.
    SearchMovesIgnored,
    /// A word that is no field of this program.
    UnknownField(String),
}

impl fmt::Display for GoIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoIssue::MissingValue(field) => write!(f, "go: {field} needs a value"),
            GoIssue::BadValue { field, text } => {
                write!(f, "go: bad {field} value {text:?} (ignored)")
            }
            GoIssue::SearchMovesIgnored => {
                f.write_str("go: searchmoves is not supported (ignored)")
            }
            GoIssue::UnknownField(word) => write!(f, "go: unknown field {word:?} (ignored)"),
        }
    }
}

/// Parses the arguments of `go` (the words after it); `fields` are the fields the program
/// reads (see the module doc). Besides the command, the issues of a play `go`, in order.
pub fn parse_go(args: &str, fields: &[GoField]) -> Result<(GoCommand, Vec<GoIssue>), GoError> {
    let mut tokens = args.split_whitespace().peekable();
    let mut issues = Vec::new();
    if tokens.peek() == Some(&"mate") {
        tokens.next();
        let time = match tokens.next() {
            None | Some("infinite") => None,
            Some(t) => match t.parse::<u64>() {
                Ok(ms) => Some(Duration::from_millis(ms)),
                Err(_) => return Err(GoError::BadMateTime(t.to_string())),
            },
        };
        if let Some(extra) = tokens.next() {
            return Err(GoError::AfterMateTime(extra.to_string()));
        }
        return Ok((GoCommand::Mate { time }, issues));
    }
    let mut go = GoParams::default();
    while let Some(word) = tokens.next() {
        match word {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            _ => match GoField::from_keyword(word).filter(|f| fields.contains(f)) {
                None => issues.push(GoIssue::UnknownField(word.to_string())),
                Some(GoField::SearchMoves) => {
                    issues.push(GoIssue::SearchMovesIgnored);
                    // The moves follow up to the next keyword.
                    while tokens.peek().is_some_and(|t| shogi::usi::parse_move_syntax(t).is_ok()) {
                        tokens.next();
                    }
                }
                Some(field) => {
                    let Some(text) = tokens.next() else {
                        issues.push(GoIssue::MissingValue(field));
                        continue;
                    };
                    // Some GUIs send negative times when a clock ran out: count them as 0.
                    match text.parse::<i64>() {
                        Ok(v) => go.set(field, v.max(0) as u64),
                        Err(_) => issues.push(GoIssue::BadValue { field, text: text.to_string() }),
                    }
                }
            },
        }
    }
    Ok((GoCommand::Play(go), issues))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(args: &str, fields: &[GoField]) -> (GoParams, Vec<GoIssue>) {
        match parse_go(args, fields) {
            Ok((GoCommand::Play(g), w)) => (g, w),
            other => panic!("{args}: {other:?}"),
        }
    }

    #[test]
    fn mate() {
        let mate = |args| parse_go(args, &GoField::ALL).map(|r| r.0);
        assert_eq!(
            mate("mate 1000"),
            Ok(GoCommand::Mate { time: Some(Duration::from_millis(1000)) })
        );
        assert_eq!(mate("mate infinite"), Ok(GoCommand::Mate { time: None }));
        assert_eq!(mate("mate"), Ok(GoCommand::Mate { time: None }));
        assert_eq!(mate("mate soon"), Err(GoError::BadMateTime("soon".to_string())));
        assert_eq!(mate("mate 1 2"), Err(GoError::AfterMateTime("2".to_string())));
        assert_eq!(
            mate("mate soon").map_err(|e| e.to_string()),
            Err("go mate: bad time \"soon\"".to_string())
        );
    }

    #[test]
    fn clocks_and_limits() {
        let (g, w) = play(
            "btime 60000 wtime -5 binc 1000 winc 2000 byoyomi 0 movetime 7 depth 7 nodes 900",
            &GoField::ALL,
        );
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(
            (g.btime, g.wtime, g.binc, g.winc, g.byoyomi, g.movetime),
            (Some(60000), Some(0), Some(1000), Some(2000), Some(0), Some(7))
        );
        assert_eq!((g.depth, g.nodes), (Some(7), Some(900)));
        let (g, _) = play("ponder btime 1 wtime 2 byoyomi 3000", &GoField::ALL);
        assert!(g.ponder && !g.infinite);
        let (g, _) = play("infinite", &GoField::ALL);
        assert!(g.infinite);
        let (g, _) = play("depth 99999999999", &GoField::ALL);
        assert_eq!(g.depth, Some(u32::MAX));
        assert_eq!(play("", &GoField::ALL), (GoParams::default(), vec![]));
    }

    #[test]
    fn bad_fields_are_skipped_with_issues() {
        let (g, w) = play("btime x wtime 100 frobnicate movetime", &GoField::ALL);
        assert_eq!(
            w,
            [
                GoIssue::BadValue { field: GoField::Btime, text: "x".to_string() },
                GoIssue::UnknownField("frobnicate".to_string()),
                GoIssue::MissingValue(GoField::Movetime),
            ]
        );
        assert_eq!((g.btime, g.wtime, g.movetime), (None, Some(100), None));
        assert_eq!(w[0].to_string(), "go: bad btime value \"x\" (ignored)");
        assert_eq!(w[1].to_string(), "go: unknown field \"frobnicate\" (ignored)");
        assert_eq!(w[2].to_string(), "go: movetime needs a value");
        let (g, w) = play("searchmoves 7g7f 2g2f movetime 100", &GoField::ALL);
        assert_eq!(w, [GoIssue::SearchMovesIgnored]);
        assert_eq!(g.movetime, Some(100));
    }

    #[test]
    fn fields_a_program_does_not_read_are_unknown_words() {
        let (g, w) = play("depth btime 100 nodes x", &GoField::CLOCK);
        assert_eq!(g.btime, Some(100));
        assert_eq!(g.depth, None);
        assert!(w.iter().all(|i| matches!(i, GoIssue::UnknownField(_))), "{w:?}");
        let (g, w) = play("depth btime 100", &GoField::ALL);
        assert_eq!((g.btime, w.len()), (None, 2));
    }
}
