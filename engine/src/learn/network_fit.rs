//! Training the network evaluation ([`crate::eval::network`]) on labelled positions, in `f32`,
//! then quantising it to the integers the engine runs.
//!
//! The model is the engine's network with the clipped activations as they are (0 to 1), and one
//! addition for thin data: every feature has, besides its row in its king bucket, a row shared
//! by all buckets (a *factor*), so that what a piece on a square is worth is learnt from every
//! position, not only from those of one bucket. At export the shared row is added into each
//! bucket's row, and the engine sees the plain network.
//!
//! The loss is the squared distance between `sigmoid(eval / K)` and the target, the game result
//! blended with the win probability of the search's score (as `learn fit` does); Adam, the
//! first layer's rows updated only when a batch touches them. A tenth of the *games* is held
//! out (a network can tell the positions of one game apart from the others and learn its
//! result: positions held out one by one would not show that); the epoch with the lowest
//! held-out loss is kept.
//!
//! Deterministic: the same data, settings and seed give the same weights, whatever the number
//! of threads (each batch is cut into the same pieces, and the pieces' gradients are summed in
//! the same order).

use crate::eval::network::features::{meaning, Meaning, View, FEATURES, MAX_ACTIVE, PER_BUCKET};
use crate::eval::network::{Network, L1, L2, L3, QA, QW};
use crate::learn::data::Sample;
use crate::tools::xorshift::XorShift64;
use std::collections::HashSet;

/// The settings of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct NetSettings {
    pub epochs: usize,
    /// Epochs without a better held-out loss before stopping.
    pub patience: usize,
    pub batch: usize,
    pub learning_rate: f32,
    /// The learning rate is multiplied by this after each epoch.
    pub decay: f32,
    /// The share of the game result in the target; the rest is the search score's.
    pub result_weight: f64,
    /// The logistic scale in centipawns; `None`: fitted to the results of the search scores.
    pub scale: Option<f64>,
    pub seed: u64,
    pub threads: usize,
    /// Decay of the buckets' own first-layer rows towards zero (the shared rows carry what
    /// the buckets have in common).
    pub bucket_decay: f32,
}

impl Default for NetSettings {
    fn default() -> NetSettings {
        NetSettings {
            epochs: 30,
            patience: 3,
            batch: 1024,
            learning_rate: 2e-3,
            decay: 0.92,
            // The search score only: with half the target from the result, a network learnt
            // each game's result from its positions and held-out games did not improve.
            result_weight: 0.0,
            scale: None,
            seed: 1,
            threads: 1,
            bucket_decay: 10.0,
        }
    }
}

/// Positions as feature lists of both views (the side to move's first), with their targets.
pub struct Encoded {
    features: Vec<u16>,
    /// Per position: where its views' features start, and where they end.
    bounds: Vec<[u32; 3]>,
    results: Vec<f32>,
    scores: Vec<f32>,
    targets: Vec<f32>,
    held_out: Vec<bool>,
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

    fn views(&self, i: usize) -> [&[u16]; 2] {
        let [a, b, c] = self.bounds[i];
        [&self.features[a as usize..b as usize], &self.features[b as usize..c as usize]]
    }
}

/// The network in floating point, with the shared factor rows.
#[derive(Clone)]
pub struct FloatNet {
    ft: Vec<f32>,
    factor: Vec<f32>,
    /// The psqt weights (in units of 100 centipawns), per feature and shared.
    psqt: Vec<f32>,
    psqt_factor: Vec<f32>,
    /// The dense parameters, one vector: see the `*_AT` offsets.
    dense: Vec<f32>,
}

const FT_BIAS_AT: usize = 0;
const L2_AT: usize = FT_BIAS_AT + L1;
const L2_BIAS_AT: usize = L2_AT + L2 * 2 * L1;
const L3_AT: usize = L2_BIAS_AT + L2;
const L3_BIAS_AT: usize = L3_AT + L3 * L2;
const OUT_AT: usize = L3_BIAS_AT + L3;
const OUT_BIAS_AT: usize = OUT_AT + L3;
const DENSE: usize = OUT_BIAS_AT + 1;
/// The dense layers' weights fit the `i8` of the engine: at most 127 / 64.
const HIDDEN_CLIP: f32 = 127.0 / QW as f32;

