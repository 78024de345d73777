//! The match runner (`tsumugi match`): games between two players, A and B, each opening
//! played twice with colours swapped, W/D/L from A's side with an Elo estimate, counts of how
//! games ended, and optionally the games written to a file.
//!
//! A player is our engine in-process with its own parameters, or an external USI engine.
//! Games run on `concurrency` threads (default 1: a match should not fight itself for cores),
//! each thread with its own pair of players, reused from game to game.

use crate::matches::elo::Wdl;
use crate::matches::external_engine::{ExternalEngine, ExternalSpec};
use crate::matches::game::{
    play_game, GameClock, GameRecord, Reason, ThinkStats, AT_ONCE_MS, OPENING_PLIES,
};
use crate::matches::internal_player::{InternalPlayer, InternalSpec};
use crate::matches::openings::{shuffled_indices, Opening};
use crate::matches::player::Player;
use crate::search::report::SearchLimits;
use crate::usi_front::worker::SEARCH_STACK_BYTES;
use shogi::Color;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

/// One side of a match.
#[derive(Clone, Debug)]
pub enum PlayerSpec {
    Internal(InternalSpec),
    External(ExternalSpec),
}

impl PlayerSpec {
    pub fn build(&self, limits: &SearchLimits) -> Result<Box<dyn Player>, String> {
        match self {
            PlayerSpec::Internal(spec) => Ok(Box::new(InternalPlayer::new(spec, limits.clone()))),
            PlayerSpec::External(spec) => ExternalEngine::start(spec.clone(), limits.clone())
                .map(|e| Box::new(e) as Box<dyn Player>)
                .map_err(|e| e.to_string()),
        }
    }
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub a: PlayerSpec,
    pub b: PlayerSpec,
    pub games: usize,
    /// Played in this order, each twice (A black, then A white); wraps around.
    pub openings: Vec<Opening>,
    pub clock: GameClock,
    /// Depth/node limits of every search (in-process players; `go depth/nodes` for external
    /// ones when there is no clock).
    pub limits: SearchLimits,
    pub max_plies: u32,
    pub concurrency: usize,
    pub record: Option<PathBuf>,
    /// Print a line per game on stderr.
    pub progress: bool,
}

/// One finished game of the match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// 0-based.
    pub index: usize,
    pub a_color: Color,
    pub opening: String,
    pub record: GameRecord,
}

impl MatchGame {
    /// Win, draw or loss for A: 1, 0, -1.
    pub fn a_result(&self) -> i32 {
        match self.record.result.winner {
            None => 0,
            Some(c) if c == self.a_color => 1,
            Some(_) => -1,
        }
    }
}

/// Everything a match report says.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    pub a_name: String,
    pub b_name: String,
    pub a: Wdl,
    pub a_black: Wdl,
    pub a_white: Wdl,
    /// Per reason: (games, lost by A, lost by B).
    pub reasons: BTreeMap<Reason, (u32, u32, u32)>,
    pub black_wins: u32,
    pub white_wins: u32,
    pub a_think: ThinkStats,
    pub b_think: ThinkStats,
}

impl MatchSummary {
    pub fn add(&mut self, g: &MatchGame) {
        let r = g.a_result();
        let side = if g.a_color == Color::Black { &mut self.a_black } else { &mut self.a_white };
        for wdl in [&mut self.a, side] {
            match r {
                1 => wdl.wins += 1,
                0 => wdl.draws += 1,
                _ => wdl.losses += 1,
            }
        }
        match g.record.result.winner {
            Some(Color::Black) => self.black_wins += 1,
            Some(Color::White) => self.white_wins += 1,
            None => {}
        }
        let (a_side, b_side) = if g.a_color == Color::Black { (0, 1) } else { (1, 0) };
        self.a_think.merge(&g.record.think[a_side], g.index + 1);
        self.b_think.merge(&g.record.think[b_side], g.index + 1);
        let e = self.reasons.entry(g.record.result.reason).or_default();
        e.0 += 1;
        match r {
            -1 => e.1 += 1,
            1 => e.2 += 1,
            _ => {}
        }
    }

