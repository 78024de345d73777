//! `bench`: fixed positions searched to a fixed depth, single-threaded, with the root oracle
//! off, from cleared tables: the total node count is the search's functional signature
//! (`Bench: N` in commit messages that touch search).
//!
//! The positions are the start position and positions reached in self-play games of this
//! engine from four short openings (plies 10 to 130), chosen to cover openings, middle games
//! with attacks under way, and endgames with many pieces in hand (where soppo pruning acts).

use crate::eval::choice::EvalChoice;
use crate::params::Params;
use crate::search::control::SearchControl;
use crate::search::engine::Engine;
use crate::search::report::SearchLimits;
use shogi::Position;
use std::time::{Duration, Instant};

/// The default bench depth.
pub const DEFAULT_BENCH_DEPTH: u32 = 10;

/// The bench positions (SFEN).
pub const BENCH_POSITIONS: [&str; 16] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkg1nl/1r7/pppp1sbp1/4ppp1p/7P1/1BP4R1/PP1PPPP1P/3S5/LN1GKGSNL w - 16",
    "ln2sksnl/4g1gb1/p1pppp1pp/1r4pP1/1p5R1/9/PPPPPPP1P/1BG1GS3/LNSK3NL w - 28",
    "ln1gkg1nl/3s1s3/p1pppp1p1/5r1bp/1p4p2/2PPPB2P/PP1S1PPP1/7SR/LN1GKG1NL b - 27",
    "ln1gkg2l/1r3s3/3pppnpp/ppps1bp2/9/P3R1P1P/BPPPPP1P1/3S1S3/LN1GKG1NL w - 36",
    "1n1gkg3/lr1s5/1ppp1sn2/p4bpp1/2B1pp1PP/2PR5/PPNPPPP1N/3S1S3/L2GKG2L w Lp 36",
    "1n3ks2/l3gsg1l/2p1ppnpp/3p5/p1P3p1P/1R6L/PP1PPPP2/2G1G3b/LNSKS2N1 w RPbp 58",
    "ln1gkg1nl/1+r1s1s3/p1p1ppbp1/8p/3N2p2/1pPPPB2P/P3SPPP1/L7R/1+p1GKGSNL b P 47",
    "1n2kg3/lr1sg2p1/3p1sb2/p1p3p2/1p2pR3/P1P5L/BGNPPPP2/3S1S3/L3KG3 w 2NL4Pp 66",
    "ln1gk3l/1r2gs3/3p1p1+Rp/1ppsp4/P1n3b2/8P/1PPPPPSP1/2GS1G3/LNB1K3L w N3Pp 56",
    "lnkg3+R1/4gsp2/3p1p2p/2psp2b1/P1n6/1r1N1S2P/2PPPP1P1/1G1S1G3/LNB1K3L w L3P2p 76",
    "4sks2/6g1l/2+R1Gpnpp/3p1l3/p1P5P/6P1+r/PPGPPP3/5G3/LNSKN2+b1 w SN5Pbl 98",
    "1+R+N2g3/+N2sgk1p1/5s3/2pbpppb1/P2L3N1/2P5L/+p1NPPPP1p/3S1S3/L3KG3 w GL5Pr 96",
    "3S+S4/3+R2k1l/5pnpp/3p1l3/p1P5P/6+r2/PPNPPP3/5G3/L1SKN2+b1 w GN5Pb2gslp 118",
    "4+S4/7G1/4+Spk+Rp/3p5/p1P4nP/6+r2/PPNPP+l3/5Gs2/L1SKN2+b1 w NL7Pb2glp 128",
    "l+L1+R5/4gsp2/1k1p1p2p/1Npsp2b1/P8/3N1S2P/2PPPP1P1/2+rS1G3/LNB1K3L w GN3Pg2p 86",
];

/// The endgame subset (soppo pruning acts there): indices into [`BENCH_POSITIONS`].
pub const ENDGAME_POSITIONS: [usize; 5] = [11, 12, 13, 14, 15];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Total nodes over all positions: the signature.
    pub nodes: u64,
    pub elapsed: Duration,
    pub nps: u64,
    /// Nodes per position, in order.
    pub per_position: Vec<u64>,
}

/// Searches every bench position to `depth` with `params` (root oracle off) and a table of
/// `hash_mb`, cleared before each position.
pub fn run_bench(depth: u32, params: &Params, hash_mb: usize) -> BenchResult {
    run_positions(&BENCH_POSITIONS, depth, params, hash_mb)
}

/// [`run_bench`] over any list of SFENs (unparsable ones are skipped).
pub fn run_positions(sfens: &[&str], depth: u32, params: &Params, hash_mb: usize) -> BenchResult {
    run_positions_with(sfens, depth, params, hash_mb, None)
}

/// [`run_positions`] with another evaluation than the default one.
pub fn run_positions_with(
    sfens: &[&str],
    depth: u32,
    params: &Params,
    hash_mb: usize,
    eval: Option<&EvalChoice>,
) -> BenchResult {
    let mut p = params.clone();
    p.oracle_root_ms = 0;
    let mut engine = Engine::new(p, hash_mb);
    if let Some(eval) = eval {
        eval.apply_to(&mut engine);
    }
    let limits = SearchLimits { depth: Some(depth.max(1)), nodes: None, multipv: 1 };
    let mut per_position = Vec::with_capacity(sfens.len());
    let start = Instant::now();
    for sfen in sfens {
        let Ok(pos) = Position::from_sfen(sfen) else { continue };
        engine.clear();
        let control = SearchControl::unlimited();
        let out = engine.search(&pos, &limits, &control, &mut |_| {});
        per_position.push(out.nodes);
    }
    let elapsed = start.elapsed();
    let nodes: u64 = per_position.iter().sum();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    BenchResult { nodes, elapsed, nps, per_position }
}
