//! The staged move picker: the transposition-table move, good captures (by static exchange),
//! killers and the counter-move, quiet moves and drops ordered by history and by the
//! move-ordering features of seed 003 (gives check, attacks a piece, escapes an attack, lands on
//! a focal square), and last the losing captures. Each stage is generated only when reached, so
//! a node that is cut off by its table move never generates anything.
//!
//! In check, all evasions are generated at once and ordered the same way. The quiescence search
//! uses its own short list of captures and promotions.

use crate::eval::{board_value, capture_value, promotion_gain};
use crate::params::Params;
use crate::search::history::{History, PieceTo, NO_PIECE_TO};
use shogi::movelist::MAX_MOVES;
use shogi::{attacks, movegen, Bitboard, Move, MoveClass, MoveList, NonPromotions};
use shogi::{Color, Piece, PieceKind, Position, Square};

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer0,
    Killer1,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    GenEvasions,
    Evasions,
    GenQCaptures,
    QCaptures,
    Done,
}

/// Quiet moves selected one at a time before the rest are sorted at once: most nodes that
/// reach the quiet moves are cut off within the first few.
const LAZY_PICKS: usize = 6;

/// Whether `m` captures or promotes (the moves the quiescence search plays).
#[inline(always)]
pub fn is_tactical(pos: &Position, m: Move) -> bool {
    m.is_promotion() || (!m.is_drop() && !pos.piece_at(m.to()).is_empty())
}

/// Whether `m` is a legal move in `pos`. Used for moves that come from the transposition table,
/// killers and counter-moves, which may belong to another position. Exact: pawn drops that give
/// check fall back to the full generator for the pawn-drop-mate rule.
pub fn is_valid(pos: &Position, m: Move) -> bool {
    if m.is_null() {
        return false;
    }
    let us = pos.side_to_move();
    let to = m.to();
    let target = pos.piece_at(to);
    let ksq = pos.king_square(us);
    let checkers = pos.checkers();
    if let Some(kind) = m.dropped() {
        if !kind.is_hand_kind() || !pos.hand(us).has(kind) || !target.is_empty() || m.is_promotion()
        {
            return false;
        }
        let rel = to.rank().relative_to(us);
        match kind {
            PieceKind::Pawn | PieceKind::Lance if rel == 0 => return false,
            PieceKind::Knight if rel < 2 => return false,
            _ => {}
        }
        if kind == PieceKind::Pawn
            && (pos.pieces(us, PieceKind::Pawn) & Bitboard::file(to.file())).is_nonempty()
        {
            return false;
        }
        if checkers.is_nonempty() {
            let (Some(k), Some(c)) = (ksq, checkers.lsb()) else { return false };
            if checkers.has_more_than_one() || !attacks::between(c, k).contains(to) {
                return false;
            }
        }
        if kind == PieceKind::Pawn {
            if let Some(ek) = pos.king_square(!us) {
                if attacks::pawn(us, to).contains(ek) {
                    return movegen::is_legal(pos, m);
                }
            }
        }
        return true;
    }
    let from = m.from();
    let piece = pos.piece_at(from);
    let Some((color, kind)) = piece.get() else { return false };
    if color != us || from == to {
        return false;
    }
    if target.get().is_some_and(|(c, _)| c == us) {
        return false;
    }
    let occ = pos.occupied();
    if !attacks::attacks(us, kind, from, occ).contains(to) {
        return false;
    }
    let rel_to = to.rank().relative_to(us);
    if m.is_promotion() {
        if !kind.can_promote() || (rel_to >= 3 && from.rank().relative_to(us) >= 3) {
            return false;
        }
    } else {
        match kind {
            PieceKind::Pawn | PieceKind::Lance if rel_to == 0 => return false,
            PieceKind::Knight if rel_to < 2 => return false,
            _ => {}
        }
    }
    if kind == PieceKind::King {
        let without = occ ^ Bitboard::from_square(from);
        return !pos.is_attacked(!us, to, without);
    }
    let Some(k) = ksq else { return true };
    if checkers.is_nonempty() {
        if checkers.has_more_than_one() {
            return false;
        }
        let Some(c) = checkers.lsb() else { return false };
        if !(attacks::between(c, k) | checkers).contains(to) {
            return false;
        }
    }
    !pos.pinned().contains(from) || attacks::aligned(from, k, to)
}

/// Static exchange evaluation of `m` on its destination: the material balance, in capture
/// values, after both sides capture there with their least valuable piece while it pays.
/// Pins and promotions during the exchange are ignored.
pub fn see(pos: &Position, m: Move) -> i32 {
    let (first, on_to, occ) = exchange_start(pos, m);
    exchange(pos, m.to(), first, on_to, occ)
}

/// Whether `see(pos, m) >= threshold`, most often without playing the exchange out: the
/// exchange is worth at most what the move takes (`first`; the opponent may recapture), and
/// at least that less the piece it puts there (the mover may stop after one recapture), so
/// only a threshold between the two needs the exchange.
#[inline]
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let (first, on_to, occ) = exchange_start(pos, m);
    if first < threshold {
        return false;
    }
    if first - on_to >= threshold {
        return true;
    }
    exchange(pos, m.to(), first, on_to, occ) >= threshold
}

