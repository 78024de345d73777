//! A validated position: placement, hands, side to move, keys, and make/unmake.
//!
//! Make/unmake keeps a stack of small [`State`] records rather than copying the position: that
//! stack is also the key history that repetition detection reads, so it is kept anyway, and a
//! move touches a few words instead of the ~420 bytes of board arrays a copy would move.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::hand::Hand;
use crate::moves::Move;
use crate::piece::{Piece, PieceKind};
use crate::square::Square;
use crate::zobrist;

/// What a move changed, kept for unmake and for the repetition history.
#[derive(Copy, Clone, Debug)]
pub(crate) struct State {
    pub board_key: u64,
    pub hand_key: u64,
    /// Pieces giving check to the side to move.
    pub checkers: Bitboard,
    /// Pieces of the side to move that shield its king from an enemy slider.
    pub pinned: Bitboard,
    /// The piece the move that led here captured (`EMPTY` if none).
    pub captured: Piece,
    /// The move that led here (`NULL` at the root).
    pub last_move: Move,
    /// The SFEN move number; kept here so that unmake restores it exactly even where
    /// make saturates.
    pub ply: u32,
}

#[derive(Clone)]
pub struct Position {
    board: [Piece; Square::NUM],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; PieceKind::NUM],
    /// Gold and the four promoted minors: they all move like a gold.
    golds: Bitboard,
    hands: [Hand; 2],
    side: Color,
    kings: [Option<Square>; 2],
    state: State,
    history: Vec<State>,
}

