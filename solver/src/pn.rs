//! Proof and disproof numbers.
//!
//! `INF` marks a solved side (pn = INF: disproven; dn = INF: proven). Sums saturate just below it
//! so that a large but unsolved value never reads as solved.

pub type PnDn = u32;

pub const INF: PnDn = u32::MAX;
/// The largest value an unsolved node can carry.
pub const MAX_UNSOLVED: PnDn = INF - 1;

/// Adds two numbers, staying at `INF` if either is `INF` and below it otherwise.
#[inline(always)]
pub fn add(a: PnDn, b: PnDn) -> PnDn {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(MAX_UNSOLVED)
    }
}

/// The df-pn+ "1 + ε" threshold for the best child: a little above the second best, so that
/// the search does not bounce between two nearly equal children. ε = `quarters` / 4: 1 on the
/// main thread; helper threads take wider ones, so that they stay longer in a subtree than
/// the main thread and search elsewhere than it does.
#[inline(always)]
pub fn epsilon_threshold(second_best: PnDn, quarters: u32) -> PnDn {
    if second_best >= MAX_UNSOLVED {
        // Saturated: the best child must still be allowed to change, or the search stalls.
        return INF;
    }
    let extra = (second_best as u64 * quarters as u64 / 4).min(MAX_UNSOLVED as u64) as PnDn;
    add(second_best, extra.saturating_add(1))
}
