//! Which interpositions of an AND node the board alone shows futile, kept between the node's
//! expansions.
//!
//! In the first proof under tsume rules an interposition that is taken and then mated at once
//! is left out of the node's children ([`super::futility::mated_at_once`]); finding them plays
//! every interposition and every capture of it, a tenth of the solver's time on 寿 although
//! only one expansion in six has a check that can be blocked. A node is expanded again and
//! again under new thresholds, and the answer is the same each time: a cache of the thread's
//! own keeps it by the node's full key ([`super::keyed_cache`]): 32 KiB at first, 512 KiB at
//! most.

use super::keyed_cache::KeyedCache;
use shogi::Bitboard;

/// The futile interpositions of the AND nodes expanded lately, by full key: the squares where
/// every drop is futile, and bit `i` set when the `i`-th interposition by a board move (in the
/// order of the node's moves) is. 32 bytes a slot.
pub(super) type FutileMemo = KeyedCache<(Bitboard, u64), { 1 << 10 }, { 1 << 14 }>;

/// The most board-move interpositions a slot can describe.
pub(super) const MAX_MOVES: usize = 64;
