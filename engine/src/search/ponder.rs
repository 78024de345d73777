//! Multi-candidate ponder (seed 002: predicting the opponent's move by a shallow MultiPV search
//! and searching several predictions while the opponent thinks).
//!
//! Classic ponder searches the one reply the last search expected; when the opponent plays
//! anything else, that time is lost. Here, on `go ponder`, the engine first predicts the
//! opponent's replies with a shallow MultiPV search of the position before the expected reply
//! ([`PREDICT_DEPTH`] plies, [`PREDICT_LINES`] lines, a few milliseconds), keeps those within
//! `PonderMarginCp` of the best (at most `PonderCandidates`, the expected reply always first;
//! [`keep_candidates`]), and searches the positions after the kept replies. The threads are
//! divided among them ([`share_threads`]): one thread searches them all in turn, one iteration
//! deeper each round (the shared table carries each slice's work over to its next); with more,
//! the expected reply has a group of threads of its own and the others share the other
//! groups, in turn when a group has several. Then:
//! - `ponderhit` (the expected reply was played): answer at once when its search has already
//!   had the time the clock would give the move (the soft limit) and the time saved can be
//!   spent later (not with only byoyomi left), else go on searching it;
//! - `stop`, then a `go` on the position after another kept reply: the same, from that reply's
//!   kept search ([`PonderCache`]).
//!
//! Each answer made from a ponder search says so (the outcome's note, an `info string`).
//!
//! **Node budgets** (a `go ponder` with a node limit, as `tsumugi match --turns` gives it):
//! the limit is the whole ponder's budget, not a slice's. Each group of threads gets its share
//! (by its number of threads: the seed's 3, 2, 1, 1, 1 over five replies with eight threads)
//! and searches its replies in turn until the share is spent; the ponder then ends by itself
//! and keeps every reply's search. A `go` on a kept reply answers at once when that search had
//! at least the `go`'s node limit, else searches with its full limit from the warm table. The
//! prediction's own nodes are not counted.

use crate::search::engine::{Engine, SearchGroup, SearchStats};
use crate::search::report::{Score, SearchInfo, SearchLimits, SearchOutcome};
use crate::search::SearchControl;
use shogi::{Move, Position};
use std::time::{Duration, Instant};

/// How the note of an answer made at once from a ponder search begins (a match counts them).
pub const ANSWERED_AT_ONCE: &str = "ponder: answered at once";

/// Depth of the prediction search (the seed's 6).
pub const PREDICT_DEPTH: u32 = 6;
/// Lines of the prediction search (the seed's 8 candidates).
pub const PREDICT_LINES: u32 = 8;
/// Most kept candidates the option allows.
pub const MAX_CANDIDATES: usize = 8;

/// The USI options `PonderCandidates` and `PonderMarginCp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PonderSettings {
    /// Replies searched while pondering; 1 is classic ponder.
    pub candidates: usize,
    /// Replies worse than the best by more than this (centipawns, for the opponent) are not
    /// searched.
    pub margin_cp: i32,
    /// Under a node budget, a reply searched while pondering is searched again with the move's
    /// whole budget from the warm table, even when its ponder search already had that budget:
    /// nothing an answer at once saves can be spent on later moves (as with byoyomi alone).
    pub hits_continue: bool,
}

impl Default for PonderSettings {
    /// The seed's values: at most 5 candidates, within 300 cp of the best.
    fn default() -> PonderSettings {
        PonderSettings { candidates: 5, margin_cp: 300, hits_continue: false }
    }
}

/// A score as centipawns, mates beyond every evaluation, so that margins compare them.
pub fn score_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 30_000 - n,
        Score::Mate(n) => -30_000 - n,
    }
}

/// The replies to search, from the prediction's lines (best first, with their scores for the
/// side that replies): those within the margin of the best, at most the option's number, and
/// the `expected` reply first whatever its rank.
pub fn keep_candidates(lines: &[(Move, i32)], expected: Move, s: &PonderSettings) -> Vec<Move> {
    let mut kept = vec![expected];
    let Some(best) = lines.iter().map(|&(_, v)| v).max() else { return kept };
    for &(m, v) in lines {
        if kept.len() >= s.candidates.max(1) {
            break;
        }
        if v >= best.saturating_sub(s.margin_cp) && !kept.contains(&m) {
            kept.push(m);
        }
    }
    kept
}

/// The prediction's lines at its deepest completed depth, in the search's order.
pub fn lines_of(reports: &[SearchInfo]) -> Vec<(Move, i32)> {
    let Some(depth) = reports.iter().map(|i| i.depth).max() else { return Vec::new() };
    let mut last: Vec<&SearchInfo> = Vec::new();
    for i in reports.iter().filter(|i| i.depth == depth && i.note.is_none() && !i.pv.is_empty()) {
        // Later reports of a line replace earlier ones (a line re-searched at this depth).
        last.retain(|l| l.multipv != i.multipv);
        last.push(i);
    }
    last.sort_by_key(|i| i.multipv);
    last.iter().map(|i| (i.pv[0], score_cp(i.score))).collect()
}

