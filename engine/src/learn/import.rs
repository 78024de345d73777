//! `tsumugi learn import`: labelled positions from recorded games (`tsumugi match --record`,
//! games against YaneuraOu or any other engine), in the file format of `learn gen`.
//!
//! A record is a `# game ... result=1-0|0-1|1/2-1/2 ...` line followed by the game's
//! `position` command. Every position of the game is replayed through our rules; the quiet
//! ones (as `learn gen` keeps them: not in check, the move before captured nothing, the move
//! played next neither captures nor promotes) are searched at a fixed number of nodes for the
//! score of the label, the result is the game's for the side to move, and positions the search
//! scores as mates are left out. The same records and settings give the same file.

use crate::eval::choice::EvalChoice;
use crate::learn::data::{game_line, sample_line};
use crate::learn::gen::{fixed_node_engine, is_quiet};
use crate::params::Params;
use crate::search::control::SearchControl;
use crate::search::report::Score;
use shogi::{Color, Move, Position};

/// One recorded game: where it starts, its moves and who won (`None`: a draw).
#[derive(Clone)]
pub struct RecordedGame {
    pub start: Position,
    pub moves: Vec<Move>,
    pub winner: Option<Color>,
}

/// Reads the games of a match record; a bad line is refused with `origin` and its number.
pub fn read_records(text: &str, origin: &str) -> Result<Vec<RecordedGame>, String> {
    let mut games = Vec::new();
    let mut pending: Option<(usize, Option<Color>)> = None;
    for (i, line) in text.lines().enumerate() {
        let at = |e: String| format!("{origin}:{}: {e}", i + 1);
        let line = line.trim();
        if let Some(header) = line.strip_prefix("# game ") {
            if let Some((n, _)) = pending {
                return Err(at(format!("the game of line {n} has no position line")));
            }
            let result = header
                .split_whitespace()
                .find_map(|w| w.strip_prefix("result="))
                .ok_or_else(|| at("a game line without result=".to_string()))?;
            let winner = match result {
                "1-0" => Some(Color::Black),
                "0-1" => Some(Color::White),
                "1/2-1/2" => None,
                other => return Err(at(format!("result {other:?} is not 1-0, 0-1 or 1/2-1/2"))),
            };
            pending = Some((i + 1, winner));
        } else if line.starts_with("position") {
            let Some((_, winner)) = pending.take() else {
                return Err(at("a position line without its game line".to_string()));
            };
            let (setup, moves) = match line.split_once(" moves") {
                Some((setup, moves)) => (setup, moves),
                None => (line, ""),
            };
            let start = shogi::usi::parse_position_command(setup).map_err(|e| at(e.to_string()))?;
            let words: Vec<&str> = moves.split_whitespace().collect();
            let moves = start.clone().parse_usi_line(&words).map_err(|e| at(e.to_string()))?;
            games.push(RecordedGame { start, moves, winner });
        }
    }
    if let Some((n, _)) = pending {
        return Err(format!("{origin}:{n}: the game has no position line"));
    }
    Ok(games)
}

/// How imported positions are scored.
#[derive(Clone)]
pub struct ImportSettings {
    pub nodes: u64,
    pub hash_mb: usize,
    pub params: Params,
    /// The scoring search's evaluation.
    pub eval: EvalChoice,
}

/// The data lines of game `number`: its quiet positions, labelled, then its game line.
pub fn import_game(number: usize, game: &RecordedGame, settings: &ImportSettings) -> String {
    // Nodes, not time: the same records give the same file.
    let (mut engine, limits) =
        fixed_node_engine(&settings.params, settings.hash_mb, &settings.eval, settings.nodes);
    let mut pos = game.start.clone();
    let mut text = String::new();
    for &next in &game.moves {
        if is_quiet(&pos, next) {
            let control = SearchControl::new(None, None, false);
            let outcome = engine.search(&pos, &limits, &control, &mut |_| {});
            if let Score::Cp(cp) = outcome.score {
                let us = pos.side_to_move();
                let result = match game.winner {
                    None => 0.5,
                    Some(w) if w == us => 1.0,
                    Some(_) => 0.0,
                };
                text.push_str(&sample_line(&pos.to_sfen(), result, cp));
                text.push('\n');
            }
        }
        pos.make_move(next);
    }
    let winner = match game.winner {
        Some(Color::Black) => "black",
        Some(Color::White) => "white",
        None => "draw",
    };
    text.push_str(&game_line(number, &format!("{winner} imported {}", game.moves.len())));
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::data::parse_line;

    const RECORD: &str = "# game 1 black=a white=b result=0-1 reason=mate (x) plies=4 opening=o\n\
        position startpos moves 7g7f 3c3d 8h2b+ 3a2b\n# final sfen x\n\
        # game 2 black=b white=a result=1/2-1/2 reason=repetition (x) plies=2 opening=o\n\
        position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves \
        2g2f 8c8d\n";

    #[test]
    fn records_are_read_with_their_results_and_moves() {
        let games = read_records(RECORD, "r.txt").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].winner, games[0].moves.len()), (Some(Color::White), 4));
        assert_eq!((games[1].winner, games[1].moves.len()), (None, 2));
        assert_eq!(games[0].moves[2].to_string(), "8h2b+");
    }

    #[test]
    fn bad_records_are_refused_with_file_and_line() {
        for (text, line, why) in [
            ("# game 1 result=2-0\nposition startpos\n", 1, "is not 1-0"),
            ("# game 1 reason=mate\n", 1, "without result="),
            ("position startpos moves 7g7f\n", 1, "without its game line"),
            ("# game 1 result=1-0\nposition startpos moves 7g7f 7g7f\n", 2, ""),
            ("# game 1 result=1-0\n# game 2 result=1-0\n", 2, "no position line"),
            ("# game 1 result=1-0\n", 1, "no position line"),
        ] {
            let e = read_records(text, "r.txt").err().unwrap_or_default();
            assert!(e.starts_with(&format!("r.txt:{line}: ")) && e.contains(why), "{text}: {e}");
        }
    }

    /// The quiet positions of a game are kept with the game's result for the side to move:
    /// the position after the bishop exchange's capture is not quiet, nor the one whose next
    /// move captures.
    #[test]
    fn imported_positions_are_quiet_and_labelled_by_the_result() {
        let games = read_records(RECORD, "r.txt").unwrap_or_else(|e| panic!("{e}"));
        let settings = ImportSettings {
            nodes: 300,
            hash_mb: 1,
            params: Params::default(),
            eval: EvalChoice::default(),
        };
        let text = import_game(0, &games[0], &settings);
        let samples: Vec<_> =
            text.lines().filter_map(|l| parse_line(l).unwrap_or_else(|e| panic!("{e}"))).collect();
        // Plies 0 and 1 are quiet (their next moves 7g7f, 3c3d capture nothing); ply 2's next
        // move 8h2b+ captures and ply 3 follows a capture.
        assert_eq!(samples.len(), 2, "{text}");
        assert_eq!(samples[0].position.to_sfen(), Position::startpos().to_sfen());
        // White won: Black's position is a loss, White's a win.
        assert_eq!((samples[0].result, samples[1].result), (0.0, 1.0));
        assert!(text.ends_with("# game 0 white imported 4\n"), "{text}");
        assert_eq!(import_game(0, &games[0], &settings), text, "the same file again");
        let draw = import_game(1, &games[1], &settings);
        assert!(draw.lines().filter_map(|l| parse_line(l).ok().flatten()).all(|s| s.result == 0.5));
    }
}
