//! The operators the evaluator applies to one value, which builtins apply too: `-x`, `+x`,
//! `!x` (also of a function: `!iszero`), `√x`, the adjoint `x'`, and ranges `a:b`, `a:s:b`
//! (of numbers or characters).

use crate::error::{fail, ErrorKind, EvalResult, Flow};
use crate::show::ElType;
use crate::value::convert::{from_tensor, operand, range_tensor};
use crate::value::{Array, Range, Value};
use difflab_ad::ops::{self, BinaryFn, UnaryFn};
use difflab_ad::Tensor;
use difflab_syntax::UnaryOp;
use std::cell::RefCell;
use std::rc::Rc;

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
            let result = from_tensor(t, eltype, x.scalar);
            Ok(crate::builtins::linalg::diagonal::keep_unary(v, result))
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
                crate::builtins::lookup(difflab_syntax::name!("!")).expect("`!` is a builtin");
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
            if a.is_diagonal() {
                out.structure = a.structure.clone();
            }
            Ok(Value::Array(Rc::new(RefCell::new(out))))
        }
        Value::Range(r) => adjoint(&from_tensor(range_tensor(r)?, r.eltype(), false)),
        Value::Sparse(_) => crate::builtins::sparse::transpose_value(v),
        other if other.is_number() => Ok(other.clone()),
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching adjoint(::{})", other.type_name()),
        )),
    }
}
