//! Our engine as a match player, in this process.
//!
//! Every search runs on a thread of its own that takes the [`Engine`] and gives it back with
//! the outcome, so that the game can go on while the engine thinks: that is what pondering
//! needs. With ponder on, after each of its moves the player searches the position after the
//! reply its search expected, as a GUI's `go ponder` makes it (multi-candidate or classic, as
//! [`PonderSettings`] say); when the opponent plays that reply, the search goes on with the
//! clock as after `ponderhit`; when it plays another, the search is stopped and a new one
//! starts, which answers from a kept sibling's search when there is one (the same path as a
//! USI `stop` followed by `go`). With a book, a position the book holds is answered from it at
//! once, as `tsumugi` answers a `go` with `BookFile` set.

use crate::book::{Book, BookPolicy};
use crate::eval::choice::EvalChoice;
use crate::matches::player::{with_move, GameOver, MoveRequest, Player, PlayerError, Reply};
use crate::params::Params;
use crate::search::control::SearchControl;
use crate::search::engine::Engine;
use crate::search::ponder::PonderSettings;
use crate::search::ponder::ANSWERED_AT_ONCE;
use crate::search::report::{SearchLimits, SearchOutcome};
use crate::time_manager::{control_for, Lateness, TimeSettings};
use crate::tools::xorshift::XorShift64;
use crate::usi_front::worker::SEARCH_STACK_BYTES;
use shogi::movegen::is_legal;
use shogi::{Move, Position};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// Our engine as a match player: its parameters, table, threads, time margins and ponder.
#[derive(Clone, Debug)]
pub struct InternalSpec {
    pub name: String,
    /// Boxed: the table is large beside an external engine's spec.
    pub params: Box<Params>,
    pub hash_mb: usize,
    pub threads: usize,
    pub settings: TimeSettings,
    /// Think on the opponent's time with these settings (`None`: no pondering).
    pub ponder: Option<PonderSettings>,
    /// Play from this opening book first (shared by the players of a match, read once).
    pub book: Option<Arc<Book>>,
    pub book_policy: BookPolicy,
    /// The evaluation: linear weights or a network (`EvalChoice::default()`: the engine's).
    pub eval: EvalChoice,
    /// Under a node limit, ponder on the player's own turn (`match --turns`): the ponder
    /// search runs to its node budget right after the move, before the opponent searches.
    pub turns: bool,
}

/// What a search thread gives back: the engine (`None` after a panic, which also leaves the
/// message) and the outcome.
type Finished = (Option<Box<Engine>>, Result<SearchOutcome, String>);

/// A search running on its own thread.
struct Running {
    control: Arc<SearchControl>,
    done: mpsc::Receiver<Finished>,
}

/// A search on the opponent's time, of the position after the expected reply.
struct Pondering {
    /// The `position` command of that position: the opponent played the reply when the next
    /// request has this command.
    command: String,
    search: Running,
}

pub struct InternalPlayer {
    spec: InternalSpec,
    limits: SearchLimits,
    /// `None` while a search has it, or after a search panicked (a new one is built).
    engine: Option<Box<Engine>>,
    /// The reply the last search expected.
    expected: Option<Move>,
    pondering: Option<Pondering>,
    /// Draws book moves; seeded from the player's name, so that a match can be replayed.
    rng: XorShift64,
    /// The last move came at once from a ponder search.
    from_ponder: bool,
    /// How late the answers have lately been (kept back from the next budgets).
    lateness: Lateness,
}

impl InternalPlayer {
    pub fn new(spec: &InternalSpec, limits: SearchLimits) -> InternalPlayer {
        InternalPlayer {
            spec: spec.clone(),
            limits,
            engine: Some(new_engine(spec)),
            expected: None,
            pondering: None,
            rng: XorShift64::new(name_seed(&spec.name)),
            from_ponder: false,
            lateness: Lateness::default(),
        }
    }

