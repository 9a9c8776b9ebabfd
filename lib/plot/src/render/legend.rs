//! Chart legends: their size, where they go, and drawing them.
//!
//! A legend goes inside the plot area only in a corner that no line or marker passes through
//! (upper right first), judged on the drawn lines sampled every couple of pixels, not only
//! on the data points. When every corner holds data, it goes outside, to the right of the plot
//! area, which the chart then leaves room for: a legend never hides what the chart shows.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{color, text_style};
use crate::error::PlotError;
use crate::model::{Dash, LegendEntry};
use crate::palette::{self, Rgb};

const ROW: i32 = 18;
const SAMPLE: i32 = 26;
/// Padding inside the box, and between the box and the plot area when outside.
pub(super) const PAD: i32 = 6;
/// Distance of an inside legend from the plot area's edges.
const INSET: i32 = 8;
/// Pixels around the box that a line must also keep clear of (half a stroke and a marker).
const CLEARANCE: i32 = 4;
/// Distance between two samples along a drawn line, in pixels.
const STEP: f64 = 2.0;

/// A legend's entries and the size of its box in pixels.
pub(super) struct Legend<'a> {
    entries: &'a [LegendEntry],
    /// Width of the box.
    pub w: i32,
    /// Height of the box.
    pub h: i32,
}

impl<'a> Legend<'a> {
    /// The legend of `entries` measured in `root`'s font; `None` when there are none.
    pub fn measure<DB: DrawingBackend>(
        entries: &'a [LegendEntry],
        root: &DrawingArea<DB, Shift>,
    ) -> Result<Option<Legend<'a>>, PlotError> {
        if entries.is_empty() {
            return Ok(None);
        }
        let text_w = entries
            .iter()
            .map(|e| {
                root.estimate_text_size(&e.label, &text_style(13))
                    .map(|s| s.0)
            })
            .try_fold(0, |acc, w| w.map(|w| acc.max(w)))
            .map_err(PlotError::render)? as i32;
        Ok(Some(Legend {
            entries,
            w: 3 * PAD + SAMPLE + text_w,
            h: 2 * PAD + ROW * entries.len() as i32,
        }))
    }

    /// The top-left corner of the box in the first corner of the plot area (pixel ranges `xs`,
    /// `ys`) that none of `samples` falls in, upper right first; `None` when every corner
    /// holds data or the box does not fit.
    pub fn free_corner(
        &self,
        (xs, ys): (std::ops::Range<i32>, std::ops::Range<i32>),
        samples: &[(i32, i32)],
    ) -> Option<(i32, i32)> {
        if xs.end - xs.start < self.w + 2 * INSET || ys.end - ys.start < self.h + 2 * INSET {
            return None;
        }
        let (left, right) = (xs.start + INSET, xs.end - self.w - INSET);
        let (top, bottom) = (ys.start + INSET, ys.end - self.h - INSET);
        [(right, top), (left, top), (right, bottom), (left, bottom)]
            .into_iter()
            .find(|&(x0, y0)| {
                !samples.iter().any(|&(x, y)| {
                    x >= x0 - CLEARANCE
                        && x <= x0 + self.w + CLEARANCE
                        && y >= y0 - CLEARANCE
                        && y <= y0 + self.h + CLEARANCE
                })
            })
    }

    /// Draws the box with its top-left corner at `(x0, y0)` (pixels of `root`).
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        (x0, y0): (i32, i32),
    ) -> Result<(), PlotError> {
        let corners = [(x0, y0), (x0 + self.w, y0 + self.h)];
        root.draw(&Rectangle::new(
            corners,
            color(palette::WHITE).mix(0.9).filled(),
        ))
        .map_err(PlotError::render)?;
        root.draw(&Rectangle::new(
            corners,
            color(Rgb(190, 190, 190)).stroke_width(1),
        ))
        .map_err(PlotError::render)?;
        let text = text_style(13).pos(Pos::new(HPos::Left, VPos::Center));
        for (i, entry) in self.entries.iter().enumerate() {
            let y = y0 + PAD + ROW * i as i32 + ROW / 2;
            let (sx0, sx1) = (x0 + PAD, x0 + PAD + SAMPLE);
            let style = color(entry.color).stroke_width(2);
            let sample = [(sx0, y), (sx1, y)];
            match entry.dash {
                Dash::Solid => root.draw(&PathElement::new(sample.to_vec(), style)),
                Dash::Dashed => root.draw(&DashedPathElement::new(sample, 7, 4, style)),
                Dash::Dotted => root.draw(&DashedPathElement::new(sample, 2, 4, style)),
            }
            .map_err(PlotError::render)?;
            if entry.marker {
                let centre = ((sx0 + sx1) / 2, y);
                root.draw(&Circle::new(centre, 3, color(entry.color).filled()))
                    .map_err(PlotError::render)?;
            }
            root.draw_text(&entry.label, &text, (sx1 + PAD, y))
                .map_err(PlotError::render)?;
        }
        Ok(())
    }
}

/// Points every [`STEP`] pixels along the polyline through `pixels` (a lone point is itself).
pub(super) fn samples(pixels: &[(i32, i32)], out: &mut Vec<(i32, i32)>) {
    out.extend(pixels.first());
    for pair in pixels.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let (dx, dy) = (f64::from(x1 - x0), f64::from(y1 - y0));
        let steps = (dx.hypot(dy) / STEP).ceil().max(1.0) as i32;
        for k in 1..=steps {
            let t = f64::from(k) / f64::from(steps);
            out.push((x0 + (dx * t).round() as i32, y0 + (dy * t).round() as i32));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legend(entries: &[LegendEntry]) -> Legend<'_> {
        Legend {
            entries,
            w: 100,
            h: 40,
        }
    }

    #[test]
    fn a_line_between_two_points_blocks_the_corner_it_crosses() {
        let plot = (0..400, 0..300);
        // A straight line from the lower left to the upper right: its ends lie outside the
        // upper-right box, but the line between them crosses it.
        let mut crossing = Vec::new();
        samples(&[(0, 300), (200, 150), (400, 0)], &mut crossing);
        assert!(crossing.len() > 200);
        let l = legend(&[]);
        assert_eq!(
            l.free_corner(plot.clone(), &crossing),
            Some((8, 8)),
            "upper left is free"
        );
        // Only its points would leave the upper right free.
        assert_eq!(
            l.free_corner(plot.clone(), &[(0, 300), (200, 150), (400, 0)]),
            Some((292, 8))
        );
    }

    #[test]
    fn no_free_corner_means_outside() {
        let mut everywhere = Vec::new();
        samples(&[(0, 0), (400, 300)], &mut everywhere);
        samples(&[(0, 300), (400, 0)], &mut everywhere);
        let l = legend(&[]);
        assert_eq!(l.free_corner((0..400, 0..300), &everywhere), None);
        assert_eq!(l.free_corner((0..90, 0..300), &[]), None, "too narrow");
    }
}
