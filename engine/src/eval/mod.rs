//! The hand-written evaluation: material (board and hand), piece placement relative to both
//! kings, slider mobility, and king safety (attacks on the king's zone against its defenders,
//! escape squares, the enemy's pieces in hand, an open king file).
//!
//! Every number comes from [`crate::eval::weights`]. The evaluation is computed from scratch:
//! one pass over the pieces and a dozen attack queries per king, a few hundred nanoseconds.

pub mod accumulator;
pub mod choice;
pub mod network;
pub mod weights;
pub mod weights_file;

use crate::eval::accumulator::Accumulator;
use crate::eval::weights::*;
use shogi::{attacks, Bitboard, Color, PieceKind, Position, Square};

/// The value of a position for the side to move, in centipawns, with the hand-set weights.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_scaled(pos, Scales::default())
}

/// Global scales of the evaluation's terms, in percent (the parameters `eval_king_safety`,
/// `eval_placement` and `eval_threats`), for tuning from outside without touching the weight
/// tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Scales {
    pub king_safety: i32,
    pub placement: i32,
    pub threats: i32,
}

impl Default for Scales {
    /// The scales of the default parameters.
    fn default() -> Scales {
        Scales::of(&crate::params::Params::default())
    }
}

impl Scales {
    /// The scales the parameters set.
    pub fn of(params: &crate::params::Params) -> Scales {
        Scales {
            king_safety: params.eval_king_safety,
            placement: params.eval_placement,
            threats: params.eval_threats,
        }
    }
}

/// [`evaluate`] with the king-safety, placement and threat terms scaled.
pub fn evaluate_scaled(pos: &Position, scales: Scales) -> i32 {
    evaluate_weighted(pos, &HAND_SET, scales)
}

/// [`evaluate_scaled`] with the weights `w`.
pub fn evaluate_weighted(pos: &Position, w: &Weights, scales: Scales) -> i32 {
    evaluate_with(pos, &Accumulator::of(pos, w), w, scales)
}

/// [`evaluate_weighted`] with material and placement taken from `acc` (the search keeps them
/// incrementally), which must be `pos`'s under the same weights.
pub fn evaluate_with(pos: &Position, acc: &Accumulator, w: &Weights, scales: Scales) -> i32 {
    let maps = AttackMaps::new(pos);
    let mut black = side_score(pos, Color::Black, &maps, w, scales, acc)
        - side_score(pos, Color::White, &maps, w, scales, acc);
    if w.control_on {
        black += control_score(pos, &maps, w);
    }
    let us = pos.side_to_move();
    let v = if us == Color::Black { black } else { -black };
    let fork = if scales.threats == 0 { 0 } else { fork_penalty(pos, us, &maps, w) };
    v + w.tempo - fork * scales.threats / 100
}

/// The squares at each Chebyshev distance, 1 to [`CONTROL_DISTANCES`], from each square.
static RINGS: [[Bitboard; CONTROL_DISTANCES]; 81] = build_rings();

const fn build_rings() -> [[Bitboard; CONTROL_DISTANCES]; 81] {
    let mut t = [[Bitboard::EMPTY; CONTROL_DISTANCES]; 81];
    let mut s = 0;
    while s < 81 {
        let mut o = 0usize;
        while o < 81 {
            // Square indices run nine to a file (or rank): the distance needs no more.
            let df = (s as i32 / 9 - o as i32 / 9).abs();
            let dr = (s as i32 % 9 - o as i32 % 9).abs();
            let d = if df > dr { df } else { dr };
            if d >= 1 && d as usize <= CONTROL_DISTANCES {
                t[s][d as usize - 1].0 |= 1u128 << o;
            }
            o += 1;
        }
        s += 1;
    }
    t
}

/// How many squares around the king on `k` stand in each state of control, by distance: index
/// `9·(d − 1) + 3·a + b`, where `a` is how often the king's side (`owner`) attacks the square
/// and `b` how often the other side does, each capped at 2.
pub fn control_counts(k: Square, owner: Color, maps: &AttackMaps) -> [i32; CONTROL_CELLS] {
    let levels = |c: Color| {
        let (once, twice) = (maps.once[c.index()], maps.twice[c.index()]);
        [!once, once.and_not(twice), twice]
    };
    let (a, b) = (levels(owner), levels(!owner));
    let mut counts = [0; CONTROL_CELLS];
    for (d, ring) in RINGS[k.index()].iter().enumerate() {
        for (i, &ours) in a.iter().enumerate() {
            let near = *ring & ours;
            for (j, &theirs) in b.iter().enumerate() {
                counts[9 * d + 3 * i + j] = (near & theirs).count() as i32;
            }
        }
    }
    counts
}

