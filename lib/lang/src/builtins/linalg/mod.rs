//! Dense linear algebra: `\` (LU, least squares), `inv`, `det`, `lu`, matrix powers, `I`,
//! `diag`, `diagm`, `tr`, `kron`, `triu`, `tril`, `issymmetric`, `cond` and `eigvals`.
//!
//! The numbers come from faer (LU with partial pivoting, SVD, eigenvalues) on column-major data.
//! `\`, `inv` and `det` carry closed-form derivative rules for every number kind
//! ([`solve_tensor`], [`det_tensor`]): forward (`ẋ = A \ (ḃ − Ȧx)`,
//! `(det A)˙ = det(A)·tr(A⁻¹Ȧ)`), reverse (`b̄ = A⁻ᵀx̄`, `Ā = −b̄xᵀ`, `Ā = det(A)·A⁻ᵀ`) and
//! sparsity (each output depends on all of `A`). `diag`, `diagm`, `tr`, `triu`, `tril`, `kron`
//! and powers are built from `ad::ops` primitives, so they differentiate like any other code;
//! `lu` and `cond` refuse numbers carrying derivatives with a `MethodError`; `eigvals` and
//! `eigen` of a symmetric matrix differentiate (`symmetric_eigen`).
//!
//! A matrix that stays constant while the right-hand side varies (a factorization, a sparse
//! matrix) is a [`LinearMap`], applied to a tensor of any kind by [`apply_linear`]; `sparse.rs`
//! uses it for `A * x` and `A \ b` with a sparse `A`.
//!
//! This module holds the linear maps and the helpers the others share; `factorize` (LU and
//! least-squares maps, `Inverse`, `lu`), `solve` (`\`, `inv`, `det` and their rules),
//! `construct` (`diag`, `diagm`, `tr`, `kron`, `I`, `triu`, `tril`), `spectral`
//! (`issymmetric`, `cond`, `eigvals`) and `matrix_functions` (`eigmax`, `eigmin`, `opnorm`,
//! `logabsdet`, `pinv`, the matrix `exp`) and `decompositions` (`cholesky`, `qr`, `svd`,
//! `eigen`) each register their own builtins; `uniform` gives the
//! bare `I` its arithmetic (`A + λ*I`).

use crate::error::ErrorKind;
use crate::error::{fail, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::operand;
use crate::value::{SparseMatrix, Value};
use difflab_ad::error::Result as AdResult;
use difflab_ad::ops::{self, BinaryFn};
use difflab_ad::reverse::{record_op, Rule};
use difflab_ad::tensor::col_major_data;
use difflab_ad::tracer::{self, union_all, Tracer};
use difflab_ad::{AdError, Tensor};
use std::rc::Rc;

/// Matrices with at least this many entries are factorized away from the session's thread
/// (a 500×500 LU takes about 10 ms; below, a thread costs more than it saves).
const OFF_THREAD_ENTRIES: usize = 250_000;

/// Runs `work` (a factorization, an SVD, an eigenvalue iteration) on the column-major matrix
/// `a` so that an interrupt or the memory limit is answered while it runs: faer's kernels
/// cannot be stopped, so a large matrix is factorized off the session's thread
/// ([`difflab_ad::background`]); small matrices are factorized here.
pub(crate) fn interruptible<T: Send + 'static>(
    a: &[f64],
    work: impl FnOnce(&[f64]) -> T + Send + 'static,
) -> AdResult<T> {
    if a.len() < OFF_THREAD_ENTRIES {
        return Ok(work(a));
    }
    difflab_ad::background::run(&[a], move |inputs, _| work(inputs[0]))
}

/// [`interruptible`] for work on a compressed-column sparse matrix: large ones (by stored
/// entries) are worked on off the session's thread, their index arrays travelling as numbers
/// (exact far beyond any size the memory limit allows).
pub(crate) fn interruptible_sparse<T: Send + 'static>(
    (indptr, indices, values): (&[usize], &[usize], &[f64]),
    work: impl FnOnce(&[usize], &[usize], &[f64]) -> T + Send + 'static,
) -> AdResult<T> {
    if values.len() < OFF_THREAD_ENTRIES {
        return Ok(work(indptr, indices, values));
    }
    let as_numbers = |v: &[usize]| v.iter().map(|&k| k as f64).collect::<Vec<f64>>();
    let (indptr, indices) = (as_numbers(indptr), as_numbers(indices));
    difflab_ad::background::run(&[&indptr, &indices, values], move |inputs, _| {
        let as_indices = |v: &[f64]| v.iter().map(|&x| x as usize).collect::<Vec<usize>>();
        work(&as_indices(inputs[0]), &as_indices(inputs[1]), inputs[2])
    })
}

