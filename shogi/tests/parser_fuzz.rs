//! Fuzzing the SFEN parser and validation: arbitrary text, mutated valid SFENs and random
//! piece placements. Nothing may panic; every answer is `Ok` or `Err`, and an accepted position
//! writes back to an SFEN that reads as the same position. Accepted positions also go through
//! move generation and make/unmake, since they can be far stranger than any game position.

use proptest::prelude::*;
use proptest::sample::{select, Index};
use shogi::movegen::{generate, legal_moves};
use shogi::sfen::{parse_sfen, parse_sfen_prefix, STARTPOS};
use shogi::{
    Color, FromSfenError, MoveClass, MoveList, NonPromotions, Piece, PieceKind, Position,
    PositionError, Setup, SfenError, Square,
};

const SEEDS: &[&str] = &[
    STARTPOS,
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
    "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
    "9/9/9/9/9/9/4p4/9/4K4 w 2R2BG4S4N4L3g17p 1",
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",
    "l2gs3l/1k4+N+P1/1p1s5/p1r3p1p/3Kp4/P3P1P2/GPN6/Lg+b6/1N1+p4L w 6PNSGBRps 1",
    "8l/G1+L6/1+R1g2n1p/ppsp2p2/2k2p2P/PP1P2P2/2S1RP3/4P4/LKN1B2NL b P4pn2s2gb 124",
    "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L9P9p 1",
    "  4k4/9/9/9/9/9/9/9/4K4   w   -   7  ",
];

const ALPHABET: &str = "0123456789/+-bwPLNSGBRKplnsgbrk ";

/// A fixed number of cases unless `PROPTEST_CASES` says otherwise; no regression files.
fn config(cases: u32) -> ProptestConfig {
    let mut c = ProptestConfig { failure_persistence: None, ..ProptestConfig::default() };
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = cases;
    }
    c
}

/// Checks everything that must hold for any text: no panic, agreement between the entry
/// points, and a faithful round trip of whatever is accepted.
fn check_text(text: &str) -> Result<(), TestCaseError> {
    let full = parse_sfen(text);
    let prefix = parse_sfen_prefix(text);
    let pos = Position::from_sfen(text);

    // parse_sfen is parse_sfen_prefix with nothing but blanks after it.
    match (&full, &prefix) {
        (Ok(a), Ok((b, rest))) => {
            prop_assert_eq!(a, b);
            prop_assert!(rest.trim().is_empty(), "{:?} left {:?}", text, rest);
        }
        (Ok(_), Err(e)) => prop_assert!(false, "{:?}: prefix failed ({}) but full parsed", text, e),
        (Err(_), Ok((_, rest))) => {
            prop_assert!(!rest.trim().is_empty(), "{:?}: full failed with nothing left", text)
        }
        (Err(_), Err(_)) => {}
    }
    if let Ok((_, rest)) = &prefix {
        prop_assert!(text.ends_with(rest), "rest {:?} is not a suffix of {:?}", rest, text);
    }
    if let Err(e) = &full {
        // The column points into the text (one past its end at most).
        prop_assert!(
            e.column >= 1 && e.column <= text.len() + 1,
            "{:?}: column {} out of range",
            text,
            e.column
        );
        prop_assert!(!e.message.is_empty());
        prop_assert!(!e.to_string().is_empty());
    }

    // from_sfen is parse then validate.
    match (&full, &pos) {
        (Err(e), Err(FromSfenError::Syntax(e2))) => prop_assert_eq!(e, e2),
        (Err(_), other) => prop_assert!(
            false,
            "{:?}: syntax error but from_sfen gave {:?}",
            text,
            other.as_ref().map(|p| p.to_sfen())
        ),
        (Ok(setup), Err(FromSfenError::Illegal(e))) => {
            let verdict = setup.validate().err();
            prop_assert_eq!(verdict.as_ref(), Some(e));
        }
        (Ok(_), Err(FromSfenError::Syntax(e))) => {
            prop_assert!(false, "{:?}: parsed but from_sfen says {}", text, e)
        }
        (Ok(setup), Ok(p)) => {
            let v = setup.validate();
            prop_assert!(v.as_ref().is_ok_and(|q| q == p), "{:?}: validate differs", text);
        }
    }

    if let Ok(setup) = &full {
        check_setup_round_trip(text, setup)?;
    }
    if let Ok(p) = pos {
        check_position(text, p)?;
    }
    Ok(())
}

