//! Every tunable number of the engine, in one place.
//!
//! Each parameter is an integer with a default and a range, declared once in the table below.
//! The table gives the struct field, the USI option of the same name (`setoption name <name>
//! value <v>`), and the line of a parameters file (`<name> = <value>`, `#` comments), so that a
//! tuner (seed 003, Cross-Entropy Method) can set any of them from outside.

use std::fmt;
use std::path::Path;

macro_rules! declare_params {
    ($( $(#[doc = $doc:literal])* $name:ident : $default:expr, $min:expr, $max:expr; )*) => {
        /// The engine's tunable parameters (see the module documentation).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $( $(#[doc = $doc])* pub $name: i32, )*
        }

        impl Default for Params {
            fn default() -> Params {
                Params { $( $name: $default, )* }
            }
        }

        impl Params {
            /// Every parameter: name, default, minimum, maximum.
            pub const SPECS: &'static [ParamSpec] = &[
                $( ParamSpec { name: stringify!($name), default: $default, min: $min, max: $max }, )*
            ];

            /// The value of the parameter called `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }

            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $( stringify!($name) => Some(&mut self.$name), )*
                    _ => None,
                }
            }
        }
    };
}

/// A parameter's name and allowed range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
}

declare_params! {
    /// Maximum quiescence-search depth in plies.
    qsearch_depth: 7, 0, 64;
    /// Extended futility margins at (reduced) remaining depth 1, 2 and 3 (centipawns); deeper,
    /// each ply adds futility_margin_3 − futility_margin_2. A quiet move is pruned when the
    /// static evaluation plus the margin at its reduced depth does not reach alpha...
    futility_margin_1: 91, 0, 5000;
    futility_margin_2: 354, 0, 5000;
    futility_margin_3: 525, 0, 5000;
    /// ...while that reduced depth is at most futility_max_depth.
    futility_max_depth: 8, 0, 64;
    /// Reverse futility pruning at remaining depth d ≤ rfp_max_depth: a node whose static
    /// evaluation exceeds beta by rfp_margin·d (less rfp_improving when improving) is cut.
    rfp_max_depth: 8, 0, 64;
    rfp_margin: 120, 0, 5000;
    rfp_improving: 60, 0, 5000;
    /// Half-width of the first aspiration window (centipawns).
    aspiration_width: 90, 1, 2000;
    /// 1: NegaScout (PVS) null-window re-search; 0: plain alpha-beta at non-PV children.
    use_pvs: 1, 0, 1;
    /// Null-move reduction R = null_move_reduction + depth/null_move_depth_divisor + up to 3
    /// more by how far the static evaluation is above beta.
    null_move_reduction: 4, 1, 12;
    null_move_depth_divisor: 3, 1, 64;
    /// Late-move reductions start after this many moves, at remaining depth lmr_min_depth...
    lmr_min_moves: 2, 1, 64;
    lmr_min_depth: 2, 1, 64;
    /// ...and reduce this much more at expected cut nodes, and one more when not improving.
    lmr_cut_node: 2, 0, 8;
    lmr_not_improving: 1, 0, 8;
    /// Quiet moves are reduced this much more when the table move is a capture (the capture
    /// is likely the node's best move).
    lmr_tt_capture: 1, 0, 8;
    /// Late captures and promotions get this percentage of a quiet move's reduction (0: none).
    lmr_tactical_pct: 50, 0, 200;
    /// Quiet moves and drops that attack an enemy piece (not a pawn) are reduced this much
    /// less.
    lmr_attack: 0, 0, 8;
    /// Move-ordering weights for quiet moves (seed 003's features). This line's values, the
    /// futility margins, the aspiration width and the quiescence depth were learnt by `tsumugi
    /// tune` (benches/history/17-cem-search-parameters.md, issue 16).
    order_check: 336, -2000, 2000;
    order_capture: 2084, -2000, 4000;
    order_attack: 120, -2000, 2000;
    order_escape: 85, -2000, 2000;
    order_focal: 190, -2000, 2000;
    /// Ordering penalty for a quiet move or drop onto a square the opponent attacks.
    order_unsafe: 0, -2000, 2000;
    /// Soppo: 0 off, 1 SS-Cut (fixed distance), 2 DS-Cut (distance from cutoff statistics).
    /// DS by default: it scored 50-30 against off over 80 self-play games
    /// (benches/history/13-engine-first-version.md).
    soppo_mode: 2, 0, 2;
    /// SS-Cut distance D from the king.
    soppo_distance: 5, 1, 16;
    /// df-pn probe budget (nodes) at inner nodes where the opponent king is exposed.
    oracle_probe_nodes: 300, 0, 100000;
    /// A probe looks first with this many of its nodes, and spends the rest only where that
    /// look leaves the root's proof number at most oracle_probe_near_pn (a mate is near):
    /// most probes that spent their whole budget had 3-8 there, most late mates 1-2
    /// (benches/history/43). 0: the whole budget at once.
    oracle_probe_look_nodes: 50, 0, 100000;
    oracle_probe_near_pn: 2, 1, 1000;
    /// df-pn budget (nodes) of the root's threat probe: after each iteration, whether the
    /// opponent mates after the best move (詰めろ); a move proven so is set aside (0: off).
    /// Off by default: at 10,000, over 300 games against YaneuraOu level 9 (100 + 200, each
    /// beside its baseline), on and off both scored 185 points
    /// (benches/history/29-engine-v-fifth-session.md).
    oracle_threat_nodes: 0, 0, 1000000;
    /// ...from iterations of at least this depth (the best move of the first iterations
    /// changes too often to be worth a probe each).
    oracle_threat_depth: 6, 1, 64;
    /// Root df-pn budget per move in milliseconds (0: off).
    oracle_root_ms: 1000, 0, 60000;
    /// ...of which the root df-pn search takes at most this share (percent) of the main search
    /// thread's time, in slices between its polls: the oracle has no thread of its own, so
    /// that `Threads` counts every thread that thinks (see `search::root_slices`).
    oracle_root_share_pct: 12, 1, 90;
    /// ...and this share while the last iteration's score is at least oracle_root_decisive_cp
    /// (the game is won on material; the mate is what is left to find).
    oracle_root_decisive_share_pct: 50, 1, 90;
    oracle_root_decisive_cp: 3000, 0, 30000;
    /// 1: with `use_pvs`, re-search a null window that failed high from its value (NegaScout)
    /// instead of from alpha (PVS).
    negascout: 0, 0, 1;
    /// 1: extend checking moves that do not lose material by one ply.
    check_extension: 1, 0, 1;
    /// ...at remaining depth at least this (below it, the mate-in-one test and the quiescence
    /// search's evasions see the short checking sequences).
    check_extension_min_depth: 7, 1, 64;
    /// Late-move reduction = lmr_base/100 + ln(depth)·ln(move number)·100/lmr_divisor.
    lmr_base: 50, 0, 400;
    lmr_divisor: 170, 50, 2000;
    /// Quiet moves whose history (butterfly plus continuations) is below
    /// −history_prune_margin·depth are pruned at remaining depth ≤ history_prune_max_depth
    /// (margin 0: off).
    history_prune_margin: 4000, 0, 100000;
    history_prune_max_depth: 6, 0, 64;
    /// Late-move reductions shrink by one per this much history (butterfly plus continuations).
    lmr_history_divisor: 12000, 1000, 100000;
    /// Late-move pruning at remaining depth d ≤ lmp_max_depth: quiet moves after
    /// lmp_base + lmp_factor·d² moves (half as many when the evaluation is not improving).
    lmp_base: 3, 0, 200;
    lmp_factor: 2, 0, 100;
    lmp_max_depth: 64, 0, 64;
    /// Captures losing more than see_prune_margin·depth (static exchange) are pruned at d ≤ 3.
    see_prune_margin: 120, 0, 5000;
    /// Quiet moves and drops losing more than see_quiet_margin·d² (static exchange, d the
    /// reduced depth) are pruned at remaining depth ≤ see_quiet_max_depth (0: never).
    see_quiet_margin: 25, 0, 5000;
    see_quiet_max_depth: 8, 0, 64;
    /// Razoring at remaining depth d ≤ 2 when the static evaluation is below alpha by more than
    /// razor_margin·d (0: off).
    razor_margin: 400, 0, 5000;
    /// Null-move pruning from this remaining depth on.
    null_move_min_depth: 2, 1, 32;
    /// 1: null-move pruning at expected cut nodes only (YaneuraOu's and Stockfish's rule), not
    /// at every non-PV node.
    null_move_cut_only: 0, 0, 1;
    /// Singular extension from this remaining depth on (0: off): the table move, when every
    /// other move fails low against its table score less singular_margin·depth at half the
    /// depth, is extended by one ply; when that reduced search fails high over beta instead,
    /// several moves refute the node and it is cut (multi-cut).
    singular_min_depth: 0, 0, 64;
    singular_margin: 2, 0, 100;
    /// The quiescence search tries only recaptures (on the last move's square) from this many
    /// plies in (64: every capture at every ply).
    qsearch_recapture_ply: 64, 0, 64;
    /// ProbCut at non-PV nodes from remaining depth probcut_min_depth: a capture or promotion
    /// whose search four plies shallower beats beta + probcut_margin (less probcut_improving
    /// when improving) cuts the node.
    probcut_min_depth: 5, 1, 64;
    probcut_margin: 200, 0, 5000;
    probcut_improving: 60, 0, 5000;
    /// Internal iterative reduction: one ply less without a table move from this depth on.
    iir_depth: 6, 1, 64;
    /// Aspiration windows from this iteration on.
    aspiration_min_depth: 4, 1, 64;
    /// Quiescence delta pruning margin (centipawns).
    qsearch_delta: 200, 0, 5000;
    /// History bonus = min(history_bonus_scale·depth², history_bonus_cap).
    history_bonus_scale: 32, 0, 1000;
    history_bonus_cap: 1600, 0, 16000;
    /// Soppo applies when the non-pawn pieces in both hands plus promoted pieces (horse and
    /// dragon count twice) reach this.
    soppo_endgame_phase: 4, 0, 60;
    /// DS-Cut: D leaves out at most this permille of the recorded cutoffs...
    soppo_ds_tail: 30, 0, 500;
    /// ...once this many cutoffs are recorded (before that nothing is pruned)...
    soppo_ds_min_samples: 32, 1, 1000000;
    /// ...plus this slack, and never below soppo_ds_min.
    soppo_ds_slack: 1, 0, 8;
    soppo_ds_min: 2, 1, 8;
    /// 1: test main-search nodes for a mate in one, from remaining depth oracle_mate1_min_depth
    /// on (below it the search itself tries the checks: only those losing material by exchange
    /// are pruned there).
    oracle_mate1: 1, 0, 1;
    oracle_mate1_min_depth: 1, 1, 64;
    /// 1: also test the first quiescence ply for a mate in one.
    qsearch_mate1: 1, 0, 1;
    /// df-pn probes where the opponent king has at most this many safe squares and we attack
    /// at least oracle_probe_attacks of its neighbours...
    oracle_probe_escapes: 1, 0, 8;
    oracle_probe_attacks: 3, 0, 8;
    /// ...at nodes with at least this remaining depth.
    oracle_probe_depth: 5, 1, 64;
    /// Table sizes (MiB) of the probe and root solvers.
    oracle_probe_hash_mb: 4, 1, 1024;
    oracle_root_hash_mb: 64, 1, 4096;
    /// 1: evaluate by material only (board and hand), as a plain material engine does; for
    /// comparisons.
    eval_material_only: 0, 0, 1;
    /// Scales (percent) of the evaluation's king-safety, piece-placement and threat (two
    /// pieces en prise) terms. The threat term is off by default: against YaneuraOu it scored
    /// 29 % with it and 32 % without (within the noise), so it waits for the tuner.
    eval_king_safety: 100, 0, 400;
    eval_placement: 100, 0, 400;
    eval_threats: 0, 0, 400;
    /// Percent of the correction history (the static evaluation's error learnt by pawn
    /// structure) added to the static evaluation for the search's decisions; 0: off. At 100:
    /// +35.6 Elo in self-play at 30,000 nodes a move over 400 games.
    correction_history: 100, 0, 400;
    /// Percent of the soft time limit when the best move just changed / has been stable.
    time_unstable_pct: 140, 10, 500;
    time_stable_pct: 75, 10, 500;
}

