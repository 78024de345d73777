//! The match runner: in-process self-play, and `tsumugi match` against external engines (our
//! own binary, and scripted fakes that play illegal moves, hang, or do not start).

use engine::eval::choice::EvalChoice;
use engine::eval::weights::Weights;
use engine::matches::game::{GameClock, Reason};
use engine::matches::internal_player::InternalSpec;
use engine::matches::openings::Opening;
use engine::matches::runner::{run_match, MatchConfig, PlayerSpec};
use engine::search::ponder::PonderSettings;
use engine::time_manager::TimeSettings;
use engine::{Params, SearchLimits};
use shogi::parse_position_command;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_tsumugi");

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tsumugi-match-test-{}-{name}", std::process::id()))
}

fn opening(line: &str) -> Opening {
    Opening::parse_line(line, 1)
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or_else(|| panic!("empty opening"))
}

fn internal(params: Params) -> PlayerSpec {
    PlayerSpec::Internal(InternalSpec {
        name: "tsumugi".to_string(),
        params: Box::new(params),
        hash_mb: 4,
        threads: 1,
        settings: TimeSettings { network_delay_ms: 5, minimum_thinking_ms: 0, lateness_ms: 0 },
        ponder: None,
        book: None,
        book_policy: Default::default(),
        eval: EvalChoice::Linear(std::sync::Arc::new(Weights::default())),
        turns: false,
    })
}

#[test]
fn in_process_self_play_is_legal_and_complete() {
    let mut a = Params::default();
    a.set("soppo_mode", 1).unwrap_or_else(|e| panic!("{e}"));
    for concurrency in [1, 2] {
        let config = MatchConfig {
            a: internal(a.clone()),
            b: internal(Params::default()),
            games: 4,
            openings: vec![
                Opening::startpos(),
                opening("position startpos moves 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b"),
            ],
            clock: GameClock {
                main_ms: Some(0),
                inc_ms: 0,
                byoyomi_ms: 40,
                tolerance_ms: 200,
                untimed_limit_ms: 10_000,
            },
            limits: SearchLimits { depth: Some(3), nodes: Some(3_000), multipv: 1 },
            max_plies: 50,
            concurrency,
            record: None,
            progress: false,
        };
        let (summary, games) = run_match(&config).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(summary.a.games(), 4);
        assert_eq!(games.len(), 4);
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.index, i);
            let r = &g.record.result;
            assert!(
                !matches!(r.reason, Reason::Illegal | Reason::Crash | Reason::Time),
                "game {i}: {r:?}"
            );
            // Every move legal: the whole game replays through the rules.
            parse_position_command(&g.record.command)
                .unwrap_or_else(|e| panic!("game {i}: {e}: {}", g.record.command));
            assert!(g.record.moves.len() <= 50);
        }
        // Colours alternate on each opening.
        assert_eq!(summary.a_black.games(), 2);
        assert_eq!(summary.a_white.games(), 2);
    }
}

fn tsumugi_match(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("match")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"))
}

/// The numbers of `games N: A wins W draws D losses L` and the `endings:` line.
fn results(out: &Output) -> ([u32; 4], String) {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}\n{stdout}\n{stderr}", out.status);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("games "))
        .unwrap_or_else(|| panic!("no result line: {stdout}"));
    let n: Vec<u32> =
        line.split(|c: char| !c.is_ascii_digit()).filter_map(|t| t.parse().ok()).take(4).collect();
    let endings = stdout.lines().find(|l| l.starts_with("endings:")).unwrap_or("").to_string();
    ([n[0], n[1], n[2], n[3]], endings)
}

#[test]
fn match_against_our_own_binary_as_an_external_engine() {
    let record = temp_path("record.txt");
    let record_arg = record.display().to_string();
    let out = tsumugi_match(&[
        "--games",
        "2",
        "--openings",
        "startpos",
        "--movetime-ms",
        "60",
        "--max-plies",
        "24",
        "--hash",
        "8",
        "--external",
        BIN,
        "--external-option",
        "USI_Hash=8",
        "--external-option",
        "NetworkDelay=20",
        "--record",
        &record_arg,
    ]);
    let ([games, w, d, l], endings) = results(&out);
    assert_eq!((games, w + d + l), (2, 2));
    for clean in ["illegal 0", "time 0", "crash 0"] {
        assert!(endings.contains(clean), "{endings}");
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().filter(|l| l.starts_with("game ")).count(), 2, "{stderr}");
    let text = std::fs::read_to_string(&record).unwrap_or_else(|e| panic!("{e}"));
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("position ")).collect();
    assert_eq!(games.len(), 2, "{text}");
    for g in games {
        parse_position_command(g).unwrap_or_else(|e| panic!("{e}: {g}"));
    }
    let _ = std::fs::remove_file(record);
}

