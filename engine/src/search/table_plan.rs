//! How `USI_Hash` is shared among the engine's tables: the alpha-beta table, the root
//! oracle's solver table and each search thread's probe solver table. A GUI that runs two
//! engines side by side counts on `USI_Hash` bounding the memory of each; with the oracle's
//! tables beside it (64 MB and 4 MB a thread by default) an engine set to 64 MB held 189 MB.
//!
//! The root oracle takes at most a quarter of `USI_Hash` and each thread's probes at most a
//! thirty-second (never more than their parameters, `oracle_root_hash_mb` and
//! `oracle_probe_hash_mb`), the alpha-beta table the rest. An oracle that is off takes
//! nothing. Below 32 MB a solver that is on still gets its 1 MB minimum.

use crate::params::Params;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TablePlan {
    /// The alpha-beta transposition table.
    pub main_mb: usize,
    /// The root oracle's solver (0: the root oracle is off).
    pub root_oracle_mb: usize,
    /// Each search thread's probe solver (0: probes are off).
    pub probe_mb: usize,
}

impl TablePlan {
    /// The plan for `hash_mb` (`USI_Hash`) with these parameters and search threads.
    pub fn of(hash_mb: usize, params: &Params, threads: usize) -> TablePlan {
        let share = |on: bool, wanted: i32, divisor: usize| {
            if on {
                (wanted.max(1) as usize).min(hash_mb / divisor).max(1)
            } else {
                0
            }
        };
        let root_oracle_mb = share(params.oracle_root_ms > 0, params.oracle_root_hash_mb, 4);
        let probe_mb = share(params.oracle_probe_nodes > 0, params.oracle_probe_hash_mb, 32);
        let oracles = root_oracle_mb + probe_mb * threads.max(1);
        TablePlan { main_mb: hash_mb.saturating_sub(oracles).max(1), root_oracle_mb, probe_mb }
    }

    /// Every table's megabytes together.
    pub fn total_mb(&self, threads: usize) -> usize {
        self.main_mb + self.root_oracle_mb + self.probe_mb * threads.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oracles_tables_come_out_of_usi_hash() {
        let params = Params::default();
        assert!(params.oracle_root_ms > 0 && params.oracle_probe_nodes > 0);
        for threads in [1, 2, 8] {
            for hash in [32, 64, 256, 1024, 4096] {
                let plan = TablePlan::of(hash, &params, threads);
                assert_eq!(plan.total_mb(threads), hash, "{hash} MB, {threads} threads: {plan:?}");
                assert!(plan.root_oracle_mb >= 1 && plan.probe_mb >= 1, "{plan:?}");
                assert!(plan.main_mb >= hash / 2, "{plan:?}");
            }
        }
        let plan = TablePlan::of(64, &params, 1);
        assert_eq!((plan.root_oracle_mb, plan.probe_mb, plan.main_mb), (16, 2, 46));
        // At large sizes the parameters cap the oracles' tables.
        let plan = TablePlan::of(4096, &params, 1);
        assert_eq!(plan.root_oracle_mb as i32, params.oracle_root_hash_mb);
        assert_eq!(plan.probe_mb as i32, params.oracle_probe_hash_mb);
    }

    #[test]
    fn an_oracle_that_is_off_leaves_its_share_to_the_main_table() {
        let off = Params { oracle_root_ms: 0, oracle_probe_nodes: 0, ..Params::default() };
        assert_eq!(
            TablePlan::of(64, &off, 4),
            TablePlan { main_mb: 64, root_oracle_mb: 0, probe_mb: 0 }
        );
        // A tiny hash still gives each solver that is on its minimum.
        let plan = TablePlan::of(1, &Params::default(), 1);
        assert_eq!((plan.main_mb, plan.root_oracle_mb, plan.probe_mb), (1, 1, 1));
    }
}
