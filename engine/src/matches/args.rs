//! The command line of `tsumugi match` and its translation into a [`MatchConfig`].

use crate::book::{Book, BookPolicy};
use crate::eval::choice::EvalChoice;
use crate::matches::external_engine::ExternalSpec;
use crate::matches::game::GameClock;
use crate::matches::internal_player::InternalSpec;
use crate::matches::openings::{read_openings, Opening};
use crate::matches::runner::{pick_openings, run_match, MatchConfig, PlayerSpec};
use crate::params::Params;
use crate::search::ponder::PonderSettings;
use crate::search::report::SearchLimits;
use crate::time_manager::TimeSettings;
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The opening file of the project, read from `../shared` at run time (never copied).
pub const SHARED_OPENINGS: &str = "shared/problems/engine_opening_positions.sfen";
/// Without a clock, a player silent this long loses.
pub const UNTIMED_LIMIT_MS: u64 = 60_000;
/// The time per move when no time, depth or node limit is given.
pub const DEFAULT_MOVETIME_MS: u64 = 200;

#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// A parameter of player A (repeatable): `--a soppo_mode=1`.
    #[arg(long = "a", value_name = "NAME=VALUE")]
    pub a: Vec<String>,
    /// A parameters file for player A (applied before `--a`).
    #[arg(long, value_name = "FILE")]
    pub a_params: Option<PathBuf>,
    /// Search threads of player A (Lazy SMP).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub a_threads: u16,
    /// Player A thinks on the opponent's time (USI ponder), searching this many predicted
    /// replies (1: classic ponder; the seed's 5 when no number is given).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "5",
          value_parser = clap::value_parser!(u8).range(1..=8))]
    pub a_ponder: Option<u8>,
    /// A parameter of player B (repeatable).
    #[arg(long = "b", value_name = "NAME=VALUE")]
    pub b: Vec<String>,
    /// A parameters file for player B.
    #[arg(long, value_name = "FILE")]
    pub b_params: Option<PathBuf>,
    /// Search threads of player B (Lazy SMP).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub b_threads: u16,
    /// Player B ponders, as `--a-ponder`; an external engine gets `USI_Ponder` and `go ponder`
    /// on the reply it names in `bestmove ... ponder ...` (N does not apply).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "5",
          value_parser = clap::value_parser!(u8).range(1..=8))]
    pub b_ponder: Option<u8>,
    /// Player A evaluates with this file: linear weights (`tsumugi learn fit`, or `learnt` /
    /// `hand-set` for the built-in sets) or a network (`tsumugi learn net`, or `network` for
    /// the built-in one); default: the engine's default evaluation.
    #[arg(long, value_name = "FILE")]
    pub a_weights: Option<PathBuf>,
    /// Player B (in-process) evaluates with this weights or network file.
    #[arg(long, value_name = "FILE")]
    pub b_weights: Option<PathBuf>,
    /// Player A plays from this opening book (YaneuraOu text format) while it has the position.
    #[arg(long, value_name = "BOOK")]
    pub a_book: Option<PathBuf>,
    /// Player B (in-process) plays from this opening book.
    #[arg(long, value_name = "BOOK")]
    pub b_book: Option<PathBuf>,
    /// Book positions past this move number are not used (`BookMaxPly`).
    #[arg(long, value_name = "PLY", default_value_t = BookPolicy::default().max_ply)]
    pub book_max_ply: u32,
    /// Replies worse than the best by more than this (centipawns) are not pondered on (USI
    /// `PonderMarginCp`), for both in-process players.
    #[arg(long, value_name = "CP", default_value_t = 300)]
    pub ponder_margin_cp: i32,
    /// Player B is this external USI engine instead of Tsumugi.
    #[arg(long, value_name = "PATH")]
    pub external: Option<PathBuf>,
    /// An argument for the external engine's command line (repeatable).
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    pub external_arg: Vec<String>,
    /// A USI option for the external engine (repeatable): `--external-option USI_Hash=64`.
    #[arg(long, value_name = "NAME=VALUE")]
    pub external_option: Vec<String>,
    /// Opening positions (SFEN or `position` lines), or `startpos`. Default: the project's
    /// `../shared/problems/engine_opening_positions.sfen` when present, else the start position.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Start at this opening of the file (0-based).
    #[arg(long, default_value_t = 0)]
    pub opening_start: usize,
    /// Shuffle the openings with this seed.
    #[arg(long)]
    pub shuffle: Option<u64>,
    /// Time per move (as byoyomi, with no main time). The default when no time, depth or node
    /// limit is given: 200.
    #[arg(long, value_name = "MS", conflicts_with_all = ["time_ms", "inc_ms", "byoyomi_ms"])]
    pub movetime_ms: Option<u64>,
    /// Main time per side.
    #[arg(long, value_name = "MS")]
    pub time_ms: Option<u64>,
    /// Fischer increment per move.
    #[arg(long, value_name = "MS")]
    pub inc_ms: Option<u64>,
    /// Byoyomi per move.
    #[arg(long, value_name = "MS")]
    pub byoyomi_ms: Option<u64>,
    /// Node limit per search.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// With `--nodes`: the players take turns on the machine. A pondering player's ponder
    /// search gets the same node budget and runs right after its own move, before the
    /// opponent searches, so that no side's thinking overlaps the other's (seed 002 judged
    /// without one side stealing the other's core).
    #[arg(long, requires = "nodes")]
    pub turns: bool,
    /// With `--turns`: a reply searched while pondering is searched again with the move's
    /// whole budget from the warm table instead of answered at once (no answer at once can
    /// save nodes for later moves in a node-budget match).
    #[arg(long, requires = "turns")]
    pub hits_continue: bool,
    /// Depth limit per search.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Games reaching this many plies (after the opening) are draws.
    #[arg(long, default_value_t = 320)]
    pub max_plies: u32,
    /// Games played at the same time (each with its own engines).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Hash (MiB) of each in-process engine.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Network delay (ms) the in-process engines keep back from their time (there is no
    /// network in-process; the time manager keeps a small safety margin anyway).
    #[arg(long, default_value_t = 0)]
    pub delay_ms: u64,
    /// A move this much later than allowed still counts.
    #[arg(long, default_value_t = 100)]
    pub tolerance_ms: u64,
    /// Write every game (comment line, `position ... moves ...`, final SFEN) to this file.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// No progress line per game on stderr.
    #[arg(long)]
    pub quiet: bool,
}

