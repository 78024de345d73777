//! Attack tables for every piece, built at compile time.
//!
//! Step pieces index a table by colour and square. Sliders are split by line:
//! - **file** (lance, rook vertical): a file is nine consecutive bits, so the seven inner bits of
//!   the occupancy are one shift and mask away and index a 128-entry table of rank patterns;
//! - **rank** (rook horizontal) and **both diagonals together** (bishop): the relevant occupancy
//!   bits are gathered with PEXT into a dense index of a per-square table.
//!
//! Why PEXT rather than magic multiplication or the qugiy subtraction trick: PEXT needs no
//! searched magic constants, gives exact dense tables (bishop: 19 K entries), and is one
//! instruction per 64-bit half on the CPUs we run on (Zen 3+, Intel since Haswell). Where BMI2
//! is missing a software PEXT keeps everything correct, only slower. The rook's file part avoids
//! PEXT entirely, and splitting rank from file keeps the rook tables at 166 KB instead of 7 MB.
//! All tables live in read-only data, so lookups need no initialisation check.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::piece::PieceKind;
use crate::square::Square;

const N: usize = 81;

type Dir = (i32, i32);

const BLACK_PAWN: &[Dir] = &[(0, -1)];
const BLACK_KNIGHT: &[Dir] = &[(-1, -2), (1, -2)];
const BLACK_SILVER: &[Dir] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const BLACK_GOLD: &[Dir] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_DIRS: &[Dir] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
const DIAGONALS: &[Dir] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
const ORTHOGONALS: &[Dir] = &[(0, -1), (0, 1), (-1, 0), (1, 0)];

const fn sq_bit(file: i32, rank: i32) -> u128 {
    if file >= 0 && file < 9 && rank >= 0 && rank < 9 {
        1u128 << (file * 9 + rank)
    } else {
        0
    }
}

/// Squares reached by single steps from `sq`; `flip` mirrors the directions for White.
const fn steps(sq: usize, dirs: &[Dir], flip: bool) -> u128 {
    let (f, r) = ((sq / 9) as i32, (sq % 9) as i32);
    let mut b = 0;
    let mut i = 0;
    while i < dirs.len() {
        let dr = if flip { -dirs[i].1 } else { dirs[i].1 };
        b |= sq_bit(f + dirs[i].0, r + dr);
        i += 1;
    }
    b
}

/// Squares a slider on `sq` reaches along `dirs`, each ray stopping at the first occupied square.
const fn rays(sq: usize, dirs: &[Dir], occ: u128) -> u128 {
    let (f0, r0) = ((sq / 9) as i32, (sq % 9) as i32);
    let mut b = 0;
    let mut i = 0;
    while i < dirs.len() {
        let (mut f, mut r) = (f0 + dirs[i].0, r0 + dirs[i].1);
        while f >= 0 && f < 9 && r >= 0 && r < 9 {
            let bit = 1u128 << (f * 9 + r);
            b |= bit;
            if occ & bit != 0 {
                break;
            }
            f += dirs[i].0;
            r += dirs[i].1;
        }
        i += 1;
    }
    b
}

/// The squares along `dirs` from `sq` whose occupancy matters: every ray square but the last.
const fn relevant(sq: usize, dirs: &[Dir]) -> u128 {
    let (f0, r0) = ((sq / 9) as i32, (sq % 9) as i32);
    let mut b = 0;
    let mut i = 0;
    while i < dirs.len() {
        let (mut f, mut r) = (f0 + dirs[i].0, r0 + dirs[i].1);
        while f + dirs[i].0 >= 0 && f + dirs[i].0 < 9 && r + dirs[i].1 >= 0 && r + dirs[i].1 < 9 {
            b |= 1u128 << (f * 9 + r);
            f += dirs[i].0;
            r += dirs[i].1;
        }
        i += 1;
    }
    b
}

/// Software PEXT on a `u128`: the bits of `x` under `mask`, packed low.
const fn soft_pext(x: u128, mut mask: u128) -> u64 {
    let mut out = 0u64;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    out
}

#[inline(always)]
fn pext64(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the cfg guarantees the CPU feature.
        unsafe { core::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        soft_pext(x as u128, mask as u128)
    }
}

/// One sliding line family: for each square its relevant mask, where its block of the shared
/// table starts, and how many mask bits lie in the low word (to join the two PEXT halves).
struct PextLine {
    mask: [u128; N],
    offset: [u32; N],
    low_bits: [u32; N],
}

