//! Pure rules' exact shortest line (depth-bounded rounds, then the line from exact lengths), the
//! first proof's line read from the table (`--any-mate`, or when nothing better could be
//! finished), and the rules check every line passes.

use super::dfpn::Search;
use super::expansion::{blocking_squares, is_block};
use super::futility::{king_escapes, mated_at_once};
use super::team::Team;
use super::value::Value;
use crate::config::Rules;
use crate::mate_line::only_interpositions_left;
use crate::outcome::Phase;
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
        self.begin(Phase::ShortestPure);
        let mut shortest = first;
        while shortest >= 2 && !self.aborted {
            let bound = shortest - 2;
            let shorter = team.prove_beside(bound, || self.answer_beside_others(root, bound));
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
        let pv = self.exact_line_from(root.clone(), len);
        self.truncate_path(base_len);
        pv
    }

    /// [`Search::exact_line`]'s walk, which leaves its positions on the path.
    fn exact_line_from(&mut self, mut pos: Position, len: u16) -> Option<Vec<Move>> {
        let mut pv = Vec::new();
        for left in (1..=len).rev() {
            if self.out_of_time() {
                return None;
            }
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
        }
        Some(pv)
    }

    /// A mate line read from the table (shortest proven check at OR nodes, longest proven
    /// evasion at AND nodes). Under tsume rules `futile` says how interpositions are left out:
    /// by their futility tests (searches), or by the board alone, as the first proof leaves
    /// them out ([`Futile::ByBoard`]: then nothing is searched but what the table lost, so
    /// that the line costs a few lookups a ply). A node the table lost is searched again
    /// unless the search was stopped. The line is replayed through the rules before it is
    /// trusted.
    pub(super) fn principal_variation(
        &mut self,
        root: &mut Position,
        futile: Futile,
    ) -> Option<Vec<Move>> {
        let mut pos = root.clone();
        let mut pv = Vec::new();
        let base_len = self.path.len();
        let line = loop {
            let mut list = MoveList::new();
            let or_node = self.node_moves(&pos, &mut list);
            if !or_node {
                self.drop_futile(&mut pos, &mut list, futile);
                if list.is_empty() {
                    break Some(pv);
                }
            }
            // A line as long as the depth limit may end in mate (checked above), not go on.
            if pv.len() >= self.max_ply as usize {
                break None;
            }
            let mut choice = self.pv_choice(&mut pos, &list, or_node);
            if choice.is_none() && !self.out_of_time() {
                // The table lost part of the proof: search this node again.
                let left = self.max_ply - pv.len() as u16;
                if self.prove(&mut pos, left).pn != 0 {
                    break None;
                }
                choice = self.pv_choice(&mut pos, &list, or_node);
            }
            let Some(mv) = choice else { break None };
            pv.push(mv);
            pos.make_move(mv);
            self.enter(&pos);
        };
        self.truncate_path(base_len);
        line.filter(|pv| replays_as_mate(root, pv, self.attacker, self.rules))
    }

    /// Leaves out of the `evasions` of the AND node `pos` the interpositions that are futile
    /// (tsume rules), as `futile` decides.
    fn drop_futile(&mut self, pos: &mut Position, evasions: &mut MoveList, futile: Futile) {
        if self.rules != Rules::Tsume {
            return;
        }
        let Some((ksq, line)) = blocking_squares(pos) else { return };
        let escapes = king_escapes(pos);
        let all: Vec<Move> = evasions.iter().copied().collect();
        evasions.clear();
        for mv in all {
            let dropped = is_block(mv, ksq, line)
                && match futile {
                    Futile::ByTest => self.is_futile(pos, mv, None),
                    Futile::ByBoard => mated_at_once(pos, mv, escapes),
                };
            if !dropped {
                evasions.push(mv);
            }
        }
    }

    fn pv_choice(&mut self, pos: &mut Position, list: &MoveList, or_node: bool) -> Option<Move> {
        let mut best: Option<(Move, u16)> = None;
        for &mv in list.iter() {
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

/// How a line read from the table leaves out futile interpositions (tsume rules): see
/// [`Search::principal_variation`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Futile {
    /// By their futility tests (searches with a node cap).
    ByTest,
    /// By the board alone: those taken and then mated at once, as the first proof does.
    ByBoard,
}

/// Replays `pv` from `root`: every move legal, every attacker move a check, ending in
/// checkmate; under tsume rules it may also end in a check that only interpositions answer
/// (the solver found them futile; their futility is its claim, not checked here).
pub fn replays_as_mate(root: &Position, pv: &[Move], attacker: Color, rules: Rules) -> bool {
    let mut pos = root.clone();
    for &mv in pv {
        let legal = if pos.side_to_move() == attacker {
            movegen::is_legal_check(&pos, mv)
        } else {
            movegen::is_legal(&pos, mv)
        };
        if !legal {
            return false;
        }
        pos.make_move(mv);
    }
    if pos.side_to_move() == attacker {
        return false;
    }
    movegen::is_checkmate(&pos) || (rules == Rules::Tsume && only_interpositions_left(&pos))
}
