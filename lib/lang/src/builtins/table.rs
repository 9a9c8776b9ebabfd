//! Tables: vectors of rows (named tuples) that print as aligned text and render as HTML in
//! notebooks. `test_differentiation` and `benchmark_differentiation` return them, and
//! `plot(table)` draws a benchmark table as a chart.
//!
//! This module owns how cells read: numbers short (`1.23e-5`, `0.5`, `42`), durations (the
//! columns of [`DURATION_COLUMNS`], in seconds) in readable units (`812 ns`, `1.23 µs`,
//! `45.6 ms`), and in HTML no number broken across lines (numeric cells, and numbers inside
//! text cells, do not wrap). The values themselves stay as they are: `row.time` is seconds.

use crate::display::print_string;
use crate::object::{MimeData, Object};
use crate::value::Value;
use difflab_syntax::Name;
use std::any::Any;

/// A table: column names and rows of values.
pub struct Table {
    /// What the table is (`"test_differentiation"`, ...), shown in its header.
    pub title: String,
    /// Column names.
    pub columns: Vec<&'static str>,
    /// Rows, one value per column.
    pub rows: Vec<Vec<Value>>,
}

impl Table {
    /// Row `k` as a named tuple.
    pub fn row(&self, k: usize) -> Value {
        Value::named_tuple(
            self.columns
                .iter()
                .zip(&self.rows[k])
                .map(|(c, v)| (Name::new(c), v.clone()))
                .collect(),
        )
    }

    /// The values of column `name`.
    pub fn column(&self, name: &str) -> Option<Vec<Value>> {
        let j = self.columns.iter().position(|c| *c == name)?;
        Some(self.rows.iter().map(|r| r[j].clone()).collect())
    }

    /// Whether column `j` holds durations in seconds.
    fn is_duration(&self, j: usize) -> bool {
        DURATION_COLUMNS.contains(&self.columns[j])
    }

    /// The text of the cell of value `v` in column `j`.
    fn cell(&self, j: usize, v: &Value) -> String {
        match v {
            Value::Float(x) if self.is_duration(j) => format_duration(*x),
            Value::Float(x) => format_number(*x),
            other => print_string(other),
        }
    }
}

/// Columns whose numbers are durations in seconds (the fastest sample of a benchmark).
pub const DURATION_COLUMNS: &[&str] = &["time", "unprepared_time", "preparation_time"];

/// A duration in seconds with three significant digits in the unit that keeps it between 1
/// and 1000 (`812 ns`, `1.23 µs`, `45.6 ms`, `2.35 s`; seconds beyond 1000 stay seconds).
pub fn format_duration(seconds: f64) -> String {
    const UNITS: [(f64, &str); 4] = [(1e-9, "ns"), (1e-6, "µs"), (1e-3, "ms"), (1.0, "s")];
    if !seconds.is_finite() || seconds == 0.0 {
        return format!("{seconds} s");
    }
    let mut k = UNITS
        .iter()
        .rposition(|(scale, _)| seconds.abs() >= *scale)
        .unwrap_or(0);
    loop {
        let text = three_digits(seconds / UNITS[k].0);
        // Rounding may carry into the next unit: 999.96 ms is 1.00 s.
        if text.parse::<f64>().is_ok_and(|v| v.abs() >= 1000.0) && k + 1 < UNITS.len() {
            k += 1;
            continue;
        }
        return format!("{text} {}", UNITS[k].1);
    }
}

