//! The df-pn search (Nagai) with df-pn+ thresholds, proof pieces, loop handling,
//! double-count aggregation, and a depth-bounded mode that finds the shortest mate.
//!
//! Values are always from the attacker's side: pn is the effort to prove a mate, dn the effort
//! to disprove it. OR nodes (attacker to move) expand check-giving moves only; AND nodes
//! (defender in check) expand evasions, every interposition included (pure rules). Every
//! generated child is given an initial value at once: an AND child with no evasion is a mate
//! (so mate-in-1 is found without expanding), an OR child with no check is a disproof.
//!
//! **Loops.** A child equal to a position on the current path is a repetition, which is no mate
//! for the attacker. A disproof that rests on such a child holds only for this path (the
//! graph-history interaction), so it is returned to the parent but never stored.
//!
//! **Depth limit.** An unbounded search is bounded by `max_ply` ([`SolverConfig::max_ply`]):
//! an OR node with no ply left, or a node where the thread's stack runs short
//! ([`crate::stack`]), is disproven "within 0 plies", a statement that is true of any node that
//! is not already mated. Every disproof carries the depth it holds for, computed from its
//! children (one more than the least of theirs), so a disproof that rests on such an end says
//! only "no mate within N plies": the root answers [`Outcome::Timeout`] then, never `NoMate`.
//!
//! **Shortest mate.** Once a mate is proven, the same search runs with a bound on the remaining
//! plies ("is there a mate within L − 2?") until none is left. The table keeps proofs with their
//! length and bounded disproofs with the depth they hold for, so the rounds share it. The line
//! is then built move by move from exact lengths: at OR nodes a check that mates within the
//! remaining length, at AND nodes an evasion that does not mate two plies sooner.

use crate::config::{DoubleCount, SolverConfig};
use crate::outcome::{Limits, Outcome, Progress, SolveResult};
use crate::pn::{self, PnDn, INF, MAX_UNSOLVED};
use crate::repetition_table::RepetitionTable;
use crate::stack::StackGuard;
use crate::tt::{NodeId, Stored, Table, UNBOUNDED};
use shogi::movegen::{self, generate};
use shogi::{
    attacks, Bitboard, Color, Hand, Move, MoveClass, MoveList, NonPromotions, PieceKind, Position,
    Square,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Table fill (permille) at which low-effort unsolved entries are swept.
const GC_HASHFULL: u32 = 900;

pub struct Solver {
    config: SolverConfig,
    table: Table,
    repetitions: RepetitionTable,
    /// What the last search measured of its stack.
    stack_use: StackUse,
}

/// How deep the last search went, and the stack it took per ply there (a diagnostic, and the
/// measurement behind [`crate::stack::BYTES_PER_PLY`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StackUse {
    /// The deepest ply `mid` was entered at.
    pub deepest_ply: usize,
    /// Stack bytes per ply at the point of least stack left (`None`: not measured).
    pub bytes_per_ply: Option<usize>,
}

