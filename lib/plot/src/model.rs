//! Plots as data: [`Plot`] and the inputs its constructors validate ([`Groups`], [`Series`],
//! [`SpyOptions`], [`LineOptions`]).
//!
//! A `Plot` is either a spy plot ([`Spy`]) or a chart of lines ([`Chart`]); benchmark charts are
//! charts built in `bench`. Everything here is plain data checked once at construction, so the
//! renderers (`render` for SVG/PNG, `terminal` for text) never meet invalid input.

use std::collections::BTreeSet;
use std::fmt;

use crate::error::PlotError;
use crate::overlap;
use crate::palette::{self, Rgb};
use crate::scale::{Axis, Scale};

/// The largest width or height, in pixels, of a rendered image (a 4096² PNG needs a 48 MiB
/// drawing buffer).
pub const MAX_PIXELS: u32 = 4096;

/// A plot, rendered on demand by `to_svg`, `to_png`, `to_terminal` and `save`.
#[derive(Clone, Debug)]
pub struct Plot {
    pub(crate) kind: Kind,
    /// Image size in pixels; `None` picks one suited to the plot.
    pub(crate) size: Option<(u32, u32)>,
}

#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Spy(Spy),
    Chart(Chart),
}

/// Colour groups of a spy plot's entries, as a coloring returns them: group 0 is neutral (drawn
/// grey), groups 1, 2, … get distinct palette colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Groups {
    /// One group per row (a row coloring); length `nrows`.
    Rows(Vec<usize>),
    /// One group per column (a column coloring); length `ncols`.
    Columns(Vec<usize>),
    /// A bicoloring: groups of rows and of columns, numbered separately. An entry takes its
    /// column's group, or its row's where the column is neutral; row groups are drawn after the
    /// column groups in the palette, so the two sides never share a colour.
    Bidirectional {
        /// One group per row; length `nrows`.
        rows: Vec<usize>,
        /// One group per column; length `ncols`.
        columns: Vec<usize>,
    },
}

impl Groups {
    /// The groups of a coloring that colored the rows, the columns, or both (a bicoloring);
    /// `None` when it colored neither.
    pub fn of_coloring(rows: Option<Vec<usize>>, columns: Option<Vec<usize>>) -> Option<Groups> {
        match (rows, columns) {
            (Some(rows), Some(columns)) => Some(Groups::Bidirectional { rows, columns }),
            (Some(rows), None) => Some(Groups::Rows(rows)),
            (None, Some(columns)) => Some(Groups::Columns(columns)),
            (None, None) => None,
        }
    }

    /// The palette group of entry (`row`, `col`), 0 for neutral.
    fn of_entry(&self, row: usize, col: usize) -> usize {
        match self {
            Groups::Rows(groups) => groups[row],
            Groups::Columns(groups) => groups[col],
            Groups::Bidirectional { rows, columns } => match (columns[col], rows[row]) {
                (0, 0) => 0,
                (0, r) => column_group_count(columns) + r,
                (c, _) => c,
            },
        }
    }

    /// Every non-neutral palette group, ascending.
    fn used(&self) -> Vec<usize> {
        let used: BTreeSet<usize> = match self {
            Groups::Rows(g) | Groups::Columns(g) => g.iter().copied().collect(),
            Groups::Bidirectional { rows, columns } => {
                let offset = column_group_count(columns);
                let row_groups = rows.iter().filter(|&&r| r != 0).map(|r| offset + r);
                columns.iter().copied().chain(row_groups).collect()
            }
        };
        used.into_iter().filter(|&g| g != 0).collect()
    }
}

/// The largest column group of a bicoloring, after which its row groups are numbered.
fn column_group_count(columns: &[usize]) -> usize {
    columns.iter().copied().max().unwrap_or(0)
}

/// Optional parts of a spy plot.
#[derive(Clone, Debug, Default)]
pub struct SpyOptions {
    /// A title above the plot.
    pub title: Option<String>,
    /// Colour each entry by the group of its row or column.
    pub groups: Option<Groups>,
}

/// One line of a line plot: a label for the legend and its points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend label.
    pub label: String,
    /// Abscissas; non-finite values (and non-positive ones on a log axis) break the line.
    pub xs: Vec<f64>,
    /// Ordinates, as many as `xs`, treated the same way.
    pub ys: Vec<f64>,
}

impl Series {
    /// A series from its label and coordinates (lengths are checked by [`Plot::lines`]).
    pub fn new(label: impl Into<String>, xs: Vec<f64>, ys: Vec<f64>) -> Series {
        Series {
            label: label.into(),
            xs,
            ys,
        }
    }
}

/// Optional parts of a line plot.
#[derive(Clone, Debug, Default)]
pub struct LineOptions {
    /// A title above the plot.
    pub title: Option<String>,
    /// The x axis description.
    pub x_label: Option<String>,
    /// The y axis description.
    pub y_label: Option<String>,
    /// Linear or logarithmic x axis.
    pub x_scale: Scale,
    /// Linear or logarithmic y axis.
    pub y_scale: Scale,
    /// Mark each data point, not only the line through them.
    pub markers: bool,
}

