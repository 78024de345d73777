//! What a search is asked and what it tells.

use shogi::Move;
use std::time::Duration;

/// Limits set by the `go` command itself (time is in [`crate::SearchControl`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Maximum nominal depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Number of principal variations to report (USI MultiPV); 1 by default.
    pub multipv: u32,
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (a pawn is 100).
    Cp(i32),
    /// Mate in this many plies: positive when the side to move mates, negative when it is mated.
    Mate(i32),
}

/// One report of the search (a USI `info` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub elapsed: Duration,
    pub nodes: u64,
    /// Transposition-table fill in permille.
    pub hashfull: u32,
    /// 1-based index when MultiPV > 1.
    pub multipv: u32,
    pub score: Score,
    pub pv: Vec<Move>,
    /// A report in words instead of numbers (an `info string`), e.g. the replies a ponder
    /// searches.
    pub note: Option<String>,
}

impl SearchInfo {
    /// A report in words.
    pub fn note(text: String) -> SearchInfo {
        SearchInfo {
            depth: 0,
            seldepth: 0,
            elapsed: Duration::ZERO,
            nodes: 0,
            hashfull: 0,
            multipv: 0,
            score: Score::Cp(0),
            pv: Vec::new(),
            note: Some(text),
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move to play; `None` means resign (no legal move, or lost and nothing better).
    pub best: Option<Move>,
    /// The expected reply, for `bestmove ... ponder ...`.
    pub ponder: Option<Move>,
    /// The side to move may declare a win by the 27-point rule (`bestmove win`).
    pub declare_win: bool,
    pub score: Score,
    pub nodes: u64,
    /// Something the user should hear about this answer (an `info string`), e.g. that it came
    /// from a search made while pondering.
    pub note: Option<String>,
}
