//! Legal move generation. Every generator emits only legal moves, so callers never filter.
//!
//! Entry points: [`legal_moves`] (everything), and [`generate`] with a [`MoveClass`]:
//! captures and promotions, quiet moves, drops, check-giving moves, evasions. Outside check,
//! captures-and-promotions ∪ quiets ∪ drops is exactly the legal moves, without overlap (a
//! non-capturing move into the zone counts its promotion as a promotion and its non-promotion
//! as quiet). In check, each class is the evasions of that class.
//!
//! Legality is built in rather than filtered afterwards: a pinned piece's targets are cut to its
//! pin line, king moves are tested against attacks with the king lifted off the board, and drops
//! skip two-pawn files and pawn-drop mate.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::movelist::MoveList;
use crate::moves::Move;
use crate::piece::PieceKind::{self, *};
use crate::position::Position;
use crate::square::Square;

/// The classes of moves a caller can ask for.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MoveClass {
    /// Every legal move (the evasions when in check).
    Legal,
    /// Captures (promoting or not) and non-capturing promotions.
    CapturesPromotions,
    /// Non-capturing board moves that do not promote.
    Quiets,
    /// Drops from hand.
    Drops,
    /// Moves that give check: direct, discovered, drops, promoting or not.
    Checks,
    /// Legal moves when in check; nothing when not in check.
    Evasions,
}

/// Whether to emit non-promotions that are never better than promoting: pawn, bishop and rook
/// staying unpromoted where they could promote, and a lance stopping unpromoted on the
/// second-to-last rank. Perft and the rules count them; search may skip them.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum NonPromotions {
    Include,
    Skip,
}

/// Which promotion variants of one board move to emit.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Variants {
    Both,
    PromoteOnly,
    NonPromoteOnly,
}

/// All legal moves, counting every non-promotion.
pub fn legal_moves(pos: &Position, list: &mut MoveList) {
    generate(pos, MoveClass::Legal, NonPromotions::Include, list);
}

/// Appends the legal moves of `class` to `list`.
pub fn generate(pos: &Position, class: MoveClass, nonpro: NonPromotions, list: &mut MoveList) {
    let skip = nonpro == NonPromotions::Skip;
    if pos.in_check() {
        let start = list.len();
        evasions(pos, list, skip);
        if class != MoveClass::Legal && class != MoveClass::Evasions {
            retain_from(list, start, |m| match class {
                MoveClass::Checks => gives_check(pos, m),
                _ => classify(pos, m) == class,
            });
        }
        return;
    }
    let us = pos.side_to_move();
    let own = pos.pieces_of(us);
    let enemy = pos.pieces_of(!us);
    let empty = !pos.occupied();
    match class {
        MoveClass::Legal => {
            board_moves(pos, list, !own, Variants::Both, skip);
            king_moves(pos, list, !own);
            drops(pos, list, empty);
        }
        MoveClass::CapturesPromotions => {
            board_moves(pos, list, enemy, Variants::Both, skip);
            king_moves(pos, list, enemy);
            board_moves(pos, list, empty, Variants::PromoteOnly, skip);
        }
        MoveClass::Quiets => {
            board_moves(pos, list, empty, Variants::NonPromoteOnly, skip);
            king_moves(pos, list, empty);
        }
        MoveClass::Drops => drops(pos, list, empty),
        MoveClass::Checks => checks(pos, list, skip),
        MoveClass::Evasions => {}
    }
}

/// The class a legal board move or drop belongs to (never `Checks`, `Legal` or `Evasions`).
fn classify(pos: &Position, m: Move) -> MoveClass {
    if m.is_drop() {
        MoveClass::Drops
    } else if m.is_promotion() || !pos.piece_at(m.to()).is_empty() {
        MoveClass::CapturesPromotions
    } else {
        MoveClass::Quiets
    }
}

fn retain_from(list: &mut MoveList, start: usize, mut keep: impl FnMut(Move) -> bool) {
    let mut i = 0;
    list.retain(|m| {
        let k = i < start || keep(m);
        i += 1;
        k
    });
}

