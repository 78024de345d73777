//! The network in floating point as the trainer sees it: the engine's network with a row per
//! feature shared by all king buckets (the *factor*), its forward and backward passes, and its
//! quantisation to the engine's integers.

use crate::eval::network::features::{meaning, Meaning, BUCKETS, FEATURES, PER_BUCKET};
use crate::eval::network::{Network, L1, L2, L3, QA, QW};
use crate::learn::network_data::Encoded;
use crate::tools::xorshift::XorShift64;

/// The network in floating point, with the shared factor rows.
#[derive(Clone)]
pub struct FloatNet {
    pub(crate) ft: Vec<f32>,
    pub(crate) factor: Vec<f32>,
    /// The psqt weights (in units of 100 centipawns), per feature and shared.
    pub(crate) psqt: Vec<f32>,
    pub(crate) psqt_factor: Vec<f32>,
    /// The dense parameters, one vector: see the `*_AT` offsets.
    pub(crate) dense: Vec<f32>,
}

pub(crate) const FT_BIAS_AT: usize = 0;
pub(crate) const L2_AT: usize = FT_BIAS_AT + L1;
pub(crate) const L2_BIAS_AT: usize = L2_AT + L2 * 2 * L1;
pub(crate) const L3_AT: usize = L2_BIAS_AT + L2;
pub(crate) const L3_BIAS_AT: usize = L3_AT + L3 * L2;
pub(crate) const OUT_AT: usize = L3_BIAS_AT + L3;
pub(crate) const OUT_BIAS_AT: usize = OUT_AT + L3;
pub(crate) const DENSE: usize = OUT_BIAS_AT + 1;
/// The dense layers' weights fit the `i8` of the engine: at most 127 / 64.
pub(crate) const HIDDEN_CLIP: f32 = 127.0 / QW as f32;

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

    /// The float network of an engine's network (a network file), to train on from there:
    /// each feature's shared row is the mean of its rows over the king buckets and each
    /// bucket keeps the rest, so the buckets' decay pulls towards what they have in common,
    /// as in a network trained here from the start.
    pub fn from_network(net: &Network) -> FloatNet {
        let (qa, qw) = (QA as f32, QW as f32);
        let mut ft: Vec<f32> = net.ft_weights.iter().map(|&w| f32::from(w) / qa).collect();
        let mut psqt: Vec<f32> = net.psqt.iter().map(|&w| w as f32 / (qa * qw)).collect();
        let mut factor = vec![0.0f32; PER_BUCKET * L1];
        let mut psqt_factor = vec![0.0f32; PER_BUCKET];
        for s in 0..PER_BUCKET {
            let features = (0..BUCKETS).map(|b| b * PER_BUCKET + s);
            let shared = &mut factor[s * L1..(s + 1) * L1];
            for f in features.clone() {
                for (m, &w) in shared.iter_mut().zip(&ft[f * L1..(f + 1) * L1]) {
                    *m += w / BUCKETS as f32;
                }
                psqt_factor[s] += psqt[f] / BUCKETS as f32;
            }
            for f in features {
                for (w, &m) in ft[f * L1..(f + 1) * L1].iter_mut().zip(shared.iter()) {
                    *w -= m;
                }
                psqt[f] -= psqt_factor[s];
            }
        }
        let mut dense = vec![0.0f32; DENSE];
        for i in 0..L1 {
            dense[FT_BIAS_AT + i] = f32::from(net.ft_bias[i]) / qa;
        }
        for k in 0..L2 * 2 * L1 {
            dense[L2_AT + k] = f32::from(net.l2_weights[k]) / qw;
        }
        for k in 0..L3 * L2 {
            dense[L3_AT + k] = f32::from(net.l3_weights[k]) / qw;
        }
        for j in 0..L2 {
            dense[L2_BIAS_AT + j] = net.l2_bias[j] as f32 / (qa * qw);
        }
        for j in 0..L3 {
            dense[L3_BIAS_AT + j] = net.l3_bias[j] as f32 / (qa * qw);
            dense[OUT_AT + j] = f32::from(net.out_weights[j]) / qw;
        }
        dense[OUT_BIAS_AT] = net.out_bias as f32 / (qa * qw);
        FloatNet { ft, factor, psqt, psqt_factor, dense }
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
    pub(crate) fn forward(&self, views: [&[u16]; 2], t: &mut Trace) -> f32 {
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
    pub(crate) fn backward(&self, t: &Trace, dy: f32, grad: &mut [f32], d1: &mut [f32]) {
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
        net.prepare();
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
pub(crate) struct Trace {
    z1: Vec<f32>,
    a1: Vec<f32>,
    z2: [f32; L2],
    a2: [f32; L2],
    z3: [f32; L3],
    a3: [f32; L3],
}

impl Trace {
    pub(crate) fn new() -> Trace {
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
