//! Learning the search parameters with the Cross-Entropy Method (seed 003): the method
//! ([`cem`]) over per-parameter distributions ([`distribution`]), what is tuned ([`space`]),
//! how a sample is measured ([`fitness`]: games at a fixed node count against a reference),
//! what a run writes ([`outputs`]) and the command ([`command`], `tsumugi tune`).

pub mod cem;
pub mod command;
pub mod distribution;
pub mod fitness;
pub mod outputs;
pub mod space;
