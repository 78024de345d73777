//! The threads of one solve (`Threads`): the main thread and `Threads − 1` helpers, which share
//! the table through every phase of the answer.
//!
//! - **The first proof.** Helpers prove the root beside the main thread, as many as the
//!   machine has cores beside the main thread's ([`provers`]), steered away from the subtrees
//!   the others are inside by virtual proof numbers (`busy`), so that they search elsewhere
//!   than the main thread and than each other; what one proves or disproves, the others find
//!   in the table. The phase ends when the main thread has its answer: the helpers are
//!   interrupted.
//! - **The main line's first valuation** (the futility tests of the whole proof tree):
//!   a helper walks the same tree with the defences in reverse order ([`Team::walk_beside`]),
//!   filling the table where the main thread comes last.
//! - **The refinement** (see `main_line`). Its questions ("does any other check mate within
//!   `v − 2` plies?", one per attacker's node of the main line) are independent of each other:
//!   the main thread and the helpers take them from one [`Pass`] in turn, each with its own
//!   path and repetition tier, until none is left or one of them finds a shorter mate.
//!
//! A helper that panics reports its job done and leaves the team; the solve goes on without
//! it (the main thread never waits for a helper that is gone).

use super::dfpn::Search;
use super::main_line::{MateLen, Shorter};
use crate::clock::Instant;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use shogi::{Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the main thread asks of a helper.
pub(super) enum Job {
    /// Prove the root with this many plies left until interrupted.
    Prove(u16),
    /// Take questions of the pass until none is left or the pass halts.
    Questions(Arc<Pass>),
    /// Walk the first proof's tree as the main line's first valuation does, the defences in
    /// reverse order, until interrupted (see `Search::walk_line_reversed`).
    WalkLine,
}

/// The main thread's side of the team: one job channel per helper, one channel for their
/// answers, and the flag that interrupts a helper's search.
pub(super) struct Team<'t> {
    jobs: Vec<Sender<Job>>,
    done: Receiver<()>,
    /// Raised to end a helper's job early (the first proof proven, or the solve stopped).
    interrupt: &'t AtomicBool,
    /// What the helpers searched in finished jobs.
    counts: &'t HelperCounts,
    /// How many helpers prove beside the main thread (see [`provers`]).
    provers: usize,
    /// The solve's own `stop` and deadline, watched while the main thread waits for helpers.
    watch: Watch<'t>,
}

/// What ends a whole solve: `stop`, and the time limit (as a deadline). The helpers' searches
/// see only the team's interrupt; the main thread, when it waits for them, watches these and
/// raises the interrupt, so that a `stop` is answered even while only helpers are searching.
#[derive(Copy, Clone)]
pub(super) struct Watch<'t> {
    pub(super) stop: &'t AtomicBool,
    pub(super) deadline: Option<Instant>,
}

impl Watch<'_> {
    fn halted(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// How often a waiting main thread looks at its [`Watch`].
const WATCH_INTERVAL: Duration = Duration::from_millis(2);

/// How many helpers prove the root beside the main thread: at most one for each core beside
/// the main thread's. Proving threads share nothing but the table, so each does much of the
/// same work again; on cores of their own they still make the proof come sooner, but beyond
/// the cores they only take time from each other: on this 2-core machine 図巧1 took 2.4 M
/// expansions with one thread, 3.7 M with two (1.36 times as fast), 8.7 M with eight (1.8
/// times as slow). The helpers beyond take the refinement's questions, which share no work.
pub(super) fn provers(helpers: usize) -> usize {
    helpers.min(crate::cores::available().saturating_sub(1))
}

/// Nodes and expansions of the helpers' finished jobs.
#[derive(Default)]
pub(super) struct HelperCounts {
    pub(super) nodes: AtomicU64,
    pub(super) visits: AtomicU64,
}

/// The helper's side: its job channel and where it reports. Its search's stop flag is the
/// team's interrupt.
pub(super) struct Mate<'t> {
    jobs: Receiver<Job>,
    done: Sender<()>,
    counts: &'t HelperCounts,
}

