//! Property tests of the rules core on positions reached by random legal walks.
//!
//! Walks start from random scattered positions (kings, up to 30 pieces, random hands) and from
//! fixed start positions: the start position, a handful of SFENs embedded below (tsume problems
//! without an attacker king, positions with big hands, many promoted pieces), and, when the
//! shared problem folder is present, every position of `midgame_positions.sfen` (local only,
//! read at run time, never copied here).
//!
//! Besides comparing the library's generators with each other, every visited position is
//! compared with a deliberately naive reference written here from the rules alone: pieces step
//! and slide square by square over `piece_at`, legality is "make it on a copy and see whether the
//! own king is attacked", pawn-drop mate is "the opponent has no legal reply". It shares no code
//! with the library beyond the plain data types (squares, pieces, moves).
//!
//! Embedded problem sources (see `shared/problems/MANIFEST.md`):
//! - 将棋図巧 (伊藤看寿, 1755), public domain; records CC0-1.0 from tokoroten/edo_era_tsume_shogi.
//! - komori-n/mate-engine-test tests/tests.yaml (MIT licence, Copyright (c) komori-n).
//! - nyashiki/nshogi res/test/mate-1-ply.txt (MIT licence, Copyright (c) nyashiki).
//! - YaneuraOu 詰将棋500万問 (2020) mate5, as vendored by nyashiki/nshogi (a small sample, with
//!   attribution; terms of the original source apply).
//! - ミクロコスモス (橋本孝治), SFEN as in KomoringHeights' node benchmark (with attribution).

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestCaseError;
use shogi::movegen::{self, generate, gives_check, is_checkmate, legal_moves};
use shogi::{
    Bitboard, Color, Move, MoveClass, MoveList, NonPromotions, Piece, PieceKind, Position, Setup,
    Square,
};

// ----- start positions ---------------------------------------------------------------------

const MIDGAME_FILE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/problems/midgame_positions.sfen");

/// Positions embedded in the test: used always, and alone when the shared folder is absent.
const EMBEDDED: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    // 将棋図巧 (no attacker king).
    "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1",
    "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1",
    "2p1g+P3/1P1p1pp2/l1P1g1S+r1/P1B1P1+p2/1p3l3/1kN6/9/2+B6/1r7 b GS2N2Pg2sn2l5p 1",
    "n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1",
    "1nkg5/2s6/3rp4/1B7/r8/1PN6/9/9/9 b BG3SN2gn4l16p 1",
    "5+rl1s/7k1/8n/6p1+B/9/9/9/9/9 b R2NPb4g3sn3l16p 1",
    "2lS5/1kgp5/pB3+r3/3+b+P4/PlpgS4/9/9/9/9 b R2SP2g4n2l12p 1",
    "4ng2+r/5+r1+L1/4P1k1G/4l2P1/3spS1p+p/9/3N1L+p2/3+b5/1+B7 b 2g2s2nl12p 1",
    // komori-n/mate-engine-test (MIT): big hands, no attacker king, White attacking.
    "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
    "9/9/9/9/9/9/4p4/9/4K4 w 2R2BG4S4N4L3g17p 1",
    "6R+P1/8k/7sp/9/9/9/9/9/9 b r2b4g3s4n4l16p 1",
    "7gk/9/6P1+P/9/9/9/9/9/9 b GSP2r2b2g3s4n4l15p 1",
    // nyashiki/nshogi mate-1-ply (MIT).
    "Kbg4nl/3sk1gs1/2n4pp/1G1p5/1pP4P1/4S4/P2PPG2P/1L7/LNS4NL w 7P2Rpb 1",
    "l2gs3l/1k4+N+P1/1p1s5/p1r3p1p/3Kp4/P3P1P2/GPN6/Lg+b6/1N1+p4L w 6PNSGBRps 1",
    "8l/G1+L6/1+R1g2n1p/ppsp2p2/2k2p2P/PP1P2P2/2S1RP3/4P4/LKN1B2NL b P4pn2s2gb 1",
    "ln3+P1nl/1b3G1s1/p4+B1pp/6p2/2P5P/1P3P1k1/P5P2/2G2+pSK1/LN3G1NL b 4PG2p2s2r 1",
    // YaneuraOu mate5 (sample).
    "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72",
    "ln1k1g3/5s3/p1p1pp1pp/3p5/5+Bp2/2P2PPP1/P3S+n2P/2G3+l2/+p3K3L b RBG2SNL2Prgnp 73",
    "l4k3/3S2g2/pPng1pspn/2p1p4/P4P1P1/1p1plS3/2P6/2K6/LN5N1 w R2BGSLPrg5p 104",
    // ミクロコスモス: promoted pieces everywhere, no attacker king.
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",
    // Kings and full hands: drop-heavy positions.
    "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L9P9p 1",
    "4k4/9/9/9/9/9/9/9/4K4 w RB2G2S2N2L9Prb2g2s2n2l9p 1",
    "k8/9/9/9/9/9/9/9/8K b RB2G2S2N2L9Prb2g2s2n2l9p 1",
];

fn midgame_positions() -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(MIDGAME_FILE) else {
        return Vec::new();
    };
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

fn starts() -> &'static (Vec<String>, Vec<String>) {
    static STARTS: std::sync::OnceLock<(Vec<String>, Vec<String>)> = std::sync::OnceLock::new();
    STARTS.get_or_init(|| {
        let embedded: Vec<String> = EMBEDDED.iter().map(|s| s.to_string()).collect();
        (embedded, midgame_positions())
    })
}

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

