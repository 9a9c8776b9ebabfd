//! Plots in the language: `spy(A)` (sparsity patterns, optionally coloured by group),
//! `plot(benchmark_table)`, line plots (`line_plots.rs`) and `savefig(p, path)`.
//!
//! A plot value displays as Unicode braille text in the terminal and as SVG and PNG in
//! notebooks (its rich MIME renderings); drawing is `difflab-plot`'s job.

use super::{to_int, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::{MimeData, Object};
use crate::value::convert::operand;
use crate::value::Value;
use base64::Engine;
use difflab_plot::{BenchmarkOptions, BenchmarkRow, Groups, LineOptions, Plot, Series, SpyOptions};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// Plots drawn as text leave this many columns of the display free (72 of Julia's default 80).
const TEXT_MARGIN: usize = 8;

/// A plot as a language value. A line plot keeps its series and options, so that `plot!` can
/// add lines to it: the value changes in place, as a plot of Plots.jl does.
pub struct PlotValue {
    plot: RefCell<Plot>,
    lines: Option<RefCell<LinePlot>>,
}

/// What a line plot was drawn from.
pub(crate) struct LinePlot {
    pub series: Vec<Series>,
    pub options: LineOptions,
}

impl PlotValue {
    /// The plot as drawn now.
    pub fn plot(&self) -> std::cell::Ref<'_, Plot> {
        self.plot.borrow()
    }

    /// A line plot's series and options, `None` for other plots.
    pub(crate) fn lines(&self) -> Option<&RefCell<LinePlot>> {
        self.lines.as_ref()
    }

    /// Draws the line plot again from its (changed) series and options.
    pub(crate) fn redraw(&self) -> Result<(), Flow> {
        if let Some(lines) = &self.lines {
            let lines = lines.borrow();
            *self.plot.borrow_mut() =
                Plot::lines(lines.series.clone(), lines.options.clone()).map_err(plot_error)?;
        }
        Ok(())
    }
}

impl Object for PlotValue {
    fn type_name(&self) -> String {
        "Plot".into()
    }

    fn show(&self) -> String {
        self.plot()
            .to_terminal(crate::show::screen().1 - TEXT_MARGIN, false)
            .trim_end()
            .to_string()
    }

    fn rich(&self) -> Vec<MimeData> {
        let mut out = Vec::new();
        let plot = self.plot();
        if let Ok(svg) = plot.to_svg() {
            out.push(("image/svg+xml".to_string(), svg));
        }
        if let Ok(png) = plot.to_png() {
            out.push((
                "image/png".to_string(),
                base64::engine::general_purpose::STANDARD.encode(png),
            ));
        }
        out
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "title" => Some(self.plot().title().map_or(Value::Nothing, Value::str)),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["title"]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

pub(crate) fn plot_error(e: difflab_plot::PlotError) -> Flow {
    fail(ErrorKind::ArgumentError, e.to_string())
}

/// The SVG rendering of a plot value, for embedding in another value's HTML.
pub fn svg_of(v: &Value) -> Option<String> {
    let Value::Object(plot) = v else { return None };
    plot.rich()
        .into_iter()
        .find(|(mime, _)| mime == "image/svg+xml")
        .map(|(_, svg)| svg)
}

/// A plot value.
pub fn plot_value(p: Plot) -> Value {
    Value::Object(Rc::new(Box::new(PlotValue {
        plot: RefCell::new(p),
        lines: None,
    })))
}

/// A line plot value of `series`, which `plot!` can add to.
pub(crate) fn line_plot_value(series: Vec<Series>, options: LineOptions) -> EvalResult {
    let plot = Plot::lines(series.clone(), options.clone()).map_err(plot_error)?;
    Ok(Value::Object(Rc::new(Box::new(PlotValue {
        plot: RefCell::new(plot),
        lines: Some(RefCell::new(LinePlot { series, options })),
    }))))
}

/// A sparsity pattern as `(rows, cols, entries)` with 0-based `(row, col)` entries.
pub type Pattern = (usize, usize, Vec<(usize, usize)>);

/// The structural nonzeros of a matrix value: `(rows, cols, entries)` (0-based).
pub fn pattern_of(v: &Value) -> Result<Pattern, Flow> {
    if let Value::Sparse(s) = v {
        let s = s.borrow();
        let m = &s.matrix;
        let mut entries = Vec::with_capacity(m.nnz());
        for (j, col) in m.outer_iterator().enumerate() {
            for (i, _) in col.iter() {
                entries.push(if m.is_csc() { (i, j) } else { (j, i) });
            }
        }
        return Ok((m.rows(), m.cols(), entries));
    }
    let o = operand(v)?.ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("spy needs a matrix, got a {}", v.type_name()),
        )
    })?;
    let t = o.tensor();
    let shape = t.shape().to_vec();
    let (m, n) = match shape.as_slice() {
        [m] => (*m, 1),
        [m, n] => (*m, *n),
        _ => return Err(fail(ErrorKind::ArgumentError, "spy needs a matrix")),
    };
    let data = t.to_col_major();
    let entries = (0..m * n)
        .filter(|&k| data[k] != 0.0)
        .map(|k| (k % m.max(1), k / m.max(1)))
        .collect();
    Ok((m, n, entries))
}

fn spy_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("spy", 1, 2)?;
    let (m, n, entries) = pattern_of(&args.pos[0])?;
    let groups = match args.pos.get(1) {
        None => None,
        Some(v) => Some(groups_of(v)?),
    };
    let title = args.kw("title").map(crate::display::print_string);
    let plot = Plot::spy(m, n, entries, SpyOptions { title, groups }).map_err(plot_error)?;
    Ok(plot_value(plot))
}

