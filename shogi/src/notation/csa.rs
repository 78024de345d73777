//! CSA (V2.2): `V2.2`, `N+`/`N-` names, `$KEY:value` info (`$EVENT` is kept as the title),
//! `'` comments, the position as `PI` (with removed pieces, `PI82HI22KA`) or rows `P1`..`P9`
//! plus `P+`/`P-` pieces on squares or in hand (`P+00KI`, `P-00AL` for all the rest), the side
//! to move (`+`/`-`), moves (`+7776FU`, `-8822UM`), `%` results ending the main line, `T` times,
//! statements joined with `,`, and games separated by `/`.

use super::error::NotationError;
use super::record::Record;
use super::remaining::remaining_to_hand;
use crate::color::Color;
use crate::movegen::is_legal;
use crate::moves::Move;
use crate::piece::{Piece, PieceKind, PieceKind::*};
use crate::position::Position;
use crate::setup::Setup;
use crate::sfen::STARTPOS;
use crate::square::Square;

const CODES: [(&str, PieceKind); 14] = [
    ("FU", Pawn),
    ("KY", Lance),
    ("KE", Knight),
    ("GI", Silver),
    ("KA", Bishop),
    ("HI", Rook),
    ("KI", Gold),
    ("OU", King),
    ("TO", ProPawn),
    ("NY", ProLance),
    ("NK", ProKnight),
    ("NG", ProSilver),
    ("UM", Horse),
    ("RY", Dragon),
];

fn kind_of(code: &str) -> Option<PieceKind> {
    CODES.iter().find(|c| c.0 == code).map(|c| c.1)
}

fn color_of(sign: char) -> Option<Color> {
    match sign {
        '+' => Some(Color::Black),
        '-' => Some(Color::White),
        _ => None,
    }
}

/// `77` as a square; `00` (a hand or drop) is `None`.
fn square_of(digits: &str) -> Result<Option<Square>, String> {
    let b = digits.as_bytes();
    match b {
        [b'0', b'0'] => Ok(None),
        [f @ b'1'..=b'9', r @ b'1'..=b'9'] => {
            Ok(Square::from_coords((f - b'1') as i32, (r - b'1') as i32))
        }
        _ => Err(format!("bad square {digits:?}")),
    }
}

/// One game's state while its lines are read.
struct Game {
    line: usize,
    title: Option<String>,
    setup: Setup,
    has_position: bool,
    /// The start, once the side-to-move line is read.
    start: Option<Position>,
    /// The position after the moves read so far.
    position: Option<Position>,
    moves: Vec<Move>,
    ended: bool,
}

impl Game {
    fn new(line: usize) -> Game {
        Game {
            line,
            title: None,
            setup: Setup::empty(),
            has_position: false,
            start: None,
            position: None,
            moves: Vec::new(),
            ended: false,
        }
    }

    fn statement(&mut self, no: usize, s: &str) -> Result<(), NotationError> {
        let err = |field: &str, m: String| NotationError::new(no, field, m);
        if let Some(v) = s.strip_prefix("$EVENT:") {
            self.title = Some(v.trim().to_string());
            return Ok(());
        }
        let first = s.chars().next().unwrap_or(' ');
        match first {
            'V' | 'N' | '$' | '\'' | 'T' => Ok(()),
            '%' => {
                self.ended = true;
                Ok(())
            }
            'P' => self.position_line(s).map_err(|m| err(&position_field(s), m)),
            '+' | '-' if s.len() == 1 => self.start(no, color_of(first).unwrap_or(Color::Black)),
            '+' | '-' => self.play(no, s),
            _ => Err(err("statement", format!("unknown CSA statement {s:?}"))),
        }
    }

