//! Benchmark charts in the style of Figure 2 of the DifferentiationInterface paper: time (log y)
//! against input size (log x), one colour per backend, one dash style per series tag (e.g.
//! `prepared` solid, `unprepared` dashed).
//!
//! [`Plot::benchmark`] turns [`BenchmarkRow`]s into a `Chart` of the line-plot machinery in
//! `model`; nothing downstream knows it was a benchmark.

use crate::error::PlotError;
use crate::model::{Chart, Dash, Kind, LegendEntry, Line, Plot};
use crate::palette;
use crate::scale::Scale;

/// One measurement: `backend` took `y` (e.g. seconds) on an input of size `x`, under `tag`.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchmarkRow {
    /// The backend measured, e.g. `"AutoForwardDiff()"`; one colour each.
    pub backend: String,
    /// The series tag, e.g. `"prepared"` or `"unprepared"`; one dash style each.
    pub tag: String,
    /// The input size.
    pub x: f64,
    /// The measured time.
    pub y: f64,
}

impl BenchmarkRow {
    /// A row from its four fields.
    pub fn new(backend: impl Into<String>, tag: impl Into<String>, x: f64, y: f64) -> Self {
        BenchmarkRow {
            backend: backend.into(),
            tag: tag.into(),
            x,
            y,
        }
    }
}

/// Optional parts of a benchmark chart; both axes are logarithmic.
#[derive(Clone, Debug)]
pub struct BenchmarkOptions {
    /// A title above the chart.
    pub title: Option<String>,
    /// The x axis description; defaults to `input size`.
    pub x_label: String,
    /// The y axis description; defaults to `time (s)`.
    pub y_label: String,
}

impl Default for BenchmarkOptions {
    fn default() -> Self {
        BenchmarkOptions {
            title: None,
            x_label: "input size".to_string(),
            y_label: "time (s)".to_string(),
        }
    }
}

/// Dash styles by tag, in order of first appearance: the first tag (`prepared` in Figure 2)
/// is solid.
const DASHES: [Dash; 3] = [Dash::Solid, Dash::Dashed, Dash::Dotted];

impl Plot {
    /// A benchmark chart: one line per (backend, tag), points sorted by `x`. Backends and tags
    /// keep the order in which they first appear in `rows`. The legend lists the backends by
    /// colour, then (when there are several tags) the tags by dash style.
    pub fn benchmark(
        rows: Vec<BenchmarkRow>,
        options: BenchmarkOptions,
    ) -> Result<Plot, PlotError> {
        if rows.is_empty() {
            return Err(PlotError::EmptyData {
                what: "benchmark rows",
            });
        }
        let mut backends: Vec<&str> = Vec::new();
        let mut tags: Vec<&str> = Vec::new();
        for row in &rows {
            if !backends.contains(&row.backend.as_str()) {
                backends.push(&row.backend);
            }
            if !tags.contains(&row.tag.as_str()) {
                tags.push(&row.tag);
            }
        }
        let dash = |t: usize| DASHES[t % DASHES.len()];

        let mut lines = Vec::new();
        for (b, backend) in backends.iter().enumerate() {
            for (t, tag) in tags.iter().enumerate() {
                let mut points: Vec<(f64, f64)> = rows
                    .iter()
                    .filter(|r| r.backend == *backend && r.tag == *tag)
                    .map(|r| (r.x, r.y))
                    .collect();
                if points.is_empty() {
                    continue;
                }
                points.sort_by(|a, b| a.0.total_cmp(&b.0));
                lines.push(Line {
                    xs: points.iter().map(|p| p.0).collect(),
                    ys: points.iter().map(|p| p.1).collect(),
                    color: palette::series_color(b),
                    dash: dash(t),
                    markers: true,
                });
            }
        }

        let mut legend: Vec<LegendEntry> = backends
            .iter()
            .enumerate()
            .map(|(b, backend)| LegendEntry {
                label: backend.to_string(),
                color: palette::series_color(b),
                dash: Dash::Solid,
                marker: true,
            })
            .collect();
        if tags.len() > 1 {
            legend.extend(tags.iter().enumerate().map(|(t, tag)| LegendEntry {
                label: tag.to_string(),
                color: palette::INK,
                dash: dash(t),
                marker: false,
            }));
        }

        let summary = format!(
            "benchmark chart: {} backend{}, {} tag{}, {} rows",
            backends.len(),
            plural(backends.len()),
            tags.len(),
            plural(tags.len()),
            rows.len()
        );
        Ok(Plot::from_kind(Kind::Chart(Chart {
            title: options.title,
            x_label: Some(options.x_label),
            y_label: Some(options.y_label),
            x_scale: Scale::Log,
            y_scale: Scale::Log,
            lines,
            legend,
            summary,
        })))
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
