//! The defender's answers to a check in shtsume's order, its futile interpositions left out
//! (`generate_evasion`, nevasion.c), and the attacker's answers to a check that check back
//! (`evasion_check`, ncheck.c).
//!
//! shtsume builds a linked list of entries, each a chain of moves of which only the head is
//! searched at first; the rest split off once the head is proven. The list it returns reads:
//!
//! - king moves, then captures of the checker, and, while interposing squares are walked from
//!   the king outwards, moving interpositions that other answers make safe to try (each entry
//!   is pushed on the front, so the list reads them last pushed first);
//! - then one entry chaining every drop interposition, nearest the king first;
//! - then one entry chaining the moving interpositions that passed the futility rules,
//!   nearest the king first.
//!
//! Within an entry a promotion and its non-promotion may share a chain, and tokins or the
//! major pieces interposing share one. The order decides which answer the search tries
//! first, so the replica keeps it exactly; [`Sdata`] and [`super::futile`] keep the rulings.

use super::futile::defended_by_piece;
use super::sdata::{
    in_zone, interposition_squares, is_stepper, may_stay_unpromoted, sht_order, Group, Sdata,
};
use super::static_mate::is_mated;
use super::{Entry, ProvenLookup};
use shogi::{attacks, Color, Move, Piece, PieceKind, Position, Square};
use std::collections::VecDeque;

/// What `generate_evasion` returns and the two flags it leaves (`g_invalid_drops`,
/// `g_invalid_moves`).
#[derive(Clone, Debug, Default)]
pub struct Evasions {
    pub entries: Vec<Entry>,
    /// Some interposition by drop was left out as futile (`g_invalid_drops`).
    pub invalid_drops: bool,
    /// Some interposition by a move was left out as futile (`g_invalid_moves`).
    pub invalid_moves: bool,
}

/// The evasions of the side to move (in check), in the order of shtsume's list.
pub fn evasions(pos: &Position, table: &dyn ProvenLookup, ply: u16) -> Evasions {
    let mut gen = Gen::new(table, ply);
    let chains = gen.generate(&Sdata::from_position(pos));
    Evasions {
        entries: chains.into_iter().map(Entry::chain).collect(),
        invalid_drops: gen.invalid_drops,
        invalid_moves: gen.invalid_moves,
    }
}

/// What the attacker may play when it is itself in check: its evasions that give check, one
/// entry each (`evasion_check`). shtsume collects them by pushing on the front, so they come
/// in the reverse of the evasion list's order, every move of every chain considered.
pub fn evasion_checks(pos: &Position, table: &dyn ProvenLookup, ply: u16) -> Vec<Entry> {
    let mut gen = Gen::new(table, ply);
    let chains = gen.generate(&Sdata::from_position(pos));
    let mut checks = VecDeque::new();
    for m in chains.into_iter().flatten() {
        let mut after = pos.clone();
        after.make_move(m);
        if after.in_check() {
            checks.push_front(Entry::new(m));
        }
    }
    checks.into()
}

/// One run of the generator: the table it may ask, the node's ply and the two flags that
/// shtsume keeps as globals.
pub(super) struct Gen<'a> {
    pub table: &'a dyn ProvenLookup,
    pub ply: u16,
    pub invalid_drops: bool,
    pub invalid_moves: bool,
}

/// Which futility rule a moving interposition must pass: the one next to the king
/// (`valid_next`) or the one for squares further out (`valid_long`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    Next,
    Long,
}

fn normal(src: Square, dest: Square) -> Move {
    Move::normal(src, dest)
}
fn promoting(src: Square, dest: Square) -> Move {
    Move::promotion(src, dest)
}

/// Moves of `group` that may promote wherever the move touches the zone (silver, bishop,
/// rook), as against those that promote only by arriving in it (pawn, lance, knight).
fn promotes_from_zone(group: Group) -> bool {
    matches!(group, Group::Silver | Group::Bishop | Group::Rook)
}

/// The kind a group's pieces stand as for the last-rank rule.
fn unpromoted_kind(group: Group) -> PieceKind {
    match group {
        Group::Pawn => PieceKind::Pawn,
        Group::Lance => PieceKind::Lance,
        Group::Knight => PieceKind::Knight,
        _ => PieceKind::Gold,
    }
}

/// shtsume's tokin test where it chains interpositions compares with White's tokin on both
/// sides (`== GTO`), so there only White's tokins are gathered apart.
fn is_white_tokin(piece: Piece) -> bool {
    piece == Piece::new(Color::White, PieceKind::ProPawn)
}

