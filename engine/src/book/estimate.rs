//! The seed's estimated score of a book against another (its section 3.3): each exit position
//! of the pseudo-match is evaluated by a search of a fixed size, the evaluation is turned into
//! black's expected score by a logistic curve, `1 / (1 + exp(-(alpha + beta * v)))`, fitted on
//! recorded games, and the exits' scores are averaged with their probabilities.

use crate::book::build::Game;
use crate::book::versus::PseudoMatch;
use crate::params::Params;
use crate::search::engine::Engine;
use crate::search::ponder::score_cp;
use crate::search::report::SearchLimits;
use crate::search::SearchControl;
use shogi::{Color, Position};

/// Black's expected score at evaluation `v` (centipawns for black).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Logistic {
    pub alpha: f64,
    pub beta: f64,
}

impl Logistic {
    pub fn black_score(&self, v: f64) -> f64 {
        1.0 / (1.0 + (-(self.alpha + self.beta * v)).exp())
    }

    /// The maximum-likelihood curve through `(v, score)` samples (score 1 a black win, 0 a
    /// loss, 0.5 a draw), by Newton's method on the two parameters. `None` when the samples
    /// cannot fix a curve (fewer than two, or one-sided so that the slope runs away).
    pub fn fit(samples: &[(f64, f64)]) -> Option<Logistic> {
        if samples.len() < 2 {
            return None;
        }
        // Evaluations in units of 100 cp keep the Hessian well scaled.
        let (mut a, mut b) = (0.0f64, 0.0f64);
        for _ in 0..100 {
            let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for &(v, y) in samples {
                let x = v / 100.0;
                let p = 1.0 / (1.0 + (-(a + b * x)).exp());
                let w = (p * (1.0 - p)).max(1e-12);
                ga += y - p;
                gb += (y - p) * x;
                haa += w;
                hab += w * x;
                hbb += w * x * x;
            }
            let det = haa * hbb - hab * hab;
            if det.abs() < 1e-12 {
                return None;
            }
            let da = (hbb * ga - hab * gb) / det;
            let db = (haa * gb - hab * ga) / det;
            a += da;
            b += db;
            if !a.is_finite() || !b.is_finite() || b.abs() > 50.0 {
                return None;
            }
            if da.abs() < 1e-10 && db.abs() < 1e-10 {
                break;
            }
        }
        Some(Logistic { alpha: a, beta: b / 100.0 })
    }
}

/// The engine that evaluates: one thread and no root df-pn oracle (which runs on a time
/// budget), so that a search of a fixed number of nodes gives the same value on every run.
pub fn estimate_engine(hash_mb: usize) -> Engine {
    let mut params = Params::default();
    // The parameter exists (`Params::SPECS`); a failure would only keep the oracle.
    let _ = params.set("oracle_root_ms", 0);
    Engine::new(params, hash_mb)
}

/// Black's evaluation of `pos` (centipawns) by a search of `nodes` nodes, from a cleared
/// engine so that a position's evaluation does not depend on what was evaluated before it.
pub fn evaluate(engine: &mut Engine, pos: &Position, nodes: u64) -> f64 {
    engine.clear();
    let limits = SearchLimits { depth: None, nodes: Some(nodes.max(1)), multipv: 1 };
    let control = SearchControl::unlimited();
    let outcome = engine.search(pos, &limits, &control, &mut |_| {});
    let v = f64::from(score_cp(outcome.score));
    if pos.side_to_move() == Color::Black {
        v
    } else {
        -v
    }
}

/// Samples for the curve: positions of recorded games with a result, every `step` plies from
/// the `first`-th move on, up to `last`, each evaluated with `nodes` nodes.
pub fn samples_of(
    games: &[Game],
    engine: &mut Engine,
    nodes: u64,
    first: usize,
    step: usize,
    last: usize,
) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for g in games.iter().filter(|g| g.decided) {
        let y = match g.winner {
            Some(Color::Black) => 1.0,
            Some(Color::White) => 0.0,
            None => 0.5,
        };
        let mut pos = g.start.clone();
        for (i, &m) in g.moves.iter().enumerate().take(last) {
            if i >= first && (i - first).is_multiple_of(step.max(1)) {
                out.push((evaluate(engine, &pos, nodes), y));
            }
            pos.make_move(m);
        }
    }
    out
}

/// What the exits of a pseudo-match come to: black's evaluations at the exits, with their
/// probabilities, and black's expected score.
pub struct ExitEvaluation {
    /// (black's evaluation, probability), one per exit.
    pub exits: Vec<(f64, f64)>,
    pub black_score: f64,
}

