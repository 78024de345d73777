//! shtsume's search: one call at the root under a pn threshold of 255, OR and AND nodes that
//! iterate over a sorted list of choices until a threshold is crossed, the table read for
//! every child and written when a node returns (shtsume's `bn_search_or`/`bn_search_and`).

use super::checks::checks;
use super::evasions::evasions;
use super::numbers::{attacker_order, defender_order, reorder, sort, summed, weak_dn, weak_pn};
use super::pieces;
use super::table::Table;
use super::{sht_index, Entry, INFINITE, MAX_DEPTH, PRE_DISPROOF_MAX, PRE_PROOF_MAX, PROOF_MAX};
use shogi::{Color, PieceKind, Position, Square};
use solver::pn::{PnDn, INF};
use solver::search::king_distance;
use solver::search::profile::{Trace, TraceRecord};
use std::collections::HashSet;

/// shtsume's mechanisms the replica can leave out, one at a time, to measure what each is
/// worth (`tsumugi-replica --without a,b`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Without {
    /// The one-ply look at the other checks when the best mates with pieces to spare.
    pub probe: bool,
    /// The king's distance as the pn of a check not searched yet.
    pub floor: bool,
    /// The weak numbers: plain sums instead.
    pub weak: bool,
    /// The threshold 1 of a check searched for the first time: the second's pn + 1 instead.
    pub first: bool,
    /// Folding undefended drops against a distant check.
    pub ryuma: bool,
    /// The two GHI folds of an AND node.
    pub ghi: bool,
}

impl Without {
    /// Parses `probe,floor,...`; names the unknown part.
    pub fn parse(text: &str) -> Result<Without, String> {
        let mut w = Without::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part {
                "probe" => w.probe = true,
                "floor" => w.floor = true,
                "weak" => w.weak = true,
                "first" => w.first = true,
                "ryuma" => w.ryuma = true,
                "ghi" => w.ghi = true,
                other => {
                    return Err(format!(
                        "unknown mechanism '{other}' (probe, floor, weak, first, ryuma, ghi)"
                    ))
                }
            }
        }
        Ok(w)
    }
}

/// The thresholds a node is searched under (`tdata_t` used as a threshold).
#[derive(Clone, Copy, Debug)]
struct Thresholds {
    pn: u16,
    dn: u16,
    sh: u16,
}

/// What a first proof by the replica came to.
#[derive(Debug)]
pub struct ReplicaOutcome {
    /// The root's numbers: pn 0 proven, dn 0 disproven.
    pub pn: u16,
    pub dn: u16,
    /// The height of the proof tree (the mate's length as the first proof has it).
    pub sh: u16,
    /// Positions expanded (children generated), the first time and again, and those with
    /// no move (shtsume expands them too; ours answers them at the parent).
    pub expansions: u64,
    pub again: u64,
    pub terminal: u64,
    /// The node limit cut the search.
    pub aborted: bool,
    pub trace: Option<Trace>,
}

/// The replica's state for one problem.
pub struct Replica {
    pos: Position,
    table: Table,
    attacker: Color,
    ply: u16,
    /// The square shtsume holds as "the checker" (`S_ATTACK[0]`): set where a side is in
    /// check, kept through the moves after; its piece decides the distance floor at OR nodes.
    checker: Vec<usize>,
    symmetric: bool,
    node_limit: u64,
    nodes: u64,
    aborted: bool,
    seen: HashSet<u64>,
    again: u64,
    terminal: u64,
    trace: Option<Trace>,
    log: Option<super::call_log::CallLog>,
    /// Mechanisms left out (none in shtsume's own search).
    pub without: Without,
}

