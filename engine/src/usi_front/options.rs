//! The USI options of `tsumugi`: what `usi` lists and what `setoption` changes.
//!
//! `usi` lists what a player sets (as YaneuraOu does): hash, threads, ponder, MultiPV, the
//! time margins, `ParamsFile`, and two friendly aliases of parameters, `Soppo` (Off / SS / DS,
//! for `soppo_mode`) and `Oracle` (off sets the oracle budgets to 0). Every entry of
//! [`Params::SPECS`] is also an option of the same name that `setoption` accepts, unlisted, so
//! that a tuner or a match runner can set any parameter without a GUI showing sixty of them.
//!
//! GUIs send every option at start-up, in an order of their choosing, so the sources of a
//! parameter are layered rather than applied in arrival order: the spin options first, then
//! `ParamsFile` (when set, re-read when options change), then the aliases (when not at their
//! neutral value `Param` / `true`). A parameter file or an alias therefore wins whatever order
//! the GUI uses; [`UsiOptions::effective_params`] computes the result.

use crate::book::BookPolicy;
use crate::eval::choice::EvalChoice;
use crate::eval::network::{self, Network};
use crate::eval::weights::Weights;
use crate::params::Params;
use crate::search::ponder::{PonderSettings, MAX_CANDIDATES};
use crate::search::threads::MAX_THREADS;
use crate::time_manager::TimeSettings;
use crate::usi_front::worker::EngineConfig;
use ::usi::{parse_setoption, Check, Combo, Spin, Text};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const HASH_DEFAULT_MB: usize = 256;
pub const HASH_MIN_MB: usize = 1;
pub const HASH_MAX_MB: usize = 65536;
pub const MULTIPV_MAX: u32 = 100;
pub const PONDER_MARGIN_MAX: u64 = 10_000;
pub const BOOK_MAX_PLY_MAX: u64 = 1_000;
pub const BOOK_EVAL_DIFF_MAX: u64 = 100_000;
pub const BOOK_MIN_COUNT_MAX: u64 = 1_000_000_000;

/// The default of `Threads`: every core the system gives us, as the engines GUI users compare
/// us with do.
pub fn default_threads() -> usize {
    solver::cores::available().min(MAX_THREADS)
}
pub const NETWORK_DELAY_DEFAULT_MS: u64 = 100;
pub const MINIMUM_THINKING_DEFAULT_MS: u64 = 20;
pub const TIME_OPTION_MAX_MS: u64 = 600_000;

/// The `Soppo` alias: `Param` leaves `soppo_mode` as the other options set it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SoppoChoice {
    #[default]
    Param,
    Off,
    Ss,
    Ds,
}

impl SoppoChoice {
    pub const NAMES: [&'static str; 4] = ["Param", "Off", "SS", "DS"];

    pub fn name(self) -> &'static str {
        match self {
            SoppoChoice::Param => "Param",
            SoppoChoice::Off => "Off",
            SoppoChoice::Ss => "SS",
            SoppoChoice::Ds => "DS",
        }
    }

    pub fn from_name(name: &str) -> Option<SoppoChoice> {
        match name.to_ascii_lowercase().as_str() {
            "param" => Some(SoppoChoice::Param),
            "off" => Some(SoppoChoice::Off),
            "ss" => Some(SoppoChoice::Ss),
            "ds" => Some(SoppoChoice::Ds),
            _ => None,
        }
    }

    /// The `soppo_mode` value it forces, if any.
    fn mode(self) -> Option<i32> {
        match self {
            SoppoChoice::Param => None,
            SoppoChoice::Off => Some(0),
            SoppoChoice::Ss => Some(1),
            SoppoChoice::Ds => Some(2),
        }
    }
}

const SOPPO_PARAM: &str = "soppo_mode";
const ORACLE_PARAMS: [&str; 3] = ["oracle_probe_nodes", "oracle_root_ms", "oracle_threat_nodes"];

