//! Spy plots through plotters: square markers in a frame whose aspect ratio is the matrix's,
//! axes numbered 1..n with row 1 at the top, a caption with size and nnz, and when coloured a
//! legend with a swatch for every colour and "k colors"; when the swatches do not all fit
//! beside the caption, it shows those that fit and says so ("k colors, first j shown").
//!
//! When the matrix has more rows or columns than the frame has pixels, entries are binned to
//! pixels and each pixel row is drawn as runs of equal colour, so 8192×8192 with 49k nonzeros
//! costs at most one rectangle per lit run rather than one per entry.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{color, text_style, Ticked};
use crate::error::PlotError;
use crate::model::Spy;
use crate::palette::{self, Rgb};
use crate::scale::index_ticks;

const MARGIN: i32 = 12;
const TITLE_BAND: i32 = 30;
const BOTTOM_LABELS: i32 = 26;
const CAPTION_BAND: i32 = 26;
/// Width of one legend swatch with its gap.
const SWATCH: i32 = 14;

/// The frame's pixel rectangle inside the image.
struct Frame {
    x: i32,
    y: i32,
    w: i32,
    h: i32,
}

pub(super) fn draw<DB: DrawingBackend>(
    spy: &Spy,
    root: &DrawingArea<DB, Shift>,
) -> Result<(), PlotError> {
    let (width, height) = root.dim_in_pixel();
    let (width, height) = (width as i32, height as i32);
    let digits = spy.nrows.max(1).to_string().len() as i32;
    let left_labels = 16 + 8 * digits;
    let top = MARGIN + if spy.title.is_some() { TITLE_BAND } else { 0 };

    if let Some(title) = &spy.title {
        let style = text_style(18).pos(Pos::new(HPos::Center, VPos::Top));
        root.draw_text(title, &style, (width / 2, MARGIN))
            .map_err(PlotError::render)?;
    }

    // The largest rectangle with the matrix's (clamped) aspect ratio that fits.
    let avail_w = width - MARGIN - left_labels - 16;
    let avail_h = height - top - BOTTOM_LABELS - CAPTION_BAND - MARGIN;
    if avail_w < 8 || avail_h < 8 {
        return Ok(());
    }
    let aspect = (spy.ncols.max(1) as f64 / spy.nrows.max(1) as f64).clamp(1.0 / 3.0, 3.0);
    let w = (avail_w as f64).min(avail_h as f64 * aspect);
    let h = w / aspect;
    let frame = Frame {
        x: MARGIN + left_labels + (avail_w - w as i32) / 2,
        y: top,
        w: w as i32,
        h: h as i32,
    };

    draw_axes(spy, root, &frame, left_labels)?;
    let plot_area = root
        .clone()
        .shrink((frame.x, frame.y), (frame.w as u32, frame.h as u32));
    if spy.ncols <= frame.w as usize && spy.nrows <= frame.h as usize {
        draw_cells(spy, &plot_area, &frame)?;
    } else {
        draw_binned(spy, &plot_area, &frame)?;
    }
    plot_area
        .draw(&Rectangle::new(
            [(0, 0), (frame.w - 1, frame.h - 1)],
            color(palette::INK).stroke_width(1),
        ))
        .map_err(PlotError::render)?;
    draw_caption(spy, root, &frame)
}

/// Tick labels 1..n on the left and bottom, with row 1 at the top.
fn draw_axes<DB: DrawingBackend>(
    spy: &Spy,
    root: &DrawingArea<DB, Shift>,
    frame: &Frame,
    left_labels: i32,
) -> Result<(), PlotError> {
    let area = root.clone().shrink(
        (frame.x - left_labels, frame.y),
        (
            (frame.w + left_labels) as u32,
            (frame.h + BOTTOM_LABELS) as u32,
        ),
    );
    let as_f64 = |ticks: Vec<usize>| ticks.into_iter().map(|t| t as f64).collect::<Vec<_>>();
    // Cell i (1-based) spans [i - 0.5, i + 0.5]; the reversed y range puts row 1 on top.
    let x_range = Ticked::new(
        0.5..spy.ncols.max(1) as f64 + 0.5,
        as_f64(index_ticks(spy.ncols)),
    );
    let y_range = Ticked::new(
        spy.nrows.max(1) as f64 + 0.5..0.5,
        as_f64(index_ticks(spy.nrows)),
    );
    let mut chart = ChartBuilder::on(&area)
        .set_label_area_size(LabelAreaPosition::Left, left_labels)
        .set_label_area_size(LabelAreaPosition::Bottom, BOTTOM_LABELS)
        .build_cartesian_2d(x_range, y_range)
        .map_err(PlotError::render)?;
    let index_label = |v: &f64| format!("{}", v.round() as i64);
    chart
        .configure_mesh()
        .disable_mesh()
        .x_label_formatter(&index_label)
        .y_label_formatter(&index_label)
        .label_style(text_style(13))
        .axis_style(color(palette::INK))
        .draw()
        .map_err(PlotError::render)
}

/// One square marker per entry, with a small gap between neighbours once cells are large
/// enough for it to show.
fn draw_cells<DB: DrawingBackend>(
    spy: &Spy,
    area: &DrawingArea<DB, Shift>,
    frame: &Frame,
) -> Result<(), PlotError> {
    let (gw, gh) = (frame.w as usize, frame.h as usize);
    let cell =
        (frame.w as f64 / spy.ncols.max(1) as f64).min(frame.h as f64 / spy.nrows.max(1) as f64);
    let inset = if cell >= 8.0 {
        (cell * 0.08).round() as i32
    } else {
        0
    };
    for &(row, col) in &spy.entries {
        let xs = Spy::span(col, spy.ncols, gw);
        let ys = Spy::span(row, spy.nrows, gh);
        let corners = [
            (xs.start as i32 + inset, ys.start as i32 + inset),
            (xs.end as i32 - inset, ys.end as i32 - inset),
        ];
        area.draw(&Rectangle::new(
            corners,
            color(spy.color(row, col)).filled(),
        ))
        .map_err(PlotError::render)?;
    }
    Ok(())
}

