//! shtsume's working copy of a position (`sdata_t`, base.c), as its evasion generator sees it.
//!
//! shtsume does not ask a legal-move generator whether an interposition is futile: it edits a
//! copy of the position in ways no move makes (the checker slid to the interposition square
//! with the defender still to move, an interposer lifted off the board into a hand) and reads
//! what it keeps beside the board. What it keeps is not always what the board says: the pins
//! are only those of the side to move, the checkers are recounted only by some edits and
//! otherwise left as they were. The replica has to keep the same stale state, or its futility
//! rulings part from shtsume's; hence this struct rather than [`Position`]. Attacks come from
//! Tsumugi's tables; only the bookkeeping is shtsume's.

use super::{from_sht_index, sht_index};
use shogi::{attacks, Bitboard, Color, Piece, PieceKind, Position, Setup, Square};

/// The squares of `bb` in shtsume's order (`min_pos` repeatedly: 1a, 2a, ..., 9i).
pub(super) fn sht_order(bb: Bitboard) -> Vec<Square> {
    let mut squares: Vec<Square> = bb.collect();
    squares.sort_by_key(|&sq| sht_index(sq));
    squares
}

/// The first square of `bb` in shtsume's order (`min_pos`).
pub(super) fn sht_min(bb: Bitboard) -> Option<Square> {
    bb.min_by_key(|&sq| sht_index(sq))
}

/// The piece families shtsume keeps a bitboard for and visits one after the other. Gold and
/// the four promoted minors share one (`bb_tk`); bishop and horse, rook and dragon are visited
/// apart, except where shtsume uses its combined boards (`bb_uk`, `bb_rh`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Group {
    Pawn,
    Lance,
    Knight,
    Silver,
    Golds,
    Bishop,
    Rook,
    Horse,
    Dragon,
}

impl Group {
    /// The order in which shtsume asks who reaches a square (pawn, lance, knight, silver, golds,
    /// bishop, rook, horse, dragon).
    pub const REACH_ORDER: [Group; 9] = [
        Group::Pawn,
        Group::Lance,
        Group::Knight,
        Group::Silver,
        Group::Golds,
        Group::Bishop,
        Group::Rook,
        Group::Horse,
        Group::Dragon,
    ];

    fn kinds(self) -> &'static [PieceKind] {
        use PieceKind::*;
        match self {
            Group::Pawn => &[Pawn],
            Group::Lance => &[Lance],
            Group::Knight => &[Knight],
            Group::Silver => &[Silver],
            Group::Golds => &[Gold, ProPawn, ProLance, ProKnight, ProSilver],
            Group::Bishop => &[Bishop],
            Group::Rook => &[Rook],
            Group::Horse => &[Horse],
            Group::Dragon => &[Dragon],
        }
    }
}

/// A slider's lines as shtsume draws them when it looks for pins and open lines: a horse is
/// looked at as a bishop, a dragon as a rook.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Lines {
    Diagonal,
    Orthogonal,
}

impl Lines {
    pub fn attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
        match self {
            Lines::Diagonal => attacks::bishop(sq, occ),
            Lines::Orthogonal => attacks::rook(sq, occ),
        }
    }
    fn kinds(self) -> [PieceKind; 2] {
        match self {
            Lines::Diagonal => [PieceKind::Bishop, PieceKind::Horse],
            Lines::Orthogonal => [PieceKind::Rook, PieceKind::Dragon],
        }
    }
}

/// shtsume's file (0 = file 1), rank (0 = rank a) and two diagonal numbers (`g_rslp`,
/// `g_lslp`) of a square.
pub(super) fn file_of(sq: Square) -> usize {
    sht_index(sq) % 9
}
pub(super) fn rank_of(sq: Square) -> usize {
    sht_index(sq) / 9
}
pub(super) fn rslp(sq: Square) -> usize {
    rank_of(sq) + file_of(sq)
}
pub(super) fn lslp(sq: Square) -> usize {
    rank_of(sq) + 8 - file_of(sq)
}
pub(super) fn same_diagonal(a: Square, b: Square) -> bool {
    rslp(a) == rslp(b) || lslp(a) == lslp(b)
}

/// Whether a square is in `color`'s promotion zone (shtsume: index < 27 for Black, > 53 for
/// White).
pub(super) fn in_zone(color: Color, sq: Square) -> bool {
    sq.rank().is_promotion_zone(color)
}