impl FloatNet {
    /// Small random weights from `seed`.
    pub fn new(seed: u64) -> FloatNet {
        let mut rng = XorShift64::new(seed | 1);
        let mut uniform = |a: f32| ((rng.unit() * 2.0 - 1.0) as f32) * a;
        let mut dense = vec![0.0; DENSE];
        dense[FT_BIAS_AT..L2_AT].iter_mut().for_each(|w| *w = 0.25);
        let a2 = 1.0 / (2.0 * L1 as f32).sqrt();
        dense[L2_AT..L2_BIAS_AT].iter_mut().for_each(|w| *w = uniform(a2));
        let a3 = 1.0 / (L2 as f32).sqrt();
        dense[L3_AT..L3_BIAS_AT].iter_mut().for_each(|w| *w = uniform(a3));
        let ao = 1.0 / (L3 as f32).sqrt();
        dense[OUT_AT..OUT_BIAS_AT].iter_mut().for_each(|w| *w = uniform(ao));
        let factor = (0..PER_BUCKET * L1).map(|_| uniform(0.05)).collect();
        let linear = crate::eval::weights::Weights::default();
        let psqt_factor = (0..PER_BUCKET)
            .map(|f| {
                let (ours, cp) = match meaning(f) {
                    Meaning::Piece { ours, kind } => (ours, linear.board[kind.index()]),
                    Meaning::Hand { ours, kind } => (ours, linear.hand[kind.index()]),
                    Meaning::EnemyKing => (true, 0),
                };
                // Each view counts its own pieces up and the enemy's down; the output takes
                // half the difference of the two views.
                let sign = if ours { 1.0 } else { -1.0 };
                sign * cp as f32 / 100.0
            })
            .collect();
        FloatNet {
            ft: vec![0.0; FEATURES * L1],
            factor,
            psqt: vec![0.0; FEATURES],
            psqt_factor,
            dense,
        }
    }

    /// The psqt sum of one view.
    fn psqt_sum(&self, features: &[u16]) -> f32 {
        features
            .iter()
            .map(|&f| self.psqt[f as usize] + self.psqt_factor[f as usize % PER_BUCKET])
            .sum()
    }

    /// The first layer's sums of one view.
    fn accumulate(&self, features: &[u16], out: &mut [f32; L1]) {
        out.copy_from_slice(&self.dense[FT_BIAS_AT..L2_AT]);
        for &f in features {
            let f = f as usize;
            let row = &self.ft[f * L1..(f + 1) * L1];
            let shared = &self.factor[(f % PER_BUCKET) * L1..(f % PER_BUCKET + 1) * L1];
            for ((o, &w), &s) in out.iter_mut().zip(row).zip(shared) {
                *o += w + s;
            }
        }
    }

    /// The value in units of 100 centipawns, with what backpropagation needs.
    fn forward(&self, views: [&[u16]; 2], t: &mut Trace) -> f32 {
        for (v, features) in views.iter().enumerate() {
            let mut acc = [0.0; L1];
            self.accumulate(features, &mut acc);
            t.z1[v * L1..(v + 1) * L1].copy_from_slice(&acc);
        }
        for (a, &z) in t.a1.iter_mut().zip(t.z1.iter()) {
            *a = z.clamp(0.0, 1.0);
        }
        let d = &self.dense;
        for j in 0..L2 {
            let row = &d[L2_AT + j * 2 * L1..L2_AT + (j + 1) * 2 * L1];
            t.z2[j] = d[L2_BIAS_AT + j] + dot(row, &t.a1);
            t.a2[j] = t.z2[j].clamp(0.0, 1.0);
        }
        for j in 0..L3 {
            let row = &d[L3_AT + j * L2..L3_AT + (j + 1) * L2];
            t.z3[j] = d[L3_BIAS_AT + j] + dot(row, &t.a2);
            t.a3[j] = t.z3[j].clamp(0.0, 1.0);
        }
        let psqt = 0.5 * (self.psqt_sum(views[0]) - self.psqt_sum(views[1]));
        d[OUT_BIAS_AT] + dot(&d[OUT_AT..OUT_BIAS_AT], &t.a3) + psqt
    }

