//! Comparing backends, as DifferentiationInterfaceTest does: `test_differentiation` checks
//! every backend on every scenario (see `scenarios.rs`) and `benchmark_differentiation` times
//! them; both return tables.

use super::backends::as_backend;
use super::operators::{run, Op, Variant};
use super::scenarios::{as_scenario, Scenario};
use crate::builtins::progress::Progress;
use crate::builtins::table::Table;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::convert::operand;
use crate::value::equality::values_equal;
use crate::value::iterate::elements;
use crate::value::Value;
use difflab_ad::di::Backend;
use difflab_syntax::Name;
use std::rc::Rc;

/// The arguments of one operator call: the scenario's own, or those preparation gets.
pub(super) struct CallPoint {
    y: Option<Value>,
    x: Value,
    tangent: Option<Value>,
    contexts: Vec<Value>,
}

impl CallPoint {
    pub(super) fn execution(s: &Scenario) -> CallPoint {
        CallPoint {
            y: s.function_in_place.then(|| s.y.clone()),
            x: s.x.clone(),
            tangent: s.tangent.clone(),
            contexts: s.contexts.clone(),
        }
    }

    /// DifferentiationInterfaceTest prepares on `prep_args` (zeros by default), not on the
    /// point of execution, so that a preparation which kept values would show.
    pub(super) fn preparation(s: &Scenario) -> CallPoint {
        let exec = CallPoint::execution(s);
        CallPoint {
            y: exec.y.map(|y| s.prep_arg("y").unwrap_or(y)),
            x: s.prep_arg("x").unwrap_or(exec.x),
            tangent: exec.tangent.map(|t| s.prep_arg("t").unwrap_or(t)),
            contexts: match s.prep_arg("contexts") {
                Some(Value::Tuple(items)) => items.to_vec(),
                _ => exec.contexts,
            },
        }
    }
}

/// Calls operator `op` in `variant` with `f` at `point` (and `prep`, when given), with result
/// buffers shaped like the scenario's results for in-place variants.
#[allow(clippy::too_many_arguments)]
pub(super) fn call_op(
    interp: &mut Interp,
    s: &Scenario,
    op: Op,
    variant: Variant,
    f: &Value,
    backend: &Value,
    prep: Option<&Value>,
    point: &CallPoint,
) -> EvalResult {
    let mut pos = vec![f.clone()];
    if let Some(y) = &point.y {
        pos.push(crate::builtins::arrays::deep_copy(y));
    }
    if matches!(variant, Variant::Bang | Variant::ValueAndBang) {
        pos.extend(buffers(s, op)?);
    }
    pos.extend(prep.cloned());
    pos.push(backend.clone());
    pos.push(point.x.clone());
    pos.extend(point.tangent.clone());
    pos.extend(point.contexts.iter().cloned());
    run(interp, op, variant, Args::positional(pos))
}

/// The preparation of the scenario's operator for `f` at `point`.
pub(super) fn prepare(
    interp: &mut Interp,
    s: &Scenario,
    f: &Value,
    backend: &Value,
    point: &CallPoint,
) -> EvalResult {
    call_op(interp, s, s.op, Variant::Prepare, f, backend, None, point)
}

/// `Ok(Err(message))` for an error raised by the code under test, which the tables report;
/// interrupts and everything else go on.
pub(super) fn caught<T>(outcome: Result<T, Flow>) -> Result<Result<T, String>, Flow> {
    match outcome {
        Ok(v) => Ok(Ok(v)),
        Err(Flow::Error(e)) if e.kind != ErrorKind::InterruptException => Ok(Err(e.headline())),
        Err(other) => Err(other),
    }
}

/// Result buffers for in-place variants of `op`, shaped like the expected results.
fn buffers(s: &Scenario, op: Op) -> Result<Vec<Value>, Flow> {
    let like = |v: &Option<Value>| -> Result<Value, Flow> {
        match v {
            Some(Value::Tuple(items)) => Ok(Value::tuple(items.iter().map(zero_like).collect())),
            Some(other) => Ok(zero_like(other)),
            None => Err(fail(
                ErrorKind::ArgumentError,
                "in-place scenarios need res1 (and res2 for second order) to shape the results",
            )),
        }
    };
    Ok(match op {
        Op::Hessian | Op::SecondDerivative | Op::Hvp => vec![like(&s.res2)?],
        Op::ValueGradientAndHessian
        | Op::ValueDerivativeAndSecondDerivative
        | Op::GradientAndHvp => {
            vec![like(&s.res1)?, like(&s.res2)?]
        }
        _ => vec![like(&s.res1)?],
    })
}

