//! Opening positions for matches: a file of SFEN lines (`<sfen>` or `<sfen> # comment`) or
//! `position ...` lines (`position startpos moves ...`, `position sfen ... moves ...`; the word
//! `position` may be left out). Blank lines and `#` comment lines are skipped.

use shogi::{parse_position_command, Position};
use std::fmt;
use std::path::Path;

/// One opening: the `position` command that sets it up and the position it gives (with the
/// history of its moves, for repetition checks).
#[derive(Clone)]
pub struct Opening {
    /// `position startpos` or `position sfen ...`, without `moves`.
    pub base: String,
    /// The moves after `base`, in USI notation.
    pub moves: Vec<String>,
    pub position: Position,
    /// The comment of its line (or `line N`), to name it in records.
    pub label: String,
}

impl fmt::Debug for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Opening")
            .field("base", &self.base)
            .field("moves", &self.moves)
            .field("label", &self.label)
            .finish()
    }
}

impl Opening {
    pub fn startpos() -> Opening {
        Opening {
            base: "position startpos".to_string(),
            moves: Vec::new(),
            position: Position::startpos(),
            label: "startpos".to_string(),
        }
    }

    /// Parses one line; `Ok(None)` for a blank or comment line.
    pub fn parse_line(line: &str, number: usize) -> Result<Option<Opening>, String> {
        let (body, comment) = match line.split_once('#') {
            Some((b, c)) => (b.trim(), c.trim()),
            None => (line.trim(), ""),
        };
        if body.is_empty() {
            return Ok(None);
        }
        let command = body.strip_prefix("position").map(str::trim_start).unwrap_or(body);
        let command = if command.starts_with("startpos") || command.starts_with("sfen ") {
            command.to_string()
        } else {
            format!("sfen {command}")
        };
        let position =
            parse_position_command(&command).map_err(|e| format!("line {number}: {e}"))?;
        let (base, moves) = match command.split_once(" moves") {
            Some((b, m)) => (b.trim(), m.split_whitespace().map(str::to_string).collect()),
            None => (command.trim(), Vec::new()),
        };
        let label = if comment.is_empty() { format!("line {number}") } else { comment.to_string() };
        Ok(Some(Opening { base: format!("position {base}"), moves, position, label }))
    }

    /// The `position` command for this opening followed by `extra` moves.
    pub fn command_with(&self, extra: &[String]) -> String {
        let mut s = self.base.clone();
        if !self.moves.is_empty() || !extra.is_empty() {
            s.push_str(" moves");
            for m in self.moves.iter().chain(extra) {
                s.push(' ');
                s.push_str(m);
            }
        }
        s
    }
}

/// Reads every opening of a file; any bad line is an error naming it.
pub fn read_openings(path: &Path) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(o) =
            Opening::parse_line(line, i + 1).map_err(|e| format!("{}: {e}", path.display()))?
        {
            out.push(o);
        }
    }
    if out.is_empty() {
        return Err(format!("{}: no opening positions", path.display()));
    }
    Ok(out)
}

/// A permutation of `0..n` from a seed (xorshift, Fisher–Yates): reproducible shuffles
/// without a random-number crate.
pub fn shuffled_indices(n: usize, seed: u64) -> Vec<usize> {
    let mut rng = crate::tools::xorshift::XorShift64::new(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.below(i + 1);
        v.swap(i, j);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_forms() {
        let o = Opening::parse_line(
            "ln1gk3l/1r3sg2/2pp1pnp1/p1s1pbp1p/9/P1P1PPS1P/1PNP2P2/1BGS3R1/L3KG1NL b Pp 37 # t-1 ?",
            1,
        );
        let o = o.unwrap_or_else(|e| panic!("{e}")).unwrap_or_else(|| panic!("empty"));
        assert_eq!(o.label, "t-1 ?");
        assert!(o.moves.is_empty());
        assert!(o.command_with(&["1g1f".to_string()]).ends_with("b Pp 37 moves 1g1f"));

        let o = Opening::parse_line("position startpos moves 7g7f 3c3d", 2)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("empty"));
        assert_eq!(o.base, "position startpos");
        assert_eq!(o.moves, vec!["7g7f", "3c3d"]);
        assert_eq!(o.label, "line 2");
        assert_eq!(o.command_with(&[]), "position startpos moves 7g7f 3c3d");
        assert_eq!(o.position.ply(), Position::startpos().ply() + 2);

        let o = Opening::parse_line("startpos", 3).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(o.map(|o| o.command_with(&[])), Some("position startpos".to_string()));

        for blank in ["", "   ", "# comment"] {
            assert!(matches!(Opening::parse_line(blank, 4), Ok(None)));
        }
        for bad in ["nonsense", "position startpos moves 7g7g", "sfen 9/9 b - 1"] {
            let e = Opening::parse_line(bad, 5).err().unwrap_or_default();
            assert!(e.starts_with("line 5"), "{bad}: {e}");
        }
    }

    #[test]
    fn shuffles_are_permutations() {
        let mut v = shuffled_indices(100, 7);
        assert_ne!(v, (0..100).collect::<Vec<_>>());
        assert_eq!(v, shuffled_indices(100, 7));
        v.sort_unstable();
        assert_eq!(v, (0..100).collect::<Vec<_>>());
        assert!(shuffled_indices(0, 1).is_empty());
    }
}
