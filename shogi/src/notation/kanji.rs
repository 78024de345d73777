//! The Japanese vocabulary shared by KIF, KI2 and BOD: full-width file digits, kanji rank and
//! count numerals, piece names, and hands written as `飛　角二　歩十八` or `なし`.

use crate::hand::Hand;
use crate::piece::PieceKind::{self, *};

/// Full-width file digits, indexed by 0-based file (`１` is file 1).
const FILE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/// Kanji numerals one to nine: ranks (一 is rank a) and the units of hand counts.
const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The full-width digit of a 0-based file.
pub fn file_char(file: usize) -> char {
    FILE_DIGITS[file.min(8)]
}

/// The kanji numeral of a 0-based rank.
pub fn rank_char(rank: usize) -> char {
    NUMERALS[rank.min(8)]
}

/// A digit 1..=9 written full-width, in ASCII or as a kanji numeral, as a 0-based index. Files
/// are written full-width and ranks in kanji, but hand-typed records mix them.
pub fn parse_digit(c: char) -> Option<u8> {
    let index = FILE_DIGITS
        .iter()
        .position(|&d| d == c)
        .or_else(|| NUMERALS.iter().position(|&d| d == c))
        .or_else(|| ('1'..='9').position(|d| d == c))?;
    Some(index as u8)
}

/// The KIF name of a kind: one or two characters (`成香`), `龍` for the dragon, `玉` for the king.
pub fn kif_name(kind: PieceKind) -> &'static str {
    match kind {
        Pawn => "歩",
        Lance => "香",
        Knight => "桂",
        Silver => "銀",
        Bishop => "角",
        Rook => "飛",
        Gold => "金",
        King => "玉",
        ProPawn => "と",
        ProLance => "成香",
        ProKnight => "成桂",
        ProSilver => "成銀",
        Horse => "馬",
        Dragon => "龍",
    }
}

/// The one-character name a BOD cell uses: promoted minors become 杏, 圭 and 全.
pub fn glyph(kind: PieceKind) -> char {
    match kind {
        ProLance => '杏',
        ProKnight => '圭',
        ProSilver => '全',
        _ => kif_name(kind).chars().next().unwrap_or('？'),
    }
}

/// Every accepted spelling, two-character names first so that `成香` is not read as `成`.
const NAMES: [(&str, PieceKind); 19] = [
    ("成香", ProLance),
    ("成桂", ProKnight),
    ("成銀", ProSilver),
    ("歩", Pawn),
    ("香", Lance),
    ("桂", Knight),
    ("銀", Silver),
    ("角", Bishop),
    ("飛", Rook),
    ("金", Gold),
    ("玉", King),
    ("王", King),
    ("と", ProPawn),
    ("杏", ProLance),
    ("圭", ProKnight),
    ("全", ProSilver),
    ("馬", Horse),
    ("龍", Dragon),
    ("竜", Dragon),
];

/// The piece name at the start of `text` and the text after it.
pub fn parse_piece_name(text: &str) -> Option<(PieceKind, &str)> {
    NAMES.iter().find_map(|&(name, kind)| text.strip_prefix(name).map(|rest| (kind, rest)))
}

/// A count 1..=18 in kanji (`一`, `九`, `十`, `十八`); `一` is written by no tool but accepted.
pub fn parse_count(text: &str) -> Option<u32> {
    let unit = |c: char| parse_digit(c).filter(|_| NUMERALS.contains(&c)).map(|i| i as u32 + 1);
    let mut chars = text.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (None, _, _) => Some(1),
        (Some('十'), None, _) => Some(10),
        (Some('十'), Some(c), None) => unit(c).map(|n| 10 + n),
        (Some(c), None, _) => unit(c),
        _ => None,
    }
}

/// A count written as in a hand: nothing for one, then `二` .. `九`, `十`, `十一` .. `十八`.
pub fn count_text(n: u32) -> String {
    match n {
        0 | 1 => String::new(),
        2..=9 => rank_char(n as usize - 1).to_string(),
        10 => "十".to_string(),
        _ => format!("十{}", rank_char((n as usize - 11).min(8))),
    }
}

/// A hand as BOD and KIF write it: `飛　角二　歩十八`, or `なし` when empty.
pub fn hand_text(hand: Hand) -> String {
    let parts: Vec<String> = PieceKind::HAND
        .iter()
        .filter(|&&k| hand.count(k) > 0)
        .map(|&k| format!("{}{}", kif_name(k), count_text(hand.count(k))))
        .collect();
    if parts.is_empty() {
        "なし".to_string()
    } else {
        parts.join("　")
    }
}

/// Reads a hand: entries separated by full-width or ASCII spaces, `なし` or nothing for none.
/// Counts are per kind (index by `PieceKind::index()`), summed if a kind is written twice.
pub fn parse_hand(text: &str) -> Result<[u8; 8], String> {
    let mut counts = [0u8; 8];
    for entry in text.split(['　', ' ', '\t']).filter(|e| !e.is_empty()) {
        if entry == "なし" {
            continue;
        }
        let Some((kind, rest)) = parse_piece_name(entry) else {
            return Err(format!("unknown piece in hand: {entry}"));
        };
        if !kind.is_hand_kind() || kind == King {
            return Err(format!("{entry}: a hand holds no such piece"));
        }
        let Some(n) = parse_count(rest) else {
            return Err(format!("{entry}: bad count {rest:?}"));
        };
        let slot = &mut counts[kind.index()];
        *slot = slot.saturating_add(n as u8);
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_round_trip() {
        for n in 2..=18 {
            assert_eq!(parse_count(&count_text(n)), Some(n), "{n}");
        }
        assert_eq!(parse_count(""), Some(1));
        assert_eq!(parse_count("十九十"), None);
        assert_eq!(parse_count("2"), None);
    }

    #[test]
    fn hands_read_as_written() {
        let h = parse_hand("飛　角二　金四　歩十八").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((h[Rook.index()], h[Bishop.index()], h[Gold.index()]), (1, 2, 4));
        assert_eq!(h[Pawn.index()], 18);
        assert_eq!(parse_hand("なし"), Ok([0; 8]));
        assert!(parse_hand("玉").is_err());
        assert!(parse_hand("猫").is_err());
    }
}
