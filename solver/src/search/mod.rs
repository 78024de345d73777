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

mod aggregate;
mod at_once;
mod busy;
mod children;
mod dfpn;
mod distant_drop;
mod double_count;
mod estimates;
mod expansion;
mod futile_memo;
mod futility;
mod hands;
mod key_hasher;
mod keyed_cache;
mod line;
mod line_memo;
mod main_line;
mod monitor;
mod other_moves;
mod path;
pub mod profile;
pub mod reference_proof;
mod solved_above;
mod team;
mod thresholds;
mod value;

pub use at_once::QuestionThread;
pub use distant_drop::king_distance;
pub use line::replays_as_mate;
pub use main_line::MateLen;
pub use other_moves::{OtherMoves, OtherMovesResult};

use dfpn::Search;
use line::Futile;

use crate::clock::Instant;
use crate::config::{DoubleCount, Rules, SolverConfig};
use crate::outcome::{Limits, Outcome, Phase, Phases, Progress, SolveResult};
use crate::repetition_table::RepetitionTable;
use crate::stack::StackGuard;
use crate::table_file::TableFileError;
use crate::tt::{key_salt, Table, UNBOUNDED};
use shogi::{Color, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use team::{HelperCounts, Mate, Team, Watch};

/// What the main line (tsume rules) may spend after the first proof (see
/// [`main_line::RefineBudget`]): `SolverConfig::shorter_mate_percent` of the first proof's
/// nodes, and at least this floor, which a shorter mate found on the main line renews: a game
/// position's first proof is small, and its line may come down 2 plies at a time (YaneuraOu
/// mate9 #183 and #206 were left longer than their shortest with 300,000 nodes counted from
/// the start, 2026-11-27).
const AFTER_PROOF_FLOOR: u64 = 300_000;
/// The refinement's budget for a root the table already proved (see `solve_after`).
const RECALLED_BUDGET: u64 = 20_000;

pub struct Solver {
    config: SolverConfig,
    table: Table,
    repetitions: RepetitionTable,
    /// What the last search measured of its stack.
    stack_use: StackUse,
    /// What opening the table file did or why it failed, not yet taken by the caller.
    table_log: Vec<String>,
    /// Where the last first proof's expansions went, when `config.profile` asked.
    profile: Option<Box<profile::Profile>>,
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
    /// A solver with the table `config` asks for. A table file that cannot be used leaves the
    /// solver with an in-memory table, and the reason in [`Solver::take_table_log`]
    /// (use [`Solver::open`] to fail instead).
    pub fn new(config: SolverConfig) -> Solver {
        let mut solver = Solver::without_table(config);
        if let Err(e) = solver.build_table() {
            solver.table_log.push(format!("error: {e}; the table is in memory"));
        }
        solver
    }

    /// A solver whose table (a 1 MiB placeholder) `build_table` has yet to make.
    fn without_table(config: SolverConfig) -> Solver {
        Solver {
            table: Table::new(1, false),
            config,
            repetitions: RepetitionTable::default(),
            stack_use: StackUse::default(),
            table_log: Vec::new(),
            profile: None,
        }
    }

    /// A solver with the table `config` asks for, or why its table file cannot be used.
    pub fn open(config: SolverConfig) -> Result<Solver, TableFileError> {
        let mut solver = Solver::without_table(config);
        solver.build_table()?;
        Ok(solver)
    }

    /// Builds the table of the current settings (any table file open before is closed
    /// first, so the same file can be opened again). On error, an in-memory table.
    fn build_table(&mut self) -> Result<(), TableFileError> {
        let links = self.config.double_count == DoubleCount::Snda;
        // Closes the old table (and its file) before a file is opened.
        self.table = Table::new(1, false);
        let Some(path) = self.config.table_file.clone() else {
            self.table = Table::new(self.config.hash_mb, links);
            return Ok(());
        };
        match Table::open_file(&path, self.config.hash_mb, links, self.config.rules) {
            Ok((table, opened)) => {
                self.table = table;
                let mb = (opened.entries * crate::tt::ENTRY_SIZE) >> 20;
                let mut line = format!(
                    "table file {}: {} with {} entries ({mb} MiB{}), {} rules",
                    path.display(),
                    if opened.created { "created" } else { "opened" },
                    opened.entries,
                    if opened.created { "" } else { ", its own size" },
                    self.config.rules.name(),
                );
                if opened.was_dirty {
                    line.push_str(&format!(
                        "; not closed cleanly: entries checked, {} torn ones emptied",
                        opened.torn
                    ));
                }
                self.table_log.push(line);
                Ok(())
            }
            Err(e) => {
                self.table = Table::new(self.config.hash_mb, links);
                Err(e)
            }
        }
    }

    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// Applies new settings; a new hash size reallocates an in-memory table (a table file
    /// keeps its size), and a new table file or new rules with a table file reopen it.
    pub fn set_config(&mut self, config: SolverConfig) {
        let links = config.double_count == DoubleCount::Snda;
        let old = std::mem::replace(&mut self.config, config);
        let reopen = old.table_file != self.config.table_file
            || (self.config.table_file.is_some() && old.rules != self.config.rules);
        if reopen {
            if let Err(e) = self.build_table() {
                self.table_log.push(format!("error: {e}; the table is in memory"));
            }
        } else if self.table.file().is_some() {
            self.table.set_parent_links(links);
        } else if self.config.hash_mb != old.hash_mb || links != self.table.has_parent_links() {
            self.table = Table::new(self.config.hash_mb, links);
        }
    }

    /// Lines about the table file (opened, created, checked after a kill, or why it is not
    /// used) not yet taken.
    pub fn take_table_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.table_log)
    }

    /// The table file in use, if any.
    pub fn table_file(&self) -> Option<&std::path::Path> {
        self.table.file()
    }

    /// Asks the OS to write the table file out (after each problem; no wait, nothing without
    /// a file).
    pub fn flush_table(&self) -> std::io::Result<()> {
        self.table.flush()
    }

    /// What the last search measured of its stack.
    pub fn stack_use(&self) -> StackUse {
        self.stack_use
    }

    /// Where the last first proof's expansions went (with `SolverConfig::profile`), once.
    pub fn take_profile(&mut self) -> Option<Box<profile::Profile>> {
        self.profile.take()
    }

    /// Forgets what was learnt (USI `usinewgame`, a new problem of a batch): the repetition
    /// tier always, the table unless it lives in a file. A table file is kept across problems
    /// on purpose (that is what it is for), and its entries are safe to reuse: proofs and
    /// disproofs are facts of a position, path-dependent disproofs are never stored in it,
    /// bounded disproofs carry their depth, and what differs between problems (attacker,
    /// pieces in play, rules) keeps their entries apart (see [`crate::tt`]). To start a file
    /// afresh, delete it.
    pub fn clear(&mut self) {
        if self.table.file().is_none() {
            self.table.clear();
        }
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
        self.solve_after(pos, &[], attacker, limits, stop, progress)
    }

    /// Solves the position that `prefix` reaches from `origin`, with the positions of the way
    /// there on the search's path: a line that comes back to one of them is a repetition (no
    /// mate by it), as it is in the search of the whole problem. The composer's report asks
    /// its questions so; a question asked from a bare position would count detours through
    /// earlier positions of the main line as mates. A `prefix` that is not legal is a timeout.
    pub fn solve_after(
        &mut self,
        origin: &Position,
        prefix: &[shogi::Move],
        attacker: Color,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SolveResult {
        let helpers = self.config.threads.saturating_sub(1);
        self.table.set_shared(helpers > 0);
        let (table, repetitions, config) = (&self.table, &mut self.repetitions, &self.config);
        let asked = Asked { origin, prefix, attacker, limits, stop };
        let solved = solve_on(table, repetitions, config, &asked, progress);
        self.table.set_shared(false);
        if let Some(stack_use) = solved.stack_use {
            self.stack_use = stack_use;
            self.profile = solved.profile;
        }
        solved.result
    }

    /// The evasions of `pos` (the defender to move, in check, against `attacker`), each with
    /// whether it is a futile interposition (無駄合) under the rules in force: under tsume
    /// rules those do not count as defences (see `Search::is_futile`); under pure rules none
    /// is futile. A futility test not settled within its node cap counts as a defence.
    pub fn classify_evasions(
        &mut self,
        pos: &Position,
        attacker: Color,
        stop: &AtomicBool,
    ) -> Vec<(shogi::Move, bool)> {
        let tsume = self.config.rules == Rules::Tsume;
        let (table, repetitions) = (&self.table, &mut self.repetitions);
        let limits = Limits::default();
        let mut search = new_search(table, repetitions, &self.config, pos, attacker, &limits);
        search.stop = stop;
        let mut root = pos.clone();
        search.enter(&root);
        let mut list = shogi::MoveList::new();
        shogi::movegen::legal_moves(&root, &mut list);
        let blocks = expansion::blocking_squares(&root);
        list.iter()
            .map(|&mv| {
                let block = blocks.is_some_and(|(ksq, line)| expansion::is_block(mv, ksq, line));
                (mv, tsume && block && search.is_futile(&mut root, mv, None))
            })
            .collect()
    }
}