impl Replica {
    pub fn new(pos: &Position, megabytes: usize, node_limit: u64, trace: usize) -> Replica {
        Replica {
            pos: pos.clone(),
            table: Table::new(megabytes),
            attacker: pos.side_to_move(),
            ply: 0,
            checker: vec![0],
            symmetric: symmetric(pos),
            node_limit,
            nodes: 0,
            aborted: false,
            seen: HashSet::new(),
            again: 0,
            terminal: 0,
            trace: (trace > 0).then(|| Trace::new(trace)),
            log: super::call_log::CallLog::from_env(),
            without: Without::default(),
        }
    }

    /// shtsume's first proof: one OR search of the root under (255, ∞ − 1, 2000).
    pub fn first_proof(mut self) -> ReplicaOutcome {
        let mut root = Entry { pn: 1, dn: 1, ..Entry::default() };
        let th = Thresholds { pn: PROOF_MAX - 1, dn: INFINITE - 1, sh: MAX_DEPTH };
        self.or_node(th, &mut root);
        ReplicaOutcome {
            pn: root.pn,
            dn: root.dn,
            sh: root.sh,
            expansions: self.nodes - self.terminal,
            again: self.again,
            terminal: self.terminal,
            aborted: self.aborted,
            trace: self.trace,
        }
    }

    fn play(&mut self, m: shogi::Move) {
        self.pos.make_move(m);
        self.ply += 1;
        let checker = match first_checker(&self.pos) {
            Some(sq) => sht_index(sq),
            None => *self.checker.last().unwrap_or(&0),
        };
        self.checker.push(checker);
    }

    fn unplay(&mut self) {
        self.pos.unmake_move();
        self.ply -= 1;
        self.checker.pop();
    }

    /// Counts the expansion and, while the trace wants it, records it; returns its index.
    fn entered(&mut self, or_node: bool, th: Thresholds, entry: &Entry) -> Option<usize> {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        let again = !self.seen.insert(self.pos.key());
        self.again += u64::from(again);
        let t = self.trace.as_mut()?;
        if t.records.len() >= t.limit() {
            return None;
        }
        t.records.push(TraceRecord {
            ply: usize::from(self.ply),
            or_node,
            sfen: self.pos.to_sfen(),
            threshold: (wide(th.pn), wide(th.dn)),
            before: (wide(entry.pn), wide(entry.dn)),
            after: None,
            again,
        });
        Some(t.records.len() - 1)
    }

    fn left(&mut self, index: Option<usize>, entry: &Entry) {
        if let (Some(i), Some(t)) = (index, self.trace.as_mut()) {
            if let Some(r) = t.records.get_mut(i) {
                r.after = Some((wide(entry.pn), wide(entry.dn)));
            }
        }
    }

    fn or_node(&mut self, th: Thresholds, entry: &mut Entry) {
        let index = self.entered(true, th, entry);
        self.or_body(th, entry);
        self.left(index, entry);
    }

    fn and_node(&mut self, th: Thresholds, entry: &mut Entry) {
        let index = self.entered(false, th, entry);
        self.and_body(th, entry);
        self.left(index, entry);
    }

    /// Looks `e` up as the position after its first move.
    fn look(&mut self, e: &mut Entry) {
        self.pos.make_move(e.head());
        let before = self.log.as_ref().map(|_| e.clone());
        self.table.lookup(&self.pos, self.ply + 1, self.attacker, e);
        if let (Some(log), Some(before)) = (self.log.as_mut(), before) {
            let own = self.pos.hand(self.attacker);
            log.lookup(self.pos.board_key(), own, self.ply + 1, self.attacker, &before, e);
        }
        self.pos.unmake_move();
    }

    /// `tbase_update` of the node at hand.
    fn store(&mut self, entry: &mut Entry) {
        let before = self.log.as_ref().map(|_| entry.clone());
        self.table.update(&self.pos, self.ply, self.attacker, entry);
        if let (Some(log), Some(before)) = (self.log.as_mut(), before) {
            let own = self.pos.hand(self.attacker);
            let root_pn = self.table.root_pn;
            log.update(self.pos.board_key(), own, self.ply, self.attacker, root_pn, &before, entry);
        }
    }

