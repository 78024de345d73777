//! What is tuned: engine parameters by name, each with its distribution. The seed's set comes
//! first (its table 1, centred on our defaults, since the reference plays with them); any other
//! parameter of [`Params`] joins by name, as `NAME`, `NAME=MIN..MAX` or `NAME=MIN..MAX:log`.

use crate::params::Params;
use crate::tune::distribution::{Dist, Scale};

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    pub name: String,
    pub dist: Dist,
}

/// The seed's minimum probability of each value of a switch (its n = 5 %).
pub const SWITCH_FLOOR: f64 = 0.05;

/// How a number's distribution starts: its range, scale and deviation (in working units,
/// before `--sd-scale`).
struct Shape {
    range: (f64, f64),
    scale: Scale,
    sd: f64,
}

/// The seed's parameters (table 1) in our names. The seed's deviations are kept: 2.5 plies of
/// quiescence depth, 0.5 in log10 for the futility margins and the aspiration width (its
/// ranges too: 10..1000, 20..2000, 30..3000, 20..2000 centipawns), and for the five ordering
/// weights a quarter of their range, as its 4 of 16.
pub const SEED_SET: [&str; 12] = [
    "qsearch_depth",
    "futility_margin_1",
    "futility_margin_2",
    "futility_margin_3",
    "aspiration_width",
    "use_pvs",
    "negascout",
    "order_check",
    "order_capture",
    "order_attack",
    "order_escape",
    "order_focal",
];

fn seed_shape(name: &str) -> Option<Shape> {
    let log = |lo: f64, hi: f64| Shape { range: (lo, hi), scale: Scale::Log10, sd: 0.5 };
    let linear = |lo: f64, hi: f64, sd: f64| Shape { range: (lo, hi), scale: Scale::Linear, sd };
    Some(match name {
        "qsearch_depth" => linear(0.0, 16.0, 2.5),
        "futility_margin_1" => log(10.0, 1000.0),
        "futility_margin_2" => log(20.0, 2000.0),
        "futility_margin_3" => log(30.0, 3000.0),
        "aspiration_width" => log(20.0, 2000.0),
        "order_capture" => linear(0.0, 4000.0, 1000.0),
        "order_check" | "order_attack" | "order_escape" | "order_focal" => {
            linear(0.0, 1600.0, 400.0)
        }
        _ => return None,
    })
}

/// The distribution of the parameter `spec` (`NAME`, `NAME=MIN..MAX` or `NAME=MIN..MAX:log`),
/// centred on its value in `base`. A 0/1 parameter is a switch that starts at the seed's 0.7
/// for its current value; a number without a range keeps [`Params`]' range with a deviation
/// of a third of its value (at least 1); with a range, a quarter of the range (in log10 with
/// `:log`). `sd_scale` scales every deviation; the deviation's floor is `floor_fraction` of it.
pub fn tuned(
    spec: &str,
    base: &Params,
    sd_scale: f64,
    floor_fraction: f64,
) -> Result<Tuned, String> {
    let (name, range) = match spec.split_once('=') {
        Some((n, r)) => (n.trim(), Some(r.trim())),
        None => (spec.trim(), None),
    };
    let p = Params::SPECS
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| format!("unknown parameter `{name}` (see engine/src/params.rs)"))?;
    let value = f64::from(base.get(name).unwrap_or(p.default));
    if p.min == 0 && p.max == 1 && range.is_none() {
        let p1 = if value >= 0.5 { 0.7 } else { 0.3 };
        return Ok(Tuned {
            name: name.to_owned(),
            dist: Dist::Bernoulli { p: p1, floor: SWITCH_FLOOR },
        });
    }
    let shape = match range {
        Some(r) => parse_range(name, r, (f64::from(p.min), f64::from(p.max)))?,
        None => seed_shape(name).unwrap_or(Shape {
            range: (f64::from(p.min), f64::from(p.max)),
            scale: Scale::Linear,
            sd: (value.abs() / 3.0).max(1.0),
        }),
    };
    let dist =
        Dist::gaussian(value, shape.sd * sd_scale, floor_fraction, shape.range, shape.scale, true);
    Ok(Tuned { name: name.to_owned(), dist })
}

