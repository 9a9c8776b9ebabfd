//! SVG and PNG output through plotters: [`Plot::to_svg`], [`Plot::to_png`] and [`Plot::save`].
//!
//! Both targets share one drawing routine generic over plotters' `DrawingBackend`: `spy` draws
//! sparsity patterns, `chart` draws line plots and benchmark charts. PNGs are drawn into an
//! RGB buffer (text by `glyphs`, in the font embedded by `font`) and encoded with `png`.

mod chart;
mod glyphs;
mod legend;
mod spy;

use std::ops::Range;
use std::path::Path;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::error::PlotError;
use crate::font;
use crate::model::{Kind, Plot};
use crate::palette::{self, Rgb};

impl Plot {
    /// The plot as an SVG document of [`Plot::size`] pixels.
    pub fn to_svg(&self) -> Result<String, PlotError> {
        font::ensure_registered();
        let (width, height) = self.size();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            draw(self, &root)?;
            root.present().map_err(PlotError::render)?;
        }
        Ok(svg)
    }

    /// The plot as PNG bytes, 8-bit RGB, of [`Plot::size`] pixels.
    pub fn to_png(&self) -> Result<Vec<u8>, PlotError> {
        font::ensure_registered();
        let (width, height) = self.size();
        let mut rgb = vec![255u8; width as usize * height as usize * 3];
        {
            let backend = BitMapBackend::with_buffer(&mut rgb, (width, height));
            let root = glyphs::GlyphBackend(backend).into_drawing_area();
            draw(self, &root)?;
            root.present().map_err(PlotError::render)?;
        }
        let mut png_bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut png_bytes, width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(PlotError::render)?;
        writer.write_image_data(&rgb).map_err(PlotError::render)?;
        writer.finish().map_err(PlotError::render)?;
        Ok(png_bytes)
    }

    /// Writes the plot to `path` as SVG or PNG, chosen by the extension (`.svg`, `.png`, any
    /// case); any other extension is [`PlotError::UnknownExtension`].
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), PlotError> {
        let path = path.as_ref();
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let bytes = match extension.as_deref() {
            Some("svg") => self.to_svg()?.into_bytes(),
            Some("png") => self.to_png()?,
            _ => {
                return Err(PlotError::UnknownExtension {
                    path: path.to_path_buf(),
                })
            }
        };
        std::fs::write(path, bytes).map_err(|source| PlotError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// Draws `plot` on a white `root`, whichever the backend.
fn draw<DB: DrawingBackend>(plot: &Plot, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
    root.fill(&color(palette::WHITE))
        .map_err(PlotError::render)?;
    match &plot.kind {
        Kind::Spy(spy) => spy::draw(spy, root),
        Kind::Chart(chart) => chart::draw(chart, root),
    }
}

/// A palette colour as plotters wants it.
fn color(rgb: Rgb) -> RGBColor {
    RGBColor(rgb.0, rgb.1, rgb.2)
}

/// A text style of the embedded font at `size` pixels, in ink.
fn text_style(size: u32) -> TextStyle<'static> {
    TextStyle::from((font::FAMILY, size).into_font()).color(&INK_COLOR)
}

static INK_COLOR: RGBColor = RGBColor(palette::INK.0, palette::INK.1, palette::INK.2);

/// A linear axis whose ticks are exactly the given positions (computed in `scale`), so that
/// SVG, PNG and terminal output label the same values. `lo > hi` reverses the axis.
struct Ticked {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Ticked {
    fn new(range: Range<f64>, ticks: Vec<f64>) -> Ticked {
        Ticked {
            lo: range.start,
            hi: range.end,
            ticks,
        }
    }
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let fraction = (value - self.lo) / (self.hi - self.lo);
        let pixel = limit.0 as f64 + fraction * (limit.1 - limit.0) as f64;
        // `as` saturates and maps NaN to 0, so no value can make the backend misbehave.
        pixel.round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Plotters asks once for bold points (ticks, labels, grid) and once for light points
        // (the finer grid, which these axes do not have).
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}