/// A kept reply's search, for when the opponent plays it.
#[derive(Clone, Debug)]
struct Kept {
    /// The key of the position after the reply.
    key: u64,
    outcome: SearchOutcome,
    depth: u32,
    spent: Duration,
    /// Nodes spent on this reply.
    nodes: u64,
}

/// The searches of the kept replies after the last ponder, until the next `go`.
#[derive(Default)]
pub struct PonderCache {
    kept: Vec<Kept>,
}

impl PonderCache {
    pub fn clear(&mut self) {
        self.kept.clear();
    }

    /// Keeps the search of `pos` a classic ponder made under a node budget.
    pub(crate) fn keep_node_search(
        &mut self,
        pos: &Position,
        outcome: SearchOutcome,
        stats: &SearchStats,
    ) {
        self.kept.clear();
        self.kept.push(Kept {
            key: pos.key(),
            outcome,
            depth: stats.depth,
            spent: Duration::ZERO,
            nodes: stats.nodes,
        });
    }

    /// The kept search of `pos`, if pondering searched it; the rest is forgotten.
    fn take(&mut self, pos: &Position) -> Option<Kept> {
        let key = pos.key();
        let found = self.kept.iter().position(|k| k.key == key).map(|i| self.kept.swap_remove(i));
        self.kept.clear();
        found
    }
}

impl Kept {
    /// The answer for a `go` on this reply's position: at once when its search already had the
    /// time the clock gives the move (the soft limit) and the time saved is kept for later
    /// moves, else the note to attach to the search that goes on (the table keeps what the
    /// ponder search learnt; with only byoyomi left, its time is free and buys depth).
    fn answer(
        self,
        control: &SearchControl,
        limits: &SearchLimits,
        hits_continue: bool,
    ) -> Result<(SearchOutcome, SearchStats), String> {
        let ms = self.spent.as_millis();
        if let Some(nodes) = limits.nodes {
            // A node budget: the kept search had the move's budget, or it goes on.
            if self.nodes >= nodes && self.outcome.best.is_some() && !hits_continue {
                let mut outcome = self.outcome;
                outcome.note = Some(format!(
                    "{ANSWERED_AT_ONCE} from the search of this reply (depth {}, {} nodes while \
                     pondering)",
                    self.depth, self.nodes
                ));
                return Ok((outcome, SearchStats { depth: self.depth, ..SearchStats::default() }));
            }
            return Err(format!(
                "ponder: continuing the search of this reply (depth {}, {} nodes while pondering)",
                self.depth, self.nodes
            ));
        }
        match control.soft_limit() {
            Some(soft)
                if self.spent >= soft
                    && control.saves_unspent_time()
                    && self.outcome.best.is_some() =>
            {
                let mut outcome = self.outcome;
                outcome.note = Some(format!(
                    "{ANSWERED_AT_ONCE} from the search of this reply (depth {}, {ms} ms while \
                     pondering)",
                    self.depth
                ));
                Ok((outcome, SearchStats { depth: self.depth, ..SearchStats::default() }))
            }
            _ => Err(continuing_note(self.depth, self.spent)),
        }
    }
}

fn continuing_note(depth: u32, spent: Duration) -> String {
    format!(
        "ponder: continuing the search of this reply (depth {depth}, {} ms while pondering)",
        spent.as_millis()
    )
}

/// The answer for a `go` after a ponder search of this very position ([`Kept::answer`]);
/// `Err(None)` when pondering did not search it.
pub fn answer_from_ponder(
    cache: &mut PonderCache,
    pos: &Position,
    control: &SearchControl,
    limits: &SearchLimits,
    settings: &PonderSettings,
) -> Result<(SearchOutcome, SearchStats), Option<String>> {
    match cache.take(pos) {
        Some(k) => k.answer(control, limits, settings.hits_continue).map_err(Some),
        None => Err(None),
    }
}

