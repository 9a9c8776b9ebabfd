//! Julia's `Diagonal`. `Diagonal(v)` is a dense matrix here, marked as built by `Diagonal`
//! ([`crate::value::Structure::Diagonal`]): its type and display are `Diagonal`'s, and the
//! operations that keep a `Diagonal` in Julia keep the mark ([`keep_binary`],
//! [`keep_unary`]) when their result is zero off the diagonal.
//!
//! Under sparsity tracing, while its off-diagonal entries are
//! still constants that depend on nothing (no write has put a dependency there), `det`,
//! `logdet`, `inv` and `exp` of traced numbers follow the methods of Julia's `Diagonal` type:
//! the product (or sum of logarithms) of the diagonal, and the function entry by entry. Their
//! patterns are then those SparseConnectivityTracer finds (`det` couples distinct diagonal
//! entries only), where the rules of a dense matrix couple every entry with every other.

use super::construct::diagonal_positions;
use crate::error::{fail, ErrorKind, EvalResult, Flow};
use crate::show::ElType;
use crate::value::convert::from_tensor;
use crate::value::{Array, Value};
use difflab_ad::ops::{self, BinaryFn, UnaryFn};
use difflab_ad::tracer::sets_of;
use difflab_ad::Tensor;
use difflab_syntax::BinOp;

/// The diagonal of a traced matrix built by `Diagonal` whose other entries are still constant
/// zeros (or, without values, constants), as a vector.
pub fn traced_diagonal(v: &Value) -> Option<Tensor> {
    let Value::Array(a) = v else { return None };
    let a = a.borrow();
    let [n, m] = *a.data.shape() else { return None };
    if a.structure != crate::value::Structure::Diagonal || n != m || !a.data.has_tracer() {
        return None;
    }
    let on_diagonal = diagonal_positions(n, n, 0);
    let constant_zero = |t: &Tensor| {
        let sets = sets_of(t);
        let values = t.to_col_major();
        (0..n * n)
            .filter(|k| !on_diagonal.contains(k))
            .all(|k| sets[k].is_empty() && (values[k] == 0.0 || values[k].is_nan()))
    };
    let layers_constant = match &a.data {
        Tensor::Dual(d) => constant_zero(&d.value) && d.partials.iter().all(constant_zero),
        other => constant_zero(other),
    };
    if !layers_constant {
        return None;
    }
    ops::gather(&a.data, &on_diagonal, &[n]).ok()
}

/// The diagonal entries one by one.
fn entries(diagonal: &Tensor) -> difflab_ad::error::Result<Vec<Tensor>> {
    (0..diagonal.len())
        .map(|i| ops::gather(diagonal, &[i], &[]))
        .collect()
}

/// `det` of a diagonal matrix: the product of its diagonal.
pub fn det(diagonal: &Tensor) -> EvalResult {
    let mut product = Tensor::scalar(1.0);
    for d in entries(diagonal)? {
        product = ops::binary(BinaryFn::Mul, &product, &d)?;
    }
    Ok(Value::from_scalar(product))
}

/// `logdet` of a diagonal matrix: the sum of the logarithms of its diagonal.
pub fn logdet(diagonal: &Tensor) -> EvalResult {
    let logs = ops::unary(UnaryFn::Log, diagonal)?;
    Ok(Value::from_scalar(ops::sum_all(&logs)?))
}

/// `f` of a diagonal matrix applied entry by entry (`inv`, `exp`): the diagonal matrix of
/// `f` of its diagonal.
pub fn entrywise(diagonal: &Tensor, f: UnaryFn) -> EvalResult {
    let n = diagonal.len();
    let mapped = ops::unary(f, diagonal)?;
    let zeros = Tensor::filled(&[n, n], 0.0);
    let matrix = ops::scatter(&zeros, &diagonal_positions(n, n, 0), &mapped)?;
    Ok(marked(from_tensor(matrix, ElType::Float64, false)))
}

/// True for a `Diagonal` matrix.
fn is_diagonal(v: &Value) -> bool {
    matches!(v, Value::Array(a) if a.borrow().is_diagonal())
}

/// `a op b` (`result`) marked as a `Diagonal` when Julia's is one: sums, differences and
/// products of two `Diagonal`s, and a `Diagonal` times, over or to the power of a number.
pub fn keep_binary(op: BinOp, a: &Value, b: &Value, result: Value) -> Value {
    let (da, db) = (is_diagonal(a), is_diagonal(b));
    if !da && !db {
        return result;
    }
    let keeps = match op {
        BinOp::Add | BinOp::Sub => da && db,
        BinOp::Mul => (da && (db || b.is_number())) || (db && a.is_number()),
        BinOp::Div | BinOp::Pow => da && b.is_number(),
        _ => false,
    };
    if keeps {
        marked_if_diagonal(result)
    } else {
        result
    }
}

/// `f(a)` (`result`: `-D`, `D'`, `transpose(D)`, `inv(D)`) marked as a `Diagonal` when `a` is
/// one.
pub fn keep_unary(a: &Value, result: Value) -> Value {
    if is_diagonal(a) {
        marked_if_diagonal(result)
    } else {
        result
    }
}

/// `result` marked as a `Diagonal` when it is a square matrix whose entries off the diagonal
/// are zero (a product with `Inf` leaves NaN there, which a `Diagonal` would hide).
fn marked_if_diagonal(result: Value) -> Value {
    let zero_off_diagonal = match &result {
        Value::Array(a) => {
            let a = a.borrow();
            match *a.data.shape() {
                [n, m] if n == m => a
                    .data
                    .to_col_major()
                    .iter()
                    .enumerate()
                    .all(|(k, &x)| x == 0.0 || on_diagonal(k, n)),
                _ => false,
            }
        }
        _ => false,
    };
    if zero_off_diagonal {
        marked(result)
    } else {
        result
    }
}

/// Julia's error for writing a nonzero off the diagonal of a `Diagonal` `a`: at the
/// column-major positions `pos`, the values `values` (one per position, or one for all).
pub fn check_write(a: &Array, pos: &[usize], values: &Tensor) -> Result<(), Flow> {
    if !a.is_diagonal() {
        return Ok(());
    }
    let n = a.data.shape()[0];
    let values = values.to_col_major();
    for (j, &k) in pos.iter().enumerate() {
        let v = values[if values.len() == 1 { 0 } else { j }];
        if !on_diagonal(k, n) && v != 0.0 {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "cannot set off-diagonal entry ({}, {}) to a nonzero value ({})",
                    k % n + 1,
                    k / n + 1,
                    crate::show::element(a.eltype, v, false)
                ),
            ));
        }
    }
    Ok(())
}

/// True when column-major position `k` of an n×n matrix is on its diagonal: entry (i, i)
/// is at i·(n + 1).
fn on_diagonal(k: usize, n: usize) -> bool {
    k.is_multiple_of(n + 1)
}

/// The matrix marked as built by `Diagonal`.
pub fn marked(matrix: Value) -> Value {
    if let Value::Array(a) = &matrix {
        a.borrow_mut().structure = crate::value::Structure::Diagonal;
    }
    matrix
}
