//! The USI options of `tsumugi-mate`: what `usi` lists and what `setoption` changes.
//!
//! `USI_Hash`, `Rules` (`tsume`: the composer's answer, futile interpositions not counted;
//! `pure`: every interposition counts), `DoubleCount`, `NodeLimit` (which limits every search),
//! `Threads` (search threads sharing the table; [`default_threads`]), `DepthLimit` (the deepest ply searched; a
//! search that finds nothing within it answers `checkmate timeout`, never `nomate`) and
//! `TableFile` (a file that keeps the table across runs, see [`crate::table_file`]; empty:
//! none) and `ShorterMatePercent` (what the answer may spend after its first proof, reading the
//! composer's line and looking for a shorter mate, in percent of the first proof; see
//! [`SolverConfig::shorter_mate_percent`]). `USI_Ponder`, which GUIs send whether or not it is listed, is accepted and ignored.

use crate::config::{DoubleCount, Rules, SolverConfig};
use crate::outcome::Limits;
use crate::stack::MAX_PLY;
use std::time::Duration;
use usi::{parse_setoption, Check, Combo, Spin, Text};

/// Bounds of the `USI_Hash` option, in MiB.
pub const HASH_MIN_MB: usize = 1;
pub const HASH_MAX_MB: usize = 65536;
/// Upper bound of the `NodeLimit` option (0 = unlimited).
pub const NODE_LIMIT_MAX: u64 = 1_000_000_000_000;
/// The most search threads `Threads` accepts.
pub const THREADS_MAX: u64 = 1024;

const HASH: Spin = Spin::new("USI_Hash", HASH_MIN_MB as u64, HASH_MAX_MB as u64);
const RULES: Combo = Combo::new("Rules", &Rules::NAMES);
const DOUBLE_COUNT: Combo = Combo::new("DoubleCount", &DoubleCount::NAMES);
const NODE_LIMIT: Spin = Spin::new("NodeLimit", 0, NODE_LIMIT_MAX);
const DEPTH_LIMIT: Spin = Spin::new("DepthLimit", 1, MAX_PLY as u64);
const TABLE_FILE: Text = Text::string("TableFile");
const THREADS: Spin = Spin::new("Threads", 1, THREADS_MAX);
const PONDER: Check = Check::new("USI_Ponder");
const SHORTER_MATE_PERCENT: Spin = Spin::new("ShorterMatePercent", 0, SHORTER_MATE_PERCENT_MAX);
/// The most `ShorterMatePercent` accepts: a hundred first proofs' time.
pub const SHORTER_MATE_PERCENT_MAX: u64 = 10_000;

/// `Threads` until a GUI sets it: as KomoringHeights (and YaneuraOu) start, 4, but never
/// more than the machine's cores (a thread beyond them only takes time from the others).
pub fn default_threads() -> usize {
    crate::cores::available().min(4)
}

/// Everything `setoption` can change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub solver: SolverConfig,
    /// Nodes per search; 0 = unlimited.
    pub node_limit: u64,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            solver: SolverConfig { threads: default_threads(), ..SolverConfig::default() },
            node_limit: 0,
        }
    }
}

impl EngineOptions {
    /// The `option ...` lines of the `usi` answer.
    pub fn usi_option_lines(&self) -> Vec<String> {
        let d = EngineOptions::default();
        vec![
            HASH.line(d.solver.hash_mb as u64),
            RULES.line(d.solver.rules.name()),
            DOUBLE_COUNT.line(d.solver.double_count.name()),
            NODE_LIMIT.line(d.node_limit),
            DEPTH_LIMIT.line(u64::from(d.solver.max_ply)),
            TABLE_FILE.line(),
            THREADS.line(d.solver.threads as u64),
            SHORTER_MATE_PERCENT.line(d.solver.shorter_mate_percent),
        ]
    }

