//! The evaluation's weights as a list of numbers in named sections: the vector that
//! `tsumugi learn fit` fits, and the text file that `EvalFile` and `--weights` read.
//!
//! The file is one line per section, `name v1 v2 ...` (integers, centipawns or danger units);
//! `#` starts a comment. Every section must be there once with its exact count of numbers, so
//! that a file written for another layout is refused, with the file and line, rather than read
//! half; only sections added later (square control) may be missing, and read as zeros.

use crate::eval::weights::{Weights, CLASSES, CONTROL_CELLS, PLACEMENT_CELLS};
use std::fmt::Write as _;
use std::path::Path;

/// The board kinds of the `board` section, by `PieceKind::index()`: every kind but the king.
const BOARD_KINDS: [usize; 13] = [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14];
/// The kinds of the `hand` and `ks_hand` sections (pawn to gold).
const HAND_KINDS: [usize; 7] = [1, 2, 3, 4, 5, 6, 7];
/// The placement classes, as the section names spell them.
const CLASS_NAMES: [&str; CLASSES] =
    ["pawn", "lance", "knight", "silver", "gold", "bishop", "rook", "horse", "dragon"];

/// One named run of the vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub name: String,
    pub len: usize,
    /// What the numbers are, for the file's comment.
    pub what: &'static str,
    /// A section added after files were written: a file without it reads it as zeros.
    pub optional: bool,
}

/// The sections in file and vector order.
pub fn sections() -> Vec<Section> {
    let s = |name: &str, len: usize, what: &'static str| Section {
        name: name.to_string(),
        len,
        what,
        optional: false,
    };
    let mut v = vec![
        s("board", BOARD_KINDS.len(), "P L N S B R G +P +L +N +S +B +R on the board"),
        s("hand", HAND_KINDS.len(), "P L N S B R G in hand"),
        s("tempo", 1, "side to move"),
        s("king_rank", 9, "king by relative rank, far rank first"),
        s("mobility", 2, "per square attacked: bishop/horse, rook/dragon"),
        s("fork_share", 1, "percent of the second piece en prise (eval_threats)"),
        s("king_safety", 5, "danger: attack, weak, undefended adjacent, open file, defender"),
        s("ks_escapes", 9, "danger by the king's safe escapes, 0 to 8"),
        s("ks_hand", HAND_KINDS.len(), "danger per enemy P L N S B R G in hand"),
    ];
    for (table, what) in [("own_king", "by own king"), ("enemy_king", "by enemy king")] {
        for class in CLASS_NAMES {
            v.push(s(&format!("{table}.{class}"), PLACEMENT_CELLS, what));
        }
    }
    for (name, what) in [
        ("control_own", "per square near the own king, by distance 1-4 x (3 ours + theirs)"),
        ("control_enemy", "per square near the enemy king, by distance 1-4 x (3 ours + theirs)"),
    ] {
        v.push(Section { optional: true, ..s(name, CONTROL_CELLS, what) });
    }
    v
}

/// The length of the whole vector.
pub fn vector_len() -> usize {
    sections().iter().map(|s| s.len).sum()
}

impl Weights {
    /// The weights as one vector, in [`sections`] order.
    pub fn to_vector(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(vector_len());
        v.extend(BOARD_KINDS.iter().map(|&k| self.board[k]));
        v.extend(HAND_KINDS.iter().map(|&k| self.hand[k]));
        v.push(self.tempo);
        v.extend(self.king_rank);
        v.extend([self.mobility_bishop, self.mobility_rook, self.fork_share_pct]);
        v.extend([
            self.ks_attack,
            self.ks_weak,
            self.ks_undefended_adjacent,
            self.ks_open_file,
            self.ks_defender,
        ]);
        v.extend(self.ks_escapes);
        v.extend(HAND_KINDS.iter().map(|&k| self.ks_hand[k]));
        for table in [&self.own_king, &self.enemy_king] {
            for row in table.iter() {
                v.extend(row[..PLACEMENT_CELLS].iter().map(|&c| i32::from(c)));
            }
        }
        v.extend(self.control_own);
        v.extend(self.control_enemy);
        v
    }

