//! Solving many problems at once: `--jobs N` workers, each on its own search thread with its
//! own solver, and the results handed back in the order of the problems.
//!
//! The workers take the next unsolved problem as they become free (problems differ in cost by
//! orders of magnitude, so a fixed split would leave cores idle); the caller receives result
//! `i` only after results `0..i`, so output is in file order whatever finishes first.

use crossbeam_channel::unbounded;
use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `solve` over `items` on `jobs` threads (at least one), each with a state made by
/// `make_state` (its solver), and calls `deliver(i, result)` for every item in order.
pub fn solve_in_order<T, S, R>(
    items: &[T],
    jobs: usize,
    make_state: impl Fn() -> S + Sync,
    solve: impl Fn(&mut S, &T) -> R + Sync,
    mut deliver: impl FnMut(usize, R),
) -> io::Result<()>
where
    T: Sync,
    R: Send,
{
    let next = AtomicUsize::new(0);
    let (sender, receiver) = unbounded::<(usize, R)>();
    std::thread::scope(|scope| {
        let workers = jobs.clamp(1, items.len().max(1));
        for w in 0..workers {
            let sender = sender.clone();
            let (next, make_state, solve) = (&next, &make_state, &solve);
            crate::stack::search_thread(&format!("solve-{w}")).spawn_scoped(scope, move || {
                let mut state = make_state();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    if sender.send((i, solve(&mut state, item))).is_err() {
                        break;
                    }
                }
            })?;
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        for (i, result) in receiver {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&due) {
                deliver(due, result);
                due += 1;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn results_come_in_order_whatever_finishes_first() {
        // Early items take longest, so they finish last on two workers.
        let items: Vec<u64> = (0..12).collect();
        let mut seen = Vec::new();
        let solved = solve_in_order(
            &items,
            3,
            || 0u32,
            |count, &i| {
                *count += 1;
                std::thread::sleep(Duration::from_millis(24 - 2 * i));
                (i, std::thread::current().name().map(str::to_string))
            },
            |i, (item, thread)| seen.push((i, item, thread)),
        );
        assert!(solved.is_ok());
        let order: Vec<u64> = seen.iter().map(|&(_, item, _)| item).collect();
        assert_eq!(order, items);
        assert!(seen.iter().all(|(i, item, _)| *i as u64 == *item));
        let threads: std::collections::HashSet<_> =
            seen.iter().map(|(_, _, t)| t.clone()).collect();
        assert!(threads.len() > 1, "one worker did everything: {threads:?}");
        assert!(threads.iter().all(|t| t.as_deref().is_some_and(|n| n.starts_with("solve-"))));
    }

    #[test]
    fn no_items_no_results() {
        let mut calls = 0;
        let solved = solve_in_order(&[] as &[u8], 4, || (), |_, _| (), |_, _| calls += 1);
        assert!(solved.is_ok());
        assert_eq!(calls, 0);
    }
}
