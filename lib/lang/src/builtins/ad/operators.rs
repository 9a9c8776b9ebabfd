//! The operators of the differentiation interface and their variants, as builtins:
//! `op(f, [prep,] backend, x, [t], contexts...)`, `op!(f, result, ...)`, `value_and_op`,
//! `value_and_op!`, `prepare_op` and `prepare_op_same_point`; one-argument `f(x)` and
//! two-argument `f!(y, x)` functions; the preparation may also come last (older documents).
//!
//! [`parse`] sorts the positional arguments, [`evaluate`] adapts the interpreted function to a
//! `Tensor → Tensor` closure, and [`run`] calls `difflab_ad::di` and shapes the results.

use super::backends::as_backend;
use super::contexts::as_context;
use super::explain::timed;
use super::prep::{as_prep, Prep, StandIn};
use super::recording;
use crate::builtins::sparse::sparse_value;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::operand;
use crate::value::{Array, Value};
use difflab_ad::di::primitives::BasisChunks;
use difflab_ad::di::{operators as di, primitives, sparse, Backend};
use difflab_ad::{ops, Tensor};
use std::cell::RefCell;
use std::rc::Rc;

/// The operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Op {
    Derivative,
    SecondDerivative,
    Gradient,
    Jacobian,
    Hessian,
    Pushforward,
    Pullback,
    Hvp,
    ValueGradientAndHessian,
    ValueDerivativeAndSecondDerivative,
    GradientAndHvp,
}

/// The variants of an operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// `op(f, backend, x)`: the result.
    Plain,
    /// `op!(f, result, backend, x)`: the result written into the given array.
    Bang,
    /// `value_and_op(f, backend, x)`: `(f(x), result)`.
    ValueAnd,
    /// `value_and_op!(f, result, backend, x)`.
    ValueAndBang,
    /// `prepare_op(f, backend, x)`.
    Prepare,
    /// `prepare_op_same_point(f, backend, x, t)`.
    PrepareSamePoint,
}

impl Op {
    /// The operator's name.
    pub fn name(self) -> &'static str {
        match self {
            Op::Derivative => "derivative",
            Op::SecondDerivative => "second_derivative",
            Op::Gradient => "gradient",
            Op::Jacobian => "jacobian",
            Op::Hessian => "hessian",
            Op::Pushforward => "pushforward",
            Op::Pullback => "pullback",
            Op::Hvp => "hvp",
            Op::ValueGradientAndHessian => "value_gradient_and_hessian",
            Op::ValueDerivativeAndSecondDerivative => "value_derivative_and_second_derivative",
            Op::GradientAndHvp => "gradient_and_hvp",
        }
    }

    /// The name in type position (`GradientPrep`).
    pub fn title(self) -> String {
        self.family()
            .name()
            .split('_')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect::<String>())
                    .unwrap_or_default()
            })
            .collect()
    }

    /// The operator whose preparation this one shares.
    pub fn family(self) -> Op {
        match self {
            Op::ValueGradientAndHessian => Op::Hessian,
            Op::ValueDerivativeAndSecondDerivative => Op::SecondDerivative,
            Op::GradientAndHvp => Op::Hvp,
            other => other,
        }
    }

    fn has_tangent(self) -> bool {
        matches!(
            self,
            Op::Pushforward | Op::Pullback | Op::Hvp | Op::GradientAndHvp
        )
    }

    fn buffers(self) -> usize {
        match self {
            Op::ValueGradientAndHessian
            | Op::ValueDerivativeAndSecondDerivative
            | Op::GradientAndHvp => 2,
            _ => 1,
        }
    }

    fn supports_two_arg(self) -> bool {
        matches!(
            self,
            Op::Derivative | Op::Jacobian | Op::Pushforward | Op::Pullback
        )
    }
}

impl Parsed {
    /// The size of the output array of `f!(y, x)`, if the function is in place.
    pub fn y_shape(&self) -> Option<Vec<usize>> {
        self.y.as_ref().map(|y| match y {
            Value::Array(a) => a.borrow().data.shape().to_vec(),
            _ => Vec::new(),
        })
    }
}

/// The sorted arguments of an operator call.
pub struct Parsed {
    f: Value,
    y: Option<Value>,
    buffers: Vec<Value>,
    prep: Option<Value>,
    /// The backend.
    pub(super) backend: Backend,
    x: Value,
    tangent: Option<Value>,
    /// The context arguments after the input.
    pub(super) contexts: Vec<Value>,
}

fn argument_error(message: impl Into<String>) -> Flow {
    fail(ErrorKind::ArgumentError, message)
}

/// Sorts the positional arguments of `op` in `variant`.
fn parse(op: Op, variant: Variant, mut pos: Vec<Value>) -> Result<Parsed, Flow> {
    let name = op.name();
    if pos.is_empty() {
        return Err(fail(
            ErrorKind::MethodError,
            format!("{name} needs a function, a backend and an input"),
        ));
    }
    let f = pos.remove(0);
    let b = pos.iter().position(|v| as_backend(v).is_some()).ok_or_else(|| {
        argument_error(format!(
            "{name}: no backend among the arguments; pass one such as AutoForwardDiff() (available: {})",
            super::backends::IMPLEMENTED
        ))
    })?;
    let backend = as_backend(&pos[b]).expect("found above").clone();
    let mut middle: Vec<Value> = pos[..b].to_vec();
    let mut after: Vec<Value> = pos[b + 1..].to_vec();
    let mut prep = None;
    if middle.last().is_some_and(|v| as_prep(v).is_some()) {
        prep = middle.pop();
    } else if after.last().is_some_and(|v| as_prep(v).is_some()) {
        prep = after.pop();
    }
    let expected = match variant {
        Variant::Bang | Variant::ValueAndBang => op.buffers(),
        _ => 0,
    };
    let y = match middle.len() {
        n if n == expected => None,
        n if n == expected + 1 && op.supports_two_arg() => Some(middle.remove(0)),
        n => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("{name}: unexpected {n} argument(s) between the function and the backend"),
            ))
        }
    };
    if after.is_empty() {
        return Err(fail(
            ErrorKind::MethodError,
            format!("{name}: the input x is missing after the backend"),
        ));
    }
    let x = after.remove(0);
    let tangent = if op.has_tangent() {
        if after.is_empty() || as_context(&after[0]).is_some() {
            return Err(fail(
                ErrorKind::MethodError,
                format!("{name}: the tangent is missing after the input"),
            ));
        }
        Some(after.remove(0))
    } else {
        None
    };
    if let Some(bad) = after.iter().find(|v| as_context(v).is_none()) {
        return Err(argument_error(format!(
            "{name}: extra argument {} after the input; wrap extra arguments in Constant(...) or Cache(...)",
            crate::display::repr(bad)
        )));
    }
    Ok(Parsed {
        f,
        y,
        buffers: middle,
        prep,
        backend,
        x,
        tangent,
        contexts: after,
    })
}

