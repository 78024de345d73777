//! `tsumugi learn gen`: labelled positions from self-play at a fixed number of nodes per move.
//!
//! Game `n` starts from opening `n` of the shuffled opening list, with a fresh engine (one
//! thread, root oracle off), so that every game depends only on its number, the settings and
//! the seed: games may run side by side (`--concurrency`) and a stopped run resumes from its
//! last complete game with the same result as one run. A position is kept when it is quiet:
//! the side to move is not in check, the previous move captured nothing, and the search's move
//! neither captures nor promotes (the evaluation then speaks for the position, as at the leaf
//! of a quiescence search), and the score is not a mate. Games end by the match rules
//! (mate, repetition, perpetual check, the move limit) or when the search finds a mate.
//!
//! With `random_moves` R, R of the first [`RANDOM_WINDOW`] plies of each game are a random
//! legal move instead of the search's (the plies and the moves drawn from the seed and the game
//! number, so a game still depends only on its number): without them the engine, deterministic
//! at fixed nodes, plays the same game again from the same opening (a run of 29,041 games from
//! 12,304 openings gave 1.2 M positions of which 0.5 M distinct).

use crate::eval::choice::EvalChoice;
use crate::learn::data::{game_line, game_number, sample_line};
use crate::matches::game::{adjudicate, GameResult, Reason};
use crate::matches::openings::{shuffled_indices, Opening};
use crate::params::Params;
use crate::search::control::SearchControl;
use crate::search::engine::Engine;
use crate::search::report::{Score, SearchLimits};
use crate::tools::xorshift::XorShift64;
use shogi::{Color, Move, Position};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// What a generation run plays.
#[derive(Clone)]
pub struct GenSettings {
    /// Games in the file when the run ends.
    pub games: usize,
    pub nodes: u64,
    pub max_plies: u32,
    pub concurrency: usize,
    pub seed: u64,
    pub hash_mb: usize,
    pub params: Params,
    /// The players' evaluation (linear weights or a network).
    pub eval: EvalChoice,
    pub openings: Vec<Opening>,
    /// Random legal moves among the first [`RANDOM_WINDOW`] plies of each game.
    pub random_moves: usize,
}

/// The plies of a game in which its random moves are played.
pub const RANDOM_WINDOW: usize = 24;

/// An engine that searches `nodes` a move and nothing else: the root oracle, given time rather
/// than nodes, is off, so that a search depends only on the position and the settings.
pub(crate) fn fixed_node_engine(
    params: &Params,
    hash_mb: usize,
    eval: &EvalChoice,
    nodes: u64,
) -> (Engine, SearchLimits) {
    let mut params = params.clone();
    params.oracle_root_ms = 0;
    let mut engine = Engine::new(params, hash_mb);
    eval.apply_to(&mut engine);
    (engine, SearchLimits { depth: None, nodes: Some(nodes), multipv: 1 })
}

/// Whether `pos` is kept as quiet when `next` is played from it: not in check, the move before
/// captured nothing, and `next` neither captures nor promotes (the evaluation then speaks for
/// the position, as at the leaf of a quiescence search).
pub(crate) fn is_quiet(pos: &Position, next: Move) -> bool {
    !pos.in_check()
        && pos.last_captured().get().is_none()
        && !next.is_promotion()
        && (next.is_drop() || pos.piece_at(next.to()).get().is_none())
}

