//! Line plots as Plots.jl draws them: `plot(y)`, `plot(x, y)` (a series per column when `y` is
//! a matrix), a function over an interval `plot(f, a, b)` or at given points `plot(f, xs)`,
//! and `plot!` adding lines (and titles or axis labels) to a plot: the one given first, or the
//! session's current plot, the last line plot made.

use super::plots::{line_plot_value, PlotValue};
use super::Args;
use crate::error::{fail, ErrorKind, EvalResult, Flow};
use crate::eval::Interp;
use crate::value::convert::operand;
use crate::value::Value;
use difflab_plot::{LineOptions, Scale, Series};

/// Points at which `plot(f, a, b)` evaluates `f`.
const FUNCTION_SAMPLES: usize = 201;

/// `plot(…)` of numbers or a function: a new line plot, which becomes the current plot.
pub(super) fn line_plot(interp: &mut Interp, args: &Args) -> EvalResult {
    let series = series_of(interp, &args.pos, args, 0, "plot")?;
    let options = LineOptions {
        title: text(args, "title"),
        x_label: text(args, "xlabel"),
        y_label: text(args, "ylabel"),
        x_scale: scale(args, "xscale"),
        y_scale: scale(args, "yscale"),
        markers: matches!(args.kw("markers"), Some(Value::Bool(true))),
    };
    let plot = line_plot_value(series, options)?;
    interp.current_plot = Some(plot.clone());
    Ok(plot)
}

/// `plot!([p,] …; label, title, xlabel, ylabel)`: adds lines to `p` (or the current plot) in
/// place and returns it.
fn plot_in_place(interp: &mut Interp, args: Args) -> EvalResult {
    let given = args.pos.first().filter(|v| plot_of(v).is_some()).cloned();
    let (target, rest) = match given {
        Some(p) => (p, &args.pos[1..]),
        None => (
            interp.current_plot.clone().ok_or_else(|| {
                fail(
                    ErrorKind::ArgumentError,
                    "plot! adds to the current plot, and there is none yet: make one with plot(…)",
                )
            })?,
            &args.pos[..],
        ),
    };
    let Some(lines) = plot_of(&target).and_then(PlotValue::lines) else {
        return Err(fail(
            ErrorKind::ArgumentError,
            "plot! adds lines to a line plot, not to a spy or benchmark plot",
        ));
    };
    let existing = lines.borrow().series.len();
    let added = if rest.is_empty() {
        Vec::new()
    } else {
        series_of(interp, rest, &args, existing, "plot!")?
    };
    {
        let mut lines = lines.borrow_mut();
        lines.series.extend(added);
        let options = &mut lines.options;
        for (key, slot) in [
            ("title", &mut options.title),
            ("xlabel", &mut options.x_label),
            ("ylabel", &mut options.y_label),
        ] {
            if let Some(t) = text(&args, key) {
                *slot = Some(t);
            }
        }
    }
    plot_of(&target).expect("checked above").redraw()?;
    interp.current_plot = Some(target.clone());
    Ok(target)
}

fn plot_of(v: &Value) -> Option<&PlotValue> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<PlotValue>(),
        _ => None,
    }
}