    pub fn lines(&self) -> Vec<String> {
        let a = self.a;
        let n = a.games();
        let mut out = vec![
            format!("A: {}", self.a_name),
            format!("B: {}", self.b_name),
            format!(
                "games {n}: A wins {} draws {} losses {} (score {:.1}%)",
                a.wins,
                a.draws,
                a.losses,
                if n == 0 { 0.0 } else { a.score() * 100.0 }
            ),
        ];
        if let Some(e) = a.elo() {
            out.push(format!("A vs B: {e}"));
        }
        let wdl = |w: Wdl| format!("+{} ={} -{}", w.wins, w.draws, w.losses);
        out.push(format!(
            "A as black {}, A as white {}; black won {}, white won {}",
            wdl(self.a_black),
            wdl(self.a_white),
            self.black_wins,
            self.white_wins
        ));
        let reasons: Vec<String> = Reason::ALL
            .iter()
            .map(|r| {
                let (games, a_lost, b_lost) = self.reasons.get(r).copied().unwrap_or_default();
                let decisive = !matches!(r, Reason::Repetition | Reason::MoveLimit);
                if decisive && games > 0 {
                    format!("{r} {games} (A lost {a_lost}, B lost {b_lost})")
                } else {
                    format!("{r} {games}")
                }
            })
            .collect();
        out.push(format!("endings: {}", reasons.join(", ")));
        let t = |s: ThinkStats| {
            let at = s
                .max_at
                .map_or(String::new(), |(game, ply)| format!(" (game {game}, ply {})", ply + 1));
            format!(
                "avg {} ms, max {} ms{at}, {} within {AT_ONCE_MS} ms",
                s.average_ms(),
                s.max_ms,
                percent(s.at_once, s.moves)
            )
        };
        out.push(format!("time per move: A {}; B {}", t(self.a_think), t(self.b_think)));
        let (a_open, a_later) = self.a_think.opening_and_later_ms();
        let (b_open, b_later) = self.b_think.opening_and_later_ms();
        out.push(format!(
            "time per move in the first {OPENING_PLIES} plies: A {a_open} ms, B {b_open} ms; \
             after them: A {a_later} ms, B {b_later} ms"
        ));
        let p = |s: ThinkStats| {
            format!(
                "pondered {} times, expected reply played {}, moves answered at once from a \
                 ponder search {}",
                s.pondered,
                percent(s.ponder_hits, s.pondered),
                percent(s.from_ponder, s.moves)
            )
        };
        if self.a_think.pondered + self.b_think.pondered > 0 {
            out.push(format!("ponder: A {}; B {}", p(self.a_think), p(self.b_think)));
        }
        out
    }
}

/// `12 (34.3 %)`.
fn percent(part: u32, whole: u32) -> String {
    format!("{part} ({:.1} %)", f64::from(part) * 100.0 / f64::from(whole.max(1)))
}

/// The game's opening and A's colour: pairs of games share an opening, A black first.
pub fn schedule(index: usize, openings: usize) -> (usize, Color) {
    let color = if index.is_multiple_of(2) { Color::Black } else { Color::White };
    (index / 2 % openings.max(1), color)
}

/// Picks `count` openings (for `count * 2` games) from `all`, starting at `start`, or
/// shuffled by `seed`.
pub fn pick_openings(all: Vec<Opening>, start: usize, seed: Option<u64>) -> Vec<Opening> {
    let n = all.len();
    if n == 0 {
        return vec![Opening::startpos()];
    }
    let order: Vec<usize> = match seed {
        Some(s) => shuffled_indices(n, s),
        None => (0..n).map(|i| (i + start) % n).collect(),
    };
    let mut slots: Vec<Option<Opening>> = all.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots.get_mut(i).and_then(Option::take)).collect()
}

fn record_text(g: &MatchGame, a: &str, b: &str) -> String {
    let (black, white) = if g.a_color == Color::Black { (a, b) } else { (b, a) };
    let score = match g.record.result.winner {
        Some(Color::Black) => "1-0",
        Some(Color::White) => "0-1",
        None => "1/2-1/2",
    };
    format!(
        "# game {} black={} white={} result={} reason={} ({}) plies={} opening={}\n{}\n# final \
         sfen {}\n",
        g.index + 1,
        black,
        white,
        score,
        g.record.result.reason,
        g.record.result.detail,
        g.record.moves.len(),
        g.opening,
        g.record.command,
        g.record.final_sfen
    )
}

enum Message {
    /// A thread has built its players (the first one names them).
    Ready {
        a: String,
        b: String,
    },
    Game(Box<MatchGame>),
    Failed(String),
}

/// The body of one match thread: builds its players (in the thread: an engine need not be
/// `Send`), then plays games until none is left.
fn match_thread(config: &MatchConfig, next: &AtomicUsize, tx: &mpsc::Sender<Message>) {
    let (mut a, mut b) = match (config.a.build(&config.limits), config.b.build(&config.limits)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            next.store(config.games, Ordering::SeqCst);
            let _ = tx.send(Message::Failed(e));
            return;
        }
    };
    if tx.send(Message::Ready { a: a.name(), b: b.name() }).is_err() {
        return;
    }
    loop {
        let index = next.fetch_add(1, Ordering::SeqCst);
        if index >= config.games {
            return;
        }
        let (o, a_color) = schedule(index, config.openings.len());
        let opening = config.openings.get(o).cloned().unwrap_or_else(Opening::startpos);
        let (black, white) =
            if a_color == Color::Black { (&mut *a, &mut *b) } else { (&mut *b, &mut *a) };
        let record = play_game(black, white, &opening, &config.clock, config.max_plies);
        let g = MatchGame { index, a_color, opening: opening.label.clone(), record };
        if tx.send(Message::Game(Box::new(g))).is_err() {
            return;
        }
    }
}

