//! A node's value from its children: min over the mover's side, grouped sum over the other,
//! and what a solved node's proof or disproof needs.

use super::dfpn::Search;
use super::hands::{and_disproof_hand, and_proof_hand, or_disproof_hand, or_proof_hand, union};
use super::value::{above, Child, Value};
use crate::pn::{self, PnDn, INF, MAX_UNSOLVED};
use crate::tt::UNBOUNDED;
use shogi::{Hand, Position};

impl Search<'_> {
    /// The node's value from its children: min over the mover's side, grouped sum (max inside
    /// a group) over the other.
    pub(super) fn aggregate(&self, pos: &Position, or_node: bool, children: &[Child]) -> Value {
        let hand = self.attacker_hand(pos);
        let mut min = INF;
        let mut sum: PnDn = 0;
        let mut i = 0;
        while i < children.len() {
            let group = children[i].group;
            let mut group_max = 0;
            while i < children.len() && children[i].group == group {
                let v = children[i].value;
                let (mine, other) = if or_node { (v.pn, v.dn) } else { (v.dn, v.pn) };
                min = min.min(mine);
                group_max = group_max.max(other);
                i += 1;
            }
            sum = pn::add(sum, group_max);
        }
        // An OR disproof holds as deep as its shallowest child disproof allows.
        let disproof_depth =
            |cs: &[Child]| cs.iter().map(|c| above(c.value.depth)).min().unwrap_or(UNBOUNDED);
        if or_node {
            if min == 0 {
                // Proven by the shortest proven child.
                let best = children.iter().filter(|c| c.value.pn == 0).min_by_key(|c| c.value.len);
                if let Some(c) = best {
                    let proof = or_proof_hand(pos, c.mv, c.value.hand, hand);
                    return Value::proven(proof, c.value.len.saturating_add(1));
                }
            }
            if sum == 0 {
                let by_repetition = children.iter().any(|c| c.value.by_repetition);
                let d = disproof_depth(children);
                return Value::disproven(or_disproof_hand(pos, children, hand), by_repetition, d);
            }
            Value::unknown(min.min(MAX_UNSOLVED), sum.min(MAX_UNSOLVED), hand)
        } else {
            if sum == 0 {
                let mut needed = Hand::EMPTY;
                let mut len = 0;
                for c in children {
                    needed = union(needed, c.value.hand);
                    len = len.max(c.value.len);
                }
                let proof = and_proof_hand(pos, self.attacker, needed);
                return Value::proven(proof, len.saturating_add(1));
            }
            if min == 0 {
                // Rest on the disproof that holds from every path, and the deepest of those.
                let rests_on = children
                    .iter()
                    .filter(|c| c.value.dn == 0)
                    .max_by_key(|c| (!c.value.by_repetition, c.value.depth));
                if let Some(c) = rests_on {
                    let v = c.value;
                    let disproof = if v.depth == UNBOUNDED && !v.by_repetition {
                        and_disproof_hand(c.mv, v.hand, hand)
                    } else {
                        hand
                    };
                    return Value::disproven(disproof, v.by_repetition, above(v.depth));
                }
            }
            Value::unknown(sum.min(MAX_UNSOLVED), min.min(MAX_UNSOLVED), hand)
        }
    }
}
