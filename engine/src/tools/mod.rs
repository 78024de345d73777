//! Tooling around the engine: the `bench` signature, the reproducible random numbers of the
//! openings shuffle and the tests, and the test positions.

pub mod bench;
#[cfg(test)]
pub mod test_positions;
pub mod xorshift;