/// One game's lines: its quiet positions, then its game line; `order` is the openings'
/// shuffled order (the same for every game of a run).
fn play(number: usize, settings: &GenSettings, order: &[usize]) -> String {
    let opening = match order.get(number % order.len().max(1)) {
        Some(&i) => settings.openings[i].clone(),
        None => Opening::startpos(),
    };
    let (mut engine, limits) =
        fixed_node_engine(&settings.params, settings.hash_mb, &settings.eval, settings.nodes);
    let mut pos = opening.position.clone();
    let mut kept: Vec<(String, Color, i32)> = Vec::new();
    let mut plies = 0;
    let mut rng =
        XorShift64::new((settings.seed ^ (number as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1);
    let mut random_plies = [false; RANDOM_WINDOW];
    for _ in 0..settings.random_moves.min(RANDOM_WINDOW) {
        // Draw until a ply not yet drawn comes (at most the window's size draws each).
        loop {
            let p = rng.below(RANDOM_WINDOW);
            if !std::mem::replace(&mut random_plies[p], true) {
                break;
            }
        }
    }
    let result = loop {
        if let Some(result) = adjudicate(&pos, plies, settings.max_plies) {
            break result;
        }
        if random_plies.get(plies as usize).copied().unwrap_or(false) {
            let mut legal = shogi::MoveList::new();
            shogi::movegen::legal_moves(&pos, &mut legal);
            if !legal.is_empty() {
                pos.make_move(legal[rng.below(legal.len())]);
                plies += 1;
                continue;
            }
        }
        let control = SearchControl::new(None, None, false);
        let outcome = engine.search(&pos, &limits, &control, &mut |_| {});
        let us = pos.side_to_move();
        let ends = |winner: Color, reason: Reason, detail: &str| GameResult {
            winner: Some(winner),
            reason,
            detail: detail.to_string(),
        };
        if outcome.declare_win && pos.can_declare_win() {
            break ends(us, Reason::Declaration, "declaration");
        }
        let Some(best) = outcome.best else {
            break ends(!us, Reason::Resign, "no move");
        };
        match outcome.score {
            Score::Mate(n) if n > 0 => break ends(us, Reason::Mate, "mate found"),
            Score::Mate(_) => break ends(!us, Reason::Mate, "mate found"),
            Score::Cp(cp) => {
                if is_quiet(&pos, best) {
                    kept.push((pos.to_sfen(), us, cp));
                }
            }
        }
        pos.make_move(best);
        plies += 1;
    };
    let mut text = String::new();
    for (sfen, side, score) in kept {
        let r = match result.winner {
            None => 0.5,
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
        };
        text.push_str(&sample_line(&sfen, r, score));
        text.push('\n');
    }
    let winner = match result.winner {
        Some(Color::Black) => "black",
        Some(Color::White) => "white",
        None => "draw",
    };
    text.push_str(&game_line(number, &format!("{winner} {} {plies}", result.reason)));
    text.push('\n');
    text
}

/// The complete games of an existing file: its text up to and including the last game line,
/// and how many games that is (game lines must number 0, 1, 2, ... in order).
fn complete_part(text: &str, origin: &str) -> Result<(usize, usize), String> {
    let (mut games, mut end, mut at) = (0, 0, 0);
    for (i, line) in text.split_inclusive('\n').enumerate() {
        at += line.len();
        if !line.ends_with('\n') {
            break;
        }
        if let Some(n) = game_number(line) {
            if n != games {
                return Err(format!("{origin}:{}: game {n} where game {games} was due", i + 1));
            }
            games += 1;
            end = at;
        }
    }
    Ok((games, end))
}

/// Plays the games the file `out` lacks (all of them for a new file), appending them in order;
/// a partial game at the end of the file (a run that was stopped) is dropped first.
/// `progress(done, total)` hears each game written. Returns the number of games played.
pub fn run(
    out: &Path,
    settings: &GenSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<usize, String> {
    let origin = out.display().to_string();
    let existing = match std::fs::read_to_string(out) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{origin}: {e}")),
    };
    let (done, keep) = complete_part(&existing, &origin)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(out)
        .map_err(|e| format!("{origin}: {e}"))?;
    file.set_len(keep as u64).map_err(|e| format!("{origin}: {e}"))?;
    let mut file = std::io::BufWriter::new(file);
    use std::io::Seek;
    file.seek(std::io::SeekFrom::End(0)).map_err(|e| format!("{origin}: {e}"))?;
    let total = settings.games;
    if done >= total {
        return Ok(0);
    }
    progress(done, total);
    let order = shuffled_indices(settings.openings.len(), settings.seed);
    let next = AtomicUsize::new(done);
    let (tx, rx) = mpsc::channel::<(usize, String)>();
    let workers = settings.concurrency.clamp(1, total - done);
    std::thread::scope(|scope| -> Result<usize, String> {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, order) = (&next, &order);
            std::thread::Builder::new()
                .name("learn-gen".to_string())
                .stack_size(crate::usi_front::worker::SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= total || tx.send((n, play(n, settings, order))).is_err() {
                        break;
                    }
                })
                .map_err(|e| format!("cannot start a game thread: {e}"))?;
        }
        drop(tx);
        let mut waiting = BTreeMap::new();
        let mut written = done;
        for (n, text) in rx {
            waiting.insert(n, text);
            while let Some(text) = waiting.remove(&written) {
                file.write_all(text.as_bytes()).map_err(|e| format!("{origin}: {e}"))?;
                file.flush().map_err(|e| format!("{origin}: {e}"))?;
                written += 1;
                progress(written, total);
            }
        }
        Ok(written - done)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(games: usize, concurrency: usize) -> GenSettings {
        let lines = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
            "lnsgkgsnl/1r5b1/ppppppp1p/7p1/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL b - 3",
        ];
        let openings = lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| Opening::parse_line(l, i + 1).ok().flatten())
            .collect();
        GenSettings {
            games,
            nodes: 300,
            max_plies: 60,
            concurrency,
            seed: 5,
            hash_mb: 1,
            params: Params::default(),
            eval: EvalChoice::Linear(
                std::sync::Arc::new(crate::eval::weights::Weights::hand_set()),
            ),
            openings,
            random_moves: 0,
        }
    }

    /// Without random moves the third game replays the first (same opening, deterministic
    /// engine); with them every game differs, and the same settings give the same file.
    #[test]
    fn random_moves_make_every_game_new_and_stay_reproducible() {
        let dir = std::env::temp_dir().join(format!("tsumugi-learn-rand-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let mut quiet = |_: usize, _: usize| {};
        let mut games = |file: &str, random_moves: usize| {
            let path = dir.join(file);
            let _ = std::fs::remove_file(&path);
            let mut s = settings(6, 2);
            s.openings.truncate(2);
            s.random_moves = random_moves;
            assert_eq!(run(&path, &s, &mut quiet), Ok(6));
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let mut out = vec![String::new()];
            for line in text.lines() {
                if game_number(line).is_some() {
                    out.push(String::new());
                } else if let Some(last) = out.last_mut() {
                    last.push_str(line);
                }
            }
            out.pop();
            out
        };
        let plain = games("plain.txt", 0);
        assert_eq!(plain[0], plain[2], "same opening, same game");
        let random = games("random.txt", 4);
        for i in 0..random.len() {
            for j in 0..i {
                assert_ne!(random[i], random[j], "games {j} and {i}");
            }
        }
        assert_eq!(random, games("again.txt", 4));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Two games, then two more by resuming (after a stopped run left half a game): the same
    /// file as four games in one run on two threads; every line is a sample or a game line.
    #[test]
    fn a_resumed_run_equals_one_run() {
        let dir = std::env::temp_dir().join(format!("tsumugi-learn-gen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let (one, parts) = (dir.join("one.txt"), dir.join("parts.txt"));
        let _ = std::fs::remove_file(&one);
        let _ = std::fs::remove_file(&parts);
        let mut quiet = |_: usize, _: usize| {};
        assert_eq!(run(&one, &settings(4, 2), &mut quiet), Ok(4));
        assert_eq!(run(&parts, &settings(2, 1), &mut quiet), Ok(2));
        let mut f =
            std::fs::OpenOptions::new().append(true).open(&parts).unwrap_or_else(|e| panic!("{e}"));
        f.write_all(b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 | 1 0\nlnsg")
            .unwrap_or_else(|e| panic!("{e}"));
        drop(f);
        assert_eq!(run(&parts, &settings(4, 1), &mut quiet), Ok(2));
        let (a, b) = (std::fs::read_to_string(&one), std::fs::read_to_string(&parts));
        let (a, b) = (a.unwrap_or_default(), b.unwrap_or_default());
        assert_eq!(a, b);
        assert_eq!(a.lines().filter(|l| game_number(l).is_some()).count(), 4);
        let samples = crate::learn::data::read(&one).unwrap_or_else(|e| panic!("{e}"));
        assert!(samples.len() > 20, "{} samples", samples.len());
        assert!(samples.iter().all(|s| !s.position.in_check()));
        assert_eq!(run(&one, &settings(4, 2), &mut quiet), Ok(0), "nothing left to play");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A network can play the games (a next round of data): the players evaluate with it, so
    /// the games differ from the linear evaluation's, and the run stays reproducible.
    #[test]
    fn a_network_plays_the_games() {
        let dir = std::env::temp_dir().join(format!("tsumugi-learn-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let mut quiet = |_: usize, _: usize| {};
        let net = std::sync::Arc::new(crate::eval::network::tests::random_network(7));
        let mut text = |file: &str, eval: EvalChoice| {
            let path = dir.join(file);
            let _ = std::fs::remove_file(&path);
            let mut s = settings(2, 1);
            s.eval = eval;
            assert_eq!(run(&path, &s, &mut quiet), Ok(2));
            std::fs::read_to_string(&path).unwrap_or_default()
        };
        let linear = text("linear.txt", settings(1, 1).eval);
        let network = text("network.txt", EvalChoice::Network(std::sync::Arc::clone(&net)));
        assert_ne!(linear, network);
        assert!(network.lines().filter(|l| game_number(l).is_some()).count() == 2);
        assert_eq!(network, text("again.txt", EvalChoice::Network(net)));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
