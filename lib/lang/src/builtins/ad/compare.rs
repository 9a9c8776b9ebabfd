//! Comparing backends, as DifferentiationInterfaceTest does: `Scenario`s (an operator, a
//! function, an input and the expected results), `default_scenarios()`, and
//! `test_differentiation` / `benchmark_differentiation`, which return tables.

use super::backends::as_backend;
use super::operators::{run, Op, Variant};
use crate::allocator::Allocations;
use crate::builtins::progress::Progress;
use crate::builtins::table::Table;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::eval::iterate::elements;
use crate::eval::operators::operand;
use crate::eval::{fail, EvalResult, Flow, Interp};
use crate::object::Object;
use crate::value::Value;
use difflab_syntax::Name;
use std::any::Any;
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// A test case for one operator.
pub struct Scenario {
    op: Op,
    in_place: bool,
    f: Value,
    y: Option<Value>,
    x: Value,
    tangent: Option<Value>,
    contexts: Vec<Value>,
    res1: Option<Value>,
    res2: Option<Value>,
    name: String,
}

fn op_of(v: &Value) -> Result<Op, Flow> {
    let Value::Symbol(s) = v else {
        return Err(fail(
            ErrorKind::ArgumentError,
            "Scenario: the first argument is the operator, as a symbol like :gradient",
        ));
    };
    Ok(match s.as_str() {
        "derivative" => Op::Derivative,
        "second_derivative" => Op::SecondDerivative,
        "gradient" => Op::Gradient,
        "jacobian" => Op::Jacobian,
        "hessian" => Op::Hessian,
        "pushforward" => Op::Pushforward,
        "pullback" => Op::Pullback,
        "hvp" => Op::Hvp,
        other => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("Scenario: unknown operator :{other}"),
            ))
        }
    })
}

impl Object for Scenario {
    fn type_name(&self) -> String {
        "Scenario".into()
    }

