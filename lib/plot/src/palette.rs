//! Colours shared by every target: the series palette, the neutral grey of colour group 0, the
//! ink of uncoloured markers, and their nearest ANSI 256-colour codes for the terminal.
//!
//! The first ten colours are those of Julia's Plots.jl default palette, so difflab figures look
//! like the ones in the papers they reproduce; later colours step round the hue circle by the
//! golden angle, which keeps neighbouring groups distinct however many there are.

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Rgb(pub u8, pub u8, pub u8);

/// Axes, text and the markers of an uncoloured spy plot.
pub(crate) const INK: Rgb = Rgb(30, 30, 30);

/// Colour group 0: entries that a colouring left neutral.
pub(crate) const GREY: Rgb = Rgb(160, 160, 160);

/// Background of SVG and PNG images.
pub(crate) const WHITE: Rgb = Rgb(255, 255, 255);

const BASE: [Rgb; 10] = [
    Rgb(0, 154, 250),
    Rgb(227, 111, 71),
    Rgb(62, 164, 78),
    Rgb(195, 113, 210),
    Rgb(172, 142, 24),
    Rgb(0, 170, 174),
    Rgb(237, 94, 147),
    Rgb(198, 130, 37),
    Rgb(0, 169, 141),
    Rgb(142, 151, 29),
];

/// The colour of the `index`-th series (0-based); defined for every index.
pub(crate) fn series_color(index: usize) -> Rgb {
    if let Some(&color) = BASE.get(index) {
        return color;
    }
    // The golden angle never repeats a hue exactly, so colours stay distinct for any count.
    let hue = ((index - BASE.len()) as f64 * 137.507_764 + 20.0) % 360.0;
    hsl(hue, 0.65, 0.5)
}

/// The colour of colour group `group`: 0 is neutral grey, `g ≥ 1` is series colour `g - 1`.
pub(crate) fn group_color(group: usize) -> Rgb {
    match group {
        0 => GREY,
        g => series_color(g - 1),
    }
}

fn hsl(hue: f64, saturation: f64, lightness: f64) -> Rgb {
    let chroma = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let h = hue / 60.0;
    let x = chroma * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (chroma, x, 0.0),
        1 => (x, chroma, 0.0),
        2 => (0.0, chroma, x),
        3 => (0.0, x, chroma),
        4 => (x, 0.0, chroma),
        _ => (chroma, 0.0, x),
    };
    let m = lightness - chroma / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    Rgb(byte(r), byte(g), byte(b))
}

impl Rgb {
    /// The escape sequence selecting the nearest colour of the xterm 256-colour cube as
    /// foreground; 256 colours work in more terminals than 24-bit colour does.
    pub(crate) fn ansi_fg(self) -> String {
        let level = |v: u8| (u16::from(v) * 5 + 127) / 255;
        let code = 16 + 36 * level(self.0) + 6 * level(self.1) + level(self.2);
        format!("\x1b[38;5;{code}m")
    }
}

/// Ends any colour started by [`Rgb::ansi_fg`].
pub(crate) const ANSI_RESET: &str = "\x1b[0m";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_distinct_well_past_the_base_palette() {
        let colours: Vec<Rgb> = (0..60).map(series_color).collect();
        for (i, a) in colours.iter().enumerate() {
            for b in &colours[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(group_color(0), GREY);
        assert_eq!(group_color(1), BASE[0]);
    }

    #[test]
    fn ansi_codes_lie_in_the_colour_cube() {
        assert_eq!(Rgb(0, 0, 0).ansi_fg(), "\x1b[38;5;16m");
        assert_eq!(Rgb(255, 255, 255).ansi_fg(), "\x1b[38;5;231m");
        assert_eq!(Rgb(255, 0, 0).ansi_fg(), "\x1b[38;5;196m");
    }
}