impl Position {
    /// An empty board, Black to move: the starting point for building a position from a setup.
    pub(crate) fn empty() -> Position {
        Position {
            board: [Piece::EMPTY; Square::NUM],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; PieceKind::NUM],
            golds: Bitboard::EMPTY,
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            kings: [None; 2],
            state: State {
                board_key: 0,
                hand_key: 0,
                checkers: Bitboard::EMPTY,
                pinned: Bitboard::EMPTY,
                captured: Piece::EMPTY,
                last_move: Move::NULL,
                ply: 1,
            },
            history: Vec::with_capacity(256),
        }
    }

    /// Fills in keys, checkers and pins after the placement was set up piece by piece.
    pub(crate) fn finish_setup(&mut self, hands: [Hand; 2], side: Color, ply: u32) {
        self.hands = hands;
        self.side = side;
        self.state.ply = ply;
        self.state.board_key = self.compute_board_key();
        self.state.hand_key = self.compute_hand_key();
        self.update_check_info();
    }

    // ----- queries -------------------------------------------------------------------------

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// The SFEN move number.
    #[inline(always)]
    pub fn ply(&self) -> u32 {
        self.state.ply
    }
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }
    #[inline(always)]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }
    #[inline(always)]
    pub fn pieces_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }
    /// Pieces of `color` that move like a gold (gold and promoted minors).
    #[inline(always)]
    pub fn golds(&self, color: Color) -> Bitboard {
        self.golds & self.by_color[color.index()]
    }
    /// The king of `color`; tsume positions have no attacker king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }
    /// The key of pieces on the board and the side to move.
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.state.board_key
    }
    /// The key of both hands.
    #[inline(always)]
    pub fn hand_key(&self) -> u64 {
        self.state.hand_key
    }
    /// The key of the whole position.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.state.board_key ^ self.state.hand_key
    }
    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.state.checkers
    }
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.state.checkers.is_nonempty()
    }
    /// Pieces of the side to move pinned against its own king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.state.pinned
    }
    /// The board key after the legal move `m`, without making it (to prefetch a table entry).
    #[inline]
    pub fn board_key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let to = m.to();
        let mut key = self.state.board_key ^ zobrist::side();
        match m.dropped() {
            Some(kind) => key ^= zobrist::piece_square(Piece::new(us, kind), to),
            None => {
                let from = m.from();
                let piece = self.board[from.index()];
                let captured = self.board[to.index()];
                if !captured.is_empty() {
                    key ^= zobrist::piece_square(captured, to);
                }
                let moved =
                    if m.is_promotion() { Piece::new(us, piece.kind().promote()) } else { piece };
                key ^= zobrist::piece_square(piece, from) ^ zobrist::piece_square(moved, to);
            }
        }
        key
    }

    /// The key of the whole position after the legal move `m`, without making it: a search
    /// asks the memory for the child's table entry before it makes the move, so that the
    /// fetch overlaps with the making.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let hand_key = match m.dropped() {
            Some(kind) => self.state.hand_key.wrapping_sub(zobrist::hand_piece(us, kind)),
            None => match self.board[m.to().index()].get() {
                Some((_, kind)) => {
                    let kind = kind.unpromote();
                    self.state.hand_key.wrapping_add(zobrist::hand_piece(us, kind))
                }
                None => self.state.hand_key,
            },
        };
        self.board_key_after(m) ^ hand_key
    }

    /// The piece the last move captured (`Piece::EMPTY` if none).
    pub fn last_captured(&self) -> Piece {
        self.state.captured
    }

    /// The move that led to this position, `NULL` at the root of the history.
    pub fn last_move(&self) -> Move {
        self.state.last_move
    }
    /// How many moves have been made since the position was set up.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    // ----- attacks -------------------------------------------------------------------------

    /// Pieces of `color` that attack `sq`, with `occ` as the occupancy for sliders.
    #[inline]
    pub fn attackers_to(&self, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
        use PieceKind::*;
        let them = !color;
        let k = &self.by_kind;
        let step = (attacks::pawn(them, sq) & k[Pawn.index()])
            | (attacks::knight(them, sq) & k[Knight.index()])
            | (attacks::silver(them, sq) & k[Silver.index()])
            | (attacks::gold(them, sq) & self.golds)
            | (attacks::king(sq) & (k[King.index()] | k[Horse.index()] | k[Dragon.index()]))
            | (attacks::lance(them, sq, occ) & k[Lance.index()])
            | (attacks::bishop(sq, occ) & (k[Bishop.index()] | k[Horse.index()]))
            | (attacks::rook(sq, occ) & (k[Rook.index()] | k[Dragon.index()]));
        step & self.by_color[color.index()]
    }

    /// Whether `color` attacks `sq` with occupancy `occ`. Stops at the first kind found, and
    /// looks a slider's attacks up only when one of `color`'s sliders stands on its lines from
    /// `sq`: a king's escape squares are asked this eight at a time, at every node of the mate
    /// solver, and most are taken by a step piece or by no slider at all.
    #[inline]
    pub fn is_attacked(&self, color: Color, sq: Square, occ: Bitboard) -> bool {
        use PieceKind::*;
        let them = !color;
        let k = &self.by_kind;
        let ours = self.by_color[color.index()];
        let step = (attacks::pawn(them, sq) & k[Pawn.index()])
            | (attacks::knight(them, sq) & k[Knight.index()])
            | (attacks::silver(them, sq) & k[Silver.index()])
            | (attacks::gold(them, sq) & self.golds)
            | (attacks::king(sq) & (k[King.index()] | k[Horse.index()] | k[Dragon.index()]));
        if (step & ours).is_nonempty() {
            return true;
        }
        let rooks = (k[Rook.index()] | k[Dragon.index()]) & ours;
        if (attacks::rook_empty(sq) & rooks).is_nonempty()
            && (attacks::rook(sq, occ) & rooks).is_nonempty()
        {
            return true;
        }
        let bishops = (k[Bishop.index()] | k[Horse.index()]) & ours;
        if (attacks::bishop_empty(sq) & bishops).is_nonempty()
            && (attacks::bishop(sq, occ) & bishops).is_nonempty()
        {
            return true;
        }
        let lances = k[Lance.index()] & ours;
        (attacks::lance_empty(them, sq) & lances).is_nonempty()
            && (attacks::lance(them, sq, occ) & lances).is_nonempty()
    }

    /// Pieces (of either colour) that are the only piece between `king_sq` and a slider of
    /// `slider_color` aimed at it: pins when they belong to the king's side, discovered-check
    /// candidates when they belong to the slider's side.
    #[inline]
    pub fn slider_blockers(&self, slider_color: Color, king_sq: Square) -> Bitboard {
        use PieceKind::*;
        let k = &self.by_kind;
        let king_color = !slider_color;
        let snipers = ((attacks::rook_empty(king_sq) & (k[Rook.index()] | k[Dragon.index()]))
            | (attacks::bishop_empty(king_sq) & (k[Bishop.index()] | k[Horse.index()]))
            | (attacks::lance_empty(king_color, king_sq) & k[Lance.index()]))
            & self.by_color[slider_color.index()];
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(s, king_sq) & occ;
            if b.is_nonempty() && !b.has_more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    fn update_check_info(&mut self) {
        let us = self.side;
        match self.kings[us.index()] {
            Some(ksq) => {
                self.state.checkers = self.attackers_to(!us, ksq, self.occupied());
                self.state.pinned = self.slider_blockers(!us, ksq) & self.by_color[us.index()];
            }
            None => {
                self.state.checkers = Bitboard::EMPTY;
                self.state.pinned = Bitboard::EMPTY;
            }
        }
    }

    // ----- placement -----------------------------------------------------------------------

    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        let kind = piece.kind();
        self.board[sq.index()] = piece;
        self.by_color[piece.color().index()] |= bb;
        self.by_kind[kind.index()] |= bb;
        if kind.moves_like_gold() {
            self.golds |= bb;
        }
        if kind == PieceKind::King {
            self.kings[piece.color().index()] = Some(sq);
        }
    }

    #[inline(always)]
    fn remove(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        let kind = piece.kind();
        self.board[sq.index()] = Piece::EMPTY;
        self.by_color[piece.color().index()] ^= bb;
        self.by_kind[kind.index()] ^= bb;
        if kind.moves_like_gold() {
            self.golds ^= bb;
        }
    }

    // ----- make / unmake -------------------------------------------------------------------

    /// Plays a legal move. Passing an illegal move leaves the position inconsistent.
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let us = self.side;
        self.history.push(self.state);
        let mut board_key = self.state.board_key ^ zobrist::side();
        let mut hand_key = self.state.hand_key;
        let to = m.to();
        let mut captured = Piece::EMPTY;
        match m.dropped() {
            Some(kind) => {
                let piece = Piece::new(us, kind);
                self.hands[us.index()].remove(kind);
                hand_key = hand_key.wrapping_sub(zobrist::hand_piece(us, kind));
                self.put(to, piece);
                board_key ^= zobrist::piece_square(piece, to);
            }
            None => {
                let from = m.from();
                let piece = self.board[from.index()];
                captured = self.board[to.index()];
                if !captured.is_empty() {
                    self.remove(to, captured);
                    board_key ^= zobrist::piece_square(captured, to);
                    let kind = captured.kind().unpromote();
                    self.hands[us.index()].add(kind);
                    hand_key = hand_key.wrapping_add(zobrist::hand_piece(us, kind));
                }
                self.remove(from, piece);
                board_key ^= zobrist::piece_square(piece, from);
                let moved =
                    if m.is_promotion() { Piece::new(us, piece.kind().promote()) } else { piece };
                self.put(to, moved);
                board_key ^= zobrist::piece_square(moved, to);
            }
        }
        self.side = !us;
        self.state.ply = self.state.ply.saturating_add(1);
        self.state.board_key = board_key;
        self.state.hand_key = hand_key;
        self.state.captured = captured;
        self.state.last_move = m;
        self.update_check_info();
    }

    /// Takes back the last move made with [`make_move`](Self::make_move).
    #[inline]
    pub fn unmake_move(&mut self) {
        let m = self.state.last_move;
        let captured = self.state.captured;
        let Some(previous) = self.history.pop() else {
            debug_assert!(false, "unmake_move with no move made");
            return;
        };
        let us = !self.side;
        let to = m.to();
        let moved = self.board[to.index()];
        self.remove(to, moved);
        match m.dropped() {
            Some(kind) => self.hands[us.index()].add(kind),
            None => {
                let from = m.from();
                let original =
                    if m.is_promotion() { Piece::new(us, moved.kind().unpromote()) } else { moved };
                self.put(from, original);
                if !captured.is_empty() {
                    self.put(to, captured);
                    self.hands[us.index()].remove(captured.kind().unpromote());
                }
            }
        }
        self.side = us;
        self.state = previous;
    }

    /// Passes the turn (for null-move search); undone by [`unmake_null_move`](Self::unmake_null_move).
    /// Must not be called in check.
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.in_check());
        self.history.push(self.state);
        self.state.board_key ^= zobrist::side();
        self.state.captured = Piece::EMPTY;
        self.state.last_move = Move::NULL;
        self.side = !self.side;
        self.state.ply = self.state.ply.saturating_add(1);
        self.update_check_info();
    }

    pub fn unmake_null_move(&mut self) {
        if let Some(previous) = self.history.pop() {
            self.side = !self.side;
            self.state = previous;
        }
    }

    /// Moves one piece of `kind` from the hand of `from` to the other side's hand, the side to
    /// move unchanged: a position no move reaches, which a mate solver builds to ask "and if
    /// the defender had kept that piece?". Undone by
    /// [`unmake_hand_transfer`](Self::unmake_hand_transfer); `from` must hold such a piece.
    pub fn make_hand_transfer(&mut self, kind: PieceKind, from: Color) {
        debug_assert!(self.hands[from.index()].count(kind) > 0);
        self.history.push(self.state);
        self.hands[from.index()].remove(kind);
        self.hands[(!from).index()].add(kind);
        let key = self.state.hand_key.wrapping_sub(zobrist::hand_piece(from, kind));
        self.state.hand_key = key.wrapping_add(zobrist::hand_piece(!from, kind));
        // The piece and the side it came from, for the unmake.
        self.state.captured = Piece::new(from, kind);
        self.state.last_move = Move::NULL;
    }

    /// Takes back the last [`make_hand_transfer`](Self::make_hand_transfer).
    pub fn unmake_hand_transfer(&mut self) {
        let moved = self.state.captured;
        let Some(previous) = self.history.pop() else {
            debug_assert!(false, "unmake_hand_transfer with nothing made");
            return;
        };
        if let Some((from, kind)) = moved.get() {
            self.hands[(!from).index()].remove(kind);
            self.hands[from.index()].add(kind);
        }
        self.state = previous;
    }

    // ----- keys from scratch (for setup and for tests of the incremental keys) --------------

    pub fn compute_board_key(&self) -> u64 {
        let mut key = if self.side == Color::White { zobrist::side() } else { 0 };
        for sq in self.occupied() {
            key ^= zobrist::piece_square(self.board[sq.index()], sq);
        }
        key
    }

    pub fn compute_hand_key(&self) -> u64 {
        let mut key = 0u64;
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                let n = self.hands[color.index()].count(kind) as u64;
                key = key.wrapping_add(n.wrapping_mul(zobrist::hand_piece(color, kind)));
            }
        }
        key
    }

    /// The states of the earlier positions, oldest first, and the current one.
    pub(crate) fn state_history(&self) -> (&[State], &State) {
        (&self.history, &self.state)
    }
}

impl PartialEq for Position {
    /// Positions are equal when placement, hands and side to move are; history is ignored.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board && self.hands == other.hands && self.side == other.side
    }
}
