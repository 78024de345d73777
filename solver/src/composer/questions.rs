//! The order and the budget of a report's questions.
//!
//! The questions that decide soundness come first: another mating first move (余詰 at move 1),
//! then other mates along the main line, then the lengths of the other defences (変長, 変同).
//! Each is asked with the node cap of a question; those the cap stopped are asked again, in the
//! same order, with twice the cap (their search goes on from the table the last try left),
//! and so on while the problem's time for questions lasts. A question is unsettled only when
//! that time ran out, and the report says how far it got.

use shogi::Move;

/// What a question asks about a move of the main line's position at `index`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Ask {
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
            Ask::Cook if self.index == 0 => 0,
            Ask::Cook => 1,
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
    /// Answered, but a larger cap might answer better (a longer mate where a shorter one would
    /// be a cook): asked again, within [`PROVISIONAL_PATIENCE`]. Kept if the time runs out
    /// before a better one.
    Provisional { answer: A, nodes: u64 },
    /// The problem's time ran out during it, after `nodes` nodes.
    OutOfTime { nodes: u64 },
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
}

impl Effort {
    /// For the report, e.g. "asked 3 times, 1,400,000 nodes in all (the last try capped at
    /// 800,000)".
    pub(super) fn describe(&self) -> String {
        match self.tries {
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
pub(super) fn settle<A>(
    count: usize,
    first_cap: u64,
    mut ask: impl FnMut(usize, u64) -> Try<A>,
    time_left: impl Fn() -> bool,
) -> Vec<Outcome<A>> {
    let mut outcomes: Vec<Option<Outcome<A>>> = (0..count).map(|_| None).collect();
    let mut provisional: Vec<Option<A>> = (0..count).map(|_| None).collect();
    // Provisional tries in a row that stopped short of their cap, by question.
    let mut short = vec![0u32; count];
    let mut effort = vec![Effort::default(); count];
    let mut pending: Vec<usize> = (0..count).collect();
    let mut cap = first_cap.max(1);
    while !pending.is_empty() && time_left() {
        let mut again = Vec::new();
        for &i in &pending {
            if !time_left() {
                again.push(i);
                continue;
            }
            let e = &mut effort[i];
            e.tries += 1;
            e.last_cap = cap;
            match ask(i, cap) {
                Try::Settled(a) => outcomes[i] = Some(Outcome::Settled(a)),
                Try::Capped { nodes } => {
                    e.nodes += nodes;
                    again.push(i);
                }
                Try::OutOfTime { nodes } => {
                    e.nodes += nodes;
                    again.push(i);
                }
                Try::Provisional { answer, nodes } => {
                    e.nodes += nodes;
                    short[i] = if nodes >= cap { 0 } else { short[i] + 1 };
                    if short[i] < PROVISIONAL_PATIENCE {
                        provisional[i] = Some(answer);
                        again.push(i);
                    } else {
                        outcomes[i] = Some(Outcome::Settled(answer));
                    }
                }
            }
        }
        pending = again;
        cap = cap.saturating_mul(2);
    }
    outcomes
        .into_iter()
        .zip(provisional)
        .zip(effort)
        .map(|((o, p), e)| o.or(p.map(Outcome::Settled)).unwrap_or(Outcome::Unsettled(e)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(outcomes[0], Outcome::Unsettled(Effort { tries: 3, nodes: 70, last_cap: 40 }));
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

    #[test]
    fn a_question_whose_turn_never_came_was_not_tried() {
        let (outcomes, asked) = run(&[None, Some(1)], 100, 50);
        assert_eq!(asked, vec![(0, 100)]);
        assert_eq!(outcomes[1], Outcome::Unsettled(Effort::default()));
        assert!(Effort::default().describe().contains("before it was asked"));
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
