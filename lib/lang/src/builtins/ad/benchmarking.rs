//! `benchmark_differentiation`, measured as DifferentiationInterfaceTest measures: for every
//! backend and every scenario it is compatible with, the call that also returns the value and
//! the operator alone, prepared on the scenario's `prep_args`; with `benchmark=:full` also the
//! preparation and both calls unprepared. Each row counts the evaluations of the function per
//! call and aggregates the samples (`minimum` by default). A call that fails gives a row of
//! NaN, as upstream, with a warning.

use super::compare::{
    backend_name, backends_of, call_op, caught, checked_calls, each_compatible_pair, prepare,
    selected_scenarios, title_of, CallPoint,
};
use super::operators::{Op, Variant};
use super::scenarios::Scenario;
use crate::allocator::Allocations;
use crate::builtins::table::Table;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::convert::operand;
use crate::value::Value;
use difflab_syntax::Name;
use std::any::Any;
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The keywords `benchmark_differentiation` takes (`test_differentiation` hands them on).
pub const KEYWORDS: &[&str] = &[
    "benchmark",
    "testset_name",
    "excluded",
    "logging",
    "count_calls",
    "benchmark_test",
    "benchmark_seconds",
    "benchmark_aggregation",
    "adaptive_batchsize",
];

/// The columns of the table, one row per measured call.
const COLUMNS: [&str; 11] = [
    "backend", "scenario", "operator", "prepared", "calls", "samples", "evals", "time", "allocs",
    "bytes", "length",
];

/// A function wrapper that counts its calls.
struct Counted {
    inner: Value,
    calls: Cell<usize>,
}

impl Counted {
    fn wrap(f: &Value) -> Rc<Counted> {
        Rc::new(Counted {
            inner: f.clone(),
            calls: Cell::new(0),
        })
    }

    /// The calls since the last reset.
    fn reset(&self) -> usize {
        self.calls.replace(0)
    }
}

impl Object for Rc<Counted> {
    fn type_name(&self) -> String {
        "Function".into()
    }

    fn show(&self) -> String {
        crate::display::repr(&self.inner)
    }