/// Emits the promotion variants of one board move that the rules allow and `variants` asks for.
#[inline(always)]
fn push_board_move(
    list: &mut MoveList,
    us: Color,
    kind: PieceKind,
    from: Square,
    to: Square,
    variants: Variants,
    skip: bool,
) {
    let to_rel = to.rank().relative_to(us);
    let (can_promote, must_promote, useless_nonpro) = match kind {
        Pawn => (to_rel < 3, to_rel < 1, to_rel < 3),
        Lance => (to_rel < 3, to_rel < 1, to_rel < 2),
        Knight => (to_rel < 3, to_rel < 2, false),
        Silver => (to_rel < 3 || from.rank().relative_to(us) < 3, false, false),
        Bishop | Rook => {
            let p = to_rel < 3 || from.rank().relative_to(us) < 3;
            (p, false, p)
        }
        _ => (false, false, false),
    };
    if can_promote && variants != Variants::NonPromoteOnly {
        list.push(Move::promotion(from, to));
    }
    if !must_promote && variants != Variants::PromoteOnly && !(skip && useless_nonpro) {
        list.push(Move::normal(from, to));
    }
}

/// Targets of a piece on `from`, cut to its pin line when it is pinned.
#[inline(always)]
fn pin_filter(pos: &Position, from: Square, targets: Bitboard) -> Bitboard {
    if pos.pinned().contains(from) {
        match pos.king_square(pos.side_to_move()) {
            Some(ksq) => targets & attacks::line(from, ksq),
            None => targets,
        }
    } else {
        targets
    }
}

/// Moves of every piece but the king to `target`.
#[inline(always)]
fn board_moves(
    pos: &Position,
    list: &mut MoveList,
    target: Bitboard,
    variants: Variants,
    skip: bool,
) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let back: i32 = if us == Color::Black { 1 } else { -1 };
    for to in pos.pieces(us, Pawn).forward(us) & target {
        let from = Square::from_index_unchecked((to.index() as i32 + back) as u8);
        if pin_filter(pos, from, Bitboard::from_square(to)).is_nonempty() {
            push_board_move(list, us, Pawn, from, to, variants, skip);
        }
    }
    for from in pos.pieces(us, Lance) {
        for to in pin_filter(pos, from, attacks::lance(us, from, occ) & target) {
            push_board_move(list, us, Lance, from, to, variants, skip);
        }
    }
    for from in pos.pieces(us, Knight) {
        for to in pin_filter(pos, from, attacks::knight(us, from) & target) {
            push_board_move(list, us, Knight, from, to, variants, skip);
        }
    }
    for from in pos.pieces(us, Silver) {
        for to in pin_filter(pos, from, attacks::silver(us, from) & target) {
            push_board_move(list, us, Silver, from, to, variants, skip);
        }
    }
    for from in pos.pieces(us, Bishop) {
        for to in pin_filter(pos, from, attacks::bishop(from, occ) & target) {
            push_board_move(list, us, Bishop, from, to, variants, skip);
        }
    }
    for from in pos.pieces(us, Rook) {
        for to in pin_filter(pos, from, attacks::rook(from, occ) & target) {
            push_board_move(list, us, Rook, from, to, variants, skip);
        }
    }
    if variants == Variants::PromoteOnly {
        return;
    }
    for from in pos.golds(us) {
        for to in pin_filter(pos, from, attacks::gold(us, from) & target) {
            list.push(Move::normal(from, to));
        }
    }
    for from in pos.pieces(us, Horse) {
        for to in pin_filter(pos, from, attacks::horse(from, occ) & target) {
            list.push(Move::normal(from, to));
        }
    }
    for from in pos.pieces(us, Dragon) {
        for to in pin_filter(pos, from, attacks::dragon(from, occ) & target) {
            list.push(Move::normal(from, to));
        }
    }
}

/// King moves to `target` that do not step into an attack.
#[inline(always)]
fn king_moves(pos: &Position, list: &mut MoveList, target: Bitboard) {
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(us) else {
        return;
    };
    let occ = pos.occupied() ^ Bitboard::from_square(ksq);
    for to in attacks::king(ksq) & target {
        if !pos.is_attacked(!us, to, occ) {
            list.push(Move::normal(ksq, to));
        }
    }
}

/// The files holding a pawn of `color`: no second pawn may be dropped there.
#[inline(always)]
fn pawn_files(pos: &Position, color: Color) -> Bitboard {
    let mut files = Bitboard::EMPTY;
    for sq in pos.pieces(color, Pawn) {
        files |= Bitboard::file(sq.file());
    }
    files
}