    fn show(&self) -> String {
        format!(
            "Scenario{{:{}, :{}}} {}",
            self.op.name(),
            if self.in_place { "in" } else { "out" },
            self.name
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "f" => Some(self.f.clone()),
            "x" => Some(self.x.clone()),
            "y" => self.y.clone(),
            "t" => self.tangent.clone(),
            "res1" => self.res1.clone(),
            "res2" => self.res2.clone(),
            "name" => Some(Value::str(self.name.clone())),
            "operator" => Some(Value::Symbol(Name::new(self.op.name()))),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["operator", "f", "x", "y", "t", "res1", "res2", "name"]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn scenario_(_: &mut Interp, mut args: Args) -> EvalResult {
    let mut pos = std::mem::take(&mut args.pos).into_iter().peekable();
    let op = op_of(
        &pos.next()
            .ok_or_else(|| fail(ErrorKind::MethodError, "Scenario needs an operator"))?,
    )?;
    let mut in_place = false;
    if let Some(Value::Symbol(s)) = pos.peek() {
        in_place = s.as_str() == "in";
        pos.next();
    }
    let f = pos
        .next()
        .ok_or_else(|| fail(ErrorKind::MethodError, "Scenario needs a function"))?;
    let rest: Vec<Value> = pos.collect();
    let (plain, contexts): (Vec<Value>, Vec<Value>) = rest
        .into_iter()
        .partition(|v| super::contexts::as_context(v).is_none());
    let needed = if matches!(op, Op::Pushforward | Op::Pullback | Op::Hvp) {
        2
    } else {
        1
    };
    let mut plain = plain.into_iter();
    let y = match plain.len() {
        n if n == needed => None,
        n if n == needed + 1 => plain.next(),
        n => {
            return Err(fail(
                ErrorKind::MethodError,
                format!(
                    "Scenario :{}: expected {needed} input(s) after the function, got {n}",
                    op.name()
                ),
            ))
        }
    };
    let x = plain.next().expect("counted");
    let tangent = plain.next();
    let kw = |k: &str| args.kw(k).cloned();
    let name = kw("name")
        .map(|v| crate::display::print_string(&v))
        .unwrap_or_else(|| {
            let shape = operand(&x)
                .ok()
                .flatten()
                .map(|o| o.tensor().shape().to_vec())
                .unwrap_or_default();
            let input = if shape.is_empty() {
                "number".into()
            } else {
                crate::show::summary(crate::show::ElType::Float64, &shape)
            };
            format!("{}: {input}", crate::display::repr(&f))
        });
    Ok(Value::Object(Rc::new(Box::new(Scenario {
        op,
        in_place,
        f,
        y,
        x,
        tangent,
        contexts,
        res1: kw("res1"),
        res2: kw("res2"),
        name,
    }))))
}

fn as_scenario(v: &Value) -> Option<&Scenario> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<Scenario>(),
        _ => None,
    }
}

/// The default scenarios, written in the language with their closed-form results.
const DEFAULT_SCENARIOS: &str = r#"
x0 = 0.42
x6 = collect(1.0:6.0)
x23 = reshape(collect(1.0:6.0), 2, 3)
arr_to_num(x) = sum(x .^ 4) * sum(x .^ 6)
arr_grad(x) = 4 .* x .^ 3 .* sum(x .^ 6) .+ 6 .* x .^ 5 .* sum(x .^ 4)
vec_to_vec(x) = vcat(sin.(x), cos.(x))
mat_to_mat(x) = hcat(vec(sin.(x)), vec(cos.(x)))
diagonal(v) = [i == j ? v[i] : 0.0 for i in 1:length(v), j in 1:length(v)]
trig_jac(x) = vcat(diagonal(vec(cos.(x))), diagonal(vec(-sin.(x))))
num_to_vec(t) = sin.([1.0, 2.0] .* t)
function num_to_vec!(y, t)
    y[1], y[2] = sin(t), sin(2t)
    nothing
end
function vec_to_vec!(y, x)
    n = length(x)
    for i in 1:n
        y[i], y[n + i] = sin(x[i]), cos(x[i])
    end
    nothing
end
scaled_norm(x, c) = c * sum(abs2, x)
[
    Scenario(:derivative, sin, x0; res1=cos(x0), name="sin: number"),
    Scenario(:second_derivative, sin, x0; res1=cos(x0), res2=-sin(x0), name="sin: number"),
    Scenario(:pushforward, sin, x0, 3.14; res1=cos(x0) * 3.14, name="sin: number"),
    Scenario(:pullback, sin, x0, -1 / 12; res1=cos(x0) * (-1 / 12), name="sin: number"),
    Scenario(:derivative, num_to_vec, x0; res1=[1.0, 2.0] .* cos.([1.0, 2.0] .* x0), name="num_to_vec: number"),
    Scenario(:gradient, arr_to_num, x6; res1=arr_grad(x6), name="arr_to_num: 6-element Vector"),
    Scenario(:gradient, arr_to_num, x23; res1=arr_grad(x23), name="arr_to_num: 2×3 Matrix"),
    Scenario(:pushforward, arr_to_num, x6, -x6; res1=-10 * arr_to_num(x6), name="arr_to_num: 6-element Vector"),
    Scenario(:hvp, arr_to_num, x6, -x6; res1=arr_grad(x6), res2=-9 .* arr_grad(x6), name="arr_to_num: 6-element Vector"),
    Scenario(:jacobian, vec_to_vec, x6; res1=trig_jac(x6), name="vec_to_vec: 6-element Vector"),
    Scenario(:jacobian, mat_to_mat, x23; res1=trig_jac(x23), name="mat_to_mat: 2×3 Matrix"),
    Scenario(:pullback, vec_to_vec, x6, collect(-11.0:2.0:11.0); res1=trig_jac(x6)' * collect(-11.0:2.0:11.0), name="vec_to_vec: 6-element Vector"),
    Scenario(:hessian, x -> sum(diff(x) .^ 3), x6; res1=3 .* vcat(0.0, diff(x6) .^ 2) .- 3 .* vcat(diff(x6) .^ 2, 0.0),
             res2=[6.0 -6 0 0 0 0; -6 12 -6 0 0 0; 0 -6 12 -6 0 0; 0 0 -6 12 -6 0; 0 0 0 -6 12 -6; 0 0 0 0 -6 6], name="sumdiffcube: 6-element Vector"),
    Scenario{:gradient, :in}(arr_to_num, x6; res1=arr_grad(x6), name="arr_to_num: 6-element Vector"),
    Scenario{:jacobian, :in}(vec_to_vec, x6; res1=trig_jac(x6), name="vec_to_vec: 6-element Vector"),
    Scenario(:derivative, num_to_vec!, zeros(2), x0; res1=[1.0, 2.0] .* cos.([1.0, 2.0] .* x0), name="num_to_vec!: number"),
    Scenario(:jacobian, vec_to_vec!, zeros(12), x6; res1=trig_jac(x6), name="vec_to_vec!: 6-element Vector"),
    Scenario(:pushforward, vec_to_vec!, zeros(12), x6, ones(6); res1=trig_jac(x6) * ones(6), name="vec_to_vec!: 6-element Vector"),
    Scenario(:gradient, scaled_norm, x6, Constant(3.0); res1=6 .* x6, name="scaled_norm: 6-element Vector, Constant"),
]
"#;

/// Sparse Jacobian and Hessian scenarios, after DifferentiationInterfaceTest's
/// `sparse_scenarios()`: banded structures whose dense references are known in closed form.
const SPARSE_SCENARIOS: &str = r#"
x6 = collect(1.0:6.0)
bidiagonal(d, u) = [i == j ? d[i] : (j == i + 1 ? u[i] : 0.0) for i in 1:length(d), j in 1:length(d) + 1]
diffsquare(x) = diff(x) .^ 2
diffcube(x) = diff(x) .^ 3
sumdiffcube(x) = sum(diff(x) .^ 3)
dx = diff(x6)
[
    Scenario(:jacobian, diffsquare, x6; res1=bidiagonal(-2 .* dx, 2 .* dx), name="diffsquare: 6-element Vector"),
    Scenario(:jacobian, diffcube, x6; res1=bidiagonal(-3 .* dx .^ 2, 3 .* dx .^ 2), name="diffcube: 6-element Vector"),
    Scenario(:jacobian, x -> vcat(diffsquare(x), diffcube(x)), x6; res1=vcat(bidiagonal(-2 .* dx, 2 .* dx), bidiagonal(-3 .* dx .^ 2, 3 .* dx .^ 2)), name="vcat(diffsquare, diffcube): 6-element Vector"),
    Scenario(:hessian, sumdiffcube, x6; res1=3 .* vcat(0.0, dx .^ 2) .- 3 .* vcat(dx .^ 2, 0.0),
             res2=[6.0 -6 0 0 0 0; -6 12 -6 0 0 0; 0 -6 12 -6 0 0; 0 0 -6 12 -6 0; 0 0 0 -6 12 -6; 0 0 0 0 -6 6], name="sumdiffcube: 6-element Vector"),
]
"#;

fn sparse_scenarios_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sparse_scenarios", 0, 0)?;
    interp.eval_library("sparse_scenarios", SPARSE_SCENARIOS)
}

fn default_scenarios_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("default_scenarios", 0, 0)?;
    interp.eval_library("default_scenarios", DEFAULT_SCENARIOS)
}

