//! The engine facade that front ends drive: it owns the long-lived tables (transposition table,
//! each thread's memory, oracle solvers) and runs one search per `go`: the alpha-beta search on
//! the calling thread and its helpers (Lazy SMP, see [`crate::search::threads`]), the root df-pn
//! oracle in slices of the calling thread's time (see [`crate::search::root_slices`]): a search
//! thinks on `Threads` threads, never more.

use crate::eval::network::Network;
use crate::eval::weights::Weights;
use crate::params::Params;
use crate::search::alpha_beta::{
    to_score, RootMove, SearchContext, Searcher, VALUE_INF, VALUE_MATE_IN_MAX,
};
use crate::search::control::SearchControl;
use crate::search::oracle::{Oracle, RootOracle, RootVerdict};
use crate::search::ponder::{answer_from_ponder, ponder_candidates, PonderCache, PonderSettings};
use crate::search::report::{Score, SearchInfo, SearchLimits, SearchOutcome};
use crate::search::root_slices::{RootSlices, SlicePlan};
use crate::search::table_plan::TablePlan;
use crate::search::threads::{SharedSearch, ThreadMemory, MAX_THREADS};
use crate::search::tt::TranspositionTable;
use shogi::{movegen, Move, MoveList, Position};
use std::cell::Cell;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A playing engine: parameters, transposition table and search state, reused across moves.
pub struct Engine {
    params: Params,
    /// The parameters the searches run with: `params` with the oracle tables' sizes of
    /// `tables`.
    run_params: Params,
    /// How `hash_mb` is shared among the tables (see [`TablePlan`]).
    tables: TablePlan,
    /// The evaluation's weights (hand-set unless `EvalFile`/`--weights` gave others).
    weights: Arc<Weights>,
    /// The network evaluation, when the engine evaluates with one (`EvalType=network`; by
    /// default the built-in one); the linear weights otherwise.
    network: Option<Arc<Network>>,
    hash_mb: usize,
    tt: TranspositionTable,
    /// One per search thread; the first is the main thread's.
    memories: Vec<ThreadMemory>,
    root_oracle: RootOracle,
    ponder: PonderSettings,
    /// The searches of the replies predicted while pondering, for the next `go`.
    ponder_cache: PonderCache,
}

/// What a helper thread brings back: the depth it completed and its best root move.
struct HelperResult {
    depth: u32,
    best: RootMove,
}

/// What the last search did beyond its outcome (for tests, bench and reports).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    pub nodes: u64,
    pub depth: u32,
    pub seldepth: u32,
    /// Moves pruned by soppo (SS-Cut or DS-Cut).
    pub soppo_pruned: u64,
    /// The soppo distance D in force at the end (8: nothing pruned).
    pub soppo_distance: i32,
    pub oracle_probes: u64,
    pub oracle_probe_mates: u64,
    /// The root's threat probes, and the best moves they set aside (see `root_threats`).
    pub threat_probes: u64,
    pub threats_set_aside: u64,
    /// Whether the root oracle's proof decided the move.
    pub root_oracle_used: bool,
    /// The root oracle's time, spent in the main thread's (see [`crate::search::root_slices`]).
    pub root_oracle_time: Duration,
    /// Threads that thought in this search, the calling one included: at most `Threads`.
    pub threads: u32,
}

impl Engine {
    pub fn new(params: Params, hash_mb: usize) -> Engine {
        let tables = TablePlan::of(hash_mb, &params, 1);
        let mut engine = Engine {
            run_params: params.clone(),
            params,
            tables,
            weights: Arc::new(Weights::default()),
            network: crate::eval::network::builtin(),
            hash_mb,
            tt: TranspositionTable::new(tables.main_mb),
            memories: vec![ThreadMemory::new()],
            root_oracle: RootOracle::new(),
            ponder: PonderSettings::default(),
            ponder_cache: PonderCache::default(),
        };
        engine.fit_tables(false);
        engine.prepare_root_oracle();
        engine
    }