    /// Backpropagates `dy` (the loss's derivative by the output): dense gradients added to
    /// `grad`, the first layer's by view into `d1` (`2 * L1`, then the two psqt sums').
    fn backward(&self, t: &Trace, dy: f32, grad: &mut [f32], d1: &mut [f32]) {
        let d = &self.dense;
        grad[OUT_BIAS_AT] += dy;
        let mut d3 = [0.0f32; L3];
        for j in 0..L3 {
            grad[OUT_AT + j] += dy * t.a3[j];
            d3[j] = if t.z3[j] > 0.0 && t.z3[j] < 1.0 { dy * d[OUT_AT + j] } else { 0.0 };
        }
        let mut d2 = [0.0f32; L2];
        for j in 0..L3 {
            if d3[j] == 0.0 {
                continue;
            }
            grad[L3_BIAS_AT + j] += d3[j];
            let row = L3_AT + j * L2;
            for k in 0..L2 {
                grad[row + k] += d3[j] * t.a2[k];
                d2[k] += d3[j] * d[row + k];
            }
        }
        d1.iter_mut().for_each(|x| *x = 0.0);
        for k in 0..L2 {
            if !(t.z2[k] > 0.0 && t.z2[k] < 1.0) {
                continue;
            }
            grad[L2_BIAS_AT + k] += d2[k];
            let row = L2_AT + k * 2 * L1;
            let (g, w) = (&mut grad[row..row + 2 * L1], &d[row..row + 2 * L1]);
            for i in 0..2 * L1 {
                g[i] += d2[k] * t.a1[i];
                d1[i] += d2[k] * w[i];
            }
        }
        for (g, &z) in d1.iter_mut().zip(t.z1.iter()) {
            if !(z > 0.0 && z < 1.0) {
                *g = 0.0;
            }
        }
        // The psqt sums' gradients, by view.
        d1[2 * L1] = 0.5 * dy;
        d1[2 * L1 + 1] = -0.5 * dy;
    }

    /// The engine's network: the factor rows added into every bucket's rows, every weight
    /// scaled and rounded to its integer type.
    pub fn quantise(&self) -> Network {
        let mut net = Network::zeros();
        let q = |x: f32, scale: f32, max: f32| (x * scale).round().clamp(-max, max);
        for f in 0..FEATURES {
            let shared = (f % PER_BUCKET) * L1;
            for i in 0..L1 {
                let w = self.ft[f * L1 + i] + self.factor[shared + i];
                net.ft_weights[f * L1 + i] = q(w, QA as f32, 32767.0) as i16;
            }
        }
        let d = &self.dense;
        let (qa, qw) = (QA as f32, QW as f32);
        for i in 0..L1 {
            net.ft_bias[i] = q(d[FT_BIAS_AT + i], qa, 32767.0) as i16;
        }
        for f in 0..FEATURES {
            let w = self.psqt[f] + self.psqt_factor[f % PER_BUCKET];
            net.psqt[f] = q(w, qa * qw, 1e9) as i32;
        }
        for k in 0..L2 * 2 * L1 {
            net.l2_weights[k] = q(d[L2_AT + k], qw, 127.0) as i8;
        }
        for k in 0..L3 * L2 {
            net.l3_weights[k] = q(d[L3_AT + k], qw, 127.0) as i8;
        }
        for j in 0..L2 {
            net.l2_bias[j] = q(d[L2_BIAS_AT + j], qa * qw, 1e9) as i32;
        }
        for j in 0..L3 {
            net.l3_bias[j] = q(d[L3_BIAS_AT + j], qa * qw, 1e9) as i32;
            net.out_weights[j] = q(d[OUT_AT + j], qw, 32767.0) as i16;
        }
        net.out_bias = q(d[OUT_BIAS_AT], qa * qw, 1e9) as i32;
        net
    }