/// A fake USI engine as a shell script: `go` is answered by `on_go` (shell code).
fn fake_engine(name: &str, on_go: &str) -> PathBuf {
    let path = temp_path(name);
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    usi) echo 'id name \
         {name}'; echo usiok;;\n    isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit \
         0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap_or_else(|e| panic!("{e}"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    path
}

#[test]
fn external_engines_that_cheat_hang_or_fail_lose() {
    let base = ["--games", "2", "--openings", "startpos", "--movetime-ms", "50", "--hash", "4"];
    let liar = fake_engine("liar", "echo 'bestmove 5e5d'");
    let liar_arg = liar.display().to_string();
    let out = tsumugi_match(&[&base[..], &["--external", &liar_arg]].concat());
    let ([_, w, _, _], endings) = results(&out);
    assert_eq!(w, 2, "{endings}");
    assert!(endings.contains("illegal 2 (A lost 0, B lost 2)"), "{endings}");

    let resigner = fake_engine("resigner", "echo 'bestmove resign'");
    let resigner_arg = resigner.display().to_string();
    let out = tsumugi_match(&[&base[..], &["--external", &resigner_arg]].concat());
    let ([_, w, _, _], endings) = results(&out);
    assert_eq!(w, 2, "{endings}");
    assert!(endings.contains("resign 2"), "{endings}");

    // Never answers `go`: lost on time, killed, restarted for the next game.
    let sleeper = fake_engine("sleeper", ":");
    let sleeper_arg = sleeper.display().to_string();
    let out =
        tsumugi_match(&[&base[..], &["--external", &sleeper_arg, "--tolerance-ms", "50"]].concat());
    let ([_, w, _, _], endings) = results(&out);
    assert_eq!(w, 2, "{endings}");
    assert!(endings.contains("time 2 (A lost 0, B lost 2)"), "{endings}");

    // Not an engine at all: the match does not start.
    let out = tsumugi_match(&[&base[..], &["--external", "/bin/false"]].concat());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = tsumugi_match(&[&base[..], &["--external", "/no/such/engine"]].concat());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    for p in [liar, resigner, sleeper] {
        let _ = std::fs::remove_file(p);
    }
}

/// Ponder on both sides: our in-process player (three candidates) against our binary as an
/// external engine driven as a GUI drives it. A wrapper records what the match sends.
#[test]
fn match_with_ponder_on_both_sides() {
    let sent = temp_path("ponder-sent.txt");
    let wrapper = temp_path("ponder-wrapper.sh");
    let script = format!("#!/bin/sh\ntee -a '{}' | '{BIN}'\n", sent.display());
    std::fs::write(&wrapper, script).unwrap_or_else(|e| panic!("{e}"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let wrapper_arg = wrapper.display().to_string();
    let out = tsumugi_match(&[
        "--games",
        "2",
        "--openings",
        "startpos",
        "--time-ms",
        "2000",
        "--byoyomi-ms",
        "50",
        "--max-plies",
        "30",
        "--hash",
        "8",
        "--a-ponder",
        "3",
        "--b-ponder",
        "--external",
        &wrapper_arg,
        "--external-option",
        "USI_Hash=8",
        "--external-option",
        "NetworkDelay=20",
    ]);
    let ([games, ..], endings) = results(&out);
    assert_eq!(games, 2);
    for clean in ["illegal 0", "time 0", "crash 0"] {
        assert!(endings.contains(clean), "{endings}");
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("A: tsumugi[ponder=3]"), "{stdout}");
    // `ponder: A pondered N times, expected reply played H (..), moves answered at once from a
    // ponder search K (..); B pondered M times, ...`
    let line = stdout.lines().find(|l| l.starts_with("ponder: ")).unwrap_or_default();
    // Numbers in order: A's count, hits, percent (two parts), answered at once, percent (two
    // parts), then the same for B.
    let n: Vec<u32> =
        line.split(|c: char| !c.is_ascii_digit()).filter_map(|t| t.parse().ok()).collect();
    assert!(n.len() == 14 && n[0] >= 10 && n[7] >= 10, "both sides ponder: {line}");
    assert!(n[1] >= 1 && n[8] >= 1, "self-play predicts some replies: {line}");
    // The external engine got USI_Ponder, `go ponder` on the position after its expected
    // reply, then `ponderhit` or `stop`, each `stop` followed by a new position and `go`.
    let text = std::fs::read_to_string(&sent).unwrap_or_else(|e| panic!("{e}"));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"setoption name USI_Ponder value true"), "{text}");
    let go_ponder = lines.iter().filter(|l| l.starts_with("go ponder ")).count();
    let hits = lines.iter().filter(|l| **l == "ponderhit").count();
    assert!(go_ponder >= 10 && hits >= 1, "{text}");
    for (i, l) in lines.iter().enumerate().filter(|(_, l)| l.starts_with("go ponder ")) {
        let previous = lines[i - 1];
        assert!(previous.starts_with("position startpos moves "), "{previous}");
        parse_position_command(previous).unwrap_or_else(|e| panic!("{e}: {previous}"));
        let next = lines.get(i + 1).copied().unwrap_or("");
        assert!(["ponderhit", "stop"].contains(&next), "after {l}: {next:?}");
        if next == "stop" {
            let after = lines.get(i + 2).copied().unwrap_or("");
            assert!(after.starts_with("position ") || after.starts_with("gameover"), "{after}");
        }
    }
    for p in [sent, wrapper] {
        let _ = std::fs::remove_file(p);
    }
}

/// Player A with a book: its first move as black is the book's (a move the search would not
/// choose), and its name says which book it plays.
#[test]
fn match_with_a_book() {
    let book = temp_path("opening.db");
    let text = "#YANEURAOU-DB2016 1.00\n\
                sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
                9i9h none 0 0 1\n";
    std::fs::write(&book, text).unwrap_or_else(|e| panic!("{e}"));
    let record = temp_path("book-games.txt");
    let out = tsumugi_match(&[
        "--games",
        "2",
        "--openings",
        "startpos",
        "--movetime-ms",
        "30",
        "--max-plies",
        "6",
        "--hash",
        "4",
        "--a-book",
        &book.display().to_string(),
        "--record",
        &record.display().to_string(),
    ]);
    let ([games, ..], endings) = results(&out);
    assert_eq!(games, 2);
    assert!(endings.contains("illegal 0") && endings.contains("crash 0"), "{endings}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stem = book.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    assert!(stdout.contains(&format!("A: tsumugi[book={stem}]")), "{stdout}");
    let games = std::fs::read_to_string(&record).unwrap_or_else(|e| panic!("{e}"));
    let lines: Vec<&str> = games.lines().filter(|l| l.starts_with("position")).collect();
    // Game 1: A is black and plays the book's 9i9h; game 2: B is black and searches.
    assert!(lines[0].starts_with("position startpos moves 9i9h "), "{games}");
    assert!(!lines[1].starts_with("position startpos moves 9i9h "), "{games}");
    let _ = std::fs::remove_file(book);
    let _ = std::fs::remove_file(record);
}

/// `--turns`: multi-candidate ponder (A, five replies) against classic ponder (B) at a node
/// budget, the players taking turns. The same games twice: no search depends on the clock
/// or on the other side's thinking; and A's ponder answers moves from its kept searches.
#[test]
fn turns_at_a_node_budget_play_the_same_games_twice() {
    turns_match(false);
}

/// `--turns --hits-continue`: the same, but no move is answered at once: a pondered reply is
/// searched again with the move's budget from the warm table.
#[test]
fn turns_with_hits_continuing_answer_nothing_at_once() {
    turns_match(true);
}

fn turns_match(hits_continue: bool) {
    let player = |candidates: usize| {
        let params = Params { oracle_root_ms: 0, ..Params::default() };
        match internal(params) {
            PlayerSpec::Internal(spec) => PlayerSpec::Internal(InternalSpec {
                ponder: Some(PonderSettings { candidates, margin_cp: 300, hits_continue }),
                turns: true,
                ..spec
            }),
            other => other,
        }
    };
    let config = MatchConfig {
        a: player(5),
        b: player(1),
        games: 4,
        openings: vec![
            Opening::startpos(),
            opening("position startpos moves 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b"),
        ],
        clock: GameClock {
            main_ms: None,
            inc_ms: 0,
            byoyomi_ms: 0,
            tolerance_ms: 200,
            untimed_limit_ms: 60_000,
        },
        limits: SearchLimits { depth: None, nodes: Some(2_000), multipv: 1 },
        max_plies: 40,
        concurrency: 2,
        record: None,
        progress: false,
    };
    let moves = |games: &[engine::matches::runner::MatchGame]| -> Vec<Vec<String>> {
        games.iter().map(|g| g.record.moves.clone()).collect()
    };
    let (first_summary, first) = run_match(&config).unwrap_or_else(|e| panic!("{e}"));
    let (_, second) = run_match(&config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(moves(&first), moves(&second));
    assert!(first.iter().all(|g| g.record.moves.len() >= 10), "{:?}", moves(&first));
    // Both sides pondered on most moves.
    let pondered = first_summary.a_think.pondered + first_summary.b_think.pondered;
    assert!(pondered > 20, "{pondered}");
    // A move whose reply was pondered with the whole budget is answered at once from it,
    // unless hits continue.
    let hits = first_summary.a_think.ponder_hits + first_summary.b_think.ponder_hits;
    let at_once = first_summary.a_think.from_ponder + first_summary.b_think.from_ponder;
    if hits_continue {
        assert!(at_once == 0 && hits > 0, "{at_once} answered at once, {hits} hits");
    } else {
        assert!(at_once > 0 && at_once <= hits, "{at_once} answered at once, {hits} hits");
    }
}
