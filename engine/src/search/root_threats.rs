//! The solver's eye on our own king at the root (詰めろ): the move the search would play is
//! asked whether it lets the opponent mate, and set aside if it does.
//!
//! In a mating race the alpha-beta search at a fraction of a second sees the opponent's mate
//! only a few plies deep; a df-pn search of the position after our move, with the opponent
//! attacking, sees much further for a few milliseconds (some positions of the race suite,
//! `benches/race_suite.tsv`, are moves of ours that allowed a mate). The probe runs on the main
//! thread after each completed iteration, for the best move only, once per move and search; a
//! move it proves mated is removed from the root moves (never the last one), and the helpers
//! leave it out from their next iteration. Off by default (`oracle_threat_nodes` 0): against
//! YaneuraOu level 9 it has not paid for its time yet.

use crate::params::Params;
use crate::search::alpha_beta::RootMove;
use crate::search::oracle::Oracle;
use parking_lot::Mutex;
use shogi::{Move, Position};
use std::time::Duration;

/// Probes one search may make after one iteration: a best move set aside makes the next one
/// best, which is probed in turn.
const PROBES_PER_ITERATION: usize = 3;

/// The root's threat probes of one search (main thread).
#[derive(Default)]
pub struct RootThreats {
    /// Moves already probed in this search (each is probed once).
    probed: Vec<Move>,
    /// Moves set aside because the opponent mates after them.
    pub set_aside: u64,
    /// Probes made.
    pub probes: u64,
}

impl RootThreats {
    /// Probes the best root move (`root_moves[0]` of `pos`) unless already done; while the
    /// opponent is proven to mate after it, sets it aside (into `shared`) and probes the next.
    /// `time_left` says how long a probe may take (`None`: no limit; zero: no probe).
    /// Returns the moves set aside now.
    pub fn check_best(
        &mut self,
        pos: &Position,
        root_moves: &mut Vec<RootMove>,
        oracle: &mut Oracle,
        params: &Params,
        shared: &SetAside,
        time_left: &dyn Fn() -> Option<Duration>,
    ) -> Vec<Move> {
        let mut removed = Vec::new();
        let nodes = params.oracle_threat_nodes;
        if nodes <= 0 {
            return removed;
        }
        for _ in 0..PROBES_PER_ITERATION {
            let Some(best) = root_moves.first().map(|rm| rm.mv) else { break };
            if root_moves.len() <= 1 || self.probed.contains(&best) {
                break;
            }
            let time = time_left();
            if time.is_some_and(|t| t.is_zero()) {
                break;
            }
            self.probed.push(best);
            self.probes += 1;
            if oracle.threat_after(pos, best, nodes as u64, time, params).is_none() {
                break;
            }
            root_moves.remove(0);
            shared.add(best);
            self.set_aside += 1;
            removed.push(best);
        }
        removed
    }
}

/// The root moves every thread leaves out (proven to let the opponent mate).
#[derive(Default)]
pub struct SetAside(Mutex<Vec<Move>>);

impl SetAside {
    pub fn add(&self, mv: Move) {
        self.0.lock().push(mv);
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.0.lock().contains(&mv)
    }

    /// Leaves out of `root_moves` the moves set aside, keeping at least one.
    pub fn leave_out(&self, root_moves: &mut Vec<RootMove>) {
        let set_aside = self.0.lock();
        if set_aside.is_empty() {
            return;
        }
        let mut k = 0;
        while k < root_moves.len() && root_moves.len() > 1 {
            if set_aside.contains(&root_moves[k].mv) {
                root_moves.remove(k);
            } else {
                k += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root_moves(pos: &Position, usi: &[&str]) -> Vec<RootMove> {
        usi.iter()
            .map(|m| {
                let mv = pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
                RootMove { mv, score: 0, previous_score: 0, pv: vec![mv], seldepth: 0 }
            })
            .collect()
    }

    fn no_clock() -> Option<Duration> {
        None
    }

    fn position(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
    }

    /// Black's gold on 2i guards 1h against △１八金打, which the knight on 2f would protect:
    /// the gold stepping away (▲３八金) lets White mate at once, the pawn move does not.
    #[test]
    fn a_move_that_allows_a_mate_is_set_aside_and_the_next_is_kept() {
        let pos = position("k8/9/9/9/9/7n1/P8/9/7GK b g 1");
        let params = Params { oracle_threat_nodes: 10_000, ..Params::default() };
        let (mut oracle, shared) = (Oracle::new(), SetAside::default());
        let mut threats = RootThreats::default();
        let mut moves = root_moves(&pos, &["2i3h", "9g9f"]);
        let removed =
            threats.check_best(&pos, &mut moves, &mut oracle, &params, &shared, &no_clock);
        let gold_away = pos.parse_usi_move("2i3h").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(removed, vec![gold_away]);
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].mv.to_string(), "9g9f");
        assert!(shared.contains(gold_away));
        // The pawn move, left alone, is not probed: the last move is never set aside.
        assert_eq!((threats.probes, threats.set_aside), (1, 1));
        // Each move is probed once a search.
        let mut again = root_moves(&pos, &["9g9f", "2i3h"]);
        assert!(threats
            .check_best(&pos, &mut again, &mut oracle, &params, &shared, &no_clock)
            .is_empty());
        assert!(threats
            .check_best(&pos, &mut again, &mut oracle, &params, &shared, &no_clock)
            .is_empty());
        assert_eq!((threats.probes, again.len()), (2, 2));
        // A helper's list loses the move too.
        let mut helper = root_moves(&pos, &["9g9f", "2i3h"]);
        shared.leave_out(&mut helper);
        assert_eq!(helper.len(), 1);
        assert_eq!(helper[0].mv.to_string(), "9g9f");
        // Off: nothing probed.
        let off = Params { oracle_threat_nodes: 0, ..Params::default() };
        let mut moves = root_moves(&pos, &["2i3h", "9g9f"]);
        let mut fresh = RootThreats::default();
        assert!(fresh
            .check_best(&pos, &mut moves, &mut oracle, &off, &shared, &no_clock)
            .is_empty());
        assert_eq!((fresh.probes, moves.len()), (0, 2));
        // No time left: nothing probed.
        let spent = || Some(Duration::ZERO);
        assert!(fresh
            .check_best(&pos, &mut moves, &mut oracle, &params, &shared, &spent)
            .is_empty());
        assert_eq!((fresh.probes, moves.len()), (0, 2));
    }

    /// The last root move stays, mated or not.
    #[test]
    fn the_only_move_is_kept() {
        let pos = position("k8/9/9/9/9/7n1/P8/9/7GK b g 1");
        let (mut oracle, shared) = (Oracle::new(), SetAside::default());
        let mut moves = root_moves(&pos, &["2i3h"]);
        let mut threats = RootThreats::default();
        let params = Params { oracle_threat_nodes: 10_000, ..Params::default() };
        let removed =
            threats.check_best(&pos, &mut moves, &mut oracle, &params, &shared, &no_clock);
        assert!(removed.is_empty() && moves.len() == 1 && threats.probes == 0);
    }
}