impl<'t> Team<'t> {
    /// A team of `helpers` helpers (not started: [`Team::mates`] gives what each one needs).
    pub(super) fn new(
        helpers: usize,
        interrupt: &'t AtomicBool,
        counts: &'t HelperCounts,
        watch: Watch<'t>,
    ) -> (Team<'t>, Vec<Mate<'t>>) {
        let (done_tx, done) = crossbeam_channel::unbounded();
        let mut jobs = Vec::with_capacity(helpers);
        let mut mates = Vec::with_capacity(helpers);
        for _ in 0..helpers {
            let (tx, rx) = crossbeam_channel::unbounded();
            jobs.push(tx);
            mates.push(Mate { jobs: rx, done: done_tx.clone(), counts });
        }
        (Team { jobs, done, interrupt, counts, provers: provers(helpers), watch }, mates)
    }

    /// Gives every helper a job (made by `job`); returns how many took it.
    fn dispatch(&mut self, job: impl Fn() -> Job) -> usize {
        self.dispatch_to(usize::MAX, job)
    }

    /// Gives the first `count` helpers a job; returns how many took it.
    fn dispatch_to(&mut self, count: usize, job: impl Fn() -> Job) -> usize {
        // A helper that is gone (it panicked, or never started) drops its receiver.
        let mut busy = 0;
        self.jobs.retain(|tx| {
            if busy >= count {
                return true;
            }
            let sent = tx.send(job()).is_ok();
            busy += usize::from(sent);
            sent
        });
        busy
    }

