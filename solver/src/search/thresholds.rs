//! Which child to search next, and the thresholds it gets.

use super::value::Child;
use crate::pn::{PnDn, INF};

/// The best child (least pn at OR nodes, least dn at AND nodes) and the second-least value.
pub(super) fn select(or_node: bool, children: &[Child]) -> (usize, PnDn) {
    let key = |c: &Child| if or_node { (c.value.pn, c.value.dn) } else { (c.value.dn, c.value.pn) };
    let mut best = 0;
    let mut second = INF;
    for (i, c) in children.iter().enumerate().skip(1) {
        if key(c) < key(&children[best]) {
            second = key(&children[best]).0;
            best = i;
        } else {
            second = second.min(key(c).0);
        }
    }
    (best, second)
}

/// The threshold a child gets on the summed side: what the parent may still grow, on top of
/// the child's own value.
pub(super) fn widen(parent_th: PnDn, parent: PnDn, child: PnDn) -> PnDn {
    let room = parent_th as u64 - (parent as u64).min(parent_th as u64);
    (room + child as u64).min(INF as u64) as PnDn
}
