//! The network's input: HalfKP-style features with king buckets, from each side's view.
//!
//! A *perspective* is one side's view of the board: rotated by 180 degrees for White, so that
//! its own camp is always the bottom ranks, and mirrored left-right when its king stands on the
//! left half (the rules are symmetric that way, which halves what the data must teach). Its
//! king's square then picks one of [`BUCKETS`] buckets, and every feature of the perspective
//! is counted inside that bucket:
//! - each non-king piece on its square, by owner (ours or theirs) and kind (13 kinds);
//! - the enemy king's square;
//! - the pieces in hand as thermometers: holding three pawns lights "pawn 1", "pawn 2" and
//!   "pawn 3", so that one more pawn changes one feature.
//!
//! A move changes a few features of each perspective ([`Delta`]); a king move changes its own
//! perspective's bucket or mirror, and that perspective is computed again.

use shogi::{Color, Move, PieceKind, Position, Square};

/// Non-king kinds, in feature order.
const KINDS: [PieceKind; 13] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::ProSilver,
    PieceKind::Horse,
    PieceKind::Dragon,
];

/// Where each hand kind's thermometer starts, and how long it is (the kind's full count).
const HAND_KINDS: [(PieceKind, usize, usize); 7] = [
    (PieceKind::Pawn, 0, 18),
    (PieceKind::Lance, 18, 4),
    (PieceKind::Knight, 22, 4),
    (PieceKind::Silver, 26, 4),
    (PieceKind::Gold, 30, 4),
    (PieceKind::Bishop, 34, 2),
    (PieceKind::Rook, 36, 2),
];
const HAND_FEATURES: usize = 38;

const BOARD_FEATURES: usize = 2 * KINDS.len() * Square::NUM;
const ENEMY_KING: usize = BOARD_FEATURES;
const HAND_START: usize = ENEMY_KING + Square::NUM;
/// Features inside one bucket.
pub const PER_BUCKET: usize = HAND_START + 2 * HAND_FEATURES;
/// King buckets: three file groups (edge, middle, centre, after mirroring) by four rank
/// groups (the back rank, the second, the third, further up).
pub const BUCKETS: usize = 12;
/// Features of one perspective, all buckets.
pub const FEATURES: usize = BUCKETS * PER_BUCKET;
/// The most features one perspective can light (40 pieces, each hand thermometer full).
pub const MAX_ACTIVE: usize = 40 + 2 * HAND_FEATURES;

/// The index of each kind in [`KINDS`] (`usize::MAX` for the king), by `PieceKind::index`.
const KIND_SLOT: [usize; PieceKind::NUM] = {
    let mut slots = [usize::MAX; PieceKind::NUM];
    let mut i = 0;
    while i < KINDS.len() {
        slots[KINDS[i] as usize] = i;
        i += 1;
    }
    slots
};

/// The start of each hand kind's thermometer, by `PieceKind::index` of the unpromoted kind.
const HAND_SLOT: [usize; PieceKind::NUM] = {
    let mut slots = [usize::MAX; PieceKind::NUM];
    let mut i = 0;
    while i < HAND_KINDS.len() {
        slots[HAND_KINDS[i].0 as usize] = HAND_KINDS[i].1;
        i += 1;
    }
    slots
};

/// What a feature of a bucket stands for (the square aside).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// A piece on the board, the view's own (`ours`) or the enemy's.
    Piece {
        ours: bool,
        kind: PieceKind,
    },
    EnemyKing,
    /// One more piece of `kind` in a hand.
    Hand {
        ours: bool,
        kind: PieceKind,
    },
}

/// What feature `f` (of any bucket) stands for.
pub fn meaning(f: usize) -> Meaning {
    let f = f % PER_BUCKET;
    if f < BOARD_FEATURES {
        let slot = f / Square::NUM;
        Meaning::Piece { ours: slot < KINDS.len(), kind: KINDS[slot % KINDS.len()] }
    } else if f < HAND_START {
        Meaning::EnemyKing
    } else {
        let h = f - HAND_START;
        let ours = h < HAND_FEATURES;
        let at = h % HAND_FEATURES;
        let kind = HAND_KINDS.iter().rev().find(|&&(_, start, _)| at >= start).map(|k| k.0);
        Meaning::Hand { ours, kind: kind.unwrap_or(PieceKind::Pawn) }
    }
}

/// One side's view: its bucket's offset and how squares are turned.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub side: Color,
    rotate: bool,
    mirror: bool,
    /// The first feature of this view's bucket.
    base: usize,
}