/// Square control near both kings, for Black (YaneuraOu's stronger material levels weigh the
/// control of every square by its distance to the kings; this is the learnt linear form): each
/// side scores `control_own` around its king and `control_enemy` around the other's.
fn control_score(pos: &Position, maps: &AttackMaps, w: &Weights) -> i32 {
    let mut black = 0;
    for owner in Color::ALL {
        let Some(k) = pos.king_square(owner) else { continue };
        let counts = control_counts(k, owner, maps);
        // The owner's view: a = its attacks, b = the other side's; the other side's view of the
        // same squares swaps them.
        let mut v = 0;
        for d in 0..CONTROL_DISTANCES {
            for a in 0..3 {
                for b in 0..3 {
                    let n = counts[9 * d + 3 * a + b];
                    v +=
                        n * (w.control_own[9 * d + 3 * a + b] - w.control_enemy[9 * d + 3 * b + a]);
                }
            }
        }
        black += if owner == Color::Black { v } else { -v };
    }
    black
}

/// What the side to move stands to lose when two of its pieces are en prise at once: it can
/// save one, and the quiescence search's stand pat would otherwise assume it saves both (a
/// fork, the drop tactics of shogi, is what the captures-only search cannot see). A piece is
/// en prise when an enemy pawn attacks it (it loses its value less the pawn taken back) or
/// when the enemy attacks it and nothing of ours, the king included, defends it. The penalty
/// is a share of the second-largest such loss.
pub fn fork_penalty(pos: &Position, us: Color, maps: &AttackMaps, w: &Weights) -> i32 {
    fork_loss(pos, us, maps, w) * w.fork_share_pct / 100
}

/// The second-largest loss of [`fork_penalty`], before its share.
pub fn fork_loss(pos: &Position, us: Color, maps: &AttackMaps, w: &Weights) -> i32 {
    let them = !us;
    let pieces = pos.pieces_of(us).and_not(pos.pieces(us, PieceKind::Pawn));
    let attacked = pieces & maps.once[them.index()];
    if !attacked.has_more_than_one() {
        return 0;
    }
    let by_pawn = pawn_attacks(them, pos.pieces(them, PieceKind::Pawn));
    let mut defended = maps.once[us.index()];
    if let Some(k) = pos.king_square(us) {
        defended |= attacks::king(k);
    }
    let (mut first, mut second) = (0, 0);
    for sq in attacked {
        let value = w.board[pos.piece_at(sq).kind().index()];
        let loss = match (by_pawn.contains(sq), defended.contains(sq)) {
            (true, true) => value - w.board[PieceKind::Pawn.index()],
            (_, false) => value,
            (false, true) => 0,
        };
        if loss > first {
            second = first;
            first = loss;
        } else if loss > second {
            second = loss;
        }
    }
    second
}

/// Squares each side attacks at least once and at least twice (kings left out). Sliders see
/// through the enemy king, so that the squares behind it count as attacked (it cannot step
/// there).
pub struct AttackMaps {
    pub once: [Bitboard; 2],
    pub twice: [Bitboard; 2],
    /// Squares attacked by each side's bishops/horses and by its rooks/dragons (mobility),
    /// counted with repeats: `[side][0]` bishop-like, `[side][1]` rook-like.
    pub mobility: [[i32; 2]; 2],
}

