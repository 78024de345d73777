//! `tsumugi learn`: the evaluation's weights learnt from games.
//!
//! - [`gen`]: positions from self-play at fixed nodes, labelled with the game's result and the
//!   search's score, quiet ones only, resumable;
//! - [`import`]: the same from recorded games (`tsumugi match --record`);
//! - [`data`]: the file of labelled positions;
//! - [`features`]: the evaluation as a sum of features, computed once per position;
//! - [`fit`]: logistic regression of the result on the evaluation (Texel's method), by
//!   gradient descent with a held-out tenth and early stop;
//! - [`network_fit`]: the network evaluation trained in floating point, then quantised;
//! - [`command`]: the command line, the weights file and the loss curve.

pub mod command;
pub mod data;
pub mod early_stop;
pub mod features;
pub mod fit;
pub mod gen;
pub mod import;
pub mod network_data;
pub mod network_fit;
pub mod network_model;
