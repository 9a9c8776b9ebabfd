//! Operators on values: arithmetic, comparisons and broadcasting (`.+`), ranges and adjoints.
//!
//! Plain scalars take a fast path with Julia's promotion rules (`Int` op `Int` stays `Int` for
//! `+ - * ^`, `/` gives `Float64`, `Bool` counts as 0/1). Arrays and numbers carrying
//! derivatives go through `ad::ops`, one whole-array kernel per operation.

use super::{fail, EvalResult, Flow, Interp};
use crate::error::ErrorKind;
use crate::show::ElType;
use crate::types::{Prim, StructValue};
use crate::value::{Array, Range, Value};
use difflab_ad::ops::{self, BinaryFn, UnaryFn};
use difflab_ad::Tensor;
use difflab_syntax::{BinOp, UnaryOp};
use std::cell::{Ref, RefCell};
use std::rc::Rc;

/// Whether the exponent of `x^e` is written as the literal `-1` or `-2`: Julia's
/// `literal_pow` makes those `inv(x)` and `inv(x)^2`, so an integer base gives a float
/// (`2^-1 == 0.5`, `[2, 4] .^ -2`), where an integer raised to a computed negative power is a
/// `DomainError`.
pub fn is_literal_inverse_power(exponent: &difflab_syntax::Expr) -> bool {
    use difflab_syntax::ExprKind;
    match &exponent.kind {
        ExprKind::Int(-1 | -2) => true,
        ExprKind::Unary {
            op: UnaryOp::Neg,
            dotted: false,
            operand,
        } => matches!(operand.kind, ExprKind::Int(1 | 2)),
        _ => false,
    }
}

/// The base of a literal inverse power ([`is_literal_inverse_power`]): integers (numbers,
/// arrays, ranges) as floats, other values as they are.
pub fn float_base(v: Value) -> Value {
    match v {
        Value::Int(i) => Value::Float(i as f64),
        Value::Bool(b) => Value::Float(f64::from(u8::from(b))),
        Value::Array(a) if a.borrow().eltype != ElType::Float64 => {
            from_tensor(a.borrow().data.clone(), ElType::Float64, false)
        }
        Value::Range(r) if r.is_int => match range_tensor(&r) {
            Ok(t) => from_tensor(t, ElType::Float64, false),
            Err(_) => Value::Range(r),
        },
        other => other,
    }
}

/// A numeric operand borrowed from a value (arrays are not copied).
pub struct Operand<'a> {
    guard: Option<Ref<'a, Array>>,
    owned: Option<Tensor>,
    /// The element type the language sees.
    pub eltype: ElType,
    /// True for a scalar (not an array).
    pub scalar: bool,
}

impl Operand<'static> {
    /// An operand owning its numbers (an array computed for the occasion).
    pub fn owning(t: Tensor, eltype: ElType) -> Operand<'static> {
        Operand {
            guard: None,
            owned: Some(t),
            eltype,
            scalar: false,
        }
    }
}

impl Operand<'_> {
    /// The numbers.
    pub fn tensor(&self) -> &Tensor {
        match (&self.guard, &self.owned) {
            (Some(g), _) => &g.data,
            (None, Some(t)) => t,
            (None, None) => unreachable!("an operand holds one or the other"),
        }
    }

    /// True for the adjoint of a vector.
    pub fn row_adjoint(&self) -> bool {
        self.guard.as_ref().is_some_and(|g| g.row_adjoint)
    }
}

/// The numeric operand of `v`, or `None` for non-numeric values; `OutOfMemoryError` for a
/// range whose elements would not fit in the memory limit.
pub fn operand(v: &Value) -> Result<Option<Operand<'_>>, Flow> {
    let scalar = |t: Tensor, eltype| {
        Ok(Some(Operand {
            guard: None,
            owned: Some(t),
            eltype,
            scalar: true,
        }))
    };
    match v {
        Value::Float(x) => scalar(Tensor::scalar(*x), ElType::Float64),
        Value::Int(i) => scalar(Tensor::scalar(*i as f64), ElType::Int64),
        Value::Bool(b) => scalar(Tensor::scalar(f64::from(u8::from(*b))), ElType::Bool),
        Value::Real(t) => scalar(t.clone(), ElType::Float64),
        Value::Array(a) => {
            let g = a.borrow();
            let eltype = g.eltype;
            Ok(Some(Operand {
                guard: Some(g),
                owned: None,
                eltype,
                scalar: false,
            }))
        }
        Value::Range(r) => Ok(Some(Operand {
            guard: None,
            owned: Some(range_tensor(r)?),
            eltype: if r.is_int {
                ElType::Int64
            } else {
                ElType::Float64
            },
            scalar: false,
        })),
        _ => Ok(None),
    }
}

/// The elements of a range as a vector, refused with `OutOfMemoryError` when they would not
/// fit in the memory limit.
pub fn range_tensor(r: &Range) -> Result<Tensor, Flow> {
    difflab_ad::limits::reserve_numbers(r.len)?;
    Ok(Tensor::from_col_major(
        &[r.len],
        (0..r.len).map(|k| r.get(k)).collect(),
    ))
}

