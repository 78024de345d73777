//! The composer's report: what a composer checks in a problem, under tsume rules.
//!
//! - the main line (the solver's answer);
//! - **余詰 (cooks)**: at every attacker move of the main line, every other check that also
//!   mates within the remaining length; at the first move, any other mating check;
//! - **変化 (variations)**: at every defender move, each other counted defence (futile
//!   interpositions are not defences) with its mate length, flagged 変長 (longer than the main
//!   line: the main line is then not the longest resistance), 変同 (equal) and 変同駒余り
//!   (equal, with pieces left in the attacker's hand at its end);
//! - 駒余り at the end of the main line; 不詰 with the refuting defence of each check;
//! - the intended line of the file, if it has one ([`intended`]).
//!
//! Every question is one more solve from the position in question, with **the same table**:
//! the main proof has already searched most of these positions, so most questions are answered
//! from the table. The questions that decide soundness are asked first, each with a node cap,
//! then again with a doubled cap while the problem's time for questions lasts
//! (`questions`); a question not answered within that time is listed as unsettled (with how
//! far it got), never as sound. The questions along the main line are asked several at once,
//! each by one thread alone on the shared table ([`Solver::at_once`]), in that order; the
//! problem's own solve (`report`) runs on one thread, so that the line they are about is the
//! same whatever the threads.

mod budget;
pub mod command;
pub mod html;
pub mod intended;
mod main_line_questions;
mod questions;
mod rejoin;
mod shortest;
pub mod text;

use crate::clock::Instant;
use crate::outcome::{Limits, Outcome, SolveResult};
use crate::search::Solver;
use budget::Budget;
use intended::{compare_intended, IntendedLine};
use questions::Try;
use serde::Serialize;
use shogi::{Color, Hand, Move, MoveClass, MoveList, NonPromotions, PieceKind, Position};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How much a report may spend.
#[derive(Clone, Debug)]
pub struct ReportLimits {
    /// The solve of the problem itself.
    pub main: Limits,
    /// Node cap of each question's first try (a cook, a variation, a refutation); a question
    /// the cap stops is asked again with twice the cap while the time for questions lasts.
    pub question_nodes: u64,
    /// Time for all questions of one problem together; what it does not settle is unsettled.
    /// (`Duration::MAX`: no time limit, as with a node budget alone.)
    pub questions_time: Duration,
    /// Nodes for all questions of one problem together, if limited: with one thread, the same
    /// report on any machine (see `docs/report.md`).
    pub questions_nodes: Option<u64>,
    /// Questions asked at once along the main line, each by one thread alone (sharing the
    /// table): a disproof shared by threads costs more nodes than alone. The problem's own
    /// solve, the refutations and the intended line's question use the solver's threads.
    pub threads: usize,
}

impl Default for ReportLimits {
    fn default() -> Self {
        ReportLimits {
            main: Limits { time: Some(Duration::from_secs(60)), nodes: None },
            question_nodes: 200_000,
            questions_time: Duration::from_secs(60),
            questions_nodes: None,
            threads: 1,
        }
    }
}

/// The problem's status.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Mate,
    NoMate,
    /// The solve ran out of its limits.
    Unsettled,
}

/// A line of moves from some position, in USI and in Japanese.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    pub usi: Vec<String>,
    pub japanese: Vec<String>,
}

impl Line {
    /// `moves` played from `pos`, written as a composer writes them (`同` after `previous`).
    pub fn new(pos: &Position, moves: &[Move], previous: Option<Move>) -> Line {
        Line {
            usi: moves.iter().map(ToString::to_string).collect(),
            japanese: shogi::notation::line_texts(pos, moves, previous.map(Move::to)),
        }
    }
}

/// What kind of alternative a cook is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum CookKind {
    /// Another mating check (余詰).
    Cook,
    /// The main line's move with the other choice of promotion (成/不成), which mates as
    /// well: composers call the move 成不成非限定 and do not count it as a cook.
    PromotionChoice,
}

/// Another mating check beside the main line's (余詰).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cook {
    pub kind: CookKind,
    /// 1-based ply of the main line where the other check is played.
    pub ply: usize,
    /// The check and the mate after it.
    pub line: Line,
    /// Its length in plies from this ply (the check included).
    pub length: usize,
    /// The plies the main line needs from here.
    pub main_length: usize,
    /// The length is the proven shortest after this check.
    pub proven: bool,
}

/// How a variation compares with the main line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum VariationFlag {
    /// Shorter than the main line: an ordinary variation.
    Shorter,
    /// 変同: as long as the main line.
    Equal,
    /// 変同駒余り: as long, and ends with pieces left in the attacker's hand.
    EqualWithPiecesLeft,
    /// 変長: longer than the main line.
    Longer,
}

