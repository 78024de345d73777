//! The Cross-Entropy Method (seed 003, figure 2): each generation draws samples from the
//! parameters' distributions, measures each, keeps the best fraction (the elite) and refits
//! the distributions to it. The state is plain data, saved after every generation, so that a
//! run interrupted at any point resumes from its last finished generation and draws the same
//! samples again.

use crate::tools::xorshift::XorShift64;
use crate::tune::distribution::Dist;
use serde::{Deserialize, Serialize};

/// The method's constants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CemConfig {
    /// Samples per generation (the seed's N).
    pub samples: usize,
    /// Fraction kept as the elite (the seed's ρ); at least one sample.
    pub elite_fraction: f64,
    /// How far each refit moves from the old distribution to the elite's (1: all the way).
    pub smoothing: f64,
    /// Generations at most (the seed's T).
    pub generations: usize,
}

impl CemConfig {
    pub fn elite_count(&self) -> usize {
        ((self.samples as f64 * self.elite_fraction).round() as usize).clamp(1, self.samples.max(1))
    }
}

/// One measured sample.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// One value per parameter, in the order of the distributions.
    pub values: Vec<f64>,
    pub fitness: f64,
    /// What the fitness was measured from (for the log): games won, drawn, lost.
    pub detail: String,
}

/// What one generation did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    /// The distributions the samples were drawn from.
    pub dists: Vec<Dist>,
    pub samples: Vec<Sample>,
    pub mean_fitness: f64,
    pub elite_fitness: f64,
}

/// A run's state: the current distributions, the generator and every finished generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cem {
    pub config: CemConfig,
    pub dists: Vec<Dist>,
    /// The generator's state before the next generation's draws.
    pub rng_state: u64,
    pub history: Vec<Generation>,
}

impl Cem {
    pub fn new(config: CemConfig, dists: Vec<Dist>, seed: u64) -> Cem {
        // A zero state would stay zero; any other seed gives its own sequence.
        let rng_state = if seed == 0 { 0x9e37_79b9_7f4a_7c15 } else { seed };
        Cem { config, dists, rng_state, history: Vec::new() }
    }

    /// Whether no generation is left: the last one is done, or the distributions have
    /// settled (see [`Dist::settled`]) over the last two generations.
    pub fn finished(&self) -> bool {
        let n = self.history.len();
        if n >= self.config.generations {
            return true;
        }
        n >= 2
            && self.dists.iter().enumerate().all(|(j, d)| {
                d.settled(&self.history[n - 1].dists[j]) && d.settled(&self.history[n - 2].dists[j])
            })
    }

    /// The next generation's samples (values only). Drawing does not advance the saved
    /// state: [`Cem::update`] does, so a generation interrupted before its update is drawn
    /// again the same.
    pub fn draw(&self) -> Vec<Vec<f64>> {
        let mut rng = XorShift64::new(self.rng_state);
        (0..self.config.samples)
            .map(|_| self.dists.iter().map(|d| d.sample(&mut rng)).collect())
            .collect()
    }

    /// Takes the measured samples of the generation [`Cem::draw`] gave: keeps the elite
    /// (best fitness first; ties in drawing order) and refits every distribution to it.
    pub fn update(&mut self, samples: Vec<Sample>) {
        // The next generation's draws start from a state derived from this one's.
        self.rng_state = XorShift64::new(self.rng_state ^ 0xd1b5_4a32_d192_ed03).next() | 1;
        let mut order: Vec<usize> = (0..samples.len()).collect();
        order.sort_by(|&a, &b| samples[b].fitness.total_cmp(&samples[a].fitness));
        let elite: Vec<&Sample> =
            order.iter().take(self.config.elite_count()).map(|&i| &samples[i]).collect();
        let mean = |s: &[&Sample]| s.iter().map(|x| x.fitness).sum::<f64>() / s.len().max(1) as f64;
        let all: Vec<&Sample> = samples.iter().collect();
        let record = Generation {
            dists: self.dists.clone(),
            mean_fitness: mean(&all),
            elite_fitness: mean(&elite),
            samples: samples.clone(),
        };
        for (j, d) in self.dists.iter_mut().enumerate() {
            let values: Vec<f64> = elite.iter().filter_map(|s| s.values.get(j).copied()).collect();
            d.refit(&values, self.config.smoothing);
        }
        self.history.push(record);
    }

    /// Runs one generation, measuring its samples with `measure` (one fitness and a note per
    /// sample, in order).
    pub fn step(&mut self, measure: &mut impl FnMut(&[Vec<f64>]) -> Vec<(f64, String)>) {
        let drawn = self.draw();
        let measured = measure(&drawn);
        let samples = drawn
            .into_iter()
            .zip(measured)
            .map(|(values, (fitness, detail))| Sample { values, fitness, detail })
            .collect();
        self.update(samples);
    }

