//! The main line under the rules in force: the answer a composer publishes.
//!
//! df-pn proves that a mate exists; its proof says little about lengths (a proof found through
//! a transposition or a superior hand holds a line that is neither the attacker's shortest nor
//! the defender's longest). The main line is computed afterwards, from the proven positions
//! the table holds:
//! - an AND node's value is that of its preferred counted defence: every evasion but the
//!   futile interpositions (tsume rules) counts, each of which must be proven (a lost proof is
//!   searched again); with no counted evasion it is mated here, in 0 plies;
//! - an OR node's value is its shortest proven check;
//! - at AND nodes a defence whose mate leaves the attacker no piece in hand wins over one that
//!   leaves some, then the longest, then the one that leaves fewer (see
//!   [`MateLen::defender_prefers`]); at OR nodes the shortest check wins, then the one that
//!   leaves fewest pieces (the main line ends with none; a defence of equal length that ends
//!   with pieces left is the flaw 変同駒余り, not the main line).
//!
//! These values are upper bounds of the true ones (each is a real strategy of the attacker).
//! **Refinement** then looks for shorter mates where they matter, along the main line, from
//! its end (short, cheap questions) to the root, and along the variations that could displace
//! it ([`Search::competing_variations`]): at each OR node of value `v`, every other check is
//! asked "is there a mate within `v - 2` plies?" by a bounded df-pn with a node cap (and, when
//! that is cut short, by a cheaper pure-rule probe, whose mates are tsume mates too); the
//! questions of a pass are shared among the threads ([`super::team`]). Along a competing
//! variation whose mate leaves pieces, every other check is also asked once for a mate within
//! `v` plies: one as long that leaves fewer pieces ranks the defence as the line's rival by the
//! same ranking (YaneuraOu mate9 #59 and #299). A shorter mate found
//! forgets the values read from its position, and the main line is computed again and refined
//! again. Last, the root is asked under pure rules (see [`PURE_BOUND_BUDGET`]): the answer is
//! never longer than the pure-rule shortest it finds. The
//! first passes, with small caps, are *probes* for shorter mates; passes with larger caps only
//! prove that none is left, and are asked only where the budget covers them (see
//! [`RefineBudget`]: one budget for the whole main line after the first proof). When
//! every such question was settled the length is the proven shortest (counting each AND node
//! by its longest defence, which bounds the preferred one from above): an AND node's value is
//! then exact because its main-line child is exact and no other child's upper bound exceeds it,
//! an OR node's because no other check mates sooner. When a cap or the budget cut a question
//! short, the line is still the main line of the mates known, and is reported as not proven
//! shortest.

use super::dfpn::Search;
use super::expansion::{blocking_squares, is_block};
use super::key_hasher::{KeyMap, KeySet};
use super::line_memo::{Known, LineMemo};
use super::team::{Ask, Pass, Question, Team};
use super::value::Value;
use crate::config::Rules;
use crate::outcome::Phase;
use shogi::{Move, MoveList, Position};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A mate's length under the rules in force, and the pieces the attacker holds at its end.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MateLen {
    pub plies: u16,
    pub leftover: u8,
}

impl MateLen {
    fn after_move(self) -> MateLen {
        MateLen { plies: self.plies.saturating_add(1), leftover: self.leftover }
    }
    /// The attacker's preference: shorter, then fewer pieces left.
    fn attacker_prefers(self, other: MateLen) -> bool {
        (self.plies, self.leftover) < (other.plies, other.leftover)
    }
    /// The defender's preference, the composers' convention as shtsume applies it: a defence
    /// after which the attacker mates with no piece left in hand ranks above one that leaves
    /// some (spare pieces show the attacker had more than that defence made it use); then the
    /// longer one; then the one that leaves fewer. On 将棋図巧 this ranking gave the recorded
    /// length on 72 of 95 problems against 68 for length first (図巧19, 21, 59, 61 gained, none
    /// lost). Ranking by the count of pieces left before the length (shtsume's order) gains
    /// 図巧36 too, but makes game positions, where every mate leaves pieces, answer shorter
    /// than the longest resistance (a YaneuraOu mate in 11 became a 9-ply line leaving four
    /// pieces, where the 11-ply defence leaves five).
    fn defender_prefers(self, other: MateLen) -> bool {
        let key = |m: MateLen| (m.leftover > 0, std::cmp::Reverse(m.plies), m.leftover);
        key(self) < key(other)
    }
}

/// The main line and what is known of it.
#[derive(Clone, Debug)]
pub(super) struct MainLine {
    pub(super) moves: Vec<Move>,
    pub(super) len: MateLen,
    /// Every question of the refinement was settled: no shorter mate exists.
    pub(super) proven_shortest: bool,
    /// When this line was first found (time since the start, nodes of every thread).
    pub(super) final_line: Option<(std::time::Duration, u64)>,
}

/// What valuing a position costs, in nodes of the search: the valuation generates its moves
/// and looks each one up, and counts no node. 図巧1's first valuation reads 133,000 positions
/// in 0.3 s besides its futility tests, about 2.3 µs each, where a node of its first proof
/// takes 0.6 µs.
pub(super) const VALUED_COST: u64 = 4;

/// How far the lines of an AND node's defences are compared to find an interposition that is
/// only a detour (see `Search::preferred_defence`): the interposition, its capture, the
/// recapture, a check and the king's reply are 5 plies.
const DETOUR_PLIES: usize = 8;