/// Numbers in tables: short and readable (`1.23e-5`, `0.5`, `42`).
fn format_number(x: f64) -> String {
    if x == 0.0 || (1e-3..1e6).contains(&x.abs()) {
        let s = format!("{x:.4}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        s.to_string()
    } else {
        format!("{x:.3e}")
    }
}

/// `v` with three significant digits (at least the integer part).
fn three_digits(v: f64) -> String {
    let mut text = format!("{v:.2}");
    for digits in [1, 0] {
        if text.trim_start_matches('-').len() <= 4 {
            break;
        }
        text = format!("{v:.digits$}");
    }
    text
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Style of a cell that must stay on one line.
const NOWRAP: &str = "white-space: nowrap";

/// A text cell as HTML that may wrap between words but never inside a word with a digit (a
/// number such as `9.969e-6` or `2×3`).
fn html_text(text: &str) -> String {
    text.split(' ')
        .map(|word| {
            let word = html_escape(word);
            if word.chars().any(|c| c.is_ascii_digit()) {
                format!("<span style=\"{NOWRAP}\">{word}</span>")
            } else {
                word
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Object for Table {
    fn type_name(&self) -> String {
        "Table".into()
    }

    fn show(&self) -> String {
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| r.iter().enumerate().map(|(j, v)| self.cell(j, v)).collect())
            .collect();
        let widths: Vec<usize> = (0..self.columns.len())
            .map(|j| {
                cells
                    .iter()
                    .map(|r| r[j].chars().count())
                    .chain([self.columns[j].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |items: Vec<String>| {
            items
                .iter()
                .zip(&widths)
                .map(|(s, w)| format!("{s:<w$}"))
                .collect::<Vec<_>>()
                .join(" │ ")
                .trim_end()
                .to_string()
        };
        let mut out = format!("{}-row {} table:\n", self.rows.len(), self.title);
        out.push_str(&line(self.columns.iter().map(|c| c.to_string()).collect()));
        out.push('\n');
        out.push_str(
            &widths
                .iter()
                .map(|w| "─".repeat(*w))
                .collect::<Vec<_>>()
                .join("─┼─"),
        );
        for r in cells {
            out.push('\n');
            out.push_str(&line(r));
        }
        out
    }

    fn rich(&self) -> Vec<MimeData> {
        let mut html = format!(
            "<table class=\"difflab-table\"><caption>{}-row {} table</caption><thead><tr>",
            self.rows.len(),
            html_escape(&self.title)
        );
        for (j, c) in self.columns.iter().enumerate() {
            let unit = if self.is_duration(j) {
                " (fastest)"
            } else {
                ""
            };
            html.push_str(&format!(
                "<th style=\"{NOWRAP}\">{}{unit}</th>",
                html_escape(c)
            ));
        }
        html.push_str("</tr></thead><tbody>");
        for r in &self.rows {
            html.push_str("<tr>");
            for (j, v) in r.iter().enumerate() {
                let text = self.cell(j, v);
                let cell = match v {
                    Value::Str(_) => {
                        format!("<td style=\"text-align: left\">{}</td>", html_text(&text))
                    }
                    Value::Float(_) | Value::Int(_) => format!(
                        "<td style=\"{NOWRAP}; text-align: right\">{}</td>",
                        html_escape(&text)
                    ),
                    _ => format!(
                        "<td style=\"{NOWRAP}; text-align: left\">{}</td>",
                        html_escape(&text)
                    ),
                };
                html.push_str(&cell);
            }
            html.push_str("</tr>");
        }
        html.push_str("</tbody></table>");
        vec![("text/html".into(), html)]
    }

    fn field(&self, name: &str) -> Option<Value> {
        self.column(name).map(Value::list)
    }

    fn field_names(&self) -> Vec<&'static str> {
        self.columns.clone()
    }

    fn elements(&self) -> Option<Vec<Value>> {
        Some((0..self.rows.len()).map(|k| self.row(k)).collect())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_the_unit_that_fits() {
        let cases = [
            (8.123e-7, "812 ns"),
            (1.234e-6, "1.23 µs"),
            (4.56e-2, "45.6 ms"),
            (2.345, "2.35 s"),
            (9.9996e-1, "1.00 s"),
            (3e-10, "0.30 ns"),
            (1234.0, "1234 s"),
            (0.0, "0 s"),
        ];
        for (seconds, text) in cases {
            assert_eq!(format_duration(seconds), text, "{seconds}");
        }
    }

    fn table() -> Table {
        Table {
            title: "benchmark_differentiation".into(),
            columns: vec!["backend", "time", "error", "message"],
            rows: vec![vec![
                Value::str("AutoForwardDiff()"),
                Value::Float(1.234e-6),
                Value::Float(9.969e-6),
                Value::str("relative error 1.500e-01 above rtol 1e-3"),
            ]],
        }
    }

    #[test]
    fn plain_text_shows_durations_in_units_and_keeps_the_values() {
        let t = table();
        let text = t.show();
        assert!(text.contains("1.23 µs"), "{text}");
        assert!(text.contains("9.969e-6"), "{text}");
        assert!(matches!(t.column("time").unwrap()[0], Value::Float(x) if x == 1.234e-6));
    }

    #[test]
    fn html_cells_never_break_a_number() {
        let rich = table().rich();
        let (mime, html) = &rich[0];
        assert_eq!(mime, "text/html");
        // Every number is in an element that does not wrap.
        let cells: Vec<&str> = html.split("<td").skip(1).collect();
        assert_eq!(cells.len(), 4);
        for number in ["1.23 µs", "9.969e-6"] {
            let cell = cells.iter().find(|c| c.contains(number)).expect(number);
            assert!(cell.starts_with(&format!(" style=\"{NOWRAP}")), "{cell}");
        }
        let message = cells[3];
        assert!(
            message.contains(&format!("<span style=\"{NOWRAP}\">1.500e-01</span>")),
            "{message}"
        );
        assert!(message.contains("relative error "), "{message}");
    }
}