    /// `tbase_set_current` of the node at hand, under the threshold pn now in `entry`.
    fn mark_current(&mut self, entry: &Entry) -> Option<super::table::CurrentMark> {
        let mark = self.table.set_current(&self.pos, self.ply, self.attacker, entry);
        if let Some(log) = self.log.as_mut() {
            let own = self.pos.hand(self.attacker);
            log.set_current(
                self.pos.board_key(),
                own,
                self.ply,
                self.attacker,
                entry.pn,
                mark.map(|m| m.0),
            );
        }
        mark
    }

    fn unmark_current(&mut self, mark: Option<super::table::CurrentMark>) {
        if let Some(c) = mark {
            if let Some(log) = self.log.as_mut() {
                log.clear(c.0);
            }
            self.table.clear_current(c);
        }
    }

    fn or_body(&mut self, th: Thresholds, entry: &mut Entry) {
        let ply = self.ply;
        let mut list = checks(&self.pos, &self.table, ply);
        if list.is_empty() {
            self.terminal += 1;
            entry.pn = INFINITE;
            entry.dn = 0;
            entry.sh = 0;
            entry.hand = pieces::disproof_hand_no_check(&self.pos);
            self.store(entry);
            return;
        }
        if ply == 0 && self.symmetric {
            // A symmetric problem's checks on files 6-9 mirror those on 1-4; shtsume keeps
            // files 1-5, and its list comes out reversed.
            list.retain(|e| e.head().to().file().index() < 5);
            list.reverse();
        }
        let king = self.pos.king_square(!self.attacker);
        let floor = !matches!(
            self.pos.piece_at(super::from_sht_index(*self.checker.last().unwrap_or(&0))).get(),
            Some((_, PieceKind::Horse))
        );
        for e in list.iter_mut() {
            self.look(e);
            e.length = king.map_or(1, |k| king_distance(k, e.head().to()));
            if !e.search && floor && !self.without.floor {
                e.pn = e.pn.max(u16::from(e.length));
            }
        }
        let mut list = sort(list, &self.pos, attacker_order);
        loop {
            // A mate with pieces to spare: look one ply into the unsearched others for a
            // mate without.
            if !self.without.probe && list[0].pn == 0 && list[0].sh > 1 && list[0].inc && ply < 30 {
                let probe = Thresholds { pn: INFINITE - 1, dn: INFINITE - 1, sh: 2 };
                for e in list.iter_mut().skip(1).filter(|e| !e.search) {
                    self.play(e.head());
                    self.and_node(probe, e);
                    self.unplay();
                    e.search = true;
                }
                list = sort(list, &self.pos, attacker_order);
            }
            entry.pn = list[0].pn;
            if ply == 0 {
                self.table.root_pn = entry.pn;
            }
            let (dn, dcnt) = if ply == 0 {
                (list[0].dn, 0)
            } else if self.without.weak {
                summed(&list, false)
            } else {
                weak_dn(&list)
            };
            entry.dn = dn;
            entry.sh = list[0].sh + 1;
            entry.inc = list[0].inc;
            if entry.pn >= th.pn || entry.dn >= th.dn || entry.sh >= th.sh || self.aborted {
                if entry.pn == 0 {
                    let best = list[0].clone();
                    pieces::proven_or(&self.pos, entry, &best);
                } else if entry.dn == 0 {
                    pieces::disproven_or(&self.pos, entry, &list);
                }
                self.store(entry);
                return;
            }
            let child = if list.len() > 1 {
                let next = if list[0].search || self.without.first {
                    list[1].pn.saturating_add(1).min(INFINITE)
                } else {
                    1
                };
                Thresholds {
                    pn: th.pn.min(next),
                    dn: if th.dn == INFINITE - 1 || ply == 0 { th.dn } else { th.dn - dcnt },
                    sh: th.sh - 1,
                }
            } else {
                Thresholds { sh: th.sh - 1, ..th }
            };
            entry.pn = child.pn;
            entry.dn = child.dn;
            entry.sh = child.sh;
            list[0].search = true;
            let current = self.mark_current(entry);
            let mut e = std::mem::take(&mut list[0]);
            self.play(e.head());
            self.and_node(child, &mut e);
            self.unplay();
            list[0] = e;
            self.unmark_current(current);
            reorder(&mut list, &self.pos, attacker_order);
        }
    }

