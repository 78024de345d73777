//! The machine's cores, asked of the system once.
//!
//! `std::thread::available_parallelism` reads the process's cgroup files on Linux (an open,
//! a read and a close of several files each time, the kernel taking its mount lock for them).
//! Asked at every solve it was most of the cost of the playing engine's small mate probes and
//! what kept them from scaling with threads: 16 search threads of a mating-net position made
//! 2.1 M nodes a second, against 8.7 M with the probes off (`benches/README.md`).

use std::sync::OnceLock;

/// The cores this process may run on (1 where the system does not say).
pub fn available() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cores_are_the_systems_and_stay_put() {
        let system = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(available(), system);
        assert_eq!(available(), available());
    }
}
