//! A sample's fitness: its score in games against a fixed reference (our defaults, a
//! parameters file, or an external USI engine), each opening played twice with colours
//! swapped, at a fixed node count per move: cheap, and free of the clock's noise, so that a
//! sample's games are the same on every run (single-threaded players, fresh tables).
//!
//! Every sample of a generation plays the same openings, so that the samples are compared on
//! equal terms; each generation takes the next openings of a shuffled order.

use crate::matches::elo::Wdl;
use crate::matches::game::GameClock;
use crate::matches::internal_player::InternalSpec;
use crate::matches::openings::Opening;
use crate::matches::runner::{run_match, MatchConfig, PlayerSpec};
use crate::params::Params;
use crate::search::report::SearchLimits;
use crate::time_manager::TimeSettings;

/// How the games of a sample are played.
#[derive(Clone, Debug)]
pub struct GamePlan {
    pub reference: PlayerSpec,
    /// The openings, in the order generations take them.
    pub openings: Vec<Opening>,
    /// Games per sample (an even number: pairs of colours).
    pub games: usize,
    pub nodes: u64,
    pub hash_mb: usize,
    pub concurrency: usize,
    pub max_plies: u32,
}

/// A sample's games: its score (wins plus half the draws, over the games) and the tally.
pub struct Measured {
    pub score: f64,
    pub wdl: Wdl,
}

impl GamePlan {
    /// The in-process player with `params`.
    pub fn player(params: &Params, name: &str, hash_mb: usize) -> PlayerSpec {
        PlayerSpec::Internal(InternalSpec {
            name: name.to_owned(),
            params: Box::new(params.clone()),
            hash_mb,
            threads: 1,
            settings: TimeSettings { network_delay_ms: 0, minimum_thinking_ms: 0, lateness_ms: 0 },
            ponder: None,
            book: None,
            book_policy: Default::default(),
            eval: crate::eval::choice::EvalChoice::default(),
            turns: false,
        })
    }

    /// The openings of generation `generation` (0-based): the next `games / 2` of the list,
    /// wrapping around.
    pub fn openings_of(&self, generation: usize) -> Vec<Opening> {
        let pairs = (self.games / 2).max(1);
        let n = self.openings.len().max(1);
        (0..pairs)
            .map(|i| {
                self.openings
                    .get((generation * pairs + i) % n)
                    .cloned()
                    .unwrap_or_else(Opening::startpos)
            })
            .collect()
    }

    /// Plays the sample `params` against the reference in generation `generation`.
    pub fn measure(&self, params: &Params, generation: usize) -> Result<Measured, String> {
        let config = MatchConfig {
            a: GamePlan::player(params, "sample", self.hash_mb),
            b: self.reference.clone(),
            games: self.games,
            openings: self.openings_of(generation),
            clock: GameClock {
                main_ms: None,
                inc_ms: 0,
                byoyomi_ms: 0,
                tolerance_ms: 0,
                untimed_limit_ms: crate::matches::args::UNTIMED_LIMIT_MS,
            },
            limits: SearchLimits { depth: None, nodes: Some(self.nodes), multipv: 1 },
            max_plies: self.max_plies,
            concurrency: self.concurrency.max(1),
            record: None,
            progress: false,
        };
        let (summary, _) = run_match(&config)?;
        let wdl = summary.a;
        Ok(Measured { score: wdl.score(), wdl })
    }
}
