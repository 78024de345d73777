//! What a search is asked (limits) and what it answers.

use shogi::Move;
use std::time::Duration;

/// Limits of one search; `None` means unlimited.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A mate: the moves from the root, attacker first (defender first when the root is an
    /// AND node), ending in checkmate.
    Mate(Vec<Move>),
    /// Proven: no mate.
    NoMate,
    /// A limit was reached or the search was stopped before an answer.
    Timeout,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    pub outcome: Outcome,
    /// Child positions made, by every thread.
    pub nodes: u64,
    pub elapsed: Duration,
    /// The answer is a timeout because every line the search could not settle ended at the
    /// depth limit (`SolverConfig::max_ply`): no mate within it, perhaps one beyond.
    pub depth_limited: bool,
    /// With `depth_limited`: the plies from the root within which no mate is proven, the
    /// depth the root's disproof holds for (at least the limit asked, more where the lines
    /// that settled it end short of it); 0 otherwise.
    pub no_mate_within: u16,
    /// For a mate: the line is the main line under the rules in force (the defender's longest
    /// resistance against the shortest mates found), not merely one line of the proof.
    pub main_line: bool,
    /// For a mate: no shorter mate exists (every question about one was settled).
    pub proven_shortest: bool,
    /// Nodes expanded by every thread (the count shtsume and KomoringHeights report); `nodes`
    /// counts every child position made.
    pub expansions: u64,
    /// When the parts of the answer were done.
    pub phases: Phases,
    /// The phase a limit or `stop` cut short, if one did: the answer is then the best the
    /// solve had (see [`Phase`]).
    pub cut: Option<Phase>,
}

/// The phases of a solve, in order. A limit or `stop` may end any of them; the answer is then
/// what the phases before gave: nothing before the first proof, the first proof's line while
/// the main line is built, the main line of the mates found after that.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// Proving that a mate exists.
    FirstProof,
    /// Reading the first proof's line from the table (the answer if nothing later finishes).
    ProofLine,
    /// Building the main line from the proven positions (tsume rules).
    MainLine,
    /// Asking the main line's checks for shorter mates (tsume rules).
    Refinement,
    /// Asking the root for a shorter mate under pure rules (tsume rules).
    PureBound,
    /// The rounds of pure rules' shortest mate and its exact line.
    ShortestPure,
}

impl Phase {
    pub const COUNT: usize = 6;
    pub const ALL: [Phase; Phase::COUNT] = [
        Phase::FirstProof,
        Phase::ProofLine,
        Phase::MainLine,
        Phase::Refinement,
        Phase::PureBound,
        Phase::ShortestPure,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// How an `info string` or a result line names it.
    pub fn describe(self) -> &'static str {
        match self {
            Phase::FirstProof => "the first proof",
            Phase::ProofLine => "reading the first proof's line",
            Phase::MainLine => "building the main line",
            Phase::Refinement => "looking for shorter mates",
            Phase::PureBound => "the pure-rule bound",
            Phase::ShortestPure => "the shortest pure-rule mate",
        }
    }
}

/// When the parts of an answer were done, each as (time since the start, nodes of every
/// thread): the first proof, and the final main line (tsume rules). What follows the final
/// line, up to `elapsed`, is the proof that no shorter mate is left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Phases {
    pub first_proof: (Duration, u64),
    /// `None` without a main line.
    pub final_line: Option<(Duration, u64)>,
    /// When each phase was first entered (time since the start), by [`Phase::index`].
    pub entered: [Option<Duration>; Phase::COUNT],
}

impl Phases {
    /// When `phase` was first entered, if it was.
    pub fn entered(&self, phase: Phase) -> Option<Duration> {
        self.entered[phase.index()]
    }

    /// The same phases, counted from `elapsed` and `nodes` before the solve began.
    fn after(self, elapsed: Duration, nodes: u64) -> Phases {
        let later = |(t, n): (Duration, u64)| (t + elapsed, n + nodes);
        Phases {
            first_proof: later(self.first_proof),
            final_line: self.final_line.map(later),
            entered: self.entered.map(|e| e.map(|t| t + elapsed)),
        }
    }
}

impl SolveResult {
    /// This result counted from the start of `before`, a solve that came first and whose
    /// answer it replaces: its nodes, expansions and time added, its phases after them.
    pub(crate) fn count_from(&mut self, before: &SolveResult) {
        self.nodes += before.nodes;
        self.expansions += before.expansions;
        self.phases = self.phases.after(before.elapsed, before.nodes);
        self.elapsed += before.elapsed;
    }

    /// A search that gave no answer (a limit, or a failure) after `nodes` and `elapsed`.
    pub fn timeout(nodes: u64, elapsed: Duration) -> SolveResult {
        SolveResult {
            outcome: Outcome::Timeout,
            nodes,
            elapsed,
            depth_limited: false,
            no_mate_within: 0,
            main_line: false,
            proven_shortest: false,
            expansions: 0,
            phases: Phases::default(),
            cut: None,
        }
    }
}

/// Reported periodically during a search (for USI `info` lines and progress bars).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub nodes: u64,
    pub elapsed: Duration,
    /// Table fill in permille, as USI `hashfull`.
    pub hashfull: u32,
    pub root_pn: u32,
    pub root_dn: u32,
    /// Once a mate is proven and its main line is being refined (tsume rules): the main line
    /// known so far, a mate within its length, reported each time it changes (shorter ones
    /// may still be found). `None` in the periodic reports.
    pub mate: Option<Vec<Move>>,
    /// A report made as the search first enters a phase after the first proof (see
    /// [`Phase`]): what it is doing now. `None` in the periodic reports.
    pub began: Option<Phase>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solve that replaces an earlier one's answer (see `search::solve_on`) counts from the
    /// earlier one's start: its nodes, expansions and time added, its phases after them.
    #[test]
    fn a_result_counted_from_an_earlier_solve() {
        let ms = Duration::from_millis;
        let mut before = SolveResult::timeout(1_000, ms(30));
        before.expansions = 100;
        let mut after = SolveResult::timeout(500, ms(20));
        after.expansions = 40;
        after.phases.first_proof = (ms(5), 200);
        after.phases.final_line = Some((ms(8), 300));
        after.phases.entered[Phase::MainLine.index()] = Some(ms(6));
        after.count_from(&before);
        assert_eq!((after.nodes, after.expansions, after.elapsed), (1_500, 140, ms(50)));
        assert_eq!(after.phases.first_proof, (ms(35), 1_200));
        assert_eq!(after.phases.final_line, Some((ms(38), 1_300)));
        assert_eq!(after.phases.entered(Phase::MainLine), Some(ms(36)));
    }
}