/// Whether a piece of `kind` and `color` may stand on `dest` unpromoted (`n_move_check`, the
/// `*_NORMAL` tests): pawns and lances not on the last rank, knights not on the last two.
pub(super) fn may_stay_unpromoted(color: Color, kind: PieceKind, dest: Square) -> bool {
    let rel = dest.rank().relative_to(color);
    match kind {
        PieceKind::Pawn | PieceKind::Lance => rel >= 1,
        PieceKind::Knight => rel >= 2,
        _ => true,
    }
}

/// Whether moving `piece` from `src` to `dest` may promote (`KOMA_PROMOTE`).
pub(super) fn may_promote(piece: Piece, src: Square, dest: Square) -> bool {
    match piece.get() {
        Some((color, kind)) => kind.can_promote() && (in_zone(color, src) || in_zone(color, dest)),
        None => false,
    }
}

/// The squares strictly between the king and its checker, nearest the king first: the walk
/// shtsume makes (`dest += dir` from the king) when the checker is a slider two or more
/// squares away in a straight line; empty otherwise (`dir` stays 0).
pub(super) fn interposition_squares(king: Square, checker: Square) -> Vec<Square> {
    if attacks::between(king, checker).is_empty() {
        return Vec::new();
    }
    let df = (file_of(checker) as i32 - file_of(king) as i32).signum();
    let dr = (rank_of(checker) as i32 - rank_of(king) as i32).signum();
    let (mut f, mut r) = (file_of(king) as i32, rank_of(king) as i32);
    let mut squares = Vec::new();
    loop {
        f += df;
        r += dr;
        let sq = from_sht_index((r * 9 + f) as usize);
        if sq == checker {
            return squares;
        }
        squares.push(sq);
    }
}

/// A non-slider checker (pawn, knight, silver, golds, king) can only be captured or escaped:
/// shtsume then stops before interpositions (`g_is_skoma`). An empty square counts as a slider
/// there, as in its table.
pub(super) fn is_stepper(piece: Piece) -> bool {
    use PieceKind::*;
    match piece.get() {
        Some((_, kind)) => !matches!(kind, Lance | Bishop | Rook | Horse | Dragon),
        None => false,
    }
}

/// shtsume's `sdata_t`: the board, both hands, the side to move, each side's attacked squares
/// (`effect`), the side to move's pinned pieces (`pinned`) and its checkers (`n_oute`,
/// `attack`).
#[derive(Clone)]
pub(super) struct Sdata {
    board: [Piece; Square::NUM],
    by_color: [Bitboard; 2],
    /// Counts in hand, by `PieceKind::index()`.
    hands: [[u8; 8]; 2],
    pub side: Color,
    kings: [Option<Square>; 2],
    effect: [Bitboard; 2],
    /// Pieces of the side to move that shtsume holds pinned (`S_PINNED` non-zero). Left as it
    /// was when the side to move has no king (shtsume returns before clearing it).
    pinned: Bitboard,
    /// How many checkers (`S_NOUTE`, at most 2).
    pub checks: u8,
    /// The checkers (`S_ATTACK`); stale where shtsume does not recount them.
    pub checkers: [Square; 2],
}

