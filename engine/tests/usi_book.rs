//! The opening book over stdin/stdout: `BookFile` loads a YaneuraOu-format book, a `go` with
//! a clock on a book position answers with a book move at once and says so, a position out of
//! book is searched, analysis `go`s search, and a bad book is told without stopping the engine.

mod usi_driver;

use std::path::{Path, PathBuf};
use usi_driver::{legal_bestmove, Usi, PROMPT};

const CLOCK: &str = "btime 10000 wtime 10000 byoyomi 1000";

fn temp_book(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("tsumugi-usi-book-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    path
}

/// The start position with 2g2f only (a move the search would rarely choose first at 1 s is
/// not needed: the note says where the move came from), and after 2g2f, 8c8d.
const BOOK: &str = "#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2
8c8d 2f2e 0 0 4
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
2g2f 8c8d 0 0 10
";

fn with_book(path: &Path) -> Usi {
    let mut u = Usi::ready();
    u.send("setoption name USI_Ponder value true");
    u.send(&format!("setoption name BookFile value {}", path.display()));
    u.send("isready");
    u.wait_for("readyok", PROMPT);
    u
}

#[test]
fn book_positions_are_answered_from_the_book_and_others_searched() {
    let path = temp_book("good.db", BOOK);
    let mut u = with_book(&path);
    u.send("usi");
    let lines = u.wait_for("usiok", PROMPT);
    for o in ["BookFile", "BookMaxPly", "BookEvalDiff", "BookMinCount", "BookRandom"] {
        let listed = format!("option name {o} ");
        assert!(lines.iter().any(|l| l.starts_with(&listed)), "{o} not listed: {lines:#?}");
    }
    u.send("position startpos");
    u.send(&format!("go {CLOCK}"));
    let lines = u.wait_for("bestmove", PROMPT);
    assert!(lines.iter().any(|l| l.starts_with("info string book move 2g2f")), "{lines:#?}");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 2g2f ponder 8c8d"));
    // White's book position.
    u.send("position startpos moves 2g2f");
    u.send(&format!("go {CLOCK}"));
    let lines = u.wait_for("bestmove", PROMPT);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 8c8d ponder 2f2e"));
    // Out of book: a search, no book note.
    u.log.clear();
    u.send("position startpos moves 7g7f");
    u.send("go btime 10000 wtime 10000 byoyomi 100");
    let lines = u.wait_for("bestmove", PROMPT);
    legal_bestmove(lines.last().map_or("", String::as_str), "position startpos moves 7g7f");
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:#?}");
    // Analysis searches even a book position.
    u.send("position startpos");
    u.send("go depth 2");
    let lines = u.wait_for("bestmove", PROMPT);
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:#?}");
    // Past BookMaxPly the book is not used.
    u.send("setoption name BookMaxPly value 1");
    u.send("position startpos moves 2g2f");
    u.send("go btime 10000 wtime 10000 byoyomi 100");
    let lines = u.wait_for("bestmove", PROMPT);
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:#?}");
    assert!(u.quit().success());
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_bad_book_is_told_and_the_engine_plays_on() {
    let bad = format!("{BOOK}9z9z none 0 0 1\nsfen not a position\n");
    let path = temp_book("bad.db", &bad);
    let mut u = with_book(&path);
    u.send("position startpos");
    u.send(&format!("go {CLOCK}"));
    let lines = u.wait_for("bestmove", PROMPT);
    let told = lines.iter().find(|l| l.contains("malformed line")).cloned().unwrap_or_default();
    assert!(told.contains("2 malformed line(s)") && told.contains("line 6"), "{lines:#?}");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 2g2f ponder 8c8d"));
    // A file that cannot be read is refused with the option's name; the book stays.
    u.send("setoption name BookFile value /nonexistent/tsumugi/book.db");
    let lines = u.wait_for("info string error: BookFile", PROMPT);
    assert!(lines.last().is_some_and(|l| l.contains("/nonexistent/tsumugi/book.db")), "{lines:#?}");
    u.send("position startpos");
    u.send(&format!("go {CLOCK}"));
    let lines = u.wait_for("bestmove", PROMPT);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 2g2f ponder 8c8d"));
    // <empty> removes the book: the start position is searched.
    u.send("setoption name BookFile value <empty>");
    u.send("position startpos");
    u.send("go btime 10000 wtime 10000 byoyomi 100");
    let lines = u.wait_for("bestmove", PROMPT);
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:#?}");
    assert!(u.quit().success());
    let _ = std::fs::remove_file(path);
}
