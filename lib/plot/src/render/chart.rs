//! Line plots and benchmark charts through plotters: axes in axis space (see `scale`), a light
//! grid at the ticks, solid/dashed/dotted lines with optional markers, and a legend placed in
//! the corner of the plot area that hides the fewest data points.
//!
//! The y axis description is written horizontally above the axis rather than rotated: plotters'
//! `ab_glyph` text cannot rotate, and this way SVG and PNG look alike.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use plotters::element::DashedPathElement;

use super::{color, text_style, Ticked};
use crate::error::PlotError;
use crate::model::{Chart, Dash, LegendEntry};
use crate::palette::{self, Rgb};
use crate::scale::Tick;

const LEGEND_ROW: i32 = 18;
const LEGEND_SAMPLE: i32 = 26;
const LEGEND_PAD: i32 = 6;

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

    let mut builder = ChartBuilder::on(root);
    builder
        .margin(14)
        .margin_top(if chart.y_label.is_some() { 30 } else { 14 })
        .x_label_area_size(if chart.x_label.is_some() { 48 } else { 28 })
        .y_label_area_size(tick_width as i32 + 14);
    if let Some(title) = &chart.title {
        builder.caption(title, text_style(18));
    }
    let positions = |ticks: &[Tick]| ticks.iter().map(|t| t.position).collect::<Vec<_>>();
    let mut plot = builder
        .build_cartesian_2d(
            Ticked::new(x_axis.lo..x_axis.hi, positions(&x_axis.ticks)),
            Ticked::new(y_axis.lo..y_axis.hi, positions(&y_axis.ticks)),
        )
        .map_err(PlotError::render)?;

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
        root.draw_text(label, &style, (x - tick_width as i32 - 8, y - 10))
            .map_err(PlotError::render)?;
    }

    let mut points = Vec::new();
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
            points.extend(segment.iter().map(|p| plot.backend_coord(p)));
        }
    }

    let area = plot.plotting_area().strip_coord_spec();
    let base = plot.plotting_area().get_base_pixel();
    let local: Vec<(i32, i32)> = points
        .iter()
        .map(|&(x, y)| (x - base.0, y - base.1))
        .collect();
    draw_legend(&chart.legend, &area, &local)
}

/// The label of the tick at `position` (key points are exactly the tick positions).
fn tick_label(ticks: &[Tick], position: f64) -> String {
    ticks
        .iter()
        .find(|t| (t.position - position).abs() <= 1e-9 * (1.0 + position.abs()))
        .map(|t| t.label.clone())
        .unwrap_or_default()
}

/// The legend box in whichever corner of `area` covers the fewest of `points` (pixel
/// coordinates relative to `area`), upper right first on ties.
fn draw_legend<DB: DrawingBackend>(
    entries: &[LegendEntry],
    area: &DrawingArea<DB, Shift>,
    points: &[(i32, i32)],
) -> Result<(), PlotError> {
    if entries.is_empty() {
        return Ok(());
    }
    let text_w = entries
        .iter()
        .map(|e| {
            area.estimate_text_size(&e.label, &text_style(13))
                .map(|s| s.0)
        })
        .try_fold(0, |acc, w| w.map(|w| acc.max(w)))
        .map_err(PlotError::render)? as i32;
    let box_w = 3 * LEGEND_PAD + LEGEND_SAMPLE + text_w;
    let box_h = 2 * LEGEND_PAD + LEGEND_ROW * entries.len() as i32;
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let inset = 8;
    let corners = [
        (w - box_w - inset, inset),
        (inset, inset),
        (w - box_w - inset, h - box_h - inset),
        (inset, h - box_h - inset),
    ];
    let covered = |&(x0, y0): &(i32, i32)| {
        points
            .iter()
            .filter(|&&(x, y)| x >= x0 && x <= x0 + box_w && y >= y0 && y <= y0 + box_h)
            .count()
    };
    let (x0, y0) = corners
        .iter()
        .copied()
        .min_by_key(covered)
        .unwrap_or(corners[0]);

    area.draw(&Rectangle::new(
        [(x0, y0), (x0 + box_w, y0 + box_h)],
        color(palette::WHITE).mix(0.9).filled(),
    ))
    .map_err(PlotError::render)?;
    area.draw(&Rectangle::new(
        [(x0, y0), (x0 + box_w, y0 + box_h)],
        color(Rgb(190, 190, 190)).stroke_width(1),
    ))
    .map_err(PlotError::render)?;
    let text = text_style(13).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, entry) in entries.iter().enumerate() {
        let y = y0 + LEGEND_PAD + LEGEND_ROW * i as i32 + LEGEND_ROW / 2;
        let (sx0, sx1) = (x0 + LEGEND_PAD, x0 + LEGEND_PAD + LEGEND_SAMPLE);
        let style = color(entry.color).stroke_width(2);
        let sample = [(sx0, y), (sx1, y)];
        match entry.dash {
            Dash::Solid => area.draw(&PathElement::new(sample.to_vec(), style)),
            Dash::Dashed => area.draw(&DashedPathElement::new(sample, 7, 4, style)),
            Dash::Dotted => area.draw(&DashedPathElement::new(sample, 2, 4, style)),
        }
        .map_err(PlotError::render)?;
        if entry.marker {
            let centre = ((sx0 + sx1) / 2, y);
            area.draw(&Circle::new(centre, 3, color(entry.color).filled()))
                .map_err(PlotError::render)?;
        }
        area.draw_text(&entry.label, &text, (sx1 + LEGEND_PAD, y))
            .map_err(PlotError::render)?;
    }
    Ok(())
}
