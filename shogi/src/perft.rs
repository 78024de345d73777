//! Perft: counts the leaves of the legal move tree, a check of move generation against
//! published numbers. The last ply is bulk-counted (its moves are generated, not made), as
//! YaneuraOu and other references count.

use crate::movegen::legal_moves;
use crate::movelist::MoveList;
use crate::position::Position;

pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}
