//! The dense layers with AVX2: 32 input bytes at a time, `u8 x i8` products summed in pairs
//! (`maddubs`, which cannot saturate here: activations are at most 127, so a pair is within
//! ±32,512), then in `i32`. Eight outputs are summed side by side and their eight partial
//! vectors folded into one by horizontal adds, so that no output pays a reduction of its own
//! (that reduction was most of the layer's time). The same sums as the scalar path, so the
//! same value.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Outputs computed side by side.
const ROWS: usize = 8;

/// `out[j] = clamp((bias[j] + w[j] . input) >> QW_SHIFT, 0, QA)`, `IN` a multiple of 32 and
/// `OUT` of 8.
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn dense_avx2<const IN: usize, const OUT: usize>(
    input: &[u8; IN],
    weights: &[i8],
    bias: &[i32],
    out: &mut [u8; OUT],
) {
    debug_assert!(IN.is_multiple_of(32) && OUT.is_multiple_of(ROWS));
    debug_assert!(weights.len() >= IN * OUT && bias.len() >= OUT);
    let ones = _mm256_set1_epi16(1);
    for j0 in (0..OUT).step_by(ROWS) {
        let mut acc = [_mm256_setzero_si256(); ROWS];
        let mut k = 0;
        while k < IN {
            let x = _mm256_loadu_si256(input.as_ptr().add(k) as *const __m256i);
            for (r, a) in acc.iter_mut().enumerate() {
                let w =
                    _mm256_loadu_si256(weights.as_ptr().add((j0 + r) * IN + k) as *const __m256i);
                *a = _mm256_add_epi32(*a, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), ones));
            }
            k += 32;
        }
        // Fold: after two rounds of pairwise adds each 128-bit half holds four rows' partial
        // sums; the halves added give rows j0..j0+8 in order.
        let s01 = _mm256_hadd_epi32(acc[0], acc[1]);
        let s23 = _mm256_hadd_epi32(acc[2], acc[3]);
        let s45 = _mm256_hadd_epi32(acc[4], acc[5]);
        let s67 = _mm256_hadd_epi32(acc[6], acc[7]);
        let s0123 = _mm256_hadd_epi32(s01, s23);
        let s4567 = _mm256_hadd_epi32(s45, s67);
        let sums = _mm256_add_epi32(
            _mm256_permute2x128_si256(s0123, s4567, 0x20),
            _mm256_permute2x128_si256(s0123, s4567, 0x31),
        );
        activate(sums, &bias[j0..j0 + ROWS], &mut out[j0..j0 + ROWS]);
    }
}

/// Eight outputs from their sums: `out[i] = clamp((sums[i] + bias[i]) >> QW_SHIFT, 0, QA)`.
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn activate(sums: __m256i, bias: &[i32], out: &mut [u8]) {
    assert!(bias.len() == ROWS && out.len() == ROWS);
    let b = _mm256_loadu_si256(bias.as_ptr() as *const __m256i);
    let v = _mm256_srai_epi32(_mm256_add_epi32(sums, b), super::QW_SHIFT as i32);
    let v =
        _mm256_min_epi32(_mm256_max_epi32(v, _mm256_setzero_si256()), _mm256_set1_epi32(super::QA));
    let mut lanes = [0i32; ROWS];
    _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, v);
    for (o, &l) in out.iter_mut().zip(lanes.iter()) {
        *o = l as u8;
    }
}

/// Registers of eight outputs that hold the sparse layer's sums.
const SPARSE_REGS: usize = super::L2 / ROWS;

/// The first dense layer over its non-zero inputs only: most of the clipped first-layer
/// outputs are zero (22 % of the bytes and 60 % of the groups of four were not, counted on the
/// bench), and a zero group adds nothing. `columns` holds the weights by groups of four inputs
/// ([`super::columns_of`]): for group `g` and output `j`, the four bytes at `(g * L2 + j) * 4`.
/// Each non-zero group is broadcast and multiplied into all outputs at once; the pairs summed
/// are the pairs the dense kernel sums, so the integer sums, and the value, are the same.
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn sparse_dense_avx2<const IN: usize>(
    input: &[u8; IN],
    columns: &[i8],
    bias: &[i32],
    out: &mut [u8; super::L2],
) {
    use super::L2;
    debug_assert!(IN.is_multiple_of(32) && columns.len() >= IN * L2 && bias.len() >= L2);
    let ones = _mm256_set1_epi16(1);
    let mut acc = [_mm256_setzero_si256(); SPARSE_REGS];
    let groups = input.as_ptr() as *const i32;
    let mut k = 0;
    while k < IN {
        let x = _mm256_loadu_si256(input.as_ptr().add(k) as *const __m256i);
        let zero = _mm256_cmpeq_epi32(x, _mm256_setzero_si256());
        let mut live = !(_mm256_movemask_ps(_mm256_castsi256_ps(zero)) as u32) & 0xff;
        while live != 0 {
            let g = k / 4 + live.trailing_zeros() as usize;
            live &= live - 1;
            let x = _mm256_set1_epi32(groups.add(g).read_unaligned());
            let w = columns.as_ptr().add(g * L2 * 4) as *const __m256i;
            for (r, a) in acc.iter_mut().enumerate() {
                let w = _mm256_loadu_si256(w.add(r));
                *a = _mm256_add_epi32(*a, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), ones));
            }
        }
        k += 32;
    }
    for (r, &a) in acc.iter().enumerate() {
        let at = ROWS * r..ROWS * (r + 1);
        activate(a, &bias[at.clone()], &mut out[at]);
    }
}