/// The numbers of a numeric value as a tensor (copied).
pub fn to_tensor(v: &Value) -> Result<Tensor, Flow> {
    operand(v)?.map(|o| o.tensor().clone()).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("expected numbers, got a value of type {}", v.type_name()),
        )
    })
}

/// A value from a tensor result: rank 0 becomes a scalar.
pub fn from_tensor(t: Tensor, eltype: ElType, scalar: bool) -> Value {
    if scalar && t.shape().is_empty() {
        let x = t.primal().first().copied().unwrap_or(f64::NAN);
        return match (&t, eltype) {
            (Tensor::Plain(_), ElType::Int64) => Value::Int(x as i64),
            (Tensor::Plain(_), ElType::Bool) => Value::Bool(x != 0.0),
            _ => Value::from_scalar(t),
        };
    }
    Value::Array(Rc::new(RefCell::new(Array::new(eltype, t))))
}

/// For a tracing that carries no values (symbolic, or global sparsity tracers): which one it
/// is and what to use instead, for the errors of code that needs a value.
pub fn without_values(t: &Tensor) -> Option<&'static str> {
    if t.is_symbolic() {
        Some("AutoFastDifferentiation() traces the function without values, so it cannot follow a branch on them (`max`, `min`, `abs`, `clamp`, `maximum` and `minimum` need no branch); use AutoForwardDiff(), or AutoReverseDiff(compile=true), which checks such branches at every call")
    } else if t.is_global_tracer() {
        Some("TracerSparsityDetector() traces without values (its pattern holds for every input); use TracerLocalSparsityDetector() for functions that branch on values")
    } else {
        None
    }
}

/// An `ArgumentError` when `t` is traced without values and `name` needs them (`argmax`,
/// `sort`, `isnan`, conversion to a plain number).
pub fn require_values(t: &Tensor, name: &str) -> Result<(), Flow> {
    match without_values(t) {
        Some(why) => Err(fail(
            ErrorKind::ArgumentError,
            format!("`{name}` needs values, but {why}"),
        )),
        None => Ok(()),
    }
}

/// A comparison under `TracerSparsityDetector()`, as SparseConnectivityTracer's global tracers
/// make it: a number with no value and no derivative (a `Float64`, so it is never read as a
/// mask). Branching on it is a `TypeError` ([`global_condition_error`]); `ifelse` takes both
/// branches.
fn traced_condition(x: &Tensor, y: &Tensor, scalar: bool) -> EvalResult {
    let t = ops::unary(UnaryFn::Sign, &ops::binary(BinaryFn::Sub, x, y)?)?;
    Ok(from_tensor(t, ElType::Float64, scalar))
}

/// The error for a condition that is a comparison under `TracerSparsityDetector()`.
pub fn global_condition_error() -> Flow {
    fail(
        ErrorKind::TypeError,
        "non-boolean (comparison of traced values) used in boolean context: TracerSparsityDetector() traces without values (its pattern holds for every input), so code cannot branch on them; use ifelse(cond, a, b), whose pattern is the union of both branches, or TracerLocalSparsityDetector()",
    )
}

/// True for a number or array traced by `TracerSparsityDetector()` (no values to branch on).
pub fn is_global_traced(v: &Value) -> bool {
    operand(v)
        .ok()
        .flatten()
        .is_some_and(|o| o.tensor().is_global_tracer())
}

fn arith_fn(op: BinOp) -> Option<BinaryFn> {
    Some(match op {
        BinOp::Add => BinaryFn::Add,
        BinOp::Sub => BinaryFn::Sub,
        BinOp::Mul => BinaryFn::Mul,
        BinOp::Div => BinaryFn::Div,
        BinOp::Pow => BinaryFn::Pow,
        BinOp::Rem => BinaryFn::Rem,
        _ => return None,
    })
}

fn is_comparison(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

pub(crate) fn compare(op: BinOp, x: f64, y: f64) -> bool {
    match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        _ => false,
    }
}

/// The element type of an arithmetic result.
fn result_eltype(op: BinOp, a: ElType, b: ElType) -> ElType {
    let integral = |e| matches!(e, ElType::Int64 | ElType::Bool);
    if integral(a)
        && integral(b)
        && matches!(
            op,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Pow | BinOp::Rem | BinOp::IntDiv
        )
    {
        ElType::Int64
    } else {
        ElType::Float64
    }
}

