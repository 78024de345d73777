//! Options of `tsumugi-mate solve`.

use crate::config::{DoubleCount, Rules, SolverConfig};
use std::path::PathBuf;

/// Options of `tsumugi-mate solve`.
#[derive(clap::Args, Clone, Debug)]
pub struct SolveArgs {
    /// Problem files: `<sfen> # <id> <answer>` lines, plain SFEN, `sfen ...` or `position ...`.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Time limit per problem in milliseconds (0 = none).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub time_ms: u64,
    /// Node limit per problem (0 = none).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub nodes: u64,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = SolverConfig::default().hash_mb,
          value_parser = parse_hash)]
    pub hash: usize,
    /// How children likely to share a subtree are counted: off, simple or snda.
    #[arg(long, value_name = "MODE", default_value = "simple", value_parser = parse_double_count)]
    pub double_count: DoubleCount,
    /// Which mate is the answer: `tsume` (tsume-shogi rules: futile interpositions do not
    /// count) or `pure` (every interposition counts).
    #[arg(long, value_name = "RULES", default_value = "tsume", value_parser = parse_rules)]
    pub rules: Rules,
    /// Report the first mate found, not the main line (faster; the line is one line of the
    /// proof, in which the defender need not resist longest).
    #[arg(long)]
    pub any_mate: bool,
    /// The deepest ply searched; a problem with no mate found within it is a timeout.
    #[arg(long, value_name = "PLIES", default_value_t = crate::stack::MAX_PLY,
          value_parser = clap::value_parser!(u16).range(1..=crate::stack::MAX_PLY as i64))]
    pub depth_limit: u16,
    /// Print a JSON report on stdout instead of result lines.
    #[arg(long, conflicts_with = "jsonl")]
    pub json: bool,
    /// Print one JSON object per problem on stdout as it is answered (in file order), instead
    /// of result lines; the summary goes to stderr. Outputs of shards merge by concatenation.
    #[arg(long)]
    pub jsonl: bool,
    /// Problems solved at once, each on its own thread with its share of `--hash`
    /// (default: one per core). Results are printed in file order.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    /// Search threads per problem, sharing its table (helpers beside the main thread in every
    /// phase). Default: the cores the jobs leave spare, shared among them (a file with fewer
    /// problems than cores gives each problem several threads).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Solve only shard K of N: the K-th of every N problems (K from 1), so that N processes
    /// (a Slurm job array, GNU parallel) share a file. Bad lines are reported by their shard.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// What the answer may spend after its first proof (tsume rules), reading the composer's
    /// line from the proof and looking for a shorter mate, in percent of the first proof's
    /// nodes (at least 300,000 nodes): the answer within about 1.25 times the first proof's
    /// time by default (100 with `--report`, as the report's own solve). More finds shorter
    /// mates more often and proves more lines shortest.
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub shorter_mate_percent: Option<u64>,
    /// After each problem, the composer's report too (as `tsumugi-mate report`: cooks,
    /// variations, pieces left in hand, the intended line), with the table of its solve.
    #[arg(long)]
    pub report: bool,
    /// Compare with the answers; exit 1 on any mismatch or bad line.
    #[arg(long)]
    pub check: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Also write `<id> <moves>` / `<id> nomate` / `<id> timeout` lines to this file (the
    /// format of `../shared/tools/usi_mate_batch.py --out`, read by `verify_mates.py`).
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Keep the transposition table in this file (memory-mapped) and reuse it: an interrupted
    /// run resumes, a collection solved again reuses what it learnt. The table is kept across
    /// problems (not cleared) and flushed after each one. A missing file is created with the
    /// `--hash` size; an existing file keeps its own size. A file of other rules, keys or
    /// format, or a damaged one, is refused (exit 1). One file per `--rules` setting; one job.
    #[arg(long, value_name = "PATH")]
    pub table_file: Option<PathBuf>,
    /// Count where each first proof's expansions go, by ply and by kind of node (expanded
    /// again, interpositions, drops, futility tests), into `<DIR>/<id>.tsv` (bands of 10
    /// plies) and one summary line per problem on stderr. A diagnostic: it keeps every position
    /// expanded in memory.
    #[arg(long, value_name = "DIR")]
    pub profile: Option<PathBuf>,
    /// With `--profile`: another solver's proof trees, `<DIR>/<id>.proof` (see
    /// `solver::search::reference_proof` for the format). For each problem that has one, the
    /// first proof's expansions are counted by where their path left that tree, into
    /// `<profile DIR>/<id>.off-proof.tsv` (the 40 places with the most) and one line on stderr.
    #[arg(long, value_name = "DIR", requires = "profile")]
    pub proof_reference: Option<PathBuf>,
    /// With `--profile`: the first N expansions of each first proof in order, into
    /// `<DIR>/<id>.trace` (`seq ply OR|AND sfen th_pn th_dn pn dn before, pn dn after,
    /// again`), to walk beside another solver's traced in the same form.
    #[arg(long, value_name = "N", requires = "profile", default_value_t = 0)]
    pub trace: usize,
}

/// `--shard K/N`: the problems whose index (from 0, over all files) is K − 1 modulo N.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K − 1.
    pub index: usize,
    /// N.
    pub count: usize,
}

impl Shard {
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard {text:?}: expected K/N with 1 <= K <= N, e.g. 3/8");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) =
            (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { index: k - 1, count: n })
    }

    /// Whether the problem with this index belongs to the shard.
    pub fn takes(&self, index: usize) -> bool {
        index % self.count == self.index
    }
}

/// The number of jobs when `--jobs` is not given: one per core.
pub fn default_jobs() -> usize {
    crate::cores::available()
}

/// The threads each of `jobs` jobs gets by default: the cores shared among them.
pub fn default_threads(jobs: usize) -> usize {
    (default_jobs() / jobs.max(1)).max(1)
}

fn parse_double_count(text: &str) -> Result<DoubleCount, String> {
    DoubleCount::from_name(text)
        .ok_or_else(|| format!("expected one of {}", DoubleCount::NAMES.join(", ")))
}

fn parse_rules(text: &str) -> Result<Rules, String> {
    Rules::from_name(text).ok_or_else(|| format!("expected one of {}", Rules::NAMES.join(", ")))
}

fn parse_hash(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(mb) if (1..=65536).contains(&mb) => Ok(mb),
        _ => Err("expected a size in MiB between 1 and 65536".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spare cores go to the problems as threads: one job gets them all, as many jobs as
    /// cores one each, never none.
    #[test]
    fn threads_share_the_cores_the_jobs_leave() {
        let cores = default_jobs();
        assert_eq!(default_threads(1), cores);
        assert_eq!(default_threads(cores), 1);
        assert_eq!(default_threads(cores * 3), 1);
        assert_eq!(default_threads(0), cores);
    }

    #[test]
    fn shards() {
        assert_eq!(Shard::parse("1/2"), Ok(Shard { index: 0, count: 2 }));
        assert_eq!(Shard::parse("8/8"), Ok(Shard { index: 7, count: 8 }));
        for bad in ["0/2", "3/2", "1/0", "1", "a/b", "1/2/3", "", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad:?}");
        }
        // Every index belongs to exactly one shard of N.
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { index: k - 1, count: 3 }).collect();
        for i in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.takes(i)).count(), 1, "{i}");
        }
        assert!(shards[0].takes(0) && shards[1].takes(4) && shards[2].takes(8));
    }
}
