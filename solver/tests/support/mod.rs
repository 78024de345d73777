//! What several integration tests share: `tsumugi-mate solve` run from the project root.

use std::process::Command;

/// The problems of `tsumugi-mate solve ARGS... --quiet --json`, run from the project root;
/// panics (failing the test) if it does not succeed.
pub fn solve_json(args: &[&str]) -> Vec<serde_json::Value> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let out = Command::new(env!("CARGO_BIN_EXE_tsumugi-mate"))
        .current_dir(root)
        .arg("solve")
        .args(args)
        .args(["--quiet", "--json"])
        .output()
        .unwrap_or_else(|e| panic!("tsumugi-mate: {e}"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    json["problems"].as_array().cloned().unwrap_or_default()
}

/// [`solve_json`] under tsume rules, one job of one thread: the deterministic solve whose node
/// counts and answers the tests compare.
pub fn solve_tsume_one_thread(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["--rules", "tsume", "--jobs", "1", "--threads", "1"];
    all.extend_from_slice(args);
    solve_json(&all)
}
