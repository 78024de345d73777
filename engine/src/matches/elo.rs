//! Elo difference from a win/draw/loss count, with a 95% confidence interval and the
//! likelihood of superiority.
//!
//! The score fraction `s = (W + D/2) / N` maps to an Elo difference by the logistic model,
//! `elo(s) = -400 log10(1/s - 1)`. The error bar comes from the per-game variance of the score
//! (trinomial: each game scores 1, ½ or 0), so draws narrow it as they should: the standard
//! error of `s` is `sqrt(var / N)`, and the bounds `s ± 1.96 σ` map through `elo` (the interval
//! is not symmetric in Elo; the reported margin is half its width). LOS, the probability that
//! the first side is the stronger, ignores draws: `Φ((W - L) / sqrt(W + L))`.

use std::fmt;

/// Games from the first side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// An Elo estimate; infinite values stand for a score of 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    /// Half the width of the 95% interval (`NaN` with fewer than two games or no spread).
    pub margin: f64,
    /// Lower and upper bound of the 95% interval.
    pub low: f64,
    pub high: f64,
    /// Likelihood of superiority, 0..=1 (`0.5` without decisive games).
    pub los: f64,
}

/// 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference for a score fraction (0..=1).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the -0.0 of an even score into 0.0.
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// The standard normal CDF (erf by Abramowitz–Stegun 7.1.26, error below 1.5e-7).
pub fn normal_cdf(x: f64) -> f64 {
    if x == 0.0 {
        return 0.5;
    }
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction (`NaN` without games).
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games())
    }

    /// The same games from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// `None` without games.
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let nf = f64::from(n);
        let s = self.score();
        let (w, d, l) = (f64::from(self.wins), f64::from(self.draws), f64::from(self.losses));
        let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / nf;
        let sigma = (var / nf).sqrt();
        let (low, high, margin) = if n < 2 || sigma == 0.0 {
            (f64::NAN, f64::NAN, f64::NAN)
        } else {
            let low = elo_from_score(s - Z95 * sigma);
            let high = elo_from_score(s + Z95 * sigma);
            (low, high, (high - low) / 2.0)
        };
        let decisive = w + l;
        let los = if decisive == 0.0 { 0.5 } else { normal_cdf((w - l) / decisive.sqrt()) };
        Some(EloEstimate { elo: elo_from_score(s), margin, low, high, los })
    }
}

fn signed(x: f64) -> String {
    if x.is_nan() {
        "?".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.1}")
    }
}

impl fmt::Display for EloEstimate {
    /// `Elo +35.2 ± 40.1 (95%: -5.0 .. +75.6), LOS 95.7%`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let margin = if self.margin.is_finite() {
            format!("{:.1}", self.margin)
        } else if self.margin.is_nan() {
            "?".to_string()
        } else {
            "inf".to_string()
        };
        write!(
            f,
            "Elo {} +/- {} (95%: {} .. {}), LOS {:.1}%",
            signed(self.elo),
            margin,
            signed(self.low),
            signed(self.high),
            self.los * 100.0
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    fn est(w: u32, d: u32, l: u32) -> EloEstimate {
        Wdl { wins: w, draws: d, losses: l }.elo().unwrap_or_else(|| panic!("no games"))
    }

    #[test]
    fn score_to_elo() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.75), 190.848, 1e-3));
        assert!(close(elo_from_score(0.25), -190.848, 1e-3));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn normal_cdf_values() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_cdf(1.959_964), 0.975, 1e-6));
        assert!(close(normal_cdf(-1.0), 0.158_655, 1e-6));
    }

    #[test]
    fn even_match() {
        let e = est(30, 40, 30);
        assert_eq!(e.elo, 0.0);
        assert_eq!(e.los, 0.5);
        // var = 60 * 0.25 / 100 = 0.15; sigma = sqrt(0.0015) = 0.03873; s ± 0.07591.
        assert!(close(e.high, elo_from_score(0.5 + Z95 * 0.0015f64.sqrt()), 1e-9));
        assert!(close(e.margin, 53.2, 0.1), "{e:?}");
        assert!(close(e.low, -e.high, 1e-9));
    }

    #[test]
    fn draws_narrow_the_interval() {
        let no_draws = est(60, 0, 40);
        let draws = est(50, 20, 30);
        assert_eq!(no_draws.elo, draws.elo);
        assert!(draws.margin < no_draws.margin);
        assert!(no_draws.elo > 0.0 && no_draws.los > 0.95);
    }

    #[test]
    fn edges() {
        assert_eq!(Wdl::default().elo(), None);
        let all = est(10, 0, 0);
        assert_eq!(all.elo, f64::INFINITY);
        assert!(all.margin.is_nan());
        assert!(all.los > 0.99);
        let one = est(0, 1, 0);
        assert_eq!(one.elo, 0.0);
        assert!(one.margin.is_nan());
        assert_eq!(one.to_string(), "Elo +0.0 +/- ? (95%: ? .. ?), LOS 50.0%");
        // Near-certain results: the upper bound may pass a score of 1.
        let lopsided = est(19, 0, 1);
        assert_eq!(lopsided.high, f64::INFINITY);
        assert!(lopsided.to_string().contains("+inf"));
        assert_eq!(
            Wdl { wins: 3, draws: 1, losses: 2 }.flipped(),
            Wdl { wins: 2, draws: 1, losses: 3 }
        );
    }
}
