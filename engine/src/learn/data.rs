//! The positions `tsumugi learn gen` writes and `tsumugi learn fit` reads: one per line,
//! `<sfen> | <result> <score>`, where the result is the game's for the side to move (`1` won,
//! `0.5` drawn, `0` lost) and the score is the search's, in centipawns for the side to move.
//! After each game's positions comes its line `# game <n> <how it ended>`: a run that was
//! stopped is resumed from the last complete game.

use shogi::Position;
use std::path::Path;

/// One labelled position.
#[derive(Clone)]
pub struct Sample {
    pub position: Position,
    /// The game's result for the side to move: 1, 0.5 or 0.
    pub result: f64,
    /// The search's score for the side to move, in centipawns.
    pub score: i32,
}

/// The line of a sample.
pub fn sample_line(sfen: &str, result: f64, score: i32) -> String {
    format!("{sfen} | {result} {score}")
}

/// The line that ends game `n`.
pub fn game_line(n: usize, ending: &str) -> String {
    format!("# game {n} {ending}")
}

/// The number of the game a line ends, if it is a game line.
pub fn game_number(line: &str) -> Option<usize> {
    line.strip_prefix("# game ")?.split_whitespace().next()?.parse().ok()
}

/// Reads one line; `None` for blank and comment lines. Errors say what is wrong, for the
/// caller to prefix with the file and line.
pub fn parse_line(line: &str) -> Result<Option<Sample>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (sfen, label) = line.split_once('|').ok_or("no '|' between the SFEN and the label")?;
    let position = Position::from_sfen(sfen.trim()).map_err(|e| format!("bad SFEN: {e}"))?;
    let mut words = label.split_whitespace();
    let result = match words.next() {
        Some("1") => 1.0,
        Some("0.5") => 0.5,
        Some("0") => 0.0,
        Some(w) => return Err(format!("result {w:?} is not 1, 0.5 or 0")),
        None => return Err("no result after '|'".to_string()),
    };
    let score = match words.next() {
        Some(w) => w.parse::<i32>().map_err(|_| format!("score {w:?} is not an integer"))?,
        None => return Err("no score after the result".to_string()),
    };
    if let Some(extra) = words.next() {
        return Err(format!("unexpected {extra:?} after the score"));
    }
    Ok(Some(Sample { position, result, score }))
}

/// Reads a data file; an unreadable line is refused with the file and line.
pub fn read(path: &Path) -> Result<Vec<Sample>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut samples = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_line(line) {
            Ok(Some(s)) => samples.push(s),
            Ok(None) => {}
            Err(e) => return Err(format!("{}:{}: {e}", path.display(), i + 1)),
        }
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_back_and_bad_ones_refused() {
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let s = parse_line(&sample_line(sfen, 0.5, -35)).unwrap_or_else(|e| panic!("{e}"));
        let s = s.unwrap_or_else(|| panic!("a sample"));
        assert_eq!((s.position.to_sfen().as_str(), s.result, s.score), (sfen, 0.5, -35));
        assert!(matches!(parse_line("# game 3 black mate 101"), Ok(None)));
        assert_eq!(game_number(&game_line(12, "draw repetition 80")), Some(12));
        for (bad, why) in [
            (format!("{sfen} 1 0"), "no '|'"),
            (format!("{sfen} | 2 0"), "is not 1, 0.5 or 0"),
            (format!("{sfen} |"), "no result"),
            (format!("{sfen} | 1"), "no score"),
            (format!("{sfen} | 1 x"), "not an integer"),
            (format!("{sfen} | 1 3 4"), "unexpected"),
            ("lnsgkgsnl/1r5b1/ppp | 1 0".to_string(), "bad SFEN"),
        ] {
            let e = parse_line(&bad).err().unwrap_or_default();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn a_truncated_file_is_refused_with_its_line() {
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let text = format!("{}\n{}\n", sample_line(sfen, 1.0, 20), sample_line(sfen, 0.0, -20));
        let cut = &text[..text.len() - 12];
        let path =
            std::env::temp_dir().join(format!("tsumugi-learn-cut-{}.txt", std::process::id()));
        std::fs::write(&path, cut).unwrap_or_else(|e| panic!("{e}"));
        let e = read(&path).err().unwrap_or_default();
        assert!(e.starts_with(&format!("{}:2: ", path.display())), "{e}");
        let _ = std::fs::remove_file(&path);
    }
}