fn has_param(name: &str) -> bool {
    Params::SPECS.iter().any(|s| s.name == name)
}

/// Everything `setoption` can change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsiOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub ponder: bool,
    /// Multi-candidate ponder: `PonderCandidates`, `PonderMarginCp`.
    pub ponder_settings: PonderSettings,
    pub multipv: u32,
    pub network_delay_ms: u64,
    pub minimum_thinking_ms: u64,
    /// A parameters file applied over `params` ([`Params::load`]).
    pub params_file: Option<PathBuf>,
    /// The parameters as the individual spin options set them.
    pub params: Params,
    pub soppo: SoppoChoice,
    /// `false` switches the df-pn oracle off.
    pub oracle: bool,
    /// The evaluation file (`EvalFile`: linear weights or a network; `None`: the built-in
    /// ones), read when set.
    pub eval_file: Option<(PathBuf, EvalChoice)>,
    /// `EvalType`: the network (from `EvalFile` when it is one, else built in) or the linear
    /// evaluation.
    pub eval_network: bool,
    /// The opening book (`BookFile`; `None`: no book).
    pub book_file: Option<PathBuf>,
    /// `BookMaxPly`, `BookEvalDiff`, `BookMinCount`, `BookRandom`.
    pub book_policy: BookPolicy,
}

impl Default for UsiOptions {
    fn default() -> UsiOptions {
        UsiOptions {
            hash_mb: HASH_DEFAULT_MB,
            threads: default_threads(),
            ponder: false,
            ponder_settings: PonderSettings::default(),
            multipv: 1,
            network_delay_ms: NETWORK_DELAY_DEFAULT_MS,
            minimum_thinking_ms: MINIMUM_THINKING_DEFAULT_MS,
            params_file: None,
            params: Params::default(),
            soppo: SoppoChoice::default(),
            oracle: true,
            eval_file: None,
            eval_network: network::builtin().is_some(),
            book_file: None,
            book_policy: BookPolicy::default(),
        }
    }
}

const HASH: Spin = Spin::new("USI_Hash", HASH_MIN_MB as u64, HASH_MAX_MB as u64);
const THREADS: Spin = Spin::new("Threads", 1, MAX_THREADS as u64);
const PONDER: Check = Check::new("USI_Ponder");
const PONDER_CANDIDATES: Spin = Spin::new("PonderCandidates", 1, MAX_CANDIDATES as u64);
const PONDER_MARGIN: Spin = Spin::new("PonderMarginCp", 0, PONDER_MARGIN_MAX);
const MULTIPV: Spin = Spin::new("MultiPV", 1, MULTIPV_MAX as u64);
const NETWORK_DELAY: Spin = Spin::new("NetworkDelay", 0, TIME_OPTION_MAX_MS);
const MINIMUM_THINKING: Spin = Spin::new("MinimumThinkingTime", 0, TIME_OPTION_MAX_MS);
const PARAMS_FILE: Text = Text::filename("ParamsFile");
const BOOK_FILE: Text = Text::filename("BookFile");
const EVAL_FILE: Text = Text::filename("EvalFile");
const EVAL_TYPE: Combo = Combo::new("EvalType", &EVAL_TYPES);
const EVAL_TYPES: [&str; 2] = ["network", "linear"];
const BOOK_MAX_PLY: Spin = Spin::new("BookMaxPly", 0, BOOK_MAX_PLY_MAX);
const BOOK_EVAL_DIFF: Spin = Spin::new("BookEvalDiff", 0, BOOK_EVAL_DIFF_MAX);
const BOOK_MIN_COUNT: Spin = Spin::new("BookMinCount", 0, BOOK_MIN_COUNT_MAX);
const BOOK_RANDOM: Check = Check::new("BookRandom");
const SOPPO: Combo = Combo::new("Soppo", &SoppoChoice::NAMES);
const ORACLE: Check = Check::new("Oracle");

