//! The embedded font: DejaVu Sans (`assets/DejaVuSans.ttf`, Bitstream Vera licence in
//! `assets/DejaVuSans-LICENSE.txt`), registered with plotters' `ab_glyph` text renderer.
//!
//! plotters finds fonts by family name in a global table; with nothing registered, text
//! silently draws nothing in a PNG. [`ensure_registered`] runs before every render so the
//! crate needs no system fonts, fontconfig or freetype; plotters uses the registered font to
//! measure text. [`face`] gives the same font to `render::glyphs`, which draws PNG text.

use std::sync::{Once, OnceLock};

use ab_glyph::FontRef;
use plotters::style::FontStyle;

/// The family name every text style of this crate uses.
pub(crate) const FAMILY: &str = "sans-serif";

static DEJAVU_SANS: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// Registers the embedded font under [`FAMILY`] (once per process).
pub(crate) fn ensure_registered() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        // Bold and italic fall back to this face, so one registration covers every style.
        // The bytes are a known-good TTF compiled in, so failure is impossible in practice;
        // should it happen, text is missing but drawing still succeeds.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, DEJAVU_SANS);
    });
}

/// The embedded face, for drawing PNG text directly (`render::glyphs`); `None` only if the
/// compiled-in bytes were not a font.
pub(crate) fn face() -> Option<&'static FontRef<'static>> {
    static FACE: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    FACE.get_or_init(|| FontRef::try_from_slice(DEJAVU_SANS).ok())
        .as_ref()
}

#[cfg(test)]
mod tests {
    #[test]
    fn embedded_font_parses() {
        assert!(plotters::style::register_font(
            super::FAMILY,
            plotters::style::FontStyle::Normal,
            super::DEJAVU_SANS
        )
        .is_ok());
    }
}
