//! shtsume's static rules for futile interpositions (無駄合), from nevasion.c and ntbase.c.
//!
//! A tsume composer does not count an interposition that only lengthens the mate: the
//! attacker takes the piece and mates all the same. shtsume decides this before the search,
//! on edited copies of the position ([`Sdata`]): it slides the checker or another attacker
//! to the interposition square and asks its quick mate test ([`is_mated`]) or the table. The
//! rules are approximations, some asymmetric between Black and White defending; the replica
//! keeps each one as shtsume has it (the asymmetries are named where they occur), since the
//! goal is shtsume's list, not the true one.
//!
//! Two flags report what was left out (`g_invalid_drops`, `g_invalid_moves`): the search reads
//! them to know that a proof leaned on a futility ruling.

use super::evasions::Gen;
use super::sdata::{
    file_of, in_zone, lslp, may_promote, may_stay_unpromoted, rank_of, rslp, same_diagonal,
    sht_min, sht_order, Group, Lines, Sdata,
};
use super::sht_index;
use super::static_mate::{is_mated, king_cannot_move};
use shogi::{attacks, Bitboard, Color, Move, Piece, PieceKind, Square};

/// The attacker's pieces that shtsume holds pinned against the attacker's own king by the
/// defender's sliders (`set_tpin`): they are not slid to the interposition square. Unlike the
/// defender's pins, no lance stops the search and a lance's pin needs no check of its file.
fn attacker_pins(s: &Sdata) -> Bitboard {
    let us = s.side;
    let them = !us;
    let Some(eou) = s.king(them) else {
        return Bitboard::EMPTY;
    };
    let occ = s.occupied();
    let mut pins = Bitboard::EMPTY;
    let toward_king = attacks::lance(them, eou, occ);
    for src in sht_order(s.pieces(us, Group::Lance)) {
        if let Some(pin) = sht_min(attacks::lance(us, src, occ) & toward_king) {
            if s.is_own(pin, them) {
                pins |= Bitboard::from_square(pin);
            }
        }
    }
    for lines in [Lines::Diagonal, Lines::Orthogonal] {
        for src in sht_order(s.line_pieces(us, lines)) {
            let meet = lines.attacks(src, occ) & lines.attacks(eou, occ);
            let Some(pin) = sht_min(meet) else {
                continue;
            };
            let aligned = match lines {
                Lines::Diagonal => same_diagonal(eou, src),
                Lines::Orthogonal => rank_of(eou) == rank_of(src) || file_of(eou) == file_of(src),
            };
            if aligned && s.is_own(pin, them) {
                pins |= Bitboard::from_square(pin);
            }
        }
    }
    pins
}

/// shtsume's line masks (`g_bb_pin`), indexed as `check_back_risk` indexes them: `rslp + 30`
/// or `lslp + 17`. The table holds the thirteen diagonals of length three or more only, so the
/// short corner diagonals land on its neighbours or past its end; past the end are, in the
/// binary as built, sixteen zero bytes and then the mask of file 1. Kept so, to match.
fn line_mask(index: usize) -> Bitboard {
    let select = |pred: &dyn Fn(Square) -> bool| {
        Square::all()
            .filter(|&sq| pred(sq))
            .fold(Bitboard::EMPTY, |bb, sq| bb | Bitboard::from_square(sq))
    };
    match index {
        1..=9 => select(&|sq| rank_of(sq) == index - 1),
        10..=18 => select(&|sq| file_of(sq) == index - 10),
        19..=31 => select(&|sq| lslp(sq) == index - 17),
        32..=44 => select(&|sq| rslp(sq) == index - 30),
        46 => select(&|sq| file_of(sq) == 0),
        _ => Bitboard::EMPTY,
    }
}

/// Whether lifting the piece on `src` off the board may open a line from one of the side to
/// move's sliders onto the enemy king (`check_back_risk`): a slider on the line through the
/// king and `src`, on the far side of `src`. Squares between are not looked at.
fn check_back_risk(s: &Sdata, src: Square) -> bool {
    let us = s.side;
    let Some(eou) = s.king(!us) else {
        return false;
    };
    let (k, v) = (sht_index(eou), sht_index(src));
    let beyond = |pos: Square| {
        let p = sht_index(pos);
        (p < v && v < k) || (p > v && v > k)
    };
    let rooks = s.line_pieces(us, Lines::Orthogonal);
    let bishops = s.line_pieces(us, Lines::Diagonal);
    if file_of(eou) == file_of(src) {
        let file = line_mask(file_of(eou) + 10);
        // A lance looks one way only: White's down the board, Black's up.
        let lance_beyond = |pos: Square| {
            let p = sht_index(pos);
            if us == Color::White {
                p < v && v < k
            } else {
                p > v && v > k
            }
        };
        if (s.pieces(us, Group::Lance) & file).any(lance_beyond) {
            return true;
        }
        (rooks & file).any(beyond)
    } else if rank_of(eou) == rank_of(src) {
        (rooks & line_mask(rank_of(eou) + 1)).any(beyond)
    } else if rslp(eou) == rslp(src) {
        (bishops & line_mask(rslp(eou) + 30)).any(beyond)
    } else if lslp(eou) == lslp(src) {
        (bishops & line_mask(lslp(eou) + 17)).any(beyond)
    } else {
        false
    }
}

