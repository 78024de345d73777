//! A node's value as the search passes it around: pn/dn, the hand it holds for, the mate
//! length of a proof and the depth a disproof holds for.

use crate::pn::{PnDn, INF};
use crate::tt::{Known, UNBOUNDED};
use shogi::Hand;

/// A node's value and what its solution needs.
#[derive(Copy, Clone, Debug)]
pub(super) struct Value {
    pub(super) pn: PnDn,
    pub(super) dn: PnDn,
    /// Proof pieces when proven, disproof pieces when disproven, else the exact hand.
    pub(super) hand: Hand,
    /// Mate length in plies when proven.
    pub(super) len: u16,
    /// A disproof that depends on a repetition on the current path.
    pub(super) by_repetition: bool,
    /// For a disproof: the remaining depth it holds for (`UNBOUNDED`: any).
    pub(super) depth: u16,
}

impl Value {
    pub(super) fn is_solved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
    pub(super) fn is_proven(&self) -> bool {
        self.pn == 0
    }
    pub(super) fn is_disproven(&self) -> bool {
        self.dn == 0
    }
    pub(super) fn proven(hand: Hand, len: u16) -> Value {
        Value { pn: 0, dn: INF, hand, len, by_repetition: false, depth: UNBOUNDED }
    }
    pub(super) fn disproven(hand: Hand, by_repetition: bool, depth: u16) -> Value {
        Value { pn: INF, dn: 0, hand, len: 0, by_repetition, depth }
    }
    pub(super) fn unknown(pn: PnDn, dn: PnDn, hand: Hand) -> Value {
        Value { pn, dn, hand, len: 0, by_repetition: false, depth: UNBOUNDED }
    }
    /// What the table knows (never a repetition's disproof: the table does not keep those).
    pub(super) fn from_table(k: Known) -> Value {
        Value { pn: k.pn, dn: k.dn, hand: k.hand, len: k.len, by_repetition: false, depth: k.depth }
    }
}

/// One less ply of remaining depth (an unbounded search stays unbounded).
pub(super) fn deeper(depth: u16) -> u16 {
    if depth == UNBOUNDED {
        UNBOUNDED
    } else {
        depth.saturating_sub(1)
    }
}

/// The depth a disproof holds for, given that of the child disproof it rests on: one ply more
/// (a disproof at any depth stays one).
pub(super) fn above(child_depth: u16) -> u16 {
    if child_depth == UNBOUNDED {
        UNBOUNDED
    } else {
        child_depth.saturating_add(1).min(UNBOUNDED - 1)
    }
}
