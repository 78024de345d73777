//! SFEN text: parsing (with `nom`) into a [`Setup`], and writing a position back.

use crate::color::Color;
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::setup::{PositionError, Setup};
use crate::square::Square;
use nom::branch::alt;
use nom::character::complete::{char, digit1, one_of, satisfy, space1};
use nom::combinator::{map, opt, recognize};
use nom::sequence::pair;
use nom::IResult;
use std::fmt;

/// The start position.
pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// A syntax error, with the 1-based column of the offending character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SfenError {
    pub column: usize,
    pub message: &'static str,
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad SFEN at column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for SfenError {}

/// Either kind of failure to turn SFEN text into a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FromSfenError {
    Syntax(SfenError),
    Illegal(PositionError),
}

impl fmt::Display for FromSfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FromSfenError::Syntax(e) => e.fmt(f),
            FromSfenError::Illegal(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl std::error::Error for FromSfenError {}

/// One board token: a run of empty squares or a (possibly promoted) piece.
enum Token {
    Empty(u32),
    Piece(bool, char),
}

fn token(input: &str) -> IResult<&str, Token> {
    alt((
        map(one_of("123456789"), |d: char| Token::Empty(d as u32 - '0' as u32)),
        map(pair(opt(char('+')), satisfy(|c| PieceKind::from_char(c).is_some())), |(p, c)| {
            Token::Piece(p.is_some(), c)
        }),
    ))(input)
}

fn hand_entry(input: &str) -> IResult<&str, (Option<&str>, char)> {
    pair(opt(digit1), satisfy(|c| PieceKind::from_char(c).is_some_and(|k| k.is_hand_kind())))(input)
}

/// Parses the (up to) four SFEN fields; the move number may be omitted. Trailing text after
/// the fields is an error: callers split off `moves ...` themselves.
pub fn parse_sfen(text: &str) -> Result<Setup, SfenError> {
    let (setup, rest) = parse_sfen_prefix(text)?;
    if !rest.trim().is_empty() {
        return Err(SfenError {
            column: text.len() - rest.trim_start().len() + 1,
            message: "unexpected text after the SFEN",
        });
    }
    Ok(setup)
}

/// Parses the SFEN at the start of `text`, returning what follows it.
pub fn parse_sfen_prefix(text: &str) -> Result<(Setup, &str), SfenError> {
    let col = |rest: &str| text.len() - rest.len() + 1;
    let fail = |rest: &str, message| SfenError { column: col(rest), message };
    let mut setup = Setup::empty();
    let mut input = text.trim_start();

    // Board: ranks a..i, each from file 9 down to file 1.
    for rank in 0..9 {
        if rank > 0 {
            match char::<&str, nom::error::Error<&str>>('/')(input) {
                Ok((rest, _)) => input = rest,
                Err(_) => return Err(fail(input, "expected '/' between ranks")),
            }
        }
        let mut file = 9i32;
        while file > 0 {
            let Ok((rest, tok)) = token(input) else {
                let msg = if input.starts_with('/') || input.starts_with(' ') || input.is_empty() {
                    "rank has fewer than 9 squares"
                } else {
                    "expected a digit or a piece letter"
                };
                return Err(fail(input, msg));
            };
            match tok {
                Token::Empty(n) => {
                    if n as i32 > file {
                        return Err(fail(input, "rank has more than 9 squares"));
                    }
                    file -= n as i32;
                }
                Token::Piece(promoted, c) => {
                    let Some(base) = PieceKind::from_char(c) else {
                        return Err(fail(input, "unknown piece letter"));
                    };
                    let kind = if promoted {
                        if !base.can_promote() {
                            return Err(fail(input, "this piece cannot be promoted"));
                        }
                        base.promote()
                    } else {
                        base
                    };
                    let color = if c.is_ascii_uppercase() { Color::Black } else { Color::White };
                    let Some(sq) = Square::from_coords(file - 1, rank) else {
                        return Err(fail(input, "square off the board"));
                    };
                    setup.board[sq.index()] = Piece::new(color, kind);
                    file -= 1;
                }
            }
            input = rest;
        }
        if token(input).is_ok() {
            return Err(fail(input, "rank has more than 9 squares"));
        }
    }

    // Side to move.
    let Ok((rest, _)) = space1::<&str, nom::error::Error<&str>>(input) else {
        return Err(fail(input, "expected a space before the side to move"));
    };
    input = rest;
    let Ok((rest, side)) = one_of::<&str, &str, nom::error::Error<&str>>("bw")(input) else {
        return Err(fail(input, "expected 'b' or 'w'"));
    };
    setup.side = if side == 'b' { Color::Black } else { Color::White };
    input = rest;

    // Hands.
    let Ok((rest, _)) = space1::<&str, nom::error::Error<&str>>(input) else {
        return Err(fail(input, "expected a space before the hands"));
    };
    input = rest;
    if let Ok((rest, _)) = char::<&str, nom::error::Error<&str>>('-')(input) {
        input = rest;
    } else {
        let mut any = false;
        while let Ok((rest, (count, c))) = hand_entry(input) {
            let n = match count {
                None => 1,
                Some(digits) => match digits.parse::<u32>() {
                    Ok(n) if (1..=18).contains(&n) => n,
                    _ => return Err(fail(input, "hand count must be 1 to 18")),
                },
            };
            let Some(kind) = PieceKind::from_char(c) else {
                return Err(fail(input, "unknown piece letter in hand"));
            };
            let color = if c.is_ascii_uppercase() { Color::Black } else { Color::White };
            let slot = &mut setup.hands[color.index()][kind.index()];
            *slot = slot.saturating_add(n as u8);
            input = rest;
            any = true;
        }
        if !any {
            return Err(fail(input, "expected '-' or pieces in hand"));
        }
        // Fields are separated by spaces or tabs (nom's `space1`), here as everywhere.
        if !(input.is_empty() || input.starts_with([' ', '\t'])) {
            return Err(fail(input, "expected a piece in hand"));
        }
    }

    // Optional move number.
    let number: IResult<&str, &str> = recognize(pair(space1, digit1))(input);
    if let Ok((rest, digits)) = number {
        match digits.trim().parse::<u32>() {
            Ok(n) if n >= 1 => setup.ply = n,
            _ => return Err(fail(input, "bad move number")),
        }
        input = rest;
    }
    Ok((setup, input))
}

impl Position {
    /// The start position.
    pub fn startpos() -> Position {
        match Position::from_sfen(STARTPOS) {
            Ok(p) => p,
            Err(e) => unreachable!("start position: {e}"),
        }
    }

    /// Parses and validates an SFEN.
    pub fn from_sfen(text: &str) -> Result<Position, FromSfenError> {
        parse_sfen(text).map_err(FromSfenError::Syntax)?.validate().map_err(FromSfenError::Illegal)
    }

    /// The SFEN of this position.
    pub fn to_sfen(&self) -> String {
        self.to_setup().to_string()
    }
}

impl fmt::Display for Setup {
    /// Writes SFEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in 0..9 {
            if rank > 0 {
                f.write_str("/")?;
            }
            let mut empty = 0;
            for file in (0..9).rev() {
                let piece = Square::from_coords(file, rank).map(|s| self.board[s.index()]);
                match piece {
                    Some(p) if !p.is_empty() => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{p}")?;
                    }
                    _ => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
        }
        write!(f, " {} ", self.side.sfen_char())?;
        let mut any = false;
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                let n = self.hands[color.index()][kind.index()];
                if n == 0 {
                    continue;
                }
                any = true;
                if n > 1 {
                    write!(f, "{n}")?;
                }
                let c = kind.base_char();
                write!(f, "{}", if color == Color::White { c.to_ascii_lowercase() } else { c })?;
            }
        }
        if !any {
            f.write_str("-")?;
        }
        write!(f, " {}", self.ply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_round_trips() {
        assert_eq!(Position::startpos().to_sfen(), STARTPOS);
    }

    #[test]
    fn adjacent_digits_add_up() {
        let s = parse_sfen("4k4/9/9/9/9/9/9/1n16/4K4 b - 1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.to_string(), "4k4/9/9/9/9/9/9/1n7/4K4 b - 1");
    }

    #[test]
    fn syntax_errors_name_the_column() {
        let e = parse_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPXPPPP/1B5R1/LNSGKGSNL b - 1");
        assert_eq!(e.map_err(|e| e.column), Err(37));
        assert!(parse_sfen("9/9/9/9/9/9/9/9/9 x - 1").is_err());
        assert!(parse_sfen("9/9/9/9/9/9/9/9/8 b - 1").is_err());
        assert!(parse_sfen("9/9/9/9/9/9/9/9/91 b - 1").is_err());
        assert!(parse_sfen("9/9/9/9/9/9/9/9/9 b 19P 1").is_err());
        assert!(parse_sfen("9/9/9/9/9/9/9/9/9 b K 1").is_err());
        assert!(parse_sfen("9/9/9/9/9/9/9/9/+G8 b - 1").is_err());
        assert!(parse_sfen("").is_err());
    }

    #[test]
    fn illegal_positions_say_why() {
        use PositionError::*;
        let err = |s: &str| match Position::from_sfen(s) {
            Err(FromSfenError::Illegal(e)) => e,
            other => panic!("{s}: {:?}", other.map(|p| p.to_sfen())),
        };
        assert!(matches!(err("4k4/9/9/9/9/9/P3P4/P8/4K4 b - 1"), TwoPawnsOnFile { .. }));
        assert!(matches!(err("P3k4/9/9/9/9/9/9/9/4K4 b - 1"), DeadPiece { .. }));
        assert!(matches!(err("4k4/N8/9/9/9/9/9/9/4K4 b - 1"), DeadPiece { .. }));
        assert!(matches!(err("4k4/9/9/9/9/9/9/9/4K3l w - 1"), DeadPiece { .. }));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K4 b 3B 1"),
            TooManyPieces { kind: PieceKind::Bishop, .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
            TooManyKings { color: Color::Black, .. }
        ));
        assert!(matches!(err("4k4/4R4/9/9/9/9/9/9/4K4 b - 1"), OpponentInCheck));
        // Tsume: no attacker king.
        assert!(Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").is_ok());
    }
}
