//! shtsume's position table (`tbase`, ntbase.c). Being ported.

use super::{Entry, ProvenLookup};
use shogi::{Color, Position};

/// The table: what is known of each position for the attacker's hand.
#[derive(Default)]
pub struct Table {
    /// The root's pn (`g_root_pn`): updates of unsolved positions are skipped above
    /// `INFINITE - root_pn`.
    pub root_pn: u16,
}

/// A position marked as on the current path (`tbase_set_current`), to be cleared after.
#[derive(Clone, Copy, Debug)]
pub struct CurrentMark(pub usize);

impl Table {
    pub fn new(_megabytes: usize) -> Table {
        Table::default()
    }
    /// Fills `entry`'s numbers from what is known of `pos` (`tbase_lookup`).
    pub fn lookup(&mut self, _pos: &Position, _ply: u16, _attacker: Color, _entry: &mut Entry) {}
    /// Stores `entry`'s numbers for `pos` (`tbase_update`).
    pub fn update(&mut self, _pos: &Position, _ply: u16, _attacker: Color, _entry: &Entry) {}
    /// Marks `pos` as on the path with the threshold pn it is searched under
    /// (`tbase_set_current`).
    pub fn set_current(
        &mut self,
        _pos: &Position,
        _ply: u16,
        _attacker: Color,
        _entry: &Entry,
    ) -> Option<CurrentMark> {
        None
    }
    pub fn clear_current(&mut self, _mark: CurrentMark) {}
}

impl ProvenLookup for Table {
    fn is_proven(&self, _pos: &Position, _ply: u16) -> bool {
        false
    }
}
