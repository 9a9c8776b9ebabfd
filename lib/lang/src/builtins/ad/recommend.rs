//! `recommend(op, f, x)`: runs every backend that applies to the operator on `f` at `x`,
//! checks each result against forward mode's (at `x` and, with the preparation made at `x`, at
//! a second point, so a recording that does not hold elsewhere is caught), times the
//! preparation, the prepared call and the unprepared call, and ranks the backends: correct ones
//! by prepared time. A backend that gives a wrong result or fails is never recommended.

use super::backends::backend_value;
use super::explain::{timed, Stage};
use super::sparse_ad::{AutoSparse, Detector, SparseColoring};
use crate::builtins::progress::Progress;
use crate::builtins::table::Table;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::eval::operators::operand;
use crate::eval::{fail, EvalResult, Flow, Interp};
use crate::object::{MimeData, Object};
use crate::output::Capture;
use crate::value::Value;
use difflab_ad::di::{Backend, FdType, SymbolicPackage};
use difflab_coloring::GreedyColoringAlgorithm;
use difflab_plot::{BenchmarkOptions, BenchmarkRow, Plot};
use difflab_syntax::Name;
use std::any::Any;
use std::time::Instant;

/// The relative tolerance of a correct result.
const RTOL: f64 = 1e-8;

/// One backend's outcome.
struct Outcome {
    name: String,
    correct: bool,
    note: String,
    prepared: f64,
    unprepared: f64,
    preparation: f64,
    bytes: u64,
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

fn call_named(interp: &mut Interp, name: &str, args: Vec<Value>) -> EvalResult {
    let builtin = crate::builtins::lookup(Name::new(name)).expect("the operators exist");
    interp.call(&Value::Builtin(builtin), args)
}

fn numbers(v: &Value) -> Option<Vec<f64>> {
    match v {
        Value::Sparse(s) => {
            let s = s.borrow();
            let (m, n) = (s.matrix.rows(), s.matrix.cols());
            let mut dense = vec![0.0; m * n];
            for (&value, (i, j)) in s.matrix.iter() {
                dense[i + j * m] += value;
            }
            Some(dense)
        }
        other => operand(other).ok()?.map(|o| o.tensor().to_col_major()),
    }
}

fn agree(a: &[f64], b: &[f64]) -> bool {
    let scale = b.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1.0);
    a.len() == b.len() && a.iter().zip(b).all(|(p, q)| (p - q).abs() <= RTOL * scale)
}

/// The fastest of a few runs of `body` (at most about 0.2 s of them).
fn fastest(
    interp: &mut Interp,
    mut body: impl FnMut(&mut Interp) -> EvalResult,
) -> Result<(Value, Stage), Flow> {
    let started = Instant::now();
    let mut best: Option<Stage> = None;
    let mut value = Value::Nothing;
    for _ in 0..20 {
        let mut one = Vec::new();
        value = timed(&mut one, "call", || body(interp))?;
        let run = one.pop().expect("timed");
        if best.as_ref().is_none_or(|b| run.seconds < b.seconds) {
            best = Some(run);
        }
        if started.elapsed().as_secs_f64() > 0.2 {
            break;
        }
    }
    Ok((value, best.expect("one run at least")))
}

