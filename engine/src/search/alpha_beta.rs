//! Iterative-deepening alpha-beta: aspiration windows, PVS (or NegaScout, or plain alpha-beta),
//! mate-distance pruning, the transposition table, a mate-in-1 oracle at every new node and
//! df-pn probes where the enemy king is exposed, razoring, reverse futility pruning, null-move
//! pruning, ProbCut, late-move reductions, check extension, soppo pruning in the endgame, and a
//! quiescence search (see [`crate::search::qsearch`]).
//!
//! Quiet moves are pruned as in Stockfish and YaneuraOu: by move count, by history, and by
//! futility and static exchange judged at the move's reduced depth (its depth less the
//! late-move reduction it would get), so that the pruning reaches every depth, not only the
//! last plies.
//!
//! Scores are centipawns from the side to move; mates are `VALUE_MATE - plies` from the root
//! (see [`mate_in`]). Repetitions on the search path (a position seen once before, in the game
//! or in the search) score as the rules will score them four times over: sennichite is a draw,
//! perpetual check loses for the checker.

use crate::eval::accumulator::Accumulator;
use crate::eval::network::accumulator::{NetAccumulator, NetStack};
use crate::eval::network::Network;
use crate::eval::weights::Weights;
use crate::eval::{evaluate_with, material, EvalCache, Scales};
use crate::params::Params;
use crate::search::control::SearchControl;
use crate::search::correction::{pawn_key, CorrectionHistory};
use crate::search::history::{piece_to, History, PieceTo, MAX_PLY, NO_PIECE_TO};
use crate::search::move_picker::{
    attacks_a_piece, is_tactical, see, see_ge, CheckInfo, MovePicker,
};
use crate::search::oracle::{mate_in_1, Oracle};
use crate::search::report::{Score, SearchInfo};
use crate::search::root_slices::RootSlices;
use crate::search::root_threats::RootThreats;
use crate::search::soppo::Soppo;
use crate::search::threads::{skips_depth, SharedSearch, ThreadMemory};
use crate::search::tt::{Bound, TranspositionTable};
use shogi::{movegen, Move, MoveClass, MoveList, NonPromotions, Position, Repetition};

pub const VALUE_MATE: i32 = 32000;
pub const VALUE_INF: i32 = 32001;
/// Scores beyond this are mates.
pub const VALUE_MATE_IN_MAX: i32 = VALUE_MATE - 1000;
pub const VALUE_DRAW: i32 = 0;
/// "No static evaluation" (in check).
const VALUE_NONE: i32 = -VALUE_INF;

/// Mate by the side to move in `ply` plies from the root.
#[inline(always)]
pub fn mate_in(ply: usize) -> i32 {
    VALUE_MATE - ply as i32
}

/// The side to move is mated `ply` plies from the root.
#[inline(always)]
pub fn mated_in(ply: usize) -> i32 {
    -VALUE_MATE + ply as i32
}

/// A score as stored in the table: mate distances counted from the node, not the root.
#[inline(always)]
pub fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= VALUE_MATE_IN_MAX {
        s + ply as i32
    } else if s <= -VALUE_MATE_IN_MAX {
        s - ply as i32
    } else {
        s
    }
}

#[inline(always)]
pub fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= VALUE_MATE_IN_MAX {
        s - ply as i32
    } else if s <= -VALUE_MATE_IN_MAX {
        s + ply as i32
    } else {
        s
    }
}

/// The report form of an internal score.
pub fn to_score(s: i32) -> Score {
    if s >= VALUE_MATE_IN_MAX {
        Score::Mate(VALUE_MATE - s)
    } else if s <= -VALUE_MATE_IN_MAX {
        Score::Mate(-(VALUE_MATE + s))
    } else {
        Score::Cp(s)
    }
}

/// A move at the root with its scores and line.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    /// Score of the current iteration (`-VALUE_INF` when not searched to completion).
    pub score: i32,
    pub previous_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

/// Per-ply state of the path.
#[derive(Copy, Clone)]
struct Frame {
    static_eval: i32,
    current: Move,
    /// The piece-to index of `current` (for the continuation history).
    piece_to: PieceTo,
    /// The move left out by a singular-extension search of this node (null: none).
    excluded: Move,
}

/// The keys of the last `REPETITION_WINDOW` positions of the game before `pos`, oldest first,
/// and `pos`'s own (by unmaking the game's moves on a copy).
fn root_keys(pos: &Position) -> Vec<u64> {
    let mut keys = Vec::with_capacity(REPETITION_WINDOW + MAX_PLY + 8);
    let mut p = pos.clone();
    let back = p.history_len().min(REPETITION_WINDOW);
    let mut earlier = Vec::with_capacity(back);
    for _ in 0..back {
        if p.last_move().is_null() {
            // A null move in the history cannot be taken back with unmake_move.
            break;
        }
        p.unmake_move();
        earlier.push(p.key());
    }
    keys.extend(earlier.iter().rev());
    keys.push(pos.key());
    keys
}

/// What every thread of one search (one `go`) reads: the settings, the shared table, the
/// clock and the threads' common state.
#[derive(Clone, Copy)]
pub struct SearchContext<'a> {
    pub params: &'a Params,
    pub weights: &'a Weights,
    /// The network evaluation; `None`: the linear one, with `weights`.
    pub network: Option<&'a Network>,
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub shared: &'a SharedSearch,
    /// Nodes of all threads together; `u64::MAX` for no limit.
    pub node_limit: u64,
    /// Set by the root oracle when it proves a result: the alpha-beta search may end.
    pub root_proven: Option<&'a std::sync::atomic::AtomicBool>,
    /// A slice of a multi-candidate ponder: it ends as soon as the pondering does.
    pub ponder_slice: bool,
}

