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
/// the search does not bounce between two nearly equal children. ε = 1/4, for every thread
/// (helpers spread by other means: `search::busy`). On the long problems' first proofs (2026-12-01)
/// ε = 0 (the second best plus one) left three of eight unproven at 40 M nodes, and 1/2 or 1
/// took 1.2-2.4 times the expansions of 寿 and of most others.
#[inline(always)]
pub fn epsilon_threshold(second_best: PnDn) -> PnDn {
    if second_best >= MAX_UNSOLVED {
        // Saturated: the best child must still be allowed to change, or the search stalls.
        return INF;
    }
    add(second_best, (second_best / 4).saturating_add(1))
}