/// Entries binned to pixels, drawn as horizontal runs of one colour. A pixel holding entries
/// of several colours shows the least of them in RGB order, which keeps output deterministic.
fn draw_binned<DB: DrawingBackend>(
    spy: &Spy,
    area: &DrawingArea<DB, Shift>,
    frame: &Frame,
) -> Result<(), PlotError> {
    let (gw, gh) = (frame.w as usize, frame.h as usize);
    let mut pixels: Vec<(usize, usize, Rgb)> = spy
        .entries
        .iter()
        .map(|&(row, col)| {
            let y = Spy::span(row, spy.nrows, gh).start;
            let x = Spy::span(col, spy.ncols, gw).start;
            (y, x, spy.color(row, col))
        })
        .collect();
    pixels.sort_unstable();
    pixels.dedup_by_key(|p| (p.0, p.1));

    let mut runs = Vec::new();
    for &(y, x, rgb) in &pixels {
        match runs.last_mut() {
            Some((ry, _, rx1, rc)) if *ry == y && *rx1 == x && *rc == rgb => *rx1 = x + 1,
            _ => runs.push((y, x, x + 1, rgb)),
        }
    }
    for (y, x0, x1, rgb) in runs {
        let corners = [(x0 as i32, y as i32), (x1 as i32, y as i32 + 1)];
        area.draw(&Rectangle::new(corners, color(rgb).filled()))
            .map_err(PlotError::render)?;
    }
    Ok(())
}

/// `n×m, nnz = k` under the frame, and the colour legend at its right.
fn draw_caption<DB: DrawingBackend>(
    spy: &Spy,
    root: &DrawingArea<DB, Shift>,
    frame: &Frame,
) -> Result<(), PlotError> {
    let y = frame.y + frame.h + BOTTOM_LABELS + CAPTION_BAND / 2;
    let left = text_style(13).pos(Pos::new(HPos::Left, VPos::Center));
    let caption = spy.caption();
    root.draw_text(&caption, &left, (frame.x, y))
        .map_err(PlotError::render)?;
    let Some(count) = spy.legend() else {
        return Ok(());
    };
    let width = |text: &str| {
        root.estimate_text_size(text, &text_style(13))
            .map(|s| s.0 as i32)
            .map_err(PlotError::render)
    };
    let (width_px, _) = root.dim_in_pixel();
    let right_edge = (frame.x + frame.w).max(width_px as i32 - MARGIN);
    let colors = spy.used_groups.len();
    // Room for swatches between the caption and the legend text.
    let room = |text: &str| -> Result<usize, PlotError> {
        let free = right_edge - frame.x - width(&caption)? - width(text)? - 8 - 12;
        Ok((free.max(0) / SWATCH) as usize)
    };
    let (legend, shown) = if room(&count)? >= colors {
        (count, colors)
    } else {
        let longest = format!("{count}, first {colors} shown");
        let shown = room(&longest)?.min(colors);
        (format!("{count}, first {shown} shown"), shown)
    };
    let right = text_style(13).pos(Pos::new(HPos::Right, VPos::Center));
    root.draw_text(&legend, &right, (right_edge, y))
        .map_err(PlotError::render)?;
    let text_w = width(&legend)?;
    for (k, &group) in spy.used_groups.iter().take(shown).enumerate() {
        let x = right_edge - text_w - 8 - SWATCH * (shown - k) as i32;
        let corners = [(x, y - 5), (x + 10, y + 5)];
        root.draw(&Rectangle::new(
            corners,
            color(palette::group_color(group)).filled(),
        ))
        .map_err(PlotError::render)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::{Groups, Plot, SpyOptions};

    /// The swatches of an SVG spy plot: the small squares of the caption band.
    fn swatches(svg: &str) -> usize {
        svg.matches("width=\"10\" height=\"10\"").count()
    }

    fn colored(n: usize, colors: usize, size: Option<(u32, u32)>) -> String {
        let groups = (0..n).map(|j| j % colors + 1).collect();
        let options = SpyOptions {
            title: None,
            groups: Some(Groups::Columns(groups)),
        };
        let mut plot = Plot::spy(n, n, (0..n).map(|i| (i, i)).collect(), options).unwrap();
        if let Some((w, h)) = size {
            plot = plot.with_size(w, h).unwrap();
        }
        plot.to_svg().unwrap()
    }

    #[test]
    fn the_legend_shows_every_colour_when_they_fit() {
        let svg = colored(128, 11, None);
        assert_eq!(swatches(&svg), 11);
        assert!(
            svg.contains(">\n11 colors\n<") || svg.contains(">11 colors<"),
            "the count, nothing hidden: {svg}"
        );
    }

    #[test]
    fn the_legend_says_how_many_it_shows_when_they_do_not_fit() {
        let svg = colored(300, 40, Some((300, 300)));
        let shown = swatches(&svg);
        assert!(shown < 40, "{shown}");
        assert!(
            svg.contains(&format!("40 colors, first {shown} shown")),
            "{svg}"
        );
    }
}
