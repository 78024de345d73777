//! Numbers as `info` lines show them.

use std::time::Duration;

/// Milliseconds, as USI `time` counts.
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Nodes per second; a zero time counts as a microsecond rather than dividing by zero.
pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros().max(1);
    u64::try_from(u128::from(nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_survive_zero_and_huge_values() {
        assert_eq!(nps(1000, Duration::ZERO), 1_000_000_000);
        assert_eq!(nps(10_000, Duration::from_millis(200)), 50_000);
        assert_eq!(millis(Duration::MAX), u64::MAX);
    }
}
