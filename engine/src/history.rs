//! Move-ordering memory shared across the search: the butterfly history of quiet moves
//! (by side, origin-or-dropped-kind and destination), killer moves per ply, and the
//! counter-move table (the reply that refuted a given move).

use shogi::{Color, Move};

/// Origins: 81 squares, then the seven hand kinds for drops.
const FROMS: usize = 81 + 8;
/// History values stay within ±`HISTORY_MAX` (gravity update).
pub const HISTORY_MAX: i32 = 16384;

/// Deepest ply the search keeps per-ply tables for.
pub const MAX_PLY: usize = 128;

pub struct History {
    butterfly: Vec<i16>,
    counter: Vec<u16>,
    killers: [[Move; 2]; MAX_PLY + 2],
}

#[inline(always)]
fn from_index(m: Move) -> usize {
    match m.dropped() {
        Some(kind) => 81 + kind.index(),
        None => m.from().index(),
    }
}

#[inline(always)]
fn index(color: Color, m: Move) -> usize {
    (color.index() * FROMS + from_index(m)) * 81 + m.to().index()
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    pub fn new() -> History {
        History {
            butterfly: vec![0; 2 * FROMS * 81],
            counter: vec![0; 2 * FROMS * 81],
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
        }
    }

    pub fn clear(&mut self) {
        self.butterfly.iter_mut().for_each(|h| *h = 0);
        self.counter.iter_mut().for_each(|c| *c = 0);
        self.clear_killers();
    }

    /// Killers belong to one search tree.
    pub fn clear_killers(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
    }

    /// Halves every history value (between searches, so old knowledge fades).
    pub fn age(&mut self) {
        self.butterfly.iter_mut().for_each(|h| *h /= 2);
    }

    #[inline(always)]
    pub fn get(&self, color: Color, m: Move) -> i32 {
        self.butterfly[index(color, m)] as i32
    }

    /// Gravity update: `bonus` moves the value towards ±HISTORY_MAX and never past it.
    #[inline(always)]
    pub fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let slot = &mut self.butterfly[index(color, m)];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let v = *slot as i32;
        *slot = (v + b - v * b.abs() / HISTORY_MAX) as i16;
    }

    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply.min(MAX_PLY + 1)]
    }

    #[inline(always)]
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply.min(MAX_PLY + 1)];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
    }

    /// The remembered reply to `previous` (played by the opponent of `color`).
    #[inline(always)]
    pub fn counter(&self, color: Color, previous: Move) -> Move {
        if previous.is_null() {
            return Move::NULL;
        }
        Move::from_raw(self.counter[index(!color, previous)])
    }

    #[inline(always)]
    pub fn set_counter(&mut self, color: Color, previous: Move, reply: Move) {
        if !previous.is_null() {
            self.counter[index(!color, previous)] = reply.raw();
        }
    }
}