pub fn split_pair(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() => Ok((n.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("{text:?} is not NAME=VALUE")),
    }
}

/// Parameters from a file and `NAME=VALUE` settings.
pub fn params_from(file: Option<&Path>, settings: &[String]) -> Result<Params, String> {
    let mut p = Params::default();
    if let Some(f) = file {
        p.load(f).map_err(|e| e.to_string())?;
    }
    for s in settings {
        let (name, value) = split_pair(s)?;
        p.set_text(&name, &value).map_err(|e| e.to_string())?;
    }
    Ok(p)
}

/// `tsumugi[soppo_mode=1]`: the parameters that differ from the defaults, the threads when
/// more than one, and the ponder (`ponder=5`, 5 candidates; `ponder=1`, classic).
pub fn internal_name(p: &Params, threads: usize, ponder: Option<&PonderSettings>) -> String {
    let d = Params::default();
    let mut diff: Vec<String> = Params::SPECS
        .iter()
        .filter(|s| p.get(s.name) != d.get(s.name))
        .map(|s| format!("{}={}", s.name, p.get(s.name).unwrap_or(s.default)))
        .collect();
    if threads > 1 {
        diff.push(format!("threads={threads}"));
    }
    if let Some(s) = ponder {
        diff.push(format!("ponder={}", s.candidates));
        if s.hits_continue {
            diff.push("hits-continue".to_string());
        }
    }
    if diff.is_empty() {
        "tsumugi".to_string()
    } else {
        format!("tsumugi[{}]", diff.join(","))
    }
}

/// A book for a player; a malformed line is reported on stderr and skipped.
fn read_book(path: &Path) -> Result<Arc<Book>, String> {
    let (book, errors) = Book::load(path)?;
    for e in &errors {
        eprintln!("{}: {e} (skipped)", path.display());
    }
    Ok(Arc::new(book))
}