/// The outcome of `backend`, or why it failed; `reference` is forward mode's result at `x`
/// and `x2`.
fn try_backend(
    interp: &mut Interp,
    op: &str,
    f: &Value,
    backend: &Value,
    x: &Value,
    x2: &Value,
    reference: &(Vec<f64>, Vec<f64>),
) -> Result<Outcome, Flow> {
    let name = short_name(backend);
    let failed = |note: String| Outcome {
        name: name.clone(),
        correct: false,
        note,
        prepared: f64::NAN,
        unprepared: f64::NAN,
        preparation: f64::NAN,
        bytes: 0,
    };
    let start = Instant::now();
    let prep = match call_named(
        interp,
        &format!("prepare_{op}"),
        vec![f.clone(), backend.clone(), x.clone()],
    ) {
        Ok(p) => p,
        Err(Flow::Error(e)) if e.kind != ErrorKind::InterruptException => {
            return Ok(failed(format!("preparation failed: {}", e.headline())))
        }
        Err(other) => return Err(other),
    };
    let preparation = start.elapsed().as_secs_f64();
    let args = |at: &Value| vec![f.clone(), prep.clone(), backend.clone(), at.clone()];
    let outcome = (|| -> Result<Outcome, Flow> {
        let (at_x, stage) = fastest(interp, |me| call_named(me, op, args(x)))?;
        let at_x2 = call_named(interp, op, args(x2))?;
        let (_, unprepared) = fastest(interp, |me| {
            call_named(me, op, vec![f.clone(), backend.clone(), x.clone()])
        })?;
        let correct = match (numbers(&at_x), numbers(&at_x2)) {
            (Some(a), Some(b)) => agree(&a, &reference.0) && agree(&b, &reference.1),
            _ => false,
        };
        Ok(Outcome {
            name: name.clone(),
            correct,
            note: if correct {
                String::new()
            } else {
                format!("differs from forward mode by more than {RTOL:e} (relative)")
            },
            prepared: stage.seconds,
            unprepared: unprepared.seconds,
            preparation,
            bytes: stage.bytes,
        })
    })();
    match outcome {
        Err(Flow::Error(e)) if e.kind != ErrorKind::InterruptException => {
            Ok(failed(format!("failed: {}", e.headline())))
        }
        other => other,
    }
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
    Ok(crate::eval::operators::from_tensor(
        moved,
        crate::show::ElType::Float64,
        o.scalar,
    ))
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
    let x2 = perturbed(&x)?;
    let forward = dense(Backend::Forward { chunk: None });
    let reference = (
        numbers(&call_named(
            interp,
            op,
            vec![f.clone(), forward.clone(), x.clone()],
        )?),
        numbers(&call_named(
            interp,
            op,
            vec![f.clone(), forward, x2.clone()],
        )?),
    );
    let (Some(r1), Some(r2)) = reference else {
        return Err(fail(
            ErrorKind::ArgumentError,
            "recommend: the operator's result is not numbers",
        ));
    };
    let reference = (r1, r2);
    let backends = candidates(op);
    let mut progress = Progress::start("recommend", backends.len());
    let mut outcomes = Vec::new();
    for backend in &backends {
        progress.step(interp, &short_name(backend));
        interp.check_interrupt()?;
        // A candidate's warnings (a symbolic backend falling back to forward mode) are not
        // the user's concern here: the table says how each did.
        let shown = std::mem::replace(&mut interp.out, Box::new(Capture::default()));
        let outcome = try_backend(interp, op, &f, backend, &x, &x2, &reference);
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
                Value::Int(o.bytes as i64),
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
    "recommend" => recommend_, false, "    recommend(op, f, x)\n\nWhich backend to use for `op(f, backend, x)` (`op` is `derivative`, `gradient`, `jacobian` or `hessian`): runs every backend that applies (forward, reverse, compiled tape, symbolic, the sparse ones for Jacobians and Hessians with both detectors, and central finite differences as the baseline), checks each result against forward mode at `x` and, with the preparation made at `x`, at a nearby point (a recording that does not hold elsewhere is caught), times the preparation, the prepared call and the unprepared call, and returns them ranked: correct backends by prepared time. A backend that fails or gives a wrong result is never recommended. Shows a progress bar, can be interrupted, and displays as a table with a sentence of advice and a chart of the total time of repeated calls (prepared and unprepared). Fields: `advice`, `best`, `table`, `chart`; it iterates over its rows.\n\n```\njulia> r = recommend(jacobian, x -> diff(x .^ 2), rand(50));\n\njulia> all(row -> row.correct || row.note != \"\", r)\ntrue\n\njulia> occursin(\"Use \", r.advice)\ntrue\n```";
}
