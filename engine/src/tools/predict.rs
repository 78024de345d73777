//! `tsumugi predict`: how well the ponder's prediction (seed 002) foresees the moves of real
//! games. For every position of every game of a record file (the `position ... moves ...`
//! lines `tsumugi match --record` writes), the depth-6 MultiPV-8 prediction is made as the
//! ponder makes it, and the move played is looked up: its rank among the candidates (the seed's
//! figure 1), its score below the best (figure 2), and whether the candidates the margin keeps
//! contain it.

use crate::params::Params;
use crate::search::engine::Engine;
use crate::search::ponder::{
    keep_candidates, lines_of, PonderSettings, PREDICT_DEPTH, PREDICT_LINES,
};
use crate::search::report::{SearchInfo, SearchLimits};
use crate::search::SearchControl;
use shogi::{parse_position_command, Move, Position};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// What the predictions of a set of games came to.
#[derive(Debug, Default)]
pub struct PredictionStats {
    pub positions: u64,
    /// `by_rank[k]`: the move played was the k-th candidate (1-based); `by_rank[0]`: none.
    pub by_rank: [u64; PREDICT_LINES as usize + 1],
    /// Sum of the score gaps to the best, by rank (for the mean).
    pub gap_sum: [i64; PREDICT_LINES as usize + 1],
    /// `kept[n]`: positions where the margin kept n candidates.
    pub kept: [u64; PREDICT_LINES as usize + 1],
    /// The move played was among the kept candidates.
    pub kept_hits: u64,
    pub time: Duration,
}

impl PredictionStats {
    fn pct(&self, n: u64) -> f64 {
        100.0 * n as f64 / self.positions.max(1) as f64
    }

    /// The tables of `benches/history/14-engine-threads-ponder.md`.
    pub fn table(&self, s: &PonderSettings) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "| rank of the move played | positions | share | mean gap to the best (cp) |"
        );
        let _ = writeln!(t, "|---|---|---|---|");
        for k in (1..self.by_rank.len()).chain(std::iter::once(0)) {
            let n = self.by_rank[k];
            let gap = if n > 0 {
                format!("{:.0}", self.gap_sum[k] as f64 / n as f64)
            } else {
                "-".into()
            };
            let label = if k == 0 { "none of the 8".to_string() } else { k.to_string() };
            let _ = writeln!(t, "| {label} | {n} | {:.1} % | {gap} |", self.pct(n));
        }
        let kept_total: u64 = self.kept.iter().enumerate().map(|(n, &c)| n as u64 * c).sum();
        let _ = writeln!(
            t,
            "\nWith a margin of {} cp and at most {} candidates: {:.2} candidates kept on average, \
             the move played among them in {:.1} % of {} positions; {:.1} ms per prediction.",
            s.margin_cp,
            s.candidates,
            kept_total as f64 / self.positions.max(1) as f64,
            self.pct(self.kept_hits),
            self.positions,
            self.time.as_secs_f64() * 1000.0 / self.positions.max(1) as f64
        );
        let _ = writeln!(t, "\n| candidates kept | positions | share |\n|---|---|---|");
        for (n, &c) in self.kept.iter().enumerate().skip(1) {
            let _ = writeln!(t, "| {n} | {c} | {:.1} % |", self.pct(c));
        }
        t
    }
}

/// The prediction's lines at `pos`: (move, score for the side to move), best first.
fn predict(engine: &mut Engine, pos: &Position) -> Vec<(Move, i32)> {
    let mut reports: Vec<SearchInfo> = Vec::new();
    let limits = SearchLimits { depth: Some(PREDICT_DEPTH), nodes: None, multipv: PREDICT_LINES };
    let control = SearchControl::unlimited();
    // As `go ponder` predicts: a slice, with no root oracle.
    engine.run(pos, &limits, &control, &mut |i| reports.push(i.clone()), true);
    lines_of(&reports)
}

/// Predicts every position of the games in `text` from ply `skip` on.
pub fn predict_games(
    text: &str,
    skip: usize,
    s: &PonderSettings,
) -> Result<PredictionStats, String> {
    let mut stats = PredictionStats::default();
    let mut engine = Engine::new(Params::default(), 64);
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if !line.starts_with("position") {
            continue;
        }
        let game = parse_position_command(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let mut moves = Vec::new();
        let mut p = game.clone();
        while p.history_len() > 0 && !p.last_move().is_null() {
            moves.push(p.last_move());
            p.unmake_move();
        }
        moves.reverse();
        engine.clear();
        for (ply, &played) in moves.iter().enumerate() {
            if ply >= skip {
                let started = Instant::now();
                let lines = predict(&mut engine, &p);
                stats.time += started.elapsed();
                stats.positions += 1;
                let best = lines.iter().map(|&(_, v)| v).max().unwrap_or(0);
                let rank = lines.iter().position(|&(m, _)| m == played);
                match rank {
                    Some(r) => {
                        stats.by_rank[r + 1] += 1;
                        stats.gap_sum[r + 1] += i64::from(best - lines[r].1);
                    }
                    None => {
                        stats.by_rank[0] += 1;
                        stats.gap_sum[0] += lines.last().map_or(0, |&(_, v)| i64::from(best - v));
                    }
                }
                if let Some(&(first, _)) = lines.first() {
                    let kept = keep_candidates(&lines, first, s);
                    stats.kept[kept.len().min(PREDICT_LINES as usize)] += 1;
                    stats.kept_hits += u64::from(kept.contains(&played));
                }
            }
            p.make_move(played);
        }
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_counted_once_and_ranks_add_up() {
        let games = "# a game\nposition startpos moves 7g7f 3c3d 2g2f 8c8d\nnot a game\n";
        let s = PonderSettings::default();
        let stats = predict_games(games, 1, &s).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stats.positions, 3);
        assert_eq!(stats.by_rank.iter().sum::<u64>(), 3);
        assert_eq!(stats.kept.iter().sum::<u64>(), 3);
        assert!(stats.kept_hits <= 3);
        assert!(stats.table(&s).contains("| none of the 8 |"));
        assert!(predict_games("position startpos moves 7g7f 7g7f", 0, &s).is_err());
    }
}