    /// The value of encoded position `i` in centipawns, in floating point.
    pub fn eval_cp(&self, data: &Encoded, i: usize) -> f32 {
        100.0 * self.forward(data.views(i), &mut Trace::new())
    }
}

/// The quantised network's value of encoded position `i`, in centipawns (the engine's
/// integer arithmetic, from the position's features).
pub fn quantised_eval_cp(net: &Network, data: &Encoded, i: usize) -> i32 {
    let mut sums = [[0i16; L1]; 2];
    let mut psqt = [0i32; 2];
    for (v, features) in data.views(i).iter().enumerate() {
        sums[v].copy_from_slice(&net.ft_bias);
        for &f in *features {
            for (s, &w) in sums[v].iter_mut().zip(net.feature_row(f as usize)) {
                *s = s.wrapping_add(w);
            }
            psqt[v] += net.psqt[f as usize];
        }
    }
    net.evaluate(&sums[0], &sums[1], psqt[0] - psqt[1])
}

/// How far the quantised network's values are from the float one's on the first `n`
/// positions, and the same for the search scores: (mean |float - quantised|, mean
/// |float - score|), in centipawns.
pub fn quantisation_report(net: &FloatNet, data: &Encoded, n: usize) -> (f64, f64) {
    let q = net.quantise();
    let n = n.min(data.len()).max(1);
    let (mut dq, mut ds) = (0.0, 0.0);
    for i in 0..n.min(data.len()) {
        let float = f64::from(net.eval_cp(data, i));
        dq += (float - f64::from(quantised_eval_cp(&q, data, i))).abs();
        ds += (float - f64::from(data.scores[i])).abs();
    }
    (dq / n as f64, ds / n as f64)
}

#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The forward pass's values, kept for the backward pass.
struct Trace {
    z1: Vec<f32>,
    a1: Vec<f32>,
    z2: [f32; L2],
    a2: [f32; L2],
    z3: [f32; L3],
    a3: [f32; L3],
}

impl Trace {
    fn new() -> Trace {
        Trace {
            z1: vec![0.0; 2 * L1],
            a1: vec![0.0; 2 * L1],
            z2: [0.0; L2],
            a2: [0.0; L2],
            z3: [0.0; L3],
            a3: [0.0; L3],
        }
    }
}

fn sigmoid(x: f64) -> f64 {
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

/// What one epoch measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetEpoch {
    pub train_loss: f64,
    pub held_out_loss: f64,
}

/// The result of a training run.
pub struct NetFit {
    pub net: FloatNet,
    /// Epoch 0 is the starting weights.
    pub epochs: Vec<NetEpoch>,
    pub best_epoch: usize,
    pub scale: f64,
}

/// A position's first-layer gradient: both views' sums, then both views' psqt sums.
const D1: usize = 2 * L1 + 2;

/// Batches are cut into this many pieces, whatever the number of threads, so that the sums
/// come in the same order.
const PIECES: usize = 16;

/// Adam's moments of one parameter vector.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n] }
    }
    #[inline]
    fn step(&mut self, w: &mut [f32], g: &[f32], at: usize, lr: f32, c1: f32, c2: f32) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        for k in 0..g.len() {
            let (m, v) = (&mut self.m[at + k], &mut self.v[at + k]);
            *m = b1 * *m + (1.0 - b1) * g[k];
            *v = b2 * *v + (1.0 - b2) * g[k] * g[k];
            w[k] -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
        }
    }
}