/// The plain numbers of a value (for same-point checks).
pub fn plain_values(v: &Value) -> Result<Vec<f64>, Flow> {
    let o = operand(v)?
        .ok_or_else(|| argument_error(format!("expected numbers, got a {}", v.type_name())))?;
    Ok(o.tensor().to_col_major())
}

/// The tensor of an operator's input, tangent or buffer; anything but numbers and arrays of
/// numbers is a `MethodError`, as in DifferentiationInterface, which has no method for it.
fn numeric(v: &Value, what: &str) -> Result<(Tensor, bool), Flow> {
    let o = operand(v)?.ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!(
                "the {what} must be a number or an array of numbers, got a {}",
                v.type_name()
            ),
        )
    })?;
    Ok((o.tensor().clone(), o.scalar))
}

/// A language value holding a tensor: a number for rank 0 when `scalar`, else an array.
fn to_value(t: Tensor, scalar: bool) -> Value {
    if scalar && t.shape().is_empty() {
        Value::from_scalar(t)
    } else {
        Value::Array(Rc::new(RefCell::new(Array::new(ElType::Float64, t))))
    }
}

/// Calls the interpreted function on `t` and returns its output numbers.
pub(super) fn evaluate(
    interp: &mut Interp,
    p: &Parsed,
    scalar_input: bool,
    t: &Tensor,
) -> Result<Tensor, Flow> {
    let x = to_value(t.clone(), scalar_input);
    let contexts = p
        .contexts
        .iter()
        .filter_map(as_context)
        .map(|c| c.argument());
    match &p.y {
        Some(y) => {
            let (y0, _) = numeric(y, "output buffer y")?;
            let buffer = to_value(Tensor::filled(y0.shape(), 0.0), false);
            let args = std::iter::once(buffer.clone())
                .chain(std::iter::once(x))
                .chain(contexts)
                .collect();
            interp.call(&p.f, args)?;
            Ok(numeric(&buffer, "output buffer y")?.0)
        }
        None => {
            let args = std::iter::once(x).chain(contexts).collect();
            let out = interp.call(&p.f, args)?;
            let out = crate::eval::collections::numbers_of_any_vector(interp, out)?;
            numeric(&out, "function's output").map(|(t, _)| t)
        }
    }
}

/// The function at `t`: the compiled tape's replay or traced program when there is one, else
/// the interpreted function.
fn run_function(
    interp: &mut Interp,
    p: &Parsed,
    scalar_input: bool,
    compiled: Option<&StandIn>,
    t: &Tensor,
) -> Result<Tensor, Flow> {
    match compiled {
        Some(tape) => Ok(tape.call(t)?),
        None => evaluate(interp, p, scalar_input, t),
    }
}

/// Writes `t` into the array `target` (same number of elements).
fn write_into(target: &Value, t: &Tensor) -> Result<(), Flow> {
    let Value::Array(cell) = target else {
        return Err(argument_error(format!(
            "the result buffer must be an array, got a {}",
            target.type_name()
        )));
    };
    let mut a = cell.borrow_mut();
    if a.data.len() != t.len() {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!(
                "the result buffer has {} elements but the result has {}",
                a.data.len(),
                t.len()
            ),
        ));
    }
    let shape = a.data.shape().to_vec();
    a.data = ops::reshape(t, &shape)?;
    a.eltype = ElType::Float64;
    Ok(())
}

/// Tangents as a batch: a tuple gives several, anything else one.
fn tangents(v: &Value) -> Result<(Vec<Tensor>, bool), Flow> {
    match v {
        Value::Tuple(items) => Ok((
            items
                .iter()
                .map(|t| numeric(t, "tangent").map(|(t, _)| t))
                .collect::<Result<_, _>>()?,
            true,
        )),
        other => Ok((vec![numeric(other, "tangent")?.0], false)),
    }
}

fn batch_value(results: Vec<Tensor>, scalar: bool, batched: bool) -> Value {
    let mut values: Vec<Value> = results.into_iter().map(|t| to_value(t, scalar)).collect();
    if batched {
        Value::tuple(values)
    } else {
        values.pop().unwrap_or(Value::Nothing)
    }
}