fn progress_line(g: &MatchGame, games: usize, a: Wdl) -> String {
    let outcome = match g.a_result() {
        1 => "A wins",
        0 => "draw",
        _ => "B wins",
    };
    format!(
        "game {}/{games} (A {}, {}): {outcome} by {} after {} plies | A +{} ={} -{}",
        g.index + 1,
        if g.a_color == Color::Black { "black" } else { "white" },
        g.opening,
        g.record.result.reason,
        g.record.moves.len(),
        a.wins,
        a.draws,
        a.losses
    )
}

/// Runs the match. Errors: a player that cannot be started, or a record file that cannot be
/// written.
pub fn run_match(config: &MatchConfig) -> Result<(MatchSummary, Vec<MatchGame>), String> {
    let mut record = match &config.record {
        Some(path) => {
            Some(std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let mut summary = MatchSummary::default();
    let next = AtomicUsize::new(0);
    let threads = config.concurrency.clamp(1, config.games.max(1));
    let (tx, rx) = mpsc::channel::<Message>();
    let mut games = Vec::new();
    let mut first_error = None;
    thread::scope(|s| {
        for i in 0..threads {
            let tx = tx.clone();
            let next = &next;
            let spawned = thread::Builder::new()
                .name(format!("match-{i}"))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(s, move || match_thread(config, next, &tx));
            if let Err(e) = spawned {
                first_error.get_or_insert(format!("cannot start a match thread: {e}"));
            }
        }
        drop(tx);
        for msg in rx {
            match msg {
                Message::Ready { a, b } => {
                    if summary.a_name.is_empty() {
                        (summary.a_name, summary.b_name) = (a, b);
                    }
                }
                Message::Game(g) => {
                    summary.add(&g);
                    if config.progress {
                        eprintln!("{}", progress_line(&g, config.games, summary.a));
                    }
                    if let Some(f) = record.as_mut() {
                        let text = record_text(&g, &summary.a_name, &summary.b_name);
                        if let Err(e) = f.write_all(text.as_bytes()).and_then(|()| f.flush()) {
                            first_error.get_or_insert(format!("writing the record: {e}"));
                        }
                    }
                    games.push(*g);
                }
                Message::Failed(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    games.sort_by_key(|g| g.index);
    Ok((summary, games))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_pairs_openings_and_swaps_colours() {
        assert_eq!(schedule(0, 3), (0, Color::Black));
        assert_eq!(schedule(1, 3), (0, Color::White));
        assert_eq!(schedule(2, 3), (1, Color::Black));
        assert_eq!(schedule(7, 3), (0, Color::White));
        assert_eq!(schedule(5, 0), (0, Color::White));
    }

    #[test]
    fn summary_counts() {
        let mut s = MatchSummary::default();
        let game = |index, a_color, winner, reason| MatchGame {
            index,
            a_color,
            opening: "o".to_string(),
            record: GameRecord {
                result: crate::matches::game::GameResult { winner, reason, detail: String::new() },
                moves: vec![],
                think: Default::default(),
                command: String::new(),
                final_sfen: String::new(),
            },
        };
        s.add(&game(0, Color::Black, Some(Color::Black), Reason::Mate));
        s.add(&game(1, Color::White, Some(Color::Black), Reason::Time));
        s.add(&game(2, Color::Black, None, Reason::Repetition));
        assert_eq!(s.a, Wdl { wins: 1, draws: 1, losses: 1 });
        assert_eq!(s.a_black, Wdl { wins: 1, draws: 1, losses: 0 });
        assert_eq!(s.reasons.get(&Reason::Time), Some(&(1, 1, 0)));
        let lines = s.lines();
        assert!(lines.iter().any(|l| l.contains("time 1 (A lost 1, B lost 0)")), "{lines:?}");
        assert!(lines.iter().any(|l| l.contains("repetition 1,")), "{lines:?}");
    }

    #[test]
    fn openings_are_picked_in_order_or_shuffled() {
        let all: Vec<Opening> =
            (0..5).map(|i| Opening { label: format!("{i}"), ..Opening::startpos() }).collect();
        let labels = |v: Vec<Opening>| v.into_iter().map(|o| o.label).collect::<Vec<_>>();
        assert_eq!(labels(pick_openings(all.clone(), 3, None)), ["3", "4", "0", "1", "2"]);
        let mut shuffled = labels(pick_openings(all, 0, Some(1)));
        shuffled.sort();
        assert_eq!(shuffled, ["0", "1", "2", "3", "4"]);
    }
}