impl AttackMaps {
    pub fn new(pos: &Position) -> AttackMaps {
        let mut once = [Bitboard::EMPTY; 2];
        let mut twice = [Bitboard::EMPTY; 2];
        let mut mobility = [[0i32; 2]; 2];
        let occ = pos.occupied();
        for color in Color::ALL {
            let c = color.index();
            let occ_x = match pos.king_square(!color) {
                Some(k) => occ ^ Bitboard::from_square(k),
                None => occ,
            };
            // Pawns all at once: one step forward, and no two pawns of a side attack the same
            // square (they stand on different files).
            let mut a1 = pawn_attacks(color, pos.pieces(color, PieceKind::Pawn));
            let mut a2 = Bitboard::EMPTY;
            let mut mob = [0i32; 2];
            // The other pieces kind by kind (the union and the twice-attacked squares do not
            // depend on the order), so that no square is looked up on the board.
            let mut add = |att: Bitboard| {
                a2 |= a1 & att;
                a1 |= att;
            };
            for sq in pos.golds(color) {
                add(attacks::gold(color, sq));
            }
            for sq in pos.pieces(color, PieceKind::Silver) {
                add(attacks::silver(color, sq));
            }
            for sq in pos.pieces(color, PieceKind::Knight) {
                add(attacks::knight(color, sq));
            }
            for sq in pos.pieces(color, PieceKind::Lance) {
                add(attacks::lance(color, sq, occ_x));
            }
            for sq in pos.pieces(color, PieceKind::Bishop) {
                let att = attacks::bishop(sq, occ_x);
                mob[0] += att.count() as i32;
                add(att);
            }
            for sq in pos.pieces(color, PieceKind::Horse) {
                let att = attacks::horse(sq, occ_x);
                mob[0] += att.count() as i32;
                add(att);
            }
            for sq in pos.pieces(color, PieceKind::Rook) {
                let att = attacks::rook(sq, occ_x);
                mob[1] += att.count() as i32;
                add(att);
            }
            for sq in pos.pieces(color, PieceKind::Dragon) {
                let att = attacks::dragon(sq, occ_x);
                mob[1] += att.count() as i32;
                add(att);
            }
            once[c] = a1;
            twice[c] = a2;
            mobility[c] = mob;
        }
        AttackMaps { once, twice, mobility }
    }
}

/// Squares on rank `r` (0 = rank a) of every file.
const fn rank_mask(r: u32) -> u128 {
    let mut b = 0u128;
    let mut f = 0;
    while f < 9 {
        b |= 1u128 << (f * 9 + r);
        f += 1;
    }
    b
}

/// The squares attacked by `color`'s pawns: squares are `file · 9 + rank`, and a pawn attacks
/// the next rank towards the far side. Pawns on the far rank (impossible in a legal position)
/// are left out rather than wrapped onto the next file.
#[inline(always)]
fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    match color {
        Color::Black => Bitboard((pawns.0 & !rank_mask(0)) >> 1),
        Color::White => Bitboard((pawns.0 & !rank_mask(8)) << 1),
    }
}

/// A direct-mapped cache of evaluations by position key: the upper 48 bits of the key and the
/// value in the low 16 bits of one word.
pub struct EvalCache {
    slots: Vec<u64>,
    mask: usize,
}

impl EvalCache {
    /// A cache of `1 << bits` entries (8 bytes each).
    pub fn new(bits: u32) -> EvalCache {
        EvalCache { slots: vec![0; 1 << bits], mask: (1 << bits) - 1 }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = 0);
    }

    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<i32> {
        let s = self.slots[key as usize & self.mask];
        if s != 0 && (s ^ key) >> 16 == 0 {
            Some(s as u16 as i16 as i32)
        } else {
            None
        }
    }

    /// Starts loading the slot of `key` into the cache, for a probe soon after.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::search::prefetch::prefetch(&self.slots[key as usize & self.mask]);
    }

    #[inline(always)]
    pub fn store(&mut self, key: u64, value: i32) {
        let v = value.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        self.slots[key as usize & self.mask] = (key & !0xffff) | v;
    }
}

/// Material only (board and hand, hand-set values), for the side to move: the evaluation of
/// `eval_material_only`.
pub fn material(pos: &Position) -> i32 {
    let mut s = [0i32; 2];
    for color in Color::ALL {
        let c = color.index();
        let hand = pos.hand(color);
        for kind in PieceKind::HAND {
            s[c] += hand.count(kind) as i32 * HAND_VALUE[kind.index()];
        }
        for sq in pos.pieces_of(color) {
            s[c] += BOARD_VALUE[pos.piece_at(sq).kind().index()];
        }
    }
    let black = s[0] - s[1];
    if pos.side_to_move() == Color::Black {
        black
    } else {
        -black
    }
}

/// The value of a piece on the board.
#[inline(always)]
pub fn board_value(kind: PieceKind) -> i32 {
    BOARD_VALUE[kind.index()]
}

