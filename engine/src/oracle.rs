//! The mate solver as the search's oracle, at three scales:
//!
//! * [`mate_in_1`] at every main-search node: the check-giving moves, each tested for
//!   checkmate. Cheap enough for every node, and it turns a whole subtree into one answer.
//! * [`Oracle::probe`]: a df-pn search with a small node budget (`oracle_probe_nodes`) at inner
//!   nodes where the opponent king is exposed (few escape squares and pieces in our hand).
//!   Failed probes are remembered by key so that the next iteration does not repeat them.
//! * [`RootOracle`]: a df-pn search of the root position on a thread beside the alpha-beta
//!   search (`oracle_root_ms`), so that a proven mate is played as proven, and a proven mate
//!   against us is met with the solver's longest defence.

use crate::params::Params;
use shogi::{attacks, movegen, Bitboard, Color, Move, MoveClass, MoveList, NonPromotions};
use shogi::{PieceKind, Position, Square};
use solver::{Limits, Outcome, Rules, Solver, SolverConfig};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A mating move for the side to move, if one exists (pure rules: pawn-drop mate excluded by
/// the generator). Not in check only; `list` is scratch space.
///
/// The checks are tried in generation order and the first mate is returned. Before making a
/// check, [`escapes_after`] looks for a neighbour of the enemy king that stays free after it;
/// most checks leave one, and they are skipped without make/unmake.
pub fn mate_in_1(pos: &mut Position, list: &mut MoveList) -> Option<Move> {
    first_mating_check(pos, list, escapes_after)
}

/// The first check, in generation order, that mates; checks for which `visibly_escapes`
/// (given the position, the check and [`free_neighbours`]) says the king survives are not made.
#[inline(always)]
fn first_mating_check(
    pos: &mut Position,
    list: &mut MoveList,
    visibly_escapes: impl Fn(&Position, Move, Bitboard) -> bool,
) -> Option<Move> {
    if pos.in_check() {
        return None;
    }
    list.clear();
    movegen::generate(pos, MoveClass::Checks, NonPromotions::Skip, list);
    if list.is_empty() {
        return None;
    }
    let free = free_neighbours(pos);
    for &m in list.iter() {
        if visibly_escapes(pos, m, free) {
            continue;
        }
        pos.make_move(m);
        let mate = is_mated(pos);
        pos.unmake_move();
        if mate {
            return Some(m);
        }
    }
    None
}

/// The neighbours of the enemy king that it could step to now: not its own pieces, and not
/// attacked by the side to move (the king lifted off, so that sliders see through it).
fn free_neighbours(pos: &Position) -> Bitboard {
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(!us) else { return Bitboard::EMPTY };
    let occ = pos.occupied() ^ Bitboard::from_square(ksq);
    let mut free = Bitboard::EMPTY;
    for sq in attacks::king(ksq).and_not(pos.pieces_of(!us)) {
        if !pos.is_attacked(us, sq, occ) {
            free |= Bitboard::from_square(sq);
        }
    }
    free
}

/// Whether the enemy king survives the check `m` for a reason visible before making it, so
/// that [`is_mated`] would answer `false`: a free neighbour, the checker capturable by the
/// king, or a single checker capturable by a piece that cannot be pinned. `free` is
/// [`free_neighbours`] of `pos`. A `false` answer proves nothing: the move is then made and
/// tested.
///
/// After `m`, a square `s` of `free` (other than `m`'s destination) can only be attacked by the
/// moved piece from its destination, or by a slider whose line to `s` ran through the square
/// `m` left: any other attack on `s` would have attacked it before (the destination only blocks
/// lines). So `s` is free unless the moved piece covers it or `s` lines up with the origin; in
/// that last case the exact attack test after the move decides.
#[inline]
fn escapes_after(pos: &Position, m: Move, free: Bitboard) -> bool {
    let us = pos.side_to_move();
    let them = !us;
    let Some(ksq) = pos.king_square(them) else { return false };
    let to = m.to();
    let tbb = Bitboard::from_square(to);
    let kbb = Bitboard::from_square(ksq);
    let (kind, from) = match m.dropped() {
        Some(kind) => (kind, None),
        None => {
            let from = m.from();
            let kind = pos.piece_at(from).kind();
            (if m.is_promotion() { kind.promote() } else { kind }, Some(from))
        }
    };
    let fbb = from.map_or(Bitboard::EMPTY, Bitboard::from_square);
    // The occupancy after the move, with the enemy king lifted off.
    let occ = (pos.occupied().and_not(fbb) | tbb).and_not(kbb);
    let cover = attacks::attacks(us, kind, to, occ);
    let left = free.and_not(tbb).and_not(cover);
    if left.is_nonempty() {
        let Some(from) = from else { return true };
        let lines = attacks::rook_empty(from) | attacks::bishop_empty(from);
        if left.and_not(lines).is_nonempty() {
            return true;
        }
        if left.into_iter().any(|s| pos.attackers_to(us, s, occ).and_not(fbb).is_empty()) {
            return true;
        }
    }
    if !cover.contains(ksq) {
        // A discovered check only: the checker is elsewhere.
        return false;
    }
    // The king takes the checker when nothing else of ours guards its square (exact: the
    // moved piece does not guard itself, and `occ` is the occupancy after the move).
    if attacks::king(ksq).contains(to) && pos.attackers_to(us, to, occ).and_not(fbb).is_empty() {
        return true;
    }
    // Another piece takes the sole checker. A move from a square in line with the king might
    // also discover a check (then taking one checker is not enough); a defender in line with
    // the king might be pinned after the move. Neither is decided here.
    if from.is_some_and(|f| attacks::line(f, ksq).is_nonempty()) {
        return false;
    }
    let defenders = pos.attackers_to(them, to, occ | kbb).and_not(kbb);
    defenders.into_iter().any(|d| attacks::line(d, ksq).is_empty())
}

/// Whether the side to move, in check, has no legal move: [`movegen::is_checkmate`] with an
/// early exit at the first escape (king step, capture of the checker, interposition) instead of
/// generating every evasion.
pub fn is_mated(pos: &Position) -> bool {
    let checkers = pos.checkers();
    if checkers.is_empty() {
        return false;
    }
    let us = pos.side_to_move();
    let them = !us;
    let Some(ksq) = pos.king_square(us) else { return false };
    let occ = pos.occupied();
    let kbb = Bitboard::from_square(ksq);
    for sq in attacks::king(ksq).and_not(pos.pieces_of(us)) {
        if !pos.is_attacked(them, sq, occ ^ kbb) {
            return false;
        }
    }
    if checkers.has_more_than_one() {
        return true;
    }
    let checker = checkers.lsb_unchecked();
    let pinned = pos.pinned();
    let can_reach = |sq: Square| {
        for from in pos.attackers_to(us, sq, occ).and_not(kbb) {
            if !pinned.contains(from) || attacks::aligned(from, sq, ksq) {
                return true;
            }
        }
        false
    };
    if can_reach(checker) {
        return false;
    }
    let between = attacks::between(checker, ksq);
    if between.is_empty() {
        return true;
    }
    let hand = pos.hand(us);
    for sq in between {
        if can_reach(sq) {
            return false;
        }
        if hand.is_empty() {
            continue;
        }
        let rel = sq.rank().relative_to(us);
        if hand.has(PieceKind::Silver)
            || hand.has(PieceKind::Gold)
            || hand.has(PieceKind::Bishop)
            || hand.has(PieceKind::Rook)
            || (hand.has(PieceKind::Lance) && rel > 0)
            || (hand.has(PieceKind::Knight) && rel > 1)
        {
            return false;
        }
        if hand.has(PieceKind::Pawn)
            && rel > 0
            && (pos.pieces(us, PieceKind::Pawn) & Bitboard::file(sq.file())).is_empty()
        {
            // An interposed pawn never checks a king behind the checker with a mate of its own
            // that matters here: the drop is legal unless it is a pawn-drop mate, which would
            // need the attacker's king right in front of it. Leave that rare case to the exact
            // test.
            return movegen::is_checkmate(pos);
        }
    }
    true
}

/// Around the king of `color`: how many neighbours are safe for it (not its own, not attacked),
/// and how many neighbours the other side attacks.
pub fn king_exposure(pos: &Position, color: Color) -> (u32, u32) {
    let Some(k) = pos.king_square(color) else { return (8, 0) };
    let occ = pos.occupied() ^ Bitboard::from_square(k);
    let own = pos.pieces_of(color);
    let (mut escapes, mut attacked) = (0, 0);
    for sq in attacks::king(k) {
        if pos.is_attacked(!color, sq, occ) {
            attacked += 1;
        } else if !own.contains(sq) {
            escapes += 1;
        }
    }
    (escapes, attacked)
}

const PROBE_CACHE: usize = 1 << 12;

/// The inner-node probe: a small solver and the keys of positions where it found nothing.
pub struct Oracle {
    solver: Option<Solver>,
    failed: Vec<u64>,
    /// Solver nodes spent in probes (not counted as search nodes).
    pub nodes: u64,
    pub probes: u64,
    pub mates: u64,
}

impl Default for Oracle {
    fn default() -> Self {
        Oracle::new()
    }
}

impl Oracle {
    pub fn new() -> Oracle {
        Oracle { solver: None, failed: vec![0; PROBE_CACHE], nodes: 0, probes: 0, mates: 0 }
    }

    /// Forgets the probe results (a new game).
    pub fn clear(&mut self) {
        if let Some(s) = self.solver.as_mut() {
            s.clear();
        }
        self.failed.iter_mut().for_each(|k| *k = 0);
    }

    /// Whether a probe is worth it at this node: we hold a piece in hand, the opponent king has
    /// at most `oracle_probe_escapes` safe squares and we attack at least
    /// `oracle_probe_attacks` of its neighbours.
    pub fn worth_probing(pos: &Position, params: &Params) -> bool {
        let us = pos.side_to_move();
        if pos.in_check() || pos.hand(us).is_empty() {
            return false;
        }
        let (escapes, attacked) = king_exposure(pos, !us);
        escapes <= params.oracle_probe_escapes as u32
            && attacked >= params.oracle_probe_attacks as u32
    }

    /// Looks for a mate by the side to move within the probe budget. Returns the mating line
    /// (its length is the mate distance in plies).
    pub fn probe(&mut self, pos: &Position, params: &Params) -> Option<Vec<Move>> {
        let key = pos.key();
        let slot = (key as usize) & (PROBE_CACHE - 1);
        if self.failed[slot] == key {
            return None;
        }
        let hash_mb = params.oracle_probe_hash_mb.max(1) as usize;
        let solver = self.solver.get_or_insert_with(|| {
            Solver::new(SolverConfig { hash_mb, rules: Rules::Pure, ..SolverConfig::default() })
        });
        let limits = Limits { time: None, nodes: Some(params.oracle_probe_nodes.max(1) as u64) };
        let never = AtomicBool::new(false);
        let result = solver.solve(pos, &limits, &never, &mut |_| {});
        self.nodes += result.nodes;
        self.probes += 1;
        match result.outcome {
            Outcome::Mate(pv) if !pv.is_empty() => {
                self.mates += 1;
                Some(pv)
            }
            _ => {
                self.failed[slot] = key;
                None
            }
        }
    }
}

/// What the root oracle proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootVerdict {
    /// The side to move mates along this line.
    Win(Vec<Move>),
    /// The side to move (in check) is mated; the line starts with the longest defence.
    Loss(Vec<Move>),
    /// Nothing proven within the budget.
    Unknown,
}

