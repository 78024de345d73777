//! A question about a position's *other* moves: "does any check but these mate?", searched as
//! one OR node, the position with the given moves left out of its root.
//!
//! The composer's report asks it at each attacker move of the main line (the main move left
//! out): one df-pn over every other check, on one table, where a defence that refutes one check
//! refutes its siblings through the table (hand dominance, disproof pieces, transpositions) and
//! the root spreads the effort by its numbers, instead of one capped question a check. A "no"
//! settles every sibling at once; a "yes" names the checks proven, which the caller leaves out
//! too before it asks again.
//!
//! The root's value is not the position's (some of its moves are missing): it is never stored,
//! and the root's own table entry (the position's proof, by the move left out) is not read. Any
//! other node is the position it is, and keeps its entries as in every search.

use super::children::Edge;
use super::dfpn::Search;
use super::{new_search, walk_in, Asked};
use crate::config::SolverConfig;
use crate::repetition_table::RepetitionTable;
use crate::tt::{Table, UNBOUNDED};
use shogi::Move;

/// The moves left out of the node at one ply of the search's path (the question's root).
pub(super) struct LeftOut {
    /// The root's ply, as `mid` counts it (the length of the path with the root on it).
    pub(super) ply: usize,
    pub(super) moves: Vec<Move>,
}

/// What a question about the other moves of a position came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OtherMoves {
    /// None of the other checks mates (each is disproven, for any depth).
    NoMate,
    /// These other checks mate (at least one; the root's proven children).
    Mates(Vec<Move>),
    /// No other check mates within this many plies (the root's disproof, the checks
    /// counted: at least the depth limit); one may beyond it.
    DepthLimited(u16),
    /// The node cap, the time or `stop` ended it first.
    Open,
}

/// A question about the other moves and the nodes it took.
#[derive(Clone, Debug)]
pub struct OtherMovesResult {
    pub answer: OtherMoves,
    pub nodes: u64,
}

impl Search<'_> {
    /// Whether the node at the end of the path (being expanded) is a root with moves left out,
    /// and so not the position it stands on.
    #[inline]
    pub(super) fn is_left_out_root(&self) -> bool {
        self.left_out.as_ref().is_some_and(|l| l.ply == self.path.len())
    }
}

/// "Does any check of the position `asked` reaches, but `left_out`, mate?" on `table`, one
/// thread (see the module doc). The position must have the attacker to move.
pub(super) fn other_moves_on(
    table: &Table,
    repetitions: &mut RepetitionTable,
    config: &SolverConfig,
    asked: &Asked<'_>,
    left_out: &[Move],
) -> OtherMovesResult {
    let &Asked { origin, prefix, attacker, limits, stop } = asked;
    let mut check = origin.clone();
    for &m in prefix {
        if !shogi::movegen::is_legal(&check, m) {
            return OtherMovesResult { answer: OtherMoves::Open, nodes: 0 };
        }
        check.make_move(m);
    }
    if check.side_to_move() != attacker {
        return OtherMovesResult { answer: OtherMoves::Open, nodes: 0 };
    }
    let mut search = new_search(table, repetitions, config, origin, attacker, limits);
    search.stop = stop;
    let mut root = walk_in(&mut search, origin, prefix);
    let ply = search.path.len();
    search.left_out = Some(LeftOut { ply, moves: left_out.to_vec() });
    let depth = config.max_ply.saturating_sub(prefix.len().min(u16::MAX as usize) as u16);
    // Searched, never recalled: the table's entry for the root is the whole position's.
    let value = search.prove(&mut root, depth);
    let answer = if search.aborted {
        OtherMoves::Open
    } else if value.is_proven() {
        // The root's frame, as `mid` left it: its proven children are the mating checks.
        let proven: Vec<Move> = search
            .arena
            .get(ply)
            .and_then(Option::as_ref)
            .map(|frame| {
                let mates = frame
                    .children
                    .iter()
                    .filter(|c| c.edge == Edge::Move && c.estimated && c.value.is_proven());
                mates.map(|c| c.mv).collect()
            })
            .unwrap_or_default();
        if proven.is_empty() {
            OtherMoves::Open
        } else {
            OtherMoves::Mates(proven)
        }
    } else if value.is_disproven() && value.depth == UNBOUNDED {
        OtherMoves::NoMate
    } else if value.is_disproven() {
        OtherMoves::DepthLimited(value.depth)
    } else {
        OtherMoves::Open
    };
    OtherMovesResult { answer, nodes: search.nodes }
}

impl super::Solver {
    /// What the table alone says of the position `prefix` reaches from `origin` (see
    /// [`known_on`]).
    pub fn known_after(
        &mut self,
        origin: &shogi::Position,
        prefix: &[Move],
        attacker: shogi::Color,
    ) -> Option<bool> {
        known_on(&self.table, &mut self.repetitions, &self.config, origin, prefix, attacker)
    }
}

/// What `table` alone says of the position `prefix` reaches from `origin` (its way's
/// positions on the path): `Some(true)` proven, `Some(false)` disproven for any depth (or a
/// repetition of the way), `None` not known or not legal. A few lookups, no search.
pub(super) fn known_on(
    table: &Table,
    repetitions: &mut RepetitionTable,
    config: &SolverConfig,
    origin: &shogi::Position,
    prefix: &[Move],
    attacker: shogi::Color,
) -> Option<bool> {
    let mut check = origin.clone();
    for &m in prefix {
        if !shogi::movegen::is_legal(&check, m) {
            return None;
        }
        check.make_move(m);
    }
    let limits = crate::outcome::Limits::default();
    let mut search = new_search(table, repetitions, config, origin, attacker, &limits);
    let root = walk_in(&mut search, origin, prefix);
    if search.is_repetition() {
        return Some(false);
    }
    let depth = config.max_ply.saturating_sub(prefix.len().min(u16::MAX as usize) as u16);
    match search.recall(&root, depth) {
        Some(v) if v.is_proven() => Some(true),
        Some(v) if v.depth == UNBOUNDED => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Limits;
    use shogi::Position;
    use std::sync::atomic::AtomicBool;

    fn ask(sfen: &str, left_out: &[&str]) -> OtherMoves {
        let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{e}"));
        let left: Vec<Move> = left_out
            .iter()
            .map(|m| pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{e}")))
            .collect();
        let table = Table::new(16, false);
        let mut repetitions = RepetitionTable::default();
        let config = SolverConfig::default();
        let limits = Limits { time: None, nodes: Some(1_000_000) };
        let stop = AtomicBool::new(false);
        let asked = Asked {
            origin: &pos,
            prefix: &[],
            attacker: shogi::Color::Black,
            limits: &limits,
            stop: &stop,
        };
        other_moves_on(&table, &mut repetitions, &config, &asked, &left).answer
    }

    /// A gold in hand before a lone king on 5a with a pawn on 5c: G*5b mates at once, and so
    /// does nothing else. Left out, no other check mates; not left out, it is the mate named.
    #[test]
    fn the_mate_left_out_leaves_no_mate_and_is_named_when_not() {
        let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
        assert_eq!(ask(sfen, &["G*5b"]), OtherMoves::NoMate);
        match ask(sfen, &[]) {
            OtherMoves::Mates(m) => assert_eq!(
                m.iter().map(ToString::to_string).collect::<Vec<_>>(),
                vec!["G*5b".to_string()]
            ),
            other => panic!("{other:?}"),
        }
    }
}