/// The series the positional arguments `pos` of `plot` or `plot!` describe, labelled by the
/// `label` keyword or `y{k}` counting from `first + 1`.
fn series_of(
    interp: &mut Interp,
    pos: &[Value],
    args: &Args,
    first: usize,
    name: &str,
) -> Result<Vec<Series>, Flow> {
    // The abscissas: none (1, 2, …), one vector for every column, or a column of x per
    // column of y (`plot(X, Y)` of two matrices, as Plots pairs them).
    let (xs, columns): (Vec<Vec<f64>>, Vec<Vec<f64>>) = match pos {
        [f, a, b] if is_function(f) => {
            let (a, b) = (super::to_float(a, name)?, super::to_float(b, name)?);
            let step = (b - a) / (FUNCTION_SAMPLES - 1) as f64;
            let xs: Vec<f64> = (0..FUNCTION_SAMPLES).map(|k| a + step * k as f64).collect();
            let ys = sampled(interp, f, &xs, name)?;
            (vec![xs], vec![ys])
        }
        [f, points] if is_function(f) => {
            let xs = floats(points, name)?;
            let ys = sampled(interp, f, &xs, name)?;
            (vec![xs], vec![ys])
        }
        [y] => (Vec::new(), columns_of(y, name)?),
        [x, y] => (columns_of(x, name)?, columns_of(y, name)?),
        _ => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("{name}(y), {name}(x, y), {name}(f, a, b) or {name}(f, xs)"),
            ))
        }
    };
    let labels: Vec<String> = match args.kw("label") {
        Some(Value::Str(s)) => vec![s.to_string()],
        Some(other @ (Value::List(_) | Value::Tuple(_))) => crate::value::iterate::elements(other)?
            .iter()
            .map(crate::display::print_string)
            .collect(),
        _ => Vec::new(),
    };
    let label = |c: usize| {
        labels
            .get(c)
            .cloned()
            .unwrap_or_else(|| format!("y{}", first + c + 1))
    };
    // Lengths are checked before the abscissas are copied into each series (a 2000 × 2000
    // matrix as x is 4·10⁶ numbers per column of y).
    if xs.len() > 1 && xs.len() != columns.len() {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!(
                "{name}: x has {} columns and y has {}",
                xs.len(),
                columns.len()
            ),
        ));
    }
    let abscissas = |c: usize| xs.get(c).or(xs.first());
    for (c, ys) in columns.iter().enumerate() {
        if let Some(x) = abscissas(c).filter(|x| x.len() != ys.len()) {
            return Err(super::plots::plot_error(
                difflab_plot::PlotError::MismatchedLengths {
                    what: format!("xs and ys of series {:?}", label(c)),
                    expected: x.len(),
                    found: ys.len(),
                },
            ));
        }
    }
    Ok(columns
        .into_iter()
        .enumerate()
        .map(|(c, ys)| {
            let x = match abscissas(c) {
                Some(x) => x.clone(),
                None => (1..=ys.len()).map(|k| k as f64).collect(),
            };
            Series::new(label(c), x, ys)
        })
        .collect())
}

/// A function to sample: a function, a composition, or a struct with a call method
/// (`(l::Layer)(x) = …`; one without is a `MethodError` when sampled).
fn is_function(v: &Value) -> bool {
    matches!(v, Value::Function(_) | Value::Builtin(_) | Value::Struct(_))
        || matches!(v, Value::Object(o) if o.type_name() == "ComposedFunction")
}

/// `f` at each of `xs`, each value a real number.
fn sampled(interp: &mut Interp, f: &Value, xs: &[f64], name: &str) -> Result<Vec<f64>, Flow> {
    xs.iter()
        .map(|&x| {
            let y = interp.call(f, vec![Value::Float(x)])?;
            super::to_float(&y, name)
        })
        .collect()
}

/// The ys of a vector, or one column of ys per column of a matrix.
fn columns_of(v: &Value, name: &str) -> Result<Vec<Vec<f64>>, Flow> {
    let shape = operand(v)?
        .map(|o| o.tensor().shape().to_vec())
        .ok_or_else(|| not_numbers(v, name))?;
    let ys = floats(v, name)?;
    Ok(match shape.as_slice() {
        [n, _] if *n > 0 => ys.chunks(*n).map(<[f64]>::to_vec).collect(),
        _ => vec![ys],
    })
}

fn floats(v: &Value, name: &str) -> Result<Vec<f64>, Flow> {
    operand(v)?
        .map(|o| o.tensor().to_col_major())
        .ok_or_else(|| not_numbers(v, name))
}

fn not_numbers(v: &Value, name: &str) -> Flow {
    fail(
        ErrorKind::MethodError,
        format!("{name} needs numbers, got a {}", v.type_name()),
    )
}

fn text(args: &Args, key: &str) -> Option<String> {
    args.kw(key).map(crate::display::print_string)
}

fn scale(args: &Args, key: &str) -> Scale {
    match args.kw(key) {
        Some(Value::Symbol(s)) if matches!(s.as_str(), "log10" | "log") => Scale::Log,
        _ => Scale::Linear,
    }
}

crate::builtins! {
    "plot!" => plot_in_place, false, "    plot!([p,] y)\n    plot!([p,] x, y)\n    plot!([p,] f, a, b)\n\nAdds lines to the plot `p`, or to the current plot (the last line plot made), in place, and returns it; `label`, `title`, `xlabel` and `ylabel` as for `plot`.\n\n```\njulia> p = plot(sin, 0, π; label = \"sin\");\n\njulia> plot!(p, cos, 0, π; label = \"cos\") === p\ntrue\n\njulia> plot!([0, 3], [0, 0]; label = \"zero\");\n```";
}
