//! The seed's estimated score of a book against another (its section 3.3): each exit position
//! of the pseudo-match is evaluated by a search of a fixed size, the evaluation is turned into
//! black's expected score by a logistic curve, `1 / (1 + exp(-(alpha + beta * v)))`, fitted on
//! recorded games, and the exits' scores are averaged with their probabilities.

use crate::book::build::Game;
use crate::book::versus::PseudoMatch;
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
    /// (bin's lower edge, probability).
    pub fn histogram(&self, width: f64) -> Vec<(f64, f64)> {
        let mut bins: std::collections::BTreeMap<i64, f64> = std::collections::BTreeMap::new();
        for &(v, p) in &self.exits {
            *bins.entry((v / width).floor() as i64).or_default() += p;
        }
        bins.into_iter().map(|(k, p)| (k as f64 * width, p)).collect()
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
    fn histogram_and_moments_weigh_exits_by_probability() {
        let e = ExitEvaluation {
            exits: vec![(-30.0, 0.25), (10.0, 0.5), (90.0, 0.25)],
            black_score: 0.0,
        };
        let (mean, dev) = e.mean_and_deviation();
        assert!((mean - 20.0).abs() < 1e-9, "{mean}");
        // Variance: 0.25 * 2500 + 0.5 * 100 + 0.25 * 4900 = 1900.
        assert!((dev - 1900f64.sqrt()).abs() < 1e-9, "{dev}");
        assert_eq!(e.histogram(50.0), vec![(-50.0, 0.25), (0.0, 0.5), (50.0, 0.25)]);
    }
}
