//! One match game, adjudicated by the rules core.
//!
//! Before every move the position is judged: sennichite (fourfold repetition) is a draw,
//! perpetual check loses for the checker, a side to move with no legal move has lost (mate),
//! and the game is drawn after the move limit. Then the side to move is asked, on its clock;
//! its answer must be a legal move (checked with [`shogi::movegen::is_legal`]), `resign`, or a
//! `win` declaration that the 27-point rule confirms (a false one loses). An answer later than
//! the time left plus byoyomi plus a tolerance loses on time; a crash loses.

use crate::matches::player::{Clock, GameOver, MoveRequest, Player, PlayerError, Reply};
use shogi::movegen::{is_legal, legal_moves};
use shogi::usi::parse_move_syntax;
use shogi::{Color, MoveList, Position, Repetition};
use std::fmt;
use std::time::{Duration, Instant};

use crate::matches::openings::Opening;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The side to move had no legal move.
    Mate,
    Resign,
    /// Sennichite: a draw.
    Repetition,
    /// Perpetual check: the checker loses.
    PerpetualCheck,
    /// A correct entering-king declaration.
    Declaration,
    /// An illegal move, an unreadable answer, or a false declaration.
    Illegal,
    Time,
    /// The engine died or broke the protocol.
    Crash,
    MoveLimit,
}

impl Reason {
    pub const ALL: [Reason; 9] = [
        Reason::Mate,
        Reason::Resign,
        Reason::Repetition,
        Reason::PerpetualCheck,
        Reason::Declaration,
        Reason::Illegal,
        Reason::Time,
        Reason::Crash,
        Reason::MoveLimit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Reason::Mate => "mate",
            Reason::Resign => "resign",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual",
            Reason::Declaration => "declaration",
            Reason::Illegal => "illegal",
            Reason::Time => "time",
            Reason::Crash => "crash",
            Reason::MoveLimit => "move limit",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The time control of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// `None`: no clock (the players' depth/node limits end their searches).
    pub main_ms: Option<u64>,
    pub inc_ms: u64,
    pub byoyomi_ms: u64,
    /// An answer this much later than allowed still counts (timer and pipe jitter).
    pub tolerance_ms: u64,
    /// Without a clock, a player silent this long has lost.
    pub untimed_limit_ms: u64,
}

impl GameClock {
    pub fn is_timed(&self) -> bool {
        self.main_ms.is_some() || self.byoyomi_ms > 0 || self.inc_ms > 0
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: Reason,
    /// What happened, in words (the illegal move, the time taken, ...).
    pub detail: String,
}

/// An answer within this many milliseconds of the request counts as answered at once (a
/// search made while pondering answered it).
pub const AT_ONCE_MS: u64 = 10;

/// The plies of a game (after its opening position) counted as its opening in the time
/// statistics: where a book saves time (`BookMaxPly`'s default).
pub const OPENING_PLIES: u32 = crate::book::policy::DEFAULT_MAX_PLY;

/// How one side used its time: thinking time (answers that came, including a late last one),
/// and its pondering.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThinkStats {
    pub moves: u32,
    pub total_ms: u64,
    pub max_ms: u64,
    /// Where the longest answer was: the game (its 1-based number in a match, 0 within a
    /// game) and the ply, so that a slow move can be replayed.
    pub max_at: Option<(usize, u32)>,
    /// Answers within [`AT_ONCE_MS`].
    pub at_once: u32,
    /// Moves among the first [`OPENING_PLIES`] plies, and their time.
    pub opening_moves: u32,
    pub opening_ms: u64,
    /// Moves after which the side pondered on a reply.
    pub pondered: u32,
    /// Of those, the opponent played the reply pondered on.
    pub ponder_hits: u32,
    /// Moves answered at once from a ponder search (the search of the reply played had the
    /// move's budget).
    pub from_ponder: u32,
}

impl ThinkStats {
    /// One answer, `ply` plies into the game.
    pub fn add(&mut self, ply: u32, ms: u64) {
        if ply < OPENING_PLIES {
            self.opening_moves += 1;
            self.opening_ms = self.opening_ms.saturating_add(ms);
        }
        self.moves += 1;
        self.total_ms = self.total_ms.saturating_add(ms);
        if self.max_at.is_none() || ms > self.max_ms {
            self.max_ms = ms;
            self.max_at = Some((0, ply));
        }
        self.at_once += u32::from(ms <= AT_ONCE_MS);
    }