impl Interp {
    /// `a .|> f`: `f.(a)`; with a vector or tuple of functions, each applied to the element of
    /// `a` in the same place, broadcasting a length of 1 (a scalar `a`, or one function).
    fn broadcast_pipe(&mut self, a: &Value, f: &Value) -> EvalResult {
        let functions = match f {
            Value::List(items) => items.borrow().clone(),
            Value::Tuple(items) => items.to_vec(),
            _ => return self.broadcast_call(f, vec![a.clone()], vec![]),
        };
        let inputs = super::iterate::elements(a)?;
        // Julia's broadcasting of the two lengths (a length of 1 extends to the other).
        let [n] = difflab_ad::broadcast::shape(&[inputs.len()], &[functions.len()])?[..] else {
            unreachable!("one dimension in, one out")
        };
        let results = (0..n)
            .map(|k| {
                let x = inputs[k % inputs.len()].clone();
                self.call(&functions[k % functions.len()], vec![x])
            })
            .collect::<Result<Vec<_>, _>>()?;
        let n = results.len();
        super::collections::collect_values(self, results, &[n])
    }

    /// `a op b` (or `a .op b` when `dotted`).
    pub fn binary(&mut self, op: BinOp, dotted: bool, a: &Value, b: &Value) -> EvalResult {
        if let Some(v) = scalar_binary(op, a, b)? {
            return Ok(v);
        }
        if super::methods::involves_user_values(dotted, a, b) {
            if let Some(result) = self.binary_user(op, dotted, a, b) {
                return result;
            }
        }
        if let Some(v) = carrying_scalar_binary(op, a, b)? {
            return Ok(v);
        }
        if let Some(result) = crate::builtins::linalg::uniform::binary(self, op, dotted, a, b) {
            return result;
        }
        if let Some(result) = crate::builtins::cartesian::binary(op, dotted, a, b) {
            return result;
        }
        // Sparse matrices have their own arithmetic (results stay sparse where Julia's do).
        let sparse = if dotted {
            crate::builtins::sparse::sparse_broadcast(self, op, a, b)
        } else {
            crate::builtins::sparse::sparse_binary(self, op, a, b)
        };
        if let Some(result) = sparse {
            return result;
        }
        match op {
            BinOp::Pipe if dotted => return self.broadcast_pipe(a, b),
            BinOp::Pipe => return self.call(b, vec![a.clone()]),
            BinOp::Pair if dotted => {
                let pair = crate::builtins::lookup(difflab_syntax::Name::new("Pair"))
                    .expect("Pair is a builtin");
                return self.broadcast_call(
                    &Value::Builtin(pair),
                    vec![a.clone(), b.clone()],
                    vec![],
                );
            }
            BinOp::Pair => return Ok(Value::pair(a.clone(), b.clone())),
            BinOp::In => return crate::builtins::collections::contains(self, b, a),
            BinOp::Subtype => return super::methods::subtype_test(a, b),
            BinOp::Compose => return crate::builtins::functional::compose(a, b),
            BinOp::Identical => return Ok(Value::Bool(identical(a, b))),
            BinOp::NotIdentical => return Ok(Value::Bool(!identical(a, b))),
            BinOp::Approx if !dotted => {
                return crate::builtins::math::isapprox(self, a, b, None, None)
            }
            _ => {}
        }
        let (Some(x), Some(y)) = (operand(a)?, operand(b)?) else {
            if dotted
                && (super::call::broadcasts_by_element(a) || super::call::broadcasts_by_element(b))
            {
                // Each element may itself be a container: one level of Rust stack per level.
                self.check_stack()?;
                return self.broadcast_each(&[a.clone(), b.clone()], |interp, xy| {
                    interp.binary(op, false, &xy[0], &xy[1])
                });
            }
            if let (BinOp::Pow, Value::Str(x), &Value::Int(n @ 0..)) = (op, a, b) {
                self.check_bytes((x.len() as u64).saturating_mul(n as u64), "a string")?;
            }
            if matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) {
                if let Some(result) = crate::builtins::ordering::compare(self, op, a, b) {
                    return result;
                }
            }
            return non_numeric_binary(op, dotted, a, b);
        };
        if op == BinOp::Pow && !dotted && !x.scalar {
            // `A^k` is a matrix power, not an elementwise one (that is `A .^ k`).
            drop((x, y));
            return crate::builtins::linalg::matrix_power(self, a, b);
        }
        if dotted || x.scalar || y.scalar {
            return elementwise(op, &x, &y);
        }
        match op {
            BinOp::Add | BinOp::Sub => {
                if x.tensor().shape() != y.tensor().shape() {
                    return Err(fail(
                        ErrorKind::DimensionMismatch,
                        format!(
                            "a has size {:?}, b has size {:?}, mismatch at dimension 1",
                            x.tensor().shape(),
                            y.tensor().shape()
                        ),
                    ));
                }
                elementwise(op, &x, &y)
            }
            BinOp::Mul => {
                // The product's size, checked before anything is allocated (`x * x'` of a long
                // vector is an outer product).
                let rows = x.tensor().shape().first().copied().unwrap_or(1);
                let cols = match y.tensor().shape() {
                    [_, n] => *n,
                    _ => 1,
                };
                self.check_alloc(rows.saturating_mul(cols))?;
                let product = ops::matmul(x.tensor(), y.tensor())?;
                if x.row_adjoint() && y.tensor().shape().len() == 1 {
                    return Ok(Value::from_scalar(ops::reshape(&product, &[])?));
                }
                let eltype = result_eltype(op, x.eltype, y.eltype);
                if x.row_adjoint() {
                    let mut arr = Array::new(eltype, product);
                    arr.row_adjoint = y.row_adjoint() || y.tensor().shape().len() == 2;
                    arr.row_adjoint &= arr.data.shape().first() == Some(&1);
                    return Ok(Value::Array(Rc::new(RefCell::new(arr))));
                }
                Ok(from_tensor(product, eltype, false))
            }
            BinOp::LeftDiv => {
                drop((x, y));
                crate::builtins::linalg::solve(self, a, b)
            }
            BinOp::Eq | BinOp::Ne => {
                let equal = x.tensor().shape() == y.tensor().shape()
                    && difflab_ad::compiled::compare(x.tensor(), y.tensor(), |p, q| p == q)?
                        .iter()
                        .all(|&e| e == 1.0);
                Ok(Value::Bool(equal == (op == BinOp::Eq)))
            }
            BinOp::Pow => {
                drop((x, y));
                crate::builtins::linalg::matrix_power(self, a, b)
            }
            _ => Err(fail(
                ErrorKind::MethodError,
                format!(
                    "no method matching {}(::{}, ::{}); for elementwise operations use `.{}`",
                    op.symbol(),
                    a.type_name(),
                    b.type_name(),
                    op.symbol()
                ),
            )),
        }
    }
}

