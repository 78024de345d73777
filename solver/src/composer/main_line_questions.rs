//! The questions along the main line: at each attacker move, whether another check mates (one
//! question for all of them, then one a mate it finds); at each defender move, how long each
//! other defence resists.
//!
//! **A move's other checks as one question.** "Does another check mate here?" is one OR node:
//! the position with the main move left out of its root ([`crate::search::OtherMoves`]). One
//! df-pn over it, on one table, spreads the effort over the checks by their numbers, and a "no"
//! settles every sibling at once; a mate names its checks, each then asked alone for its line
//! and length (a cook, or a longer mate that is not one), and the joint question goes on with
//! them left out too. On 図巧21's first move this settles the 12 other checks that 12 questions
//! of their own, each capped and asked again with twice the cap, left open.
//!
//! **A longer mate is asked for the shorter bound.** After the first move a check whose mate is
//! longer than the main line's, not proven the shortest, is a cook only if it mates within the
//! plies the main line needs: that is asked at once, as a depth-limited search ("no mate within
//! N plies" settles it), and again with twice the cap while the budget lasts.

use super::budget::Budget;
use super::questions::{self, Ask, Question, Schedule, Try};
use super::rejoin::CheckAnswer;
use super::{
    answer_of, checks, cook_found, try_within, variation_found, Answer, Asker, ComposerReport,
    MainPly, QuestionCounts, Unsettled,
};
use crate::clock::Instant;
use crate::outcome::{Outcome, SolveResult};
use crate::search::{OtherMoves, OtherMovesResult, QuestionThread};
use shogi::{Move, Position};
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

/// What became of one move asked about at a ply of the main line.
struct Finding {
    index: usize,
    mv: Move,
    ask: Ask,
    answer: Answer,
}