impl Params {
    /// Sets `name` to `value`, checking the name and the range.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), ParamError> {
        let spec = Params::SPECS
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| ParamError::Unknown(name.to_owned()))?;
        if !(spec.min..=spec.max).contains(&value) {
            return Err(ParamError::OutOfRange {
                name: spec.name,
                value,
                min: spec.min,
                max: spec.max,
            });
        }
        if let Some(slot) = self.slot(name) {
            *slot = value;
        }
        Ok(())
    }

    /// Sets `name` from text (as a USI option value or a file line gives it).
    pub fn set_text(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let v = value.trim().parse::<i32>().map_err(|_| ParamError::NotANumber {
            name: name.to_owned(),
            text: value.to_owned(),
        })?;
        self.set(name, v)
    }

    /// Reads a parameters file over the current values: `<name> = <value>` lines, `#` comments.
    /// Every bad line is an error naming its line number; nothing is applied then.
    pub fn load(&mut self, path: &Path) -> Result<(), ParamError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ParamError::Io(format!("{}: {e}", path.display())))?;
        let mut next = self.clone();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (name, value) = line
                .split_once('=')
                .ok_or_else(|| ParamError::Line { line: i + 1, text: line.to_owned() })?;
            next.set_text(name.trim(), value)
                .map_err(|e| ParamError::Line { line: i + 1, text: e.to_string() })?;
        }
        *self = next;
        Ok(())
    }

    /// The parameters as a file that [`Params::load`] reads back.
    pub fn to_file_text(&self) -> String {
        let mut out = String::new();
        for spec in Params::SPECS {
            let v = self.get(spec.name).unwrap_or(spec.default);
            out.push_str(&format!("{} = {}\n", spec.name, v));
        }
        out
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    Unknown(String),
    OutOfRange { name: &'static str, value: i32, min: i32, max: i32 },
    NotANumber { name: String, text: String },
    Line { line: usize, text: String },
    Io(String),
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Unknown(n) => write!(f, "unknown parameter '{n}'"),
            ParamError::OutOfRange { name, value, min, max } => {
                write!(f, "{name} = {value} is outside {min}..={max}")
            }
            ParamError::NotANumber { name, text } => {
                write!(f, "{name}: '{text}' is not an integer")
            }
            ParamError::Line { line, text } => write!(f, "line {line}: {text}"),
            ParamError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ParamError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_text_round_trips_and_bad_lines_are_rejected() {
        let mut p = Params::default();
        p.set("soppo_distance", 7).expect("in range");
        let dir = std::env::temp_dir().join(format!("tsumugi-params-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("p.txt");
        std::fs::write(&path, p.to_file_text()).expect("write");
        let mut q = Params::default();
        q.load(&path).expect("reads back");
        assert_eq!(p, q);

        std::fs::write(&path, "soppo_distance = 3\nno_such = 1\n").expect("write");
        let before = q.clone();
        let err = q.load(&path).expect_err("unknown name");
        assert!(err.to_string().contains("line 2"), "{err}");
        assert_eq!(q, before, "a bad file changes nothing");
        assert!(q.set("soppo_distance", 99).is_err());
        assert!(q.set_text("soppo_distance", "five").is_err());
    }
}
