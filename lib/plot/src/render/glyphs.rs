//! A bitmap backend that draws text itself: [`GlyphBackend`] wraps plotters' `BitMapBackend`
//! and replaces only `draw_text`.
//!
//! plotters 0.3.7's `ab_glyph` text places each glyph at its advance position but drops the
//! glyph's left side bearing, so narrow glyphs drift ("1 0" for "10"). Here glyphs are laid out
//! with ab_glyph's positioned outlines instead. Widths and the box height follow plotters'
//! own text measurement, so anchors computed by plotters (tick labels, captions) still line up.

use ab_glyph::{point, Font, PxScale, ScaleFont};
use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

use crate::font;

/// `BitMapBackend` with correctly placed glyphs.
pub(super) struct GlyphBackend<'a>(pub BitMapBackend<'a>);

type Result<'a> =
    std::result::Result<(), DrawingErrorKind<<BitMapBackend<'a> as DrawingBackend>::ErrorType>>;

impl<'a> DrawingBackend for GlyphBackend<'a> {
    type ErrorType = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<'a> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<'a> {
        self.0.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<'a> {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<'a> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<'a> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<'a> {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<'a> {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<'a> {
        self.0.fill_polygon(vert, style)
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Result<'a> {
        self.0.blit_bitmap(pos, size, src)
    }

    /// Text in the embedded font, horizontal (this crate never rotates text).
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<'a> {
        let color = style.color();
        let Some(face) = font::face() else {
            return Ok(());
        };
        if color.alpha == 0.0 {
            return Ok(());
        }
        let size = style.size() as f32;
        let scale = PxScale::from(size);
        let scaled = face.as_scaled(scale);

        let mut glyphs = Vec::new();
        let mut caret = 0.0f32;
        let mut previous = None;
        for c in text.chars() {
            let id = face.glyph_id(c);
            if let Some(previous) = previous {
                caret += scaled.kern(previous, id);
            }
            glyphs.push((id, caret));
            caret += scaled.h_advance(id);
            previous = Some(id);
        }

        // plotters measures text as `advance width × size / 1.24`; place the box the same way
        // and centre capital letters in it.
        let (width, height) = (caret, size / 1.24);
        let left = pos.0 as f32
            - match style.anchor().h_pos {
                HPos::Left => 0.0,
                HPos::Center => width / 2.0,
                HPos::Right => width,
            };
        let top = pos.1 as f32
            - match style.anchor().v_pos {
                VPos::Top => 0.0,
                VPos::Center => height / 2.0,
                VPos::Bottom => height,
            };
        let baseline = top + height / 2.0 + 0.313 * size;

        for (id, x) in glyphs {
            let glyph = id.with_scale_and_position(scale, point(left + x, baseline));
            let Some(outline) = face.outline_glyph(glyph) else {
                continue;
            };
            let bounds = outline.px_bounds();
            let mut result = Ok(());
            outline.draw(|x, y, coverage| {
                if result.is_ok() && coverage > 0.0 {
                    let pixel = (
                        bounds.min.x as i32 + x as i32,
                        bounds.min.y as i32 + y as i32,
                    );
                    let mut ink = color;
                    ink.alpha *= f64::from(coverage.min(1.0));
                    result = self.0.draw_pixel(pixel, ink);
                }
            });
            result?;
        }
        Ok(())
    }
}