/// One thread of one search: borrows the shared table and its thread's long-lived memory.
pub struct Searcher<'a> {
    pub pos: Position,
    pub params: &'a Params,
    weights: &'a Weights,
    network: Option<&'a Network>,
    pub tt: &'a TranspositionTable,
    pub history: &'a mut History,
    pub correction: &'a mut CorrectionHistory,
    pub oracle: &'a mut Oracle,
    pub eval_cache: &'a mut EvalCache,
    pub soppo: Soppo,
    control: &'a SearchControl,
    shared: &'a SharedSearch,
    /// 0 for the main thread, which keeps the clock and reports; helpers from 1.
    thread: usize,
    node_limit: u64,
    root_proven: Option<&'a std::sync::atomic::AtomicBool>,
    ponder_slice: bool,
    /// The other threads' nodes, as published at this thread's last poll.
    others_nodes: u64,
    pub nodes: u64,
    next_poll: u64,
    pub stopped: bool,
    seldepth: usize,
    frames: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 2]>,
    pv_len: Vec<usize>,
    pickers: Vec<Option<Box<MovePicker>>>,
    scratch: MoveList,
    lmr: Vec<[u8; 64]>,
    pub root_moves: Vec<RootMove>,
    /// The main thread's threat probes of its best root moves.
    pub root_threats: RootThreats,
    /// The main thread's root oracle, given slices of its time at the polls.
    pub root_slices: Option<RootSlices<'a>>,
    root_depth: i32,
    /// Keys of the positions before the root (up to `REPETITION_WINDOW`) and on the path.
    keys: Vec<u64>,
    /// Material and placement of the positions on the path from the root (the last is the
    /// current position's), kept move by move.
    accumulators: Vec<Accumulator>,
    /// The network's first-layer sums along the path, when it evaluates (the linear
    /// accumulators are then not kept).
    net_accumulators: Option<NetStack>,
}

/// How far back (plies) the search looks for a repeated position.
const REPETITION_WINDOW: usize = 32;

const POLL_INTERVAL: u64 = 1024;