/// Drops onto the empty squares of `target`, minus dead squares, two-pawn files and pawn-drop mate.
#[inline(always)]
fn drops(pos: &Position, list: &mut MoveList, target: Bitboard) {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    if hand.is_empty() {
        return;
    }
    if hand.has(Pawn) {
        drops_of_pawn(pos, list, target);
    }
    if hand.has(Lance) {
        for to in target.and_not(Bitboard::far_ranks(us, 1)) {
            list.push(Move::drop(Lance, to));
        }
    }
    if hand.has(Knight) {
        for to in target.and_not(Bitboard::far_ranks(us, 2)) {
            list.push(Move::drop(Knight, to));
        }
    }
    // The rest may go anywhere: loop squares outside, kinds inside.
    let mut others = [Pawn; 4];
    let mut n = 0;
    for kind in [Silver, Gold, Bishop, Rook] {
        if hand.has(kind) {
            others[n] = kind;
            n += 1;
        }
    }
    if n == 0 {
        return;
    }
    for to in target {
        for &kind in &others[..n] {
            list.push(Move::drop(kind, to));
        }
    }
}

/// Whether dropping a pawn on `to`, which checks the king on `eksq`, would mate (and so is
/// illegal). The pawn cannot be interposed against; the defender survives by capturing it with
/// a piece free to move there, capturing it with the king, or stepping out.
fn is_pawn_drop_mate(pos: &Position, to: Square, eksq: Square) -> bool {
    let us = pos.side_to_move();
    let them = !us;
    let occ = pos.occupied() | Bitboard::from_square(to);
    let defenders = pos.attackers_to(them, to, occ).and_not(Bitboard::from_square(eksq));
    if defenders.is_nonempty() {
        let pinned = pos.slider_blockers(us, eksq) & pos.pieces_of(them);
        for from in defenders {
            if !pinned.contains(from) || attacks::aligned(from, to, eksq) {
                return false;
            }
        }
    }
    let without_king = occ ^ Bitboard::from_square(eksq);
    for sq in attacks::king(eksq).and_not(pos.pieces_of(them)) {
        if !pos.is_attacked(us, sq, without_king) {
            return false;
        }
    }
    true
}

/// Legal moves when the side to move is in check.
fn evasions(pos: &Position, list: &mut MoveList, skip: bool) {
    if let Some(between) = board_evasions(pos, list, skip) {
        drops(pos, list, between);
    }
}

/// The evasions that are not drops; returns the squares between the checker and the king
/// (where drops may block), `None` for a double check.
fn board_evasions(pos: &Position, list: &mut MoveList, skip: bool) -> Option<Bitboard> {
    let us = pos.side_to_move();
    let own = pos.pieces_of(us);
    king_moves(pos, list, !own);
    let checkers = pos.checkers();
    if checkers.has_more_than_one() {
        return None;
    }
    let (Some(ksq), Some(checker)) = (pos.king_square(us), checkers.lsb()) else {
        return None;
    };
    let between = attacks::between(checker, ksq);
    board_moves(pos, list, between | checkers, Variants::Both, skip);
    Some(between)
}

/// For each kind, the squares from which a piece of that kind belonging to the opponent of
/// `them` attacks `them`'s king on `eksq` with occupancy `occ` (empty for the king).
///
/// A piece of ours attacks eksq from s exactly when their piece of the same kind on eksq would
/// attack s: the step patterns are mirror images. Each distinct pattern is computed once: the
/// gold-likes share one, and the horse and dragon add king steps to the bishop's and rook's
/// lines.
#[inline(always)]
pub fn check_squares_by_kind(
    them: Color,
    eksq: Square,
    occ: Bitboard,
) -> [Bitboard; PieceKind::NUM] {
    let mut squares = [Bitboard::EMPTY; PieceKind::NUM];
    let (gold, bishop, rook) =
        (attacks::gold(them, eksq), attacks::bishop(eksq, occ), attacks::rook(eksq, occ));
    squares[Pawn.index()] = attacks::pawn(them, eksq);
    squares[Lance.index()] = attacks::lance(them, eksq, occ);
    squares[Knight.index()] = attacks::knight(them, eksq);
    squares[Silver.index()] = attacks::silver(them, eksq);
    squares[Bishop.index()] = bishop;
    squares[Rook.index()] = rook;
    for kind in [Gold, ProPawn, ProLance, ProKnight, ProSilver] {
        squares[kind.index()] = gold;
    }
    squares[Horse.index()] = bishop | attacks::king(eksq);
    squares[Dragon.index()] = rook | attacks::king(eksq);
    squares
}