/// A buffer like `v` (DIT's `similar`): a sparse matrix keeps its pattern.
fn zero_like(v: &Value) -> Value {
    if let Value::Sparse(s) = v {
        let mut copy = s.borrow().clone();
        copy.matrix.data_mut().fill(0.0);
        return Value::Sparse(Rc::new(std::cell::RefCell::new(copy)));
    }
    match operand(v).ok().flatten() {
        Some(o) if !o.scalar => crate::builtins::array(
            crate::show::ElType::Float64,
            o.tensor().shape(),
            vec![0.0; o.tensor().len()],
        ),
        _ => Value::Float(0.0),
    }
}

/// The errors of `got` against `want` as Julia's `isapprox` measures them (for tuples, the
/// worst of their entries): relative (`‖u - v‖ / max(‖u‖, ‖v‖)`, 0 when both are zero) and
/// absolute (`‖u - v‖`).
fn max_error(got: &Value, want: &Value) -> Option<(f64, f64)> {
    // Sparse results (AutoSparse) and references are compared through their dense forms.
    if let Value::Sparse(_) = got {
        return max_error(&crate::builtins::sparse::to_dense(got).ok()?, want);
    }
    if let Value::Sparse(_) = want {
        return max_error(got, &crate::builtins::sparse::to_dense(want).ok()?);
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
    let norm = |v: &mut dyn Iterator<Item = f64>| v.map(|e| e * e).sum::<f64>().sqrt();
    let difference = norm(&mut p.iter().zip(&q).map(|(u, v)| u - v));
    let scale = norm(&mut p.iter().copied()).max(norm(&mut q.iter().copied()));
    let relative = if difference == 0.0 {
        0.0
    } else {
        difference / scale
    };
    Some((relative, difference))
}

/// The stored entries of a sparse result, or the nonzeros of a dense one (DIT's `mynnz`).
fn nonzeros(v: &Value) -> Option<usize> {
    match v {
        Value::Sparse(s) => Some(s.borrow().matrix.nnz()),
        other => operand(other).ok().flatten().map(|o| {
            o.tensor()
                .to_col_major()
                .iter()
                .filter(|x| **x != 0.0)
                .count()
        }),
    }
}

fn is_backend(v: &Value) -> bool {
    as_backend(v).is_some() || super::sparse_ad::as_auto_sparse(v).is_some() || is_user_backend(v)
}

/// A value of a user type declared `<: ADTypes.AbstractADType`: the tables take it as a
/// backend, and its calls fail (no operator knows it), as DifferentiationInterfaceTest's do
/// for a backend without methods.
fn is_user_backend(v: &Value) -> bool {
    matches!(v, Value::Struct(_))
        && crate::types::library_abstract_type("AbstractADType")
            .is_some_and(|t| crate::types::Type::of(v).is_subtype(&t))
}

pub(super) fn backends_of(v: &Value) -> Result<Vec<Value>, Flow> {
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

pub(super) fn scenarios_of(v: &Value) -> Result<Vec<Value>, Flow> {
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

pub(super) fn backend_name(b: &Value) -> Value {
    Value::str(crate::display::repr(b))
}

/// DifferentiationInterfaceTest's `compatible`: sparse backends take Jacobians and Hessians
/// only (mixed-mode ones Jacobians only), second-order backends second-order operators only.
pub(super) fn compatible(backend: &Value, s: &Scenario) -> bool {
    let sparse = super::sparse_ad::as_auto_sparse(backend);
    let dense = sparse.map(|a| &a.dense).or_else(|| as_backend(backend));
    let second_order = matches!(dense, Some(Backend::SecondOrder { .. }));
    let mixed = sparse.is_some_and(|a| a.mixed_reverse.is_some());
    (sparse.is_none() || matches!(s.op, Op::Jacobian | Op::Hessian))
        && (!mixed || s.op == Op::Jacobian)
        && (!second_order || s.order() == 2)
}

/// The call that returns the value with the result (`value_and_gradient`,
/// `value_gradient_and_hessian`, `gradient_and_hvp`, ...) and the one that returns the result
/// alone, each in the scenario's operator place.
pub(super) fn checked_calls(s: &Scenario) -> [(Op, Variant, String); 2] {
    let (plain, bang) = if s.operator_in_place {
        (Variant::Bang, Variant::ValueAndBang)
    } else {
        (Variant::Plain, Variant::ValueAnd)
    };
    let suffix = if s.operator_in_place { "!" } else { "" };
    let valued = match s.op {
        Op::SecondDerivative => (Op::ValueDerivativeAndSecondDerivative, plain),
        Op::Hessian => (Op::ValueGradientAndHessian, plain),
        Op::Hvp => (Op::GradientAndHvp, plain),
        op => (op, bang),
    };
    let valued_name = match valued.0 {
        Op::ValueDerivativeAndSecondDerivative
        | Op::ValueGradientAndHessian
        | Op::GradientAndHvp => valued.0.name().to_string(),
        op => format!("value_and_{}", op.name()),
    };
    [
        (valued.0, valued.1, format!("{valued_name}{suffix}")),
        (s.op, plain, format!("{}{suffix}", s.op.name())),
    ]
}

/// What a call returned, split into the parts compared with the scenario: the primal value
/// (when the call returns it), the first-order and the second-order result.
fn parts(s: &Scenario, op: Op, variant: Variant, out: &Value) -> [Option<Value>; 3] {
    let item = |k: usize| match out {
        Value::Tuple(items) => items.get(k).cloned(),
        _ => None,
    };
    match (op, variant) {
        (Op::ValueDerivativeAndSecondDerivative | Op::ValueGradientAndHessian, _) => {
            [item(0), item(1), item(2)]
        }
        (Op::GradientAndHvp, _) => [None, item(0), item(1)],
        (_, Variant::ValueAnd | Variant::ValueAndBang) => [item(0), item(1), None],
        _ if s.order() == 2 => [None, None, Some(out.clone())],
        _ => [None, Some(out.clone()), None],
    }
}

/// How results are compared: the tolerances, or the user's `isapprox`.
struct Comparison {
    rtol: f64,
    atol: f64,
    isapprox: Option<Value>,
}

impl Comparison {
    /// `Ok(error)` when `got` matches `want` (the relative error, when measured), else the reason.
    fn check(
        &self,
        interp: &mut Interp,
        what: &str,
        got: &Value,
        want: &Value,
    ) -> Result<Result<Option<f64>, String>, Flow> {
        if let Some(isapprox) = &self.isapprox {
            let kw = vec![
                (difflab_syntax::name!("rtol"), Value::Float(self.rtol)),
                (difflab_syntax::name!("atol"), Value::Float(self.atol)),
            ];
            let same = interp.call_value(isapprox, vec![got.clone(), want.clone()], kw)?;
            return Ok(if matches!(same, Value::Bool(true)) {
                Ok(None)
            } else {
                Err(format!("{what}: isapprox is false"))
            });
        }
        Ok(match max_error(got, want) {
            Some((e, absolute)) if e <= self.rtol || absolute <= self.atol => Ok(Some(e)),
            Some((e, absolute)) => Err(format!(
                "{what}: relative error {e:.3e} above rtol {:e} (absolute {absolute:.3e} above atol {:e})",
                self.rtol, self.atol
            )),
            None => Err(format!("{what}: the result does not have the shape of the reference")),
        })
    }
}

/// The options of `test_differentiation`.
struct TestOptions {
    correctness: bool,
    comparison: Comparison,
    sparsity: bool,
    reprepare: bool,
    scenario_intact: bool,
}

/// One operator call of a scenario, checked: `Ok(largest relative error)` or the reason it
/// failed. The call runs twice (as upstream does, so a preparation that is changed by its first
/// use shows), prepared with and without `strict`.
fn checked_call(
    interp: &mut Interp,
    s: &Scenario,
    backend: &Value,
    (op, variant): (Op, Variant),
    prepared: bool,
    options: &TestOptions,
) -> Result<Result<Option<f64>, String>, Flow> {
    let execution = CallPoint::execution(s);
    let preparation = if options.reprepare
        && size_of(&s.x) != s.prep_arg("x").as_ref().map(size_of).unwrap_or_default()
    {
        CallPoint::execution(s)
    } else {
        CallPoint::preparation(s)
    };
    let mut preps = Vec::new();
    if prepared {
        for strict in [true, false] {
            let prep = if strict {
                prepare(interp, s, &s.f, backend, &preparation)
            } else {
                prep_nonstrict(interp, s, backend, &preparation)
            };
            match caught(prep)? {
                Ok(p) => preps.push(Some(p)),
                Err(message) => return Ok(Err(message)),
            }
        }
    } else {
        preps.push(None);
    }
    let mut worst: Option<f64> = None;
    for prep in &preps {
        for _ in 0..2 {
            let call = call_op(
                interp,
                s,
                op,
                variant,
                &s.f,
                backend,
                prep.as_ref(),
                &execution,
            );
            let out = match caught(call)? {
                Ok(out) => out,
                Err(message) => return Ok(Err(message)),
            };
            if !options.correctness {
                continue;
            }
            let [y, res1, res2] = parts(s, op, variant, &out);
            let expected = [Some(s.y.clone()), s.res1.clone(), s.res2.clone()];
            for ((got, want), what) in [y, res1, res2]
                .iter()
                .zip(&expected)
                .zip(["value", "res1", "res2"])
            {
                let Some(got) = got else { continue };
                let Some(want) = want else {
                    return Ok(Err(format!("no reference {what} to compare with")));
                };
                match options.comparison.check(interp, what, got, want)? {
                    Ok(e) => {
                        worst = match (worst, e) {
                            (Some(w), Some(e)) => Some(w.max(e)),
                            (w, e) => w.or(e),
                        }
                    }
                    Err(reason) => return Ok(Err(reason)),
                }
                if options.sparsity
                    && what != "value"
                    && matches!(s.op, Op::Jacobian | Op::Hessian)
                    && nonzeros(got) != nonzeros(want)
                {
                    return Ok(Err(format!(
                        "{what}: {:?} nonzeros where the reference has {:?}",
                        nonzeros(got),
                        nonzeros(want)
                    )));
                }
            }
        }
    }
    Ok(Ok(worst))
}

/// A preparation with `strict=Val(false)`.
fn prep_nonstrict(
    interp: &mut Interp,
    s: &Scenario,
    backend: &Value,
    point: &CallPoint,
) -> EvalResult {
    let mut pos = vec![s.f.clone()];
    pos.extend(point.y.as_ref().map(crate::builtins::arrays::deep_copy));
    pos.push(backend.clone());
    pos.push(point.x.clone());
    pos.extend(point.tangent.clone());
    pos.extend(point.contexts.iter().cloned());
    let strict =
        crate::builtins::call_builtin(interp, "Val", vec![Value::Bool(false)], Vec::new(), false)?;
    let name = format!("prepare_{}", s.op.name());
    crate::builtins::call_builtin(
        interp,
        &name,
        pos,
        vec![(difflab_syntax::name!("strict"), strict)],
        false,
    )
}

fn size_of(v: &Value) -> Vec<usize> {
    operand(v)
        .ok()
        .flatten()
        .map(|o| o.tensor().shape().to_vec())
        .unwrap_or_default()
}

/// Deep copies of what a scenario holds, to check afterwards that testing left it intact.
fn snapshot(s: &Scenario) -> Vec<Value> {
    let mut held = vec![s.x.clone(), s.y.clone()];
    held.extend(s.tangent.clone());
    held.extend(s.res1.clone());
    held.extend(s.res2.clone());
    held.iter()
        .map(crate::builtins::arrays::deep_copy)
        .collect()
}

fn symbol_list(v: Option<&Value>, name: &str) -> Result<Vec<String>, Flow> {
    let Some(v) = v else { return Ok(Vec::new()) };
    elements(v)?
        .iter()
        .map(|e| match e {
            Value::Symbol(s) => Ok(s.as_str().to_string()),
            other => Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "{name} takes a vector of operator symbols, got a {}",
                    other.type_name()
                ),
            )),
        })
        .collect()
}