/// What a solve is asked: the position that `prefix` reaches from `origin` (see
/// [`Solver::solve_after`]), with `attacker` mating, within `limits` or until `stop`.
struct Asked<'a> {
    origin: &'a Position,
    prefix: &'a [shogi::Move],
    attacker: Color,
    limits: &'a Limits,
    stop: &'a AtomicBool,
}

/// What one solve on one key space gave: the solve, and whether the table proved the root
/// with no line that could be read from it on the way asked (see [`solve_on`]).
struct KeyedSolve {
    solved: Solved,
    proof_without_line: bool,
}

/// What a solve gives back: its result, and what it measured of its stack and profiled (none
/// when the prefix was not legal and nothing was searched).
struct Solved {
    result: SolveResult,
    stack_use: Option<StackUse>,
    profile: Option<Box<profile::Profile>>,
}

/// One solve on `table` (set shared by the caller when several threads use it): the main
/// thread here, with `repetitions` as its repetition tier, and `config.threads − 1` helpers
/// (see [`team`]). [`Solver::solve_after`] is this with the solver's own table and tier;
/// [`Solver::at_once`] runs it on several threads at once, one question each.
///
/// **A proof that leans on the way.** A proof the table holds from another search (an earlier
/// `go mate`, the solve before a report's question) may pass through a position that is on
/// this solve's way (`prefix`), where it is a repetition: the root reads as proven, and no
/// line can be read from it. The root is then solved again in a key space of this way alone
/// (the positions of `origin` and `prefix` salt the table's keys), where every proof was made
/// with the way on the path: a mate with its line, or no mate on this way.
fn solve_on(
    table: &Table,
    repetitions: &mut RepetitionTable,
    config: &SolverConfig,
    asked: &Asked<'_>,
    progress: &mut dyn FnMut(&Progress),
) -> Solved {
    let first = solve_keyed(table, repetitions, config, asked, 0, progress);
    if !first.proof_without_line {
        return first.solved;
    }
    let spent = &first.solved.result;
    let left = Limits {
        time: asked.limits.time.map(|t| t.saturating_sub(spent.elapsed)),
        nodes: asked.limits.nodes.map(|n| n.saturating_sub(spent.nodes)),
    };
    if left.time.is_some_and(|t| t.is_zero()) || left.nodes == Some(0) {
        return first.solved;
    }
    let again = Asked { limits: &left, ..*asked };
    let salt = way_salt(asked.origin, asked.prefix);
    let mut second = solve_keyed(table, repetitions, config, &again, salt, progress).solved;
    second.result.count_from(spent);
    second
}

