//! Solver settings a user can change (USI options, batch flags).

/// How children likely to merge into one subtree are aggregated (seed 001).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum DoubleCount {
    /// Plain df-pn: sums over all children.
    Off,
    /// KomoringHeights-style: interpositions on one square, rook/bishop drops along one line
    /// and non-promotions beside promotions count by max inside their group.
    #[default]
    Simple,
    /// SNDA-style: the `simple` groups, plus source-node detection through parent links
    /// stored in the table (a child found to have been reached from another parent has its
    /// parent chain walked up to the current path; the two children through which the routes
    /// leave that ancestor then count by max). The links cost a third of the table's entries.
    Snda,
}

impl DoubleCount {
    pub const NAMES: [&'static str; 3] = ["off", "simple", "snda"];

    pub fn name(self) -> &'static str {
        match self {
            DoubleCount::Off => "off",
            DoubleCount::Simple => "simple",
            DoubleCount::Snda => "snda",
        }
    }

    pub fn from_name(name: &str) -> Option<DoubleCount> {
        match name.to_ascii_lowercase().as_str() {
            "off" => Some(DoubleCount::Off),
            "simple" => Some(DoubleCount::Simple),
            "snda" => Some(DoubleCount::Snda),
            _ => None,
        }
    }
}

/// Which mate the solver answers with.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Rules {
    /// Tsume-shogi rules, as composers publish answers: the attacker mates by the shortest
    /// line, the defender resists longest, and futile interpositions (無駄合) do not count
    /// (see `search/futility.rs` for the rule).
    #[default]
    Tsume,
    /// Every legal evasion counts, interpositions included.
    Pure,
}

impl Rules {
    pub const NAMES: [&'static str; 2] = ["tsume", "pure"];

    pub fn name(self) -> &'static str {
        match self {
            Rules::Tsume => "tsume",
            Rules::Pure => "pure",
        }
    }

    pub fn from_name(name: &str) -> Option<Rules> {
        match name.to_ascii_lowercase().as_str() {
            "tsume" => Some(Rules::Tsume),
            "pure" => Some(Rules::Pure),
            _ => None,
        }
    }
}

/// The default of [`SolverConfig::shorter_mate_percent`]: the answer within about 1.25 times
/// the first proof's time.
pub const DEFAULT_SHORTER_MATE_PERCENT: u64 = 25;
/// [`SolverConfig::shorter_mate_percent`] of the composer's report's own solve: the line it
/// judges the problem by is worth more time than an answer's, and its questions come after.
pub const REPORT_SHORTER_MATE_PERCENT: u64 = 100;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// Transposition table size in MiB (USI_Hash).
    pub hash_mb: usize,
    pub double_count: DoubleCount,
    pub rules: Rules,
    /// Report the first mate proven instead of searching on for the shortest one.
    pub any_mate: bool,
    /// The deepest ply searched: a branch that reaches it ends there (no mate within it), and
    /// a search that found nothing but such ends answers "timeout", never "no mate".
    pub max_ply: u16,
    /// Keep the table's entries in this file (memory-mapped), so that they outlive the process
    /// (`--table-file`, USI `TableFile`); `None`: in memory. See [`crate::table_file`].
    pub table_file: Option<std::path::PathBuf>,
    /// Search threads sharing the table (USI `Threads`, `--threads`): the main thread and
    /// `threads - 1` helpers during the first proof (see `search::run_helpers`).
    pub threads: usize,
    /// Count where the first proof's expansions go (`solve --profile`, see
    /// `search::profile`): a diagnostic that costs memory, off by default.
    pub profile: bool,
    /// With `profile`: the first expansions of the first proof to keep in order (`solve
    /// --trace N`, see `search::profile::Trace`); 0: none.
    pub trace: usize,
    /// Under tsume rules, of the checks that mate as soon at a node of the main line, the line
    /// takes the first in the order of the moves, asking each check before it whether it does
    /// (the composer's report, so that the line does not depend on what the table held; see
    /// `search::main_line::RefineBudget::ties`). Off: the first the table held a proof of.
    pub lines_in_order: bool,
    /// The question is expected to answer "no mate" (the composer's report asking whether
    /// another check mates): an OR node's disproof number is the sum of its checks' (each
    /// must be refuted) instead of the largest plus one for each other, so that a defence is
    /// chosen by what it needs to hold against every check. Off in every solve and in the
    /// report: measured on the first moves of eleven hard 将棋図巧 (`examples/other_checks.rs`,
    /// benches/history/39), 27 questions left open at 8 M nodes each against 26 without it.
    pub expect_no: bool,
    /// A root the table already proves is refined with the budget of one just proven (the
    /// report's question about a check that its joint question found to mate: asked for the
    /// first time, its proof already in the table). Off: such a root (a question asked again,
    /// a table file) gets the small budget of a root recalled.
    pub refine_recalled: bool,
    /// What the main line (tsume rules) may spend after the first proof, reading the line
    /// from the proof and looking for shorter mates, as a percentage of the first proof's
    /// nodes (at least a floor of its own: see `search::AFTER_PROOF_FLOOR`). USI
    /// `ShorterMatePercent`, `--shorter-mate-percent`.
    pub shorter_mate_percent: u64,
    /// With `profile`: another solver's proof tree of the problem, to count where the first
    /// proof's expansions leave it (`solve --proof-reference`, see
    /// `search::reference_proof`).
    pub profile_reference: Option<crate::search::reference_proof::ReferenceHandle>,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            hash_mb: 256,
            double_count: DoubleCount::default(),
            rules: Rules::default(),
            any_mate: false,
            max_ply: crate::stack::MAX_PLY,
            table_file: None,
            threads: 1,
            profile: false,
            trace: 0,
            lines_in_order: false,
            expect_no: false,
            refine_recalled: false,
            shorter_mate_percent: DEFAULT_SHORTER_MATE_PERCENT,
            profile_reference: None,
        }
    }
}
