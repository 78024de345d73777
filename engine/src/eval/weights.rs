//! The evaluation's weights, as data: piece values, piece-to-king placement profiles and the
//! king-safety terms. Everything [`crate::eval`] adds up is read from here, so that a tuner can
//! change the numbers without touching the code that uses them.
//!
//! Units are centipawns (a pawn on the board is 90, as in Bonanza's scale, a little under 100).

use shogi::PieceKind;

/// Value of a piece on the board, indexed by `PieceKind::index()` (0 and King unused).
pub const BOARD_VALUE: [i32; PieceKind::NUM] = [
    0,    // (none)
    90,   // Pawn
    315,  // Lance
    405,  // Knight
    495,  // Silver
    855,  // Bishop
    990,  // Rook
    540,  // Gold
    0,    // King
    540,  // ProPawn
    540,  // ProLance
    540,  // ProKnight
    540,  // ProSilver
    945,  // Horse
    1395, // Dragon
];

/// Value of a piece in hand, indexed by the unpromoted kind (the king's slot is its exchange
/// value, for static exchange evaluation only). A piece in hand may be dropped anywhere, so it
/// is worth a little more than the same piece on the board.
pub const HAND_VALUE: [i32; 9] = [
    0,     // (none)
    100,   // Pawn
    350,   // Lance
    440,   // Knight
    540,   // Silver
    930,   // Bishop
    1080,  // Rook
    590,   // Gold
    15000, // King (never in hand: what losing it costs in an exchange)
];

/// Side-to-move bonus.
pub const TEMPO: i32 = 20;

/// Placement classes: promoted minors move like a gold and share its profile.
pub const CLASS_PAWN: usize = 0;
pub const CLASS_LANCE: usize = 1;
pub const CLASS_KNIGHT: usize = 2;
pub const CLASS_SILVER: usize = 3;
pub const CLASS_GOLD: usize = 4;
pub const CLASS_BISHOP: usize = 5;
pub const CLASS_ROOK: usize = 6;
pub const CLASS_HORSE: usize = 7;
pub const CLASS_DRAGON: usize = 8;
pub const CLASSES: usize = 9;

/// The placement class of a kind (`None` for the king).
pub const fn class_of(kind: PieceKind) -> Option<usize> {
    use PieceKind::*;
    Some(match kind {
        Pawn => CLASS_PAWN,
        Lance => CLASS_LANCE,
        Knight => CLASS_KNIGHT,
        Silver => CLASS_SILVER,
        Gold | ProPawn | ProLance | ProKnight | ProSilver => CLASS_GOLD,
        Bishop => CLASS_BISHOP,
        Rook => CLASS_ROOK,
        Horse => CLASS_HORSE,
        Dragon => CLASS_DRAGON,
        King => return None,
    })
}

/// Bonus for a piece at Chebyshev distance `d` (index) from its **own** king: defenders.
/// A rook beside its own king is a liability (玉飛接近すべからず).
const DEFENCE_BY_DISTANCE: [[i32; 9]; CLASSES] = [
    [0, 12, 8, 3, 0, 0, 0, 0, 0],        // pawn
    [0, 4, 3, 0, 0, 0, 0, 0, 0],         // lance
    [0, 6, 8, 3, 0, 0, 0, 0, 0],         // knight
    [0, 45, 35, 14, 4, 0, 0, 0, 0],      // silver
    [0, 60, 40, 15, 4, 0, -5, -10, -15], // gold-like
    [0, 10, 6, 2, 0, 0, 0, 0, 0],        // bishop
    [0, -20, -5, 0, 0, 0, 0, 0, 0],      // rook
    [0, 60, 45, 25, 10, 4, 0, 0, 0],     // horse
    [0, 35, 25, 12, 4, 0, 0, 0, 0],      // dragon
];

/// Bonus for a piece at Chebyshev distance `d` from the **enemy** king: attackers.
const ATTACK_BY_DISTANCE: [[i32; 9]; CLASSES] = [
    [0, 25, 12, 4, 0, 0, 0, 0, 0],     // pawn
    [0, 15, 12, 8, 4, 0, 0, 0, 0],     // lance
    [0, 12, 30, 18, 5, 0, 0, 0, 0],    // knight
    [0, 55, 40, 20, 6, 0, 0, 0, 0],    // silver
    [0, 75, 50, 22, 6, 0, 0, 0, 0],    // gold-like
    [0, 30, 22, 14, 8, 4, 0, 0, 0],    // bishop
    [0, 35, 28, 18, 10, 5, 0, 0, 0],   // rook
    [0, 75, 55, 32, 15, 6, 0, 0, 0],   // horse
    [0, 110, 75, 45, 22, 10, 0, 0, 0], // dragon
];