// ----- a naive reference, from the rules alone ---------------------------------------------

use PieceKind::*;

const ORTH: [(i32, i32); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];
const DIAG: [(i32, i32); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];
const KING8: [(i32, i32); 8] =
    [(0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD6: [(i32, i32); 6] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const SILVER5: [(i32, i32); 5] = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];

/// Offsets as (file, rank); rank -1 is forward for Black.
type Offsets = &'static [(i32, i32)];

/// (steps, slides) of a piece of Black.
fn movement(kind: PieceKind) -> (Offsets, Offsets) {
    match kind {
        Pawn => (&[(0, -1)], &[]),
        Lance => (&[], &[(0, -1)]),
        Knight => (&[(-1, -2), (1, -2)], &[]),
        Silver => (&SILVER5, &[]),
        Gold | ProPawn | ProLance | ProKnight | ProSilver => (&GOLD6, &[]),
        King => (&KING8, &[]),
        Bishop => (&[], &DIAG),
        Rook => (&[], &ORTH),
        Horse => (&ORTH, &DIAG),
        Dragon => (&DIAG, &ORTH),
    }
}

fn orient(color: Color, (df, dr): (i32, i32)) -> (i32, i32) {
    match color {
        Color::Black => (df, dr),
        Color::White => (-df, -dr),
    }
}

fn fr(sq: Square) -> (i32, i32) {
    (sq.file().index() as i32, sq.rank().index() as i32)
}

/// Rank counted from `color`'s far side (0 = the last rank it moves towards).
fn rel_rank(color: Color, sq: Square) -> i32 {
    let r = fr(sq).1;
    match color {
        Color::Black => r,
        Color::White => 8 - r,
    }
}

fn kind_promoted(kind: PieceKind) -> PieceKind {
    match kind {
        Pawn => ProPawn,
        Lance => ProLance,
        Knight => ProKnight,
        Silver => ProSilver,
        Bishop => Horse,
        Rook => Dragon,
        k => panic!("{k:?} does not promote"),
    }
}

fn kind_unpromoted(kind: PieceKind) -> PieceKind {
    match kind {
        ProPawn => Pawn,
        ProLance => Lance,
        ProKnight => Knight,
        ProSilver => Silver,
        Horse => Bishop,
        Dragon => Rook,
        k => k,
    }
}

const HAND_KINDS: [PieceKind; 7] = [Pawn, Lance, Knight, Silver, Gold, Bishop, Rook];

#[derive(Clone)]
struct Naive {
    board: [Option<(Color, PieceKind)>; 81],
    hands: [[u8; 8]; 2],
    side: Color,
}

impl Naive {
    fn of(p: &Position) -> Naive {
        let mut board = [None; 81];
        for sq in Square::all() {
            board[sq.index()] = p.piece_at(sq).get();
        }
        let mut hands = [[0u8; 8]; 2];
        for c in Color::ALL {
            for k in HAND_KINDS {
                hands[c.index()][k.index()] = p.hand(c).count(k) as u8;
            }
        }
        Naive { board, hands, side: p.side_to_move() }
    }

    fn at(&self, sq: Square) -> Option<(Color, PieceKind)> {
        self.board[sq.index()]
    }

    /// Every square the piece on `from` attacks (the first occupied square of a slide included).
    fn targets(&self, from: Square) -> Vec<Square> {
        let mut out = Vec::new();
        let Some((color, kind)) = self.at(from) else {
            return out;
        };
        let (f, r) = fr(from);
        let (steps, slides) = movement(kind);
        for &d in steps {
            let (df, dr) = orient(color, d);
            if let Some(s) = Square::from_coords(f + df, r + dr) {
                out.push(s);
            }
        }
        for &d in slides {
            let (df, dr) = orient(color, d);
            let mut k = 1;
            while let Some(s) = Square::from_coords(f + k * df, r + k * dr) {
                out.push(s);
                if self.at(s).is_some() {
                    break;
                }
                k += 1;
            }
        }
        out
    }

    fn king(&self, color: Color) -> Option<Square> {
        Square::all().find(|&s| self.at(s) == Some((color, King)))
    }

    /// The squares of `by`'s pieces attacking `target`.
    fn attackers(&self, by: Color, target: Square) -> Vec<Square> {
        Square::all()
            .filter(|&s| matches!(self.at(s), Some((c, _)) if c == by))
            .filter(|&s| self.targets(s).contains(&target))
            .collect()
    }

    fn in_check(&self, color: Color) -> bool {
        self.king(color).is_some_and(|k| !self.attackers(!color, k).is_empty())
    }

    /// Own pieces that are the only piece between `color`'s king and an enemy slider aimed at it.
    fn pinned(&self, color: Color) -> Vec<Square> {
        let Some(k) = self.king(color) else {
            return Vec::new();
        };
        let (kf, kr) = fr(k);
        let mut out = Vec::new();
        for (df, dr) in KING8 {
            let mut first: Option<Square> = None;
            let mut i = 1;
            while let Some(s) = Square::from_coords(kf + i * df, kr + i * dr) {
                i += 1;
                let Some((c, kind)) = self.at(s) else {
                    continue;
                };
                match first {
                    None => {
                        if c != color {
                            break;
                        }
                        first = Some(s);
                    }
                    Some(f) => {
                        // Does this enemy piece slide towards the king along this line?
                        let slides = movement(kind).1;
                        if c != color && slides.iter().any(|&d| orient(c, d) == (-df, -dr)) {
                            out.push(f);
                        }
                        break;
                    }
                }
            }
        }
        out.sort();
        out
    }

    fn apply(&self, m: Move) -> Naive {
        let mut n = self.clone();
        let us = self.side;
        let to = m.to();
        match m.dropped() {
            Some(kind) => {
                assert!(n.hands[us.index()][kind.index()] > 0);
                n.hands[us.index()][kind.index()] -= 1;
                n.board[to.index()] = Some((us, kind));
            }
            None => {
                let from = m.from();
                let (c, kind) = self.at(from).expect("move from an empty square");
                assert_eq!(c, us);
                if let Some((_, captured)) = self.at(to) {
                    n.hands[us.index()][kind_unpromoted(captured).index()] += 1;
                }
                let kind = if m.is_promotion() { kind_promoted(kind) } else { kind };
                n.board[from.index()] = None;
                n.board[to.index()] = Some((us, kind));
            }
        }
        n.side = !us;
        n
    }

    /// All legal moves; with `pawn_mate_rule` false, pawn-drop mate is not excluded (enough to
    /// ask whether the side has any reply at all: a drop never answers a pawn's check).
    fn legal(&self, pawn_mate_rule: bool) -> Vec<Move> {
        let us = self.side;
        let mut cands = Vec::new();
        for from in Square::all() {
            let Some((c, kind)) = self.at(from) else {
                continue;
            };
            if c != us {
                continue;
            }
            for to in self.targets(from) {
                if matches!(self.at(to), Some((c2, _)) if c2 == us) {
                    continue;
                }
                let promotable = matches!(kind, Pawn | Lance | Knight | Silver | Bishop | Rook);
                let can = promotable && (rel_rank(us, from) < 3 || rel_rank(us, to) < 3);
                let must = match kind {
                    Pawn | Lance => rel_rank(us, to) == 0,
                    Knight => rel_rank(us, to) <= 1,
                    _ => false,
                };
                if can {
                    cands.push(Move::promotion(from, to));
                }
                if !must {
                    cands.push(Move::normal(from, to));
                }
            }
        }
        for kind in HAND_KINDS {
            if self.hands[us.index()][kind.index()] == 0 {
                continue;
            }
            for to in Square::all() {
                if self.at(to).is_some() {
                    continue;
                }
                let rel = rel_rank(us, to);
                let dead = match kind {
                    Pawn | Lance => rel == 0,
                    Knight => rel <= 1,
                    _ => false,
                };
                if dead {
                    continue;
                }
                if kind == Pawn {
                    let file = to.file();
                    let nifu =
                        Square::all().any(|s| s.file() == file && self.at(s) == Some((us, Pawn)));
                    if nifu {
                        continue;
                    }
                }
                cands.push(Move::drop(kind, to));
            }
        }
        let mut out = Vec::new();
        for m in cands {
            let after = self.apply(m);
            if after.in_check(us) {
                continue;
            }
            if pawn_mate_rule
                && m.dropped() == Some(Pawn)
                && after.in_check(!us)
                && after.legal(false).is_empty()
            {
                continue;
            }
            out.push(m);
        }
        out
    }
}

// ----- helpers -----------------------------------------------------------------------------

fn generated(p: &Position, class: MoveClass, np: NonPromotions) -> Vec<Move> {
    let mut l = MoveList::new();
    generate(p, class, np, &mut l);
    l.to_vec()
}

fn legal(p: &Position) -> Vec<Move> {
    let mut l = MoveList::new();
    legal_moves(p, &mut l);
    l.to_vec()
}

fn sorted(v: &[Move]) -> Vec<Move> {
    let mut v = v.to_vec();
    v.sort();
    v
}

fn bb(squares: &[Square]) -> Bitboard {
    squares.iter().fold(Bitboard::EMPTY, |b, &s| b | Bitboard::from_square(s))
}

fn squares_of(b: Bitboard) -> Vec<Square> {
    b.collect()
}

fn no_duplicates(v: &[Move], what: &str, sfen: &str) -> Result<(), TestCaseError> {
    let s = sorted(v);
    for w in s.windows(2) {
        prop_assert!(w[0] != w[1], "{what}: duplicate {} in {sfen}", w[0]);
    }
    Ok(())
}

/// A non-promotion that the rules allow but that is never better than promoting: pawn, bishop
/// or rook staying unpromoted where promoting was possible, a lance stopping on the
/// second-to-last rank.
fn useless_nonpromotion(p: &Position, m: Move, legal: &[Move]) -> bool {
    if m.is_drop() || m.is_promotion() {
        return false;
    }
    let Some((color, kind)) = p.piece_at(m.from()).get() else {
        return false;
    };
    match kind {
        Pawn | Bishop | Rook => legal.contains(&Move::promotion(m.from(), m.to())),
        Lance => rel_rank(color, m.to()) == 1,
        _ => false,
    }
}

/// The position seen from the other side: board rotated 180°, colours and hands swapped.
fn flipped(p: &Position) -> Position {
    let s = p.to_setup();
    let mut f = Setup::empty();
    for sq in Square::all() {
        if let Some((c, k)) = s.board[sq.index()].get() {
            f.board[80 - sq.index()] = Piece::new(!c, k);
        }
    }
    f.hands = [s.hands[1], s.hands[0]];
    f.side = !s.side;
    f.ply = s.ply;
    f.validate().unwrap_or_else(|e| panic!("flip of {}: {e}", p.to_sfen()))
}

fn flip_move(m: Move) -> Move {
    let rot = |s: Square| Square::from_index(80 - s.index() as u8).expect("square");
    match m.dropped() {
        Some(k) => Move::drop(k, rot(m.to())),
        None => Move::with_promotion(rot(m.from()), rot(m.to()), m.is_promotion()),
    }
}

// ----- the per-position checks -------------------------------------------------------------

/// Everything checked at one visited position. Leaves `p` as it found it.
fn check_position(p: &mut Position) -> Result<(), TestCaseError> {
    let sfen = p.to_sfen();
    let us = p.side_to_move();
    let naive = Naive::of(p);
    prop_assert!(p.is_consistent(), "inconsistent: {sfen}");
    prop_assert_eq!(p.key(), p.board_key() ^ p.hand_key());

    // Checkers and pins against the reference.
    let n_checkers = naive.king(us).map_or(Vec::new(), |k| naive.attackers(!us, k));
    prop_assert_eq!(p.checkers(), bb(&n_checkers), "checkers of {}", sfen);
    prop_assert_eq!(p.in_check(), !n_checkers.is_empty());
    prop_assert_eq!(squares_of(p.pinned()), naive.pinned(us), "pinned pieces of {}", sfen);
    prop_assert_eq!(p.king_square(us), naive.king(us));
    prop_assert_eq!(p.king_square(!us), naive.king(!us));

    // (7) SFEN round trip.
    let back = pos(&sfen);
    prop_assert!(back == *p, "from_sfen(to_sfen) differs: {}", sfen);
    prop_assert_eq!(back.to_sfen(), sfen.clone());
    prop_assert_eq!(back.board_key(), p.board_key());
    prop_assert_eq!(back.hand_key(), p.hand_key());
    prop_assert_eq!(back.checkers(), p.checkers());
    prop_assert_eq!(back.pinned(), p.pinned());

    // Colour symmetry: the flipped position has the flipped moves.
    let flip = flipped(p);
    let flip_legal: Vec<Move> = sorted(&legal(&flip));
    let legal_list = legal(p);
    let mut mapped: Vec<Move> = legal_list.iter().map(|&m| flip_move(m)).collect();
    mapped.sort();
    prop_assert_eq!(&flip_legal, &mapped, "flipped moves of {}", sfen);
    prop_assert_eq!(flip.in_check(), p.in_check());

    // The legal moves against the reference.
    let legal_set = sorted(&legal_list);
    no_duplicates(&legal_list, "legal", &sfen)?;
    let reference = sorted(&naive.legal(true));
    if legal_set != reference {
        let extra: Vec<_> = legal_set.iter().filter(|m| !reference.contains(m)).collect();
        let missing: Vec<_> = reference.iter().filter(|m| !legal_set.contains(m)).collect();
        return Err(TestCaseError::fail(format!(
            "legal moves of {sfen}: not legal but generated {extra:?}, legal but missing {missing:?}"
        )));
    }

    // In check: the board's evasions and the drop squares on the check's line are the legal
    // moves split in two (the solver counts interpositions by square from them).
    if p.in_check() {
        let mut board = MoveList::new();
        movegen::evasions_on_board(p, &mut board);
        let board_set = sorted(board.as_slice());
        let legal_board: Vec<Move> =
            legal_set.iter().copied().filter(|m| m.dropped().is_none()).collect();
        prop_assert_eq!(&board_set, &legal_board, "evasions on the board of {}", sfen);
        let checkers = p.checkers();
        let line = match (checkers.has_more_than_one(), checkers.lsb(), p.king_square(us)) {
            (false, Some(c), Some(k)) => shogi::attacks::between(c, k),
            _ => Bitboard::EMPTY,
        };
        let mut drop_to = Bitboard::EMPTY;
        for m in legal_set.iter().filter(|m| m.dropped().is_some()) {
            drop_to |= Bitboard::from_square(m.to());
        }
        prop_assert_eq!(movegen::drop_squares(p, line), drop_to, "drop squares of {}", sfen);
    }

    // (1, 2, 3, 6, 8) every legal move made and unmade.
    let board_key = p.board_key();
    let hand_key = p.hand_key();
    let checkers = p.checkers();
    let pinned = p.pinned();
    let ply = p.ply();
    let hist = p.history_len();
    let before = p.clone();
    let mut checking = Vec::new();
    for &m in &legal_list {
        let gc = gives_check(&before, m);
        p.make_move(m);
        let after_sfen = || format!("{sfen} + {m}");
        prop_assert!(p.is_consistent(), "inconsistent after {}", after_sfen());
        prop_assert_eq!(p.board_key(), p.compute_board_key(), "{}", after_sfen());
        prop_assert_eq!(p.hand_key(), p.compute_hand_key(), "{}", after_sfen());
        prop_assert_eq!(p.side_to_move(), !us);
        prop_assert_eq!(p.ply(), ply + 1);
        prop_assert_eq!(p.history_len(), hist + 1);
        prop_assert_eq!(p.last_move(), m);
        if let Some(k) = p.king_square(us) {
            prop_assert!(
                !p.is_attacked(!us, k, p.occupied()),
                "own king left attacked: {}",
                after_sfen()
            );
            prop_assert!(p.attackers_to(!us, k, p.occupied()).is_empty());
        }
        let n_after = naive.apply(m);
        prop_assert_eq!(p.in_check(), n_after.in_check(!us), "{}", after_sfen());
        prop_assert_eq!(gc, p.in_check(), "gives_check wrong for {}", after_sfen());
        if p.in_check() {
            checking.push(m);
        }
        if m.dropped() == Some(Pawn) {
            prop_assert!(!is_checkmate(p), "pawn-drop mate generated: {}", after_sfen());
        }
        p.unmake_move();
        prop_assert_eq!(p.to_sfen(), sfen.clone(), "unmake of {}", m);
        prop_assert!(*p == before);
        prop_assert_eq!(p.board_key(), board_key, "unmake of {}", m);
        prop_assert_eq!(p.hand_key(), hand_key, "unmake of {}", m);
        prop_assert_eq!(p.checkers(), checkers, "unmake of {}", m);
        prop_assert_eq!(p.pinned(), pinned, "unmake of {}", m);
        prop_assert_eq!(p.ply(), ply);
        prop_assert_eq!(p.history_len(), hist);
        prop_assert!(p.is_consistent());
    }

    // Null move, when allowed.
    if !p.in_check() {
        p.make_null_move();
        prop_assert!(p.is_consistent(), "after null move: {}", sfen);
        prop_assert_eq!(p.side_to_move(), !us);
        p.unmake_null_move();
        prop_assert_eq!(p.to_sfen(), sfen.clone());
        prop_assert_eq!(p.board_key(), board_key);
        prop_assert_eq!(p.checkers(), checkers);
        prop_assert_eq!(p.pinned(), pinned);
    }

    // The board key and the whole key after each move, computed without making it.
    for &m in &legal_set {
        let predicted = p.board_key_after(m);
        let whole = p.key_after(m);
        p.make_move(m);
        prop_assert_eq!(predicted, p.board_key(), "board_key_after {} in {}", m, sfen);
        prop_assert_eq!(whole, p.key(), "key_after {} in {}", m, sfen);
        p.unmake_move();
    }

    // Handing a piece to the other side, as the mate solver's futility test does.
    if let Some(kind) = PieceKind::HAND.into_iter().find(|&k| p.hand(us).count(k) > 0) {
        let hand_key = p.hand_key();
        let theirs = p.hand(!us).count(kind);
        p.make_hand_transfer(kind, us);
        prop_assert!(p.is_consistent(), "after handing over {:?}: {}", kind, sfen);
        prop_assert_eq!(p.hand(!us).count(kind), theirs + 1);
        prop_assert_eq!(p.hand_key(), p.compute_hand_key());
        prop_assert_eq!(p.side_to_move(), us);
        p.unmake_hand_transfer();
        prop_assert_eq!(p.to_sfen(), sfen.clone());
        prop_assert_eq!(p.hand_key(), hand_key);
        prop_assert_eq!(p.board_key(), board_key);
    }

    // Every class, with and without the useless non-promotions.
    let classes = [
        MoveClass::Legal,
        MoveClass::CapturesPromotions,
        MoveClass::Quiets,
        MoveClass::Drops,
        MoveClass::Checks,
        MoveClass::Evasions,
    ];
    let mut include = Vec::new();
    for class in classes {
        let inc = generated(p, class, NonPromotions::Include);
        let skip = generated(p, class, NonPromotions::Skip);
        no_duplicates(&inc, &format!("{class:?}/Include"), &sfen)?;
        no_duplicates(&skip, &format!("{class:?}/Skip"), &sfen)?;
        for &m in &inc {
            prop_assert!(legal_set.contains(&m), "{:?} gave illegal {} in {}", class, m, sfen);
        }
        let expect_skip: Vec<Move> =
            inc.iter().copied().filter(|&m| !useless_nonpromotion(p, m, &legal_list)).collect();
        prop_assert_eq!(sorted(&skip), sorted(&expect_skip), "{:?} with Skip in {}", class, sfen);
        // generate appends: whatever was in the list stays in front.
        let mut l = MoveList::new();
        let sentinel = [Move::NULL, Move::from_raw(0x7fff), Move::NULL];
        for s in sentinel {
            l.push(s);
        }
        generate(p, class, NonPromotions::Include, &mut l);
        prop_assert_eq!(&l[..3], &sentinel[..], "{:?} clobbered the list in {}", class, sfen);
        prop_assert_eq!(&l[3..], &inc[..], "{:?} appended differently in {}", class, sfen);
        include.push(inc);
    }
    let [legal_inc, capprom, quiets, drops, checks, evasions] = &include[..] else {
        unreachable!()
    };
    prop_assert_eq!(&sorted(legal_inc), &legal_set);

    // (3) Checks: exactly the moves after which the opponent is in check.
    prop_assert_eq!(sorted(checks), sorted(&checking), "checks of {}", sfen);

    // (4) Evasions.
    if p.in_check() {
        prop_assert_eq!(&sorted(evasions), &legal_set, "evasions of {}", sfen);
        for &m in evasions {
            p.make_move(m);
            let k = p.king_square(us).expect("in check without a king");
            prop_assert!(!p.is_attacked(!us, k, p.occupied()), "{} + {}", sfen, m);
            p.unmake_move();
        }
    } else {
        prop_assert!(evasions.is_empty(), "evasions outside check in {}", sfen);
    }

    // (5) The three classes partition the legal moves (in check too: each is its evasions).
    for &m in capprom {
        prop_assert!(
            !m.is_drop() && (m.is_promotion() || !p.piece_at(m.to()).is_empty()),
            "{} is not a capture or promotion ({})",
            m,
            sfen
        );
    }
    for &m in quiets {
        prop_assert!(
            !m.is_drop() && !m.is_promotion() && p.piece_at(m.to()).is_empty(),
            "{} is not quiet ({})",
            m,
            sfen
        );
    }
    for &m in drops {
        prop_assert!(m.is_drop(), "{} is not a drop ({})", m, sfen);
    }
    let mut union: Vec<Move> = capprom.iter().chain(quiets).chain(drops).copied().collect();
    no_duplicates(&union, "classes overlap", &sfen)?;
    union.sort();
    prop_assert_eq!(&union, &legal_set, "classes do not partition the moves of {}", sfen);

    // is_legal agrees, and rejects the null move.
    for &m in legal_list.iter().take(8) {
        prop_assert!(movegen::is_legal(p, m));
    }
    prop_assert!(!movegen::is_legal(p, Move::NULL));

    // Checkmate means no legal move while in check.
    prop_assert_eq!(is_checkmate(p), p.in_check() && legal_list.is_empty());
    prop_assert_eq!(p.to_sfen(), sfen);
    Ok(())
}

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn walk(start: &str, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    walk_from(pos(start), seed, plies)
}

fn walk_from(mut p: Position, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let root_sfen = p.to_sfen();
    let (root_board, root_hand) = (p.board_key(), p.hand_key());
    let mut rng = SplitMix(seed);
    let mut made = 0;
    for _ in 0..plies {
        check_position(&mut p)?;
        let moves = legal(&p);
        if moves.is_empty() {
            break;
        }
        // Prefer captures and checks now and then, so walks reach sharper positions.
        let r = rng.next();
        let m = if r.is_multiple_of(4) {
            let sharp: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| gives_check(&p, m) || (!m.is_drop() && !p.piece_at(m.to()).is_empty()))
                .collect();
            if sharp.is_empty() {
                moves[(r >> 8) as usize % moves.len()]
            } else {
                sharp[(r >> 8) as usize % sharp.len()]
            }
        } else {
            moves[(r >> 8) as usize % moves.len()]
        };
        p.make_move(m);
        made += 1;
    }
    check_position(&mut p)?;
    // Unwinding the whole walk gets back to the start.
    for _ in 0..made {
        p.unmake_move();
    }
    prop_assert_eq!(p.to_sfen(), root_sfen);
    prop_assert_eq!(p.board_key(), root_board);
    prop_assert_eq!(p.hand_key(), root_hand);
    prop_assert_eq!(p.history_len(), 0);
    Ok(())
}

