//! Which child to search next, and the thresholds it gets.

use crate::pn::{PnDn, INF};

/// The threshold a child gets on the summed side: what the parent may still grow, on top of
/// the child's own value.
pub(super) fn widen(parent_th: PnDn, parent: PnDn, child: PnDn) -> PnDn {
    let room = parent_th as u64 - (parent as u64).min(parent_th as u64);
    (room + child as u64).min(INF as u64) as PnDn
}
