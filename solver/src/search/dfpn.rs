//! The df-pn recursion: a node is expanded, and its most promising child searched, until its
//! thresholds are crossed or it is solved.

use super::busy::{Busy, VIRTUAL_UNIT};
use super::children::{is_open, select, shown, Child};
use super::estimates::Estimates;
use super::expansion::blocking_squares;
use super::futile_memo::FutileMemo;
use super::profile::Profile;
use super::solved_above::SolvedAbove;
use super::thresholds::{or_child_dn_threshold, widen};
use super::value::{deeper, Value};
use crate::clock::Instant;
use crate::config::{DoubleCount, Rules};
use crate::outcome::{Limits, Phase, Progress};
use crate::pn::{self, PnDn, INF};
use crate::repetition_table::RepetitionTable;
use crate::stack::StackGuard;
use crate::tt::{NodeId, Stored, Table, PURE_PROBE_SALT};
use shogi::{Color, Hand, MoveList, Position};
use std::sync::atomic::AtomicBool;

/// Per-ply scratch space, reused so that expansion does not allocate.
#[derive(Default)]
pub(super) struct Frame {
    pub(super) moves: MoveList,
    pub(super) children: Vec<Child>,
    /// The children's indices, group by group (for aggregation).
    pub(super) order: Vec<u16>,
}

pub(super) struct Search<'a> {
    pub(super) table: &'a Table,
    pub(super) repetitions: &'a mut RepetitionTable,
    pub(super) double_count: DoubleCount,
    /// OR nodes' disproof numbers sum their checks' (see `SolverConfig::expect_no`).
    pub(super) expect_no: bool,
    pub(super) rules: Rules,
    /// Interpositions wait for their futility test (tsume rules; see `children`).
    pub(super) futility_tests: bool,
    /// A pure-rule probe inside a tsume-rule question: its bounded disproofs are not stored
    /// (see `Search::probe_pure`).
    pub(super) pure_probe: bool,
    pub(super) attacker: Color,
    /// Xored into every board key the table sees ([`crate::tt::key_salt`]): the attacker and
    /// the pieces in play are part of an entry's identity.
    pub(super) key_salt: u64,
    pub(super) nodes: u64,
    /// Expansions (calls of `mid` that expand a node), shtsume's and KomoringHeights' count.
    pub(super) visits: u64,
    /// Positions the main line valued (see `main_line`): work that counts no node, but takes
    /// the time of a few ([`super::main_line::VALUED_COST`]).
    pub(super) valued: u64,
    pub(super) limits: Limits,
    pub(super) start: Instant,
    pub(super) next_report: Instant,
    /// The node count at which limits are polled next.
    pub(super) next_check: u64,
    /// The node count at which the table's fill is looked at next.
    pub(super) next_gc_check: u64,
    pub(super) stop: &'a AtomicBool,
    /// Called about once a second (`None`: nobody listens, as on helper threads).
    pub(super) progress: Option<&'a mut dyn FnMut(&Progress)>,
    /// The search must unwind: `stopped`, or the node cap of a question was reached.
    pub(super) aborted: bool,
    /// A limit of the whole search was reached, or `stop` was raised: nothing more is asked.
    pub(super) stopped: bool,
    /// The phase the search is in, and the one that `stopped` cut short.
    pub(super) phase: Phase,
    pub(super) cut: Option<Phase>,
    /// When each phase was first entered (see [`crate::outcome::Phases::entered`]).
    pub(super) entered: [Option<std::time::Duration>; Phase::COUNT],
    /// The node count at which the current question ends (see `main_line::prove_within`).
    pub(super) cap: Option<u64>,
    /// The deepest ply a search goes to (the root's remaining depth).
    pub(super) max_ply: u16,
    /// Ends a branch before the thread's stack runs out.
    pub(super) guard: StackGuard,
    /// The root's (pn, dn) after the last completed iteration, for progress reports.
    pub(super) root_value: (PnDn, PnDn),
    /// Keys of the positions from the root to the current node, inclusive.
    pub(super) path: Vec<u64>,
    /// The path's positions counted by slot, for [`Search::is_repetition`].
    pub(super) on_path: super::path::PathCounts,
    /// The same positions as table identities (board key, attacker hand), for SNDA.
    pub(super) nodes_on_path: Vec<NodeId>,
    /// Hashes of the path up to each position, for the repetition tier.
    pub(super) path_hashes: Vec<u64>,
    /// SNDA: per ply, pairs of children of the node at that ply found to share a source.
    pub(super) merges: Vec<Vec<(NodeId, NodeId)>>,
    /// One frame per ply, boxed so that taking one out moves a pointer, not the move list
    /// (which would also put 2.4 KB on the call stack per ply).
    pub(super) arena: Vec<Option<Box<Frame>>>,
    /// The moves `estimate` counts (kept, not made afresh at each estimate).
    pub(super) estimate_moves: Box<MoveList>,
    /// Estimates of positions not yet searched, for their next estimate (see
    /// [`super::estimates`]).
    pub(super) estimates: Estimates,
    /// The futile interpositions of AND nodes expanded before (see [`super::futile_memo`]).
    pub(super) futile_memo: FutileMemo,
    /// Leaving subtrees that other threads have solved (see [`super::solved_above`]).
    pub(super) solved_above: SolvedAbove,
    /// Where the first proof's expansions go (`solve --profile`); `None` in a user's search.
    pub(super) profile: Option<Box<Profile>>,
    /// The threads inside each node, while every thread proves the same root (see
    /// [`super::busy`]); `None` with one thread.
    pub(super) busy: Option<&'a Busy>,
    /// Moves left out of the question's root (see [`super::other_moves`]); `None` in every
    /// other search.
    pub(super) left_out: Option<super::other_moves::LeftOut>,
}