/// A function wrapper that counts its calls.
struct Counted {
    inner: Value,
    calls: Cell<usize>,
}

impl Object for Counted {
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

/// Calls operator `op` of scenario `s` in `variant` with `f` (and `prep`, when given).
fn call_op(
    interp: &mut Interp,
    s: &Scenario,
    variant: Variant,
    f: &Value,
    backend: &Value,
    prep: Option<&Value>,
) -> EvalResult {
    let mut pos = vec![f.clone()];
    if let Some(y) = &s.y {
        pos.push(crate::builtins::arrays::deep_copy(y));
    }
    if matches!(variant, Variant::Bang | Variant::ValueAndBang) {
        pos.extend(buffers(s)?);
    }
    pos.extend(prep.cloned());
    pos.push(backend.clone());
    pos.push(s.x.clone());
    pos.extend(s.tangent.clone());
    pos.extend(s.contexts.iter().cloned());
    run(interp, s.op, variant, Args::positional(pos))
}

/// Result buffers for in-place variants, shaped like the expected results.
fn buffers(s: &Scenario) -> Result<Vec<Value>, Flow> {
    let like = |v: &Value| -> Value {
        match v {
            Value::Tuple(items) => Value::Tuple(Rc::new(items.iter().map(zero_like).collect())),
            other => zero_like(other),
        }
    };
    let expected: Vec<&Value> = match s.op {
        Op::SecondDerivative => s.res2.iter().collect(),
        Op::Hessian => s.res2.iter().collect(),
        Op::Hvp => s.res2.iter().collect(),
        _ => s.res1.iter().collect(),
    };
    if expected.is_empty() {
        return Err(fail(
            ErrorKind::ArgumentError,
            "in-place scenarios need res1 (and res2 for second order)",
        ));
    }
    Ok(expected.into_iter().map(like).collect())
}

fn zero_like(v: &Value) -> Value {
    match operand(v).ok().flatten() {
        Some(o) if !o.scalar => crate::builtins::array(
            crate::show::ElType::Float64,
            o.tensor().shape(),
            vec![0.0; o.tensor().len()],
        ),
        _ => Value::Float(0.0),
    }
}

/// The largest relative difference between a result and its reference (tuples elementwise).
/// The largest errors of `got` against `want`: relative (`|u - v| / max(|v|, 1)`) and absolute.
fn max_error(got: &Value, want: &Value) -> Option<(f64, f64)> {
    // Sparse results (AutoSparse) are compared through their dense form.
    if let Value::Sparse(_) = got {
        return max_error(&crate::builtins::sparse::to_dense(got).ok()?, want);
    }
    let larger = |(r, a): (f64, f64), (s, b): (f64, f64)| (r.max(s), a.max(b));
    if let (Value::Tuple(a), Value::Tuple(b)) = (got, want) {
        return (a.len() == b.len()).then(|| {
            a.iter()
                .zip(b.iter())
                .filter_map(|(p, q)| max_error(p, q))
                .fold((0.0, 0.0), larger)
        });
    }
    let (a, b) = (operand(got).ok()??, operand(want).ok()??);
    let (p, q) = (a.tensor().to_col_major(), b.tensor().to_col_major());
    if p.len() != q.len() {
        return None;
    }
    Some(
        p.iter()
            .zip(&q)
            .map(|(u, v)| ((u - v).abs() / v.abs().max(1.0), (u - v).abs()))
            .fold((0.0, 0.0), larger),
    )
}

/// The result of an operator call that is compared with `res2` (second order) or `res1`.
fn checked_part(s: &Scenario, variant: Variant, out: &Value) -> Option<(Value, Value)> {
    let result = match (variant, out) {
        (Variant::ValueAnd | Variant::ValueAndBang, Value::Tuple(items)) => {
            items.last().cloned()?
        }
        (_, v) => v.clone(),
    };
    let reference = match s.op {
        Op::SecondDerivative | Op::Hessian | Op::Hvp => s.res2.clone()?,
        _ => s.res1.clone()?,
    };
    Some((result, reference))
}

fn is_backend(v: &Value) -> bool {
    as_backend(v).is_some() || super::sparse_ad::as_auto_sparse(v).is_some()
}

fn backends_of(v: &Value) -> Result<Vec<Value>, Flow> {
    let list = if is_backend(v) {
        vec![v.clone()]
    } else {
        elements(v)?
    };
    if let Some(bad) = list.iter().find(|b| !is_backend(b)) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("expected backends, got a {}", bad.type_name()),
        ));
    }
    Ok(list)
}

