//! Expanding a node: the moves it searches, and the initial value of each child.

use super::children::{is_active, Child, Edge, Gate, Opens};
use super::dfpn::{Frame, Search};
use super::futile_memo::MAX_MOVES;
use super::futility::{futility_captures, king_escapes, mated_at_once, play_test, unplay_test};
use super::hands::{and_proof_hand, saturate_held};
use super::profile::ChildKind;
use super::value::Value;
use crate::config::DoubleCount;
use crate::config::Rules;
use crate::outcome::Phase;
use crate::pn::PnDn;
use crate::repetition_table::RepetitionTable;
use crate::tt::{PURE_PROBE_SALT, UNBOUNDED};
use shogi::movegen::{self, generate};
use shogi::{
    attacks, Bitboard, Hand, Move, MoveClass, MoveList, NonPromotions, PieceKind, Position, Square,
};

impl Search<'_> {
    /// The moves a node expands: checks at OR nodes (attacker to move), every evasion at AND
    /// nodes. Returns whether it is an OR node.
    pub(super) fn node_moves(&self, pos: &Position, list: &mut MoveList) -> bool {
        let or_node = pos.side_to_move() == self.attacker;
        if or_node {
            generate(pos, MoveClass::Checks, NonPromotions::Include, list);
        } else {
            movegen::legal_moves(pos, list);
        }
        or_node
    }

    /// Expands `pos`: its moves become children, gated as [`super::children`] describes, none
    /// of them estimated yet; `order` lists them group by group.
    pub(super) fn expand(&mut self, pos: &mut Position, frame: &mut Frame) {
        let Frame { moves, children, order } = frame;
        moves.clear();
        children.clear();
        let or_node = self.node_moves(pos, moves);
        if let Some(left) = self.left_out.as_ref().filter(|l| l.ply == self.path.len()) {
            moves.retain(|m| !left.moves.contains(&m));
        }
        let blocks = if or_node { None } else { blocking_squares(pos) };
        let interposable = blocks.is_some_and(|(_, line)| line.is_nonempty());
        let tsume = self.futility_tests && interposable;
        // Without futility tests (the first proof) under tsume rules, an interposition that the
        // board alone shows futile (taken, then mate at once) is no defence: left out.
        let prune = !self.futility_tests && self.rules == Rules::Tsume && interposable;
        // What an earlier expansion of this node found futile (see `super::futile_memo`).
        let memo_key = pos.key() ^ self.key_salt;
        let known = if prune { self.futile_memo.get(memo_key) } else { None };
        let escapes = if tsume || (prune && known.is_none()) {
            king_escapes(pos)
        } else {
            Bitboard::default()
        };
        // Per square, whether drops there are futile by the board (0: not looked at yet).
        let mut futile_drops = [0u8; Square::NUM];
        // What this expansion finds, for the memo: futile drop squares and board moves.
        let (mut drop_squares, mut move_mask, mut move_blocks) = (Bitboard::EMPTY, 0u64, 0usize);
        // The last interposition by drop on each square, which the next one waits for; when
        // not under futility tests, on any square (one chain).
        let mut drop_chain: [Option<u16>; Square::NUM] = [None; Square::NUM];
        let mut last_drop: Option<u16> = None;
        if let (false, Some((ksq, line))) = (tsume, blocks) {
            order_drop_interpositions(moves.as_mut_slice(), ksq, line);
        }
        // A delayed move waits for its predecessor to fail for the mover.
        let fails = if or_node { Opens::Disproven } else { Opens::Proven };
        let push = |children: &mut Vec<Child>, mv: Move, edge: Edge, gate: Option<Gate>| {
            let index = children.len() as u16;
            children.push(Child::new(mv, edge, gate));
            index
        };
        // The futility tests of an interposition, each waiting for the one before to fail;
        // returns the gate the interposition waits behind (the last test's failure).
        let push_tests = |children: &mut Vec<Child>, pos: &mut Position, mv: Move| {
            let mut gate = None;
            for &capture in futility_captures(pos, mv, escapes).as_slice() {
                let on = push(children, mv, Edge::Futility { capture }, gate);
                // A later test is moot once an earlier one is proven (see `is_covered`).
                children[on as usize].tested = gate.is_some();
                gate = Some(Gate { on, opens_on: Opens::Disproven });
            }
            gate
        };
        // Promotions and everything else first, so that gates point backwards.
        for &mv in moves.iter() {
            let block = blocks.is_some_and(|(ksq, line)| is_block(mv, ksq, line));
            if block && prune {
                let futile = match (mv.is_drop(), known) {
                    (true, Some((drops, _))) => drops.contains(mv.to()),
                    (true, None) => {
                        let seen = &mut futile_drops[mv.to().index()];
                        if *seen == 0 {
                            *seen = 1 + u8::from(mated_at_once(pos, mv, escapes));
                            if *seen == 2 {
                                drop_squares |= Bitboard::from_square(mv.to());
                            }
                        }
                        *seen == 2
                    }
                    (false, Some((_, mask))) => {
                        move_blocks += 1;
                        move_blocks <= MAX_MOVES && mask >> (move_blocks - 1) & 1 == 1
                    }
                    (false, None) => {
                        move_blocks += 1;
                        let futile = mated_at_once(pos, mv, escapes);
                        if futile && move_blocks <= MAX_MOVES {
                            move_mask |= 1 << (move_blocks - 1);
                        }
                        futile
                    }
                };
                if futile {
                    continue;
                }
            }
            if block && mv.is_drop() && !tsume {
                let gate = last_drop.map(|on| Gate { on, opens_on: fails });
                last_drop = Some(push(children, mv, Edge::Move, gate));
            } else if block && mv.is_drop() {
                // Under futility tests, interpositions by drop on one square wait for each
                // other (their tests are the same: the dropped piece goes back to the hand).
                let to = mv.to().index();
                let gate = match drop_chain[to] {
                    Some(on) => Some(Gate { on, opens_on: fails }),
                    None => push_tests(children, pos, mv),
                };
                let i = push(children, mv, Edge::Move, gate);
                children[i as usize].tested = true;
                drop_chain[to] = Some(i);
            } else if tsume && block {
                let gate = push_tests(children, pos, mv);
                let i = push(children, mv, Edge::Move, gate);
                children[i as usize].tested = true;
            } else {
                push(children, mv, Edge::Move, None);
            }
        }
        // Kept unless a board-move interposition past the memo's reach was looked at.
        if prune && known.is_none() && move_blocks <= MAX_MOVES {
            self.futile_memo.put(memo_key, (drop_squares, move_mask));
        }
        for (i, c) in children.iter_mut().enumerate() {
            c.group =
                if c.is_futility_test() { i as u32 } else { self.group_key(pos, c.mv, blocks, i) };
        }
        order.clear();
        order.extend(0..children.len() as u16);
        order.sort_by_key(|&i| children[i as usize].group);
    }

    /// Plays the way from a node to its child (and [`Search::unplay`] takes it back).
    /// Returns `false`, with nothing played, when a futility test's capture is illegal.
    pub(super) fn play(&mut self, pos: &mut Position, c: &Child) -> bool {
        match c.edge {
            Edge::Move => pos.make_move(c.mv),
            Edge::Futility { capture } => {
                pos.make_move(c.mv);
                if !movegen::is_legal(pos, capture) {
                    pos.unmake_move();
                    return false;
                }
                play_test(pos, capture, self.attacker);
            }
        }
        true
    }

    pub(super) fn unplay(&mut self, pos: &mut Position, c: &Child) {
        if let Edge::Futility { .. } = c.edge {
            unplay_test(pos);
        }
        pos.unmake_move();
    }

    /// Estimates every child whose gate has opened, in order (a child estimated as solved may
    /// open the next one). `depth` is the children's remaining depth. Returns whether any was.
    pub(super) fn activate(&mut self, pos: &mut Position, frame: &mut Frame, depth: u16) -> bool {
        let ply = self.path.len();
        let snda = self.double_count == DoubleCount::Snda;
        // Ask for every bucket first, so that the lookups below overlap their memory waits.
        for i in 0..frame.children.len() {
            let c = &frame.children[i];
            if !c.estimated && c.edge == Edge::Move && is_active(&frame.children, i) {
                self.table.prefetch(pos.board_key_after(c.mv) ^ self.key_salt);
                let path_hash = RepetitionTable::extend(self.path_hash(), pos.key_after(c.mv));
                self.repetitions.prefetch(path_hash);
            }
        }
        let mut any = false;
        let profiled = self.profile.is_some() && self.phase == Phase::FirstProof;
        let blocks = if profiled { blocking_squares(pos) } else { None };
        for i in 0..frame.children.len() {
            if frame.children[i].estimated || !is_active(&frame.children, i) {
                continue;
            }
            any = true;
            let c = frame.children[i];
            self.nodes += 1;
            if let Some(p) = self.profile.as_mut().filter(|_| profiled) {
                p.child(ply, child_kind(&c, pos.side_to_move() == self.attacker, blocks));
            }
            if !self.play(pos, &c) {
                // The checker cannot take: the interposition is searched as a defence.
                let hand = self.attacker_hand(pos);
                frame.children[i].value = Value::disproven(hand, false, UNBOUNDED);
                frame.children[i].estimated = true;
                continue;
            }
            self.enter(pos);
            // A futility test stands for the node itself, one ply up.
            let child_depth = if c.is_futility_test() { depth.saturating_add(1) } else { depth };
            let value = self.estimate(pos, child_depth);
            let id = self.nodes_on_path[ply];
            if snda && !value.is_solved() && !c.is_futility_test() {
                self.detect_source(ply, id);
            }
            self.leave();
            self.unplay(pos, &c);
            let child = &mut frame.children[i];
            child.value = value;
            child.id = id;
            child.estimated = true;
        }
        any
    }

    /// The value of the position just reached, with `depth` plies left, without expanding it.
    pub(super) fn estimate(&mut self, pos: &Position, depth: u16) -> Value {
        let hand = self.attacker_hand(pos);
        if self.is_repetition() {
            return Value::disproven(hand, true, UNBOUNDED);
        }
        if let Some(d) = self.repetitions.lookup(self.path_hash(), depth) {
            return Value::disproven(hand, true, d);
        }
        let known = self.table.lookup(self.table_key(pos), hand, depth);
        // A pure-rule probe also reads the bounded disproofs of earlier pure probes.
        let known = match known {
            Some(k) if k.pn == 0 || k.dn == 0 => Some(k),
            _ if self.pure_probe => self
                .table
                .lookup(self.table_key(pos) ^ PURE_PROBE_SALT, hand, depth)
                .filter(|k| k.dn == 0)
                .or(known),
            _ => known,
        };
        if let Some(k) = known {
            return Value::from_table(k);
        }
        // A first visit with this hand starts no easier to disprove than a covered hand that was
        // already searched (a proof-number floor the other way round stalled no-mate searches).
        let dn_floor = self.table.disproof_floor(self.table_key(pos), hand);
        let or_node = pos.side_to_move() == self.attacker;
        if or_node && depth == 0 {
            return Value::disproven(hand, false, 0);
        }
        // Estimated before and not searched since (see `super::estimates`).
        let cache_key = pos.key() ^ self.key_salt;
        if let Some((pn, dn)) = self.estimates.get(cache_key) {
            return Value::unknown(pn, dn_floor.max(dn), hand);
        }
        // The search's own list: a fresh one is 2.4 KB to clear at every estimate.
        let list = &mut self.estimate_moves;
        list.clear();
        if or_node {
            generate(pos, MoveClass::Checks, NonPromotions::Include, list);
            let checks = list.len();
            if checks == 0 {
                let v = Value::disproven(saturate_held(hand), false, UNBOUNDED);
                self.store(pos, &v, 1);
                return v;
            }
            let dn = checks as PnDn;
            self.estimates.put(cache_key, (1, dn));
            Value::unknown(1, dn_floor.max(dn), hand)
        } else {
            // The board's evasions, and the squares where a drop blocks: the count needs
            // no more (drops on one square count once), and drops are most of the evasions.
            movegen::evasions_on_board(pos, list);
            let blocks = blocking_squares(pos);
            let drops =
                blocks.map_or(Bitboard::default(), |(_, line)| movegen::drop_squares(pos, line));
            if list.is_empty() && drops.is_empty() {
                let v = Value::proven(and_proof_hand(pos, self.attacker, Hand::EMPTY), 0);
                self.store(pos, &v, 1);
                return v;
            }
            let pn = evasion_count(list, blocks, drops);
            self.estimates.put(cache_key, (pn, 1));
            Value::unknown(pn, dn_floor.max(1), hand)
        }
    }
}

