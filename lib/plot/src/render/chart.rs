//! Line plots and benchmark charts through plotters: axes in axis space (see `scale`), a light
//! grid at the ticks, solid/dashed/dotted lines with optional markers, and a legend off the
//! data: in a corner of the plot area that no line crosses, else to its right (`legend`).
//!
//! The y axis description is written horizontally above the axis rather than rotated: plotters'
//! `ab_glyph` text cannot rotate, and this way SVG and PNG look alike.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::legend::{self, Legend};
use super::{color, text_style, Ticked};
use crate::error::PlotError;
use crate::model::{Chart, Dash};
use crate::palette::{self, Rgb};
use crate::scale::{Axis, Tick};

type Context<'a, DB> = ChartContext<'a, DB, Cartesian2d<Ticked, Ticked>>;

pub(super) fn draw<DB: DrawingBackend>(
    chart: &Chart,
    root: &DrawingArea<DB, Shift>,
) -> Result<(), PlotError> {
    let (x_axis, y_axis) = chart.axes();
    let tick_width = y_axis
        .ticks
        .iter()
        .map(|t| {
            root.estimate_text_size(&t.label, &text_style(13))
                .map(|s| s.0)
        })
        .try_fold(0, |acc, w| w.map(|w| acc.max(w)))
        .map_err(PlotError::render)?;

    let area = match &chart.title {
        Some(title) => root
            .titled(title, text_style(18))
            .map_err(PlotError::render)?,
        None => root.clone(),
    };
    let tick_width = tick_width as i32;
    let mut plot = build(chart, &area, (&x_axis, &y_axis), tick_width, 0)?;
    // The legend goes in a corner no line crosses, or outside the plot area at its right.
    let legend = Legend::measure(&chart.legend, root)?;
    let mut legend_at = None;
    if let Some(legend) = &legend {
        let mut drawn = Vec::new();
        for line in &chart.lines {
            for segment in chart.segments(line) {
                let pixels: Vec<(i32, i32)> =
                    segment.iter().map(|p| plot.backend_coord(p)).collect();
                legend::samples(&pixels, &mut drawn);
            }
        }
        legend_at = legend.free_corner(plot.plotting_area().get_pixel_range(), &drawn);
        if legend_at.is_none() {
            let reserve = legend.w + 2 * legend::PAD;
            plot = build(chart, &area, (&x_axis, &y_axis), tick_width, reserve)?;
            let (xs, ys) = plot.plotting_area().get_pixel_range();
            legend_at = Some((xs.end + 2 * legend::PAD, ys.start));
        }
    }

    let x_label = |v: &f64| tick_label(&x_axis.ticks, *v);
    let y_label = |v: &f64| tick_label(&y_axis.ticks, *v);
    let mut mesh = plot.configure_mesh();
    mesh.x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .bold_line_style(color(Rgb(228, 228, 228)))
        .axis_style(color(palette::INK))
        .label_style(text_style(13))
        .axis_desc_style(text_style(14));
    if let Some(label) = &chart.x_label {
        mesh.x_desc(label);
    }
    mesh.draw().map_err(PlotError::render)?;

    if let Some(label) = &chart.y_label {
        let (x, y) = plot.plotting_area().get_base_pixel();
        let style = text_style(14).pos(Pos::new(HPos::Left, VPos::Bottom));
        root.draw_text(label, &style, (x - tick_width - 8, y - 10))
            .map_err(PlotError::render)?;
    }

    for line in &chart.lines {
        let style = color(line.color).stroke_width(2);
        for segment in chart.segments(line) {
            let path = segment.iter().copied();
            match line.dash {
                Dash::Solid => plot.draw_series(LineSeries::new(path, style)),
                Dash::Dashed => plot.draw_series(DashedLineSeries::new(path, 10, 6, style)),
                Dash::Dotted => plot.draw_series(DashedLineSeries::new(path, 2, 5, style)),
            }
            .map_err(PlotError::render)?;
            // A lone point has no line through it, so it always gets a marker.
            if line.markers || segment.len() == 1 {
                let marker = |&p: &(f64, f64)| Circle::new(p, 3, color(line.color).filled());
                plot.draw_series(segment.iter().map(marker))
                    .map_err(PlotError::render)?;
            }
        }
    }
    match (&legend, legend_at) {
        (Some(legend), Some(at)) => legend.draw(root, at),
        _ => Ok(()),
    }
}

/// The chart's axes on `area`, with `reserve` pixels kept free at the right (for a legend).
fn build<'a, DB: DrawingBackend>(
    chart: &Chart,
    area: &'a DrawingArea<DB, Shift>,
    (x_axis, y_axis): (&Axis, &Axis),
    tick_width: i32,
    reserve: i32,
) -> Result<Context<'a, DB>, PlotError> {
    let positions = |ticks: &[Tick]| ticks.iter().map(|t| t.position).collect::<Vec<_>>();
    ChartBuilder::on(area)
        .margin(14)
        .margin_right(14 + reserve)
        .margin_top(if chart.y_label.is_some() { 30 } else { 14 })
        .x_label_area_size(if chart.x_label.is_some() { 48 } else { 28 })
        .y_label_area_size(tick_width + 14)
        .build_cartesian_2d(
            Ticked::new(x_axis.lo..x_axis.hi, positions(&x_axis.ticks)),
            Ticked::new(y_axis.lo..y_axis.hi, positions(&y_axis.ticks)),
        )
        .map_err(PlotError::render)
}

/// The label of the tick at `position` (key points are exactly the tick positions).
fn tick_label(ticks: &[Tick], position: f64) -> String {
    ticks
        .iter()
        .find(|t| (t.position - position).abs() <= 1e-9 * (1.0 + position.abs()))
        .map(|t| t.label.clone())
        .unwrap_or_default()
}