impl Solver {
    pub fn new(config: SolverConfig) -> Solver {
        let table = Table::new(config.hash_mb, config.double_count == DoubleCount::Snda);
        Solver {
            config,
            table,
            repetitions: RepetitionTable::default(),
            stack_use: StackUse::default(),
        }
    }
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }
    /// Applies new settings; a new hash size reallocates the table.
    pub fn set_config(&mut self, config: SolverConfig) {
        let links = config.double_count == DoubleCount::Snda;
        if config.hash_mb != self.config.hash_mb || links != self.table.has_parent_links() {
            self.table = Table::new(config.hash_mb, links);
        }
        self.config = config;
    }
    /// What the last search measured of its stack.
    pub fn stack_use(&self) -> StackUse {
        self.stack_use
    }
    /// Forgets everything learnt (USI `usinewgame`).
    pub fn clear(&mut self) {
        self.table.clear();
        self.repetitions.clear();
    }

    /// Solves `pos`: the side to move attacks, unless it is in check, in which case it defends
    /// (an AND node root). Checks `stop` every 1,024 nodes and calls `progress` about once a
    /// second.
    pub fn solve(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SolveResult {
        self.solve_as(pos, default_attacker(pos), limits, stop, progress)
    }

    /// Solves `pos` with `attacker` as the mating side. An attacker to move that is in check
    /// must answer the check with a check (as some generated problem sets require).
    pub fn solve_as(
        &mut self,
        pos: &Position,
        attacker: Color,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SolveResult {
        let start = Instant::now();
        let max_ply = self.config.max_ply;
        let mut search = Search {
            table: &mut self.table,
            repetitions: &mut self.repetitions,
            double_count: self.config.double_count,
            max_ply,
            attacker,
            nodes: 0,
            limits: limits.clone(),
            start,
            next_report: start + Duration::from_secs(1),
            next_check: 0,
            next_gc_check: 0,
            stop,
            progress,
            aborted: false,
            root_value: (1, 1),
            guard: StackGuard::here(),
            path: Vec::with_capacity(max_ply as usize + 1),
            nodes_on_path: Vec::with_capacity(max_ply as usize + 1),
            path_hashes: Vec::with_capacity(max_ply as usize + 1),
            merges: Vec::new(),
            arena: Vec::new(),
        };
        let mut root = pos.clone();
        search.enter(&root);
        let value = search.prove(&mut root, max_ply);
        let mut depth_limited = false;
        let outcome = if search.aborted {
            Outcome::Timeout
        } else if value.pn == 0 {
            let mut shortest = value.len;
            let mut settled = true;
            while !self.config.any_mate && shortest >= 2 && !search.aborted {
                let bound = shortest - 2;
                let shorter = search.prove(&mut root, bound);
                if shorter.pn != 0 {
                    // A disproof that ended at the stack guard does not cover the bound.
                    settled = shorter.depth >= bound;
                    break;
                }
                shortest = shorter.len;
            }
            let exact = if search.aborted || self.config.any_mate || !settled {
                None
            } else {
                search.exact_line(&mut root, shortest)
            };
            match exact.or_else(|| search.principal_variation(&mut root)) {
                Some(pv) => Outcome::Mate(pv),
                None => Outcome::Timeout,
            }
        } else if value.depth == UNBOUNDED {
            Outcome::NoMate
        } else {
            // No mate within the depth limit, but one may lie beyond it.
            depth_limited = true;
            Outcome::Timeout
        };
        self.stack_use = StackUse {
            deepest_ply: search.guard.deepest_ply(),
            bytes_per_ply: search.guard.bytes_per_ply(),
        };
        let nodes = search.nodes;
        let hashfull = search.table.hashfull();
        (search.progress)(&Progress {
            nodes,
            elapsed: start.elapsed(),
            hashfull,
            root_pn: value.pn,
            root_dn: value.dn,
        });
        SolveResult { outcome, nodes, elapsed: start.elapsed(), depth_limited }
    }
}

/// The attacker a position means by default: the side to move, unless it is in check.
pub fn default_attacker(pos: &Position) -> Color {
    if pos.in_check() {
        !pos.side_to_move()
    } else {
        pos.side_to_move()
    }
}

/// A node's value and what its solution needs.
#[derive(Copy, Clone, Debug)]
struct Value {
    pn: PnDn,
    dn: PnDn,
    /// Proof pieces when proven, disproof pieces when disproven, else the exact hand.
    hand: Hand,
    /// Mate length in plies when proven.
    len: u16,
    /// A disproof that depends on a repetition on the current path.
    by_repetition: bool,
    /// For a disproof: the remaining depth it holds for (`UNBOUNDED`: any).
    depth: u16,
}

impl Value {
    fn is_solved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
    fn proven(hand: Hand, len: u16) -> Value {
        Value { pn: 0, dn: INF, hand, len, by_repetition: false, depth: UNBOUNDED }
    }
    fn disproven(hand: Hand, by_repetition: bool, depth: u16) -> Value {
        Value { pn: INF, dn: 0, hand, len: 0, by_repetition, depth }
    }
    fn unknown(pn: PnDn, dn: PnDn, hand: Hand) -> Value {
        Value { pn, dn, hand, len: 0, by_repetition: false, depth: UNBOUNDED }
    }
}

#[derive(Copy, Clone, Debug)]
struct Child {
    mv: Move,
    /// The child position's table identity.
    id: NodeId,
    value: Value,
    /// Children with the same group key likely reach the same subtree: their numbers
    /// aggregate by max instead of sum.
    group: u32,
}

/// Per-ply scratch space, reused so that expansion does not allocate.
#[derive(Default)]
struct Frame {
    moves: MoveList,
    children: Vec<Child>,
}

struct Search<'a> {
    table: &'a mut Table,
    repetitions: &'a mut RepetitionTable,
    double_count: DoubleCount,
    attacker: Color,
    nodes: u64,
    limits: Limits,
    start: Instant,
    next_report: Instant,
    /// The node count at which limits are polled next.
    next_check: u64,
    /// The node count at which the table's fill is looked at next.
    next_gc_check: u64,
    stop: &'a AtomicBool,
    progress: &'a mut dyn FnMut(&Progress),
    aborted: bool,
    /// The deepest ply a search goes to (the root's remaining depth).
    max_ply: u16,
    /// Ends a branch before the thread's stack runs out.
    guard: StackGuard,
    /// The root's (pn, dn) after the last completed iteration, for progress reports.
    root_value: (PnDn, PnDn),
    /// Keys of the positions from the root to the current node, inclusive.
    path: Vec<u64>,
    /// The same positions as table identities (board key, attacker hand), for SNDA.
    nodes_on_path: Vec<NodeId>,
    /// Hashes of the path up to each position, for the repetition tier.
    path_hashes: Vec<u64>,
    /// SNDA: per ply, pairs of children of the node at that ply found to share a source.
    merges: Vec<Vec<(NodeId, NodeId)>>,
    /// One frame per ply, boxed so that taking one out moves a pointer, not the move list
    /// (which would also put 2.4 KB on the call stack per ply).
    arena: Vec<Option<Box<Frame>>>,
}