pub(crate) mod bands;
pub(crate) mod cholesky;
pub(crate) mod construct;
pub(crate) mod decompositions;
pub(crate) mod diagonal;
pub(crate) mod factorize;
pub(crate) mod matrix_functions;
pub(crate) mod solve;
pub(crate) mod spectral;
pub(crate) mod symmetric_eigen;
pub(crate) mod thin_qr;
pub(crate) mod thin_svd;
pub(crate) mod uniform;

use construct::*;
pub use factorize::Lu;
use factorize::*;
pub(crate) use solve::solve_tensor;
pub use solve::{inv_matrix, matrix_power, solve};

/// A linear map `x ↦ M x` whose matrix `M` holds plain numbers: a factorized matrix (`M = A⁻¹`
/// or `M = A⁺`) or a sparse matrix. It acts on column-major blocks of vectors.
pub(crate) trait LinearMap {
    /// `(rows, columns)` of `M`.
    fn size(&self) -> (usize, usize);
    /// `M X` (or `Mᵀ X` when `transpose`) for `X` given column-major with `k` columns.
    fn apply_plain(&self, x: &[f64], k: usize, transpose: bool) -> AdResult<Vec<f64>>;
    /// The stored entries of `M` when it is sparse; `None` when every output depends on every
    /// input (the sparsity rule then unites all of a column's index sets).
    fn pattern(&self) -> Option<&difflab_ad::shared_sparse::SharedCsMat> {
        None
    }
}

/// `M x` (or `Mᵀ x`) for `x` a vector or a matrix of any number kind: plain numbers run the
/// kernel; a dual maps its value and each partial (the map is linear); a tracked value records
/// the transposed map as its reverse rule; tracers follow the pattern of `M`.
pub(crate) fn apply_linear(
    map: &Rc<dyn LinearMap>,
    x: &Tensor,
    transpose: bool,
) -> AdResult<Tensor> {
    let (rows, cols) = map.size();
    let (out_rows, in_rows) = if transpose {
        (cols, rows)
    } else {
        (rows, cols)
    };
    let (n, k, vector) = match *x.shape() {
        [n] => (n, 1, true),
        [n, k] => (n, k, false),
        ref shape => {
            return Err(AdError::DimensionMismatch(format!(
                "expected a vector or a matrix, got an array of size {shape:?}"
            )))
        }
    };
    if n != in_rows {
        return Err(AdError::DimensionMismatch(format!(
            "matrix has dimensions ({out_rows},{in_rows}), vector has length {n}"
        )));
    }
    let out_shape = if vector {
        vec![out_rows]
    } else {
        vec![out_rows, k]
    };
    match x {
        Tensor::Plain(a) => Ok(Tensor::from_col_major(
            &out_shape,
            map.apply_plain(&difflab_ad::tensor::col_major_slice(a), k, transpose)?,
        )),
        Tensor::Dual(d) => Ok(Tensor::dual(
            d.tag,
            apply_linear(map, &d.value, transpose)?,
            d.partials
                .iter()
                .map(|p| apply_linear(map, p, transpose))
                .collect::<AdResult<_>>()?,
        )),
        Tensor::Tracked(tr) => {
            let value = apply_linear(map, &tr.value, transpose)?;
            let (back, again) = (map.clone(), map.clone());
            let rule: Rule = Box::new(move |ct| apply_linear(&back, ct, !transpose));
            Ok(record_op(tr.tag, value, vec![(x, rule)], &[x], move |x| {
                apply_linear(&again, &x[0], transpose)
            }))
        }
        Tensor::Tracer(tr) => {
            let primal = if tr.global {
                None
            } else {
                Some(map.apply_plain(&col_major_data(&tr.primal), k, transpose)?)
            };
            let mut sets = vec![tracer::empty(); out_rows * k];
            for c in 0..k {
                let input = &tr.sets[c * in_rows..(c + 1) * in_rows];
                let output = &mut sets[c * out_rows..(c + 1) * out_rows];
                match map.pattern() {
                    Some(m) => {
                        for (j, col) in m.outer_iterator().enumerate() {
                            for (i, _) in col.iter() {
                                let (to, from) = if transpose { (j, i) } else { (i, j) };
                                output[to] = tracer::union(&output[to], &input[from]);
                            }
                        }
                    }
                    None => {
                        let all = union_all(input);
                        output.iter_mut().for_each(|s| *s = all.clone());
                    }
                }
            }
            Ok(Tensor::Tracer(Rc::new(Tracer::new(
                &out_shape, sets, primal,
            ))))
        }
        Tensor::Symbolic(_) => Err(AdError::NoRule {
            function: "a factorization's solve",
            kind: "symbolic",
        }),
    }
}

/// `SingularException(k)`: the `k`-th pivot of a factorization is zero (0 when unknown).
pub(crate) fn singular(k: usize) -> AdError {
    AdError::Argument(format!("SingularException({k})"))
}

/// Whether the plain n×n matrix `a` (column-major) equals its transpose exactly.
fn is_symmetric(n: usize, a: &[f64]) -> bool {
    (0..n).all(|j| (j + 1..n).all(|i| a[i + j * n] == a[j + i * n]))
}

