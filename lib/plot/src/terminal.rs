//! Terminal output, [`Plot::to_terminal`]: a braille canvas (see `braille`) in a box-drawing
//! frame with tick labels, a caption or legend below, and ANSI colours on request.
//!
//! Spy plots keep square cells: a matrix smaller than the canvas is scaled up by 1, 2, 4 or 8
//! dots per entry, a larger one is binned down so that every entry lights at
//! least one dot. Charts use the same axes as the SVG/PNG renderer (`scale::Axis`).

use crate::braille::Canvas;
use crate::model::{Chart, Dash, Kind, LegendEntry, Plot, Spy};
use crate::palette::{self, Rgb, ANSI_RESET};

/// Widths below this are rendered at this width.
pub const MIN_TERMINAL_WIDTH: usize = 16;
/// Widths above this are rendered at this width (which bounds the canvas allocated).
pub const MAX_TERMINAL_WIDTH: usize = 1000;
/// Largest number of dots per matrix entry along each side when scaling a spy plot up.
const MAX_SPY_SCALE: usize = 8;

impl Plot {
    /// The plot as lines of text at most `width` columns wide (clamped to
    /// [`MIN_TERMINAL_WIDTH`]..=[`MAX_TERMINAL_WIDTH`]; a long title or label may still
    /// overflow), drawn with Unicode braille and box-drawing characters; `color` adds ANSI
    /// 256-colour escapes. Ends with a newline.
    pub fn to_terminal(&self, width: usize, color: bool) -> String {
        let width = width.clamp(MIN_TERMINAL_WIDTH, MAX_TERMINAL_WIDTH);
        let lines = match &self.kind {
            Kind::Spy(spy) => spy_lines(spy, width, color),
            Kind::Chart(chart) => chart_lines(chart, width, color),
        };
        let mut text = String::new();
        for line in lines {
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text
    }
}

/// What the terminal shows for a palette colour: ink is left to the terminal's own foreground,
/// which may be light on dark.
fn terminal_color(rgb: Rgb) -> Option<Rgb> {
    (rgb != palette::INK).then_some(rgb)
}

/// `text` centred in `width` columns.
fn centred(text: &str, width: usize) -> String {
    let pad = width.saturating_sub(text.chars().count()) / 2;
    format!("{}{text}", " ".repeat(pad))
}

fn spy_lines(spy: &Spy, width: usize, color: bool) -> Vec<String> {
    let label_w = spy.nrows.max(1).to_string().len() + 1;
    let max_cols = width.saturating_sub(label_w + 2).max(1);
    let (max_dw, max_dh) = (2 * max_cols, 4 * max_cols.div_ceil(2));
    let (n, m) = (spy.nrows.max(1), spy.ncols.max(1));
    // Powers of two keep entries aligned with the 2×4 dots of a character.
    let fit = (max_dw / m).min(max_dh / n).min(MAX_SPY_SCALE);
    let scale = if fit == 0 { 0 } else { 1 << fit.ilog2() };
    let (dw, dh) = if scale >= 1 {
        (scale * m, scale * n)
    } else {
        let f = (max_dw as f64 / m as f64).min(max_dh as f64 / n as f64);
        let fit = |k: usize, max: usize| ((k as f64 * f).round() as usize).clamp(1, max);
        (fit(m, max_dw), fit(n, max_dh))
    };
    let mut canvas = Canvas::new(dw.div_ceil(2), dh.div_ceil(4));
    // From 3 dots per entry on, leave the last dot row and column dark so neighbours stay apart.
    let gap = usize::from(scale >= 3);
    for &(row, col) in &spy.entries {
        let rgb = if spy.groups.is_some() {
            terminal_color(spy.color(row, col))
        } else {
            None
        };
        let xs = Spy::span(col, m, dw);
        let ys = Spy::span(row, n, dh);
        for y in ys.start..(ys.end - gap).max(ys.start + 1) {
            for x in xs.start..(xs.end - gap).max(xs.start + 1) {
                canvas.set(x, y, rgb);
            }
        }
    }

    let mut lines = Vec::new();
    let frame_w = canvas.cols() + 2;
    if let Some(title) = &spy.title {
        lines.push(format!(
            "{}{}",
            " ".repeat(label_w),
            centred(title, frame_w)
        ));
    }
    let pad = " ".repeat(label_w);
    lines.push(format!("{pad}┌{}┐", "─".repeat(canvas.cols())));
    for r in 0..canvas.rows() {
        let label = if r == 0 && spy.nrows > 0 {
            "1".to_string()
        } else if r + 1 == canvas.rows() && spy.nrows > 1 {
            spy.nrows.to_string()
        } else {
            String::new()
        };
        lines.push(format!(
            "{label:>w$} │{}│",
            canvas.row(r, color),
            w = label_w - 1
        ));
    }
    lines.push(format!("{pad}└{}┘", "─".repeat(canvas.cols())));
    if spy.ncols > 0 {
        let last = if spy.ncols > 1 {
            spy.ncols.to_string()
        } else {
            String::new()
        };
        let gap = canvas.cols().saturating_sub(1 + last.len()).max(1);
        lines.push(format!("{pad} 1{}{last}", " ".repeat(gap)));
    }
    let mut caption = spy.caption();
    if let Some(legend) = spy.legend() {
        caption.push_str(", ");
        caption.push_str(&legend);
    }
    lines.push(format!("{pad} {caption}"));
    if color {
        if let Some(key) = colour_key(spy) {
            lines.push(format!("{pad} {key}"));
        }
    }
    lines
}

/// A row of coloured squares, one per colour group (first 12), to read colours against.
fn colour_key(spy: &Spy) -> Option<String> {
    if spy.used_groups.is_empty() {
        return None;
    }
    let mut key = String::new();
    for &g in spy.used_groups.iter().take(12) {
        key.push_str(&palette::group_color(g).ansi_fg());
        key.push_str(&format!("■{g} "));
    }
    key.push_str(ANSI_RESET);
    if spy.used_groups.len() > 12 {
        key.push('…');
    }
    Some(key)
}

fn chart_lines(chart: &Chart, width: usize, color: bool) -> Vec<String> {
    let (x_axis, y_axis) = chart.axes();
    let label_w = y_axis
        .ticks
        .iter()
        .map(|t| t.label.chars().count())
        .max()
        .unwrap_or(0)
        + 1;
    let cols = width.saturating_sub(label_w + 2).max(4);
    let rows = (cols / 4).clamp(5, 25);
    let mut canvas = Canvas::new(cols, rows);
    let (dw, dh) = (
        canvas.dot_width() as f64 - 1.0,
        canvas.dot_height() as f64 - 1.0,
    );
    let to_dots = |(x, y): (f64, f64)| {
        (
            (x - x_axis.lo) / (x_axis.hi - x_axis.lo) * dw,
            (y_axis.hi - y) / (y_axis.hi - y_axis.lo) * dh,
        )
    };
    for line in &chart.lines {
        let rgb = terminal_color(line.color);
        for segment in chart.segments(line) {
            let dots: Vec<(f64, f64)> = segment.iter().copied().map(to_dots).collect();
            for pair in dots.windows(2) {
                canvas.line(pair[0], pair[1], rgb, line.dash);
            }
            if line.markers || dots.len() == 1 {
                for &(x, y) in &dots {
                    let (x, y) = (x.round() as usize, y.round() as usize);
                    for (mx, my) in [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)] {
                        canvas.set(mx, my, rgb);
                    }
                }
            }
        }
    }