/// The table title: `testset_name` when given, else the builtin's name.
pub(super) fn title_of(args: &Args, default: &str) -> String {
    match args.kw("testset_name") {
        None | Some(Value::Nothing) => default.to_string(),
        Some(v) => crate::display::print_string(v),
    }
}

/// The scenarios of `v` whose operators are not in the keyword `excluded`.
pub(super) fn selected_scenarios(v: &Value, args: &Args) -> Result<Vec<Value>, Flow> {
    let excluded = symbol_list(args.kw("excluded"), "excluded")?;
    Ok(scenarios_of(v)?
        .into_iter()
        .filter(|v| {
            !excluded
                .iter()
                .any(|e| e == as_scenario(v).expect("checked").op.name())
        })
        .collect())
}

/// Runs `f` on every backend with every scenario it is compatible with, stepping a progress
/// bar titled `title` when `logging` (as DIT logs its progress).
pub(super) fn each_compatible_pair(
    interp: &mut Interp,
    (title, logging): (&'static str, bool),
    backends: &[Value],
    scenarios: &[Value],
    mut f: impl FnMut(&mut Interp, &Value, &Scenario) -> Result<(), Flow>,
) -> Result<(), Flow> {
    let mut progress = logging.then(|| Progress::start(title, backends.len() * scenarios.len()));
    for b in backends {
        for sv in scenarios {
            let s = as_scenario(sv).expect("checked");
            if let Some(p) = progress.as_mut() {
                p.step(
                    interp,
                    &format!("{} with {}", s.show(), crate::display::repr(b)),
                );
            }
            if compatible(b, s) {
                f(interp, b, s)?;
            }
        }
    }
    if let Some(p) = progress {
        p.finish(interp);
    }
    Ok(())
}

fn test_differentiation_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("test_differentiation", 1, 2)?;
    args.keywords(
        "test_differentiation",
        &[
            "testset_name",
            "correctness",
            "type_stability",
            "allocations",
            "skip_allocations",
            "benchmark",
            "excluded",
            "detailed",
            "logging",
            "isapprox",
            "atol",
            "rtol",
            "scenario_intact",
            "sparsity",
            "reprepare",
            "count_calls",
            "benchmark_test",
            "benchmark_seconds",
            "benchmark_aggregation",
            "adaptive_batchsize",
        ],
    )?;
    let tolerance = |name: &str, default: f64| -> Result<f64, Flow> {
        args.kw(name)
            .map(|v| super::super::to_float(v, "test_differentiation"))
            .transpose()
            .map(|t| t.unwrap_or(default))
    };
    // Julia's inferred types (JET) and allocation-free code (AllocCheck) have no counterpart in
    // an interpreter, so these categories are accepted, for code written for DIT, and check
    // nothing; the values are DIT's own.
    for name in ["type_stability", "allocations"] {
        match args.kw(name) {
            None => {}
            Some(Value::Symbol(s)) if matches!(s.as_str(), "none" | "prepared" | "full") => {}
            Some(other) => {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    format!(
                        "{name} is :none, :prepared or :full, got {}",
                        crate::display::repr(other)
                    ),
                ))
            }
        }
    }
    let options = TestOptions {
        correctness: args.flag("correctness", true)?,
        comparison: Comparison {
            rtol: tolerance("rtol", 1e-3)?,
            atol: tolerance("atol", 0.0)?,
            isapprox: args.kw("isapprox").cloned(),
        },
        sparsity: args.flag("sparsity", false)?,
        reprepare: args.flag("reprepare", true)?,
        scenario_intact: args.flag("scenario_intact", true)?,
    };
    let logging = args.flag("logging", false)?;
    args.flag("detailed", false)?;
    for flag in ["adaptive_batchsize", "count_calls", "benchmark_test"] {
        args.flag(flag, true)?;
    }
    args.flag("skip_allocations", false)?;
    // What benchmark_differentiation takes is handed on when a benchmark is asked for.
    let benchmark_keywords: Vec<(Name, Value)> = super::benchmarking::KEYWORDS
        .iter()
        .filter_map(|k| args.kw(k).map(|v| (Name::new(k), v.clone())))
        .collect();
    let title = title_of(&args, "test_differentiation");
    let backends = backends_of(&args.pos[0])?;
    let scenarios = match args.pos.get(1) {
        Some(v) => v.clone(),
        None => super::scenarios::default_scenarios(interp)?,
    };
    let scenarios = selected_scenarios(&scenarios, &args)?;
    let mut rows = Vec::new();
    each_compatible_pair(
        interp,
        ("test_differentiation", logging),
        &backends,
        &scenarios,
        |interp, b, s| {
            let before = snapshot(s);
            let first = rows.len();
            for prepared in [false, true] {
                for (op, variant, label) in checked_calls(s) {
                    interp.check_interrupt()?;
                    let (passed, error, message) =
                        match checked_call(interp, s, b, (op, variant), prepared, &options)? {
                            Ok(e) => (true, e.map_or(Value::Nothing, Value::Float), String::new()),
                            Err(reason) => (false, Value::Nothing, reason),
                        };
                    rows.push(vec![
                        backend_name(b),
                        Value::str(s.show()),
                        Value::str(label),
                        Value::Bool(prepared),
                        Value::Bool(passed),
                        error,
                        Value::str(message),
                    ]);
                }
            }
            let intact = snapshot(s)
                .iter()
                .zip(&before)
                .all(|(a, b)| values_equal(a, b));
            if options.scenario_intact && !intact {
                for row in &mut rows[first..] {
                    row[4] = Value::Bool(false);
                    row[6] = Value::str(
                        "testing changed the scenario (its input, output, tangents or results)",
                    );
                }
            }
            Ok(())
        },
    )?;
    let table = Value::Object(Rc::new(Box::new(Table {
        title,
        columns: vec![
            "backend", "scenario", "operator", "prepared", "passed", "error", "message",
        ],
        rows,
    })));
    match args.kw("benchmark") {
        None => Ok(table),
        Some(Value::Symbol(s)) if s.as_str() == "none" => Ok(table),
        Some(_) => {
            let mut pos = vec![args.pos[0].clone()];
            pos.extend(args.pos.get(1).cloned());
            crate::builtins::call_builtin(
                interp,
                "benchmark_differentiation",
                pos,
                benchmark_keywords,
                false,
            )
        }
    }
}