fn scenarios_of(v: &Value) -> Result<Vec<Value>, Flow> {
    let list = if as_scenario(v).is_some() {
        vec![v.clone()]
    } else {
        elements(v)?
    };
    if let Some(bad) = list.iter().find(|s| as_scenario(s).is_none()) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("expected scenarios, got a {}", bad.type_name()),
        ));
    }
    Ok(list)
}

fn backend_name(b: &Value) -> Value {
    Value::str(crate::display::repr(b))
}

fn test_differentiation_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("test_differentiation", 2, 2)?;
    let tolerance = |name: &str, default: f64| -> Result<f64, Flow> {
        args.kw(name)
            .map(|v| super::super::to_float(v, "test_differentiation"))
            .transpose()
            .map(|t| t.unwrap_or(default))
    };
    let (rtol, atol) = (tolerance("rtol", 1e-3)?, tolerance("atol", 0.0)?);
    let correctness = !matches!(args.kw("correctness"), Some(Value::Bool(false)));
    let backends = backends_of(&args.pos[0])?;
    let scenarios = scenarios_of(&args.pos[1])?;
    let mut rows = Vec::new();
    let mut progress = Progress::start("test_differentiation", backends.len() * scenarios.len());
    for b in &backends {
        for sv in &scenarios {
            let s = as_scenario(sv).expect("checked");
            progress.step(
                interp,
                &format!("{} with {}", s.name, crate::display::repr(b)),
            );
            let variants: &[Variant] = if s.in_place {
                &[Variant::Bang, Variant::ValueAndBang]
            } else {
                &[Variant::Plain, Variant::ValueAnd]
            };
            for &prepared in &[false, true] {
                for &variant in variants {
                    interp.check_interrupt()?;
                    let outcome = (|| -> Result<Value, Flow> {
                        let prep = if prepared {
                            Some(call_op(interp, s, Variant::Prepare, &s.f, b, None)?)
                        } else {
                            None
                        };
                        call_op(interp, s, variant, &s.f, b, prep.as_ref())
                    })();
                    let (passed, error, message) = match outcome {
                        Ok(_) if !correctness => (true, Value::Nothing, String::new()),
                        Ok(out) => match checked_part(s, variant, &out).and_then(|(got, want)| max_error(&got, &want)) {
                            Some((e, absolute)) if e <= rtol || absolute <= atol => (true, Value::Float(e), String::new()),
                            Some((e, absolute)) => (false, Value::Float(e), format!("relative error {e:.3e} above rtol {rtol:e} (absolute {absolute:.3e} above atol {atol:e})")),
                            None => (false, Value::Nothing, "the result does not have the shape of the reference (or no reference given)".into()),
                        },
                        Err(Flow::Error(e)) if e.kind == ErrorKind::InterruptException => return Err(Flow::Error(e)),
                        Err(Flow::Error(e)) => (false, Value::Nothing, e.headline()),
                        Err(other) => return Err(other),
                    };
                    let variant_name = match variant {
                        Variant::Plain => s.op.name().to_string(),
                        Variant::ValueAnd => format!("value_and_{}", s.op.name()),
                        Variant::Bang => format!("{}!", s.op.name()),
                        _ => format!("value_and_{}!", s.op.name()),
                    };
                    rows.push(vec![
                        backend_name(b),
                        Value::str(s.name.clone()),
                        Value::str(variant_name),
                        Value::Bool(prepared),
                        Value::Bool(passed),
                        error,
                        Value::str(message),
                    ]);
                }
            }
        }
    }
    progress.finish(interp);
    Ok(Value::Object(Rc::new(Box::new(Table {
        title: "test_differentiation".into(),
        columns: vec![
            "backend", "scenario", "operator", "prepared", "passed", "error", "message",
        ],
        rows,
    }))))
}

