//! The mate solver as the search's oracle, at three scales:
//!
//! * [`mate_in_1`] at every main-search node: the check-giving moves, each tested for
//!   checkmate. Cheap enough for every node, and it turns a whole subtree into one answer.
//! * [`Oracle::probe`]: a df-pn search with a small node budget (`oracle_probe_nodes`) at inner
//!   nodes where the opponent king is exposed (few escape squares and pieces in our hand).
//!   Failed probes are remembered by key so that the next iteration does not repeat them.
//! * [`RootOracle`]: a df-pn search of the root position in slices of the main search thread's
//!   time (`oracle_root_share_pct`, at most `oracle_root_ms`), so that a proven mate is played
//!   as proven, and a proven mate against us is met with the solver's longest defence.

use crate::params::Params;
pub use shogi::mate1::{is_mated, mate_in_1};
use shogi::{
    attacks, movegen, Bitboard, Color, Move, MoveClass, MoveList, NonPromotions, Position,
};
use solver::{Limits, Outcome, Rules, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

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

    /// The probes' solver (made at the first probe, with the table `oracle_probe_hash_mb`).
    fn solver(&mut self, params: &Params) -> &mut Solver {
        let hash_mb = params.oracle_probe_hash_mb.max(1) as usize;
        self.solver.get_or_insert_with(|| {
            Solver::new(SolverConfig { hash_mb, rules: Rules::Pure, ..SolverConfig::default() })
        })
    }

    /// Looks for a mate by the side to move within the probe budget. Returns the mating line
    /// (its length is the mate distance in plies).
    pub fn probe(&mut self, pos: &Position, params: &Params) -> Option<Vec<Move>> {
        let key = pos.key();
        let slot = (key as usize) & (PROBE_CACHE - 1);
        if self.failed[slot] == key {
            return None;
        }
        self.probes += 1;
        let budget = params.oracle_probe_nodes.max(1) as u64;
        let look = params.oracle_probe_look_nodes as u64;
        let mut spent = 0;
        if look > 0 && look < budget {
            let (outcome, nodes, root_pn) = self.search(pos, look, params);
            spent = nodes;
            match outcome {
                Outcome::Timeout if root_pn <= params.oracle_probe_near_pn as u32 => {}
                outcome => return self.found(outcome, slot, key),
            }
        }
        // The look's work stays in the solver's table: the rest of the budget goes on from it.
        let (outcome, _, _) = self.search(pos, budget.saturating_sub(spent).max(1), params);
        self.found(outcome, slot, key)
    }

    /// One df-pn search of `pos` within `nodes`: its outcome, the nodes it made and the root's
    /// proof number where it stopped.
    fn search(&mut self, pos: &Position, nodes: u64, params: &Params) -> (Outcome, u64, u32) {
        let limits = Limits { time: None, nodes: Some(nodes) };
        let never = AtomicBool::new(false);
        let mut root_pn = u32::MAX;
        let result = self.solver(params).solve(pos, &limits, &never, &mut |p| root_pn = p.root_pn);
        self.nodes += result.nodes;
        (result.outcome, result.nodes, root_pn)
    }

    /// A probe's answer: the mating line, or none (and the position remembered as failed).
    fn found(&mut self, outcome: Outcome, slot: usize, key: u64) -> Option<Vec<Move>> {
        match outcome {
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

    /// The threat probe (詰めろ): whether the opponent mates after our move `mv` from `pos`,
    /// proven within `nodes` df-pn nodes and `time` (the search's time left); the mating line
    /// from the opponent's first move. A move that gives check is not asked (the opponent
    /// must answer it first).
    pub fn threat_after(
        &mut self,
        pos: &Position,
        mv: Move,
        nodes: u64,
        time: Option<Duration>,
        params: &Params,
    ) -> Option<Vec<Move>> {
        let mut after = pos.clone();
        after.make_move(mv);
        if after.in_check() {
            return None;
        }
        let solver = self.solver(params);
        let limits = Limits { time, nodes: Some(nodes.max(1)) };
        let never = AtomicBool::new(false);
        let result = solver.solve(&after, &limits, &never, &mut |_| {});
        self.nodes += result.nodes;
        match result.outcome {
            Outcome::Mate(pv) if !pv.is_empty() => Some(pv),
            _ => None,
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
    /// Proven: no mate either way.
    NoMate,
    /// Nothing proven within the budget.
    Unknown,
}

/// The root df-pn search, run in slices of the main search thread's time (see
/// [`crate::search::root_slices`]).
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

    /// Makes the solver now (its table of `hash_mb` is allocated and every page touched), so
    /// that the first search that uses it does not pay for that on its clock: made inside the
    /// first `go`, it made that move 130 ms late at 100 ms byoyomi.
    pub fn prepare(&mut self, hash_mb: usize) {
        self.prepared(hash_mb);
    }

    /// Whether the solver is made.
    pub fn is_prepared(&self) -> bool {
        self.solver.is_some()
    }

    fn prepared(&mut self, hash_mb: usize) -> &mut Solver {
        self.solver.get_or_insert_with(|| {
            Solver::new(SolverConfig {
                hash_mb: hash_mb.max(1),
                rules: Rules::Pure,
                ..SolverConfig::default()
            })
        })
    }

    /// Solves `pos` for at most `budget` or until `stop`, on the table of the earlier calls: a
    /// solve cut short goes on where it left off at the next call (see
    /// [`crate::search::root_slices`]). `None` while nothing is settled.
    pub fn solve(
        &mut self,
        pos: &Position,
        budget: Duration,
        hash_mb: usize,
        stop: &AtomicBool,
    ) -> Option<RootVerdict> {
        let solver = self.prepared(hash_mb);
        let limits = Limits { time: Some(budget), nodes: None };
        let result = solver.solve(pos, &limits, stop, &mut |_| {});
        match result.outcome {
            Outcome::Mate(pv) if !pv.is_empty() => {
                Some(if pos.in_check() { RootVerdict::Loss(pv) } else { RootVerdict::Win(pv) })
            }
            Outcome::Mate(_) | Outcome::NoMate => Some(RootVerdict::NoMate),
            Outcome::Timeout => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exhaustive search that [`mate_in_1`] must agree with: every check in generation
    /// order, made and tested.
    fn mate_in_1_reference(pos: &mut Position) -> Option<Move> {
        if pos.in_check() {
            return None;
        }
        let mut checks = MoveList::new();
        movegen::generate(pos, MoveClass::Checks, NonPromotions::Skip, &mut checks);
        let free = shogi::mate1::free_neighbours(pos);
        shogi::mate1::first_mating_check(pos, &checks, free, |_, _, _| false)
    }

    /// The pre-move escape test never skips a mate: the same first mating move (or none) as
    /// the exhaustive search, on problem positions and random playouts from them.
    #[test]
    fn mate_in_1_agrees_with_the_exhaustive_search() {
        let mut list = MoveList::new();
        let (mut positions, mut mates) = (0, 0);
        crate::tools::test_positions::for_each(24, |pos| {
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

    /// The probe's first look: every line a probe returns replays as a mate; a look that leaves
    /// a mate far spends no more than the look's nodes (and the position is not probed again);
    /// a look that always goes on finds the mates that the whole budget at once finds.
    #[test]
    fn the_first_look_spends_the_rest_only_where_a_mate_is_near() {
        let whole = Params { oracle_probe_look_nodes: 0, ..Params::default() };
        let always_on = Params { oracle_probe_near_pn: 1000, ..Params::default() };
        let never_on = Params { oracle_probe_near_pn: 1, ..Params::default() };
        let (mut probed, mut mates, mut cut_short, mut at_once_mates) = (0, 0, 0, 0);
        let mut seen = 0;
        crate::tools::test_positions::for_each(24, |pos| {
            // Every tenth position with a piece in hand (all of them took three minutes).
            if pos.in_check() || pos.hand(pos.side_to_move()).is_empty() {
                return;
            }
            seen += 1;
            if seen % 10 != 0 {
                return;
            }
            probed += 1;
            let at_once = Oracle::new().probe(pos, &whole);
            let mut going_on = Oracle::new();
            let found = going_on.probe(pos, &always_on);
            at_once_mates += at_once.is_some() as u32;
            if let Some(line) = &found {
                mates += 1;
                let mut after = pos.clone();
                for &m in line {
                    assert!(movegen::is_legal(&after, m), "{} {m:?}", pos.to_sfen());
                    after.make_move(m);
                }
                assert!(is_mated(&after), "{}", pos.to_sfen());
            }
            let mut looking = Oracle::new();
            if looking.probe(pos, &never_on).is_none() {
                let look = never_on.oracle_probe_look_nodes as u64;
                if looking.nodes < 2 * look {
                    cut_short += 1;
                }
                assert!(looking.probe(pos, &never_on).is_none());
                assert_eq!(looking.probes, 1, "a failed position is remembered");
            }
        });
        assert!(probed > 1000 && mates > 100 && cut_short > 500, "{probed} {mates} {cut_short}");
        // Split in two, the budget finds the mates it found at once, give or take a few at its
        // edge (15,139 and 15,181 of 47,071 probes when this was written).
        assert!(mates + at_once_mates / 50 >= at_once_mates, "{mates} of {at_once_mates}");
    }
}
