//! The order and the budget of a report's questions.
//!
//! The questions that decide soundness come first: another mating first move (余詰 at move 1),
//! then other mates along the main line, then the lengths of the other defences (変長, 変同).
//! Each is asked with the node cap of a question; those the cap stopped are asked again, in the
//! same order, with twice the cap (their search goes on from the table the last try left),
//! and so on while the problem's time for questions lasts. A question is unsettled only when
//! that time ran out, and the report says how far it got.

use shogi::Move;
use std::collections::BTreeSet;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// What a question asks about a move of the main line's position at `index`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Ask {
    /// Does any check but the main line's (`mv`) and the mates already found there mate? One
    /// question for all of them (see [`crate::search::OtherMoves`]); each mate it finds is
    /// then asked as a [`Ask::Cook`].
    OtherChecks,
    /// Does this other check mate (at the first move: at all; later: within the plies the
    /// main line needs from there)? A mate is a cook (余詰).
    Cook,
    /// How long does this other defence resist (変長, 変同)?
    Variation,
}

/// One question of a report: the move `mv` instead of the main line's at `index` (0-based).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Question {
    pub index: usize,
    pub mv: Move,
    pub ask: Ask,
}

impl Question {
    /// Smaller first: cooks at move 1, cooks further on, then variations; by ply within each.
    fn rank(&self) -> (u8, usize) {
        let kind = match self.ask {
            Ask::OtherChecks | Ask::Cook if self.index == 0 => 0,
            Ask::OtherChecks | Ask::Cook => 1,
            Ask::Variation => 2,
        };
        (kind, self.index)
    }
}

/// How many tries in a row a provisional answer may stop short of their cap and still be
/// asked again. Such a try found its root in the table and went on with a small budget of its
/// own, whatever the cap: a few of them may settle more (a YaneuraOu sample's cook question
/// took four), but 図巧83's ▲３三龍 at move 209 was asked 916 times, the problem's whole 20 s,
/// for the same answer.
pub(super) const PROVISIONAL_PATIENCE: u32 = 8;

/// The result of asking a question once.
pub(super) enum Try<A> {
    /// Answered (a mate, no mate, or an answer that more nodes would not change).
    Settled(A),
    /// Its node cap was reached after `nodes` nodes: worth asking again with a larger cap.
    Capped { nodes: u64 },
    /// Answered in part after `nodes` nodes (a question about several moves found some of
    /// them mate, and asks about the rest): asked again at once, with the same cap.
    Again { nodes: u64 },
    /// Answered, but a larger cap might answer better (a longer mate where a shorter one would
    /// be a cook): asked again, within [`PROVISIONAL_PATIENCE`]. Kept if the time runs out
    /// before a better one.
    Provisional { answer: A, nodes: u64 },
    /// The problem's time ran out during it, after `nodes` nodes.
    OutOfTime { nodes: u64 },
    /// It ended short of its cap and of the time with no answer, after `nodes` nodes: asked
    /// again (the table may change meanwhile) within [`PROVISIONAL_PATIENCE`] such tries in a
    /// row, then left unsettled, rather than asked again until the time is spent.
    Stuck { nodes: u64 },
}

impl<A> Try<A> {
    /// The same try, `more` nodes spent before it counted in it.
    pub(super) fn plus_nodes(self, more: u64) -> Try<A> {
        match self {
            Try::Settled(a) => Try::Settled(a),
            Try::Capped { nodes } => Try::Capped { nodes: nodes + more },
            Try::Again { nodes } => Try::Again { nodes: nodes + more },
            Try::Provisional { answer, nodes } => Try::Provisional { answer, nodes: nodes + more },
            Try::OutOfTime { nodes } => Try::OutOfTime { nodes: nodes + more },
            Try::Stuck { nodes } => Try::Stuck { nodes: nodes + more },
        }
    }
}

/// What asking a question came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Outcome<A> {
    Settled(A),
    /// Not settled within the problem's time for questions.
    Unsettled(Effort),
}

/// How far an unsettled question got.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Effort {
    /// How many times it was asked (0: the time ran out before its turn).
    pub tries: u32,
    /// Its nodes over all tries.
    pub nodes: u64,
    /// The node cap of its last try.
    pub last_cap: u64,
    /// Its tries ended [`PROVISIONAL_PATIENCE`] times in a row with no answer ([`Try::Stuck`]).
    pub stuck: bool,
}