/// Our pieces that may have a checking move: the discoverers, every slider, and the step
/// pieces near enough to the king on `eksq`. The others would emit nothing, so skipping them
/// keeps the moves and their order (lowest origin first) while most pieces are never looked at.
#[inline(always)]
fn check_candidates(pos: &Position, us: Color, eksq: Square, discoverers: Bitboard) -> Bitboard {
    let sliders = pos.pieces_kind(Lance)
        | pos.pieces_kind(Bishop)
        | pos.pieces_kind(Rook)
        | pos.pieces_kind(Horse)
        | pos.pieces_kind(Dragon);
    let steppers = pos.pieces_kind(Pawn) | pos.pieces_kind(Silver) | pos.golds(us);
    let knights = pos.pieces_kind(Knight);
    let reach = sliders
        | (steppers & attacks::near(eksq))
        | (knights & attacks::knight_check_reach(us, eksq));
    (reach & pos.pieces_of(us)) | discoverers
}

/// Check-giving moves when not in check.
fn checks(pos: &Position, list: &mut MoveList, skip: bool) {
    checks_from(pos, list, skip, check_candidates, |_, _, to| to);
}

/// The check-giving moves (not in check) whose destinations `restrict` keeps, in the order of
/// [`MoveClass::Checks`]. `restrict` is given the kind the piece has on arrival (promoted when
/// it promotes), its origin (`None` for a drop) and the checking destinations, and returns the
/// ones to emit: the mate-in-one search uses it to drop, with a few bitboard operations per
/// piece, the checks that leave the king an escape square.
#[inline(always)]
pub fn checks_restricted(
    pos: &Position,
    list: &mut MoveList,
    nonpro: NonPromotions,
    restrict: impl Fn(PieceKind, Option<Square>, Bitboard) -> Bitboard,
) {
    if pos.in_check() {
        return;
    }
    checks_from(pos, list, nonpro == NonPromotions::Skip, check_candidates, restrict);
}

/// Check-giving moves of the board pieces that `candidates` picks (given the position, our
/// colour, the enemy king's square and our discoverers), then the checking drops, each set of
/// destinations cut by `restrict` (see [`checks_restricted`]).
#[inline(always)]
fn checks_from(
    pos: &Position,
    list: &mut MoveList,
    skip: bool,
    candidates: impl Fn(&Position, Color, Square, Bitboard) -> Bitboard,
    restrict: impl Fn(PieceKind, Option<Square>, Bitboard) -> Bitboard,
) {
    let us = pos.side_to_move();
    let them = !us;
    let Some(eksq) = pos.king_square(them) else {
        return;
    };
    let occ = pos.occupied();
    let own = pos.pieces_of(us);
    let discoverers = pos.slider_blockers(us, eksq) & own;
    let squares = check_squares_by_kind(them, eksq, occ);
    for from in candidates(pos, us, eksq, discoverers) {
        let kind = pos.piece_at(from).kind();
        let mut moves = attacks::attacks(us, kind, from, occ).and_not(own);
        if kind == King {
            if !discoverers.contains(from) {
                continue;
            }
            let without_king = occ ^ Bitboard::from_square(from);
            let moves = restrict(King, Some(from), moves.and_not(attacks::line(from, eksq)));
            for to in moves {
                if !pos.is_attacked(them, to, without_king) {
                    list.push(Move::normal(from, to));
                }
            }
            continue;
        }
        moves = pin_filter(pos, from, moves);
        let mut plain = squares[kind.index()];
        let mut promoted =
            if kind.can_promote() { squares[kind.promote().index()] } else { Bitboard::EMPTY };
        if discoverers.contains(from) {
            let off_line = !attacks::line(from, eksq);
            plain |= off_line;
            promoted |= off_line;
        }
        if (moves & (plain | promoted)).is_empty() {
            continue;
        }
        plain = restrict(kind, Some(from), moves & plain);
        if promoted.is_nonempty() {
            promoted = restrict(kind.promote(), Some(from), moves & promoted);
        }
        for to in plain | promoted {
            let variants = match (plain.contains(to), promoted.contains(to)) {
                (true, true) => Variants::Both,
                (false, true) => Variants::PromoteOnly,
                _ => Variants::NonPromoteOnly,
            };
            push_board_move(list, us, kind, from, to, variants, skip);
        }
    }
    let hand = pos.hand(us);
    if hand.is_empty() {
        return;
    }
    let empty = !occ;
    for kind in [Pawn, Lance, Knight, Silver, Gold, Bishop, Rook] {
        if !hand.has(kind) {
            continue;
        }
        let target = empty & squares[kind.index()];
        if target.is_empty() {
            continue;
        }
        let target = restrict(kind, None, target);
        if target.is_empty() {
            continue;
        }
        if kind == Pawn {
            drops_of_pawn(pos, list, target);
        } else {
            for to in target {
                list.push(Move::drop(kind, to));
            }
        }
    }
}