/// Whole-array elementwise `a .op b`.
fn elementwise(op: BinOp, x: &Operand, y: &Operand) -> EvalResult {
    let scalar = x.scalar && y.scalar;
    if let Some(f) = arith_fn(op) {
        let eltype = result_eltype(op, x.eltype, y.eltype);
        if eltype == ElType::Int64
            && op == BinOp::Pow
            && y.tensor().primal().iter().any(|&e| e < 0.0)
        {
            return Err(fail(
                ErrorKind::DomainError,
                "Cannot raise an integer to a negative power",
            ));
        }
        let t = ops::binary(f, x.tensor(), y.tensor())?;
        return Ok(from_tensor(t, eltype, scalar));
    }
    match op {
        BinOp::LeftDiv => {
            let t = ops::binary(BinaryFn::Div, y.tensor(), x.tensor())?;
            return Ok(from_tensor(t, ElType::Float64, scalar));
        }
        BinOp::IntDiv => {
            let eltype = result_eltype(op, x.eltype, y.eltype);
            let divisors = y.tensor().primal();
            if eltype == ElType::Int64 && divisors.iter().any(|&d| d == 0.0) {
                return Err(fail(ErrorKind::DivideError, "integer division error"));
            }
            // `trunc` has a zero derivative: tracers forget their dependencies, and a tracing
            // without values gets a number without one.
            let quotient = ops::binary(BinaryFn::Div, x.tensor(), y.tensor())?;
            let t = ops::unary(UnaryFn::Trunc, &quotient)?;
            return Ok(from_tensor(t, eltype, scalar));
        }
        _ => {}
    }
    // Tracings without values cannot compare: say which one, and what to use instead.
    let valueless = |t: fn(&Tensor) -> bool| t(x.tensor()) || t(y.tensor());
    if is_comparison(op) && valueless(Tensor::is_global_tracer) && !valueless(Tensor::is_symbolic) {
        return traced_condition(x.tensor(), y.tensor(), scalar);
    }
    if let Some(why) = without_values(x.tensor()).or(without_values(y.tensor())) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("`{}` compares values, but {why}", op.symbol()),
        ));
    }
    let (p, q) = (x.tensor().primal(), y.tensor().primal());
    let mask = |f: &dyn Fn(f64, f64) -> f64| -> EvalResult {
        let t = Tensor::plain(difflab_ad::broadcast::zip_map(p, q, f)?);
        Ok(from_tensor(t, ElType::Bool, scalar))
    };
    match op {
        // Through `compiled::compare`, a compiled tape keeps the outcome as a guard.
        _ if is_comparison(op) => {
            let t = Tensor::plain(difflab_ad::compiled::compare(
                x.tensor(),
                y.tensor(),
                move |a, b| compare(op, a, b),
            )?);
            Ok(from_tensor(t, ElType::Bool, scalar))
        }
        BinOp::Approx => {
            mask(&|a, b| f64::from(u8::from(crate::builtins::math::approx_scalar(a, b))))
        }
        BinOp::BitAnd => mask(&|a, b| f64::from(u8::from(a != 0.0 && b != 0.0))),
        BinOp::BitOr => mask(&|a, b| f64::from(u8::from(a != 0.0 || b != 0.0))),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!("no elementwise method for `{}`", op.symbol()),
        )),
    }
}