/// Column (or row) groups from a coloring result, or from a vector of colors.
fn groups_of(v: &Value) -> Result<Groups, Flow> {
    if let Value::Object(o) = v {
        let colors = |name: &str| match o.field(name) {
            Some(c @ Value::Array(_)) => color_vector(&c).map(Some),
            _ => Ok(None),
        };
        if let Some(groups) = Groups::of_coloring(colors("row_colors")?, colors("column_colors")?) {
            return Ok(groups);
        }
    }
    Ok(Groups::Columns(color_vector(v)?))
}

fn color_vector(v: &Value) -> Result<Vec<usize>, Flow> {
    crate::value::iterate::elements(v)?
        .iter()
        .map(|c| to_int(c, "spy").map(|k| k.max(0) as usize))
        .collect()
}

/// `plot(benchmark_table)`: the operator's time against input size, one line per backend, solid
/// for prepared and dashed for unprepared timings (Figure 2 of the DifferentiationInterface
/// paper). Preparations and the calls that also return the value (`value_and_gradient`,
/// `gradient_and_hvp`, ...) are left out.
fn plot_table(table: &crate::builtins::table::Table, args: &Args) -> EvalResult {
    let column = |name: &str| {
        table.column(name).ok_or_else(|| {
            fail(
                ErrorKind::ArgumentError,
                format!(
                    "plot of a table needs a `{name}` column (a benchmark_differentiation table)"
                ),
            )
        })
    };
    let (backends, prepared, lengths, times) = (
        column("backend")?,
        column("prepared")?,
        column("length")?,
        column("time")?,
    );
    let operators = table.column("operator");
    let mut rows = Vec::with_capacity(times.len());
    for k in 0..times.len() {
        let tag = match prepared[k] {
            Value::Bool(true) => "prepared",
            Value::Bool(false) => "unprepared",
            _ => continue,
        };
        if let Some(Value::Str(op)) = operators.as_ref().map(|ops| &ops[k]) {
            if op.contains("_and_") {
                continue;
            }
        }
        let x = super::to_float(&lengths[k], "plot")?;
        let y = super::to_float(&times[k], "plot")?;
        rows.push(BenchmarkRow::new(
            crate::display::print_string(&backends[k]),
            tag,
            x,
            y,
        ));
    }
    let options = BenchmarkOptions {
        title: args.kw("title").map(crate::display::print_string),
        ..BenchmarkOptions::default()
    };
    Ok(plot_value(
        Plot::benchmark(rows, options).map_err(plot_error)?,
    ))
}

fn plot_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("plot", 1, 3)?;
    if let [Value::Object(o)] = args.pos.as_slice() {
        if let Some(table) = o.as_any().downcast_ref::<crate::builtins::table::Table>() {
            return plot_table(table, &args);
        }
    }
    super::line_plots::line_plot(interp, &args)
}

fn savefig_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("savefig", 2, 2)?;
    let plot = match &args.pos[0] {
        Value::Object(o) => o.as_any().downcast_ref::<PlotValue>(),
        _ => None,
    }
    .ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("savefig needs a plot, got a {}", args.pos[0].type_name()),
        )
    })?;
    let path = crate::display::print_string(&args.pos[1]);
    plot.plot()
        .save(&path)
        .map_err(|e| fail(ErrorKind::SystemError, e.to_string()))?;
    Ok(Value::str(path))
}

crate::builtins! {
    "spy" => spy_, false, "    spy(A; title)\n    spy(A, coloring_result)\n\nThe sparsity pattern of a sparse or dense matrix: one mark per structural nonzero (row 1 at the top). With a coloring result (or a vector of column colors) the columns are coloured by group; for a bicoloring, each entry takes its column's colour, or its row's where the column is neutral. Shown as Unicode in the terminal and as an image in notebooks; `savefig` writes SVG or PNG.\n\n```\njulia> spy(sparse([1, 2, 3], [1, 2, 3], [1.0, 1.0, 1.0], 3, 3))\n  ┌────────────┐\n1 │⣿⣿⣿⡇⠀⠀⠀⠀⠀⠀⠀⠀│\n  │⠿⠿⠿⠇⠀⠀⠀⠀⠀⠀⠀⠀│\n  │⠀⠀⠀⠀⣿⣿⣿⡇⠀⠀⠀⠀│\n  │⠀⠀⠀⠀⠿⠿⠿⠇⠀⠀⠀⠀│\n  │⠀⠀⠀⠀⠀⠀⠀⠀⣿⣿⣿⡇│\n3 │⠀⠀⠀⠀⠀⠀⠀⠀⠿⠿⠿⠇│\n  └────────────┘\n   1          3\n   3×3, nnz = 3\n```";
    "plot" => plot_, false, "    plot(x, y; label, title, xlabel, ylabel, xscale=:log10, yscale=:log10)\n    plot(y)\n    plot(f, a, b)\n    plot(f, xs)\n    plot(benchmark_table)\n\nA line plot of `y` against `x` (one series per column when `y` is a matrix, against the matching column of `x` when it is a matrix too), or of the function `f` over `[a, b]` (201 points) or at the points `xs`; `plot!` adds lines to it. For a `benchmark_differentiation` table, time against input size per backend, prepared and unprepared.\n\n```\njulia> p = plot(1:10, (1:10) .^ 2; yscale=:log10, label=\"squares\");\n\njulia> q = plot(sin, 0, 2π; label=\"sin\", xlabel=\"x\");\n```";
    "savefig" => savefig_, false, "    savefig(p, path)\n\nWrites a plot to `path`, as SVG or PNG by its extension.\n\n```\njulia> path = savefig(plot(1:3, [1, 4, 9]), joinpath(tempdir(), \"squares.svg\"));\n\njulia> isfile(path)\ntrue\n```";
}