    /// The weights of a vector in [`sections`] order (placement cells clamped to 16 bits).
    /// What the vector does not hold (the king's exchange value in hand) stays hand-set.
    pub fn from_vector(v: &[i32]) -> Result<Weights, String> {
        if v.len() != vector_len() {
            return Err(format!("{} numbers, want {}", v.len(), vector_len()));
        }
        let mut w = Weights::hand_set();
        let mut it = v.iter().copied();
        let mut next = || it.next().unwrap_or(0);
        for k in BOARD_KINDS {
            w.board[k] = next();
        }
        for k in HAND_KINDS {
            w.hand[k] = next();
        }
        w.tempo = next();
        w.king_rank.iter_mut().for_each(|x| *x = next());
        w.mobility_bishop = next();
        w.mobility_rook = next();
        w.fork_share_pct = next();
        w.ks_attack = next();
        w.ks_weak = next();
        w.ks_undefended_adjacent = next();
        w.ks_open_file = next();
        w.ks_defender = next();
        w.ks_escapes.iter_mut().for_each(|x| *x = next());
        for k in HAND_KINDS {
            w.ks_hand[k] = next();
        }
        for table in [&mut w.own_king, &mut w.enemy_king] {
            for row in table.iter_mut() {
                for cell in row[..PLACEMENT_CELLS].iter_mut() {
                    *cell = next().clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
                }
            }
        }
        w.control_own.iter_mut().for_each(|x| *x = next());
        w.control_enemy.iter_mut().for_each(|x| *x = next());
        w.control_on = w.control_own.iter().chain(&w.control_enemy).any(|&x| x != 0);
        Ok(w)
    }

    /// The text of a weights file; `header` lines go first as comments.
    pub fn to_file_text(&self, header: &[String]) -> String {
        let mut text = String::new();
        for line in header {
            let _ = writeln!(text, "# {line}");
        }
        let v = self.to_vector();
        let mut at = 0;
        for section in sections() {
            let numbers: Vec<String> =
                v[at..at + section.len].iter().map(|x| x.to_string()).collect();
            let _ = writeln!(text, "# {}\n{} {}", section.what, section.name, numbers.join(" "));
            at += section.len;
        }
        text
    }