pub fn default_openings() -> Option<PathBuf> {
    let candidates = [
        PathBuf::from("..").join(SHARED_OPENINGS),
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(SHARED_OPENINGS),
    ];
    candidates.into_iter().find(|p| p.is_file())
}

impl MatchArgs {
    pub fn to_config(&self) -> Result<MatchConfig, String> {
        if self.games == 0 {
            return Err("--games must be at least 1".to_string());
        }
        let settings = TimeSettings {
            network_delay_ms: self.delay_ms,
            minimum_thinking_ms: 0,
            lateness_ms: 0,
        };
        let internal = |file: Option<&PathBuf>,
                        set: &[String],
                        threads: u16,
                        ponder: Option<u8>,
                        book_file: Option<&PathBuf>,
                        weights_file: Option<&PathBuf>|
         -> Result<PlayerSpec, String> {
            let book = book_file.map(|path| read_book(path)).transpose()?;
            let eval = match weights_file {
                Some(path) => EvalChoice::load(path)?,
                None => EvalChoice::default(),
            };
            let params = params_from(file.map(PathBuf::as_path), set)?;
            let threads = usize::from(threads);
            let ponder = ponder.map(|n| PonderSettings {
                candidates: usize::from(n),
                margin_cp: self.ponder_margin_cp,
                hits_continue: self.hits_continue,
            });
            let mut name = internal_name(&params, threads, ponder.as_ref());
            for (what, file) in [("book", book_file), ("weights", weights_file)] {
                let Some(path) = file else { continue };
                let stem =
                    path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                name = match name.strip_suffix(']') {
                    Some(open) => format!("{open},{what}={stem}]"),
                    None => format!("{name}[{what}={stem}]"),
                };
            }
            Ok(PlayerSpec::Internal(InternalSpec {
                name,
                params: Box::new(params),
                hash_mb: self.hash.max(1),
                threads,
                settings,
                ponder,
                book,
                book_policy: BookPolicy { max_ply: self.book_max_ply, ..BookPolicy::default() },
                eval,
                turns: self.turns,
            }))
        };
        let a = internal(
            self.a_params.as_ref(),
            &self.a,
            self.a_threads,
            self.a_ponder,
            self.a_book.as_ref(),
            self.a_weights.as_ref(),
        )
        .map_err(|e| format!("player A: {e}"))?;
        let b = match &self.external {
            Some(path) => {
                if !self.b.is_empty()
                    || self.b_params.is_some()
                    || self.b_book.is_some()
                    || self.b_weights.is_some()
                {
                    return Err("--b/--b-params/--b-book/--b-weights and --external exclude each \
                                other"
                        .to_string());
                }
                let options = self.external_option.iter().map(|o| split_pair(o)).collect::<Result<
                    Vec<_>,
                    _,
                >>(
                )?;
                PlayerSpec::External(ExternalSpec {
                    path: path.clone(),
                    args: self.external_arg.clone(),
                    options,
                    ponder: self.b_ponder.is_some(),
                })
            }
            None => internal(
                self.b_params.as_ref(),
                &self.b,
                self.b_threads,
                self.b_ponder,
                self.b_book.as_ref(),
                self.b_weights.as_ref(),
            )
            .map_err(|e| format!("player B: {e}"))?,
        };
        let openings = match self.openings.as_deref() {
            Some("startpos") => vec![Opening::startpos()],
            Some(file) => read_openings(Path::new(file))?,
            None => match default_openings() {
                Some(path) => read_openings(&path)?,
                None => {
                    eprintln!("note: {SHARED_OPENINGS} not found; playing from the start position");
                    vec![Opening::startpos()]
                }
            },
        };
        let openings = pick_openings(openings, self.opening_start, self.shuffle);
        let timed = self.movetime_ms.is_some()
            || self.time_ms.is_some()
            || self.inc_ms.is_some()
            || self.byoyomi_ms.is_some();
        let movetime = match self.movetime_ms {
            None if !timed && self.nodes.is_none() && self.depth.is_none() => {
                Some(DEFAULT_MOVETIME_MS)
            }
            m => m,
        };
        let clock = match movetime {
            Some(m) => GameClock {
                main_ms: Some(0),
                inc_ms: 0,
                byoyomi_ms: m,
                tolerance_ms: self.tolerance_ms,
                untimed_limit_ms: UNTIMED_LIMIT_MS,
            },
            None => GameClock {
                main_ms: if timed { Some(self.time_ms.unwrap_or(0)) } else { None },
                inc_ms: self.inc_ms.unwrap_or(0),
                byoyomi_ms: self.byoyomi_ms.unwrap_or(0),
                tolerance_ms: self.tolerance_ms,
                untimed_limit_ms: UNTIMED_LIMIT_MS,
            },
        };
        Ok(MatchConfig {
            a,
            b,
            games: self.games,
            openings,
            clock,
            limits: SearchLimits { depth: self.depth, nodes: self.nodes, multipv: 1 },
            max_plies: self.max_plies,
            concurrency: self.concurrency.max(1),
            record: self.record.clone(),
            progress: !self.quiet,
        })
    }
}