impl VariationFlag {
    /// The composer's word for it (empty for an ordinary variation).
    pub fn japanese(self) -> &'static str {
        match self {
            VariationFlag::Shorter => "",
            VariationFlag::Equal => "変同",
            VariationFlag::EqualWithPiecesLeft => "変同駒余り",
            VariationFlag::Longer => "変長",
        }
    }
}

/// Another defence at a defender move of the main line (変化).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Variation {
    pub ply: usize,
    /// The defence and the mate after it.
    pub line: Line,
    pub length: usize,
    pub main_length: usize,
    pub flag: VariationFlag,
    /// The attacker's pieces in hand at the end of the variation.
    pub pieces_left: Vec<String>,
    pub proven: bool,
}

/// The defence that refutes a check of a problem with no mate (不詰).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refutation {
    /// The check and the defence that escapes it (only the check when none was found).
    pub line: Line,
    /// Whether a defence was proven to escape (else the check's refutation is unsettled).
    pub refuted: bool,
}

/// A question the report could not answer within its limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unsettled {
    pub ply: usize,
    pub line: Line,
    pub what: String,
    /// For "does this check mate?" left open: the plies from here, the check counted, within
    /// which it is proven not to mate (a mate found later is longer; `None`: none proven).
    pub no_mate_within: Option<usize>,
}

/// How a report's questions along the main line went, so that a composer sees whether more
/// time (`--questions-time-ms`) would settle the rest.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct QuestionCounts {
    pub settled: usize,
    pub unsettled: usize,
    /// Time spent on them.
    pub time_ms: u64,
    /// The problem's time for questions (`None`: no time limit).
    pub budget_ms: Option<u64>,
    /// Nodes spent on them.
    pub nodes: u64,
    /// The problem's nodes for questions, if limited.
    pub budget_nodes: Option<u64>,
}

/// The composer's report of one problem.
#[derive(Clone, Debug, Serialize)]
pub struct ComposerReport {
    pub sfen: String,
    pub status: Status,
    /// The mate's length in plies.
    pub length: Option<usize>,
    /// No shorter mate exists: the solve proved it, or the questions did (every other check
    /// along the main line settled with no mate sooner than the main line's).
    pub proven_shortest: bool,
    /// The questions proved the length, not the problem's own solve.
    pub shortest_from_questions: bool,
    /// The other checks whose answers leave a shorter mate open (unsettled, or a mate not
    /// proven the shortest), by ply: what keeps the length from being proven.
    pub shorter_open: Vec<Unsettled>,
    pub main_line: Line,
    /// The attacker's pieces in hand at the end of the main line (駒余り), e.g. `["歩"]`.
    pub pieces_left: Vec<String>,
    pub cooks: Vec<Cook>,
    pub variations: Vec<Variation>,
    /// Futile interpositions (無駄合) met along the main line, not counted as defences.
    pub futile_interpositions: usize,
    pub refutations: Vec<Refutation>,
    pub unsettled: Vec<Unsettled>,
    /// How the file's intended line compares with the main line.
    pub intended: Option<IntendedLine>,
    /// How the questions along the main line went.
    pub questions: QuestionCounts,
    pub nodes: u64,
    pub time_ms: u64,
}

impl ComposerReport {
    /// No flaw was found and every question was settled: one mate, no cook, no 変長, nothing
    /// left in hand.
    pub fn sound(&self) -> bool {
        self.status == Status::Mate
            && self.proven_shortest
            && self.cooks.iter().all(|c| c.kind == CookKind::PromotionChoice)
            && self.pieces_left.is_empty()
            && self.unsettled.is_empty()
            && !self.variations.iter().any(|v| v.flag == VariationFlag::Longer)
    }
}

/// Checks the problem `pos` (the side to move attacks unless it is in check) and, when given,
/// its intended line. The solver's table is shared by all questions; it is not cleared first.
pub fn check_problem(
    solver: &mut Solver,
    pos: &Position,
    intended: Option<&[Move]>,
    limits: &ReportLimits,
    stop: &AtomicBool,
) -> ComposerReport {
    let start = Instant::now();
    let attacker = crate::search::default_attacker(pos);
    let result = solver.solve_as(pos, attacker, &limits.main, stop, &mut |_| {});
    let main = MainSolve { attacker, result: &result, started: start };
    report_on(solver, pos, &main, intended, limits, stop)
}

