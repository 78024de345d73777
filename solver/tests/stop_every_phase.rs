//! A `stop`, or a time limit, that falls inside any phase of a solve (the first proof, the
//! first proof's line, the main line's construction, its refinement, the pure-rule bound, pure
//! rules' shortest line) is answered at once: with a legal mate line whenever the first proof
//! was done, else with a timeout; never with nothing, never late.
//!
//! Each problem is solved once to its end, to see when its phases begin on this machine; then
//! again, stopped at seeded moments drawn inside each phase. "At once" is measured as what the
//! program controls, the CPU time the process spends between the stop and the answer (at most
//! 100 ms), so that the test holds on a loaded machine; the wall time is only bounded loosely,
//! against a hang. One test function, so that no other test's threads share the process.

use shogi::{parse_position_command, Position};
use solver::{Limits, Outcome, Phase, Progress, Rules, SolveResult, Solver, SolverConfig};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The bar: CPU time of the whole process from the stop to the answer.
const CPU_BAR: Duration = Duration::from_millis(100);
/// Against a hang only (a machine may be loaded): wall time from the stop to the answer.
const WALL_BAR: Duration = Duration::from_secs(5);

/// The CPU time of this process, every thread together.
fn process_cpu() -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn problem(file: &str, id: &str) -> Position {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/").to_string() + file;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let line = text
        .lines()
        .find(|l| l.split_once(" # ").is_some_and(|(_, t)| t.starts_with(&format!("{id} "))))
        .unwrap_or_else(|| panic!("{id} not in {file}"));
    let sfen = line.split_once(" #").map_or(line, |(s, _)| s).trim();
    parse_position_command(&format!("sfen {sfen}")).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// How to end a solve early: `stop` raised a while after a phase first began (the solve's
/// own report of it), or a time limit.
#[derive(Copy, Clone, Debug)]
enum End {
    Stop { after: Duration, phase: Phase },
    Limit(Duration),
}

/// A solve, and, when its end came before its answer, how long the answer took after it (wall
/// time, CPU time of the process).
struct Run {
    result: SolveResult,
    after: Option<(Duration, Duration)>,
}

fn run(solver: &mut Solver, pos: &Position, end: Option<End>) -> Run {
    solver.clear();
    let stop = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let limits = match end {
        Some(End::Limit(t)) => Limits { time: Some(t), nodes: None },
        _ => Limits { time: Some(Duration::from_secs(120)), nodes: None },
    };
    let start = Instant::now();
    // When the phase a stop waits for began (the first proof at the start).
    let began: Mutex<Option<Instant>> = Mutex::new(None);
    if let Some(End::Stop { phase: Phase::FirstProof, .. }) = end {
        *lock(&began) = Some(start);
    }
    let mut progress = |p: &Progress| {
        if let (Some(End::Stop { phase, .. }), Some(entered)) = (end, p.began) {
            if entered == phase {
                *lock(&began) = Some(Instant::now());
            }
        }
    };
    std::thread::scope(|s| {
        let watcher = s.spawn(|| {
            let at = |began: &Mutex<Option<Instant>>| match end {
                Some(End::Stop { after, .. }) => lock(began).map(|t| t + after),
                Some(End::Limit(t)) => Some(start + t),
                None => None,
            };
            loop {
                if done.load(Ordering::SeqCst) {
                    return None;
                }
                if at(&began).is_some_and(|t| Instant::now() >= t) {
                    break;
                }
                std::thread::sleep(Duration::from_micros(500));
            }
            if matches!(end, Some(End::Stop { .. })) {
                stop.store(true, Ordering::SeqCst);
            }
            Some((Instant::now(), process_cpu()))
        });
        let result = solver.solve(pos, &limits, &stop, &mut progress);
        let (wall, cpu) = (Instant::now(), process_cpu());
        done.store(true, Ordering::SeqCst);
        let mark = watcher.join().unwrap_or_else(|_| panic!("the watcher panicked"));
        let after = mark.map(|(w, c)| (wall.saturating_duration_since(w), cpu.saturating_sub(c)));
        Run { result, after }
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A tiny deterministic generator for the moments (seeded; no dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A moment drawn uniformly in `[from, to)`.
    fn within(&mut self, from: Duration, to: Duration) -> Duration {
        let span = to.saturating_sub(from).as_micros().max(1) as u64;
        from + Duration::from_micros(self.next() % span)
    }
}

/// The phases of `full` (a solve run to its end) as windows of time, each at least `min`
/// long: when it was first entered, and when the next phase was.
fn windows(full: &SolveResult, min: Duration) -> Vec<(Phase, Duration, Duration)> {
    let mut begun: Vec<(Duration, Phase)> =
        Phase::ALL.iter().filter_map(|&p| full.phases.entered(p).map(|t| (t, p))).collect();
    begun.sort();
    let ends = begun.iter().skip(1).map(|&(t, _)| t).chain([full.elapsed]);
    begun
        .iter()
        .zip(ends)
        .filter(|&(&(from, _), to)| to.saturating_sub(from) >= min)
        .map(|(&(from, phase), to)| (phase, from, to))
        .collect()
}

/// Solves `id` to its end, then ended at `per_phase` seeded moments inside each phase at least
/// 2 ms long, by `stop` and by a time limit in turn; checks every answer. Returns the phases
/// the stops cut. (A stop aimed at a phase may cut a later one: the first proof's line is read
/// to its end on purpose, being the answer a stop leaves, and with two threads a phase may
/// be shorter than it was in the full solve, or not come at all.)
fn check_problem(
    file: &str,
    id: &str,
    rules: Rules,
    threads: usize,
    per_phase: usize,
    rng: &mut Rng,
) -> BTreeSet<Phase> {
    let pos = problem(file, id);
    let config = SolverConfig { hash_mb: 256, rules, threads, ..SolverConfig::default() };
    let mut solver = Solver::new(config);
    let full = run(&mut solver, &pos, None).result;
    let Outcome::Mate(line) = &full.outcome else { panic!("{id}: {:?}", full.outcome) };
    assert!(solver::mate_line::verify_mate_line(&pos, line, rules).is_ok(), "{id}");
    let windows = windows(&full, Duration::from_millis(2));
    eprintln!("{id} ({threads} threads): {:?} in all; phases {windows:?}", full.elapsed);
    let mut stopped_in = BTreeSet::new();
    for &(phase, from, to) in &windows {
        for k in 0..per_phase {
            // A stop within the first quarter of the phase (as long as it took in the full solve),
            // counted from when it began in this one; a limit anywhere in it, from the start.
            let end = if k % 2 == 0 {
                End::Stop { after: rng.within(Duration::ZERO, (to - from) / 4), phase }
            } else {
                End::Limit(rng.within(from, to))
            };
            let Run { result, after } = run(&mut solver, &pos, Some(end));
            let what = format!("{id}, {threads} threads, {end:?} in {phase:?}");
            if let Some((wall, cpu)) = after {
                eprintln!("{what}: cut {:?}, answered {wall:?} after ({cpu:?} CPU)", result.cut);
                assert!(cpu <= CPU_BAR, "{what}: {cpu:?} of CPU after the end");
                assert!(wall <= WALL_BAR, "{what}: {wall:?} after the end");
            }
            match &result.outcome {
                Outcome::Mate(moves) => {
                    let ok = solver::mate_line::verify_mate_line(&pos, moves, rules);
                    assert!(ok.is_ok(), "{what}: {ok:?}");
                }
                Outcome::Timeout => assert_eq!(
                    result.cut,
                    Some(Phase::FirstProof),
                    "{what}: a timeout after the first proof was done"
                ),
                Outcome::NoMate => panic!("{what}: nomate"),
            }
            if matches!(end, End::Stop { .. }) {
                stopped_in.extend(result.cut);
            }
        }
    }
    stopped_in
}

#[test]
fn a_stop_or_a_limit_in_any_phase_is_answered_at_once_with_the_best_line_known() {
    let mut rng = Rng(0x7507_0001);
    // 寿 (将棋図巧 100, 611 plies) under tsume rules: every phase of the main line.
    for threads in [1, 2] {
        let cut = check_problem("edo_zukou.sfen", "zukou-100", Rules::Tsume, threads, 3, &mut rng);
        for phase in [Phase::FirstProof, Phase::MainLine, Phase::Refinement] {
            assert!(cut.contains(&phase), "寿, {threads} threads: no {phase:?} ({cut:?})");
        }
    }
    // 将棋図巧 20 under pure rules (as the playing engine's oracle asks): the first proof in
    // 0.3 s, then 2.7 s of rounds for the shortest mate.
    let cut = check_problem("edo_zukou.sfen", "zukou-020", Rules::Pure, 1, 2, &mut rng);
    assert!(cut.contains(&Phase::ShortestPure), "図巧20, pure rules: {cut:?}");
}
