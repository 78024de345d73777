//! The table file (`--table-file`, USI `TableFile`): a collection solved twice with one file
//! gives the same answers the second time, for fewer nodes (run with --release).
//! Every line is checked by the rules (`verify_mate_line`), independently of the solver.

use shogi::Position;
use solver::mate_line::verify_mate_line;
use solver::{Limits, Outcome, Rules, Solver, SolverConfig};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn problems(name: &str, limit: usize) -> Vec<(String, Position)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/").to_string() + name;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(limit)
        .map(|line| {
            let (sfen, tail) = line.split_once(" # ").unwrap_or_else(|| panic!("{line}"));
            let id = tail.split_whitespace().next().unwrap_or_default().to_string();
            (id.clone(), Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{id}: {e}")))
        })
        .collect()
}

/// Solves every problem with one solver whose table lives in `file`; the mate lengths (or
/// `None`) and the nodes in all.
fn run(file: &Path, set: &[(String, Position)]) -> (Vec<Option<usize>>, u64) {
    let config = SolverConfig {
        hash_mb: 16,
        rules: Rules::Tsume,
        table_file: Some(file.to_path_buf()),
        ..SolverConfig::default()
    };
    let mut solver = Solver::open(config).unwrap_or_else(|e| panic!("{e}"));
    let limits = Limits { time: Some(Duration::from_secs(30)), nodes: None };
    let mut nodes = 0;
    let mut lengths = Vec::new();
    for (id, pos) in set {
        solver.clear(); // keeps the file's table, as the batch solver does
        let r = solver.solve(pos, &limits, &AtomicBool::new(false), &mut |_| {});
        nodes += r.nodes;
        lengths.push(match r.outcome {
            Outcome::Mate(pv) => {
                if let Err(e) = verify_mate_line(pos, &pv, Rules::Tsume) {
                    panic!("{id}: {e}");
                }
                Some(pv.len())
            }
            _ => None,
        });
    }
    (lengths, nodes)
}

struct TempPath(PathBuf);
impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn a_collection_solved_again_with_its_table_file() {
    let file = TempPath(std::env::temp_dir().join(format!("tsumugi-it-{}.tt", std::process::id())));
    let _ = std::fs::remove_file(&file.0);
    let set = problems("yaneuraou_mate5_100.sfen", 30);
    let (first, first_nodes) = run(&file.0, &set);
    assert!(first.iter().all(Option::is_some), "{first:?}");
    let (second, second_nodes) = run(&file.0, &set);
    assert_eq!(first, second, "the same answers from the file");
    assert!(
        second_nodes < first_nodes,
        "the second run reuses the first's table: {second_nodes} nodes, first {first_nodes}"
    );
    // The same problems with a table in memory: the same answers.
    let mut memory = Solver::new(SolverConfig { hash_mb: 16, ..SolverConfig::default() });
    let limits = Limits { time: Some(Duration::from_secs(30)), nodes: None };
    for ((id, pos), want) in set.iter().zip(&first) {
        memory.clear();
        let r = memory.solve(pos, &limits, &AtomicBool::new(false), &mut |_| {});
        let got = match r.outcome {
            Outcome::Mate(pv) => Some(pv.len()),
            _ => None,
        };
        assert_eq!(got, *want, "{id}");
    }
}

/// The file remembers lengths too: 将棋図巧 problems solved again with their file find their
/// main lines in it, and ask again neither the refinement's settled questions (answered by the
/// file) nor its unsettled ones (a root the file already proved had its line refined when it
/// was proven): a tenth of the first run's nodes at most, for the same lines.
#[test]
fn a_table_file_remembers_the_main_lines() {
    let file =
        TempPath(std::env::temp_dir().join(format!("tsumugi-len-{}.tt", std::process::id())));
    let _ = std::fs::remove_file(&file.0);
    let set: Vec<(String, Position)> = problems("edo_zukou.sfen", 20)
        .into_iter()
        .filter(|(id, _)| {
            ["zukou-002", "zukou-005", "zukou-012", "zukou-018"].contains(&id.as_str())
        })
        .collect();
    assert_eq!(set.len(), 4);
    let (first, first_nodes) = run(&file.0, &set);
    assert!(first.iter().all(Option::is_some), "{first:?}");
    let (second, second_nodes) = run(&file.0, &set);
    assert_eq!(first, second, "the same lines from the file");
    assert!(
        second_nodes * 10 <= first_nodes,
        "the second run: {second_nodes} nodes, the first {first_nodes}"
    );
}