/// How much longer than the best line so far a check's proof may be, at an OR node whose best
/// line leaves pieces, for the check to be valued too (see `Search::value_here`).
const SLACK: u16 = 2;

/// Node caps of the questions the main line asks.
const REPROVE_CAP: u64 = 200_000;
/// 99 % of the futile interpositions of 図巧1 are proven within 1,500 nodes; a test that is not
/// settled by the cap counts the interposition as a defence.
pub(super) const FUTILITY_CAP: u64 = 5_000;
/// The node cap of each question for a shorter mate, on the first pass along the line; each
/// pass that settles nothing new asks the questions left open again with a cap this many times
/// larger, so that no single hard question near the root uses up the budget before the easy
/// ones are asked.
const FIRST_QUESTION_CAP: u64 = 2_000;
const QUESTION_CAP_GROWTH: u64 = 8;
/// The largest cap of a *probe*: passes up to this cap look for shorter mates, larger ones only
/// try to prove that none is left. On 将棋図巧 (60 s each, 2026-11-26) every one of the 125
/// shorter mates the refinement found was found by a question capped at 2,000 or 16,000 nodes
/// a check; the larger caps settled "no shorter mate" and never shortened a line.
const LAST_PROBE_CAP: u64 = FIRST_QUESTION_CAP * QUESTION_CAP_GROWTH;

/// A pure-rule probe (see `Search::probe_pure`) asked after a tsume-rule question cut short
/// gets this share of its cap.
const PURE_PROBE_SHARE: u64 = 8;

/// The pure-rule bound: a pure-rule mate is a tsume-rule mate, so the answer is never longer
/// than the pure-rule shortest. When the refinement is done and the root's own question (a
/// shorter mate from the root) is still unsettled, the root is asked under pure rules for a mate within the line's length − 2, with growing caps,
/// until it answers or this budget is spent; a mate found shortens the line (its proof is in the
/// table), renews the budget, and the refinement goes on. Pure mates are found much faster than
/// tsume ones (no futility tests): on YaneuraOu's samples this found the 11-ply mate of mate11
/// #245, whose tsume questions at the root were still unsettled at 16,000 nodes, in 125,000
/// nodes; the hardest single question (mate9 #139, a mate within 13) took 300,000.
///
/// The whole budget goes to a line the refinement shortened: a first proof that took a
/// detour may have taken others the local questions cannot see, while a line every question
/// left as it was is rarely beaten by a pure mate (将棋図巧: 63 of 99 lines never shortened;
/// their pure mates are far longer, and 500,000 nodes each cost 31 M, a third of the
/// refinement, for nothing); such a line gets the first rounds only
/// ([`PURE_BOUND_UNSHORTENED`]). On all 2,500 YaneuraOu samples at one thread, each of the 13
/// whose answer this bound shortened had its line shortened first, by 2 to 18 plies.
pub(super) const PURE_BOUND_BUDGET: u64 = 500_000;
/// The pure-rule bound's budget for a line the refinement never shortened: its first rounds
/// (caps 16,000 and 128,000). With two threads the first proof changes from run to run and may
/// start nearer the answer without reaching it: YaneuraOu mate11 #245, #359 and #374 then came
/// out 15 plies for 11 with no bound at all (#245's pure mate takes 125,000 nodes).
const PURE_BOUND_UNSHORTENED: u64 = LAST_PROBE_CAP + LAST_PROBE_CAP * QUESTION_CAP_GROWTH;

/// What the main line's valuation and refinement may spend after the first proof, in nodes of
/// every thread: `nodes`, for the passes that look for shorter mates (caps up to
/// [`LAST_PROBE_CAP`]) and then for those with larger caps, which only prove that no shorter
/// mate is left. A shorter mate found on the main line leaves at least `renew` more: patience
/// for a refinement still shortening its line step by step (YaneuraOu mate9 #183 came down
/// from 31 plies 2 at a time, past any fixed budget of 300,000 nodes). A shorter mate in a
/// competing variation does not renew it (寿: 1.4 M nodes more for the same line); renewing
/// it only when the line's length dropped left mate11 #130 at 15 plies for 11.
#[derive(Copy, Clone, Debug)]
pub(super) struct RefineBudget {
    pub(super) nodes: u64,
    pub(super) renew: u64,
    /// What the pure-rule bound's questions may spend (see [`PURE_BOUND_BUDGET`]).
    pub(super) pure_bound: u64,
    /// What the questions for ties may spend; 0: none, and ties go to the check whose proof
    /// the table held first. Where several checks of an OR node of the line mate as soon, the
    /// line takes the first in the order of the moves: once the line is refined, every check
    /// before the line's is asked whether it mates as soon ([`Ask::Tie`], capped at
    /// [`TIE_CAP`]), and one that does becomes the line's. Which of them the table held a
    /// proof of first depends on the threads and on what earlier searches left in it (a table
    /// file: 図巧5's second report took 5a6b+ at move 15 for the first one's 6f6b+, the cook
    /// the first report found); the first in order does not, where its question is settled.
    pub(super) ties: u64,
}

/// The node cap of a question for a tie (see [`RefineBudget::ties`]): the largest probe's.
const TIE_CAP: u64 = LAST_PROBE_CAP;

