//! Where a first proof's expansions go (`solve --profile`): by ply, by kind of node and of
//! child, and how often one position is expanded again under new thresholds.
//!
//! A diagnostic, off by default: the search carries `None` and pays one branch per
//! expansion. On, it keeps a map of every position expanded (a few hundred bytes per
//! thousand expansions), which is why it is never on in a user's search.

use crate::pn::{PnDn, INF};
use shogi::Hand;
use std::collections::HashMap;
use std::fmt::Write as _;

/// One expansion as `solve --trace` writes it: where it was, what it was given, what it left.
#[derive(Clone, Debug)]
pub struct TraceRecord {
    /// Plies from the root (the root is 0).
    pub ply: usize,
    pub or_node: bool,
    pub sfen: String,
    /// The thresholds the node was searched under.
    pub threshold: (PnDn, PnDn),
    /// The node's numbers as its parent had them when it chose it.
    pub before: (PnDn, PnDn),
    /// The numbers it returned (`None`: cut by an abort).
    pub after: Option<(PnDn, PnDn)>,
    /// The position (board and attacker's hand) was expanded before.
    pub again: bool,
}

/// The first expansions of a first proof in order, to walk beside another solver's
/// (shtsume's, traced in the same form): the first where the two differ names a mechanism.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    limit: usize,
    pub records: Vec<TraceRecord>,
    /// The numbers the parent holds for the child it is about to search.
    pending: (PnDn, PnDn),
}

impl Trace {
    pub fn new(limit: usize) -> Trace {
        Trace { limit, records: Vec::new(), pending: (1, 1) }
    }

    /// How many expansions it keeps.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Lines of `seq ply OR|AND sfen th_pn th_dn pn_before dn_before pn_after dn_after
    /// again`, an unsolved side's infinity written as `inf`.
    pub fn to_tsv(&self) -> String {
        let n = |v: PnDn| if v == INF { "inf".to_string() } else { v.to_string() };
        let mut out = String::new();
        for (i, r) in self.records.iter().enumerate() {
            let (pn1, dn1) = r.after.map_or(("cut".into(), "cut".into()), |(p, d)| (n(p), n(d)));
            let _ = writeln!(
                out,
                "{i}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{pn1}\t{dn1}\t{}",
                r.ply,
                if r.or_node { "OR" } else { "AND" },
                r.sfen,
                n(r.threshold.0),
                n(r.threshold.1),
                n(r.before.0),
                n(r.before.1),
                u8::from(r.again)
            );
        }
        out
    }
}

/// What one ply's expansions were.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlyCounts {
    /// Expansions (calls of `mid` that expand a node) at this ply.
    pub expansions: u64,
    /// Of them, of a position (board and attacker's hand) this search had expanded before:
    /// df-pn coming back to it with new thresholds.
    pub again: u64,
    /// Of them, of AND nodes whose check can be blocked (a long-range check).
    pub interposable: u64,
    /// Expansions that ended unsolved (a threshold crossed): each is a return towards the
    /// root that a later expansion pays to come back.
    pub left_unsolved: u64,
    /// Expansions that ended disproven by a repetition on the path: such a disproof holds for
    /// this path only and is not stored, so another path to the node searches it again.
    pub by_repetition: u64,
    /// Children estimated (made and looked up or valued) at this ply's expansions.
    pub children: u64,
    /// Of them, interpositions by drop.
    pub drop_blocks: u64,
    /// Of them, interpositions by a board move.
    pub move_blocks: u64,
    /// Of them, futility tests (tsume rules' bounded searches).
    pub futility_tests: u64,
    /// Of them, the attacker's drops (checks from hand).
    pub attacker_drops: u64,
}

impl PlyCounts {
    fn add(&mut self, o: &PlyCounts) {
        self.expansions += o.expansions;
        self.again += o.again;
        self.interposable += o.interposable;
        self.left_unsolved += o.left_unsolved;
        self.by_repetition += o.by_repetition;
        self.children += o.children;
        self.drop_blocks += o.drop_blocks;
        self.move_blocks += o.move_blocks;
        self.futility_tests += o.futility_tests;
        self.attacker_drops += o.attacker_drops;
    }
}

