//! Repetition, perpetual check and move-class rules on hand-built positions.

use shogi::movegen::{generate, legal_moves};
use shogi::{
    parse_position_command, Color, MoveClass, MoveList, NonPromotions, Position, Repetition,
};

fn play(cmd: &str) -> Position {
    parse_position_command(cmd).unwrap_or_else(|e| panic!("{cmd}: {e}"))
}

#[test]
fn fourfold_repetition_is_a_draw() {
    let shuffle = "5i5h 5a5b 5h5i 5b5a";
    let three = play(&format!("position startpos moves {shuffle} {shuffle}"));
    assert_eq!(three.repetition(), Repetition::None, "only three occurrences");
    assert_eq!(three.repetition_after(3), Repetition::Draw);
    let four = play(&format!("position startpos moves {shuffle} {shuffle} {shuffle}"));
    assert_eq!(four.repetition(), Repetition::Draw);
    let moved_on = play(&format!("position startpos moves {shuffle} {shuffle} {shuffle} 7g7f"));
    assert_eq!(moved_on.repetition(), Repetition::None);
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let cycle = "5a5b 9a9b 5b5a 9b9a";
    let base = "position sfen 4k4/9/9/9/9/9/9/9/R3K4 b - 1 moves 9i9a";
    let p = play(&format!("{base} {cycle} {cycle} {cycle}"));
    assert_eq!(p.side_to_move(), Color::White);
    assert_eq!(p.repetition(), Repetition::PerpetualCheck { loser: Color::Black });
    let early = play(&format!("{base} {cycle}"));
    assert_eq!(early.repetition(), Repetition::None);
    assert_eq!(early.repetition_after(2), Repetition::PerpetualCheck { loser: Color::Black });
}

#[test]
fn same_board_with_other_hands_is_not_a_repetition() {
    // Same placement and side, but a pawn changed hands: the hand key differs.
    let a = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap_or_else(|e| panic!("{e}"));
    let b = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b p 1").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a.board_key(), b.board_key());
    assert_ne!(a.hand_key(), b.hand_key());
}

fn moves(pos: &Position, class: MoveClass, np: NonPromotions) -> Vec<String> {
    let mut list = MoveList::new();
    generate(pos, class, np, &mut list);
    let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

#[test]
fn skipping_useless_nonpromotions() {
    // Black pawn 7c, lance 9i, rook 2h, bishop 8h can reach the zone.
    let p =
        Position::from_sfen("4k4/9/2P6/9/9/9/9/1B5R1/L3K4 b - 1").unwrap_or_else(|e| panic!("{e}"));
    let all = moves(&p, MoveClass::Legal, NonPromotions::Include);
    let some = moves(&p, MoveClass::Legal, NonPromotions::Skip);
    for m in ["7c7b", "9i9b", "2h2c", "8h3c"] {
        assert!(all.contains(&m.to_string()), "{m} is legal");
        assert!(!some.contains(&m.to_string()), "{m} is skipped");
        assert!(some.contains(&format!("{m}+")));
    }
    assert!(some.contains(&"9i9c".to_string()), "lance to the third rank stays");
    assert!(!all.contains(&"9i9a".to_string()), "lance cannot stop on the last rank");
}

#[test]
fn pawn_drop_mate_is_illegal_but_pawn_drop_check_is_not() {
    // White king 1a boxed in by a knight and a gold: P*1b would mate.
    let mate =
        Position::from_sfen("8k/9/6NG1/9/9/9/9/9/4K4 b P 1").unwrap_or_else(|e| panic!("{e}"));
    let mut list = MoveList::new();
    legal_moves(&mate, &mut list);
    assert!(!list.iter().any(|m| m.to_string() == "P*1b"));
    // Without the gold covering 2b... the king escapes to 2b, so the drop is legal.
    let escape =
        Position::from_sfen("8k/9/6N2/9/9/9/9/9/4K4 b GP 1").unwrap_or_else(|e| panic!("{e}"));
    let checks = moves(&escape, MoveClass::Checks, NonPromotions::Skip);
    assert!(checks.contains(&"P*1b".to_string()));
}
