//! A node's value from its children: min over the mover's side, grouped sum over the other,
//! and what a solved node's proof or disproof needs.
//!
//! Only open children (see [`super::children`]) count in the numbers of an unsolved node; a
//! solved child counts wherever it stands, except a covered interposition (futile: mated and
//! not counted, neither in the proof's length nor against it).

use super::children::{is_active, is_covered, shown, Child};
use super::dfpn::Search;
use super::hands::{and_disproof_hand, and_proof_hand, or_disproof_hand, or_proof_hand, union};
use super::value::{above, Value};
use crate::pn::{self, PnDn, INF, MAX_UNSOLVED};
use crate::tt::UNBOUNDED;
use shogi::{Hand, Position};

impl Search<'_> {
    /// The node's value from its children, visited group by group in `order`.
    pub(super) fn aggregate(
        &self,
        pos: &Position,
        or_node: bool,
        children: &[Child],
        order: &[u16],
    ) -> Value {
        let hand = self.attacker_hand(pos);
        if or_node {
            self.aggregate_or(pos, hand, children)
        } else {
            self.aggregate_and(pos, hand, children, order)
        }
    }

    /// OR node: proven by its shortest proven check; disproven when every check is; else pn is
    /// the least pn of the open checks, and dn the largest of their dn plus one for each other
    /// open check (as shtsume counts it). A plain sum counts the same refutation many times
    /// over, as most checks are refuted by the same few defences: on 寿 the sum took 2.5 times
    /// the nodes, on the YaneuraOu samples 1.18 times, and no-mate searches were not slower.
    fn aggregate_or(&self, pos: &Position, hand: Hand, children: &[Child]) -> Value {
        let mut all_disproven = true;
        let mut proven: Option<&Child> = None;
        let mut min = INF;
        let (mut max, mut open, mut sum): (PnDn, PnDn, PnDn) = (0, 0, 0);
        for (k, c) in children.iter().enumerate() {
            if c.estimated && c.value.is_proven() {
                if proven.is_none_or(|p| c.value.len < p.value.len) {
                    proven = Some(c);
                }
                continue;
            }
            if c.estimated && c.value.is_disproven() {
                continue;
            }
            all_disproven = false;
            if c.estimated && is_active(children, k) {
                min = min.min(c.value.pn);
                max = max.max(c.value.dn);
                sum = pn::add(sum, c.value.dn);
                open += 1;
            }
        }
        if let Some(c) = proven {
            let proof = or_proof_hand(pos, c.mv, c.value.hand, hand);
            return Value::proven(proof, c.value.len.saturating_add(1));
        }
        if all_disproven {
            let by_repetition = children.iter().any(|c| c.value.by_repetition);
            // As deep as the shallowest child disproof allows.
            let depth = children.iter().map(|c| above(c.value.depth)).min().unwrap_or(UNBOUNDED);
            return Value::disproven(or_disproof_hand(pos, children, hand), by_repetition, depth);
        }
        // A question expected to answer "no mate" counts what each check needs to be refuted
        // (see `SolverConfig::expect_no`).
        let dn = if self.expect_no { sum } else { pn::add(max, open.saturating_sub(1)) };
        // Unsolved: neither number may read as solved, whatever the children show.
        Value::unknown(min.clamp(1, MAX_UNSOLVED), dn.clamp(1, MAX_UNSOLVED), hand)
    }

    /// AND node: proven when every evasion is mated or covered (its length the longest of the
    /// counted ones, 0 when none counts); disproven by any uncovered evasion that escapes; else
    /// pn is [`half_weak_sum`] of the open groups of children and dn their least.
    fn aggregate_and(
        &self,
        pos: &Position,
        hand: Hand,
        children: &[Child],
        order: &[u16],
    ) -> Value {
        let mut all_proven = true;
        let mut needed = Hand::EMPTY;
        let mut len: Option<u16> = None;
        let mut escape: Option<&Child> = None;
        let mut min = INF;
        // The groups' values: their sum, their largest, and how many are open.
        let (mut sum, mut largest, mut open): (PnDn, PnDn, PnDn) = (0, 0, 0);
        let mut i = 0;
        while i < order.len() {
            let group = children[order[i] as usize].group;
            let mut group_max = 0;
            while i < order.len() && children[order[i] as usize].group == group {
                let k = order[i] as usize;
                i += 1;
                let c = &children[k];
                if is_covered(children, k) {
                    continue;
                }
                if c.estimated && c.value.is_proven() {
                    needed = union(needed, c.value.hand);
                    if !c.is_futility_test() {
                        len = Some(len.map_or(c.value.len, |l| l.max(c.value.len)));
                    }
                    continue;
                }
                if c.estimated && c.value.is_disproven() {
                    if c.is_futility_test() {
                        // Not futile: the interposition behind it is searched instead.
                        continue;
                    }
                    // Rest on the disproof that holds from every path, and the deepest of those.
                    let key = |c: &Child| (!c.value.by_repetition, c.value.depth);
                    if escape.is_none_or(|e| key(c) > key(e)) {
                        escape = Some(c);
                    }
                    continue;
                }
                all_proven = false;
                if c.estimated && is_active(children, k) {
                    let (pn, dn) = shown(c);
                    min = min.min(dn);
                    group_max = group_max.max(pn);
                }
            }
            if group_max > 0 {
                sum = pn::add(sum, group_max);
                largest = largest.max(group_max);
                open += 1;
            }
        }
        if let Some(c) = escape {
            let v = c.value;
            let disproof = if v.depth == UNBOUNDED && !v.by_repetition {
                and_disproof_hand(c.mv, v.hand, hand)
            } else {
                hand
            };
            return Value::disproven(disproof, v.by_repetition, above(v.depth));
        }
        if all_proven {
            let proof = and_proof_hand(pos, self.attacker, needed);
            // Every evasion covered (only futile interpositions left): mated here.
            return Value::proven(proof, len.map_or(0, |l| l.saturating_add(1)));
        }
        // Unsolved: neither number may read as solved (a pn of 0 here once claimed a proof of
        // length 0, when a moot futility test was the only child left unsolved).
        let pn = half_weak_sum(sum, largest, open);
        Value::unknown(pn.clamp(1, MAX_UNSOLVED), min.clamp(1, MAX_UNSOLVED), hand)
    }
}

/// An AND node's pn from its open groups (`sum` of their pn, the `largest`, `open` of them):
/// the largest, one for each other group, and half of what the others add. Summing counts the
/// same work again wherever the defences lead to the same positions; the weak sum of shtsume
/// (largest plus one per other group) counts no shared work but hides real work, and the
/// search then dives into nodes that are not easy. Halfway, first proofs of 将棋図巧 (10 s
/// each, 2026-11-27): 寿 (図巧100) 1.54 M expansions with the sum, 0.65 M with the weak sum,
/// 0.83 M halfway; 図巧1 3.61 M, 3.59 M, 2.44 M; all 100, 23.2 M, 34.6 M and 21.8 M (the weak
/// sum made 図巧4 25 times as long, halfway costs 図巧39, 48 and 73 three times as much).
fn half_weak_sum(sum: PnDn, largest: PnDn, open: PnDn) -> PnDn {
    if open == 0 {
        return 0;
    }
    let weak = pn::add(largest, open - 1);
    pn::add(weak, sum.saturating_sub(largest) / 2)
}