/// A sparsity pattern with optional colour groups; entries are in bounds and groups have the
/// right length.
#[derive(Clone, Debug)]
pub(crate) struct Spy {
    pub nrows: usize,
    pub ncols: usize,
    pub entries: Vec<(usize, usize)>,
    pub groups: Option<Groups>,
    pub title: Option<String>,
    /// The distinct non-neutral groups, ascending; their count is shown as "k colors".
    pub used_groups: Vec<usize>,
}

impl Spy {
    /// The colour of entry (`row`, `col`): by group when coloured, ink otherwise.
    pub fn color(&self, row: usize, col: usize) -> Rgb {
        match &self.groups {
            None => palette::INK,
            Some(groups) => palette::group_color(groups.of_entry(row, col)),
        }
    }

    /// The half-open range of the `g` bins covering index `i` of a dimension of size `n`, when
    /// the dimension is spread evenly over `g` bins (pixels or braille dots). Every index gets at
    /// least one bin, so no entry vanishes when the matrix is larger than the canvas.
    pub fn span(i: usize, n: usize, g: usize) -> std::ops::Range<usize> {
        let bin = |k: usize| (k as u128 * g as u128 / n.max(1) as u128) as usize;
        let start = bin(i).min(g.saturating_sub(1));
        start..bin(i + 1).clamp(start + 1, g.max(start + 1))
    }

    /// Caption used by every target, e.g. `8192×8192, nnz = 49152`.
    pub fn caption(&self) -> String {
        format!(
            "{}×{}, nnz = {}",
            self.nrows,
            self.ncols,
            self.entries.len()
        )
    }

    /// The legend text when coloured.
    pub fn legend(&self) -> Option<String> {
        self.groups.as_ref().map(|_| match self.used_groups.len() {
            1 => "1 color".to_string(),
            k => format!("{k} colors"),
        })
    }
}

/// How a line is stroked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dash {
    Solid,
    Dashed,
    Dotted,
}

/// One drawn line of a chart.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    pub xs: Vec<f64>,
    pub ys: Vec<f64>,
    pub color: Rgb,
    pub dash: Dash,
    pub markers: bool,
}

/// One legend row: a sample of the stroke and its text.
#[derive(Clone, Debug)]
pub(crate) struct LegendEntry {
    pub label: String,
    pub color: Rgb,
    pub dash: Dash,
    pub marker: bool,
}

/// Lines on two axes, with a legend decoupled from the lines so a benchmark chart can explain
/// colour (backend) and dash (tag) separately.
#[derive(Clone, Debug)]
pub(crate) struct Chart {
    pub title: Option<String>,
    pub x_label: Option<String>,
    pub y_label: Option<String>,
    pub x_scale: Scale,
    pub y_scale: Scale,
    pub lines: Vec<Line>,
    pub legend: Vec<LegendEntry>,
    /// What `Display` says this is, e.g. `line plot: 2 series`.
    pub summary: String,
}

impl Chart {
    /// The x and y axes fitted to every drawable point (both coordinates drawable).
    pub fn axes(&self) -> (Axis, Axis) {
        let points: Vec<(f64, f64)> = self
            .lines
            .iter()
            .flat_map(|line| line.xs.iter().copied().zip(line.ys.iter().copied()))
            .filter(|&(x, y)| {
                self.x_scale.forward(x).is_some() && self.y_scale.forward(y).is_some()
            })
            .collect();
        (
            Axis::fit(self.x_scale, points.iter().map(|p| p.0)),
            Axis::fit(self.y_scale, points.iter().map(|p| p.1)),
        )
    }

    /// The runs of consecutive drawable points of `line`, in axis space; an undrawable point
    /// (NaN, ±∞, non-positive on a log axis) ends a run, so the line shows a gap there.
    pub fn segments(&self, line: &Line) -> Vec<Vec<(f64, f64)>> {
        let mut segments = Vec::new();
        let mut current = Vec::new();
        for (&x, &y) in line.xs.iter().zip(&line.ys) {
            match (self.x_scale.forward(x), self.y_scale.forward(y)) {
                (Some(px), Some(py)) => current.push((px, py)),
                _ if !current.is_empty() => segments.push(std::mem::take(&mut current)),
                _ => {}
            }
        }
        if !current.is_empty() {
            segments.push(current);
        }
        segments
    }
}