    fn position_line(&mut self, s: &str) -> Result<(), String> {
        if self.position.is_some() {
            return Err("position line after the side to move".to_string());
        }
        self.has_position = true;
        let rest = &s[1..];
        match rest.chars().next() {
            Some('I') => self.initial(&rest[1..]),
            Some(c @ ('+' | '-')) => self.pieces(color_of(c).unwrap_or(Color::Black), &rest[1..]),
            Some(c @ '1'..='9') => self.row(c as usize - '1' as usize, &rest[1..]),
            _ => Err(format!("unknown position line {s:?}")),
        }
    }

    /// `PI` and removed pieces `82HI22KA`.
    fn initial(&mut self, removed: &str) -> Result<(), String> {
        let start = crate::sfen::parse_sfen(STARTPOS).map_err(|e| e.to_string())?;
        self.setup.board = start.board;
        for chunk in chunks4(removed.trim())? {
            let sq = square_of(&chunk[..2])?.ok_or("PI removes pieces from squares, not 00")?;
            let kind =
                kind_of(&chunk[2..]).ok_or_else(|| format!("bad piece code {:?}", &chunk[2..]))?;
            if self.setup.board[sq.index()].get().map(|p| p.1) != Some(kind) {
                return Err(format!("no {} on {} to remove", &chunk[2..], &chunk[..2]));
            }
            self.setup.board[sq.index()] = Piece::EMPTY;
        }
        Ok(())
    }

    /// `P1` .. `P9`: nine cells of three characters, ` * ` or `+FU`.
    fn row(&mut self, rank: usize, cells: &str) -> Result<(), String> {
        let chars: Vec<char> = cells.trim_end().chars().collect();
        let count = chars.len().div_ceil(3);
        if count != 9 {
            return Err(format!("expected 9 squares, found {count}"));
        }
        for (i, cell) in chars.chunks(3).enumerate() {
            let text: String = cell.iter().collect();
            let sq =
                Square::from_coords(8 - i as i32, rank as i32).ok_or("square off the board")?;
            if text.trim() == "*" {
                self.setup.board[sq.index()] = Piece::EMPTY;
                continue;
            }
            let color = color_of(cell[0]).ok_or_else(|| format!("bad square {text:?}"))?;
            let code: String = cell[1..].iter().collect();
            let kind = kind_of(&code).ok_or_else(|| format!("bad piece code {code:?}"))?;
            self.setup.board[sq.index()] = Piece::new(color, kind);
        }
        Ok(())
    }

    /// `P+` / `P-`: `XXYY` groups, `00` for the hand, `00AL` for every piece not yet placed.
    fn pieces(&mut self, color: Color, groups: &str) -> Result<(), String> {
        for chunk in chunks4(groups.trim())? {
            let code = &chunk[2..];
            let sq = square_of(&chunk[..2])?;
            if code == "AL" && sq.is_none() {
                remaining_to_hand(&mut self.setup, color);
                continue;
            }
            let kind = kind_of(code).ok_or_else(|| format!("bad piece code {code:?}"))?;
            match sq {
                Some(sq) => self.setup.board[sq.index()] = Piece::new(color, kind),
                None if kind.is_hand_kind() && kind != King => {
                    let slot = &mut self.setup.hands[color.index()][kind.index()];
                    *slot = slot.saturating_add(1);
                }
                None => return Err(format!("{code} cannot be in hand")),
            }
        }
        Ok(())
    }

    fn start(&mut self, no: usize, side: Color) -> Result<(), NotationError> {
        if self.position.is_some() {
            return Err(NotationError::new(no, "side to move", "a second side-to-move line"));
        }
        self.setup.side = side;
        let pos =
            self.setup.validate().map_err(|e| NotationError::new(no, "position", e.to_string()))?;
        self.start = Some(pos.clone());
        self.position = Some(pos);
        Ok(())
    }

    fn play(&mut self, no: usize, s: &str) -> Result<(), NotationError> {
        let field = format!("move {}", self.moves.len() + 1);
        let Some(pos) = self.position.as_mut() else {
            return Err(NotationError::new(no, field, "a move before the side-to-move line"));
        };
        if self.ended {
            return Ok(());
        }
        let m = parse_csa_move(pos, s).map_err(|m| NotationError::new(no, field, m))?;
        pos.make_move(m);
        self.moves.push(m);
        Ok(())
    }