const fn pext_line(dirs: &[Dir]) -> PextLine {
    let mut line = PextLine { mask: [0; N], offset: [0; N], low_bits: [0; N] };
    let mut total = 0u32;
    let mut sq = 0;
    while sq < N {
        let m = relevant(sq, dirs);
        line.mask[sq] = m;
        line.offset[sq] = total;
        line.low_bits[sq] = (m as u64).count_ones();
        total += 1 << m.count_ones();
        sq += 1;
    }
    line
}

const fn line_table_size(line: &PextLine) -> usize {
    let last = N - 1;
    line.offset[last] as usize + (1usize << line.mask[last].count_ones())
}

/// Fills a line family's table by enumerating every subset of each relevant mask.
const fn line_table<const SIZE: usize>(line: &PextLine, dirs: &[Dir]) -> [Bitboard; SIZE] {
    let mut table = [Bitboard(0); SIZE];
    let mut sq = 0;
    while sq < N {
        let mask = line.mask[sq];
        let mut subset = 0u128;
        loop {
            let idx = line.offset[sq] as usize + soft_pext(subset, mask) as usize;
            table[idx] = Bitboard(rays(sq, dirs, subset));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

const RANK_DIRS: &[Dir] = &[(-1, 0), (1, 0)];
static RANK_LINE: PextLine = pext_line(RANK_DIRS);
const RANK_TABLE_SIZE: usize = line_table_size(&pext_line(RANK_DIRS));
#[allow(long_running_const_eval)]
static RANK_TABLE: [Bitboard; RANK_TABLE_SIZE] = line_table(&pext_line(RANK_DIRS), RANK_DIRS);

static BISHOP_LINE: PextLine = pext_line(DIAGONALS);
const BISHOP_TABLE_SIZE: usize = line_table_size(&pext_line(DIAGONALS));
#[allow(long_running_const_eval)]
static BISHOP_TABLE: [Bitboard; BISHOP_TABLE_SIZE] = line_table(&pext_line(DIAGONALS), DIAGONALS);

/// `FILE_TABLE[rank][inner]`: the 9-bit pattern of ranks a vertical slider on `rank` attacks
/// when the file's seven inner squares (ranks b..h) are occupied as the bits of `inner`.
static FILE_TABLE: [[u16; 128]; 9] = {
    let mut t = [[0u16; 128]; 9];
    let mut rank = 0;
    while rank < 9 {
        let mut inner = 0;
        while inner < 128 {
            let occ = (inner as u128) << 1;
            t[rank][inner] = rays(rank, &[(0, -1), (0, 1)], occ) as u16;
            inner += 1;
        }
        rank += 1;
    }
    t
};

const fn step_table(dirs: &[Dir]) -> [[Bitboard; N]; 2] {
    let mut t = [[Bitboard(0); N]; 2];
    let mut sq = 0;
    while sq < N {
        t[0][sq] = Bitboard(steps(sq, dirs, false));
        t[1][sq] = Bitboard(steps(sq, dirs, true));
        sq += 1;
    }
    t
}

static PAWN: [[Bitboard; N]; 2] = step_table(BLACK_PAWN);
static KNIGHT: [[Bitboard; N]; 2] = step_table(BLACK_KNIGHT);
static SILVER: [[Bitboard; N]; 2] = step_table(BLACK_SILVER);
static GOLD: [[Bitboard; N]; 2] = step_table(BLACK_GOLD);
static KING: [[Bitboard; N]; 2] = step_table(KING_DIRS);

/// Lance moves on an empty board: the whole file ahead, per colour.
static LANCE_EMPTY: [[Bitboard; N]; 2] = {
    let mut t = [[Bitboard(0); N]; 2];
    let mut sq = 0;
    while sq < N {
        t[0][sq] = Bitboard(rays(sq, &[(0, -1)], 0));
        t[1][sq] = Bitboard(rays(sq, &[(0, 1)], 0));
        sq += 1;
    }
    t
};

const fn empty_board(dirs: &[Dir]) -> [Bitboard; N] {
    let mut t = [Bitboard(0); N];
    let mut sq = 0;
    while sq < N {
        t[sq] = Bitboard(rays(sq, dirs, 0));
        sq += 1;
    }
    t
}
static BISHOP_EMPTY: [Bitboard; N] = empty_board(DIAGONALS);
static ROOK_EMPTY: [Bitboard; N] = empty_board(ORTHOGONALS);

/// `BETWEEN[a][b]`: squares strictly between two squares on one line; empty otherwise.
/// `LINE[a][b]`: the whole board line through both; empty when they are not aligned.
#[allow(long_running_const_eval)]
static BETWEEN_AND_LINE: [[[Bitboard; N]; N]; 2] = {
    let mut t = [[[Bitboard(0); N]; N]; 2];
    let mut a = 0;
    while a < N {
        let mut d = 0;
        while d < KING_DIRS.len() {
            let (df, dr) = KING_DIRS[d];
            let full = rays(a, &[(df, dr), (-df, -dr)], 0) | (1u128 << a);
            let (f0, r0) = ((a / 9) as i32, (a % 9) as i32);
            let (mut f, mut r) = (f0 + df, r0 + dr);
            let mut between = 0u128;
            while f >= 0 && f < 9 && r >= 0 && r < 9 {
                let b = (f * 9 + r) as usize;
                t[0][a][b] = Bitboard(between);
                t[1][a][b] = Bitboard(full);
                between |= 1u128 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    t
};

#[inline(always)]
fn pext_index(line: &PextLine, sq: Square, occ: Bitboard) -> usize {
    let i = sq.index();
    let (mlo, mhi) = Bitboard(line.mask[i]).halves();
    let (lo, hi) = occ.halves();
    line.offset[i] as usize + (pext64(lo, mlo) | (pext64(hi, mhi) << line.low_bits[i])) as usize
}

#[inline(always)]
fn file_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let base = sq.file().index() * 9;
    let inner = ((occ.0 >> (base + 1)) & 0x7f) as usize;
    Bitboard((FILE_TABLE[sq.rank().index()][inner] as u128) << base)
}

#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}
#[inline(always)]
pub fn knight(color: Color, sq: Square) -> Bitboard {
    KNIGHT[color.index()][sq.index()]
}
#[inline(always)]
pub fn silver(color: Color, sq: Square) -> Bitboard {
    SILVER[color.index()][sq.index()]
}
#[inline(always)]
pub fn gold(color: Color, sq: Square) -> Bitboard {
    GOLD[color.index()][sq.index()]
}
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    KING[0][sq.index()]
}
#[inline(always)]
pub fn lance(color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    file_attacks(sq, occ) & LANCE_EMPTY[color.index()][sq.index()]
}
#[inline(always)]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    BISHOP_TABLE[pext_index(&BISHOP_LINE, sq, occ)]
}
#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    file_attacks(sq, occ) | RANK_TABLE[pext_index(&RANK_LINE, sq, occ)]
}
/// Rook moves along the rank only.
#[inline(always)]
pub fn rook_rank(sq: Square, occ: Bitboard) -> Bitboard {
    RANK_TABLE[pext_index(&RANK_LINE, sq, occ)]
}
/// Rook moves along the file only.
#[inline(always)]
pub fn rook_file(sq: Square, occ: Bitboard) -> Bitboard {
    file_attacks(sq, occ)
}
#[inline(always)]
pub fn horse(sq: Square, occ: Bitboard) -> Bitboard {
    bishop(sq, occ) | king(sq)
}
#[inline(always)]
pub fn dragon(sq: Square, occ: Bitboard) -> Bitboard {
    rook(sq, occ) | king(sq)
}

/// Lance moves on an empty board.
#[inline(always)]
pub fn lance_empty(color: Color, sq: Square) -> Bitboard {
    LANCE_EMPTY[color.index()][sq.index()]
}
#[inline(always)]
pub fn bishop_empty(sq: Square) -> Bitboard {
    BISHOP_EMPTY[sq.index()]
}
#[inline(always)]
pub fn rook_empty(sq: Square) -> Bitboard {
    ROOK_EMPTY[sq.index()]
}

/// The squares within file distance `df` and relative rank offset `lo..=hi` of each square
/// (rank offsets counted towards Black's side; `flip` mirrors them for White).
const fn region_table(df: i32, lo: i32, hi: i32) -> [[Bitboard; N]; 2] {
    let mut t = [[Bitboard(0); N]; 2];
    let mut sq = 0;
    while sq < N {
        let (f, r) = ((sq / 9) as i32, (sq % 9) as i32);
        let mut x = -df;
        while x <= df {
            let mut y = lo;
            while y <= hi {
                t[0][sq].0 |= sq_bit(f + x, r + y);
                t[1][sq].0 |= sq_bit(f + x, r - y);
                y += 1;
            }
            x += 1;
        }
        sq += 1;
    }
    t
}
static NEAR: [[Bitboard; N]; 2] = region_table(2, -2, 2);
static KNIGHT_CHECK_REACH: [[Bitboard; N]; 2] = region_table(2, 1, 4);

/// The squares at most two king steps from `sq`: the only places from which a pawn, silver or
/// gold-like piece can step next to `sq`, and so the only ones from which it can give check.
#[inline(always)]
pub fn near(sq: Square) -> Bitboard {
    NEAR[0][sq.index()]
}
/// The squares from which a knight of `color` can move to a square that checks a king on `sq`,
/// promoting or not: two files either side, one to four ranks behind the king.
#[inline(always)]
pub fn knight_check_reach(color: Color, sq: Square) -> Bitboard {
    KNIGHT_CHECK_REACH[color.index()][sq.index()]
}

/// Squares strictly between `a` and `b` when they share a line, otherwise empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN_AND_LINE[0][a.index()][b.index()]
}
/// The full line through `a` and `b` when they share one, otherwise empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    BETWEEN_AND_LINE[1][a.index()][b.index()]
}
/// Whether `c` lies on the line through `a` and `b` (which must be aligned to be true).
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// The squares a piece of `color` and `kind` on `sq` attacks with occupancy `occ`.
#[inline(always)]
pub fn attacks(color: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    use PieceKind::*;
    match kind {
        Pawn => pawn(color, sq),
        Lance => lance(color, sq, occ),
        Knight => knight(color, sq),
        Silver => silver(color, sq),
        Gold | ProPawn | ProLance | ProKnight | ProSilver => gold(color, sq),
        King => king(sq),
        Bishop => bishop(sq, occ),
        Rook => rook(sq, occ),
        Horse => horse(sq, occ),
        Dragon => dragon(sq, occ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        let b = s.as_bytes();
        Square::from_coords((b[0] - b'1') as i32, (b[1] - b'a') as i32).unwrap()
    }

    #[test]
    fn sliders_match_ray_walk_on_random_occupancies() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.rotate_left(29) ^ 0xD1B5_4A32_D192_ED03;
            let occ =
                Bitboard(((x as u128) << 64 | (y & x.rotate_left(7)) as u128) & Bitboard::ALL.0);
            for s in Square::all() {
                let i = s.index();
                assert_eq!(bishop(s, occ).0, rays(i, DIAGONALS, occ.0), "bishop {s}");
                assert_eq!(rook(s, occ).0, rays(i, ORTHOGONALS, occ.0), "rook {s}");
                assert_eq!(lance(Color::Black, s, occ).0, rays(i, &[(0, -1)], occ.0));
                assert_eq!(lance(Color::White, s, occ).0, rays(i, &[(0, 1)], occ.0));
            }
        }
    }

    #[test]
    fn step_pieces() {
        assert_eq!(pawn(Color::Black, sq("7g")), Bitboard::from_square(sq("7f")));
        assert_eq!(pawn(Color::White, sq("3c")), Bitboard::from_square(sq("3d")));
        assert_eq!(knight(Color::Black, sq("8i")).count(), 2);
        assert!(knight(Color::Black, sq("8i")).contains(sq("7g")));
        assert!(knight(Color::Black, sq("1b")).is_empty());
        assert_eq!(king(sq("5e")).count(), 8);
        assert_eq!(gold(Color::Black, sq("5e")).count(), 6);
        assert!(gold(Color::White, sq("5e")).contains(sq("4f")));
        assert!(!gold(Color::White, sq("5e")).contains(sq("4d")));
        assert_eq!(silver(Color::Black, sq("5e")).count(), 5);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("1a"), sq("9i")).count(), 7);
        assert_eq!(between(sq("5e"), sq("5a")).count(), 3);
        assert!(between(sq("5e"), sq("4c")).is_empty());
        assert!(line(sq("5e"), sq("4c")).is_empty());
        assert_eq!(line(sq("5e"), sq("5a")).count(), 9);
        assert!(aligned(sq("1a"), sq("2b"), sq("9i")));
        assert!(!aligned(sq("1a"), sq("2b"), sq("9h")));
    }
}