/// What kind of child `c` is, for [`super::profile`].
fn child_kind(c: &Child, or_node: bool, blocks: Option<(Square, Bitboard)>) -> ChildKind {
    if c.is_futility_test() {
        ChildKind::FutilityTest
    } else if or_node {
        if c.mv.is_drop() {
            ChildKind::AttackerDrop
        } else {
            ChildKind::Other
        }
    } else if blocks.is_some_and(|(ksq, line)| is_block(c.mv, ksq, line)) {
        if c.mv.is_drop() {
            ChildKind::DropBlock
        } else {
            ChildKind::MoveBlock
        }
    } else {
        ChildKind::Other
    }
}

/// The initial proof number of a defender in check with the board's `evasions` and drops on
/// the squares `drops` (the check's `blocks` as [`blocking_squares`] gives them):
/// interpositions on one square count once, as they aggregate by max once expanded.
fn evasion_count(evasions: &MoveList, blocks: Option<(Square, Bitboard)>, drops: Bitboard) -> PnDn {
    let Some((ksq, line)) = blocks else {
        return evasions.len() as PnDn;
    };
    let mut squares = drops;
    let mut others = 0;
    for &mv in evasions.iter() {
        if is_block(mv, ksq, line) {
            squares |= Bitboard::from_square(mv.to());
        } else {
            others += 1;
        }
    }
    (others + squares.count()).max(1) as PnDn
}