/// One less ply of remaining depth (an unbounded search stays unbounded).
fn deeper(depth: u16) -> u16 {
    if depth == UNBOUNDED {
        UNBOUNDED
    } else {
        depth.saturating_sub(1)
    }
}

/// The depth a disproof holds for, given that of the child disproof it rests on: one ply more
/// (a disproof at any depth stays one).
fn above(child_depth: u16) -> u16 {
    if child_depth == UNBOUNDED {
        UNBOUNDED
    } else {
        child_depth.saturating_add(1).min(UNBOUNDED - 1)
    }
}

impl Search<'_> {
    /// Polls stop, limits and progress once every 1,024 nodes. (Testing `nodes % 1024 == 0`
    /// would miss most polls: one expansion adds many nodes at once.)
    fn check_limits(&mut self) {
        if self.aborted || self.nodes < self.next_check {
            return;
        }
        self.next_check = self.nodes + 1024;
        if self.stop.load(Ordering::Relaxed) || self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
            return;
        }
        if self.nodes >= self.next_gc_check {
            self.next_gc_check = self.nodes + (1 << 16);
            if self.table.hashfull() >= GC_HASHFULL {
                self.table.collect_garbage();
            }
        }
        let now = Instant::now();
        if self.limits.time.is_some_and(|t| now.duration_since(self.start) >= t) {
            self.aborted = true;
            return;
        }
        if now >= self.next_report {
            self.next_report = now + Duration::from_secs(1);
            let report = Progress {
                nodes: self.nodes,
                elapsed: now.duration_since(self.start),
                hashfull: self.table.hashfull(),
                root_pn: self.root_value.0,
                root_dn: self.root_value.1,
            };
            (self.progress)(&report);
        }
    }

    fn attacker_hand(&self, pos: &Position) -> Hand {
        pos.hand(self.attacker)
    }

    /// The moves a node expands: checks at OR nodes (attacker to move), every evasion at AND
    /// nodes. Returns whether it is an OR node.
    fn node_moves(&self, pos: &Position, list: &mut MoveList) -> bool {
        let or_node = pos.side_to_move() == self.attacker;
        if or_node {
            generate(pos, MoveClass::Checks, NonPromotions::Include, list);
        } else {
            movegen::legal_moves(pos, list);
        }
        or_node
    }

    /// Searches `pos` (the last position of the path) until it is solved within `depth`
    /// remaining plies or the search is aborted.
    fn prove(&mut self, pos: &mut Position, depth: u16) -> Value {
        loop {
            let v = self.mid(pos, INF, INF, depth);
            if v.is_solved() || self.aborted {
                return v;
            }
        }
    }

    /// Whether the current position (the last key of the path) occurred earlier on the path
    /// with the same side to move.
    fn is_repetition(&self) -> bool {
        let Some((&key, earlier)) = self.path.split_last() else { return false };
        earlier.iter().rev().skip(1).step_by(2).any(|&k| k == key)
    }

    fn store(&mut self, pos: &Position, v: &Value, amount: u32) {
        let stored = Stored { pn: v.pn, dn: v.dn, len: v.len, depth: v.depth, amount };
        let n = self.nodes_on_path.len();
        let parent = if n >= 2 { Some(self.nodes_on_path[n - 2]) } else { None };
        self.table.store(pos.board_key(), v.hand, stored, parent);
    }

    /// Appends `pos` (just reached) to the path.
    fn enter(&mut self, pos: &Position) {
        self.path.push(pos.key());
        self.nodes_on_path.push(NodeId { board: pos.board_key(), hand: self.attacker_hand(pos) });
        let previous = self.path_hashes.last().copied().unwrap_or(0);
        self.path_hashes.push(RepetitionTable::extend(previous, pos.key()));
    }

    fn leave(&mut self) {
        self.path.pop();
        self.nodes_on_path.pop();
        self.path_hashes.pop();
    }

    fn truncate_path(&mut self, len: usize) {
        self.path.truncate(len);
        self.nodes_on_path.truncate(len);
        self.path_hashes.truncate(len);
    }

    fn path_hash(&self) -> u64 {
        self.path_hashes.last().copied().unwrap_or(0)
    }

    /// SNDA source detection for a child just reached from the node at `ply`: if the table
    /// says the child was reached before from another parent, walk that parent's links up to
    /// the nearest ancestor on the current path. The children of that ancestor through which
    /// the two routes leave it share a source: they are recorded to aggregate by max.
    fn detect_source(&mut self, ply: usize, child: NodeId) {
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

    /// The value of the position just reached by a move, with `depth` plies left, without
    /// expanding it.
    fn estimate(&mut self, pos: &Position, depth: u16) -> Value {
        let hand = self.attacker_hand(pos);
        if self.is_repetition() {
            return Value::disproven(hand, true, UNBOUNDED);
        }
        if let Some(d) = self.repetitions.lookup(self.path_hash(), depth) {
            return Value::disproven(hand, true, d);
        }
        if let Some(k) = self.table.lookup(pos.board_key(), hand, depth) {
            return Value {
                pn: k.pn,
                dn: k.dn,
                hand: k.hand,
                len: k.len,
                by_repetition: false,
                depth: k.depth,
            };
        }
        // A first visit with this hand starts no easier to disprove than a covered hand that was
        // already searched (a proof-number floor the other way round stalled no-mate searches).
        let dn_floor = self.table.disproof_floor(pos.board_key(), hand);
        let mut list = MoveList::new();
        if pos.side_to_move() == self.attacker {
            if depth == 0 {
                return Value::disproven(hand, false, 0);
            }
            generate(pos, MoveClass::Checks, NonPromotions::Include, &mut list);
            if list.is_empty() {
                let v = Value::disproven(saturate_held(hand), false, UNBOUNDED);
                self.store(pos, &v, 1);
                return v;
            }
            Value::unknown(1, dn_floor.max(list.len() as PnDn), hand)
        } else {
            movegen::legal_moves(pos, &mut list);
            if list.is_empty() {
                let v = Value::proven(and_proof_hand(pos, self.attacker, Hand::EMPTY), 0);
                self.store(pos, &v, 1);
                return v;
            }
            Value::unknown(evasion_estimate(pos, &list), dn_floor.max(1), hand)
        }
    }

    /// Expands `pos` (an OR or AND node with `depth` plies left) and searches below it until
    /// its pn reaches `th_pn`, its dn reaches `th_dn`, it is solved, or the search is aborted.
    fn mid(&mut self, pos: &mut Position, th_pn: PnDn, th_dn: PnDn, depth: u16) -> Value {
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
    fn group_key(
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

    /// The node's value from its children: min over the mover's side, grouped sum (max inside
    /// a group) over the other.
    fn aggregate(&self, pos: &Position, or_node: bool, children: &[Child]) -> Value {
        let hand = self.attacker_hand(pos);
        let mut min = INF;
        let mut sum: PnDn = 0;
        let mut i = 0;
        while i < children.len() {
            let group = children[i].group;
            let mut group_max = 0;
            while i < children.len() && children[i].group == group {
                let v = children[i].value;
                let (mine, other) = if or_node { (v.pn, v.dn) } else { (v.dn, v.pn) };
                min = min.min(mine);
                group_max = group_max.max(other);
                i += 1;
            }
            sum = pn::add(sum, group_max);
        }
        // An OR disproof holds as deep as its shallowest child disproof allows.
        let disproof_depth =
            |cs: &[Child]| cs.iter().map(|c| above(c.value.depth)).min().unwrap_or(UNBOUNDED);
        if or_node {
            if min == 0 {
                // Proven by the shortest proven child.
                let best = children.iter().filter(|c| c.value.pn == 0).min_by_key(|c| c.value.len);
                if let Some(c) = best {
                    let proof = or_proof_hand(pos, c.mv, c.value.hand, hand);
                    return Value::proven(proof, c.value.len.saturating_add(1));
                }
            }
            if sum == 0 {
                let by_repetition = children.iter().any(|c| c.value.by_repetition);
                let d = disproof_depth(children);
                return Value::disproven(or_disproof_hand(pos, children, hand), by_repetition, d);
            }
            Value::unknown(min.min(MAX_UNSOLVED), sum.min(MAX_UNSOLVED), hand)
        } else {
            if sum == 0 {
                let mut needed = Hand::EMPTY;
                let mut len = 0;
                for c in children {
                    needed = union(needed, c.value.hand);
                    len = len.max(c.value.len);
                }
                let proof = and_proof_hand(pos, self.attacker, needed);
                return Value::proven(proof, len.saturating_add(1));
            }
            if min == 0 {
                // Rest on the disproof that holds from every path, and the deepest of those.
                let rests_on = children
                    .iter()
                    .filter(|c| c.value.dn == 0)
                    .max_by_key(|c| (!c.value.by_repetition, c.value.depth));
                if let Some(c) = rests_on {
                    let v = c.value;
                    let disproof = if v.depth == UNBOUNDED && !v.by_repetition {
                        and_disproof_hand(c.mv, v.hand, hand)
                    } else {
                        hand
                    };
                    return Value::disproven(disproof, v.by_repetition, above(v.depth));
                }
            }
            Value::unknown(sum.min(MAX_UNSOLVED), min.min(MAX_UNSOLVED), hand)
        }
    }

    /// Whether the position reached by `mv` from `pos` mates within `depth` plies.
    fn mates_within(&mut self, pos: &mut Position, mv: Move, depth: u16) -> Option<bool> {
        pos.make_move(mv);
        self.enter(pos);
        let v = if self.is_repetition() {
            Value::disproven(Hand::EMPTY, true, UNBOUNDED)
        } else {
            self.prove(pos, depth)
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
    fn exact_line(&mut self, root: &mut Position, len: u16) -> Option<Vec<Move>> {
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
        replays_as_mate(root, &pv, self.attacker).then_some(pv)
    }

    /// A mate line read from the table (shortest proven check at OR nodes, longest proven
    /// evasion at AND nodes), for when the exact line could not be finished. Re-searches any
    /// node the table lost, and replays the line through the rules before trusting it.
    fn principal_variation(&mut self, root: &mut Position) -> Option<Vec<Move>> {
        self.aborted = false;
        self.limits.nodes = self.limits.nodes.map(|n| n.saturating_mul(2));
        let mut pos = root.clone();
        let mut pv = Vec::new();
        let base_len = self.path.len();
        loop {
            if pv.len() >= self.max_ply as usize {
                return None;
            }
            let mut list = MoveList::new();
            let or_node = self.node_moves(&pos, &mut list);
            if !or_node && list.is_empty() {
                break;
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
        replays_as_mate(root, &pv, self.attacker).then_some(pv)
    }

    fn pv_choice(&mut self, pos: &mut Position, list: &MoveList, or_node: bool) -> Option<Move> {
        let mut best: Option<(Move, u16)> = None;
        for &mv in list.iter() {
            pos.make_move(mv);
            self.enter(pos);
            let v = if self.is_repetition() {
                None
            } else {
                self.table.lookup(pos.board_key(), self.attacker_hand(pos), UNBOUNDED)
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

/// The initial proof number of a defender in check with these evasions: interpositions on
/// one square count once, as they aggregate by max once expanded.
fn evasion_estimate(pos: &Position, evasions: &MoveList) -> PnDn {
    let Some((ksq, line)) = blocking_squares(pos) else {
        return evasions.len() as PnDn;
    };
    let mut squares = Bitboard::default();
    let mut others = 0;
    for &mv in evasions.iter() {
        if is_block(mv, ksq, line) {
            squares |= Bitboard::from_square(mv.to());
        } else {
            others += 1;
        }
    }
    (others + squares.count()).max(1) as PnDn
}

/// For a side to move in check: its king and the squares where the check may be blocked
/// (none for a contact check or a double check). `None` when not in check.
fn blocking_squares(pos: &Position) -> Option<(Square, Bitboard)> {
    let checkers = pos.checkers();
    let checker = checkers.lsb()?;
    let ksq = pos.king_square(pos.side_to_move())?;
    let line = if checkers.has_more_than_one() {
        Bitboard::default()
    } else {
        attacks::between(checker, ksq)
    };
    Some((ksq, line))
}

/// Whether an evasion blocks the check on `line` (a move by anything but the king, or a drop).
fn is_block(mv: Move, ksq: Square, line: Bitboard) -> bool {
    let is_king_move = !mv.is_drop() && mv.from() == ksq;
    !is_king_move && line.contains(mv.to())
}

/// Whether the other variant (promotion or not) of a board move is legal here.
fn twin_is_legal(pos: &Position, twin: Move) -> bool {
    let kind = pos.piece_at(twin.from()).kind();
    let us = pos.side_to_move();
    let to_rel = twin.to().rank().relative_to(us);
    let from_rel = twin.from().rank().relative_to(us);
    let in_zone = to_rel < 3 || from_rel < 3;
    if twin.is_promotion() {
        in_zone && kind.can_promote()
    } else {
        match kind {
            PieceKind::Pawn | PieceKind::Lance => to_rel >= 1,
            PieceKind::Knight => to_rel >= 2,
            _ => true,
        }
    }
}

/// The best child (least pn at OR nodes, least dn at AND nodes) and the second-least value.
fn select(or_node: bool, children: &[Child]) -> (usize, PnDn) {
    let key = |c: &Child| if or_node { (c.value.pn, c.value.dn) } else { (c.value.dn, c.value.pn) };
    let mut best = 0;
    let mut second = INF;
    for (i, c) in children.iter().enumerate().skip(1) {
        if key(c) < key(&children[best]) {
            second = key(&children[best]).0;
            best = i;
        } else {
            second = second.min(key(c).0);
        }
    }
    (best, second)
}

/// The threshold a child gets on the summed side: what the parent may still grow, on top of
/// the child's own value.
fn widen(parent_th: PnDn, parent: PnDn, child: PnDn) -> PnDn {
    let room = parent_th as u64 - (parent as u64).min(parent_th as u64);
    (room + child as u64).min(INF as u64) as PnDn
}

/// The per-kind maximum of two hands.
fn union(a: Hand, b: Hand) -> Hand {
    let mut h = Hand::EMPTY;
    for kind in PieceKind::HAND {
        h.set(kind, a.count(kind).max(b.count(kind)));
    }
    h
}

/// Proof pieces of an OR node proven through `mv` from a child that needs `child_proof`.
fn or_proof_hand(pos: &Position, mv: Move, child_proof: Hand, hand: Hand) -> Hand {
    let mut proof = child_proof;
    if let Some(kind) = mv.dropped() {
        proof.set(kind, (proof.count(kind) + 1).min(hand.count(kind)));
    } else if let Some((_, captured)) = pos.piece_at(mv.to()).get() {
        let kind = captured.unpromote();
        proof.set(kind, proof.count(kind).saturating_sub(1));
    }
    proof
}

/// Disproof pieces of an OR node with no check: more of a kind already in hand adds no move
/// (the same drops, the same two-pawn rule), so those kinds may grow to a full set; a kind not
/// in hand must stay absent, since holding one would add drops.
fn saturate_held(hand: Hand) -> Hand {
    let mut d = hand;
    for kind in PieceKind::HAND {
        if hand.count(kind) > 0 {
            d.set(kind, PieceKind::SET_COUNT[kind.index()] as u32);
        }
    }
    d
}

/// Disproof pieces of an OR node whose every check is disproven: the largest hand for which
/// each check still leads to a hand its disproof covers (a drop spends one, a capture gains
/// one), and no kind that is absent now.
fn or_disproof_hand(pos: &Position, children: &[Child], hand: Hand) -> Hand {
    let mut d = saturate_held(hand);
    for c in children {
        let dropped = c.mv.dropped();
        let captured = if c.mv.is_drop() {
            None
        } else {
            pos.piece_at(c.mv.to()).get().map(|(_, k)| k.unpromote())
        };
        for kind in PieceKind::HAND {
            if hand.count(kind) == 0 {
                continue;
            }
            let mut allowed = c.value.hand.count(kind);
            if dropped == Some(kind) {
                allowed += 1;
            }
            if captured == Some(kind) {
                allowed = allowed.saturating_sub(1);
            }
            d.set(kind, d.count(kind).min(allowed.max(hand.count(kind))));
        }
    }
    d
}

/// Disproof pieces of an AND node disproven through evasion `mv` whose disproof pieces are
/// `child`: the same, except that a dropped kind must stay in the defender's hand, so the
/// attacker may not hold more of it than now.
fn and_disproof_hand(mv: Move, child: Hand, hand: Hand) -> Hand {
    let mut d = child;
    if let Some(kind) = mv.dropped() {
        d.set(kind, d.count(kind).min(hand.count(kind)));
    }
    d
}

/// Proof pieces of a proven AND node whose children need `needed`. Where the defender holds
/// none of a kind, the proof may rest on it being unable to interpose one, which holds only
/// while the attacker keeps all of them: the attacker needs its whole count of that kind.
/// A check that cannot be interposed (a contact check, a double check) needs nothing more.
fn and_proof_hand(pos: &Position, attacker: Color, needed: Hand) -> Hand {
    if blocking_squares(pos).is_some_and(|(_, line)| line.is_empty()) {
        return needed;
    }
    let defender = pos.hand(!attacker);
    let ours = pos.hand(attacker);
    let mut proof = needed;
    for kind in PieceKind::HAND {
        if defender.count(kind) == 0 {
            proof.set(kind, ours.count(kind));
        }
    }
    proof
}

/// Replays `pv` from `root`: every move legal, every attacker move a check, ending in
/// checkmate.
pub fn replays_as_mate(root: &Position, pv: &[Move], attacker: Color) -> bool {
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
    movegen::is_checkmate(&pos)
}