/// The loss's derivative by the network's output `y` (units of 100 cp), and the loss.
#[inline]
fn loss_and_slope(y: f32, target: f32, scale: f64) -> (f64, f32) {
    let k = 100.0 / scale;
    let p = sigmoid(f64::from(y) * k);
    let diff = p - f64::from(target);
    (diff * diff, (2.0 * diff * p * (1.0 - p) * k) as f32)
}

/// The loss the network's training measures, of any evaluation's `values` (centipawns, with
/// each position's search score and result), under `settings`' blend and `scale`: the
/// yardstick of another evaluation on the same positions.
pub fn loss_of_values(
    values: impl Iterator<Item = (f32, f32, f32)>,
    settings: &NetSettings,
    scale: f64,
) -> f64 {
    let share = settings.result_weight.clamp(0.0, 1.0) as f32;
    let (mut sum, mut n) = (0.0, 0usize);
    for (value, score, result) in values {
        let target = share * result + (1.0 - share) * sigmoid(f64::from(score) / scale) as f32;
        sum += loss_and_slope(value / 100.0, target, scale).0;
        n += 1;
    }
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// Trains a network on `data`; `on_epoch` hears each epoch as it ends.
pub fn train(
    data: &mut Encoded,
    settings: &NetSettings,
    mut on_epoch: impl FnMut(usize, &NetEpoch),
) -> Result<NetFit, String> {
    let train: Vec<usize> = (0..data.len()).filter(|&i| !data.held_out[i]).collect();
    if train.is_empty() {
        return Err("no positions to train on".to_string());
    }
    let scale = settings.scale.unwrap_or_else(|| fit_scale(data));
    let share = settings.result_weight.clamp(0.0, 1.0) as f32;
    for i in 0..data.len() {
        let searched = sigmoid(f64::from(data.scores[i]) / scale) as f32;
        data.targets[i] = share * data.results[i] + (1.0 - share) * searched;
    }
    let data = &*data;
    let threads = settings.threads.max(1);
    let mut net = FloatNet::new(settings.seed);
    let measure = |net: &FloatNet| {
        let losses = parallel_map(threads, data.len(), |i| {
            let y = net.forward(data.views(i), &mut Trace::new());
            loss_and_slope(y, data.targets[i], scale).0
        });
        let (mut sums, mut counts) = ([0.0f64; 2], [0usize; 2]);
        for (i, l) in losses.into_iter().enumerate() {
            let h = usize::from(data.held_out[i]);
            sums[h] += l;
            counts[h] += 1;
        }
        let mean = |h: usize| if counts[h] == 0 { 0.0 } else { sums[h] / counts[h] as f64 };
        NetEpoch { train_loss: mean(0), held_out_loss: mean(1) }
    };
    let judged = |e: &NetEpoch| {
        if data.held_out.iter().any(|&h| h) {
            e.held_out_loss
        } else {
            e.train_loss
        }
    };
    let first = measure(&net);
    on_epoch(0, &first);
    let mut epochs = vec![first];
    let (mut best, mut best_epoch, mut best_loss) = (net.clone(), 0, judged(&first));
    let mut adam_ft = Adam::new(FEATURES * L1);
    let mut adam_factor = Adam::new(PER_BUCKET * L1);
    let mut adam_dense = Adam::new(DENSE);
    let mut adam_psqt = Adam::new(FEATURES);
    let mut adam_psqt_factor = Adam::new(PER_BUCKET);
    let mut grad_psqt = vec![0.0f32; FEATURES];
    let mut grad_psqt_factor = vec![0.0f32; PER_BUCKET];
    let mut grad_ft = vec![0.0f32; FEATURES * L1];
    let mut grad_factor = vec![0.0f32; PER_BUCKET * L1];
    let mut touched_ft = vec![false; FEATURES];
    let mut touched_factor = vec![false; PER_BUCKET];
    let mut order = train;
    let mut rng = XorShift64::new(settings.seed | 1);
    let mut lr = settings.learning_rate;
    let mut step = 0i32;
    let batch = settings.batch.max(1);
    for epoch in 1..=settings.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for chunk in order.chunks(batch) {
            // Each piece: its dense gradient, and each position's first-layer gradient.
            let piece_len = chunk.len().div_ceil(PIECES);
            let pieces: Vec<&[usize]> = chunk.chunks(piece_len).collect();
            let results = parallel_map(threads, pieces.len(), |p| {
                let mut grad = vec![0.0f32; DENSE];
                let mut d1s = vec![0.0f32; pieces[p].len() * D1];
                let mut trace = Trace::new();
                for (n, &i) in pieces[p].iter().enumerate() {
                    let y = net.forward(data.views(i), &mut trace);
                    let (_, dy) = loss_and_slope(y, data.targets[i], scale);
                    net.backward(&trace, dy, &mut grad, &mut d1s[n * D1..(n + 1) * D1]);
                }
                (grad, d1s)
            });
            let mut grad = vec![0.0f32; DENSE];
            for (p, (g, d1s)) in results.iter().enumerate() {
                grad.iter_mut().zip(g).for_each(|(a, b)| *a += b);
                for (n, &i) in pieces[p].iter().enumerate() {
                    let d1 = &d1s[n * D1..(n + 1) * D1];
                    for (v, features) in data.views(i).iter().enumerate() {
                        let dv = &d1[v * L1..(v + 1) * L1];
                        let dp = d1[2 * L1 + v];
                        for (b, x) in grad[FT_BIAS_AT..L2_AT].iter_mut().zip(dv) {
                            *b += x;
                        }
                        for &f in *features {
                            let f = f as usize;
                            let s = f % PER_BUCKET;
                            touched_ft[f] = true;
                            touched_factor[s] = true;
                            grad_psqt[f] += dp;
                            grad_psqt_factor[s] += dp;
                            for (g, x) in grad_ft[f * L1..(f + 1) * L1].iter_mut().zip(dv) {
                                *g += x;
                            }
                            for (g, x) in grad_factor[s * L1..(s + 1) * L1].iter_mut().zip(dv) {
                                *g += x;
                            }
                        }
                    }
                }
            }
            step += 1;
            let size = chunk.len() as f32;
            let (c1, c2) = (1.0 - 0.9f32.powi(step), 1.0 - 0.999f32.powi(step));
            grad.iter_mut().for_each(|g| *g /= size);
            adam_dense.step(&mut net.dense, &grad, 0, lr, c1, c2);
            for (range, limit) in
                [(L2_AT..L2_BIAS_AT, HIDDEN_CLIP), (L3_AT..L3_BIAS_AT, HIDDEN_CLIP)]
            {
                net.dense[range].iter_mut().for_each(|w| *w = w.clamp(-limit, limit));
            }
            for f in 0..FEATURES {
                if std::mem::take(&mut touched_ft[f]) {
                    let g = &mut grad_ft[f * L1..(f + 1) * L1];
                    g.iter_mut().for_each(|x| *x /= size);
                    let row = &mut net.ft[f * L1..(f + 1) * L1];
                    adam_ft.step(row, g, f * L1, lr, c1, c2);
                    // A bucket's own row pays for leaving the shared one (decoupled decay).
                    let keep = 1.0 - lr * settings.bucket_decay;
                    row.iter_mut().for_each(|w| *w *= keep);
                    g.iter_mut().for_each(|x| *x = 0.0);
                    let gp = [std::mem::take(&mut grad_psqt[f]) / size];
                    adam_psqt.step(&mut net.psqt[f..f + 1], &gp, f, lr, c1, c2);
                }
            }
            for s in 0..PER_BUCKET {
                if std::mem::take(&mut touched_factor[s]) {
                    let g = &mut grad_factor[s * L1..(s + 1) * L1];
                    g.iter_mut().for_each(|x| *x /= size);
                    adam_factor.step(&mut net.factor[s * L1..(s + 1) * L1], g, s * L1, lr, c1, c2);
                    g.iter_mut().for_each(|x| *x = 0.0);
                    let gp = [std::mem::take(&mut grad_psqt_factor[s]) / size];
                    adam_psqt_factor.step(&mut net.psqt_factor[s..s + 1], &gp, s, lr, c1, c2);
                }
            }
        }
        lr *= settings.decay;
        let e = measure(&net);
        on_epoch(epoch, &e);
        epochs.push(e);
        if judged(&e) < best_loss {
            best_loss = judged(&e);
            best = net.clone();
            best_epoch = epoch;
        } else if epoch - best_epoch >= settings.patience {
            break;
        }
    }
    Ok(NetFit { net: best, epochs, best_epoch, scale })
}