/// What `m` takes (with its promotion's gain), the capture value of the piece it leaves on
/// its destination, and the board's occupancy after it.
#[inline(always)]
fn exchange_start(pos: &Position, m: Move) -> (i32, i32, Bitboard) {
    let to_bb = Bitboard::from_square(m.to());
    match m.dropped() {
        Some(kind) => (0, capture_value(kind), pos.occupied() | to_bb),
        None => {
            let from = m.from();
            let kind = pos.piece_at(from).kind();
            let moved = if m.is_promotion() { kind.promote() } else { kind };
            let victim = pos.piece_at(m.to()).get().map_or(0, |(_, k)| capture_value(k));
            let promo = if m.is_promotion() { promotion_gain(kind) } else { 0 };
            (
                victim + promo,
                capture_value(moved),
                (pos.occupied() ^ Bitboard::from_square(from)) | to_bb,
            )
        }
    }
}

/// The exchange on `to` after a move that took `first` and left a piece worth `on_to` there.
fn exchange(pos: &Position, to: Square, first: i32, mut on_to: i32, mut occ: Bitboard) -> i32 {
    let us = pos.side_to_move();
    let mut gain = [0i32; 40];
    gain[0] = first;
    let mut d = 0;
    let mut side = !us;
    loop {
        let attackers = pos.attackers_to(side, to, occ) & occ;
        let Some((sq, kind)) = least_valuable(pos, attackers) else { break };
        if kind == PieceKind::King && (pos.attackers_to(!side, to, occ) & occ).is_nonempty() {
            break;
        }
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = on_to - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        occ ^= Bitboard::from_square(sq);
        on_to = capture_value(kind);
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Kinds from the least to the most valuable, for exchanges.
const EXCHANGE_ORDER: [PieceKind; 14] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::ProSilver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Dragon,
    PieceKind::King,
];

#[inline]
fn least_valuable(pos: &Position, attackers: Bitboard) -> Option<(Square, PieceKind)> {
    if attackers.is_empty() {
        return None;
    }
    for kind in EXCHANGE_ORDER {
        if let Some(sq) = (attackers & pos.pieces_kind(kind)).lsb() {
            return Some((sq, kind));
        }
    }
    None
}

/// What a node knows to tell cheaply whether a move gives check.
#[derive(Clone)]
pub struct CheckInfo {
    enemy_king: Option<Square>,
    /// Squares from which each kind (ours) attacks the enemy king.
    squares: [Bitboard; PieceKind::NUM],
    /// Our pieces whose move may uncover a slider's check.
    discoverers: Bitboard,
}

impl CheckInfo {
    /// Knows of no enemy king: no move gives check.
    pub const NONE: CheckInfo = CheckInfo {
        enemy_king: None,
        squares: [Bitboard::EMPTY; PieceKind::NUM],
        discoverers: Bitboard::EMPTY,
    };

    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let ek = pos.king_square(!us);
        let mut squares = [Bitboard::EMPTY; PieceKind::NUM];
        let mut discoverers = Bitboard::EMPTY;
        if let Some(ek) = ek {
            squares = movegen::check_squares_by_kind(!us, ek, pos.occupied());
            discoverers = pos.slider_blockers(us, ek) & pos.pieces_of(us);
        }
        CheckInfo { enemy_king: ek, squares, discoverers }
    }

    /// Whether the legal move `m` gives check.
    #[inline]
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        let Some(ek) = self.enemy_king else { return false };
        let to = m.to();
        match m.dropped() {
            Some(kind) => self.squares[kind.index()].contains(to),
            None => {
                let from = m.from();
                let kind = pos.piece_at(from).kind();
                let kind = if m.is_promotion() { kind.promote() } else { kind };
                if self.discoverers.contains(from) && !attacks::aligned(from, ek, to) {
                    return true;
                }
                match kind {
                    PieceKind::King => false,
                    // Sliders: the precomputed squares use the current occupancy, in which
                    // the mover itself may block its own line; recompute.
                    PieceKind::Lance
                    | PieceKind::Bishop
                    | PieceKind::Rook
                    | PieceKind::Horse
                    | PieceKind::Dragon => {
                        let occ = (pos.occupied() ^ Bitboard::from_square(from))
                            | Bitboard::from_square(to);
                        attacks::attacks(pos.side_to_move(), kind, to, occ).contains(ek)
                    }
                    _ => self.squares[kind.index()].contains(to),
                }
            }
        }
    }
}

/// What the ordering features need to know about the opponent's attacks: the squares it attacks
/// once and twice, our non-pawn pieces it attacks, and its non-pawn pieces (the targets worth
/// attacking).
pub struct Threats {
    once: Bitboard,
    twice: Bitboard,
    threatened: Bitboard,
    targets: Bitboard,
}