    /// Reads a weights file's text; errors name `origin` and the line.
    pub fn from_file_text(text: &str, origin: &str) -> Result<Weights, String> {
        let sections = sections();
        let mut values: Vec<Option<Vec<i32>>> = vec![None; sections.len()];
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = format!("{origin}:{}", i + 1);
            let mut words = line.split_whitespace();
            let name = words.next().unwrap_or_default();
            let Some(k) = sections.iter().position(|s| s.name == name) else {
                return Err(format!("{at}: unknown section {name:?}"));
            };
            if values[k].is_some() {
                return Err(format!("{at}: section {name} given twice"));
            }
            let numbers = words
                .map(|w| {
                    w.parse::<i32>().map_err(|_| format!("{at}: {name}: {w:?} is not an integer"))
                })
                .collect::<Result<Vec<i32>, String>>()?;
            if numbers.len() != sections[k].len {
                return Err(format!(
                    "{at}: {name} has {} numbers, wants {}",
                    numbers.len(),
                    sections[k].len
                ));
            }
            values[k] = Some(numbers);
        }
        let mut v = Vec::with_capacity(vector_len());
        for (section, numbers) in sections.iter().zip(values) {
            match numbers {
                Some(numbers) => v.extend(numbers),
                None if section.optional => v.extend(std::iter::repeat_n(0, section.len)),
                None => return Err(format!("{origin}: no line for {}", section.name)),
            }
        }
        Weights::from_vector(&v).map_err(|e| format!("{origin}: {e}"))
    }

    /// Reads a weights file; the names `learnt` and `hand-set` (no file of that name in the
    /// current directory) stand for the built-in sets, so that a match can set either against
    /// the other.
    pub fn load(path: &Path) -> Result<Weights, String> {
        if !path.exists() {
            match path.to_str() {
                Some("learnt") => return Ok(Weights::learnt()),
                Some("hand-set") => return Ok(Weights::hand_set()),
                _ => {}
            }
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Weights::from_file_text(&text, &path.display().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::LEARNT_FILE;

    /// A file written before the square-control sections existed still reads (zeros there);
    /// a control line of the wrong length is refused with its line.
    #[test]
    fn files_without_the_control_sections_still_read() {
        let mut v = Weights::hand_set().to_vector();
        let at = v.len() - 2 * crate::eval::weights::CONTROL_CELLS + 5;
        v[at] = 7;
        let w = Weights::from_vector(&v).unwrap_or_else(|e| panic!("{e}"));
        assert!(w.control_on && w.control_own[5] == 7);
        let text = w.to_file_text(&[]);
        assert_eq!(Weights::from_file_text(&text, "w"), Ok(w.clone()));
        let old: String =
            text.lines().filter(|l| !l.starts_with("control_")).map(|l| format!("{l}\n")).collect();
        assert_eq!(Weights::from_file_text(&old, "w"), Ok(Weights::hand_set()));
        let short = format!("{old}control_own 1 2 3\n");
        let e = Weights::from_file_text(&short, "w").err().unwrap_or_default();
        assert!(e.starts_with("w:") && e.contains("control_own has 3 numbers"), "{e}");
    }

    #[test]
    fn the_built_in_learnt_weights_read_and_differ_from_the_hand_set_ones() {
        let learnt = Weights::from_file_text(LEARNT_FILE, "learnt.weights");
        assert_eq!(learnt.as_ref(), Ok(&Weights::learnt()));
        assert_ne!(Weights::learnt(), Weights::hand_set());
        assert_eq!(Weights::load(Path::new("hand-set")), Ok(Weights::hand_set()));
        assert_eq!(Weights::load(Path::new("learnt")), Ok(Weights::learnt()));
        assert!(Weights::load(Path::new("no-such.weights")).is_err());
    }

    #[test]
    fn the_hand_set_weights_go_through_the_vector_and_the_file_unchanged() {
        let w = Weights::hand_set();
        assert_eq!(w.to_vector().len(), vector_len());
        assert_eq!(Weights::from_vector(&w.to_vector()), Ok(w.clone()));
        let text = w.to_file_text(&["test".to_string()]);
        assert_eq!(Weights::from_file_text(&text, "w.txt"), Ok(w.clone()));
        // Another set of numbers comes back as written.
        let mut v = w.to_vector();
        v.iter_mut().enumerate().for_each(|(i, x)| *x += i as i32 % 7 - 3);
        let changed = Weights::from_vector(&v).unwrap_or_else(|e| panic!("{e}"));
        let back = Weights::from_file_text(&changed.to_file_text(&[]), "w.txt");
        assert_eq!(back.map(|b| b.to_vector()), Ok(v));
    }

    #[test]
    fn a_bad_file_is_refused_with_its_line() {
        let text = Weights::hand_set().to_file_text(&[]);
        let lines: Vec<&str> = text.lines().collect();
        let at = lines.iter().position(|l| l.starts_with("tempo ")).unwrap_or(0);
        let with = |i: usize, new: &str| {
            let mut l = lines.clone();
            l[i] = new;
            l.join("\n")
        };
        let err = |t: &str| Weights::from_file_text(t, "my.weights").err().unwrap_or_default();
        assert_eq!(
            err(&with(at, "tempo 20 21")),
            format!("my.weights:{}: tempo has 2 numbers, wants 1", at + 1)
        );
        assert_eq!(
            err(&with(at, "tempo x")),
            format!("my.weights:{}: tempo: \"x\" is not an integer", at + 1)
        );
        assert_eq!(
            err(&with(at, "tempi 20")),
            format!("my.weights:{}: unknown section \"tempi\"", at + 1)
        );
        assert_eq!(err(&with(at, "")), "my.weights: no line for tempo");
        let board = lines.iter().position(|l| l.starts_with("board ")).unwrap_or(0);
        assert!(err(&with(at, lines[board])).contains("board given twice"));
        let cut = &text[..text.len() / 2];
        assert!(err(cut).starts_with("my.weights:"), "a truncated file: {}", err(cut));
    }
}
