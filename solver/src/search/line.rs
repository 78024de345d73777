//! Pure rules' exact shortest line (depth-bounded rounds, then the line from exact lengths), the
//! first proof's line read from the table (`--any-mate`, or when nothing better could be
//! finished), and the rules check every line passes.

use super::dfpn::Search;
use super::expansion::{blocking_squares, is_block};
use super::team::Team;
use super::value::Value;
use crate::config::Rules;
use crate::mate_line::only_interpositions_left;
use crate::tt::UNBOUNDED;
use shogi::movegen;
use shogi::{Color, Hand, Move, MoveList, Position};

impl Search<'_> {
    /// Pure rules: the exact shortest mate from a root proven with a `first`-ply mate. The same
    /// search runs with a bound ("is there a mate within L - 2?"), the team's helpers beside
    /// it, until none is left; the table keeps proofs with their length and bounded disproofs
    /// with their depth, so the rounds share it. The line is then built from exact lengths. `None` if a limit cut it.
    pub(super) fn shortest_pure_line(
        &mut self,
        root: &mut Position,
        first: u16,
        team: &mut Team<'_>,
    ) -> Option<Vec<Move>> {
        let mut shortest = first;
        while shortest >= 2 && !self.aborted {
            let bound = shortest - 2;
            let shorter = team.prove_beside(bound, || self.answer(root, bound));
            if shorter.pn != 0 {
                // A disproof that ended at the stack guard does not cover the bound.
                if shorter.depth < bound {
                    return None;
                }
                break;
            }
            shortest = shorter.len;
        }
        if self.aborted {
            return None;
        }
        self.exact_line(root, shortest)
    }

    /// Whether the position reached by `mv` from `pos` mates within `depth` plies.
    pub(super) fn mates_within(
        &mut self,
        pos: &mut Position,
        mv: Move,
        depth: u16,
    ) -> Option<bool> {
        pos.make_move(mv);
        self.enter(pos);
        let v = if self.is_repetition() {
            Value::disproven(Hand::EMPTY, true, UNBOUNDED)
        } else {
            self.answer(pos, depth)
        };
        self.leave();
        pos.unmake_move();
        // A disproof that ended at the stack guard does not answer the question.
        if self.aborted || (v.dn == 0 && v.depth < depth) {
            None
        } else {
            Some(v.pn == 0)
        }
    }

    /// A mate line of exactly `len` plies from a root whose shortest mate is `len`: at OR nodes
    /// a check that mates in the remaining length, at AND nodes an evasion that is not mated
    /// two plies sooner (the longest resistance).
    pub(super) fn exact_line(&mut self, root: &mut Position, len: u16) -> Option<Vec<Move>> {
        let base_len = self.path.len();
        let mut pos = root.clone();
        let mut pv = Vec::new();
        let mut left = len;
        while left > 0 {
            let mut list = MoveList::new();
            let or_node = self.node_moves(&pos, &mut list);
            let mut chosen = None;
            for &mv in list.iter() {
                let good = if or_node {
                    self.mates_within(&mut pos, mv, left - 1)?
                } else {
                    left < 3 || !self.mates_within(&mut pos, mv, left - 3)?
                };
                if good {
                    chosen = Some(mv);
                    break;
                }
            }
            let mv = chosen?;
            pv.push(mv);
            pos.make_move(mv);
            self.enter(&pos);
            left -= 1;
        }
        self.truncate_path(base_len);
        Some(pv)
    }

    /// A mate line read from the table (shortest proven check at OR nodes, longest proven
    /// evasion at AND nodes), for when the exact line could not be finished. Re-searches any
    /// node the table lost, and replays the line through the rules before trusting it.
    pub(super) fn principal_variation(&mut self, root: &mut Position) -> Option<Vec<Move>> {
        self.aborted = false;
        self.stopped = false;
        self.limits.nodes = self.limits.nodes.map(|n| n.saturating_mul(2));
        let mut pos = root.clone();
        let mut pv = Vec::new();
        let base_len = self.path.len();
        loop {
            let mut list = MoveList::new();
            let or_node = self.node_moves(&pos, &mut list);
            if !or_node && (list.is_empty() || self.only_futile_left(&mut pos, &list)) {
                break;
            }
            // A line as long as the depth limit may end in mate (checked above), not go on.
            if pv.len() >= self.max_ply as usize {
                return None;
            }
            let mut choice = self.pv_choice(&mut pos, &list, or_node);
            if choice.is_none() {
                // The table lost part of the proof: search this node again.
                let left = self.max_ply - pv.len() as u16;
                if self.prove(&mut pos, left).pn != 0 {
                    return None;
                }
                choice = self.pv_choice(&mut pos, &list, or_node);
            }
            let mv = choice?;
            pv.push(mv);
            pos.make_move(mv);
            self.enter(&pos);
        }
        self.truncate_path(base_len);
        replays_as_mate(root, &pv, self.attacker, self.rules).then_some(pv)
    }

    pub(super) fn pv_choice(
        &mut self,
        pos: &mut Position,
        list: &MoveList,
        or_node: bool,
    ) -> Option<Move> {
        let mut best: Option<(Move, u16)> = None;
        let blocks = if or_node { None } else { blocking_squares(pos) };
        for &mv in list.iter() {
            let block = blocks.is_some_and(|(ksq, line)| is_block(mv, ksq, line));
            if block && self.rules == Rules::Tsume && self.is_futile(pos, mv, None) {
                continue;
            }
            pos.make_move(mv);
            self.enter(pos);
            let v = if self.is_repetition() {
                None
            } else {
                self.table.lookup(self.table_key(pos), self.attacker_hand(pos), UNBOUNDED)
            };
            self.leave();
            pos.unmake_move();
            match v {
                Some(k) if k.pn == 0 => {
                    let better = match best {
                        None => true,
                        Some((_, len)) => {
                            if or_node {
                                k.len < len
                            } else {
                                k.len > len
                            }
                        }
                    };
                    if better {
                        best = Some((mv, k.len));
                    }
                }
                _ if !or_node => return None,
                _ => {}
            }
        }
        best.map(|(mv, _)| mv)
    }
}

impl Search<'_> {
    /// Tsume rules: whether every evasion of the AND node `pos` is a futile interposition.
    pub(super) fn only_futile_left(&mut self, pos: &mut Position, evasions: &MoveList) -> bool {
        if self.rules != Rules::Tsume {
            return false;
        }
        let Some((ksq, line)) = blocking_squares(pos) else { return false };
        evasions.iter().all(|&mv| is_block(mv, ksq, line)) && {
            let all: Vec<Move> = evasions.iter().copied().collect();
            all.into_iter().all(|mv| self.is_futile(pos, mv, None))
        }
    }
}

/// Replays `pv` from `root`: every move legal, every attacker move a check, ending in
/// checkmate; under tsume rules it may also end in a check that only interpositions answer
/// (the solver found them futile; their futility is its claim, not checked here).
pub fn replays_as_mate(root: &Position, pv: &[Move], attacker: Color, rules: Rules) -> bool {
    let mut pos = root.clone();
    for &mv in pv {
        if !movegen::is_legal(&pos, mv) {
            return false;
        }
        pos.make_move(mv);
        if pos.side_to_move() != attacker && !pos.in_check() {
            return false;
        }
    }
    if pos.side_to_move() == attacker {
        return false;
    }
    movegen::is_checkmate(&pos) || (rules == Rules::Tsume && only_interpositions_left(&pos))
}