/// The fastest of repeated runs: its time and allocations, and the number of runs.
struct Timing {
    time: Duration,
    allocations: Allocations,
    samples: usize,
}

/// Runs `f` repeatedly (at least 3 times, about 0.2 s) and keeps the fastest run.
fn time_it(
    interp: &mut Interp,
    mut f: impl FnMut(&mut Interp) -> Result<(), Flow>,
) -> Result<Timing, Flow> {
    let started = Instant::now();
    let mut best = Timing {
        time: Duration::MAX,
        allocations: Allocations::default(),
        samples: 0,
    };
    while best.samples < 3
        || (started.elapsed() < Duration::from_millis(200) && best.samples < 10_000)
    {
        interp.check_interrupt()?;
        let (t, before) = (Instant::now(), Allocations::now());
        f(interp)?;
        let (time, allocations) = (t.elapsed(), Allocations::now().since(before));
        if time < best.time {
            (best.time, best.allocations) = (time, allocations);
        }
        best.samples += 1;
    }
    Ok(best)
}

fn benchmark_differentiation_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("benchmark_differentiation", 2, 2)?;
    let mode = match args.kw("benchmark") {
        Some(Value::Symbol(s)) => s.as_str().to_string(),
        _ => "prepared".into(),
    };
    if !matches!(mode.as_str(), "prepared" | "full") {
        return Err(fail(
            ErrorKind::ArgumentError,
            "benchmark must be :prepared or :full",
        ));
    }
    let backends = backends_of(&args.pos[0])?;
    let scenarios = scenarios_of(&args.pos[1])?;
    let mut rows = Vec::new();
    let mut progress = Progress::start(
        "benchmark_differentiation",
        backends.len() * scenarios.len(),
    );
    for b in &backends {
        for sv in &scenarios {
            let s = as_scenario(sv).expect("checked");
            progress.step(
                interp,
                &format!("{} with {}", s.name, crate::display::repr(b)),
            );
            let counted = Value::Object(Rc::new(Box::new(Counted {
                inner: s.f.clone(),
                calls: Cell::new(0),
            })));
            let calls_of = |v: &Value| match v {
                Value::Object(o) => o
                    .as_any()
                    .downcast_ref::<Counted>()
                    .map_or(0, |c| c.calls.replace(0)),
                _ => 0,
            };
            let variant = if s.in_place {
                Variant::Bang
            } else {
                Variant::Plain
            };
            let prep = call_op(interp, s, Variant::Prepare, &counted, b, None)?;
            calls_of(&counted);
            // One call to count evaluations of f per operator call.
            call_op(interp, s, variant, &counted, b, Some(&prep))?;
            let calls = calls_of(&counted);
            let length = operand(&s.x)?.map_or(1, |o| o.tensor().len());
            let mut record = |prepared: bool, calls: usize, timing: Timing| {
                rows.push(vec![
                    backend_name(b),
                    Value::str(s.name.clone()),
                    Value::str(s.op.name()),
                    Value::Bool(prepared),
                    Value::Int(calls as i64),
                    Value::Int(timing.samples as i64),
                    Value::Int(1),
                    Value::Float(timing.time.as_secs_f64()),
                    Value::Int(timing.allocations.count as i64),
                    Value::Int(timing.allocations.bytes as i64),
                    Value::Int(length as i64),
                ]);
            };
            let timing = time_it(interp, |me| {
                call_op(me, s, variant, &counted, b, Some(&prep)).map(drop)
            })?;
            record(true, calls, timing);
            if mode == "full" {
                // Without a preparation f runs as written: its calls are counted apart.
                calls_of(&counted);
                call_op(interp, s, variant, &counted, b, None)?;
                let unprepared_calls = calls_of(&counted);
                let timing = time_it(interp, |me| {
                    call_op(me, s, variant, &counted, b, None).map(drop)
                })?;
                record(false, unprepared_calls, timing);
            }
        }
    }
    progress.finish(interp);
    Ok(Value::Object(Rc::new(Box::new(Table {
        title: "benchmark_differentiation".into(),
        columns: vec![
            "backend", "scenario", "operator", "prepared", "calls", "samples", "evals", "time",
            "allocs", "bytes", "length",
        ],
        rows,
    }))))
}