    fn finish(mut self, no: usize) -> Result<Record, NotationError> {
        if self.position.is_none() {
            if !self.has_position {
                return Err(NotationError::new(self.line, "position", "no P lines"));
            }
            self.start(no, Color::Black)?;
        }
        let position = self.start.take().unwrap_or_else(Position::startpos);
        Ok(Record { title: self.title, position, moves: self.moves, line: self.line })
    }
}

fn position_field(s: &str) -> String {
    match s.get(..2) {
        Some(p @ ("P1" | "P2" | "P3" | "P4" | "P5" | "P6" | "P7" | "P8" | "P9")) => {
            format!("board row {p}")
        }
        _ => "position".to_string(),
    }
}

fn chunks4(s: &str) -> Result<Vec<&str>, String> {
    if !s.is_ascii() || !s.len().is_multiple_of(4) {
        return Err(format!("expected groups of four characters in {s:?}"));
    }
    Ok((0..s.len()).step_by(4).map(|i| &s[i..i + 4]).collect())
}

/// `+7776FU`: sign, origin (`00` for a drop), destination, and the piece after the move.
pub fn parse_csa_move(pos: &Position, s: &str) -> Result<Move, String> {
    let s = s.trim();
    if s.len() != 7 || !s.is_ascii() {
        return Err(format!("bad CSA move {s:?}"));
    }
    let color = color_of(s.chars().next().unwrap_or(' ')).ok_or("a move starts with + or -")?;
    if color != pos.side_to_move() {
        return Err(format!("{s}: the other side is to move"));
    }
    let to = square_of(&s[3..5])?.ok_or("a move goes to a square, not 00")?;
    let kind = kind_of(&s[5..7]).ok_or_else(|| format!("bad piece code {:?}", &s[5..7]))?;
    let m = match square_of(&s[1..3])? {
        None => Move::drop(kind, to),
        Some(from) => {
            let piece = pos.piece_at(from);
            if piece.is_empty() || piece.color() != color {
                return Err(format!("{s}: no piece of the side to move on {from}"));
            }
            let before = piece.kind();
            let promote = before != kind && before.can_promote() && before.promote() == kind;
            if before != kind && !promote {
                return Err(format!("{s}: the piece on {from} is not {}", &s[5..7]));
            }
            Move::with_promotion(from, to, promote)
        }
    };
    if is_legal(pos, m) {
        Ok(m)
    } else {
        Err(format!("{s} is illegal"))
    }
}

/// The statements of a line: `'` comments whole, others split on `,`.
fn statements(line: &str) -> Vec<&str> {
    let t = line.trim();
    if t.is_empty() {
        return Vec::new();
    }
    if t.starts_with(['\'', '$', 'N']) {
        return vec![t];
    }
    t.split(',').map(str::trim).filter(|s| !s.is_empty()).collect()
}

/// Reads every game of a CSA text (games separated by `/` lines).
pub fn read_csa(text: &str) -> Vec<Result<Record, NotationError>> {
    let mut out = Vec::new();
    let mut game: Option<(Game, Option<NotationError>)> = None;
    let mut last = 0;
    for (i, line) in text.lines().enumerate() {
        let no = i + 1;
        last = no;
        if line.trim() == "/" {
            out.extend(game.take().map(|g| finish(g, no)));
            continue;
        }
        for s in statements(line) {
            let (g, failed) = game.get_or_insert_with(|| (Game::new(no), None));
            if failed.is_none() {
                if let Err(e) = g.statement(no, s) {
                    *failed = Some(e);
                }
            }
        }
    }
    out.extend(game.take().map(|g| finish(g, last)));
    out
}

fn finish(
    (game, failed): (Game, Option<NotationError>),
    no: usize,
) -> Result<Record, NotationError> {
    match failed {
        Some(e) => Err(e),
        None => game.finish(no),
    }
}
