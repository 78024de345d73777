//! USI notation: moves (`7g7f`, `8h2b+`, `P*5e`) and `position startpos|sfen ... moves ...`.

use crate::movegen::is_legal;
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::sfen::{parse_sfen_prefix, FromSfenError};
use crate::square::Square;
use nom::branch::alt;
use nom::character::complete::{char, one_of};
use nom::combinator::{all_consuming, map, opt};
use nom::sequence::{pair, separated_pair, tuple};
use nom::IResult;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsiError {
    /// Not a move in USI notation.
    BadMoveSyntax(String),
    /// Well-formed but not legal in the position (`ply` counts the moves of the command, from 1).
    IllegalMove { text: String, ply: usize },
    /// The SFEN of a `position` command is wrong.
    Sfen(FromSfenError),
    /// A `position` command that is neither `startpos` nor `sfen ...`, or has junk after it.
    BadPositionCommand(String),
}

impl fmt::Display for UsiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsiError::BadMoveSyntax(t) => write!(f, "not a USI move: {t:?}"),
            UsiError::IllegalMove { text, ply } => write!(f, "illegal move {text} (move {ply})"),
            UsiError::Sfen(e) => e.fmt(f),
            UsiError::BadPositionCommand(t) => write!(f, "bad position command: {t}"),
        }
    }
}

impl std::error::Error for UsiError {}

fn square(input: &str) -> IResult<&str, Square> {
    map(pair(one_of("123456789"), one_of("abcdefghi")), |(f, r)| {
        Square::from_index_unchecked((f as u8 - b'1') * 9 + (r as u8 - b'a'))
    })(input)
}

fn usi_move(input: &str) -> IResult<&str, Move> {
    alt((
        map(tuple((square, square, opt(char('+')))), |(from, to, p)| {
            Move::with_promotion(from, to, p.is_some())
        }),
        map(separated_pair(one_of("PLNSGBR"), char('*'), square), |(k, to)| {
            Move::drop(PieceKind::from_char(k).unwrap_or(PieceKind::Pawn), to)
        }),
    ))(input)
}

/// Parses USI move notation without looking at a position.
pub fn parse_move_syntax(text: &str) -> Result<Move, UsiError> {
    match all_consuming(usi_move)(text) {
        Ok((_, m)) if m.is_drop() || m.from() != m.to() => Ok(m),
        _ => Err(UsiError::BadMoveSyntax(text.to_string())),
    }
}

impl Position {
    /// Parses a USI move and checks that it is legal here.
    pub fn parse_usi_move(&self, text: &str) -> Result<Move, UsiError> {
        let m = parse_move_syntax(text)?;
        if is_legal(self, m) {
            Ok(m)
        } else {
            Err(UsiError::IllegalMove { text: text.to_string(), ply: 1 })
        }
    }

    /// Parses a line of USI moves played one after another from here; an illegal move's
    /// error gives its 1-based place in the line.
    pub fn parse_usi_line<S: AsRef<str>>(&self, moves: &[S]) -> Result<Vec<Move>, UsiError> {
        let mut pos = self.clone();
        let mut line = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let m = pos.parse_usi_move(text.as_ref()).map_err(|e| match e {
                UsiError::IllegalMove { text, .. } => UsiError::IllegalMove { text, ply: i + 1 },
                other => other,
            })?;
            pos.make_move(m);
            line.push(m);
        }
        Ok(line)
    }
}

/// Parses `position startpos|sfen <sfen> [moves m1 m2 ...]` (the word `position` is optional)
/// and plays the moves, keeping them in the position's history for repetition checks.
pub fn parse_position_command(line: &str) -> Result<Position, UsiError> {
    let bad = || UsiError::BadPositionCommand(line.trim().to_string());
    let rest = line.trim();
    let rest = rest.strip_prefix("position").map(str::trim_start).unwrap_or(rest);
    let (mut pos, rest) = if let Some(r) = rest.strip_prefix("startpos") {
        (Position::startpos(), r)
    } else if let Some(r) = rest.strip_prefix("sfen ") {
        let (setup, r) =
            parse_sfen_prefix(r).map_err(|e| UsiError::Sfen(FromSfenError::Syntax(e)))?;
        let pos = setup.validate().map_err(|e| UsiError::Sfen(FromSfenError::Illegal(e)))?;
        (pos, r)
    } else {
        return Err(bad());
    };
    if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
        return Err(bad());
    }
    let rest = rest.trim();
    if rest.is_empty() {
        return Ok(pos);
    }
    let Some(moves) = rest.strip_prefix("moves") else {
        return Err(bad());
    };
    if !moves.is_empty() && !moves.starts_with(char::is_whitespace) {
        return Err(bad());
    }
    let words: Vec<&str> = moves.split_whitespace().collect();
    for m in pos.parse_usi_line(&words)? {
        pos.make_move(m);
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip() {
        for t in ["7g7f", "8h2b+", "P*5e", "R*1a", "9i1a"] {
            let m = parse_move_syntax(t).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(m.to_string(), t);
        }
        for t in ["", "7g", "7g7f++", "0a1a", "7j7f", "K*5e", "p*5e", "P*5e+", "7g7g", "7g7f "] {
            assert!(parse_move_syntax(t).is_err(), "{t:?}");
        }
    }

    #[test]
    fn position_commands() {
        let p = parse_position_command("position startpos moves 7g7f 3c3d 8h2b+")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            p.to_sfen(),
            "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
        );
        let p = parse_position_command(
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f",
        );
        assert!(p.is_ok());
        assert!(matches!(
            parse_position_command("position startpos moves 7g7f 7g7f"),
            Err(UsiError::IllegalMove { ply: 2, .. })
        ));
        assert!(matches!(
            parse_position_command("position startpos moves 7g7x"),
            Err(UsiError::BadMoveSyntax(_))
        ));
        assert!(matches!(
            parse_position_command("position foo"),
            Err(UsiError::BadPositionCommand(_))
        ));
        assert!(matches!(
            parse_position_command("position startposmoves"),
            Err(UsiError::BadPositionCommand(_))
        ));
        assert!(matches!(
            parse_position_command("position sfen 9/9 b - 1"),
            Err(UsiError::Sfen(_))
        ));
    }

    #[test]
    fn drops_need_the_piece_in_hand() {
        let p = Position::startpos();
        assert!(matches!(p.parse_usi_move("P*5e"), Err(UsiError::IllegalMove { .. })));
    }
}
