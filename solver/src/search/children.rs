//! A node's children as its expansion keeps them: how each is reached, whether it may be
//! searched yet, and which one to search next.
//!
//! **Gates (delayed children).** Some children are searched only once another is settled, as
//! KomoringHeights delays moves: a child with a [`Gate`] is *active* only when the child it
//! waits for has the result the gate names. Gates made at expansion point to an earlier child,
//! so one pass in order settles who is active; a fold made later (below) points to a child
//! already estimated. They are used for
//! - interpositions by drop, which wait for each other until the earlier one is mated, as the
//!   proofs of the later ones mostly repeat the first: all of a check's drop interpositions
//!   form one chain, nearest the king first and cheapest piece first, as shtsume chains them
//!   (on one square only while futility tests gate them). One chain instead of one per square
//!   cut the first proof of eight long 将棋図巧 problems from 14.8 M expansions to 9.8 M
//!   (図巧1 5.1 M → 3.6 M, 図巧4 679 k → 79 k; 寿 1.34 M → 1.54 M). (Attacker drops on one
//!   square are not chained: a hard first drop then hides an easy mate behind it, which cost
//!   up to 5,000 times the nodes on the YaneuraOu samples. For the same reason a non-promotion
//!   does not wait for its promotion: it cut 図巧1's first proof by a quarter, but 図巧 #37,
//!   where the non-promotion is the key, took 13 times the nodes, and the set 30 % more.)
//! - under tsume rules, an interposition, which waits for its futility tests (see
//!   [`Edge::Futility`] and [`super::futility`]), each test for the one before: while a test is
//!   unsettled the interposition is not searched, if one is proven the interposition is futile
//!   (it is *covered*: mated and not counted), and only if every one fails is the
//!   interposition searched as a defence.
//! - against a dragon's or a horse's check from afar, an interposition by drop on a square no
//!   defender guards, which waits behind the easiest other defence while one is open (see
//!   [`super::distant_drop`]).
//!
//! An inactive child is neither estimated nor counted in its parent's numbers; its gate's
//! child stands for it.

use super::value::Value;
use crate::pn::{PnDn, INF};
use crate::tt::NodeId;
use shogi::{Hand, Move};

/// How a child position is reached from its parent.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Edge {
    /// By the move.
    Move,
    /// The futility test of the interposition `mv` (tsume rules): the interposition, the
    /// checker's `capture` of the interposed piece, and the captured piece handed back to the
    /// defender. The defender then stands as before the interposition, with the checker
    /// nearer; if that is mated, the interposition gained nothing but two plies.
    Futility { capture: Move },
}

/// What a gated child waits for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Gate {
    /// The index of the child waited for (always an earlier one).
    pub(super) on: u16,
    /// The result of that child that opens the gate.
    pub(super) opens_on: Opens,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Opens {
    Proven,
    Disproven,
}

#[derive(Copy, Clone, Debug)]
pub(super) struct Child {
    pub(super) mv: Move,
    pub(super) edge: Edge,
    /// The child position's table identity (set when it is first estimated).
    pub(super) id: NodeId,
    pub(super) value: Value,
    /// Children with the same group key likely reach the same subtree: their numbers
    /// aggregate by max instead of sum.
    pub(super) group: u32,
    pub(super) gate: Option<Gate>,
    /// Whether `value` has been looked up or estimated (inactive children wait for it).
    pub(super) estimated: bool,
    /// An interposition, or a futility test after the first, whose gates lead back to
    /// futility tests (see [`is_covered`]).
    pub(super) tested: bool,
}

impl Child {
    /// A child not yet looked up or estimated.
    pub(super) fn new(mv: Move, edge: Edge, gate: Option<Gate>) -> Child {
        let value = Value::unknown(1, 1, Hand::EMPTY);
        Child {
            mv,
            edge,
            id: NodeId::default(),
            value,
            group: 0,
            gate,
            estimated: false,
            tested: false,
        }
    }

    pub(super) fn is_futility_test(&self) -> bool {
        matches!(self.edge, Edge::Futility { .. })
    }
}