    /// Starts a search of `pos` on its own thread.
    fn start(&mut self, pos: Position, control: SearchControl) -> Result<Running, PlayerError> {
        let mut engine = self.engine.take().unwrap_or_else(|| new_engine(&self.spec));
        let control = Arc::new(control);
        let (tx, done) = mpsc::channel::<Finished>();
        let limits = self.limits.clone();
        let shared = Arc::clone(&control);
        thread::Builder::new()
            .name("match-search".to_string())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let run = catch_unwind(AssertUnwindSafe(|| {
                    engine.search(&pos, &limits, &shared, &mut |_| {})
                }));
                let finished = match run {
                    Ok(outcome) => (Some(engine), Ok(outcome)),
                    Err(payload) => (None, Err(::usi::worker::panic_message(payload.as_ref()))),
                };
                // The player may be gone (the match ended): nobody to tell.
                let _ = tx.send(finished);
            })
            .map_err(|e| PlayerError::Crashed(format!("cannot start a search thread: {e}")))?;
        Ok(Running { control, done })
    }

    /// Waits for `search`, stopping it after `watchdog` (when given), and takes the engine back.
    fn finish(
        &mut self,
        search: Running,
        watchdog: Option<Duration>,
    ) -> Result<SearchOutcome, PlayerError> {
        let finished = match watchdog {
            Some(limit) => match search.done.recv_timeout(limit) {
                Ok(f) => Ok(f),
                Err(_) => {
                    search.control.stop();
                    search.done.recv()
                }
            },
            None => search.done.recv(),
        };
        let (engine, outcome) =
            finished.map_err(|_| PlayerError::Crashed("the search thread died".to_string()))?;
        self.engine = engine;
        outcome.map_err(|e| PlayerError::Crashed(format!("the search panicked: {e}")))
    }

    /// Stops a search on the opponent's time, if any (its answer is not needed).
    fn stop_pondering(&mut self) -> Result<(), PlayerError> {
        match self.pondering.take() {
            Some(p) => {
                p.search.control.stop();
                self.finish(p.search, None).map(|_| ())
            }
            None => Ok(()),
        }
    }
}

/// A non-zero seed from a name (FNV-1a).
fn name_seed(name: &str) -> u64 {
    name.bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
        | 1
}

fn new_engine(spec: &InternalSpec) -> Box<Engine> {
    let mut engine = Box::new(Engine::new((*spec.params).clone(), spec.hash_mb));
    spec.eval.apply_to(&mut engine);
    engine.set_threads(spec.threads);
    if let Some(settings) = spec.ponder {
        engine.set_ponder_settings(settings);
    }
    engine
}

impl Player for InternalPlayer {
    fn name(&self) -> String {
        self.spec.name.clone()
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.stop_pondering()?;
        self.expected = None;
        self.engine.get_or_insert_with(|| new_engine(&self.spec)).clear();
        Ok(())
    }

    fn play(&mut self, request: &MoveRequest) -> Result<Reply, PlayerError> {
        self.from_ponder = false;
        if let Some(book) = &self.spec.book {
            let r = self.rng.unit();
            if let Some((m, _)) = self.spec.book_policy.pick(book, request.position, r) {
                // Out of the search: no pondering was needed, and none follows a book move.
                self.stop_pondering()?;
                self.expected = None;
                return Ok(Reply::Move(m.to_string()));
            }
        }
        let side = request.position.side_to_move();
        let settings =
            TimeSettings { lateness_ms: self.lateness.margin_ms(), ..self.spec.settings };
        let budget = request.clock.time_control(side).budget(&settings);
        // The search is stopped at its hard limit (or when the game is lost on time anyway).
        let watchdog = budget.map_or(request.give_up_after, |b| b.hard.min(request.give_up_after));
        if self.limits.nodes.is_some() {
            // Under a node budget the ponder search keeps its searches in the engine, and a
            // fresh search of this position answers from them (at once when the pondered search
            // had the whole budget); a ponder search still running is cut where it is.
            self.stop_pondering()?;
        }
        let search = match self.pondering.take() {
            Some(p) if p.command == request.command => {
                // `ponderhit`: the clock starts now.
                p.search.control.ponderhit(budget.map(|b| b.soft), budget.map(|b| b.hard));
                p.search
            }
            other => {
                self.pondering = other;
                self.stop_pondering()?;
                self.start(request.position.clone(), control_for(budget, false))?
            }
        };
        let control = Arc::clone(&search.control);
        let outcome = self.finish(search, Some(watchdog))?;
        if let Some(overrun) = control.overrun() {
            self.lateness.record(overrun);
        }
        self.from_ponder = outcome.note.as_deref().is_some_and(|n| n.starts_with(ANSWERED_AT_ONCE));
        self.expected = outcome.ponder;
        Ok(if outcome.declare_win {
            Reply::Win
        } else {
            match outcome.best {
                Some(m) => Reply::Move(m.to_string()),
                None => Reply::Resign,
            }
        })
    }

