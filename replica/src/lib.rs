//! shtsume's search, replicated to be walked beside shtsume's own (issue 80).
//!
//! The replica follows the design of shtsume (<https://github.com/hkijin/shtsume>), MIT
//! licence, © Hkijin. It is our own code, written from shtsume's ideas as its author describes
//! them; no code is copied.
//!
//! Not a user's search: an instrument, in a crate of its own so that the solver carries none of
//! it. Each file ports one of shtsume's mechanisms as its author describes it, on our rules
//! core, so that the replica's expansions can be compared with a traced shtsume's one for one
//! and the first place where they part names what the replica still does otherwise
//! (benches/history/45). The binary `tsumugi-replica FILE...` ([`command`]) runs it.
//!
//! Its shared vocabulary mirrors shtsume's: an [`Entry`] is one choice at a node (shtsume's
//! `mvlist_t`), a chain of moves of which the first is the one searched; [`Square`]s are
//! visited in shtsume's order ([`sht_index`]), which decides the order of equal moves.

mod call_log;
pub mod checks;
pub mod codes;
pub mod command;
pub mod evasions;
mod futile;
pub mod numbers;
pub mod pieces;
mod sdata;
pub mod search;
mod static_mate;
pub mod table;
#[cfg(test)]
mod table_replay;
mod table_store;

use shogi::{Hand, Move, Square};

/// shtsume's infinity (`INFINATE`, `SHRT_MAX`): pn or dn of a solved side.
pub const INFINITE: u16 = i16::MAX as u16;
/// shtsume's root pn threshold is `PROOF_MAX - 1`.
pub const PROOF_MAX: u16 = 256;
/// Above this the AND node folds its hardest defence (`PRE_PROOF_MAX`).
pub const PRE_PROOF_MAX: u16 = 240;
/// Above this the AND node folds its next easiest defence (`PRE_DISPROOF_MAX`).
pub const PRE_DISPROOF_MAX: u16 = 1024;
/// The deepest search (`TSUME_MAX_DEPTH`), the root's `sh` threshold.
pub const MAX_DEPTH: u16 = 2000;

/// One choice at a node, shtsume's `mvlist_t`: a chain of moves (`moves[0]` is searched; the
/// others are interpositions folded behind it that split off when it is proven) and what the
/// table or a search says of the position after it.
#[derive(Clone, Debug, Default)]
pub struct Entry {
    pub moves: Vec<Move>,
    pub pn: u16,
    pub dn: u16,
    /// Height of the proof (or disproof) tree below, in plies (`tdata.sh`).
    pub sh: u16,
    /// Proof hand (proven) or disproof hand (disproven): the attacker's pieces that matter
    /// (`mkey`).
    pub hand: Hand,
    /// The mate leaves pieces in the attacker's hand that the proof hand needs (`hinc`).
    pub hinc: bool,
    /// The mate leaves the attacker pieces in hand (`inc`: a mate with pieces to spare).
    pub inc: bool,
    /// The move has been searched from this node (`search`).
    pub search: bool,
    /// The position is on the current path (`cu`).
    pub cu: bool,
    /// Protected from collection (`pr`).
    pub pr: bool,
    /// The king's distance to the move's destination (`length`, 4 bits in shtsume).
    pub length: u8,
    /// Pieces left in hand at the mate: the proof hand's count (`nouse`) and the whole hand's
    /// (`nouse2`).
    pub nouse: u8,
    pub nouse2: u8,
    /// Auxiliary proof number (`spn`).
    pub spn: u16,
}

impl Entry {
    /// An entry for a single move, at shtsume's initial numbers (pn 1, dn 1, sh 0).
    pub fn new(m: Move) -> Entry {
        Entry { moves: vec![m], pn: 1, dn: 1, ..Entry::default() }
    }
    pub fn chain(moves: Vec<Move>) -> Entry {
        Entry { moves, pn: 1, dn: 1, ..Entry::default() }
    }
    pub fn head(&self) -> Move {
        self.moves[0]
    }
}

/// shtsume's square index: rank-major from 1a (`B11` = 0, `B21` = 1, ..., `B99` = 80). Its
/// generators visit squares from the lowest index (`min_pos`).
pub fn sht_index(sq: Square) -> usize {
    let (file, rank) = (sq.index() / 9, sq.index() % 9);
    rank * 9 + file
}

/// The square at shtsume's index `i` (0..81).
pub fn from_sht_index(i: usize) -> Square {
    let (rank, file) = (i / 9, i % 9);
    Square::from_index_unchecked((file * 9 + rank) as u8)
}

/// What the move generators ask of the table: whether the position (after an interposition
/// tried in passing) is already proven mate for the attacker (`hs_tbase_lookup`).
pub trait ProvenLookup {
    fn is_proven(&self, pos: &shogi::Position, ply: u16) -> bool;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sht_index_is_rank_major_from_1a() {
        // Ours is file-major (1a = 0, 1b = 1, 2a = 9); shtsume's rank-major.
        let sq = |i: u8| Square::from_index_unchecked(i);
        assert_eq!(sht_index(sq(0)), 0, "1a");
        assert_eq!(sht_index(sq(9)), 1, "2a");
        assert_eq!(sht_index(sq(1)), 9, "1b");
        assert_eq!(sht_index(sq(80)), 80, "9i");
        for i in 0..81 {
            assert_eq!(sht_index(from_sht_index(i)), i);
        }
    }
}