    fn and_body(&mut self, th: Thresholds, entry: &mut Entry) {
        let ply = self.ply;
        let distant = entry.length > 2;
        let generated = evasions(&self.pos, &self.table, ply);
        let (futile_drops, futile_moves) = (generated.invalid_drops, generated.invalid_moves);
        let mut list = generated.entries;
        if list.is_empty() {
            self.terminal += 1;
            pieces::mated(&self.pos, entry, futile_drops);
            self.store(entry);
            return;
        }
        // Read the table; a chain whose head is proven lets its next move out.
        let mut i = 0;
        while i < list.len() {
            self.look(&mut list[i]);
            if list[i].moves.len() > 1 && list[i].pn == 0 {
                let rest = list[i].moves.split_off(1);
                list.insert(i + 1, Entry::chain(rest));
            }
            i += 1;
        }
        loop {
            list = sort(list, &self.pos, defender_order);
            if distant && !self.without.ryuma {
                self.fold_undefended_drops(&mut list);
            }
            if futile_moves && list[0].pn == 0 && list[0].inc {
                pieces::mated(&self.pos, entry, futile_drops);
                self.store(entry);
                return;
            }
            let mut pcnt;
            loop {
                entry.dn = list[0].dn;
                (entry.pn, pcnt) =
                    if self.without.weak { summed(&list, true) } else { weak_pn(&list) };
                entry.sh = list[0].sh + 1;
                let head_empty = self.pos.piece_at(list[0].head().to()).get().is_none();
                if list[0].pn >= PRE_PROOF_MAX - 1 && list[0].dn == 1 {
                    // A simple loop: the defence that keeps coming back is a disproof.
                    entry.dn = 0;
                    entry.pn = INFINITE;
                    break;
                } else if !self.without.ghi
                    && entry.pn > PRE_PROOF_MAX
                    && entry.dn > 0
                    && list.len() > 1
                    && list[1].pn > 0
                    && head_empty
                {
                    // pn grows without end (GHI): the hardest defence folds behind the others.
                    let mut rest = std::mem::take(&mut list).into_iter();
                    let mut hardest = rest.next().unwrap_or_default();
                    let mut others = Vec::new();
                    for e in rest {
                        if e.pn > hardest.pn {
                            others.insert(0, std::mem::replace(&mut hardest, e));
                        } else {
                            others.insert(0, e);
                        }
                    }
                    list = sort(others, &self.pos, defender_order);
                    list[0].moves.extend(hardest.moves);
                } else if !self.without.ghi
                    && list[0].pn > 0
                    && list[0].dn > PRE_DISPROOF_MAX
                    && list.len() > 1
                    && list[1].pn > 0
                    && list[1].dn > 0
                {
                    // dn grows without end: the next defence folds behind the first.
                    let second = list.remove(1);
                    list[0].moves.extend(second.moves);
                } else {
                    break;
                }
            }
            if entry.pn >= th.pn || entry.dn >= th.dn || entry.sh >= th.sh || self.aborted {
                if entry.dn == 0 {
                    let best = list[0].clone();
                    pieces::disproven_and(&self.pos, entry, &best);
                } else if entry.pn == 0 {
                    if futile_drops {
                        let attacker_hand = self.pos.hand(self.attacker);
                        entry.hand = attacker_hand;
                        entry.inc = list[0].inc;
                        entry.hinc = list[0].inc;
                        let nouse = i32::from(list[0].nouse) + attacker_hand.total() as i32
                            - list[0].hand.total() as i32;
                        entry.nouse = (nouse & 63) as u8;
                        entry.nouse2 = entry.nouse;
                    } else {
                        pieces::proven_and(&self.pos, entry, &list);
                    }
                }
                self.store(entry);
                return;
            }
            let child = if list.len() > 1 {
                Thresholds {
                    dn: th.dn.min(list[1].dn.saturating_add(1)),
                    pn: th.pn - pcnt,
                    sh: th.sh - 1,
                }
            } else {
                Thresholds { sh: th.sh - 1, ..th }
            };
            entry.pn = child.pn;
            entry.dn = child.dn;
            entry.sh = child.sh;
            let current = self.mark_current(entry);
            let mut e = std::mem::take(&mut list[0]);
            self.play(e.head());
            self.or_node(child, &mut e);
            self.unplay();
            list[0] = e;
            self.unmark_current(current);
            // A proven interposition lets the next of its chain out, to the front.
            while list[0].moves.len() > 1 && list[0].pn == 0 {
                let rest = list[0].moves.split_off(1);
                let mut e = Entry::chain(rest);
                self.look(&mut e);
                list.insert(0, e);
            }
        }
    }