/// DifferentiationInterface's refusals of a backend for an operator it does not compute:
/// `AutoSparse` computes Jacobians and Hessians only (with `MixedMode`, Jacobians only),
/// `MixedMode` works inside `AutoSparse` only, and `SecondOrder` computes second-order
/// operators only.
fn check_backend_fits(op: Op, pos: &[Value]) -> Result<(), Flow> {
    let name = op.name();
    let second_order = matches!(op.family(), Op::Hessian | Op::Hvp | Op::SecondDerivative);
    for v in pos {
        if super::sparse_ad::as_mixed_mode(v).is_some() {
            return Err(argument_error(format!(
                "{name}: MixedMode computes sparse Jacobians only, inside AutoSparse: jacobian(f, AutoSparse(MixedMode(forward, reverse)), x)"
            )));
        }
        let dense = match super::sparse_ad::as_auto_sparse(v) {
            Some(sparse) => {
                if !matches!(op.family(), Op::Jacobian | Op::Hessian) {
                    return Err(argument_error(format!(
                        "{name} does not take an AutoSparse backend: sparse differentiation computes Jacobians and Hessians only, as in DifferentiationInterface; pass its dense backend, dense_ad(backend)"
                    )));
                }
                if sparse.mixed_reverse.is_some() && op.family() != Op::Jacobian {
                    return Err(argument_error(format!(
                        "{name}: AutoSparse(MixedMode(…)) computes Jacobians only"
                    )));
                }
                Some(&sparse.dense)
            }
            None => as_backend(v),
        };
        if matches!(dense, Some(Backend::SecondOrder { .. })) && !second_order {
            return Err(argument_error(format!(
                "{name}: SecondOrder backends do not support first-order operators, as in DifferentiationInterface; pass a first-order backend such as inner(backend)"
            )));
        }
    }
    Ok(())
}

/// Tangents of pushforwards and HVPs live where the input does: another shape is a
/// `DimensionMismatch` (broadcasting it would give another directional derivative).
fn require_input_shaped(op: Op, tangents: &[Tensor], x: &Tensor) -> Result<(), Flow> {
    match tangents.iter().find(|t| t.shape() != x.shape()) {
        None => Ok(()),
        Some(t) => Err(fail(
            ErrorKind::DimensionMismatch,
            format!(
                "{}: the tangent has size {:?}, the input {:?}",
                op.name(),
                t.shape(),
                x.shape()
            ),
        )),
    }
}

