//! Double counting (seed 001): which children aggregate by max, and SNDA's source detection.

use super::children::Child;
use super::dfpn::{Frame, Search};
use super::expansion::{is_block, twin_is_legal};
use crate::config::DoubleCount;
use crate::tt::NodeId;
use shogi::{Bitboard, Move, PieceKind, Position, Square};

impl Search<'_> {
    /// SNDA source detection for a child just reached from the node at `ply`: if the table
    /// says the child was reached before from another parent, walk that parent's links up to
    /// the nearest ancestor on the current path. The children of that ancestor through which
    /// the two routes leave it share a source: they are recorded to aggregate by max.
    pub(super) fn detect_source(&mut self, ply: usize, child: NodeId) {
        const MAX_WALK: usize = 16;
        let here = self.nodes_on_path[ply - 1];
        let Some(mut up) = self.table.parent_of(child) else { return };
        if up == here {
            return;
        }
        let mut below = child;
        for _ in 0..MAX_WALK {
            // Is `up` on the current path (at or above this node)?
            if let Some(q) = self.nodes_on_path[..ply].iter().rposition(|&n| n == up) {
                let on_path = if q + 1 < ply { self.nodes_on_path[q + 1] } else { child };
                if on_path != below {
                    while self.merges.len() <= q + 1 {
                        self.merges.push(Vec::new());
                    }
                    // Frames are indexed by path length: the node at index q owns frame q + 1.
                    self.merges[q + 1].push((on_path, below));
                }
                return;
            }
            below = up;
            match self.table.parent_of(up) {
                Some(next) => up = next,
                None => return,
            }
        }
    }

    /// Applies the merges recorded for the node at `ply` and keeps its children's order group
    /// by group.
    pub(super) fn merge_sources(&mut self, ply: usize, frame: &mut Frame) {
        if self.apply_merges(ply, &mut frame.children) {
            let children = &frame.children;
            frame.order.sort_by_key(|&i| children[i as usize].group);
        }
    }

    /// Joins the groups of children recorded as sharing a source (SNDA). Returns whether any
    /// group changed.
    fn apply_merges(&mut self, ply: usize, children: &mut [Child]) -> bool {
        let Some(pairs) = self.merges.get_mut(ply) else { return false };
        let mut changed = false;
        for (a, b) in pairs.drain(..) {
            let ga = children.iter().find(|c| c.id == a).map(|c| c.group);
            let gb = children.iter().find(|c| c.id == b).map(|c| c.group);
            if let (Some(ga), Some(gb)) = (ga, gb) {
                if ga != gb {
                    let joined = ga.min(gb);
                    for c in children.iter_mut().filter(|c| c.group == ga || c.group == gb) {
                        c.group = joined;
                    }
                    changed = true;
                }
            }
        }
        changed
    }

    /// The group key of a child move under the double-count mode.
    /// `blocks`: at AND nodes, the king and the squares where the check may be blocked.
    pub(super) fn group_key(
        &self,
        pos: &Position,
        mv: Move,
        blocks: Option<(Square, Bitboard)>,
        index: usize,
    ) -> u32 {
        const PROMOTION_PAIR: u32 = 1 << 24;
        const INTERPOSITION: u32 = 2 << 24;
        const DROP_LINE: u32 = 3 << 24;
        let unique = index as u32;
        if self.double_count == DoubleCount::Off {
            return unique;
        }
        let to = mv.to();
        if !mv.is_drop() {
            let kind = pos.piece_at(mv.from()).kind();
            let twin = Move::with_promotion(mv.from(), to, !mv.is_promotion());
            if matches!(
                kind,
                PieceKind::Pawn | PieceKind::Lance | PieceKind::Bishop | PieceKind::Rook
            ) && twin_is_legal(pos, twin)
            {
                return PROMOTION_PAIR | (mv.from().index() as u32 * 81 + to.index() as u32);
            }
        }
        if pos.side_to_move() != self.attacker {
            // Interpositions on one square between the checker and the king.
            if blocks.is_some_and(|(ksq, line)| is_block(mv, ksq, line)) {
                return INTERPOSITION | to.index() as u32;
            }
        } else if let Some(kind) = mv.dropped() {
            // Long-range drops checking along one line from the king.
            if matches!(kind, PieceKind::Rook | PieceKind::Bishop | PieceKind::Lance) {
                if let Some(ksq) = pos.king_square(!self.attacker) {
                    let df = (to.file().index() as i32 - ksq.file().index() as i32).signum();
                    let dr = (to.rank().index() as i32 - ksq.rank().index() as i32).signum();
                    let dir = ((df + 1) * 3 + (dr + 1)) as u32;
                    return DROP_LINE | (kind.index() as u32) << 4 | dir;
                }
            }
        }
        unique
    }
}