/// Pawn drops onto `target`, with the two-pawn and pawn-drop-mate rules.
fn drops_of_pawn(pos: &Position, list: &mut MoveList, target: Bitboard) {
    for to in pawn_drop_squares(pos, target) {
        list.push(Move::drop(Pawn, to));
    }
}

/// The squares of `target` where the side to move may drop a pawn: not its last rank, not a
/// file where it has an unpromoted pawn, not a mate of the king in front.
fn pawn_drop_squares(pos: &Position, target: Bitboard) -> Bitboard {
    let us = pos.side_to_move();
    let mut t = target.and_not(Bitboard::far_ranks(us, 1)).and_not(pawn_files(pos, us));
    if let Some(eksq) = pos.king_square(!us) {
        let mate_sq = attacks::pawn(!us, eksq) & t;
        if let Some(sq) = mate_sq.lsb() {
            if is_pawn_drop_mate(pos, sq, eksq) {
                t ^= mate_sq;
            }
        }
    }
    t
}

/// The squares of the empty `target` where the side to move may drop some piece of its hand:
/// those of the drops [`generate`] makes there, without making them (a solver counting a
/// check's interpositions by square needs only the squares).
pub fn drop_squares(pos: &Position, target: Bitboard) -> Bitboard {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    if [Silver, Gold, Bishop, Rook].into_iter().any(|kind| hand.has(kind)) {
        return target;
    }
    let mut squares = Bitboard::EMPTY;
    if hand.has(Knight) {
        squares |= target.and_not(Bitboard::far_ranks(us, 2));
    }
    if hand.has(Lance) {
        squares |= target.and_not(Bitboard::far_ranks(us, 1));
    }
    let rest = target.and_not(squares);
    if hand.has(Pawn) && rest.is_nonempty() {
        squares |= pawn_drop_squares(pos, rest);
    }
    squares
}

/// The legal evasions of the side to move (in check) that are not drops: king moves, and
/// board moves that take the checker or block its line (with [`drop_squares`] on that line,
/// what [`legal_moves`] gives, by square).
pub fn evasions_on_board(pos: &Position, list: &mut MoveList) {
    board_evasions(pos, list, false);
}