/// The salt of the key space of one way: a mix of the keys of `origin` and of the positions
/// `prefix` leads through (even, as every table salt, so that it leaves the key's flag bit).
fn way_salt(origin: &Position, prefix: &[shogi::Move]) -> u64 {
    let mut pos = origin.clone();
    let mut salt = RepetitionTable::extend(0x5A17_ED0F_0A11_0000, pos.key());
    for &m in prefix {
        if !shogi::movegen::is_legal(&pos, m) {
            break;
        }
        pos.make_move(m);
        salt = RepetitionTable::extend(salt, pos.key());
    }
    salt & !1
}

/// One solve (see [`solve_on`]) with the table's keys salted by `salt` as well.
fn solve_keyed(
    table: &Table,
    repetitions: &mut RepetitionTable,
    config: &SolverConfig,
    asked: &Asked<'_>,
    salt: u64,
    progress: &mut dyn FnMut(&Progress),
) -> KeyedSolve {
    let &Asked { origin, prefix, attacker, limits, stop } = asked;
    let mut check = origin.clone();
    for &m in prefix {
        if !shogi::movegen::is_legal(&check, m) {
            let result = SolveResult::timeout(0, Duration::ZERO);
            let solved = Solved { result, stack_use: None, profile: None };
            return KeyedSolve { solved, proof_without_line: false };
        }
        check.make_move(m);
    }
    let pos = origin;
    let start = Instant::now();
    let max_ply = config.max_ply;
    let helpers = config.threads.saturating_sub(1);
    let depth = max_ply.saturating_sub(prefix.len().min(u16::MAX as usize) as u16);
    let interrupt = AtomicBool::new(false);
    let counts = HelperCounts::default();
    // Threads inside each node, for the virtual numbers of a shared first proof.
    let busy = (helpers > 0).then(busy::Busy::default);
    let watch = Watch { stop, deadline: limits.time.map(|t| start + t) };
    let (mut team, mates) = Team::new(helpers, &interrupt, &counts, watch);
    let env = HelperEnv {
        table,
        config,
        pos,
        prefix,
        attacker,
        limits,
        interrupt: &interrupt,
        busy: busy.as_ref(),
        salt,
    };
    let keyed = std::thread::scope(|scope| {
        for (k, mate) in mates.into_iter().enumerate() {
            env.spawn(scope, k + 1, mate);
        }
        let mut search = new_search(table, repetitions, config, pos, attacker, limits);
        search.key_salt ^= salt;
        search.stop = stop;
        search.progress = Some(progress);
        search.busy = busy.as_ref();
        let mut root = walk_in(&mut search, pos, prefix);
        // A root the table already answers (a question asked again) needs no search.
        let value = team.prove_beside(depth, || search.answer_beside_others(&mut root, depth));
        let first_proof = (start.elapsed(), search.nodes + team.helper_nodes());
        let (mut depth_limited, mut no_mate_within) = (false, 0);
        let (mut main_line, mut proven_shortest) = (false, false);
        let mut proof_without_line = false;
        let mut phases = Phases { first_proof, ..Phases::default() };
        let outcome = if search.aborted {
            Outcome::Timeout
        } else if value.pn == 0 {
            // The first proof's line, read from the table at once (a few lookups a ply):
            // the answer if a limit or `stop` cuts the phases after it short.
            search.begin(Phase::ProofLine);
            let proof_line = search.principal_variation(&mut root, Futile::ByBoard);
            let line = if config.any_mate {
                search.principal_variation(&mut root, Futile::ByTest).map(|pv| (pv, false, false))
            } else if config.rules == Rules::Tsume {
                // A share of the first proof's nodes, every thread's: the threads spend the
                // budget together, so that the answer comes within the same share of the
                // first proof's time at any number of threads. (A share of the main thread's
                // alone gave two threads half the time: ミクロコスモス answered 1541 plies,
                // and 1525-1533 in three runs with every thread's, 2026-12-07.)
                let first_nodes = first_proof.1;
                let share = |percent: u64| first_nodes.saturating_mul(percent) / 100;
                // A root the table already knew (a table file, a question asked again) had
                // its main line refined when it was proven: its settled questions answer
                // from the table, and the unsettled ones are not asked again at length.
                let recalled = search.visits == 0 && !config.refine_recalled;
                let floor = if recalled { RECALLED_BUDGET } else { AFTER_PROOF_FLOOR };
                let nodes = floor.max(share(config.shorter_mate_percent));
                let budget = main_line::RefineBudget {
                    nodes,
                    renew: floor,
                    pure_bound: if recalled { 0 } else { main_line::PURE_BOUND_BUDGET },
                    ties: if config.lines_in_order { nodes } else { 0 },
                };
                search.main_line(&mut root, budget, &mut team).map(|l| {
                    debug_assert_eq!(l.len.plies as usize, l.moves.len());
                    phases.final_line = l.final_line;
                    (l.moves, true, l.proven_shortest)
                })
            } else {
                search
                    .shortest_pure_line(&mut root, value.len, &mut team)
                    .map(|pv| (pv, true, true))
            };
            let line = line.filter(|(pv, _, _)| replays_as_mate(&root, pv, attacker, config.rules));
            match line {
                Some((pv, main, shortest)) => {
                    (main_line, proven_shortest) = (main, shortest);
                    Outcome::Mate(pv)
                }
                // Nothing better finished: the first proof's line (read again, with the
                // futile interpositions left out, when there is time).
                None if !search.stopped && !config.any_mate => {
                    let line = search.principal_variation(&mut root, Futile::ByTest).or(proof_line);
                    // Proven, with time left, and no line: the proof leans on the way.
                    proof_without_line = line.is_none() && salt == 0;
                    line.map_or(Outcome::Timeout, Outcome::Mate)
                }
                None => proof_line.map_or(Outcome::Timeout, Outcome::Mate),
            }
        } else if value.depth == UNBOUNDED {
            Outcome::NoMate
        } else {
            // No mate within the depth limit, but one may lie beyond it.
            (depth_limited, no_mate_within) = (true, value.depth);
            Outcome::Timeout
        };
        phases.entered = search.entered;
        phases.entered[Phase::FirstProof.index()] = Some(Duration::ZERO);
        // The team ends: the helpers leave their loops and are joined by the scope.
        drop(team);
        let stack_use = StackUse {
            deepest_ply: search.guard.deepest_ply(),
            bytes_per_ply: search.guard.bytes_per_ply(),
        };
        let profile = search.profile.take();
        let nodes = search.nodes + counts.nodes.load(Ordering::Relaxed);
        let report = Progress {
            nodes,
            elapsed: start.elapsed(),
            hashfull: search.table.hashfull(),
            root_pn: value.pn,
            root_dn: value.dn,
            mate: None,
            began: None,
        };
        if let Some(progress) = search.progress.as_mut() {
            progress(&report);
        }
        let result = SolveResult {
            outcome,
            nodes,
            elapsed: start.elapsed(),
            depth_limited,
            no_mate_within,
            main_line,
            proven_shortest,
            expansions: search.visits + counts.visits.load(Ordering::Relaxed),
            phases,
            cut: search.cut,
        };
        (result, stack_use, profile, proof_without_line)
    });
    let (result, stack_use, profile, proof_without_line) = keyed;
    KeyedSolve {
        solved: Solved { result, stack_use: Some(stack_use), profile },
        proof_without_line,
    }
}