impl Asker<'_> {
    /// Every question along the main line, asked in the order that decides soundness first
    /// and within the problem's budget for questions (see [`questions`]); the findings are then
    /// written by ply.
    pub(super) fn walk_main_line(
        &mut self,
        root: &Position,
        line: &[Move],
        report: &mut ComposerReport,
    ) {
        let started = Instant::now();
        let mut asked = Vec::new();
        let mut positions = Vec::with_capacity(line.len());
        // The other checks at each attacker ply, in the order the move generator gives them.
        let mut others: Vec<Vec<Move>> = vec![Vec::new(); line.len()];
        let mut pos = root.clone();
        for (i, &mv) in line.iter().enumerate() {
            if pos.side_to_move() == self.attacker {
                others[i] = checks(&pos).iter().copied().filter(|&c| c != mv).collect();
                if !others[i].is_empty() {
                    asked.push(Question { index: i, mv, ask: Ask::OtherChecks });
                }
            } else {
                for (e, futile) in self.solver.classify_evasions(&pos, self.attacker, self.stop) {
                    if futile {
                        report.futile_interpositions += 1;
                    } else if e != mv {
                        asked.push(Question { index: i, mv: e, ask: Ask::Variation });
                    }
                }
            }
            positions.push(pos.clone());
            pos.make_move(mv);
        }
        questions::order(&mut asked);
        let first_cap = self.limits.nodes.unwrap_or(u64::MAX);
        let schedule = Schedule::new(asked.len(), first_cap);
        let asking = Asking {
            origin: &self.origin,
            attacker: self.attacker,
            line,
            budget: &self.budget,
            questions: Mutex::new(asked),
            found: Mutex::new(vec![Vec::new(); line.len()]),
            longer: Mutex::new(HashMap::new()),
            others: &others,
            joint_settled: Mutex::new(vec![false; line.len()]),
            no_mate_within: Mutex::new(vec![None; line.len()]),
            schedule: &schedule,
        };
        // One question a thread (see `questions::Schedule`): a disproof shared by two threads
        // costs more nodes than alone.
        self.solver.at_once(self.threads, |thread| {
            schedule.work(|k, cap| asking.ask(thread, k, cap), || asking.budget.left());
        });
        let asked = asking.questions.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let found = asking.found.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let no_mate_within =
            asking.no_mate_within.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let outcomes = schedule.outcomes();
        let mut by_move: HashMap<(usize, Move), questions::Outcome<Answer>> = HashMap::new();
        let mut cooks: HashMap<(usize, Move), questions::Outcome<Answer>> = HashMap::new();
        let mut joint: HashMap<usize, questions::Outcome<Answer>> = HashMap::new();
        for (q, outcome) in asked.iter().zip(outcomes) {
            match q.ask {
                Ask::OtherChecks => joint.insert(q.index, outcome),
                Ask::Cook => cooks.insert((q.index, q.mv), outcome),
                Ask::Variation => by_move.insert((q.index, q.mv), outcome),
            };
        }
        // Each other check at its ply, in the generator's order: its own question's answer if
        // one found it mates, else the joint question's if it settled the rest, else its own
        // question's if it had one.
        let mut findings = Vec::new();
        for (i, checks) in others.iter().enumerate() {
            for &c in checks {
                let own = cooks.remove(&(i, c));
                let whole = joint.get(&i).cloned();
                // Which answer stands: its own question's, or the joint question's.
                let (outcome, alone) = match (found[i].contains(&c), whole, own) {
                    (true, _, own) => (own, true),
                    (false, Some(settled @ questions::Outcome::Settled(_)), _) => {
                        (Some(settled), false)
                    }
                    (false, _, Some(own)) => (Some(own), true),
                    (false, whole, None) => (whole, false),
                };
                // What the joint question's depth-limited rounds proved of every check of
                // this ply not found to mate.
                let within = if found[i].contains(&c) { 0 } else { no_mate_within[i].unwrap_or(0) };
                let answer = match outcome {
                    Some(questions::Outcome::Settled(a)) => a,
                    Some(questions::Outcome::Unsettled(e)) => {
                        // Left open: what the table settled of this one is known.
                        let way: Vec<Move> = line[..i].iter().copied().chain([c]).collect();
                        match self.solver.known_after(&self.origin, &way, self.attacker) {
                            Some(false) => Answer::NoMate,
                            _ if alone => Answer::open(within, e.describe()),
                            _ => Answer::open(
                                within,
                                format!(
                                    "asked with the other checks of this move as one question: {}",
                                    e.describe()
                                ),
                            ),
                        }
                    }
                    None => Answer::open(within, "not asked".to_string()),
                };
                findings.push(Finding { index: i, mv: c, ask: Ask::Cook, answer });
            }
        }
        for ((index, mv), outcome) in by_move {
            let answer = match outcome {
                questions::Outcome::Settled(a) => a,
                questions::Outcome::Unsettled(e) => Answer::Unsettled(e.describe()),
            };
            findings.push(Finding { index, mv, ask: Ask::Variation, answer });
        }
        // By ply (stable: the moves of one ply keep their order; variations by the evasions'
        // order of the main line's position).
        let evasion_rank = |f: &Finding| -> usize {
            let mut list = shogi::MoveList::new();
            shogi::movegen::legal_moves(&positions[f.index], &mut list);
            list.iter().position(|&m| m == f.mv).unwrap_or(usize::MAX)
        };
        findings.sort_by_cached_key(|f| {
            (f.index, if f.ask == Ask::Variation { evasion_rank(f) } else { 0 })
        });
        // A cook that rejoins the main line is no sooner than it (see `rejoin`): settled
        // before the question is asked, and again once the questions of the later plies are.
        let rejoined = |findings: &mut Vec<Finding>| {
            let mut answers: Vec<CheckAnswer<'_>> = findings
                .iter_mut()
                .filter(|f| f.ask == Ask::Cook)
                .map(|f| CheckAnswer { index: f.index, mv: f.mv, answer: &mut f.answer })
                .collect();
            super::rejoin::settle_rejoining(&mut answers, &positions)
        };
        rejoined(&mut findings);
        // Then, with what is left of the budget, whether the mates as long as the main line's
        // (at the first move: any) mate sooner: this decides the headline's length, not
        // soundness, so it comes after every other question.
        let sooner: Vec<usize> = (0..findings.len())
            .filter(|&k| {
                let f = &findings[k];
                let remaining = line.len() - f.index;
                f.ask == Ask::Cook
                    && matches!(&f.answer, Answer::Mate { moves, proven: false }
                        if !moves.is_empty()
                            && (moves.len() + 1 == remaining
                                || (f.index == 0 && moves.len() + 1 > remaining)))
            })
            .collect();
        if !sooner.is_empty() && asking.budget.left() {
            let asked: Vec<(usize, Move, Vec<Move>)> = sooner
                .iter()
                .map(|&k| match &findings[k].answer {
                    Answer::Mate { moves, .. } => {
                        (findings[k].index, findings[k].mv, moves.clone())
                    }
                    _ => (findings[k].index, findings[k].mv, Vec::new()),
                })
                .collect();
            let second = Schedule::new(asked.len(), first_cap);
            self.solver.at_once(self.threads, |thread| {
                let ask = |k: usize, cap| {
                    let (index, c, moves) = &asked[k];
                    asking.sooner(thread, (*index, *c, moves), cap)
                };
                second.work(ask, || asking.budget.left());
            });
            for (k, outcome) in sooner.into_iter().zip(second.outcomes()) {
                if let questions::Outcome::Settled(answer) = outcome {
                    findings[k].answer = answer;
                }
            }
        }
        rejoined(&mut findings);
        // Counted as the report lists them: an answer may itself leave the question open (a
        // longer mate where a shorter one would be a cook).
        let (asked_count, listed_before) = (findings.len(), report.unsettled.len());
        let mut shorter_open = Vec::new();
        for f in findings {
            let at = MainPly {
                pos: &positions[f.index],
                index: f.index,
                main: line[f.index],
                remaining: line.len() - f.index,
                previous: f.index.checked_sub(1).map(|j| line[j]),
            };
            match f.ask {
                Ask::Cook => {
                    if !super::shortest::rules_out_shorter(&f.answer, at.remaining) {
                        let open = Unsettled {
                            ply: f.index + 1,
                            line: super::Line::new(at.pos, &[f.mv], at.previous),
                            what: String::new(),
                            no_mate_within: None,
                        };
                        // A cook as long as the main line (at the first move: not shorter),
                        // its length not proven, leaves a question of its own open: whether
                        // it mates sooner. (`cook_found` lists an unsettled answer and a
                        // longer mate not proven; a shorter line already mates sooner.)
                        match &f.answer {
                            Answer::Mate { moves, proven: false }
                                if moves.len() + 1 == at.remaining
                                    || (f.index == 0 && moves.len() + 1 >= at.remaining) =>
                            {
                                report.unsettled.push(Unsettled {
                                    what: format!(
                                        "mates in {}, a mate sooner than the main line's {} not ruled out",
                                        moves.len() + 1,
                                        at.remaining
                                    ),
                                    ..open.clone()
                                })
                            }
                            _ => {}
                        }
                        shorter_open.push(open);
                    }
                    cook_found(&at, f.mv, f.answer, report);
                }
                _ => variation_found(&at, f.mv, f.answer, self.attacker, report),
            }
        }
        let unsettled = report.unsettled.len() - listed_before;
        report.shorter_open = shorter_open;
        report.questions = QuestionCounts {
            settled: asked_count - unsettled,
            unsettled,
            time_ms: started.elapsed().as_millis() as u64,
            budget_ms: self.limits_time_ms,
            nodes: self.budget.spent(),
            budget_nodes: self.budget.node_budget(),
        };
    }
}