/// Whether, with the piece on `src` gone, one of the side to move's sliders would see the
/// enemy king through `src` (the second test of `valid_next`): the slider's ray reaches `src`
/// and slider, `src` and king lie on one line in that order. For Black to move shtsume looks
/// at White's rooks and dragons instead of Black's (it reads `bb_rh[GOTE]` there).
fn opens_line_to_king(s: &Sdata, src: Square, eou: Square) -> bool {
    let us = s.side;
    let occ = s.occupied();
    let (k, v) = (sht_index(eou), sht_index(src));
    let between = |p: usize| (k > v && v > p) || (k < v && v < p);
    for pos in sht_order(s.pieces(us, Group::Lance)) {
        if attacks::lance(us, pos, occ).contains(src) && file_of(eou) == file_of(src) {
            let toward = if us == Color::White { k > v } else { k < v };
            if toward {
                return true;
            }
        }
    }
    for pos in sht_order(s.line_pieces(us, Lines::Diagonal)) {
        let on_line = (rslp(eou) == rslp(src) && rslp(src) == rslp(pos))
            || (lslp(eou) == lslp(src) && lslp(src) == lslp(pos));
        if attacks::bishop(pos, occ).contains(src) && on_line && between(sht_index(pos)) {
            return true;
        }
    }
    let rook_side = if us == Color::White { us } else { !us };
    for pos in sht_order(s.line_pieces(rook_side, Lines::Orthogonal)) {
        let on_line = (rank_of(eou) == rank_of(src) && rank_of(src) == rank_of(pos))
            || (file_of(eou) == file_of(src) && file_of(src) == file_of(pos));
        if attacks::rook(pos, occ).contains(src) && on_line && between(sht_index(pos)) {
            return true;
        }
    }
    false
}

/// Some piece of the side to move, other than its king and not held pinned, reaches `dest`
/// (`is_dest_effect_valid`): an interposition there would be defended.
pub(super) fn defended_by_piece(s: &Sdata, dest: Square) -> bool {
    Group::REACH_ORDER
        .iter()
        .any(|&group| s.reaching(s.side, group, dest).any(|src| !s.is_pinned(src)))
}