    /// `ryuma_flag`: against a check from afar, a drop nothing of the defender's guards is
    /// folded behind another defence.
    fn fold_undefended_drops(&self, list: &mut Vec<Entry>) {
        let defender = self.pos.side_to_move();
        let guarded =
            |sq: Square| self.pos.attackers_to(defender, sq, self.pos.occupied()).is_nonempty();
        let unsolved = |e: &Entry| e.pn > 0 && e.dn > 0;
        if list[0].head().is_drop() {
            if unsolved(&list[0])
                && list.len() > 1
                && unsolved(&list[1])
                && !guarded(list[0].head().to())
            {
                let first = list.remove(0);
                list[0].moves.extend(first.moves);
            }
        } else {
            let mut i = 1;
            while i < list.len() {
                if list[i].pn == 0 {
                    break;
                }
                if list[i].head().is_drop() && !guarded(list[i].head().to()) {
                    let folded = list.remove(i);
                    list[0].moves.extend(folded.moves);
                    break;
                }
                i += 1;
            }
        }
    }
}

fn wide(v: u16) -> PnDn {
    if v == INFINITE {
        INF
    } else {
        PnDn::from(v)
    }
}

/// The checker shtsume records first: by kind (pawn, lance, knight, silver, gold and its
/// like, bishop, rook, horse, dragon), then from the lowest square in its order.
fn first_checker(pos: &Position) -> Option<Square> {
    use PieceKind::*;
    let checkers = pos.checkers();
    let rank = |k: PieceKind| match k {
        Pawn => 0,
        Lance => 1,
        Knight => 2,
        Silver => 3,
        Gold | ProPawn | ProLance | ProKnight | ProSilver => 4,
        Bishop => 5,
        Rook => 6,
        Horse => 7,
        _ => 8,
    };
    checkers.min_by_key(|&sq| {
        let k = pos.piece_at(sq).get().map_or(King, |(_, k)| k);
        (rank(k), sht_index(sq))
    })
}