/// Where the other checks asked alone come in a round: after every question of the walk (the
/// joint questions, the cooks they found, the variations). Before the variations, the 100
/// 図巧 at 5 s of questions a problem (one thread) left 1035 questions open against 695 here.
const AFTER_EVERY_QUESTION: usize = usize::MAX;

/// The part of each try of a joint question (1 in this many nodes) that goes to its rounds
/// with a bound. Half (2) left 231 questions of 14 hard 図巧 open against 191 without rounds:
/// the question without a bound refutes most checks at less cost, and a longer mate it finds
/// is then asked for the bound that matters.
const DEEPENING_SHARE: u64 = 8;

/// How deep the joint question of a ply `index` (0-based) with `remaining` plies of the main
/// line from there is asked with a bound, in plies after the other check: after the first
/// move, the main line's (a mate within them is a cook; none settles the question); at the
/// first move, twice the main line's, "no cook within twice the main line" a composer can
/// accept where the question stays open (the main line's length alone proves the headline
/// the shortest).
fn deepening_target(index: usize, remaining: usize) -> usize {
    if index > 0 {
        remaining - 1
    } else {
        2 * remaining - 2
    }
}

/// What a depth-limited question came to.
enum Bounded {
    /// A mate within the bound: the answer with its line.
    Mate(Answer),
    /// No mate within the bound.
    NoneWithin,
    /// Its cap or the budget ended it after `nodes` nodes.
    Open { nodes: u64 },
}