    /// Adds `other`, the stats of game `game` (1-based) of a match.
    pub fn merge(&mut self, other: &ThinkStats, game: usize) {
        self.moves += other.moves;
        self.total_ms = self.total_ms.saturating_add(other.total_ms);
        if let Some((_, ply)) = other.max_at {
            if self.max_at.is_none() || other.max_ms > self.max_ms {
                self.max_ms = other.max_ms;
                self.max_at = Some((game, ply));
            }
        }
        self.at_once += other.at_once;
        self.opening_moves += other.opening_moves;
        self.opening_ms = self.opening_ms.saturating_add(other.opening_ms);
        self.pondered += other.pondered;
        self.ponder_hits += other.ponder_hits;
        self.from_ponder += other.from_ponder;
    }

    pub fn average_ms(&self) -> u64 {
        self.total_ms / u64::from(self.moves.max(1))
    }

    /// Average time of the moves within [`OPENING_PLIES`], and of the moves after them.
    pub fn opening_and_later_ms(&self) -> (u64, u64) {
        let later_moves = self.moves.saturating_sub(self.opening_moves);
        let later_ms = self.total_ms.saturating_sub(self.opening_ms);
        (
            self.opening_ms / u64::from(self.opening_moves.max(1)),
            later_ms / u64::from(later_moves.max(1)),
        )
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub result: GameResult,
    /// Thinking time of Black and White.
    pub think: [ThinkStats; 2],
    /// The moves played in this game (after the opening), in USI notation.
    pub moves: Vec<String>,
    /// The `position` command of the whole game, opening included.
    pub command: String,
    pub final_sfen: String,
}

fn lost(side: Color, reason: Reason, detail: String) -> GameResult {
    GameResult { winner: Some(!side), reason, detail }
}

/// The verdict on the position before `side_to_move` moves, if the game is over.
pub(crate) fn adjudicate(pos: &Position, plies: u32, max_plies: u32) -> Option<GameResult> {
    match pos.repetition() {
        Repetition::Draw => {
            return Some(GameResult {
                winner: None,
                reason: Reason::Repetition,
                detail: "fourfold repetition".to_string(),
            })
        }
        Repetition::PerpetualCheck { loser } => {
            return Some(lost(loser, Reason::PerpetualCheck, "perpetual check".to_string()))
        }
        Repetition::None => {}
    }
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    if list.is_empty() {
        let what = if pos.in_check() { "checkmate" } else { "no legal move" };
        return Some(lost(pos.side_to_move(), Reason::Mate, what.to_string()));
    }
    if plies >= max_plies {
        return Some(GameResult {
            winner: None,
            reason: Reason::MoveLimit,
            detail: format!("{plies} plies"),
        });
    }
    None
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Plays one game from `opening` between `black` and `white`; `max_plies` counts the moves of
/// this game (not the opening's).
pub fn play_game(
    black: &mut dyn Player,
    white: &mut dyn Player,
    opening: &Opening,
    clock: &GameClock,
    max_plies: u32,
) -> GameRecord {
    let mut pos = opening.position.clone();
    let mut moves: Vec<String> = Vec::new();
    let mut time = [clock.main_ms.unwrap_or(0); 2];
    let mut think = [ThinkStats::default(); 2];
    let index = |c: Color| usize::from(c == Color::White);
    // The clock as a player sees it, from both sides' remaining main time.
    let clock_now = |time: &[u64; 2]| {
        if clock.is_timed() {
            Clock::Timed {
                btime: time[0],
                wtime: time[1],
                inc: clock.inc_ms,
                byoyomi: clock.byoyomi_ms,
            }
        } else {
            Clock::Untimed
        }
    };
    // The reply each side ponders on, until the opponent moves.
    let mut pondered_on: [Option<String>; 2] = [None, None];
    let result = 'game: {
        if let Err(e) = black.new_game() {
            break 'game lost(Color::Black, Reason::Crash, format!("at the start: {e}"));
        }
        if let Err(e) = white.new_game() {
            break 'game lost(Color::White, Reason::Crash, format!("at the start: {e}"));
        }
        let mut plies = 0u32;
        loop {
            if let Some(r) = adjudicate(&pos, plies, max_plies) {
                break 'game r;
            }
            let side = pos.side_to_move();
            let player: &mut dyn Player =
                if side == Color::Black { &mut *black } else { &mut *white };
            let game_clock = clock_now(&time);
            let allowed_ms = if clock.is_timed() {
                time[index(side)].saturating_add(clock.byoyomi_ms)
            } else {
                clock.untimed_limit_ms
            };
            let limit_ms = allowed_ms.saturating_add(clock.tolerance_ms);
            let command = opening.command_with(&moves);
            let request = MoveRequest {
                position: &pos,
                command: &command,
                clock: game_clock,
                give_up_after: Duration::from_millis(limit_ms),
            };
            let started = Instant::now();
            let reply = player.play(&request);
            let used = millis(started.elapsed());
            if reply.is_ok() {
                think[index(side)].add(plies, used);
            }
            let reply = match reply {
                Ok(r) => r,
                Err(PlayerError::Timeout) => {
                    break 'game lost(side, Reason::Time, format!("no answer after {used} ms"))
                }
                Err(e @ PlayerError::Crashed(_)) => {
                    break 'game lost(side, Reason::Crash, e.to_string())
                }
            };
            if used > limit_ms {
                let detail = format!("{used} ms used, {allowed_ms} ms allowed");
                break 'game lost(side, Reason::Time, detail);
            }
            if clock.is_timed() {
                let t = &mut time[index(side)];
                *t = t.saturating_sub(used).saturating_add(clock.inc_ms);
            }
            match reply {
                Reply::Resign => break 'game lost(side, Reason::Resign, "resigned".to_string()),
                Reply::Win if pos.can_declare_win() => {
                    break 'game GameResult {
                        winner: Some(side),
                        reason: Reason::Declaration,
                        detail: "entering-king declaration".to_string(),
                    }
                }
                Reply::Win => {
                    break 'game lost(side, Reason::Illegal, "false declaration".to_string())
                }
                Reply::Move(text) => {
                    let m = match parse_move_syntax(&text) {
                        Ok(m) if is_legal(&pos, m) => m,
                        _ => {
                            let detail = format!("illegal move {text:?} in {}", pos.to_sfen());
                            break 'game lost(side, Reason::Illegal, detail);
                        }
                    };
                    think[index(side)].from_ponder += u32::from(player.answered_from_ponder());
                    pos.make_move(m);
                    let opponent = index(!side);
                    if pondered_on[opponent].take().is_some_and(|p| p == text) {
                        think[opponent].ponder_hits += 1;
                    }
                    moves.push(text);
                    plies += 1;
                    // Thinks on the opponent's time, the clock as the opponent will see it.
                    let command = opening.command_with(&moves);
                    let request = MoveRequest {
                        position: &pos,
                        command: &command,
                        clock: clock_now(&time),
                        give_up_after: Duration::from_millis(limit_ms),
                    };
                    match player.ponder(&request) {
                        Ok(reply) => {
                            think[index(side)].pondered += u32::from(reply.is_some());
                            pondered_on[index(side)] = reply;
                        }
                        Err(e) => break 'game lost(side, Reason::Crash, format!("pondering: {e}")),
                    }
                }
            }
        }
    };
    let verdict = |side: Color| match result.winner {
        None => GameOver::Draw,
        Some(w) if w == side => GameOver::Win,
        Some(_) => GameOver::Lose,
    };
    black.game_over(verdict(Color::Black));
    white.game_over(verdict(Color::White));
    GameRecord {
        command: opening.command_with(&moves),
        final_sfen: pos.to_sfen(),
        moves,
        result,
        think,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays a fixed list of answers.
    struct Scripted {
        answers: Vec<Result<Reply, PlayerError>>,
        delay: Duration,
    }

    impl Player for Scripted {
        fn name(&self) -> String {
            "scripted".to_string()
        }
        fn new_game(&mut self) -> Result<(), PlayerError> {
            Ok(())
        }
        fn play(&mut self, _: &MoveRequest) -> Result<Reply, PlayerError> {
            std::thread::sleep(self.delay);
            if self.answers.is_empty() {
                return Ok(Reply::Resign);
            }
            self.answers.remove(0)
        }
        fn game_over(&mut self, _: GameOver) {}
    }

    fn moves(list: &[&str]) -> Scripted {
        Scripted {
            answers: list.iter().map(|m| Ok(Reply::Move(m.to_string()))).collect(),
            delay: Duration::ZERO,
        }
    }

    const UNTIMED: GameClock = GameClock {
        main_ms: None,
        inc_ms: 0,
        byoyomi_ms: 0,
        tolerance_ms: 0,
        untimed_limit_ms: 10_000,
    };

    fn play(b: &mut Scripted, w: &mut Scripted, clock: &GameClock, max: u32) -> GameRecord {
        play_game(b, w, &Opening::startpos(), clock, max)
    }

    #[test]
    fn illegal_move_loses() {
        let r = play(&mut moves(&["7g7f", "2h2a"]), &mut moves(&["3c3d"]), &UNTIMED, 100);
        assert_eq!(r.result.winner, Some(Color::White));
        assert_eq!(r.result.reason, Reason::Illegal);
        assert_eq!(r.moves, vec!["7g7f", "3c3d"]);
        let r = play(&mut moves(&["junk"]), &mut moves(&[]), &UNTIMED, 100);
        assert_eq!(r.result.reason, Reason::Illegal);
    }

    #[test]
    fn repetition_is_a_draw_and_the_move_limit_too() {
        let cycle = ["5i5h", "5a5b", "5h5i", "5b5a"];
        let (b, w): (Vec<&str>, Vec<&str>) = (
            cycle.iter().cycle().take(12).step_by(2).copied().collect(),
            cycle.iter().cycle().skip(1).take(12).step_by(2).copied().collect(),
        );
        let r = play(&mut moves(&b), &mut moves(&w), &UNTIMED, 100);
        assert_eq!(r.result.winner, None);
        assert_eq!(r.result.reason, Reason::Repetition);
        assert_eq!(r.moves.len(), 12);
        let r = play(&mut moves(&b), &mut moves(&w), &UNTIMED, 5);
        assert_eq!(r.result.reason, Reason::MoveLimit);
        assert_eq!(r.moves.len(), 5);
        assert!(r.command.starts_with("position startpos moves 5i5h 5a5b"));
    }

    #[test]
    fn perpetual_check_loses_for_the_checker() {
        // White's king shuttles between 5a and 4a; Black's rook follows it with check.
        let opening = Opening::parse_line("4k4/9/9/9/9/9/9/4R4/K8 w - 1", 1)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("empty"));
        let mut white = moves(&["5a4a", "4a5a", "5a4a", "4a5a", "5a4a", "4a5a"]);
        let mut black = moves(&["5h4h", "4h5h", "5h4h", "4h5h", "5h4h", "4h5h"]);
        let r = play_game(&mut black, &mut white, &opening, &UNTIMED, 100);
        assert_eq!(
            (r.result.winner, r.result.reason),
            (Some(Color::White), Reason::PerpetualCheck)
        );
        assert_eq!(r.moves.len(), 12);
    }

