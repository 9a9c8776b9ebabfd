//! Julia's `Diagonal` under sparsity tracing. `Diagonal(v)` is a plain matrix here, marked as
//! built by `Diagonal` ([`crate::value::Structure::Diagonal`]). While its off-diagonal entries are
//! still constants that depend on nothing (no write has put a dependency there), `det`,
//! `logdet`, `inv` and `exp` of traced numbers follow the methods of Julia's `Diagonal` type:
//! the product (or sum of logarithms) of the diagonal, and the function entry by entry. Their
//! patterns are then those SparseConnectivityTracer finds (`det` couples distinct diagonal
//! entries only), where the rules of a dense matrix couple every entry with every other.

use super::construct::diagonal_positions;
use crate::error::EvalResult;
use crate::show::ElType;
use crate::value::convert::from_tensor;
use crate::value::Value;
use difflab_ad::ops::{self, BinaryFn, UnaryFn};
use difflab_ad::tracer::sets_of;
use difflab_ad::Tensor;

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

/// The matrix marked as built by `Diagonal`.
pub fn marked(matrix: Value) -> Value {
    if let Value::Array(a) = &matrix {
        a.borrow_mut().structure = crate::value::Structure::Diagonal;
    }
    matrix
}