impl Sdata {
    /// The view of a position (`initialize_sdata`): effects, pins and checks from scratch.
    pub fn from_position(pos: &Position) -> Sdata {
        let mut s = Sdata {
            board: [Piece::EMPTY; Square::NUM],
            by_color: [pos.pieces_of(Color::Black), pos.pieces_of(Color::White)],
            hands: [[0; 8]; 2],
            side: pos.side_to_move(),
            kings: [pos.king_square(Color::Black), pos.king_square(Color::White)],
            effect: [Bitboard::EMPTY; 2],
            pinned: Bitboard::EMPTY,
            checks: 0,
            checkers: [from_sht_index(0); 2],
        };
        for sq in Square::all() {
            s.board[sq.index()] = pos.piece_at(sq);
        }
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                s.hands[color.index()][kind.index()] = pos.hand(color).count(kind) as u8;
            }
        }
        s.refresh();
        s.checks = s.count_checks();
        s
    }

    /// The same board as a [`Position`], for the table; `None` where Tsumugi's rules refuse it
    /// (the side not to move in check, say).
    pub fn to_position(&self) -> Option<Position> {
        Setup { board: self.board, hands: self.hands, side: self.side, ply: 1 }.validate().ok()
    }

    pub fn piece(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }
    pub fn hand(&self, color: Color, kind: PieceKind) -> u8 {
        self.hands[color.index()][kind.index()]
    }
    /// Whether `color` holds anything in hand (`MKEY_EXIST`).
    pub fn holds_any(&self, color: Color) -> bool {
        self.hands[color.index()].iter().any(|&n| n > 0)
    }
    /// The squares `color` attacks, its king's included (`SEFFECT`, `GEFFECT`).
    pub fn effect(&self, color: Color) -> Bitboard {
        self.effect[color.index()]
    }
    pub fn is_pinned(&self, sq: Square) -> bool {
        self.pinned.contains(sq)
    }

    fn pieces_of_kinds(&self, color: Color, kinds: &[PieceKind]) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for sq in self.by_color[color.index()] {
            let piece = self.board[sq.index()];
            if kinds.contains(&piece.kind()) {
                bb |= Bitboard::from_square(sq);
            }
        }
        bb
    }
    pub fn pieces(&self, color: Color, group: Group) -> Bitboard {
        self.pieces_of_kinds(color, group.kinds())
    }
    /// Bishops and horses, or rooks and dragons, of `color` (`bb_uk`, `bb_rh`).
    pub fn line_pieces(&self, color: Color, lines: Lines) -> Bitboard {
        self.pieces_of_kinds(color, &lines.kinds())
    }

    /// The squares the piece on `sq` attacks through `occ`.
    pub fn attacks_from(&self, sq: Square, occ: Bitboard) -> Bitboard {
        match self.board[sq.index()].get() {
            Some((color, kind)) => attacks::attacks(color, kind, sq, occ),
            None => Bitboard::EMPTY,
        }
    }

    /// The pieces of `color` in `group` that attack `dest` (shtsume's reverse look-ups,
    /// `EFFECT_TBL(dest, ...) & BB_...`).
    pub fn reaching(&self, color: Color, group: Group, dest: Square) -> Bitboard {
        let occ = self.occupied();
        let mut bb = Bitboard::EMPTY;
        for sq in self.pieces(color, group) {
            if self.attacks_from(sq, occ).contains(dest) {
                bb |= Bitboard::from_square(sq);
            }
        }
        bb
    }

    /// Recomputes both sides' effects and the side to move's pins (`create_effect`,
    /// `create_pin`), as every edit does; the checkers are left to the caller.
    fn refresh(&mut self) {
        let occ = self.occupied();
        for color in Color::ALL {
            let mut effect = Bitboard::EMPTY;
            for sq in self.by_color[color.index()] {
                effect |= self.attacks_from(sq, occ);
            }
            self.effect[color.index()] = effect;
        }
        self.find_pins();
    }

    /// The side to move's pieces that stand alone between its king and an enemy slider on the
    /// slider's line (`create_pin`): where the king's ray and the slider's ray meet on a piece
    /// of the side to move. shtsume visits Black's lances from 1a on and White's from 9i back
    /// and stops at the first lance pin.
    fn find_pins(&mut self) {
        let us = self.side;
        let Some(ou) = self.king(us) else {
            return;
        };
        let them = !us;
        let occ = self.occupied();
        self.pinned = Bitboard::EMPTY;
        let mut lances = sht_order(self.pieces(them, Group::Lance));
        if them == Color::White {
            lances.reverse();
        }
        for src in lances {
            if file_of(ou) != file_of(src) {
                continue;
            }
            let meet = attacks::lance(us, ou, occ) & attacks::lance(them, src, occ);
            if let Some(pin) = sht_min(meet) {
                if self.is_own(pin, us) {
                    self.pinned |= Bitboard::from_square(pin);
                    break;
                }
            }
        }
        for lines in [Lines::Diagonal, Lines::Orthogonal] {
            for src in sht_order(self.line_pieces(them, lines)) {
                let aligned = match lines {
                    Lines::Diagonal => same_diagonal(ou, src),
                    Lines::Orthogonal => rank_of(ou) == rank_of(src) || file_of(ou) == file_of(src),
                };
                if !aligned {
                    continue;
                }
                let meet = lines.attacks(ou, occ) & lines.attacks(src, occ);
                if let Some(pin) = sht_min(meet) {
                    if self.is_own(pin, us) {
                        self.pinned |= Bitboard::from_square(pin);
                    }
                }
            }
        }
    }

    pub fn is_own(&self, sq: Square, color: Color) -> bool {
        self.board[sq.index()].get().is_some_and(|(c, _)| c == color)
    }

    /// Counts the checks on the side to move's king and records the checkers (`oute_check`):
    /// one per family that attacks it, the family's first square in shtsume's order; it stops
    /// at two. Leaves the old checkers where it finds none.
    fn count_checks(&mut self) -> u8 {
        let us = self.side;
        let Some(ou) = self.king(us) else {
            return 0;
        };
        let mut found = 0u8;
        for group in Group::REACH_ORDER {
            if let Some(sq) = sht_min(self.reaching(!us, group, ou)) {
                self.checkers[found as usize] = sq;
                found += 1;
                if found > 1 {
                    return found;
                }
            }
        }
        found
    }

    /// Recounts checks only where the side to move's king stands in the enemy's effect, as
    /// shtsume's moves and edits do; otherwise 0 checks and the checkers left stale.
    fn recount_checks(&mut self) {
        let us = self.side;
        let attacked = self.king(us).is_some_and(|ou| self.effect(!us).contains(ou));
        self.checks = if attacked { self.count_checks() } else { 0 };
    }

    fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = piece;
        self.by_color[piece.color().index()] |= Bitboard::from_square(sq);
        if piece.kind() == PieceKind::King {
            self.kings[piece.color().index()] = Some(sq);
        }
    }
    fn take(&mut self, sq: Square) -> Piece {
        let piece = self.board[sq.index()];
        self.board[sq.index()] = Piece::EMPTY;
        self.by_color[piece.color().index()] &= !Bitboard::from_square(sq);
        piece
    }

    /// The piece on `src` moved to the empty `dest` (promoted if asked), the side to move
    /// unchanged (`sdata_tentative_move`): "if the attacker's piece stood there". Checks are
    /// recounted the way a move recounts them.
    pub fn tentative_move(&self, src: Square, dest: Square, promote: bool) -> Sdata {
        debug_assert!(self.piece(dest).is_empty());
        let mut s = self.clone();
        let piece = s.take(src);
        let piece = if promote { Piece::new(piece.color(), piece.kind().promote()) } else { piece };
        s.put(dest, piece);
        s.refresh();
        s.recount_checks();
        s
    }

    /// The piece on `src` lifted off the board into a hand (`sdata_pickup_table`): the hand of
    /// its own side, or with `to_enemy` the other side's, unpromoted. Effects and pins are
    /// recomputed, the checks left as they were.
    pub fn pickup(&self, src: Square, to_enemy: bool) -> Sdata {
        let mut s = self.clone();
        let piece = s.take(src);
        let owner = if to_enemy { !piece.color() } else { piece.color() };
        s.hands[owner.index()][piece.kind().unpromote().index()] += 1;
        s.refresh();
        s
    }

    /// The side to move drops `kind` on `dest` and the turn passes (`sdata_move_forward` for a
    /// drop).
    pub fn after_drop(&self, kind: PieceKind, dest: Square) -> Sdata {
        let mut s = self.clone();
        s.hands[s.side.index()][kind.index()] -= 1;
        s.put(dest, Piece::new(s.side, kind));
        s.side = !s.side;
        s.refresh();
        s.recount_checks();
        s
    }

    /// Where the side to move's king may go (`evasion_bb`): its steps off its own pieces and
    /// off the enemy's effect, the checkers' lines redrawn without the king so that it cannot
    /// step back along them.
    pub fn king_escapes(&self) -> Bitboard {
        let us = self.side;
        let Some(ou) = self.king(us) else {
            return Bitboard::EMPTY;
        };
        let occ = self.occupied() & !Bitboard::from_square(ou);
        let mut through = self.attacks_from(self.checkers[0], occ);
        if self.checks == 2 {
            through |= self.attacks_from(self.checkers[1], occ);
        }
        attacks::king(ou) & !self.pieces_of(us) & !self.effect(!us) & !through
    }

    /// Whether `color` may drop a pawn on `dest`: no unpromoted pawn of its own on the file and
    /// not the last rank (`FU_CHECK`).
    pub fn pawn_drop_allowed(&self, color: Color, dest: Square) -> bool {
        let file_has_pawn = self.pieces(color, Group::Pawn).any(|sq| sq.file() == dest.file());
        !file_has_pawn && may_stay_unpromoted(color, PieceKind::Pawn, dest)
    }
}
