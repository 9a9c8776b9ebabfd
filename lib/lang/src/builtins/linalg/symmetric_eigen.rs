//! The eigendecomposition `A = V Λ Vᵀ` of a symmetric matrix for every number kind, with its
//! derivative rules. As Julia's `eigen` and `eigvals` do for a symmetric matrix, it reads the
//! upper triangle, so a tangent `Ȧ` enters as `triu(Ȧ) + triu(Ȧ, 1)ᵀ` and a gradient lies in
//! the upper triangle. Forward: with `C = VᵀȦV`, `λ̇ = diag(C)` and `V̇ = V (F ∘ C)`, where
//! `Fᵢⱼ = 1/(λⱼ − λᵢ)` off the diagonal and 0 on it. Reverse:
//! `Ā = V (Diagonal(λ̄) + F ∘ (VᵀV̄)) Vᵀ`, folded onto the upper triangle. The rules are
//! written with differentiable operations, so derivatives of derivatives follow (the Hessian of
//! an eigenvalue). A repeated eigenvalue makes `F` infinite, as in ForwardDiff and ChainRules.

use super::cholesky::{fold_onto_upper, symmetric_from_upper};
use super::construct::weighted;
use super::decompositions::numbers;
use super::*;
use difflab_ad::reverse::{tracked_with, value_below};

/// The eigenvalues (increasing) and unit eigenvectors (columns, column-major) of a plain
/// symmetric `n × n` matrix.
pub(super) fn plain_pairs(n: usize, a: &[f64]) -> AdResult<(Vec<f64>, Vec<f64>)> {
    if n == 0 {
        return Ok((Vec::new(), Vec::new()));
    }
    interruptible(a, move |a| {
        faer::MatRef::from_column_major_slice(a, n, n)
            .self_adjoint_eigen(faer::Side::Lower)
            .map(|f| {
                let s = f.S().column_vector();
                ((0..n).map(|k| s[k]).collect(), numbers(f.U()))
            })
    })?
    .map_err(|_| AdError::Argument("the eigenvalue iteration did not converge".into()))
}

/// `(λ, V)` of a symmetric matrix of plain numbers or numbers carrying derivatives (duals and
/// tape numbers, nested in any order): eigenvalues increasing, unit eigenvectors as columns.
/// A matrix whose values are not symmetric is an error (the rules hold for symmetric ones).
pub(super) fn symmetric_eigen(a: &Tensor) -> AdResult<(Tensor, Tensor)> {
    let n = square_size(a)?;
    let Some(tag) = a.tag() else {
        plain_only_rule(a, "eigen")?;
        let data = a.to_col_major();
        if !is_symmetric(n, &data) {
            return Err(AdError::Argument(
                "the derivatives of eigen and eigvals are available for symmetric matrices; \
                 wrap the matrix in Symmetric to use its upper triangle"
                    .into(),
            ));
        }
        let (values, vectors) = plain_pairs(n, &data)?;
        return Ok((
            Tensor::from_col_major(&[n], values),
            Tensor::from_col_major(&[n, n], vectors),
        ));
    };
    if tracked_with(a, tag).is_some() {
        let (values, vectors) = symmetric_eigen(value_below(a, tag))?;
        let joined = joined(&values, &vectors, n)?;
        let rule: Rule = Box::new(move |ct| gradient(&values, &vectors, ct, n));
        let node = record_op(tag, joined, vec![(a, rule)], &[a], move |x| {
            let (values, vectors) = symmetric_eigen(&x[0])?;
            self::joined(&values, &vectors, n)
        });
        return split_joined(&node, n);
    }
    let (value, partials) = a.split(tag);
    let (values, vectors) = symmetric_eigen(value)?;
    let gaps = inverse_gaps(&values, n)?;
    let vt = ops::transpose(&vectors)?;
    let mut value_partials = Vec::new();
    let mut vector_partials = Vec::new();
    for tangent in partials.unwrap_or_default() {
        let tangent = symmetric_from_upper(tangent, n)?;
        let c = ops::matmul(&vt, &ops::matmul(&tangent, &vectors)?)?;
        value_partials.push(diagonal(&c, n)?);
        let rotation = ops::binary(BinaryFn::Mul, &gaps, &c)?;
        vector_partials.push(ops::matmul(&vectors, &rotation)?);
    }
    Ok((
        Tensor::dual(tag, values, value_partials),
        Tensor::dual(tag, vectors, vector_partials),
    ))
}

/// `F`: `1/(λⱼ − λᵢ)` at `(i, j)` off the diagonal, 0 on it.
pub(super) fn inverse_gaps(values: &Tensor, n: usize) -> AdResult<Tensor> {
    let row = ops::reshape(values, &[1, n])?;
    let column = ops::reshape(values, &[n, 1])?;
    // The identity keeps the diagonal's gaps away from zero before the mask removes them.
    let gaps = ops::binary(
        BinaryFn::Add,
        &ops::binary(BinaryFn::Sub, &row, &column)?,
        &identity(n)?,
    )?;
    let inverses = ops::binary(BinaryFn::Div, &Tensor::scalar(1.0), &gaps)?;
    weighted(&inverses, (n, n), |i, j| f64::from(u8::from(i != j)))
}

/// The diagonal of an `n × n` matrix, as a vector.
pub(super) fn diagonal(c: &Tensor, n: usize) -> AdResult<Tensor> {
    let positions: Vec<usize> = (0..n).map(|k| k * (n + 1)).collect();
    ops::gather(c, &positions, &[n])
}

/// The `n × n` diagonal matrix of a vector.
pub(super) fn diagonal_matrix(v: &Tensor, n: usize) -> AdResult<Tensor> {
    let rows: Vec<usize> = (0..n * n).map(|k| k % n).collect();
    let spread = ops::gather(v, &rows, &[n, n])?;
    weighted(&spread, (n, n), |i, j| f64::from(u8::from(i == j)))
}

/// `[λ V]`, `n × (n + 1)`: both outputs as one tape node, so one rule maps their cotangents.
fn joined(values: &Tensor, vectors: &Tensor, n: usize) -> AdResult<Tensor> {
    ops::concat(&[ops::reshape(values, &[n, 1])?, vectors.clone()], 1)
}

/// `(λ, V)` from `[λ V]`.
fn split_joined(node: &Tensor, n: usize) -> AdResult<(Tensor, Tensor)> {
    let values: Vec<usize> = (0..n).collect();
    let vectors: Vec<usize> = (n..n * (n + 1)).collect();
    Ok((
        ops::gather(node, &values, &[n])?,
        ops::gather(node, &vectors, &[n, n])?,
    ))
}

/// `Ā` from the cotangent `[λ̄ V̄]` of `[λ V]`.
fn gradient(values: &Tensor, vectors: &Tensor, ct: &Tensor, n: usize) -> AdResult<Tensor> {
    let (values_bar, vectors_bar) = split_joined(ct, n)?;
    let vt = ops::transpose(vectors)?;
    let inner = ops::binary(
        BinaryFn::Add,
        &diagonal_matrix(&values_bar, n)?,
        &ops::binary(
            BinaryFn::Mul,
            &inverse_gaps(values, n)?,
            &ops::matmul(&vt, &vectors_bar)?,
        )?,
    )?;
    let c = ops::matmul(vectors, &ops::matmul(&inner, &vt)?)?;
    fold_onto_upper(&c, n)
}
