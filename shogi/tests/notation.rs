//! Notation readers and writers against hand-written fixtures in `fixtures/notation/`.

use shogi::notation::{
    board_svg, decode_text, line_to_japanese, move_text, read_records, write_bod, write_kif,
    Format, NotationError, Record, Style,
};
use shogi::{Move, Position};
use std::path::Path;

const TSUME: &str = "7nl/7k1/6p1p/7P1/9/9/9/9/9 b GS2r2b3g3s3n3l15p 1";
const TSUME_LINE: &str = "S*2c 2b3a G*3b";

fn fixture(name: &str) -> (Format, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/notation").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = decode_text(&bytes);
    (Format::detect(&path, &text), text)
}

fn records(name: &str) -> Vec<Result<Record, NotationError>> {
    let (format, text) = fixture(name);
    read_records(&text, format)
}

fn only(name: &str) -> Record {
    let mut all = records(name);
    assert_eq!(all.len(), 1, "{name}: {all:?}");
    all.remove(0).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn usi(moves: &[Move]) -> String {
    moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

fn error_of(name: &str) -> NotationError {
    match records(name).into_iter().next() {
        Some(Err(e)) => e,
        other => panic!("{name}: expected an error, got {other:?}"),
    }
}

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

#[test]
fn one_problem_reads_the_same_in_every_format() {
    for name in ["tsume.kif", "tsume.ki2", "tsume.csa", "tsume.bod"] {
        let r = only(name);
        assert_eq!(r.position.to_sfen(), TSUME, "{name}");
        let expected = if name.ends_with("bod") { "" } else { TSUME_LINE };
        assert_eq!(usi(&r.moves), expected, "{name}");
        if !name.ends_with("bod") {
            assert_eq!(r.title.as_deref(), Some("三手詰め"), "{name}");
        }
    }
}

#[test]
fn kif_reads_same_square_drops_promotions_and_skips_variations() {
    let r = only("hirate.kif");
    assert_eq!(r.position.to_sfen(), Position::startpos().to_sfen());
    assert_eq!(usi(&r.moves), "7g7f 3c3d 8h2b 3a2b B*5e B*3c 5e3c+ 2a3c");
    assert_eq!(r.line, 2, "the #KIF comment line is not part of the record");
}

#[test]
fn ki2_resolves_right_and_left() {
    let r = only("hirate.ki2");
    assert_eq!(usi(&r.moves), "7g7f 3c3d 4i5h 6a5b 8h2b+ 3a2b");
}

#[test]
fn a_file_of_two_problems_gives_two_records() {
    let all = records("two_problems.kif");
    assert_eq!(all.len(), 2);
    let second = all[1].as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(second.title.as_deref(), Some("第二問"));
    assert_eq!(second.position.to_sfen(), "4k4/9/4P4/9/9/9/9/9/9 b G 1");
    assert_eq!(usi(&second.moves), "G*5b");
    assert_eq!(second.line, 17);
    let first = all[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first.position.to_sfen(), TSUME);
}

#[test]
fn csa_reads_pi_and_several_games() {
    let all = records("pi_two_games.csa");
    assert_eq!(all.len(), 2);
    let first = all[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        first.position.to_sfen(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(usi(&first.moves), "3c3d 7g7f");
    let second = all[1].as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(second.position.to_sfen(), TSUME);
    assert_eq!(second.line, 12);
}

#[test]
fn errors_name_the_line_and_the_field() {
    let e = error_of("bad_row.bod");
    assert_eq!(e.to_string(), "line 6: board row 三: expected 9 squares, found 11");
    let e = error_of("unknown_piece.kif");
    assert_eq!((e.line, e.field.as_str()), (6, "board row 三"));
    assert!(e.message.contains("猫"), "{e}");
    let e = error_of("illegal_move.kif");
    assert_eq!((e.line, e.field.as_str()), (5, "move 3"));
    let e = error_of("bad_code.csa");
    assert_eq!((e.line, e.field.as_str()), (8, "board row P3"));
    assert!(e.message.contains("XX"), "{e}");
}

#[test]
fn a_broken_record_does_not_lose_the_next() {
    let all = records("one_broken.kif");
    assert_eq!(all.len(), 2);
    let e = all[0].as_ref().err().map(|e| (e.line, e.field.clone()));
    assert_eq!(e, Some((17, "move 1".to_string())));
    let good = all[1].as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(good.title.as_deref(), Some("正しい問題"));
    assert_eq!(usi(&good.moves), "G*5b");
}

#[test]
fn kif_writer_reads_back() {
    for name in ["tsume.kif", "hirate.kif", "pi_two_games.csa"] {
        let r = records(name).remove(0).unwrap_or_else(|e| panic!("{e}"));
        let text = write_kif(&r).unwrap_or_else(|e| panic!("{e}"));
        let back =
            read_records(&text, Format::Kif).remove(0).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.position.to_sfen(), r.position.to_sfen(), "{text}");
        assert_eq!(back.moves, r.moves, "{text}");
        assert_eq!(back.title, r.title);
    }
    let r = only("hirate.kif");
    let text = write_kif(&r).unwrap_or_else(|e| panic!("{e}"));
    assert!(text.contains("   3 ２二角不成(88)\n   4 同　銀(31)\n   5 ５五角打\n"), "{text}");
}

#[test]
fn bod_writer_matches_the_fixture() {
    let (_, text) = fixture("tsume.bod");
    let written = write_bod(&pos(TSUME));
    // The fixture ends its hands with a full-width space, as 柿木 does; cshogi does not.
    assert_eq!(written, text.replace("　\n", "\n"));
    let white = write_bod(&pos("4k4/9/4P4/9/9/9/9/9/9 w G 1"));
    assert!(white.ends_with("先手の持駒：金\n後手番\n"), "{white}");
    let back = read_records(&white, Format::Bod).remove(0).map(|r| r.position.to_sfen());
    assert_eq!(back.ok().as_deref(), Some("4k4/9/4P4/9/9/9/9/9/9 w G 1"));
}

#[test]
fn remaining_pieces_in_a_diagram() {
    let (_, text) = fixture("tsume.bod");
    let text = text.replace("飛二　角二　金三　銀三　桂三　香三　歩十五　", "残りの駒");
    let r = read_records(&text, Format::Bod).remove(0).map(|r| r.position.to_sfen());
    assert_eq!(r.ok().as_deref(), Some(TSUME));
}

#[test]
fn shift_jis_is_decoded() {
    let (_, text) = fixture("tsume.kif");
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(&text);
    assert!(std::str::from_utf8(&bytes).is_err());
    assert_eq!(decode_text(&bytes), text);
}

#[test]
fn formats_by_extension_and_content() {
    assert_eq!(Format::from_path(Path::new("a.KIFU")), Some(Format::Kif));
    assert_eq!(Format::from_path(Path::new("a.ki2u")), Some(Format::Ki2));
    assert_eq!(Format::from_path(Path::new("a.txt")), None);
    for (name, format) in
        [("tsume.csa", Format::Csa), ("tsume.ki2", Format::Ki2), ("tsume.kif", Format::Kif)]
    {
        assert_eq!(Format::sniff(&fixture(name).1), format, "{name}");
    }
    assert_eq!(Format::sniff(&format!("{TSUME}\n")), Format::Sfen);
    let r = read_records(&format!("{TSUME} moves {TSUME_LINE} # a comment\n"), Format::Sfen);
    assert_eq!(r.len(), 1);
}

fn japanese(sfen: &str, line: &str) -> String {
    line_to_japanese(&pos(sfen), line).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn japanese_same_square_promotion_and_drops() {
    let start = Position::startpos().to_sfen();
    assert_eq!(japanese(&start, "7g7f 3c3d 8h2b+ 3a2b"), "▲７六歩 △３四歩 ▲２二角成 △同　銀");
    assert_eq!(japanese(&start, "7g7f 3c3d 8h2b"), "▲７六歩 △３四歩 ▲２二角不成");
    assert_eq!(japanese(TSUME, TSUME_LINE), "▲２三銀 △３一玉 ▲３二金");
    // 打 only when a board gold could also go there (KI2); KIF writes it always.
    let p = pos("4k4/9/9/9/9/9/9/9/3G5 b G 1");
    assert_eq!(japanese(&p.to_sfen(), "G*5h"), "▲５八金打");
    assert_eq!(japanese(&p.to_sfen(), "G*1a"), "▲１一金");
    let m = p.parse_usi_move("G*1a").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(move_text(&p, m, None, Style::Kif), "１一金打");
    assert_eq!(japanese("4k4/9/9/9/9/9/9/2+S6/9 b - 1", "7h6g"), "▲６七成銀");
}

#[test]
fn japanese_relative_words() {
    let golds = "4k4/9/9/9/9/9/9/9/3GGG3 b - 1";
    assert_eq!(japanese(golds, "6i5h"), "▲５八金左");
    assert_eq!(japanese(golds, "5i5h"), "▲５八金直");
    assert_eq!(japanese(golds, "4i5h"), "▲５八金右");
    let up_side = "4k4/9/9/9/9/9/9/5G3/4G4 b - 1";
    assert_eq!(japanese(up_side, "5i5h"), "▲５八金上");
    assert_eq!(japanese(up_side, "4h5h"), "▲５八金寄");
    let back = "4k4/9/9/9/9/9/4G4/9/3G5 b - 1";
    assert_eq!(japanese(back, "5g5h"), "▲５八金引");
    assert_eq!(japanese(back, "6i5h"), "▲５八金上");
    // Dragons: movement first, never 直; then right and left.
    let dragons = "k8/9/4+R3+R/9/9/9/9/9/9 b - 1";
    assert_eq!(japanese(dragons, "1c3c"), "▲３三龍右");
    assert_eq!(japanese(dragons, "5c3c"), "▲３三龍左");
    let file = "4k4/7+R1/9/9/9/7+R1/9/9/9 b - 1";
    assert_eq!(japanese(file, "2f2d"), "▲２四龍上");
    assert_eq!(japanese(file, "2b2d"), "▲２四龍引");
    // White's right is the high files.
    assert_eq!(japanese("3gkg3/9/9/9/9/9/9/9/4K4 w - 1", "6a5b"), "△５二金右");
}

#[test]
fn japanese_text_reads_back_and_ambiguity_is_an_error() {
    let golds = pos("4k4/9/9/9/9/9/9/9/3GGG3 b - 1");
    for (text, expected) in [("▲５八金左", "6i5h"), ("５八金直", "5i5h"), ("▲5八金右", "4i5h")]
    {
        let m = shogi::notation::parse_move(&golds, text, None)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m.to_string(), expected);
    }
    let e = shogi::notation::parse_move(&golds, "▲５八金", None).err().unwrap_or_default();
    assert!(e.contains("ambiguous"), "{e}");
    assert!(shogi::notation::parse_move(&golds, "△５八金右", None).is_err());
    let ki2 = "手合割：平手\n▲７六歩 △３四歩 ▲５八金\n";
    let e = read_records(ki2, Format::Ki2).remove(0).err().map(|e| (e.line, e.field));
    assert_eq!(e, Some((2, "move 3".to_string())));
}

/// Counts start and end tags, checking they nest (a tiny well-formedness check).
fn balanced(svg: &str) -> bool {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let Some(end) = rest[start..].find('>') else { return false };
        let tag = &rest[start + 1..start + end];
        rest = &rest[start + end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            if stack.pop().as_deref() != Some(name.trim()) {
                return false;
            }
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().unwrap_or("").to_string());
        }
    }
    stack.is_empty()
}

#[test]
fn svg_draws_every_piece_and_is_well_formed() {
    for sfen in [
        TSUME.to_string(),
        Position::startpos().to_sfen(),
        "4k4/9/4+P4/9/9/9/9/9/9 w G 1".to_string(),
    ] {
        let p = pos(&sfen);
        let svg = board_svg(&p);
        let on_board = shogi::Square::all().filter(|&s| !p.piece_at(s).is_empty()).count();
        assert_eq!(svg.matches("class=\"piece").count(), on_board, "{sfen}");
        assert!(balanced(&svg), "{svg}");
        assert!(svg.contains("先手の持駒") && svg.contains("後手の持駒"));
        assert!(svg.contains("（手番）"));
    }
    let svg = board_svg(&pos(TSUME));
    assert!(svg.contains("rotate(180"), "後手's pieces are turned");
    assert!(svg.contains(">歩15<") && svg.contains(">金<"), "{svg}");
}

#[test]
fn a_move_list_header_glued_to_the_hand_line_still_reads() {
    // cshogi's board_to_bod ends without a newline, so a header appended to it lands on the
    // 先手の持駒 line.
    let r = only("glued_header.kif");
    assert_eq!(r.position.to_sfen(), "4k4/9/4P4/9/9/9/9/9/9 b G 1");
    assert_eq!(usi(&r.moves), "G*5b");
}

/// A composer's KIF whose board is not a legal position gets the error on the row of the square
/// at fault, with the square (two kings of one side, a pawn that can never move), or on the
/// diagram's first line when no square is at fault (too many pieces).
#[test]
fn an_illegal_board_is_named_by_its_row_and_square() {
    let r = records("tsume.kif").remove(0).unwrap_or_else(|e| panic!("{e}"));
    let text = write_kif(&r).unwrap_or_else(|e| panic!("{e}"));
    let row = |rank: char| {
        let (i, line) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.starts_with('|') && l.ends_with(rank))
            .unwrap_or_else(|| panic!("{text}"));
        (i + 1, line.to_string())
    };
    let board_error = |from: &str, to: &str| {
        let broken = text.replacen(from, to, 1);
        match read_records(&broken, Format::Kif).remove(0) {
            Err(e) => e,
            Ok(r) => panic!("read as {}:\n{broken}", r.position.to_sfen()),
        }
    };
    // Two black kings, on ８九 and ９九.
    let (no, nine) = row('九');
    let e = board_error(&nine, &format!("| 玉 玉{}", &nine["| ・ ・".len()..]));
    assert_eq!((e.line, e.field.as_str()), (no, "board row 九"), "{e}");
    assert!(e.message.contains("king") && e.message.ends_with("９九"), "{e}");
    // A black pawn on ９一, where it could never move.
    let (no, one) = row('一');
    let e = board_error(&one, &format!("| 歩{}", &one["| ・".len()..]));
    assert_eq!((e.line, e.field.as_str()), (no, "board row 一"), "{e}");
    assert!(e.message.ends_with("９一"), "{e}");
    // A third rook (two are in White's hand): no square at fault, the diagram's first line.
    let (_, five) = row('五');
    let e = board_error(&five, &format!("| 飛{}", &five["| ・".len()..]));
    assert_eq!(e.field, "position", "{e}");
    assert!(e.message.contains("a set has 2"), "{e}");
    assert!(e.line < row('一').0, "{e}");
}
