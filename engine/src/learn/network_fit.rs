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

use crate::eval::network::features::{FEATURES, PER_BUCKET};
use crate::eval::network::L1;
use crate::learn::early_stop::{EarlyStop, Epoch};
use crate::learn::network_data::sigmoid;
pub use crate::learn::network_data::{fit_scale, Encoded};
use crate::learn::network_model::{
    FloatNet, Trace, DENSE, FT_BIAS_AT, HIDDEN_CLIP, L2_AT, L2_BIAS_AT, L3_AT, L3_BIAS_AT,
};
use crate::tools::xorshift::XorShift64;

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

/// The result of a training run.
pub struct NetFit {
    pub net: FloatNet,
    /// Epoch 0 is the starting weights.
    pub epochs: Vec<Epoch>,
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

/// Trains a network on `data`, from `start` (a network to go on from, whose losses are then
/// epoch 0's) or from small random weights; `on_epoch` hears each epoch as it ends.
pub fn train(
    data: &mut Encoded,
    settings: &NetSettings,
    start: Option<FloatNet>,
    mut on_epoch: impl FnMut(usize, &Epoch),
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
    let mut net = start.unwrap_or_else(|| FloatNet::new(settings.seed));
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
        Epoch { train_loss: mean(0), held_out_loss: mean(1) }
    };
    let first = measure(&net);
    on_epoch(0, &first);
    let held_out = data.held_out.iter().any(|&h| h);
    let mut stop = EarlyStop::new(&net, first, held_out, settings.patience);
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
        if stop.after_epoch(epoch, &net, e) {
            break;
        }
    }
    Ok(NetFit { net: stop.best, epochs: stop.epochs, best_epoch: stop.best_epoch, scale })
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
    use crate::learn::data::Sample;
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
        let a = train(&mut data, &tiny_settings(), None, |_, _| {}).expect("train");
        assert!(a.epochs[a.best_epoch].train_loss < 0.8 * a.epochs[0].train_loss, "{:?}", a.epochs);
        let two = NetSettings { threads: 2, ..tiny_settings() };
        let b = train(&mut data, &two, None, |_, _| {}).expect("train");
        assert!(a.net.quantise() == b.net.quantise());
        assert_eq!(a.epochs, b.epochs);
    }

    /// A network file read back into the trainer quantises to the same file, and a run from
    /// it starts where that network stands: epoch 0's loss is the engine's network's loss.
    #[test]
    fn training_goes_on_from_a_network_file() {
        let builtin = crate::eval::network::builtin().expect("a built-in network");
        let start = FloatNet::from_network(&builtin);
        assert!(start.quantise() == *builtin, "the round trip changed the network");
        let samples = made_up(10);
        let (mut data, _) = Encoded::of(&samples, 60);
        let settings = NetSettings { epochs: 1, ..tiny_settings() };
        let fit = train(&mut data, &settings, Some(start), |_, _| {}).expect("train");
        let engine_loss = loss_of_values(
            (0..data.len()).filter(|&i| !data.held_out[i]).map(|i| {
                let v = crate::learn::network_model::quantised_eval_cp(&builtin, &data, i);
                (v as f32, data.scores[i], data.results[i])
            }),
            &settings,
            400.0,
        );
        let epoch0 = fit.epochs[0].train_loss;
        assert!(
            (epoch0 - engine_loss).abs() < 0.02 * engine_loss,
            "{epoch0} against {engine_loss}"
        );
        let fresh = train(&mut data, &settings, None, |_, _| {}).expect("train");
        assert!((fresh.epochs[0].train_loss - engine_loss).abs() > 0.1 * engine_loss);
    }

    /// The quantised network gives about the float network's value, through the engine's
    /// accumulator.
    #[test]
    fn the_quantised_network_evaluates_as_the_float_one() {
        let samples = made_up(10);
        let (mut data, _) = Encoded::of(&samples, 60);
        let fit = train(&mut data, &NetSettings { epochs: 2, ..tiny_settings() }, None, |_, _| {})
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
