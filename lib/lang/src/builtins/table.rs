//! Tables: vectors of rows (named tuples) that print as aligned text and render as HTML in
//! notebooks. `test_differentiation` and `benchmark_differentiation` return them, and
//! `plot(table)` draws a benchmark table as a chart.

use crate::display::print_string;
use crate::object::{MimeData, Object};
use crate::value::Value;
use difflab_syntax::Name;
use std::any::Any;
use std::rc::Rc;

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
        Value::NamedTuple(Rc::new(
            self.columns
                .iter()
                .zip(&self.rows[k])
                .map(|(c, v)| (Name::new(c), v.clone()))
                .collect(),
        ))
    }

    /// The values of column `name`.
    pub fn column(&self, name: &str) -> Option<Vec<Value>> {
        let j = self.columns.iter().position(|c| *c == name)?;
        Some(self.rows.iter().map(|r| r[j].clone()).collect())
    }

    fn cell(v: &Value) -> String {
        match v {
            Value::Float(x) => format_number(*x),
            other => print_string(other),
        }
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

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

impl Object for Table {
    fn type_name(&self) -> String {
        "Table".into()
    }

    fn show(&self) -> String {
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| r.iter().map(Table::cell).collect())
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
            "<table><caption>{}-row {} table</caption><thead><tr>",
            self.rows.len(),
            html_escape(&self.title)
        );
        for c in &self.columns {
            html.push_str(&format!("<th>{}</th>", html_escape(c)));
        }
        html.push_str("</tr></thead><tbody>");
        for r in &self.rows {
            html.push_str("<tr>");
            for v in r {
                html.push_str(&format!("<td>{}</td>", html_escape(&Table::cell(v))));
            }
            html.push_str("</tr>");
        }
        html.push_str("</tbody></table>");
        vec![("text/html".into(), html)]
    }

    fn field(&self, name: &str) -> Option<Value> {
        self.column(name)
            .map(|c| Value::List(Rc::new(std::cell::RefCell::new(c))))
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