    /// Shares `hash_mb` among the tables for the parameters and threads now in force (see
    /// [`TablePlan`]); a table whose size changes is made again (empty), the alpha-beta table
    /// also when `renew`. The solvers' tables are made when next used (or prepared).
    fn fit_tables(&mut self, renew: bool) {
        let plan = TablePlan::of(self.hash_mb, &self.params, self.memories.len());
        if renew || plan.main_mb != self.tables.main_mb {
            // The old table goes before the new one is made: both at once would be the peak
            // of the engine's memory.
            self.tt = TranspositionTable::new(1);
            self.tt = TranspositionTable::new(plan.main_mb);
        }
        if plan.root_oracle_mb != self.tables.root_oracle_mb {
            self.root_oracle = RootOracle::new();
        }
        if plan.probe_mb != self.tables.probe_mb {
            self.memories.iter_mut().for_each(|m| m.oracle = Oracle::new());
        }
        self.tables = plan;
        self.run_params = Params {
            oracle_root_hash_mb: plan.root_oracle_mb.max(1) as i32,
            oracle_probe_hash_mb: plan.probe_mb.max(1) as i32,
            ..self.params.clone()
        };
    }

    /// Makes the root oracle's solver now when the parameters use it (see
    /// [`RootOracle::prepare`]): at `isready` or when a match makes its engine, not on the
    /// first move's clock.
    pub fn prepare_root_oracle(&mut self) {
        if self.tables.root_oracle_mb > 0 {
            self.root_oracle.prepare(self.tables.root_oracle_mb);
        }
    }

    /// Whether the root oracle's solver is made.
    pub fn root_oracle_prepared(&self) -> bool {
        self.root_oracle.is_prepared()
    }

    /// Multi-candidate ponder (USI `PonderCandidates`, `PonderMarginCp`).
    pub fn set_ponder_settings(&mut self, settings: PonderSettings) {
        self.ponder = settings;
    }

    pub fn ponder_settings(&self) -> PonderSettings {
        self.ponder
    }

    pub(crate) fn ponder_cache(&mut self) -> &mut PonderCache {
        &mut self.ponder_cache
    }

    /// Sets the number of search threads (USI `Threads`), 1 to [`MAX_THREADS`]. A new
    /// thread starts with empty memory; the table is kept.
    pub fn set_threads(&mut self, threads: usize) {
        self.memories.resize_with(threads.clamp(1, MAX_THREADS), ThreadMemory::new);
        self.fit_tables(false);
    }