/// Direction adjustment for a defender: rows in front of the own king (towards the enemy)
/// count fully, rows behind count less. Indexed by relative rank offset + 8, where negative is
/// in front of the king.
const fn defence_row_factor(dr: i32) -> i32 {
    if dr < -2 {
        60
    } else if dr <= 0 {
        100
    } else if dr == 1 {
        85
    } else {
        50
    }
}

/// Direction adjustment for an attacker: the head of the enemy king (the rows between it and
/// our camp) counts fully, and so do pieces beside and behind it (腹, 尻).
const fn attack_row_factor(dr: i32) -> i32 {
    if dr == 1 || dr == 0 {
        110
    } else if dr > 1 {
        100
    } else {
        90
    }
}

/// Placement table: `[class][dr + 8][df]`, where `df` is the absolute file distance and `dr`
/// the rank offset seen from the piece's owner (negative: nearer the far side of the board).
pub type PlacementTable = [[[i16; 9]; 17]; CLASSES];

const fn build(attack: bool) -> PlacementTable {
    let mut t = [[[0i16; 9]; 17]; CLASSES];
    let mut c = 0;
    while c < CLASSES {
        let mut r = 0;
        while r < 17 {
            let dr = r as i32 - 8;
            let mut df: usize = 0;
            while df < 9 {
                let adr = if dr < 0 { -dr } else { dr };
                let d = if adr > df as i32 { adr as usize } else { df };
                let (base, factor) = if attack {
                    (ATTACK_BY_DISTANCE[c][d], attack_row_factor(dr))
                } else {
                    (DEFENCE_BY_DISTANCE[c][d], defence_row_factor(dr))
                };
                let v = if base > 0 { base * factor / 100 } else { base };
                t[c][r][df] = v as i16;
                df += 1;
            }
            r += 1;
        }
        c += 1;
    }
    t
}

/// Bonus by placement relative to the piece's own king.
pub const OWN_KING_TABLE: PlacementTable = build(false);
/// Bonus by placement relative to the enemy king.
pub const ENEMY_KING_TABLE: PlacementTable = build(true);

/// King rank bonus by the king's relative rank (0: the far rank, 8: its own back rank). A king
/// that leaves its camp in the middle game is exposed; the safety terms do the rest.
pub const KING_RANK: [i32; 9] = [40, 20, 0, -40, -50, -40, -20, 0, 10];

/// The share (percent) of the second-largest loss of two pieces en prise at once that the side
/// to move is charged (see `eval::fork_penalty`): it may not lose it all (a move can defend
/// both, or threaten more), but it cannot count on keeping both.
pub const FORK_SHARE_PCT: i32 = 60;

/// Slider mobility: centipawns per square attacked, for bishop/horse and rook/dragon.
pub const MOBILITY_BISHOP: i32 = 3;
pub const MOBILITY_ROOK: i32 = 2;

// ----- king safety ---------------------------------------------------------------------------

/// Danger units for each enemy attack on a square of the king's zone.
pub const KS_ATTACK: i32 = 9;
/// Extra danger for each zone square where enemy attacks outnumber our defenders.
pub const KS_WEAK: i32 = 14;
/// Extra danger for an attacked square adjacent to the king with no defender but the king.
pub const KS_UNDEFENDED_ADJACENT: i32 = 10;
/// Danger by the number of safe escape squares of the king (0..=8).
pub const KS_ESCAPES: [i32; 9] = [45, 30, 16, 6, 0, 0, 0, 0, 0];
/// Danger per enemy piece in hand, by kind (drops are shogi's main attacking resource).
pub const KS_HAND: [i32; 8] = [
    0,  // (none)
    4,  // Pawn (counted up to KS_HAND_PAWN_CAP)
    9,  // Lance
    11, // Knight
    14, // Silver
    17, // Bishop
    24, // Rook
    16, // Gold
];
pub const KS_HAND_PAWN_CAP: u32 = 3;
/// Danger when the king's file has no pawn of its own and the enemy holds or has a rook.
pub const KS_OPEN_FILE: i32 = 14;
/// Danger removed per gold/silver-like defender adjacent to the king.
pub const KS_DEFENDER: i32 = 6;
/// Danger below this is ignored.
pub const KS_THRESHOLD: i32 = 0;
/// Penalty = danger² / KS_DIVISOR, at most KS_MAX.
pub const KS_DIVISOR: i32 = 180;
pub const KS_MAX: i32 = 2500;

// ----- the weights as data -------------------------------------------------------------------

/// A placement table with the cell flattened: `[class][(dr + 8) * 9 + df]`, indexed directly by
/// the evaluation's relative-cell table. Rows are padded to 256 cells so that a `u8` index
/// needs no bounds check; the cells past [`PLACEMENT_CELLS`] stay 0.
pub type FlatTable = [[i16; 256]; CLASSES];

/// The cells of a placement table row that exist (17 relative ranks × 9 file distances).
pub const PLACEMENT_CELLS: usize = 17 * 9;

