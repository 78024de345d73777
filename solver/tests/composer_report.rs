//! The composer's report on positions with known flaws: a cook, pieces left in hand, a sound
//! mate, a line that departs from an intended line by a weaker defence (変長), no mate.

use shogi::{parse_position_command, Move, Position};
use solver::composer::intended::Departure;
use solver::composer::{
    check_problem, text, ComposerReport, Cook, CookKind, Line, ReportLimits, Status, VariationFlag,
};
use solver::{Limits, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn position(sfen: &str) -> Position {
    parse_position_command(&format!("sfen {sfen}")).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn report(sfen: &str, intended: Option<&[Move]>) -> ComposerReport {
    let mut solver = Solver::new(SolverConfig { hash_mb: 32, ..SolverConfig::default() });
    let limits = ReportLimits {
        main: Limits { time: Some(Duration::from_secs(30)), nodes: None },
        question_nodes: 200_000,
        // Enough for these small problems' questions; the checks of a game position that do
        // not mate can take longer to disprove, and would use all of a larger budget.
        questions_time: Duration::from_secs(5),
        ..ReportLimits::default()
    };
    let stop = AtomicBool::new(false);
    check_problem(&mut solver, &position(sfen), intended, &limits, &stop)
}

/// USI moves played one after another from `root`.
fn line(root: &Position, usi: &[String]) -> Vec<Move> {
    root.parse_usi_line(usi).unwrap_or_else(|e| panic!("{usi:?}: {e}"))
}

fn problem_line(file: &str, id: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/").to_string() + file;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let line = text.lines().find(|l| l.contains(&format!(" # {id} ")));
    let line = line.unwrap_or_else(|| panic!("{id} not in {path}"));
    line.split(" #").next().unwrap_or_default().trim().to_string()
}

#[test]
fn a_sound_mate_in_one() {
    let r = report("4k4/9/4P4/9/9/9/9/9/9 b G 1", None);
    assert_eq!((r.status, r.length), (Status::Mate, Some(1)));
    assert_eq!(r.main_line.usi, ["G*5b"]);
    assert!(r.cooks.is_empty() && r.pieces_left.is_empty() && r.unsettled.is_empty(), "{r:?}");
    assert!(r.sound());
    let t = text::render("sound", &r);
    assert!(!t.contains("余詰") && !t.contains("駒余り") && t.contains("sound"), "{t}");
}

#[test]
fn pieces_left_in_hand() {
    let r = report("4k4/9/4P4/9/9/9/9/9/9 b GP 1", None);
    assert_eq!(r.length, Some(1));
    assert_eq!(r.pieces_left, ["歩"]);
    assert!(!r.sound());
    assert!(text::render("left", &r).contains("駒余り"));
}

#[test]
fn cooks_of_a_mate_in_one_with_several_mating_moves() {
    // nshogi-mate1-0003: 7i6g mates, and so does 7i8g; two more checks mate later.
    let r = report(&problem_line("nshogi_mate1.sfen", "nshogi-mate1-0003"), None);
    assert_eq!(r.length, Some(1));
    let mut cooks: Vec<(&str, usize)> =
        r.cooks.iter().map(|c| (c.line.usi[0].as_str(), c.length)).collect();
    cooks.sort();
    assert!(cooks.contains(&("7i8g", 1)), "{cooks:?}");
    assert!(cooks.iter().all(|&(m, _)| m != r.main_line.usi[0]));
    // Each cook's line is a real mate: replayed through the rules.
    let root = position(&r.sfen);
    for c in &r.cooks {
        assert_eq!(c.ply, 1);
        assert_eq!(c.line.usi.len(), c.length);
        let moves = line(&root, &c.line.usi);
        let verdict = solver::mate_line::verify_mate_line(&root, &moves, solver::Rules::Tsume);
        assert!(verdict.is_ok(), "{:?}: {verdict:?}", c.line.usi);
    }
    assert!(text::render("cook", &r).contains("余詰 at move 1: "));
}

#[test]
fn an_intended_line_with_a_weaker_defence_departs_by_a_longer_one() {
    // The first mate in 5 of the YaneuraOu sample with a defence at move 2 that is mated
    // sooner: as the intended line, the solver's longer defence is 変長 against it.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/yaneuraou_mate5_100.sfen");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let found = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(20)
        .map(|l| l.split(" #").next().unwrap_or_default().trim().to_string())
        .find_map(|sfen| {
            let r = report(&sfen, None);
            let v = r.variations.iter().find(|v| v.ply == 2 && v.length < v.main_length)?.clone();
            Some((sfen, r, v))
        });
    let Some((sfen, r, v)) = found else { panic!("no mate in 5 with a shorter defence") };
    assert_eq!(r.length, Some(5));
    assert_eq!(v.flag, VariationFlag::Shorter);
    let root = position(&sfen);
    let usi: Vec<String> = [&r.main_line.usi[0]].into_iter().chain(&v.line.usi).cloned().collect();
    let intended = line(&root, &usi);
    let r = report(&sfen, Some(&intended));
    let i = r.intended.as_ref().unwrap_or_else(|| panic!("no comparison"));
    assert_eq!(i.departs_at, Some(2));
    assert_eq!(i.departure, Departure::LongerDefence { intended: Some(v.length), main: 4 });
    assert!(text::render("intended", &r).contains("変長"));
    // The main line itself as the intended line is the same line.
    let main = line(&root, &r.main_line.usi);
    let same = report(&sfen, Some(&main));
    assert_eq!(same.intended.map(|i| i.departure), Some(Departure::Same));
}

#[test]
fn no_mate_names_a_refuting_defence_for_each_check() {
    // One check (G*5b) and the king takes nothing... the gold is unprotected: K takes it.
    let r = report("4k4/9/9/9/9/9/9/9/9 b G 1", None);
    assert_eq!(r.status, Status::NoMate);
    assert!(!r.refutations.is_empty());
    assert!(r.refutations.iter().all(|f| f.refuted && f.line.usi.len() == 2), "{r:?}");
    assert!(text::render("nomate", &r).contains("不詰"));
}

#[test]
fn the_report_command_writes_text_html_and_kif_and_reads_a_kif_with_its_intended_line() {
    use solver::composer::command::{run_with, ReportArgs};
    let dir = std::env::temp_dir().join(format!("tsumugi-report-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    // A KIF whose intended line is the mate, and a broken record after it.
    let kif = "表題：one\n後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ 歩 ・ ・ ・ ・|三\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n\
+---------------------------+\n先手の持駒：金\n手数----指手---------消費時間--\n   1 ５二金打\n";
    let file = dir.join("one.kif");
    std::fs::write(&file, kif).unwrap_or_else(|e| panic!("{e}"));
    let args = ReportArgs {
        files: vec![file],
        time_ms: Some(10_000),
        nodes: None,
        questions_time_ms: Some(10_000),
        questions_nodes: None,
        question_nodes: 100_000,
        hash: 16,
        threads: Some(1),
        jobs: Some(1),
        json: false,
        html: Some(dir.join("html")),
        kif: Some(dir.join("kif")),
        quiet: true,
        table_file: None,
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(run_with(&args, &mut out, &mut err), 0, "{}", String::from_utf8_lossy(&err));
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("1手詰") && text.contains("▲５二金"), "{text}");
    assert!(text.contains("intended line: the intended line is the main line"), "{text}");
    let html = std::fs::read_to_string(dir.join("html/one.kif.html")).unwrap_or_default();
    assert!(html.contains("<svg") && html.contains("one"), "{html}");
    let back = std::fs::read_to_string(dir.join("kif/one.kif.kif")).unwrap_or_default();
    let records = shogi::notation::read_records(&back, shogi::notation::Format::Kif);
    let record = match records.as_slice() {
        [Ok(r)] => r,
        other => panic!("{other:?}"),
    };
    assert_eq!(record.position.to_sfen(), "4k4/9/4P4/9/9/9/9/9/9 b G 1");
    assert_eq!(record.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["G*5b"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_detour_back_to_an_earlier_position_of_the_main_line_is_not_a_cook() {
    // 図巧1: asked from bare positions, checks at moves 13 to 33 "mated" by lines that come
    // back to positions the main line had already passed (cshogi confirmed the repetitions).
    // Asked with the main line's way on the path, no cook line repeats a position.
    let sfen = problem_line("edo_zukou.sfen", "zukou-001");
    let mut solver = Solver::new(SolverConfig { hash_mb: 256, ..SolverConfig::default() });
    let limits = ReportLimits {
        main: Limits { time: Some(Duration::from_secs(60)), nodes: None },
        question_nodes: 200_000,
        questions_time: Duration::from_secs(20),
        ..ReportLimits::default()
    };
    let root = position(&sfen);
    let r = check_problem(&mut solver, &root, None, &limits, &AtomicBool::new(false));
    assert_eq!(r.length, Some(69));
    // At move 55 the silver mates promoted or not: 成不成非限定, not a cook.
    let choice = r.cooks.iter().find(|c| c.ply == 55);
    let choice = choice.unwrap_or_else(|| panic!("no alternative at move 55: {:?}", r.cooks));
    assert_eq!(choice.kind, CookKind::PromotionChoice);
    assert_eq!(choice.line.usi[0].trim_end_matches('+'), r.main_line.usi[54].trim_end_matches('+'));
    assert!(!text::render("zukou-001", &r).contains("余詰 at move 55"));
    for c in &r.cooks {
        let mut pos = root.clone();
        let mut seen = vec![pos.key()];
        let usi: Vec<String> =
            r.main_line.usi[..c.ply - 1].iter().chain(&c.line.usi).cloned().collect();
        for mv in line(&root, &usi) {
            pos.make_move(mv);
            assert!(!seen.contains(&pos.key()), "cook at move {}: {:?} repeats", c.ply, c.line);
            seen.push(pos.key());
        }
    }
}

/// The report of `sfen` with a fresh solver, a first node cap of `question_nodes` a question and
/// `questions_ms` for all of them.
fn report_within(sfen: &str, question_nodes: u64, questions_ms: u64) -> ComposerReport {
    let mut solver = Solver::new(SolverConfig { hash_mb: 64, ..SolverConfig::default() });
    let limits = ReportLimits {
        main: Limits { time: Some(Duration::from_secs(60)), nodes: None },
        question_nodes,
        questions_time: Duration::from_millis(questions_ms),
        ..ReportLimits::default()
    };
    check_problem(&mut solver, &position(sfen), None, &limits, &AtomicBool::new(false))
}

/// What a report found, in a form two reports can be compared by: each cook (ply, move, kind)
/// and each variation (ply, move, flag).
fn verdicts(r: &ComposerReport) -> (Vec<String>, Vec<String>) {
    let mut cooks: Vec<String> =
        r.cooks.iter().map(|c| format!("{} {} {:?}", c.ply, c.line.usi[0], c.kind)).collect();
    let mut variations: Vec<String> =
        r.variations.iter().map(|v| format!("{} {} {:?}", v.ply, v.line.usi[0], v.flag)).collect();
    cooks.sort();
    variations.sort();
    (cooks, variations)
}

#[test]
fn questions_stopped_by_their_cap_are_asked_again_until_settled() {
    // With a first cap of 64 nodes nearly every question is stopped at first; asked again with
    // the cap doubled while the time lasts, all are settled, with the findings of the default cap.
    // A YaneuraOu sample with cooks at moves 5 and 7 and two variations.
    let sfen = problem_line("yaneuraou_mate7_100.sfen", "yane500m-mate7-0003");
    let generous = report_within(&sfen, 200_000, 60_000);
    let tiny = report_within(&sfen, 64, 60_000);
    assert!(generous.unsettled.is_empty(), "{:?}", generous.unsettled);
    assert!(tiny.unsettled.is_empty(), "{:?}", tiny.unsettled);
    assert_eq!(tiny.length, generous.length);
    assert_eq!(verdicts(&tiny), verdicts(&generous));
    let q = &tiny.questions;
    assert!(q.settled > 0 && q.unsettled == 0 && q.budget_ms == Some(60_000), "{q:?}");
    let t = text::render("tiny", &tiny);
    assert!(t.contains(&format!("questions: {} settled, 0 unsettled", q.settled)), "{t}");
}

#[test]
fn with_no_time_for_questions_every_question_is_unsettled_and_says_so() {
    let r = report_within(&problem_line("nshogi_mate1.sfen", "nshogi-mate1-0003"), 200_000, 0);
    assert_eq!(r.length, Some(1));
    assert!(r.cooks.is_empty(), "{:?}", r.cooks);
    assert!(!r.unsettled.is_empty());
    assert!(
        r.unsettled.iter().all(|u| u.what.contains("before it was asked")),
        "{:?}",
        r.unsettled
    );
    assert_eq!((r.questions.settled, r.questions.unsettled), (0, r.unsettled.len()));
    assert!(!r.sound());
}

/// `report --table-file`: a second report of the same problem with the same file answers what
/// the first settled from the file (図巧2: 312,287 nodes, then 6,029), and is the same report.
#[test]
fn a_second_report_with_the_table_file_goes_on_from_the_first() {
    use solver::composer::command::{run_with, ReportArgs};
    let dir = std::env::temp_dir().join(format!("tsumugi-report-file-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let problem = dir.join("zukou-002.sfen");
    let sfen = problem_line("edo_zukou.sfen", "zukou-002");
    std::fs::write(&problem, format!("{sfen} # zukou-002\n")).unwrap_or_else(|e| panic!("{e}"));
    let args = ReportArgs {
        files: vec![problem],
        time_ms: Some(60_000),
        nodes: None,
        questions_time_ms: Some(60_000),
        questions_nodes: None,
        question_nodes: 200_000,
        hash: 64,
        threads: Some(2),
        jobs: None,
        json: true,
        html: None,
        kif: None,
        quiet: true,
        table_file: Some(dir.join("table.tt")),
    };
    let run = || {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(run_with(&args, &mut out, &mut err), 0, "{}", String::from_utf8_lossy(&err));
        let json: serde_json::Value =
            serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{e}"));
        let report = json[0]["report"].clone();
        (report, String::from_utf8_lossy(&err).to_string())
    };
    let (first, log) = run();
    assert!(log.contains("created"), "{log}");
    let (second, log) = run();
    assert!(log.contains("opened"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
    let nodes = |r: &serde_json::Value| r["nodes"].as_u64().unwrap_or_default();
    assert!(nodes(&first) > 100_000, "{first}");
    assert!(nodes(&second) * 10 < nodes(&first), "{} then {}", nodes(&first), nodes(&second));
    assert_eq!(first["questions"]["unsettled"], 0, "{first}");
    for field in ["main_line", "cooks", "variations", "unsettled", "pieces_left", "proven_shortest"]
    {
        assert_eq!(first[field], second[field], "{field}");
    }
    assert_eq!(first["questions"]["settled"], second["questions"]["settled"]);
}

/// The report of `sfen` budgeted in nodes alone, so that at one thread it is the same on every
/// machine: `main` for its own solve, `questions` for its questions together, each first asked
/// within `first_cap`.
fn report_by_nodes(sfen: &str, main: u64, first_cap: u64, questions: u64) -> ComposerReport {
    let mut solver = Solver::new(SolverConfig { hash_mb: 64, ..SolverConfig::default() });
    let limits = ReportLimits {
        main: Limits { time: None, nodes: Some(main) },
        question_nodes: first_cap,
        questions_time: Duration::MAX,
        questions_nodes: Some(questions),
        ..ReportLimits::default()
    };
    check_problem(&mut solver, &position(sfen), None, &limits, &AtomicBool::new(false))
}

/// 図巧12 (27 plies): its own solve does not prove the length the shortest within its budget,
/// but the report's questions settle every other check along the main line with no mate sooner
/// than the main line's, which proves it; the headline says so, and by what. With a node budget
/// for the questions and none of time, the report is the same twice.
#[test]
fn the_questions_prove_the_length_where_the_solve_did_not() {
    let sfen = problem_line("edo_zukou.sfen", "zukou-012");
    let run =
        || report_by_nodes(&sfen, 120_000_000, ReportLimits::default().question_nodes, 4_000_000);
    let r = run();
    assert_eq!(r.length, Some(27));
    assert!(r.unsettled.is_empty() && r.shorter_open.is_empty(), "{:?}", r.unsettled);
    assert!(r.proven_shortest && r.shortest_from_questions, "{r:?}");
    let t = text::render("zukou-012", &r);
    assert!(t.contains("27手詰 (shortest proven, by the questions;"), "{t}");
    let q = &r.questions;
    assert!(q.nodes <= 4_000_000 && q.budget_nodes == Some(4_000_000) && q.budget_ms.is_none());
    assert!(t.contains(&format!("in {} nodes of the 4000000 for questions", q.nodes)), "{t}");
    let again = run();
    assert_eq!((again.nodes, verdicts(&again)), (r.nodes, verdicts(&r)));
    assert_eq!(again.questions.settled, q.settled);
}

/// Where the questions leave a shorter mate open, the headline names it: 図巧12 with one node for
/// its questions (its own solve does not prove the length) reads "shortest NOT proven" and
/// names the first other check that may mate sooner.
#[test]
fn an_open_question_about_a_shorter_mate_is_named_in_the_headline() {
    let sfen = problem_line("edo_zukou.sfen", "zukou-012");
    let r = report_by_nodes(&sfen, 120_000_000, ReportLimits::default().question_nodes, 1);
    assert!(!r.proven_shortest && !r.shorter_open.is_empty(), "{r:?}");
    let first = &r.shorter_open[0];
    let t = text::render("zukou-012", &r);
    let named =
        format!("may mate sooner, the first at move {} ({})", first.ply, first.line.japanese[0]);
    assert!(t.contains("shortest NOT proven: ") && t.contains(&named), "{t}");
}

/// A cook as long as the main line whose "does it mate sooner?" the budget did not reach is an
/// open question like any other: 図巧10 at 4,000,000 nodes of questions (its ▲４五金 at move 15,
/// a transposition of the main line's ▲４五龍, needs 4,043,820 to be proven no shorter) lists
/// it as unsettled, so that "every question settled" and "shortest NOT proven" never meet.
#[test]
fn a_cook_whose_length_is_open_leaves_its_question_unsettled() {
    let sfen = problem_line("edo_zukou.sfen", "zukou-010");
    let r = report_by_nodes(&sfen, 120_000_000, ReportLimits::default().question_nodes, 4_000_000);
    assert!(!r.proven_shortest && !r.shorter_open.is_empty(), "{r:?}");
    for open in &r.shorter_open {
        let listed = r
            .unsettled
            .iter()
            .any(|u| u.ply == open.ply && u.line.japanese.first() == open.line.japanese.first());
        assert!(listed, "{open:?} not among {:?}", r.unsettled);
    }
    let cook = r.cooks.iter().find(|c| !c.proven && c.length == c.main_length);
    let cook = cook.unwrap_or_else(|| panic!("no cook as long as the main line: {:?}", r.cooks));
    let t = text::render("zukou-010", &r);
    let line = format!(
        "unsettled at move {}: {}: mates in {}, a mate sooner than the main line's {} not ruled out",
        cook.ply, cook.line.japanese[0], cook.length, cook.main_length
    );
    assert!(t.contains(&line), "{t}");
    assert_eq!(r.questions.unsettled, r.unsettled.len());
}

/// A cook whose line is shorter than the main line's from its move is a mate sooner: the
/// headline says a shorter mate was found, where, and by how much, before any open question
/// (図巧47 at 20 s of questions: ▲２三角 at move 19 mates in 7 plies, the main line needs 11).
/// The cook here is the mate in one beside the main line's first move, its length set longer
/// on the main line's side, as a solve cut short would leave it.
#[test]
fn a_cook_shorter_than_the_main_line_is_named_in_the_headline() {
    let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
    let mut r = report(sfen, None);
    let pos = position(sfen);
    let check = pos.parse_usi_move("G*4b").unwrap_or_else(|e| panic!("{e}"));
    r.proven_shortest = false;
    r.cooks.push(Cook {
        kind: CookKind::Cook,
        ply: 1,
        line: Line::new(&pos, &[check], None),
        length: 1,
        main_length: 3,
        proven: true,
    });
    let t = text::render("sooner", &r);
    let named = "shortest NOT proven: a shorter mate found, at move 1 ▲４二金 mates in 1 plies \
                 against the main line's 3";
    assert!(t.contains(named), "{t}");
    if let Some(c) = r.cooks.last_mut() {
        c.length = 3;
    }
    let t = text::render("as long", &r);
    assert!(!t.contains("a shorter mate found"), "{t}");
}

/// After the first move another check is a cook only if it mates within the main line's plies
/// from there, and that is what it is asked first, with the bound, rather than whether it
/// mates at all. A YaneuraOu mate in 11 (the main solve capped at 5,000,000 nodes, 200,000
/// nodes of questions, first tries of 20,000: one thread, so the same report everywhere)
/// settles every question; asked without a bound its later checks left 13 open.
#[test]
fn a_later_check_is_asked_whether_it_mates_within_the_main_line() {
    let sfen = problem_line("yaneuraou_mate11_100.sfen", "yane500m-mate11-0001");
    let r = report_by_nodes(&sfen, 5_000_000, 20_000, 200_000);
    assert_eq!(r.length, Some(11));
    assert!(r.unsettled.is_empty(), "{:?}", r.unsettled);
    assert!(r.proven_shortest && r.questions.unsettled == 0, "{:?}", r.questions);
    assert!(r.questions.nodes <= 200_000, "{:?}", r.questions);
}