impl View {
    /// The view of `side` in `pos`; `None` without that side's king.
    pub fn of(pos: &Position, side: Color) -> Option<View> {
        let king = pos.king_square(side)?;
        let rotate = side == Color::White;
        let oriented = if rotate { king.rotate() } else { king };
        let mirror = oriented.file().index() > 4;
        let file = if mirror { 8 - oriented.file().index() } else { oriented.file().index() };
        let file_group = match file {
            0 | 1 => 0,
            2 | 3 => 1,
            _ => 2,
        };
        let rank_group = match oriented.rank().index() {
            8 => 0,
            7 => 1,
            6 => 2,
            _ => 3,
        };
        Some(View { side, rotate, mirror, base: (file_group * 4 + rank_group) * PER_BUCKET })
    }

    /// The bucket this view counts its features in.
    pub fn bucket(self) -> usize {
        self.base / PER_BUCKET
    }

    fn square(self, sq: Square) -> usize {
        let sq = if self.rotate { sq.rotate() } else { sq };
        let file = if self.mirror { 8 - sq.file().index() } else { sq.file().index() };
        file * 9 + sq.rank().index()
    }

    fn owner(self, color: Color) -> usize {
        usize::from(color != self.side)
    }

    /// The feature of a non-king piece of `color` and `kind` on `sq`.
    #[inline]
    pub fn piece(self, color: Color, kind: PieceKind, sq: Square) -> usize {
        let slot = self.owner(color) * KINDS.len() + KIND_SLOT[kind.index()];
        self.base + slot * Square::NUM + self.square(sq)
    }

    /// The feature of the enemy king on `sq`.
    #[inline]
    pub fn enemy_king(self, sq: Square) -> usize {
        self.base + ENEMY_KING + self.square(sq)
    }

    /// The feature "`color` holds at least `count` (from 1) of `kind`".
    #[inline]
    pub fn hand(self, color: Color, kind: PieceKind, count: u32) -> usize {
        debug_assert!(count >= 1);
        self.base
            + HAND_START
            + self.owner(color) * HAND_FEATURES
            + HAND_SLOT[kind.index()]
            + count as usize
            - 1
    }

    /// Every feature this view lights in `pos`, written into `out`; returns how many.
    pub fn active(self, pos: &Position, out: &mut [usize; MAX_ACTIVE]) -> usize {
        let mut n = 0;
        for color in Color::ALL {
            for sq in pos.pieces_of(color) {
                let kind = pos.piece_at(sq).kind();
                let feature = if kind != PieceKind::King {
                    self.piece(color, kind, sq)
                } else if color != self.side {
                    self.enemy_king(sq)
                } else {
                    continue;
                };
                out[n] = feature;
                n += 1;
            }
            let hand = pos.hand(color);
            for (kind, _, _) in HAND_KINDS {
                for count in 1..=hand.count(kind) {
                    out[n] = self.hand(color, kind, count);
                    n += 1;
                }
            }
        }
        n
    }
}

/// What a move changed in one view: features to remove and to add (at most three each).
#[derive(Copy, Clone, Debug, Default)]
pub struct Delta {
    pub removed: [usize; 3],
    pub added: [usize; 3],
    pub n_removed: usize,
    pub n_added: usize,
}

impl Delta {
    fn remove(&mut self, f: usize) {
        self.removed[self.n_removed] = f;
        self.n_removed += 1;
    }
    fn add(&mut self, f: usize) {
        self.added[self.n_added] = f;
        self.n_added += 1;
    }