crate::builtins! {
    "test_differentiation" => test_differentiation_, false, "    test_differentiation(backends, scenarios=default_scenarios(); correctness=true, rtol=1e-3, atol=0, excluded=Symbol[], sparsity=false, scenario_intact=true, reprepare=true, isapprox, logging=false, testset_name, benchmark=:none)\n\nRuns every backend on every scenario it is compatible with (sparse backends take Jacobians and Hessians, `SecondOrder` backends second-order operators), as DifferentiationInterfaceTest does, and returns a table: one row per backend × scenario × call × prepared, where the calls are the one returning the value too (`value_and_gradient`, `value_gradient_and_hessian`, `gradient_and_hvp`, ...) and the operator alone, in the scenario's operator place. Each call runs twice; prepared, with a preparation made on the scenario's `prep_args` (zeros by default; on the input itself when its size differs, unless `reprepare=false`), with `strict=Val(true)` and `Val(false)`. A row passes when the value and results match the scenario's (as Julia's `isapprox`: the relative error `‖got - want‖ / max(‖got‖, ‖want‖)` at most `rtol`, or the absolute `‖got - want‖` at most `atol`; tuples entry by entry; or the user's `isapprox(got, want; atol, rtol)`), when `sparsity=true` Jacobians and Hessians have the reference's number of nonzeros, and when testing left the scenario intact; `message` says why a row failed. `correctness=false` only checks that every call runs; `excluded` drops operators (`FIRST_ORDER`, `SECOND_ORDER`); `logging=true` shows a progress bar on stderr; `testset_name` titles the table; `benchmark=:prepared` or `:full` returns `benchmark_differentiation`'s table instead; `type_stability` and `allocations` (`:none`, `:prepared`, `:full`, and `skip_allocations`) are accepted for code written for DIT and check nothing: an interpreter has no inferred types or allocation-free compiled code to check.\n\n```\njulia> t = test_differentiation([AutoForwardDiff(), AutoFiniteDiff()], default_scenarios());\n\njulia> all(row -> row.passed, t)\ntrue\n```";
}