/// Scalar arithmetic with Julia's promotion, or `None` when an operand is not a plain scalar.
// Inlined into `binary`: scalar code is the interpreter's hottest path.
#[inline(always)]
pub(crate) fn scalar_binary(op: BinOp, a: &Value, b: &Value) -> Result<Option<Value>, Flow> {
    use Value::{Bool, Float, Int};
    let as_int = |v: &Value| match v {
        Int(i) => Some(*i),
        Bool(b) => Some(i64::from(*b)),
        _ => None,
    };
    if let (Some(x), Some(y)) = (as_int(a), as_int(b)) {
        if let (Bool(p), Bool(q)) = (a, b) {
            match op {
                BinOp::BitAnd => return Ok(Some(Bool(*p && *q))),
                BinOp::BitOr => return Ok(Some(Bool(*p || *q))),
                _ => {}
            }
        }
        return Ok(Some(match op {
            BinOp::Add => Int(x.wrapping_add(y)),
            BinOp::Sub => Int(x.wrapping_sub(y)),
            BinOp::Mul => Int(x.wrapping_mul(y)),
            BinOp::Div => Float(x as f64 / y as f64),
            BinOp::Pow => {
                if y < 0 {
                    return Err(fail(
                        ErrorKind::DomainError,
                        format!("Cannot raise an integer x to a negative power {y}. Convert the base to Float64: float(x)^{y}"),
                    ));
                }
                Int(x.wrapping_pow(y.min(u32::MAX as i64) as u32))
            }
            // The quotient of typemin(Int) by -1 does not fit, as in Julia (its remainder is 0).
            BinOp::IntDiv | BinOp::Rem
                if y == 0 || (op == BinOp::IntDiv && x == i64::MIN && y == -1) =>
            {
                return Err(fail(ErrorKind::DivideError, "integer division error"))
            }
            BinOp::IntDiv => Int(x.wrapping_div(y)),
            BinOp::Rem => Int(x.wrapping_rem(y)),
            BinOp::BitAnd => Int(x & y),
            BinOp::BitOr => Int(x | y),
            BinOp::LeftDiv => Float(y as f64 / x as f64),
            BinOp::Approx => Bool(x == y),
            _ if is_comparison(op) => Bool(compare(op, x as f64, y as f64)),
            _ => return Ok(None),
        }));
    }
    let as_float = |v: &Value| match v {
        Float(x) => Some(*x),
        Int(i) => Some(*i as f64),
        Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    };
    let (Some(x), Some(y)) = (as_float(a), as_float(b)) else {
        return Ok(None);
    };
    Ok(Some(match op {
        BinOp::Add => Float(x + y),
        BinOp::Sub => Float(x - y),
        BinOp::Mul => Float(x * y),
        BinOp::Div => Float(x / y),
        BinOp::LeftDiv => Float(y / x),
        BinOp::Pow => {
            if x < 0.0 && y.fract() != 0.0 {
                return Err(fail(
                    ErrorKind::DomainError,
                    format!(
                        "{} ^ {}: exponentiation yielding a complex result requires a complex argument",
                        crate::show::float(x),
                        crate::show::float(y)
                    ),
                ));
            }
            Float(BinaryFn::Pow.apply(x, y))
        }
        BinOp::IntDiv => Float((x / y).trunc()),
        BinOp::Rem => Float(x % y),
        BinOp::Approx => Bool(crate::builtins::math::approx_scalar(x, y)),
        _ if is_comparison(op) => Bool(compare(op, x, y)),
        _ => return Ok(None),
    }))
}

/// Arithmetic on two numbers of which one carries derivatives (scalar code), with no array in
/// between; `None` for anything else.
fn carrying_scalar_binary(op: BinOp, a: &Value, b: &Value) -> Result<Option<Value>, Flow> {
    fn number(v: &Value) -> Option<ops::Scalar<'_>> {
        match v {
            Value::Real(t) => Some(ops::Scalar::Carrying(t)),
            Value::Float(x) => Some(ops::Scalar::Plain(*x)),
            Value::Int(i) => Some(ops::Scalar::Plain(*i as f64)),
            Value::Bool(b) => Some(ops::Scalar::Plain(f64::from(u8::from(*b)))),
            _ => None,
        }
    }
    let (Some(f), Some(x), Some(y)) = (arith_fn(op), number(a), number(b)) else {
        return Ok(None);
    };
    Ok(Some(Value::from_scalar(ops::scalar_binary(f, x, y)?)))
}

/// `==`, `*` and comparisons on strings, symbols, tuples and other non-numbers.
fn non_numeric_binary(op: BinOp, dotted: bool, a: &Value, b: &Value) -> EvalResult {
    if let Some(result) = crate::builtins::chars::binary(op, a, b) {
        return result;
    }
    match (op, a, b) {
        (BinOp::Mul, Value::Str(x), Value::Str(y)) => Ok(Value::str(format!("{x}{y}"))),
        (BinOp::Pow, Value::Str(x), Value::Int(n)) if *n >= 0 => {
            Ok(Value::str(x.repeat(*n as usize)))
        }
        (BinOp::Eq, _, _) => Ok(Value::Bool(values_equal(a, b))),
        (BinOp::Ne, _, _) => Ok(Value::Bool(!values_equal(a, b))),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {}{}(::{}, ::{})",
                if dotted { "." } else { "" },
                op.symbol(),
                a.type_name(),
                b.type_name()
            ),
        )),
    }
}