    let mut lines = Vec::new();
    let pad = " ".repeat(label_w);
    if let Some(title) = &chart.title {
        lines.push(format!("{pad}{}", centred(title, cols + 2)));
    }
    if let Some(label) = &chart.y_label {
        lines.push(label.clone());
    }
    let mut y_labels = vec![None; rows];
    for tick in &y_axis.ticks {
        let (_, y) = to_dots((x_axis.lo, tick.position));
        if let Some(slot) = y_labels.get_mut((y / 4.0) as usize) {
            slot.get_or_insert(tick.label.as_str());
        }
    }
    lines.push(format!("{pad}┌{}┐", "─".repeat(cols)));
    for (r, label) in y_labels.iter().enumerate() {
        let (label, border) = match label {
            Some(label) => (*label, '┤'),
            None => ("", '│'),
        };
        let w = label_w - 1;
        lines.push(format!("{label:>w$} {border}{}│", canvas.row(r, color)));
    }

    // Bottom border with a tick under each x label, labels centred on their tick.
    let mut border: Vec<char> = "─".repeat(cols).chars().collect();
    let mut under = String::new();
    for tick in &x_axis.ticks {
        let (x, _) = to_dots((tick.position, y_axis.lo));
        let col = ((x / 2.0) as usize).min(cols - 1);
        let len = tick.label.chars().count();
        let start = (label_w + 1 + col)
            .saturating_sub(len / 2)
            .min(width.saturating_sub(len));
        let used = under.chars().count();
        if start > used || used == 0 {
            under.push_str(&" ".repeat(start - used));
            under.push_str(&tick.label);
            border[col] = '┬';
        }
    }
    let border: String = border.into_iter().collect();
    lines.push(format!("{pad}└{border}┘"));
    lines.push(under);
    if let Some(label) = &chart.x_label {
        lines.push(format!("{pad}{}", centred(label, cols + 2)));
    }
    lines.extend(legend_lines(&chart.legend, width, color));
    lines
}

/// Legend entries packed left to right and wrapped at `width`.
fn legend_lines(entries: &[LegendEntry], width: usize, color: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let (mut line, mut line_w) = (String::new(), 0);
    for entry in entries {
        let stroke = match entry.dash {
            Dash::Solid => '─',
            Dash::Dashed => '╌',
            Dash::Dotted => '┈',
        };
        let middle = if entry.marker { '•' } else { stroke };
        let sample = format!("{stroke}{middle}{stroke}");
        let entry_w = 4 + entry.label.chars().count();
        if line_w > 0 && line_w + 3 + entry_w > width {
            lines.push(std::mem::take(&mut line));
            line_w = 0;
        }
        if line_w > 0 {
            line.push_str("   ");
            line_w += 3;
        }
        match terminal_color(entry.color).filter(|_| color) {
            Some(rgb) => line.push_str(&format!("{}{sample}{ANSI_RESET}", rgb.ansi_fg())),
            None => line.push_str(&sample),
        }
        line.push(' ');
        line.push_str(&entry.label);
        line_w += entry_w;
    }
    if line_w > 0 {
        lines.push(line);
    }
    lines
}