/// A search over `table`, for one question from the root `pos`; its stop flag and progress
/// callback are set by the caller (never stopped and nobody listening here).
fn new_search<'a>(
    table: &'a Table,
    repetitions: &'a mut RepetitionTable,
    config: &SolverConfig,
    pos: &Position,
    attacker: Color,
    limits: &Limits,
) -> Search<'a> {
    static NEVER: AtomicBool = AtomicBool::new(false);
    let max_ply = config.max_ply;
    let start = Instant::now();
    Search {
        table,
        repetitions,
        double_count: config.double_count,
        expect_no: config.expect_no,
        rules: config.rules,
        // Without futility tests, a search under tsume rules counts the plies of interpositions
        // it cannot yet show futile, which is harmless to a proof of mate with no depth limit
        // but makes "no mate within the limit" wrong (a mate at once with futile
        // interpositions, read as none within 0 plies): under a depth limit, always tested.
        futility_tests: config.rules == Rules::Tsume && max_ply < crate::stack::MAX_PLY,
        pure_probe: false,
        max_ply,
        attacker,
        key_salt: key_salt(pos, attacker),
        nodes: 0,
        visits: 0,
        valued: 0,
        limits: limits.clone(),
        start,
        next_report: start + Duration::from_secs(1),
        next_check: 0,
        next_gc_check: 0,
        stop: &NEVER,
        progress: None,
        aborted: false,
        stopped: false,
        phase: Phase::FirstProof,
        cut: None,
        entered: [None; Phase::COUNT],
        cap: None,
        root_value: (1, 1),
        guard: StackGuard::here(),
        path: Vec::with_capacity(max_ply as usize + 1),
        on_path: Default::default(),
        nodes_on_path: Vec::with_capacity(max_ply as usize + 1),
        path_hashes: Vec::with_capacity(max_ply as usize + 1),
        merges: Vec::new(),
        arena: Vec::new(),
        estimate_moves: Box::default(),
        estimates: Default::default(),
        futile_memo: Default::default(),
        solved_above: Default::default(),
        profile: config.profile.then(|| {
            let reference = config.profile_reference.as_ref().map(|r| r.0.clone());
            let mut p = profile::Profile::against(reference);
            p.trace = (config.trace > 0).then(|| profile::Trace::new(config.trace));
            Box::new(p)
        }),
        busy: None,
        left_out: None,
    }
}

