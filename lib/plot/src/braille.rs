//! A braille dot canvas: each character cell holds 2×4 dots (Unicode U+2800–U+28FF), so a
//! terminal of `cols × rows` characters gives `2·cols × 4·rows` roughly square pixels.
//!
//! [`Canvas`] knows dots, lines and colours, nothing about plots; `terminal` lays canvases out
//! with frames, ticks and legends.

use crate::model::Dash;
use crate::palette::{Rgb, ANSI_RESET};

/// The bit of the dot at (`x % 2`, `y % 4`) within a braille character.
const DOT_BITS: [[u8; 2]; 4] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]];

/// A grid of braille characters with one optional colour per character (the last dot set in a
/// character decides it; `None` is the terminal's default colour).
pub(crate) struct Canvas {
    cols: usize,
    rows: usize,
    bits: Vec<u8>,
    colors: Vec<Option<Rgb>>,
}

impl Canvas {
    /// An empty canvas of `cols × rows` characters.
    pub fn new(cols: usize, rows: usize) -> Canvas {
        Canvas {
            cols,
            rows,
            bits: vec![0; cols * rows],
            colors: vec![None; cols * rows],
        }
    }

    /// Width in dots.
    pub fn dot_width(&self) -> usize {
        2 * self.cols
    }

    /// Height in dots.
    pub fn dot_height(&self) -> usize {
        4 * self.rows
    }

    /// Width in characters.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Height in characters.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Lights dot (`x`, `y`), counted from the top left; dots off the canvas are ignored.
    pub fn set(&mut self, x: usize, y: usize, color: Option<Rgb>) {
        if x >= self.dot_width() || y >= self.dot_height() {
            return;
        }
        let cell = (y / 4) * self.cols + x / 2;
        self.bits[cell] |= DOT_BITS[y % 4][x % 2];
        if color.is_some() {
            self.colors[cell] = color;
        }
    }

    /// Lights the dots of a line between two points given in (fractional) dot coordinates,
    /// leaving gaps for dashed and dotted strokes. Points off the canvas are clipped dot by dot.
    pub fn line(&mut self, from: (f64, f64), to: (f64, f64), color: Option<Rgb>, dash: Dash) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let steps = dx.abs().max(dy.abs()).ceil();
        if !steps.is_finite() {
            return;
        }
        // Bounded by the canvas diagonal, so a wild coordinate cannot loop for long.
        let limit = (self.dot_width() + self.dot_height()) as f64 * 4.0;
        let steps = steps.min(limit) as usize;
        for i in 0..=steps {
            let on = match dash {
                Dash::Solid => true,
                Dash::Dashed => i % 6 < 4,
                Dash::Dotted => i % 3 == 0,
            };
            if !on {
                continue;
            }
            let t = if steps == 0 {
                0.0
            } else {
                i as f64 / steps as f64
            };
            let (x, y) = (from.0 + t * dx, from.1 + t * dy);
            if x >= -0.5 && y >= -0.5 {
                self.set(x.round() as usize, y.round() as usize, color);
            }
        }
    }

    /// Row `row` as text, with ANSI colours when `ansi` is set.
    pub fn row(&self, row: usize, ansi: bool) -> String {
        let mut text = String::new();
        let mut current: Option<Rgb> = None;
        for col in 0..self.cols {
            let cell = row * self.cols + col;
            let bits = self.bits[cell];
            let color = if bits == 0 { None } else { self.colors[cell] };
            if ansi && color != current {
                if current.is_some() {
                    text.push_str(ANSI_RESET);
                }
                if let Some(rgb) = color {
                    text.push_str(&rgb.ansi_fg());
                }
                current = color;
            }
            text.push(char::from_u32(0x2800 + u32::from(bits)).unwrap_or(' '));
        }
        if ansi && current.is_some() {
            text.push_str(ANSI_RESET);
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_map_to_braille_bits() {
        let mut canvas = Canvas::new(2, 1);
        canvas.set(0, 0, None);
        canvas.set(1, 3, None);
        canvas.set(3, 2, None);
        canvas.set(9, 9, None);
        assert_eq!(canvas.row(0, false), "⢁⠠");
    }

    #[test]
    fn lines_are_clipped_and_dashed() {
        let mut canvas = Canvas::new(4, 1);
        canvas.line((0.0, 0.0), (7.0, 0.0), None, Dash::Solid);
        assert_eq!(canvas.row(0, false), "⠉⠉⠉⠉");
        let mut dashed = Canvas::new(6, 1);
        dashed.line((0.0, 3.0), (11.0, 3.0), None, Dash::Dashed);
        assert_eq!(dashed.row(0, false), "⣀⣀⠀⣀⣀⠀");
        let mut wild = Canvas::new(2, 1);
        wild.line((-1e300, 0.0), (1e300, f64::NAN), None, Dash::Solid);
    }

    #[test]
    fn colours_wrap_runs_of_characters() {
        let mut canvas = Canvas::new(3, 1);
        canvas.set(0, 0, Some(Rgb(255, 0, 0)));
        canvas.set(2, 0, Some(Rgb(255, 0, 0)));
        assert_eq!(canvas.row(0, true), "\x1b[38;5;196m⠁⠁\x1b[0m⠀");
    }
}
