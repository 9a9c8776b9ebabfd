//! `recommend(op, f, x)`: builds a `Scenario` of the operator on `f` at `x` with forward mode's
//! results (`compute_results`) and a preparation point near `x` (so a recording that does not
//! hold elsewhere is caught), runs every backend that applies through `test_differentiation`
//! and `benchmark_differentiation`, and ranks them: correct ones by prepared time. A backend
//! that fails its test is never recommended.

use super::backends::backend_value;
use super::sparse_ad::{AutoSparse, Detector, SparseColoring};
use crate::builtins::progress::Progress;
use crate::builtins::table::Table;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::{MimeData, Object};
use crate::output::Capture;
use crate::value::convert::operand;
use crate::value::Value;
use difflab_ad::di::{Backend, FdType, SymbolicPackage};
use difflab_coloring::GreedyColoringAlgorithm;
use difflab_plot::{BenchmarkOptions, BenchmarkRow, Plot};
use difflab_syntax::Name;
use std::any::Any;

/// The relative tolerance of a correct result (norm-wise, as `test_differentiation`'s `rtol`).
const RTOL: f64 = 1e-8;

/// How long each call of each backend is sampled, in seconds.
const SECONDS: f64 = 0.05;

/// One backend's outcome.
struct Outcome {
    name: String,
    correct: bool,
    note: String,
    prepared: f64,
    unprepared: f64,
    preparation: f64,
    bytes: f64,
}

/// The ranked outcomes with a sentence of advice and a chart.
struct Recommendation {
    table: Table,
    advice: String,
    chart: Option<Value>,
}

fn dense(b: Backend) -> Value {
    backend_value(b)
}

fn sparse(dense: Backend, detector: Detector) -> Value {
    Value::object(AutoSparse {
        dense,
        mixed_reverse: None,
        detector,
        algorithm: SparseColoring::Greedy(GreedyColoringAlgorithm::default()),
    })
}

/// The backends that apply to `op`, finite differences last (the baseline).
fn candidates(op: &str) -> Vec<Value> {
    let forward = || Backend::Forward { chunk: None };
    let reverse = || Backend::Reverse { compile: false };
    let symbolic = || Backend::Symbolic {
        package: SymbolicPackage::FastDifferentiation,
    };
    let forward_over_reverse = || Backend::SecondOrder {
        outer: Box::new(forward()),
        inner: Box::new(reverse()),
    };
    let finite = dense(Backend::FiniteDiff {
        fdtype: FdType::Central,
        steps: None,
        dir: 1.0,
    });
    let mut list = match op {
        "hessian" => vec![
            dense(forward()),
            dense(forward_over_reverse()),
            dense(symbolic()),
            sparse(forward_over_reverse(), Detector::Global),
            sparse(forward_over_reverse(), Detector::Local),
            sparse(symbolic(), Detector::Global),
        ],
        _ => vec![
            dense(forward()),
            dense(reverse()),
            dense(Backend::Reverse { compile: true }),
            dense(symbolic()),
        ],
    };
    if op == "jacobian" {
        list.extend([
            sparse(forward(), Detector::Global),
            sparse(forward(), Detector::Local),
            sparse(reverse(), Detector::Global),
            sparse(symbolic(), Detector::Global),
        ]);
    }
    list.push(finite);
    list
}

/// The `Table` a builtin returned.
fn table_of(v: &Value) -> &Table {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<Table>(),
        _ => None,
    }
    .expect("test_differentiation and benchmark_differentiation return tables")
}

/// Cell `column` of `row` of `table`.
fn cell<'a>(table: &'a Table, row: &'a [Value], column: &str) -> &'a Value {
    let j = table
        .columns
        .iter()
        .position(|c| *c == column)
        .expect("a column of the table");
    &row[j]
}

