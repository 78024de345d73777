//! Move-ordering memory shared across the search: the butterfly history of quiet moves
//! (by side, origin-or-dropped-kind and destination), the continuation history (how good a
//! piece's move to a square is as the follow-up of an earlier piece-to-square move, one and two
//! plies back), the capture history (how often a piece taking a kind on a square has been
//! best), killer moves per ply, and the counter-move table (the reply that refuted a given
//! move).

use shogi::{Color, Move, Piece, PieceKind, Position};

/// Origins: 81 squares, then the seven hand kinds for drops.
const FROMS: usize = 81 + 8;
/// History values stay within ±`HISTORY_MAX` (gravity update).
pub const HISTORY_MAX: i32 = 16384;

/// Deepest ply the search keeps per-ply tables for.
pub const MAX_PLY: usize = 128;

/// A moved piece and its destination: `piece index · 81 + square` (see [`piece_to`]).
pub type PieceTo = usize;
/// No continuation (a null move, or before the root).
pub const NO_PIECE_TO: PieceTo = usize::MAX;
const PIECE_TO: usize = Piece::NUM * 81;

/// The piece-to index of `m` as played in `pos` (before the move): the piece after promotion.
#[inline(always)]
pub fn piece_to(pos: &Position, m: Move) -> PieceTo {
    let piece = match m.dropped() {
        Some(kind) => Piece::new(pos.side_to_move(), kind),
        None => {
            let p = pos.piece_at(m.from());
            if m.is_promotion() {
                Piece::new(p.color(), p.kind().promote())
            } else {
                p
            }
        }
    };
    piece.index() * 81 + m.to().index()
}

pub struct History {
    butterfly: Vec<i16>,
    /// `[earlier piece-to][piece-to]`, shared by the one- and two-ply continuations.
    continuation: Vec<i16>,
    /// `[piece-to][captured kind]` of captures and promotions (kind 0: a promotion that takes
    /// nothing).
    capture: Vec<i16>,
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
            continuation: vec![0; PIECE_TO * PIECE_TO],
            capture: vec![0; PIECE_TO * PieceKind::NUM],
            counter: vec![0; 2 * FROMS * 81],
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
        }
    }

    pub fn clear(&mut self) {
        self.butterfly.iter_mut().for_each(|h| *h = 0);
        self.continuation.iter_mut().for_each(|h| *h = 0);
        self.capture.iter_mut().for_each(|h| *h = 0);
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
        self.continuation.iter_mut().for_each(|h| *h /= 2);
        self.capture.iter_mut().for_each(|h| *h /= 2);
    }

    #[inline(always)]
    pub fn get(&self, color: Color, m: Move) -> i32 {
        self.butterfly[index(color, m)] as i32
    }

    /// The continuation value of a move (`to`, a piece-to index) after `earlier`.
    #[inline(always)]
    pub fn continuation(&self, earlier: PieceTo, to: PieceTo) -> i32 {
        if earlier == NO_PIECE_TO {
            0
        } else {
            self.continuation[earlier * PIECE_TO + to] as i32
        }
    }

    /// Butterfly plus both continuations: the history score of a quiet move.
    #[inline(always)]
    pub fn quiet_score(&self, color: Color, m: Move, to: PieceTo, earlier: [PieceTo; 2]) -> i32 {
        self.get(color, m) + self.continuation(earlier[0], to) + self.continuation(earlier[1], to)
    }

    /// Rewards (or, with a negative bonus, punishes) a quiet move in all three tables.
    #[inline(always)]
    pub fn update(
        &mut self,
        color: Color,
        m: Move,
        to: PieceTo,
        earlier: [PieceTo; 2],
        bonus: i32,
    ) {
        gravity(&mut self.butterfly[index(color, m)], bonus);
        for e in earlier {
            if e != NO_PIECE_TO {
                gravity(&mut self.continuation[e * PIECE_TO + to], bonus);
            }
        }
    }

    /// The capture-history value of a capture or promotion `m` in `pos` (`to`: its piece-to
    /// index).
    #[inline(always)]
    pub fn capture_score(&self, pos: &Position, m: Move, to: PieceTo) -> i32 {
        self.capture[capture_index(pos, m, to)] as i32
    }

    /// Rewards (or punishes) a capture or promotion.
    #[inline(always)]
    pub fn update_capture(&mut self, pos: &Position, m: Move, to: PieceTo, bonus: i32) {
        gravity(&mut self.capture[capture_index(pos, m, to)], bonus);
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

#[inline(always)]
fn capture_index(pos: &Position, m: Move, to: PieceTo) -> usize {
    let victim =
        if m.is_drop() { 0 } else { pos.piece_at(m.to()).get().map_or(0, |(_, k)| k.index()) };
    to * PieceKind::NUM + victim
}

/// Gravity update: `bonus` moves the value towards ±HISTORY_MAX and never past it.
#[inline(always)]
fn gravity(slot: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *slot as i32;
    *slot = (v + b - v * b.abs() / HISTORY_MAX) as i16;
}
