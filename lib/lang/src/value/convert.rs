//! Numbers in values as the array kernels see them, and back: [`operand`] borrows the numbers
//! of a number, an array or a range as a [`Tensor`] with the element type the language sees;
//! [`from_tensor`] makes a value of a kernel's result. Also the questions builtins ask of
//! numbers traced without values (symbolic tracing, global sparsity tracers).

use crate::error::{fail, ErrorKind, Flow};
use crate::show::ElType;
use crate::value::{Array, Range, Value};
use difflab_ad::Tensor;
use std::cell::{Ref, RefCell};
use std::rc::Rc;

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
            eltype: r.eltype(),
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

/// Element `k` (0-based) of a range. Integer ranges count in integers, so elements beyond
/// 2^53 are exact and overflow wraps as Julia's `Int` does.
pub fn range_element(r: &Range, k: usize) -> Value {
    if r.is_int {
        let (start, step) = (r.start as i64, r.step as i64);
        Value::Int(start.wrapping_add(step.wrapping_mul(k as i64)))
    } else {
        Value::Float(r.get(k))
    }
}

/// A number of the given element type.
pub fn number(eltype: ElType, x: f64) -> Value {
    match eltype {
        ElType::Float64 => Value::Float(x),
        ElType::Int64 => Value::Int(x as i64),
        ElType::Bool => Value::Bool(x != 0.0),
    }
}

/// The elements of an array as values: numbers of its element type, or numbers carrying
/// derivatives for an array of duals or tracers.
pub fn array_elements(a: &Array) -> Result<Vec<Value>, Flow> {
    if a.data.is_plain() {
        return Ok(a
            .data
            .to_col_major()
            .into_iter()
            .map(|x| number(a.eltype, x))
            .collect());
    }
    (0..a.data.len())
        .map(|k| {
            difflab_ad::ops::gather(&a.data, &[k], &[])
                .map(Value::from_scalar)
                .map_err(Flow::from)
        })
        .collect()
}