/// Julia's `==` on any two values.
pub fn values_equal(a: &Value, b: &Value) -> bool {
    /// `==` of two values neither of which holds other values.
    fn leaf_equal(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Nothing, Value::Nothing) => true,
            (Value::Str(x), Value::Str(y)) => x == y,
            (Value::Char(x), Value::Char(y)) => x == y,
            (Value::Symbol(x), Value::Symbol(y)) => x == y,
            (Value::Object(x), Value::Object(y)) if x.equals(&***y).is_some() => {
                x.equals(&***y) == Some(true)
            }
            (Value::Sparse(x), Value::Sparse(y)) => {
                // Equal entries at equal positions; stored zeros count as zeros.
                let entries = |m: &sprs::CsMat<f64>| {
                    let mut e: Vec<(usize, usize, f64)> = m
                        .iter()
                        .filter(|(v, _)| **v != 0.0)
                        .map(|(v, (i, j))| (j, i, *v))
                        .collect();
                    e.sort_by_key(|&(j, i, _)| (j, i));
                    e
                };
                let (x, y) = (x.borrow(), y.borrow());
                x.matrix.shape() == y.matrix.shape() && entries(&x.matrix) == entries(&y.matrix)
            }
            _ => match (operand(a).ok().flatten(), operand(b).ok().flatten()) {
                (Some(x), Some(y)) => {
                    x.tensor().shape() == y.tensor().shape()
                        && x.tensor()
                            .primal()
                            .iter()
                            .zip(y.tensor().primal().iter())
                            .all(|(p, q)| p == q)
                }
                _ => identical(a, b),
            },
        }
    }
    let holds_values = |v: &Value| match v {
        Value::Tuple(_) | Value::NamedTuple(_) | Value::List(_) => true,
        Value::Struct(s) => s.is_pair(),
        _ => false,
    };
    if !holds_values(a) && !holds_values(b) {
        return leaf_equal(a, b);
    }
    // Containers compare through a stack of pending pairs, not by recursion, so nesting of
    // any depth compares without overflowing the stack. A pair of vectors met again while
    // being compared is taken as equal (both hold the same cycle from there), so a vector
    // that contains itself equals itself rather than recursing forever, and each pair of
    // vectors is walked once.
    let mut pending = vec![(a.clone(), b.clone())];
    let mut assumed = std::collections::HashSet::new();
    while let Some((x, y)) = pending.pop() {
        match (&x, &y) {
            (Value::Tuple(_), Value::Tuple(_)) | (Value::NamedTuple(_), Value::NamedTuple(_)) => {
                match super::iterate::paired_fields(&x, &y) {
                    Some(pairs) => pending.extend(pairs),
                    None => return false,
                }
            }
            // Pairs compare by `==` of their parts, whatever their types (`1 => 2 == 1.0 => 2`).
            (Value::Struct(p), Value::Struct(q)) if p.is_pair() && q.is_pair() => {
                pending.extend(field_pairs(p, q));
            }
            (Value::List(p), Value::List(q)) => {
                if !assumed.insert((Rc::as_ptr(p), Rc::as_ptr(q))) {
                    continue;
                }
                let (p, q) = (p.borrow(), q.borrow());
                if p.len() != q.len() {
                    return false;
                }
                pending.extend(p.iter().cloned().zip(q.iter().cloned()));
            }
            // `Any[1, 2] == [1, 2]`: a vector of values equals a numeric vector element by element.
            (Value::List(list), other @ (Value::Array(_) | Value::Range(_)))
            | (other @ (Value::Array(_) | Value::Range(_)), Value::List(list)) => {
                let list = list.borrow();
                if crate::builtins::arrays::shape_of_value(other) != Some(vec![list.len()]) {
                    return false;
                }
                let Ok(elements) = super::iterate::elements(other) else {
                    return false;
                };
                pending.extend(list.iter().cloned().zip(elements));
            }
            _ if holds_values(&x) || holds_values(&y) => return false,
            _ => {
                if !leaf_equal(&x, &y) {
                    return false;
                }
            }
        }
    }
    true
}

/// The corresponding fields of two struct values.
fn field_pairs(p: &StructValue, q: &StructValue) -> Vec<(Value, Value)> {
    let (p, q) = (p.fields.borrow(), q.fields.borrow());
    p.iter().cloned().zip(q.iter().cloned()).collect()
}

