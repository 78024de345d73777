//! shtsume's overflow folding (recipe piece `fold`): an AND node whose numbers have grown out
//! of proportion puts one defence behind another, as its chains of drops are, so that the
//! number that grew (mostly from a loop or a transposition counted twice) stops steering.

use super::children::{is_open, Child, Gate, Opens};
use super::dfpn::Search;
use super::value::Value;
use crate::pn::PnDn;
use shogi::Position;

/// An AND node's proof number above which its hardest defence is folded.
const PN_FOLD: PnDn = 240;
/// The easiest defence's disproof number above which the next one is folded behind it.
const DN_FOLD: PnDn = 1024;

impl Search<'_> {
    /// Folds one defence of the AND node `pos` (unsolved, `node` its value) behind another,
    /// to be searched once that one is mated; returns whether it did. Futility tests and the
    /// interpositions they gate are never folded.
    pub(super) fn fold(&self, pos: &Position, children: &mut [Child], node: &Value) -> bool {
        let foldable = |children: &[Child], i: usize| {
            is_open(children, i) && !children[i].is_futility_test() && !children[i].tested
        };
        // The easiest defence by the AND order: least dn, then pn, then rank.
        let easiest = |children: &[Child], except: Option<usize>| {
            (0..children.len())
                .filter(|&i| foldable(children, i) && Some(i) != except)
                .min_by_key(|&i| (children[i].value.dn, children[i].value.pn, children[i].rank))
        };
        let Some(head) = easiest(children, None) else {
            return false;
        };
        let fold_behind = |children: &mut [Child], folded: usize, on: usize| {
            children[folded].gate = Some(Gate { on: on as u16, opens_on: Opens::Proven });
        };
        if node.pn > PN_FOLD {
            // shtsume leaves a node whose easiest defence captures as it is.
            if !children[head].mv.is_drop() && !pos.piece_at(children[head].mv.to()).is_empty() {
                return false;
            }
            let hardest = (0..children.len())
                .filter(|&i| foldable(children, i))
                .max_by_key(|&i| (children[i].value.pn, std::cmp::Reverse(i)));
            let Some(hardest) = hardest else { return false };
            let Some(on) = easiest(children, Some(hardest)) else { return false };
            fold_behind(children, hardest, on);
            return true;
        }
        if node.dn > DN_FOLD {
            let Some(next) = easiest(children, Some(head)) else { return false };
            fold_behind(children, next, head);
            return true;
        }
        false
    }
}