impl UsiOptions {
    /// The `option ...` lines of the `usi` answer.
    pub fn option_lines(&self) -> Vec<String> {
        let d = UsiOptions::default();
        let mut lines = vec![
            HASH.line(d.hash_mb as u64),
            THREADS.line(d.threads as u64),
            PONDER.line(d.ponder),
            PONDER_CANDIDATES.line(d.ponder_settings.candidates as u64),
            PONDER_MARGIN.line(d.ponder_settings.margin_cp.unsigned_abs().into()),
            MULTIPV.line(d.multipv.into()),
            NETWORK_DELAY.line(d.network_delay_ms),
            MINIMUM_THINKING.line(d.minimum_thinking_ms),
            PARAMS_FILE.line(),
            EVAL_FILE.line(),
            EVAL_TYPE.line(if d.eval_network { "network" } else { "linear" }),
            BOOK_FILE.line(),
            BOOK_MAX_PLY.line(d.book_policy.max_ply.into()),
            BOOK_EVAL_DIFF.line(d.book_policy.eval_diff.unsigned_abs().into()),
            BOOK_MIN_COUNT.line(d.book_policy.min_count),
            BOOK_RANDOM.line(d.book_policy.random),
        ];
        if has_param(SOPPO_PARAM) {
            lines.push(SOPPO.line(SoppoChoice::Param.name()));
        }
        if ORACLE_PARAMS.iter().all(|p| has_param(p)) {
            lines.push(ORACLE.line(d.oracle));
        }
        lines
    }

