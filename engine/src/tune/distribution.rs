//! The sampling distribution of one tuned parameter (seed 003, section 3): a Gaussian for a
//! number, on a log scale where its range is wide (the seed's log F1–F3, log Aw), and a
//! Bernoulli for a switch, which keeps a minimum probability for each value (the seed's n) so
//! that it is not frozen before the evidence is in.

use crate::tools::xorshift::XorShift64;
use serde::{Deserialize, Serialize};

/// How a number is sampled: its working variable is the value itself or its base-10 logarithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Scale {
    Linear,
    Log10,
}

impl Scale {
    fn work_of(self, v: f64) -> f64 {
        match self {
            Scale::Linear => v,
            Scale::Log10 => v.max(f64::MIN_POSITIVE).log10(),
        }
    }

    fn value_of(self, w: f64) -> f64 {
        match self {
            Scale::Linear => w,
            Scale::Log10 => 10f64.powf(w),
        }
    }
}

/// One parameter's distribution. Values are in the parameter's own units; `mean`, `sd` and
/// `sd_floor` are in the working variable's (see [`Scale`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Dist {
    /// A number within `[min, max]`, rounded to an integer when `integer`.
    Gaussian {
        mean: f64,
        sd: f64,
        /// The refit never narrows the deviation below this.
        sd_floor: f64,
        min: f64,
        max: f64,
        scale: Scale,
        integer: bool,
    },
    /// A switch: the probability of 1, kept within `[floor, 1 - floor]`.
    Bernoulli { p: f64, floor: f64 },
}

/// A standard normal number (Box–Muller).
pub fn standard_normal(rng: &mut XorShift64) -> f64 {
    let u1 = 1.0 - rng.unit(); // (0, 1]: the logarithm stays finite
    let u2 = rng.unit();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

impl Dist {
    /// A Gaussian centred on `mean` (parameter units) with deviation `sd` (working units),
    /// floored at `floor_fraction` of it.
    pub fn gaussian(
        mean: f64,
        sd: f64,
        floor_fraction: f64,
        (min, max): (f64, f64),
        scale: Scale,
        integer: bool,
    ) -> Dist {
        Dist::Gaussian {
            mean: scale.work_of(mean.clamp(min, max)),
            sd,
            sd_floor: sd * floor_fraction,
            min,
            max,
            scale,
            integer,
        }
    }

    /// One value.
    pub fn sample(&self, rng: &mut XorShift64) -> f64 {
        match *self {
            Dist::Gaussian { mean, sd, min, max, scale, integer, .. } => {
                let v = scale.value_of(mean + sd * standard_normal(rng)).clamp(min, max);
                if integer {
                    v.round()
                } else {
                    v
                }
            }
            Dist::Bernoulli { p, .. } => f64::from(u8::from(rng.unit() < p)),
        }
    }

    /// The distribution's centre in parameter units: the value a final result takes.
    pub fn centre(&self) -> f64 {
        match *self {
            Dist::Gaussian { mean, min, max, scale, integer, .. } => {
                let v = scale.value_of(mean).clamp(min, max);
                if integer {
                    v.round()
                } else {
                    v
                }
            }
            Dist::Bernoulli { p, .. } => f64::from(u8::from(p >= 0.5)),
        }
    }

    /// The centre and spread in the working units, for the convergence plot: (mean, sd) of a
    /// number, (p, 0) of a switch.
    pub fn centre_and_spread(&self) -> (f64, f64) {
        match *self {
            Dist::Gaussian { mean, sd, .. } => (mean, sd),
            Dist::Bernoulli { p, .. } => (p, 0.0),
        }
    }

    /// Refits to the elite samples' values, moving `smoothing` of the way from the old
    /// distribution to the fitted one; the deviation stays at or above its floor to the end,
    /// so that noisy fitness never freezes a number early.
    pub fn refit(&mut self, elite: &[f64], smoothing: f64) {
        if elite.is_empty() {
            return;
        }
        let n = elite.len() as f64;
        let a = smoothing.clamp(0.0, 1.0);
        match self {
            Dist::Gaussian { mean, sd, sd_floor, scale, .. } => {
                let work: Vec<f64> = elite.iter().map(|&v| scale.work_of(v)).collect();
                let m = work.iter().sum::<f64>() / n;
                let s = (work.iter().map(|w| (w - m) * (w - m)).sum::<f64>() / n).sqrt();
                *mean = a * m + (1.0 - a) * *mean;
                *sd = (a * s + (1.0 - a) * *sd).max(*sd_floor);
            }
            Dist::Bernoulli { p, floor } => {
                let ones = elite.iter().filter(|&&v| v >= 0.5).count() as f64 / n;
                *p = (a * ones + (1.0 - a) * *p).clamp(*floor, 1.0 - *floor);
            }
        }
    }

    /// Whether the distribution has stopped moving since `before` (the same parameter some
    /// generations earlier): a number whose deviation is at its floor and whose mean moved by
    /// less than half the floor (a mean still on its way moves about a floor a generation; one
    /// at the optimum only jitters), a switch at its minimum probability.
    pub fn settled(&self, before: &Dist) -> bool {
        match (self, before) {
            (Dist::Gaussian { mean, sd, sd_floor, .. }, Dist::Gaussian { mean: earlier, .. }) => {
                *sd <= sd_floor * 1.0001 && (mean - earlier).abs() < 0.5 * sd_floor
            }
            (Dist::Bernoulli { p, floor }, _) => *p <= floor + 1e-9 || *p >= 1.0 - floor - 1e-9,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_stay_in_bounds_and_integers_are_integers() {
        let mut rng = XorShift64::new(7);
        let d = Dist::gaussian(50.0, 0.8, 0.1, (10.0, 1000.0), Scale::Log10, true);
        for _ in 0..2000 {
            let v = d.sample(&mut rng);
            assert!((10.0..=1000.0).contains(&v) && v.fract() == 0.0, "{v}");
        }
    }

    #[test]
    fn normal_numbers_have_mean_zero_and_deviation_one() {
        let mut rng = XorShift64::new(11);
        let xs: Vec<f64> = (0..20000).map(|_| standard_normal(&mut rng)).collect();
        let m = xs.iter().sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / xs.len() as f64;
        assert!(m.abs() < 0.03 && (var - 1.0).abs() < 0.05, "mean {m}, variance {var}");
    }

    #[test]
    fn refit_moves_by_the_smoothing_and_keeps_the_floors() {
        let mut d = Dist::gaussian(100.0, 0.5, 0.2, (1.0, 10000.0), Scale::Log10, false);
        d.refit(&[1000.0, 1000.0], 0.5);
        let (mean, sd) = d.centre_and_spread();
        assert!((mean - 2.5).abs() < 1e-9, "{mean}"); // halfway from log 100 to log 1000
        assert!((sd - 0.25).abs() < 1e-9, "{sd}"); // halfway from 0.5 to 0, above the floor 0.1
        d.refit(&[1000.0], 1.0);
        assert!((d.centre_and_spread().1 - 0.1).abs() < 1e-9);
        let mut s = Dist::Bernoulli { p: 0.7, floor: 0.05 };
        s.refit(&[0.0, 0.0, 0.0], 1.0);
        assert_eq!(s, Dist::Bernoulli { p: 0.05, floor: 0.05 });
        assert!(s.settled(&s.clone()));
        // At its floor and still: settled; at its floor but moving: not.
        let still = d.clone();
        d.refit(&[1000.0, 1000.0], 1.0);
        assert!(d.settled(&still));
        d.refit(&[1500.0, 1500.0], 1.0);
        assert!(!d.settled(&still));
    }
}