/// A fixed number of cases unless `PROPTEST_CASES` asks for more (or fewer); no regression
/// files are written (the failing start index and seed are printed instead).
fn config(cases: u32) -> ProptestConfig {
    let mut c = ProptestConfig { failure_persistence: None, ..ProptestConfig::default() };
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = cases;
    }
    c
}

/// A random legal position: kings (usually), up to 30 pieces scattered over the board, promoted
/// or not, and random hands. Far stranger than game positions: double checks, pins by lances,
/// kings on the edge against pawns in hand.
fn scattered(seed: u64) -> Option<Position> {
    let mut rng = SplitMix(seed);
    let mut below = |n: u64| (rng.next() % n) as usize;
    let mut setup = Setup::empty();
    let mut pool: Vec<PieceKind> = Vec::new();
    for (kind, n) in
        [(Pawn, 18), (Lance, 4), (Knight, 4), (Silver, 4), (Gold, 4), (Bishop, 2), (Rook, 2)]
    {
        pool.extend(std::iter::repeat_n(kind, n));
    }
    let mut empty: Vec<Square> = Square::all().collect();
    let take_square = |i: usize, empty: &mut Vec<Square>| empty.swap_remove(i % empty.len());
    for color in Color::ALL {
        if below(16) != 0 {
            let s = take_square(below(81), &mut empty);
            setup.board[s.index()] = Piece::new(color, King);
        }
    }
    let on_board = below(31);
    for _ in 0..on_board {
        let kind = pool.swap_remove(below(pool.len() as u64));
        let color = if below(2) == 0 { Color::Black } else { Color::White };
        let s = take_square(below(81), &mut empty);
        let rel = rel_rank(color, s);
        let promote = kind != Gold && below(4) == 0;
        let dead = !promote
            && match kind {
                Pawn | Lance => rel == 0,
                Knight => rel <= 1,
                _ => false,
            };
        let nifu = !promote
            && kind == Pawn
            && Square::all()
                .any(|t| t.file() == s.file() && setup.board[t.index()] == Piece::new(color, Pawn));
        if dead || nifu {
            setup.hands[color.index()][kind.index()] += 1;
            empty.push(s);
        } else {
            let k = if promote { kind_promoted(kind) } else { kind };
            setup.board[s.index()] = Piece::new(color, k);
        }
    }
    for kind in pool {
        match below(4) {
            0 => setup.hands[0][kind.index()] += 1,
            1 => setup.hands[1][kind.index()] += 1,
            _ => {}
        }
    }
    setup.side = if below(2) == 0 { Color::Black } else { Color::White };
    setup.ply = 1 + below(300) as u32;
    if let Ok(p) = setup.validate() {
        return Some(p);
    }
    setup.side = !setup.side;
    setup.validate().ok()
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn scattered_positions_keep_every_invariant(seed in any::<u64>(), plies in 0usize..6) {
        if let Some(p) = scattered(seed) {
            walk_from(p, seed.rotate_left(17), plies)?;
        }
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn random_walks_keep_every_invariant(
        from_file in any::<bool>(),
        which in any::<Index>(),
        seed in any::<u64>(),
        plies in 0usize..=60,
    ) {
        let (embedded, file) = starts();
        let set = if from_file && !file.is_empty() { file } else { embedded };
        walk(&set[which.index(set.len())], seed, plies)?;
    }
}

#[test]
fn every_start_position_parses_and_passes() {
    let (embedded, file) = starts();
    for s in embedded.iter().chain(file.iter()) {
        let mut p = pos(s);
        if let Err(e) = check_position(&mut p) {
            panic!("{e}");
        }
    }
}

// ----- hand-built positions ----------------------------------------------------------------

fn sq(s: &str) -> Square {
    let b = s.as_bytes();
    Square::from_coords((b[0] - b'1') as i32, (b[1] - b'a') as i32).expect("square")
}

/// A USI move: `7g7f`, `2b3c+`, `P*5e`.
fn mv(s: &str) -> Move {
    if let Some((k, to)) = s.split_once('*') {
        let kind = PieceKind::from_char(k.chars().next().expect("kind")).expect("kind");
        Move::drop(kind, sq(to))
    } else {
        Move::with_promotion(sq(&s[0..2]), sq(&s[2..4]), s.ends_with('+'))
    }
}

fn mvs(list: &[&str]) -> Vec<Move> {
    sorted(&list.iter().map(|s| mv(s)).collect::<Vec<_>>())
}

/// Runs the full per-position checks on `sfen` and on its colour-flipped twin.
fn full_check(sfen: &str) -> Position {
    let mut p = pos(sfen);
    if let Err(e) = check_position(&mut p) {
        panic!("{e}");
    }
    let mut f = flipped(&p);
    if let Err(e) = check_position(&mut f) {
        panic!("flipped: {e}");
    }
    p
}

fn moves_from(p: &Position, from: &str) -> Vec<Move> {
    let from = sq(from);
    sorted(&legal(p).into_iter().filter(|m| !m.is_drop() && m.from() == from).collect::<Vec<_>>())
}

#[test]
fn pinned_pieces_move_only_along_the_pin_line() {
    // Rook on 5e pinned on the file by the rook on 5a.
    let p = full_check("4r3k/9/9/9/4R4/9/9/9/4K4 b - 1");
    assert_eq!(p.pinned(), Bitboard::from_square(sq("5e")));
    assert_eq!(
        moves_from(&p, "5e"),
        mvs(&["5e5f", "5e5g", "5e5h", "5e5d", "5e5c", "5e5c+", "5e5b", "5e5b+", "5e5a", "5e5a+"])
    );
    // Gold on 4h pinned on the diagonal by the bishop on 1e: only 3g stays on the line.
    let p = full_check("8k/9/9/9/8b/9/9/5G3/4K4 b - 1");
    assert_eq!(p.pinned(), Bitboard::from_square(sq("4h")));
    assert_eq!(moves_from(&p, "4h"), mvs(&["4h3g"]));
    // A pinned knight cannot move at all; an unpinned one can.
    let p = full_check("8k/9/9/9/8b/9/9/5N3/4K4 b - 1");
    assert!(moves_from(&p, "4h").is_empty());
    let p = full_check("8k/9/9/9/9/9/9/5N3/4K4 b - 1");
    assert_eq!(moves_from(&p, "4h"), mvs(&["4h3f", "4h5f"]));
    // A lance pinned by a lance: it may advance to the pinner and take it, nothing else.
    let p = full_check("4l3k/9/9/9/9/9/4L4/9/4K4 b - 1");
    assert_eq!(
        moves_from(&p, "5g"),
        mvs(&["5g5f", "5g5e", "5g5d", "5g5c", "5g5c+", "5g5b", "5g5b+", "5g5a+"])
    );
}

#[test]
fn pawn_drop_mate_is_excluded_but_pawn_drop_check_with_an_answer_is_not() {
    let contains = |p: &Position, class: MoveClass, m: Move| {
        generated(p, class, NonPromotions::Include).contains(&m)
    };
    let drop = mv("P*1b");
    // Mate: 2a and 2b are covered by the gold on 3b, the pawn is guarded by the knight on 2d.
    let mate_sfens = [
        "8k/6G2/9/7N1/9/9/9/9/4K4 b P 1",
        // The gold on 2a could take the pawn, but it is pinned by the rook on 5a.
        "4R2gk/6G2/9/7N1/9/9/9/9/4K4 b P 1",
    ];
    for sfen in mate_sfens {
        let mut p = full_check(sfen);
        for class in [MoveClass::Legal, MoveClass::Drops, MoveClass::Checks] {
            assert!(!contains(&p, class, drop), "{class:?} has {drop} in {sfen}");
        }
        assert!(!movegen::is_legal(&p, drop));
        // Other pawn drops are fine.
        assert!(contains(&p, MoveClass::Drops, mv("P*5e")));
        // Played anyway (the board mechanics allow it), the drop is indeed mate.
        p.make_move(drop);
        assert!(p.in_check());
        assert!(is_checkmate(&p), "{sfen}: P*1b should have been mate");
        p.unmake_move();
    }
    // Not mate: the king takes the unguarded pawn; or the unpinned gold on 2a takes it.
    for sfen in ["8k/6G2/9/9/9/9/9/9/4K4 b P 1", "7gk/6G2/9/7N1/9/9/9/9/4K4 b P 1"] {
        let mut p = full_check(sfen);
        for class in [MoveClass::Legal, MoveClass::Drops, MoveClass::Checks] {
            assert!(contains(&p, class, drop), "{class:?} lacks {drop} in {sfen}");
        }
        p.make_move(drop);
        assert!(p.in_check());
        assert!(!is_checkmate(&p), "{sfen}");
        p.unmake_move();
    }
    // A pawn drop that does not check is never pawn-drop mate.
    let p = full_check("8k/6G2/9/7N1/9/9/9/9/4K4 b P 1");
    assert!(contains(&p, MoveClass::Drops, mv("P*2c")));
    // Two pawns on a file and dead squares are excluded.
    let p = full_check("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert!(!contains(&p, MoveClass::Drops, mv("P*5e")));
    assert!(!contains(&p, MoveClass::Drops, mv("P*4a")));
    assert!(contains(&p, MoveClass::Drops, mv("P*4b")));
}

#[test]
fn king_cannot_capture_a_protected_checker() {
    // The gold on 5h checks, guarded by the pawn on 5g: only the silver may take it.
    let p = full_check("8k/9/9/9/9/9/4p4/4g4/4KS3 b - 1");
    assert!(p.in_check());
    assert_eq!(sorted(&legal(&p)), mvs(&["4i5h"]));
    // Guarded by a rook down the file.
    let p = full_check("4r3k/9/9/9/9/9/9/4g4/4K4 b - 1");
    assert!(p.in_check());
    assert!(legal(&p).is_empty());
    assert!(is_checkmate(&p));
    // Unguarded: the king takes it.
    let p = full_check("8k/9/9/9/9/9/9/4g4/4K4 b - 1");
    assert_eq!(sorted(&legal(&p)), mvs(&["5i5h"]));
    // Checked by a rook, the king may not step back along the line it is attacked on.
    let p = full_check("4r3k/9/9/9/4K4/9/9/9/9 b - 1");
    assert_eq!(sorted(&legal(&p)), mvs(&["5e4d", "5e4e", "5e4f", "5e6d", "5e6e", "5e6f"]));
    // Double check: only king moves, even where a piece could take one checker.
    let p = full_check("8k/9/9/9/9/9/2b6/4g4/3SK4 b G 1");
    assert_eq!(p.checkers().count(), 2, "{:?}", p.checkers());
    assert!(legal(&p).iter().all(|m| !m.is_drop() && m.from() == sq("5i")));
}

#[test]
fn classes_in_check_are_the_evasions_of_each_class() {
    // The rook on 1c checks along rank c; the silver on 4d can block on 3c, 4c or 5c, each
    // promoting or not: the promotions are CapturesPromotions, the others Quiets.
    let p = full_check("8k/9/K7r/5S3/9/9/9/9/9 b - 1");
    assert!(p.in_check());
    let of = |class| sorted(&generated(&p, class, NonPromotions::Include));
    assert_eq!(of(MoveClass::CapturesPromotions), mvs(&["4d3c+", "4d4c+", "4d5c+"]));
    assert_eq!(
        of(MoveClass::Quiets),
        mvs(&["4d3c", "4d4c", "4d5c", "9c8b", "9c8d", "9c9b", "9c9d"])
    );
    assert!(of(MoveClass::Drops).is_empty());
    // With a gold in hand, drops between rook and king are evasions too.
    let p = full_check("8k/9/K7r/5S3/9/9/9/9/9 b G 1");
    let drops = sorted(&generated(&p, MoveClass::Drops, NonPromotions::Include));
    assert_eq!(drops, mvs(&["G*2c", "G*3c", "G*4c", "G*5c", "G*6c", "G*7c", "G*8c"]));
    // In check, Checks are the evasions that check: with the White king on 3b, the blocks on
    // 3c and 4c (silver promoted or not, or a dropped gold) and a gold on 2c.
    let p = full_check("9/6k2/K7r/5S3/9/9/9/9/9 b G 1");
    assert_eq!(
        sorted(&generated(&p, MoveClass::Checks, NonPromotions::Include)),
        mvs(&["4d3c", "4d3c+", "4d4c", "4d4c+", "G*2c", "G*3c", "G*4c"])
    );
}

/// The largest move number an SFEN can give (`u32::MAX`) used to overflow in `make_move`; the
/// number now saturates, is restored exactly by unmake, and reads back.
#[test]
fn move_number_survives_a_move_from_the_largest_accepted_value() {
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 4294967295";
    let mut p = pos(start);
    p.make_move(mv("7g7f"));
    let sfen = p.to_sfen();
    let back = Position::from_sfen(&sfen);
    assert!(back.is_ok_and(|b| b == p), "{sfen} does not read back");
    p.unmake_move();
    assert_eq!(p.to_sfen(), start);
}

proptest! {
    #![proptest_config(config(512))]

    /// `is_attacked` (which stops early and skips sliders that are off the square's lines)
    /// says what `attackers_to` says, on every square, for both colours, with the board's
    /// occupancy and with one piece lifted off it (as a king's escapes are asked).
    #[test]
    fn is_attacked_agrees_with_attackers_to(seed in any::<u64>(), lift in 0usize..81) {
        if let Some(p) = scattered(seed) {
            let occ = p.occupied();
            let lifted = occ & !Bitboard::from_square(Square::all().nth(lift).expect("square"));
            for sq in Square::all() {
                for color in [Color::Black, Color::White] {
                    for o in [occ, lifted] {
                        prop_assert_eq!(
                            p.is_attacked(color, sq, o),
                            p.attackers_to(color, sq, o).is_nonempty(),
                            "{} {:?} {:?}", p.to_sfen(), color, sq
                        );
                    }
                }
            }
        }
    }
}