    pub fn threads(&self) -> usize {
        self.memories.len()
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Evaluates with `weights` from now on; when they differ, everything learnt is forgotten
    /// ([`Engine::clear`]): the table's scores and the evaluation caches hold the old weights'
    /// values.
    pub fn set_weights(&mut self, weights: Arc<Weights>) {
        if *weights != *self.weights {
            self.weights = weights;
            self.clear();
        }
    }

    pub fn weights(&self) -> &Arc<Weights> {
        &self.weights
    }

    /// Evaluates with `network` from now on (`None`: with the linear weights); a change
    /// forgets everything learnt, as [`Engine::set_weights`] does.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        let same = match (&self.network, &network) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || **a == **b,
            _ => false,
        };
        if !same {
            self.network = network;
            self.clear();
        }
    }

    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// Sets the parameters; the tables are shared again for them (see [`TablePlan`]).
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
        self.fit_tables(false);
    }

    /// Sets `USI_Hash`: every table comes out of it (see [`TablePlan`]); the alpha-beta table
    /// is made again, empty.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb;
        self.fit_tables(true);
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// What a user should know about the table just built: smaller than asked, or on 4 KB
    /// pages (slower: most probes of a large table then miss the TLB too).
    pub fn table_note(&self) -> Option<String> {
        table_note(self.tt.size_mb(), self.tables.main_mb, self.tt.huge_pages())
    }

    /// Forgets everything learnt (`usinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.memories.iter_mut().for_each(ThreadMemory::clear);
        self.root_oracle.clear();
        self.ponder_cache.clear();
    }

    /// A new game: the same as [`Engine::clear`].
    pub fn new_game(&mut self) {
        self.clear();
    }

    /// The static evaluation of `pos` for the side to move, in centipawns (what the search
    /// sees at a quiet leaf; material only when `eval_material_only` is set).
    pub fn static_eval(&self, pos: &Position) -> i32 {
        if self.params.eval_material_only != 0 {
            crate::eval::material(pos)
        } else if let Some(net) = &self.network {
            let acc = crate::eval::network::accumulator::NetAccumulator::of(pos, net);
            acc.evaluate(net, pos.side_to_move())
        } else {
            let scales = crate::eval::Scales::of(&self.params);
            crate::eval::evaluate_weighted(pos, &self.weights, scales)
        }
    }

    /// Searches `pos` until `control` or `limits` end it; reports each completed iteration
    /// through `info`. Always returns a legal move when one exists, even if stopped at once.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        control: &SearchControl,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        self.search_with_stats(pos, limits, control, info).0
    }

    /// [`Engine::search`], also returning what the search did. A pondering search predicts
    /// and searches several replies (see [`crate::search::ponder`]); a search of a position
    /// pondered on starts from that search.
    pub fn search_with_stats(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        control: &SearchControl,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> (SearchOutcome, SearchStats) {
        if control.is_pondering() {
            self.ponder_cache.clear();
            if let Some(answer) = ponder_candidates(self, pos, limits, control, info) {
                return answer;
            }
            let (outcome, stats) = self.run(pos, limits, control, info, false);
            if limits.nodes.is_some() {
                // A classic ponder under a node budget: its search answers the `go` on this
                // position as a kept reply's does.
                self.ponder_cache.keep_node_search(pos, outcome.clone(), &stats);
            }
            return (outcome, stats);
        }
        match answer_from_ponder(&mut self.ponder_cache, pos, control, limits, &self.ponder) {
            Ok(answer) => answer,
            Err(note) => {
                let (mut outcome, stats) = self.run(pos, limits, control, info, false);
                outcome.note = note;
                (outcome, stats)
            }
        }
    }

    /// One search of `pos` with every thread. A `slice` (of a multi-candidate ponder) keeps
    /// the table's generation and the histories' age, has no root oracle, and ends with the
    /// pondering.
    pub(crate) fn run(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        control: &SearchControl,
        info: &mut dyn FnMut(&SearchInfo),
        slice: bool,
    ) -> (SearchOutcome, SearchStats) {
        if !slice {
            self.memories.iter_mut().for_each(|m| m.history.age());
            self.tt.new_search();
        }
        let mut group = SearchGroup {
            params: &self.run_params,
            weights: &self.weights,
            network: self.network.as_deref(),
            tt: &self.tt,
            memories: &mut self.memories,
            root_oracle: Some(&mut self.root_oracle),
        };
        group.run(pos, limits, control, info, slice)
    }

    /// The threads split into groups of the given sizes (each at least one thread; the sizes
    /// add up to at most [`Engine::threads`]), each able to search a position of its own at
    /// the same time as the others, all on the one table. No group has the root oracle.
    pub(crate) fn groups(&mut self, sizes: &[usize]) -> Vec<SearchGroup<'_>> {
        let mut rest: &mut [ThreadMemory] = &mut self.memories;
        let mut groups = Vec::with_capacity(sizes.len());
        for &size in sizes {
            if rest.is_empty() {
                break;
            }
            let take = size.clamp(1, rest.len());
            let (memories, tail) = std::mem::take(&mut rest).split_at_mut(take);
            rest = tail;
            groups.push(SearchGroup {
                params: &self.run_params,
                weights: &self.weights,
                network: self.network.as_deref(),
                tt: &self.tt,
                memories,
                root_oracle: None,
            });
        }
        groups
    }
}

/// Search threads that search one root together (Lazy SMP): the engine's table and
/// parameters, and the memories of these threads. Usually all of the engine's threads; a
/// multi-candidate ponder gives each group a reply of its own ([`Engine::groups`]).
pub(crate) struct SearchGroup<'a> {
    params: &'a Params,
    weights: &'a Weights,
    network: Option<&'a Network>,
    tt: &'a TranspositionTable,
    /// One per thread of the group; the first is the thread that reports.
    memories: &'a mut [ThreadMemory],
    root_oracle: Option<&'a mut RootOracle>,
}

