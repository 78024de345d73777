//! The USI engine over stdin/stdout: handshake, options, bad input, `gameover`, `quit`,
//! `go mate`, and the special answers `resign` and `win`.

mod usi_driver;

use engine::Params;
use shogi::{parse_position_command, Position};
use std::time::Duration;
use usi_driver::{legal_bestmove, Usi, PROMPT};

#[test]
fn handshake_lists_the_players_options_and_quits_cleanly() {
    let mut u = Usi::start();
    u.send("usi");
    let lines = u.wait_for("usiok", PROMPT);
    assert!(lines[0].starts_with("id name Tsumugi"), "{lines:?}");
    assert_eq!(lines[1], "id author The Tsumugi developers");
    for want in [
        "option name USI_Hash type spin default 256 min 1 max 65536",
        "option name USI_Ponder type check default false",
        "option name MultiPV type spin default 1 min 1 max 100",
        "option name ParamsFile type filename default <empty>",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want}: {lines:?}");
    }
    assert!(lines.iter().any(|l| l.starts_with("option name NetworkDelay type spin")));
    assert!(lines.iter().any(|l| l.starts_with("option name Threads type spin default ")));
    // Search parameters are not listed (a GUI would show sixty of them), but are accepted.
    for spec in Params::SPECS {
        assert!(!lines.iter().any(|l| l.starts_with(&format!("option name {} ", spec.name))));
    }
    let spec = &Params::SPECS[0];
    u.send(&format!("setoption name {} value {}", spec.name, spec.max));
    u.send("setoption name USI_Hash value 16");
    u.send("isready");
    u.wait_for("readyok", PROMPT);
    u.send("usinewgame");
    u.send("position startpos moves 7g7f 3c3d");
    u.send("go depth 1");
    let lines = u.wait_for("bestmove", Duration::from_secs(10));
    legal_bestmove(lines.last().map_or("", String::as_str), "position startpos moves 7g7f 3c3d");
    // Every search report is a well-formed info line.
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        let t: Vec<&str> = l.split_whitespace().collect();
        let keys: Vec<&str> = t.iter().skip(1).step_by(2).copied().take(7).collect();
        assert_eq!(keys, ["depth", "seldepth", "time", "nodes", "nps", "hashfull", "score"], "{l}");
        assert!(t[14] == "cp" || t[14] == "mate", "{l}");
        assert!(t[15].parse::<i32>().is_ok(), "{l}");
    }
    u.send("gameover win");
    let status = u.quit();
    assert!(status.success(), "{status:?}");
}

#[test]
fn garbage_bad_positions_and_bad_options_get_info_strings() {
    let mut u = Usi::ready();
    let good = "position startpos moves 2g2f";
    u.send(good);
    let bad = [
        "hello world",
        "\u{1}\u{7f}ÿ",
        "position sfen lnsgkgsnl/9 b - 1",
        "position sfen nonsense",
        "position startpos moves 7g7f 7g7f",
        "position startpos moves 7g7f junk",
        "position",
        "setoption name NoSuchOption value 1",
        "setoption name soppo_mode value 7",
        "setoption name soppo_distance value five",
        "setoption name USI_Hash value 0",
        "setoption name Soppo value Sometimes",
        "setoption name ParamsFile value /no/such/params.txt",
        "setoption",
    ];
    for line in bad {
        u.send(line);
        let got = u.wait_for("info string", PROMPT);
        assert_eq!(got.len(), 1, "{line:?}: {got:?}");
    }
    // Good options are taken silently.
    let params = std::env::temp_dir().join(format!("tsumugi-usi-test-{}.txt", std::process::id()));
    std::fs::write(&params, "soppo_distance = 4\n").unwrap_or_else(|e| panic!("{e}"));
    for line in [
        "setoption name soppo_mode value 1".to_string(),
        "setoption name Soppo value DS".to_string(),
        "setoption name Oracle value false".to_string(),
        "setoption name MultiPV value 2".to_string(),
        "setoption name NetworkDelay value 50".to_string(),
        format!("setoption name ParamsFile value {}", params.display()),
    ] {
        u.send(&line);
    }
    u.send("isready");
    let got = u.wait_for("readyok", PROMPT);
    assert_eq!(got, ["readyok"], "{got:?}");
    // The last good position still stands.
    u.send("go depth 1");
    let got = u.wait_for("bestmove", Duration::from_secs(10));
    legal_bestmove(got.last().map_or("", String::as_str), good);
    assert!(u.quit().success());
    let _ = std::fs::remove_file(params);
}