/// What a helper thread of one solve needs to build its search (see [`team`]).
struct HelperEnv<'env> {
    table: &'env Table,
    config: &'env SolverConfig,
    pos: &'env Position,
    prefix: &'env [shogi::Move],
    attacker: Color,
    limits: &'env Limits,
    interrupt: &'env AtomicBool,
    busy: Option<&'env busy::Busy>,
    /// The solve's salt of the table's keys (see [`solve_on`]).
    salt: u64,
}

impl<'env> HelperEnv<'env> {
    /// Starts helper `k` (from 1), which serves `mate` until the team ends. A helper that
    /// cannot start only costs its help.
    fn spawn<'scope>(
        &'scope self,
        scope: &'scope std::thread::Scope<'scope, 'env>,
        k: usize,
        mate: Mate<'env>,
    ) {
        let run = move || {
            let mut repetitions = RepetitionTable::default();
            let (table, config, pos) = (self.table, self.config, self.pos);
            let mut search =
                new_search(table, &mut repetitions, config, pos, self.attacker, self.limits);
            search.key_salt ^= self.salt;
            search.stop = self.interrupt;
            search.profile = None;
            search.busy = self.busy;
            let root = walk_in(&mut search, pos, self.prefix);
            mate.serve(&mut search, &root);
        };
        let name = format!("mate-helper-{k}");
        let _ = crate::stack::search_thread(&name).spawn_scoped(scope, run);
    }
}