    fn ponder(&mut self, request: &MoveRequest) -> Result<Option<String>, PlayerError> {
        let Some(reply) = self.expected.take() else { return Ok(None) };
        if self.spec.ponder.is_none() || !is_legal(request.position, reply) {
            return Ok(None);
        }
        let mut pos = request.position.clone();
        pos.make_move(reply);
        let text = reply.to_string();
        let command = with_move(request.command, &text);
        let search = self.start(pos, SearchControl::new(None, None, true))?;
        if self.spec.turns && self.limits.nodes.is_some() {
            // The player's own turn: the ponder search spends its node budget now.
            self.finish(search, None)?;
        } else {
            self.pondering = Some(Pondering { command, search });
        }
        Ok(Some(text))
    }

    fn answered_from_ponder(&self) -> bool {
        self.from_ponder
    }

    fn game_over(&mut self, _result: GameOver) {
        // A search that panicked while pondering leaves no engine: the next game builds one.
        let _ = self.stop_pondering();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::player::Clock;

    fn spec(ponder: Option<PonderSettings>) -> InternalSpec {
        InternalSpec {
            name: "t".to_string(),
            params: Box::default(),
            hash_mb: 1,
            threads: 1,
            settings: TimeSettings::default(),
            ponder,
            book: None,
            book_policy: BookPolicy::default(),
            eval: EvalChoice::Linear(Arc::new(crate::eval::weights::Weights::default())),
            turns: false,
        }
    }

    fn request<'a>(pos: &'a Position, command: &'a str) -> MoveRequest<'a> {
        MoveRequest {
            position: pos,
            command,
            clock: Clock::Timed { btime: 10_000, wtime: 10_000, inc: 0, byoyomi: 100 },
            give_up_after: Duration::from_secs(5),
        }
    }

    fn legal_move(pos: &Position, reply: Result<Reply, PlayerError>) -> Move {
        match reply {
            Ok(Reply::Move(m)) => {
                let mv = pos.parse_usi_move(&m).unwrap_or_else(|e| panic!("{m}: {e}"));
                assert!(is_legal(pos, mv), "{m}");
                mv
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn answers_a_legal_move() {
        let limits = SearchLimits { depth: Some(1), nodes: None, multipv: 1 };
        let mut p = InternalPlayer::new(&spec(None), limits);
        let pos = Position::startpos();
        assert_eq!(p.new_game(), Ok(()));
        legal_move(&pos, p.play(&request(&pos, "position startpos")));
        // Without ponder settings it never ponders.
        let mut after = pos.clone();
        after.make_move(legal_move(&pos, p.play(&request(&pos, "position startpos"))));
        assert_eq!(p.ponder(&request(&after, "position startpos moves x")), Ok(None));
    }

    /// Ponders on the expected reply; the opponent plays it (ponderhit), or plays another move
    /// (the ponder search is stopped and a new one answers); each answer is legal.
    #[test]
    fn ponders_on_the_expected_reply_and_answers_after_a_hit_or_a_miss() {
        for candidates in [1, 3] {
            let settings = PonderSettings { candidates, margin_cp: 300, hits_continue: false };
            let mut p = InternalPlayer::new(&spec(Some(settings)), SearchLimits::default());
            assert_eq!(p.new_game(), Ok(()));
            let mut pos = Position::startpos();
            let mut command = "position startpos".to_string();
            let first = legal_move(&pos, p.play(&request(&pos, &command)));
            pos.make_move(first);
            command = with_move(&command, &first.to_string());
            let Ok(Some(expected)) = p.ponder(&request(&pos, &command)) else {
                panic!("no ponder after {command}")
            };
            thread::sleep(Duration::from_millis(50));
            // A hit: the opponent plays the expected reply.
            let reply = pos.parse_usi_move(&expected).unwrap_or_else(|e| panic!("{e}"));
            pos.make_move(reply);
            command = with_move(&command, &expected);
            let second = legal_move(&pos, p.play(&request(&pos, &command)));
            pos.make_move(second);
            command = with_move(&command, &second.to_string());
            // A miss: the opponent plays a legal move other than the expected one.
            let Ok(Some(expected)) = p.ponder(&request(&pos, &command)) else {
                panic!("no ponder after {command}")
            };
            let mut legal = shogi::MoveList::new();
            shogi::movegen::legal_moves(&pos, &mut legal);
            let other = legal
                .iter()
                .copied()
                .find(|m| m.to_string() != expected)
                .unwrap_or_else(|| panic!("one legal move"));
            pos.make_move(other);
            command = with_move(&command, &other.to_string());
            legal_move(&pos, p.play(&request(&pos, &command)));
            p.game_over(GameOver::Draw);
            assert!(p.pondering.is_none() && p.engine.is_some());
        }
    }
}