    fn call(
        &self,
        interp: &mut Interp,
        args: Vec<Value>,
        kwargs: Vec<(Name, Value)>,
    ) -> Option<EvalResult> {
        self.calls.set(self.calls.get() + 1);
        Some(interp.call_value(&self.inner, args, kwargs))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// One measured call: the operator (in its variant) and whether it is prepared; `None` is the
/// preparation itself.
struct Measured {
    op: Op,
    variant: Variant,
    label: String,
    prepared: Option<bool>,
}

/// The calls measured for scenario `s`, in DIT's order.
fn measured_calls(s: &Scenario, full: bool) -> Vec<Measured> {
    let [valued, plain] = checked_calls(s);
    let call = |(op, variant, label): &(Op, Variant, String), prepared| Measured {
        op: *op,
        variant: *variant,
        label: label.clone(),
        prepared,
    };
    let mut calls = vec![call(&valued, Some(true)), call(&plain, Some(true))];
    if full {
        calls.push(Measured {
            op: s.op,
            variant: Variant::Prepare,
            label: format!("prepare_{}", s.op.name()),
            prepared: None,
        });
        calls.extend([call(&valued, Some(false)), call(&plain, Some(false))]);
    }
    calls
}

/// Runs `call` of scenario `s` with function `f` (`prep` is its preparation).
fn run_call(
    interp: &mut Interp,
    s: &Scenario,
    backend: &Value,
    f: &Value,
    call: &Measured,
    prep: &Value,
) -> EvalResult {
    match call.prepared {
        None => prepare(interp, s, f, backend, &CallPoint::preparation(s)),
        Some(prepared) => call_op(
            interp,
            s,
            call.op,
            call.variant,
            f,
            backend,
            prepared.then_some(prep),
            &CallPoint::execution(s),
        ),
    }
}

/// The samples of one call: time in seconds, allocations and bytes of each run.
#[derive(Default)]
struct Samples {
    times: Vec<f64>,
    allocs: Vec<f64>,
    bytes: Vec<f64>,
}

/// Runs `f` repeatedly (at least 3 times, for about `seconds`), one sample per run.
fn sample(
    interp: &mut Interp,
    seconds: f64,
    mut f: impl FnMut(&mut Interp) -> Result<(), Flow>,
) -> Result<Samples, Flow> {
    let started = Instant::now();
    let budget = Duration::from_secs_f64(seconds);
    let mut samples = Samples::default();
    while samples.times.len() < 3 || (started.elapsed() < budget && samples.times.len() < 10_000) {
        interp.check_interrupt()?;
        let (t, before) = (Instant::now(), Allocations::now());
        f(interp)?;
        let (time, allocations) = (t.elapsed(), Allocations::now().since(before));
        samples.times.push(time.as_secs_f64());
        samples.allocs.push(allocations.count as f64);
        samples.bytes.push(allocations.bytes as f64);
    }
    Ok(samples)
}

/// How samples are summarized: DIT's default `minimum`, or the user's function of a vector.
enum Aggregation {
    Minimum,
    Function(Value),
}

impl Aggregation {
    fn apply(&self, interp: &mut Interp, values: &[f64]) -> EvalResult {
        match self {
            Aggregation::Minimum => Ok(Value::Float(
                values.iter().copied().fold(f64::INFINITY, f64::min),
            )),
            Aggregation::Function(f) => {
                let vector = crate::builtins::array(
                    crate::show::ElType::Float64,
                    &[values.len()],
                    values.to_vec(),
                );
                interp.call_value(f, vec![vector], Vec::new())
            }
        }
    }

    /// Counts (allocations, bytes) stay integers under `minimum`.
    fn count(&self, interp: &mut Interp, values: &[f64]) -> EvalResult {
        match (self, self.apply(interp, values)?) {
            (Aggregation::Minimum, Value::Float(v)) => Ok(Value::Int(v as i64)),
            (_, v) => Ok(v),
        }
    }
}

/// The settings of one `benchmark_differentiation` run.
struct Settings {
    full: bool,
    count_calls: bool,
    warn_failures: bool,
    seconds: f64,
    aggregation: Aggregation,
}

/// Evaluations of `s.f` per call, in the order of `calls` (−1 each when counting failed).
fn count_calls(
    interp: &mut Interp,
    s: &Scenario,
    backend: &Value,
    calls: &[Measured],
) -> Result<Result<Vec<i64>, String>, Flow> {
    let counted = Counted::wrap(&s.f);
    let f = Value::Object(Rc::new(Box::new(counted.clone())));
    let outcome = (|| -> Result<Vec<i64>, Flow> {
        let prep = prepare(interp, s, &f, backend, &CallPoint::preparation(s))?;
        let preparation = counted.reset();
        calls
            .iter()
            .map(|call| {
                if call.prepared.is_none() {
                    return Ok(preparation as i64);
                }
                run_call(interp, s, backend, &f, call, &prep)?;
                Ok(counted.reset() as i64)
            })
            .collect()
    })();
    caught(outcome)
}

/// The rows of `backend` on scenario `s`.
fn benchmark_pair(
    interp: &mut Interp,
    s: &Scenario,
    backend: &Value,
    settings: &Settings,
) -> Result<Vec<Vec<Value>>, Flow> {
    let calls = measured_calls(s, settings.full);
    let mut failures = Vec::new();
    let counts = if settings.count_calls {
        count_calls(interp, s, backend, &calls)?.unwrap_or_else(|message| {
            failures.push(format!("counting calls: {message}"));
            vec![-1; calls.len()]
        })
    } else {
        vec![-1; calls.len()]
    };
    let prep = caught(prepare(
        interp,
        s,
        &s.f,
        backend,
        &CallPoint::preparation(s),
    ))?;
    let length = operand(&s.x)?.map_or(1, |o| o.tensor().len());
    let mut rows = Vec::new();
    for (call, calls) in calls.iter().zip(counts) {
        let samples = match &prep {
            Ok(prep) => caught(sample(interp, settings.seconds, |me| {
                run_call(me, s, backend, &s.f, call, prep).map(drop)
            }))?,
            Err(message) => Err(message.clone()),
        };
        let mut row = vec![
            backend_name(backend),
            Value::str(s.show()),
            Value::str(call.label.clone()),
            call.prepared.map_or(Value::Nothing, Value::Bool),
            Value::Int(calls),
        ];
        match samples {
            Ok(samples) => {
                let agg = &settings.aggregation;
                row.extend([
                    Value::Int(samples.times.len() as i64),
                    Value::Int(1),
                    agg.apply(interp, &samples.times)?,
                    agg.count(interp, &samples.allocs)?,
                    agg.count(interp, &samples.bytes)?,
                ]);
            }
            Err(message) => {
                failures.push(format!("{}: {message}", call.label));
                row.extend([
                    Value::Int(0),
                    Value::Int(0),
                    Value::Float(f64::NAN),
                    Value::Float(f64::NAN),
                    Value::Float(f64::NAN),
                ]);
            }
        }
        row.push(Value::Int(length as i64));
        rows.push(row);
    }
    if settings.warn_failures {
        for failure in failures {
            let warning = format!(
                "error during benchmarking of {} with {}: {failure}",
                s.show(),
                crate::display::repr(backend)
            );
            interp.warn("DifferentiationInterfaceTest", warning);
        }
    }
    Ok(rows)
}

fn benchmark_differentiation_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("benchmark_differentiation", 2, 2)?;
    args.keywords("benchmark_differentiation", KEYWORDS)?;
    let full = match args.kw("benchmark") {
        None => false,
        Some(Value::Symbol(s)) if s.as_str() == "prepared" => false,
        Some(Value::Symbol(s)) if s.as_str() == "full" => true,
        Some(other) => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "benchmark must be :prepared or :full, got {}",
                    crate::display::repr(other)
                ),
            ))
        }
    };
    let seconds = match args.kw("benchmark_seconds") {
        None => 0.2,
        Some(v) => super::super::to_float(v, "benchmark_differentiation")?,
    };
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("benchmark_seconds must be a nonnegative number, got {seconds}"),
        ));
    }
    let logging = args.flag("logging", false)?;
    args.flag("adaptive_batchsize", true)?;
    let settings = Settings {
        full,
        count_calls: args.flag("count_calls", true)?,
        warn_failures: logging || args.flag("benchmark_test", true)?,
        seconds,
        aggregation: match args.kw("benchmark_aggregation") {
            None => Aggregation::Minimum,
            Some(f) => Aggregation::Function(f.clone()),
        },
    };
    let title = title_of(&args, "benchmark_differentiation");
    let backends = backends_of(&args.pos[0])?;
    let scenarios = selected_scenarios(&args.pos[1], &args)?;
    let mut rows = Vec::new();
    each_compatible_pair(
        interp,
        ("benchmark_differentiation", logging),
        &backends,
        &scenarios,
        |interp, b, s| {
            rows.extend(benchmark_pair(interp, s, b, &settings)?);
            Ok(())
        },
    )?;
    Ok(Value::Object(Rc::new(Box::new(Table {
        title,
        columns: COLUMNS.to_vec(),
        rows,
    }))))
}