impl Effort {
    /// For the report, e.g. "asked 3 times, 1,400,000 nodes in all (the last try capped at
    /// 800,000)".
    pub(super) fn describe(&self) -> String {
        match self.tries {
            _ if self.stuck => format!(
                "no answer: its search ended short of its cap with none, {PROVISIONAL_PATIENCE} \
                 times in a row (asked {} times, {} nodes in all): the table proves it, but no \
                 line could be read from it on this way",
                self.tries, self.nodes
            ),
            0 => "the report's time ran out before it was asked".to_string(),
            n => format!(
                "the report's time ran out: asked {n} time{}, {} nodes in all (the last try \
                 capped at {})",
                if n == 1 { "" } else { "s" },
                self.nodes,
                self.last_cap
            ),
        }
    }
}

/// Puts `questions` in the order they are asked in (see [`Question::rank`]; stable, so that
/// questions of one ply keep their order).
pub(super) fn order(questions: &mut [Question]) {
    questions.sort_by_key(Question::rank);
}

/// Asks every question (`ask(i, cap)` asks question `i` once within `cap` nodes), in order,
/// with `first_cap`; then those the cap stopped again with the cap doubled, round after round,
/// until each is settled or `time_left()` says the time is spent. The outcomes, by question.
/// (One thread: [`Schedule`] with one worker.)
pub(super) fn settle<A>(
    count: usize,
    first_cap: u64,
    ask: impl FnMut(usize, u64) -> Try<A>,
    time_left: impl Fn() -> bool,
) -> Vec<Outcome<A>> {
    let schedule = Schedule::new(count, first_cap);
    schedule.work(ask, time_left);
    schedule.outcomes()
}

/// The questions of one report and what became of them, for any number of threads that take
/// them ([`Schedule::work`]), one thread a question.
///
/// The order that decides soundness is kept whatever the threads: a try is taken only when
/// every try before it has been taken, tries ordered by round (the first try of every question,
/// then the second try, with twice the cap, of those the cap stopped, ...) and within a round
/// by question. So a question is never left unasked, nor asked fewer times, while one after it
/// is asked, except for the tries that were under way when the time ran out; and the outcomes
/// come by question, whichever thread answered, so the report reads the same. With one thread
/// the tries come exactly as [`settle`]'s rounds.
pub(super) struct Schedule<A> {
    state: Mutex<State<A>>,
    /// Told when a try ends: a thread waiting for one may take the try it requeued, or stop.
    ended: Condvar,
    first_cap: u64,
}

/// A [`Schedule`]'s state, under its lock.
struct State<A> {
    /// The tries to take, as (round, place, question), the smallest first.
    queue: BTreeSet<(u32, Place, usize)>,
    /// Each question's place in a round (see [`Place`]).
    places: Vec<Place>,
    /// Questions added so far (for the places of the next).
    added: usize,
    /// Tries taken and not yet ended.
    under_way: usize,
    outcomes: Vec<Option<Outcome<A>>>,
    /// The last provisional answer of each question (see [`Try::Provisional`]).
    provisional: Vec<Option<A>>,
    /// Provisional or stuck tries in a row that stopped short of their cap, by question.
    short: Vec<u32>,
    effort: Vec<Effort>,
    /// The round of each question's last try taken.
    rounds: Vec<u32>,
    /// Every try as (question, cap), in the order taken (for the tests).
    #[cfg(test)]
    taken: Vec<(usize, u64)>,
}

/// Where a question comes in each round: the question's own index, or for a question added
/// beside another, that one's index and the order it was added in.
type Place = (usize, usize);

/// How long a thread with nothing to take waits for a try under way to end before it looks at
/// the time again.
const WAIT: Duration = Duration::from_millis(20);

impl<A> Schedule<A> {
    /// `count` questions, none asked yet; first tries capped at `first_cap`.
    pub(super) fn new(count: usize, first_cap: u64) -> Schedule<A> {
        Schedule {
            state: Mutex::new(State {
                queue: (0..count).map(|i| (0, (i, 0), i)).collect(),
                places: (0..count).map(|i| (i, 0)).collect(),
                added: 0,
                under_way: 0,
                outcomes: (0..count).map(|_| None).collect(),
                provisional: (0..count).map(|_| None).collect(),
                short: vec![0; count],
                effort: vec![Effort::default(); count],
                rounds: vec![0; count],
                #[cfg(test)]
                taken: Vec::new(),
            }),
            ended: Condvar::new(),
            first_cap: first_cap.max(1),
        }
    }

