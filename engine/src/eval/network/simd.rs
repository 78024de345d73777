//! The dense layers with AVX2: 32 input bytes at a time, `u8 x i8` products summed in pairs
//! (`maddubs`, which cannot saturate here: activations are at most 127, so a pair is within
//! ±32,512), then in `i32`. The same sums as the scalar path, so the same value.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// `out[j] = clamp((bias[j] + w[j] . input) >> QW_SHIFT, 0, QA)`, `IN` a multiple of 32.
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
    debug_assert!(IN.is_multiple_of(32) && weights.len() >= IN * OUT && bias.len() >= OUT);
    let ones = _mm256_set1_epi16(1);
    for (j, o) in out.iter_mut().enumerate() {
        let row = weights.as_ptr().add(j * IN);
        let mut acc = _mm256_setzero_si256();
        let mut k = 0;
        while k < IN {
            let x = _mm256_loadu_si256(input.as_ptr().add(k) as *const __m256i);
            let w = _mm256_loadu_si256(row.add(k) as *const __m256i);
            let pairs = _mm256_maddubs_epi16(x, w);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, ones));
            k += 32;
        }
        let half = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
        let sum =
            _mm_cvtsi128_si32(_mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 0b10_11_00_01)));
        *o = ((bias[j] + sum) >> super::QW_SHIFT).clamp(0, super::QA) as u8;
    }
}
