//! The network evaluation (NNUE kind): a first layer over the [`features`] of each side's view,
//! kept up to date move by move ([`accumulator`]), then two small dense layers and the output.
//! Beside the first layer, each feature has one linear weight (its *psqt*, as in Stockfish's
//! networks) summed the same way, and half the difference of the two views' sums is added to
//! the output: material and placement are learnt there as fast as a linear evaluation learns
//! them, and the layers learn the rest.
//!
//! Integers throughout, so that every build gives the same numbers: the first layer in `i16`
//! (1.0 = [`QA`]), activations clipped to `0..=QA` as `u8`, the dense layers' weights in `i8`
//! (1.0 = [`QW`]) summed in `i32`. The output, `y` in units of 100 centipawns as the trainer
//! sees it, comes out as `y * QA * QW`. The dense layers run with AVX2 where the processor has
//! it and a scalar path otherwise: the same integer sums, so the same value.

pub mod accumulator;
pub mod features;
pub mod file;
pub mod row_sums;
mod simd;

use features::FEATURES;

/// First-layer outputs per view.
pub const L1: usize = 128;
/// Outputs of the two dense layers.
pub const L2: usize = 32;
pub const L3: usize = 32;
/// The first layer's scale: an activation of 1.0 is this.
pub const QA: i32 = 127;
/// The dense layers' weight scale, and its power of two.
pub const QW: i32 = 1 << QW_SHIFT;
pub const QW_SHIFT: u32 = 6;

/// The weights of a network, quantised.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// `FEATURES` rows of `L1`.
    pub ft_weights: Vec<i16>,
    pub ft_bias: Vec<i16>,
    /// One linear weight per feature, in output units (`y * QA * QW`).
    pub psqt: Vec<i32>,
    /// `L2` rows of `2 * L1` (the side to move's view first). Whoever writes them calls
    /// [`Network::prepare`] after.
    pub l2_weights: Vec<i8>,
    pub l2_bias: Vec<i32>,
    /// `L3` rows of `L2`.
    pub l3_weights: Vec<i8>,
    pub l3_bias: Vec<i32>,
    pub out_weights: Vec<i16>,
    pub out_bias: i32,
    /// `l2_weights` by groups of four inputs, for the sparse kernel ([`columns_of`]).
    l2_columns: Vec<i8>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({FEATURES}x{L1} -> {L2} -> {L3} -> 1)")
    }
}

impl Network {
    /// A network of zeros (evaluates every position as 0).
    pub fn zeros() -> Network {
        Network {
            ft_weights: vec![0; FEATURES * L1],
            ft_bias: vec![0; L1],
            psqt: vec![0; FEATURES],
            l2_weights: vec![0; L2 * 2 * L1],
            l2_bias: vec![0; L2],
            l3_weights: vec![0; L3 * L2],
            l3_bias: vec![0; L3],
            out_weights: vec![0; L3],
            out_bias: 0,
            l2_columns: vec![0; L2 * 2 * L1],
        }
    }

    /// Derives what the vectorised path reads from the weights (the second layer's weights by
    /// groups of four inputs): to be called after writing `l2_weights`.
    pub fn prepare(&mut self) {
        self.l2_columns = columns_of(&self.l2_weights);
    }

    /// The first-layer row of feature `f`.
    #[inline(always)]
    pub fn feature_row(&self, f: usize) -> &[i16] {
        &self.ft_weights[f * L1..(f + 1) * L1]
    }

    /// The value for the side to move, in centipawns, from the two views' first-layer sums
    /// and the difference of their psqt sums (ours minus theirs).
    #[inline]
    pub fn evaluate(&self, ours: &[i16; L1], theirs: &[i16; L1], psqt: i32) -> i32 {
        let layers = if simd_available() {
            // SAFETY: the processor has AVX2 (checked at run time).
            unsafe { self.evaluate_avx2(ours, theirs) }
        } else {
            self.forward(ours, theirs)
        };
        to_centipawns(layers, psqt)
    }