impl SearchGroup<'_> {
    /// One search of `pos` (see [`Engine::run`]; the caller ages the table and histories).
    pub(crate) fn run(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        control: &SearchControl,
        info: &mut dyn FnMut(&SearchInfo),
        slice: bool,
    ) -> (SearchOutcome, SearchStats) {
        let declare_win = pos.can_declare_win();
        let mut legal = MoveList::new();
        movegen::legal_moves(pos, &mut legal);
        if legal.is_empty() {
            let outcome = SearchOutcome {
                best: None,
                ponder: None,
                declare_win,
                score: Score::Mate(0),
                nodes: 0,
                note: None,
            };
            return (outcome, SearchStats::default());
        }
        let params = self.params;
        let (main_memory, helper_memories) = self.memories.split_at_mut(1);
        let oracle_found = AtomicBool::new(false);
        let root_oracle = self
            .root_oracle
            .as_deref_mut()
            .filter(|_| !slice && params.oracle_root_ms > 0 && RootOracle::worth_solving(pos));
        let plan = SlicePlan {
            share_pct: params.oracle_root_share_pct.max(1) as u32,
            decisive_share_pct: params.oracle_root_decisive_share_pct.max(1) as u32,
            budget: Duration::from_millis(params.oracle_root_ms.max(0) as u64),
        };
        let root_hash = params.oracle_root_hash_mb.max(1) as usize;
        let shared = SharedSearch::new(1 + helper_memories.len());
        let ctx = SearchContext {
            params,
            weights: self.weights,
            network: self.network,
            tt: self.tt,
            control,
            shared: &shared,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            root_proven: Some(&oracle_found),
            ponder_slice: slice && control.is_pondering(),
        };
        let max_depth = limits.depth.unwrap_or(u32::MAX).max(1);

        std::thread::scope(|scope| {
            // Helpers the system refuses a thread to are left out; the search goes on.
            let helpers: Vec<_> = helper_memories
                .iter_mut()
                .enumerate()
                .filter_map(|(k, memory)| {
                    let ctx = &ctx;
                    solver::stack::search_thread(&format!("search-{}", k + 1))
                        .spawn_scoped(scope, move || {
                            let mut helper = Searcher::new(pos, ctx, memory, k + 1);
                            helper.init_root();
                            let depth = helper.iterate(max_depth, 1, &mut |_| {});
                            helper.finish();
                            HelperResult { depth, best: helper.root_moves[0].clone() }
                        })
                        .ok()
                })
                .collect();
            let mut searcher = Searcher::new(pos, &ctx, &mut main_memory[0], 0);
            // The root oracle runs in the main thread's time: no thread of its own.
            searcher.root_slices =
                root_oracle.map(|o| RootSlices::new(o, pos, plan, root_hash, &oracle_found));
            searcher.init_root();
            let multipv = limits.multipv.max(1) as usize;
            // The first move and score of the last line reported: a GUI shows that line beside
            // the move played, so the move played and its score must be the last it was shown.
            let reported_first: Cell<Option<(Move, Score)>> = Cell::new(None);
            let mut report = |i: &SearchInfo| {
                if i.multipv <= 1 {
                    reported_first.set(i.pv.first().map(|&m| (m, i.score)));
                }
                info(i)
            };
            let mut depth = searcher.iterate(max_depth, multipv, &mut report);
            // A mate of the search's own, not proven by the oracle: the oracle has the rest
            // of the move to prove one (see `root_slices`).
            if searcher.root_moves.first().is_some_and(|rm| rm.score >= VALUE_MATE_IN_MAX) {
                if let Some(slices) = searcher.root_slices.as_mut() {
                    slices.verify(control);
                }
            }
            shared.stop_helpers();
            let threads = 1 + helpers.len() as u32;
            // A helper that panicked is left out: the main thread's answer stands.
            let results: Vec<HelperResult> =
                helpers.into_iter().filter_map(|h| h.join().ok()).collect();
            let (verdict, oracle_time) = match searcher.root_slices.take() {
                Some(s) => {
                    let spent = s.spent();
                    (s.verdict(), spent)
                }
                None => (RootVerdict::Unknown, Duration::ZERO),
            };
            let nodes = searcher.finish();

            // The deepest completed iteration with a better score speaks (MultiPV: the main
            // thread, whose lines were reported).
            let mut rm = &searcher.root_moves[0];
            let mut from_helper = false;
            if multipv == 1 {
                for r in &results {
                    if shared.set_aside.contains(r.best.mv) {
                        continue;
                    }
                    if r.depth > depth && r.best.score > rm.score && r.best.score > -VALUE_INF {
                        depth = r.depth;
                        rm = &r.best;
                        from_helper = true;
                    }
                }
            }
            let raw = if rm.score > -VALUE_INF { rm.score } else { rm.previous_score };
            let mut best = rm.mv;
            let mut ponder = rm.pv.get(1).copied();
            let mut score = if raw > -VALUE_INF { to_score(raw) } else { Score::Cp(0) };
            // A line decided after the iterations (a helper's, the root oracle's, the move
            // played): reported as the first line.
            let mut report_final = |depth: u32, seldepth: usize, score: Score, pv: Vec<Move>| {
                report(&SearchInfo {
                    depth,
                    seldepth: seldepth as u32,
                    elapsed: control.elapsed(),
                    nodes,
                    hashfull: self.tt.hashfull(),
                    multipv: 1,
                    score,
                    pv,
                    note: None,
                })
            };
            if from_helper {
                report_final(depth, rm.seldepth.max(1), score, rm.pv.clone());
            }
            let mut used = false;
            match &verdict {
                RootVerdict::Win(pv) => {
                    let n = pv.len() as i32;
                    // The proof is played even where the search claims a shorter mate: its
                    // claim may come from a pruned defence, and its line may be cut short.
                    if legal.contains(&pv[0]) {
                        best = pv[0];
                        ponder = pv.get(1).copied();
                        score = Score::Mate(n);
                        used = true;
                    }
                }
                RootVerdict::Loss(pv) => {
                    if legal.contains(&pv[0]) {
                        best = pv[0];
                        ponder = pv.get(1).copied();
                        score = Score::Mate(-(pv.len() as i32));
                        used = true;
                    }
                }
                RootVerdict::NoMate | RootVerdict::Unknown => {}
            }
            if used {
                let pv = match &verdict {
                    RootVerdict::Win(pv) | RootVerdict::Loss(pv) => pv.clone(),
                    RootVerdict::NoMate | RootVerdict::Unknown => Vec::new(),
                };
                report_final(depth.max(1), pv.len(), score, pv);
            }
            // A search stopped inside an iteration (the root oracle's proof, the clock) may have
            // changed its best move or score without reporting the line: report it now.
            if multipv == 1 && reported_first.get() != Some((best, score)) {
                let pv = if rm.pv.first() == Some(&best) { rm.pv.clone() } else { vec![best] };
                report_final(depth.max(1), rm.seldepth.max(1), score, pv);
            }
            let stats = SearchStats {
                nodes,
                depth,
                seldepth: searcher.seldepth() as u32,
                soppo_pruned: searcher.soppo.pruned,
                soppo_distance: searcher.soppo.distance(),
                oracle_probes: searcher.oracle.probes,
                oracle_probe_mates: searcher.oracle.mates,
                threat_probes: searcher.root_threats.probes,
                threats_set_aside: searcher.root_threats.set_aside,
                root_oracle_used: used,
                root_oracle_time: oracle_time,
                threads,
            };
            let outcome =
                SearchOutcome { best: Some(best), ponder, declare_win, score, nodes, note: None };
            (outcome, stats)
        })
    }
}

