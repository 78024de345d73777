//! `tsumugi-mate report` gives the same report whatever its threads: the same main line (the
//! questions are asked about it), and no verdict that another run contradicts.
//!
//! The problems are YaneuraOu samples with several mates of the same length, whose main line
//! took another move of that length at two threads than at one in every run before the
//! report's own solve ran on one thread (yane500m-mate9-0028, 0052, 0058, 0072 and 0090, three
//! runs). `TSUMUGI_CORES=4` makes the program believe it has four cores, so that threads prove
//! beside each other even on a machine with one.

use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

const PROBLEMS: [&str; 5] = [
    "yane500m-mate9-0028",
    "yane500m-mate9-0052",
    "yane500m-mate9-0058",
    "yane500m-mate9-0072",
    "yane500m-mate9-0090",
];

/// The problems' lines of the sample file, in a file of their own.
fn problem_file() -> std::path::PathBuf {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/yaneuraou_mate9_100.sfen");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| PROBLEMS.iter().any(|id| l.contains(&format!(" # {id} "))))
        .collect();
    assert_eq!(lines.len(), PROBLEMS.len(), "{lines:?}");
    let file =
        std::env::temp_dir().join(format!("tsumugi-report-threads-{}.sfen", std::process::id()));
    std::fs::write(&file, lines.join("\n") + "\n").unwrap_or_else(|e| panic!("{e}"));
    file
}

/// The reports of `file` at `threads` threads, by problem id.
fn reports(file: &std::path::Path, threads: u32) -> BTreeMap<String, Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_tsumugi-mate"))
        .arg("report")
        .arg(file)
        .args(["--json", "--quiet", "--jobs", "1", "--hash", "64"])
        .args(["--threads", &threads.to_string(), "--questions-time-ms", "400"])
        .env("TSUMUGI_CORES", "4")
        .output()
        .unwrap_or_else(|e| panic!("tsumugi-mate: {e}"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    let entries = json.as_array().unwrap_or_else(|| panic!("not a list: {json}"));
    entries
        .iter()
        .map(|e| (e["id"].as_str().unwrap_or_default().to_string(), e["report"].clone()))
        .collect()
}

/// Each finding of `kind` ("cooks", "variations", "unsettled") of a report, by its ply and
/// first move: what it found (a cook's kind, a variation's flag, and its length), and whether
/// that length is the proven shortest (else it depends on the proof found).
fn findings(r: &Value, kind: &str) -> BTreeMap<(u64, String), (String, bool)> {
    let items = r[kind].as_array().cloned().unwrap_or_default();
    items
        .iter()
        .map(|f| {
            let ply = f["ply"].as_u64().unwrap_or_default();
            let mv = f["line"]["usi"][0].as_str().unwrap_or_default().to_string();
            let what = format!("{} {} {}", f["kind"], f["flag"], f["length"]);
            ((ply, mv), (what, f["proven"].as_bool().unwrap_or(false)))
        })
        .collect()
}

/// Every verdict of `a` is `b`'s too (the same length where both proved it the shortest), or
/// `b` left that question unsettled.
fn agree(id: &str, a: &Value, b: &Value) {
    let unsettled = findings(b, "unsettled");
    for kind in ["cooks", "variations"] {
        let theirs = findings(b, kind);
        for (question, (what, proven)) in findings(a, kind) {
            let same = match theirs.get(&question) {
                Some((w, p)) if proven && *p => *w == what,
                // A length not proven the shortest (and the flag that follows from it) may be
                // another where the proof found is another.
                Some(_) => true,
                None => false,
            };
            let at = (&question, &what, theirs.get(&question));
            assert!(same || unsettled.contains_key(&question), "{id} {kind} {at:?}");
        }
    }
}

#[test]
fn the_report_has_the_same_main_line_at_one_and_two_threads() {
    let file = problem_file();
    let one = reports(&file, 1);
    let runs = [reports(&file, 2), reports(&file, 2)];
    let _ = std::fs::remove_file(&file);
    assert_eq!(one.len(), PROBLEMS.len());
    for two in &runs {
        for (id, r) in &one {
            let other = &two[id];
            assert_eq!(r["main_line"]["usi"], other["main_line"]["usi"], "{id}");
            assert!(r["length"].as_u64().is_some(), "{id}: {r}");
            agree(id, r, other);
            agree(id, other, r);
        }
    }
}