/// Julia's `===`: the same object, or equal immutable values.
pub fn identical(a: &Value, b: &Value) -> bool {
    /// Whether `x === y` as far as their own fields go; the elements of two tuples still to
    /// compare are added to `pending`.
    fn step(x: &Value, y: &Value, pending: &mut Vec<(Value, Value)>) -> bool {
        match (x, y) {
            (Value::Tuple(p), Value::Tuple(q)) if Rc::ptr_eq(p, q) => true,
            (Value::NamedTuple(p), Value::NamedTuple(q)) if Rc::ptr_eq(p, q) => true,
            (Value::Tuple(_), Value::Tuple(_)) | (Value::NamedTuple(_), Value::NamedTuple(_)) => {
                match super::iterate::paired_fields(x, y) {
                    Some(pairs) => {
                        pending.extend(pairs);
                        true
                    }
                    None => false,
                }
            }
            (Value::Array(p), Value::Array(q)) => Rc::ptr_eq(p, q),
            (Value::Sparse(p), Value::Sparse(q)) => Rc::ptr_eq(p, q),
            (Value::List(p), Value::List(q)) => Rc::ptr_eq(p, q),
            (Value::Function(p), Value::Function(q)) => Rc::ptr_eq(p, q),
            // `Int` and `Int64` are two names of one type.
            (Value::Builtin(p), Value::Builtin(q)) => {
                std::ptr::eq(*p, *q)
                    || matches!(
                        (Prim::from_name(p.name), Prim::from_name(q.name)),
                        (Some(x), Some(y)) if x == y
                    )
            }
            // Types known by name (what `typeof` gives for library types) are equal by name.
            (Value::Object(p), Value::Object(q)) => {
                Rc::ptr_eq(p, q)
                    || (p.type_name() == "DataType"
                        && q.type_name() == "DataType"
                        && p.show() == q.show())
                    || (p.is_plain_data()
                        && q.is_plain_data()
                        && p.type_name() == q.type_name()
                        && p.repr() == q.repr())
            }
            (Value::Int(p), Value::Int(q)) => p == q,
            (Value::Float(p), Value::Float(q)) => p.to_bits() == q.to_bits(),
            (Value::Bool(p), Value::Bool(q)) => p == q,
            (Value::Nothing, Value::Nothing) => true,
            (Value::Str(p), Value::Str(q)) => p == q,
            (Value::Char(p), Value::Char(q)) => p == q,
            (Value::Symbol(p), Value::Symbol(q)) => p == q,
            (Value::Range(p), Value::Range(q)) => p == q,
            (Value::Type(p), Value::Type(q)) => p == q,
            // A type computed (`Union{Int, Real}`) and one named (`Real`) are one type.
            (Value::Type(p), named @ (Value::Builtin(_) | Value::Object(_)))
            | (named @ (Value::Builtin(_) | Value::Object(_)), Value::Type(p)) => {
                crate::types::Type::from_value(named).is_some_and(|q| **p == q)
            }
            // Immutable user values are identical when their fields are (Julia's egal);
            // mutable ones only when they are the same object.
            (Value::Struct(p), Value::Struct(q)) if Rc::ptr_eq(p, q) => true,
            (Value::Struct(p), Value::Struct(q)) => {
                let same = !p.def.mutable && Rc::ptr_eq(&p.def, &q.def) && p.params == q.params;
                if same {
                    pending.extend(field_pairs(p, q));
                }
                same
            }
            _ => false,
        }
    }
    // Tuples are immutable, so two are identical when their elements are; pending pairs live
    // on a heap stack so that nesting of any depth never overflows the call stack.
    let mut pending = Vec::new();
    if !step(a, b, &mut pending) {
        return false;
    }
    while let Some((x, y)) = pending.pop() {
        if !step(&x, &y, &mut pending) {
            return false;
        }
    }
    true
}

