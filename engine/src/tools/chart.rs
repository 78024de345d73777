//! A small SVG line chart, for the figures the tools write (a book's positions by ply, the
//! pseudo-match's in-book probability, ...): a few series over one x axis, with axes, ticks,
//! a legend and a title, readable in any browser. Hand-written because the figures need
//! nothing more, and a plotting crate would be most of the engine's build.

use std::fmt::Write as _;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;
const COLOURS: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

/// A line chart: its title, axis names and series of (x, y) points.
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<(String, Vec<(f64, f64)>)>,
}

/// About five round tick values covering `lo..=hi`.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).max(1e-9);
    let raw = span / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * magnitude);
    let mut t = (lo / step).ceil() * step;
    let mut out = Vec::new();
    while t <= hi + step * 1e-9 {
        out.push(t);
        t += step;
    }
    out
}

fn label(v: f64) -> String {
    if v.abs() >= 1000.0 || v.fract().abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

impl LineChart {
    /// The chart as an SVG document, the y axis starting at zero (or below, for negative
    /// values): for counts and probabilities.
    pub fn svg(&self) -> String {
        self.render(true)
    }

    /// The chart with the y axis fitted to the values: for quantities whose changes matter
    /// more than their size (a parameter's mean by generation).
    pub fn svg_fitted(&self) -> String {
        self.render(false)
    }

    fn render(&self, from_zero: bool) -> String {
        let points = self.series.iter().flat_map(|(_, p)| p.iter());
        let (mut x0, mut x1, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
        let mut y0: f64 = if from_zero { 0.0 } else { f64::INFINITY };
        for &(x, y) in points {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if !x0.is_finite() {
            (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
        }
        if !from_zero {
            y0 -= (y1 - y0).max(1e-9) * 0.05;
        }
        if x1 <= x0 {
            x1 = x0 + 1.0;
        }
        if y1 <= y0 {
            y1 = y0 + 1.0;
        }
        // Headroom above the highest point for the legend's lines.
        y1 += (y1 - y0) * (0.06 + 0.06 * self.series.len() as f64);
        let plot_w = WIDTH - LEFT - RIGHT;
        let plot_h = HEIGHT - TOP - BOTTOM;
        let sx = |x: f64| LEFT + (x - x0) / (x1 - x0) * plot_w;
        let sy = |y: f64| TOP + plot_h - (y - y0) / (y1 - y0) * plot_h;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
             font-family=\"sans-serif\" font-size=\"12\">"
        );
        let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">{}</text>",
            WIDTH / 2.0,
            escape(&self.title)
        );
        for t in ticks(y0, y1) {
            let y = sy(t);
            let _ = writeln!(
                s,
                "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                LEFT + plot_w,
                LEFT - 6.0,
                y + 4.0,
                label(t)
            );
        }
        for t in ticks(x0, x1) {
            let x = sx(t);
            let _ = writeln!(
                s,
                "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#999\"/>\
                 <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                TOP + plot_h,
                TOP + plot_h + 5.0,
                TOP + plot_h + 18.0,
                label(t)
            );
        }
        let _ = writeln!(
            s,
            "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"none\" \
             stroke=\"#333\"/>"
        );
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            LEFT + plot_w / 2.0,
            HEIGHT - 12.0,
            escape(&self.x_label)
        );
        let _ = writeln!(
            s,
            "<text x=\"16\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {:.1})\">\
             {}</text>",
            TOP + plot_h / 2.0,
            TOP + plot_h / 2.0,
            escape(&self.y_label)
        );
        for (i, (_, pts)) in self.series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let path: Vec<String> =
                pts.iter().map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y))).collect();
            let _ = writeln!(
                s,
                "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>",
                path.join(" ")
            );
        }
        // The legend last, in the headroom, on a white ground.
        let lx = LEFT + plot_w - 210.0;
        let _ = writeln!(
            s,
            "<rect x=\"{lx:.1}\" y=\"{:.1}\" width=\"204\" height=\"{:.1}\" fill=\"white\" \
             fill-opacity=\"0.85\" stroke=\"#ccc\"/>",
            TOP + 4.0,
            16.0 * self.series.len() as f64 + 6.0
        );
        for (i, (name, _)) in self.series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let ly = TOP + 18.0 + 16.0 * i as f64;
            let lx = lx + 6.0;
            let _ = writeln!(
                s,
                "<line x1=\"{lx:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" \
                 stroke-width=\"3\"/><text x=\"{:.1}\" y=\"{ly:.1}\">{}</text>",
                ly - 4.0,
                lx + 20.0,
                ly - 4.0,
                lx + 26.0,
                escape(name)
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_ticks_cover_the_range() {
        let t = ticks(0.0, 1.0);
        assert_eq!(t.len(), 6, "{t:?}");
        assert!(t.iter().zip([0.0, 0.2, 0.4, 0.6, 0.8, 1.0]).all(|(a, b)| (a - b).abs() < 1e-9));
        assert_eq!(ticks(0.0, 37.0), vec![0.0, 10.0, 20.0, 30.0]);
        assert_eq!(label(0.25), "0.25");
        assert_eq!(label(1500.0), "1500");
    }

    #[test]
    fn every_series_is_drawn_with_its_name() {
        let chart = LineChart {
            title: "in book <by ply>".into(),
            x_label: "ply".into(),
            y_label: "probability".into(),
            series: vec![
                ("A black".into(), vec![(0.0, 1.0), (1.0, 0.5), (2.0, 0.25)]),
                ("B black".into(), vec![(0.0, 1.0), (1.0, 1.0)]),
            ],
        };
        let svg = chart.svg();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("A black") && svg.contains("B black"));
        assert!(svg.contains("in book &lt;by ply&gt;"), "titles are escaped");
        // The first series' last point is at the right edge, half-way down to a quarter.
        let right = format!("{:.1},", WIDTH - RIGHT);
        assert!(svg.contains(&right), "{svg}");
    }

    #[test]
    fn a_fitted_axis_leaves_zero_out() {
        let chart = LineChart {
            title: "mean".into(),
            x_label: "generation".into(),
            y_label: "log10".into(),
            series: vec![("mean".into(), vec![(0.0, 2.2), (1.0, 2.4), (2.0, 2.3)])],
        };
        let tick_labels = |svg: &str| {
            svg.split("text-anchor=\"end\">")
                .skip(1)
                .filter_map(|t| t.split('<').next().map(str::to_owned))
                .collect::<Vec<_>>()
        };
        let fitted = tick_labels(&chart.svg_fitted());
        assert!(
            !fitted.contains(&"0".to_string()) && fitted.contains(&"2.3".to_string()),
            "{fitted:?}"
        );
        assert!(tick_labels(&chart.svg()).contains(&"0".to_string()));
    }
}
