//! Where a first proof leaves another solver's proof (`solve --profile DIR --proof-reference
//! DIR2`): the other solver's proof tree, read from a file, and the first proof's expansions
//! counted by the place where their path left it.
//!
//! A diagnostic, as the profile is. The file lists the tree depth first, one move a line:
//! `O <ply> <check>` at an OR node (the check that proves it), `A <ply> <evasion>` for each
//! defence of an AND node, `T <ply> <move>` for a move to a position already listed (not
//! listed again below it), and `? <ply> <move>` for a child whose proof the other solver no
//! longer held (not followed). `<ply>` counts from the root's 0, the moves are USI.
//!
//! An expansion is *on the proof* when every position of its path from the root is in the
//! tree (a transposition into the tree counts as in it). Otherwise the first position of the
//! path outside the tree names where it left: the last position inside (an OR node, whose
//! proving check our search did not take there; or an AND node, a defence the other solver
//! did not need, such as an interposition it counts as futile) and the move out.

use crate::pn::PnDn;
use shogi::{Move, Position};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::Arc;

/// An OR node of the reference proof.
#[derive(Clone, Debug)]
pub struct OrNode {
    /// Its ply in the reference tree, where first listed.
    pub ply: usize,
    /// The check the reference proves it with.
    pub check: Move,
    pub sfen: String,
}

/// The other solver's proof tree, by position key (board and hands).
#[derive(Debug, Default)]
pub struct ReferenceProof {
    positions: HashSet<u64>,
    or_nodes: HashMap<u64, OrNode>,
    /// Children the file marked `?` (lost from the other solver's table).
    pub lost: usize,
}

impl ReferenceProof {
    /// Reads the tree of the file `text`, whose root is `root`. An error names the line.
    pub fn read(root: &Position, text: &str) -> Result<ReferenceProof, String> {
        let mut proof = ReferenceProof::default();
        let mut pos = root.clone();
        let start = pos.history_len();
        proof.positions.insert(pos.key());
        for (n, line) in text.lines().enumerate() {
            let bad = |what: &str| format!("line {}: {what}: {line}", n + 1);
            let mut words = line.split_whitespace();
            let (Some(kind), Some(ply), Some(mv)) = (words.next(), words.next(), words.next())
            else {
                if line.trim().is_empty() {
                    continue;
                }
                return Err(bad("not `<kind> <ply> <move>`"));
            };
            let ply: usize = ply.parse().map_err(|_| bad("not a ply"))?;
            if !matches!(kind, "O" | "A" | "T" | "?") {
                return Err(bad("not a kind (O, A, T or ?)"));
            }
            if ply > pos.history_len() - start {
                return Err(bad("deeper than the line above allows"));
            }
            while pos.history_len() - start > ply {
                pos.unmake_move();
            }
            if kind == "?" {
                proof.lost += 1;
                continue;
            }
            let m = pos.parse_usi_move(mv).map_err(|_| bad("not a legal move here"))?;
            if ply.is_multiple_of(2) {
                proof.or_nodes.entry(pos.key()).or_insert_with(|| OrNode {
                    ply,
                    check: m,
                    sfen: pos.to_sfen(),
                });
            }
            pos.make_move(m);
            proof.positions.insert(pos.key());
        }
        Ok(proof)
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    fn contains(&self, key: u64) -> bool {
        self.positions.contains(&key)
    }
}

/// A shared reference proof in [`crate::SolverConfig`]: compared by identity.
#[derive(Clone, Debug)]
pub struct ReferenceHandle(pub Arc<ReferenceProof>);

impl PartialEq for ReferenceHandle {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for ReferenceHandle {}

/// Where one departure's expansions went.
#[derive(Clone, Debug, Default)]
struct Departure {
    expansions: u64,
    /// By the move that left the tree: the expansions of its subtree.
    by_move: HashMap<Move, u64>,
}

/// Why the expansions under an OR node of the tree went to other checks than its proving one,
/// judged by how our search first estimated its checks (see [`OffProof::causes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Causes {
    /// The reference's check was estimated best, alone: a threshold took the search away.
    pub best_alone: u64,
    /// It was among several estimated best: the tie went to another check first.
    pub best_tied: u64,
    /// Another check was estimated better: the initial numbers.
    pub estimated_worse: u64,
    /// The node was never expanded in the first proof (reached off the tree's path only).
    pub not_seen: u64,
    /// Under an AND node: a defence the reference did not need.
    pub under_and: u64,
}

/// The first proof's expansions against a reference proof.
#[derive(Clone, Debug)]
pub struct OffProof {
    reference: Arc<ReferenceProof>,
    /// Per ply of the current path: where it left the tree (the key of the last position
    /// inside, and the move out), if it did.
    left_at: Vec<Option<(u64, Move)>>,
    on_proof: u64,
    by_node: HashMap<u64, Departure>,
    /// At an OR node of the tree, its checks as our search first estimated them.
    first_look: HashMap<u64, Vec<(Move, PnDn, PnDn)>>,
}

/// How our first estimates placed the reference's check at an OR node: its (pn, dn), its
/// rank by (pn, then the larger dn) from 1, how many checks shared its numbers, and the best.
struct Look {
    estimate: (PnDn, PnDn),
    rank: usize,
    tied: usize,
    best: (Move, PnDn, PnDn),
}

impl OffProof {
    pub fn new(reference: Arc<ReferenceProof>) -> OffProof {
        OffProof {
            reference,
            left_at: Vec::new(),
            on_proof: 0,
            by_node: HashMap::new(),
            first_look: HashMap::new(),
        }
    }