/// The problem's own solve, done before its questions are asked.
pub struct MainSolve<'a> {
    pub attacker: Color,
    pub result: &'a SolveResult,
    /// When it began (the report's time counts it).
    pub started: Instant,
}

/// The report of `pos` whose own solve (`main`) is done: the questions are asked with the
/// table that solve left in `solver`.
pub fn report_on(
    solver: &mut Solver,
    pos: &Position,
    main: &MainSolve,
    intended: Option<&[Move]>,
    limits: &ReportLimits,
    stop: &AtomicBool,
) -> ComposerReport {
    let MainSolve { attacker, result: main, started: start } = *main;
    let budget = Budget::new(limits.questions_time, limits.questions_nodes, stop);
    let mut asker = Asker {
        solver,
        attacker,
        stop,
        origin: pos.clone(),
        limits: Limits { time: None, nodes: Some(limits.question_nodes) },
        main_limits: limits.main.clone(),
        limits_time_ms: Instant::now()
            .checked_add(limits.questions_time)
            .map(|_| limits.questions_time.as_millis() as u64),
        budget,
        threads: limits.threads,
    };
    let mut report = ComposerReport {
        sfen: pos.to_sfen(),
        status: Status::Unsettled,
        length: None,
        proven_shortest: main.proven_shortest,
        shortest_from_questions: false,
        shorter_open: Vec::new(),
        main_line: Line::new(pos, &[], None),
        pieces_left: Vec::new(),
        cooks: Vec::new(),
        variations: Vec::new(),
        futile_interpositions: 0,
        refutations: Vec::new(),
        unsettled: Vec::new(),
        intended: None,
        questions: QuestionCounts::default(),
        nodes: 0,
        time_ms: 0,
    };
    match &main.outcome {
        Outcome::Mate(line) => {
            report.status = Status::Mate;
            report.length = Some(line.len());
            report.main_line = Line::new(pos, line, None);
            report.pieces_left = pieces_left(pos, line, attacker);
            asker.walk_main_line(pos, line, &mut report);
            shortest::settle_headline(&mut report);
            if let Some(moves) = intended {
                report.intended = Some(compare_intended(&mut asker, pos, moves, line));
            }
        }
        Outcome::NoMate => {
            report.status = Status::NoMate;
            report.refutations = asker.refutations(pos);
        }
        Outcome::Timeout => {}
    }
    report.nodes = main.nodes + asker.budget.spent();
    report.time_ms = start.elapsed().as_millis() as u64;
    report
}

/// The answer to one question: the mate length after a move, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Answer {
    Mate {
        moves: Vec<Move>,
        proven: bool,
    },
    /// No mate within `plies` plies after the move (a depth-limited search's disproof);
    /// it mates by `moves` (not proven the shortest), or, with none, perhaps beyond.
    NotWithin {
        plies: usize,
        moves: Vec<Move>,
    },
    NoMate,
    Unsettled(String),
    /// Not settled, but no mate within `plies` plies after the move is proven (the deepest
    /// depth-limited question that ended); `what` says how far the rest got.
    OpenBeyond {
        plies: usize,
        what: String,
    },
}

impl Answer {
    /// An unsettled question's answer with what it proved on the way: no mate within
    /// `plies` plies after the move (0: nothing).
    fn open(plies: usize, what: String) -> Answer {
        if plies == 0 {
            Answer::Unsettled(what)
        } else {
            Answer::OpenBeyond { plies, what }
        }
    }
}

/// Asks the questions of one report with the shared solver.
pub(crate) struct Asker<'a> {
    solver: &'a mut Solver,
    attacker: Color,
    stop: &'a AtomicBool,
    /// The problem's position, where every question's way starts.
    origin: Position,
    /// Of each question.
    limits: Limits,
    /// Of the intended line's one question, which may be as hard as the problem itself.
    main_limits: Limits,
    /// The problem's time for questions in ms, for the report (`None`: no time limit).
    limits_time_ms: Option<u64>,
    /// What the questions may spend, and have spent (their nodes count in the report's).
    budget: Budget<'a>,
    /// Questions along the main line asked at once (see [`ReportLimits::threads`]).
    threads: usize,
}