    /// The state, even after a thread panicked while holding it (each change under the lock
    /// is whole, so what it holds stays consistent).
    fn lock(&self) -> MutexGuard<'_, State<A>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A thread's share: takes the next try, asks it (`ask(i, cap)`), records its result, and
    /// so on until none is left or `time_left()` says the time is spent.
    pub(super) fn work(
        &self,
        mut ask: impl FnMut(usize, u64) -> Try<A>,
        time_left: impl Fn() -> bool,
    ) {
        while let Some(taken) = self.take(&time_left) {
            let result = ask(taken.question, taken.cap);
            taken.end(Some(result));
        }
    }

    /// The next try, waiting while none is queued but some are under way (they may come back);
    /// `None` when every question is answered or the time is spent.
    fn take(&self, time_left: &impl Fn() -> bool) -> Option<Taken<'_, A>> {
        let mut state = self.lock();
        loop {
            if !time_left() {
                return None;
            }
            if let Some((round, _, question)) = state.queue.pop_first() {
                let doubled = 1u64.checked_shl(round).unwrap_or(u64::MAX);
                let cap = self.first_cap.saturating_mul(doubled);
                state.under_way += 1;
                state.rounds[question] = round;
                let e = &mut state.effort[question];
                e.tries += 1;
                e.last_cap = cap;
                #[cfg(test)]
                state.taken.push((question, cap));
                return Some(Taken { schedule: self, question, round, cap, ended: false });
            }
            if state.under_way == 0 {
                return None;
            }
            state = match self.ended.wait_timeout(state, WAIT) {
                Ok((s, _)) => s,
                Err(e) => e.into_inner().0,
            };
        }
    }

    /// Records what the try of `question` in `round` with `cap` came to (`None`: nothing, the
    /// thread that asked it panicked).
    fn end(&self, question: usize, round: u32, cap: u64, result: Option<Try<A>>) {
        let mut state = self.lock();
        let state = &mut *state;
        state.under_way -= 1;
        let i = question;
        let mut again = || {
            state.queue.insert((round.saturating_add(1), state.places[i], i));
        };
        match result {
            Some(Try::Settled(a)) => state.outcomes[i] = Some(Outcome::Settled(a)),
            Some(Try::Capped { nodes }) => {
                state.effort[i].nodes += nodes;
                state.short[i] = 0;
                again();
            }
            Some(Try::Again { nodes }) => {
                state.effort[i].nodes += nodes;
                state.short[i] = 0;
                state.queue.insert((round, state.places[i], i));
            }
            Some(Try::OutOfTime { nodes }) => {
                state.effort[i].nodes += nodes;
                again();
            }
            Some(Try::Stuck { nodes }) => {
                state.effort[i].nodes += nodes;
                state.short[i] += 1;
                if state.short[i] < PROVISIONAL_PATIENCE {
                    again();
                } else {
                    state.effort[i].stuck = true;
                }
            }
            Some(Try::Provisional { answer, nodes }) => {
                state.effort[i].nodes += nodes;
                state.short[i] = if nodes >= cap { 0 } else { state.short[i] + 1 };
                if state.short[i] < PROVISIONAL_PATIENCE {
                    state.provisional[i] = Some(answer);
                    again();
                } else {
                    state.outcomes[i] = Some(Outcome::Settled(answer));
                }
            }
            None => {}
        }
        self.ended.notify_all();
    }

    /// A new question, found by the try of `beside` under way: asked in that try's round, right
    /// after the first question `after` and the questions added there before (so a cook a joint
    /// question finds is asked before the questions that come after the joint one), and in
    /// that place in every later round. Returns its index (the next after the last).
    pub(super) fn add(&self, beside: usize, after: usize) -> usize {
        let mut state = self.lock();
        let state = &mut *state;
        let i = state.outcomes.len();
        let round = state.rounds.get(beside).copied().unwrap_or(0);
        state.added += 1;
        let place = (after, state.added);
        state.places.push(place);
        state.outcomes.push(None);
        state.provisional.push(None);
        state.short.push(0);
        state.effort.push(Effort::default());
        state.rounds.push(round);
        state.queue.insert((round, place, i));
        i
    }

    /// The outcomes, by question (taken: once the work is over): a question not settled is
    /// settled by its last provisional answer if it had one, else unsettled with how far it
    /// got.
    pub(super) fn outcomes(&self) -> Vec<Outcome<A>> {
        let mut state = self.lock();
        let state = &mut *state;
        let (outcomes, provisional, effort) = (
            std::mem::take(&mut state.outcomes),
            std::mem::take(&mut state.provisional),
            std::mem::take(&mut state.effort),
        );
        outcomes
            .into_iter()
            .zip(provisional)
            .zip(effort)
            .map(|((o, p), e)| o.or(p.map(Outcome::Settled)).unwrap_or(Outcome::Unsettled(e)))
            .collect()
    }
}