/// Enters `origin` and the positions `prefix` leads through on the search's path; returns the
/// last one (the root of the question). The moves are legal (checked by the caller).
fn walk_in(search: &mut Search<'_>, origin: &Position, prefix: &[shogi::Move]) -> Position {
    let mut root = origin.clone();
    search.enter(&root);
    for &m in prefix {
        root.make_move(m);
        search.enter(&root);
    }
    root
}

/// The attacker a position means by default: the side to move, unless it is in check.
pub fn default_attacker(pos: &Position) -> Color {
    if pos.in_check() {
        !pos.side_to_move()
    } else {
        pos.side_to_move()
    }
}

/// What a unit test of the search needs to make one of its own: a table (1 MiB unless said),
/// the repetition tier, the default settings and no limits.
#[cfg(test)]
struct SearchFixture {
    table: Table,
    repetitions: RepetitionTable,
    config: SolverConfig,
    limits: Limits,
}

#[cfg(test)]
impl SearchFixture {
    fn new(table_mb: usize) -> SearchFixture {
        SearchFixture {
            table: Table::new(table_mb, false),
            repetitions: RepetitionTable::default(),
            config: SolverConfig::default(),
            limits: Limits::default(),
        }
    }

    /// A search with Black attacking from `pos` (the table is `search.table`).
    fn search(&mut self, pos: &Position) -> Search<'_> {
        new_search(
            &self.table,
            &mut self.repetitions,
            &self.config,
            pos,
            Color::Black,
            &self.limits,
        )
    }
}