/// `go ponder` on `pos` (the position after the expected reply) with multi-candidate ponder.
/// Returns `None` when there is nothing to predict from (no previous move, or one candidate):
/// the caller ponders classically.
pub fn ponder_candidates(
    engine: &mut Engine,
    pos: &Position,
    limits: &SearchLimits,
    control: &SearchControl,
    info: &mut dyn FnMut(&SearchInfo),
) -> Option<(SearchOutcome, SearchStats)> {
    let settings = engine.ponder_settings();
    let expected = pos.last_move();
    if settings.candidates <= 1 || pos.history_len() == 0 || expected.is_null() {
        return None;
    }
    let mut before = pos.clone();
    before.unmake_move();
    let mut reports = Vec::new();
    let predict = SearchLimits { depth: Some(PREDICT_DEPTH), nodes: None, multipv: PREDICT_LINES };
    engine.run(&before, &predict, control, &mut |i| reports.push(i.clone()), true);
    let replies = keep_candidates(&lines_of(&reports), expected, &settings);
    if replies.len() <= 1 {
        return None;
    }
    let names: Vec<String> = replies.iter().map(|m| m.to_string()).collect();
    info(&SearchInfo::note(format!("ponder: searching the replies {}", names.join(" "))));
    let positions: Vec<Position> = replies
        .iter()
        .map(|&m| {
            let mut p = before.clone();
            p.make_move(m);
            p
        })
        .collect();
    let threads = engine.threads();
    let plan = share_threads(threads, positions.len());
    let sizes: Vec<usize> = plan.iter().map(|(size, _)| *size).collect();
    // Under a node budget, each group's share by its threads.
    let budget =
        |size: usize| limits.nodes.map(|n| (n * size as u64 / threads.max(1) as u64).max(1));
    let mut kept: Vec<Option<Kept>> = vec![None; positions.len()];
    let mut groups = engine.groups(&sizes);
    std::thread::scope(|scope| {
        let mut work = groups.iter_mut().zip(&plan);
        let first = work.next();
        // Every other group on a thread of its own; a group the system refuses a thread to
        // leaves its replies unsearched (a `go` on one of them searches afresh).
        let others: Vec<_> = work
            .enumerate()
            .filter_map(|(k, (group, (size, mine)))| {
                let positions = &positions;
                let share = budget(*size);
                solver::stack::search_thread(&format!("ponder-{}", k + 1))
                    .spawn_scoped(scope, move || {
                        in_turn(group, positions, mine, limits, share, control, &mut |_| {})
                    })
                    .ok()
            })
            .collect();
        if let Some((group, (size, mine))) = first {
            let share = budget(*size);
            for (i, k) in in_turn(group, &positions, mine, limits, share, control, info) {
                kept[i] = k;
            }
        }
        for handle in others {
            for (i, k) in handle.join().unwrap_or_default() {
                kept[i] = k;
            }
        }
    });
    drop(groups);
    if limits.nodes.is_none() && !control.is_stopped() && !control.is_pondering() {
        // `ponderhit`: the expected reply was played and the clock runs.
        let note = match kept.swap_remove(0) {
            Some(hit) => match hit.answer(control, limits, false) {
                Ok(answer) => return Some(answer),
                Err(note) => note,
            },
            None => continuing_note(0, Duration::ZERO),
        };
        let (mut outcome, stats) = engine.run(pos, limits, control, info, false);
        outcome.note = Some(note);
        return Some((outcome, stats));
    }
    // `stop` (the opponent played something else), the depth limit or the node budget spent:
    // keep every search.
    let answer = kept[0].as_ref().map(|k| (k.outcome.clone(), k.depth));
    let cache = engine.ponder_cache();
    cache.clear();
    cache.kept.extend(kept.into_iter().flatten());
    Some(match answer {
        Some((outcome, depth)) => (outcome, SearchStats { depth, ..SearchStats::default() }),
        None => engine_fallback(pos),
    })
}

/// How the threads share the kept replies: groups of threads (their sizes) and the replies
/// each searches in turn (indices, the expected reply 0). One thread searches them all. With
/// more, the expected reply, the likeliest to be played, has a group of its own and the other
/// replies share the other groups; threads beyond one per reply join the groups, the expected
/// reply's first.
fn share_threads(threads: usize, replies: usize) -> Vec<(usize, Vec<usize>)> {
    let groups = threads.min(replies).max(1);
    if groups == 1 {
        return vec![(threads.max(1), (0..replies).collect())];
    }
    let mut plan: Vec<(usize, Vec<usize>)> = (0..groups)
        .map(|g| (threads / groups + usize::from(g < threads % groups), Vec::new()))
        .collect();
    plan[0].1.push(0);
    for reply in 1..replies {
        plan[1 + (reply - 1) % (groups - 1)].1.push(reply);
    }
    plan
}