/// `op v` (or `.op v`).
pub fn unary(op: UnaryOp, _dotted: bool, v: &Value) -> EvalResult {
    if let Some(result) = crate::builtins::sparse::sparse_unary(op, v) {
        return result;
    }
    if op == UnaryOp::Neg {
        if let Some(result) = crate::builtins::linalg::uniform::negate(v) {
            return result;
        }
    }
    match (op, v) {
        (UnaryOp::Plus, _) => Ok(v.clone()),
        (UnaryOp::Neg, Value::Int(i)) => Ok(Value::Int(i.wrapping_neg())),
        (UnaryOp::Neg, Value::Float(x)) => Ok(Value::Float(-x)),
        (UnaryOp::Neg, Value::Bool(b)) => Ok(Value::Int(-i64::from(*b))),
        (UnaryOp::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
        (UnaryOp::Not, Value::Array(a)) if a.borrow().eltype == ElType::Bool => {
            let a = a.borrow();
            let t = Tensor::plain(a.data.primal().mapv(|x| f64::from(u8::from(x == 0.0))));
            Ok(from_tensor(t, ElType::Bool, false))
        }
        (UnaryOp::Neg | UnaryOp::Sqrt, _) => {
            let Some(x) = operand(v)? else {
                return Err(fail(
                    ErrorKind::MethodError,
                    format!("no method matching -(::{})", v.type_name()),
                ));
            };
            let f = if op == UnaryOp::Neg {
                UnaryFn::Neg
            } else {
                UnaryFn::Sqrt
            };
            let eltype = if op == UnaryOp::Neg && x.eltype != ElType::Float64 {
                ElType::Int64
            } else {
                ElType::Float64
            };
            let t = ops::unary(f, x.tensor())?;
            Ok(from_tensor(t, eltype, x.scalar))
        }
        // A traced Bool (SparseConnectivityTracer overloads `!`): the negation has no derivative,
        // so it is `1 - sign(x)` on the values 0 and 1 (a global tracer has no value to check).
        (UnaryOp::Not, Value::Real(t))
            if t.primal()
                .iter()
                .all(|&x| x == 0.0 || x == 1.0 || x.is_nan()) =>
        {
            let zero_derivative = ops::unary(UnaryFn::Sign, t)?;
            Ok(Value::Real(ops::binary(
                BinaryFn::Sub,
                &Tensor::scalar(1.0),
                &zero_derivative,
            )?))
        }
        // `!f` is the function `x -> !f(x)` (`filter(!iszero, x)`), as Julia composes it.
        (UnaryOp::Not, f @ (Value::Function(_) | Value::Builtin(_))) => {
            let not =
                crate::builtins::lookup(difflab_syntax::Name::new("!")).expect("`!` is a builtin");
            crate::builtins::functional::compose(&Value::Builtin(not), f)
        }
        (UnaryOp::Not, other) => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching !(::{})", other.type_name()),
        )),
    }
}

/// `start:stop` and `start:step:stop`.
pub fn make_range(start: &Value, step: Option<&Value>, stop: &Value) -> EvalResult {
    if let (Value::Char(first), Value::Char(last)) = (start, stop) {
        return crate::builtins::chars::range(*first, step, *last);
    }
    let num = |v: &Value| -> Result<(f64, bool), Flow> {
        match v {
            Value::Int(i) => Ok((*i as f64, true)),
            Value::Float(x) => Ok((*x, false)),
            Value::Real(t) => Ok((t.primal().first().copied().unwrap_or(0.0), false)),
            other => Err(fail(
                ErrorKind::MethodError,
                format!("no method matching (:)(::{})", other.type_name()),
            )),
        }
    };
    let (a, ai) = num(start)?;
    let (b, bi) = num(stop)?;
    let (s, si) = match step {
        Some(v) => num(v)?,
        None => (1.0, true),
    };
    if s == 0.0 {
        return Err(fail(ErrorKind::ArgumentError, "step cannot be zero"));
    }
    let is_int = ai && bi && si;
    let span = (b - a) / s;
    let int_of = |v: Option<&Value>| match v {
        Some(Value::Int(i)) => *i,
        _ => 1,
    };
    // A tolerance of a few ulps keeps `0:0.1:1` at 11 elements, as Julia's range does.
    let len = if is_int {
        Range::int_len(int_of(Some(start)), int_of(step), int_of(Some(stop)))
    } else if span < 0.0 {
        0
    } else {
        let steps = (span + span.abs() * 4.0 * f64::EPSILON).floor();
        // Beyond 2^62 elements (or an infinite span) no length is representable: Julia's
        // `0.0:1e-300:1.0` fails too.
        if steps.is_nan() || steps >= 2f64.powi(62) {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "the range from {} to {} in steps of {} has no representable length",
                    crate::show::float(a),
                    crate::show::float(b),
                    crate::show::float(s)
                ),
            ));
        }
        steps as usize + 1
    };
    Ok(Value::Range(Rc::new(Range::new(
        a,
        s,
        len,
        is_int,
        step.is_none() && is_int,
    ))))
}

/// `v'`: transpose of a real matrix; a vector becomes a 1×n row that multiplies a vector into a
/// scalar; the adjoint of such a row is the vector again.
pub fn adjoint(v: &Value) -> EvalResult {
    match v {
        Value::Array(a) => {
            let a = a.borrow();
            let shape = a.data.shape().to_vec();
            let (data, row) = match (shape.len(), a.row_adjoint) {
                (2, true) => (ops::reshape(&a.data, &[shape[1]])?, false),
                (1, _) => (ops::reshape(&a.data, &[1, shape[0]])?, true),
                _ => (ops::transpose(&a.data)?, false),
            };
            let mut out = Array::new(a.eltype, data);
            out.row_adjoint = row;
            Ok(Value::Array(Rc::new(RefCell::new(out))))
        }
        Value::Range(r) => adjoint(&from_tensor(
            range_tensor(r)?,
            if r.is_int {
                ElType::Int64
            } else {
                ElType::Float64
            },
            false,
        )),
        Value::Sparse(_) => crate::builtins::sparse::transpose_value(v),
        other if other.is_number() => Ok(other.clone()),
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching adjoint(::{})", other.type_name()),
        )),
    }
}
