//! Which child to search next, and the thresholds it gets.

use crate::pn::{PnDn, INF};

/// The threshold a child gets on the summed side: what the parent may still grow, on top of
/// the child's own value.
pub(super) fn widen(parent_th: PnDn, parent: PnDn, child: PnDn) -> PnDn {
    let room = parent_th as u64 - (parent as u64).min(parent_th as u64);
    (room + child as u64).min(INF as u64) as PnDn
}

/// The dn threshold of the best child of an OR node with `open` open children: the node's dn
/// is the largest child dn plus one for each other open child, so it reaches `parent_th` when
/// this child's dn reaches `parent_th - (open - 1)` (at least one more than it has now).
pub(super) fn or_child_dn_threshold(parent_th: PnDn, child: PnDn, open: PnDn) -> PnDn {
    if parent_th == INF {
        return INF;
    }
    parent_th.saturating_sub(open.saturating_sub(1)).max(child.saturating_add(1))
}