impl Threats {
    /// One pass over the opponent's pieces kind by kind, so that no square is looked up and no
    /// attack is dispatched on its kind; the pawns go in one shift, as no two of them attack
    /// the same square.
    pub fn new(pos: &Position) -> Threats {
        use PieceKind::*;
        let us = pos.side_to_move();
        let them = !us;
        let occ = pos.occupied();
        let (mut once, mut twice) = (Bitboard::EMPTY, Bitboard::EMPTY);
        let mut add = |att: Bitboard| {
            twice |= once & att;
            once |= att;
        };
        add(pos.pieces(them, Pawn).forward(them));
        for sq in pos.pieces(them, Lance) {
            add(attacks::lance(them, sq, occ));
        }
        for sq in pos.pieces(them, Knight) {
            add(attacks::knight(them, sq));
        }
        for sq in pos.pieces(them, Silver) {
            add(attacks::silver(them, sq));
        }
        for sq in pos.golds(them) {
            add(attacks::gold(them, sq));
        }
        for sq in pos.pieces(them, King) {
            add(attacks::king(sq));
        }
        for sq in pos.pieces(them, Bishop) {
            add(attacks::bishop(sq, occ));
        }
        for sq in pos.pieces(them, Rook) {
            add(attacks::rook(sq, occ));
        }
        for sq in pos.pieces(them, Horse) {
            add(attacks::horse(sq, occ));
        }
        for sq in pos.pieces(them, Dragon) {
            add(attacks::dragon(sq, occ));
        }
        let ours = pos.pieces_of(us).and_not(pos.pieces(us, Pawn));
        let targets = pos.pieces_of(them).and_not(pos.pieces(them, Pawn));
        Threats { once, twice, threatened: ours & once, targets }
    }
}

/// The piece-to index of a move of ours that leaves a piece of `moved` kind on `to`: what
/// [`crate::search::history::piece_to`] returns, without looking the piece up again.
#[inline(always)]
fn piece_to_of(us: Color, moved: PieceKind, to: Square) -> PieceTo {
    Piece::new(us, moved).index() * 81 + to.index()
}

/// The place of the first of the highest scores (the one a scan keeping the best so far by `>`
/// would pick), found in two passes that compile to vector instructions: the maximum over the
/// whole list, then the first place that holds it, eight at a time. The one-pass scan was the
/// picker's hottest loop (a compare and a branch per move).
#[inline]
fn first_best(scores: &[i32]) -> usize {
    let max = scores.iter().copied().fold(i32::MIN, i32::max);
    let mut chunks = scores.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        if chunk.iter().fold(false, |any, &s| any | (s == max)) {
            return base + chunk.iter().position(|&s| s == max).unwrap_or(0);
        }
        base += 8;
    }
    base + chunks.remainder().iter().position(|&s| s == max).unwrap_or(0)
}

/// The ordering score of a non-capturing move: half its history score plus four times its
/// features, weighted by the parameters (seed 003): gives check, attacks an enemy piece (not a
/// pawn) from its destination, escapes from an attacked square, and lands on a focal square
/// (one the opponent attacks twice or more); and, beyond the seed, a penalty for landing where
/// the opponent attacks at all.
///
/// The moving piece is looked up once, and one attack set from the destination serves both the
/// check and the attack feature: a piece attacks the king from `to` exactly when `to` is one of
/// its checking squares.
#[inline(always)]
fn quiet_order_score(
    pos: &Position,
    m: Move,
    ci: &CheckInfo,
    threats: &Threats,
    history: &History,
    earlier: [PieceTo; 2],
    params: &Params,
) -> i32 {
    let us = pos.side_to_move();
    let to = m.to();
    let mut s = 0;
    let (moved, occ_after) = landing(pos, m);
    let discovered = match m.dropped() {
        Some(_) => false,
        None => {
            let from = m.from();
            if threats.threatened.contains(from) {
                s += params.order_escape;
            }
            ci.enemy_king
                .is_some_and(|ek| ci.discoverers.contains(from) && !attacks::aligned(from, ek, to))
        }
    };
    let att = attacks::attacks(us, moved, to, occ_after);
    let direct = moved != PieceKind::King && ci.enemy_king.is_some_and(|ek| att.contains(ek));
    if discovered || direct {
        s += params.order_check;
    }
    if (att & threats.targets).is_nonempty() {
        s += params.order_attack;
    }
    if threats.twice.contains(to) {
        s += params.order_focal;
    }
    if threats.once.contains(to) {
        s -= params.order_unsafe;
    }
    history.quiet_score(us, m, piece_to_of(us, moved, to), earlier) / 2 + 4 * s
}

/// The piece that `m` puts on its destination (promoted when it promotes) and the board's
/// occupancy after the move.
#[inline(always)]
fn landing(pos: &Position, m: Move) -> (PieceKind, Bitboard) {
    let to_bb = Bitboard::from_square(m.to());
    match m.dropped() {
        Some(kind) => (kind, pos.occupied() | to_bb),
        None => {
            let from = m.from();
            let kind = pos.piece_at(from).kind();
            let kind = if m.is_promotion() { kind.promote() } else { kind };
            (kind, (pos.occupied() ^ Bitboard::from_square(from)) | to_bb)
        }
    }
}