    /// Waits until `count` helpers have reported their job done; interrupts them if the
    /// solve is stopped or out of time meanwhile.
    fn wait(&self, count: usize) {
        let mut left = count;
        while left > 0 {
            match self.done.recv_timeout(WATCH_INTERVAL) {
                Ok(()) => left -= 1,
                Err(RecvTimeoutError::Timeout) => {
                    if self.watch.halted() {
                        self.interrupt.store(true, Ordering::Relaxed);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        self.interrupt.store(false, Ordering::Relaxed);
    }

    /// Runs `main` on this thread while the helpers prove the root with `depth` plies left
    /// (as many as the machine has cores beside this thread's: see [`provers`]); interrupts
    /// them when it returns and waits for them.
    pub(super) fn prove_beside<R>(&mut self, depth: u16, main: impl FnOnce() -> R) -> R {
        self.beside(self.provers, || Job::Prove(depth), main)
    }

    /// Runs `main` (the main line's first valuation) on this thread while a helper walks the
    /// same tree from its other end; interrupts it when `main` returns and waits for it. The
    /// valuation's futility tests and proofs are most of its time (図巧1: 1.1 s, the helpers
    /// idle), and what the helper proves the main thread finds in the table. One helper, on a
    /// core of its own: a tree has one other end, and more walkers would repeat it.
    pub(super) fn walk_beside<R>(&mut self, main: impl FnOnce() -> R) -> R {
        self.beside(self.provers.min(1), || Job::WalkLine, main)
    }

    /// Runs `main` on this thread while the first `count` helpers do `job`; interrupts them
    /// when it returns and waits for them.
    fn beside<R>(&mut self, count: usize, job: impl Fn() -> Job, main: impl FnOnce() -> R) -> R {
        let busy = self.dispatch_to(count, job);
        let r = main();
        self.interrupt_and_wait(busy);
        r
    }

    fn interrupt_and_wait(&self, busy: usize) {
        self.interrupt.store(true, Ordering::Relaxed);
        self.wait(busy);
    }

    /// Has the helpers take questions of `pass` while `main` (the main thread's share of the
    /// work, which answers whether it was stopped) runs, then waits for them: for the ones
    /// they hold to be answered, or, when the main thread was stopped, interrupted.
    pub(super) fn share(&mut self, pass: &Arc<Pass>, main: impl FnOnce() -> bool) {
        let busy = self.dispatch(|| Job::Questions(Arc::clone(pass)));
        if main() {
            self.interrupt_and_wait(busy);
        } else {
            self.wait(busy);
        }
    }

    /// Nodes the helpers have searched so far (in finished jobs).
    pub(super) fn helper_nodes(&self) -> u64 {
        self.counts.nodes.load(Ordering::Relaxed)
    }
}

/// One question of a pass: at ply `index` of line `line` of the pass (an attacker's node whose
/// line has `value` left), does a check other than the line's mate within `value − 2`?
#[derive(Copy, Clone, Debug)]
pub(super) struct Question {
    pub(super) line: usize,
    pub(super) index: usize,
    pub(super) value: MateLen,
    pub(super) cap: u64,
    pub(super) ask: Ask,
}

/// What a [`Question`] asks of the checks of its node (see `Search::shorter_check`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Ask {
    /// Does any other check mate sooner than the line?
    Shorter,
    /// Does any other check mate as soon? Where the line's mate leaves the attacker pieces,
    /// another may mate as soon with fewer; every check is asked.
    AsLong,
    /// Does a check that comes before the line's in the order of the moves mate as soon? The
    /// line takes the first of the checks that mate as soon (see `RefineBudget::ties`).
    Tie,
}

/// The questions of one pass of the refinement, shared by the threads that answer them.
pub(super) struct Pass {
    /// The lines the questions are about, from the root: the main line, then variations.
    pub(super) lines: Vec<Vec<Move>>,
    pub(super) questions: Vec<Question>,
    /// The next question to take.
    next: AtomicUsize,
    /// Raised when a shorter mate is found (or the budget is spent): no question is taken
    /// after it.
    halt: AtomicBool,
    /// Nodes the pass may still spend, all threads together.
    left: AtomicU64,
    /// The budget ran out before every question was taken.
    pub(super) spent: AtomicBool,
    /// Each question's answer, once taken and answered.
    pub(super) answers: Mutex<Vec<Option<Shorter>>>,
}

impl Pass {
    pub(super) fn new(lines: Vec<Vec<Move>>, questions: Vec<Question>, budget: u64) -> Pass {
        let n = questions.len();
        Pass {
            lines,
            questions,
            next: AtomicUsize::new(0),
            halt: AtomicBool::new(false),
            left: AtomicU64::new(budget),
            spent: AtomicBool::new(false),
            answers: Mutex::new(vec![None; n]),
        }
    }

    /// Takes `nodes` from what the pass may spend.
    fn spend(&self, nodes: u64) {
        let _ = self.left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
            Some(left.saturating_sub(nodes))
        });
    }
}

impl Search<'_> {
    /// Answers questions of `pass` (from `root`, the end of the path) until none is left, the
    /// pass halts or the search is stopped.
    pub(super) fn work_on(&mut self, root: &Position, pass: &Pass) {
        let base = self.path.len();
        while !self.stopped && !pass.halt.load(Ordering::Relaxed) {
            let k = pass.next.fetch_add(1, Ordering::Relaxed);
            let Some(&q) = pass.questions.get(k) else { break };
            let left = pass.left.load(Ordering::Relaxed);
            if left == 0 {
                pass.spent.store(true, Ordering::Relaxed);
                break;
            }
            let moves = &pass.lines[q.line];
            let mut pos = root.clone();
            for &m in &moves[..q.index] {
                pos.make_move(m);
                self.enter(&pos);
            }
            let before = self.nodes;
            let found = self.shorter_check(&mut pos, moves[q.index], q.value, q.ask, q.cap, left);
            self.truncate_path(base);
            pass.spend(self.nodes - before);
            if self.stopped && !matches!(found, Shorter::Found) {
                // Cut by the stop, not by its cap: not an answer.
                break;
            }
            if matches!(found, Shorter::Found) {
                pass.halt.store(true, Ordering::Relaxed);
            }
            if let Ok(mut answers) = pass.answers.lock() {
                answers[k] = Some(found);
            }
        }
    }
}

impl Mate<'_> {
    /// The helper's life: takes jobs until the team ends, running them on `search` from
    /// `root` (the end of its path); reports each one done.
    pub(super) fn serve(self, search: &mut Search<'_>, root: &Position) {
        let base = search.path.len();
        for job in self.jobs.iter() {
            let (nodes, visits) = (search.nodes, search.visits);
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &job {
                &Job::Prove(depth) => {
                    search.answer_beside_others(&mut root.clone(), depth);
                }
                Job::Questions(pass) => search.work_on(root, pass),
                Job::WalkLine => search.walk_line_reversed(&mut root.clone()),
            }));
            self.counts.nodes.fetch_add(search.nodes - nodes, Ordering::Relaxed);
            self.counts.visits.fetch_add(search.visits - visits, Ordering::Relaxed);
            // Ready for the next job: an interrupt ends a job, not the helper.
            search.truncate_path(base);
            search.aborted = false;
            search.stopped = false;
            search.cap = None;
            let _ = self.done.send(());
            if run.is_err() {
                break;
            }
        }
    }
}