const fn flatten(table: &PlacementTable) -> FlatTable {
    let mut t = [[0i16; 256]; CLASSES];
    let mut c = 0;
    while c < CLASSES {
        let mut cell = 0;
        while cell < PLACEMENT_CELLS {
            t[c][cell] = table[c][cell / 9][cell % 9];
            cell += 1;
        }
        c += 1;
    }
    t
}

/// Every number the evaluation adds up, as one value that a file (`EvalFile`, `tsumugi learn
/// fit`) can replace: the hand-set numbers above are [`Weights::hand_set`]. The shapes that are
/// not weights (the king zone, the pawn cap of the hand danger, the danger threshold, divisor
/// and cap) stay constants. Move ordering and exchange evaluation keep the hand-set piece values:
/// they rank moves, and a learnt evaluation should not change which captures are searched first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value on the board by `PieceKind::index()` (0 and the king unused).
    pub board: [i32; PieceKind::NUM],
    /// Value in hand by the unpromoted kind's index (0 unused; the king's slot is SEE's).
    pub hand: [i32; 9],
    pub tempo: i32,
    /// By the king's relative rank (0: the far rank).
    pub king_rank: [i32; 9],
    /// Placement relative to the own king and to the enemy king.
    pub own_king: FlatTable,
    pub enemy_king: FlatTable,
    /// Centipawns per square attacked by a bishop/horse and by a rook/dragon.
    pub mobility_bishop: i32,
    pub mobility_rook: i32,
    /// Percent of the second-largest loss of two pieces en prise (see `eval::fork_penalty`).
    pub fork_share_pct: i32,
    /// The danger units of the king-safety terms (see the `KS_` constants).
    pub ks_attack: i32,
    pub ks_weak: i32,
    pub ks_undefended_adjacent: i32,
    pub ks_escapes: [i32; 9],
    pub ks_hand: [i32; 8],
    pub ks_open_file: i32,
    pub ks_defender: i32,
    /// Square control near each king: by Chebyshev distance from the king (1 to
    /// [`CONTROL_DISTANCES`]) and by how often each side attacks the square (0, 1, 2 or more:
    /// index `3·ours + theirs`), per square, for the squares around the side's own king and
    /// around the enemy king. Zero in the hand-set weights; learnt by `tsumugi learn fit`.
    pub control_own: [i32; CONTROL_CELLS],
    pub control_enemy: [i32; CONTROL_CELLS],
    /// Whether a control weight is not zero, set where the tables are (here and in
    /// `Weights::from_vector`): the evaluation skips the term without reading 72 numbers.
    pub control_on: bool,
}

/// Distances from a king whose squares' control is weighed.
pub const CONTROL_DISTANCES: usize = 4;
/// Cells of a control table: distance × (our attacks 0..2) × (their attacks 0..2).
pub const CONTROL_CELLS: usize = CONTROL_DISTANCES * 9;

impl Weights {
    /// The hand-set weights of this file.
    pub fn hand_set() -> Weights {
        Weights {
            board: BOARD_VALUE,
            hand: HAND_VALUE,
            tempo: TEMPO,
            king_rank: KING_RANK,
            own_king: flatten(&OWN_KING_TABLE),
            enemy_king: flatten(&ENEMY_KING_TABLE),
            mobility_bishop: MOBILITY_BISHOP,
            mobility_rook: MOBILITY_ROOK,
            fork_share_pct: FORK_SHARE_PCT,
            ks_attack: KS_ATTACK,
            ks_weak: KS_WEAK,
            ks_undefended_adjacent: KS_UNDEFENDED_ADJACENT,
            ks_escapes: KS_ESCAPES,
            ks_hand: KS_HAND,
            ks_open_file: KS_OPEN_FILE,
            ks_defender: KS_DEFENDER,
            control_own: [0; CONTROL_CELLS],
            control_enemy: [0; CONTROL_CELLS],
            control_on: false,
        }
    }
}

/// The weights learnt from self-play by `tsumugi learn` (+76 Elo against the hand-set ones in
/// self-play, 64.5 % against 46.0 % for the hand-set ones against YaneuraOu-material level 1:
/// benches/history/18-learnt-evaluation-weights.md): the engine's default.
pub const LEARNT_FILE: &str = include_str!("learnt.weights");

static LEARNT: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(|| {
    // Checked by a test; the hand-set weights stand in should the file ever fail to read.
    Weights::from_file_text(LEARNT_FILE, "learnt.weights").unwrap_or_else(|_| Weights::hand_set())
});

impl Weights {
    /// The built-in learnt weights (see [`LEARNT_FILE`]).
    pub fn learnt() -> Weights {
        LEARNT.clone()
    }
}

impl Default for Weights {
    /// The learnt weights.
    fn default() -> Weights {
        Weights::learnt()
    }
}

/// The hand-set weights, built once: the evaluation's own, where it is called without
/// an engine's weights (move ordering's callers, tests).
pub static HAND_SET: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(Weights::hand_set);