#[test]
fn gameover_and_quit_stop_a_search() {
    let mut u = Usi::ready();
    u.send("position startpos");
    u.send("go infinite");
    u.silent_for("bestmove", Duration::from_millis(200));
    u.send("gameover lose");
    u.wait_for("bestmove", PROMPT);
    u.send("isready");
    u.wait_for("readyok", PROMPT);
    u.send("usinewgame");
    u.send("position startpos moves 7g7f");
    u.send("go depth 1");
    let got = u.wait_for("bestmove", Duration::from_secs(10));
    legal_bestmove(got.last().map_or("", String::as_str), "position startpos moves 7g7f");
    // `quit` during a search: the answer, then the end.
    u.send("go infinite");
    u.silent_for("bestmove", Duration::from_millis(100));
    u.send("quit");
    u.wait_for("bestmove", PROMPT);
    assert!(u.wait_exit(PROMPT).success());
}

#[test]
fn end_of_input_ends_the_engine() {
    let mut u = Usi::ready();
    u.send("go infinite");
    u.close_input();
    u.wait_for("bestmove", PROMPT);
    assert!(u.wait_exit(PROMPT).success());
}

/// The first problems of the mate-in-3 sample of the repository.
fn mate3_problems(n: usize) -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/yaneuraou_mate3_100.sfen");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(n)
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .collect()
}

/// A mate line under tsume rules: it may end where only interpositions answer the check.
fn assert_tsume_mate_line(sfen: &str, moves: &[&str]) {
    let root = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let mut pos = root.clone();
    let line: Vec<shogi::Move> = moves
        .iter()
        .map(|m| {
            let mv = pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{sfen}: {m}: {e}"));
            pos.make_move(mv);
            mv
        })
        .collect();
    let verdict = solver::mate_line::verify_mate_line(&root, &line, solver::Rules::Tsume);
    assert_eq!(verdict, Ok(()), "{sfen}: {moves:?}");
}

#[test]
fn go_mate_answers_as_the_mate_engine_does() {
    let mut u = Usi::ready();
    for sfen in mate3_problems(3) {
        u.send(&format!("position sfen {sfen}"));
        u.send("go mate 10000");
        let got = u.wait_for("checkmate", Duration::from_secs(15));
        let answer = got.last().map_or("", String::as_str);
        let moves: Vec<&str> = answer.split_whitespace().skip(1).collect();
        // Tsume rules, as tsumugi-mate answers: no longer than the pure-rule 3 plies (futile
        // interpositions do not count), and a mate under those rules.
        assert!(moves.len() <= 3, "{sfen}: {answer}");
        assert_tsume_mate_line(&sfen, &moves);
    }
    // No check at all: proven no mate.
    u.send("position startpos");
    u.send("go mate 2000");
    let got = u.wait_for("checkmate", Duration::from_secs(5));
    assert_eq!(got.last().map(String::as_str), Some("checkmate nomate"));
    // `go mate infinite` until `stop` on a position with checks but no mate.
    u.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b R 1");
    u.send("go mate infinite");
    u.send("stop");
    let got = u.wait_for("checkmate", Duration::from_secs(5));
    let last = got.last().map_or("", String::as_str);
    assert!(last == "checkmate nomate" || last == "checkmate timeout", "{last}");
    u.send("go mate soon");
    let got = u.wait_for("checkmate", PROMPT);
    assert_eq!(got.last().map(String::as_str), Some("checkmate timeout"));
    u.send("isready");
    u.wait_for("readyok", PROMPT);
    assert!(u.quit().success());
}

#[test]
fn resign_only_without_a_legal_move_and_win_by_declaration() {
    let mut u = Usi::ready();
    // Checkmated: nothing to play.
    u.send("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    u.send("go btime 1000 wtime 1000 byoyomi 100");
    let got = u.wait_for("bestmove", PROMPT);
    assert_eq!(got.last().map(String::as_str), Some("bestmove resign"));
    // 27-point rule: king and ten pieces in the enemy camp, 28 points with the hand.
    let declare = "position sfen RRBBGGGG1/SS2K4/9/9/9/9/9/9/8k b 2P 1";
    let pos = parse_position_command(declare).unwrap_or_else(|e| panic!("{e}"));
    assert!(pos.can_declare_win());
    u.send(declare);
    u.send("go btime 1000 wtime 1000 byoyomi 100");
    let got = u.wait_for("bestmove", PROMPT);
    assert_eq!(got.last().map(String::as_str), Some("bestmove win"));
    assert!(u.quit().success());
}
