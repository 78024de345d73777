//! The attacker's checks in shtsume's order (`generate_check`, ncheck.c). Being ported.

use super::{Entry, ProvenLookup};
use shogi::Position;

/// The checks of the side to move, one [`Entry`] each, in the order of shtsume's list.
pub fn checks(_pos: &Position, _table: &dyn ProvenLookup, _ply: u16) -> Vec<Entry> {
    Vec::new()
}