/// A kind of child, as [`Profile::child`] counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ChildKind {
    DropBlock,
    MoveBlock,
    FutilityTest,
    AttackerDrop,
    Other,
}

/// The counts of one search.
#[derive(Clone, Debug, Default)]
pub struct Profile {
    /// Per ply from the root (index 0 is the root).
    pub by_ply: Vec<PlyCounts>,
    /// How many times each position was expanded.
    seen: HashMap<(u64, Hand), u32>,
    /// Where the expansions left another solver's proof, when one was given.
    pub off_proof: Option<super::reference_proof::OffProof>,
    /// The first expansions in order (`solve --trace N`).
    pub trace: Option<Trace>,
}

impl Profile {
    /// A profile that also counts where the expansions leave `reference`, when given.
    pub fn against(
        reference: Option<std::sync::Arc<super::reference_proof::ReferenceProof>>,
    ) -> Profile {
        Profile {
            off_proof: reference.map(super::reference_proof::OffProof::new),
            ..Profile::default()
        }
    }

    fn at(&mut self, ply: usize) -> &mut PlyCounts {
        if self.by_ply.len() <= ply {
            self.by_ply.resize(ply + 1, PlyCounts::default());
        }
        &mut self.by_ply[ply]
    }

    pub(super) fn expanded(&mut self, ply: usize, key: u64, hand: Hand, interposable: bool) {
        let times = self.seen.entry((key, hand)).or_insert(0);
        *times += 1;
        let again = *times > 1;
        let at = self.at(ply);
        at.expansions += 1;
        at.again += u64::from(again);
        at.interposable += u64::from(interposable);
    }

    /// The parent is about to search a child it holds at `(pn, dn)`.
    pub(super) fn trace_child(&mut self, pn: PnDn, dn: PnDn) {
        if let Some(t) = self.trace.as_mut() {
            t.pending = (pn, dn);
        }
    }

    /// Whether the trace wants the next expansion (its position is written only then).
    pub(super) fn trace_wants(&self) -> bool {
        self.trace.as_ref().is_some_and(|t| t.records.len() < t.limit)
    }

    /// Records an expansion (the one [`Profile::expanded`] just counted) and returns its index
    /// for [`Profile::trace_left`].
    pub(super) fn trace_entered(
        &mut self,
        ply: usize,
        key: u64,
        hand: Hand,
        or_node: bool,
        sfen: String,
        threshold: (PnDn, PnDn),
    ) -> Option<usize> {
        let again = self.seen.get(&(key, hand)).is_some_and(|&n| n > 1);
        let t = self.trace.as_mut().filter(|t| t.records.len() < t.limit)?;
        let before = std::mem::replace(&mut t.pending, (1, 1));
        t.records.push(TraceRecord { ply, or_node, sfen, threshold, before, after: None, again });
        Some(t.records.len() - 1)
    }

    pub(super) fn trace_left(&mut self, index: usize, pn: PnDn, dn: PnDn) {
        if let Some(r) = self.trace.as_mut().and_then(|t| t.records.get_mut(index)) {
            r.after = Some((pn, dn));
        }
    }

    /// The expansion at `ply` ended unsolved (`solved` false) or, solved, by a repetition.
    pub(super) fn ended(&mut self, ply: usize, solved: bool, by_repetition: bool) {
        let at = self.at(ply);
        at.left_unsolved += u64::from(!solved);
        at.by_repetition += u64::from(solved && by_repetition);
    }

    pub(super) fn child(&mut self, ply: usize, kind: ChildKind) {
        let at = self.at(ply);
        at.children += 1;
        match kind {
            ChildKind::DropBlock => at.drop_blocks += 1,
            ChildKind::MoveBlock => at.move_blocks += 1,
            ChildKind::FutilityTest => at.futility_tests += 1,
            ChildKind::AttackerDrop => at.attacker_drops += 1,
            ChildKind::Other => {}
        }
    }

