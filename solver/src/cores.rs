//! The machine's cores, asked of the system once.
//!
//! `std::thread::available_parallelism` reads the process's cgroup files on Linux (an open,
//! a read and a close of several files each time). Asked at every solve, it put each of the
//! playing engine's small mate probes through a dozen system calls: in a mating-net position
//! 0.89 s of 4.6 s of CPU time went to the kernel (`benches/README.md`, issue 37).

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