/// What capturing a piece of `kind` gains: it leaves the board and joins our hand.
#[inline(always)]
pub fn capture_value(kind: PieceKind) -> i32 {
    BOARD_VALUE[kind.index()] + HAND_VALUE[kind.unpromote().index()]
}

/// What promoting a piece of `kind` gains.
#[inline(always)]
pub fn promotion_gain(kind: PieceKind) -> i32 {
    if kind.can_promote() {
        BOARD_VALUE[kind.promote().index()] - BOARD_VALUE[kind.index()]
    } else {
        0
    }
}

/// `[owner][king][sq]` → `(dr + 8) * 9 + df`: the placement-table cell of `sq` relative to
/// `king`, seen from `owner` (see [`PlacementTable`]).
pub(crate) static RELATIVE: [[[u8; 81]; 81]; 2] = build_relative();

const fn build_relative() -> [[[u8; 81]; 81]; 2] {
    let mut t = [[[0u8; 81]; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 81 {
            let mut s = 0;
            while s < 81 {
                let df = (s / 9) as i32 - (k / 9) as i32;
                let df = if df < 0 { -df } else { df };
                let dr = (s % 9) as i32 - (k % 9) as i32;
                let dr = if c == 0 { dr } else { -dr };
                t[c][k][s] = ((dr + 8) * 9 + df) as u8;
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// The kinds with a placement class, with that class; the gold-likes are one entry, read from
/// [`Position::golds`].
pub(crate) const PLACED: [(PieceKind, usize); 9] = [
    (PieceKind::Pawn, CLASS_PAWN),
    (PieceKind::Lance, CLASS_LANCE),
    (PieceKind::Knight, CLASS_KNIGHT),
    (PieceKind::Silver, CLASS_SILVER),
    (PieceKind::Gold, CLASS_GOLD),
    (PieceKind::Bishop, CLASS_BISHOP),
    (PieceKind::Rook, CLASS_ROOK),
    (PieceKind::Horse, CLASS_HORSE),
    (PieceKind::Dragon, CLASS_DRAGON),
];

/// The placement sum of the pieces of `us` in `bb`, all of placement class `class`, relative to
/// the king squares that exist.
#[inline(always)]
pub(crate) fn placement_sum(
    w: &Weights,
    bb: Bitboard,
    class: usize,
    own: Option<&[u8; 81]>,
    enemy: Option<&[u8; 81]>,
) -> i32 {
    let mut sum = 0;
    match (own, enemy) {
        (Some(o), Some(e)) => {
            let (ot, et) = (&w.own_king[class], &w.enemy_king[class]);
            for sq in bb {
                let i = sq.index();
                sum += ot[o[i] as usize] as i32 + et[e[i] as usize] as i32;
            }
        }
        (Some(o), None) => {
            for sq in bb {
                sum += w.own_king[class][o[sq.index()] as usize] as i32;
            }
        }
        (None, Some(e)) => {
            for sq in bb {
                sum += w.enemy_king[class][e[sq.index()] as usize] as i32;
            }
        }
        (None, None) => {}
    }
    sum
}

/// The placement of one piece of `owner`, of placement class `class`, on `sq`, with the kings
/// (Black's, White's) on `kings`: the same cells as [`placement_sum`].
#[inline(always)]
pub(crate) fn placement_cell(
    w: &Weights,
    owner: Color,
    class: usize,
    kings: [Square; 2],
    sq: Square,
) -> i32 {
    let rel = &RELATIVE[owner.index()];
    let own = rel[kings[owner.index()].index()][sq.index()] as usize;
    let enemy = rel[kings[(!owner).index()].index()][sq.index()] as usize;
    w.own_king[class][own] as i32 + w.enemy_king[class][enemy] as i32
}

/// Material, placement and king safety of `us`, with its material and raw placement from
/// `acc`.
fn side_score(
    pos: &Position,
    us: Color,
    maps: &AttackMaps,
    w: &Weights,
    scales: Scales,
    acc: &Accumulator,
) -> i32 {
    let u = us.index();
    let placed = acc.placed[u];
    let [bishop_like, rook_like] = maps.mobility[u];
    let mut score = bishop_like * w.mobility_bishop + rook_like * w.mobility_rook + acc.material[u];
    score += if scales.placement == 100 { placed } else { placed * scales.placement / 100 };
    if let Some(k) = pos.king_square(us) {
        let penalty = king_danger_penalty(pos, us, k, maps, w);
        score -=
            if scales.king_safety == 100 { penalty } else { penalty * scales.king_safety / 100 };
    }
    score
}

/// The zone of a king of `color` on each square: its eight neighbours and the three squares two
/// ranks in front.
static KING_ZONE: [[u128; 81]; 2] = build_zones();

const fn build_zones() -> [[u128; 81]; 2] {
    let mut t = [[0u128; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let ahead: i32 = if c == 0 { -2 } else { 2 };
        let mut s = 0;
        while s < 81 {
            let sq = Square::from_index_unchecked(s as u8);
            let mut b = 0u128;
            let mut df = -1;
            while df <= 1 {
                let mut dr = -1;
                while dr <= 1 {
                    if df != 0 || dr != 0 {
                        if let Some(n) = sq.offset(df, dr) {
                            b |= 1u128 << n.index();
                        }
                    }
                    dr += 1;
                }
                if let Some(n) = sq.offset(df, ahead) {
                    b |= 1u128 << n.index();
                }
                df += 1;
            }
            t[c][s] = b;
            s += 1;
        }
        c += 1;
    }
    t
}

/// The king zone of `color`'s king on `ksq`.
#[inline(always)]
pub fn king_zone(color: Color, ksq: Square) -> Bitboard {
    Bitboard(KING_ZONE[color.index()][ksq.index()])
}

/// What the danger around a king is counted from: each term's count, before its weight (the
/// learner reads the counts; the evaluation weighs them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DangerCounts {
    /// Enemy attacks on the king's zone (a square attacked twice counts twice).
    pub attacks: u32,
    /// Zone squares where the enemy's attacks outnumber ours (once and twice).
    pub weak: u32,
    /// Squares beside the king attacked by the enemy and defended only by the king.
    pub undefended_adjacent: u32,
    /// The king's file has no pawn of its own and the enemy holds or has a rook.
    pub open_file: bool,
    /// Golds, silvers and promoted minors beside the king.
    pub defenders: u32,
    /// Safe escape squares (0..=8).
    pub escapes: usize,
    /// The enemy's pieces in hand by kind index (pawns capped at `KS_HAND_PAWN_CAP`).
    pub hand: [u32; 8],
}

impl DangerCounts {
    /// The counts around the king of `us` on `ksq`.
    #[inline(always)]
    pub fn of(pos: &Position, us: Color, ksq: Square, maps: &AttackMaps) -> DangerCounts {
        let them = !us;
        let (u, t) = (us.index(), them.index());
        let near = attacks::king(ksq);
        let zone = king_zone(us, ksq);
        let att1 = zone & maps.once[t];
        let att2 = zone & maps.twice[t];
        let mut hand_counts = [0u32; 8];
        let hand = pos.hand(them);
        if !hand.is_empty() {
            for kind in PieceKind::HAND {
                let n = hand.count(kind);
                hand_counts[kind.index()] =
                    if kind == PieceKind::Pawn { n.min(KS_HAND_PAWN_CAP) } else { n };
            }
        }
        let enemy_rooks = pos.pieces(them, PieceKind::Rook) | pos.pieces(them, PieceKind::Dragon);
        DangerCounts {
            attacks: att1.count() + att2.count(),
            weak: att1.and_not(maps.once[u]).count() + att2.and_not(maps.twice[u]).count(),
            undefended_adjacent: (near & maps.once[t]).and_not(maps.once[u]).count(),
            open_file: (pos.pieces(us, PieceKind::Pawn) & Bitboard::file(ksq.file())).is_empty()
                && (hand.has(PieceKind::Rook) || enemy_rooks.is_nonempty()),
            defenders: (near & (pos.golds(us) | pos.pieces(us, PieceKind::Silver))).count(),
            escapes: (near.and_not(pos.pieces_of(us)).and_not(maps.once[t]).count() as usize)
                .min(8),
            hand: hand_counts,
        }
    }

    /// The danger units under the weights `w`.
    #[inline(always)]
    pub fn danger(&self, w: &Weights) -> i32 {
        let mut danger = self.attacks as i32 * w.ks_attack
            + self.weak as i32 * w.ks_weak
            + self.undefended_adjacent as i32 * w.ks_undefended_adjacent
            + w.ks_escapes[self.escapes]
            - self.defenders as i32 * w.ks_defender;
        if self.open_file {
            danger += w.ks_open_file;
        }
        for kind in PieceKind::HAND {
            danger += self.hand[kind.index()] as i32 * w.ks_hand[kind.index()];
        }
        danger
    }
}

/// Danger units around the king of `us` on `ksq` (see the weights).
pub fn king_danger(pos: &Position, us: Color, ksq: Square, maps: &AttackMaps, w: &Weights) -> i32 {
    DangerCounts::of(pos, us, ksq, maps).danger(w)
}

/// The king-safety penalty of `us`: quadratic in the danger.
pub fn king_danger_penalty(
    pos: &Position,
    us: Color,
    ksq: Square,
    maps: &AttackMaps,
    w: &Weights,
) -> i32 {
    let d = king_danger(pos, us, ksq, maps, w) - KS_THRESHOLD;
    if d <= 0 {
        0
    } else {
        (d * d / KS_DIVISOR).min(KS_MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The control counts split each ring around a king among the nine states; in the start
    /// position (symmetric under a half-turn) both kings see the same counts; near the king
    /// the own side's attacks dominate.
    #[test]
    fn control_counts_cover_the_rings_and_are_symmetric() {
        let pos = Position::startpos();
        let maps = AttackMaps::new(&pos);
        let (Some(bk), Some(wk)) = (pos.king_square(Color::Black), pos.king_square(Color::White))
        else {
            panic!("two kings")
        };
        let black = control_counts(bk, Color::Black, &maps);
        assert_eq!(black, control_counts(wk, Color::White, &maps));
        for d in 0..CONTROL_DISTANCES {
            let total: i32 = black[9 * d..9 * d + 9].iter().sum();
            assert_eq!(total, RINGS[bk.index()][d].count() as i32, "distance {}", d + 1);
        }
        // Of 5i's five neighbours, the golds attack 4h 5h 6h; nothing attacks the golds' own
        // squares 4i and 6i (the king's attacks are left out); White attacks none.
        let by_black: i32 = (1..3).map(|a| black[3 * a]).sum();
        assert_eq!((RINGS[bk.index()][0].count(), by_black, black[0]), (5, 3, 2));
        // The control term is zero in the hand-set weights, and antisymmetric: the side to
        // move's score with a control weight set is minus the other's in the start position.
        let mut w = Weights::hand_set();
        w.control_own[3] = 10;
        assert_eq!(control_score(&pos, &maps, &w), 0);
        let mut one_sided = pos.clone();
        let m = one_sided.parse_usi_move("7g7f").unwrap_or_else(|e| panic!("{e}"));
        one_sided.make_move(m);
        let maps = AttackMaps::new(&one_sided);
        let manual: i32 = (0..2)
            .map(|c| {
                let owner = Color::ALL[c];
                let k = one_sided.king_square(owner).unwrap_or_else(|| panic!("king"));
                let n = control_counts(k, owner, &maps)[3];
                if owner == Color::Black {
                    10 * n
                } else {
                    -10 * n
                }
            })
            .sum();
        assert_eq!(control_score(&one_sided, &maps, &w), manual);
    }

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).expect("valid sfen")
    }

    /// The evaluation as it was before the kind-by-kind rewrite, square by square: the
    /// reference that [`evaluate_scaled`] must equal.
    mod reference {
        use super::super::*;

        pub fn evaluate_scaled(pos: &Position, scales: Scales) -> i32 {
            let maps = attack_maps(pos);
            let black = side_score(pos, Color::Black, &maps, scales)
                - side_score(pos, Color::White, &maps, scales);
            let us = pos.side_to_move();
            let v = if us == Color::Black { black } else { -black };
            let fork = fork_penalty(pos, us, &maps, &HAND_SET) * scales.threats / 100;
            v + TEMPO - fork
        }

        pub fn attack_maps(pos: &Position) -> AttackMaps {
            let mut once = [Bitboard::EMPTY; 2];
            let mut twice = [Bitboard::EMPTY; 2];
            let mut mobility = [[0i32; 2]; 2];
            let occ = pos.occupied();
            for color in Color::ALL {
                let c = color.index();
                let occ_x = match pos.king_square(!color) {
                    Some(k) => occ ^ Bitboard::from_square(k),
                    None => occ,
                };
                let mut a1 = pawn_attacks(color, pos.pieces(color, PieceKind::Pawn));
                let mut a2 = Bitboard::EMPTY;
                let mut mob = [0i32; 2];
                let others = pos.pieces_of(color).and_not(pos.pieces(color, PieceKind::Pawn));
                for sq in others {
                    let kind = pos.piece_at(sq).kind();
                    if kind == PieceKind::King {
                        continue;
                    }
                    let att = attacks::attacks(color, kind, sq, occ_x);
                    match kind {
                        PieceKind::Bishop | PieceKind::Horse => {
                            mob[0] += att.count() as i32;
                        }
                        PieceKind::Rook | PieceKind::Dragon => {
                            mob[1] += att.count() as i32;
                        }
                        _ => {}
                    }
                    a2 |= a1 & att;
                    a1 |= att;
                }
                once[c] = a1;
                twice[c] = a2;
                mobility[c] = mob;
            }
            AttackMaps { once, twice, mobility }
        }

        fn placement(
            table: &PlacementTable,
            class: usize,
            owner: Color,
            sq: Square,
            king: Square,
        ) -> i32 {
            let cell = RELATIVE[owner.index()][king.index()][sq.index()] as usize;
            table[class][cell / 9][cell % 9] as i32
        }

        fn side_score(pos: &Position, us: Color, maps: &AttackMaps, scales: Scales) -> i32 {
            let [bishop_like, rook_like] = maps.mobility[us.index()];
            let mut score = bishop_like * MOBILITY_BISHOP + rook_like * MOBILITY_ROOK;
            let mut placed = 0;
            let hand = pos.hand(us);
            if !hand.is_empty() {
                for kind in PieceKind::HAND {
                    score += hand.count(kind) as i32 * HAND_VALUE[kind.index()];
                }
            }
            let own_king = pos.king_square(us);
            let enemy_king = pos.king_square(!us);
            for sq in pos.pieces_of(us) {
                let kind = pos.piece_at(sq).kind();
                let Some(class) = class_of(kind) else {
                    score += KING_RANK[sq.rank().relative_to(us) as usize];
                    continue;
                };
                score += BOARD_VALUE[kind.index()];
                if let Some(k) = own_king {
                    placed += placement(&OWN_KING_TABLE, class, us, sq, k);
                }
                if let Some(k) = enemy_king {
                    placed += placement(&ENEMY_KING_TABLE, class, us, sq, k);
                }
            }
            score += if scales.placement == 100 { placed } else { placed * scales.placement / 100 };
            if let Some(k) = own_king {
                let penalty = king_danger_penalty(pos, us, k, maps, &HAND_SET);
                score -= if scales.king_safety == 100 {
                    penalty
                } else {
                    penalty * scales.king_safety / 100
                };
            }
            score
        }
    }

    /// The kind-by-kind evaluation equals the square-by-square reference, attack maps included,
    /// at the default scales and at others, on problem positions (kings missing included) and
    /// random playouts.
    #[test]
    fn evaluation_equals_the_reference() {
        let scales = [
            Scales::default(),
            Scales { king_safety: 70, placement: 130, threats: 40 },
            Scales { king_safety: 145, placement: 55, threats: 0 },
        ];
        let mut n = 0;
        crate::tools::test_positions::for_each(24, |p| {
            let (fast, slow) = (AttackMaps::new(p), reference::attack_maps(p));
            assert_eq!(
                (fast.once, fast.twice, fast.mobility),
                (slow.once, slow.twice, slow.mobility)
            );
            for s in scales {
                assert_eq!(
                    evaluate_scaled(p, s),
                    reference::evaluate_scaled(p, s),
                    "{}",
                    p.to_sfen()
                );
            }
            n += 1;
        });
        assert!(n > 20_000, "{n}");
    }

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let p = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        assert_eq!(evaluate(&p), TEMPO);
        let w = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
        assert_eq!(evaluate(&w), TEMPO);
    }

    #[test]
    fn material_counts_hand_above_board() {
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 b R 1");
        let q = pos("4k4/9/9/9/9/9/9/9/R3K4 b - 1");
        assert!(material(&p) > material(&q));
        assert!(material(&q) > 0);
    }

    #[test]
    fn two_pieces_en_prise_cost_the_side_to_move_a_share_of_the_smaller() {
        // A white rook on 3e attacks an undefended bishop (5e) and silver (1e).
        let forked = pos("4k4/9/9/9/4B1r1S/9/9/9/4K4 b - 1");
        let off = Scales { threats: 0, ..Scales::default() };
        let on = Scales { threats: 100, ..Scales::default() };
        let cost = |p: &Position| evaluate_scaled(p, off) - evaluate_scaled(p, on);
        assert_eq!(cost(&forked), BOARD_VALUE[PieceKind::Silver.index()] * FORK_SHARE_PCT / 100);
        // The side not to move is not charged: the search plays its captures.
        assert_eq!(cost(&pos("4k4/9/9/9/4B1r1S/9/9/9/4K4 w - 1")), 0);
        // One piece en prise costs nothing: it can be saved.
        assert_eq!(cost(&pos("4k4/9/9/9/4B1r2/9/9/9/4K4 b - 1")), 0);
        // A silver defended by a gold (2f) and attacked by a piece, not a pawn, is not en prise.
        assert_eq!(cost(&pos("4k4/9/9/9/4B1r1S/7G1/9/9/4K4 b - 1")), 0);
    }

    #[test]
    fn exposed_king_scores_worse() {
        let safe = pos("lnsg1gsnl/1r2k2b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        let ks = |p: &Position| {
            let k = p.king_square(Color::White).expect("king");
            king_danger(p, Color::White, k, &AttackMaps::new(p), &HAND_SET)
        };
        let attacked = pos("4k4/4G4/4P4/9/9/9/9/9/4K4 w GSr 1");
        assert!(ks(&attacked) > ks(&safe) + 50, "{} vs {}", ks(&attacked), ks(&safe));
        // The same material: White's golds beside its king, or away on the edges.
        let castle = pos("ln5nl/1r1gkg1b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 2s 1");
        let bare = pos("ln5nl/1r2k2b1/ppppppppp/g7g/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 2s 1");
        assert_eq!(material(&castle), material(&bare));
        assert!(
            evaluate(&bare) + 50 < evaluate(&castle),
            "{} vs {}",
            evaluate(&bare),
            evaluate(&castle)
        );
    }

    /// Rotates a position by 180° and swaps the colours: the side to move sees the same game.
    fn flipped(sfen: &str) -> String {
        let f: Vec<&str> = sfen.split_whitespace().collect();
        let swap = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let ranks: Vec<String> = f[0]
            .split('/')
            .rev()
            .map(|r| {
                // Keep '+' before its piece while reversing.
                let mut cells: Vec<String> = Vec::new();
                let mut plus = false;
                for c in r.chars() {
                    if c == '+' {
                        plus = true;
                        continue;
                    }
                    let s = if c.is_ascii_digit() { c.to_string() } else { swap(c).to_string() };
                    cells.push(if plus { format!("+{s}") } else { s });
                    plus = false;
                }
                cells.reverse();
                cells.concat()
            })
            .collect();
        let side = if f[1] == "b" { "w" } else { "b" };
        let hand: String =
            if f[2] == "-" { "-".to_owned() } else { f[2].chars().map(swap).collect() };
        format!("{} {} {} 1", ranks.join("/"), side, hand)
    }

    #[test]
    fn pawn_attacks_in_bulk_match_the_attack_tables() {
        for sfen in crate::tools::bench::BENCH_POSITIONS {
            let p = pos(sfen);
            for color in Color::ALL {
                let pawns = p.pieces(color, PieceKind::Pawn);
                let mut one_by_one = Bitboard::EMPTY;
                for sq in pawns {
                    one_by_one |= attacks::pawn(color, sq);
                }
                assert_eq!(pawn_attacks(color, pawns), one_by_one, "{sfen}");
            }
        }
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for sfen in crate::tools::bench::BENCH_POSITIONS {
            let p = pos(sfen);
            let q = pos(&flipped(sfen));
            assert_eq!(evaluate(&p), evaluate(&q), "{sfen} vs {}", flipped(sfen));
            assert_eq!(material(&p), material(&q), "{sfen}");
        }
    }
}
