//! The machine's cores, asked of the system once.
//!
//! `std::thread::available_parallelism` reads the process's cgroup files on Linux (an open,
//! a read and a close of several files each time). Asked at every solve, it put each of the
//! playing engine's small mate probes through a dozen system calls: in a mating-net position
//! 0.89 s of 4.6 s of CPU time went to the kernel (`benches/history/22-network-third-session.md`,
//! issue 37).
//!
//! **`TSUMUGI_CORES=N`** makes the process believe it has N cores: a benchmarking aid, so
//! that on a small machine every search thread proves beside the main thread (as on a machine
//! with many cores, see `search::team::provers`) and `Threads` defaults as it would there. A
//! value that is not a positive number is ignored.

use std::sync::OnceLock;

/// The environment variable that overrides the cores the system reports.
pub const OVERRIDE: &str = "TSUMUGI_CORES";

/// The cores this process may run on (1 where the system does not say), or `TSUMUGI_CORES`.
pub fn available() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| {
        let told = std::env::var(OVERRIDE).ok();
        told.as_deref().and_then(parse_override).unwrap_or_else(system)
    })
}

/// The cores the system reports.
fn system() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A `TSUMUGI_CORES` value: a positive number of cores, else nothing.
fn parse_override(text: &str) -> Option<usize> {
    text.trim().parse::<usize>().ok().filter(|&n| n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cores_are_the_systems_or_told_and_stay_put() {
        let expected = std::env::var(OVERRIDE).ok().as_deref().and_then(parse_override);
        assert_eq!(available(), expected.unwrap_or_else(system));
        assert_eq!(available(), available());
    }

    #[test]
    fn only_a_positive_number_overrides() {
        assert_eq!(parse_override("64"), Some(64));
        assert_eq!(parse_override(" 3\n"), Some(3));
        for bad in ["0", "-2", "", "four", "1.5", "99999999999999999999999"] {
            assert_eq!(parse_override(bad), None, "{bad:?}");
        }
    }
}