/// The outcome of `backend` on `scenario`, the test of operator `op`.
fn try_backend(
    interp: &mut Interp,
    op: &str,
    backend: &Value,
    scenario: &Value,
) -> Result<Outcome, Flow> {
    let tested = crate::builtins::call_builtin(
        interp,
        "test_differentiation",
        vec![backend.clone(), scenario.clone()],
        vec![(difflab_syntax::name!("rtol"), Value::Float(RTOL))],
        false,
    )?;
    let tested = table_of(&tested);
    let failure = tested
        .rows
        .iter()
        .find(|row| !matches!(cell(tested, row, "passed"), Value::Bool(true)))
        .map(|row| {
            let prepared = matches!(cell(tested, row, "prepared"), Value::Bool(true));
            format!(
                "fails its test: {}{}: {}",
                crate::display::print_string(cell(tested, row, "operator")),
                if prepared { " (prepared)" } else { "" },
                crate::display::print_string(cell(tested, row, "message"))
            )
        });
    let note = match (tested.rows.is_empty(), failure) {
        (true, _) => Some("not compatible with the operator".to_string()),
        (false, failure) => failure,
    };
    let benchmark = crate::builtins::call_builtin(
        interp,
        "benchmark_differentiation",
        vec![backend.clone(), scenario.clone()],
        vec![
            (
                difflab_syntax::name!("benchmark"),
                Value::Symbol(difflab_syntax::name!("full")),
            ),
            (
                difflab_syntax::name!("benchmark_seconds"),
                Value::Float(SECONDS),
            ),
            (difflab_syntax::name!("benchmark_test"), Value::Bool(false)),
        ],
        false,
    )?;
    let benchmark = table_of(&benchmark);
    let measured = |prepared: Value, column: &str| {
        benchmark
            .rows
            .iter()
            .find(|row| {
                crate::display::print_string(cell(benchmark, row, "operator")) == op
                    && crate::value::equality::values_equal(
                        cell(benchmark, row, "prepared"),
                        &prepared,
                    )
            })
            .and_then(|row| crate::builtins::to_float(cell(benchmark, row, column), op).ok())
            .unwrap_or(f64::NAN)
    };
    let preparation = benchmark
        .rows
        .iter()
        .find(|row| matches!(cell(benchmark, row, "prepared"), Value::Nothing))
        .and_then(|row| crate::builtins::to_float(cell(benchmark, row, "time"), op).ok())
        .unwrap_or(f64::NAN);
    Ok(Outcome {
        name: short_name(backend),
        correct: note.is_none(),
        note: note.unwrap_or_default(),
        prepared: measured(Value::Bool(true), "time"),
        unprepared: measured(Value::Bool(false), "time"),
        preparation,
        bytes: measured(Value::Bool(true), "bytes"),
    })
}

/// A backend as a table shows it: `AutoSparse` without its default options, the local
/// detector named.
fn short_name(backend: &Value) -> String {
    match super::sparse_ad::as_auto_sparse(backend) {
        Some(s) => match s.detector {
            Detector::Local => format!("AutoSparse({}; local detector)", s.dense),
            _ => format!("AutoSparse({})", s.dense),
        },
        None => crate::display::repr(backend),
    }
}

/// `x` moved a little, deterministically (every element by a different amount).
fn perturbed(x: &Value) -> Result<Value, Flow> {
    let o = operand(x)?.ok_or_else(|| {
        fail(
            ErrorKind::ArgumentError,
            format!(
                "recommend: the input x must be a number or an array of numbers, got a {}",
                x.type_name()
            ),
        )
    })?;
    let t = o.tensor();
    let moved: Vec<f64> = t
        .to_col_major()
        .iter()
        .enumerate()
        .map(|(k, v)| v + 0.01 * (1.0 + (k as f64 * 0.7).sin()))
        .collect();
    let moved = difflab_ad::Tensor::from_col_major(t.shape(), moved);
    Ok(crate::value::convert::from_tensor(
        moved,
        crate::show::ElType::Float64,
        o.scalar,
    ))
}

/// The scenario every backend is tested on: `op` of `f` at `x` with forward mode's results,
/// prepared at a point near `x`.
fn scenario(interp: &mut Interp, op: &str, f: Value, x: Value) -> EvalResult {
    let near = perturbed(&x)?;
    let prep_args = Value::named_tuple(vec![
        (difflab_syntax::name!("x"), near),
        (difflab_syntax::name!("contexts"), Value::tuple(Vec::new())),
    ]);
    let symbol = |s: &str| Value::Symbol(Name::new(s));
    let scenario = crate::builtins::call_builtin(
        interp,
        "Scenario",
        vec![symbol(op), symbol("out"), f, x],
        vec![
            (difflab_syntax::name!("prep_args"), prep_args),
            (
                difflab_syntax::name!("name"),
                Value::str(format!("recommend({op})")),
            ),
        ],
        false,
    )?;
    let forward = dense(Backend::Forward { chunk: None });
    crate::builtins::call_builtin(
        interp,
        "compute_results",
        vec![scenario, forward],
        Vec::new(),
        false,
    )
}

fn recommend_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("recommend", 3, 3)?;
    let op = match &args.pos[0] {
        Value::Builtin(b)
            if ["derivative", "gradient", "jacobian", "hessian"].contains(&b.name) =>
        {
            b.name
        }
        other => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "recommend: the first argument must be derivative, gradient, jacobian or hessian, got {}",
                    crate::display::repr(other)
                ),
            ))
        }
    };
    let (f, x) = (args.pos[1].clone(), args.pos[2].clone());
    let scenario = scenario(interp, op, f, x)?;
    let backends = candidates(op);
    let mut progress = Progress::start("recommend", backends.len());
    let mut outcomes = Vec::new();
    for backend in &backends {
        progress.step(interp, &short_name(backend));
        interp.check_interrupt()?;
        // A candidate's warnings (a symbolic backend falling back to forward mode) are not
        // the user's concern here: the table says how each did.
        let shown = std::mem::replace(&mut interp.out, Box::new(Capture::default()));
        let outcome = try_backend(interp, op, backend, &scenario);
        interp.out = shown;
        outcomes.push(outcome?);
    }
    progress.finish(interp);
    outcomes.sort_by(|a, b| {
        b.correct
            .cmp(&a.correct)
            .then(a.prepared.total_cmp(&b.prepared))
    });
    Ok(Value::object(ranked(op, outcomes)))
}