/// Whether the quiet move or drop `m` attacks an enemy piece other than a pawn from its
/// destination (the ordering's attack feature, for the search's reductions): the pawn pushes
/// and drops that start shogi's tactics.
pub fn attacks_a_piece(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let (kind, occ_after) = landing(pos, m);
    let targets = pos.pieces_of(!us).and_not(pos.pieces(!us, PieceKind::Pawn));
    (attacks::attacks(us, kind, m.to(), occ_after) & targets).is_nonempty()
}

/// How much the capture history weighs against the exchange values of MVV-LVA: a value at
/// the history's limit is worth about a gold.
const CAPTURE_HISTORY_DIVISOR: i32 = 32;

/// The ordering score of a capture or promotion: MVV-LVA, corrected by how often the same
/// piece taking the same kind on that square has been best. Each piece is looked up once.
#[inline(always)]
fn capture_score(pos: &Position, m: Move, history: &History) -> i32 {
    let to = m.to();
    let victim = pos.piece_at(to).get().map_or(0, |(_, k)| capture_value(k));
    let (mvv_lva, moved) = match m.dropped() {
        Some(kind) => (victim, kind),
        None => {
            let kind = pos.piece_at(m.from()).kind();
            let lva = victim - board_value(kind) / 8;
            if m.is_promotion() {
                (lva + promotion_gain(kind), kind.promote())
            } else {
                (lva, kind)
            }
        }
    };
    let pt = piece_to_of(pos.side_to_move(), moved, to);
    mvv_lva + history.capture_score(pos, m, pt) / CAPTURE_HISTORY_DIVISOR
}

pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// The piece-to indices of the last two moves, for the continuation history.
    earlier: [PieceTo; 2],
    /// Special moves already returned (table move, killers, counter), skipped later.
    returned: [Move; 4],
    n_returned: usize,
    generated: MoveList,
    moves: [Move; MAX_MOVES],
    scores: [i32; MAX_MOVES],
    len: usize,
    cur: usize,
    /// How far the quiet moves (generated from index 0) are in sorted order.
    sorted_to: usize,
    /// Scratch of [`MovePicker::sort_descending`].
    sort_keys: [u64; MAX_MOVES],
    bad: [Move; 64],
    bad_len: usize,
    bad_cur: usize,
    /// Set by [`MovePicker::skip_quiets`]: no killer, counter or quiet move is given any more.
    skip_quiets: bool,
    /// The node's check information, computed once by [`MovePicker::init`] for the quiet
    /// moves' ordering and shared with the search through [`MovePicker::check_info`].
    check_info: CheckInfo,
}

impl MovePicker {
    /// A picker with nothing to give; [`MovePicker::init`] prepares it for a node. Pickers are
    /// kept per ply and reused, so that a node allocates nothing.
    pub fn empty() -> MovePicker {
        MovePicker {
            stage: Stage::Done,
            tt_move: Move::NULL,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            earlier: [NO_PIECE_TO; 2],
            returned: [Move::NULL; 4],
            n_returned: 0,
            generated: MoveList::new(),
            moves: [Move::NULL; MAX_MOVES],
            scores: [0; MAX_MOVES],
            len: 0,
            cur: 0,
            sorted_to: 0,
            sort_keys: [0; MAX_MOVES],
            bad: [Move::NULL; 64],
            bad_len: 0,
            bad_cur: 0,
            skip_quiets: false,
            check_info: CheckInfo::NONE,
        }
    }

    /// Prepares the picker for a main-search node; `earlier` are the piece-to indices of the
    /// last two moves (for the continuation history).
    pub fn init(
        &mut self,
        pos: &Position,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        earlier: [PieceTo; 2],
    ) {
        let in_check = pos.in_check();
        let stage = if in_check { Stage::GenEvasions } else { Stage::TtMove };
        self.start(stage, tt_move, killers, counter);
        self.earlier = earlier;
        self.check_info = CheckInfo::new(pos);
    }

    /// Which moves of the node given to [`MovePicker::init`] give check.
    #[inline(always)]
    pub fn check_info(&self) -> &CheckInfo {
        &self.check_info
    }

    /// Prepares the picker for a quiescence node: captures and promotions (all evasions in
    /// check).
    pub fn init_quiescence(&mut self, pos: &Position, tt_move: Move) {
        let in_check = pos.in_check();
        let stage = if in_check { Stage::GenEvasions } else { Stage::GenQCaptures };
        self.start(stage, tt_move, [Move::NULL; 2], Move::NULL);
        self.earlier = [NO_PIECE_TO; 2];
        // Evasions are ordered with it; captures do not need it.
        self.check_info = if in_check { CheckInfo::new(pos) } else { CheckInfo::NONE };
    }