/// [`Engine::table_note`] for a table of `got` MiB where `asked` were asked: the table is a
/// power of two, so less than half of `asked` rounded up is a shortfall.
fn table_note(got: usize, asked: usize, huge_pages: bool) -> Option<String> {
    if got < asked.next_power_of_two() / 2 {
        Some(format!("the hash table has {got} MiB of the {asked} asked"))
    } else if !huge_pages {
        Some("the hash table is on 4 KB pages (no transparent huge pages here)".to_string())
    } else {
        None
    }
}

#[cfg(test)]
mod table_note_tests {
    use super::table_note;

    #[test]
    fn a_short_or_small_paged_table_is_told() {
        assert_eq!(table_note(256, 256, true), None);
        // 300 MiB asked gives a 256 MiB table of buckets: as asked.
        assert_eq!(table_note(256, 300, true), None);
        let short = table_note(64, 256, true).unwrap_or_default();
        assert!(short.contains("64 MiB of the 256"), "{short}");
        let small = table_note(256, 256, false).unwrap_or_default();
        assert!(small.contains("4 KB pages"), "{small}");
    }
}

#[cfg(test)]
mod weights_tests {
    use super::*;

    /// The search evaluates with the engine's weights: a knight worth nothing on the board
    /// changes the score of a position where Black has one more knight, once the weights are
    /// set, and the hand-set weights give the old score back (no stale evaluation cache).
    #[test]
    fn the_search_uses_the_weights_it_is_given() {
        let pos =
            Position::from_sfen("4k4/9/9/9/9/9/9/4N4/4K4 b - 1").unwrap_or_else(|e| panic!("{e}"));
        let params = Params { oracle_root_ms: 0, ..Params::default() };
        let mut engine = Engine::new(params, 1);
        let limits = SearchLimits { depth: Some(3), nodes: None, multipv: 1 };
        let score = |engine: &mut Engine| {
            let control = SearchControl::new(None, None, false);
            match engine.search(&pos, &limits, &control, &mut |_| {}).score {
                Score::Cp(cp) => cp,
                Score::Mate(_) => panic!("no mate here"),
            }
        };
        // A new engine evaluates with the built-in network when there is one; without it,
        // with the learnt weights.
        if let Some(net) = crate::eval::network::builtin() {
            let acc = crate::eval::network::accumulator::NetAccumulator::of(&pos, &net);
            assert_eq!(engine.static_eval(&pos), acc.evaluate(&net, pos.side_to_move()));
            engine.set_network(None);
        }
        assert_eq!(
            engine.static_eval(&pos),
            crate::eval::evaluate_weighted(
                &pos,
                &Weights::learnt(),
                crate::eval::Scales::default()
            )
        );
        engine.set_weights(Arc::new(Weights::hand_set()));
        let hand_set = score(&mut engine);
        assert_eq!(engine.static_eval(&pos), crate::eval::evaluate(&pos));
        let mut cheap = Weights::hand_set();
        cheap.board[shogi::PieceKind::Knight.index()] = 0;
        engine.set_weights(Arc::new(cheap.clone()));
        assert_eq!(
            engine.static_eval(&pos),
            crate::eval::evaluate_weighted(&pos, &cheap, crate::eval::Scales::default())
        );
        let with_cheap = score(&mut engine);
        assert!(with_cheap < hand_set - 200, "{with_cheap} vs {hand_set}");
        engine.set_weights(Arc::new(Weights::hand_set()));
        assert_eq!(score(&mut engine), hand_set);
    }