/// A try taken from a [`Schedule`]: ended with its result, or, should its thread panic, ended
/// with none when dropped (so that the other threads do not wait for it).
struct Taken<'s, A> {
    schedule: &'s Schedule<A>,
    question: usize,
    round: u32,
    cap: u64,
    ended: bool,
}

impl<A> Taken<'_, A> {
    fn end(mut self, result: Option<Try<A>>) {
        self.ended = true;
        self.schedule.end(self.question, self.round, self.cap, result);
    }
}

impl<A> Drop for Taken<'_, A> {
    fn drop(&mut self) {
        if !self.ended {
            self.schedule.end(self.question, self.round, self.cap, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Instant;
    use std::cell::{Cell, RefCell};

    /// Question `i` settles once a try is given at least `need[i]` nodes (none: never).
    fn run(
        need: &[Option<u64>],
        first_cap: u64,
        budget: u64,
    ) -> (Vec<Outcome<u64>>, Vec<(usize, u64)>) {
        let spent = Cell::new(0u64);
        let asked = RefCell::new(Vec::new());
        let outcomes = settle(
            need.len(),
            first_cap,
            |i, cap| {
                asked.borrow_mut().push((i, cap));
                match need[i] {
                    Some(n) if n <= cap => {
                        spent.set(spent.get() + n);
                        Try::Settled(n)
                    }
                    _ => {
                        spent.set(spent.get() + cap);
                        Try::Capped { nodes: cap }
                    }
                }
            },
            || spent.get() < budget,
        );
        (outcomes, asked.into_inner())
    }

    #[test]
    fn capped_questions_are_asked_again_with_twice_the_cap_while_time_lasts() {
        let (outcomes, asked) = run(&[Some(10), Some(35), Some(5)], 10, 1_000);
        assert_eq!(outcomes, vec![Outcome::Settled(10), Outcome::Settled(35), Outcome::Settled(5)]);
        // Round one: all three at 10; question 1 again at 20, then at 40.
        assert_eq!(asked, vec![(0, 10), (1, 10), (2, 10), (1, 20), (1, 40)]);
    }

    #[test]
    fn unsettled_only_when_the_time_is_spent_and_says_how_far_it_got() {
        // Question 0 never settles; the budget allows 10 + 10 + 20 + 40 nodes before it ends.
        let (outcomes, asked) = run(&[None, Some(3)], 10, 70);
        assert_eq!(outcomes[1], Outcome::Settled(3));
        assert_eq!(asked, vec![(0, 10), (1, 10), (0, 20), (0, 40)]);
        let effort = Effort { tries: 3, nodes: 70, last_cap: 40, stuck: false };
        assert_eq!(outcomes[0], Outcome::Unsettled(effort));
    }

    /// A provisional answer (say, a longer mate) is asked for again while its tries reach
    /// their cap, and at most `PROVISIONAL_PATIENCE` times in a row when they stop short of
    /// it; once the time is spent, the last provisional answer is the outcome.
    #[test]
    fn a_provisional_answer_is_asked_again_within_its_patience() {
        let asked = RefCell::new(Vec::new());
        // Question 0 stops by itself at 25 nodes whatever the cap; question 1 uses every cap.
        let spent = Cell::new(0u64);
        let outcomes = settle(
            2,
            10,
            |i, cap| {
                asked.borrow_mut().push((i, cap));
                let nodes = if i == 0 { cap.min(25) } else { cap };
                spent.set(spent.get() + nodes);
                Try::Provisional { answer: (i, cap), nodes }
            },
            || spent.get() < 1 << 20,
        );
        let asked = asked.into_inner();
        let tries = |q: usize| asked.iter().filter(|&&(i, _)| i == q).count() as u32;
        // Question 0: two tries reach their cap (10, 20), then PROVISIONAL_PATIENCE fall short.
        assert_eq!(tries(0), 2 + PROVISIONAL_PATIENCE);
        assert_eq!(outcomes[0], Outcome::Settled((0, 10 << (1 + PROVISIONAL_PATIENCE))));
        // Question 1 is asked until the time is spent, and keeps its last answer.
        let last = asked.iter().rev().find(|&&(i, _)| i == 1).copied();
        assert_eq!(outcomes[1], Outcome::Settled(last.unwrap_or_default()));
        assert!(tries(1) > tries(0));
    }

    /// A try that ends short of its cap with no answer is asked again (the table may change),
    /// but not until the time is spent: after `PROVISIONAL_PATIENCE` such tries in a row the
    /// question is unsettled, and says why.
    #[test]
    fn a_question_stuck_short_of_its_cap_is_given_up_within_its_patience() {
        let asked = RefCell::new(Vec::new());
        let outcomes = settle(
            3,
            10,
            |i, cap| {
                asked.borrow_mut().push((i, cap));
                let tries = asked.borrow().iter().filter(|t| t.0 == i).count();
                match i {
                    0 => Try::Stuck { nodes: 4 },
                    // Stuck twice, then answered.
                    1 if tries <= 2 => Try::Stuck { nodes: 4 },
                    _ => Try::Settled(i),
                }
            },
            || true,
        );
        let asked = asked.into_inner();
        let tries = |q: usize| asked.iter().filter(|&&(i, _)| i == q).count() as u32;
        assert_eq!(tries(0), PROVISIONAL_PATIENCE);
        let effort = Effort {
            tries: PROVISIONAL_PATIENCE,
            nodes: 4 * u64::from(PROVISIONAL_PATIENCE),
            last_cap: 10 << (PROVISIONAL_PATIENCE - 1),
            stuck: true,
        };
        assert_eq!(outcomes[0], Outcome::Unsettled(effort));
        assert!(effort.describe().contains("no answer"), "{}", effort.describe());
        assert_eq!((tries(1), &outcomes[1]), (3, &Outcome::Settled(1)));
        assert_eq!(outcomes[2], Outcome::Settled(2));
    }

    /// A question that finds new ones (a joint question's mates) adds them to the try's round,
    /// right after itself, and is asked again at once with the same cap.
    #[test]
    fn questions_found_by_a_try_join_its_round_and_it_is_asked_again() {
        let schedule: Schedule<u32> = Schedule::new(2, 10);
        let asked = RefCell::new(Vec::new());
        let added = Cell::new(false);
        schedule.work(
            |i, cap| {
                asked.borrow_mut().push((i, cap));
                match i {
                    0 if !added.get() => {
                        added.set(true);
                        assert_eq!(schedule.add(0, 0), 2);
                        Try::Again { nodes: 3 }
                    }
                    2 if cap == 10 => Try::Capped { nodes: 10 },
                    _ => Try::Settled(i as u32),
                }
            },
            || true,
        );
        // Question 2, added beside 0, comes before 1 in every round.
        assert_eq!(asked.into_inner(), vec![(0, 10), (0, 10), (2, 10), (1, 10), (2, 20)]);
        let outcomes = schedule.outcomes();
        assert_eq!(outcomes, vec![Outcome::Settled(0), Outcome::Settled(1), Outcome::Settled(2)]);
    }

    #[test]
    fn a_question_whose_turn_never_came_was_not_tried() {
        let (outcomes, asked) = run(&[None, Some(1)], 100, 50);
        assert_eq!(asked, vec![(0, 100)]);
        assert_eq!(outcomes[1], Outcome::Unsettled(Effort::default()));
        assert!(Effort::default().describe().contains("before it was asked"));
    }

    /// `need` as in [`run`], asked by `threads` threads of one [`Schedule`]. The outcomes, every try as (question, cap) in the
    /// order taken, and the most tries under way at once.
    fn run_at_once(
        need: &[Option<u64>],
        first_cap: u64,
        threads: usize,
    ) -> (Vec<Outcome<u64>>, Vec<(usize, u64)>, usize) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let schedule = Schedule::new(need.len(), first_cap);
        let (now, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let ask = |i: usize, cap: u64| {
                        most.fetch_max(now.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
                        // Until every thread has a try under way (or 2 s): a schedule that
                        // let only one try be under way at a time would show it.
                        let until = Instant::now() + Duration::from_secs(2);
                        while most.load(Ordering::SeqCst) < threads && Instant::now() < until {
                            std::thread::sleep(Duration::from_millis(1));
                        }
                        now.fetch_sub(1, Ordering::SeqCst);
                        match need[i] {
                            Some(n) if n <= cap => Try::Settled(n),
                            _ => Try::Capped { nodes: cap },
                        }
                    };
                    schedule.work(ask, || true);
                });
            }
        });
        let taken = schedule.lock().taken.clone();
        (schedule.outcomes(), taken, most.into_inner())
    }

    #[test]
    fn two_threads_settle_what_one_settles_one_question_each() {
        let need = [Some(10), Some(35), Some(5), Some(80), Some(10), Some(20)];
        let (one, _) = run(&need, 10, u64::MAX);
        let (two, taken, most) = run_at_once(&need, 10, 2);
        assert_eq!(two, one);
        assert_eq!(most, 2, "the threads took one question each at once: {taken:?}");
        // The same tries as one thread, each question's tries with growing caps.
        let mut sorted = taken.clone();
        sorted.sort();
        let (_, mut alone) = run(&need, 10, u64::MAX);
        alone.sort();
        assert_eq!(sorted, alone);
    }

    /// The order that decides soundness, whatever the threads: every question is asked once,
    /// in order, before any is asked again, and a question is asked again with growing caps.
    #[test]
    fn threads_take_the_first_tries_in_order_before_any_second_try() {
        let need: Vec<Option<u64>> = (0..12).map(|i| Some(10 << (i % 4))).collect();
        let (outcomes, taken, _) = run_at_once(&need, 10, 3);
        assert!(outcomes.iter().all(|o| matches!(o, Outcome::Settled(_))), "{outcomes:?}");
        let firsts: Vec<(usize, u64)> = (0..need.len()).map(|i| (i, 10)).collect();
        assert_eq!(taken[..need.len()], firsts[..], "{taken:?}");
        for i in 0..need.len() {
            let caps: Vec<u64> = taken.iter().filter(|t| t.0 == i).map(|t| t.1).collect();
            assert!(caps.windows(2).all(|w| w[1] == 2 * w[0]), "{i}: {caps:?}");
        }
    }

    /// A thread that panics in a try only loses that try: the others go on and end.
    #[test]
    fn a_thread_that_panics_does_not_hold_the_others_up() {
        let schedule: Schedule<u32> = Schedule::new(4, 10);
        std::thread::scope(|scope| {
            let panicky = scope.spawn(|| {
                schedule.work(
                    |i, _| {
                        std::thread::sleep(Duration::from_millis(5));
                        panic!("question {i}")
                    },
                    || true,
                )
            });
            scope.spawn(|| {
                schedule.work(
                    |i, _| {
                        std::thread::sleep(Duration::from_millis(20));
                        Try::Settled(i as u32)
                    },
                    || true,
                )
            });
            assert!(panicky.join().is_err());
        });
        let outcomes = schedule.outcomes();
        let settled = outcomes.iter().filter(|o| matches!(o, Outcome::Settled(_))).count();
        assert_eq!(settled, 3, "{outcomes:?}");
        let lost = Effort { tries: 1, last_cap: 10, ..Effort::default() };
        assert!(outcomes.contains(&Outcome::Unsettled(lost)));
    }

    #[test]
    fn cooks_at_move_one_come_first_then_cooks_then_variations() {
        let mv = Move::NULL;
        let q = |index, ask| Question { index, mv, ask };
        let mut qs = vec![
            q(1, Ask::Variation),
            q(2, Ask::Cook),
            q(0, Ask::Cook),
            q(3, Ask::Variation),
            q(0, Ask::Cook),
            q(4, Ask::Cook),
        ];
        order(&mut qs);
        let got: Vec<(usize, Ask)> = qs.iter().map(|q| (q.index, q.ask)).collect();
        assert_eq!(
            got,
            vec![
                (0, Ask::Cook),
                (0, Ask::Cook),
                (2, Ask::Cook),
                (4, Ask::Cook),
                (1, Ask::Variation),
                (3, Ask::Variation),
            ]
        );
    }
}
