//! `tsumugi book build | stats | versus` as a user runs them.

use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_tsumugi");

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tsumugi-book-cli-{}-{name}", std::process::id()))
}

fn book(args: &[&str]) -> Output {
    Command::new(BIN).arg("book").args(args).output().unwrap_or_else(|e| panic!("{e}"))
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn build_stats_and_versus_from_records() {
    let records = temp("games.usi");
    std::fs::write(
        &records,
        "# game 1 result=1-0\nposition startpos moves 7g7f 3c3d 2g2f\n\
         # game 2 result=0-1\nposition startpos moves 7g7f 8c8d\n\
         position startpos moves 7g7f 9z9z\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let a = temp("a.db");
    let out = book(&["build", &records.display().to_string(), "-o", &a.display().to_string()]);
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out);
    assert!(stdout.contains("2 games (2 with a result), 1 skipped"), "{stdout}");
    assert!(stdout.contains("wrote 3 positions"), "{stdout}");
    // The bad record is named by its line.
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 5"), "{out:?}");

    let out = book(&["stats", &a.display().to_string()]);
    let stdout = text(&out);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout.contains("3 positions, 4 playable moves"), "{stdout}");
    // Against itself the book plays 7g7f, then 8c8d (white won with it: 3c3d, which lost, is
    // 832 cp worse, beyond BookEvalDiff), after which it has nothing: out of book at ply 3.
    assert!(stdout.contains("| 3 | 1 | 1.00 | 0.0000 |"), "{stdout}");
    // With a wide margin 3c3d and 8c8d are half and half, and after 3c3d comes 2g2f.
    let out = book(&["stats", &a.display().to_string(), "--eval-diff", "1000"]);
    let stdout = text(&out);
    assert!(stdout.contains("| 3 | 1 | 1.00 | 0.5000 |"), "{stdout}");

    let b = temp("b.db");
    let only = "#YANEURAOU-DB2016 1.00\n\
                sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
                2g2f none 0 0 1\n";
    std::fs::write(&b, only).unwrap_or_else(|e| panic!("{e}"));
    let out = book(&["versus", &a.display().to_string(), &b.display().to_string()]);
    let stdout = text(&out);
    assert!(out.status.success(), "{out:?}");
    // A black: 7g7f, then B has nothing: one exit, A played 1 book move, B none.
    assert!(stdout.contains("| A | B | 1 | 0.00 | 1.00 | 0.00 |"), "{stdout}");
    // B black: 2g2f, then A has nothing.
    assert!(stdout.contains("| B | A | 1 | 0.00 | 1.00 | 0.00 |"), "{stdout}");

    // The estimated score with a given curve; a malformed curve is refused.
    let (a_arg, b_arg) = (a.display().to_string(), b.display().to_string());
    let out = book(&["versus", &a_arg, &b_arg, "--eval-nodes", "300", "--logistic", "0,0.01"]);
    let stdout = text(&out);
    assert!(out.status.success(), "{out:?}");
    let line = stdout.lines().find(|l| l.starts_with("Estimated score of A against B: "));
    let score: f64 =
        line.and_then(|l| l.split_whitespace().nth(6)).and_then(|x| x.parse().ok()).unwrap_or(-1.0);
    assert!((0.0..=1.0).contains(&score), "{stdout}");
    // The same book on both sides: the same exit for either colour, evaluated alike, so an
    // even score.
    let out = book(&["versus", &b_arg, &b_arg, "--eval-nodes", "300", "--logistic", "0,0.01"]);
    assert!(text(&out).contains("Estimated score of A against B: 0.5000"), "{out:?}");
    let out = book(&["versus", &a_arg, &b_arg, "--eval-nodes", "300", "--logistic", "zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--logistic"), "{out:?}");

    // The figures.
    let dir = temp("figures");
    let dir_arg = dir.display().to_string();
    let out =
        book(&["versus", &a.display().to_string(), &b.display().to_string(), "--svg", &dir_arg]);
    assert!(out.status.success(), "{out:?}");
    let out = book(&["stats", &a.display().to_string(), "--svg", &dir_arg]);
    assert!(out.status.success(), "{out:?}");
    let stem_a = a.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let stem_b = b.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    for f in ["in_book", "exits", "entropy"] {
        let svg = dir.join(format!("{stem_a}_vs_{stem_b}_{f}.svg"));
        let text =
            std::fs::read_to_string(&svg).unwrap_or_else(|e| panic!("{}: {e}", svg.display()));
        assert!(text.starts_with("<svg") && text.contains("<polyline"), "{text}");
    }
    for f in ["positions_by_ply", "moves_by_ply", "in_book_itself"] {
        assert!(dir.join(format!("{stem_a}_{f}.svg")).exists(), "{f}");
    }
    let _ = std::fs::remove_dir_all(&dir);

    let out = book(&["stats", "/nonexistent/tsumugi/book.db"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/tsumugi/book.db"));
    for p in [records, a, b] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn think_grows_a_book_and_goes_on_from_it() {
    let out_book = temp("think.db");
    let path = out_book.display().to_string();
    let run = |leaves: &str| book(&["think", "-o", &path, "--leaves", leaves, "--nodes", "2000"]);
    let out = run("3");
    assert!(out.status.success(), "{out:?}");
    assert!(text(&out).contains("searched 3 leaves: 3 positions (was 0)"), "{out:?}");
    let out = run("2");
    assert!(text(&out).contains("searched 2 leaves: 5 positions (was 3)"), "{out:?}");
    let out = book(&["stats", &path, "--min-count", "0"]);
    assert!(text(&out).contains("5 positions"), "{out:?}");
    let _ = std::fs::remove_file(out_book);
}