impl Plot {
    /// A spy plot of an `nrows × ncols` sparsity pattern given by its structural nonzeros
    /// `(row, col)`, 0-based. Duplicates are allowed; a 0×0 matrix gives an empty frame.
    pub fn spy(
        nrows: usize,
        ncols: usize,
        entries: Vec<(usize, usize)>,
        options: SpyOptions,
    ) -> Result<Plot, PlotError> {
        if let Some(&(row, col)) = entries.iter().find(|&&(r, c)| r >= nrows || c >= ncols) {
            return Err(PlotError::EntryOutOfBounds {
                row,
                col,
                nrows,
                ncols,
            });
        }
        let used_groups = match &options.groups {
            None => Vec::new(),
            Some(groups) => {
                let row_groups = ("row groups and matrix rows", nrows);
                let column_groups = ("column groups and matrix columns", ncols);
                let checks = match groups {
                    Groups::Rows(g) => vec![(row_groups, g)],
                    Groups::Columns(g) => vec![(column_groups, g)],
                    Groups::Bidirectional { rows, columns } => {
                        vec![(row_groups, rows), (column_groups, columns)]
                    }
                };
                for ((what, expected), values) in checks {
                    if values.len() != expected {
                        return Err(PlotError::MismatchedLengths {
                            what: what.to_string(),
                            expected,
                            found: values.len(),
                        });
                    }
                }
                groups.used()
            }
        };
        // Structural nonzeros are a set: a repeated entry is drawn and counted once.
        let mut entries = entries;
        entries.sort_unstable();
        entries.dedup();
        Ok(Plot::from_kind(Kind::Spy(Spy {
            nrows,
            ncols,
            entries,
            groups: options.groups,
            title: options.title,
            used_groups,
        })))
    }

    /// A line plot of one or more series, each in its own palette colour and in the legend.
    /// A series may be empty or entirely undrawable; an empty list of series is an error.
    pub fn lines(series: Vec<Series>, options: LineOptions) -> Result<Plot, PlotError> {
        if series.is_empty() {
            return Err(PlotError::EmptyData { what: "series" });
        }
        for s in &series {
            if s.xs.len() != s.ys.len() {
                return Err(PlotError::MismatchedLengths {
                    what: format!("xs and ys of series {:?}", s.label),
                    expected: s.xs.len(),
                    found: s.ys.len(),
                });
            }
        }
        let summary = match series.len() {
            1 => "line plot: 1 series".to_string(),
            n => format!("line plot: {n} series"),
        };
        let mut lines = Vec::new();
        let mut labels = Vec::new();
        for (i, s) in series.into_iter().enumerate() {
            labels.push(s.label);
            lines.push(Line {
                xs: s.xs,
                ys: s.ys,
                color: palette::series_color(i),
                dash: Dash::Solid,
                markers: options.markers,
            });
        }
        // A series drawn exactly over another gets a stroke of its own.
        overlap::distinguish(&mut lines, options.x_scale, options.y_scale);
        let legend = labels
            .into_iter()
            .zip(&lines)
            .map(|(label, line)| LegendEntry {
                label,
                color: line.color,
                dash: line.dash,
                marker: line.markers,
            })
            .collect();
        Ok(Plot::from_kind(Kind::Chart(Chart {
            title: options.title,
            x_label: options.x_label,
            y_label: options.y_label,
            x_scale: options.x_scale,
            y_scale: options.y_scale,
            lines,
            legend,
            summary,
        })))
    }

    pub(crate) fn from_kind(kind: Kind) -> Plot {
        Plot { kind, size: None }
    }

    /// The same plot rendered at `width × height` pixels (SVG and PNG).
    pub fn with_size(mut self, width: u32, height: u32) -> Result<Plot, PlotError> {
        if width == 0 || height == 0 || width > MAX_PIXELS || height > MAX_PIXELS {
            return Err(PlotError::InvalidSize { width, height });
        }
        self.size = Some((width, height));
        Ok(self)
    }

    /// The image size in pixels that `to_svg` and `to_png` produce.
    pub fn size(&self) -> (u32, u32) {
        self.size.unwrap_or(match &self.kind {
            Kind::Spy(spy) => spy_default_size(spy.nrows, spy.ncols),
            Kind::Chart(_) => (640, 420),
        })
    }

    /// The title, if any.
    pub fn title(&self) -> Option<&str> {
        match &self.kind {
            Kind::Spy(spy) => spy.title.as_deref(),
            Kind::Chart(chart) => chart.title.as_deref(),
        }
    }
}

/// A size whose plot area has the matrix's aspect ratio (so cells are square), clamped to
/// 1:3 either way so that a vector's pattern still gets a readable picture.
fn spy_default_size(nrows: usize, ncols: usize) -> (u32, u32) {
    // Room for tick labels on the left, the title above and the caption below.
    const AREA: f64 = 480.0;
    let aspect = (ncols.max(1) as f64 / nrows.max(1) as f64).clamp(1.0 / 3.0, 3.0);
    let (w, h) = if aspect >= 1.0 {
        (AREA, AREA / aspect)
    } else {
        (AREA * aspect, AREA)
    };
    (w.round() as u32 + 90, h.round() as u32 + 110)
}

impl fmt::Display for Plot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Spy(spy) => {
                write!(f, "spy plot: {}", spy.caption())?;
                if let Some(legend) = spy.legend() {
                    write!(f, ", {legend}")?;
                }
                Ok(())
            }
            Kind::Chart(chart) => f.write_str(&chart.summary),
        }
    }
}
