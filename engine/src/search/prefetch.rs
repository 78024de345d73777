//! A hint to the processor that a line of memory will be read soon: the table entries of the
//! position a move reaches are asked for when the move is made, so that their cache misses
//! overlap the move's own work instead of stalling the child node.

/// Starts loading the cache line of `p`. Only a hint: any address is allowed.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing the program sees.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