/// A parsed setup writes back to text that parses to the same setup, as long as each hand
/// count fits what one SFEN hand entry can say (1..=18; several entries of one kind add up).
fn check_setup_round_trip(text: &str, setup: &Setup) -> Result<(), TestCaseError> {
    let written = setup.to_string();
    let representable = setup.hands.iter().flatten().all(|&n| n <= 18);
    match parse_sfen(&written) {
        Ok(again) => prop_assert_eq!(&again, setup, "{:?} -> {:?}", text, written),
        Err(e) => {
            prop_assert!(!representable, "{:?} -> {:?} does not parse: {}", text, written, e);
            // Hands beyond a full set: never a position. Validation reads the board first, so
            // a board that is wrong by itself (a dead piece, two pawns on a file, two kings)
            // gives that error; a sound board gives the piece count.
            let verdict = setup.validate();
            let board_only = Setup { hands: [[0; 8]; 2], ..setup.clone() };
            let board_error = board_only.validate().err().filter(|e| {
                matches!(
                    e,
                    PositionError::DeadPiece { .. }
                        | PositionError::TwoPawnsOnFile { .. }
                        | PositionError::TooManyKings { .. }
                )
            });
            let expected = match &board_error {
                Some(e) => verdict.as_ref().err() == Some(e),
                None => matches!(verdict, Err(PositionError::TooManyPieces { .. })),
            };
            prop_assert!(
                expected,
                "{:?}: unwritable hands but {:?} (the board alone: {:?})",
                text,
                verdict.map(|p| p.to_sfen()),
                board_error
            );
        }
    }
    Ok(())
}

fn check_position(text: &str, mut p: Position) -> Result<(), TestCaseError> {
    let sfen = p.to_sfen();
    prop_assert!(p.is_consistent(), "{:?} -> inconsistent {}", text, sfen);
    let again = Position::from_sfen(&sfen);
    prop_assert!(again.is_ok(), "{:?} -> {} does not read back: {:?}", text, sfen, again.err());
    let Ok(again) = again else { unreachable!() };
    prop_assert!(again == p, "{:?} -> {} reads back differently", text, sfen);
    prop_assert_eq!(again.to_sfen(), sfen.clone());
    prop_assert_eq!(again.key(), p.key());
    prop_assert_eq!(again.checkers(), p.checkers());
    prop_assert_eq!(again.pinned(), p.pinned());

    // The side not to move is never in check in an accepted position.
    let us = p.side_to_move();
    if let Some(k) = p.king_square(!us) {
        prop_assert!(!p.is_attacked(us, k, p.occupied()), "{}", sfen);
    }

    // Move generation and make/unmake on whatever was accepted.
    let mut list = MoveList::new();
    legal_moves(&p, &mut list);
    for class in [
        MoveClass::CapturesPromotions,
        MoveClass::Quiets,
        MoveClass::Drops,
        MoveClass::Checks,
        MoveClass::Evasions,
    ] {
        for np in [NonPromotions::Include, NonPromotions::Skip] {
            let mut l = MoveList::new();
            generate(&p, class, np, &mut l);
            for m in l.iter() {
                prop_assert!(list.contains(m), "{:?} {} not legal in {}", class, m, sfen);
            }
        }
    }
    let key = p.key();
    for &m in list.iter() {
        p.make_move(m);
        prop_assert!(p.is_consistent(), "{} + {}", sfen, m);
        if let Some(k) = p.king_square(us) {
            prop_assert!(!p.is_attacked(!us, k, p.occupied()), "{} + {}", sfen, m);
        }
        // The child is a valid position too.
        let child = p.to_sfen();
        prop_assert!(
            Position::from_sfen(&child).is_ok_and(|c| c == p),
            "{} + {} -> {}",
            sfen,
            m,
            child
        );
        p.unmake_move();
        prop_assert_eq!(p.key(), key);
    }
    prop_assert_eq!(p.to_sfen(), sfen);
    Ok(())
}

// ----- strategies --------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Edit {
    Delete(Index),
    Insert(Index, char),
    Replace(Index, char),
}