    /// The change the move `m` made to `view`, read from `pos` after the move; `None` when the
    /// view must be computed again (its own king moved to another bucket or half: a move
    /// within them changes no feature of its own side's view, the king being the bucket).
    pub fn of_move(pos: &Position, m: Move, view: View) -> Option<Delta> {
        let mover = !pos.side_to_move();
        let to = m.to();
        let mut d = Delta::default();
        if let Some(kind) = m.dropped() {
            let left = pos.hand(mover).count(kind);
            d.remove(view.hand(mover, kind, left + 1));
            d.add(view.piece(mover, kind, to));
            return Some(d);
        }
        let moved = pos.piece_at(to).kind();
        if moved == PieceKind::King {
            if mover == view.side {
                if View::of(pos, mover) != Some(view) {
                    return None;
                }
            } else {
                d.remove(view.enemy_king(m.from()));
                d.add(view.enemy_king(to));
            }
        } else {
            let original = if m.is_promotion() { moved.unpromote() } else { moved };
            d.remove(view.piece(mover, original, m.from()));
            d.add(view.piece(mover, moved, to));
        }
        if let Some((owner, captured)) = pos.last_captured().get() {
            d.remove(view.piece(owner, captured, to));
            let kind = captured.unpromote();
            d.add(view.hand(mover, kind, pos.hand(mover).count(kind)));
        }
        Some(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
    }

    /// Every feature of every view stays inside its bucket and no two pieces share one.
    #[test]
    fn features_are_distinct_and_inside_their_bucket() {
        let pos = position("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1");
        for side in Color::ALL {
            let view = View::of(&pos, side).expect("king");
            let mut out = [0; MAX_ACTIVE];
            let n = view.active(&pos, &mut out);
            let mut seen = out[..n].to_vec();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), n);
            let bucket = view.bucket() * PER_BUCKET..(view.bucket() + 1) * PER_BUCKET;
            assert!(seen.iter().all(|f| bucket.contains(f)));
        }
    }

    /// Every feature a view lights means what it was lit for.
    #[test]
    fn each_feature_means_what_lit_it() {
        let pos = position("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1");
        let view = View::of(&pos, Color::Black).expect("king");
        assert_eq!(
            meaning(view.piece(
                Color::White,
                PieceKind::Horse,
                pos.king_square(Color::Black).expect("k")
            )),
            Meaning::Piece { ours: false, kind: PieceKind::Horse }
        );
        assert_eq!(
            meaning(view.piece(
                Color::Black,
                PieceKind::ProPawn,
                Square::from_index(3).expect("sq")
            )),
            Meaning::Piece { ours: true, kind: PieceKind::ProPawn }
        );
        assert_eq!(
            meaning(view.hand(Color::White, PieceKind::Pawn, 5)),
            Meaning::Hand { ours: false, kind: PieceKind::Pawn }
        );
        assert_eq!(
            meaning(view.hand(Color::Black, PieceKind::Rook, 1)),
            Meaning::Hand { ours: true, kind: PieceKind::Rook }
        );
        assert_eq!(
            meaning(view.hand(Color::Black, PieceKind::Lance, 4)),
            Meaning::Hand { ours: true, kind: PieceKind::Lance }
        );
        assert_eq!(
            meaning(view.enemy_king(Square::from_index(0).expect("sq"))),
            Meaning::EnemyKing
        );
    }

    /// The same position seen from the other side (the board turned, the colours swapped, the
    /// other side to move) lights the same features from the swapped views.
    #[test]
    fn both_sides_see_the_board_the_same_way() {
        let black = position(
            "ln1g3nl/1r1s1kg2/p2ppp1p1/2p3p1p/1p5P1/2P1P1P2/PPSP1P2P/2G2S1R1/LN2KG1NL b Bb 1",
        );
        let white = position(&turned(&black.to_sfen()));
        for side in Color::ALL {
            let mut a = [0; MAX_ACTIVE];
            let mut b = [0; MAX_ACTIVE];
            let na = View::of(&black, side).expect("king").active(&black, &mut a);
            let nb = View::of(&white, !side).expect("king").active(&white, &mut b);
            let (mut a, mut b) = (a[..na].to_vec(), b[..nb].to_vec());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
        }
    }

    /// Mirroring the board left-right leaves every view's features as they were (neither king
    /// on the centre file, where a view is not mirrored either way).
    #[test]
    fn a_mirrored_board_lights_the_same_features() {
        let pos = position(
            "ln1g3nl/1r1s1kg2/p2ppp1p1/2p3p1p/1p5P1/2P1P1P2/PPSP1P2P/1KG2S1R1/LN3G1NL b Bb 1",
        );
        let mirrored = position(&mirrored(&pos.to_sfen()));
        for side in Color::ALL {
            let mut a = [0; MAX_ACTIVE];
            let mut b = [0; MAX_ACTIVE];
            let na = View::of(&pos, side).expect("king").active(&pos, &mut a);
            let nb = View::of(&mirrored, side).expect("king").active(&mirrored, &mut b);
            let (mut a, mut b) = (a[..na].to_vec(), b[..nb].to_vec());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{side:?}");
        }
    }

    /// The SFEN of the board turned by 180 degrees with the colours swapped.
    fn turned(sfen: &str) -> String {
        let mut parts = sfen.split_whitespace();
        let board = parts.next().unwrap_or_default();
        let side = if parts.next() == Some("b") { "w" } else { "b" };
        let hand = parts.next().unwrap_or("-");
        let swap = |s: &str| {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect::<String>()
        };
        let rows: Vec<String> = board.split('/').rev().map(|r| reverse_row(&swap(r))).collect();
        format!("{} {side} {} 1", rows.join("/"), if hand == "-" { "-".into() } else { swap(hand) })
    }

    fn mirrored(sfen: &str) -> String {
        let mut parts = sfen.split_whitespace();
        let board = parts.next().unwrap_or_default();
        let rest: Vec<&str> = parts.collect();
        let rows: Vec<String> = board.split('/').map(reverse_row).collect();
        format!("{} {}", rows.join("/"), rest.join(" "))
    }

    /// A board row read right to left, keeping `+` before its piece.
    fn reverse_row(row: &str) -> String {
        let mut tokens: Vec<String> = Vec::new();
        let mut plus = false;
        for c in row.chars() {
            if c == '+' {
                plus = true;
                continue;
            }
            tokens.push(if plus { format!("+{c}") } else { c.to_string() });
            plus = false;
        }
        tokens.reverse();
        tokens.concat()
    }
}