    /// [`Network::evaluate`] on the scalar path, whatever the processor.
    pub fn evaluate_scalar(&self, ours: &[i16; L1], theirs: &[i16; L1], psqt: i32) -> i32 {
        to_centipawns(self.forward(ours, theirs), psqt)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_avx2(&self, ours: &[i16; L1], theirs: &[i16; L1]) -> i32 {
        let input = transform(ours, theirs);
        let mut hidden2 = [0u8; L2];
        simd::sparse_dense_avx2(&input, &self.l2_columns, &self.l2_bias, &mut hidden2);
        let mut hidden3 = [0u8; L3];
        simd::dense_avx2(&hidden2, &self.l3_weights, &self.l3_bias, &mut hidden3);
        self.output(&hidden3)
    }

    #[cfg(not(target_arch = "x86_64"))]
    unsafe fn evaluate_avx2(&self, ours: &[i16; L1], theirs: &[i16; L1]) -> i32 {
        self.forward(ours, theirs)
    }

    /// The layers after the first, scalar.
    fn forward(&self, ours: &[i16; L1], theirs: &[i16; L1]) -> i32 {
        let input = transform(ours, theirs);
        let mut hidden2 = [0u8; L2];
        dense(&input, &self.l2_weights, &self.l2_bias, &mut hidden2);
        let mut hidden3 = [0u8; L3];
        dense(&hidden2, &self.l3_weights, &self.l3_bias, &mut hidden3);
        self.output(&hidden3)
    }

    #[inline(always)]
    fn output(&self, hidden3: &[u8; L3]) -> i32 {
        let mut out = self.out_bias;
        for (&a, &w) in hidden3.iter().zip(self.out_weights.iter()) {
            out += i32::from(a) * i32::from(w);
        }
        out
    }
}

/// The two views' sums clipped to `0..=QA`, the side to move's first.
#[inline(always)]
fn transform(ours: &[i16; L1], theirs: &[i16; L1]) -> [u8; 2 * L1] {
    let mut input = [0u8; 2 * L1];
    for (a, &s) in input[..L1].iter_mut().zip(ours.iter()) {
        *a = s.clamp(0, QA as i16) as u8;
    }
    for (a, &s) in input[L1..].iter_mut().zip(theirs.iter()) {
        *a = s.clamp(0, QA as i16) as u8;
    }
    input
}

/// The second layer's weights (`L2` rows of `2 * L1`) by groups of four inputs: for group `g`
/// and output `j`, the weights of inputs `4g..4g + 4` into `j` at `(g * L2 + j) * 4`.
fn columns_of(rows: &[i8]) -> Vec<i8> {
    let inputs = 2 * L1;
    let mut columns = vec![0; rows.len()];
    for j in 0..L2 {
        for k in 0..inputs {
            columns[((k / 4) * L2 + j) * 4 + k % 4] = rows[j * inputs + k];
        }
    }
    columns
}

/// The output (`y * QA * QW`, 1.0 of `y` being 100 centipawns) from the layers' part and the
/// psqt difference.
#[inline(always)]
fn to_centipawns(layers: i32, psqt: i32) -> i32 {
    (layers + psqt / 2) * 100 / (QA * QW)
}

/// One dense layer with its clipped activation: `out[j] = clamp((b[j] + w[j] . x) / QW)`.
fn dense<const IN: usize, const OUT: usize>(
    input: &[u8; IN],
    weights: &[i8],
    bias: &[i32],
    out: &mut [u8; OUT],
) {
    for (j, o) in out.iter_mut().enumerate() {
        let row = &weights[j * IN..(j + 1) * IN];
        let mut sum = 0i32;
        for (&x, &w) in input.iter().zip(row.iter()) {
            sum += i32::from(x) * i32::from(w);
        }
        *o = ((bias[j] + sum) >> QW_SHIFT).clamp(0, QA) as u8;
    }
}

/// The weights file built into the program (`engine/nets/`; the commands and seeds that made
/// it are in benches/history/: net4 in 27-engine-v-third-session.md, trained on from net3 of
/// 22-network-third-session.md).
static BUILTIN_FILE: &[u8] = include_bytes!("../../../nets/tsumugi.nnue");

/// The network built into the program, read from its file once (`None` if that file were not
/// a network of this build's sizes: the engine then evaluates with the linear weights).
pub fn builtin() -> Option<std::sync::Arc<Network>> {
    static BUILTIN: std::sync::OnceLock<Option<std::sync::Arc<Network>>> =
        std::sync::OnceLock::new();
    BUILTIN.get_or_init(|| file::from_bytes(BUILTIN_FILE).ok().map(std::sync::Arc::new)).clone()
}

/// Whether this processor runs the AVX2 path.
#[inline(always)]
pub fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A network with every weight drawn from a fixed pseudo-random sequence.
    pub(crate) fn random_network(seed: u64) -> Network {
        let mut s = seed | 1;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut net = Network::zeros();
        net.ft_weights.iter_mut().for_each(|w| *w = (next() % 61) as i16 - 30);
        net.ft_bias.iter_mut().for_each(|w| *w = (next() % 101) as i16);
        net.psqt.iter_mut().for_each(|w| *w = (next() % 20001) as i32 - 10000);
        net.l2_weights.iter_mut().for_each(|w| *w = (next() % 255) as i8);
        net.l2_bias.iter_mut().for_each(|w| *w = (next() % 4001) as i32 - 2000);
        net.l3_weights.iter_mut().for_each(|w| *w = (next() % 255) as i8);
        net.l3_bias.iter_mut().for_each(|w| *w = (next() % 4001) as i32 - 2000);
        net.out_weights.iter_mut().for_each(|w| *w = (next() % 2001) as i16 - 1000);
        net.out_bias = 1234;
        net.prepare();
        net
    }

    /// The vectorised and the scalar paths give the same value on many inputs.
    #[test]
    fn simd_and_scalar_give_the_same_value() {
        let net = random_network(7);
        let mut s = 99u64;
        let mut distinct = std::collections::HashSet::new();
        for round in 0..400 {
            let mut ours = [0i16; L1];
            let mut theirs = [0i16; L1];
            // Every other round mostly zeros after clipping, as the first layer's outputs
            // are: whole groups of four inputs are skipped by the sparse kernel.
            let below = if round % 2 == 0 { 150 } else { 1_000 };
            for v in ours.iter_mut().chain(theirs.iter_mut()) {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *v = ((s >> 33) % (below + 250)) as i16 - below as i16;
            }
            let scalar = net.evaluate_scalar(&ours, &theirs, 300);
            assert_eq!(net.evaluate(&ours, &theirs, 300), scalar);
            distinct.insert(scalar);
        }
        // The inputs reach the output: not one value for all.
        assert!(distinct.len() > 100, "{}", distinct.len());
    }

    /// The sparse kernel's weights follow the rows: rewritten rows, once prepared, give the
    /// same value on both paths again, and unprepared ones would not (the test can fail).
    #[test]
    fn prepared_columns_follow_rewritten_weights() {
        let mut net = random_network(3);
        let (ours, theirs) = ([40i16; L1], [90i16; L1]);
        net.l2_weights.iter_mut().for_each(|w| *w = w.wrapping_add(17));
        let stale = net.evaluate(&ours, &theirs, 0);
        net.prepare();
        assert_eq!(net.evaluate(&ours, &theirs, 0), net.evaluate_scalar(&ours, &theirs, 0));
        if simd_available() {
            assert_ne!(stale, net.evaluate(&ours, &theirs, 0));
        }
    }
}