/// The root df-pn search, run on its own thread beside the alpha-beta search.
pub struct RootOracle {
    solver: Option<Solver>,
}

impl Default for RootOracle {
    fn default() -> Self {
        RootOracle::new()
    }
}

impl RootOracle {
    pub fn new() -> RootOracle {
        RootOracle { solver: None }
    }

    pub fn clear(&mut self) {
        if let Some(s) = self.solver.as_mut() {
            s.clear();
        }
    }

    /// Whether the root position is worth a df-pn search: we are in check (a mate against us
    /// would be proven) or we have a check to give.
    pub fn worth_solving(pos: &Position) -> bool {
        if pos.in_check() {
            return true;
        }
        let mut list = MoveList::new();
        movegen::generate(pos, MoveClass::Checks, NonPromotions::Skip, &mut list);
        !list.is_empty()
    }

    /// Solves `pos` for at most `budget` or until `stop`. Sets `found` when a proof is found,
    /// so that the alpha-beta search may end.
    pub fn solve(
        &mut self,
        pos: &Position,
        budget: Duration,
        hash_mb: usize,
        stop: &AtomicBool,
        found: &AtomicBool,
    ) -> RootVerdict {
        let solver = self.solver.get_or_insert_with(|| {
            Solver::new(SolverConfig {
                hash_mb: hash_mb.max(1),
                rules: Rules::Pure,
                ..SolverConfig::default()
            })
        });
        let limits = Limits { time: Some(budget), nodes: None };
        let result = solver.solve(pos, &limits, stop, &mut |_| {});
        let verdict = match result.outcome {
            Outcome::Mate(pv) if !pv.is_empty() => {
                if pos.in_check() {
                    RootVerdict::Loss(pv)
                } else {
                    RootVerdict::Win(pv)
                }
            }
            _ => RootVerdict::Unknown,
        };
        if verdict != RootVerdict::Unknown {
            found.store(true, Ordering::Relaxed);
        }
        verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_mate_in_one() {
        // Gold drop on 5b mates the bare king on 5a guarded by the pawn on 5c.
        let mut pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").expect("sfen");
        let mut list = MoveList::new();
        let m = mate_in_1(&mut pos, &mut list).expect("mate");
        assert_eq!(m.to_string(), "G*5b");
        let mut pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").expect("sfen");
        assert!(mate_in_1(&mut pos, &mut list).is_none());
    }

    /// The exhaustive search that [`mate_in_1`] must agree with: every check in generation
    /// order, made and tested.
    fn mate_in_1_reference(pos: &mut Position) -> Option<Move> {
        first_mating_check(pos, &mut MoveList::new(), |_, _, _| false)
    }

    /// The pre-move escape test never skips a mate: the same first mating move (or none) as
    /// the exhaustive search, on problem positions and random playouts from them.
    #[test]
    fn mate_in_1_agrees_with_the_exhaustive_search() {
        let mut list = MoveList::new();
        let (mut positions, mut mates) = (0, 0);
        crate::test_positions::for_each(24, |pos| {
            let key = pos.key();
            let fast = mate_in_1(pos, &mut list);
            assert_eq!(pos.key(), key);
            let slow = mate_in_1_reference(pos);
            assert_eq!(fast, slow, "{}", pos.to_sfen());
            positions += 1;
            mates += fast.is_some() as u32;
        });
        assert!(positions > 20_000 && mates > 1_000, "{positions} positions, {mates} mates");
    }

    /// The early-exit test agrees with the rules core on every check of some positions.
    #[test]
    fn is_mated_agrees_with_the_rules_core() {
        let sfens = [
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
            "l3kgsnl/9/p1pS+Bp3/7pp/6PP1/9/PPPPPPn1P/1B1GG2+r1/LNS1K3L w RG3Psnp 54",
            "4+S4/7G1/4+Spk+Rp/3p5/p1P4nP/6+r2/PPNPP+l3/5Gs2/L1SKN2+b1 w NL7Pb2glp 128",
            "3S+S4/3+R2k1l/5pnpp/3p1l3/p1P5P/6+r2/PPNPPP3/5G3/L1SKN2+b1 w GN5Pb2gslp 118",
            "4k4/9/4P4/9/9/9/9/9/4K4 b GSNLP 1",
        ];
        let mut checked = 0;
        for sfen in sfens {
            let mut pos = Position::from_sfen(sfen).expect("sfen");
            let mut list = MoveList::new();
            movegen::generate(&pos, MoveClass::Checks, NonPromotions::Include, &mut list);
            for &m in list.iter() {
                pos.make_move(m);
                assert_eq!(is_mated(&pos), movegen::is_checkmate(&pos), "{sfen} {m}");
                // One ply deeper: every evasion, then every check again.
                let mut ev = MoveList::new();
                movegen::legal_moves(&pos, &mut ev);
                for &e in ev.iter() {
                    pos.make_move(e);
                    let mut c = MoveList::new();
                    movegen::generate(&pos, MoveClass::Checks, NonPromotions::Include, &mut c);
                    for &x in c.iter() {
                        pos.make_move(x);
                        assert_eq!(
                            is_mated(&pos),
                            movegen::is_checkmate(&pos),
                            "{sfen} {m} {e} {x}"
                        );
                        checked += 1;
                        pos.unmake_move();
                    }
                    pos.unmake_move();
                }
                pos.unmake_move();
            }
        }
        assert!(checked > 500, "{checked}");
    }
}