    /// An expansion of `pos` at `ply` (the root's is 1), whose parent is `parent` (its key).
    pub(super) fn expanded(&mut self, ply: usize, pos: &Position, parent: Option<u64>) {
        self.left_at.truncate(ply);
        while self.left_at.len() < ply {
            self.left_at.push(None);
        }
        let above = if ply >= 2 { self.left_at[ply - 2] } else { None };
        let here = match (above, parent) {
            (Some(at), _) => Some(at),
            (None, Some(p)) if !self.reference.contains(pos.key()) => Some((p, pos.last_move())),
            _ => None,
        };
        self.left_at[ply - 1] = here;
        match here {
            None => self.on_proof += 1,
            Some((at, out)) => {
                let d = self.by_node.entry(at).or_default();
                d.expansions += 1;
                *d.by_move.entry(out).or_default() += 1;
            }
        }
    }

    /// Whether `key` is an OR node of the tree whose first estimates are not yet kept.
    pub(super) fn wants_first_look(&self, key: u64) -> bool {
        self.reference.or_nodes.contains_key(&key) && !self.first_look.contains_key(&key)
    }

    pub(super) fn first_look(&mut self, key: u64, children: Vec<(Move, PnDn, PnDn)>) {
        self.first_look.insert(key, children);
    }

    /// Expansions on the proof and off it.
    pub fn totals(&self) -> (u64, u64) {
        (self.on_proof, self.by_node.values().map(|d| d.expansions).sum())
    }

    fn look(&self, key: u64) -> Option<Look> {
        let check = self.reference.or_nodes.get(&key)?.check;
        let mut ranked = self.first_look.get(&key)?.clone();
        ranked.sort_by_key(|&(_, pn, dn)| (pn, std::cmp::Reverse(dn)));
        let rank = ranked.iter().position(|&(m, _, _)| m == check)?;
        let (_, pn, dn) = ranked[rank];
        let tied = ranked.iter().filter(|&&(_, p, d)| (p, d) == (pn, dn)).count();
        Some(Look { estimate: (pn, dn), rank: rank + 1, tied, best: ranked[0] })
    }

    /// The expansions off the tree by why they left it.
    pub fn causes(&self) -> Causes {
        let mut c = Causes::default();
        for (key, d) in &self.by_node {
            let n = d.expansions;
            if !self.reference.or_nodes.contains_key(key) {
                c.under_and += n;
                continue;
            }
            match self.look(*key) {
                None => c.not_seen += n,
                Some(l) if l.estimate != (l.best.1, l.best.2) => c.estimated_worse += n,
                Some(l) if l.tied > 1 => c.best_tied += n,
                Some(_) => c.best_alone += n,
            }
        }
        c
    }