    /// Applies one `setoption` (everything after the word). An error changes nothing.
    pub fn apply_setoption(&mut self, args: &str) -> Result<(), String> {
        let (name, value) = parse_setoption(args)?;
        let value = value.as_deref();
        match name.as_str() {
            n if HASH.is(n) => self.hash_mb = HASH.read(value)? as usize,
            n if THREADS.is(n) => self.threads = THREADS.read(value)? as usize,
            n if PONDER.is(n) => self.ponder = PONDER.read(value)?,
            n if PONDER_CANDIDATES.is(n) => {
                self.ponder_settings.candidates = PONDER_CANDIDATES.read(value)? as usize;
            }
            n if PONDER_MARGIN.is(n) => {
                self.ponder_settings.margin_cp = PONDER_MARGIN.read(value)? as i32;
            }
            n if MULTIPV.is(n) => self.multipv = MULTIPV.read(value)? as u32,
            n if NETWORK_DELAY.is(n) => self.network_delay_ms = NETWORK_DELAY.read(value)?,
            n if MINIMUM_THINKING.is(n) => {
                self.minimum_thinking_ms = MINIMUM_THINKING.read(value)?;
            }
            n if PARAMS_FILE.is(n) => {
                self.params_file = match PARAMS_FILE.read(value) {
                    None => None,
                    Some(file) => {
                        let path = PathBuf::from(file);
                        // Checked now, so that a bad file is reported to the one who set it.
                        load_over(&mut self.params.clone(), &path)?;
                        Some(path)
                    }
                };
            }
            n if EVAL_FILE.is(n) => {
                self.eval_file = match EVAL_FILE.read(value) {
                    None => None,
                    // Read now, so that a bad file is reported to the one who set it.
                    Some(file) => {
                        let eval = EvalChoice::load(Path::new(&file))
                            .map_err(|e| format!("EvalFile: {e}"))?;
                        Some((PathBuf::from(file), eval))
                    }
                };
            }
            n if EVAL_TYPE.is(n) => {
                let network = EVAL_TYPE.read(value)?.eq_ignore_ascii_case("network");
                if network && self.network().is_none() {
                    return Err("EvalType network: no network is built into this program; \
                                set EvalFile to a network file (tsumugi learn net) first"
                        .to_string());
                }
                self.eval_network = network;
            }
            n if BOOK_FILE.is(n) => self.book_file = BOOK_FILE.read(value).map(PathBuf::from),
            n if BOOK_MAX_PLY.is(n) => self.book_policy.max_ply = BOOK_MAX_PLY.read(value)? as u32,
            n if BOOK_EVAL_DIFF.is(n) => {
                self.book_policy.eval_diff = BOOK_EVAL_DIFF.read(value)? as i32;
            }
            n if BOOK_MIN_COUNT.is(n) => self.book_policy.min_count = BOOK_MIN_COUNT.read(value)?,
            n if BOOK_RANDOM.is(n) => self.book_policy.random = BOOK_RANDOM.read(value)?,
            n if SOPPO.is(n) && has_param(SOPPO_PARAM) => {
                // The declared words are exactly the names `from_name` knows.
                self.soppo = SoppoChoice::from_name(SOPPO.read(value)?).unwrap_or_default();
            }
            n if ORACLE.is(n) && ORACLE_PARAMS.iter().all(|p| has_param(p)) => {
                self.oracle = ORACLE.read(value)?;
            }
            _ => {
                let spec = Params::SPECS
                    .iter()
                    .find(|s| s.name.eq_ignore_ascii_case(&name))
                    .ok_or_else(|| format!("unknown option {name:?}"))?;
                self.params
                    .set_text(spec.name, value.unwrap_or_default())
                    .map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }

    /// The parameters the search gets: spin options, then the file, then the aliases.
    pub fn effective_params(&self) -> Result<Params, String> {
        let mut p = self.params.clone();
        if let Some(path) = &self.params_file {
            load_over(&mut p, path)?;
        }
        if let Some(mode) = self.soppo.mode() {
            p.set(SOPPO_PARAM, mode).map_err(|e| e.to_string())?;
        }
        if !self.oracle {
            for name in ORACLE_PARAMS {
                p.set(name, 0).map_err(|e| e.to_string())?;
            }
        }
        Ok(p)
    }

    /// What the search thread is configured with, given the effective parameters.
    pub fn engine_config(&self, params: Params) -> EngineConfig {
        EngineConfig {
            params: Box::new(params),
            weights: match &self.eval_file {
                Some((_, EvalChoice::Linear(weights))) => Arc::clone(weights),
                _ => Arc::new(Weights::default()),
            },
            network: if self.eval_network { self.network() } else { None },
            hash_mb: self.hash_mb,
            threads: self.threads,
            ponder: self.ponder_settings,
        }
    }

    /// The network `EvalType=network` evaluates with: `EvalFile`'s when it is one, else the
    /// built-in one.
    fn network(&self) -> Option<Arc<Network>> {
        match &self.eval_file {
            Some((_, EvalChoice::Network(net))) => Some(Arc::clone(net)),
            _ => network::builtin(),
        }
    }

    pub fn time_settings(&self) -> TimeSettings {
        TimeSettings {
            network_delay_ms: self.network_delay_ms,
            minimum_thinking_ms: self.minimum_thinking_ms,
            lateness_ms: 0,
        }
    }
}

fn load_over(p: &mut Params, path: &Path) -> Result<(), String> {
    p.load(path).map_err(|e| format!("ParamsFile: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_what_a_player_sets_and_accepts_every_parameter() {
        let lines = UsiOptions::default().option_lines();
        for spec in Params::SPECS {
            assert!(
                !lines.iter().any(|l| l.starts_with(&format!("option name {} ", spec.name))),
                "{} is listed",
                spec.name
            );
            let mut o = UsiOptions::default();
            let set = format!("name {} value {}", spec.name, spec.max);
            assert_eq!(o.apply_setoption(&set), Ok(()), "{set}");
            assert_eq!(o.params.get(spec.name), Some(spec.max));
        }
        // What a player sets: a dozen, the evaluation's type, and the five book options.
        assert!(lines.len() <= 18, "{lines:?}");
        let mut o = UsiOptions::default();
        for set in ["BookMaxPly value 5", "BookEvalDiff value 0", "bookmincount value 3"] {
            assert_eq!(o.apply_setoption(&format!("name {set}")), Ok(()), "{set}");
        }
        assert_eq!(o.apply_setoption("name BookRandom value false"), Ok(()));
        let policy = BookPolicy { max_ply: 5, eval_diff: 0, min_count: 3, random: false };
        assert_eq!(o.book_policy, policy);
        assert!(o.apply_setoption("name BookRandom value maybe").is_err());
        assert!(o.apply_setoption("name BookMaxPly value -1").is_err());
        assert_eq!(o.book_policy, policy, "an error changes nothing");
        assert_eq!(o.apply_setoption("name BookFile value <empty>"), Ok(()));
        assert_eq!(o.book_file, None);
        assert!(lines
            .contains(&"option name PonderCandidates type spin default 5 min 1 max 8".to_string()));
        assert!(lines.iter().any(|l| l.starts_with("option name Threads type spin default ")));
        assert!(lines.contains(&"option name USI_Ponder type check default false".to_string()));
        assert!(lines.contains(
            &"option name Soppo type combo default Param var Param var Off var SS var DS"
                .to_string()
        ));
    }

    #[test]
    fn setoption_and_errors() {
        let mut o = UsiOptions::default();
        assert_eq!(o.apply_setoption("name USI_Hash value 16"), Ok(()));
        assert_eq!(o.hash_mb, 16);
        assert_eq!(o.apply_setoption("name USI_Ponder value true"), Ok(()));
        assert!(o.ponder);
        assert_eq!(o.apply_setoption("name Threads value 3"), Ok(()));
        assert_eq!(o.threads, 3);
        assert_eq!(o.apply_setoption("name PonderCandidates value 1"), Ok(()));
        assert_eq!(o.apply_setoption("name PonderMarginCp value 150"), Ok(()));
        assert_eq!(
            o.ponder_settings,
            PonderSettings { candidates: 1, margin_cp: 150, hits_continue: false }
        );
        assert_eq!(o.apply_setoption("name MultiPV value 3"), Ok(()));
        assert_eq!(o.multipv, 3);
        assert_eq!(o.apply_setoption("name NetworkDelay value 500"), Ok(()));
        assert_eq!(o.time_settings().network_delay_ms, 500);
        assert_eq!(o.apply_setoption("name soppo_distance value 7"), Ok(()));
        assert_eq!(o.params.get("soppo_distance"), Some(7));
        let before = o.clone();
        for bad in [
            "name USI_Hash value 0",
            "name USI_Hash value lots",
            "name USI_Ponder value maybe",
            "name MultiPV value 0",
            "name Threads value 0",
            "name PonderCandidates value 0",
            "name PonderCandidates value 9",
            "name PonderMarginCp value -5",
            "name Threads value 100000",
            "name soppo_distance value 99",
            "name soppo_distance value x",
            "name soppo_distance",
            "name Soppo value Sometimes",
            "name NoSuchOption value 1",
            "name ParamsFile value /no/such/file",
            "name",
            "",
        ] {
            assert!(o.apply_setoption(bad).is_err(), "{bad:?}");
        }
        assert_eq!(o, before, "errors change nothing");
    }

    #[test]
    fn file_and_aliases_win_over_spin_options() {
        let dir = std::env::temp_dir().join(format!("tsumugi-usi-options-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let path = dir.join("p.txt");
        std::fs::write(&path, "soppo_distance = 3\n").unwrap_or_else(|e| panic!("{e}"));
        let mut o = UsiOptions::default();
        let set = format!("name ParamsFile value {}", path.display());
        assert_eq!(o.apply_setoption(&set), Ok(()));
        assert_eq!(o.apply_setoption("name soppo_distance value 9"), Ok(()));
        assert_eq!(o.apply_setoption("name Soppo value DS"), Ok(()));
        assert_eq!(o.apply_setoption("name soppo_mode value 0"), Ok(()));
        assert_eq!(o.apply_setoption("name Oracle value false"), Ok(()));
        let p = o.effective_params().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.get("soppo_distance"), Some(3));
        assert_eq!(p.get("soppo_mode"), Some(2));
        assert_eq!(p.get("oracle_probe_nodes"), Some(0));
        assert_eq!(p.get("oracle_root_ms"), Some(0));
        assert_eq!(o.apply_setoption("name ParamsFile value <empty>"), Ok(()));
        assert_eq!(o.apply_setoption("name Soppo value Param"), Ok(()));
        let p = o.effective_params().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.get("soppo_distance"), Some(9));
        assert_eq!(p.get("soppo_mode"), Some(0));
    }

    /// `EvalFile` reads the weights when set (a bad file is refused, naming its line, and
    /// changes nothing), and the search thread gets them; `<empty>` goes back to the hand-set.
    #[test]
    fn eval_file_loads_weights_and_refuses_bad_ones() {
        let dir = std::env::temp_dir().join(format!("tsumugi-evalfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let mut w = Weights::hand_set();
        w.tempo = 77;
        let good = dir.join("good.weights");
        std::fs::write(&good, w.to_file_text(&[])).unwrap_or_else(|e| panic!("{e}"));
        let bad = dir.join("bad.weights");
        let text = w.to_file_text(&[]).replace("tempo 77", "tempo 77 78");
        std::fs::write(&bad, text).unwrap_or_else(|e| panic!("{e}"));
        let mut o = UsiOptions::default();
        assert_eq!(o.apply_setoption(&format!("name EvalFile value {}", good.display())), Ok(()));
        let config = o.engine_config(Params::default());
        assert_eq!(config.weights.tempo, 77);
        let e = o.apply_setoption(&format!("name EvalFile value {}", bad.display()));
        let e = e.err().unwrap_or_default();
        assert!(
            e.starts_with("EvalFile: ") && e.contains("bad.weights:") && e.contains("tempo has 2"),
            "{e}"
        );
        assert_eq!(o.engine_config(Params::default()).weights.tempo, 77, "unchanged");
        assert_eq!(o.apply_setoption("name EvalFile value <empty>"), Ok(()));
        assert_eq!(*o.engine_config(Params::default()).weights, Weights::default());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `EvalFile` takes a network file too: `EvalType network` then evaluates with it. A
    /// network file cut short, or of another format, is refused and the engine keeps what it
    /// had; `EvalType network` with no network at all is refused.
    #[test]
    fn eval_file_loads_a_network_and_refuses_bad_ones() {
        use crate::eval::network::file;
        let dir = std::env::temp_dir().join(format!("tsumugi-evalnet-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let mut net = Network::zeros();
        net.out_bias = 4242;
        let good = dir.join("good.nnue");
        file::save(&net, &good).unwrap_or_else(|e| panic!("{e}"));
        let bytes = file::to_bytes(&net);
        let truncated = dir.join("truncated.nnue");
        std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap_or_else(|e| panic!("{e}"));
        let mut o = UsiOptions::default();
        if network::builtin().is_none() {
            let e = o.apply_setoption("name EvalType value network").err().unwrap_or_default();
            assert!(e.contains("no network is built in"), "{e}");
        }
        assert_eq!(o.apply_setoption(&format!("name EvalFile value {}", good.display())), Ok(()));
        assert_eq!(o.apply_setoption("name EvalType value network"), Ok(()));
        let config = o.engine_config(Params::default());
        assert_eq!(config.network.as_ref().map(|n| n.out_bias), Some(4242));
        let e = o.apply_setoption(&format!("name EvalFile value {}", truncated.display()));
        let e = e.err().unwrap_or_default();
        assert!(e.starts_with("EvalFile: ") && e.contains("cut short"), "{e}");
        let config = o.engine_config(Params::default());
        assert_eq!(config.network.as_ref().map(|n| n.out_bias), Some(4242), "unchanged");
        assert_eq!(o.apply_setoption("name EvalType value linear"), Ok(()));
        assert!(o.engine_config(Params::default()).network.is_none());
        assert!(o.apply_setoption("name EvalType value cubic").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