impl Asker<'_> {
    /// The mate after `way` (moves from the problem's position) and `mv`, asked again with a
    /// doubled node cap while the problem's budget for questions lasts (see [`questions`]),
    /// with the solver's threads on this one question. The positions of the way are on the
    /// question's path, as in the problem's own search: a line back to one of them is a
    /// repetition, not a mate (else detours through earlier positions of the main line would
    /// read as cooks). So are they for the questions along the main line, each asked by one
    /// thread.
    fn after(&mut self, way: &[Move], mv: Move) -> Answer {
        let first_cap = self.limits.nodes.unwrap_or(u64::MAX);
        let line: Vec<Move> = way.iter().copied().chain([mv]).collect();
        let Asker { solver, budget, origin, attacker, .. } = self;
        let attacker = *attacker;
        let ask = |_, cap| {
            try_within(cap, budget, |limits| {
                let stop = budget.stop();
                let r = solver.solve_after(origin, &line, attacker, limits, stop, &mut |_| {});
                budget.spend(r.nodes);
                r
            })
        };
        let outcome = questions::settle(1, first_cap, ask, || budget.left());
        match outcome.into_iter().next() {
            Some(questions::Outcome::Settled(a)) => a,
            Some(questions::Outcome::Unsettled(e)) => Answer::Unsettled(e.describe()),
            None => Answer::Unsettled("not asked".to_string()),
        }
    }

    /// As [`Asker::after`], once, within the limits of the problem's own solve.
    fn after_long(&mut self, way: &[Move], mv: Move) -> Answer {
        let limits = self.main_limits.clone();
        let line: Vec<Move> = way.iter().copied().chain([mv]).collect();
        let (origin, attacker, stop) = (&self.origin, self.attacker, self.stop);
        let r = self.solver.solve_after(origin, &line, attacker, &limits, stop, &mut |_| {});
        self.budget.spend(r.nodes);
        answer_of(r)
    }

    /// For a problem with no mate: each check with a defence after which there is no mate.
    fn refutations(&mut self, pos: &Position) -> Vec<Refutation> {
        let mut found = Vec::new();
        for &c in checks(pos).iter() {
            let mut after = pos.clone();
            after.make_move(c);
            let evasions = self.solver.classify_evasions(&after, self.attacker, self.stop);
            let escape = evasions
                .iter()
                .filter(|(_, futile)| !futile)
                .map(|&(e, _)| e)
                .find(|&e| matches!(self.after(&[c], e), Answer::NoMate));
            let moves: Vec<Move> = [c].into_iter().chain(escape).collect();
            found
                .push(Refutation { line: Line::new(pos, &moves, None), refuted: escape.is_some() });
        }
        found
    }
}

/// A solve's result as the answer to a question.
fn answer_of(r: SolveResult) -> Answer {
    match r.outcome {
        Outcome::Mate(moves) => Answer::Mate { moves, proven: r.proven_shortest && r.main_line },
        Outcome::NoMate => Answer::NoMate,
        Outcome::Timeout if r.depth_limited => {
            Answer::Unsettled("no mate within the depth limit".to_string())
        }
        Outcome::Timeout => Answer::Unsettled(format!("not settled within {} nodes", r.nodes)),
    }
}

/// One try of a question within `cap` nodes and what is left of the `budget`: `solve` solves it
/// within the limits it is given (and counts its nodes in the budget).
fn try_within(
    cap: u64,
    budget: &Budget,
    solve: impl FnOnce(&Limits) -> SolveResult,
) -> Try<Answer> {
    let limits = budget.limits(cap);
    let r = solve(&limits);
    match r.outcome {
        Outcome::Timeout if !r.depth_limited && !budget.left() => Try::OutOfTime { nodes: r.nodes },
        // Neither the cap nor the time: the table proves the position, but no line could be
        // read from it on this way (図巧43's ▲３六銀 at move 47, once in six reports at two
        // threads: 4 nodes a try, asked 221,146 times in the 20 s).
        Outcome::Timeout if !r.depth_limited && r.nodes < limits.nodes.unwrap_or(cap) => {
            Try::Stuck { nodes: r.nodes }
        }
        Outcome::Timeout if !r.depth_limited => Try::Capped { nodes: r.nodes },
        _ => Try::Settled(answer_of(r)),
    }
}