/// `f(0..n)` on `threads` threads, the results in index order.
fn parallel_map<T: Send>(threads: usize, n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    if threads <= 1 || n <= 1 {
        return (0..n).map(f).collect();
    }
    let per = n.div_ceil(threads);
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || (t * per..((t + 1) * per).min(n)).map(f).collect::<Vec<T>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::accumulator::NetAccumulator;
    use shogi::Position;

    /// A made-up data set: positions from a few random games, labelled by material (a
    /// target the network can learn from the features alone).
    fn made_up(n_games: usize) -> Vec<Sample> {
        use shogi::{movegen, MoveClass, MoveList, NonPromotions};
        let mut rng = XorShift64::new(17);
        let mut out = Vec::new();
        for _ in 0..n_games {
            let mut pos = Position::from_sfen(
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            )
            .expect("start");
            for _ in 0..60 {
                let mut legal = MoveList::new();
                movegen::generate(&pos, MoveClass::Legal, NonPromotions::Skip, &mut legal);
                if legal.is_empty() {
                    break;
                }
                pos.make_move(legal[rng.below(legal.len())]);
                let score = crate::eval::material(&pos);
                let result = if score > 100 {
                    1.0
                } else if score < -100 {
                    0.0
                } else {
                    0.5
                };
                out.push(Sample { position: pos.clone(), result, score });
            }
        }
        out
    }

    fn tiny_settings() -> NetSettings {
        NetSettings {
            epochs: 3,
            batch: 64,
            learning_rate: 3e-3,
            scale: Some(400.0),
            threads: 1,
            ..NetSettings::default()
        }
    }

    /// A tiny run lowers its loss, and the same data and seed give the same weights on one
    /// thread and on two.
    #[test]
    fn a_tiny_run_learns_and_is_reproducible() {
        let samples = made_up(40);
        let (mut data, _) = Encoded::of(&samples, 60);
        assert!(data.len() > 1000, "{}", data.len());
        let a = train(&mut data, &tiny_settings(), |_, _| {}).expect("train");
        assert!(a.epochs[a.best_epoch].train_loss < 0.8 * a.epochs[0].train_loss, "{:?}", a.epochs);
        let two = NetSettings { threads: 2, ..tiny_settings() };
        let b = train(&mut data, &two, |_, _| {}).expect("train");
        assert!(a.net.quantise() == b.net.quantise());
        assert_eq!(a.epochs, b.epochs);
    }

    /// The quantised network gives about the float network's value, through the engine's
    /// accumulator.
    #[test]
    fn the_quantised_network_evaluates_as_the_float_one() {
        let samples = made_up(10);
        let (mut data, _) = Encoded::of(&samples, 60);
        let fit = train(&mut data, &NetSettings { epochs: 2, ..tiny_settings() }, |_, _| {})
            .expect("train");
        let net = fit.net.quantise();
        let mut worst = 0.0f32;
        for s in samples.iter().take(200) {
            let (one, _) = Encoded::of(std::slice::from_ref(s), 1);
            let float = fit.net.eval_cp(&one, 0);
            let acc = NetAccumulator::of(&s.position, &net);
            let quantised = acc.evaluate(&net, s.position.side_to_move());
            worst = worst.max((float - quantised as f32).abs());
        }
        assert!(worst < 15.0, "worst difference {worst} cp");
    }
}