/// Whether the legal move `m` gives check.
pub fn gives_check(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let Some(eksq) = pos.king_square(!us) else {
        return false;
    };
    let to = m.to();
    let occ = pos.occupied();
    match m.dropped() {
        Some(kind) => attacks::attacks(us, kind, to, occ).contains(eksq),
        None => {
            let from = m.from();
            let kind = pos.piece_at(from).kind();
            let kind = if m.is_promotion() { kind.promote() } else { kind };
            let after = (occ ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
            if kind != King && attacks::attacks(us, kind, to, after).contains(eksq) {
                return true;
            }
            (pos.slider_blockers(us, eksq) & Bitboard::from_square(from)).is_nonempty()
                && !attacks::aligned(from, eksq, to)
        }
    }
}

/// Whether the side to move is checkmated: in check with no legal move.
pub fn is_checkmate(pos: &Position) -> bool {
    if !pos.in_check() {
        return false;
    }
    let mut list = MoveList::new();
    evasions(pos, &mut list, true);
    list.is_empty()
}

/// Whether `m` is among the legal moves of `pos` (a slow, exact test for moves from outside).
pub fn is_legal(pos: &Position, m: Move) -> bool {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.contains(&m)
}

/// Whether `m` is a legal move of `pos` that gives check (exact, as [`is_legal`] and then
/// [`gives_check`]): a look among the checks only, which are few where the side to move holds
/// pieces (every drop is a legal move, few of them check). Replaying a 587-ply mate line
/// through [`is_legal`] took 20 ms, most of it generating the attacker's drops.
pub fn is_legal_check(pos: &Position, m: Move) -> bool {
    let mut list = MoveList::new();
    generate(pos, MoveClass::Checks, NonPromotions::Include, &mut list);
    list.contains(&m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check generator before [`check_candidates`]: it visits every piece of ours.
    fn checks_reference(pos: &Position, list: &mut MoveList, skip: bool) {
        checks_from(pos, list, skip, |pos, us, _, _| pos.pieces_of(us), |_, _, to| to);
    }

    /// The SFEN lines of every `problems/*.sfen` file, comments dropped, and the start position.
    fn start_sfens() -> Vec<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|x| x == "sfen"));
        files.sort();
        let mut out = Vec::new();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            for line in text.lines() {
                let sfen = line.split('#').next().unwrap_or("").trim();
                if !sfen.is_empty() {
                    out.push(sfen.to_owned());
                }
            }
        }
        out.push("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".to_owned());
        out
    }

    /// Every start position followed by a reproducible random playout of up to 24 moves.
    fn for_each_position(mut visit: impl FnMut(&Position)) -> usize {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut list = MoveList::new();
        let mut n = 0;
        for sfen in start_sfens() {
            let Ok(mut pos) = Position::from_sfen(&sfen) else { continue };
            visit(&pos);
            n += 1;
            for _ in 0..24 {
                list.clear();
                legal_moves(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                pos.make_move(list[(next() % list.len() as u64) as usize]);
                visit(&pos);
                n += 1;
            }
        }
        n
    }

    #[test]
    fn checks_match_the_reference_in_order() {
        let (mut fast, mut slow) = (MoveList::new(), MoveList::new());
        let mut with_checks = 0;
        let n = for_each_position(|pos| {
            if pos.in_check() {
                return;
            }
            for skip in [false, true] {
                fast.clear();
                slow.clear();
                checks(pos, &mut fast, skip);
                checks_reference(pos, &mut slow, skip);
                assert_eq!(fast.as_slice(), slow.as_slice(), "{}", pos.to_sfen());
            }
            with_checks += usize::from(!fast.is_empty());
        });
        assert!(n > 20_000 && with_checks > 5_000, "{n} positions, {with_checks} with checks");
    }

    #[test]
    fn a_legal_check_is_a_legal_move_that_gives_check() {
        let mut list = MoveList::new();
        let mut checks = 0;
        let n = for_each_position(|pos| {
            list.clear();
            legal_moves(pos, &mut list);
            for &m in list.iter() {
                let checking = gives_check(pos, m);
                assert_eq!(is_legal_check(pos, m), checking, "{} {m}", pos.to_sfen());
                checks += usize::from(checking);
            }
            // Moves of the other side, and a board move from an empty square, are none.
            if !pos.in_check() {
                let mut other = pos.clone();
                other.make_null_move();
                let mut theirs = MoveList::new();
                legal_moves(&other, &mut theirs);
                for &m in theirs.iter().filter(|m| !m.is_drop() && !list.contains(m)) {
                    assert!(!is_legal_check(pos, m), "{} {m}", pos.to_sfen());
                }
            }
        });
        assert!(n > 20_000 && checks > 10_000, "{n} positions, {checks} checks");
    }

    /// No step piece outside its reach has a move onto a checking square, on any board: the
    /// reach tables are sound whatever the position.
    #[test]
    fn reach_tables_cover_every_checking_step() {
        for us in [Color::Black, Color::White] {
            for eksq in Square::all() {
                for kind in [Pawn, Knight, Silver, Gold, ProPawn, ProLance, ProKnight, ProSilver] {
                    let mut checking = attacks::attacks(!us, kind, eksq, Bitboard::EMPTY);
                    if kind.can_promote() {
                        checking |= attacks::attacks(!us, kind.promote(), eksq, Bitboard::EMPTY);
                    }
                    let reach = match kind {
                        Knight => attacks::knight_check_reach(us, eksq),
                        _ => attacks::near(eksq),
                    };
                    for from in Square::all() {
                        if !reach.contains(from) {
                            let moves = attacks::attacks(us, kind, from, Bitboard::EMPTY);
                            assert!((moves & checking).is_empty(), "{kind:?} {from} {eksq}");
                        }
                    }
                }
            }
        }
    }
}
