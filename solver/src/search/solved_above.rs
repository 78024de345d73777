//! Leaving a subtree that another thread has solved: while every thread proves the same root
//! (the first proof, the rounds of the pure-rule shortest), a thread deep in a subtree looks
//! now and then at the table entries of its path's nodes, from the root of its search down;
//! when one of them is solved (another thread proved or disproved it), it climbs back to that
//! node at once and takes the answer from the table.
//!
//! Without this a thread went on below a node another thread had just solved until its own
//! thresholds sent it up, and a thread's siblings' values are those of its last look (its
//! frames are its own): the threads walked the same path to the same proof side by side. On
//! 図巧1's first proof (every thread proving, `TSUMUGI_CORES=64`), the nodes of every thread at
//! 4 threads came down from 18.2-24.3 M to 12.3-14.5 M, at 8 from 24.9-26.2 M to 14.1-15.3 M
//! (one thread: 7.92 M); see benches/history/12-solver-v-second-session.md.

use super::dfpn::Search;
use super::value::Value;
use shogi::Position;

/// Nodes between two looks at the path (a look is one table lookup per ply of the path). Looks
/// every 32 or 1,024 nodes gave the same totals on 図巧1 at 4 threads.
const LOOK_EVERY: u64 = 256;

/// The state of a search's watch over its path.
#[derive(Default)]
pub(super) struct SolvedAbove {
    /// Watching at all: only while every thread proves the same root.
    pub(super) watching: bool,
    /// The node count at which the path is looked at next.
    next_look: u64,
    /// The ply (as `mid` counts it) of the root of the current `prove`: nodes above it belong
    /// to the caller and are not looked at.
    from: usize,
    /// The ply of the solved node the search is climbing back to.
    pub(super) climbing_to: Option<usize>,
    /// The remaining depth of each node of the path that `mid` searches (by path index).
    depths: Vec<u16>,
}

impl SolvedAbove {
    /// `mid` at `ply` searches with `depth` plies left.
    #[inline]
    pub(super) fn entered(&mut self, ply: usize, depth: u16) {
        self.depths.resize(ply - 1, 0);
        self.depths.push(depth);
    }

    /// A `prove` begins at `ply`; returns the previous root, for [`SolvedAbove::end_prove`].
    pub(super) fn begin_prove(&mut self, ply: usize) -> usize {
        std::mem::replace(&mut self.from, ply)
    }

    /// The `prove` that began at `ply` (and replaced `from`) is over.
    pub(super) fn end_prove(&mut self, ply: usize, from: usize) {
        self.from = from;
        if self.climbing_to.is_some_and(|p| p >= ply) {
            self.climbing_to = None;
        }
    }
}

impl Search<'_> {
    /// Whether the node at `ply` must end its loop now because a node above it was solved by
    /// another thread; at that node itself, its answer from the table (`Some` with the solved
    /// value, `None` to search on when the table no longer has it).
    #[inline]
    pub(super) fn solved_above(&mut self, ply: usize) -> Option<Option<Value>> {
        let watch = &mut self.solved_above;
        if !watch.watching || !self.table.is_shared() {
            return None;
        }
        if watch.climbing_to.is_none() && self.nodes >= watch.next_look {
            watch.next_look = self.nodes + LOOK_EVERY;
            let first = watch.from.max(1) - 1;
            for idx in first..ply - 1 {
                let id = self.nodes_on_path[idx];
                let depth = watch.depths[idx];
                if self
                    .table
                    .lookup(id.board, id.hand, depth)
                    .is_some_and(|k| k.pn == 0 || k.dn == 0)
                {
                    watch.climbing_to = Some(idx + 1);
                    break;
                }
            }
        }
        let to = watch.climbing_to?;
        if to < ply {
            return Some(None);
        }
        watch.climbing_to = None;
        let id = self.nodes_on_path[ply - 1];
        let depth = watch.depths[ply - 1];
        let k = self.table.lookup(id.board, id.hand, depth).filter(|k| k.pn == 0 || k.dn == 0)?;
        Some(Some(Value::from_table(k)))
    }

    /// [`Search::answer`] for `pos` (the end of the path) while the other threads prove the
    /// same root: watching the path for what they solve.
    pub(super) fn answer_beside_others(&mut self, pos: &mut Position, depth: u16) -> Value {
        self.solved_above.watching = true;
        let v = self.answer(pos, depth);
        self.solved_above.watching = false;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::super::SearchFixture;
    use crate::tt::Stored;
    use shogi::Position;

    /// 図巧7 (a mate in 15 that one thread proves in about 120,000 nodes). The table says its
    /// root is proven (as another thread would have left it, with a length no search of this
    /// position finds): a search that watches its path climbs back and answers with that proof
    /// within its first looks; one that does not watch proves the root itself.
    #[test]
    fn a_thread_leaves_a_subtree_whose_root_another_thread_proved() {
        let pos = Position::from_sfen("1nkg5/2s6/3rp4/1B7/r8/1PN6/9/9/9 b BG3SN2gn4l16p 1")
            .unwrap_or_else(|e| panic!("{e}"));
        let proved_elsewhere = 99;
        let run = |watching: bool| {
            let mut fixture = SearchFixture::new(16);
            fixture.table.set_shared(true);
            let mut search = fixture.search(&pos);
            let mut root = pos.clone();
            search.enter(&root);
            let hand = search.attacker_hand(&root);
            let stored =
                Stored { pn: 0, dn: crate::pn::INF, len: proved_elsewhere, depth: 0, amount: 1 };
            search.table.store(search.table_key(&root), hand, stored, None);
            search.solved_above.watching = watching;
            let depth = search.unbounded_depth(0);
            let v = search.prove(&mut root, depth);
            (v.pn, v.len, search.nodes, search.solved_above.climbing_to)
        };
        let (pn, len, nodes, climbing) = run(true);
        assert_eq!((pn, len, climbing), (0, proved_elsewhere, None));
        assert!(nodes < 2_000, "{nodes} nodes before leaving");
        let (pn, len, nodes, _) = run(false);
        assert_eq!(pn, 0);
        assert!(len < proved_elsewhere && nodes > 10_000, "{len} plies, {nodes} nodes");
    }
}
