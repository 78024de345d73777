//! Property tests of the notation readers: random games written as KIF and KI2 read back to
//! the same moves, and no text makes a reader panic.

use proptest::prelude::*;
use shogi::movegen::legal_moves;
use shogi::notation::{moves_to_japanese, read_records, write_kif, Format, Record};
use shogi::{Move, MoveList, Position};

/// A random game from the start position: each index picks one of the legal moves.
fn playout(picks: &[usize]) -> Vec<Move> {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for &pick in picks {
        let mut list = MoveList::new();
        legal_moves(&pos, &mut list);
        if list.is_empty() {
            break;
        }
        let m = list[pick % list.len()];
        pos.make_move(m);
        moves.push(m);
    }
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn kif_and_ki2_round_trip(picks in prop::collection::vec(any::<usize>(), 0..60)) {
        let moves = playout(&picks);
        let record = Record { title: Some("乱".into()), position: Position::startpos(), moves, line: 1 };
        let kif = write_kif(&record).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back = read_records(&kif, Format::Kif).remove(0).map_err(|e| TestCaseError::fail(format!("{e}\n{kif}")))?;
        prop_assert_eq!(&back.moves, &record.moves);
        let line = moves_to_japanese(&record.position, &record.moves).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let ki2 = format!("手合割：平手\n{line}\n");
        let back = read_records(&ki2, Format::Ki2).remove(0).map_err(|e| TestCaseError::fail(format!("{e}\n{ki2}")))?;
        prop_assert_eq!(&back.moves, &record.moves);
    }

    #[test]
    fn readers_never_panic(text in "[PI+\\-0-9A-Z*,/ \n|v・歩玉金銀龍馬と同成不打右左直上引寄▲△一二三四五六七八九１２３４５６７８９：の持駒手数後先()]{0,300}") {
        for format in [Format::Kif, Format::Ki2, Format::Csa, Format::Bod, Format::Sfen] {
            let _ = read_records(&text, format);
        }
    }
}