    /// Applies one `setoption` (everything after the word `setoption`). An error changes
    /// nothing.
    pub fn apply_setoption(&mut self, args: &str) -> Result<(), String> {
        let (name, value) = parse_setoption(args)?;
        let value = value.as_deref();
        match name.as_str() {
            n if HASH.is(n) => self.solver.hash_mb = HASH.read(value)? as usize,
            n if RULES.is(n) => {
                // The declared words are exactly the names `from_name` knows.
                self.solver.rules = Rules::from_name(RULES.read(value)?).unwrap_or_default();
            }
            n if DOUBLE_COUNT.is(n) => {
                self.solver.double_count =
                    DoubleCount::from_name(DOUBLE_COUNT.read(value)?).unwrap_or_default();
            }
            n if NODE_LIMIT.is(n) => self.node_limit = NODE_LIMIT.read(value)?,
            n if DEPTH_LIMIT.is(n) => self.solver.max_ply = DEPTH_LIMIT.read(value)? as u16,
            n if THREADS.is(n) => self.solver.threads = THREADS.read(value)? as usize,
            n if SHORTER_MATE_PERCENT.is(n) => {
                self.solver.shorter_mate_percent = SHORTER_MATE_PERCENT.read(value)?
            }
            n if TABLE_FILE.is(n) => {
                self.solver.table_file = TABLE_FILE.read(value).map(Into::into)
            }
            // Sent by GUIs whether or not the engine lists it; there is nothing to ponder.
            n if PONDER.is(n) => {}
            _ => return Err(format!("unknown option {name:?}")),
        }
        Ok(())
    }

    /// The limits of a search given `time`: the time and `NodeLimit`.
    pub fn limits(&self, time: Option<Duration>) -> Limits {
        Limits { time, nodes: (self.node_limit > 0).then_some(self.node_limit) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Threads` starts at 4 or the machine's cores if fewer, and `usi` says so.
    #[test]
    fn threads_default_to_the_machine() {
        let cores = crate::cores::available();
        let o = EngineOptions::default();
        assert_eq!(o.solver.threads, cores.min(4));
        let line = format!("option name Threads type spin default {} min 1 max 1024", cores.min(4));
        assert!(o.usi_option_lines().contains(&line), "{:?}", o.usi_option_lines());
    }

    #[test]
    fn options() {
        let mut o = EngineOptions::default();
        assert_eq!(o.apply_setoption("name USI_Hash value 1024"), Ok(()));
        assert_eq!(o.solver.hash_mb, 1024);
        assert_eq!(o.apply_setoption("name DoubleCount value snda"), Ok(()));
        assert_eq!(o.solver.double_count, DoubleCount::Snda);
        assert_eq!(o.apply_setoption("name NodeLimit value 5000"), Ok(()));
        assert_eq!(o.node_limit, 5000);
        assert_eq!(o.apply_setoption("name USI_Ponder value true"), Ok(()));
        assert_eq!(o.apply_setoption("name DepthLimit value 9"), Ok(()));
        assert_eq!(o.apply_setoption("name Threads value 4"), Ok(()));
        assert_eq!(o.apply_setoption("name ShorterMatePercent value 100"), Ok(()));
        assert_eq!(o.solver.shorter_mate_percent, 100);
        assert_eq!(o.solver.threads, 4);
        assert_eq!(o.solver.rules, Rules::Tsume, "tsume rules by default");
        assert_eq!(o.apply_setoption("name Rules value pure"), Ok(()));
        assert_eq!(o.solver.rules, Rules::Pure);
        assert_eq!(o.solver.max_ply, 9);
        for bad in [
            "name USI_Hash value 0",
            "name USI_Hash value 65537",
            "name USI_Hash value lots",
            "name USI_Hash",
            "name DoubleCount value twice",
            "name NodeLimit value -1",
            "name DepthLimit value 0",
            "name Rules value chess",
            "name DepthLimit value 4001",
            "name Threads value 0",
            "name Threads value 1025",
            "name Threads value many",
            "name ShorterMatePercent value -5",
            "name ShorterMatePercent value 10001",
            "name ShorterMatePercent value all",
            "name",
            "value 3",
            "",
        ] {
            assert!(o.apply_setoption(bad).is_err(), "{bad:?}");
        }
        // Errors leave the settings alone.
        assert_eq!(o.solver.hash_mb, 1024);
        assert_eq!(o.node_limit, 5000);
        assert_eq!(o.solver.shorter_mate_percent, 100);
    }
}