/// What the answer to "does the check `c` mate?" at `at` (an attacker's ply) adds to the report.
fn cook_found(at: &MainPly, c: Move, answer: Answer, report: &mut ComposerReport) {
    let &MainPly { pos, index: i, main, remaining, previous } = at;
    match answer {
        Answer::Mate { moves, proven } => {
            let length = moves.len() + 1;
            if i == 0 || length <= remaining {
                let line = Line::new(pos, &[&[c], moves.as_slice()].concat(), previous);
                let same_move_but_promotion =
                    !c.is_drop() && c.from() == main.from() && c.to() == main.to();
                let kind = if same_move_but_promotion {
                    CookKind::PromotionChoice
                } else {
                    CookKind::Cook
                };
                report.cooks.push(Cook {
                    kind,
                    ply: i + 1,
                    line,
                    length,
                    main_length: remaining,
                    proven,
                });
            } else if !proven {
                report.unsettled.push(Unsettled {
                    ply: i + 1,
                    line: Line::new(pos, &[c], previous),
                    what: format!("mates in {length}, a shorter mate (a cook) not ruled out"),
                    no_mate_within: None,
                });
            }
        }
        // At the first move any mate is a cook, its length not proven (but no shorter than the
        // main line's: the headline's length stands).
        Answer::NotWithin { moves, .. } if i == 0 => {
            cook_found(at, c, Answer::Mate { moves, proven: false }, report)
        }
        // Mates, but later than the main line from here: no cook.
        Answer::NotWithin { .. } | Answer::NoMate => {}
        Answer::Unsettled(what) => report.unsettled.push(Unsettled {
            ply: i + 1,
            line: Line::new(pos, &[c], previous),
            what: format!("whether this check mates: {what}"),
            no_mate_within: None,
        }),
        // Counted as a mate is, the check included ("mates in 3 plies from here").
        Answer::OpenBeyond { plies, what } => report.unsettled.push(Unsettled {
            ply: i + 1,
            line: Line::new(pos, &[c], previous),
            what: format!(
                "whether this check mates: no mate within {} plies; beyond, open ({what})",
                plies + 1
            ),
            no_mate_within: Some(plies + 1),
        }),
    }
}

/// What the answer to "how long does the defence `e` resist?" at `at` (a defender's ply) adds
/// to the report.
fn variation_found(
    at: &MainPly,
    e: Move,
    answer: Answer,
    attacker: Color,
    report: &mut ComposerReport,
) {
    let &MainPly { pos, index: i, remaining, previous, .. } = at;
    match answer {
        Answer::Mate { moves, proven } => {
            let length = moves.len() + 1;
            let all = [&[e], moves.as_slice()].concat();
            let pieces_left = pieces_left(pos, &all, attacker);
            let flag = if length > remaining {
                VariationFlag::Longer
            } else if length < remaining {
                VariationFlag::Shorter
            } else if pieces_left.is_empty() {
                VariationFlag::Equal
            } else {
                VariationFlag::EqualWithPiecesLeft
            };
            report.variations.push(Variation {
                ply: i + 1,
                line: Line::new(pos, &all, previous),
                length,
                main_length: remaining,
                flag,
                pieces_left,
                proven,
            });
        }
        // The main line's proof says every defence is mated: a defence that escapes is a
        // contradiction to report loudly, not to hide.
        Answer::NoMate => report.unsettled.push(Unsettled {
            ply: i + 1,
            line: Line::new(pos, &[e], previous),
            what: "this defence escapes (the main line's proof does not hold)".to_string(),
            no_mate_within: None,
        }),
        Answer::Unsettled(what) | Answer::OpenBeyond { what, .. } => {
            report.unsettled.push(Unsettled {
                ply: i + 1,
                line: Line::new(pos, &[e], previous),
                what: format!("the length of this defence: {what}"),
                no_mate_within: None,
            })
        }
        // Never the answer to a defence's question (only cooks are asked for a bound).
        Answer::NotWithin { plies, .. } => report.unsettled.push(Unsettled {
            ply: i + 1,
            line: Line::new(pos, &[e], previous),
            what: format!("the length of this defence: no mate within {plies} plies"),
            no_mate_within: None,
        }),
    }
}

/// A ply of the main line, where the report asks its questions.
struct MainPly<'a> {
    /// The position there.
    pos: &'a Position,
    /// 0-based.
    index: usize,
    /// The main line's move there.
    main: Move,
    /// Plies of the main line from there to the mate.
    remaining: usize,
    /// The move before (for 同 in the notation).
    previous: Option<Move>,
}

/// The checks of `pos`.
fn checks(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    shogi::movegen::generate(pos, MoveClass::Checks, NonPromotions::Include, &mut list);
    list
}

/// The attacker's pieces in hand after `moves` from `pos`, in the composer's words.
fn pieces_left(pos: &Position, moves: &[Move], attacker: Color) -> Vec<String> {
    let mut end = pos.clone();
    for &m in moves {
        end.make_move(m);
    }
    hand_words(end.hand(attacker))
}

/// A hand as a composer writes it, a word per kind: `["飛", "歩二"]`.
fn hand_words(hand: Hand) -> Vec<String> {
    use shogi::notation::kanji::{count_text, kif_name};
    PieceKind::HAND
        .iter()
        .filter(|&&k| hand.count(k) > 0)
        .map(|&k| format!("{}{}", kif_name(k), count_text(hand.count(k))))
        .collect()
}