fn describe_clock(c: &GameClock, limits: &SearchLimits) -> String {
    let mut parts = Vec::new();
    if c.is_timed() {
        parts.push(format!(
            "time {} ms + inc {} ms + byoyomi {} ms",
            c.main_ms.unwrap_or(0),
            c.inc_ms,
            c.byoyomi_ms
        ));
    }
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("nodes {n}"));
    }
    parts.join(", ")
}

/// Runs `tsumugi match`; the exit code (0, or 2 on an error).
pub fn run(args: &MatchArgs) -> u8 {
    let config = match args.to_config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tsumugi match: {e}");
            return 2;
        }
    };
    println!(
        "match: {} games, {} openings, {}, move limit {} plies",
        config.games,
        config.openings.len(),
        describe_clock(&config.clock, &config.limits),
        config.max_plies
    );
    match run_match(&config) {
        Ok((summary, _)) => {
            for line in summary.lines() {
                println!("{line}");
            }
            0
        }
        Err(e) => {
            eprintln!("tsumugi match: {e}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn config(line: &str) -> Result<MatchConfig, String> {
        let argv = std::iter::once("match").chain(line.split_whitespace());
        Cli::try_parse_from(argv).map_err(|e| e.to_string())?.args.to_config()
    }

    #[test]
    fn players_and_clocks() {
        let c = config("--a soppo_mode=1 --b soppo_mode=0 --openings startpos --movetime-ms 50")
            .unwrap_or_else(|e| panic!("{e}"));
        match (&c.a, &c.b) {
            (PlayerSpec::Internal(a), PlayerSpec::Internal(b)) => {
                let (a, b) = (&a.name, &b.name);
                assert_eq!(
                    (a.as_str(), b.as_str()),
                    ("tsumugi[soppo_mode=1]", "tsumugi[soppo_mode=0]")
                );
            }
            _ => panic!("two internal players expected"),
        }
        assert_eq!((c.clock.main_ms, c.clock.byoyomi_ms), (Some(0), 50));
        let c = config("--openings startpos --depth 2").unwrap_or_else(|e| panic!("{e}"));
        assert!(!c.clock.is_timed());
        assert_eq!(c.limits.depth, Some(2));
        let c = config("--openings startpos").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.clock.byoyomi_ms, DEFAULT_MOVETIME_MS);
        let c = config("--openings startpos --time-ms 10000 --inc-ms 100")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((c.clock.main_ms, c.clock.inc_ms, c.clock.byoyomi_ms), (Some(10000), 100, 0));
        let c = config("--openings startpos --external /bin/x --external-option USI_Hash=16")
            .unwrap_or_else(|e| panic!("{e}"));
        match &c.b {
            PlayerSpec::External(s) => {
                assert_eq!(s.options, vec![("USI_Hash".to_string(), "16".to_string())]);
            }
            _ => panic!("external B expected"),
        }
    }

    #[test]
    fn bad_arguments() {
        for bad in [
            "--a soppo_mode=9",
            "--a nonsense",
            "--a no_such=1",
            "--games 0",
            "--openings /no/such/file",
            "--external /bin/x --b soppo_mode=1",
            "--movetime-ms 100 --time-ms 100",
        ] {
            assert!(config(bad).is_err(), "{bad}");
        }
    }
}