    fn start(&mut self, stage: Stage, tt_move: Move, killers: [Move; 2], counter: Move) {
        self.stage = stage;
        self.tt_move = tt_move;
        self.killers = killers;
        self.counter = counter;
        self.n_returned = 0;
        self.len = 0;
        self.cur = 0;
        self.bad_len = 0;
        self.bad_cur = 0;
        self.skip_quiets = false;
    }

    /// Late-move pruning: the node wants no more quiet moves (checks included), so they are not
    /// even generated; captures still come.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Generates `class` moves and appends them to the picking arrays.
    fn generate(&mut self, pos: &Position, class: MoveClass) {
        self.generated.clear();
        movegen::generate(pos, class, NonPromotions::Skip, &mut self.generated);
        for &m in self.generated.iter() {
            if self.len < MAX_MOVES {
                self.moves[self.len] = m;
                self.len += 1;
            }
        }
    }

    fn reset(&mut self) {
        self.len = 0;
        self.cur = 0;
    }

    /// Picks the highest-scored move from `cur` on and swaps it into place.
    #[inline]
    fn pick_best(&mut self) -> Option<Move> {
        if self.cur >= self.len {
            return None;
        }
        let best = self.cur + first_best(&self.scores[self.cur..self.len]);
        self.moves.swap(best, self.cur);
        self.scores.swap(best, self.cur);
        let m = self.moves[self.cur];
        self.cur += 1;
        Some(m)
    }

    /// The next quiet move in the order a stable sort by score (best first) would give,
    /// sorting only as far as moves are taken: most nodes are cut off after a few quiet moves,
    /// so the first [`LAZY_PICKS`] are selected one by one (the rest keep their order), and
    /// only a node that wants more sorts what is left.
    #[inline]
    fn next_sorted(&mut self) -> Option<Move> {
        if self.cur >= self.len {
            return None;
        }
        if self.cur >= self.sorted_to {
            if self.cur < LAZY_PICKS {
                let best = self.cur + first_best(&self.scores[self.cur..self.len]);
                self.moves[self.cur..=best].rotate_right(1);
                self.scores[self.cur..=best].rotate_right(1);
                self.sorted_to = self.cur + 1;
            } else {
                self.sort_descending(self.cur);
                self.sorted_to = self.len;
            }
        }
        let m = self.moves[self.cur];
        self.cur += 1;
        Some(m)
    }

    /// Sorts the list from `from` on, best first, in the order of a stable sort. Each move is
    /// packed with its score and its place into one word (score, then the place inverted, then
    /// the move), so that an unstable sort of plain integers gives the stable order.
    fn sort_descending(&mut self, from: usize) {
        let n = self.len - from;
        let keys = &mut self.sort_keys;
        for (i, key) in keys[..n].iter_mut().enumerate() {
            let score = (self.scores[from + i] as i64 - i32::MIN as i64) as u64;
            let place = u64::from(u16::MAX) - i as u64;
            *key = score << 32 | place << 16 | u64::from(self.moves[from + i].raw());
        }
        keys[..n].sort_unstable_by(|a, b| b.cmp(a));
        for (i, key) in keys[..n].iter().enumerate() {
            self.moves[from + i] = Move::from_raw(*key as u16);
            self.scores[from + i] = ((key >> 32) as i64 + i32::MIN as i64) as i32;
        }
    }

    #[inline(always)]
    fn was_returned(&self, m: Move) -> bool {
        self.returned[..self.n_returned].contains(&m)
    }

    fn remember(&mut self, m: Move) {
        if self.n_returned < self.returned.len() {
            self.returned[self.n_returned] = m;
            self.n_returned += 1;
        }
    }

    /// [`quiet_order_score`] with this node's check information and earlier moves.
    #[inline(always)]
    fn quiet_order(
        &self,
        pos: &Position,
        m: Move,
        threats: &Threats,
        history: &History,
        params: &Params,
    ) -> i32 {
        quiet_order_score(pos, m, &self.check_info, threats, history, self.earlier, params)
    }