/// `symmetry_check`: the defender's king on file 5 and the board mirror-symmetric.
fn symmetric(pos: &Position) -> bool {
    let Some(king) = pos.king_square(!pos.side_to_move()) else { return false };
    if king.file().index() != 4 {
        return false;
    }
    Square::all().all(|sq| {
        let f = sq.file().index();
        f >= 4 || {
            let mirror = Square::from_index_unchecked(((8 - f) * 9 + sq.rank().index()) as u8);
            pos.piece_at(sq) == pos.piece_at(mirror)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::movegen;

    fn solve(sfen: &str, nodes: u64) -> ReplicaOutcome {
        let pos = Position::from_sfen(sfen).expect("sfen");
        Replica::new(&pos, 16, nodes, 64).first_proof()
    }

    #[test]
    fn proves_a_mate_with_its_height_and_disproves_a_position_with_no_mate() {
        // A gold dropped on 5b mates at once: a proof one ply high.
        let one = solve("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1000);
        assert_eq!((one.pn, one.sh), (0, 1));
        // 将棋図巧 5 (public domain): a 23-ply work; the first proof's height is a mate's.
        let zukou5 = solve("n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1", 1_000_000);
        assert_eq!(zukou5.pn, 0);
        assert!(zukou5.sh % 2 == 1 && zukou5.sh >= 15, "height {}", zukou5.sh);
        assert!(zukou5.expansions > zukou5.again && zukou5.terminal > 0);
        // No piece in hand and nothing that checks: disproven without a search.
        let none = solve("4k4/9/9/9/9/9/9/9/4K4 b - 1", 1000);
        assert_eq!((none.pn, none.dn), (INFINITE, 0));
    }

    #[test]
    fn the_node_limit_cuts_the_search_and_the_trace_keeps_its_first_expansions() {
        let cut = solve("n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1", 100);
        assert!(cut.aborted && cut.pn != 0 && cut.dn != 0);
        let trace = cut.trace.expect("a trace");
        assert_eq!(trace.records.len(), 64);
        assert!(trace.records[0].or_node && trace.records[0].ply == 0);
        // Each record after the root is a child of an earlier one: one ply deeper at most.
        for w in trace.records.windows(2) {
            assert!(w[1].ply <= w[0].ply + 1);
        }
        let first_check = Position::from_sfen(&trace.records[1].sfen).expect("sfen");
        assert!(!trace.records[1].or_node && first_check.in_check());
        assert!(
            !movegen::is_checkmate(&first_check),
            "the first check searched does not mate at once"
        );
    }

    #[test]
    fn mechanisms_left_out_are_named_and_an_unknown_one_is_an_error() {
        let w = Without::parse("probe, weak").expect("parses");
        assert!(w.probe && w.weak && !w.floor && !w.ghi);
        let e = Without::parse("probe,fold").expect_err("fold is not one");
        assert!(e.contains("'fold'"), "{e}");
        // Plain sums in place of the weak numbers make another search.
        let pos = Position::from_sfen("n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1")
            .expect("sfen");
        let whole = Replica::new(&pos, 16, 1_000_000, 0).first_proof();
        let mut plain = Replica::new(&pos, 16, 1_000_000, 0);
        plain.without = Without::parse("weak").expect("parses");
        let plain = plain.first_proof();
        assert_eq!((whole.pn, plain.pn), (0, 0));
        assert_ne!(whole.expansions, plain.expansions);
        // The switches that act on this work: each left out alone makes another search.
        for name in ["probe", "floor", "first"] {
            let mut r = Replica::new(&pos, 16, 1_000_000, 0);
            r.without = Without::parse(name).expect("parses");
            let out = r.first_proof();
            assert_eq!(out.pn, 0, "{name}");
            assert_ne!(out.expansions, whole.expansions, "{name} changed nothing");
        }
    }

    #[test]
    fn shtsumes_distance_is_chebyshev_two_away_and_one_elsewhere() {
        let sq = |file: u8, rank: u8| Square::from_index_unchecked((file - 1) * 9 + rank - 1);
        assert_eq!(king_distance(sq(5, 5), sq(5, 2)), 3, "on the file");
        assert_eq!(
            king_distance(sq(5, 5), sq(2, 3)),
            3,
            "two away on both: a quadrant, not a diagonal"
        );
        assert_eq!(king_distance(sq(5, 5), sq(4, 3)), 1, "a knight's jump");
        assert_eq!(king_distance(sq(5, 5), sq(6, 6)), 1, "next to the king");
    }
}
