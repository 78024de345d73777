//! KI2's words that tell apart two pieces of one kind able to reach the same square:
//! movement words 上 (forward), 引 (backward), 寄 (sideways), 直 (straight forward), and
//! position words 右 and 左, all seen from the mover's side of the board.
//!
//! Reading and writing share one predicate, [`matches`]: a reader keeps the candidates the
//! written words match, and the writer picks the first of the customary word choices that
//! matches the moving piece alone. A written move therefore always reads back to itself.

use crate::color::Color;
use crate::square::Square;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Relative {
    Right,
    Left,
    Straight,
    Up,
    Back,
    Sideways,
}

impl Relative {
    /// The word's character; `行` (an old spelling of 上) and `入` are accepted as 上.
    pub fn from_char(c: char) -> Option<Relative> {
        Some(match c {
            '右' => Relative::Right,
            '左' => Relative::Left,
            '直' => Relative::Straight,
            '上' | '行' | '入' => Relative::Up,
            '引' => Relative::Back,
            '寄' => Relative::Sideways,
            _ => return None,
        })
    }

    pub fn to_char(self) -> char {
        match self {
            Relative::Right => '右',
            Relative::Left => '左',
            Relative::Straight => '直',
            Relative::Up => '上',
            Relative::Back => '引',
            Relative::Sideways => '寄',
        }
    }

    fn is_position(self) -> bool {
        matches!(self, Relative::Right | Relative::Left)
    }
}

/// Ranks moved towards the opponent (negative: backwards).
fn forward(color: Color, from: Square, to: Square) -> i32 {
    let d = from.rank().index() as i32 - to.rank().index() as i32;
    if color == Color::Black {
        d
    } else {
        -d
    }
}

/// How far right a square is for `color`: Black's right is file 1, White's is file 9.
fn rightness(color: Color, sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    if color == Color::Black {
        -f
    } else {
        f
    }
}

fn moves_as(color: Color, from: Square, to: Square, word: Relative) -> bool {
    let fwd = forward(color, from, to);
    match word {
        Relative::Up => fwd > 0,
        Relative::Back => fwd < 0,
        Relative::Sideways => fwd == 0,
        Relative::Straight => fwd > 0 && from.file() == to.file(),
        Relative::Right | Relative::Left => true,
    }
}

/// Whether `words` describe the piece on `from` among `origins` (every square from which a
/// piece of the same kind can reach `to`): movement words must hold for it, and a position word
/// must make it the strictly rightmost (leftmost) of the origins the movement words leave.
pub fn matches(
    color: Color,
    origins: &[Square],
    from: Square,
    to: Square,
    words: &[Relative],
) -> bool {
    let moving = |o: Square| words.iter().all(|&w| moves_as(color, o, to, w));
    if !moving(from) {
        return false;
    }
    let group = origins.iter().copied().filter(|&o| o != from && moving(o));
    let mine = rightness(color, from);
    words.iter().filter(|w| w.is_position()).all(|&w| {
        group.clone().all(|o| match w {
            Relative::Right => mine > rightness(color, o),
            _ => mine < rightness(color, o),
        })
    })
}

/// The words a KI2 record writes for the move `from` → `to`, in the customary order of
/// preference: none when the piece is alone, then one movement word (上 引 寄), then 直 (never
/// for 竜 and 馬), then 右 or 左, then 右 or 左 with a movement word.
pub fn words_for(
    color: Color,
    origins: &[Square],
    from: Square,
    to: Square,
    ranged: bool,
) -> Vec<Relative> {
    use Relative::*;
    let movement = [Up, Back, Sideways].into_iter().find(|&w| moves_as(color, from, to, w));
    let mut options: Vec<Vec<Relative>> = vec![vec![]];
    options.extend(movement.map(|w| vec![w]));
    if !ranged {
        options.push(vec![Straight]);
    }
    options.push(vec![Right]);
    options.push(vec![Left]);
    if let Some(w) = movement {
        options.push(vec![Right, w]);
        options.push(vec![Left, w]);
    }
    let unique = |words: &Vec<Relative>| {
        origins.iter().filter(|&&o| matches(color, origins, o, to, words)).count() == 1
            && matches(color, origins, from, to, words)
    };
    options.into_iter().find(unique).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(file: i32, rank: i32) -> Square {
        Square::from_coords(file - 1, rank - 1).unwrap_or_else(|| panic!("square {file}{rank}"))
    }

    #[test]
    fn three_golds_behind_a_square() {
        let origins = [sq(6, 9), sq(5, 9), sq(4, 9)];
        let to = sq(5, 8);
        let w = |from| words_for(Color::Black, &origins, from, to, false);
        assert_eq!(w(sq(6, 9)), vec![Relative::Left]);
        assert_eq!(w(sq(5, 9)), vec![Relative::Straight]);
        assert_eq!(w(sq(4, 9)), vec![Relative::Right]);
        // White sees the board turned round: its right is the high files.
        let origins = [sq(6, 1), sq(4, 1)];
        assert_eq!(
            words_for(Color::White, &origins, sq(6, 1), sq(5, 2), false),
            vec![Relative::Right]
        );
    }
}