impl<'a> Gen<'a> {
    pub(super) fn new(table: &'a dyn ProvenLookup, ply: u16) -> Gen<'a> {
        Gen { table, ply, invalid_drops: false, invalid_moves: false }
    }

    /// `generate_evasion`: the entries' chains, head of the list first.
    fn generate(&mut self, s: &Sdata) -> Vec<Vec<Move>> {
        self.invalid_drops = false;
        self.invalid_moves = false;
        let us = s.side;
        let Some(king) = s.king(us) else {
            return Vec::new();
        };
        let mut list: VecDeque<Vec<Move>> = VecDeque::new();
        for dest in sht_order(s.king_escapes()) {
            list.push_front(vec![normal(king, dest)]);
        }
        if s.checks > 1 {
            return list.into();
        }
        let checker = s.checkers[0];
        self.captures(s, &mut list, checker);
        if is_stepper(s.piece(checker)) {
            return list.into();
        }

        let mut drops: Vec<Move> = Vec::new();
        let mut moves: Vec<Move> = Vec::new();
        for (i, dest) in interposition_squares(king, checker).into_iter().enumerate() {
            let distance = i + 1;
            let others = !list.is_empty() || !moves.is_empty();
            let drop_here = match distance {
                1 => !self.invalid_drops(s, dest),
                2 => {
                    others
                        || (s.effect(us).contains(dest) && defended_by_piece(s, dest))
                        || self.cross_point_check(s, dest)
                }
                _ => others || (s.effect(us).contains(dest) && defended_by_piece(s, dest)),
            };
            if drop_here {
                drops.extend(drop_interpositions(s, dest));
            }

            if !list.is_empty() || !drops.is_empty() {
                self.unchecked_interpositions(s, &mut list, dest);
            } else {
                let reach = if distance == 1 { Reach::Next } else { Reach::Long };
                moves.extend(self.checked_interpositions(s, dest, reach));
            }
        }
        let mut list: Vec<Vec<Move>> = list.into();
        if !drops.is_empty() {
            list.push(drops);
        }
        if !moves.is_empty() {
            list.push(moves);
        }
        list
    }

    /// Captures of the checker by pieces other than the king (`move_to_dest`): each its own
    /// entry (a promotion apart from the non-promotion), the tokins chained in one.
    fn captures(&self, s: &Sdata, list: &mut VecDeque<Vec<Move>>, dest: Square) {
        let us = s.side;
        if !s.effect(us).contains(dest) {
            return;
        }
        let mut tokins: VecDeque<Move> = VecDeque::new();
        for group in Group::REACH_ORDER {
            for src in sht_order(s.reaching(us, group, dest)) {
                if s.is_pinned(src) {
                    continue;
                }
                match group {
                    Group::Pawn | Group::Lance | Group::Knight => {
                        if in_zone(us, dest) {
                            list.push_front(vec![promoting(src, dest)]);
                        }
                        if may_stay_unpromoted(us, unpromoted_kind(group), dest) {
                            list.push_front(vec![normal(src, dest)]);
                        }
                    }
                    Group::Silver | Group::Bishop | Group::Rook => {
                        if in_zone(us, src) || in_zone(us, dest) {
                            list.push_front(vec![promoting(src, dest)]);
                        }
                        list.push_front(vec![normal(src, dest)]);
                    }
                    Group::Golds if s.piece(src) == Piece::new(us, PieceKind::ProPawn) => {
                        tokins.push_front(normal(src, dest));
                    }
                    Group::Golds | Group::Horse | Group::Dragon => {
                        list.push_front(vec![normal(src, dest)]);
                    }
                }
            }
        }
        if !tokins.is_empty() {
            list.push_front(tokins.into());
        }
    }

    /// Moving interpositions on `dest` generated without futility rules, because other answers
    /// exist (`move_to_dest_w`): a minor piece's promotion and non-promotion share an entry,
    /// the rooks, dragons, bishops and horses share one, White's tokins one.
    fn unchecked_interpositions(&self, s: &Sdata, list: &mut VecDeque<Vec<Move>>, dest: Square) {
        let us = s.side;
        if !s.effect(us).contains(dest) {
            return;
        }
        const ORDER: [Group; 9] = [
            Group::Pawn,
            Group::Lance,
            Group::Knight,
            Group::Silver,
            Group::Golds,
            Group::Rook,
            Group::Dragon,
            Group::Bishop,
            Group::Horse,
        ];
        let mut tokins: VecDeque<Move> = VecDeque::new();
        let mut majors: VecDeque<Move> = VecDeque::new();
        for group in ORDER {
            for src in sht_order(s.reaching(us, group, dest)) {
                if s.is_pinned(src) {
                    continue;
                }
                match group {
                    Group::Pawn | Group::Lance | Group::Knight | Group::Silver => {
                        let mut entry = Vec::new();
                        let promotes = if promotes_from_zone(group) {
                            in_zone(us, src) || in_zone(us, dest)
                        } else {
                            in_zone(us, dest)
                        };
                        if promotes {
                            entry.push(promoting(src, dest));
                        }
                        if may_stay_unpromoted(us, unpromoted_kind(group), dest) {
                            entry.push(normal(src, dest));
                        }
                        if !entry.is_empty() {
                            list.push_front(entry);
                        }
                    }
                    Group::Golds if is_white_tokin(s.piece(src)) => {
                        tokins.push_front(normal(src, dest));
                    }
                    Group::Golds => list.push_front(vec![normal(src, dest)]),
                    Group::Rook | Group::Bishop => {
                        if in_zone(us, src) || in_zone(us, dest) {
                            majors.push_front(promoting(src, dest));
                        }
                        majors.push_front(normal(src, dest));
                    }
                    Group::Dragon | Group::Horse => majors.push_front(normal(src, dest)),
                }
            }
        }
        if !majors.is_empty() {
            list.push_front(majors.into());
        }
        if !tokins.is_empty() {
            list.push_front(tokins.into());
        }
    }

    /// Moving interpositions on `dest` that pass the futility rule (`mlist_to_dest` with
    /// `valid_next` or `valid_long`), as one chain: shtsume pushes each on the chain's front
    /// while it visits dragons, horses, rooks, bishops, golds, silvers, knights, lances and
    /// pawns, a move's non-promotion before its promotion.
    fn checked_interpositions(&mut self, s: &Sdata, dest: Square, reach: Reach) -> Vec<Move> {
        let us = s.side;
        let mut chain: VecDeque<Move> = VecDeque::new();
        if !s.effect(us).contains(dest) {
            return Vec::new();
        }
        const ORDER: [Group; 9] = [
            Group::Dragon,
            Group::Horse,
            Group::Rook,
            Group::Bishop,
            Group::Golds,
            Group::Silver,
            Group::Knight,
            Group::Lance,
            Group::Pawn,
        ];
        for group in ORDER {
            for src in sht_order(s.reaching(us, group, dest)) {
                if s.is_pinned(src) {
                    continue;
                }
                let mut candidates = Vec::with_capacity(2);
                match group {
                    Group::Dragon | Group::Horse | Group::Golds => {
                        candidates.push(normal(src, dest));
                    }
                    Group::Rook | Group::Bishop | Group::Silver => {
                        candidates.push(normal(src, dest));
                        if in_zone(us, src) || in_zone(us, dest) {
                            candidates.push(promoting(src, dest));
                        }
                    }
                    Group::Knight | Group::Lance | Group::Pawn => {
                        if may_stay_unpromoted(us, unpromoted_kind(group), dest) {
                            candidates.push(normal(src, dest));
                        }
                        if in_zone(us, dest) {
                            candidates.push(promoting(src, dest));
                        }
                    }
                }
                for mv in candidates {
                    let valid = match reach {
                        Reach::Next => self.valid_next(s, mv),
                        Reach::Long => self.valid_long(s, mv),
                    };
                    if valid {
                        chain.push_front(mv);
                    }
                }
            }
        }
        chain.into()
    }
}

/// The drops on `dest` in shtsume's chain order (`evasion_drop`): it pushes rook, bishop, gold,
/// silver, knight, lance and pawn on the front, so the chain reads pawn first. A pawn that
/// would give check is tested for a mate by pawn drop, which is illegal.
fn drop_interpositions(s: &Sdata, dest: Square) -> Vec<Move> {
    use PieceKind::*;
    let us = s.side;
    let mut chain: VecDeque<Move> = VecDeque::new();
    for kind in [Rook, Bishop, Gold, Silver] {
        if s.hand(us, kind) > 0 {
            chain.push_front(Move::drop(kind, dest));
        }
    }
    for kind in [Knight, Lance] {
        if s.hand(us, kind) > 0 && may_stay_unpromoted(us, kind, dest) {
            chain.push_front(Move::drop(kind, dest));
        }
    }
    if s.hand(us, Pawn) > 0 && s.pawn_drop_allowed(us, dest) {
        let checks_king = s.king(!us).is_some_and(|eou| attacks::pawn(us, dest).contains(eou));
        if !checks_king || !is_mated(&s.after_drop(Pawn, dest)) {
            chain.push_front(Move::drop(Pawn, dest));
        }
    }
    chain.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::movegen::{is_legal, legal_moves};
    use shogi::MoveList;

    struct Empty;
    impl ProvenLookup for Empty {
        fn is_proven(&self, _pos: &Position, _ply: u16) -> bool {
            false
        }
    }

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap()
    }

