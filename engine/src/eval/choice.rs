//! Which evaluation a player uses: the linear one with its weights, or a network. A file given
//! by `EvalFile` or `--a-weights` is either, told apart by its first bytes (a network file
//! starts with its header; a weights file is text).

use crate::eval::network::{self, Network};
use crate::eval::weights::Weights;
use crate::search::engine::Engine;
use std::path::Path;
use std::sync::Arc;

/// An evaluation read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    Linear(Arc<Weights>),
    Network(Arc<Network>),
}

impl EvalChoice {
    /// Reads `path`: a network file, a weights file, or one of the built-in names (`learnt`,
    /// `hand-set`, `network`). The error names the file and what is wrong.
    pub fn load(path: &Path) -> Result<EvalChoice, String> {
        if !path.exists() && path.to_str() == Some("network") {
            return network::builtin()
                .map(EvalChoice::Network)
                .ok_or_else(|| "network: no network is built into this program".to_string());
        }
        if network::file::is_network_file(path) {
            return network::file::load(path).map(|n| EvalChoice::Network(Arc::new(n)));
        }
        Weights::load(path).map(|w| EvalChoice::Linear(Arc::new(w)))
    }

    /// Makes `engine` evaluate with this choice (the linear weights with no network, or the
    /// network).
    pub fn apply_to(&self, engine: &mut Engine) {
        match self {
            EvalChoice::Linear(w) => {
                engine.set_network(None);
                engine.set_weights(Arc::clone(w));
            }
            EvalChoice::Network(n) => engine.set_network(Some(Arc::clone(n))),
        }
    }
}

impl Default for EvalChoice {
    /// The engine's default: the built-in network, else the learnt linear weights.
    fn default() -> EvalChoice {
        match network::builtin() {
            Some(net) => EvalChoice::Network(net),
            None => EvalChoice::Linear(Arc::new(Weights::default())),
        }
    }
}