impl Gen<'_> {
    /// Whether the table holds the edited position `s` (the defender to move) as proven
    /// (`hs_tbase_lookup`, which answers false for a position not in check). shtsume keys it
    /// by the board alone and compares the attacker's hand; its numbers are two plies below
    /// the node.
    fn proven(&self, s: &Sdata) -> bool {
        s.checks > 0 && self.table_proven(s)
    }

    fn table_proven(&self, s: &Sdata) -> bool {
        match s.to_position() {
            Some(pos) => self.table.is_proven(&pos, self.ply.saturating_add(2)),
            None => false,
        }
    }

    /// Whether an interposition on `dest`, next to the king, is futile (`invalid_drops`):
    /// some attacker piece, not pinned to its own king, can go to `dest` and mate at once by
    /// the quick test, or (promoting) reach a position the table holds proven. Black defending,
    /// shtsume looks at the horses twice and never at the dragons (its last look-up reads the
    /// horse board).
    pub(super) fn invalid_drops(&mut self, s: &Sdata, dest: Square) -> bool {
        let pins = attacker_pins(s);
        let them = !s.side;
        let mut groups = Group::REACH_ORDER;
        if s.side == Color::Black {
            groups[8] = Group::Horse;
        }
        for group in groups {
            for src in sht_order(s.reaching(them, group, dest)) {
                if !pins.contains(src) && self.mates_from(s, src, dest) {
                    return true;
                }
            }
        }
        false
    }

    /// The attacker's piece on `src` slid to `dest` mates (`_invalid_drops`): unpromoted by
    /// the quick test; promoted by the quick test or the table, the latter setting
    /// `invalid_drops`.
    fn mates_from(&mut self, s: &Sdata, src: Square, dest: Square) -> bool {
        let piece = s.piece(src);
        let (color, kind) = (piece.color(), piece.kind());
        if may_stay_unpromoted(color, kind, dest) {
            let after = s.tentative_move(src, dest, false);
            if after.checks > 0 && is_mated(&after) {
                return true;
            }
        }
        if may_promote(piece, src, dest) {
            let after = s.tentative_move(src, dest, true);
            if after.checks > 0 {
                if is_mated(&after) {
                    return true;
                }
                if self.proven(&after) {
                    self.invalid_drops = true;
                    return true;
                }
            }
        }
        false
    }

    /// Whether a moving interposition next to the king is worth generating (`valid_next`).
    /// The interposer is lifted into its own side's hand; it is worth it if that leaves the
    /// enemy king in check, or may open a line onto it (then the move may still prove
    /// futile: `invalid_moves`, when the attacker holds nothing), or if, the attacker holding
    /// nothing, a drop on `dest` would not be futile.
    pub(super) fn valid_next(&mut self, s: &Sdata, mv: Move) -> bool {
        let (us, them) = (s.side, !s.side);
        let src = mv.from();
        let lifted = s.pickup(src, false);
        let attacker_empty = !s.holds_any(them);
        if let Some(eou) = lifted.king(them) {
            if lifted.effect(us).contains(eou) {
                return true;
            }
            if lifted.effect(us).contains(src) && opens_line_to_king(&lifted, src, eou) {
                if attacker_empty {
                    self.invalid_moves = true;
                }
                return true;
            }
        }
        if attacker_empty && self.invalid_drops(&lifted, mv.to()) {
            self.invalid_moves = true;
            return false;
        }
        true
    }

    /// Whether a moving interposition away from the king is worth generating (`valid_long`).
    /// The interposer is lifted into the attacker's hand (as if taken); it is worth it if the
    /// king could then move, if a check back on the attacker's king is possible, if `dest`
    /// stays defended by a free piece (which clears `invalid_moves`), or if a slider behind
    /// `src` would defend `dest` and the checker slid there does not mate.
    pub(super) fn valid_long(&mut self, s: &Sdata, mv: Move) -> bool {
        let (us, them) = (s.side, !s.side);
        let (src, dest) = (mv.from(), mv.to());
        let lifted = s.pickup(src, true);
        let attacker_empty = !s.holds_any(them);
        if !king_cannot_move(&lifted) {
            return true;
        }
        if let Some(eou) = lifted.king(them) {
            if lifted.effect(us).contains(eou) {
                return true;
            }
            if check_back_risk(&lifted, src) {
                if attacker_empty {
                    self.invalid_moves = true;
                }
                return true;
            }
        }
        if lifted.effect(us).contains(dest) {
            for group in Group::REACH_ORDER {
                // Black defending, shtsume reads White's rook board for its rooks.
                let side = if us == Color::Black && group == Group::Rook { them } else { us };
                if lifted.reaching(side, group, dest).any(|sq| !lifted.is_pinned(sq)) {
                    self.invalid_moves = false;
                    return true;
                }
            }
        }
        let occ = lifted.occupied();
        let behind = [
            lifted.line_pieces(us, Lines::Diagonal) & attacks::bishop(src, occ),
            lifted.line_pieces(us, Lines::Orthogonal) & attacks::rook(src, occ),
            lifted.pieces(us, Group::Lance) & attacks::lance(them, src, occ),
        ];
        for pieces in behind {
            for _ in sht_order(pieces).into_iter().filter(|&sq| !lifted.is_pinned(sq)) {
                let slid = lifted.tentative_move(lifted.checkers[0], dest, false);
                if !is_mated(&slid) {
                    if attacker_empty {
                        self.invalid_moves = true;
                    }
                    return true;
                }
            }
        }
        false
    }

    /// Whether a drop two squares from the king, where two of the attacker's lines cross, is
    /// worth generating (`cross_point_check`): an attacker bishop or horse sees `dest`, the
    /// checker is a lance or a rook that could not promote there, and the checker slid to
    /// `dest` neither mates by shtsume's test (White defending: only the king's moves are
    /// looked at) nor is held proven by the table.
    ///
    /// shtsume's table look-up here passes the defender's turn, so it compares the
    /// defender's hand with the stored proof hands; the replica asks the table about the
    /// position as it stands.
    pub(super) fn cross_point_check(&self, s: &Sdata, dest: Square) -> bool {
        let (us, them) = (s.side, !s.side);
        let occ = s.occupied();
        if (s.line_pieces(them, Lines::Diagonal) & attacks::bishop(dest, occ)).is_empty() {
            return false;
        }
        let checker = s.checkers[0];
        let piece = s.piece(checker);
        let rook_unpromoting = piece == Piece::new(them, PieceKind::Rook)
            && !(in_zone(them, checker) || in_zone(them, dest));
        if rook_unpromoting || piece == Piece::new(them, PieceKind::Lance) {
            let slid = s.tentative_move(checker, dest, false);
            let mated = if us == Color::White { king_cannot_move(&slid) } else { is_mated(&slid) };
            if mated {
                return false;
            }
            if !self.table_proven(&slid) {
                return true;
            }
        }
        false
    }
}
