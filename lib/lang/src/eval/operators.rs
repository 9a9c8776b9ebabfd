//! Binary operators on values: arithmetic, comparisons and broadcasting (`.+`); the unary ones,
//! ranges and adjoints are `builtins::value_operators`.
//!
//! Plain scalars take a fast path with Julia's promotion rules (`Int` op `Int` stays `Int` for
//! `+ - * ^`, `/` gives `Float64`, `Bool` counts as 0/1). Arrays and numbers carrying
//! derivatives go through `ad::ops`, one whole-array kernel per operation.

use super::Interp;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::show::ElType;
use crate::value::convert::{from_tensor, operand, range_tensor, without_values, Operand};
use crate::value::equality::{identical, values_equal};

use crate::value::{Array, Value};
use difflab_ad::ops::{self, BinaryFn, UnaryFn};
use difflab_ad::Tensor;
use difflab_syntax::{BinOp, UnaryOp};
use std::cell::RefCell;
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

/// A comparison under `TracerSparsityDetector()`, as SparseConnectivityTracer's global tracers
/// make it: a number with no value and no derivative (a `Float64`, so it is never read as a
/// mask). Branching on it is a `TypeError` ([`global_condition_error`]); `ifelse` takes both
/// branches.
fn traced_condition(x: &Tensor, y: &Tensor, scalar: bool) -> EvalResult {
    let t = ops::unary(UnaryFn::Sign, &ops::binary(BinaryFn::Sub, x, y)?)?;
    Ok(from_tensor(t, ElType::Float64, scalar))
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
    // Julia's `*` of two `Bool`s is their conjunction, a `Bool`.
    if op == BinOp::Mul && a == ElType::Bool && b == ElType::Bool {
        return ElType::Bool;
    }
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
        let inputs = crate::value::iterate::elements(a)?;
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
        let result = self.binary_of_containers(op, dotted, a, b)?;
        Ok(crate::builtins::linalg::diagonal::keep_binary(
            op, a, b, result,
        ))
    }

    /// [`Interp::binary`] when an operand is not a plain number.
    fn binary_of_containers(
        &mut self,
        op: BinOp,
        dotted: bool,
        a: &Value,
        b: &Value,
    ) -> EvalResult {
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
                let pair = crate::builtins::lookup(difflab_syntax::name!("Pair"))
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
        if !dotted && matches!(op, BinOp::Add | BinOp::Sub) && x.scalar != y.scalar {
            // Julia has no `+` of an array and a number: adding to every element is `.+`.
            let (word, symbol) = match op {
                BinOp::Add => ("addition", "+"),
                _ => ("subtraction", "-"),
            };
            return Err(fail(
                ErrorKind::MethodError,
                format!(
                    "no method matching {symbol}(::{}, ::{})\nFor element-wise {word}, use broadcasting with dot syntax: array .{symbol} scalar",
                    a.type_name(),
                    b.type_name()
                ),
            ));
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
                // Products are summed: of `Bool`s, that is an `Int`.
                let eltype = match result_eltype(op, x.eltype, y.eltype) {
                    ElType::Bool => ElType::Int64,
                    other => other,
                };
                if x.row_adjoint() && y.tensor().shape().len() == 1 {
                    // A row times a column is a number of the elements' type (`[1, 2]' * [3, 4]`
                    // is the `Int` 11).
                    return Ok(from_tensor(ops::reshape(&product, &[])?, eltype, true));
                }
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
    // A recording's tracing with values answers, keeping the outcome as a guard.
    if is_comparison(op) {
        let test = Rc::new(move |a, b| compare(op, a, b));
        if let Some(outcome) = difflab_ad::symbolic::compare(x.tensor(), y.tensor(), test) {
            return Ok(from_tensor(Tensor::plain(outcome?), ElType::Bool, scalar));
        }
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
                BinOp::BitAnd | BinOp::Mul => return Ok(Some(Bool(*p && *q))),
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
