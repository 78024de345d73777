//! The solver's monotonic clock: the standard library's `Instant`, except in a browser.
//!
//! WebAssembly without an operating system (`wasm32-unknown-unknown`, the page's build) has no
//! clock in its standard library: `std::time::Instant::now` panics there. The page lends its
//! own (`performance.now()`), imported as `tsumugi.now_ms`, and this `Instant` reads it, with
//! the few methods the solver uses. Everything else uses `std::time::Instant` itself.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use browser::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod browser {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "tsumugi")]
    extern "C" {
        /// Milliseconds on the page's monotonic clock (`performance.now()`).
        fn now_ms() -> f64;
    }

    /// A reading of the page's clock, in microseconds.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant {
        micros: u64,
    }

    impl Instant {
        pub fn now() -> Instant {
            // SAFETY: an import of the page's, taking nothing and returning a number.
            let ms = unsafe { now_ms() };
            Instant { micros: (ms.max(0.0) * 1000.0) as u64 }
        }

        pub fn elapsed(&self) -> Duration {
            Instant::now().saturating_duration_since(*self)
        }

        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }

        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_micros(self.micros.saturating_sub(earlier.micros))
        }

        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            let micros = u64::try_from(d.as_micros()).ok()?;
            self.micros.checked_add(micros).map(|micros| Instant { micros })
        }

        pub fn checked_sub(&self, d: Duration) -> Option<Instant> {
            let micros = u64::try_from(d.as_micros()).ok()?;
            self.micros.checked_sub(micros).map(|micros| Instant { micros })
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            self.checked_add(d).unwrap_or(Instant { micros: u64::MAX })
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }
}
