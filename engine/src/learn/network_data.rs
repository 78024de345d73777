//! Training positions for the network trainer, encoded once: each position's active features
//! from both views (the side to move's first), its labels, and whether its game is held out.

use crate::eval::network::features::{View, MAX_ACTIVE};
use crate::learn::data::Sample;
use std::collections::HashSet;

/// Positions as feature lists of both views (the side to move's first), with their targets.
pub struct Encoded {
    pub(crate) features: Vec<u16>,
    /// Per position: where its views' features start, and where they end.
    pub(crate) bounds: Vec<[u32; 3]>,
    pub(crate) results: Vec<f32>,
    pub(crate) scores: Vec<f32>,
    pub(crate) targets: Vec<f32>,
    pub(crate) held_out: Vec<bool>,
}

impl Default for Encoded {
    fn default() -> Encoded {
        Encoded::new()
    }
}

impl Encoded {
    /// No positions yet.
    pub fn new() -> Encoded {
        Encoded {
            features: Vec::new(),
            bounds: Vec::new(),
            results: Vec::new(),
            scores: Vec::new(),
            targets: Vec::new(),
            held_out: Vec::new(),
        }
    }

    /// Encodes `samples`, each `per_game` positions one game (see [`Encoded::push`]).
    /// Returns them and how many were left out.
    pub fn of(samples: &[Sample], per_game: usize) -> (Encoded, usize) {
        let mut e = Encoded::new();
        let mut seen = HashSet::new();
        let per_game = per_game.max(1);
        let kept =
            samples.iter().enumerate().filter(|(i, s)| e.push(s, i / per_game, &mut seen)).count();
        (e, samples.len() - kept)
    }

    /// Adds one position of game `game`; a duplicate (same board, hands and side to move, by
    /// the keys in `seen`) or a position without both kings is left out (`false`). The
    /// positions of every tenth game (by a hash of its number) are held out.
    pub fn push(&mut self, s: &Sample, game: usize, seen: &mut HashSet<u64>) -> bool {
        let pos = &s.position;
        let key = pos.key();
        let stm = pos.side_to_move();
        let (Some(ours), Some(theirs)) = (View::of(pos, stm), View::of(pos, !stm)) else {
            return false;
        };
        if !seen.insert(key) {
            return false;
        }
        let mut active = [0; MAX_ACTIVE];
        let start = self.features.len() as u32;
        let n = ours.active(pos, &mut active);
        self.features.extend(active[..n].iter().map(|&f| f as u16));
        let mid = self.features.len() as u32;
        let n = theirs.active(pos, &mut active);
        self.features.extend(active[..n].iter().map(|&f| f as u16));
        self.bounds.push([start, mid, self.features.len() as u32]);
        self.results.push(s.result as f32);
        self.scores.push(s.score as f32);
        self.targets.push(s.result as f32);
        let game_hash = (game as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.held_out.push(game_hash >> 32 & 0xffff < 0xffff / 10);
        true
    }

    /// Whether position `i` is held out.
    pub fn is_held_out(&self, i: usize) -> bool {
        self.held_out[i]
    }

    /// How many positions are held out.
    pub fn held_out(&self) -> usize {
        self.held_out.iter().filter(|&&h| h).count()
    }

    pub fn len(&self) -> usize {
        self.bounds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bounds.is_empty()
    }

    pub(crate) fn views(&self, i: usize) -> [&[u16]; 2] {
        let [a, b, c] = self.bounds[i];
        [&self.features[a as usize..b as usize], &self.features[b as usize..c as usize]]
    }
}

pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The logistic scale that best fits the game results from the search scores (the
/// cross-entropy of `sigmoid(score / K)` against the result; golden-section over 50..3000).
pub fn fit_scale(data: &Encoded) -> f64 {
    let loss = |k: f64| -> f64 {
        let mut sum = 0.0;
        for (&s, &r) in data.scores.iter().zip(&data.results) {
            let p = sigmoid(f64::from(s) / k).clamp(1e-12, 1.0 - 1e-12);
            let r = f64::from(r);
            sum -= r * p.ln() + (1.0 - r) * (1.0 - p).ln();
        }
        sum
    };
    let (mut lo, mut hi) = (50.0f64, 3000.0f64);
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - golden * (hi - lo);
        let b = lo + golden * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}