    /// Runs every generation left.
    pub fn run(&mut self, mut measure: impl FnMut(&[Vec<f64>]) -> Vec<(f64, String)>) {
        while !self.finished() {
            self.step(&mut measure);
        }
    }

    /// The distributions' centres: the learnt values.
    pub fn centres(&self) -> Vec<f64> {
        self.dists.iter().map(Dist::centre).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::distribution::{standard_normal, Scale};

    /// A noisy objective with a known optimum: an integer at 13 in [0, 40], a real on a log
    /// scale at 300 in [1, 10000], another real at -2.5 in [-10, 10], and a switch that is
    /// worth turning on. The noise (deviation 0.15) is about the size of the differences near
    /// the optimum, as a handful of games per sample gives.
    fn objective(x: &[f64], rng: &mut XorShift64) -> f64 {
        let a = (x[0] - 13.0) / 6.0;
        let b = (x[1].log10() - 300f64.log10()) * 1.5;
        let c = (x[2] + 2.5) / 1.5;
        -(a * a + b * b + c * c) + 0.3 * x[3] + 0.15 * standard_normal(rng)
    }

    fn bad_start() -> Vec<Dist> {
        vec![
            Dist::gaussian(2.0, 6.0, 0.2, (0.0, 40.0), Scale::Linear, true),
            Dist::gaussian(5.0, 0.6, 0.2, (1.0, 10000.0), Scale::Log10, false),
            Dist::gaussian(8.0, 3.0, 0.2, (-10.0, 10.0), Scale::Linear, false),
            Dist::Bernoulli { p: 0.2, floor: 0.05 },
        ]
    }

    fn solve(seed: u64) -> Cem {
        let config =
            CemConfig { samples: 40, elite_fraction: 0.2, smoothing: 0.7, generations: 30 };
        let mut cem = Cem::new(config, bad_start(), seed);
        let mut noise = XorShift64::new(seed ^ 0x5555);
        cem.run(|xs| xs.iter().map(|x| (objective(x, &mut noise), String::new())).collect());
        cem
    }

    #[test]
    fn finds_the_optimum_of_a_noisy_objective_from_a_bad_start() {
        let cem = solve(1);
        let c = cem.centres();
        assert!((c[0] - 13.0).abs() <= 2.0, "integer {c:?}");
        assert!((c[1].log10() - 300f64.log10()).abs() < 0.15, "log-scale real {c:?}");
        assert!((c[2] + 2.5).abs() < 1.0, "real {c:?}");
        assert_eq!(c[3], 1.0, "switch {c:?}");
        // The elite got better as the distributions moved.
        let first = &cem.history[0];
        let last = &cem.history[cem.history.len() - 1];
        assert!(
            last.mean_fitness > first.mean_fitness + 1.0,
            "{} {}",
            first.mean_fitness,
            last.mean_fitness
        );
    }

    #[test]
    fn same_seed_same_run_and_an_interrupted_run_resumes_the_same() {
        assert_eq!(solve(5), solve(5));
        // Interrupt after three generations, save, load, go on.
        let config =
            CemConfig { samples: 40, elite_fraction: 0.2, smoothing: 0.7, generations: 30 };
        let mut noise = XorShift64::new(5 ^ 0x5555);
        let mut measure = |xs: &[Vec<f64>]| {
            xs.iter().map(|x| (objective(x, &mut noise), String::new())).collect()
        };
        let mut cem = Cem::new(config.clone(), bad_start(), 5);
        let mut interrupted = cem.clone();
        for _ in 0..3 {
            interrupted.step(&mut measure);
        }
        let text = serde_json::to_string(&interrupted).unwrap_or_default();
        let mut resumed: Cem = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        resumed.run(&mut measure);
        let mut noise = XorShift64::new(5 ^ 0x5555);
        cem.run(|xs| xs.iter().map(|x| (objective(x, &mut noise), String::new())).collect());
        assert_eq!(resumed, cem);
    }

    #[test]
    fn the_elite_is_the_best_fraction() {
        let config = CemConfig { samples: 10, elite_fraction: 0.2, smoothing: 1.0, generations: 5 };
        let mut cem = Cem::new(
            config,
            vec![Dist::gaussian(0.0, 1.0, 0.0, (-100.0, 100.0), Scale::Linear, false)],
            3,
        );
        let samples = (0..10)
            .map(|i| Sample {
                values: vec![i as f64],
                fitness: -(i as f64 - 7.0).abs(),
                detail: String::new(),
            })
            .collect();
        cem.update(samples);
        // The two best are 7 and then 6 or 8 (a tie: drawing order keeps 6).
        let (mean, sd) = cem.dists[0].centre_and_spread();
        assert!((mean - 6.5).abs() < 1e-9 && (sd - 0.5).abs() < 1e-9, "{mean} {sd}");
        assert_eq!(cem.history[0].elite_fitness, -0.5);
    }
}