    /// With a network set, the search evaluates with it: a network whose only weight is a
    /// psqt value for Black's knight on the board (from each view: ours up, theirs down) gives
    /// the score that value, and taking the network away gives the linear score back.
    #[test]
    fn the_search_uses_the_network_it_is_given() {
        use crate::eval::network::accumulator::NetAccumulator;
        use crate::eval::network::features::{meaning, Meaning, FEATURES};
        use crate::eval::network::{Network, QA, QW};
        let pos =
            Position::from_sfen("4k4/9/9/9/9/9/9/4N4/4K4 b - 1").unwrap_or_else(|e| panic!("{e}"));
        let params = Params { oracle_root_ms: 0, ..Params::default() };
        let mut engine = Engine::new(params, 1);
        let limits = SearchLimits { depth: Some(4), nodes: None, multipv: 1 };
        let score = |engine: &mut Engine| {
            let control = SearchControl::new(None, None, false);
            match engine.search(&pos, &limits, &control, &mut |_| {}).score {
                Score::Cp(cp) => cp,
                Score::Mate(_) => panic!("no mate here"),
            }
        };
        engine.set_network(None);
        let linear = score(&mut engine);
        let mut net = Network::zeros();
        for f in 0..FEATURES {
            net.psqt[f] = match meaning(f) {
                Meaning::Piece { ours: true, kind: shogi::PieceKind::Knight } => 7 * QA * QW,
                Meaning::Piece { ours: false, kind: shogi::PieceKind::Knight } => -7 * QA * QW,
                _ => 0,
            };
        }
        let net = Arc::new(net);
        engine.set_network(Some(Arc::clone(&net)));
        let acc = NetAccumulator::of(&pos, &net);
        assert_eq!(engine.static_eval(&pos), 700);
        assert_eq!(acc.evaluate(&net, pos.side_to_move()), 700);
        // Every leaf keeps the knight (the king cannot take it in four plies): 700.
        assert_eq!(score(&mut engine), 700);
        engine.set_network(None);
        assert_eq!(score(&mut engine), linear);
    }

    /// The root oracle's solver is made with the engine when the parameters use it (its table
    /// is allocated and touched then, not on the first move's clock), and not at all when they
    /// do not; turning the oracle on later makes it at the next preparation.
    #[test]
    fn the_root_oracle_is_made_before_the_first_move() {
        let on = Engine::new(Params { oracle_root_hash_mb: 1, ..Params::default() }, 1);
        assert!(on.root_oracle_prepared());
        let mut off = Engine::new(Params { oracle_root_ms: 0, ..Params::default() }, 1);
        assert!(!off.root_oracle_prepared());
        off.set_params(Params { oracle_root_hash_mb: 1, ..Params::default() });
        off.prepare_root_oracle();
        assert!(off.root_oracle_prepared());
    }
}