/// Runs operator `op` in `variant`.
pub fn run(interp: &mut Interp, op: Op, variant: Variant, mut args: Args) -> EvalResult {
    check_backend_fits(op, &args.pos)?;
    // AutoSparse changes Jacobians and Hessians.
    let mut sparse = None;
    if let Some(k) = args
        .pos
        .iter()
        .position(|v| super::sparse_ad::as_auto_sparse(v).is_some())
    {
        let wrapper = args.pos[k].clone();
        let dense = super::sparse_ad::as_auto_sparse(&wrapper)
            .expect("found")
            .dense
            .clone();
        args.pos[k] = super::backends::backend_value(dense);
        if matches!(op.family(), Op::Jacobian | Op::Hessian) {
            sparse = Some(wrapper);
        }
    }
    if matches!(variant, Variant::Prepare | Variant::PrepareSamePoint) {
        // A preparation is used only with the function, backend and input shape it was made
        // for, which is all it depends on: strict or not, the checks are those.
        crate::builtins::markers::strict_keyword(&args, &format!("prepare_{}", op.name()))?;
    }
    let p = parse(op, variant, args.pos)?;
    let (x, scalar_x) = numeric(&p.x, "input x")?;
    let two_arg = p.y.is_some();
    if matches!(
        op,
        Op::Derivative | Op::SecondDerivative | Op::ValueDerivativeAndSecondDerivative
    ) && !scalar_x
    {
        return Err(argument_error(format!(
            "{} needs a number as input; for arrays use gradient or jacobian",
            op.name()
        )));
    }
    let mut plan = None;
    let mut compiled = None;
    let prep_object = p.prep.as_ref().and_then(as_prep);
    // A function differentiated with its own preparation inside itself finds the seeds busy.
    let mut kept_seeds = prep_object.and_then(|prep| prep.seeds.try_borrow_mut().ok());
    let mut fresh_seeds = BasisChunks::new(x.shape());
    let seeds = kept_seeds.as_deref_mut().unwrap_or(&mut fresh_seeds);
    if let Some(prep) = &p.prep {
        let prep = as_prep(prep).expect("parsed as a preparation");
        prep.check(op, &p.f, &p.backend, &p.x, two_arg)?;
        plan = prep.plan.clone();
        compiled = recording::stand_in(interp, prep, &p, scalar_x, &x)?;
    }
    let preparing = matches!(variant, Variant::Prepare | Variant::PrepareSamePoint);
    let mut stages = Vec::new();
    // A symbolic backend traces first: a sparse Jacobian's pattern then comes from the program.
    let traced = if preparing && p.backend.traces_symbolically() {
        Some(timed(&mut stages, "tracing", || {
            recording::trace(interp, &p, scalar_x, &x)
        })?)
    } else {
        None
    };
    if let (Some(wrapper), None) = (&sparse, &plan) {
        let config = super::sparse_ad::as_auto_sparse(wrapper).expect("checked");
        let hessian = op.family() == Op::Hessian;
        let from_program = match traced.as_ref().map(|t| &t.program) {
            Some(Ok(program)) if !hessian => timed(&mut stages, "detection", || {
                super::sparse_ad::plan_of_program(config, program, &x)
            })?,
            _ => None,
        };
        let made = match from_program {
            Some(plan) => plan,
            None => {
                let y_shape =
                    p.y.as_ref()
                        .and_then(|y| operand(y).ok().flatten())
                        .map(|o| o.tensor().shape().to_vec());
                super::sparse_ad::plan(
                    config,
                    &mut |t| {
                        let y = evaluate(interp, &p, scalar_x, t)?;
                        if hessian {
                            di::check_scalar(&y, op.name())?;
                        }
                        Ok(y)
                    },
                    y_shape.as_deref(),
                    &x,
                    hessian,
                    &mut stages,
                )?
            }
        };
        // A traced function computes the nonzeros from the program's derivative graph.
        plan = Some(match traced.as_ref().map(|t| &t.program) {
            Some(Ok(program)) if config.mixed_reverse.is_none() => {
                timed(&mut stages, "derivative program", || {
                    Rc::new(Rc::unwrap_or_clone(made).with_nonzeros_of(program, hessian))
                })
            }
            _ => made,
        });
    }
    let mixed = sparse
        .as_ref()
        .and_then(super::sparse_ad::as_auto_sparse)
        .and_then(|a| a.mixed_reverse.clone());
    if preparing {
        // Preparing evaluates the function once (recording it when the backend allows), so a
        // function that cannot run at x fails here.
        let compiled = timed(&mut stages, "recording", || {
            recording::record(interp, &p, scalar_x, &x, traced)
        })?;
        if compiled.is_none() {
            // Nothing was recorded: the function ran once, to check that it runs at x.
            stages.last_mut().expect("timed above").name = "first call";
        }
        let point = (variant == Variant::PrepareSamePoint).then(|| x.to_col_major());
        let prep = Prep {
            op,
            function: p.f.clone(),
            backend: p.backend.clone(),
            mixed_reverse: mixed,
            shape: x.shape().to_vec(),
            scalar: scalar_x,
            two_arg,
            point,
            plan,
            compiled: RefCell::new(compiled),
            stages,
            seeds: std::cell::RefCell::new(BasisChunks::new(x.shape())),
        };
        return Ok(Value::Object(Rc::new(Box::new(prep))));
    }
    if let Some(plan) = &plan {
        let backend = p.backend.clone();
        let mut f = |t: &Tensor| run_function(interp, &p, scalar_x, compiled.as_ref(), t);
        let program = match &compiled {
            Some(StandIn::Program(program)) if x.is_plain() => Some(program),
            _ => None,
        };
        // f(x) is computed anyway except by a program of the nonzeros, which skips it when the
        // caller does not ask for it. As in DI's FastDifferentiation extension, `jacobian(f!, y,
        // …)` then leaves `y` as it was (DI lets every operator overwrite `y`, and promises
        // f(x) in it only for the `value_and_` variants).
        let with_value = returns_value(op, variant);
        let (value, results) = if let (Op::Jacobian, Some(reverse)) = (op.family(), &mixed) {
            let (y, j) = sparse::sparse_jacobian_mixed(&mut f, &backend, reverse, plan, &x)?;
            (Some(y), vec![sparse_value(j, ElType::Float64)])
        } else if let (Op::Jacobian, Some(program)) =
            (op.family(), program.filter(|_| plan.fits_program()))
        {
            let (y, j) = sparse::sparse_jacobian_of_program(program, plan, &x, with_value)?;
            (y, vec![sparse_value(j, ElType::Float64)])
        } else if let (Op::Hessian, Some(program)) =
            (op.family(), program.filter(|_| plan.has_nonzeros_program()))
        {
            let (yg, h) = sparse::sparse_hessian_of_program(program, plan, &x, with_value)?;
            let h = sparse_value(h, ElType::Float64);
            match yg {
                Some((y, g)) if op != Op::Hessian => (Some(y), vec![to_value(g, scalar_x), h]),
                yg => (yg.map(|(y, _)| y), vec![h]),
            }
        } else if op.family() == Op::Jacobian {
            let (y, j) = sparse::sparse_jacobian(&mut f, &backend, plan, &x)?;
            (Some(y), vec![sparse_value(j, ElType::Float64)])
        } else {
            let (y, g, h) = sparse::sparse_hessian(&mut f, &backend, plan, &x)?;
            let h = sparse_value(h, ElType::Float64);
            let results = if op == Op::Hessian {
                vec![h]
            } else {
                vec![to_value(g, scalar_x), h]
            };
            (Some(y), results)
        };
        if let (Some(y), Some(value)) = (&p.y, &value) {
            write_into(y, value)?;
        }
        let value = value.map_or(Value::Nothing, |v| to_value(v, true));
        return finish(op, variant, &p, value, results);
    }
    let backend = p.backend.clone();
    let mut f = |t: &Tensor| run_function(interp, &p, scalar_x, compiled.as_ref(), t);
    let scalar_y = |y: &Tensor| y.shape().is_empty();
    // (value, results): results in the order the plain variant returns them.
    let (value, results): (Tensor, Vec<Value>) = match op {
        Op::Derivative => {
            let (y, d) = di::value_and_derivative(&mut f, &backend, &x)?;
            let s = scalar_y(&y);
            (y, vec![to_value(d, s)])
        }
        Op::SecondDerivative | Op::ValueDerivativeAndSecondDerivative => {
            let (y, d, d2) = di::value_derivative_and_second_derivative(&mut f, &backend, &x)?;
            let s = scalar_y(&y);
            if op == Op::SecondDerivative {
                (y, vec![to_value(d2, s)])
            } else {
                (y, vec![to_value(d, s), to_value(d2, s)])
            }
        }
        Op::Gradient => {
            let (y, g) = di::value_and_gradient_seeded(&mut f, &backend, &x, seeds)?;
            (y, vec![to_value(g, scalar_x)])
        }
        Op::Jacobian => {
            let (y, j) = di::value_and_jacobian_seeded(&mut f, &backend, &x, seeds)?;
            (y, vec![to_value(j, false)])
        }
        Op::Hessian | Op::ValueGradientAndHessian => {
            let (y, g, h) = di::value_gradient_and_hessian_seeded(&mut f, &backend, &x, seeds)?;
            if op == Op::Hessian {
                (y, vec![to_value(h, false)])
            } else {
                (y, vec![to_value(g, scalar_x), to_value(h, false)])
            }
        }
        Op::Pushforward => {
            let (ts, batched) = tangents(p.tangent.as_ref().expect("parsed"))?;
            require_input_shaped(op, &ts, &x)?;
            let (y, out) = primitives::pushforward(&mut f, &backend, &x, &ts)?;
            let s = scalar_y(&y);
            (y, vec![batch_value(out, s, batched)])
        }
        Op::Pullback => {
            let (ts, batched) = tangents(p.tangent.as_ref().expect("parsed"))?;
            let (y, out) = primitives::pullback(&mut f, &backend, &x, &ts)?;
            (y, vec![batch_value(out, scalar_x, batched)])
        }
        Op::Hvp | Op::GradientAndHvp => {
            let (ts, batched) = tangents(p.tangent.as_ref().expect("parsed"))?;
            require_input_shaped(op, &ts, &x)?;
            let (y, g, out) = di::gradient_and_hvp(&mut f, &backend, &x, &ts)?;
            let hvps = batch_value(out, scalar_x, batched);
            if op == Op::Hvp {
                (y, vec![hvps])
            } else {
                (y, vec![to_value(g, scalar_x), hvps])
            }
        }
    };
    let y_value = to_value(value.clone(), true);
    if let Some(y) = &p.y {
        write_into(y, &value)?;
    }
    finish(op, variant, &p, y_value, results)
}

