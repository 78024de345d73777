//! Tooling around the engine: the `bench` signature, `predict` (how well the ponder's
//! prediction foresees real games), the reproducible random numbers of the
//! openings shuffle and the tests, the test positions, and the SVG line chart of the tools'
//! figures.

pub mod bench;
pub mod chart;
pub mod predict;
#[cfg(test)]
pub mod test_positions;
pub mod xorshift;
