//! The engine facade that front ends drive.
//!
//! PLACEHOLDER: until the real search lands, `search` plays the legal move that wins the most
//! material in one ply, so that front ends can be built and tested against this API.

use crate::control::SearchControl;
use crate::params::Params;
use crate::report::{Score, SearchInfo, SearchLimits, SearchOutcome};
use shogi::{movegen, MoveList, Position};

/// A playing engine: parameters, transposition table and search state, reused across moves.
pub struct Engine {
    params: Params,
    hash_mb: usize,
}

impl Engine {
    pub fn new(params: Params, hash_mb: usize) -> Engine {
        Engine { params, hash_mb }
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    pub fn params_mut(&mut self) -> &mut Params {
        &mut self.params
    }

    /// Resizes the transposition table (USI_Hash), clearing it.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb;
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Forgets everything learnt (`usinewgame`).
    pub fn clear(&mut self) {}

    /// Searches `pos` until `control` or `limits` end it; reports each completed iteration
    /// through `info`. Always returns a legal move when one exists, even if stopped at once.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        control: &SearchControl,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let _ = limits;
        let mut list = MoveList::new();
        movegen::legal_moves(pos, &mut list);
        let best = list.iter().copied().max_by_key(|m| {
            if m.is_drop() {
                0
            } else {
                pos.piece_at(m.to()).get().map_or(0, |(_, k)| k.index() as i32)
            }
        });
        let score = Score::Cp(0);
        if let Some(mv) = best {
            info(&SearchInfo {
                depth: 1,
                seldepth: 1,
                elapsed: control.elapsed(),
                nodes: list.len() as u64,
                hashfull: 0,
                multipv: 1,
                score,
                pv: vec![mv],
            });
        }
        SearchOutcome {
            best,
            ponder: None,
            declare_win: pos.can_declare_win(),
            score,
            nodes: list.len() as u64,
        }
    }
}
