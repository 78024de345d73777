//! `tsumugi tune` end to end on a tiny run: real games (a few hundred nodes a move), every
//! output written, the learnt file loadable as a parameters file, a resume that goes on from
//! the saved generation and gives the same result as an uninterrupted run, and bad settings
//! refused with a message.

use engine::params::Params;
use engine::tune::command::{run, TuneArgs};
use engine::tune::outputs;
use std::path::PathBuf;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tsumugi-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn args(out: PathBuf, generations: usize) -> TuneArgs {
    TuneArgs {
        out,
        add: vec!["lmr_divisor=80..400:log".to_string()],
        without_seed_set: false,
        generations,
        samples: 3,
        elite: 0.34,
        smoothing: 0.7,
        sd_scale: 1.0,
        sd_floor: 0.2,
        games: 2,
        nodes: 200,
        seed: 9,
        concurrency: 1,
        hash: 1,
        max_plies: 60,
        openings: None,
        params: None,
        set: Vec::new(),
        external: None,
        external_option: Vec::new(),
    }
}

#[test]
fn a_tiny_run_writes_everything_and_resumes_exactly() {
    let straight = dir("straight");
    assert_eq!(run(&args(straight.clone(), 2)), 0);
    for file in [outputs::STATE, outputs::SAMPLES, outputs::CONVERGENCE, outputs::LEARNED] {
        assert!(straight.join(file).is_file(), "{file} missing");
    }
    let csv = std::fs::read_to_string(straight.join(outputs::SAMPLES)).unwrap_or_default();
    assert_eq!(csv.lines().count(), 1 + 2 * 3, "{csv}");
    assert!(csv.starts_with("generation,sample,qsearch_depth,"), "{csv}");
    assert!(csv.contains("lmr_divisor"), "{csv}");
    let html = std::fs::read_to_string(straight.join(outputs::CONVERGENCE)).unwrap_or_default();
    assert_eq!(html.matches("<svg").count(), 1 + 13, "a fitness chart and one per parameter");
    let mut learnt = Params::default();
    learnt.load(&straight.join(outputs::LEARNED)).unwrap_or_else(|e| panic!("{e}"));

    // One generation, then the same directory asked for two: it resumes from the saved state.
    let resumed = dir("resumed");
    assert_eq!(run(&args(resumed.clone(), 1)), 0);
    assert_eq!(run(&args(resumed.clone(), 2)), 0);
    let a = outputs::load(&straight).unwrap_or_else(|e| panic!("{e}"));
    let b = outputs::load(&resumed).unwrap_or_else(|e| panic!("{e}"));
    let (a, b) = (a.unwrap_or_else(|| panic!("no state")), b.unwrap_or_else(|| panic!("no state")));
    assert_eq!(a.cem.history.len(), 2);
    // Everything drawn and measured is the same: games at a fixed node count are.
    assert_eq!(a, b);

    // Other games in the same directory are refused; so are bad settings.
    let mut other = args(straight.clone(), 2);
    other.nodes = 300;
    assert_eq!(run(&other), 2);
    let mut odd = args(dir("odd"), 1);
    odd.games = 3;
    assert_eq!(run(&odd), 2);
    let mut unknown = args(dir("unknown"), 1);
    unknown.add = vec!["no_such_parameter".to_string()];
    assert_eq!(run(&unknown), 2);
    for d in [straight, resumed] {
        let _ = std::fs::remove_dir_all(d);
    }
}