crate::builtins! {
    "Scenario" => scenario_, false, "    Scenario(:op, f, x, [t], [contexts...]; res1, res2, name)\n    Scenario{:op, :out}(f, x; res1)\n    Scenario(:op, f!, y, x; ...)\n\nA test case for one operator (`:derivative`, `:gradient`, `:jacobian`, `:hessian`, `:hvp`, `:pushforward`, `:pullback`, `:second_derivative`): the function, the input, the tangent for pushforward/pullback/hvp, and the expected results (`res2` for second-order results). `:in` scenarios test the in-place variants.\n\n```\njulia> Scenario{:gradient, :out}(x -> sum(abs2, x), [1.0, 2.0]; res1=[2.0, 4.0])\nScenario{:gradient, :out} #anonymous: 2-element Vector{Float64}\n```";
    "default_scenarios" => default_scenarios_, false, "    default_scenarios()\n\nA set of 19 scenarios with closed-form results covering every operator and input shape (numbers, vectors, matrices), after DifferentiationInterfaceTest's defaults: one-argument functions in their out-of-place and `:in` (in-place `op!`) variants, two-argument functions `f!(y, x)` (derivative, Jacobian, pushforward), and a `Constant` context.\n\n```\njulia> t = test_differentiation(AutoForwardDiff(), default_scenarios());\n\njulia> all(row -> row.passed, t)\ntrue\n```";
    "sparse_scenarios" => sparse_scenarios_, false, "    sparse_scenarios()\n\nJacobian and Hessian scenarios with banded structure (`diff(x) .^ 2`, `diff(x) .^ 3`, `sum(diff(x) .^ 3)`) and closed-form references, for testing `AutoSparse` backends.\n\n```\njulia> t = test_differentiation([AutoSparse(AutoForwardDiff())], sparse_scenarios());\n\njulia> all(row -> row.passed, t)\ntrue\n```";
    "test_differentiation" => test_differentiation_, false, "    test_differentiation(backends, scenarios; correctness=true, rtol=1e-3, atol=0)\n\nRuns every backend on every scenario, with and without preparation, in the scenario's variants, and returns a table: one row per backend × scenario × variant with `passed`, the largest relative `error` (`|got - want| / max(|want|, 1)`), and a `message` saying why a row failed. A row passes when the relative error is at most `rtol` or the absolute error at most `atol`; `correctness=false` only checks that every call runs. A progress bar on stderr shows which backend and scenario runs.\n\n```\njulia> t = test_differentiation([AutoForwardDiff(), AutoFiniteDiff()], default_scenarios());\n\njulia> all(row -> row.passed, t)\ntrue\n```";
    "benchmark_differentiation" => benchmark_differentiation_, false, "    benchmark_differentiation(backends, scenarios; benchmark=:prepared)\n\nTimes every backend on every scenario (a progress bar on stderr shows which one runs, redrawn in place in the terminal and in notebooks) and returns a table with the columns backend, scenario, operator, prepared, calls (evaluations of f per operator call; none when the preparation runs a recording of f, see `?AutoForwardDiff`), samples, evals, time (seconds, fastest sample), allocs and bytes (allocations of the fastest sample, the interpreter's own included, as Julia counts them), and length (the input size). `benchmark=:full` adds the unprepared timings. `plot(table)` draws time against input size.\n\n```\njulia> scenarios = [Scenario{:gradient, :out}(x -> sum(abs2, x), rand(n); res1=nothing) for n in [10, 100]];\n\njulia> df = benchmark_differentiation([AutoForwardDiff()], scenarios; benchmark=:full);\n```";
}