impl Search<'_> {
    pub(super) fn attacker_hand(&self, pos: &Position) -> Hand {
        pos.hand(self.attacker)
    }

    /// The attacker's hand after its move `mv` from `pos`: less a piece dropped, more a piece
    /// taken (unpromoted).
    pub(super) fn attacker_hand_after(&self, pos: &Position, mv: shogi::Move) -> Hand {
        let mut hand = pos.hand(self.attacker);
        match mv.dropped() {
            Some(kind) => hand.remove(kind),
            None => {
                if let Some((_, kind)) = pos.piece_at(mv.to()).get() {
                    hand.add(kind.unpromote());
                }
            }
        }
        hand
    }

    /// The key of `pos` in the table: its board key with the search's salt.
    #[inline(always)]
    pub(super) fn table_key(&self, pos: &Position) -> u64 {
        pos.board_key() ^ self.key_salt
    }

    /// What the table already answers about `pos` (the last position of the path) with
    /// `depth` plies left: a proof within `depth`, or a disproof that holds as deep. A
    /// question answered so needs no expansion. (Not for a node proven again because the
    /// proofs below it were lost: its own entry answers, its children's are still missing.)
    pub(super) fn recall(&mut self, pos: &Position, depth: u16) -> Option<Value> {
        Some(self.estimate(pos, depth)).filter(Value::is_solved)
    }

    /// The answer to "does `pos` mate within `depth` plies?": from the table when it knows
    /// ([`Search::recall`]), else by [`Search::prove`].
    pub(super) fn answer(&mut self, pos: &mut Position, depth: u16) -> Value {
        match self.recall(pos, depth) {
            Some(known) => known,
            None => self.prove(pos, depth),
        }
    }

    /// Searches `pos` (the last position of the path) until it is solved within `depth`
    /// remaining plies or the search is aborted.
    pub(super) fn prove(&mut self, pos: &mut Position, depth: u16) -> Value {
        // With no threshold, `mid` returns only a solved value, or when aborted (or, never
        // expected, when nothing is left to search: not to be asked again).
        let ply = self.path.len();
        let from = self.solved_above.begin_prove(ply);
        let v = self.mid(pos, INF, INF, depth);
        self.solved_above.end_prove(ply, from);
        v
    }

    /// Whether a result may be kept (table or repetition tier): not a bounded disproof of a
    /// pure-rule probe, which holds only under pure rules (see `Search::probe_pure`).
    fn keeps(&self, v: &Value) -> bool {
        !(self.pure_probe && v.dn == 0 && v.depth != crate::tt::UNBOUNDED)
    }

    pub(super) fn store(&mut self, pos: &Position, v: &Value, amount: u32) {
        let stored = Stored { pn: v.pn, dn: v.dn, len: v.len, depth: v.depth, amount };
        let n = self.nodes_on_path.len();
        let parent = if n >= 2 { Some(self.nodes_on_path[n - 2]) } else { None };
        let key = if self.keeps(v) {
            self.table_key(pos)
        } else {
            // A pure-rule probe's bounded disproof: kept apart, for pure probes only.
            self.table_key(pos) ^ PURE_PROBE_SALT
        };
        self.table.store(key, v.hand, stored, parent);
    }

    /// The remaining depth of a search that is bounded only by the depth limit, at `ply`.
    pub(super) fn unbounded_depth(&self, ply: usize) -> u16 {
        self.max_ply.saturating_sub(ply.min(u16::MAX as usize) as u16)
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
        self.visits += 1;
        let mut traced = None;
        if let Some(p) = self.profile.as_mut().filter(|_| self.phase == Phase::FirstProof) {
            let interposable =
                !or_node && blocking_squares(pos).is_some_and(|(_, line)| line.is_nonempty());
            let key = pos.board_key() ^ self.key_salt;
            p.expanded(ply, key, hand, interposable);
            if p.trace_wants() {
                let sfen = pos.to_sfen();
                traced = p.trace_entered(
                    ply.saturating_sub(1),
                    key,
                    hand,
                    or_node,
                    sfen,
                    (th_pn, th_dn),
                );
            }
            if let Some(o) = p.off_proof.as_mut() {
                let parent = ply.checked_sub(2).and_then(|i| self.path.get(i)).copied();
                o.expanded(ply, pos, parent);
            }
        }
        self.solved_above.entered(ply, depth);
        let child_depth = deeper(depth);
        let nodes_before = self.nodes;
        while self.arena.len() <= ply {
            self.arena.push(None);
        }
        let mut frame = self.arena[ply].take().unwrap_or_default();
        // Marked as entered while every thread proves the same root (see `super::busy`).
        let busy = self.busy.filter(|_| self.solved_above.watching);
        let here = busy.map(|b| {
            let id = NodeId { board: self.table_key(pos), hand };
            b.enter(id);
            (b, id)
        });
        self.expand(pos, &mut frame);
        self.activate(pos, &mut frame, child_depth);
        self.merge_sources(ply, &mut frame);
        if or_node && self.phase == Phase::FirstProof {
            if let Some(o) = self.profile.as_mut().and_then(|p| p.off_proof.as_mut()) {
                if o.wants_first_look(pos.key()) {
                    let children = frame.children.iter().map(|c| (c.mv, c.value.pn, c.value.dn));
                    o.first_look(pos.key(), children.collect());
                }
            }
        }

        // Against a dragon's or a horse's check from afar, an unguarded drop waits
        // (see `super::distant_drop`).
        let distant = !or_node && self.answers_distant_check(pos);
        let value = loop {
            let mut node = self.aggregate(pos, or_node, &frame.children, &frame.order);
            if distant && !node.is_solved() && self.fold_distant_drop(pos, &mut frame.children) {
                node = self.aggregate(pos, or_node, &frame.children, &frame.order);
            }
            if ply == 1 {
                self.root_value = (node.pn, node.dn);
            }
            self.check_limits();
            if node.is_solved() || node.pn >= th_pn || node.dn >= th_dn || self.aborted {
                break node;
            }
            match self.solved_above(ply) {
                Some(Some(solved)) => break solved,
                Some(None) => break node,
                None => {}
            }
            let virtual_cost = |c: &Child| {
                busy.map_or(0, |b| if c.estimated { b.inside(c.id) * VIRTUAL_UNIT } else { 0 })
            };
            let thresholds = |best: usize, second: PnDn| {
                let (pn, dn) = shown(&frame.children[best]);
                if or_node {
                    let open = (0..frame.children.len()).filter(|&i| is_open(&frame.children, i));
                    let th = if self.expect_no {
                        widen(th_dn, node.dn, dn)
                    } else {
                        or_child_dn_threshold(th_dn, dn, open.count() as PnDn)
                    };
                    (th_pn.min(pn::epsilon_threshold(second)), th)
                } else {
                    let th = pn::epsilon_threshold(second);
                    (widen(th_pn, node.pn, pn), th_dn.min(th))
                }
            };
            let mut pick = select(or_node, &frame.children, virtual_cost);
            // Other threads' presence may point to a child already over the thresholds this
            // node can give it (the node's own numbers are real): then the real best.
            if let Some((best, second)) = pick.filter(|_| busy.is_some()) {
                let (pn, dn) = shown(&frame.children[best]);
                let (th_p, th_d) = thresholds(best, second);
                if pn >= th_p || dn >= th_d {
                    pick = select(or_node, &frame.children, |_| 0);
                }
            }
            let Some((best, second)) = pick else {
                // Unsolved with nothing left to search: a child waits for a gate that cannot
                // open. Never expected; searching on would loop for ever.
                debug_assert!(false, "an unsolved node with no open child");
                break node;
            };
            let child = frame.children[best];
            let (child_th_pn, child_th_dn) = thresholds(best, second);
            // A futility test's own margin of one (see `shown`) is not the child's to use.
            let child_th_dn = if child.is_futility_test() {
                child_th_dn.saturating_sub(1).max(1)
            } else {
                child_th_dn
            };
            let grandchild_depth = if child.is_futility_test() { depth } else { child_depth };
            if !self.play(pos, &child) {
                debug_assert!(false, "a child that was estimated cannot be played");
                break Value::unknown(1, 1, hand);
            }
            self.enter(pos);
            if let Some(p) = self.profile.as_mut() {
                p.trace_child(child.value.pn, child.value.dn);
            }
            let v = self.mid(pos, child_th_pn, child_th_dn, grandchild_depth);
            self.leave();
            self.unplay(pos, &child);
            frame.children[best].value = v;
            self.activate(pos, &mut frame, child_depth);
            self.merge_sources(ply, &mut frame);
        };
        if let Some((b, id)) = here {
            b.leave(id);
        }
        if let Some(m) = self.merges.get_mut(ply) {
            m.clear();
        }
        self.arena[ply] = Some(frame);
        if !self.aborted && self.phase == Phase::FirstProof {
            if let Some(p) = self.profile.as_mut() {
                p.ended(ply, value.is_solved(), value.by_repetition);
                if let Some(i) = traced {
                    p.trace_left(i, value.pn, value.dn);
                }
            }
        }

        if self.is_left_out_root() {
            // Not the position's value: some of its moves were left out.
        } else if value.dn == 0 && value.by_repetition {
            // Path-dependent: only the repetition tier, keyed by this very path, may keep it.
            if self.keeps(&value) {
                self.repetitions.insert(self.path_hash(), value.depth);
            }
        } else {
            let amount = (self.nodes - nodes_before).min(u32::MAX as u64) as u32;
            self.store(pos, &value, amount);
        }
        value
    }
}
