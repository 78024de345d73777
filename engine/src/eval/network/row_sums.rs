//! The first layer's sums as a base plus and minus feature rows: a move's few rows
//! ([`super::features::Delta`]) onto the parent's sums, or a view's every row onto the biases
//! when it is computed again. With AVX2 the 128 sums stay in eight registers while the rows
//! are added (each row read once, the sums written once), where adding row by row into memory
//! read and wrote the sums again for every row. Wrapping `i16` arithmetic either way, so the
//! same sums.

use super::L1;

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// `out = base − Σ rows(removed) + Σ rows(added)`, the rows of `weights` being `L1` wide.
#[inline]
pub fn apply(
    base: &[i16; L1],
    out: &mut [i16; L1],
    weights: &[i16],
    removed: &[usize],
    added: &[usize],
) {
    #[cfg(target_arch = "x86_64")]
    if super::simd_available() {
        // SAFETY: the processor has AVX2 (checked at run time); every row index is checked
        // against `weights` below before any load.
        return unsafe { apply_avx2(base, out, weights, removed, added) };
    }
    apply_scalar(base, out, weights, removed, added)
}

/// Starts loading the row of feature `f` (its four cache lines) for an [`apply`] soon after.
#[inline(always)]
pub fn prefetch_row(weights: &[i16], f: usize) {
    if let Some(row) = weights.get(f * L1..(f + 1) * L1) {
        for line in row.chunks(32) {
            crate::search::prefetch::prefetch(line.as_ptr());
        }
    }
}

/// [`apply`] without vector instructions.
pub fn apply_scalar(
    base: &[i16; L1],
    out: &mut [i16; L1],
    weights: &[i16],
    removed: &[usize],
    added: &[usize],
) {
    out.copy_from_slice(base);
    for &f in removed {
        for (s, &w) in out.iter_mut().zip(&weights[f * L1..(f + 1) * L1]) {
            *s = s.wrapping_sub(w);
        }
    }
    for &f in added {
        for (s, &w) in out.iter_mut().zip(&weights[f * L1..(f + 1) * L1]) {
            *s = s.wrapping_add(w);
        }
    }
}

/// Registers of 16 sums that hold a whole view.
#[cfg(target_arch = "x86_64")]
const LANES: usize = L1 / 16;

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn apply_avx2(
    base: &[i16; L1],
    out: &mut [i16; L1],
    weights: &[i16],
    removed: &[usize],
    added: &[usize],
) {
    let rows = weights.len() / L1;
    assert!(removed.iter().chain(added).all(|&f| f < rows), "feature row out of range");
    let mut acc = [_mm256_setzero_si256(); LANES];
    for (i, a) in acc.iter_mut().enumerate() {
        *a = _mm256_loadu_si256(base.as_ptr().add(16 * i) as *const __m256i);
    }
    for &f in removed {
        let row = weights.as_ptr().add(f * L1);
        for (i, a) in acc.iter_mut().enumerate() {
            *a = _mm256_sub_epi16(*a, _mm256_loadu_si256(row.add(16 * i) as *const __m256i));
        }
    }
    for &f in added {
        let row = weights.as_ptr().add(f * L1);
        for (i, a) in acc.iter_mut().enumerate() {
            *a = _mm256_add_epi16(*a, _mm256_loadu_si256(row.add(16 * i) as *const __m256i));
        }
    }
    for (i, a) in acc.iter().enumerate() {
        _mm256_storeu_si256(out.as_mut_ptr().add(16 * i) as *mut __m256i, *a);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::tests::random_network;

    /// Both paths give the same sums for random bases and row sets, wrapping included.
    #[test]
    fn vector_and_scalar_sums_agree() {
        let net = random_network(11);
        let features = net.ft_weights.len() / L1;
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for round in 0..300 {
            let mut base = [0i16; L1];
            base.iter_mut().for_each(|b| *b = next() as i16);
            let removed: Vec<usize> = (0..round % 4).map(|_| next() as usize % features).collect();
            let added: Vec<usize> = (0..round % 77).map(|_| next() as usize % features).collect();
            let (mut fast, mut slow) = ([0i16; L1], [0i16; L1]);
            apply(&base, &mut fast, &net.ft_weights, &removed, &added);
            apply_scalar(&base, &mut slow, &net.ft_weights, &removed, &added);
            assert!(fast == slow, "round {round}");
            if round % 77 > 0 {
                assert!(fast != base, "round {round}: the rows changed nothing");
            }
        }
    }
}