/// Puts the interpositions by drop of `evasions` last (the other moves keep their order),
/// nearest the king first and, on one square, cheapest piece first: the order in which they
/// wait for each other as one chain (see [`super::children`]). A stable insertion sort:
/// evasions are few, and it needs no buffer.
fn order_drop_interpositions(evasions: &mut [Move], ksq: Square, line: Bitboard) {
    let key = |mv: Move| -> (u8, u8, u8) {
        match mv.dropped() {
            Some(kind) if line.contains(mv.to()) => {
                let to = mv.to();
                let df = to.file().index().abs_diff(ksq.file().index());
                let dr = to.rank().index().abs_diff(ksq.rank().index());
                (1, df.max(dr) as u8, drop_cost(kind))
            }
            _ => (0, 0, 0),
        }
    };
    for i in 1..evasions.len() {
        let mut j = i;
        while j > 0 && key(evasions[j - 1]) > key(evasions[j]) {
            evasions.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The order in which dropped interpositions are tried: the cheaper piece first (the one the
/// attacker gains least by taking).
fn drop_cost(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        PieceKind::Gold => 4,
        PieceKind::Bishop => 5,
        _ => 6,
    }
}

/// For a side to move in check: its king and the squares where the check may be blocked
/// (none for a contact check or a double check). `None` when not in check.
pub(super) fn blocking_squares(pos: &Position) -> Option<(Square, Bitboard)> {
    let checkers = pos.checkers();
    let checker = checkers.lsb()?;
    let ksq = pos.king_square(pos.side_to_move())?;
    let line = if checkers.has_more_than_one() {
        Bitboard::default()
    } else {
        attacks::between(checker, ksq)
    };
    Some((ksq, line))
}

/// Whether an evasion blocks the check on `line` (a move by anything but the king, or a drop).
pub(super) fn is_block(mv: Move, ksq: Square, line: Bitboard) -> bool {
    let is_king_move = !mv.is_drop() && mv.from() == ksq;
    !is_king_move && line.contains(mv.to())
}

/// Whether the other variant (promotion or not) of a board move is legal here.
pub(super) fn twin_is_legal(pos: &Position, twin: Move) -> bool {
    let kind = pos.piece_at(twin.from()).kind();
    let us = pos.side_to_move();
    let to_rel = twin.to().rank().relative_to(us);
    let from_rel = twin.from().rank().relative_to(us);
    let in_zone = to_rel < 3 || from_rel < 3;
    if twin.is_promotion() {
        in_zone && kind.can_promote()
    } else {
        match kind {
            PieceKind::Pawn | PieceKind::Lance => to_rel >= 1,
            PieceKind::Knight => to_rel >= 2,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::children::is_active;
    use super::super::dfpn::Frame;
    use super::super::SearchFixture;
    use shogi::Position;

    /// A hand-made check along the first rank: Black's rook on 9a, White's king on 1a, White
    /// holding a pawn, a lance, a knight and a gold. Its interpositions by drop (4 pieces on
    /// each of 7 squares) form one chain, nearest the king first and cheapest piece first, and
    /// only the chain's head is searched at first; the king's moves are searched at once.
    #[test]
    fn drop_interpositions_wait_for_each_other_as_one_chain() {
        let pos =
            Position::from_sfen("R7k/9/9/9/9/9/9/9/4K4 w gnlp 1").unwrap_or_else(|e| panic!("{e}"));
        let mut fixture = SearchFixture::new(1);
        let mut search = fixture.search(&pos);
        let mut frame = Frame::default();
        search.expand(&mut pos.clone(), &mut frame);
        let drops: Vec<(usize, String)> = frame
            .children
            .iter()
            .enumerate()
            .filter(|(_, c)| c.mv.is_drop())
            .map(|(i, c)| (i, c.mv.to_string()))
            .collect();
        let order: Vec<&str> = drops.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(order.len(), 28, "{order:?}");
        assert_eq!(&order[..5], ["P*2a", "L*2a", "N*2a", "G*2a", "P*3a"], "{order:?}");
        assert_eq!(order.last(), Some(&"G*8a"), "{order:?}");
        let active: Vec<&str> = drops
            .iter()
            .filter(|(i, _)| is_active(&frame.children, *i))
            .map(|(_, m)| m.as_str())
            .collect();
        assert_eq!(active, ["P*2a"]);
        let others = frame.children.iter().enumerate().filter(|(_, c)| !c.mv.is_drop());
        assert!(
            others.clone().count() > 0
                && others.clone().all(|(i, _)| is_active(&frame.children, i))
        );
    }
}