fn ranked(op: &str, outcomes: Vec<Outcome>) -> Recommendation {
    let advice = match outcomes.first().filter(|o| o.correct) {
        Some(best) => {
            let calls = outcomes
                .iter()
                .filter(|o| o.correct && o.unprepared < best.prepared)
                .map(|o| o.name.clone())
                .next();
            let mut sentence = format!(
                "Use {} for {op}: the fastest correct backend once prepared ({} per call after {} of preparation).",
                best.name,
                seconds(best.prepared),
                seconds(best.preparation)
            );
            if let Some(other) = calls {
                sentence.push_str(&format!(
                    " For a single call, {other} without preparation is faster."
                ));
            }
            sentence
        }
        None => format!("No backend computed {op} correctly here: check the function."),
    };
    let rows: Vec<Vec<Value>> = outcomes
        .iter()
        .enumerate()
        .map(|(k, o)| {
            vec![
                Value::Int(k as i64 + 1),
                Value::str(o.name.clone()),
                Value::Bool(o.correct),
                Value::Float(o.prepared),
                Value::Float(o.unprepared),
                Value::Float(o.preparation),
                Value::Float(o.bytes),
                Value::str(o.note.clone()),
            ]
        })
        .collect();
    let chart_rows: Vec<BenchmarkRow> = outcomes
        .iter()
        .filter(|o| o.correct)
        .flat_map(|o| {
            [1.0, 10.0, 100.0, 1000.0].into_iter().flat_map(move |k| {
                [
                    BenchmarkRow::new(&o.name, "prepared", k, o.preparation + k * o.prepared),
                    BenchmarkRow::new(&o.name, "unprepared", k, k * o.unprepared),
                ]
            })
        })
        .collect();
    let chart = Plot::benchmark(
        chart_rows,
        BenchmarkOptions {
            title: Some(format!("{op}: total time of repeated calls")),
            x_label: "calls".into(),
            y_label: "total time (s)".into(),
        },
    )
    .ok()
    .map(crate::builtins::plots::plot_value);
    Recommendation {
        table: Table {
            title: format!("recommend({op})"),
            columns: vec![
                "rank",
                "backend",
                "correct",
                "time",
                "unprepared_time",
                "preparation_time",
                "bytes",
                "note",
            ],
            rows,
        },
        advice,
        chart,
    }
}

fn seconds(s: f64) -> String {
    crate::builtins::bench::format_duration(std::time::Duration::from_secs_f64(s))
}

impl Object for Recommendation {
    fn type_name(&self) -> String {
        "Recommendation".into()
    }

    fn show(&self) -> String {
        format!("{}\n{}", self.table.show(), self.advice)
    }

    fn repr(&self) -> String {
        format!("Recommendation: {}", self.advice)
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "advice" => Some(Value::str(self.advice.clone())),
            "best" => self
                .table
                .rows
                .first()
                .filter(|row| matches!(row[2], Value::Bool(true)))
                .map(|row| row[1].clone()),
            "chart" => self.chart.clone(),
            "table" => Some(Value::object(Table {
                title: self.table.title.clone(),
                columns: self.table.columns.clone(),
                rows: self.table.rows.clone(),
            })),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["advice", "best", "chart", "table"]
    }

    fn rich(&self) -> Vec<MimeData> {
        let mut html = String::new();
        if let Some((_, table)) = self
            .table
            .rich()
            .into_iter()
            .find(|(m, _)| m == "text/html")
        {
            html.push_str(&table);
        }
        html.push_str(&format!("<p>{}</p>", self.advice));
        if let Some(svg) = self.chart.as_ref().and_then(crate::builtins::plots::svg_of) {
            html.push_str(&svg);
        }
        vec![("text/html".into(), html)]
    }

    fn elements(&self) -> Option<Vec<Value>> {
        self.table.elements()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

crate::builtins! {
    "recommend" => recommend_, false, "    recommend(op, f, x)\n\nWhich backend to use for `op(f, backend, x)` (`op` is `derivative`, `gradient`, `jacobian` or `hessian`): runs every backend that applies (forward, reverse, compiled tape, symbolic, the sparse ones for Jacobians and Hessians with both detectors, and central finite differences as the baseline), tests each with `test_differentiation` on a `Scenario` whose results are forward mode's (`compute_results`, relative tolerance 1e-8) and whose preparation point is near `x` (a recording that does not hold elsewhere is caught), times it with `benchmark_differentiation(...; benchmark=:full)` (preparation, prepared and unprepared calls), and returns them ranked: correct backends by prepared time. A backend that fails any of its tests is never recommended; its note says which call failed and why. Shows a progress bar, can be interrupted, and displays as a table with a sentence of advice and a chart of the total time of repeated calls (prepared and unprepared). Fields: `advice`, `best`, `table`, `chart`; it iterates over its rows.\n\n```\njulia> r = recommend(jacobian, x -> diff(x .^ 2), rand(50));\n\njulia> all(row -> row.correct || row.note != \"\", r)\ntrue\n\njulia> occursin(\"Use \", r.advice)\ntrue\n```";
}