fn matrix_size(a: &Tensor) -> AdResult<(usize, usize)> {
    match *a.shape() {
        [m, n] => Ok((m, n)),
        ref shape => Err(AdError::DimensionMismatch(format!(
            "expected a matrix, got an array of size {shape:?}"
        ))),
    }
}

fn square_size(a: &Tensor) -> AdResult<usize> {
    match matrix_size(a)? {
        (m, n) if m == n => Ok(n),
        (m, n) => Err(AdError::DimensionMismatch(format!(
            "matrix is not square: dimensions are ({m}, {n})"
        ))),
    }
}

/// The n×n identity, refused with `OutOfMemoryError` before it is allocated when it would
/// not fit (`pinv` of a vector of 10⁷ numbers asks for 10⁷ × 10⁷).
fn identity(n: usize) -> AdResult<Tensor> {
    difflab_ad::limits::reserve_numbers(n.saturating_mul(n))?;
    // Zeroed memory and a pass over the diagonal: no loop over all n² entries.
    let mut data = vec![0.0; n * n];
    for k in 0..n {
        data[k * (n + 1)] = 1.0;
    }
    Ok(Tensor::from_col_major(&[n, n], data))
}

/// A vector as an n×1 matrix (matrices unchanged).
fn as_matrix(t: &Tensor) -> AdResult<Tensor> {
    match *t.shape() {
        [n] => ops::reshape(t, &[n, 1]),
        _ => Ok(t.clone()),
    }
}

/// `u vᵀ` for vectors, `U Vᵀ` for matrices with as many columns.
fn outer(u: &Tensor, v: &Tensor) -> AdResult<Tensor> {
    ops::matmul(&as_matrix(u)?, &ops::transpose(&as_matrix(v)?)?)
}

fn add(a: &Tensor, b: &Tensor) -> AdResult<Tensor> {
    ops::binary(BinaryFn::Add, a, b)
}

fn sub(a: &Tensor, b: &Tensor) -> AdResult<Tensor> {
    ops::binary(BinaryFn::Sub, a, b)
}

fn trace(a: &Tensor) -> AdResult<Tensor> {
    let n = square_size(a)?;
    ops::sum_all(&ops::gather(a, &diagonal_positions(n, n, 0), &[n])?)
}

/// The numbers of a matrix-like value as a tensor (a sparse matrix becomes dense), with the
/// element type the language sees.
fn matrix_tensor(interp: &Interp, v: &Value, name: &str) -> Result<(Tensor, ElType), Flow> {
    if let Value::Sparse(s) = v {
        let s = s.borrow();
        interp.check_alloc(s.matrix.rows().saturating_mul(s.matrix.cols()))?;
        return Ok((dense_tensor(&s)?, ElType::Float64));
    }
    let o = operand(v)?.ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", v.type_name()),
        )
    })?;
    Ok((o.tensor().clone(), o.eltype))
}

/// The dense numbers of a sparse matrix or vector, refused with `OutOfMemoryError` before
/// anything is allocated when they would not fit (a sparse vector may have 10^15 entries).
pub(crate) fn dense_tensor(s: &SparseMatrix) -> Result<Tensor, Flow> {
    let (m, n) = (s.matrix.rows(), s.matrix.cols());
    difflab_ad::limits::reserve_numbers(m.saturating_mul(n))?;
    let mut data = vec![0.0; m * n];
    for (x, (i, j)) in s.matrix.iter() {
        data[i + j * m] += *x;
    }
    Ok(Tensor::from_col_major(&s.dims(), data))
}

/// For a factorization whose rules cover plain numbers, duals and tape numbers: the refusal of
/// a tensor without a tag that is not plain either (a symbolic one).
fn plain_only_rule(a: &Tensor, function: &'static str) -> AdResult<()> {
    match a {
        Tensor::Plain(_) => Ok(()),
        _ => Err(AdError::NoRule {
            function,
            kind: "symbolic",
        }),
    }
}

/// The refusal of a function without derivative rules for numbers carrying derivatives.
fn plain_only(t: &Tensor, name: &str) -> Result<(), Flow> {
    if t.is_plain() {
        Ok(())
    } else {
        Err(fail(
            ErrorKind::MethodError,
            format!("`{name}` has no derivative rule (its argument carries derivatives or sparsity tracers)"),
        ))
    }
}

/// The plain numbers of a matrix for a function without derivative rules.
fn plain_matrix(interp: &Interp, v: &Value, name: &str) -> Result<(usize, usize, Vec<f64>), Flow> {
    let (t, _) = matrix_tensor(interp, v, name)?;
    plain_only(&t, name)?;
    match *t.shape() {
        [] => Ok((1, 1, t.to_col_major())),
        [m, n] => Ok((m, n, t.to_col_major())),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", v.type_name()),
        )),
    }
}

#[cfg(test)]
mod tests;