/// The questions of one walk, as the threads share them.
struct Asking<'a> {
    origin: &'a Position,
    attacker: shogi::Color,
    line: &'a [Move],
    budget: &'a Budget<'a>,
    /// Every question, those the joint questions add included (the schedule's indices).
    questions: Mutex<Vec<Question>>,
    /// The checks found to mate at each attacker ply (left out of its joint question since).
    found: Mutex<Vec<Vec<Move>>>,
    /// The mate each cook question (by index) found, not proven the shortest, whose bound is
    /// asked (see [`Asking::cook`]).
    longer: Mutex<HashMap<usize, Vec<Move>>>,
    /// The other checks of each attacker ply, in the generator's order.
    others: &'a [Vec<Move>],
    /// The plies whose joint question is settled (their other checks' own questions are moot).
    joint_settled: Mutex<Vec<bool>>,
    /// At each attacker ply, the plies after any other check not found to mate within which
    /// none mates: what the joint question's depth-limited rounds proved (see
    /// [`Asking::deepen`]; `None`: nothing yet, not even that none mates at once).
    no_mate_within: Mutex<Vec<Option<usize>>>,
    schedule: &'a Schedule<Answer>,
}

impl Asking<'_> {
    /// One try of question `k` within `cap` nodes, on `thread`.
    fn ask(&self, thread: &mut QuestionThread<'_>, k: usize, cap: u64) -> Try<Answer> {
        let q = self.questions.lock().unwrap_or_else(PoisonError::into_inner)[k];
        match q.ask {
            Ask::OtherChecks => self.other_checks(thread, k, q, cap),
            Ask::Cook if self.moot(q) => Try::Settled(Answer::NoMate),
            Ask::Cook => {
                let tried = self.cook(thread, k, q, cap);
                if let Try::Settled(Answer::Mate { .. }) | Try::Provisional { .. } = tried {
                    // A mate: left out of its ply's joint question from now on.
                    let mut found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
                    if !found[q.index].contains(&q.mv) {
                        found[q.index].push(q.mv);
                    }
                }
                tried
            }
            Ask::Variation => {
                let way = self.way(q);
                let (origin, attacker, stop) = (self.origin, self.attacker, self.budget.stop());
                self.solve(cap, |limits| thread.solve_after(origin, &way, attacker, limits, stop))
            }
        }
    }

    /// Whether the question about the other check `q` is answered by its ply's joint question
    /// (settled with `q` among the checks it asked about).
    fn moot(&self, q: Question) -> bool {
        let settled = self.joint_settled.lock().unwrap_or_else(PoisonError::into_inner)[q.index];
        settled
            && !self.found.lock().unwrap_or_else(PoisonError::into_inner)[q.index].contains(&q.mv)
    }

    /// Has each other check of ply `index` that no question asks about yet asked alone (the
    /// joint question `k` was capped; it goes on too): what one check's question settles
    /// counts at once, and a check that is easy to refute but never the joint question's most
    /// promising gets its own turn. The checks the table already refutes are not asked.
    fn ask_each(&self, thread: &mut QuestionThread<'_>, k: usize, index: usize) {
        let mut questions = self.questions.lock().unwrap_or_else(PoisonError::into_inner);
        let found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        for &c in &self.others[index] {
            let asked =
                questions.iter().any(|q| q.index == index && q.mv == c && q.ask == Ask::Cook);
            if asked || found[index].contains(&c) {
                continue;
            }
            let way: Vec<Move> = self.line[..index].iter().copied().chain([c]).collect();
            if thread.known_after(self.origin, &way, self.attacker) == Some(false) {
                continue;
            }
            questions.push(Question { index, mv: c, ask: Ask::Cook });
            let added = self.schedule.add(k, AFTER_EVERY_QUESTION);
            debug_assert_eq!(added + 1, questions.len());
        }
    }

    /// The main line to the question's ply, then its move.
    fn way(&self, q: Question) -> Vec<Move> {
        self.line[..q.index].iter().copied().chain([q.mv]).collect()
    }

    /// One solve within `cap` and the budget, counted in it.
    fn solve(&self, cap: u64, solve: impl FnOnce(&crate::Limits) -> SolveResult) -> Try<Answer> {
        try_within(cap, self.budget, |limits| {
            let r = solve(limits);
            self.budget.spend(r.nodes);
            r
        })
    }

    /// The other checks of the main line's position at `q.index` as one question (question
    /// `k`): the mates it finds become questions of their own. Each try gives a share of its
    /// nodes ([`DEEPENING_SHARE`]) to the question with a bound that deepens ([`Asking::deepen`]) until that reaches its
    /// target: after the first move the main line's plies, which settles the question (a
    /// check is a cook only if it mates within them); at the first move, where any mate is a
    /// cook, twice the main line's. The rest goes to the question without a bound, which
    /// refutes the checks that mate nowhere at less cost where the lines are long.
    fn other_checks(
        &self,
        thread: &mut QuestionThread<'_>,
        k: usize,
        q: Question,
        cap: u64,
    ) -> Try<Answer> {
        let remaining = self.line.len() - q.index;
        let target = deepening_target(q.index, remaining);
        let settled = |answer| {
            self.joint_settled.lock().unwrap_or_else(PoisonError::into_inner)[q.index] = true;
            Try::Settled(answer)
        };
        let mut spent = 0;
        if self.no_mate_within(q.index).is_none_or(|w| w < target) {
            let share = cap.div_ceil(DEEPENING_SHARE);
            let r = self.deepen(thread, q, target, share);
            spent = r.nodes;
            match r.answer {
                // After the first move, no other check mates within the main line's plies.
                OtherMoves::DepthLimited(_) if q.index > 0 => {
                    return settled(Answer::NotWithin { plies: remaining - 1, moves: Vec::new() })
                }
                OtherMoves::DepthLimited(_) => {}
                OtherMoves::Open if self.budget.left() => {}
                answer => return self.joint_answer(thread, k, q, answer, spent, share),
            }
        }
        let rest = cap.saturating_sub(spent).max(1);
        let r = self.unbounded(thread, q, rest);
        let answer = match r.answer {
            OtherMoves::DepthLimited(d) => {
                let plies = usize::from(d).saturating_sub(1);
                return settled(Answer::open(plies, "beyond the solver's depth limit".to_string()));
            }
            answer => answer,
        };
        // The nodes of the rounds with a bound count in this try too.
        self.joint_answer(thread, k, q, answer, r.nodes, rest).plus_nodes(spent)
    }

    /// What one search of the joint question at `q`, `nodes` nodes within `cap`, makes of it.
    fn joint_answer(
        &self,
        thread: &mut QuestionThread<'_>,
        k: usize,
        q: Question,
        answer: OtherMoves,
        nodes: u64,
        cap: u64,
    ) -> Try<Answer> {
        let cap_here = self.budget.limits(cap).nodes.unwrap_or(cap);
        match answer {
            OtherMoves::NoMate => {
                self.joint_settled.lock().unwrap_or_else(PoisonError::into_inner)[q.index] = true;
                Try::Settled(Answer::NoMate)
            }
            OtherMoves::Mates(mates) => {
                let mut questions = self.questions.lock().unwrap_or_else(PoisonError::into_inner);
                let mut found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
                for mv in mates {
                    if found[q.index].contains(&mv) {
                        continue;
                    }
                    found[q.index].push(mv);
                    let asked = questions
                        .iter()
                        .any(|o| o.index == q.index && o.mv == mv && o.ask == Ask::Cook);
                    if !asked {
                        questions.push(Question { index: q.index, mv, ask: Ask::Cook });
                        let added = self.schedule.add(k, k);
                        debug_assert_eq!(added + 1, questions.len());
                    }
                }
                Try::Again { nodes }
            }
            OtherMoves::DepthLimited(_) | OtherMoves::Open if !self.budget.left() => {
                Try::OutOfTime { nodes }
            }
            OtherMoves::DepthLimited(_) | OtherMoves::Open if nodes < cap_here => {
                Try::Stuck { nodes }
            }
            OtherMoves::DepthLimited(_) | OtherMoves::Open => {
                self.ask_each(thread, k, q.index);
                Try::Capped { nodes }
            }
        }
    }

    /// The plies after any other check of ply `index` (those found to mate aside) within
    /// which none mates, as far as the joint question's rounds with a bound proved it.
    fn no_mate_within(&self, index: usize) -> Option<usize> {
        self.no_mate_within.lock().unwrap_or_else(PoisonError::into_inner)[index]
    }

    /// The main move and the checks found to mate at `q`'s ply: left out of its joint question.
    fn left_out(&self, q: Question) -> Vec<Move> {
        let found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        [q.mv].into_iter().chain(found[q.index].iter().copied()).collect()
    }

    /// The joint question at `q` without a bound, within `cap` nodes and the budget.
    fn unbounded(
        &self,
        thread: &mut QuestionThread<'_>,
        q: Question,
        cap: u64,
    ) -> OtherMovesResult {
        let left_out = self.left_out(q);
        let limits = self.budget.limits(cap);
        let (origin, attacker, stop) = (self.origin, self.attacker, self.budget.stop());
        let prefix = &self.line[..q.index];
        let r = thread.other_moves(origin, prefix, attacker, &left_out, &limits, stop);
        self.budget.spend(r.nodes);
        r
    }

    /// **A disproof that deepens.** The joint question at `q` asked with a bound, within 3
    /// plies first, then at the first move each round two plies (later a quarter) deeper
    /// than the last one proved, until no other check mates within `target` plies after it
    /// ([`OtherMoves::DepthLimited`]), one is found to mate within the bound or none at all
    /// ([`OtherMoves::Mates`], [`OtherMoves::NoMate`]), or `cap` nodes or the budget end it
    /// ([`OtherMoves::Open`]). Each round's depth is kept ([`Asking::no_mate_within`]), and
    /// its disproofs in the table with the depth they hold for, so the next round, the next
    /// try and the questions of the other plies build on them; what the rounds proved is the
    /// bound an open question reports. After the first move only the target settles
    /// anything (a shorter bound neither settles the cook question nor, short of the main
    /// line less two, the headline), so the second round asks it at once: node for node the
    /// 14 hard 図巧 at 20 M nodes of questions left 254 open against 290 with the rounds two
    /// plies apart there (benches/history/47).
    fn deepen(
        &self,
        thread: &mut QuestionThread<'_>,
        q: Question,
        target: usize,
        cap: u64,
    ) -> OtherMovesResult {
        let left_out = self.left_out(q);
        let (origin, attacker, stop) = (self.origin, self.attacker, self.budget.stop());
        let prefix = &self.line[..q.index];
        let mut nodes = 0;
        loop {
            let within = self.no_mate_within(q.index);
            if let Some(w) = within.filter(|&w| w >= target) {
                let plies = (w + 1).min(usize::from(u16::MAX)) as u16;
                return OtherMovesResult { answer: OtherMoves::DepthLimited(plies), nodes };
            }
            if nodes >= cap || !self.budget.left() {
                return OtherMovesResult { answer: OtherMoves::Open, nodes };
            }
            // Plies from the position, the checks counted: one more than after them (at the
            // main line's last move, 1: whether another check mates at once).
            let asked = match within {
                None => 3,
                // After the first move the target alone settles anything (see `deepen`).
                Some(_) if q.index > 0 => target + 1,
                Some(w) if w < 24 => w + 3,
                Some(w) => w + 1 + ((w / 4) & !1),
            };
            let asked = asked.min(target + 1).min(usize::from(u16::MAX - 1));
            let limits = self.budget.limits(cap - nodes);
            let plies = asked as u16;
            let r = thread
                .other_moves_within(origin, prefix, attacker, &left_out, plies, &limits, stop);
            self.budget.spend(r.nodes);
            nodes += r.nodes;
            match r.answer {
                // Held for at least the depth asked (a search cut short by the solver's own
                // depth limit proves less: no deeper round can then end, and none is asked).
                OtherMoves::DepthLimited(d) if d >= plies => {
                    let mut kept =
                        self.no_mate_within.lock().unwrap_or_else(PoisonError::into_inner);
                    kept[q.index] = kept[q.index].max(Some(usize::from(d) - 1));
                }
                OtherMoves::DepthLimited(_) => {
                    return OtherMovesResult { answer: OtherMoves::Open, nodes }
                }
                answer => return OtherMovesResult { answer, nodes },
            }
        }
    }

    /// Whether another check mates (question `k`), and its line and length. After the first
    /// move it is asked first whether it mates within the main line's plies from there
    /// ([`Asking::within_main_line`]): no, and it is no cook. A mate not proven the
    /// shortest and no shorter than the main line from here is then asked for the bound that
    /// matters: after the first move, one longer than the main line's is a cook only if it
    /// mates within the plies the main line needs; one as long (or, at the first move, longer)
    /// is asked whether it mates sooner than the main line, which settles whether the main
    /// line's length is the shortest (and, when as long, proves the cook's own length).
    fn cook(
        &self,
        thread: &mut QuestionThread<'_>,
        k: usize,
        q: Question,
        cap: u64,
    ) -> Try<Answer> {
        let remaining = self.line.len() - q.index;
        let way = self.way(q);
        let (origin, attacker, stop) = (self.origin, self.attacker, self.budget.stop());
        let known = self.longer.lock().unwrap_or_else(PoisonError::into_inner).get(&k).cloned();
        if q.index > 0 && known.is_none() {
            if let Some(tried) = self.within_main_line(thread, &way, remaining - 1, cap) {
                return tried;
            }
        }
        let (moves, spent) = match known {
            Some(moves) => (moves, 0),
            None => {
                let before = self.budget.spent();
                // A joint question may have left its proof in the table, but its line is refined
                // as for a check asked afresh (within the cap), so that its length is proven.
                let tried = self
                    .solve(cap, |l| thread.solve_after_refined(origin, &way, attacker, l, stop));
                let spent = self.budget.spent() - before;
                match tried {
                    Try::Settled(Answer::Mate { moves, proven: false })
                        if q.index > 0 && moves.len() >= remaining =>
                    {
                        let mut longer = self.longer.lock().unwrap_or_else(PoisonError::into_inner);
                        longer.insert(k, moves.clone());
                        (moves, spent)
                    }
                    t => return t,
                }
            }
        };
        let plies = remaining - 1;
        let r = self.bounded(thread, &way, plies, cap.saturating_sub(spent).max(1));
        match r {
            Bounded::Mate(answer) => Try::Settled(answer),
            Bounded::NoneWithin => Try::Settled(Answer::NotWithin { plies, moves }),
            Bounded::Open { nodes } => {
                let answer = Answer::Mate { moves, proven: false };
                Try::Provisional { answer, nodes: (spent + nodes).max(1) }
            }
        }
    }

    /// After the first move, the other check `way` ends with asked whether it mates within
    /// the `plies` the main line needs after it, the question that decides whether it is a
    /// cook, before any other: `None` when it does (or the table already proves a mate), its
    /// line then read as a cook's; else no cook (`NotWithin`), or the try capped. Asked
    /// without a bound, as at the first move, the question must prove that the check mates
    /// nowhere: on 図巧21's ninth move a fresh search disproves each of nine other checks
    /// within the 12 plies in 0.1-3.8 M nodes, without a bound in 0.1-9.9 M, 1.1-7.1 times as
    /// many (benches/history/48).
    fn within_main_line(
        &self,
        thread: &mut QuestionThread<'_>,
        way: &[Move],
        plies: usize,
        cap: u64,
    ) -> Option<Try<Answer>> {
        if thread.known_after(self.origin, way, self.attacker) == Some(true) {
            return None;
        }
        match self.bounded(thread, way, plies, cap) {
            Bounded::Mate(_) => None,
            Bounded::NoneWithin => {
                Some(Try::Settled(Answer::NotWithin { plies, moves: Vec::new() }))
            }
            Bounded::Open { nodes } if !self.budget.left() => Some(Try::OutOfTime { nodes }),
            // Ended short of its cap with no answer (see `try_within`).
            Bounded::Open { nodes } if nodes < self.budget.limits(cap).nodes.unwrap_or(cap) => {
                Some(Try::Stuck { nodes })
            }
            Bounded::Open { nodes } => Some(Try::Capped { nodes }),
        }
    }

    /// Whether the position `way` reaches mates within `plies` plies, within `cap` nodes and
    /// the budget (a depth-limited solve, counted in the budget).
    fn bounded(
        &self,
        thread: &mut QuestionThread<'_>,
        way: &[Move],
        plies: usize,
        cap: u64,
    ) -> Bounded {
        let (origin, attacker, stop) = (self.origin, self.attacker, self.budget.stop());
        let limits = self.budget.limits(cap);
        let bound = plies.min(u16::MAX as usize) as u16;
        let r = thread.solve_after_within(origin, way, attacker, bound, &limits, stop);
        self.budget.spend(r.nodes);
        match r.outcome {
            Outcome::Mate(_) => Bounded::Mate(answer_of(r)),
            Outcome::NoMate => Bounded::NoneWithin,
            Outcome::Timeout if r.depth_limited => Bounded::NoneWithin,
            Outcome::Timeout => Bounded::Open { nodes: r.nodes },
        }
    }

    /// A mate found for the other check `c` at ply `index`, as long as the main line's from
    /// there (or, at the first move, longer) and not proven the shortest (question `k` of the
    /// second pass): does it mate sooner than the main line? That settles whether the main
    /// line's length is the shortest, and proves the cook's own length when as long.
    fn sooner(
        &self,
        thread: &mut QuestionThread<'_>,
        (index, c, moves): (usize, Move, &[Move]),
        cap: u64,
    ) -> Try<Answer> {
        let remaining = self.line.len() - index;
        let way = self.way(Question { index, mv: c, ask: Ask::Cook });
        let plies = remaining.saturating_sub(2);
        let moves = moves.to_vec();
        match self.bounded(thread, &way, plies, cap) {
            Bounded::Mate(answer) => Try::Settled(answer),
            // As long as the main line, and no shorter: its length is the shortest.
            Bounded::NoneWithin if moves.len() + 1 == remaining => {
                Try::Settled(Answer::Mate { moves, proven: true })
            }
            Bounded::NoneWithin => Try::Settled(Answer::NotWithin { plies, moves }),
            Bounded::Open { nodes } if !self.budget.left() => Try::OutOfTime { nodes },
            Bounded::Open { nodes } => Try::Capped { nodes },
        }
    }
}