    fn usi(e: &Evasions) -> Vec<Vec<String>> {
        e.entries.iter().map(|en| en.moves.iter().map(|m| m.to_string()).collect()).collect()
    }

    fn legal(p: &Position) -> Vec<Move> {
        let mut list = MoveList::new();
        legal_moves(p, &mut list);
        list.iter().copied().collect()
    }

    #[test]
    fn every_move_is_a_legal_evasion_and_appears_once() {
        let sfens = [
            "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL1+R2+r1b/1+p1p5/1S7/2N6 w SP2gn2l11p 1",
            "8k/9/9/9/9/9/9/9/8R w b4g4s4n4l18p 1",
            "R7k/9/9/9/9/9/9/9/9 w gp 1",
            "4B1n2/5n3/4KP3/3bS4/2+sR+PR3/9/9/2G3s2/9 b 2GSNL10Plp 1",
            "k8/9/3B5/2+l1n4/2s1K1N2/3+b+P1PL1/2n+PR4/9/2L6 b RGSN8P 1",
        ];
        for sfen in sfens {
            let p = pos(sfen);
            assert!(p.in_check(), "{sfen}");
            let e = evasions(&p, &Empty, 1);
            let moves: Vec<Move> = e.entries.iter().flat_map(|en| en.moves.clone()).collect();
            assert!(!moves.is_empty(), "{sfen}");
            for m in &moves {
                assert!(is_legal(&p, *m), "{sfen}: {m} is not legal");
                assert_eq!(moves.iter().filter(|x| *x == m).count(), 1, "{sfen}: {m} twice");
            }
            // With the king free to move no interposition is ruled futile here: the list is
            // every legal answer.
            if sfen.starts_with("8k") || sfen.starts_with("R7k") {
                assert_eq!(moves.len(), legal(&p).len(), "{sfen}: {:?}", usi(&e));
            }
        }
    }