impl ExitEvaluation {
    pub fn of(m: &PseudoMatch, engine: &mut Engine, nodes: u64, curve: &Logistic) -> Self {
        let exits: Vec<(f64, f64)> =
            m.exits.iter().map(|e| (evaluate(engine, &e.position, nodes), e.probability)).collect();
        let black_score = exits.iter().map(|&(v, p)| p * curve.black_score(v)).sum();
        ExitEvaluation { exits, black_score }
    }

    /// Probability-weighted mean and standard deviation of the evaluations (the seed's table 4).
    pub fn mean_and_deviation(&self) -> (f64, f64) {
        let total: f64 = self.exits.iter().map(|e| e.1).sum::<f64>().max(1e-12);
        let mean = self.exits.iter().map(|&(v, p)| v * p).sum::<f64>() / total;
        let var = self.exits.iter().map(|&(v, p)| p * (v - mean).powi(2)).sum::<f64>() / total;
        (mean, var.sqrt())
    }

    /// The probability of the exits per evaluation bin of `width` cp (the seed's figure 11):
    /// (bin's centre, probability), every bin from the lowest to the highest, empty ones too,
    /// so that a curve through them has the histogram's shape.
    pub fn histogram(&self, width: f64) -> Vec<(f64, f64)> {
        let bin = |v: f64| (v / width).floor() as i64;
        let (Some(lo), Some(hi)) =
            (self.exits.iter().map(|e| bin(e.0)).min(), self.exits.iter().map(|e| bin(e.0)).max())
        else {
            return Vec::new();
        };
        let mut mass = vec![0.0; (hi - lo + 1) as usize];
        for &(v, p) in &self.exits {
            mass[(bin(v) - lo) as usize] += p;
        }
        mass.into_iter()
            .enumerate()
            .map(|(k, p)| ((lo + k as i64) as f64 * width + width / 2.0, p))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_known_curve() {
        // Samples drawn exactly from alpha 0.2, beta 1/300 as fractional scores: the maximum
        // likelihood is the curve itself.
        let truth = Logistic { alpha: 0.2, beta: 1.0 / 300.0 };
        let samples: Vec<(f64, f64)> =
            (-20..=20).map(|k| f64::from(k) * 50.0).map(|v| (v, truth.black_score(v))).collect();
        let fit = Logistic::fit(&samples).unwrap_or_else(|| panic!("no fit"));
        assert!((fit.alpha - 0.2).abs() < 1e-6, "{fit:?}");
        assert!((fit.beta - 1.0 / 300.0).abs() < 1e-8, "{fit:?}");
        // One-sided samples (black always wins) have no finite curve.
        assert_eq!(Logistic::fit(&[(100.0, 1.0), (200.0, 1.0), (300.0, 1.0)]), None);
        assert_eq!(Logistic::fit(&[(0.0, 1.0)]), None);
    }

    #[test]
    fn an_evaluation_is_the_same_on_every_run() {
        let mut pos = Position::startpos();
        pos.make_move(pos.parse_usi_move("7g7f").unwrap_or_else(|e| panic!("{e}")));
        let mut engine = estimate_engine(4);
        let first = evaluate(&mut engine, &pos, 3_000);
        evaluate(&mut engine, &Position::startpos(), 3_000);
        assert_eq!(evaluate(&mut engine, &pos, 3_000), first);
        assert_eq!(evaluate(&mut estimate_engine(4), &pos, 3_000), first);
    }

    #[test]
    fn histogram_and_moments_weigh_exits_by_probability() {
        let e = ExitEvaluation {
            exits: vec![(-30.0, 0.25), (10.0, 0.5), (90.0, 0.25)],
            black_score: 0.0,
        };
        let (mean, dev) = e.mean_and_deviation();
        assert!((mean - 20.0).abs() < 1e-9, "{mean}");
        // Variance: 0.25 * 2500 + 0.5 * 100 + 0.25 * 4900 = 1900.
        assert!((dev - 1900f64.sqrt()).abs() < 1e-9, "{dev}");
        assert_eq!(e.histogram(50.0), vec![(-25.0, 0.25), (25.0, 0.5), (75.0, 0.25)]);
        // An empty bin between two exits is drawn at zero.
        let gap = ExitEvaluation { exits: vec![(-30.0, 0.5), (90.0, 0.5)], black_score: 0.0 };
        assert_eq!(gap.histogram(50.0), vec![(-25.0, 0.5), (25.0, 0.0), (75.0, 0.5)]);
    }
}
