//! The df-pn recursion: a node is expanded, and its most promising child searched, until its
//! thresholds are crossed or it is solved.

use super::expansion::blocking_squares;
use super::thresholds::{select, widen};
use super::value::{deeper, Child, Value};
use crate::config::DoubleCount;
use crate::outcome::{Limits, Progress};
use crate::pn::{self, PnDn, INF};
use crate::repetition_table::RepetitionTable;
use crate::stack::StackGuard;
use crate::tt::{NodeId, Stored, Table};
use shogi::{Color, Hand, MoveList, Position};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Per-ply scratch space, reused so that expansion does not allocate.
#[derive(Default)]
pub(super) struct Frame {
    pub(super) moves: MoveList,
    pub(super) children: Vec<Child>,
}

pub(super) struct Search<'a> {
    pub(super) table: &'a mut Table,
    pub(super) repetitions: &'a mut RepetitionTable,
    pub(super) double_count: DoubleCount,
    pub(super) attacker: Color,
    pub(super) nodes: u64,
    pub(super) limits: Limits,
    pub(super) start: Instant,
    pub(super) next_report: Instant,
    /// The node count at which limits are polled next.
    pub(super) next_check: u64,
    /// The node count at which the table's fill is looked at next.
    pub(super) next_gc_check: u64,
    pub(super) stop: &'a AtomicBool,
    pub(super) progress: &'a mut dyn FnMut(&Progress),
    pub(super) aborted: bool,
    /// The deepest ply a search goes to (the root's remaining depth).
    pub(super) max_ply: u16,
    /// Ends a branch before the thread's stack runs out.
    pub(super) guard: StackGuard,
    /// The root's (pn, dn) after the last completed iteration, for progress reports.
    pub(super) root_value: (PnDn, PnDn),
    /// Keys of the positions from the root to the current node, inclusive.
    pub(super) path: Vec<u64>,
    /// The same positions as table identities (board key, attacker hand), for SNDA.
    pub(super) nodes_on_path: Vec<NodeId>,
    /// Hashes of the path up to each position, for the repetition tier.
    pub(super) path_hashes: Vec<u64>,
    /// SNDA: per ply, pairs of children of the node at that ply found to share a source.
    pub(super) merges: Vec<Vec<(NodeId, NodeId)>>,
    /// One frame per ply, boxed so that taking one out moves a pointer, not the move list
    /// (which would also put 2.4 KB on the call stack per ply).
    pub(super) arena: Vec<Option<Box<Frame>>>,
}

impl Search<'_> {
    pub(super) fn attacker_hand(&self, pos: &Position) -> Hand {
        pos.hand(self.attacker)
    }

    /// Searches `pos` (the last position of the path) until it is solved within `depth`
    /// remaining plies or the search is aborted.
    pub(super) fn prove(&mut self, pos: &mut Position, depth: u16) -> Value {
        loop {
            let v = self.mid(pos, INF, INF, depth);
            if v.is_solved() || self.aborted {
                return v;
            }
        }
    }

    pub(super) fn store(&mut self, pos: &Position, v: &Value, amount: u32) {
        let stored = Stored { pn: v.pn, dn: v.dn, len: v.len, depth: v.depth, amount };
        let n = self.nodes_on_path.len();
        let parent = if n >= 2 { Some(self.nodes_on_path[n - 2]) } else { None };
        self.table.store(pos.board_key(), v.hand, stored, parent);
    }

    /// Expands `pos` (an OR or AND node with `depth` plies left) and searches below it until
    /// its pn reaches `th_pn`, its dn reaches `th_dn`, it is solved, or the search is aborted.
    pub(super) fn mid(
        &mut self,
        pos: &mut Position,
        th_pn: PnDn,
        th_dn: PnDn,
        depth: u16,
    ) -> Value {
        let ply = self.path.len();
        let hand = self.attacker_hand(pos);
        if self.aborted {
            return Value::unknown(1, 1, hand);
        }
        let or_node = pos.side_to_move() == self.attacker;
        // The end of a branch: no ply left, or no stack left to expand (a node searched by
        // `mid` is never already mated, so "no mate within 0 plies" holds). Not stored.
        if (or_node && depth == 0) || self.guard.exhausted(ply) {
            return Value::disproven(hand, false, 0);
        }
        let child_depth = deeper(depth);
        let nodes_before = self.nodes;
        while self.arena.len() <= ply {
            self.arena.push(None);
        }
        let mut frame = self.arena[ply].take().unwrap_or_default();
        frame.moves.clear();
        frame.children.clear();
        self.node_moves(pos, &mut frame.moves);
        let snda = self.double_count == DoubleCount::Snda;
        let blocks = if or_node { None } else { blocking_squares(pos) };
        for &mv in frame.moves.iter() {
            pos.make_move(mv);
            self.nodes += 1;
            self.enter(pos);
            let value = self.estimate(pos, child_depth);
            let id = self.nodes_on_path[ply];
            if snda && !value.is_solved() {
                self.detect_source(ply, id);
            }
            self.leave();
            pos.unmake_move();
            let group = self.group_key(pos, mv, blocks, frame.children.len());
            frame.children.push(Child { mv, id, value, group });
        }
        self.apply_merges(ply, &mut frame.children);
        // Keep each group contiguous so aggregation is a single pass.
        frame.children.sort_by_key(|c| c.group);

        let value = loop {
            let node = self.aggregate(pos, or_node, &frame.children);
            if ply == 1 {
                self.root_value = (node.pn, node.dn);
            }
            self.check_limits();
            if node.is_solved() || node.pn >= th_pn || node.dn >= th_dn || self.aborted {
                break node;
            }
            let (best, second) = select(or_node, &frame.children);
            let child = frame.children[best].value;
            let (child_th_pn, child_th_dn) = if or_node {
                (th_pn.min(pn::epsilon_threshold(second)), widen(th_dn, node.dn, child.dn))
            } else {
                (widen(th_pn, node.pn, child.pn), th_dn.min(pn::epsilon_threshold(second)))
            };
            let mv = frame.children[best].mv;
            pos.make_move(mv);
            self.enter(pos);
            let v = self.mid(pos, child_th_pn, child_th_dn, child_depth);
            self.leave();
            pos.unmake_move();
            frame.children[best].value = v;
            if self.apply_merges(ply, &mut frame.children) {
                frame.children.sort_by_key(|c| c.group);
            }
        };
        if let Some(m) = self.merges.get_mut(ply) {
            m.clear();
        }
        self.arena[ply] = Some(frame);

        if value.dn == 0 && value.by_repetition {
            // Path-dependent: only the repetition tier, keyed by this very path, may keep it.
            self.repetitions.insert(self.path_hash(), value.depth);
        } else {
            let amount = (self.nodes - nodes_before).min(u32::MAX as u64) as u32;
            self.store(pos, &value, amount);
        }
        value
    }
}