fn edit() -> impl Strategy<Value = Edit> {
    let ch = || select(ALPHABET.chars().collect::<Vec<_>>());
    prop_oneof![
        any::<Index>().prop_map(Edit::Delete),
        (any::<Index>(), ch()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (any::<Index>(), ch()).prop_map(|(i, c)| Edit::Replace(i, c)),
    ]
}

fn mutate(base: &str, edits: &[Edit]) -> String {
    let mut v: Vec<char> = base.chars().collect();
    for e in edits {
        match *e {
            Edit::Delete(i) if !v.is_empty() => {
                let i = i.index(v.len());
                v.remove(i);
            }
            Edit::Insert(i, c) => {
                let i = i.index(v.len() + 1);
                v.insert(i, c);
            }
            Edit::Replace(i, c) if !v.is_empty() => {
                let i = i.index(v.len());
                v[i] = c;
            }
            _ => {}
        }
    }
    v.into_iter().collect()
}

/// A random placement written as SFEN: up to 40 pieces on random squares, random hands.
fn placement() -> impl Strategy<Value = String> {
    let piece = (
        any::<Index>(),
        select("PLNSGBRKplnsgbrk".chars().collect::<Vec<_>>()),
        prop::bool::weighted(0.2),
    );
    (
        prop::collection::vec(piece, 0..28),
        prop::collection::vec((select("PLNSGBRplnsgbr".chars().collect::<Vec<_>>()), 1u8..4), 0..6),
        any::<bool>(),
    )
        .prop_map(|(pieces, hand, white)| {
            let mut board: [Option<String>; 81] = std::array::from_fn(|_| None);
            for (i, c, promoted) in pieces {
                let promotable = !matches!(c, 'G' | 'K' | 'g' | 'k');
                let s = if promoted && promotable { format!("+{c}") } else { c.to_string() };
                board[i.index(81)] = Some(s);
            }
            let mut text = String::new();
            for rank in 0..9 {
                if rank > 0 {
                    text.push('/');
                }
                let mut empty = 0;
                for file in (0..9).rev() {
                    match &board[file * 9 + rank] {
                        Some(s) => {
                            if empty > 0 {
                                text.push_str(&empty.to_string());
                                empty = 0;
                            }
                            text.push_str(s);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
            }
            text.push_str(if white { " w " } else { " b " });
            if hand.is_empty() {
                text.push('-');
            }
            for (c, n) in hand {
                if n > 1 {
                    text.push_str(&n.to_string());
                }
                text.push(c);
            }
            text.push_str(" 1");
            text
        })
}

/// The static rules, checked independently of `validate`: which kinds of error apply.
fn static_violations(setup: &Setup) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut pawn_files = [[0u32; 9]; 2];
    let mut kings = [0u32; 2];
    let mut counts = [0u32; 8];
    for sq in Square::all() {
        let Some((c, k)) = setup.board[sq.index()].get() else {
            continue;
        };
        let rank = sq.rank().index() as i32;
        let rel = if c == Color::Black { rank } else { 8 - rank };
        let dead = match k {
            PieceKind::Pawn | PieceKind::Lance => rel == 0,
            PieceKind::Knight => rel <= 1,
            _ => false,
        };
        if dead {
            out.push("dead");
        }
        if k == PieceKind::Pawn {
            pawn_files[c.index()][sq.file().index()] += 1;
        }
        if k == PieceKind::King {
            kings[c.index()] += 1;
        } else {
            let base = match k {
                PieceKind::ProPawn => PieceKind::Pawn,
                PieceKind::ProLance => PieceKind::Lance,
                PieceKind::ProKnight => PieceKind::Knight,
                PieceKind::ProSilver => PieceKind::Silver,
                PieceKind::Horse => PieceKind::Bishop,
                PieceKind::Dragon => PieceKind::Rook,
                k => k,
            };
            counts[base.index()] += 1;
        }
    }
    if pawn_files.iter().flatten().any(|&n| n > 1) {
        out.push("two pawns");
    }
    if kings.iter().any(|&n| n > 1) {
        out.push("kings");
    }
    let full = [0, 18, 4, 4, 4, 2, 2, 4];
    for k in 1..8 {
        let n = counts[k] + setup.hands[0][k] as u32 + setup.hands[1][k] as u32;
        if n > full[k] {
            out.push("too many");
        }
    }
    out
}

fn error_kind(e: &PositionError) -> &'static str {
    match e {
        PositionError::DeadPiece { .. } => "dead",
        PositionError::TwoPawnsOnFile { .. } => "two pawns",
        PositionError::TooManyKings { .. } => "kings",
        PositionError::TooManyPieces { .. } => "too many",
        PositionError::OpponentInCheck => "check",
    }
}

proptest! {
    #![proptest_config(config(8192))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..160)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        check_text(&text)?;
    }

    #[test]
    fn arbitrary_sfenish_text_never_panics(
        chars in prop::collection::vec(select(ALPHABET.chars().collect::<Vec<_>>()), 0..90)
    ) {
        let text: String = chars.into_iter().collect();
        check_text(&text)?;
    }

    #[test]
    fn mutated_sfens_never_panic(
        base in select(SEEDS),
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let text = mutate(base, &edits);
        check_text(&text)?;
    }

    #[test]
    fn random_placements_validate_by_the_rules(text in placement()) {
        check_text(&text)?;
        let setup = parse_sfen(&text);
        prop_assert!(setup.is_ok(), "{:?}: {:?}", text, setup.err());
        let Ok(setup) = setup else { unreachable!() };
        let expected = static_violations(&setup);
        match setup.validate() {
            Ok(_) => prop_assert!(expected.is_empty(), "{:?} accepted despite {:?}", text, expected),
            Err(PositionError::OpponentInCheck) => {
                prop_assert!(expected.is_empty(), "{:?}: OpponentInCheck before {:?}", text, expected);
                // With the other side to move, its king is the one in check.
                let mut turned = setup.clone();
                turned.side = !turned.side;
                match turned.validate() {
                    Ok(p) => prop_assert!(p.in_check(), "{:?}: nobody in check", text),
                    // Both kings attacked: rejected both ways.
                    Err(e) => prop_assert_eq!(e, PositionError::OpponentInCheck),
                }
            }
            Err(e) => {
                prop_assert!(expected.contains(&error_kind(&e)), "{:?}: {:?} but {:?}", text, e, expected);
                if let PositionError::DeadPiece { square, piece } = e {
                    prop_assert_eq!(setup.board[square.index()], piece);
                }
            }
        }
    }
}

// ----- deterministic cases -----------------------------------------------------------------

fn syntax_error(text: &str) -> SfenError {
    match parse_sfen(text) {
        Err(e) => {
            assert!(
                matches!(Position::from_sfen(text), Err(FromSfenError::Syntax(ref e2)) if *e2 == e),
                "{text:?}"
            );
            e
        }
        Ok(s) => panic!("{text:?} parsed as {s}"),
    }
}

fn illegal(text: &str) -> PositionError {
    match Position::from_sfen(text) {
        Err(FromSfenError::Illegal(e)) => e,
        other => panic!("{text:?}: {:?}", other.map(|p| p.to_sfen())),
    }
}

#[test]
fn malformed_sfens_are_rejected() {
    let bad = [
        "",
        " ",
        "startpos",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLL b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R2/LNSGKGSNL b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - -1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 99999999999",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 2",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b-1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -P 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P- 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 0P 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 19P 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b +P 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b Px 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG+KGSNL b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN+ b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN0 b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1//LNSGKGSNL b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/ b - 1",
        "lnsgkgsnl 1r5b1 ppppppppp 9 9 9 PPPPPPPPP 1B5R1 LNSGKGSNL b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b − 1",
        "ｌnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 \u{0}",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ];
    for text in bad {
        let e = syntax_error(text);
        assert!(e.column >= 1 && e.column <= text.len() + 1, "{text:?}: {e}");
    }
    // Columns point at the offending character.
    let e = syntax_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1");
    assert_eq!(e.column, 59);
    let e = syntax_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves");
    assert_eq!(e.column, 65);
    // The prefix parser hands back what follows.
    let (setup, rest) = parse_sfen_prefix(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rest.trim(), "moves 7g7f");
    assert_eq!(setup.to_string(), STARTPOS);
}

#[test]
fn illegal_sfens_are_rejected() {
    use PositionError::*;
    assert!(matches!(
        illegal("4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1"),
        TwoPawnsOnFile { color: Color::Black, .. }
    ));
    assert!(matches!(
        illegal("4k4/4p4/4p4/9/9/9/9/9/4K4 b - 1"),
        TwoPawnsOnFile { color: Color::White, .. }
    ));
    // Promoted pawns do not count for two-pawns.
    assert!(Position::from_sfen("4k4/9/9/9/9/9/4P4/4+P4/4K4 b - 1").is_ok());
    assert!(matches!(illegal("4k3L/9/9/9/9/9/9/9/4K4 b - 1"), DeadPiece { .. }));
    assert!(matches!(illegal("4k4/7N1/9/9/9/9/9/9/4K4 b - 1"), DeadPiece { .. }));
    assert!(matches!(illegal("4k4/9/9/9/9/9/9/1n7/4K4 b - 1"), DeadPiece { .. }));
    assert!(matches!(illegal("4k4/9/9/9/9/9/9/9/4K2p1 b - 1"), DeadPiece { .. }));
    // Promoted pieces are never dead.
    assert!(Position::from_sfen("4k3+L/7+N1/9/9/9/9/9/9/4K2+p1 b - 1").is_ok());
    assert!(matches!(illegal("4k4/9/9/9/9/9/9/9/4K4 b 18P1P 1"), TooManyPieces { .. }));
    assert!(matches!(
        illegal("4k4/9/9/9/9/9/9/9/4K4 b 10P9p 1"),
        TooManyPieces { kind: PieceKind::Pawn, count: 19 }
    ));
    assert!(matches!(
        illegal("4k4/9/9/9/9/9/9/9/4K4 b 3Bb 1"),
        TooManyPieces { kind: PieceKind::Bishop, .. }
    ));
    assert!(matches!(
        illegal("4k4/9/9/9/4+B4/9/9/9/4K4 b Bb 1"),
        TooManyPieces { kind: PieceKind::Bishop, .. }
    ));
    assert!(matches!(
        illegal("4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
        TooManyKings { color: Color::Black, .. }
    ));
    assert!(matches!(
        illegal("3kk4/9/9/9/9/9/9/9/4K4 b - 1"),
        TooManyKings { color: Color::White, .. }
    ));
    assert!(matches!(illegal("4k4/4R4/9/9/9/9/9/9/4K4 b - 1"), OpponentInCheck));
    assert!(matches!(illegal("4k4/9/9/9/9/9/9/4r4/4K4 w - 1"), OpponentInCheck));
    assert!(matches!(illegal("4k4/9/9/9/B8/9/9/9/4K4 b - 1"), OpponentInCheck));
    // The side to move may be in check; kings may be missing.
    assert!(Position::from_sfen("4k4/4R4/9/9/9/9/9/9/4K4 w - 1").is_ok_and(|p| p.in_check()));
    assert!(Position::from_sfen("9/9/9/9/9/9/9/9/9 b - 1").is_ok());
    assert!(Position::from_sfen("9/9/9/9/9/9/9/9/9 w 2R2B4G4S4N4L18P 1").is_ok());
    // A full set of 40 pieces is fine, one more is not.
    assert!(Position::from_sfen(STARTPOS).is_ok());
    assert!(matches!(
        illegal("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b G 1"),
        TooManyPieces { kind: PieceKind::Gold, count: 5 }
    ));
}

#[test]
fn accepted_variants_read_the_same() {
    let canonical = Position::startpos();
    for text in [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
        "  lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL   b   -   1  ",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 001",
        "lnsgkgsnl/1r5b1/ppppppppp/54/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ] {
        let p = Position::from_sfen(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert!(p == canonical, "{text:?}");
        assert_eq!(p.to_sfen(), STARTPOS, "{text:?}");
        assert_eq!(p.key(), canonical.key());
    }
    // Hand entries of one kind add up, in any order, and write back in canonical order.
    let p =
        Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b pP2PRpb 1").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b R3Pb2p 1");
    assert_eq!(p.hand(Color::Black).count(PieceKind::Pawn), 3);
    assert_eq!(p.hand(Color::White).count(PieceKind::Pawn), 2);
    assert_eq!(
        p.piece_at(Square::from_coords(4, 8).expect("5i")),
        Piece::new(Color::Black, PieceKind::King)
    );
}

/// Found by `mutated_sfens_never_panic`: 21 black lances in hand (unwritable) beside a white
/// pawn on its last rank; the dead pawn is what validation reports, and both it and a sound
/// board with the same hands are checked as the property checks them.
#[test]
fn unwritable_hands_beside_a_board_error() {
    for text in [
        "9/9/9/9/9/9/4p4/9/p44 w 2R2BG4S4N4L3g17Lp 1",
        "9/9/9/9/9/9/4p4/9/4K4 w 2R2BG4S4N4L3g17Lp 1",
    ] {
        check_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    assert!(matches!(
        illegal("9/9/9/9/9/9/4p4/9/p44 w 2R2BG4S4N4L3g17Lp 1"),
        PositionError::DeadPiece { .. }
    ));
}