impl Search<'_> {
    /// The main line from `root` (proven to mate), refined within `budget`, the team's
    /// helpers taking the questions beside this thread.
    pub(super) fn main_line(
        &mut self,
        root: &mut Position,
        budget: RefineBudget,
        team: &mut Team<'_>,
    ) -> Option<MainLine> {
        // Nodes of every thread since the main line began (the positions valued counted as
        // nodes too, see `VALUED_COST`), and where its budget ends (see `RefineBudget`).
        let all_nodes = |search: &Search<'_>, team: &Team<'_>| {
            search.nodes + search.valued * VALUED_COST + team.helper_nodes()
        };
        let since = all_nodes(self, team);
        let spent =
            |search: &Search<'_>, team: &Team<'_>, since: u64| all_nodes(search, team) - since;
        let mut end = budget.nodes;
        let mut memo = LineMemo::default();
        memo.in_order = budget.ties > 0;
        // Questions settled with no shorter mate, and the cap each unsettled one was cut at.
        let mut settled: KeySet<(u64, u16)> = KeySet::default();
        let mut tried: KeyMap<(u64, u16), u64> = KeyMap::default();
        // Questions answered "shorter" whose line did not then get shorter (the table did not
        // keep that proof): not asked again.
        let mut repeated: KeySet<(u64, u16)> = KeySet::default();
        // The questions for a mate as long that leaves fewer pieces, asked (once each).
        let mut asked_as_long: KeySet<(u64, u16)> = KeySet::default();
        let mut cap = FIRST_QUESTION_CAP;
        // The last line reported to the listener, and when it was found.
        let mut reported: Option<Vec<Move>> = None;
        let mut final_line = (self.start.elapsed(), 0);
        // The pure-rule bound's questions: what they spent, and the next one's cap.
        let (mut pure_bound_spent, mut pure_bound_cap) = (0, LAST_PROBE_CAP);
        let mut pure_bound_found: Option<u16> = None;
        // The length of the first proof's line.
        let mut first_line_len: Option<u16> = None;
        // The last main line built: the answer when a limit or `stop` ends a later phase.
        let mut last: Option<MainLine> = None;
        // The questions for ties asked (once each), what they spent, and the length of a line
        // proven shortest before a tie changed it (another line as long is as short).
        let mut asked_ties: KeySet<(u64, u16)> = KeySet::default();
        let mut ties_spent = 0;
        let mut proven_before_tie: Option<u16> = None;
        loop {
            self.begin(Phase::MainLine);
            // The first valuation runs the futility tests of the whole proof tree; the later
            // ones mostly read the memo (図巧1: 1.1 s, then 2-4 ms each).
            let len = if first_line_len.is_none() {
                team.walk_beside(|| self.line_value(root, &mut memo))
            } else {
                self.line_value(root, &mut memo)
            };
            let Some(len) = len else { return last };
            let first_len = *first_line_len.get_or_insert(len.plies);
            let Some((moves, positions)) = self.read_line(root, &mut memo, len) else {
                return last;
            };
            if reported.as_ref() != Some(&moves) {
                self.report_line(&moves);
                reported = Some(moves.clone());
                final_line = (self.start.elapsed(), self.nodes + team.helper_nodes());
            }
            let line = |moves, proven_shortest| {
                Some(MainLine { moves, len, proven_shortest, final_line: Some(final_line) })
            };
            last = line(moves.clone(), false);
            self.begin(Phase::Refinement);
            if self.out_of_time() {
                return last;
            }
            // The OR nodes of the line, from the end (short, cheap questions first).
            // `unsettled`: a question cut at its cap, worth asking again with a larger one;
            // `doubtful`: a question answered "shorter" that did not shorten the line.
            let (mut unsettled, mut doubtful) = (false, false);
            let or_parity = usize::from(root.side_to_move() != self.attacker);
            // The main line, then the variations that could displace it.
            let mut lines = vec![(moves, positions, 0, false)];
            lines.extend(self.competing_variations(root, &lines[0].0, &lines[0].1, &mut memo));
            let mut questions = Vec::new();
            for (l, (moves, positions, first, both_leave)) in lines.iter().enumerate() {
                // The attacker's pieces in hand before each move of the line (only a rival of
                // the second kind asks).
                let mut in_hand = Vec::new();
                if *both_leave {
                    let mut at = root.clone();
                    for &m in moves.iter() {
                        in_hand.push(at.hand(self.attacker).total());
                        at.make_move(m);
                    }
                }
                for i in (*first..moves.len()).rev().filter(|i| i % 2 == or_parity) {
                    let question = (positions[i].0, positions[i].1.plies);
                    let value = positions[i].1;
                    // Along a rival of the second kind (see `competing_variations`): a mate
                    // that leaves no piece drops every piece held, one a move at most
                    // (captures only add): with more in hand than moves left, none exists, and
                    // a mate that still leaves some ranks the defence no higher (but for a tie
                    // in length with the line, where fewer pieces would: not looked at). In a
                    // game position this spares most of those questions (a second solve from
                    // the table: 53 expansions before the rivals above, 477 with them asked
                    // everywhere, within 1 % again so).
                    let none_left_possible =
                        !both_leave || in_hand[i] <= u32::from(value.plies).div_ceil(2);
                    // Along a competing variation (a defence ranked below the line only for
                    // the pieces its mate leaves): a mate as long that leaves fewer would
                    // rank it above. Asked once, with the first pass's cap (it changes which
                    // defence is the line, not the lengths the line's proof rests on).
                    if l > 0
                        && value.leftover > 0
                        && none_left_possible
                        && asked_as_long.insert(question)
                    {
                        let cap = FIRST_QUESTION_CAP;
                        questions.push(Question {
                            line: l,
                            index: i,
                            value,
                            cap,
                            ask: Ask::AsLong,
                        });
                    }
                    if settled.contains(&question) {
                        continue;
                    }
                    if repeated.contains(&question) {
                        doubtful = true;
                        continue;
                    }
                    if tried.get(&question).is_some_and(|&c| c >= cap) {
                        unsettled = true;
                        continue;
                    }
                    questions.push(Question { line: l, index: i, value, cap, ask: Ask::Shorter });
                }
            }
            let left = end.saturating_sub(spent(self, team, since));
            let pass_lines = lines.iter().map(|(m, _, _, _)| m.clone()).collect();
            let pass = Arc::new(Pass::new(pass_lines, questions, left));
            team.share(&pass, || {
                self.work_on(root, &pass);
                self.stopped
            });
            let spent_out = pass.spent.load(Ordering::Relaxed);
            let mut shortened = false;
            let mut on_main_line = false;
            // Questions of this pass not settled (cut at the cap, or not taken).
            let mut open: u64 = 0;
            let answers = pass.answers.lock().map(|a| a.clone()).unwrap_or_default();
            for (q, answer) in pass.questions.iter().zip(answers) {
                let question = (lines[q.line].1[q.index].0, q.value.plies);
                if q.ask == Ask::AsLong {
                    if let Some(Shorter::Found) = answer {
                        // Valued again with the new proof: the line may change, or get shorter.
                        memo.forget_above(question.0);
                        shortened = true;
                    }
                    continue;
                }
                match answer {
                    Some(Shorter::Found) => {
                        repeated.insert(question);
                        // The new proof shortens the value there and may shorten every value
                        // read from it, on the line or off it (a defence the new line may
                        // take). Forgetting only the line's own values left the line to pass
                        // through stale ones.
                        memo.forget_above(question.0);
                        shortened = true;
                        on_main_line |= q.line == 0;
                    }
                    Some(Shorter::None) => {
                        settled.insert(question);
                    }
                    Some(Shorter::Unsettled) => {
                        tried.insert(question, cap);
                        unsettled = true;
                        open += 1;
                    }
                    // Not taken: the pass halted at a shorter mate, or the budget ran out.
                    None => {
                        unsettled = true;
                        open += 1;
                    }
                }
            }
            let (moves, positions, _, _) = lines.swap_remove(0);
            if self.out_of_time() {
                return last;
            }
            let spent_now = spent(self, team, since);
            if on_main_line {
                end = end.max(spent_now.saturating_add(budget.renew));
            }
            if shortened {
                continue;
            }
            let left = end.saturating_sub(spent_now);
            let next = cap.saturating_mul(QUESTION_CAP_GROWTH);
            // Probes get their larger cap within the budget; a pass that only proves (its cap
            // beyond the last probe's: it never shortens a line) only where the budget covers
            // each open question once at that cap, for a pass cut short proves nothing.
            let affordable = cap < LAST_PROBE_CAP || next.saturating_mul(open) <= left;
            if unsettled && !spent_out && cap < left && affordable {
                // Escalate while a larger cap can still settle something within the budget;
                // once the cap covers what is left, asking again would only repeat the same
                // searches.
                cap = next;
            } else {
                let root_settled = positions
                    .first()
                    .is_none_or(|&(key, value)| settled.contains(&(key, value.plies)));
                if pure_bound_found.is_some_and(|found| len.plies > found) {
                    // A pure mate found that did not shorten the line: not asked again.
                    pure_bound_spent = budget.pure_bound;
                    doubtful = true;
                }
                // The pure-rule bound (see `PURE_BOUND_BUDGET`), once the line was shortened.
                let shortened_before = len.plies < first_len;
                let pure_budget = if shortened_before {
                    budget.pure_bound
                } else {
                    budget.pure_bound.min(PURE_BOUND_UNSHORTENED)
                };
                if !root_settled && pure_bound_spent < pure_budget && len.plies >= 3 {
                    self.begin(Phase::PureBound);
                    let before = self.nodes;
                    let cap = pure_bound_cap.min(pure_budget - pure_bound_spent);
                    let v = self.probe_pure(root, len.plies - 2, cap);
                    pure_bound_spent += self.nodes - before;
                    match v {
                        Some(v) if v.is_proven() => {
                            memo.forget_above(positions[0].0);
                            pure_bound_found = Some(len.plies - 2);
                            // A mate found: the next question gets the whole budget again.
                            pure_bound_spent = 0;
                            let spent_now = spent(self, team, since);
                            end = end.max(spent_now.saturating_add(budget.renew));
                            continue;
                        }
                        // No pure mate within the bound: nothing to gain from this side.
                        Some(_) => pure_bound_spent = budget.pure_bound,
                        None => pure_bound_cap = pure_bound_cap.saturating_mul(QUESTION_CAP_GROWTH),
                    }
                    if self.out_of_time() {
                        return last;
                    }
                    if pure_bound_spent < pure_budget {
                        continue;
                    }
                }
                let proven = !unsettled && !doubtful && !spent_out;
                if ties_spent < budget.ties {
                    // The ties (see `RefineBudget::ties`), at the OR nodes not asked yet.
                    let questions: Vec<Question> = (0..moves.len())
                        .filter(|i| i % 2 == or_parity)
                        .filter(|&i| asked_ties.insert((positions[i].0, positions[i].1.plies)))
                        .map(|i| {
                            let (value, cap) = (positions[i].1, TIE_CAP);
                            Question { line: 0, index: i, value, cap, ask: Ask::Tie }
                        })
                        .collect();
                    let before = all_nodes(self, team);
                    let left = budget.ties - ties_spent;
                    let pass = Arc::new(Pass::new(vec![moves.clone()], questions, left));
                    team.share(&pass, || {
                        self.work_on(root, &pass);
                        self.stopped
                    });
                    ties_spent += all_nodes(self, team) - before;
                    if self.out_of_time() {
                        return last;
                    }
                    let answers = pass.answers.lock().map(|a| a.clone()).unwrap_or_default();
                    let mut tied = false;
                    for (q, answer) in pass.questions.iter().zip(answers) {
                        if answer == Some(Shorter::Found) {
                            // Valued again: the earlier check may now be the line's.
                            memo.forget_above(positions[q.index].0);
                            tied = true;
                        }
                    }
                    if tied {
                        if proven {
                            proven_before_tie = Some(len.plies);
                        }
                        continue;
                    }
                }
                let proven = proven || proven_before_tie == Some(len.plies);
                return line(moves, proven);
            }
        }
    }

    /// Asks every check of the OR node `pos` but `played` (each within `cap` nodes, all within
    /// `total`) whether it mates within
    /// `value - 2` plies ([`Ask::Shorter`]), or within `value` plies: [`Ask::AsLong`] (a mate
    /// found is then valued by the attacker's ranking: as long, it may leave fewer pieces;
    /// YaneuraOu mate9 #299), [`Ask::Tie`] only the checks before `played` in the order of the
    /// moves (the line takes the first that mates as soon, see [`RefineBudget::ties`]).
    pub(super) fn shorter_check(
        &mut self,
        pos: &mut Position,
        played: Move,
        value: MateLen,
        ask: Ask,
        cap: u64,
        total: u64,
    ) -> Shorter {
        let start = self.nodes;
        let as_long = ask != Ask::Shorter;
        if value.plies < 3 && !(ask == Ask::Tie && value.plies == 1) {
            return Shorter::None;
        }
        // The bound of the position after the check.
        let bound = if as_long { value.plies - 1 } else { value.plies - 2 };
        let mut moves = MoveList::new();
        self.node_moves(pos, &mut moves);
        let mut result = Shorter::None;
        for &mv in moves.iter() {
            if mv == played && ask == Ask::Tie {
                break;
            }
            if mv == played {
                continue;
            }
            // Each check within `cap`, the question within `total`: what is left of the
            // budget when it began (a question past it is cut, not asked to the end).
            let left = total.saturating_sub(self.nodes - start);
            if left == 0 {
                return if result == Shorter::Found { result } else { Shorter::Unsettled };
            }
            let cap = cap.min(left);
            pos.make_move(mv);
            self.enter(pos);
            let answer = if self.is_repetition() {
                // A check back to a position of the way here mates nothing.
                Shorter::None
            } else {
                match self.prove_within_tsume(pos, bound, cap) {
                    Some(v) if v.is_proven() => Shorter::Found,
                    Some(v) if v.depth >= bound => Shorter::None,
                    // A disproof cut short by the stack guard.
                    Some(_) => Shorter::Unsettled,
                    // A pure mate is a tsume mate; a pure disproof says nothing of tsume mates.
                    None => match self.probe_pure(pos, bound, (cap / PURE_PROBE_SHARE).max(1)) {
                        Some(v) if v.is_proven() => Shorter::Found,
                        _ => Shorter::Unsettled,
                    },
                }
            };
            self.leave();
            pos.unmake_move();
            match answer {
                // As long: every check is asked, so that the one leaving fewest pieces is known.
                Shorter::Found if ask == Ask::AsLong => result = Shorter::Found,
                Shorter::Found => return Shorter::Found,
                Shorter::None => {}
                Shorter::Unsettled if result != Shorter::Found => result = Shorter::Unsettled,
                Shorter::Unsettled => {}
            }
            if self.stopped {
                return Shorter::Unsettled;
            }
        }
        result
    }

    /// Runs df-pn on `pos` (the end of the path) with `depth` plies, for at most `cap` nodes.
    /// `None` when the cap or a limit cut it short.
    pub(super) fn prove_within(
        &mut self,
        pos: &mut Position,
        depth: u16,
        cap: u64,
    ) -> Option<Value> {
        if self.stopped {
            return None;
        }
        let saved = self.cap;
        self.cap = Some(self.nodes.saturating_add(cap));
        let v = self.prove(pos, depth);
        self.cap = saved;
        if self.aborted {
            if !self.stopped {
                self.aborted = false;
            }
            return None;
        }
        Some(v)
    }

    /// As [`Search::prove_within`], for a question of length under the rules in force: under
    /// tsume rules an interposition whose futility test is mated does not count against the
    /// bound. (The proof of a mate's existence does without the tests: they cost more than
    /// they save there; 図巧1 took four times the nodes.)
    fn prove_within_tsume(&mut self, pos: &mut Position, depth: u16, cap: u64) -> Option<Value> {
        let saved = self.futility_tests;
        self.futility_tests = self.rules == Rules::Tsume;
        let v = self.prove_within(pos, depth, cap);
        self.futility_tests = saved;
        v
    }

    /// Asks whether `pos` mates within `depth` plies counting every interposition (pure
    /// rules), which proves a mate within `depth` under tsume rules as well (an interposition
    /// is left out only when its futility test is mated, and what pure rules prove about it
    /// holds either way), and costs far less: the futility tests of every interposition make
    /// a bounded tsume search wide (YaneuraOu mate9 #10: the 7-ply mate after 5b4b 3c4b L*3d
    /// took more than 16,000 nodes with them). Its disproofs hold only under pure rules, where
    /// futile interpositions lengthen mates: the bounded ones are not stored.
    fn probe_pure(&mut self, pos: &mut Position, depth: u16, cap: u64) -> Option<Value> {
        let saved = (self.futility_tests, self.pure_probe);
        (self.futility_tests, self.pure_probe) = (false, true);
        let v = self.prove_within(pos, depth, cap);
        (self.futility_tests, self.pure_probe) = saved;
        v
    }

    /// Whether the table (or a short search) proves the position at the end of the path.
    pub(super) fn proven_here(&mut self, pos: &mut Position, cap: u64) -> bool {
        let hand = self.attacker_hand(pos);
        if self
            .table
            .lookup(self.table_key(pos), hand, crate::tt::UNBOUNDED)
            .is_some_and(|k| k.pn == 0)
        {
            return true;
        }
        let depth = self.unbounded_depth(self.path.len());
        self.prove_within(pos, depth, cap).is_some_and(|v| v.is_proven())
    }

    /// The value of `pos` (the end of the path) under the rules: see the module comment.
    /// `None` when it cannot be shown proven (a repetition, a lost proof, a limit).
    fn line_value(&mut self, pos: &mut Position, memo: &mut LineMemo) -> Option<MateLen> {
        let key = pos.key();
        if let Some(k) = memo.read(key, &self.path) {
            if k.epoch == memo.epoch {
                return k.len;
            }
            // A value longer than the proof the table now holds (or none, where the table now
            // has one) was computed before a shorter mate below was found: valued again.
            let stale = match (k.len, self.proof_len_in_table(pos)) {
                (None, Some(_)) => true,
                (Some(v), Some(proof)) => v.plies > proof,
                _ => false,
            };
            if !stale {
                memo.refresh(key, &self.path);
                return k.len;
            }
        }
        memo.begin(key);
        let best = self.value_here(pos, memo);
        let len = best.map(|(v, _)| v);
        let known = Known { len, best: best.map_or(Move::NULL, |(_, m)| m), epoch: memo.epoch };
        memo.end((!self.stopped).then_some(known));
        len
    }

    /// A helper's share of the main line's first valuation: the same walk from `root`, the
    /// defences of each AND node in reverse order, until interrupted; its values are thrown
    /// away, its proofs stay in the shared table.
    pub(super) fn walk_line_reversed(&mut self, root: &mut Position) {
        let mut memo = LineMemo::default();
        memo.reversed = true;
        self.line_value(root, &mut memo);
    }

    /// [`Search::line_value`] of a position not yet valued.
    fn value_here(&mut self, pos: &mut Position, memo: &mut LineMemo) -> Option<(MateLen, Move)> {
        self.valued += 1;
        let ply = self.path.len();
        if self.out_of_time() || self.guard.exhausted(ply) {
            return None;
        }
        let or_node = pos.side_to_move() == self.attacker;
        let mut list = MoveList::new();
        self.node_moves(pos, &mut list);
        let moves: Vec<Move> = list.iter().copied().collect();
        let mut best: Option<(MateLen, Move)> = None;
        if or_node {
            // The checks with the shortest proof the table holds (refinement finds the others);
            // of those, the one whose line leaves the attacker fewest pieces. A line is no
            // longer than its check's proof, but a proof's length in the table can fall short
            // of the line's (YaneuraOu mate3 #8: a proof of length 0 after ▲８二飛成, whose
            // line is 4 plies, hid the 3-ply ▲５三銀): the checks with the next shortest proof
            // are looked at too while their proof is shorter than the best line so far, and
            // when none so far shows a line (a proof that rests on this path, or lost).
            let mut proven = self.proven_checks(pos, &moves, memo);
            if proven.is_empty() {
                // The table lost the proofs below this node: prove it again.
                let depth = self.unbounded_depth(ply);
                if self.prove_within(pos, depth, REPROVE_CAP).is_some_and(|v| v.is_proven()) {
                    proven = self.proven_checks(pos, &moves, memo);
                }
            }
            // While the best line leaves pieces, a check whose proof is as long as it, or a
            // move longer, could still give a line as long that leaves fewer (a proof's
            // length can exceed its line's: a helper's longer proof of the line's own check
            // hid it behind a check found later, YaneuraOu mate9 #299 at two threads).
            let worth = |len: u16, b: MateLen| {
                let line = len.saturating_add(1);
                line < b.plies || (b.leftover > 0 && line <= b.plies.saturating_add(SLACK))
            };
            // In order (see `LineMemo::in_order`): a check before the best one whose proof is
            // as long as the best line is valued too, and wins a tie.
            let in_order = memo.in_order;
            let rank = |mv: Move| moves.iter().position(|&m| m == mv).unwrap_or(usize::MAX);
            let before = |mv: Move, b: Move| in_order && rank(mv) < rank(b);
            let tie = |len: u16, b: MateLen| in_order && len.saturating_add(1) == b.plies;
            let mut k = 0;
            while k < proven.len()
                && best.is_none_or(|(b, _)| worth(proven[k].0, b) || tie(proven[k].0, b))
            {
                let len = proven[k].0;
                while k < proven.len() && proven[k].0 == len {
                    let mv = proven[k].1;
                    k += 1;
                    if best.is_some_and(|(b, bm)| !worth(len, b) && !before(mv, bm)) {
                        continue;
                    }
                    pos.make_move(mv);
                    self.enter(pos);
                    let v = self.line_value(pos, memo);
                    self.leave();
                    pos.unmake_move();
                    if self.stopped {
                        // Unwinds at once: a value cut short is not kept.
                        return None;
                    }
                    if let Some(v) = v.map(MateLen::after_move) {
                        let better = |(b, bm): (MateLen, Move)| {
                            v.attacker_prefers(b) || (v == b && before(mv, bm))
                        };
                        if best.is_none_or(better) {
                            best = Some((v, mv));
                        }
                    }
                }
            }
        } else {
            let blocks = blocking_squares(pos);
            let is_interposition =
                |mv: Move| blocks.is_some_and(|(ksq, line)| is_block(mv, ksq, line));
            let tsume = self.rules == Rules::Tsume;
            let mut defended = true;
            // Every counted defence with its value, and whether it is an interposition that
            // could be a detour (tsume rules).
            let mut counted: Vec<(MateLen, Move, bool)> = Vec::new();
            let n = moves.len();
            let reversed = memo.reversed;
            let order = |k: usize| if reversed { n - 1 - k } else { k };
            for mv in (0..n).map(|k| moves[order(k)]) {
                if tsume && is_interposition(mv) && self.is_futile(pos, mv, Some(&mut memo.futile))
                {
                    continue;
                }
                pos.make_move(mv);
                self.enter(pos);
                let v = if self.is_repetition() {
                    memo.repetition(pos.key());
                    None
                } else if self.proven_here(pos, REPROVE_CAP) {
                    self.line_value(pos, memo)
                } else {
                    None
                };
                self.leave();
                pos.unmake_move();
                if self.stopped {
                    return None;
                }
                let Some(v) = v.map(MateLen::after_move) else {
                    defended = false;
                    break;
                };
                // Pure rules count every interposition: none is a detour either.
                counted.push((v, mv, tsume && is_interposition(mv)));
            }
            if defended {
                best = self.preferred_defence(pos, memo, counted);
            }
            if !defended {
                best = None;
            } else if best.is_none() {
                // Mated here: no evasion, or only futile interpositions.
                let leftover = pos.hand(self.attacker).total().min(u8::MAX.into()) as u8;
                best = Some((MateLen { plies: 0, leftover }, Move::NULL));
            }
        }
        best
    }

    /// The defender's preferred defence among the `counted` ones of the AND node `pos`
    /// (values known), leaving out the marked interpositions that are only detours: an
    /// interposition whose line passes, later, through a position that the line of another
    /// counted defence passes through (hands included) adds plies and nothing else, and
    /// composers call it futile too. 将棋図巧33: △８五歩 is taken by ▲同角, retaken by △同桂,
    /// and ▲９五歩 △同玉 stands where △９五玉 ▲８五角 △同桂 stood, 4 plies later; the record
    /// plays △９五玉.
    fn preferred_defence(
        &mut self,
        pos: &mut Position,
        memo: &LineMemo,
        mut counted: Vec<(MateLen, Move, bool)>,
    ) -> Option<(MateLen, Move)> {
        loop {
            let (i, &(v, mv, interposition)) = counted.iter().enumerate().reduce(|a, b| {
                if b.1 .0.defender_prefers(a.1 .0) {
                    b
                } else {
                    a
                }
            })?;
            if !interposition || counted.len() < 2 {
                return Some((v, mv));
            }
            let own = self.memo_line_keys(pos, mv, memo);
            let detour =
                counted.iter().any(|&(_, other, _)| {
                    other != mv
                        && self.memo_line_keys(pos, other, memo).iter().enumerate().any(
                            |(b, key)| own.iter().position(|k| k == key).is_some_and(|a| a > b),
                        )
                });
            if !detour {
                return Some((v, mv));
            }
            counted.swap_remove(i);
        }
    }

    /// The keys of the first [`DETOUR_PLIES`] positions of the line after `mv` from `pos`, as
    /// the memo's best moves make it (the position after `mv` first), of values that met no
    /// repetition (see [`LineMemo::peek_clean`]).
    fn memo_line_keys(&self, pos: &mut Position, mv: Move, memo: &LineMemo) -> Vec<u64> {
        let mut keys = Vec::with_capacity(DETOUR_PLIES);
        let mut played = 0;
        pos.make_move(mv);
        played += 1;
        while keys.len() < DETOUR_PLIES {
            let key = pos.key();
            keys.push(key);
            let Some(best) = memo.peek_clean(key).map(|k| k.best) else { break };
            if best == Move::NULL || !shogi::movegen::is_legal(pos, best) {
                break;
            }
            pos.make_move(best);
            played += 1;
        }
        for _ in 0..played {
            pos.unmake_move();
        }
        keys
    }

    /// The checks of the OR node `pos` (the end of the path) with a proof in the table,
    /// shortest proof first. Read by the keys the checks lead to, without making them: this
    /// is most of what the valuation does at an OR node, and every entry is asked of the
    /// memory before the first is read.
    fn proven_checks(
        &mut self,
        pos: &mut Position,
        checks: &[Move],
        memo: &mut LineMemo,
    ) -> Vec<(u16, Move)> {
        for &mv in checks {
            self.table.prefetch(pos.board_key_after(mv) ^ self.key_salt);
        }
        let mut proven: Vec<(u16, Move)> = Vec::new();
        for &mv in checks {
            let key = pos.key_after(mv);
            if self.would_repeat(key) {
                memo.repetition(key);
                continue;
            }
            let board = pos.board_key_after(mv) ^ self.key_salt;
            let hand = self.attacker_hand_after(pos, mv);
            let known = self.table.lookup(board, hand, crate::tt::UNBOUNDED);
            if let Some(k) = known.filter(|k| k.pn == 0) {
                proven.push((k.len, mv));
            }
        }
        proven.sort_by_key(|&(len, _)| len);
        proven
    }

    /// The length of the proof the table holds for `pos`, if it holds one.
    fn proof_len_in_table(&self, pos: &Position) -> Option<u16> {
        let hand = self.attacker_hand(pos);
        let known = self.table.lookup(self.table_key(pos), hand, crate::tt::UNBOUNDED)?;
        (known.pn == 0).then_some(known.len)
    }

    /// The variations of the main line (`moves` from `root`, with `positions`' keys and values)
    /// whose refinement could displace it: at a defender's node of the line, a counted defence
    /// ranked below the line's only because its mate leaves the attacker a piece, though it is
    /// longer. Its value is an upper bound; should a shorter mate after it leave no piece, the
    /// defender would choose it (寿 once answered 545 plies for 611 so: at ply 540 △６一玉 was
    /// valued 90 plies with a piece to spare, where its mate is 71 with none, and △７一玉, mated
    /// in 5 with none, was the line). And where the line's own mate leaves pieces, a defence
    /// whose mate leaves pieces too, whatever its length (YaneuraOu mate9 #99: 5 plies or 9 by
    /// which 3-ply mate the table held). Each comes as its whole line from the root, its
    /// values, the first ply of its own, and whether it is of the second kind. (A defence's value is looked at off the path: one that met no
    /// repetition, see [`LineMemo::peek_clean`].)
    fn competing_variations(
        &mut self,
        root: &Position,
        moves: &[Move],
        positions: &LineNodes,
        memo: &mut LineMemo,
    ) -> Vec<(Vec<Move>, LineNodes, usize, bool)> {
        let base = self.path.len();
        let mut found = Vec::new();
        let mut pos = root.clone();
        for (i, &played) in moves.iter().enumerate() {
            let node = positions[i].1;
            if pos.side_to_move() != self.attacker && !self.out_of_time() {
                let mut evasions = MoveList::new();
                self.node_moves(&pos, &mut evasions);
                let blocks = blocking_squares(&pos);
                for &mv in evasions.iter() {
                    if mv == played {
                        continue;
                    }
                    let block = blocks.is_some_and(|(ksq, line)| is_block(mv, ksq, line));
                    if block && self.is_futile(&mut pos, mv, Some(&mut memo.futile)) {
                        continue;
                    }
                    pos.make_move(mv);
                    let value = memo.peek_clean(pos.key()).and_then(|k| k.len);
                    // A defence whose mate leaves pieces would rank above the line with a mate
                    // that leaves none: when it is longer than the line, or whatever its
                    // length when the line's mate leaves pieces too (YaneuraOu mate9 #99: a
                    // 3-ply mate leaving a piece, against the line's 7 leaving one, has a
                    // 3-ply mate leaving none; which of the two the table held first decided).
                    let longer = value.is_some_and(|v| {
                        let v = v.after_move();
                        v.leftover > 0 && v.plies > node.plies && node.leftover == 0
                    });
                    let both_leave = value.is_some_and(|v| v.leftover > 0 && node.leftover > 0);
                    if let (true, Some(value)) = (longer || both_leave, value) {
                        self.enter(&pos);
                        if let Some((tail, tail_nodes)) = self.read_line(&pos, memo, value) {
                            let mut line = moves[..i].to_vec();
                            line.push(mv);
                            let first = line.len();
                            line.extend(tail);
                            let mut nodes = positions[..=i].to_vec();
                            nodes.extend(tail_nodes);
                            found.push((line, nodes, first, !longer));
                        }
                        self.leave();
                    }
                    pos.unmake_move();
                }
            }
            pos.make_move(played);
            self.enter(&pos);
        }
        self.truncate_path(base);
        found
    }

    /// The line the memo's best moves make from `root` (the end of the path), with each
    /// position's key and value before its move. A position the memo lacks (its value rested
    /// on a repetition of a path that a shortening made stale) is valued again on the way.
    /// `None` if no line can be shown.
    fn read_line(
        &mut self,
        root: &Position,
        memo: &mut LineMemo,
        len: MateLen,
    ) -> Option<(Vec<Move>, LineNodes)> {
        let base = self.path.len();
        let mut pos = root.clone();
        let mut moves = Vec::with_capacity(len.plies as usize);
        let mut positions = Vec::with_capacity(len.plies as usize);
        let mut line = Some(());
        for _ in 0..len.plies {
            if self.out_of_time() {
                line = None;
                break;
            }
            let key = pos.key();
            let k = match memo.peek(key, &self.path) {
                Some(k) => Some(k),
                None => {
                    self.line_value(&mut pos, memo);
                    memo.peek(key, &self.path)
                }
            };
            let Some((value, best)) = k.and_then(|k| Some((k.len?, k.best))) else {
                line = None;
                break;
            };
            if best == Move::NULL {
                break;
            }
            positions.push((key, value));
            moves.push(best);
            pos.make_move(best);
            self.enter(&pos);
        }
        self.truncate_path(base);
        line.map(|_| (moves, positions))
    }
}

/// The key and value of each position of a line, before its move.
type LineNodes = Vec<(u64, MateLen)>;

/// How a search for a shorter mate ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Shorter {
    Found,
    /// Every other check was refuted within the bound.
    None,
    /// Some question was cut short.
    Unsettled,
}