    #[test]
    fn resign_declaration_and_mate() {
        let r = play(&mut moves(&[]), &mut moves(&[]), &UNTIMED, 100);
        assert_eq!((r.result.winner, r.result.reason), (Some(Color::White), Reason::Resign));
        let mut liar = Scripted { answers: vec![Ok(Reply::Win)], delay: Duration::ZERO };
        let r = play(&mut liar, &mut moves(&[]), &UNTIMED, 100);
        assert_eq!((r.result.winner, r.result.reason), (Some(Color::White), Reason::Illegal));
        // Fool's mate does not exist in shogi; start from a mated position instead.
        let mated = Opening::parse_line("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", 1)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("empty"));
        let r = play_game(&mut moves(&[]), &mut moves(&[]), &mated, &UNTIMED, 100);
        assert_eq!((r.result.winner, r.result.reason), (Some(Color::Black), Reason::Mate));
    }

    #[test]
    fn slow_answers_and_crashes_lose() {
        let clock = GameClock {
            main_ms: Some(0),
            inc_ms: 0,
            byoyomi_ms: 20,
            tolerance_ms: 10,
            untimed_limit_ms: 0,
        };
        let mut slow = moves(&["7g7f"]);
        slow.delay = Duration::from_millis(80);
        let r = play(&mut slow, &mut moves(&[]), &clock, 100);
        assert_eq!((r.result.winner, r.result.reason), (Some(Color::White), Reason::Time));
        assert!(r.moves.is_empty());
        let mut dead = Scripted {
            answers: vec![Err(PlayerError::Crashed("gone".to_string()))],
            delay: Duration::ZERO,
        };
        let r = play(&mut moves(&["7g7f"]), &mut dead, &clock, 100);
        assert_eq!((r.result.winner, r.result.reason), (Some(Color::Black), Reason::Crash));
    }

    #[test]
    fn think_stats_split_the_opening_from_the_rest() {
        let mut s = ThinkStats::default();
        s.add(0, 0);
        s.add(OPENING_PLIES - 1, 10);
        s.add(OPENING_PLIES, 100);
        s.add(OPENING_PLIES + 5, 300);
        assert_eq!((s.opening_moves, s.opening_ms, s.at_once), (2, 10, 2));
        assert_eq!(s.opening_and_later_ms(), (5, 200));
        let mut merged = ThinkStats::default();
        merged.merge(&s, 1);
        let mut slower = s;
        slower.add(OPENING_PLIES + 9, 400);
        merged.merge(&slower, 2);
        merged.merge(&s, 3);
        assert_eq!((merged.opening_moves, merged.opening_ms), (6, 30));
        // The longest move is named by its game and ply.
        assert_eq!((s.max_ms, s.max_at), (300, Some((0, OPENING_PLIES + 5))));
        assert_eq!((merged.max_ms, merged.max_at), (400, Some((2, OPENING_PLIES + 9))));
        assert_eq!(merged.opening_and_later_ms(), (5, 1600 / 7));
        assert_eq!(ThinkStats::default().opening_and_later_ms(), (0, 0));
    }
}