/// Shapes the answer of a variant: writes buffers for `!` variants, prepends the value for
/// `value_and_`, returns a tuple when there are several results.
/// True when the operator's result starts with `f(x)`.
fn returns_value(op: Op, variant: Variant) -> bool {
    matches!(variant, Variant::ValueAnd | Variant::ValueAndBang)
        || matches!(
            op,
            Op::ValueGradientAndHessian | Op::ValueDerivativeAndSecondDerivative
        )
}

fn finish(op: Op, variant: Variant, p: &Parsed, y: Value, results: Vec<Value>) -> EvalResult {
    let results = match variant {
        Variant::Bang | Variant::ValueAndBang => {
            for (buffer, result) in p.buffers.iter().zip(results) {
                match (buffer, result) {
                    (Value::Tuple(bufs), Value::Tuple(rs)) => {
                        for (b, r) in bufs.iter().zip(rs.iter()) {
                            write_into(b, &numeric(r, "result")?.0)?;
                        }
                    }
                    // A fresh result moves into the buffer instead of being copied.
                    (Value::Sparse(b), Value::Sparse(r)) => {
                        *b.borrow_mut() = Rc::try_unwrap(r)
                            .map_or_else(|shared| shared.borrow().clone(), RefCell::into_inner);
                    }
                    // A dense result written into a sparse matrix holds the result's nonzeros.
                    (Value::Sparse(b), r @ Value::Array(_)) => {
                        let (matrix, eltype) =
                            crate::builtins::sparse::sparse_of_dense(&r, op.name())?;
                        if let Value::Sparse(fresh) =
                            crate::builtins::sparse::sparse_value(matrix, eltype)
                        {
                            *b.borrow_mut() = fresh.borrow().clone();
                        }
                    }
                    // A sparse result (AutoSparse) written into a dense matrix, as DI decompresses.
                    (b, r @ Value::Sparse(_)) if matches!(b, Value::Array(_)) => write_into(
                        b,
                        &numeric(&crate::builtins::sparse::to_dense(&r)?, "result")?.0,
                    )?,
                    (b, r) if matches!(b, Value::Array(_)) => {
                        write_into(b, &numeric(&r, "result")?.0)?
                    }
                    (b, _) => {
                        return Err(argument_error(format!(
                            "cannot write a result into a {}",
                            b.type_name()
                        )))
                    }
                }
            }
            p.buffers.clone()
        }
        _ => results,
    };
    let mut items = Vec::with_capacity(results.len() + 1);
    if returns_value(op, variant) {
        items.push(y);
    }
    items.extend(results);
    Ok(if items.len() == 1 {
        items.pop().expect("one item")
    } else {
        Value::tuple(items)
    })
}

macro_rules! operator_builtins {
    ($($fname:ident => $op:ident, $variant:ident;)*) => {
        $(fn $fname(interp: &mut Interp, args: Args) -> EvalResult { run(interp, Op::$op, Variant::$variant, args) })*
    };
}

operator_builtins! {
    derivative_ => Derivative, Plain; derivative_bang => Derivative, Bang;
    value_and_derivative_ => Derivative, ValueAnd; value_and_derivative_bang => Derivative, ValueAndBang;
    prepare_derivative_ => Derivative, Prepare;
    second_derivative_ => SecondDerivative, Plain; second_derivative_bang => SecondDerivative, Bang;
    prepare_second_derivative_ => SecondDerivative, Prepare;
    value_derivative_and_second_derivative_ => ValueDerivativeAndSecondDerivative, Plain;
    value_derivative_and_second_derivative_bang => ValueDerivativeAndSecondDerivative, Bang;
    gradient_ => Gradient, Plain; gradient_bang => Gradient, Bang;
    value_and_gradient_ => Gradient, ValueAnd; value_and_gradient_bang => Gradient, ValueAndBang;
    prepare_gradient_ => Gradient, Prepare;
    jacobian_ => Jacobian, Plain; jacobian_bang => Jacobian, Bang;
    value_and_jacobian_ => Jacobian, ValueAnd; value_and_jacobian_bang => Jacobian, ValueAndBang;
    prepare_jacobian_ => Jacobian, Prepare;
    hessian_ => Hessian, Plain; hessian_bang => Hessian, Bang;
    prepare_hessian_ => Hessian, Prepare;
    value_gradient_and_hessian_ => ValueGradientAndHessian, Plain;
    value_gradient_and_hessian_bang => ValueGradientAndHessian, Bang;
    pushforward_ => Pushforward, Plain; pushforward_bang => Pushforward, Bang;
    value_and_pushforward_ => Pushforward, ValueAnd; value_and_pushforward_bang => Pushforward, ValueAndBang;
    prepare_pushforward_ => Pushforward, Prepare; prepare_pushforward_same_point_ => Pushforward, PrepareSamePoint;
    pullback_ => Pullback, Plain; pullback_bang => Pullback, Bang;
    value_and_pullback_ => Pullback, ValueAnd; value_and_pullback_bang => Pullback, ValueAndBang;
    prepare_pullback_ => Pullback, Prepare; prepare_pullback_same_point_ => Pullback, PrepareSamePoint;
    hvp_ => Hvp, Plain; hvp_bang => Hvp, Bang;
    prepare_hvp_ => Hvp, Prepare; prepare_hvp_same_point_ => Hvp, PrepareSamePoint;
    gradient_and_hvp_ => GradientAndHvp, Plain; gradient_and_hvp_bang => GradientAndHvp, Bang;
}