crate::builtins! {
    "benchmark_differentiation" => benchmark_differentiation_, false, "    benchmark_differentiation(backends, scenarios; benchmark=:prepared, logging=false, excluded=Symbol[], count_calls=true, benchmark_test=true, benchmark_seconds=0.2, benchmark_aggregation=minimum, testset_name)\n\nTimes every backend on every scenario it is compatible with, as DifferentiationInterfaceTest does, and returns a table with one row per measured call: the call returning the value too (`value_and_gradient`, `value_gradient_and_hessian`, ...) and the operator alone, both prepared (on the scenario's `prep_args`); with `benchmark=:full` also the preparation (`prepare_gradient`, `prepared` is `nothing`) and both calls unprepared. Columns: backend, scenario, operator, prepared, calls (evaluations of f per call, none when the preparation runs a recording of f, see `?AutoForwardDiff`; -1 with `count_calls=false`), samples, evals, time (seconds), allocs and bytes (the interpreter's own allocations included, as Julia counts them), each aggregated over the samples by `benchmark_aggregation` (a function of a vector), and length (the input size). Each call is sampled for about `benchmark_seconds` (at least 3 samples; DIT's default is 1 s). A call that fails gives a row of NaN and a warning (silenced by `benchmark_test=false`). `logging=true` shows a progress bar; `excluded` drops operators; `testset_name` titles the table. `plot(table)` draws the operator's time against input size.\n\n```\njulia> scenarios = [Scenario{:gradient, :out}(x -> sum(abs2, x), rand(n); res1=nothing) for n in [10, 100]];\n\njulia> df = benchmark_differentiation([AutoForwardDiff()], scenarios; benchmark=:full);\n\njulia> [row.operator for row in df if row.length == 10]\n5-element Vector{String}:\n \"value_and_gradient\"\n \"gradient\"\n \"prepare_gradient\"\n \"value_and_gradient\"\n \"gradient\"\n```";
}