    #[test]
    fn double_check_gives_king_moves_only() {
        // The lance on 5i and the bishop on 1e both check the king on 5a: no capture, no
        // interposition, though White could drop a silver on 5b.
        let p = pos("4k4/9/9/9/8B/9/9/9/4L4 w G2s 1");
        let e = evasions(&p, &Empty, 1);
        assert_eq!(usi(&e), [["5a6b"], ["5a6a"], ["5a4a"]]);
    }

    #[test]
    fn drops_share_one_chain_nearest_first() {
        // The rook on 9a checks the king on 1a along the rank. The king's two moves come
        // first (the later square in shtsume's order first), then one entry chains every
        // drop from 2a outwards, the pawn before the gold on each square.
        let p = pos("R7k/9/9/9/9/9/9/9/9 w gp 1");
        let e = evasions(&p, &Empty, 1);
        let c = usi(&e);
        assert_eq!(c.len(), 3, "{c:?}");
        assert_eq!(c[0], ["1a2b"]);
        assert_eq!(c[1], ["1a1b"]);
        let expected: Vec<String> = "2a 3a 4a 5a 6a 7a 8a"
            .split(' ')
            .flat_map(|sq| [format!("P*{sq}"), format!("G*{sq}")])
            .collect();
        assert_eq!(c[2], expected);
        assert!(!e.invalid_drops && !e.invalid_moves);
    }

    #[test]
    fn distant_drops_without_defence_are_left_out() {
        // The king on 5a cannot move and nothing can take the rook on 5i. A gold dropped next
        // to the king can take the rook if it comes up; further out nothing defends the gold,
        // the rook takes it and mates, so only G*5b is kept (legal though G*5c..G*5h are).
        let p = pos("3pkp3/3l1l3/9/9/9/9/9/9/4R4 w g 1");
        let e = evasions(&p, &Empty, 1);
        assert_eq!(usi(&e), [["G*5b"]]);
        assert_eq!(legal(&p).len(), 7);
    }

    #[test]
    fn futile_moving_interposition_is_left_out_and_flagged() {
        // The silver on 4c may interpose on 5b, legal; but lifted off, the rook coming to
        // 5b (guarded by the knight on 4d) mates, and the attacker holds nothing: shtsume
        // rules the interposition futile, leaves the list empty and sets `invalid_moves`.
        let p = pos("3pkp3/3l1l3/5s3/5N3/9/9/9/9/4R4 w - 1");
        assert!(legal(&p).iter().any(|m| m.to_string() == "4c5b"));
        let e = evasions(&p, &Empty, 1);
        assert!(e.entries.is_empty(), "{:?}", usi(&e));
        assert!(e.invalid_moves);
        assert!(!e.invalid_drops);
    }

    #[test]
    fn checks_back_come_reversed_one_move_each() {
        // Black's king on 5i is checked by the lance on 5a. Of its answers, B*5f and R*5b
        // check the White king on 1b: one entry each, the later in the evasion list first.
        let p = pos("4l4/8k/9/9/9/9/9/9/4K4 b RB 1");
        let c = evasion_checks(&p, &Empty, 1);
        let moves: Vec<String> = c.iter().map(|en| en.head().to_string()).collect();
        assert_eq!(moves, ["R*5b", "B*5f"]);
        assert!(c.iter().all(|en| en.moves.len() == 1));
    }
}
