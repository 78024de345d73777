//! The defender's answers to a check in shtsume's order, its futile interpositions left out
//! (`generate_evasion`, nevasion.c). Being ported.

use super::{Entry, ProvenLookup};
use shogi::Position;

/// What `generate_evasion` returns and the two flags it leaves (`g_invalid_drops`,
/// `g_invalid_moves`).
#[derive(Clone, Debug, Default)]
pub struct Evasions {
    pub entries: Vec<Entry>,
    /// Some interposition by drop was left out as futile (`g_invalid_drops`).
    pub invalid_drops: bool,
    /// Some interposition by a move was left out as futile (`g_invalid_moves`).
    pub invalid_moves: bool,
}

/// The evasions of the side to move (in check), in the order of shtsume's list.
pub fn evasions(_pos: &Position, _table: &dyn ProvenLookup, _ply: u16) -> Evasions {
    Evasions::default()
}