    /// The departures with the most expansions, `rows` of them, as tab-separated lines with
    /// a header: where (ply, position, the reference's check), how many expansions went
    /// under other moves there and under which, and how our search first estimated the
    /// reference's check against the check it estimated best.
    pub fn to_tsv(&self, rows: usize) -> String {
        let mut out = String::from(
            "ply\texpansions\tnode\treference_check\tfirst_estimate\trank\ttied\tour_best_first\tmoves_out\tsfen\n",
        );
        let mut nodes: Vec<(&u64, &Departure)> = self.by_node.iter().collect();
        nodes.sort_by_key(|(k, d)| (std::cmp::Reverse(d.expansions), **k));
        for (key, d) in nodes.into_iter().take(rows) {
            let mut moves: Vec<(&Move, &u64)> = d.by_move.iter().collect();
            moves.sort_by_key(|(m, n)| (std::cmp::Reverse(**n), m.to_string()));
            let moves_out: Vec<String> =
                moves.iter().take(4).map(|(m, n)| format!("{m}:{n}")).collect();
            let (ply, kind, check, sfen) = match self.reference.or_nodes.get(key) {
                Some(o) => (o.ply.to_string(), "OR", o.check.to_string(), o.sfen.clone()),
                None => ("-".to_string(), "AND", "-".to_string(), String::new()),
            };
            let look = self.look(*key).map(|l| {
                let (bm, bp, bd) = l.best;
                (
                    format!("{}/{}", l.estimate.0, l.estimate.1),
                    l.rank.to_string(),
                    l.tied.to_string(),
                    format!("{bm} {bp}/{bd}"),
                )
            });
            let dash = || "-".to_string();
            let (estimate, rank, tied, best) =
                look.unwrap_or_else(|| (dash(), dash(), dash(), dash()));
            let _ = writeln!(
                out,
                "{ply}\t{}\t{kind}\t{check}\t{estimate}\t{rank}\t{tied}\t{best}\t{}\t{sfen}",
                d.expansions,
                moves_out.join(" ")
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A king and a pawn, two golds in hand: the tree is what the file says, not a proof.
    const ROOT: &str = "4k4/9/4P4/9/9/9/9/9/9 b 2G 1";

    #[test]
    fn reads_a_tree_and_counts_expansions_on_and_off_it() {
        let root = Position::from_sfen(ROOT).expect("position");
        let text = "O 0 G*4b\nA 1 5a4b\nO 2 G*5b\nA 1 5a6a\nO 2 G*6b\n? 1 5a6b\n";
        let proof = ReferenceProof::read(&root, text).expect("tree");
        assert_eq!((proof.len(), proof.lost), (6, 1));
        let mut off = OffProof::new(Arc::new(proof));
        let mut pos = root.clone();
        off.expanded(1, &pos, None);
        // Off: ▲６二金打 at the root.
        let root_key = pos.key();
        pos.make_move(pos.parse_usi_move("G*6b").expect("move"));
        off.expanded(2, &pos, Some(root_key));
        let under = pos.key();
        pos.make_move(pos.parse_usi_move("5a4a").expect("move"));
        off.expanded(3, &pos, Some(under));
        pos.unmake_move();
        pos.unmake_move();
        // On: the reference's check.
        pos.make_move(pos.parse_usi_move("G*4b").expect("move"));
        off.expanded(2, &pos, Some(root_key));
        assert_eq!(off.totals(), (2, 2));
        let tsv = off.to_tsv(5);
        let row = tsv.lines().nth(1).expect("a row");
        assert!(row.starts_with("0\t2\tOR\tG*4b\t"), "{tsv}");
        // Both expansions under ▲６二金打 count for it.
        assert!(row.contains("G*6b:2"), "{tsv}");
        // Never expanded with first estimates kept: "not seen".
        assert_eq!(off.causes(), Causes { not_seen: 2, ..Causes::default() });
    }

    #[test]
    fn a_bad_line_is_named() {
        let root = Position::from_sfen(ROOT).expect("position");
        let e = ReferenceProof::read(&root, "O 0 G*4b\nA 1 9i9h\n").expect_err("illegal");
        assert!(e.starts_with("line 2: not a legal move here"), "{e}");
        let e = ReferenceProof::read(&root, "O 3 G*4b\n").expect_err("too deep");
        assert!(e.starts_with("line 1: deeper"), "{e}");
    }
}
