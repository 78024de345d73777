//! Cross-check against an independent implementation: our legal moves, in-check and mate flags
//! must equal cshogi's on every mid-game position and the first 2,000 opening positions of
//! `../shared/problems`. Runs `scripts/cshogi_crosscheck.py` with our `movelist` binary.
//!
//! Skips (with a note) when python3, cshogi or the shared folder is missing, unless
//! `TSUMUGI_REQUIRE_CSHOGI=1` (set by `.ci/run`) makes a missing oracle a failure.

use std::path::Path;
use std::process::Command;

fn run(set: &str, limit: Option<usize>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let file = root.join("../shared/problems").join(set);
    let required = std::env::var("TSUMUGI_REQUIRE_CSHOGI").is_ok_and(|v| v == "1");
    let has_cshogi =
        Command::new("python3").args(["-c", "import cshogi"]).status().is_ok_and(|s| s.success());
    if !has_cshogi || !file.exists() {
        assert!(!required, "cshogi or {} missing but TSUMUGI_REQUIRE_CSHOGI=1", file.display());
        eprintln!(
            "skipping cshogi cross-check of {set}: cshogi or the shared problems are missing"
        );
        return;
    }
    let mut cmd = Command::new("python3");
    cmd.arg(root.join("scripts/cshogi_crosscheck.py")).arg(&file);
    if let Some(n) = limit {
        cmd.args(["--limit", &n.to_string()]);
    }
    cmd.args(["--binary", env!("CARGO_BIN_EXE_movelist")]);
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run python3: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "cshogi cross-check failed on {set}:\n{stdout}");
    assert!(stdout.contains(" 0 mismatches"), "unexpected report: {stdout}");
}

#[test]
fn midgame_positions_match_cshogi() {
    run("midgame_positions.sfen", None);
}

#[test]
fn opening_positions_match_cshogi() {
    run("engine_opening_positions.sfen", Some(2000));
}