/// Whether child `i` may be searched: no gate, or its gate is open.
#[inline]
pub(super) fn is_active(children: &[Child], i: usize) -> bool {
    match children[i].gate {
        None => true,
        Some(g) => {
            let on = &children[g.on as usize];
            on.estimated
                && match g.opens_on {
                    Opens::Proven => on.value.is_proven(),
                    Opens::Disproven => on.value.is_disproven(),
                }
        }
    }
}

/// Whether child `i` is an interposition found futile, or a futility test made moot: one of
/// the futility tests its gates lead back to is proven (the tests of one interposition wait
/// for each other, and the drops on one square wait for the first, whose tests they share).
/// A covered child counts nowhere: neither in its node's numbers nor in its proof.
#[inline]
pub(super) fn is_covered(children: &[Child], i: usize) -> bool {
    if !children[i].tested {
        return false;
    }
    let mut gate = children[i].gate;
    while let Some(g) = gate {
        let on = &children[g.on as usize];
        if on.is_futility_test() && on.estimated && on.value.is_proven() {
            return true;
        }
        gate = on.gate;
    }
    false
}

/// The value a child shows its parent while unsolved. A futility test cannot disprove an AND
/// node by itself: behind it there is still the interposition to refute, one more step.
#[inline]
pub(super) fn shown(c: &Child) -> (PnDn, PnDn) {
    if c.is_futility_test() {
        (c.value.pn, crate::pn::add(c.value.dn, 1))
    } else {
        (c.value.pn, c.value.dn)
    }
}

/// Whether child `i` is one the search may pick: active, estimated, unsolved and not covered.
#[inline]
pub(super) fn is_open(children: &[Child], i: usize) -> bool {
    let c = &children[i];
    c.estimated && !c.value.is_solved() && is_active(children, i) && !is_covered(children, i)
}

/// The best open child (least pn at OR nodes, least dn at AND nodes) and the second-least
/// value of the same kind among the open children; `None` when no child is open. `busy` adds
/// to a child's pn (OR) or dn (AND) what other threads inside it make it cost (see
/// [`super::busy`]).
pub(super) fn select(
    or_node: bool,
    children: &[Child],
    busy: impl Fn(&Child) -> PnDn,
) -> Option<(usize, PnDn)> {
    let key = |c: &Child| {
        let (pn, dn) = shown(c);
        if or_node {
            (crate::pn::add(pn, busy(c)), dn)
        } else {
            (crate::pn::add(dn, busy(c)), pn)
        }
    };
    let mut best: Option<usize> = None;
    let mut second = INF;
    for i in 0..children.len() {
        if !is_open(children, i) {
            continue;
        }
        match best {
            None => best = Some(i),
            Some(b) => {
                if key(&children[i]) < key(&children[b]) {
                    second = second.min(key(&children[b]).0);
                    best = Some(i);
                } else {
                    second = second.min(key(&children[i]).0);
                }
            }
        }
    }
    best.map(|b| (b, second))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(pn: PnDn, dn: PnDn) -> Child {
        let mut c = Child::new(Move::NULL, Edge::Move, None);
        c.value = Value::unknown(pn, dn, Hand::EMPTY);
        c.estimated = true;
        c
    }

    /// At an OR node the least pn is searched, its threshold taken from the second; a child
    /// that another thread is inside costs more by the virtual count, so a second thread takes
    /// the next one (and the first child becomes the second best, at its virtual value).
    #[test]
    fn other_threads_inside_a_child_steer_the_choice() {
        let children = [child(3, 5), child(2, 5), child(4, 5)];
        assert_eq!(select(true, &children, |_| 0), Some((1, 3)));
        let busy_second = |c: &Child| if c.value.pn == 2 { 2 } else { 0 };
        assert_eq!(select(true, &children, busy_second), Some((0, 4)));
        // At an AND node the least dn.
        let children = [child(1, 4), child(1, 2)];
        assert_eq!(select(false, &children, |_| 0), Some((1, 4)));
        assert_eq!(
            select(false, &children, |c: &Child| if c.value.dn == 2 { 3 } else { 0 }),
            Some((0, 5))
        );
    }
}
