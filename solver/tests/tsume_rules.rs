//! Tsume rules (詰将棋ルール): futile interpositions (無駄合) do not count, the main line is the
//! defender's longest resistance (a defence that leaves the attacker no piece ranking first)
//! against the shortest mate, and answers match the lengths composers publish. Pure rules
//! count every interposition.

use shogi::{Color, Hand, Move, Position};
use solver::mate_line::verify_mate_line;
use solver::{stack, Limits, Outcome, Rules, SolveResult, Solver, SolverConfig};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn position(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn solve(sfen: &str, rules: Rules) -> SolveResult {
    let pos = position(sfen);
    stack::run_on_search_thread("test", move || {
        let mut solver =
            Solver::new(SolverConfig { hash_mb: 64, rules, ..SolverConfig::default() });
        let limits = Limits { time: Some(Duration::from_secs(60)), nodes: None };
        solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {})
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The line of a mate, checked by the rules alone (the tsume ending included).
fn mate_line(sfen: &str, r: &SolveResult, rules: Rules) -> Vec<Move> {
    let Outcome::Mate(line) = &r.outcome else { panic!("{sfen}: {:?}", r.outcome) };
    if let Err(e) = verify_mate_line(&position(sfen), line, rules) {
        panic!("{sfen}: {e}: {line:?}");
    }
    line.clone()
}

/// A rook check along the first file against a king whose only defence is to drop pawns in
/// the way: the knight on 2d guards 1b and the gold on 3b the king's other squares, so each
/// pawn is taken by the rook and the king is mated all the same. Under pure rules White drops
/// its two pawns (1 + 2 + 2 plies); under tsume rules they are futile and the mate is the
/// check itself.
const FUTILE: &str = "8k/6G2/9/7N1/9/9/9/9/R8 b 2p 1";

#[test]
fn futile_interpositions_do_not_count() {
    let pure = solve(FUTILE, Rules::Pure);
    assert_eq!(mate_line(FUTILE, &pure, Rules::Pure).len(), 5);
    let tsume = solve(FUTILE, Rules::Tsume);
    let line = mate_line(FUTILE, &tsume, Rules::Tsume);
    assert_eq!(line.len(), 1, "{line:?}");
    assert!(tsume.main_line);
    // The answer is not checkmate under pure rules: only the pawn drops remain.
    assert!(verify_mate_line(&position(FUTILE), &line, Rules::Pure).is_err());
}

/// The same without the knight: a pawn dropped on 1b, next to the king, cannot be taken by
/// the rook (the king takes back). That interposition (中合) is a real defence and there is no
/// mate, under either rules: calling it futile would answer a false mate.
const MEANINGFUL: &str = "8k/6G2/9/9/9/9/9/9/R8 b 2p 1";

#[test]
fn an_interposition_that_refutes_is_never_futile() {
    assert_eq!(solve(MEANINGFUL, Rules::Pure).outcome, Outcome::NoMate);
    assert_eq!(solve(MEANINGFUL, Rules::Tsume).outcome, Outcome::NoMate);
}

/// 図巧1 (69 plies): at ply 14 the defender's rook interposition on 2e is taken and taken back
/// (△２五飛 ▲同飛 △同桂), and the mate after it is longer than without it: the piece changes
/// the mate, so the interposition counts, as in the published answer.
#[test]
fn an_interposition_that_changes_the_mate_counts() {
    let root = "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1";
    let r = solve(root, Rules::Tsume);
    let line = mate_line(root, &r, Rules::Tsume);
    assert_eq!(line.len(), 69, "{line:?}");
    assert_eq!(line[13].to_string(), "R*2e", "{line:?}");
    assert!(r.main_line);
}

/// Short problems of 将棋図巧 with their published (tsume-rule) lengths.
#[test]
fn short_zukou_problems_have_their_published_lengths() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/edo_zukou.sfen"))
            .unwrap_or_else(|e| panic!("{e}"));
    for id in ["zukou-002", "zukou-005", "zukou-019", "zukou-085", "zukou-092"] {
        let line = text
            .lines()
            .find(|l| l.contains(&format!("# {id} ")))
            .unwrap_or_else(|| panic!("{id} missing"));
        let (sfen, tail) = line.split_once(" # ").unwrap_or_else(|| panic!("{line}"));
        let want: usize = tail
            .split_whitespace()
            .nth(1)
            .and_then(|a| a.trim_end_matches('?').parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        let r = solve(sfen, Rules::Tsume);
        assert_eq!(mate_line(sfen, &r, Rules::Tsume).len(), want, "{id}");
    }
}

/// 図巧33 (15 plies). After ▲８三飛 the defender may drop a pawn on 8e: ▲同角 △同桂 ▲９五歩
/// △同玉 then stands exactly where △９五玉 ▲８五角 △同桂 stands (same board, same hands), 4
/// plies later. An interposition that only returns to a position of another defence's line is a
/// detour, and composers call it futile: the record plays △９五玉 (the answer had been 17 plies
/// through △８五歩).
#[test]
fn an_interposition_that_returns_to_another_defences_line_is_futile() {
    let root = "l8/1n7/np3B3/SR1+P5/k1N6/9/1Ps6/1N7/5+B3 b r4g2s3l15p 1";
    let r = solve(root, Rules::Tsume);
    let line = mate_line(root, &r, Rules::Tsume);
    assert_eq!(line.len(), 15, "{line:?}");
    assert_eq!(line[3].to_string(), "9d9e", "{line:?}");
    // Under pure rules every interposition counts, the detour too.
    let pure = solve(root, Rules::Pure);
    assert!(mate_line(root, &pure, Rules::Pure).len() > 15);
}

/// 寿 (図巧100, 611 plies). Late in its line (ply 540) the defender may go △７一玉, mated in 5
/// plies with no piece left over, or △６一玉, mated in 71 with none; until the refinement looked
/// into the variations that compete with the main line, △６一玉 kept the value of the first
/// proof's mate, 90 plies with a piece to spare, which the no-piece-left ranking put below △７一玉:
/// the answer was 545 plies.
#[test]
fn kotobuki_resists_to_its_recorded_length() {
    let root = "g3p3+r/3lPG3/1s4ppp/1l1B4P/L2b1kPl1/3+p3+R+p/3+p2+s1S/+NP+p1gS3/1g+p2P3 b 4P3n 1";
    let r = solve(root, Rules::Tsume);
    assert_eq!(mate_line(root, &r, Rules::Tsume).len(), 611);
}

/// A root in check (an AND node, 図巧75 after ▲５七金 △同玉 ▲５九香): the main line's shorter
/// mates are looked for at the attacker's nodes, which are the odd plies here. cshogi's df-pn
/// finds the defender mated within 10 plies and not within 8. The 10-ply defence (△６八玉)
/// ends with a pawn in the attacker's hand, the 8-ply one (△５九馬, a counted interposition)
/// with none: by the composers' convention the defence that leaves no piece is the main line,
/// and it is proven shortest.
#[test]
fn a_root_in_check_gets_its_main_line() {
    let sfen = "4l4/9/4n4/9/2Ss1n+p+B1/1p7/4k1+b2/2p6/2+p1LL3 w 2RG3g2s2nl14p 4";
    let r = solve(sfen, Rules::Tsume);
    let line = mate_line(sfen, &r, Rules::Tsume);
    assert_eq!(line.len(), 8, "{line:?}");
    assert!(r.main_line && r.proven_shortest, "{r:?}");
    assert_eq!(hand_at_end(sfen, &line, Color::Black), Hand::EMPTY, "{line:?}");
}

/// The defence ranking (see `MateLen::defender_prefers`): after the root above, the longer
/// defence △６八玉 is mated in 9 more plies with a piece to spare, so it ranks below the 8-ply
/// defence that makes the attacker use every piece; the longest resistance alone would have
/// chosen it.
#[test]
fn a_defence_that_leaves_pieces_ranks_below_one_that_leaves_none() {
    let root = "4l4/9/4n4/9/2Ss1n+p+B1/1p7/4k1+b2/2p6/2+p1LL3 w 2RG3g2s2nl14p 4";
    let mut pos = position(root);
    let king_move = pos.parse_usi_move("5g6h").unwrap_or_else(|e| panic!("{e}"));
    pos.make_move(king_move);
    let after = pos.to_sfen();
    let r = solve(&after, Rules::Tsume);
    let line = mate_line(&after, &r, Rules::Tsume);
    assert_eq!(line.len(), 9, "{line:?}");
    assert_ne!(hand_at_end(&after, &line, Color::Black), Hand::EMPTY, "{line:?}");
    let whole = mate_line(root, &solve(root, Rules::Tsume), Rules::Tsume);
    assert_ne!(whole[0], king_move, "{whole:?}");
}

/// A defence whose first mate found leaves a piece, but which can be mated as long with none,
/// ranks as one that leaves none. Made by hand from YaneuraOu mate9 #59's corner: the bishop
/// on 3a checks the king on 2b. △２一玉 is mated by ▲２二飛 (2 plies, nothing left); △１二玉
/// by ▲１三飛 △２一玉 ▲２三飛成 leaves the silver, but ▲２二飛 △１三玉 ▲２一飛成 leaves
/// nothing, 4 plies: the main line. (The answer was once 2 plies: the refinement asked the
/// competing variations only for *shorter* mates.)
#[test]
fn a_defence_mated_as_long_with_no_piece_left_ranks_as_one_that_leaves_none() {
    let sfen = "6B1l/5S1k1/7s1/7pp/9/9/9/9/9 w Rrb4g2s4n3l16p 1";
    let r = solve(sfen, Rules::Tsume);
    let line = mate_line(sfen, &r, Rules::Tsume);
    let usi: Vec<String> = line.iter().map(|m| m.to_string()).collect();
    assert_eq!(usi.len(), 4, "{usi:?}");
    assert_eq!(usi[0], "2b1b", "{usi:?}");
    assert_eq!(hand_at_end(sfen, &line, Color::Black), Hand::EMPTY, "{usi:?}");
    assert!(r.proven_shortest, "{r:?}");
}

/// The attacker's hand after `line` is played from `sfen`.
fn hand_at_end(sfen: &str, line: &[Move], attacker: Color) -> Hand {
    let mut pos = position(sfen);
    for &m in line {
        pos.make_move(m);
    }
    pos.hand(attacker)
}

/// 図巧43 (85 plies): the refinement meets questions answered "shorter" whose line does not get
/// shorter (the table did not keep that proof). They are not asked again, and nothing else is
/// open: the refinement must end there, not raise its cap for ever (it once looped without
/// spending a node, deaf to the time limit).
#[test]
fn the_refinement_ends_when_only_doubtful_questions_are_left() {
    let sfen = "p3l3+P/1s1l2p2/5+P3/gp3NPpp/+R1S2+bLg1/1+pkN3G1/3p1P3/2N1S2R1/N4+p2B b S3Pgl3p 1";
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(solve(sfen, Rules::Tsume));
    });
    let r = receive
        .recv_timeout(Duration::from_secs(300))
        .unwrap_or_else(|e| panic!("no answer within 300 s: {e}"));
    assert_eq!(mate_line(sfen, &r, Rules::Tsume).len(), 85);
}

/// The futility of each interposition of `sfen` (the defender to move, in check) as the solver
/// rules it, by USI move.
fn futility(sfen: &str) -> Vec<(String, bool)> {
    let pos = position(sfen);
    stack::run_on_search_thread("test", move || {
        let mut solver = Solver::new(SolverConfig { hash_mb: 16, ..SolverConfig::default() });
        let attacker = !pos.side_to_move();
        let evasions = solver.classify_evasions(&pos, attacker, &AtomicBool::new(false));
        evasions.into_iter().map(|(m, futile)| (m.to_string(), futile)).collect()
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

fn futile(classified: &[(String, bool)], mv: &str) -> bool {
    classified
        .iter()
        .find(|(m, _)| m == mv)
        .unwrap_or_else(|| panic!("{mv} is not an evasion: {classified:?}"))
        .1
}

/// The lance on 5i checks the king on 5e up the file. A pawn dropped on 5f, next to the king,
/// taken by the lance (it cannot promote on 5f) leaves the king 4e, 6e and 6f; taken by the
/// gold on 4g it is mate at once (the gold covers 4e, 6e, 4f, 6f, the rook on 9d rank d, and
/// the lance guards the gold). Composers call that drop futile, whichever piece takes it.
#[test]
fn a_drop_taken_with_mate_by_another_piece_than_the_checker_is_futile() {
    let sfen = "9/9/9/R8/4k4/9/5G3/9/4L4 w p 1";
    let classified = futility(sfen);
    assert!(futile(&classified, "P*5f"), "{classified:?}");
    // The king's moves are never interpositions.
    assert!(!futile(&classified, "5e4e"), "{classified:?}");
}

/// The rook on 9a checks the king on 1a along the first rank. A pawn dropped on 2a and taken by
/// the rook is taken back by the king (nothing guards 2a), after which ▲２二金 (the pawn on 2c
/// guards 2b) still mates: the attacker mates, but not by taking the pawn and going on as
/// before. The drop is a real defence, not a futile one.
#[test]
fn a_drop_whose_capturer_the_king_takes_back_is_not_futile() {
    let sfen = "R7k/9/7P1/9/9/9/9/9/9 w Gp 1";
    let classified = futility(sfen);
    assert!(!futile(&classified, "P*2a"), "{classified:?}");
    // Further from the king, the rook takes the pawn unanswered: the same check, nearer. Not
    // mated here (the king goes to 1b), so not futile either.
    assert!(!futile(&classified, "P*4a"), "{classified:?}");
}