crate::builtins! {
    "derivative" => derivative_, false, "    derivative(f, [prep,] backend, x, [contexts...])\n    derivative(f!, y, backend, x)\n\nThe derivative of `f` at the number `x` (an array when `f` returns one). Variants: `derivative!(f, der, backend, x)`, `value_and_derivative`, `value_and_derivative!`, `prepare_derivative`.\n\n```\njulia> derivative(x -> x^3, AutoForwardDiff(), 2.0)\n12.0\n```";
    "derivative!" => derivative_bang, false, "    derivative!(f, der, [prep,] backend, x)\n\nWrites the derivative into `der` and returns it.\n\n```\njulia> d = zeros(2); derivative!(t -> [t, t^2], d, AutoForwardDiff(), 3.0)\n2-element Vector{Float64}:\n 1.0\n 6.0\n```";
    "value_and_derivative" => value_and_derivative_, false, "    value_and_derivative(f, [prep,] backend, x)\n\n`(f(x), derivative)`.\n\n```\njulia> value_and_derivative(sin, AutoForwardDiff(), 0.0)\n(0.0, 1.0)\n```";
    "value_and_derivative!" => value_and_derivative_bang, false, "    value_and_derivative!(f, der, [prep,] backend, x)\n\n`(f(x), der)` with the derivative written into `der`.\n\n```\njulia> d = zeros(1); value_and_derivative!(t -> [t^2], d, AutoForwardDiff(), 3.0)\n([9.0], [6.0])\n```";
    "prepare_derivative" => prepare_derivative_, false, "    prepare_derivative(f, backend, x, [contexts...])\n\nA preparation for `derivative(f, prep, backend, x)`; reuse it with inputs of the same kind.\n\n```\njulia> prep = prepare_derivative(sin, AutoForwardDiff(), 0.0);\n\njulia> derivative(sin, prep, AutoForwardDiff(), 1.0)\n0.5403023058681398\n```";
    "second_derivative" => second_derivative_, false, "    second_derivative(f, [prep,] backend, x)\n\nThe second derivative at the number `x`; `SecondOrder(outer, inner)` chooses both backends.\n\n```\njulia> second_derivative(x -> x^3, AutoForwardDiff(), 2.0)\n12.0\n```";
    "second_derivative!" => second_derivative_bang, false, "    second_derivative!(f, der2, [prep,] backend, x)\n\nWrites the second derivative into `der2`.\n\n```\njulia> d = zeros(1); second_derivative!(t -> [t^3], d, AutoForwardDiff(), 1.0)\n1-element Vector{Float64}:\n 6.0\n```";
    "prepare_second_derivative" => prepare_second_derivative_, false, "    prepare_second_derivative(f, backend, x)\n\nA preparation for `second_derivative` and `value_derivative_and_second_derivative`.\n\n```\njulia> prep = prepare_second_derivative(sin, AutoForwardDiff(), 0.0);\n```";
    "value_derivative_and_second_derivative" => value_derivative_and_second_derivative_, false, "    value_derivative_and_second_derivative(f, [prep,] backend, x)\n\n`(f(x), f'(x), f''(x))`.\n\n```\njulia> value_derivative_and_second_derivative(x -> x^3, AutoForwardDiff(), 2.0)\n(8.0, 12.0, 12.0)\n```";
    "value_derivative_and_second_derivative!" => value_derivative_and_second_derivative_bang, false, "    value_derivative_and_second_derivative!(f, der, der2, [prep,] backend, x)\n\n`(f(x), der, der2)` with both written in place.\n\n```\njulia> a, b = zeros(1), zeros(1); value_derivative_and_second_derivative!(t -> [t^3], a, b, AutoForwardDiff(), 1.0)\n([1.0], [3.0], [6.0])\n```";
    "gradient" => gradient_, false, "    gradient(f, [prep,] backend, x, [contexts...])\n\nThe gradient of a function returning a number, shaped like `x`.\n\n```\njulia> gradient(x -> sum(abs2, x), AutoReverseDiff(), [1.0, 2.0, 3.0])\n3-element Vector{Float64}:\n 2.0\n 4.0\n 6.0\n```";
    "gradient!" => gradient_bang, false, "    gradient!(f, grad, [prep,] backend, x)\n\nWrites the gradient into `grad` and returns it.\n\n```\njulia> g = zeros(2); gradient!(x -> sum(abs2, x), g, AutoForwardDiff(), [1.0, 2.0]); g\n2-element Vector{Float64}:\n 2.0\n 4.0\n```";
    "value_and_gradient" => value_and_gradient_, false, "    value_and_gradient(f, [prep,] backend, x)\n\n`(f(x), gradient)`.\n\n```\njulia> value_and_gradient(x -> sum(abs2, x), AutoForwardDiff(), [1.0, 2.0])\n(5.0, [2.0, 4.0])\n```";
    "value_and_gradient!" => value_and_gradient_bang, false, "    value_and_gradient!(f, grad, [prep,] backend, x)\n\n`(f(x), grad)` with the gradient written into `grad`.\n\n```\njulia> g = zeros(2); value_and_gradient!(x -> sum(abs2, x), g, AutoForwardDiff(), [1.0, 2.0])\n(5.0, [2.0, 4.0])\n```";
    "prepare_gradient" => prepare_gradient_, false, "    prepare_gradient(f, backend, x, [contexts...])\n\nA preparation for `gradient(f, prep, backend, x)` (also accepted last: `gradient(f, backend, x, prep)`). Reusing it with another function, backend, or an input of another size is an `ArgumentError` naming what differs.\n\n```\njulia> prep = prepare_gradient(x -> sum(abs2, x), AutoForwardDiff(), zeros(3));\n```";
    "jacobian" => jacobian_, false, "    jacobian(f, [prep,] backend, x, [contexts...])\n    jacobian(f!, y, backend, x)\n\nThe Jacobian `∂vec(f(x))/∂vec(x)` (length(y) × length(x), column-major flattening). Two-argument functions `f!(y, x)` write their output into `y`.\n\n```\njulia> jacobian(x -> x .^ 2, AutoForwardDiff(), [1.0, 2.0])\n2×2 Matrix{Float64}:\n 2.0  0.0\n 0.0  4.0\n```";
    "jacobian!" => jacobian_bang, false, "    jacobian!(f, jac, [prep,] backend, x)\n    jacobian!(f!, y, jac, backend, x)\n\nWrites the Jacobian into `jac`.\n\n```\njulia> J = zeros(2, 2); jacobian!(x -> 2x, J, AutoForwardDiff(), [1.0, 2.0]); J\n2×2 Matrix{Float64}:\n 2.0  0.0\n 0.0  2.0\n```";
    "value_and_jacobian" => value_and_jacobian_, false, "    value_and_jacobian(f, [prep,] backend, x)\n\n`(f(x), jacobian)`.\n\n```\njulia> value_and_jacobian(x -> 2x, AutoForwardDiff(), [1.0])\n([2.0], [2.0;;])\n```";
    "value_and_jacobian!" => value_and_jacobian_bang, false, "    value_and_jacobian!(f, jac, [prep,] backend, x)\n\n`(f(x), jac)` with the Jacobian written into `jac`.\n\n```\njulia> J = zeros(1, 1); value_and_jacobian!(x -> 2x, J, AutoForwardDiff(), [1.0])\n([2.0], [2.0;;])\n```";
    "prepare_jacobian" => prepare_jacobian_, false, "    prepare_jacobian(f, backend, x)\n    prepare_jacobian(f!, y, backend, x)\n\nA preparation for `jacobian`.\n\n```\njulia> prep = prepare_jacobian(x -> 2x, AutoForwardDiff(), zeros(3));\n```";
    "hessian" => hessian_, false, "    hessian(f, [prep,] backend, x, [contexts...])\n\nThe Hessian of a function returning a number, built from Hessian-vector products (`SecondOrder(outer, inner)` chooses how).\n\n```\njulia> hessian(x -> x[1]^2 * x[2], AutoForwardDiff(), [1.0, 2.0])\n2×2 Matrix{Float64}:\n 4.0  2.0\n 2.0  0.0\n```";
    "hessian!" => hessian_bang, false, "    hessian!(f, hess, [prep,] backend, x)\n\nWrites the Hessian into `hess`.\n\n```\njulia> H = zeros(1, 1); hessian!(x -> x[1]^3, H, AutoForwardDiff(), [1.0]); H\n1×1 Matrix{Float64}:\n 6.0\n```";
    "prepare_hessian" => prepare_hessian_, false, "    prepare_hessian(f, backend, x)\n\nA preparation for `hessian` and `value_gradient_and_hessian`.\n\n```\njulia> prep = prepare_hessian(x -> sum(x .^ 3), AutoForwardDiff(), zeros(2));\n```";
    "value_gradient_and_hessian" => value_gradient_and_hessian_, false, "    value_gradient_and_hessian(f, [prep,] backend, x)\n\n`(f(x), gradient, hessian)`.\n\n```\njulia> value_gradient_and_hessian(x -> x[1]^3, AutoForwardDiff(), [1.0])\n(1.0, [3.0], [6.0;;])\n```";
    "value_gradient_and_hessian!" => value_gradient_and_hessian_bang, false, "    value_gradient_and_hessian!(f, grad, hess, [prep,] backend, x)\n\n`(f(x), grad, hess)` written in place.\n\n```\njulia> g, H = zeros(1), zeros(1, 1); value_gradient_and_hessian!(x -> x[1]^3, g, H, AutoForwardDiff(), [1.0])\n(1.0, [3.0], [6.0;;])\n```";
    "pushforward" => pushforward_, false, "    pushforward(f, [prep,] backend, x, tx, [contexts...])\n    pushforward(f!, y, backend, x, tx)\n\nThe Jacobian-vector product `J·dx`. `tx` is a tuple of tangents (a batch; the result is a tuple) or a single tangent.\n\n```\njulia> pushforward(x -> x .^ 2, AutoForwardDiff(), [1.0, 2.0], ([1.0, 0.0],))\n([2.0, 0.0],)\n```";
    "pushforward!" => pushforward_bang, false, "    pushforward!(f, ty, [prep,] backend, x, tx)\n\nWrites the pushforwards into the tuple of arrays `ty`.\n\n```\njulia> ty = (zeros(2),); pushforward!(x -> 2x, ty, AutoForwardDiff(), [1.0, 2.0], ([1.0, 1.0],)); ty\n([2.0, 2.0],)\n```";
    "value_and_pushforward" => value_and_pushforward_, false, "    value_and_pushforward(f, [prep,] backend, x, tx)\n\n`(f(x), pushforwards)`.\n\n```\njulia> value_and_pushforward(sin, AutoForwardDiff(), 0.0, (1.0,))\n(0.0, (1.0,))\n```";
    "value_and_pushforward!" => value_and_pushforward_bang, false, "    value_and_pushforward!(f, ty, [prep,] backend, x, tx)\n\n`(f(x), ty)` with the pushforwards written into `ty`.\n\n```\njulia> ty = (zeros(1),); value_and_pushforward!(x -> 2x, ty, AutoForwardDiff(), [1.0], ([1.0],))\n([2.0], ([2.0],))\n```";
    "prepare_pushforward" => prepare_pushforward_, false, "    prepare_pushforward(f, backend, x, tx)\n\nA preparation for `pushforward`.\n\n```\njulia> prep = prepare_pushforward(sin, AutoForwardDiff(), 0.0, (1.0,));\n```";
    "prepare_pushforward_same_point" => prepare_pushforward_same_point_, false, "    prepare_pushforward_same_point(f, backend, x, tx)\n\nA preparation valid only at this `x` (for many tangents at one point).\n\n```\njulia> prep = prepare_pushforward_same_point(sin, AutoForwardDiff(), 0.0, (1.0,));\n```";
    "pullback" => pullback_, false, "    pullback(f, [prep,] backend, x, ty, [contexts...])\n    pullback(f!, y, backend, x, ty)\n\nThe vector-Jacobian product `Jᵀ·dy`. `ty` is a tuple of cotangents (a batch) or a single one.\n\n```\njulia> pullback(x -> x .^ 2, AutoReverseDiff(), [1.0, 2.0], ([1.0, 1.0],))\n([2.0, 4.0],)\n```";
    "pullback!" => pullback_bang, false, "    pullback!(f, tx, [prep,] backend, x, ty)\n\nWrites the pullbacks into the tuple of arrays `tx`.\n\n```\njulia> tx = (zeros(2),); pullback!(x -> 2x, tx, AutoReverseDiff(), [1.0, 2.0], ([1.0, 1.0],)); tx\n([2.0, 2.0],)\n```";
    "value_and_pullback" => value_and_pullback_, false, "    value_and_pullback(f, [prep,] backend, x, ty)\n\n`(f(x), pullbacks)`.\n\n```\njulia> value_and_pullback(x -> sum(x), AutoReverseDiff(), [1.0, 2.0], (1.0,))\n(3.0, ([1.0, 1.0],))\n```";
    "value_and_pullback!" => value_and_pullback_bang, false, "    value_and_pullback!(f, tx, [prep,] backend, x, ty)\n\n`(f(x), tx)` with the pullbacks written into `tx`.\n\n```\njulia> tx = (zeros(2),); value_and_pullback!(x -> sum(x), tx, AutoReverseDiff(), [1.0, 2.0], (1.0,))\n(3.0, ([1.0, 1.0],))\n```";
    "prepare_pullback" => prepare_pullback_, false, "    prepare_pullback(f, backend, x, ty)\n\nA preparation for `pullback`.\n\n```\njulia> prep = prepare_pullback(x -> sum(x), AutoReverseDiff(), zeros(2), (1.0,));\n```";
    "prepare_pullback_same_point" => prepare_pullback_same_point_, false, "    prepare_pullback_same_point(f, backend, x, ty)\n\nA preparation valid only at this `x`.\n\n```\njulia> prep = prepare_pullback_same_point(x -> sum(x), AutoReverseDiff(), zeros(2), (1.0,));\n```";
    "hvp" => hvp_, false, "    hvp(f, [prep,] backend, x, tx, [contexts...])\n\nHessian-vector products `∇²f(x)·dx`; by default `outer` over `inner` of `SecondOrder` (forward over reverse is the usual choice). `tx` is a tuple (batch) or a single direction.\n\n```\njulia> hvp(x -> sum(x .^ 3), SecondOrder(AutoForwardDiff(), AutoReverseDiff()), [1.0, 2.0], ([1.0, 0.0],))\n([6.0, 0.0],)\n```";
    "hvp!" => hvp_bang, false, "    hvp!(f, tg, [prep,] backend, x, tx)\n\nWrites the HVPs into the tuple of arrays `tg`.\n\n```\njulia> tg = (zeros(2),); hvp!(x -> sum(x .^ 3), tg, AutoForwardDiff(), [1.0, 2.0], ([1.0, 0.0],)); tg\n([6.0, 0.0],)\n```";
    "prepare_hvp" => prepare_hvp_, false, "    prepare_hvp(f, backend, x, tx)\n\nA preparation for `hvp` and `gradient_and_hvp`.\n\n```\njulia> prep = prepare_hvp(x -> sum(x .^ 3), AutoForwardDiff(), zeros(2), (ones(2),));\n```";
    "prepare_hvp_same_point" => prepare_hvp_same_point_, false, "    prepare_hvp_same_point(f, backend, x, tx)\n\nA preparation valid only at this `x` (many directions at one point).\n\n```\njulia> prep = prepare_hvp_same_point(x -> sum(x .^ 3), AutoForwardDiff(), zeros(2), (ones(2),));\n```";
    "gradient_and_hvp" => gradient_and_hvp_, false, "    gradient_and_hvp(f, [prep,] backend, x, tx)\n\n`(gradient, hvps)`.\n\n```\njulia> gradient_and_hvp(x -> sum(x .^ 3), AutoForwardDiff(), [1.0], ([1.0],))\n([3.0], ([6.0],))\n```";
    "gradient_and_hvp!" => gradient_and_hvp_bang, false, "    gradient_and_hvp!(f, grad, tg, [prep,] backend, x, tx)\n\n`(grad, tg)` written in place.\n\n```\njulia> g, tg = zeros(1), (zeros(1),); gradient_and_hvp!(x -> sum(x .^ 3), g, tg, AutoForwardDiff(), [1.0], ([1.0],))\n([3.0], ([6.0],))\n```";
}