    /// The next move to search, or `None` when the node has no more.
    pub fn next(&mut self, pos: &Position, history: &History, params: &Params) -> Option<Move> {
        loop {
            if self.skip_quiets
                && matches!(
                    self.stage,
                    Stage::Killer0
                        | Stage::Killer1
                        | Stage::Counter
                        | Stage::GenQuiets
                        | Stage::Quiets
                )
            {
                self.stage = Stage::BadCaptures;
            }
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenCaptures;
                    if is_valid(pos, self.tt_move) {
                        self.remember(self.tt_move);
                        return Some(self.tt_move);
                    }
                }
                Stage::GenCaptures => {
                    self.reset();
                    self.generate(pos, MoveClass::CapturesPromotions);
                    for i in 0..self.len {
                        self.scores[i] = capture_score(pos, self.moves[i], history);
                    }
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(m) if self.was_returned(m) => {}
                    Some(m) => {
                        if see_ge(pos, m, 0) || self.bad_len >= self.bad.len() {
                            return Some(m);
                        }
                        self.bad[self.bad_len] = m;
                        self.bad_len += 1;
                    }
                    None => self.stage = Stage::Killer0,
                },
                Stage::Killer0 | Stage::Killer1 | Stage::Counter => {
                    let (m, next) = match self.stage {
                        Stage::Killer0 => (self.killers[0], Stage::Killer1),
                        Stage::Killer1 => (self.killers[1], Stage::Counter),
                        _ => (self.counter, Stage::GenQuiets),
                    };
                    self.stage = next;
                    if !m.is_null()
                        && !self.was_returned(m)
                        && !is_tactical_raw(pos, m)
                        && is_valid(pos, m)
                    {
                        self.remember(m);
                        return Some(m);
                    }
                }
                Stage::GenQuiets => {
                    self.reset();
                    self.generate(pos, MoveClass::Quiets);
                    self.generate(pos, MoveClass::Drops);
                    let threats = Threats::new(pos);
                    for i in 0..self.len {
                        let m = self.moves[i];
                        self.scores[i] = self.quiet_order(pos, m, &threats, history, params);
                    }
                    self.sorted_to = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => match self.next_sorted() {
                    Some(m) if self.was_returned(m) => {}
                    Some(m) => return Some(m),
                    None => self.stage = Stage::BadCaptures,
                },
                Stage::BadCaptures => {
                    if self.bad_cur < self.bad_len {
                        let m = self.bad[self.bad_cur];
                        self.bad_cur += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    self.reset();
                    self.generate(pos, MoveClass::Evasions);
                    let threats = Threats::new(pos);
                    for i in 0..self.len {
                        let m = self.moves[i];
                        self.scores[i] = if m == self.tt_move {
                            i32::MAX
                        } else if is_tactical(pos, m) {
                            4 * params.order_capture + capture_score(pos, m, history)
                        } else {
                            self.quiet_order(pos, m, &threats, history, params)
                        };
                    }
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.pick_best() {
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::GenQCaptures => {
                    self.reset();
                    self.generate(pos, MoveClass::CapturesPromotions);
                    for i in 0..self.len {
                        let m = self.moves[i];
                        self.scores[i] = if m == self.tt_move {
                            i32::MAX
                        } else {
                            capture_score(pos, m, history)
                        };
                    }
                    self.stage = Stage::QCaptures;
                }
                Stage::QCaptures => match self.pick_best() {
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

#[inline(always)]
fn is_tactical_raw(pos: &Position, m: Move) -> bool {
    if m.is_drop() {
        return false;
    }
    m.is_promotion() || pos.piece_at(m.to()).get().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::piece_to;

    /// The vector search for the best score picks the place the one-pass scan picks: the first
    /// of the highest, at every length and with ties (few distinct scores).
    #[test]
    fn first_best_is_the_first_highest() {
        let mut rng = crate::tools::xorshift::XorShift64::new(7);
        for len in 1..40 {
            for spread in [1, 3, 1000] {
                let scores: Vec<i32> =
                    (0..len).map(|_| rng.below(spread) as i32 - spread as i32 / 2).collect();
                let mut scan = 0;
                for i in 1..len {
                    if scores[i] > scores[scan] {
                        scan = i;
                    }
                }
                assert_eq!(first_best(&scores), scan, "{scores:?}");
            }
        }
    }

    /// Every legal move comes out exactly once, whatever the hints.
    #[test]
    fn picker_yields_each_legal_move_once() {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
            "ln1g3nl/1r1s1kg2/p2ppp1p1/2p3p1p/1p5P1/2P1P1P2/PPSP1P2P/2G2S1R1/LN2KG1NL b Bb 1",
            "4k4/9/4P4/9/9/9/9/9/4K4 w - 1",
        ];
        let history = History::new();
        let params = Params::default();
        for sfen in sfens {
            let pos = Position::from_sfen(sfen).expect("sfen");
            let mut legal = MoveList::new();
            movegen::generate(&pos, MoveClass::Legal, NonPromotions::Skip, &mut legal);
            // Hints: a legal quiet move as TT move and killers, and some garbage.
            let hint = legal.iter().copied().find(|&m| !is_tactical(&pos, m)).unwrap_or(Move::NULL);
            let garbage = Move::from_raw(0x1234);
            let mut picker = MovePicker::empty();
            picker.init(&pos, hint, [garbage, hint], legal[0], [NO_PIECE_TO; 2]);
            let mut seen = Vec::new();
            while let Some(m) = picker.next(&pos, &history, &params) {
                assert!(legal.contains(&m), "{sfen}: {m} not legal");
                assert!(!seen.contains(&m), "{sfen}: {m} twice");
                seen.push(m);
            }
            assert_eq!(seen.len(), legal.len(), "{sfen}");
            for &m in legal.iter() {
                assert!(is_valid(&pos, m), "{sfen}: {m} should be valid");
            }
        }
    }

    /// The quiet moves come in the order of a stable sort by their ordering score, although
    /// only the first few are selected and the rest sorted when reached: ties (most quiet
    /// scores tie with an empty history) keep the generation order.
    #[test]
    fn quiet_moves_come_in_stable_sorted_order() {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln1g3nl/1r1s1kg2/p2ppp1p1/2p3p1p/1p5P1/2P1P1P2/PPSP1P2P/2G2S1R1/LN2KG1NL b Bb 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL b GR5pnsg 1",
        ];
        let history = History::new();
        let params = Params::default();
        for sfen in sfens {
            let pos = Position::from_sfen(sfen).expect("sfen");
            let mut picker = MovePicker::empty();
            picker.init(&pos, Move::NULL, [Move::NULL; 2], Move::NULL, [NO_PIECE_TO; 2]);
            let mut got = Vec::new();
            while let Some(m) = picker.next(&pos, &history, &params) {
                if !is_tactical(&pos, m) {
                    got.push(m);
                }
            }
            let mut quiets = MoveList::new();
            movegen::generate(&pos, MoveClass::Quiets, NonPromotions::Skip, &mut quiets);
            movegen::generate(&pos, MoveClass::Drops, NonPromotions::Skip, &mut quiets);
            let (ci, threats) = (CheckInfo::new(&pos), Threats::new(&pos));
            let mut want: Vec<Move> = quiets.iter().copied().collect();
            let score = |m: &Move| {
                quiet_order_score(&pos, *m, &ci, &threats, &history, [NO_PIECE_TO; 2], &params)
            };
            want.sort_by_key(|m| std::cmp::Reverse(score(m)));
            assert!(want.len() > LAZY_PICKS, "{sfen}: too few quiet moves to test");
            assert_eq!(got, want, "{sfen}");
        }
    }

    /// The opponent's attacks as first written: square by square, each piece looked up.
    fn threats_reference(pos: &Position) -> (Bitboard, Bitboard, Bitboard) {
        let us = pos.side_to_move();
        let them = !us;
        let occ = pos.occupied();
        let (mut once, mut twice) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for sq in pos.pieces_of(them) {
            let att = attacks::attacks(them, pos.piece_at(sq).kind(), sq, occ);
            twice |= once & att;
            once |= att;
        }
        let ours = pos.pieces_of(us).and_not(pos.pieces(us, PieceKind::Pawn));
        (once, twice, ours & once)
    }

    /// The quiet-move ordering score as first written, from the check test of [`CheckInfo`].
    fn quiet_score_reference(
        pos: &Position,
        m: Move,
        ci: &CheckInfo,
        history: &History,
        earlier: [PieceTo; 2],
        params: &Params,
    ) -> i32 {
        let (once, twice, threatened) = threats_reference(pos);
        let us = pos.side_to_move();
        let them = !us;
        let to = m.to();
        let occ = pos.occupied();
        let mut s = 0;
        if ci.gives_check(pos, m) {
            s += params.order_check;
        }
        let (kind, occ_after) = match m.dropped() {
            Some(k) => (k, occ | Bitboard::from_square(to)),
            None => {
                let from = m.from();
                let k = pos.piece_at(from).kind();
                if threatened.contains(from) {
                    s += params.order_escape;
                }
                let k = if m.is_promotion() { k.promote() } else { k };
                (k, (occ ^ Bitboard::from_square(from)) | Bitboard::from_square(to))
            }
        };
        let targets = pos.pieces_of(them).and_not(pos.pieces(them, PieceKind::Pawn));
        if (attacks::attacks(us, kind, to, occ_after) & targets).is_nonempty() {
            s += params.order_attack;
        }
        if twice.contains(to) {
            s += params.order_focal;
        }
        if once.contains(to) {
            s -= params.order_unsafe;
        }
        history.quiet_score(us, m, piece_to(pos, m), earlier) / 2 + 4 * s
    }

    /// The capture ordering score as first written: MVV-LVA plus the capture history.
    fn capture_score_reference(pos: &Position, m: Move, history: &History) -> i32 {
        let victim = pos.piece_at(m.to()).get().map_or(0, |(_, k)| capture_value(k));
        let mvv_lva = match m.dropped() {
            Some(_) => victim,
            None => {
                let kind = pos.piece_at(m.from()).kind();
                let promo = if m.is_promotion() { promotion_gain(kind) } else { 0 };
                victim + promo - board_value(kind) / 8
            }
        };
        mvv_lva + history.capture_score(pos, m, piece_to(pos, m)) / CAPTURE_HISTORY_DIVISOR
    }

    /// Every kind's checking squares are the attacks of that kind from the enemy king.
    #[test]
    fn check_info_squares_match_the_attacks() {
        crate::tools::test_positions::for_each(8, |pos| {
            let ci = CheckInfo::new(pos);
            let them = !pos.side_to_move();
            let Some(ek) = pos.king_square(them) else { return };
            for kind in PieceKind::ALL {
                let want = match kind {
                    PieceKind::King => Bitboard::EMPTY,
                    _ => attacks::attacks(them, kind, ek, pos.occupied()),
                };
                assert_eq!(ci.squares[kind.index()], want, "{kind:?} in {}", pos.to_sfen());
            }
        });
    }

    /// The fast ordering scores equal the first-written ones on every move of many positions,
    /// with a history filled with varied values and features of distinct weights.
    #[test]
    fn ordering_scores_match_the_reference() {
        let mut history = History::new();
        let mut params = Params::default();
        (params.order_check, params.order_escape, params.order_attack) = (1001, 203, 47);
        (params.order_focal, params.order_unsafe) = (11, 3);
        let mut rng = crate::tools::xorshift::XorShift64::new(0x9e37_79b9_7f4a_7c15);
        let mut list = MoveList::new();
        let mut n = 0;
        crate::tools::test_positions::for_each(24, |pos| {
            list.clear();
            movegen::legal_moves(pos, &mut list);
            let ci = CheckInfo::new(pos);
            let threats = Threats::new(pos);
            let (once, twice, threatened) = threats_reference(pos);
            assert_eq!(
                (threats.once, threats.twice, threats.threatened),
                (once, twice, threatened)
            );
            let us = pos.side_to_move();
            let earlier = [rng.below(2000), NO_PIECE_TO];
            for &m in list.iter() {
                let bonus = rng.below(4001) as i32 - 2000;
                if is_tactical(pos, m) {
                    history.update_capture(pos, m, piece_to(pos, m), bonus);
                    assert_eq!(
                        capture_score(pos, m, &history),
                        capture_score_reference(pos, m, &history)
                    );
                } else {
                    history.update(us, m, piece_to(pos, m), earlier, bonus);
                    let fast = quiet_order_score(pos, m, &ci, &threats, &history, earlier, &params);
                    let slow = quiet_score_reference(pos, m, &ci, &history, earlier, &params);
                    assert_eq!(fast, slow, "{m} in {}", pos.to_sfen());
                }
                n += 1;
            }
        });
        assert!(n > 1_000_000, "{n} moves");
    }

    #[test]
    fn a_pawn_push_or_drop_at_a_piece_attacks_it_and_at_a_pawn_does_not() {
        let sq = |file, rank| Square::from_coords(file, rank).expect("square");
        // A black pawn on 5f below a white silver on 5d; a white pawn on 7d.
        let pos = Position::from_sfen("4k4/9/9/2p1s4/9/4P4/9/9/4K4 b P 1").expect("sfen");
        let push = Move::normal(sq(4, 5), sq(4, 4));
        assert!(is_valid(&pos, push) && !is_tactical(&pos, push));
        assert!(attacks_a_piece(&pos, push), "the pawn on 5e attacks the silver");
        let drop_at_pawn = Move::drop(PieceKind::Pawn, sq(6, 4));
        assert!(!attacks_a_piece(&pos, drop_at_pawn), "a pawn attacked is not a piece");
        let drop_far = Move::drop(PieceKind::Pawn, sq(8, 6));
        assert!(!attacks_a_piece(&pos, drop_far));
    }

    /// `see_ge` answers as `see` compared with the threshold, on every move of many
    /// positions and thresholds around the move's bounds; at the threshold 0 a fair share
    /// of the captures is answered by the bounds alone.
    #[test]
    fn see_ge_agrees_with_see() {
        let mut list = MoveList::new();
        let (mut asked, mut by_bounds) = (0, 0);
        crate::tools::test_positions::for_each(24, |pos| {
            list.clear();
            movegen::legal_moves(pos, &mut list);
            for &m in list.iter() {
                let value = see(pos, m);
                let (first, on_to, _) = exchange_start(pos, m);
                for t in [value - 1, value, value + 1, 0, first, first - on_to, -300, 300] {
                    assert_eq!(see_ge(pos, m, t), value >= t, "{m} at {t} in {}", pos.to_sfen());
                }
                // The captures' threshold in the move picker and the quiescence search.
                if is_tactical(pos, m) {
                    asked += 1;
                    by_bounds += usize::from(first < 0 || first - on_to >= 0);
                }
            }
        });
        assert!(asked > 100_000 && by_bounds * 6 > asked, "{by_bounds} of {asked} by the bounds");
    }

    #[test]
    fn see_values_simple_exchanges() {
        // A pawn takes a pawn defended by a gold: wins a pawn, loses the pawn back.
        let pos = Position::from_sfen("4k4/9/4g4/4p4/4P4/9/9/9/4K4 b - 1").expect("sfen");
        let m = Move::normal(
            Square::from_coords(4, 4).expect("sq"),
            Square::from_coords(4, 3).expect("sq"),
        );
        assert_eq!(see(&pos, m), 0);
        // A rook takes a pawn defended by a gold: loses the rook for a pawn.
        let pos = Position::from_sfen("4k4/9/4g4/4p4/9/9/9/4R4/3K5 b - 1").expect("sfen");
        let m = Move::normal(
            Square::from_coords(4, 7).expect("sq"),
            Square::from_coords(4, 3).expect("sq"),
        );
        assert!(see(&pos, m) < 0);
    }
}