impl<'a> Searcher<'a> {
    pub fn new(
        pos: &Position,
        ctx: &SearchContext<'a>,
        memory: &'a mut ThreadMemory,
        thread: usize,
    ) -> Searcher<'a> {
        let params = ctx.params;
        let mut lmr = vec![[0u8; 64]; 64];
        let base = params.lmr_base as f64 / 100.0;
        let div = params.lmr_divisor.max(1) as f64 / 100.0;
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = base + (d as f64).ln() * (m as f64).ln() / div;
                *r = v.clamp(0.0, 32.0) as u8;
            }
        }
        Searcher {
            pos: pos.clone(),
            params,
            weights: ctx.weights,
            network: ctx.network,
            tt: ctx.tt,
            history: &mut memory.history,
            correction: &mut memory.correction,
            oracle: &mut memory.oracle,
            eval_cache: &mut memory.eval_cache,
            soppo: Soppo::new(params),
            control: ctx.control,
            shared: ctx.shared,
            thread,
            node_limit: ctx.node_limit,
            root_proven: ctx.root_proven,
            ponder_slice: ctx.ponder_slice,
            others_nodes: 0,
            nodes: 0,
            next_poll: POLL_INTERVAL,
            stopped: false,
            seldepth: 0,
            frames: vec![
                Frame {
                    static_eval: VALUE_NONE,
                    current: Move::NULL,
                    piece_to: NO_PIECE_TO,
                    excluded: Move::NULL,
                };
                MAX_PLY + 4
            ],
            pv: vec![[Move::NULL; MAX_PLY + 2]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            pickers: (0..MAX_PLY + 2).map(|_| Some(Box::new(MovePicker::empty()))).collect(),
            scratch: MoveList::new(),
            lmr,
            root_moves: Vec::new(),
            root_threats: RootThreats::default(),
            root_slices: None,
            root_depth: 0,
            keys: root_keys(pos),
            accumulators: {
                let mut v = Vec::with_capacity(MAX_PLY + 4);
                if ctx.network.is_none() {
                    v.push(Accumulator::of(pos, ctx.weights));
                }
                v
            },
            net_accumulators: ctx
                .network
                .map(|net| NetStack::new(NetAccumulator::of(pos, net), MAX_PLY + 4)),
        }
    }

    /// Plays `m` on the search position, keeping the key stack.
    #[inline(always)]
    pub(crate) fn do_move(&mut self, m: Move) {
        let key = self.pos.key_after(m);
        self.tt.prefetch(key);
        self.eval_cache.prefetch(key);
        self.pos.make_move(m);
        self.keys.push(self.pos.key());
        if let (Some(net), Some(stack)) = (self.network, self.net_accumulators.as_mut()) {
            stack.push_move(&self.pos, m, net);
        } else {
            let acc = self.accumulator().after_move(&self.pos, m, self.weights);
            self.accumulators.push(acc);
        }
    }

    #[inline(always)]
    pub(crate) fn undo_move(&mut self) {
        self.pos.unmake_move();
        self.keys.pop();
        if let Some(stack) = self.net_accumulators.as_mut() {
            stack.pop();
        } else {
            self.accumulators.pop();
        }
    }

    /// Material and placement of the current position.
    #[inline(always)]
    fn accumulator(&self) -> &Accumulator {
        // The root's is pushed at creation and each move pushes one: never empty.
        &self.accumulators[self.accumulators.len() - 1]
    }

    /// The repetition status of the current position, treating one earlier occurrence within
    /// the window as a repetition. The key stack answers the common "no" in a few comparisons;
    /// only a real recurrence asks the rules core, which tells draw from perpetual check.
    #[inline]
    fn repetition(&self) -> Repetition {
        let n = self.keys.len();
        if n < 5 {
            return Repetition::None;
        }
        let cur = self.keys[n - 1];
        let oldest = n.saturating_sub(REPETITION_WINDOW + 1);
        let mut i = n - 5;
        loop {
            if self.keys[i] == cur {
                return self.pos.repetition_after(2);
            }
            if i < oldest + 2 {
                return Repetition::None;
            }
            i -= 2;
        }
    }

    /// Checks the stop conditions; cheap between polls.
    #[inline(always)]
    fn poll(&mut self) {
        if self.nodes + self.others_nodes >= self.node_limit {
            self.stopped = true;
            return;
        }
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + POLL_INTERVAL;
            self.others_nodes = self.shared.publish(self.thread, self.nodes);
            if let Some(slices) = self.root_slices.as_mut() {
                slices.turn(self.control);
            }
            if self.control.must_stop() || self.told_to_end() {
                self.stopped = true;
            }
        }
    }

    /// Whether something other than the clock ends this thread's search: for the main thread
    /// a proof of the root oracle, for a helper the end of the main thread, and for a slice of
    /// a multi-candidate ponder the end of the pondering.
    fn told_to_end(&self) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        if self.ponder_slice && !self.control.is_pondering() {
            return true;
        }
        if self.thread == 0 {
            self.root_proven.is_some_and(|s| s.load(Relaxed))
        } else {
            self.shared.helpers_stopped().load(Relaxed)
        }
    }

    /// Nodes of every thread of this search (the others' as last published).
    pub fn total_nodes(&self) -> u64 {
        self.nodes + self.others_nodes
    }

    /// Publishes this thread's final node count; returns every thread's total.
    pub fn finish(&mut self) -> u64 {
        self.others_nodes = self.shared.publish(self.thread, self.nodes);
        self.total_nodes()
    }

    pub fn seldepth(&self) -> usize {
        self.seldepth
    }

    fn take_picker(&mut self, ply: usize) -> Box<MovePicker> {
        self.pickers
            .get_mut(ply)
            .and_then(Option::take)
            .unwrap_or_else(|| Box::new(MovePicker::empty()))
    }

    fn put_picker(&mut self, ply: usize, p: Box<MovePicker>) {
        if let Some(slot) = self.pickers.get_mut(ply) {
            *slot = Some(p);
        }
    }

    #[inline(always)]
    pub(crate) fn clear_pv(&mut self, ply: usize) {
        if ply < self.pv_len.len() {
            self.pv_len[ply] = ply;
        }
    }

    #[inline(always)]
    pub(crate) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// The principal variation below the root, from the last completed root move search.
    fn child_pv(&self) -> Vec<Move> {
        let len = self.pv_len[1].max(1);
        self.pv[1][1..len].to_vec()
    }

    // ----- root ----------------------------------------------------------------------------

    /// Sets up the root moves (legal moves, useless non-promotions left out).
    pub fn init_root(&mut self) {
        let mut list = MoveList::new();
        movegen::generate(&self.pos, MoveClass::Legal, NonPromotions::Skip, &mut list);
        if list.is_empty() {
            movegen::legal_moves(&self.pos, &mut list);
        }
        // First order: captures by exchange value, then the rest as generated.
        let mut moves: Vec<(i32, Move)> = list
            .iter()
            .map(|&m| (if is_tactical(&self.pos, m) { see(&self.pos, m) } else { -100_000 }, m))
            .collect();
        moves.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        self.root_moves = moves
            .into_iter()
            .map(|(_, mv)| RootMove {
                mv,
                score: -VALUE_INF,
                previous_score: -VALUE_INF,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        self.history.clear_killers();
    }

    /// Searches the root moves from `pv_idx` on with the window (alpha, beta).
    fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32, pv_idx: usize) -> i32 {
        let mut best = -VALUE_INF;
        self.pv_len[0] = 0;
        let ci = CheckInfo::new(&self.pos);
        let in_check = self.pos.in_check();
        let n = self.root_moves.len();
        let mut i = pv_idx;
        while i < n {
            let m = self.root_moves[i].mv;
            let tactical = is_tactical(&self.pos, m);
            let gives_check = !in_check && ci.gives_check(&self.pos, m);
            let ext = if gives_check && self.params.check_extension != 0 && see_ge(&self.pos, m, 0)
            {
                1
            } else {
                0
            };
            let new_depth = depth - 1 + ext;
            self.seldepth = self.seldepth.max(1);
            self.frames[0].current = m;
            self.frames[0].piece_to = piece_to(&self.pos, m);
            self.do_move(m);
            self.nodes += 1;
            self.pv_len[1] = 1;
            let score = if i == pv_idx {
                -self.search(-beta, -alpha, new_depth, 1, false)
            } else {
                let r =
                    if depth >= 3 && i - pv_idx >= 4 && !gives_check && !tactical { 1 } else { 0 };
                let mut s = -self.search(-alpha - 1, -alpha, new_depth - r, 1, true);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.search(-alpha - 1, -alpha, new_depth, 1, true);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.search(-beta, -alpha, new_depth, 1, false);
                }
                s
            };
            self.undo_move();
            if self.stopped {
                break;
            }
            let rm_pv = {
                let mut pv = vec![m];
                pv.extend(self.child_pv());
                pv
            };
            if i == pv_idx || score > alpha {
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.pv = rm_pv;
                rm.seldepth = self.seldepth;
            } else {
                self.root_moves[i].score = -VALUE_INF;
            }
            if score > best {
                best = score;
                if score > alpha {
                    // The new best goes first; the moves in between shift down by one, so the
                    // next index still holds the next unsearched move.
                    self.root_moves[pv_idx..=i].rotate_right(1);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            i += 1;
        }
        best
    }

    /// Runs iterative deepening, reporting each completed iteration.
    pub fn iterate(
        &mut self,
        max_depth: u32,
        multipv: usize,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> u32 {
        let multipv = multipv.clamp(1, self.root_moves.len().max(1));
        let mut completed = 0;
        let mut last_best = Move::NULL;
        let mut stable_iterations = 0;
        let mut changed = false;
        for depth in 1..=max_depth.min(MAX_PLY as u32 - 8) as i32 {
            if self.thread > 0 {
                // A helper keeps no clock: it searches until the main thread ends.
                if self.control.must_stop() || self.told_to_end() {
                    break;
                }
                if skips_depth(self.thread, depth) && depth < max_depth as i32 {
                    continue;
                }
            } else if depth > 1 {
                let stable = if changed {
                    self.params.time_unstable_pct as f64 / 100.0
                } else if stable_iterations >= 4 {
                    self.params.time_stable_pct as f64 / 100.0
                } else {
                    1.0
                };
                if !self.control.may_start_iteration(stable) || self.told_to_end() {
                    break;
                }
            }
            self.root_depth = depth;
            self.soppo.update(self.params);
            if self.thread > 0 {
                self.shared.set_aside.leave_out(&mut self.root_moves);
            }
            for rm in self.root_moves.iter_mut() {
                rm.previous_score = rm.score;
                rm.score = -VALUE_INF;
            }
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].previous_score;
                let mut delta = self.params.aspiration_width;
                let (mut alpha, mut beta) = if depth >= self.params.aspiration_min_depth
                    && prev > -VALUE_MATE_IN_MAX
                    && prev < VALUE_MATE_IN_MAX
                {
                    ((prev - delta).max(-VALUE_INF), (prev + delta).min(VALUE_INF))
                } else {
                    (-VALUE_INF, VALUE_INF)
                };
                loop {
                    let score = self.root_search(alpha, beta, depth, pv_idx);
                    // Keep the best first within this line's slice.
                    self.sort_root(pv_idx);
                    if self.stopped {
                        break;
                    }
                    if score <= alpha && alpha > -VALUE_INF {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-VALUE_INF);
                    } else if score >= beta && beta < VALUE_INF {
                        beta = (score + delta).min(VALUE_INF);
                    } else {
                        break;
                    }
                    delta += delta / 2 + 10;
                    if delta > 1500 {
                        alpha = -VALUE_INF;
                        beta = VALUE_INF;
                    }
                }
                if self.stopped {
                    break;
                }
                // A later line may come out better than an earlier one (the search is not
                // exact: tables and histories learn while it runs); the lines are reported
                // best first.
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                break;
            }
            completed = depth as u32;
            if let Some(slices) = self.root_slices.as_mut() {
                slices
                    .set_decisive(self.root_moves[0].score >= self.params.oracle_root_decisive_cp);
            }
            if self.thread == 0 && multipv == 1 && depth >= self.params.oracle_threat_depth {
                self.set_aside_mated_best(depth);
            }
            let best = self.root_moves[0].mv;
            changed = best != last_best && depth > 1;
            stable_iterations = if best == last_best { stable_iterations + 1 } else { 0 };
            last_best = best;
            let hashfull = self.tt.hashfull();
            for (k, rm) in self.root_moves.iter().take(multipv).enumerate() {
                info(&SearchInfo {
                    depth: depth as u32,
                    seldepth: rm.seldepth.max(1) as u32,
                    elapsed: self.control.elapsed(),
                    nodes: self.total_nodes(),
                    hashfull,
                    multipv: k as u32 + 1,
                    score: to_score(rm.score),
                    pv: rm.pv.clone(),
                    note: None,
                });
            }
            // A proven mate needs no deeper search once the depth covers it (a move without a
            // score of this iteration proves nothing).
            let s = self.root_moves[0].score;
            if multipv == 1
                && s > -VALUE_INF
                && s.abs() >= VALUE_MATE_IN_MAX
                && VALUE_MATE - s.abs() < depth
            {
                break;
            }
        }
        completed
    }

    /// The root's threat probe after a completed iteration at `depth` (see [`RootThreats`]):
    /// while the best move is proven to let the opponent mate, it is set aside and the root is
    /// searched again at this depth with a full window, so that the next best has a score of
    /// this iteration (the moves below the best have none after a null-window search).
    fn set_aside_mated_best(&mut self, depth: i32) {
        loop {
            let oracle = &mut *self.oracle;
            let shared = &self.shared.set_aside;
            let control = self.control;
            let removed = self.root_threats.check_best(
                &self.pos,
                &mut self.root_moves,
                oracle,
                self.params,
                shared,
                &|| control.time_left(),
            );
            if removed.is_empty() || self.stopped {
                return;
            }
            self.seldepth = 0;
            self.root_search(-VALUE_INF, VALUE_INF, depth, 0);
            self.sort_root(0);
            if self.stopped {
                return;
            }
        }
    }

    /// Orders root moves by this iteration's score, then the previous one (stable).
    fn sort_root(&mut self, from: usize) {
        if from < self.root_moves.len() {
            self.root_moves[from..]
                .sort_by_key(|rm| std::cmp::Reverse((rm.score, rm.previous_score)));
        }
    }

    // ----- inner nodes ---------------------------------------------------------------------

    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let us = self.pos.side_to_move();
        // Repetition first: the quiescence search (captures only) cannot repeat, but the move
        // that led here may have.
        match self.repetition() {
            Repetition::None => {}
            Repetition::Draw => return VALUE_DRAW,
            Repetition::PerpetualCheck { loser } => {
                return if loser == us { mated_in(ply) } else { mate_in(ply) };
            }
        }
        if depth <= 0 {
            return crate::search::qsearch::qsearch(self, alpha, beta, ply, 0);
        }
        let pv_node = beta - alpha > 1;
        self.seldepth = self.seldepth.max(ply);
        self.poll();
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        // Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // A singular-extension search of this node without its table move: no table cut, no
        // pruning before the moves, nothing stored.
        let excluded = self.frames[ply].excluded;
        let key = self.pos.key();
        let probe = self.tt.probe(key);
        let tt_move = probe.map_or(Move::NULL, |p| p.mv);
        if let Some(p) = probe {
            let s = score_from_tt(p.score, ply);
            if !pv_node && excluded.is_null() && p.depth >= depth && p.bound.settles(s, alpha, beta)
            {
                // A quiet table move that fails high is rewarded as if searched here.
                if s >= beta && !tt_move.is_null() && !is_tactical(&self.pos, tt_move) {
                    let earlier = self.earlier_moves(ply);
                    let to = piece_to(&self.pos, tt_move);
                    self.history.update(us, tt_move, to, earlier, self.history_bonus(depth));
                }
                return s;
            }
        }

        let in_check = self.pos.in_check();
        // The mate-in-one test, once per position: a table entry means it has been done.
        if !in_check
            && probe.is_none()
            && excluded.is_null()
            && self.params.oracle_mate1 != 0
            && depth >= self.params.oracle_mate1_min_depth
        {
            if let Some(m) = self.mate_in_1_here() {
                let s = mate_in(ply + 1);
                self.pv_single(ply, m);
                self.tt.store(
                    key,
                    m,
                    score_to_tt(s, ply),
                    VALUE_NONE,
                    MAX_PLY as i32,
                    Bound::Exact,
                );
                return s;
            }
        }

        // The evaluation as computed (kept in the table), and corrected by what the search
        // has learnt of its error under these pawns (used for every decision below).
        let raw_eval = if in_check {
            VALUE_NONE
        } else {
            match probe {
                Some(p) if p.eval != VALUE_NONE && p.eval.abs() < VALUE_MATE_IN_MAX => p.eval,
                _ => self.evaluate(),
            }
        };
        let (static_eval, pawns) = if in_check { (raw_eval, 0) } else { self.corrected(raw_eval) };
        self.frames[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.frames[ply - 2].static_eval;
        // The table's score, where its bound says it is nearer the truth, is a better estimate
        // than the static evaluation for the pruning decisions below.
        let eval = match probe {
            Some(p) if !in_check => {
                let s = score_from_tt(p.score, ply);
                if s.abs() < VALUE_MATE_IN_MAX && p.bound.settles(s, static_eval, static_eval + 1) {
                    s
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };

        if !in_check && !pv_node && excluded.is_null() {
            // Razoring at depth 1–2: hopeless by a wide margin unless a capture saves it.
            if depth <= 2
                && self.params.razor_margin > 0
                && eval + self.params.razor_margin * depth < alpha
                && alpha.abs() < VALUE_MATE_IN_MAX
            {
                let v = crate::search::qsearch::qsearch(self, alpha - 1, alpha, ply, 0);
                if v < alpha {
                    return v;
                }
            }
            // Reverse futility pruning (static null move): far enough above beta, near the
            // leaves, the node is not searched.
            if depth <= self.params.rfp_max_depth && eval.abs() < VALUE_MATE_IN_MAX {
                let margin = self.params.rfp_margin * depth
                    - if improving { self.params.rfp_improving } else { 0 };
                if eval - margin >= beta {
                    return beta + (eval - beta) / 3;
                }
            }
            // Null move.
            if depth >= self.params.null_move_min_depth
                && (cut_node || self.params.null_move_cut_only == 0)
                && eval >= beta
                && beta.abs() < VALUE_MATE_IN_MAX
                && !self.frames[ply - 1].current.is_null()
            {
                let r = self.params.null_move_reduction
                    + depth / self.params.null_move_depth_divisor
                    + ((eval - beta) / 200).min(3);
                self.frames[ply].current = Move::NULL;
                self.frames[ply].piece_to = NO_PIECE_TO;
                self.pos.make_null_move();
                self.keys.push(self.pos.key());
                self.nodes += 1;
                let s = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, !cut_node);
                self.pos.unmake_null_move();
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= VALUE_MATE_IN_MAX { beta } else { s };
                }
            }
        }

        // df-pn probe where the enemy king is exposed.
        if !in_check
            && excluded.is_null()
            && self.params.oracle_probe_nodes > 0
            && depth >= self.params.oracle_probe_depth
            && Oracle::worth_probing(&self.pos, self.params)
        {
            let found = self.oracle.probe(&self.pos, self.params);
            // A probe is a search of its own (`oracle_probe_nodes` df-pn nodes): the clock is read
            // after each, not only every POLL_INTERVAL nodes of this search (in a mating net
            // 200 probes came between two polls, and a move ended 100 ms past its limit).
            self.next_poll = self.nodes;
            if let Some(line) = found {
                let m = line[0];
                if crate::search::move_picker::is_valid(&self.pos, m) {
                    let s = mate_in(ply + line.len());
                    let n = line.len().min(MAX_PLY + 1 - ply);
                    self.pv[ply][ply..ply + n].copy_from_slice(&line[..n]);
                    self.pv_len[ply] = ply + n;
                    self.tt.store(
                        key,
                        m,
                        score_to_tt(s, ply),
                        raw_eval,
                        MAX_PLY as i32,
                        Bound::Lower,
                    );
                    return s;
                }
            }
        }

        if !pv_node && !in_check && excluded.is_null() && depth >= self.params.probcut_min_depth {
            let pc_beta = beta + self.params.probcut_margin
                - if improving { self.params.probcut_improving } else { 0 };
            let table_says_no = probe
                .is_some_and(|p| p.depth >= depth - 3 && score_from_tt(p.score, ply) < pc_beta);
            if beta.abs() < VALUE_MATE_IN_MAX && !table_says_no {
                let evals = (static_eval, raw_eval);
                if let Some(s) = self.probcut(pc_beta, evals, tt_move, depth, ply, cut_node) {
                    return s - (pc_beta - beta);
                }
            }
        }

        let mut depth = depth;
        if tt_move.is_null() && depth >= self.params.iir_depth {
            depth -= 1;
        }

        // Singular extension and multi-cut, judged before the move loop (the node's picker is
        // not in use yet, so the reduced search of this same node may use it).
        let mut singular_ext = 0;
        if let Some(p) = probe.filter(|p| {
            self.params.singular_min_depth > 0
                && depth >= self.params.singular_min_depth
                && excluded.is_null()
                && !tt_move.is_null()
                && p.depth >= depth - 3
                && matches!(p.bound, Bound::Lower | Bound::Exact)
                && score_from_tt(p.score, ply).abs() < VALUE_MATE_IN_MAX
                && crate::search::move_picker::is_valid(&self.pos, tt_move)
        }) {
            let tt_score = score_from_tt(p.score, ply);
            let singular_beta = tt_score - self.params.singular_margin * depth;
            self.frames[ply].excluded = tt_move;
            let v = self.search(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
            self.frames[ply].excluded = Move::NULL;
            if self.stopped {
                return 0;
            }
            if v < singular_beta {
                singular_ext = 1;
            } else if singular_beta >= beta {
                return singular_beta;
            }
        }

        let soppo_d =
            if in_check { None } else { self.soppo.node_distance(&self.pos, self.params) };
        let prev_move = self.frames[ply - 1].current;
        let killers = self.history.killers(ply);
        let counter = self.history.counter(us, prev_move);
        let earlier = self.earlier_moves(ply);
        let mut picker = self.take_picker(ply);
        picker.init(&self.pos, tt_move, killers, counter, earlier);

        let mut best = -VALUE_INF;
        let mut best_move = Move::NULL;
        let mut move_count = 0usize;
        let mut quiets = [Move::NULL; 64];
        let mut n_quiets = 0;
        let mut captures = [Move::NULL; 32];
        let mut n_captures = 0;
        let tt_capture = !tt_move.is_null() && is_tactical(&self.pos, tt_move);
        let lmp_full = (self.params.lmp_base + self.params.lmp_factor * depth * depth).max(1);
        let lmp_limit = if improving { lmp_full } else { (lmp_full / 2).max(1) } as usize;

        while let Some(m) = picker.next(&self.pos, self.history, self.params) {
            if m == excluded {
                continue;
            }
            move_count += 1;
            let tactical = is_tactical(&self.pos, m);
            let gives_check = !in_check && picker.check_info().gives_check(&self.pos, m);
            let m_piece_to = piece_to(&self.pos, m);

            let ext = if singular_ext > 0 && m == tt_move {
                singular_ext
            } else if gives_check
                && self.params.check_extension != 0
                && depth >= self.params.check_extension_min_depth
                && (ply as i32) < 2 * self.root_depth
                && see_ge(&self.pos, m, 0)
            {
                1
            } else {
                0
            };
            let new_depth = depth - 1 + ext;

            // The late-move reduction this move would get.
            let late = move_count > self.params.lmr_min_moves as usize;
            let table =
                if late { self.lmr[(depth as usize).min(63)][move_count.min(63)] } else { 0 };
            let mut r = 0;
            let mut history = 0;
            if !tactical {
                history = self.history.quiet_score(us, m, m_piece_to, earlier);
                if late {
                    r = table as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if cut_node {
                        r += self.params.lmr_cut_node;
                    }
                    if !improving {
                        r += self.params.lmr_not_improving;
                    }
                    if tt_capture {
                        r += self.params.lmr_tt_capture;
                    }
                    if gives_check {
                        r -= 1;
                    }
                    if m == killers[0] || m == killers[1] || m == counter {
                        r -= 1;
                    }
                    if self.params.lmr_attack > 0 && attacks_a_piece(&self.pos, m) {
                        r -= self.params.lmr_attack;
                    }
                    r -= history / self.params.lmr_history_divisor.max(1);
                }
            } else if late && self.params.lmr_tactical_pct > 0 {
                // A late capture or promotion (the losing ones come after every quiet move)
                // is reduced too, less than a quiet move, and less when it has been good here.
                r = table as i32 * self.params.lmr_tactical_pct / 100 - i32::from(pv_node)
                    + i32::from(cut_node)
                    - self.history.capture_score(&self.pos, m, m_piece_to)
                        / self.params.lmr_history_divisor.max(1);
                if gives_check {
                    r -= 1;
                }
            }

            // Pruning, once a move has been searched.
            if best > -VALUE_MATE_IN_MAX && !in_check {
                // Late-move pruning: at the limit, no further quiet move is generated (checks
                // included); a quiet move already picked past it is pruned below.
                if depth <= self.params.lmp_max_depth && move_count >= lmp_limit {
                    picker.skip_quiets();
                }
                if !tactical && !gives_check {
                    if let Some(d) = soppo_d {
                        if Soppo::is_soppo(&self.pos, m, d) {
                            self.soppo.pruned += 1;
                            continue;
                        }
                    }
                    if depth <= self.params.lmp_max_depth && move_count > lmp_limit {
                        continue;
                    }
                    // A quiet move that has kept failing here and in this line.
                    if depth <= self.params.history_prune_max_depth
                        && self.params.history_prune_margin > 0
                        && history < -self.params.history_prune_margin * depth
                    {
                        continue;
                    }
                    // Futility and exchange pruning judge the move at its reduced depth.
                    let lmr_depth = (new_depth - r).max(0);
                    if lmr_depth <= self.params.futility_max_depth
                        && eval + self.futility_margin(lmr_depth) <= alpha
                    {
                        continue;
                    }
                    // A quiet move or drop that hangs the piece: not worth a search near the
                    // leaves.
                    if depth <= self.params.see_quiet_max_depth
                        && !see_ge(
                            &self.pos,
                            m,
                            -self.params.see_quiet_margin * lmr_depth * lmr_depth,
                        )
                    {
                        continue;
                    }
                } else if depth <= 3 && !see_ge(&self.pos, m, -self.params.see_prune_margin * depth)
                {
                    continue;
                }
            }

            self.frames[ply].current = m;
            self.frames[ply].piece_to = m_piece_to;
            self.do_move(m);
            self.nodes += 1;
            self.pv_len[ply + 1] = ply + 1;

            let mut score;
            if move_count == 1 {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node);
            } else {
                let r =
                    if depth >= self.params.lmr_min_depth { r.clamp(0, new_depth - 1) } else { 0 };
                if self.params.use_pvs != 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                    if score > alpha && r > 0 && !self.stopped {
                        score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                    }
                    if pv_node && score > alpha && score < beta && !self.stopped {
                        let lo = if self.params.negascout != 0 { score.max(alpha) } else { alpha };
                        score = -self.search(-beta, -lo, new_depth, ply + 1, false);
                    }
                } else {
                    score = -self.search(-beta, -alpha, new_depth - r, ply + 1, false);
                    if score > alpha && r > 0 && !self.stopped {
                        score = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                    }
                }
            }
            self.undo_move();
            if self.stopped {
                self.put_picker(ply, picker);
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if m != best_move {
                if !tactical && n_quiets < quiets.len() {
                    quiets[n_quiets] = m;
                    n_quiets += 1;
                } else if tactical && n_captures < captures.len() {
                    captures[n_captures] = m;
                    n_captures += 1;
                }
            }
        }
        self.put_picker(ply, picker);

        if move_count == 0 && !excluded.is_null() {
            // Only the excluded move: the reduced search fails low.
            return alpha;
        }
        if move_count == 0 {
            // No legal move: checkmated (a position with no move out of check cannot arise
            // otherwise in practice; it loses too).
            return mated_in(ply);
        }
        if best == -VALUE_INF {
            // Unreachable: pruning starts only once a move has been searched. Defensive.
            best = alpha;
        }

        if best >= beta && !best_move.is_null() {
            let bonus = self.history_bonus(depth);
            let best_to = piece_to(&self.pos, best_move);
            if is_tactical(&self.pos, best_move) {
                self.history.update_capture(&self.pos, best_move, best_to, bonus);
            } else {
                self.history.update(us, best_move, best_to, earlier, bonus);
                for &q in &quiets[..n_quiets] {
                    self.history.update(us, q, piece_to(&self.pos, q), earlier, -bonus);
                }
                self.history.add_killer(ply, best_move);
                self.history.set_counter(us, prev_move, best_move);
                if soppo_d.is_some() || crate::search::soppo::is_endgame(&self.pos, self.params) {
                    self.soppo.record_cut(&self.pos, best_move, self.params);
                }
            }
            // The captures tried before the refutation were not good enough here.
            for &c in &captures[..n_captures] {
                self.history.update_capture(&self.pos, c, piece_to(&self.pos, c), -bonus);
            }
        }

        let bound = Bound::of_result(best, beta, pv_node, !best_move.is_null());
        if self.params.correction_history > 0
            && !in_check
            && excluded.is_null()
            && (best_move.is_null() || !is_tactical(&self.pos, best_move))
            && best.abs() < VALUE_MATE_IN_MAX
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            self.correction.update(us, pawns, depth, best - static_eval);
        }
        if excluded.is_null() {
            self.tt.store(key, best_move, score_to_tt(best, ply), raw_eval, depth, bound);
        }
        best
    }

    /// `raw_eval` of the current position corrected by the correction history, weighted by
    /// `correction_history` and kept out of the mate range, with the pawn key it was read
    /// under (for the update at the node's end). Off (weight 0): unchanged, key 0.
    #[inline(always)]
    pub(crate) fn corrected(&self, raw_eval: i32) -> (i32, u64) {
        let weight = self.params.correction_history;
        if weight == 0 {
            return (raw_eval, 0);
        }
        let pawns = pawn_key(&self.pos);
        let c = self.correction.correction(self.pos.side_to_move(), pawns);
        let v = (raw_eval + c * weight / 100).clamp(-VALUE_MATE_IN_MAX + 1, VALUE_MATE_IN_MAX - 1);
        (v, pawns)
    }

    /// ProbCut: a capture or promotion that wins enough by exchange to reach `pc_beta` is
    /// tried, first by the quiescence search, then four plies shallower; if it holds there,
    /// the node is taken to fail high (the score is returned and stored as a lower bound).
    /// `evals`: the corrected static evaluation (for the exchange threshold) and the raw one
    /// (for the table).
    fn probcut(
        &mut self,
        pc_beta: i32,
        (static_eval, raw_eval): (i32, i32),
        tt_move: Move,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let key = self.pos.key();
        let mut picker = self.take_picker(ply);
        let tactical_tt_move = if is_tactical(&self.pos, tt_move) { tt_move } else { Move::NULL };
        picker.init_quiescence(&self.pos, tactical_tt_move);
        let mut found = None;
        while let Some(m) = picker.next(&self.pos, self.history, self.params) {
            if !see_ge(&self.pos, m, pc_beta - static_eval) {
                continue;
            }
            self.frames[ply].current = m;
            self.frames[ply].piece_to = piece_to(&self.pos, m);
            self.do_move(m);
            self.nodes += 1;
            let mut v = -crate::search::qsearch::qsearch(self, -pc_beta, -pc_beta + 1, ply + 1, 0);
            if v >= pc_beta && !self.stopped {
                v = -self.search(-pc_beta, -pc_beta + 1, depth - 4, ply + 1, !cut_node);
            }
            self.undo_move();
            if self.stopped {
                break;
            }
            if v >= pc_beta && v.abs() < VALUE_MATE_IN_MAX {
                self.tt.store(key, m, score_to_tt(v, ply), raw_eval, depth - 3, Bound::Lower);
                found = Some(v);
                break;
            }
        }
        self.put_picker(ply, picker);
        found
    }

    /// The history reward of a move that failed high at remaining depth `depth` (and the
    /// penalty of the moves tried before it).
    #[inline(always)]
    fn history_bonus(&self, depth: i32) -> i32 {
        (self.params.history_bonus_scale * depth * depth).min(self.params.history_bonus_cap)
    }

    /// The piece-to indices of the moves one and two plies before `ply`.
    #[inline(always)]
    fn earlier_moves(&self, ply: usize) -> [PieceTo; 2] {
        let back = |n: usize| if ply >= n { self.frames[ply - n].piece_to } else { NO_PIECE_TO };
        [back(1), back(2)]
    }

    /// The extended futility margin at (reduced) remaining depth `depth`: the table at 1–3,
    /// its last step on from there, and depth 0 as depth 1.
    #[inline(always)]
    fn futility_margin(&self, depth: i32) -> i32 {
        let p = self.params;
        match depth {
            ..=1 => p.futility_margin_1,
            2 => p.futility_margin_2,
            d => p.futility_margin_3 + (d - 3) * (p.futility_margin_3 - p.futility_margin_2),
        }
    }

    /// The static evaluation of the current position (material only when so configured),
    /// through the evaluation cache.
    #[inline(always)]
    pub(crate) fn evaluate(&mut self) -> i32 {
        if self.params.eval_material_only != 0 {
            return material(&self.pos);
        }
        let key = self.pos.key();
        if let Some(v) = self.eval_cache.probe(key) {
            return v;
        }
        let v = if let (Some(net), Some(stack)) = (self.network, &self.net_accumulators) {
            stack.top().evaluate(net, self.pos.side_to_move())
        } else {
            let scales = Scales::of(self.params);
            let v = evaluate_with(&self.pos, self.accumulator(), self.weights, scales);
            debug_assert_eq!(v, crate::eval::evaluate_weighted(&self.pos, self.weights, scales));
            v
        };
        self.eval_cache.store(key, v);
        v
    }

    /// A mate in one for the side to move (not in check), through the oracle.
    #[inline(always)]
    pub(crate) fn mate_in_1_here(&mut self) -> Option<Move> {
        mate_in_1(&mut self.pos, &mut self.scratch)
    }

    /// Sets the line at `ply` to the single move `m`.
    #[inline(always)]
    pub(crate) fn pv_single(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        self.pv_len[ply] = ply + 1;
    }

    // Accessors for the quiescence search.
    #[inline(always)]
    pub(crate) fn count_node(&mut self) {
        self.nodes += 1;
    }
    #[inline(always)]
    pub(crate) fn poll_stop(&mut self) -> bool {
        self.poll();
        self.stopped
    }
    #[inline(always)]
    pub(crate) fn note_ply(&mut self, ply: usize) {
        self.seldepth = self.seldepth.max(ply);
    }
    pub(crate) fn picker_for(&mut self, ply: usize) -> Box<MovePicker> {
        self.take_picker(ply)
    }
    pub(crate) fn return_picker(&mut self, ply: usize, p: Box<MovePicker>) {
        self.put_picker(ply, p);
    }
}