    /// All plies together.
    pub fn total(&self) -> PlyCounts {
        let mut t = PlyCounts::default();
        for p in &self.by_ply {
            t.add(p);
        }
        t
    }

    /// Distinct positions expanded, and the most expansions of one of them.
    pub fn distinct(&self) -> (usize, u32) {
        (self.seen.len(), self.seen.values().copied().max().unwrap_or(0))
    }

    /// The counts in bands of `width` plies, as tab-separated lines with a header.
    pub fn to_tsv(&self, width: usize) -> String {
        let width = width.max(1);
        let mut out = String::from(
            "plies\texpansions\tagain\tinterposable\tleft_unsolved\tby_repetition\tchildren\t\
             drop_blocks\tmove_blocks\tfutility_tests\tattacker_drops\n",
        );
        for (band, chunk) in self.by_ply.chunks(width).enumerate() {
            let mut t = PlyCounts::default();
            chunk.iter().for_each(|p| t.add(p));
            let from = band * width;
            let _ = writeln!(
                out,
                "{from}-{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                from + chunk.len() - 1,
                t.expansions,
                t.again,
                t.interposable,
                t.left_unsolved,
                t.by_repetition,
                t.children,
                t.drop_blocks,
                t.move_blocks,
                t.futility_tests,
                t.attacker_drops
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_expansions_again_by_position_and_bands_by_ply() {
        let mut p = Profile::default();
        let hand = Hand::EMPTY;
        p.expanded(0, 1, hand, false);
        p.expanded(1, 2, hand, true);
        p.expanded(1, 2, hand, true);
        p.child(1, ChildKind::DropBlock);
        p.child(1, ChildKind::Other);
        p.ended(1, false, false);
        p.ended(1, true, true);
        p.expanded(3, 3, hand, false);
        let t = p.total();
        assert_eq!((t.expansions, t.again, t.interposable, t.left_unsolved), (4, 1, 2, 1));
        assert_eq!(t.by_repetition, 1);
        assert_eq!((t.children, t.drop_blocks), (2, 1));
        assert_eq!(p.distinct(), (3, 2));
        let tsv = p.to_tsv(2);
        let rows: Vec<&str> = tsv.lines().collect();
        assert_eq!(rows.len(), 3, "{tsv}");
        assert!(rows[1].starts_with("0-1\t3\t1\t2\t1\t1\t2\t1\t"), "{tsv}");
        assert!(rows[2].starts_with("2-3\t1\t0\t"), "{tsv}");
    }

    #[test]
    fn trace_keeps_the_first_expansions_in_order_with_their_numbers() {
        let mut p = Profile { trace: Some(Trace::new(2)), ..Profile::default() };
        let hand = Hand::EMPTY;
        p.expanded(0, 1, hand, false);
        assert!(p.trace_wants());
        let root = p.trace_entered(0, 1, hand, true, "root".into(), (INF, INF));
        p.trace_child(3, 2);
        p.expanded(1, 2, hand, false);
        let child = p.trace_entered(1, 2, hand, false, "child".into(), (4, INF));
        p.trace_left(child.unwrap(), 5, 2);
        p.expanded(1, 2, hand, false);
        assert!(!p.trace_wants(), "the limit is two records");
        assert_eq!(p.trace_entered(1, 2, hand, false, "again".into(), (6, INF)), None);
        let tsv = p.trace.as_ref().map(Trace::to_tsv).unwrap_or_default();
        let rows: Vec<&str> = tsv.lines().collect();
        assert_eq!(
            rows,
            [
                "0\t0\tOR\troot\tinf\tinf\t1\t1\tcut\tcut\t0",
                "1\t1\tAND\tchild\t4\tinf\t3\t2\t5\t2\t0"
            ]
        );
        assert_eq!(root, Some(0));
    }
}