/// One group's replies (`mine`, indices into `positions`), searched in turn one iteration
/// deeper each round until the pondering ends, or until the group's node `budget` is spent;
/// the search of each, with the time and nodes it had. The lines of reply 0, the position the
/// GUI sent, are reported, each depth once.
fn in_turn(
    group: &mut SearchGroup,
    positions: &[Position],
    mine: &[usize],
    limits: &SearchLimits,
    budget: Option<u64>,
    control: &SearchControl,
    info: &mut dyn FnMut(&SearchInfo),
) -> Vec<(usize, Option<Kept>)> {
    let mut done: Vec<Option<(SearchOutcome, SearchStats)>> = vec![None; mine.len()];
    let mut spent = vec![Duration::ZERO; mine.len()];
    let mut nodes = vec![0u64; mine.len()];
    let max_depth = limits.depth.unwrap_or(u32::MAX);
    'rounds: for depth in 1..=max_depth.min(crate::search::history::MAX_PLY as u32 - 8) {
        for (j, &i) in mine.iter().enumerate() {
            let used: u64 = nodes.iter().sum();
            let left = budget.map(|b| b.saturating_sub(used));
            if control.is_stopped() || !control.is_pondering() || left == Some(0) {
                break 'rounds;
            }
            let slice = SearchLimits { depth: Some(depth), nodes: left, multipv: 1 };
            let started = Instant::now();
            let (outcome, stats) = if i == 0 {
                let mut report = |r: &SearchInfo| {
                    if r.depth == depth {
                        info(r)
                    }
                };
                group.run(&positions[i], &slice, control, &mut report, true)
            } else {
                group.run(&positions[i], &slice, control, &mut |_| {}, true)
            };
            spent[j] += started.elapsed();
            nodes[j] += stats.nodes;
            if stats.depth >= depth {
                done[j] = Some((outcome, stats));
            }
        }
    }
    mine.iter()
        .enumerate()
        .zip(done)
        .map(|((j, &i), d)| {
            let kept = d.map(|(outcome, stats)| Kept {
                key: positions[i].key(),
                outcome,
                depth: stats.depth,
                spent: spent[j],
                nodes: nodes[j],
            });
            (i, kept)
        })
        .collect()
}

/// An answer for a ponder stopped before any slice completed (the GUI discards it).
fn engine_fallback(pos: &Position) -> (SearchOutcome, SearchStats) {
    let mut legal = shogi::MoveList::new();
    shogi::movegen::legal_moves(pos, &mut legal);
    let outcome = SearchOutcome {
        best: legal.iter().next().copied(),
        ponder: None,
        declare_win: false,
        score: Score::Cp(0),
        nodes: 0,
        note: None,
    };
    (outcome, SearchStats::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(pos: &Position, usi: &[&str]) -> Vec<Move> {
        usi.iter().map(|u| pos.parse_usi_move(u).unwrap_or_else(|e| panic!("{e}"))).collect()
    }

    #[test]
    fn candidates_within_the_margin_with_the_expected_reply_first() {
        let pos = Position::startpos();
        let m = moves(&pos, &["7g7f", "2g2f", "5g5f", "1g1f", "9g9f"]);
        let lines = vec![(m[0], 50), (m[1], 40), (m[2], -200), (m[3], -300), (m[4], -250)];
        let s = PonderSettings { candidates: 5, margin_cp: 300, hits_continue: false };
        // -300 is 350 below the best: out; -250 is on the margin: in. The expected reply leads
        // even when it is out.
        assert_eq!(keep_candidates(&lines, m[1], &s), vec![m[1], m[0], m[2], m[4]]);
        assert_eq!(keep_candidates(&lines, m[3], &s), vec![m[3], m[0], m[1], m[2], m[4]]);
        let two = PonderSettings { candidates: 2, margin_cp: 300, hits_continue: false };
        assert_eq!(keep_candidates(&lines, m[0], &two), vec![m[0], m[1]]);
        let classic = PonderSettings { candidates: 1, margin_cp: 300, hits_continue: false };
        assert_eq!(keep_candidates(&lines, m[2], &classic), vec![m[2]]);
        assert_eq!(keep_candidates(&[], m[2], &s), vec![m[2]]);
    }

    #[test]
    fn the_expected_reply_has_threads_of_its_own_when_there_are_two() {
        assert_eq!(share_threads(1, 5), vec![(1, vec![0, 1, 2, 3, 4])]);
        assert_eq!(share_threads(2, 5), vec![(1, vec![0]), (1, vec![1, 2, 3, 4])]);
        assert_eq!(share_threads(2, 2), vec![(1, vec![0]), (1, vec![1])]);
        assert_eq!(
            share_threads(4, 5),
            vec![(1, vec![0]), (1, vec![1, 4]), (1, vec![2]), (1, vec![3])]
        );
        assert_eq!(share_threads(8, 3), vec![(3, vec![0]), (3, vec![1]), (2, vec![2])]);
        assert_eq!(share_threads(3, 1), vec![(3, vec![0])]);
    }

    #[test]
    fn mates_compare_beyond_every_evaluation() {
        assert!(score_cp(Score::Mate(3)) > score_cp(Score::Mate(5)));
        assert!(score_cp(Score::Mate(5)) > score_cp(Score::Cp(10_000)));
        assert!(score_cp(Score::Mate(-2)) < score_cp(Score::Mate(-6)));
        assert!(score_cp(Score::Mate(-6)) < score_cp(Score::Cp(-10_000)));
    }
}