/// `MIN..MAX` or `MIN..MAX:log`, within the parameter's own range.
fn parse_range(name: &str, text: &str, (lo, hi): (f64, f64)) -> Result<Shape, String> {
    let (bounds, log) = match text.strip_suffix(":log") {
        Some(b) => (b, true),
        None => (text, false),
    };
    let bad = || format!("`{name}={text}`: expected MIN..MAX or MIN..MAX:log");
    let (a, b) = bounds.split_once("..").ok_or_else(bad)?;
    let a: f64 = a.trim().parse().map_err(|_| bad())?;
    let b: f64 = b.trim().parse().map_err(|_| bad())?;
    if a >= b || a.is_nan() || b.is_nan() || a < lo || b > hi {
        return Err(format!("`{name}={text}`: the range must be increasing and within {lo}..{hi}"));
    }
    if log && a < 1.0 {
        return Err(format!("`{name}={text}`: a log scale needs MIN of at least 1"));
    }
    Ok(if log {
        Shape { range: (a, b), scale: Scale::Log10, sd: (b.log10() - a.log10()) / 4.0 }
    } else {
        Shape { range: (a, b), scale: Scale::Linear, sd: (b - a) / 4.0 }
    })
}

/// The parameters to tune: the seed's set unless `without_seed_set`, then `extra`, each once.
pub fn space(
    without_seed_set: bool,
    extra: &[String],
    base: &Params,
    sd_scale: f64,
    floor_fraction: f64,
) -> Result<Vec<Tuned>, String> {
    let mut out: Vec<Tuned> = Vec::new();
    let seed = if without_seed_set { Vec::new() } else { SEED_SET.map(str::to_owned).to_vec() };
    for spec in seed.iter().chain(extra) {
        let t = tuned(spec, base, sd_scale, floor_fraction)?;
        match out.iter_mut().find(|o| o.name == t.name) {
            Some(o) => *o = t, // a later, explicit range wins
            None => out.push(t),
        }
    }
    if out.is_empty() {
        return Err("nothing to tune: --without-seed-set needs --add".to_string());
    }
    Ok(out)
}

/// `base` with the sample's values set (each is within its parameter's range by
/// construction: the distributions clamp to ranges inside [`Params`]').
pub fn apply(base: &Params, names: &[String], values: &[f64]) -> Result<Params, String> {
    let mut p = base.clone();
    for (name, &v) in names.iter().zip(values) {
        p.set(name, v.round() as i32).map_err(|e| e.to_string())?;
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_set_is_centred_on_the_defaults() {
        let base = Params::default();
        let s = space(false, &[], &base, 1.0, 0.1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.len(), SEED_SET.len());
        let centres: Vec<f64> = s.iter().map(|t| t.dist.centre()).collect();
        let names: Vec<String> = s.iter().map(|t| t.name.clone()).collect();
        let values = apply(&base, &names, &centres).unwrap_or_else(|e| panic!("{e}"));
        // Switches centre on 0/1 by p >= 0.5: use_pvs (1) at 0.7, negascout (0) at 0.3.
        assert_eq!(values, base);
    }

    #[test]
    fn names_and_ranges_are_checked() {
        let base = Params::default();
        assert!(tuned("no_such_param", &base, 1.0, 0.1).is_err());
        assert!(tuned("lmr_base=10", &base, 1.0, 0.1).is_err());
        assert!(tuned("lmr_base=300..10", &base, 1.0, 0.1).is_err());
        assert!(tuned("lmr_base=0..100000", &base, 1.0, 0.1).is_err());
        assert!(tuned("lmr_base=0..200:log", &base, 1.0, 0.1).is_err());
        let t = tuned("lmr_divisor=50..500:log", &base, 1.0, 0.1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(t.dist.centre(), 170.0);
        let t = tuned("check_extension", &base, 1.0, 0.1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(t.dist, Dist::Bernoulli { p: 0.7, floor: SWITCH_FLOOR });
        // An explicit range replaces the seed's.
        let s = space(false, &["qsearch_depth=0..10".to_string()], &base, 1.0, 0.1)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.len(), SEED_SET.len());
        assert!(matches!(s[0].dist, Dist::Gaussian { max, .. } if max == 10.0));
    }
}
